"""Shrink a failing case along the structure of real calls, then item by item.

A call from the partitioner is mostly copies: a model's repeated blocks give
hundreds of items of a few *types* (equal ``(memory, runtime)`` pairs).
Dropping one item at a time from such a case is slow (a solver call per
item and per pass) and often stops early: with the budget fixed, dropping
any one item changes which items fit, and the failure goes away. So
:class:`Shrinker` first tries moves that keep the structure:

========================  ================================================
move                      candidate case
========================  ================================================
group copies              the same items, each type's copies side by side
                          (types in order of first appearance), so the
                          printed call is a few ``[v] * k`` runs
drop a type               every copy of one type removed; the budget kept,
                          lowered by the removed weight, or scaled by the
                          weight that remains
halve a type              half of one type's copies removed (the budget
                          kept, lowered or scaled likewise)
========================  ================================================

then, once no structural move helps, :meth:`Shrinker.one_by_one` drops single
items (the budget kept, or lowered by the item's weight) until the case is
1-minimal: no single item can be dropped, with either budget, and keep the
failure.

A move is kept when ``fails(candidate)`` returns a finding (the same
property still fails: the caller decides what counts, for example "NEW
fails and BASE passes" in ``knapsack-audit compare``). Cost: each pass makes
at most ``9 t + 2`` calls for ``t`` types, and every kept move removes at
least one item (or, once, groups the copies), so at most ``9 t n + 2 n``
calls for ``n`` items; :meth:`Shrinker.one_by_one` makes at most ``2 n``
calls per item it removes. The caller bounds the time (the engine's
:class:`~knapsack_audit.search.Stoppable` solver raises when it is spent);
:attr:`Shrinker.current` is the smallest failure so far at any moment.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from knapsack_audit.cases import Case
from knapsack_audit.properties import Finding

Fails = Callable[[Case], Finding | None]
"""The failure a candidate case still shows, or ``None`` if it shows none."""


def size(case: Case) -> tuple[int, int, int]:
    """Shrinking order: fewer items, then fewer types, then a shorter printed call."""
    return case.n, case.distinct_items(), len(case.as_call())


class Shrinker:
    """Shrink ``finding`` while ``fails`` still reports a failure (see the module doc).

    Attributes:
        current: the smallest failure found so far (``finding`` at first).
        found_items: the number of items of the case as it was found.
    """

    def __init__(self, fails: Fails, finding: Finding) -> None:
        self.fails = fails
        self.current = finding
        self.found_items = finding.case.n

    def structural(self) -> Finding:
        """Apply structural moves while one helps; return the smallest failure."""
        progress = True
        while progress:
            progress = any(
                self.try_case(candidate) for candidate in _structural_moves(self.current.case)
            )
        return self.current

    def one_by_one(self) -> Finding:
        """Drop single items (budget kept or lowered) until the case is 1-minimal."""
        progress = True
        while progress:
            progress = any(
                self.try_case(candidate) for candidate in _single_drops(self.current.case)
            )
        return self.current

    def try_case(self, candidate: Case) -> bool:
        """Keep ``candidate`` if it is smaller and still fails; say whether it was kept."""
        if size(candidate) >= size(self.current.case):
            return False
        again = self.fails(candidate)
        if again is None:
            return False
        self.current = again
        return True


def group_copies(case: Case) -> Case:
    """``case`` with each type's copies side by side, types in order of first appearance.

    >>> group_copies(Case.of([0.5, 0.25, 0.5], [1.0, 2.0, 1.0], 1.0)).memory
    (0.5, 0.5, 0.25)
    """
    order: dict[Any, list[int]] = {}
    for i, item in enumerate(_items(case)):
        order.setdefault(item, []).append(i)
    return _taking(case, [i for indices in order.values() for i in indices], case.max_memory)


def _items(case: Case) -> list[tuple[str, str]]:
    """Each item's type: its pair by ``repr`` (so ``0.0`` and ``-0.0``, or NaNs, stay exact)."""
    return [(repr(m), repr(r)) for m, r in zip(case.memory, case.runtime, strict=True)]


def _taking(case: Case, keep: list[int], max_memory: Any) -> Case:
    return Case(
        tuple(case.memory[i] for i in keep), tuple(case.runtime[i] for i in keep), max_memory
    )


def _structural_moves(case: Case) -> Iterator[Case]:
    """Candidates of the structural moves, the biggest reductions first."""
    grouped = group_copies(case)
    if grouped != case:
        yield grouped
    types: dict[tuple[str, str], list[int]] = {}
    for i, item in enumerate(_items(case)):
        types.setdefault(item, []).append(i)
    largest_first = sorted(types.values(), key=len, reverse=True)
    for indices in largest_first:
        yield from _without(case, indices)
    for indices in largest_first:
        if len(indices) >= 2:
            yield from _without(case, indices[len(indices) // 2 :])


def _single_drops(case: Case) -> Iterator[Case]:
    for i in range(case.n):
        yield from _without(case, [i], scaled=False)


def _without(case: Case, drop: list[int], scaled: bool = True) -> Iterator[Case]:
    """``case`` less the items ``drop``: the budget kept, lowered by their weight,
    and (if ``scaled``) scaled by the weight that remains. Budgets that are not
    finite non-negative floats are only kept."""
    dropped = set(drop)
    keep = [i for i in range(case.n) if i not in dropped]
    yield _taking(case, keep, case.max_memory)
    budget, memory = case.max_memory, case.memory
    if not (_is_real(budget) and all(_is_real(memory[i]) for i in range(case.n))):
        return
    removed = sum(memory[i] for i in drop)
    if 0 < removed <= budget:
        yield _taking(case, keep, budget - removed)
    total = sum(memory)
    if scaled and total > 0 and removed > 0:
        yield _taking(case, keep, budget * (total - removed) / total)


def _is_real(value: Any) -> bool:
    return type(value) in (int, float) and value == value and abs(value) != float("inf")
