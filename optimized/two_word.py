"""An exact array backend for cores whose values pass int64: two int64 words per cell.

Every table entry ``x`` (the value of a subset, so ``0 <= x <= T`` with ``T``
the core's total value, proofs/07) is held as ``x = high * 2**32 + low`` with
``0 <= low < 2**32`` and ``high <= T >> 32``, which fits int64 while
``T < 2**95`` (:data:`MAX_TOTAL`). Beyond that the solver keeps Python ints.

Adding an item worth ``v = v_high * 2**32 + v_low`` to a cell::

    low' = low + v_low                     (below 2**33: no overflow)
    high' = high + v_high + (low' >> 32)   (the carry)
    low' = low' & (2**32 - 1)

and ``x' > x`` exactly when ``(high', low')`` is greater lexicographically.
So the recurrence is the dense backend's (proofs/04),
``P'[c] = max(P[c], v + P[c - w])`` for ``c >= w``, with the same tie rule
(the item is taken only where that is strictly better) and the same split
(the first ``c`` maximising ``L[c] + R[C - c]`` over :func:`.backends.split_range`),
so under the same recursion it returns the Python-int backend's subset.

Cost: about twelve kernel launches per item over the whole row (no column
window), against O(C) Python steps per item in
:class:`.backends.PythonBackend`. Memory: :data:`ROW_BYTES` per budget unit, and
a ``bool`` decision table of at most ``Config.bool_table_cells`` cells.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from knapsack_audit.reference.table import backtrack

from .backends import ColumnCache, fitting_weight, split_range
from .config import current

WORD_BITS = 32
"""Bits of the low word."""

LOW_MASK = (1 << WORD_BITS) - 1

MAX_TOTAL = (1 << (63 + WORD_BITS)) - 1
"""Largest total value whose high words fit int64 (``T >> 32 < 2**63``); sums
of two profile entries are subset values too, so they stay within it."""

ROW_BYTES = 72
"""Bytes per budget unit, at most: seven int64 rows (the high and low words of
the left and right profiles, the two candidate words, the carry), the
``bool`` comparison, and the temporaries of one comparison or split."""


class TwoWordBackend:
    """Exact backend on pairs of int64 rows (``high``, ``low``); see the module."""

    def __init__(self, weights: Sequence[int], values: Sequence[int], capacity: int) -> None:
        self._weights = weights
        self._values = values
        width = capacity + 1
        self._left = (torch.empty(width, dtype=torch.int64), torch.empty(width, dtype=torch.int64))
        self._right: tuple[torch.Tensor, torch.Tensor] | None = None  # by the first split
        self._candidate = (
            torch.empty(width, dtype=torch.int64),
            torch.empty(width, dtype=torch.int64),
        )
        self._carry = torch.empty(width, dtype=torch.int64)
        self._better = torch.empty(width, dtype=torch.bool)

    def _words(self, item: int) -> tuple[int, int]:
        value = self._values[item]
        return value >> WORD_BITS, value & LOW_MASK

    def small_items(self, capacity: int) -> int:
        return max(1, current().bool_table_cells // (capacity + 1))

    def _fill(
        self,
        row: tuple[torch.Tensor, torch.Tensor],
        items: Sequence[int],
        capacity: int,
        decisions: torch.Tensor | None = None,
    ) -> None:
        """``row`` (high and low words) becomes ``OPT(items, c)`` for
        ``c = 0..capacity``; with ``decisions``, row ``k`` records where taking
        item ``k`` was strictly better (left ``False`` elsewhere)."""
        high, low = row[0][: capacity + 1], row[1][: capacity + 1]
        high.zero_()
        low.zero_()
        for k, item in enumerate(items):
            w = self._weights[item]
            if w > capacity:
                continue
            v_high, v_low = self._words(item)
            width = capacity + 1 - w
            target_high, target_low = high[w:], low[w:]
            candidate_high, candidate_low = self._candidate[0][:width], self._candidate[1][:width]
            carry, better = self._carry[:width], self._better[:width]
            _add_with_carry(
                (high[:width], low[:width]), (v_high, v_low), (candidate_high, candidate_low), carry
            )
            # better = high' > high or (high' == high and low' > low)
            torch.gt(candidate_low, target_low, out=better)
            better.logical_and_(candidate_high == target_high)
            better.logical_or_(candidate_high > target_high)
            torch.where(better, candidate_high, target_high, out=target_high)
            torch.where(better, candidate_low, target_low, out=target_low)
            if decisions is not None:
                decisions[k, w:] = better

    def profile(self, items: Sequence[int], capacity: int) -> list[int]:
        self._fill(self._left, items, capacity)
        return _as_ints(self._left, 0, capacity + 1)

    def best_split(
        self, left: Sequence[int], right: Sequence[int], capacity: int
    ) -> tuple[int, int]:
        if self._right is None:
            self._right = (torch.empty_like(self._left[0]), torch.empty_like(self._left[1]))
        self._fill(self._left, left, capacity)
        self._fill(self._right, right, capacity)
        first, last = split_range(
            fitting_weight(self._weights, left, capacity),
            fitting_weight(self._weights, right, capacity),
            capacity,
        )
        count = last + 1 - first
        # sums[j] = L[first + j] + R[capacity - first - j], with the carry.
        sum_high, sum_low = self._candidate[0][:count], self._candidate[1][:count]
        right_high = self._right[0][capacity - last : capacity - first + 1].flip(0)
        right_low = self._right[1][capacity - last : capacity - first + 1].flip(0)
        _add_with_carry(
            (self._left[0][first : last + 1], self._left[1][first : last + 1]),
            (right_high, right_low),
            (sum_high, sum_low),
            self._carry[:count],
        )
        # The first maximiser: the highest high word, then among those the
        # highest low word (argmax returns the first of equal maxima).
        top = torch.where(sum_high == sum_high.max(), sum_low, -1)
        best = int(torch.argmax(top))
        return first + best, int(sum_high[best]) << WORD_BITS | int(sum_low[best])

    def solve_small(self, items: Sequence[int], capacity: int) -> list[int]:
        decisions = torch.zeros((len(items), capacity + 1), dtype=torch.bool)
        self._fill(self._left, items, capacity, decisions)
        columns = ColumnCache(decisions)
        return backtrack(self._weights, items, capacity, lambda k, c: columns.column(c)[k])


def _add_with_carry(
    augend: tuple[torch.Tensor, torch.Tensor],
    addend: tuple[torch.Tensor | int, torch.Tensor | int],
    out: tuple[torch.Tensor, torch.Tensor],
    carry: torch.Tensor,
) -> None:
    """``out = augend + addend`` on (high, low) words, the low word normalised:
    ``low = augend_low + addend_low`` (below ``2**33``), its carry
    ``low >> 32`` added to the high words, then ``low & (2**32 - 1)``. Five
    kernel launches; ``carry`` is scratch of ``out``'s length."""
    out_high, out_low = out
    torch.add(augend[1], addend[1], out=out_low)
    torch.bitwise_right_shift(out_low, WORD_BITS, out=carry)
    torch.add(augend[0], carry, out=out_high)
    out_high.add_(addend[0])
    out_low.bitwise_and_(LOW_MASK)


def _as_ints(row: tuple[torch.Tensor, torch.Tensor], start: int, stop: int) -> list[int]:
    """Cells ``start..stop-1`` of a two-word row as Python ints."""
    highs, lows = row[0][start:stop].tolist(), row[1][start:stop].tolist()
    return [high << WORD_BITS | low for high, low in zip(highs, lows, strict=True)]
