"""Array backends for the Hirschberg driver (:mod:`.driver`).

A backend owns the item data (``weights[i] >= 1``, ``values[i] > 0``, exact
integers) and answers three questions about a *segment* (a list of item
indices) and a capacity ``C``:

``profile(items, C)``
    The sliding-window row ``P[c] = OPT(items, c)`` for ``c = 0..C``: the best
    value of a subset of ``items`` weighing at most ``c`` (proofs/04).
``best_split(left, right, C)``
    ``(c*, value)`` with ``c*`` the *first* ``c`` maximising
    ``L[c] + R[C - c]`` over the split range ``a <= c <= b`` of
    :func:`split_range` and ``value`` that maximum, which is
    ``OPT(left + right, C)`` (the split lemma and Lemma 6.3, proofs/06).
``solve_small(items, C)``
    An optimal subset of ``items`` for capacity ``C``, by a table of decision
    bits and backtracking. An item is taken only when that is *strictly*
    better, so both backends pick the same subset.

:class:`PythonBackend` uses lists of Python ints: exact for any magnitude,
simple enough for symbolic checking, O(1) Python work per cell.
:class:`TorchBackend` uses preallocated CPU tensors of an integer dtype: a
constant number of kernel launches per item and no Python work per cell. It is
exact as long as every subset value fits the dtype (the solver checks that
``sum(values) <= iinfo(dtype).max`` before choosing it; proofs/07). It only
computes the cells that can matter (the column window of proofs/04, Lemma
4.4): after the first ``k`` items of a segment, columns
``lo_k = max(0, C - outside - (weight of the items after k))`` to
``hi_k = min(C, weight of the first k items)``.

Both backends use the same tie rules, so under the same recursion (the same
base-case limits, as in the agreement tests) they return identical selections.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from itertools import accumulate
from typing import Protocol

import torch

from knapsack_audit.reference.table import backtrack

from .config import current


class ProfileBackend(Protocol):
    """What :mod:`.driver` needs from an array backend."""

    def small_items(self, capacity: int) -> int:
        """Most items ``solve_small`` accepts at this capacity."""
        ...

    def profile(self, items: Sequence[int], capacity: int) -> list[int]:
        """``[OPT(items, c) for c in range(capacity + 1)]``."""
        ...

    def best_split(
        self, left: Sequence[int], right: Sequence[int], capacity: int
    ) -> tuple[int, int]:
        """First maximiser ``c`` in :func:`split_range` of ``L[c] + R[capacity - c]``,
        and the maximum."""
        ...

    def solve_small(self, items: Sequence[int], capacity: int) -> list[int]:
        """An optimal subset of ``items`` within ``capacity``."""
        ...


def split_range(left_weight: int, right_weight: int, capacity: int) -> tuple[int, int]:
    """The columns ``a..b`` where a split point can usefully lie (proofs/06, Lemma 6.3).

    For ``c < a = max(0, C - W_R)`` the right half fits whole at ``C - c``, so
    ``L[c] + R[C - c] <= L[a] + R[C - a]``; for ``c > b = min(C, W_L)`` the left
    half fits whole and ``L[c] + R[C - c] <= L[b] + R[C - b]``. Weights count
    only items that fit ``C``; ``a <= b`` whenever the two halves do not fit
    together.
    """
    return max(0, capacity - right_weight), min(capacity, left_weight)


def fitting_weight(weights: Sequence[int], items: Sequence[int], capacity: int) -> int:
    """Total weight of the items of ``items`` that fit ``capacity`` on their own."""
    return sum(w for w in (weights[i] for i in items) if w <= capacity)


PYTHON_BASE_CASE_CELLS = 1 << 16
"""The Python backend's base-case tables stay small: each cell is a Python int."""


class PythonBackend:
    """Exact backend on lists of Python ints. Time O(len(items) * C) per call."""

    def __init__(self, weights: Sequence[int], values: Sequence[int]) -> None:
        self._weights = weights
        self._values = values

    def small_items(self, capacity: int) -> int:
        return max(1, PYTHON_BASE_CASE_CELLS // (capacity + 1))

    def _next_row(self, row: list[int], item: int) -> list[int]:
        w, v = self._weights[item], self._values[item]
        # new[c] = max(row[c], v + row[c - w]) for c >= w; the conditional
        # expression is twice as fast as a call to max per cell.
        if w >= len(row):
            return row[:]  # the item fits no column
        taken = [x + v for x in row[: len(row) - w]]
        return row[:w] + [t if t > kept else kept for kept, t in zip(row[w:], taken, strict=True)]

    def profile(self, items: Sequence[int], capacity: int) -> list[int]:
        row = [0] * (capacity + 1)
        for item in items:
            row = self._next_row(row, item)
        return row

    def best_split(
        self, left: Sequence[int], right: Sequence[int], capacity: int
    ) -> tuple[int, int]:
        left_row, right_row = self.profile(left, capacity), self.profile(right, capacity)
        first, last = split_range(
            fitting_weight(self._weights, left, capacity),
            fitting_weight(self._weights, right, capacity),
            capacity,
        )
        sums = [left_row[c] + right_row[capacity - c] for c in range(first, last + 1)]
        best = max(sums)
        return first + sums.index(best), best

    def solve_small(self, items: Sequence[int], capacity: int) -> list[int]:
        rows = [[0] * (capacity + 1)]
        for item in items:
            rows.append(self._next_row(rows[-1], item))
        return backtrack(self._weights, items, capacity, lambda k, c: rows[k + 1][c] != rows[k][c])


DECISION_BYTES_FLOOR = 1 << 18
"""Packed decision words may use this many bytes even when one word row per
``C + 1`` columns would be less, so small capacities get deep base cases."""


def bits_per_word(dtype: torch.dtype) -> int:
    """Decision bits per packed word: every bit but the sign bit."""
    return 8 * dtype.itemsize - 1


def decision_words(n_items: int, capacity: int, dtype: torch.dtype, budget_bytes: int = 0) -> int:
    """Packed decision words to allocate for up to ``n_items`` base-case items.

    ``rows * (C + 1)`` with ``rows = min(ceil(n / bits), max(1, spare //
    (itemsize (C + 1))))``, where ``spare`` is :data:`DECISION_BYTES_FLOOR` or,
    if larger, what ``budget_bytes`` leaves after the three rows (the solver
    passes ``16 (Q + 1)``, the four float32 rows upstream allocates, so a core
    whose capacity the reductions shrank gets deeper base cases; proofs/08).
    """
    itemsize = dtype.itemsize
    needed = -(-n_items // bits_per_word(dtype))
    spare = max(DECISION_BYTES_FLOOR, budget_bytes - 3 * itemsize * (capacity + 1))
    affordable = max(1, spare // (itemsize * (capacity + 1)))
    return max(1, min(needed, affordable)) * (capacity + 1)


class TorchBackend:
    """Exact backend on preallocated CPU integer tensors.

    Buffers, allocated once for the largest capacity ``C``: three rows of
    ``C + 1`` elements of ``dtype`` (left/working row, candidate, and the
    right row, allocated by the first split only)
    and ``words`` packed decision words of ``dtype`` (:func:`decision_words`),
    viewed by :meth:`solve_small` as rows of ``C' + 1`` words, item ``k`` in
    bit ``k % bits`` of row ``k // bits``. Tables of at most
    ``Config.bool_table_cells`` cells use a temporary ``bool`` table instead.
    Per item: two kernel launches in a profile, three in a ``bool`` table and
    seven in a packed one, each over the column window only.
    """

    def __init__(
        self,
        weights: Sequence[int],
        values: Sequence[int],
        capacity: int,
        dtype: torch.dtype,
        words: int,
    ) -> None:
        self._weights = weights
        self._values = values
        self._row = torch.empty(capacity + 1, dtype=dtype)
        self._right: torch.Tensor | None = None  # allocated by the first split
        self._candidate = torch.empty(capacity + 1, dtype=dtype)
        self._words = torch.empty(words, dtype=dtype)
        self._bits = bits_per_word(dtype)

    @staticmethod
    def bytes_needed(capacity: int, dtype: torch.dtype, words: int) -> int:
        """Bytes of the buffers above: ``(3 (C + 1) + words) * itemsize``."""
        itemsize = dtype.itemsize
        return (3 * (capacity + 1) + words) * itemsize

    def small_items(self, capacity: int) -> int:
        packed = self._words.numel() // (capacity + 1) * self._bits
        return max(packed, current().bool_table_cells // (capacity + 1))

    def _fill(
        self,
        row: torch.Tensor,
        items: Sequence[int],
        capacity: int,
        outside: int | None,
        record: _Recorder | None = None,
    ) -> list[int]:
        """Fill ``row`` with the profile of ``items`` on the column window (proofs/04).

        ``outside`` is the weight of the items this profile will be combined
        with (``None``: compute the full row ``0..capacity``). After item ``k``
        the row holds ``OPT(first k items, c)`` for ``lo_k <= c <= hi_k`` with
        ``lo_k = max(0, capacity - outside - (weight still to come))`` and
        ``hi_k = min(capacity, weight so far)`` (``lo_k`` clipped to ``hi_k``,
        as backtracking reads ``hi_k`` when everything fits); every cell it reads lies in the
        previous window or in ``hi_{k-1} < c <= hi_k``, where the previous
        optimum is the total value so far (Lemma 4.4). With ``record``, the
        decision ``v + P[c - w] > P[c]`` of every computed cell is stored.
        Returns the ``hi_k`` per item. Items heavier than ``capacity`` are
        skipped (their ``hi_k`` is the previous one).
        """
        weights, values = self._weights, self._values
        remaining = fitting_weight(weights, items, capacity)
        if capacity < current().window_min_columns:
            # Narrow rows: launches, not cells, are the cost, so skip the window.
            outside = None
            row[: capacity + 1].zero_()
            total_weight = capacity
        else:
            row[:1].zero_()
            total_weight = 0
        hi, total_value = total_weight, 0
        highs = []
        # Once the window is the whole row, an item's three views depend on
        # its weight alone: made once per distinct weight, not per item.
        whole_row: dict[int, tuple[torch.Tensor, torch.Tensor, torch.Tensor]] = {}
        for k, item in enumerate(items):
            w, v = weights[item], values[item]
            if w > capacity:
                highs.append(hi)
                continue
            remaining -= w
            total_weight += w
            new_hi = min(capacity, total_weight)
            if new_hi > hi:
                row[hi + 1 : new_hi + 1].fill_(total_value)
            lo = 0 if outside is None else min(new_hi, max(0, capacity - outside - remaining))
            first = max(lo, w)
            views: tuple[torch.Tensor, torch.Tensor, torch.Tensor] | None = None
            if first == w and new_hi == capacity:
                views = whole_row.get(w)
                if views is None:
                    views = whole_row[w] = self._views(row, w, w, capacity)
            elif first <= new_hi:
                views = self._views(row, w, first, new_hi)
            if views is not None:
                target, candidate, source = views
                torch.add(source, v, out=candidate)
                if record is None:
                    torch.maximum(target, candidate, out=target)
                else:
                    record.update(k, first, new_hi + 1, target, candidate)
            hi, total_value = new_hi, total_value + v
            highs.append(hi)
        if outside is None and hi < capacity:
            row[hi + 1 : capacity + 1].fill_(total_value)
        return highs

    def _views(
        self, row: torch.Tensor, w: int, first: int, last: int
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Columns ``first..last`` of ``row`` (the target), as many of the
        candidate buffer, and the source ``row[c - w]`` of each."""
        return (
            row[first : last + 1],
            self._candidate[: last + 1 - first],
            row[first - w : last + 1 - w],
        )

    def profile(self, items: Sequence[int], capacity: int) -> list[int]:
        self._fill(self._row, items, capacity, None)
        return [int(x) for x in self._row[: capacity + 1].tolist()]

    def best_split(
        self, left: Sequence[int], right: Sequence[int], capacity: int
    ) -> tuple[int, int]:
        left_weight = fitting_weight(self._weights, left, capacity)
        right_weight = fitting_weight(self._weights, right, capacity)
        if self._right is None:
            self._right = torch.empty_like(self._row)
        right_row = self._right
        self._fill(self._row, left, capacity, right_weight)
        self._fill(right_row, right, capacity, left_weight)
        first, last = split_range(left_weight, right_weight, capacity)
        sums = self._candidate[: last + 1 - first]
        # sums[j] = L[first + j] + R[capacity - first - j], in chunks so the
        # reversed copy of R stays small.
        for start in range(0, last + 1 - first, SPLIT_CHUNK):
            stop = min(last + 1 - first, start + SPLIT_CHUNK)
            reversed_right = right_row[capacity - first - stop + 1 : capacity - first - start + 1]
            torch.add(
                self._row[first + start : first + stop],
                reversed_right.flip(0),
                out=sums[start:stop],
            )
        best = int(torch.argmax(sums))
        return first + best, int(sums[best])

    def solve_small(self, items: Sequence[int], capacity: int) -> list[int]:
        record: _Recorder
        if len(items) * (capacity + 1) <= current().bool_table_cells:
            record = _BoolRecorder(len(items), capacity)
        else:
            record = _PackedRecorder(self._words, self._bits, len(items), capacity)
        highs = self._fill(self._row, items, capacity, 0, record)
        # Beyond hi_k every earlier item fits too, so taking k is strictly
        # better there exactly as at hi_k (Lemma 4.4).
        return backtrack(
            self._weights, items, capacity, lambda k, c: record.taken(k, min(c, highs[k]))
        )

    def decision_table(
        self, items: Sequence[int], capacity: int, one_byte_each: bool = False
    ) -> DecisionTable:
        """The full profile row of ``items`` for ``0..capacity`` and every
        decision ``v + P[c - w] > P[c]`` (no column window: every budget can be
        backtracked). Precondition: every item weighs at most ``capacity``.

        Packed (the default): ``ceil(len(items) / bits) * (capacity + 1)``
        words of this backend, seven kernel launches per item. With
        ``one_byte_each``: a ``bool`` table of ``len(items) * (capacity + 1)``
        bytes, three launches per item, copied once into a ``bytes`` string
        for backtracking (two copies for the length of the copy).
        """
        record: _BoolRecorder | _PackedRecorder
        if one_byte_each:
            record = _BoolRecorder(len(items), capacity, zeroed=True)
        else:
            record = _PackedRecorder(self._words, self._bits, len(items), capacity)
        self._fill(self._row, items, capacity, None, record)
        row = [int(x) for x in self._row[: capacity + 1].tolist()]
        weights = self._weights
        if isinstance(record, _BoolRecorder):
            cells = memoryview(record.to_bytes())
            stride = capacity + 1
            rows = [cells[k * stride : (k + 1) * stride] for k in range(len(items))]
            return DecisionTable(row, items, weights, rows, [0] * len(items))
        words = record.words()
        bits = self._bits
        return DecisionTable(
            row,
            items,
            weights,
            [words[k // bits] for k in range(len(items))],
            [k % bits for k in range(len(items))],
        )


class DecisionTable:
    """What :meth:`TorchBackend.decision_table` recorded: ``row[c] = OPT(items, c)``
    and item ``items[k]``'s decision at column ``c`` in bit ``shifts[k]`` of
    ``item_rows[k][c]`` (a packed word row shared by ``bits`` items, or one
    byte per decision with shift 0)."""

    def __init__(
        self,
        row: list[int],
        items: Sequence[int],
        weights: Sequence[int],
        item_rows: Sequence[Sequence[int]],
        shifts: list[int],
    ) -> None:
        self.row = row
        self._items = list(items)
        self._weights = weights  # indexed by item
        self._prefix = list(accumulate(weights[i] for i in items))
        self._item_words = item_rows
        self._shifts = shifts

    def backtrack(self, capacity: int) -> list[int]:
        """The canonical optimal subset at ``capacity`` (SPEC 6.1): from the last
        item down, take item ``k`` only where that was strictly better. Time
        O(len(items)) Python steps.

        With ``W_k`` the weight of items ``0..k``: while ``c < W_k``, also
        ``c <= hi_k = min(C, W_k)``, so bit ``(k, c)`` was computed. Once
        ``c >= W_k``, items ``0..k`` fit together and each is strictly better
        taken (``v > 0``: at ``c``, ``OPT(k, c)`` is their total and
        ``OPT(k - 1, c)`` is that less ``v_k``), so all of them are saved.
        """
        item_words, shifts = self._item_words, self._shifts
        return backtrack(
            self._weights,
            self._items,
            capacity,
            lambda k, c: item_words[k][c] >> shifts[k] & 1,
            self._prefix,
        )


SPLIT_CHUNK = 1 << 16
"""Columns per reversed chunk in :meth:`TorchBackend.best_split`."""


class _Recorder(Protocol):
    def update(
        self, k: int, start: int, stop: int, target: torch.Tensor, candidate: torch.Tensor
    ) -> None:
        """``target <- max(target, candidate)`` for columns ``start..stop-1``,
        recording ``candidate > target`` as item ``k``'s decisions."""
        ...

    def taken(self, k: int, c: int) -> bool:
        """The recorded decision of item ``k`` at column ``c``."""
        ...


class ColumnCache:
    """Backtracking reads one decision per item, from the last item down, at a
    column that changes only when an item is taken: one ``tolist`` of the
    whole column per distinct column instead of one tensor read per item (a
    tensor element read costs about as much as a kernel launch)."""

    def __init__(self, table: torch.Tensor) -> None:
        self._table = table
        self._column_index = -1
        self._column: list[int] = []

    def column(self, c: int) -> list[int]:
        if c != self._column_index:
            self._column = self._table[:, c].tolist()
            self._column_index = c
        return self._column


class _BoolRecorder:
    """One ``bool`` per cell: ``gt`` then ``maximum``. Cells outside the
    computed windows are undefined unless ``zeroed``."""

    def __init__(self, n_items: int, capacity: int, zeroed: bool = False) -> None:
        shape = (n_items, capacity + 1)
        make = torch.zeros if zeroed else torch.empty
        self._table = make(shape, dtype=torch.bool)
        self._columns = ColumnCache(self._table)

    def update(
        self, k: int, start: int, stop: int, target: torch.Tensor, candidate: torch.Tensor
    ) -> None:
        torch.gt(candidate, target, out=self._table[k, start:stop])
        torch.maximum(target, candidate, out=target)

    def taken(self, k: int, c: int) -> bool:
        return bool(self._columns.column(c)[k])

    def to_bytes(self) -> bytes:
        """The table, row after row, one byte (0 or 1) per cell: a copy of the
        contiguous ``bool`` buffer (torch has no buffer protocol, and a
        ``tolist`` would make one Python object per cell)."""
        table = self._table
        assert table.is_contiguous() and table.element_size() == 1
        return ctypes.string_at(table.data_ptr(), table.numel())


class _PackedRecorder:
    """``bits`` decisions per word. With ``gain = max(0, candidate - target)``:
    ``target += gain`` is the maximum, and ``min(gain, 1) << bit`` is the
    decision bit, OR-ed into the word row (``gain`` reuses ``candidate``)."""

    def __init__(self, words: torch.Tensor, bits: int, n_items: int, capacity: int) -> None:
        rows = -(-n_items // bits)
        if rows * (capacity + 1) > words.numel():
            raise ValueError(
                f"solve_small: {n_items} items need {rows} word rows of {capacity + 1}, "
                f"more than the {words.numel()} words allocated (small_items is the limit)"
            )
        self._words = words[: rows * (capacity + 1)].view(rows, capacity + 1)
        self._words.zero_()
        self._bits = bits
        self._columns = ColumnCache(self._words)

    def update(
        self, k: int, start: int, stop: int, target: torch.Tensor, candidate: torch.Tensor
    ) -> None:
        candidate.sub_(target).clamp_(min=0)
        target.add_(candidate)
        candidate.clamp_(max=1)
        bit = k % self._bits
        if bit:
            candidate.bitwise_left_shift_(bit)
        self._words[k // self._bits, start:stop].bitwise_or_(candidate)

    def taken(self, k: int, c: int) -> bool:
        return bool(self._columns.column(c)[k // self._bits] >> (k % self._bits) & 1)

    def words(self) -> list[list[int]]:
        """The decision words as Python ints, one list per word row."""
        rows: list[list[int]] = self._words.tolist()
        return rows
