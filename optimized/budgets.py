"""Every budget of one call in one pass: the exact runtime-memory frontier.

torch calls the solver many times on the same items: the knee-point search of
``activation_memory_budget_solver="dynamic_memory_budget_dp"``
(``KnapsackEvaluator.get_knee_point_memory_budget``, 100 ``dp_knapsack``
calls at budgets 0.001..b) and the Pareto plot of
``visualize_memory_budget_pareto`` (bisection down to 1e-3). One sliding
profile row holds the optimum for every budget at once (proofs/04)::

    P[c] = OPT(N, c)   for c = 0..Q,   OPT(i, c) = max(OPT(i-1, c), v_i + OPT(i-1, c - w_i)).

:func:`runtime_memory_frontier` computes that row exactly over the bundles of
identical items (:mod:`.grouping`; the bundles have the same optimum at every
capacity, proofs/10 Lemma 10.2) and keeps its *breakpoints*, the budgets
``c`` with ``P[c] > P[c - 1]`` (and ``c = 0``): ``P`` is a non-decreasing step
function, so they determine it. :func:`selection_at` recovers an optimal
selection for any budget ``0..Q`` with the solver's own pipeline (O(Q)
memory), without validating the items again.

Equivalent to, but faster than, calling
:func:`~knapsack_audit.optimized.dp_knapsack_sliding_hirschberg` per budget:
``selection_at(runtime_memory_frontier(m, r, Q), b)`` returns the very triple
``dp_knapsack_sliding_hirschberg(m, r, b)`` does, and
``frontier.optimum(c)`` is the exact value of that selection.

Cost: time O(n + n_b * C) for the row (``n_b`` bundles, ``C = min(Q, sum
w)``) plus O(C) for the breakpoints; memory three rows of ``C + 1`` int64
(Python ints when the total value exceeds int64) and O(C + n) for the
breakpoints; :func:`selection_at` costs one solve.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from knapsack_audit.reference.validation import (
    Instance,
    format_result,
    integer_runtimes,
    validate,
)

from .backends import PythonBackend, TorchBackend
from .grouping import group, item_types
from .solver import profile_dtype, require_solver_buffers, solve_integers


@dataclass(frozen=True)
class RuntimeMemoryFrontier:
    """The exact optimum of one call at every budget ``0..capacity`` (units of 1e-4).

    Attributes:
        capacity: ``Q`` of the ``max_memory`` the frontier was built for.
        budgets: the breakpoints, ascending: ``0`` and every ``c <= Q`` with
            ``OPT(c) > OPT(c - 1)``; the Pareto-optimal (memory, runtime saved)
            points of the call.
        optima: ``OPT(c)`` at each breakpoint, exact (SPEC 3.2), increasing.
    """

    capacity: int
    budgets: tuple[int, ...]
    optima: tuple[Fraction, ...]
    _instance: Instance = field(repr=False, compare=False)
    _values: tuple[int, ...] = field(repr=False, compare=False)

    def optimum(self, budget: int) -> Fraction:
        """``OPT(budget)`` for ``0 <= budget <= capacity`` (units). Time O(log breakpoints)."""
        if not 0 <= budget <= self.capacity:
            raise ValueError(f"budget must be in 0..{self.capacity} units, got {budget}")
        return self.optima[bisect.bisect_right(self.budgets, budget) - 1]


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
    capacity = instance.capacity
    usable = [
        i for i in range(instance.n) if values[i] > 0 and 1 <= instance.weights[i] <= capacity
    ]
    base = sum(values[i] for i in range(instance.n) if values[i] > 0 and instance.weights[i] == 0)
    weights = [instance.weights[i] for i in usable]
    usable_values = [values[i] for i in usable]
    grouped = group(weights, usable_values, item_types(weights, usable_values))
    row = _profile(grouped.weights, grouped.values, capacity)
    budgets = [0, *(c for c in range(1, len(row)) if row[c] != row[c - 1])]
    scale = 1 << shift
    return RuntimeMemoryFrontier(
        capacity,
        tuple(budgets),
        tuple(Fraction(base + row[c], scale) for c in budgets),
        instance,
        tuple(values),
    )


def _profile(weights: list[int], values: list[int], capacity: int) -> list[int]:
    """``P[c] = OPT(bundles, c)`` for ``c = 0..min(capacity, sum w)``; beyond, P is constant."""
    columns = min(capacity, sum(weights))
    items = range(len(weights))
    dtype = profile_dtype(sum(values))
    if dtype is None:
        return PythonBackend(weights, values).profile(items, columns)
    return TorchBackend(weights, values, columns, dtype, 1).profile(items, columns)


def selection_at(
    frontier: RuntimeMemoryFrontier, max_memory: float
) -> tuple[float, list[int], list[int]]:
    """An optimal selection at budget ``max_memory`` (quantized, at most ``Q``).

    Returns the triple of
    :func:`~knapsack_audit.optimized.dp_knapsack_sliding_hirschberg` on the
    frontier's items (SPEC 7, copies as SPEC 6.3), whose exact value is
    ``frontier.optimum(quantize(max_memory))``.

    Raises:
        TypeError, ValueError: ``max_memory`` invalid (SPEC 1.2, 1.3, 1.5), or
            above the frontier's budget.
    """
    budget = validate([], [], max_memory).capacity
    if budget > frontier.capacity:
        raise ValueError(
            f"max_memory quantizes to {budget} units, above the frontier's "
            f"{frontier.capacity}; build the frontier for the largest budget"
        )
    instance = dataclasses.replace(frontier._instance, capacity=budget)
    saved = solve_integers(instance, list(instance.weights), list(frontier._values))
    return format_result(instance.runtimes, saved)
