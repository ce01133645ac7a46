"""The cases ``knapsack-audit compare`` runs BASE and NEW on, grouped by family.

Every case is a pure function of the family, its size and a seed
(:class:`random.Random` seeded with a string, whose stream Python keeps
stable), so two runs of ``compare`` see the same cases.

=======================  ===================================================
family                   cases
=======================  ===================================================
``golden``               the partitioner's own calls, captured from real
                         compilations (:func:`knapsack_audit.golden.fixtures.load`)
``small-scope``          every instance with up to ``max_items`` items of
                         ``0..max_weight`` units, runtimes ``0, 1, 2``, budgets
                         ``0..max_budget`` units (the small-scope hypothesis:
                         most bugs show on small instances)
``partitioner``          what a deep model gives the partitioner: ``blocks``
                         repeats of one block of ``block_items`` items of a
                         few units each, memories normalized to sum to 1,
                         flop-count runtimes that are multiples of ``2**20``,
                         budgets 0.1 to 0.5 (``Q <= 10000``)
``uncorrelated``,        Pisinger's families ("Where are the hard knapsack
``strongly-correlated``, problems?", 2005) with data range ``R`` chosen so
``subset-sum``           the budget holds about half the total weight;
                         profits times ``2**20`` (flop-sized)
``large-q``              uncorrelated instances with budgets of ``1e5`` units
                         and more (callers other than the partitioner)
=======================  ===================================================

Pisinger's definitions (``U[a, b]`` a uniform integer): uncorrelated
``w ~ U[1, R]``, ``p ~ U[1, R]``; strongly correlated ``p = w + R // 10``;
subset-sum ``p = w``. Memories are ``w / 10000`` (quantize back to ``w``,
SPEC 2.1) and the budget ``Q / 10000``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from knapsack_audit.cases import Case

SCALE = 10000
"""Quantization units per unit of memory (SPEC 2.1)."""

FLOPS_UNIT = 2**20
"""Generated runtimes are multiples of this (flop counts often are)."""

SMALL_SCOPE_RUNTIMES = (0.0, 1.0, 2.0)


@dataclass(frozen=True)
class Effort:
    """How many cases of each family ``compare`` runs, and how often each is timed.

    Attributes:
        name: ``quick``, ``default`` or ``long``.
        repeats: timed calls per case and solver (after one warm-up call).
        golden: how many golden fixtures (``None``: all of them).
        small_scope: ``(max_items, max_weight, max_budget)``.
        partitioner: ``(blocks, block_items)`` shapes, one instance each at
            every budget of :data:`PARTITIONER_BUDGETS`.
        pisinger: ``(n, Q)`` sizes of the uncorrelated, strongly correlated
            and subset-sum families.
        large_q: ``(n, Q)`` sizes of the large-Q family, one instance each
            (a call takes up to seconds).
        seeds: instances drawn per Pisinger size.
    """

    name: str
    repeats: int
    golden: int | None
    small_scope: tuple[int, int, int]
    partitioner: tuple[tuple[int, int], ...]
    pisinger: tuple[tuple[int, int], ...]
    large_q: tuple[tuple[int, int], ...]
    seeds: int


PARTITIONER_BUDGETS = (0.1, 0.3, 0.5)

EFFORTS = {
    "quick": Effort(
        name="quick",
        repeats=2,
        golden=4,
        small_scope=(2, 2, 2),
        partitioner=((12, 4),),
        pisinger=((10, 200),),
        large_q=((10, 100_000),),
        seeds=1,
    ),
    "default": Effort(
        name="default",
        repeats=3,
        golden=None,
        small_scope=(3, 2, 3),
        partitioner=((12, 6), (48, 5), (48, 8), (64, 5), (96, 6), (128, 4)),
        pisinger=((20, 500), (50, 2000), (50, 5000)),
        large_q=((40, 100_000), (20, 1_000_000)),
        seeds=2,
    ),
    "long": Effort(
        name="long",
        repeats=5,
        golden=None,
        small_scope=(4, 3, 5),
        partitioner=((12, 6), (24, 4), (48, 5), (48, 8), (64, 5), (64, 9), (96, 6), (128, 4)),
        pisinger=((20, 500), (50, 2000), (50, 5000), (100, 10000)),
        large_q=((30, 100_000), (30, 1_000_000), (10, 3_000_000)),
        seeds=5,
    ),
}
"""``--effort`` presets; docs/CLI.md says what each costs and adds."""


@dataclass(frozen=True)
class Family:
    """A named group of cases; ratios and counts are reported per family.

    ``timed``: whether ``compare`` times the cases (the small scope's
    instances of at most a few items are judged only: their calls take
    microseconds, so their ratios would measure the call overhead).
    """

    name: str
    cases: tuple[Case, ...]
    timed: bool = True


def families(effort: Effort) -> list[Family]:
    """Every family's cases at ``effort``, in report order."""
    draws = [
        ("partitioner", partitioner_cases(effort.partitioner)),
        ("uncorrelated", pisinger_cases(_uncorrelated, effort.pisinger, effort.seeds)),
        ("strongly-correlated", pisinger_cases(_strongly, effort.pisinger, effort.seeds)),
        ("subset-sum", pisinger_cases(_subset_sum, effort.pisinger, effort.seeds)),
        ("large-q", pisinger_cases(_uncorrelated, effort.large_q, 1)),
    ]
    return [
        Family("golden", golden_cases(effort.golden)),
        Family("small-scope", small_scope_cases(*effort.small_scope), timed=False),
        *(Family(name, cases) for name, cases in draws),
    ]


def golden_cases(limit: int | None) -> tuple[Case, ...]:
    """The first ``limit`` golden fixtures' calls (all when ``None``).

    None when the fixtures are not installed (the report then shows 0 cases).
    """
    from knapsack_audit.golden.fixtures import load

    try:
        fixtures = load()
    except FileNotFoundError:
        return ()
    return tuple(fixture.case for fixture in fixtures[:limit])


def small_scope_cases(max_items: int, max_weight: int, max_budget: int) -> tuple[Case, ...]:
    """Every instance of the small scope (see the module docstring).

    Count: ``(max_budget + 1) * sum(k**i for i in 0..max_items)`` with
    ``k = (max_weight + 1) * 3``.
    """
    items = list(itertools.product(range(max_weight + 1), SMALL_SCOPE_RUNTIMES))
    cases: list[Case] = []
    for n in range(max_items + 1):
        for chosen in itertools.product(items, repeat=n):
            memory = tuple(w / SCALE for w, _ in chosen)
            runtime = tuple(r for _, r in chosen)
            cases.extend(Case(memory, runtime, b / SCALE) for b in range(max_budget + 1))
    return tuple(cases)


def partitioner_cases(shapes: Sequence[tuple[int, int]]) -> tuple[Case, ...]:
    """Repeated-block instances like a deep model's (see the module docstring).

    A block's items weigh 1 to 8 relative units; the whole choice is
    normalized to 1, so with ``blocks * block_items`` items each weighs a few
    quantization units, the regime of upstream's real calls.
    """
    cases: list[Case] = []
    for blocks, block_items in shapes:
        rng = random.Random(f"knapsack-audit-compare:partitioner:{blocks}:{block_items}")
        sizes = [rng.randint(1, 8) for _ in range(block_items)]
        flops = [float(rng.randint(1, 64) * FLOPS_UNIT) for _ in range(block_items)]
        total = sum(sizes) * blocks
        memory = tuple(size / total for size in sizes) * blocks
        cases.extend(Case(memory, tuple(flops) * blocks, b) for b in PARTITIONER_BUDGETS)
    return tuple(cases)


def _data_range(n: int, capacity: int) -> int:
    """``R`` such that ``n`` weights of ``U[1, R]`` total about ``2 * Q``."""
    return max(2, round(4 * capacity / n) - 1)


def _uncorrelated(rng: random.Random, r: int) -> tuple[int, int]:
    return rng.randint(1, r), rng.randint(1, r)


def _strongly(rng: random.Random, r: int) -> tuple[int, int]:
    w = rng.randint(1, r)
    return w, w + r // 10


def _subset_sum(rng: random.Random, r: int) -> tuple[int, int]:
    w = rng.randint(1, r)
    return w, w


def pisinger_cases(
    item: Callable[[random.Random, int], tuple[int, int]],
    sizes: Sequence[tuple[int, int]],
    seeds: int,
) -> tuple[Case, ...]:
    """``seeds`` instances per ``(n, Q)`` of the family whose item draw is ``item``."""
    cases: list[Case] = []
    for (n, capacity), seed in itertools.product(sizes, range(seeds)):
        rng = random.Random(f"knapsack-audit-compare:{item.__name__}:{n}:{capacity}:{seed}")
        pairs = [item(rng, _data_range(n, capacity)) for _ in range(n)]
        memory = tuple(w / SCALE for w, _ in pairs)
        runtime = tuple(float(p * FLOPS_UNIT) for _, p in pairs)
        cases.append(Case(memory, runtime, capacity / SCALE))
    return tuple(cases)
