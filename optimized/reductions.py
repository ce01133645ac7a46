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

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .config import current

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


@dataclass(frozen=True)
class Core:
    """The typed intermediate between the stages: items of exact integer
    ``weights`` and ``values`` (indexed by item) and a capacity.

    What :func:`reduce_instance` leaves (``v_i > 0``, ``1 <= w_i <= capacity``
    for every item of ``items``, which is the precondition of :mod:`.driver`,
    :mod:`.frontier` and the backends), and what the solve stage of
    :mod:`.solver` and the all-budgets frontier of :mod:`.budgets` take.
    """

    weights: Sequence[int]
    values: Sequence[int]
    items: tuple[int, ...]
    capacity: int

    @property
    def cells(self) -> int:
        """The cells of its full table: ``len(items) * (capacity + 1)``."""
        return len(self.items) * (self.capacity + 1)

    @property
    def value_total(self) -> int:
        """``sum(values[i] for i in items)``: every subset value lies in ``0..`` it."""
        return sum(self.values[i] for i in self.items)

    @property
    def value_gcd(self) -> int:
        """The gcd of its items' values (1 for no items)."""
        return math.gcd(*(self.values[i] for i in self.items)) or 1

    def divided(self) -> Core:
        """The same core with its items' values divided by :attr:`value_gcd`
        (same optimal selections, smaller numbers; proofs/07). Copies ``values``."""
        values = list(self.values)
        divisor = self.value_gcd
        for i in self.items:
            values[i] //= divisor
        return Core(self.weights, values, self.items, self.capacity)


def split_items(
    weights: Sequence[int], values: Sequence[int], items: Iterable[int], capacity: int
) -> tuple[list[int], list[int]]:
    """R1-R3: ``(forced, free)``, the zero-weight items with ``v_i > 0`` (always
    saved) and the items with ``v_i > 0`` and ``1 <= w_i <= capacity``; the
    rest is never saved. Time O(len(items))."""
    forced: list[int] = []
    free: list[int] = []
    for i in items:
        if values[i] > 0 and weights[i] <= capacity:
            (free if weights[i] else forced).append(i)
    return forced, free


def basic_reductions(
    weights: Sequence[int], values: Sequence[int], items: Iterable[int], capacity: int
) -> Reduced:
    """Apply R1-R5 to ``items`` with budget ``capacity``. Time O(len(items))."""
    forced, free = split_items(weights, values, items, capacity)
    total = sum(weights[i] for i in free)
    if total <= capacity:
        return Reduced(tuple(forced + free), (), 0)
    return Reduced(tuple(forced), tuple(free), min(capacity, total))


def efficiency_order(
    weights: Sequence[int], values: Sequence[int], items: Sequence[int], *, exact: bool = True
) -> list[int]:
    """``items`` (each ``w_i >= 1``, ascending) by decreasing ``v_i / w_i``, ties by
    ascending index: the order of the greedy fill and of the LP bound (:func:`lp_slack`)
    for items here and for types in :mod:`.bounded` (its tie rule, proofs/12
    "Ties", needs ``exact``).

    A float key sorts first; values are shifted right by a common amount so
    the quotient never overflows a float (a subnormal runtime scales the
    others by up to 2**1074). With ``exact``, an insertion pass with exact
    cross products then repairs any pair the rounded key misordered (none, or
    a few neighbours, so O(n) after the O(n log n) sort). Without it the
    rounded order stands: the bound of R6 holds for any ``r >= 0``, so the
    order only affects how strong it is, never its validity.
    """
    shift = max(0, max((values[i] for i in items), default=0).bit_length() - 1000)
    # stable: ties stay in the order given (ascending, from the reductions)
    order = sorted(items, key=lambda i: -((values[i] >> shift) / weights[i]))
    if not exact:
        return order
    for i in range(1, len(order)):
        j = i
        while j:  # does order[j] precede order[j - 1]: greater v / w, or equal and lower index?
            t, u = order[j], order[j - 1]
            difference = values[t] * weights[u] - values[u] * weights[t]
            if difference < 0 or (difference == 0 and t > u):
                break
            order[j - 1], order[j] = t, u
            j -= 1
    return order


def lp_slack(
    critical_value: int, critical_weight: int, capacity: int, gains: int, lower_bound: int
) -> int | None:
    """The Dembo-Hammer bound (R6) against a lower bound, for items here and
    types in :mod:`.bounded` (proofs/12 Lemma 12.1), all times ``w_s``.

    With ``r = v_s / w_s`` the critical efficiency and ``gains`` the sum of
    the positive reduced costs ``d_i = w_s v_i - v_s w_i`` (per free copy),
    ``w_s U = v_s C + gains``. Returns ``w_s (U - LB)``, the slack: a choice
    costing more than it of the bound is worth less than ``LB``. ``None``
    when ``LB >= floor(U) >= OPT`` (R7: the lower bound's selection is optimal).
    """
    base = critical_value * capacity + gains
    if critical_weight * (lower_bound + 1) > base:
        return None
    return base - critical_weight * lower_bound


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
    half_width: int = 4,
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
    order = efficiency_order(weights, values, items, exact=False)
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
    slack = lp_slack(v_s, w_s, capacity, sum(d for d in positive if d > 0), lower_bound)
    if slack is None:  # LB >= floor(U) >= OPT (R7)
        return Fixing([], [], incumbent)
    # fix when |D_i| > slack
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
    ``window_min_cells * width**2 // 64`` cells, and at least
    ``4 * width`` items, twice the window) also solves the
    next window of ``window_half_widths`` (:class:`.config.Config`; on small
    cores the DP is cheaper than a window). Time O(n log n) per round plus at
    most one solve per width.
    """
    reduced = basic_reductions(weights, values, range(len(weights)), capacity)
    forced = list(reduced.forced)
    config = current()
    widths = list(config.window_half_widths) if solve_window is not None else []
    for round_number in range(MAX_BOUND_ROUNDS if use_bounds else 0):
        if not reduced.free:
            break
        cells = len(reduced.free) * (reduced.capacity + 1)
        wide = (
            bool(widths)
            and cells > config.window_min_cells * widths[0] ** 2 // 64
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
