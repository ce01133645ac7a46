"""Exhaustive small-scope verification: every instance up to a bound, checked exactly.

The *small-scope hypothesis* (Jackson, *Software Abstractions*, 2006): most
bugs show on small instances, so checking every one of them is a bounded
proof. :func:`verify_small_scope` enumerates every instance with

* ``n <= max_items`` items,
* quantized weights in ``weights`` (memory ``w / SCALE``, so ``q = w``, SPEC 2.1),
* runtimes in ``runtimes`` (each item independently),
* quantized budget in ``budgets``,

calls the solver on each, and judges it with the property engine
(:func:`knapsack_audit.properties.judge_outcome`, :data:`EXHAUSTIVE_PROPERTIES`:
partition 7.2b, feasibility 3.2, optimality 3.3, value and order 7.1) against
a brute-force optimum computed here from the definition (SPEC 3.2, no DP),
passed to it as its oracle, and optionally compares the canonical selection
(6.1). A solver judged ``exact=False`` (a third party's, SPEC 5.2) is allowed
:func:`knapsack_audit.properties.tolerance` for optimality and value instead,
and any order (7.3). A solver named ``location:function``
(:func:`knapsack_audit.catalog.load`) is checked in worker processes, the
work split by the first item; a solver passed as a callable is checked in
this process (so a test's ``monkeypatch`` of a knob applies).
:func:`sample_instances` draws instances of the same scope at random, for
sizes beyond the exhaustive bound.

:class:`Scope` is the smaller bound that ``verify`` checks first for every
target (:func:`scope_for`): a few thousand instances with up to 3 items,
judged by the property engine (:func:`knapsack_audit.search.audit`).
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from knapsack_audit.cases import Case
from knapsack_audit.catalog import load
from knapsack_audit.properties import Judge, call, judge_outcome
from knapsack_audit.reference.validation import SCALE, quantize

DEFAULT_RUNTIMES = (0.0, 0.5, 1.0, 2.0, 3.0, 1e8, -1.0)
DEFAULT_WEIGHTS = range(4)
DEFAULT_BUDGETS = range(8)

SCOPE_MEMORIES = (0.0, 1e-4, 2e-4, 3e-4, 0.00015, 0.00025, 0.00035)
"""Weights 0..3 units, and memories at or beside a quantization half-way point:
``0.00015`` (``* 1e4 == 1.4999999999999998``, rounds to 1), ``0.00025``
(``* 1e4 == 2.5`` exactly, rounds half to even: 2; half up would give 3) and
``0.00035`` (``3.5`` exactly, rounds half to even: 4)."""
SCOPE_RUNTIMES = (0.0, 1.0, 2.0, 3.0, 1e8)
"""Tied and distinct runtimes, 0, and ``1e8`` (``1e8 + 1 == 1e8`` in float32)."""
SCOPE_SINGLE_RUNTIMES = (0.5,)
"""Added for one item only (cheap: 7 memories): a fractional runtime, which a
solver that truncates or rounds runtimes to integers values at 0."""
SCOPE_TRIPLE_MEMORIES = (0.0, 1e-4, 2e-4, 3e-4)
SCOPE_TRIPLE_RUNTIMES = (1.0, 3.0)
"""Three items: whole units (a zero weight among them: mutation testing of
upstream's ``dp_knapsack`` found a wrong zero-weight row update that needs one
after another item) and runtimes whose ratios differ (greedy, splits)."""
FRACTIONAL_BUDGET_OFFSETS = (0.75, 0.5)
"""Budgets that are not whole units, one just above ``total - 1`` and one
half-way to ``total``: ``(total - 0.75) / 1e4`` quantizes to ``total - 1``
(``round``; ``math.ceil`` gives ``total``, so a solver that rounds the budget
up saves every item over budget) and ``(total - 0.5) / 1e4`` is a half-way
point (``round`` goes to the even neighbour; ``int(x + 0.5)`` goes up on an
odd total and ``int(x)`` goes down on an even one). SPEC 2.1 quantizes the
budget with ``round`` as it does every weight."""
SCOPE_THRESHOLD_BUDGETS = (10**4, 10**4 + 1, 2**15, 2**15 + 1, 2**16, 2**16 + 1)
"""Budgets where a fast path might switch on (``Q > 10**4``: "a fraction of
the memory"; ``2**15``, ``2**16``: a narrower dtype or a halved table), each
side of the switch."""
SCOPE_THRESHOLD_RUNTIMES = (1.0, 3.0)


def threshold_weights(budget: int) -> tuple[int, ...]:
    """Item weights for a large budget ``Q``: half of it plus one (two of them
    do not fit together, but do after halving both with ``//``) and all of it
    (an exact fit, lost by a clamped budget). Every call costs O(n Q) in a DP
    solver, so the pool stays small: 20 instances per budget."""
    return (budget // 2 + 1, budget)


EXTENDED_RUNTIMES = (-1.0,)
"""Added for the extended domain (SPEC 4.4)."""


@dataclass(frozen=True)
class Scope:
    """Every instance of a small scope: the bound and its cases.

    ``levels[k]`` is ``(memories, runtimes)`` for instances of ``k + 1``
    items: every ordered choice of items (each a memory and a runtime from
    those pools), each with every budget of 0..(total units + 1) units and,
    when the total is at least one unit, the fractional budgets of
    :data:`FRACTIONAL_BUDGET_OFFSETS` below the total; plus the empty
    instance with budgets 0 and 1 unit.
    """

    levels: tuple[tuple[tuple[float, ...], tuple[float, ...]], ...]
    threshold_budgets: tuple[int, ...] = ()
    """Large budgets ``Q`` each checked on every instance of one or two items
    of :func:`threshold_weights` ``(Q)`` and runtimes
    :data:`SCOPE_THRESHOLD_RUNTIMES` (after the small instances)."""

    @property
    def bound(self) -> str:
        """The scope in words (it goes into the verdict)."""
        parts = [
            f"n={k + 1}: memories {list(memories)} x runtimes {list(runtimes)}"
            for k, (memories, runtimes) in enumerate(self.levels)
        ]
        fractions = ", ".join(f"total-{offset}" for offset in FRACTIONAL_BUDGET_OFFSETS)
        if self.threshold_budgets:
            parts.append(
                f"Q in {list(self.threshold_budgets)}: n<=2 of weights Q//2+1, Q"
                f" x runtimes {list(SCOPE_THRESHOLD_RUNTIMES)}"
            )
        return f"every budget 0..total+1 units and {fractions}; " + "; ".join(parts)

    def cases(self) -> list[Case]:
        """Every instance, fewest items first (so the first failure is a smallest
        one); the threshold budgets' instances of ``k`` items follow the small
        ones of ``k`` items."""
        instances = [Case((), (), 0.0), Case((), (), 1e-4)]
        for k, (memories, runtimes) in enumerate(self.levels):
            items = list(itertools.product(memories, runtimes))
            for chosen in itertools.product(items, repeat=k + 1):
                memory = tuple(m for m, _ in chosen)
                runtime = tuple(r for _, r in chosen)
                total = sum(quantize(m) for m in memory)
                instances += [Case(memory, runtime, units / 10000) for units in range(total + 2)]
                if total >= 1:
                    instances += [
                        Case(memory, runtime, (total - offset) / 10000)
                        for offset in FRACTIONAL_BUDGET_OFFSETS
                    ]
            instances += self._threshold_cases(k + 1)
        return instances

    def _threshold_cases(self, n: int) -> list[Case]:
        """The instances of ``n <= 2`` items at each threshold budget."""
        if n > 2:
            return []
        cases = []
        for budget in self.threshold_budgets:
            items = list(itertools.product(threshold_weights(budget), SCOPE_THRESHOLD_RUNTIMES))
            for chosen in itertools.product(items, repeat=n):
                memory = tuple(w / SCALE for w, _ in chosen)
                cases.append(Case(memory, tuple(r for _, r in chosen), budget / SCALE))
        return cases


def scope_for(domain: str) -> Scope:
    """The scope ``verify`` checks first: n <= 2 over the full pools (n = 1 also
    with a fractional runtime), n = 3 over whole units, then n <= 2 at each of
    the large threshold budgets."""
    runtimes = SCOPE_RUNTIMES + (EXTENDED_RUNTIMES if domain == "extended" else ())
    pairs = (SCOPE_MEMORIES, runtimes)
    singles = (SCOPE_MEMORIES, runtimes + SCOPE_SINGLE_RUNTIMES)
    return Scope(
        (singles, pairs, (SCOPE_TRIPLE_MEMORIES, SCOPE_TRIPLE_RUNTIMES)),
        SCOPE_THRESHOLD_BUDGETS,
    )


@dataclass
class Summary:
    """Instances checked and the first failures found (at most ``keep``)."""

    instances: int = 0
    failures: list[str] = field(default_factory=list)
    failure_count: int = 0

    def merge(self, other: Summary, keep: int) -> None:
        """Add another worker's counts and failures."""
        self.instances += other.instances
        self.failure_count += other.failure_count
        self.failures.extend(other.failures[: max(keep - len(self.failures), 0)])


def exact_scale(runtimes: Sequence[float]) -> int:
    """The smallest ``s`` making every ``runtime * s`` an integer (exactly)."""
    return math.lcm(*(Fraction(r).denominator for r in runtimes)) if runtimes else 1


def subset_table(weights: Sequence[int], values: Sequence[int]) -> list[tuple[int, int, int]]:
    """``(weight, value, mask)`` of every subset, by the definition (SPEC 3.2)."""
    n = len(weights)
    table = []
    for mask in range(1 << n):
        chosen = [i for i in range(n) if mask >> i & 1]
        table.append((sum(weights[i] for i in chosen), sum(values[i] for i in chosen), mask))
    return table


def best_masks(subsets: Sequence[tuple[int, int, int]], budget: int, n: int) -> tuple[int, int]:
    """The optimum over feasible subsets and the canonical optimal mask (SPEC 6.1).

    Canonical: the lexicographically smallest indicator vector read from item
    ``n-1`` down to item 0; as a bit pattern that is the smallest
    ``mask`` with bit ``i`` weighing ``2**i``, i.e. the smallest integer mask.
    """
    best, canonical = 0, 0
    for weight, value, mask in subsets:
        if weight <= budget and (value > best or (value == best and mask < canonical)):
            best, canonical = value, mask
    return best, canonical


@dataclass(frozen=True)
class Expected:
    """What the brute force says about one instance.

    ``values`` are the runtimes times ``scale`` (exact integers), ``optimum``
    the best feasible sum of ``values``, ``canonical`` the canonical selection
    (SPEC 6.1) or ``None`` to accept any optimal selection; ``exact`` false
    allows SPEC 5.2's tolerance.
    """

    values: Sequence[int]
    scale: int
    optimum: int
    canonical: list[int] | None
    exact: bool = True


EXHAUSTIVE_PROPERTIES = (
    "no-crash",
    "return-shape",
    "partition",
    "feasibility",
    "optimality",
    "value-consistency",
)
"""The one-call properties judged on every instance of the scope (the
property engine's, :mod:`knapsack_audit.properties`; determinism and
no-mutation are the contract suite's and the audit's)."""


def check_instance(
    solver: Callable[..., Any],
    weights: Sequence[int],
    runtimes: Sequence[float],
    budget: int,
    expected: Expected,
) -> str | None:
    """Check one instance with the property engine, the brute force's optimum
    as its oracle, and the canonical selection (SPEC 6.1) when ``expected``
    has one; return a description of the failure, or ``None``."""
    case = Case.of([w / SCALE for w in weights], runtimes, budget / SCALE)
    optimum = Fraction(expected.optimum, expected.scale)
    judge = Judge(exact=expected.exact, oracle=lambda _: optimum)
    outcome = call(solver, case)
    findings = judge_outcome(solver, case, judge, outcome, EXHAUSTIVE_PROPERTIES)
    described = f"solver({list(case.memory)!r}, {list(case.runtime)!r}, {case.max_memory!r})"
    if findings:
        return f"{described}: " + "; ".join(
            f"{finding.property} ({finding.clause}): {finding.message}" for finding in findings
        )
    saved = outcome.result[1]
    if expected.canonical is not None and sorted(saved) != expected.canonical:
        return f"{described}: saved {saved}, canonical selection is {expected.canonical} (SPEC 6.1)"
    return None


Solver = Callable[..., Any]


def _verify_prefix(
    arguments: tuple[str | Solver, tuple[int, float] | None, dict[str, Any]],
) -> Summary:
    target, first, scope = arguments
    solver = load(target) if isinstance(target, str) else target
    scale = exact_scale(scope["runtimes"])
    exact = {r: int(Fraction(r) * scale) for r in scope["runtimes"]}
    summary = Summary()
    items = list(itertools.product(scope["weights"], scope["runtimes"]))
    sizes = range(1, scope["max_items"] + 1) if first is not None else [0]
    for n in sizes:
        for rest in itertools.product(items, repeat=n - 1 if first is not None else 0):
            chosen = [first, *rest] if first is not None else []
            weights = [w for w, _ in chosen]
            runtimes = [r for _, r in chosen]
            values = [exact[r] for r in runtimes]
            subsets = subset_table(weights, values)
            for budget in scope["budgets"]:
                summary.instances += 1
                best, mask = best_masks(subsets, budget, n)
                canonical = [i for i in range(n) if mask >> i & 1] if scope["canonical"] else None
                expected = Expected(values, scale, best, canonical, scope["exact"])
                failure = check_instance(solver, weights, runtimes, budget, expected)
                if failure is not None:
                    summary.failure_count += 1
                    if len(summary.failures) < scope["keep"]:
                        summary.failures.append(failure)
    return summary


def verify_small_scope(
    target: str | Solver,
    max_items: int = 4,
    weights: Sequence[int] = DEFAULT_WEIGHTS,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    runtimes: Sequence[float] = DEFAULT_RUNTIMES,
    canonical: bool = False,
    workers: int = 2,
    keep: int = 10,
    exact: bool = True,
) -> Summary:
    """Check every instance in the scope.

    ``target`` is ``location:function`` (checked by ``workers`` processes) or
    the solver itself (checked in this process). Instance count:
    ``len(budgets) * sum((len(weights) * len(runtimes))**k for k in 0..max_items)``.
    """
    scope = {
        "weights": list(weights),
        "budgets": list(budgets),
        "runtimes": list(runtimes),
        "max_items": max_items,
        "canonical": canonical,
        "keep": keep,
        "exact": exact,
    }
    firsts: list[tuple[int, float] | None] = [None, *itertools.product(weights, runtimes)]
    jobs = [(target, first, scope) for first in firsts]
    summary = Summary()
    if not isinstance(target, str):
        for job in jobs:
            summary.merge(_verify_prefix(job), keep)
        return summary
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for part in pool.imap_unordered(_verify_prefix, jobs):
            summary.merge(part, keep)
    return summary


def sample_instances(
    n: int,
    count: int,
    seed: int,
    weights: Sequence[int] = DEFAULT_WEIGHTS,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    runtimes: Sequence[float] = DEFAULT_RUNTIMES,
) -> Iterator[tuple[list[float], list[float], float]]:
    """``count`` random ``(memory, runtime, max_memory)`` of the scope with ``n`` items.

    Reproducible from ``seed``; each item's weight and runtime and the budget
    drawn uniformly from the scope's sets.
    """
    rng = random.Random(seed)
    for _ in range(count):
        memory = [rng.choice(weights) / SCALE for _ in range(n)]
        runtime = [rng.choice(runtimes) for _ in range(n)]
        yield memory, runtime, rng.choice(budgets) / SCALE
