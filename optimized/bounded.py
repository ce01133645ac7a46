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
2. :func:`solve_counts` solves what is left (usually 1 to 7 types) on one
   profile row ``P[c] = OPT(types so far, c)`` of ``C + 1`` int64, with
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

   Each stage records its decision per column (the maximising row in
   ``int16`` or ``int32``, one ``bool``, or for a window stage the row
   before it), and backtracking from ``C`` reads one column per stage,
   taking the fewest copies on ties.

Exact: every row entry is the value of a count vector, at most
``sum_t m_t v_t``; the row is ``int32`` when that total plus the largest
``q v`` stays below ``2**30``, else ``int64`` up to :data:`MAX_VALUE_TOTAL`
(:func:`row_dtype`), else :func:`solve_counts` declines and the bundle
path, with Python ints, runs.

Cost: O(T log T) Python integer steps per bound round; per stage four to
eight kernel launches over ``C + 1`` cells (the window stage touches ``(m +
1) (C + 1)``); memory the row (``C + w_max`` cells of 4 or 8 bytes), for
window stages a scratch row of at most ``2 C + w_max`` cells, and the
decisions: ``C + 1`` cells of 1 or 2 bytes per bundle or unbounded stage,
and a copy of the row per window stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from .grouping import bundle_count, bundle_sizes

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
    # Decreasing v/w, ties by index (a stable sort of ascending indices). The
    # order only affects how strong the bound is, never its validity (Lemma
    # 12.1 holds for any r >= 0), so rounding in the key is harmless; values
    # are shifted right by a common amount so the quotient never overflows a
    # float (a subnormal runtime scales the others by up to 2**1074).
    shift = max(0, max((values[t] for t in free), default=0).bit_length() - 1000)
    free.sort(key=lambda t: -((values[t] >> shift) / weights[t]))
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
        base = v_s * room
        for (_, span), d in zip(spans, costs, strict=True):
            if d > 0:
                base += span * d
        if w_s * (lower_bound + 1) > base:  # LB >= floor(U) >= OPT (R7)
            optimal = list(lo)
            for (t, _), count in zip(spans, taken, strict=True):
                optimal[t] += count
            return CountRanges(lo, hi, room, optimal)
        slack = base - w_s * lower_bound
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


def solve_counts(
    weights: Sequence[int],
    values: Sequence[int],
    copies: Sequence[int],
    capacity: int,
    max_stages: int | None = None,
) -> list[int] | None:
    """An optimal count vector ``0 <= k_t <= copies[t]`` of the bounded knapsack,
    or ``None`` (declined: values beyond :data:`MAX_VALUE_TOTAL`, :func:`row_dtype`,
    or more than ``max_stages`` stages, each one decision row).

    Every type must have ``1 <= weights[t] <= capacity`` and ``values[t] > 0``
    (the output of :func:`fix_counts`, shifted by ``lo``). One or more stages
    per type (:func:`stage_kind`); the row is exact (Lemmas 12.2, 12.3).
    """
    copies = [min(m, capacity // w) for w, m in zip(weights, copies, strict=True)]  # more never fit
    dtype = row_dtype(weights, values, copies, capacity)
    if dtype is None:
        return None
    widest = max(weights, default=1)
    # P in row[:capacity + 1]; beyond it, scratch (Lemma 12.2: never read back).
    row = torch.zeros(capacity + 1 + widest, dtype=dtype)
    kinds = [stage_kind(w, m, capacity) for w, m in zip(weights, copies, strict=True)]
    stage_total = sum(
        bundle_count(m) if k == "bundle" else 1 for m, k in zip(copies, kinds, strict=True)
    )
    if max_stages is not None and stage_total > max_stages:
        return None
    lightest = min(
        (w for w, k in zip(weights, kinds, strict=True) if k != "bundle"), default=capacity + 1
    )
    steps = torch.arange(capacity // lightest + 1, dtype=dtype).unsqueeze(1)  # q = 0, 1, ...
    # Window stages write X below a fixed head of sentinels, filled once.
    head = max(
        (m * w for w, m, k in zip(weights, copies, kinds, strict=True) if k == "window"), default=-1
    )
    sentinel = torch.iinfo(dtype).min // 2
    scratch = None if head < 0 else torch.full((head + capacity + widest,), sentinel, dtype=dtype)
    stages: list[tuple[int, str, int, torch.Tensor]] = []  # (type, kind, copies, record)
    for t, (w, v, m, kind) in enumerate(zip(weights, values, copies, kinds, strict=True)):
        if kind == "unbounded":
            stages.append((t, kind, m, _unbounded_stage(row, steps, w, v, capacity)))
        elif kind == "window":
            assert scratch is not None
            record = _window_stage(row, scratch, head, steps, w, v, m, capacity)
            stages.append((t, kind, m, record))
        else:
            for size in bundle_sizes(m):
                record = _bundle_stage(row, size * w, size * v, capacity)
                stages.append((t, kind, size, record))
    counts = [0] * len(weights)
    c, value = capacity, int(row[capacity])  # the optimum still to account for at c
    for t, kind, size, record in reversed(stages):
        w = weights[t]
        if kind == "bundle":  # ``size`` copies together, taken if strictly better
            taken = size if c >= size * w and bool(record[c - size * w]) else 0
        elif kind == "unbounded":  # record[q, r] = q - k at c = q w + r
            q, r = divmod(c, w)
            taken = q - int(record[q, r])
        else:  # record = P before the stage: the fewest k with P[c - k w] + k v = value
            deepest = min(size, c // w)
            before = record[c - deepest * w : c + 1 : w].tolist()[::-1]  # k = 0..deepest
            found = [k for k, p in enumerate(before) if p + k * values[t] == value]
            if not found:
                raise RuntimeError(f"bounded: no count of type {t} attains {value} at {c}")
            taken = found[0]
        counts[t] += taken
        c -= taken * w
        value -= taken * values[t]
    return counts


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


WINDOW_STAGE_CELLS = 1 << 17
"""A bounded type is solved by one window stage when its window table (``(C + 1)
(m + 1)`` cells) has at most this many cells, else by its bundles. Measured at
C = 3029 (in process): a window stage of 36k-76k cells 39-58 us against 57-87
us for its 4-5 bundles; at 185k cells 92 us against 90 us for 6 bundles."""


def stage_kind(w: int, m: int, capacity: int) -> str:
    """How :func:`solve_counts` solves a type of weight ``w`` with ``m`` free copies:
    ``"unbounded"`` when ``m >= C // w`` (the copy limit cannot bind), else
    ``"bundle"`` for one or two bundles or a large window, else ``"window"``."""
    if m >= capacity // w:
        return "unbounded"
    if m <= 2 or (capacity + 1) * (m + 1) > WINDOW_STAGE_CELLS:
        return "bundle"
    return "window"


def _count_dtype(limit: int) -> torch.dtype:
    return torch.int16 if limit <= torch.iinfo(torch.int16).max else torch.int32


def _unbounded_stage(
    row: torch.Tensor, steps: torch.Tensor, w: int, v: int, capacity: int
) -> torch.Tensor:
    """``P'[c] = max_{0 <= k <= c // w} P[c - k w] + k v`` in place (Lemma 12.2).

    With ``c = q w + r`` and ``X[q, r] = P[q w + r] - q v``: ``P'[q w + r] =
    q v + max_{j <= q} X[j, r]``, one ``cummax`` down the ``(q, r)`` grid.
    Returns ``J[q, r] = j``, the maximising row (the count taken is ``q - j``),
    in ``int16`` or ``int32``. ``steps`` is the column ``0, 1, 2, ...``."""
    rows = capacity // w + 1
    grid = row.as_strided((rows, w), (w, 1))  # grid[q, r] = P[q w + r]
    q = steps[:rows]
    grid.sub_(q, alpha=v)
    argmax = torch.empty((rows, w), dtype=torch.int64)
    torch.cummax(grid, 0, out=(grid, argmax))
    grid.add_(q, alpha=v)
    return argmax.to(_count_dtype(rows))


def _window_stage(
    row: torch.Tensor,
    scratch: torch.Tensor,
    head: int,
    steps: torch.Tensor,
    w: int,
    v: int,
    m: int,
    capacity: int,
) -> torch.Tensor:
    """``P'[c] = max_{0 <= k <= min(m, c // w)} P[c - k w] + k v`` in place (Lemma 12.3).

    ``X`` as in :func:`_unbounded_stage`, written at ``scratch[head:]`` below
    ``head >= m w`` sentinels (``iinfo.min // 2``, below every ``X``);
    ``P'[q w + r] = q v + max_{q - m <= j <= q} X[j, r]``: one ``amax`` over a
    strided view of the windows. Returns ``P`` before the stage (a copy), from
    which backtracking finds the count at its one column: the fewest copies
    that attain the optimum, as the other stages choose on ties."""
    before = row[: capacity + 1].clone()
    rows = capacity // w + 1
    grid = row.as_strided((rows, w), (w, 1))
    q = steps[:rows]
    torch.sub(grid, q, alpha=v, out=scratch.as_strided((rows, w), (w, 1), head))
    # the window of q: X[q - m .. q], scratch rows q..q+m counted from head - m w
    windows = scratch.as_strided((rows, w, m + 1), (w, 1, w), head - m * w)
    torch.add(windows.amax(dim=2), q, alpha=v, out=grid)
    return before


def _bundle_stage(row: torch.Tensor, w: int, v: int, capacity: int) -> torch.Tensor:
    """``P'[c] = max(P[c], P[c - w] + v)`` in place; returns ``T`` with
    ``T[c - w]`` true where the bundle is taken (strictly better), ``c >= w``."""
    kept = row[w : capacity + 1]
    candidate = row[: capacity + 1 - w] + v
    taken = torch.gt(candidate, kept)
    torch.maximum(kept, candidate, out=kept)
    return taken
