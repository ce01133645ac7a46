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

R6. Bound fixing (:func:`fix_by_bounds`), O(n log n): for any rational ``r >= 0``
and any feasible ``S`` with ``x_j = b``::

    value(S) <= r*C + sum_{i != j} max(0, v_i - r*w_i) + b*(v_j - r*w_j)

(the Lagrangian/LP dual bound of Dembo and Hammer). With ``r`` the critical
efficiency and a lower bound ``LB`` (the value of a feasible set: the greedy
fill, or the greedy prefix plus an exactly solved window of items around the
critical one), an item whose bound for ``x_j = b`` is ``< LB`` has
``x_j = 1 - b`` in every optimal selection, so it is fixed. All comparisons
are scaled by the critical weight and done in Python integers: no rounding.

R7. If a known feasible selection's value reaches ``floor(U)`` for the LP
bound ``U`` (values are integers, so ``OPT <= floor(U)``), it is optimal and
the DP is skipped (subset-sum-like instances, where no item can be fixed).

After the reductions every free item has ``v_i > 0`` and ``1 <= w_i <= C``,
which is the precondition of :mod:`.driver`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

MAX_BOUND_ROUNDS = 5
"""Rounds of bound fixing: the greedy bound, then up to one round per window width
(and one more)."""


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
    forced: list[int] = []
    free: list[int] = []
    for i in items:
        if values[i] > 0 and weights[i] <= capacity:
            (free if weights[i] else forced).append(i)
    total = sum(weights[i] for i in free)
    if total <= capacity:
        return Reduced(tuple(forced + free), (), 0)
    return Reduced(tuple(forced), tuple(free), min(capacity, total))


def _efficiency_order(
    weights: Sequence[int], values: Sequence[int], items: Sequence[int]
) -> list[int]:
    """Items by decreasing ``v/w`` (a float quotient, ties in the order given). The order
    only affects how strong the bounds are, never their validity (the bound of
    R6 holds for any ``r >= 0``), so rounding in the key is harmless; values
    are shifted right by a common amount so the quotient never overflows."""
    shift = max(0, max((values[i] for i in items), default=0).bit_length() - 1000)
    # ``items`` is ascending and the sort is stable: ties stay in index order.
    return sorted(items, key=lambda i: -((values[i] >> shift) / weights[i]))


WINDOW_HALF_WIDTHS = (4, 8, 32)
"""Items on each side of the critical item that the window lower bound
re-solves: the first window round uses the first width, a later one (if the
core is still large) the next. Wider windows cost ``O(width**2)`` cells but
fill the capacity more exactly, which strongly correlated and subset-sum
instances need before any item can be fixed; the narrow first window is
enough for uncorrelated and weakly correlated cores (measured, n = 100,
Q = 1e5: 1.0 -> 0.7 ms and 1.3 -> 1.0 ms against widths (8, 32))."""

WINDOW_MIN_CELLS = 1 << 14
"""A window of half-width 8 is solved only for cores whose table has more
cells than this; the threshold scales with the square of the width
(``WINDOW_MIN_CELLS * width**2 // 64``)."""

WindowSolver = Callable[[Sequence[int], int], "list[int] | None"]
"""``solve(items, capacity)``: an optimal subset, or ``None`` to decline."""


class Fixing(NamedTuple):
    """What one round of bound fixing proved.

    Attributes:
        fixed_in: items every optimal selection saves (Lemma 7.2).
        fixed_out: items no optimal selection saves (Lemma 7.2).
        optimal: a feasible selection whose value reaches the integer upper
            bound, hence optimal (R7), or ``None``.
    """

    fixed_in: list[int]
    fixed_out: list[int]
    optimal: list[int] | None


def fix_by_bounds(
    weights: Sequence[int],
    values: Sequence[int],
    items: Sequence[int],
    capacity: int,
    solve_window: WindowSolver | None = None,
    half_width: int = WINDOW_HALF_WIDTHS[0],
) -> Fixing:
    """Fix items by the LP bound, or prove a known selection optimal.

    Precondition: the output of :func:`basic_reductions` with ``free`` non-empty
    (so the items do not all fit). The lower bound ``LB`` is the value of the
    greedy fill, or, if ``solve_window`` is given and answers, of the greedy
    prefix before a window of ``2 * half_width`` items around the
    critical one plus an optimal subset of that window for the capacity left
    (the "core problem"; both are feasible sets, proofs/07 R6). Time
    O(n log n) integer operations plus one window solve.
    """
    order = _efficiency_order(weights, values, items)
    room, critical, incumbent = capacity, -1, []
    for position, i in enumerate(order):
        if weights[i] <= room:
            room -= weights[i]
            incumbent.append(i)
        elif critical < 0:
            critical = position
    if solve_window is not None:
        window_set = _window_selection(weights, order, critical, capacity, solve_window, half_width)
        if sum(values[i] for i in window_set) > sum(values[i] for i in incumbent):
            incumbent = window_set
    lower_bound = sum(values[i] for i in incumbent)
    # r = v_s / w_s; every quantity below is multiplied by w_s > 0.
    v_s, w_s = values[order[critical]], weights[order[critical]]

    # Reduced costs D_i are recomputed in each pass rather than stored: for
    # large n they are the biggest transient object here.
    positive = (w_s * values[i] - v_s * weights[i] for i in items)
    base = v_s * capacity + sum(d for d in positive if d > 0)
    if w_s * (lower_bound + 1) > base:  # LB >= floor(U) >= OPT (R7)
        return Fixing([], [], incumbent)
    slack = base - w_s * lower_bound  # fix when |D_i| > slack
    fixed_in, fixed_out = [], []
    for i in items:
        d = w_s * values[i] - v_s * weights[i]
        if d > slack:
            fixed_in.append(i)
        elif -d > slack:
            fixed_out.append(i)
    return Fixing(fixed_in, fixed_out, None)


def _window_selection(
    weights: Sequence[int],
    order: Sequence[int],
    critical: int,
    capacity: int,
    solve_window: WindowSolver,
    half_width: int,
) -> list[int]:
    """``prefix + optimal(window)``, a feasible set; empty if declined.

    Every item before the critical position fits together (the greedy took
    them all), so the prefix before the window weighs at most ``capacity``.
    """
    first = max(0, critical - half_width)
    prefix = list(order[:first])
    window = order[first : critical + half_width]
    chosen = solve_window(window, capacity - sum(weights[i] for i in prefix))
    if chosen is None:
        return []
    return prefix + chosen


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
    reductions on what is left). The first round uses the greedy bound; each
    later round whose core table is still large (more than
    ``WINDOW_MIN_CELLS * width**2 // 64`` cells, and at least
    ``4 * width`` items, twice the window) also solves the
    next window of :data:`WINDOW_HALF_WIDTHS` (on small cores the DP is cheaper
    than a window). Time O(n log n) per round plus at most one solve per width.
    """
    reduced = basic_reductions(weights, values, range(len(weights)), capacity)
    forced = list(reduced.forced)
    widths = list(WINDOW_HALF_WIDTHS) if solve_window is not None else []
    for round_number in range(MAX_BOUND_ROUNDS if use_bounds else 0):
        if not reduced.free:
            break
        cells = len(reduced.free) * (reduced.capacity + 1)
        wide = (
            bool(widths)
            and cells > WINDOW_MIN_CELLS * widths[0] ** 2 // 64
            and 4 * widths[0] <= len(reduced.free)
        )
        half_width = widths.pop(0) if wide and round_number > 0 else 0
        fixed_in, fixed_out, optimal = fix_by_bounds(
            weights,
            values,
            reduced.free,
            reduced.capacity,
            solve_window if half_width else None,
            half_width,
        )
        if optimal is not None:
            return Reduced(tuple(forced + optimal), (), 0)
        if not fixed_in and not fixed_out:
            if wide and not half_width:
                continue  # the greedy bound fixed nothing: try the window
            if half_width and widths:
                continue  # this window fixed nothing: try the wider one
            break
        settled = bytearray(len(weights))
        for i in (*fixed_in, *fixed_out):
            settled[i] = 1
        forced += fixed_in
        remaining = [i for i in reduced.free if not settled[i]]
        room = reduced.capacity - sum(weights[i] for i in fixed_in)
        reduced = basic_reductions(weights, values, remaining, room)
        forced += reduced.forced
    return Reduced(tuple(forced), reduced.free, reduced.capacity)
