"""Exact reductions applied before the dynamic programme (proofs/07_reductions.md).

Every reduction here keeps at least one optimal selection reachable (SPEC 3.3);
most keep *every* optimal selection. They work on exact Python integers: the
weights ``w_i`` of SPEC 2 and the scaled runtimes ``v_i`` of
:func:`~knapsack_audit.reference.validation.integer_runtimes`.

Basic reductions (:func:`basic_reductions`), each O(n):

R1. ``v_i <= 0``: never saved (SPEC 4.2; leaving it out never lowers the value).
R2. ``w_i > Q``: never fits.
R3. ``w_i == 0`` and ``v_i > 0``: always saved (adding it is strictly better).
R4. If the remaining items weigh at most ``Q`` together, save them all.
R5. Otherwise cap the capacity at ``C = min(Q, sum of remaining weights)``.

Bound fixing (:func:`fix_by_bounds`), O(n log n): for any rational ``r >= 0``
and any feasible ``S`` with ``x_j = b``::

    value(S) <= r*C + sum_{i != j} max(0, v_i - r*w_i) + b*(v_j - r*w_j)

(the Lagrangian/LP dual bound of Dembo and Hammer). With ``r`` the critical
efficiency and a lower bound ``LB`` (the value of a feasible set: the greedy
fill, or the greedy prefix plus an exactly solved window of items around the
critical one), an item whose bound for ``x_j = b`` is ``< LB`` has
``x_j = 1 - b`` in every optimal selection, so it is fixed. All comparisons
are scaled by the critical weight and done in Python integers: no rounding.

After the reductions every free item has ``v_i > 0`` and ``1 <= w_i <= C``,
which is the precondition of :mod:`.driver`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

MAX_BOUND_ROUNDS = 3
"""Rounds of bound fixing; on random instances the second round already fixes nothing."""

EFFICIENCY_FRACTION_BITS = 64
"""Fixed-point bits of the efficiency key used only to *order* items."""


@dataclass(frozen=True)
class Reduced:
    """The result of the exact reductions.

    Attributes:
        forced: items saved without the DP (R3, R4, fixed by bounds).
        free: items left for the DP: ``v_i > 0`` and ``1 <= w_i <= capacity``.
        capacity: the capacity left for ``free``, at most their total weight
            (0 when ``free`` is empty).
    """

    forced: tuple[int, ...]
    free: tuple[int, ...]
    capacity: int


def basic_reductions(
    weights: Sequence[int], values: Sequence[int], items: Sequence[int], capacity: int
) -> Reduced:
    """Apply R1-R5 to ``items`` with budget ``capacity``. Time O(len(items))."""
    candidates = [i for i in items if values[i] > 0 and weights[i] <= capacity]
    forced = [i for i in candidates if weights[i] == 0]
    free = [i for i in candidates if weights[i] > 0]
    total = sum(weights[i] for i in free)
    if total <= capacity:
        return Reduced(tuple(forced + free), (), 0)
    return Reduced(tuple(forced), tuple(free), min(capacity, total))


def _efficiency_order(
    weights: Sequence[int], values: Sequence[int], items: Sequence[int]
) -> list[int]:
    """Items by decreasing ``v/w`` (fixed-point key, ties by index); the order only
    affects how strong the bounds are, never their validity."""
    return sorted(
        items, key=lambda i: (-((values[i] << EFFICIENCY_FRACTION_BITS) // weights[i]), i)
    )


WINDOW_HALF_WIDTH = 8
"""Items on each side of the critical item that the window lower bound re-solves."""

WindowSolver = Callable[[Sequence[int], int], "list[int] | None"]
"""``solve(items, capacity)``: an optimal subset, or ``None`` to decline."""


def fix_by_bounds(
    weights: Sequence[int],
    values: Sequence[int],
    items: Sequence[int],
    capacity: int,
    solve_window: WindowSolver | None = None,
) -> tuple[list[int], list[int]]:
    """Items that every optimal selection saves, and items it never saves.

    Precondition: the output of :func:`basic_reductions` with ``free`` non-empty
    (so the items do not all fit). The lower bound ``LB`` is the value of the
    greedy fill, or, if ``solve_window`` is given and answers, of the greedy
    prefix before a window of ``2 * WINDOW_HALF_WIDTH`` items around the
    critical one plus an optimal subset of that window for the capacity left
    (the "core problem"; both are feasible sets, proofs/07 R6). Time
    O(n log n) integer operations plus one window solve.

    Returns:
        ``(fixed_in, fixed_out)``.
    """
    order = _efficiency_order(weights, values, items)
    room, lower_bound, critical = capacity, 0, -1
    for position, i in enumerate(order):
        if weights[i] <= room:
            room -= weights[i]
            lower_bound += values[i]
        elif critical < 0:
            critical = position
    if solve_window is not None:
        lower_bound = max(
            lower_bound,
            _window_lower_bound(weights, values, order, critical, capacity, solve_window),
        )
    # r = v_s / w_s; every quantity below is multiplied by w_s > 0.
    v_s, w_s = values[order[critical]], weights[order[critical]]
    reduced_costs = {i: w_s * values[i] - v_s * weights[i] for i in items}
    base = v_s * capacity + sum(d for d in reduced_costs.values() if d > 0)
    target = w_s * lower_bound
    fixed_in = [i for i in items if reduced_costs[i] > 0 and base - reduced_costs[i] < target]
    fixed_out = [i for i in items if reduced_costs[i] < 0 and base + reduced_costs[i] < target]
    return fixed_in, fixed_out


def _window_lower_bound(
    weights: Sequence[int],
    values: Sequence[int],
    order: Sequence[int],
    critical: int,
    capacity: int,
    solve_window: WindowSolver,
) -> int:
    """Value of ``prefix + optimal(window)``, a feasible set; 0 if declined.

    Every item before the critical position fits together (the greedy took
    them all), so the prefix before the window weighs at most ``capacity``.
    """
    first = max(0, critical - WINDOW_HALF_WIDTH)
    prefix = order[:first]
    window = order[first : critical + WINDOW_HALF_WIDTH]
    chosen = solve_window(window, capacity - sum(weights[i] for i in prefix))
    if chosen is None:
        return 0
    return sum(values[i] for i in prefix) + sum(values[i] for i in chosen)


def reduce_instance(
    weights: Sequence[int],
    values: Sequence[int],
    capacity: int,
    *,
    use_bounds: bool = True,
    solve_window: WindowSolver | None = None,
) -> Reduced:
    """Apply the basic reductions and, if ``use_bounds``, up to
    :data:`MAX_BOUND_ROUNDS` rounds of bound fixing (each followed by the basic
    reductions on what is left). Only the first round solves the window (it
    does most of the fixing); later rounds use the greedy bound. Time
    O(n log n) plus one window solve.
    """
    reduced = basic_reductions(weights, values, range(len(weights)), capacity)
    forced = list(reduced.forced)
    for round_number in range(MAX_BOUND_ROUNDS if use_bounds else 0):
        if not reduced.free:
            break
        window = solve_window if round_number == 0 else None
        fixed_in, fixed_out = fix_by_bounds(weights, values, reduced.free, reduced.capacity, window)
        if not fixed_in and not fixed_out:
            break
        settled = set(fixed_in) | set(fixed_out)
        forced += fixed_in
        remaining = [i for i in reduced.free if i not in settled]
        room = reduced.capacity - sum(weights[i] for i in fixed_in)
        reduced = basic_reductions(weights, values, remaining, room)
        forced += reduced.forced
    return Reduced(tuple(forced), reduced.free, reduced.capacity)
