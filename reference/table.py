"""Readable full-table dynamic programme for the 0/1 knapsack (the reference).

Problem (SPEC 3): items ``i = 0..n-1`` with quantized weights ``w_i`` (ints
>= 0) and runtimes ``v_i`` (finite floats); budget ``Q``. Find ``S`` maximising
``sum(v_i for i in S)`` subject to ``sum(w_i for i in S) <= Q``.

Recurrence (items taken in index order, ``OPT(0, c) = 0``)::

    OPT(i, c) = OPT(i-1, c)                                   if w_i > c
    OPT(i, c) = max(OPT(i-1, c), v_i + OPT(i-1, c - w_i))     otherwise

Invariant: after row ``i`` is built, ``table[i][c]`` is the best total runtime
of a subset of items ``0..i-1`` whose weight is at most ``c`` (proofs/02,
proofs/03). Arithmetic is exact: runtimes are scaled by one power of two into
Python integers (:func:`integer_runtimes`), so no rounding can change a
comparison. Columns stop at ``C = min(Q, sum(w_i))``: every subset fits in
``C``, so ``OPT(i, c) = OPT(i, C)`` for ``c >= C``.

Backtracking from ``(n, C)`` leaves item ``i-1`` out whenever
``table[i-1][c] == table[i][c]``, i.e. whenever an optimal completion exists
without it. This yields the canonical selection of SPEC 6.1: among optimal
selections, the one that leaves out the highest-indexed items it can.

Cost: time O(n * C) big-integer operations, memory (n + 1) * (C + 1) table
cells. This solver is for clarity and for checking, not for speed.

References:
    Kellerer, Pferschy, Pisinger, *Knapsack Problems*, Springer 2004, sec. 2.3.
    PyTorch ``torch/_functorch/_activation_checkpointing/knapsack.py``
    (``dp_knapsack``, whose signature and return conventions this follows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .validation import Instance, format_result, integer_runtimes, require_buffer_fits, validate

TABLE_CELL_BYTES = 48
"""Upper estimate of one table cell: a list slot plus a Python int object."""


def dp_knapsack(
    memory: list[float], runtime: list[float], max_memory: float
) -> tuple[float, list[int], list[int]]:
    """Solve the quantized 0/1 knapsack exactly with a full DP table.

    Same signature and conventions as upstream ``dp_knapsack`` (SPEC 7).

    Args:
        memory: item sizes, finite and >= 0; quantized to ``round(m * 10000)``.
        runtime: item runtimes, finite (may be zero or negative).
        max_memory: the budget, finite and >= 0; quantized like ``memory``.

    Returns:
        ``(value, saved, recomputable)``: ``value`` is the float nearest to the
        exact sum of the saved runtimes; ``saved`` ascending; ``recomputable``
        descending. ``saved`` is the canonical optimal selection (SPEC 6.1).

    Raises:
        TypeError, ValueError: invalid input (SPEC 1).
        BudgetTooLargeError: the table cannot fit in memory (SPEC 1.6).

    Time O(n * min(Q, sum w)), memory O(n * min(Q, sum w)).

    >>> dp_knapsack([1e-4] * 3, [1.0] * 3, 1e-4)
    (1.0, [0], [2, 1])
    """
    instance = validate(memory, runtime, max_memory)
    columns = min(instance.capacity, sum(instance.weights)) + 1
    require_buffer_fits(
        instance,
        (instance.n + 1) * columns * TABLE_CELL_BYTES,
        f"(n+1) x (min(Q, sum w)+1) = {instance.n + 1} x {columns} table cells",
    )
    return format_result(instance.runtimes, _saved_items(instance, columns))


def next_row(previous: list[int], w: int, v: int) -> list[int]:
    """One step of the recurrence: row ``i`` from row ``i-1`` for an item ``(w, v)``.

    ``row[c] = previous[c]`` for ``c < w``, else ``max(previous[c], v + previous[c - w])``.
    """
    return previous[:w] + [max(previous[c], v + previous[c - w]) for c in range(w, len(previous))]


def build_table(weights: list[int], values: list[int], columns: int) -> list[list[int]]:
    """Return ``table`` with ``table[i][c] = OPT(i, c)`` for ``c < columns``."""
    table = [[0] * columns]
    for w, v in zip(weights, values, strict=True):
        table.append(next_row(table[-1], w, v))
    return table


def backtrack(
    weights: Sequence[int],
    items: Sequence[int],
    capacity: int,
    taken: Callable[[int, int], object],
    fit_from: Sequence[int] | None = None,
) -> list[int]:
    """The canonical selection of SPEC 6.1 from a table's decisions: from the last
    item of ``items`` down, item ``k`` (``items[k]``) is saved where the table
    says taking it at the budget left ``c`` was strictly better,
    ``taken(k, c)`` (only asked when ``weights[items[k]] <= c``), and ``c``
    drops by its weight. Descending; time O(len(items)) calls of ``taken``.

    The one backtracking of the project: the reference's table, the optimized
    solver's base cases and all-budgets table, and the test oracle's numpy
    table all read their selection here.

    ``fit_from[k]``: a weight from which items ``0..k`` are all saved (every
    one has ``v > 0`` and they fit together, so each was strictly better
    taken); the walk stops there, saving them.
    """
    saved: list[int] = []
    c = capacity
    for k in range(len(items) - 1, -1, -1):
        if fit_from is not None and c >= fit_from[k]:
            saved.extend(items[k::-1])
            break
        w = weights[items[k]]
        if w <= c and taken(k, c):
            saved.append(items[k])
            c -= w
    return saved


def _saved_items(instance: Instance, columns: int) -> list[int]:
    values, _ = integer_runtimes(instance.runtimes)
    weights = list(instance.weights)
    table = build_table(weights, values, columns)
    return backtrack(
        weights, range(instance.n), columns - 1, lambda k, c: table[k + 1][c] != table[k][c]
    )
