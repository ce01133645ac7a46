"""The bounded knapsack over item types, a few kernel launches per type (proofs/12).

After grouping (:mod:`.grouping`, Lemma 10.0) the 0/1 problem is::

    maximise  sum_t v_t k_t   subject to  sum_t w_t k_t <= Q,  0 <= k_t <= m_t

over the types ``t`` (weight ``w_t``, value ``v_t``, ``m_t`` copies; exact
integers). A real partitioner call has 4 to 20 types, so this module works on
types (splitting a few into bundles), never on items:

1. :func:`fix_counts` narrows every count to a range ``lo_t <= k_t <= hi_t``
   that holds every optimal count vector saving no type of value <= 0 (there
   is one): the basic reductions of proofs/07
   per type, then the Lagrangian (Dembo-Hammer) bound on *deviations*: with
   ``r = v_s / w_s`` the critical efficiency and ``LB`` the greedy fill's
   value, a count ``j`` away from the LP's side of the box costs at least
   ``j |v_t - r w_t|`` of the bound, so ``j <= slack / |d_t|`` (Lemma 12.1).
   When the greedy fill reaches the integer bound it is optimal (R7).
2. :func:`search_counts` solves what is left (usually 1 to 7 types) by
   depth-first branch and bound in efficiency order (Lemma 12.4): counts
   from the most down, cut by the floor of the LP bound, which never rises
   as a count falls, so the first cut ends a depth. It gives up after
   ``Config.search_max_nodes`` branches, and then
3. :func:`solve_counts` solves the same core on one profile row
   ``P[c] = OPT(types so far, c)`` of ``C + 1`` cells, with
   ``c = q w + r`` and ``X[q, r] = P[q w + r] - q v`` for a type ``(w, v)``
   with ``m`` free copies (clipped to ``C // w``)::

       P'[q w + r] = q v + max_{max(0, q - m) <= j <= q} X[j, r]

   - ``m = C // w`` (the copy limit cannot bind): one ``cummax`` down the
     ``(q, r)`` grid, Lemma 12.2 (an *unbounded* stage);
   - ``2 < m < C // w`` and a small window table: one ``max`` over a strided
     view of the windows, sentinels above row 0, Lemma 12.3 (a *window*
     stage);
   - otherwise the type's bundles (Lemma 10.1), each a 0/1 stage
     ``P'[c] = max(P[c], P[c - W] + V)``.

   Each type keeps the row from before its stages; backtracking from ``C``
   reads one strided slice of it per type.

Ties (proofs/12, "Ties"): every path returns the same optimal vector, the
lexicographically largest in :func:`efficiency_order` (most copies of the
most efficient type first): R4 and R7 by construction, the search by Lemma
12.4, the stages by backtracking from the most efficient type, taking the
most copies that attain the optimum left.

Exact: every row entry is the value of a count vector, at most
``sum_t m_t v_t``; the row is ``int32`` when that total plus the largest
``q v`` stays below ``2**30``, else ``int64`` up to :data:`MAX_VALUE_TOTAL`
(:func:`row_dtype`), else :func:`solve_counts` declines and the bundle
path, with Python ints, runs.

Cost: O(T log T) Python integer steps per bound round; at most
``Config.search_max_nodes`` branches of O(log T) for the search; per stage two
to six kernel launches over ``C + 1`` cells (the window stage touches ``(m +
1) (C + 1)``); memory the row (``C + w_max`` cells of 4 or 8 bytes), for
window stages a scratch row of at most ``2 C + w_max`` cells, for unbounded
stages ``cummax``'s ``C + w_max`` int64 indices, and a copy of the row per
type.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from .config import current
from .grouping import bundle_count, bundle_sizes
from .reductions import efficiency_order, lp_slack

MAX_BOUND_ROUNDS = 2
"""Rounds of :func:`fix_counts`; a second round re-runs the bound on the box the
first one narrowed (a tighter greedy and bound). Measured on the 37 golden
``flops`` calls of at least 100 items: one round decides 7 of them and leaves
135 stages; two decide 15 and leave 113; three to six rounds change nothing."""

MAX_VALUE_TOTAL = 1 << 61
""":func:`solve_counts` declines when the free types' total value plus the
largest ``q v`` a stage subtracts exceeds this (:func:`row_dtype`): the row,
the window sentinel ``-2**62`` and every ``X`` must stay inside int64."""


@dataclass(frozen=True)
class CountRanges:
    """What :func:`fix_counts` proved: every optimal count vector that saves no
    type of value <= 0 has ``lo[t] <= k_t <= hi[t]``; ``capacity`` is ``Q - sum_t lo[t] w_t``.
    ``optimal`` is an optimal count vector when the bound already decided it."""

    lo: list[int]
    hi: list[int]
    capacity: int
    optimal: list[int] | None


def allowed_deviation(slack: int, cost: int) -> int:
    """The most copies ``j`` a count may lie from the LP's side of its box when
    each costs ``cost > 0`` of the bound (all times ``w_s``): a vector with
    ``j * cost > slack`` is worth less than ``LB`` (Lemma 12.1), so
    ``j <= slack // cost``. Equality is kept: such a vector may be optimal."""
    return slack // cost


def fix_counts(
    weights: Sequence[int], values: Sequence[int], copies: Sequence[int], capacity: int
) -> CountRanges:
    """Ranges holding every optimal count vector of the bounded knapsack that
    saves no type of value <= 0 (Lemma 12.1).

    Basic reductions per type (proofs/07 R1-R5): ``v_t <= 0`` or ``w_t > Q``
    never saved, ``w_t = 0`` with ``v_t > 0`` always saved whole, and at most
    ``C // w_t`` copies fit; if the free copies fit together they are all
    saved. Then up to :data:`MAX_BOUND_ROUNDS` rounds of the deviation bound,
    each on the greedy fill of the box by decreasing ``v / w``. Time
    O(T log T) once plus O(T) per round (plain loops: this runs on every
    grouped call, with 4 to 20 types).
    """
    n_types = len(weights)
    lo = [0] * n_types
    hi = list(copies)
    free = []
    for t in range(n_types):
        if values[t] <= 0 or weights[t] > capacity:
            hi[t] = 0
        elif weights[t] == 0:
            lo[t] = hi[t]
        else:
            free.append(t)
    free = efficiency_order(weights, values, free)
    room = capacity
    for _ in range(MAX_BOUND_ROUNDS):
        spans, total = [], 0
        for t in free:
            span, reach = hi[t] - lo[t], room // weights[t]
            if span > reach:  # more never fit beside the lower ends
                span, hi[t] = reach, lo[t] + reach
            if span:
                spans.append((t, span))
                total += span * weights[t]
        free = [t for t, _ in spans]
        if total <= room:
            return CountRanges(lo, hi, room, list(hi))
        # The greedy fill; the critical type s is the first one not taken whole.
        left, lower_bound, taken, critical = room, 0, [], -1
        for t, span in spans:
            count = left // weights[t]
            if count >= span:
                count = span
            elif critical < 0:
                critical = t
            left -= count * weights[t]
            lower_bound += count * values[t]
            taken.append(count)
        v_s, w_s = values[critical], weights[critical]
        # d_t = w_s v_t - v_s w_t; the Lagrangian bound times w_s is
        # v_s * room + sum over free copies of max(0, d_t).
        costs = [w_s * values[t] - v_s * weights[t] for t in free]
        gains = sum([span * d for (_, span), d in zip(spans, costs, strict=True) if d > 0])
        slack = lp_slack(v_s, w_s, room, gains, lower_bound)
        if slack is None:  # LB >= floor(U) >= OPT (R7)
            optimal = list(lo)
            for (t, _), count in zip(spans, taken, strict=True):
                optimal[t] += count
            return CountRanges(lo, hi, room, optimal)
        narrowed = False
        for (t, span), d in zip(spans, costs, strict=True):
            if d > 0 and span * d > slack:  # at most that many copies left out
                raised = hi[t] - allowed_deviation(slack, d)
                room -= (raised - lo[t]) * weights[t]
                lo[t], narrowed = raised, True
            elif d < 0 and span * -d > slack:  # at most that many copies saved
                hi[t], narrowed = lo[t] + allowed_deviation(slack, -d), True
        if not narrowed:
            break
    return CountRanges(lo, hi, room, None)


def optimal_counts(
    weights: Sequence[int],
    values: Sequence[int],
    copies: Sequence[int],
    capacity: int,
    max_stages: int | None = None,
) -> list[int] | None:
    """The lex-max optimal count vector of the bounded knapsack over the types
    ``(weights[t], values[t])`` with ``copies[t]`` copies (any signs, weights
    >= 0; "Ties" of proofs/12), or ``None`` when :func:`solve_counts` declines.

    :func:`fix_counts`; on the types it leaves open (values divided by their
    gcd, which keeps the optimum's arguments and the order),
    :func:`search_counts`, then :func:`solve_counts` if the search gives up.
    """
    ranges = fix_counts(weights, values, copies, capacity)
    if ranges.optimal is not None:
        return ranges.optimal
    free = [t for t, (lo, hi) in enumerate(zip(ranges.lo, ranges.hi, strict=True)) if hi > lo]
    divisor = math.gcd(*(values[t] for t in free))
    core = (
        [weights[t] for t in free],
        [values[t] // divisor for t in free],
        [ranges.hi[t] - ranges.lo[t] for t in free],
        ranges.capacity,
    )
    chosen = search_counts(*core)
    if chosen is None:
        chosen = solve_counts(*core, max_stages)
        if chosen is None:
            return None
    counts = list(ranges.lo)
    for t, count in zip(free, chosen, strict=True):
        counts[t] += count
    return counts


def solve_counts(
    weights: Sequence[int],
    values: Sequence[int],
    copies: Sequence[int],
    capacity: int,
    max_stages: int | None = None,
) -> list[int] | None:
    """The lex-max optimal count vector ``0 <= k_t <= copies[t]`` of the bounded
    knapsack (proofs/12, "Ties"), or ``None`` (declined: values beyond
    :data:`MAX_VALUE_TOTAL`, :func:`row_dtype`, or more than ``max_stages``
    stages).

    Every type must have ``1 <= weights[t] <= capacity`` and ``values[t] > 0``
    (the output of :func:`fix_counts`, shifted by ``lo``). The types run from
    the least efficient to the most (:func:`efficiency_order`), one or more
    stages each (:func:`stage_kind`), on one profile row (Lemmas 12.2, 12.3);
    each type keeps the row from before its stages, and backtracking from
    ``C`` takes, type by type from the most efficient, the most copies that
    attain the optimum left.
    """
    copies = [min(m, capacity // w) for w, m in zip(weights, copies, strict=True)]  # more never fit
    dtype = row_dtype(weights, values, copies, capacity)
    if dtype is None:
        return None
    kinds = [stage_kind(w, m, capacity) for w, m in zip(weights, copies, strict=True)]
    stage_total = sum(
        bundle_count(m) if k == "bundle" else 1 for m, k in zip(copies, kinds, strict=True)
    )
    if max_stages is not None and stage_total > max_stages:
        return None
    widest = max(weights, default=1)
    # P in row[:capacity + 1]; beyond it, scratch (Lemma 12.2: never read back).
    row = torch.zeros(capacity + 1 + widest, dtype=dtype)
    gridded = [w for w, k in zip(weights, kinds, strict=True) if k != "bundle"]
    steps = torch.arange(capacity // min(gridded, default=capacity + 1) + 1, dtype=dtype)
    steps = steps.unsqueeze(1)  # q = 0, 1, ...
    # cummax's indices (never read), one buffer for every unbounded stage
    indices = torch.empty(capacity + widest if "unbounded" in kinds else 0, dtype=torch.int64)
    # Window stages write X below a fixed head of sentinels, filled once.
    head = max(
        (m * w for w, m, k in zip(weights, copies, kinds, strict=True) if k == "window"), default=-1
    )
    sentinel = torch.iinfo(dtype).min // 2
    scratch = None if head < 0 else torch.full((head + capacity + widest,), sentinel, dtype=dtype)
    order = efficiency_order(weights, values, range(len(weights)))
    before: dict[int, torch.Tensor] = {}  # per type, P before its stages
    for t in reversed(order):
        w, v, m, kind = weights[t], values[t], copies[t], kinds[t]
        before[t] = row[: capacity + 1].clone()
        if kind == "unbounded":
            _unbounded_stage(row, steps, indices, w, v, capacity)
        elif kind == "window":
            assert scratch is not None
            _window_stage(row, scratch, head, steps, w, v, m, capacity)
        else:
            for size in bundle_sizes(m):
                _bundle_stage(row, size * w, size * v, capacity)
    counts = [0] * len(weights)
    c, value = capacity, int(row[capacity])  # the optimum still to account for at c
    for t in order:
        w, v = weights[t], values[t]
        deepest = min(copies[t], c // w)
        # P before the type at c - k w, for k = deepest down to 0 (12.0)
        previous = before[t][c - deepest * w : c + 1 : w].tolist()
        taken = next(
            (deepest - i for i, p in enumerate(previous) if p + (deepest - i) * v == value), -1
        )
        if taken < 0:
            raise RuntimeError(f"bounded: no count of type {t} attains {value} at {c}")
        counts[t] = taken
        c -= taken * w
        value -= taken * v
    return counts


def fractional_fill(
    weight_sums: Sequence[int],
    value_sums: Sequence[int],
    weights: Sequence[int],
    values: Sequence[int],
    d: int,
    room: int,
) -> int:
    """The floor of the LP optimum of types ``d..`` (in :func:`efficiency_order`,
    ``weight_sums`` and ``value_sums`` their whole-type prefix sums) in ``room``
    units: the types that fit whole, then a fraction of the next (Dantzig)."""
    s = bisect_right(weight_sums, room + weight_sums[d], d) - 1  # types d..s-1 fit whole
    bound = value_sums[s] - value_sums[d]
    if s < len(weights):
        bound += (room - weight_sums[s] + weight_sums[d]) * values[s] // weights[s]
    return bound


class _SearchExhausted(Exception):
    """:func:`search_counts` met its node budget."""


def search_counts(
    weights: Sequence[int],
    values: Sequence[int],
    copies: Sequence[int],
    capacity: int,
    max_nodes: int | None = None,
) -> list[int] | None:
    """The lex-max optimal count vector (as :func:`solve_counts`) by depth-first
    branch and bound (Lemma 12.4), or ``None`` after ``max_nodes`` branches
    (default :attr:`.config.Config.search_max_nodes`).

    Same preconditions as :func:`solve_counts`. Types in :func:`efficiency_order`;
    at depth ``d`` the count of type ``d`` runs from its most down to 0, the
    last type takes all that fits. A branch is cut when the floor of its LP
    bound (the prefix value, plus the fractional greedy fill of the types
    after ``d``) cannot beat the best vector so far; that bound never rises
    as the count falls, so the first cut ends the depth. Only a strictly
    better leaf replaces the best, so the best is the first optimal vector in
    the lexicographic order descending; the search stops early when a leaf
    reaches the root's bound. Python integers throughout: exact.
    """
    if max_nodes is None:
        max_nodes = current().search_max_nodes
    order = efficiency_order(weights, values, range(len(weights)))
    if not order:
        return []
    tw = [weights[t] for t in order]
    tv = [values[t] for t in order]
    tm = [min(copies[t], capacity // weights[t]) for t in order]
    last = len(order) - 1
    # whole-type prefix sums: the LP fill of types d.. is a bisection on them
    weight_sums, value_sums = [0], [0]
    for w, v, m in zip(tw, tv, tm, strict=True):
        weight_sums.append(weight_sums[-1] + m * w)
        value_sums.append(value_sums[-1] + m * v)

    target = fractional_fill(weight_sums, value_sums, tw, tv, 0, capacity)
    best, best_counts, nodes = -1, [0] * len(order), 0
    counts = [0] * len(order)

    def descend(d: int, room: int, value: int) -> bool:
        """Branches of type ``d`` onwards; true when a leaf reached ``target``."""
        nonlocal best, best_counts, nodes
        w, v = tw[d], tv[d]
        most = min(tm[d], room // w)
        if d == last:
            counts[d] = most
            if value + most * v > best:
                best, best_counts = value + most * v, list(counts)
            return best == target
        for count in range(most, -1, -1):
            nodes += 1
            if nodes > max_nodes:
                raise _SearchExhausted
            left = room - count * w
            if (
                value + count * v + fractional_fill(weight_sums, value_sums, tw, tv, d + 1, left)
                <= best
            ):
                break
            counts[d] = count
            if descend(d + 1, left, value + count * v):
                return True
        return False

    try:
        descend(0, capacity, 0)
    except _SearchExhausted:
        return None
    chosen = [0] * len(weights)
    for t, count in zip(order, best_counts, strict=True):
        chosen[t] = count
    return chosen


def row_dtype(
    weights: Sequence[int], values: Sequence[int], copies: Sequence[int], capacity: int
) -> torch.dtype | None:
    """``int32`` or ``int64``, whichever holds every number the stages form, or
    ``None`` (decline): with ``total = sum_t m_t v_t`` (every row entry lies in
    ``0..total``) and ``reach = max_t (C // w_t + 1) v_t`` (the largest ``q v``
    a stage subtracts), every ``X``, ``X + q v`` and scratch cell lies within
    ``±(total + reach)`` (Lemmas 12.2, 12.3), and the sentinel ``min // 2`` lies
    below all of them when ``total + reach < 2**30`` (int32) or ``<= 2**61``
    (int64, :data:`MAX_VALUE_TOTAL`)."""
    total = sum(m * v for m, v in zip(copies, values, strict=True))
    reach = max(((capacity // w + 1) * v for w, v in zip(weights, values, strict=True)), default=0)
    if total + reach < 1 << 30:
        return torch.int32
    if total + reach <= MAX_VALUE_TOTAL:
        return torch.int64
    return None


def stage_kind(w: int, m: int, capacity: int) -> str:
    """How :func:`solve_counts` solves a type of weight ``w`` with ``m`` free copies:
    ``"unbounded"`` when ``m >= C // w`` (the copy limit cannot bind), else
    ``"bundle"`` for one or two bundles or a large window, else ``"window"``."""
    if m >= capacity // w:
        return "unbounded"
    if m <= 2 or (capacity + 1) * (m + 1) > current().window_stage_cells:
        return "bundle"
    return "window"


def _unbounded_stage(
    row: torch.Tensor, steps: torch.Tensor, indices: torch.Tensor, w: int, v: int, capacity: int
) -> None:
    """``P'[c] = max_{0 <= k <= c // w} P[c - k w] + k v`` in place (Lemma 12.2).

    With ``c = q w + r`` and ``X[q, r] = P[q w + r] - q v``: ``P'[q w + r] =
    q v + max_{j <= q} X[j, r]``, one ``cummax`` down the ``(q, r)`` grid
    (``indices`` receives its argmax, which nothing reads). ``steps`` is the
    column ``0, 1, 2, ...``."""
    rows = capacity // w + 1
    grid = row.as_strided((rows, w), (w, 1))  # grid[q, r] = P[q w + r]
    q = steps[:rows]
    grid.sub_(q, alpha=v)
    torch.cummax(grid, 0, out=(grid, indices[: rows * w].view(rows, w)))
    grid.add_(q, alpha=v)


def _window_stage(
    row: torch.Tensor,
    scratch: torch.Tensor,
    head: int,
    steps: torch.Tensor,
    w: int,
    v: int,
    m: int,
    capacity: int,
) -> None:
    """``P'[c] = max_{0 <= k <= min(m, c // w)} P[c - k w] + k v`` in place (Lemma 12.3).

    ``X`` as in :func:`_unbounded_stage`, written at ``scratch[head:]`` below
    ``head >= m w`` sentinels (``iinfo.min // 2``, below every ``X``);
    ``P'[q w + r] = q v + max_{q - m <= j <= q} X[j, r]``: one ``amax`` over a
    strided view of the windows."""
    rows = capacity // w + 1
    grid = row.as_strided((rows, w), (w, 1))
    q = steps[:rows]
    torch.sub(grid, q, alpha=v, out=scratch.as_strided((rows, w), (w, 1), head))
    # the window of q: X[q - m .. q], scratch rows q..q+m counted from head - m w
    windows = scratch.as_strided((rows, w, m + 1), (w, 1, w), head - m * w)
    torch.add(windows.amax(dim=2), q, alpha=v, out=grid)


def _bundle_stage(row: torch.Tensor, w: int, v: int, capacity: int) -> None:
    """``P'[c] = max(P[c], P[c - w] + v)`` in place, for ``c >= w``."""
    kept = row[w : capacity + 1]
    torch.maximum(kept, row[: capacity + 1 - w] + v, out=kept)
