"""Array backends for the Hirschberg driver (:mod:`.driver`).

A backend owns the item data (``weights[i] >= 1``, ``values[i] > 0``, exact
integers) and answers three questions about a *segment* (a list of item
indices) and a capacity ``C``:

``profile(items, C)``
    The sliding-window row ``P[c] = OPT(items, c)`` for ``c = 0..C``: the best
    value of a subset of ``items`` weighing at most ``c`` (proofs/04).
``best_split(left, right, C)``
    ``(c*, value)`` with ``c*`` the *first* ``c`` maximising
    ``L[c] + R[C - c]`` over ``0 <= c <= C`` and ``value`` that maximum, which
    is ``OPT(left + right, C)`` (the split lemma, proofs/06).
``solve_small(items, C)``
    An optimal subset of ``items`` for capacity ``C``, by a full table of
    decision bits and backtracking. An item is taken only when that is
    *strictly* better, so both backends pick the same subset.

:class:`PythonBackend` uses lists of Python ints: exact for any magnitude,
simple enough for symbolic checking, O(1) Python work per cell.
:class:`TorchBackend` uses preallocated CPU tensors of an integer dtype: a
constant number of kernel launches per item and no Python work per cell. It is
exact as long as every subset value fits the dtype (the solver checks that
``sum(values) <= iinfo(dtype).max`` before choosing it; proofs/07).

Both backends use the same tie rules, so under the same recursion (the same
base-case limits, as in the agreement tests) they return identical selections.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import torch


class ProfileBackend(Protocol):
    """What :mod:`.driver` needs from an array backend."""

    base_case_cell_limit: int | None
    """Largest ``solve_small`` table this backend wants (``None``: the driver's)."""

    def profile(self, items: Sequence[int], capacity: int) -> list[int]:
        """``[OPT(items, c) for c in range(capacity + 1)]``."""
        ...

    def best_split(
        self, left: Sequence[int], right: Sequence[int], capacity: int
    ) -> tuple[int, int]:
        """First maximiser ``c`` of ``L[c] + R[capacity - c]`` and the maximum."""
        ...

    def solve_small(self, items: Sequence[int], capacity: int) -> list[int]:
        """An optimal subset of ``items`` within ``capacity``."""
        ...


PYTHON_BASE_CASE_CELLS = 1 << 16
"""The Python backend's base-case tables stay small: each cell is a Python int."""


class PythonBackend:
    """Exact backend on lists of Python ints. Time O(len(items) * C) per call."""

    base_case_cell_limit: int | None = PYTHON_BASE_CASE_CELLS

    def __init__(self, weights: Sequence[int], values: Sequence[int]) -> None:
        self._weights = weights
        self._values = values

    def _next_row(self, row: list[int], item: int) -> list[int]:
        w, v = self._weights[item], self._values[item]
        return row[:w] + [max(row[c], v + row[c - w]) for c in range(w, len(row))]

    def profile(self, items: Sequence[int], capacity: int) -> list[int]:
        row = [0] * (capacity + 1)
        for item in items:
            row = self._next_row(row, item)
        return row

    def best_split(
        self, left: Sequence[int], right: Sequence[int], capacity: int
    ) -> tuple[int, int]:
        left_row, right_row = self.profile(left, capacity), self.profile(right, capacity)
        sums = [left_row[c] + right_row[capacity - c] for c in range(capacity + 1)]
        best = max(sums)
        return sums.index(best), best

    def solve_small(self, items: Sequence[int], capacity: int) -> list[int]:
        rows = [[0] * (capacity + 1)]
        for item in items:
            rows.append(self._next_row(rows[-1], item))
        saved, c = [], capacity
        for k in range(len(items), 0, -1):
            if rows[k][c] != rows[k - 1][c]:
                saved.append(items[k - 1])
                c -= self._weights[items[k - 1]]
        return saved


class TorchBackend:
    """Exact backend on preallocated CPU integer tensors.

    Buffers, allocated once for the largest capacity ``C``: three rows of
    ``C + 1`` elements of ``dtype`` (left/working row, right row, candidate),
    one ``int64`` index row (the reversal permutation) and a flat ``bool``
    decision table of ``decision_cells`` cells, viewed as
    ``len(items) x (C' + 1)`` by :meth:`solve_small`. Per item: three kernel
    launches in :meth:`solve_small`, two elsewhere.
    """

    base_case_cell_limit: int | None = None

    def __init__(
        self,
        weights: Sequence[int],
        values: Sequence[int],
        capacity: int,
        dtype: torch.dtype,
        decision_cells: int,
    ) -> None:
        self._weights = weights
        self._values = values
        self._capacity = capacity
        self._row = torch.empty(capacity + 1, dtype=dtype)
        self._right = torch.empty(capacity + 1, dtype=dtype)
        self._candidate = torch.empty(capacity + 1, dtype=dtype)
        self._reversal = torch.arange(capacity, -1, -1)
        self._decisions = torch.empty(decision_cells, dtype=torch.bool)

    @staticmethod
    def bytes_needed(capacity: int, dtype: torch.dtype, decision_cells: int) -> int:
        """Bytes of the buffers above: ``(C + 1) * (3 * itemsize + 8) + decision_cells``."""
        itemsize = torch.empty((), dtype=dtype).element_size()
        return (capacity + 1) * (3 * itemsize + 8) + decision_cells

    def _fill(
        self,
        row: torch.Tensor,
        items: Sequence[int],
        capacity: int,
        decisions: torch.Tensor | None = None,
    ) -> None:
        """Overwrite ``row[:capacity + 1]`` with the profile of ``items`` (proofs/04).

        In place: ``row[c] <- max(row[c], v + row[c - w])`` for ``c >= w`` reads
        the candidate ``v + row[:C + 1 - w]`` from a separate buffer written
        before ``row`` changes, so each cell sees the previous row. With
        ``decisions`` (``len(items) x (capacity + 1)``), also record
        ``decisions[k, c] = (taking item k strictly improves cell c)`` for
        ``c >= w``; cells below ``w`` are left unwritten and never read.
        """
        row[: capacity + 1].zero_()
        for k, item in enumerate(items):
            w, v = self._weights[item], self._values[item]
            if w > capacity:
                continue
            width = capacity + 1 - w
            candidate = self._candidate[:width]
            torch.add(row[:width], v, out=candidate)
            if decisions is not None:
                torch.gt(candidate, row[w : capacity + 1], out=decisions[k, w : capacity + 1])
            torch.maximum(row[w : capacity + 1], candidate, out=row[w : capacity + 1])

    def profile(self, items: Sequence[int], capacity: int) -> list[int]:
        self._fill(self._row, items, capacity)
        return [int(x) for x in self._row[: capacity + 1].tolist()]

    def best_split(
        self, left: Sequence[int], right: Sequence[int], capacity: int
    ) -> tuple[int, int]:
        self._fill(self._row, left, capacity)
        self._fill(self._right, right, capacity)
        sums = self._candidate[: capacity + 1]
        reversal = self._reversal[self._capacity - capacity :]
        torch.index_select(self._right[: capacity + 1], 0, reversal, out=sums)
        sums.add_(self._row[: capacity + 1])
        best = int(torch.argmax(sums))
        return best, int(sums[best])

    def solve_small(self, items: Sequence[int], capacity: int) -> list[int]:
        decisions = self._decisions[: len(items) * (capacity + 1)].view(len(items), capacity + 1)
        self._fill(self._row, items, capacity, decisions)
        saved, c = [], capacity
        for k in range(len(items) - 1, -1, -1):
            w = self._weights[items[k]]
            if w <= c and bool(decisions[k, c]):
                saved.append(items[k])
                c -= w
        return saved
