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
``Config.table_max_bytes`` (or int64), the row is computed over the bundles of
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
)

from .backends import DecisionTable, PythonBackend, TorchBackend, bits_per_word
from .config import current
from .grouping import bundles_of, item_types
from .reductions import Core, split_items
from .solver import allocation_failure_as_memory_error, profile_dtype, read, solve_integers


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


@allocation_failure_as_memory_error
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
    instance = read(memory, runtime, max_memory)  # 1. read
    values, shift = integer_runtimes(instance.runtimes)  # 2. exact integers
    weights, capacity = instance.weights, instance.capacity
    # 3. reduce: R1-R3 only (R4 and the bound hold for one budget, not all)
    forced, items = split_items(weights, values, range(instance.n), capacity)
    # Both gcds change no comparison (proofs/11 "Common factors"): values by
    # their gcd (Core.divided), and weights by theirs with column c read at c // step.
    step = math.gcd(*(weights[i] for i in items)) or 1
    steps = [w // step for w in weights]
    core = Core(steps, values, tuple(items), capacity // step)
    divisor = core.value_gcd
    core = core.divided()
    columns = min(core.capacity, sum(steps[i] for i in items))
    table = _decision_table(core, columns)  # 4. solve, with every decision
    row = _profile(core, columns) if table is None else table.row
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


def _decision_table(core: Core, columns: int) -> DecisionTable | None:
    """Every decision of the full table of the core's items in index order: one
    byte each up to ``Config.byte_table_max_bytes``, else packed up to
    ``Config.table_max_bytes`` (:class:`.config.Config`); ``None`` beyond, or
    when values exceed int64."""
    items = core.items
    if not items or profile_dtype(core.value_total) is None:
        return None
    cells = len(items) * (columns + 1)
    config = current()
    if cells <= config.byte_table_max_bytes and 2 * cells <= config.table_max_bytes:
        backend = TorchBackend(core.weights, core.values, columns, torch.int64, 1)
        return backend.decision_table(items, columns, one_byte_each=True)
    words = -(-len(items) // bits_per_word(torch.int64)) * (columns + 1)
    if 8 * words > config.table_max_bytes:
        return None
    backend = TorchBackend(core.weights, core.values, columns, torch.int64, words)
    return backend.decision_table(items, columns)


def _profile(core: Core, columns: int) -> list[int]:
    """``P[c] = OPT(items, c)`` for ``c = 0..columns``, over the bundles of
    identical items (proofs/10, Lemma 10.2 at every capacity)."""
    bundles = bundles_of(
        item_types([core.weights[i] for i in core.items], [core.values[i] for i in core.items])
    )
    indices = range(len(bundles.weights))
    dtype = profile_dtype(sum(bundles.values))
    if dtype is None:
        return PythonBackend(bundles.weights, bundles.values).profile(indices, columns)
    return TorchBackend(bundles.weights, bundles.values, columns, dtype, 1).profile(
        indices, columns
    )


@allocation_failure_as_memory_error
def selection_at(
    frontier: RuntimeMemoryFrontier, max_memory: float
) -> tuple[float, list[int], list[int]]:
    """An optimal selection at budget ``max_memory`` (quantized, at most ``Q``).

    With the decision table (``Config.table_max_bytes``), the canonical
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


def frontier_knapsack(
    memory: list[float], runtime: list[float], max_memory: float
) -> tuple[float, list[int], list[int]]:
    """Upstream's signature through the frontier: ``selection_at(
    runtime_memory_frontier(memory, runtime, max_memory), max_memory)``, the
    canonical selection of SPEC 6.1 (the reference's) where the decision table
    fits, else the solver's answer; same validation and errors (SPEC 1).

    >>> frontier_knapsack([1e-4] * 3, [1.0] * 3, 1e-4)
    (1.0, [0], [2, 1])
    """
    return selection_at(runtime_memory_frontier(memory, runtime, max_memory), max_memory)
