"""Every budget of one call in one pass: the exact runtime-memory frontier.

torch calls the solver many times on the same items: the knee-point search of
``activation_memory_budget_solver="dynamic_memory_budget_dp"``
(``KnapsackEvaluator.get_knee_point_memory_budget``, 100 ``dp_knapsack``
calls at budgets 0.001..b) and the Pareto plot of
``visualize_memory_budget_pareto`` (bisection down to 1e-3). One sliding
profile row holds the optimum for every budget at once (proofs/04)::

    P[c] = OPT(N, c)   for c = 0..Q,   OPT(i, c) = max(OPT(i-1, c), v_i + OPT(i-1, c - w_i)).

:func:`runtime_memory_frontier` computes that row exactly and keeps its
*breakpoints*, the budgets ``c`` with ``P[c] > P[c - 1]`` (and ``c = 0``):
``P`` is a non-decreasing step function, so they determine it. It fills the
full table of the items in index order once, recording every decision
``v_i + P[c - w_i] > P[c]`` (one byte each, or one bit in packed words for
large tables: :meth:`.backends.TorchBackend.decision_table`), so
:func:`selection_at` backtracks the canonical selection (SPEC 6.1, the
reference's) of any budget in O(n) time. Columns are in units of the
weights' gcd (proofs/11, "Common factors"). When that table would exceed
:data:`TABLE_MAX_BYTES` (or int64), the row is computed over the bundles of
identical items instead (:mod:`.grouping`, proofs/10 Lemma 10.2 at every
capacity) and :func:`selection_at` runs the solver per budget, in O(Q)
memory.

Equivalent to, but faster than, calling
:func:`knapsack_audit.reference.dp_knapsack` per budget (with the table) or
:func:`~knapsack_audit.optimized.dp_knapsack_sliding_hirschberg` per budget
(without): ``selection_at(runtime_memory_frontier(m, r, Q), b)`` returns the
very triple that solver returns for ``(m, r, b)``, and ``frontier.optimum(c)``
is its exact value (proofs/11).

Cost: with the table, time O(n * C) cells in three kernel launches per
item (seven when packed), memory ``3 (C + 1) * 8 + 2 n (C + 1)`` bytes
(packed: ``(3 + ceil(n / 63)) (C + 1) * 8``) with ``C = min(Q, sum w) / g``
and ``g`` the weights' gcd; without, O(n + n_b * C) time for the row (``n_b``
bundles) and three rows of memory, plus one solve per :func:`selection_at`.
Breakpoints: O(C) time and memory.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import torch

from knapsack_audit.reference.validation import (
    Instance,
    format_result,
    integer_runtimes,
    quantized_budget,
    validate,
)

from .backends import DecisionTable, PythonBackend, TorchBackend, bits_per_word
from .grouping import group, item_types, with_singletons
from .solver import profile_dtype, require_solver_buffers, solve_integers

TABLE_MAX_BYTES = 1 << 26
"""The packed decision table of every budget (``ceil(n / 63) * (C + 1)`` int64
words) is kept when it needs at most this many bytes (64 MiB, the size below
which SPEC 1.6 checks nothing); beyond, and when the values do not fit int64,
:func:`selection_at` runs the solver per budget. Tests set 0 to force that."""

BYTE_TABLE_MAX_BYTES = 1 << 25
"""Tables of at most this many cells (32 MiB) keep one byte per decision
(three kernel launches per item instead of seven; the ``bytes`` copy doubles
it for a moment, so at most :data:`TABLE_MAX_BYTES`); larger ones are packed.
Tests set 0 to force the packed table."""


@dataclass(frozen=True)
class RuntimeMemoryFrontier:
    """The exact optimum of one call at every budget ``0..capacity`` (units of 1e-4).

    Attributes:
        capacity: ``Q`` of the ``max_memory`` the frontier was built for.
        budgets: the breakpoints, ascending: ``0`` and every ``c <= Q`` with
            ``OPT(c) > OPT(c - 1)``; the Pareto-optimal (memory, runtime saved)
            points of the call.
        optima: ``OPT(c)`` at each breakpoint, exact (SPEC 3.2), increasing
            (built on first use: a call has up to ``Q + 1`` breakpoints, and
            the knee search reads none of them).
    """

    capacity: int
    budgets: tuple[int, ...]
    _scaled_optima: tuple[int, ...] = field(repr=False)  # OPT(c) * 2**shift
    _shift: int = field(repr=False)
    _instance: Instance = field(repr=False, compare=False)
    _values: tuple[int, ...] = field(repr=False, compare=False)
    _forced: tuple[int, ...] = field(repr=False, compare=False)
    _table: DecisionTable | None = field(repr=False, compare=False)
    _step: int = field(repr=False, compare=False)  # the weights' gcd: the table's column unit

    def optimum(self, budget: int) -> Fraction:
        """``OPT(budget)`` for ``0 <= budget <= capacity`` (units). Time O(log breakpoints)."""
        if not 0 <= budget <= self.capacity:
            raise ValueError(f"budget must be in 0..{self.capacity} units, got {budget}")
        scaled = self._scaled_optima[bisect.bisect_right(self.budgets, budget) - 1]
        return Fraction(scaled, 1 << self._shift)

    @functools.cached_property
    def optima(self) -> tuple[Fraction, ...]:
        """``OPT(c)`` at each breakpoint ``c`` of :attr:`budgets`, exact."""
        return tuple(Fraction(scaled, 1 << self._shift) for scaled in self._scaled_optima)


def runtime_memory_frontier(
    memory: Sequence[float], runtime: Sequence[float], max_memory: float
) -> RuntimeMemoryFrontier:
    """The exact optimum for every budget ``0..Q`` of one call, in one pass.

    Args: as :func:`~knapsack_audit.optimized.dp_knapsack_sliding_hirschberg`,
    with the same validation and errors (SPEC 1), including SPEC 1.6 for the
    largest budget ``Q``.

    >>> frontier = runtime_memory_frontier([1e-4, 2e-4, 2e-4], [1.0, 3.0, 3.0], 5e-4)
    >>> frontier.budgets, [str(v) for v in frontier.optima]
    ((0, 1, 2, 3, 4, 5), ['0', '1', '3', '4', '6', '7'])
    """
    instance = validate(memory, runtime, max_memory)
    require_solver_buffers(instance)
    values, shift = integer_runtimes(instance.runtimes)
    weights, capacity = instance.weights, instance.capacity
    positive = [i for i in range(instance.n) if values[i] > 0 and weights[i] <= capacity]
    forced = [i for i in positive if weights[i] == 0]
    items = [i for i in positive if weights[i] > 0]
    # Both gcds change no comparison (proofs/11 "Common factors"): values by
    # their gcd, and weights by theirs with column c read at c // step.
    divisor = math.gcd(*(values[i] for i in items)) or 1
    step = math.gcd(*(weights[i] for i in items)) or 1
    reduced = [v // divisor if weights[i] else v for i, v in enumerate(values)]
    steps = [w // step for w in weights]
    columns = min(capacity // step, sum(steps[i] for i in items))
    table = _decision_table(steps, reduced, items, columns)
    row = _profile(steps, reduced, items, columns) if table is None else table.row
    growth = [0, *(c for c in range(1, len(row)) if row[c] != row[c - 1])]
    base = sum(values[i] for i in forced)
    return RuntimeMemoryFrontier(
        capacity,
        tuple(c * step for c in growth),
        tuple(base + row[c] * divisor for c in growth),
        shift,
        instance,
        tuple(values),
        tuple(forced),
        table,
        step,
    )


def _decision_table(
    weights: Sequence[int], values: Sequence[int], items: list[int], columns: int
) -> DecisionTable | None:
    """Every decision of the full table of ``items`` in index order: one byte
    each up to :data:`BYTE_TABLE_MAX_BYTES`, else packed up to
    :data:`TABLE_MAX_BYTES`; ``None`` beyond, or when values exceed int64."""
    if not items or profile_dtype(sum(values[i] for i in items)) is None:
        return None
    cells = len(items) * (columns + 1)
    if cells <= BYTE_TABLE_MAX_BYTES and 2 * cells <= TABLE_MAX_BYTES:
        backend = TorchBackend(weights, values, columns, torch.int64, 1)
        return backend.decision_table(items, columns, one_byte_each=True)
    words = -(-len(items) // bits_per_word(torch.int64)) * (columns + 1)
    if 8 * words > TABLE_MAX_BYTES:
        return None
    backend = TorchBackend(weights, values, columns, torch.int64, words)
    return backend.decision_table(items, columns)


def _profile(
    weights: Sequence[int], values: Sequence[int], items: list[int], columns: int
) -> list[int]:
    """``P[c] = OPT(items, c)`` for ``c = 0..columns``, over the bundles of
    identical items (proofs/10, Lemma 10.2 at every capacity)."""
    item_weights = [weights[i] for i in items]
    item_values = [values[i] for i in items]
    types = with_singletons(len(items), item_types(item_weights, item_values))
    grouped = group(item_weights, item_values, types)
    bundles = range(len(grouped.weights))
    dtype = profile_dtype(sum(grouped.values))
    if dtype is None:
        return PythonBackend(grouped.weights, grouped.values).profile(bundles, columns)
    return TorchBackend(grouped.weights, grouped.values, columns, dtype, 1).profile(
        bundles, columns
    )


def selection_at(
    frontier: RuntimeMemoryFrontier, max_memory: float
) -> tuple[float, list[int], list[int]]:
    """An optimal selection at budget ``max_memory`` (quantized, at most ``Q``).

    With the decision table (:data:`TABLE_MAX_BYTES`), the canonical
    selection of SPEC 6.1, the one :func:`knapsack_audit.reference.dp_knapsack`
    returns, by backtracking in O(n); otherwise the answer of
    :func:`~knapsack_audit.optimized.dp_knapsack_sliding_hirschberg` (one
    solve). Either way SPEC 7 conventions, copies as SPEC 6.3, and exact value
    ``frontier.optimum(quantize(max_memory))``.

    Raises:
        TypeError, ValueError: ``max_memory`` invalid (SPEC 1.2, 1.3, 1.5), or
            above the frontier's budget.
    """
    budget = quantized_budget(max_memory)
    if budget > frontier.capacity:
        raise ValueError(
            f"max_memory quantizes to {budget} units, above the frontier's "
            f"{frontier.capacity}; build the frontier for the largest budget"
        )
    instance = frontier._instance
    if frontier._table is not None:
        columns = len(frontier._table.row) - 1
        chosen = frontier._table.backtrack(min(budget // frontier._step, columns))
        return format_result(instance.runtimes, [*frontier._forced, *chosen])
    instance = dataclasses.replace(instance, capacity=budget)
    saved = solve_integers(instance, list(instance.weights), list(frontier._values))
    return format_result(instance.runtimes, saved)
