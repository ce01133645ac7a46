"""Hirschberg divide and conquer over items, independent of the array backend.

Input (the output of :mod:`.reductions`): items with ``v_i > 0`` and
``1 <= w_i``, and a capacity ``C``. Output: an optimal subset (SPEC 3.3).

``solve(segment, C)``:

1. Drop the items heavier than ``C`` (they never fit). If the rest weighs at
   most ``C``, save it (all values are positive). So below, the segment's
   total weight exceeds ``C``.
2. If the segment has at most ``backend.small_items(C)`` items (and at most
   :attr:`.config.Config.base_case_items`), solve it directly with a table of decision bits
   (``backend.solve_small``).
3. Otherwise split it into halves ``A`` (first) and ``B`` (second), compute
   their profiles ``L`` and ``R`` for capacities ``0..C``, take the first
   ``c*`` maximising ``L[c] + R[C - c]`` (over the split range of Lemma 6.3)
   and solve ``(A, c*)`` and
   ``(B, C - c*)``. The split lemma (proofs/06) says the two optimal halves
   together are optimal for ``(segment, C)`` and weigh at most
   ``c* + (C - c*) = C``.

Recursion depth is ``ceil(log2(n / base))``; every call on a segment of ``m``
items spends O(m * C) time and O(C) memory in the backend (proofs/08).

Knobs (:class:`.config.Config`, for tests): ``base_case_items`` (1 forces
the deepest recursion on tiny inputs) and ``debug_checks`` (makes the driver
call the invariant checkers of :mod:`.checks` at every step).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import checks
from .backends import ProfileBackend
from .config import current


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
    if current().debug_checks:
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
    items = [i for i in items if weights[i] <= capacity]
    if sum(weights[i] for i in items) <= capacity:
        saved.extend(items)
        return
    config = current()
    if len(items) <= min(config.base_case_items, backend.small_items(capacity)):
        chosen = backend.solve_small(items, capacity)
        if config.debug_checks:
            checks.check_selection(weights, values, items, capacity, chosen)
        saved.extend(chosen)
        return
    middle = len(items) // 2
    left, right = items[:middle], items[middle:]
    split, value = backend.best_split(left, right, capacity)
    if config.debug_checks:
        checks.check_profile(backend.profile(left, capacity), weights, values, left, capacity)
        checks.check_profile(backend.profile(right, capacity), weights, values, right, capacity)
        checks.check_split(weights, values, left, right, capacity, split, value)
    _solve_segment(backend, weights, values, left, split, saved)
    _solve_segment(backend, weights, values, right, capacity - split, saved)
