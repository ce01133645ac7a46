"""Hirschberg divide and conquer over items, independent of the array backend.

Input (the output of :mod:`.reductions`): items with ``v_i > 0`` and
``1 <= w_i``, and a capacity ``C``. Output: an optimal subset (SPEC 3.3).

``solve(segment, C)``:

1. If the whole segment weighs at most ``C``, save it (all values are
   positive). So below, the segment's total weight exceeds ``C``.
2. If the segment is small (:func:`is_base_case`: at most
   :data:`_BASE_CASE_ITEMS` items, or at most :data:`_BASE_CASE_CELLS` table
   cells and the backend's own limit), solve it directly with a table of decision bits
   (``backend.solve_small``).
3. Otherwise split it into halves ``A`` (first) and ``B`` (second), compute
   their profiles ``L`` and ``R`` for capacities ``0..C``, take the first
   ``c*`` maximising ``L[c] + R[C - c]`` and solve ``(A, c*)`` and
   ``(B, C - c*)``. The split lemma (proofs/06) says the two optimal halves
   together are optimal for ``(segment, C)`` and weigh at most
   ``c* + (C - c*) = C``.

Recursion depth is ``ceil(log2(n / base))``; every call on a segment of ``m``
items spends O(m * C) time and O(C) memory in the backend (proofs/08).

Knobs (module-level, for tests, like sortedcontainers' ``_reset``):
:data:`_BASE_CASE_ITEMS` and :data:`_BASE_CASE_CELLS` (set them to 1 and 0 to
force the deepest recursion on tiny inputs) and :data:`_DEBUG_CHECKS` (makes
the driver call the invariant checkers of :mod:`.checks` at every step).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import checks
from .backends import ProfileBackend

_BASE_CASE_ITEMS = 32
"""Segments with at most this many items are solved by ``solve_small``."""

_BASE_CASE_CELLS = 1 << 24
"""Segments whose decision table has at most this many cells (one byte each)
are solved by ``solve_small`` too, however many items they have."""

_DEBUG_CHECKS = False
"""When true, every profile, split and selection is checked against the reference."""


def base_case_cells(n: int, capacity: int, cell_limit: int | None = None) -> int:
    """Decision-table cells ``solve_small`` may need for ``n`` items and capacity
    ``capacity``: ``min(n, max(base, cells // (C + 1))) * (C + 1)`` (proofs/08),
    with ``cells = min(_BASE_CASE_CELLS, cell_limit)``."""
    cells = _cell_limit(cell_limit)
    rows = min(n, max(_BASE_CASE_ITEMS, cells // (capacity + 1)))
    return rows * (capacity + 1)


def is_base_case(n: int, capacity: int, cell_limit: int | None = None) -> bool:
    """Whether a segment of ``n`` items and capacity ``capacity`` is solved directly."""
    return n <= _BASE_CASE_ITEMS or n * (capacity + 1) <= _cell_limit(cell_limit)


def _cell_limit(backend_limit: int | None) -> int:
    return _BASE_CASE_CELLS if backend_limit is None else min(_BASE_CASE_CELLS, backend_limit)


def solve(
    backend: ProfileBackend,
    weights: Sequence[int],
    values: Sequence[int],
    items: Sequence[int],
    capacity: int,
) -> list[int]:
    """Return an optimal subset of ``items`` within ``capacity``.

    Precondition: ``weights[i] >= 1`` and ``values[i] > 0`` for ``i`` in ``items``.
    Time O(n * C * log2(n / base)) worst case, memory O(C) in the backend plus
    O(n) for the recursion's item lists.
    """
    saved: list[int] = []
    _solve_segment(backend, weights, values, list(items), capacity, saved)
    if _DEBUG_CHECKS:
        checks.check_selection(weights, values, items, capacity, saved)
    return saved


def _solve_segment(
    backend: ProfileBackend,
    weights: Sequence[int],
    values: Sequence[int],
    items: list[int],
    capacity: int,
    saved: list[int],
) -> None:
    total = sum(weights[i] for i in items)
    if total <= capacity:
        saved.extend(items)
        return
    if is_base_case(len(items), capacity, backend.base_case_cell_limit):
        chosen = backend.solve_small(items, capacity)
        if _DEBUG_CHECKS:
            checks.check_selection(weights, values, items, capacity, chosen)
        saved.extend(chosen)
        return
    middle = len(items) // 2
    left, right = items[:middle], items[middle:]
    split, value = backend.best_split(left, right, capacity)
    if _DEBUG_CHECKS:
        checks.check_profile(backend.profile(left, capacity), weights, values, left, capacity)
        checks.check_profile(backend.profile(right, capacity), weights, values, right, capacity)
        checks.check_split(weights, values, left, right, capacity, split, value)
    _solve_segment(backend, weights, values, left, split, saved)
    _solve_segment(backend, weights, values, right, capacity - split, saved)
