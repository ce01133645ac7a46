"""The canonical selection of SPEC 6.1 from one numpy int64 table, for tests
that need it at many budgets on real-scale calls (the pure-Python reference
takes seconds per budget there). Independent of the torch code under test."""

from __future__ import annotations

import numpy as np

from knapsack_audit.reference import quantize
from knapsack_audit.reference.validation import format_result, integer_runtimes, validate


class CanonicalTable:
    """The full table ``OPT(i, c)`` of one call for budgets up to ``max_memory``:
    ``select(c)`` backtracks from the last item, leaving item ``i`` out
    whenever ``OPT(i - 1, c) == OPT(i, c)`` (the reference's rule). Exact:
    every entry is the value of a subset, and the values' total must stay
    below ``2**62`` (asserted)."""

    def __init__(self, memory: list[float], runtime: list[float], max_memory: float) -> None:
        instance = validate(memory, runtime, max_memory)
        values, _ = integer_runtimes(instance.runtimes)
        assert sum(abs(v) for v in values) < 2**62
        self._runtimes, self._weights = instance.runtimes, instance.weights
        self._capacity = instance.capacity
        columns = instance.capacity + 1
        table = np.zeros((len(values) + 1, columns), dtype=np.int64)
        for i, (w, v) in enumerate(zip(self._weights, values, strict=True)):
            table[i + 1] = table[i]
            if w < columns:
                np.maximum(table[i, : columns - w] + v, table[i, w:], out=table[i + 1, w:])
        self._rows = table.tolist()

    def select(self, capacity: int) -> list[int]:
        """The canonical selection at ``capacity`` units, ascending."""
        assert 0 <= capacity <= self._capacity
        saved, c, rows = [], capacity, self._rows
        for i in range(len(self._weights) - 1, -1, -1):
            if rows[i + 1][c] != rows[i][c]:
                saved.append(i)
                c -= self._weights[i]
        return saved[::-1]

    def __call__(
        self, memory: list[float], runtime: list[float], max_memory: float
    ) -> tuple[float, list[int], list[int]]:
        """A solver with the reference's answers, for these items only."""
        return format_result(self._runtimes, self.select(quantize(max_memory)))
