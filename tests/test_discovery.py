"""The strategies reach the regions where knapsack bugs live.

In the style of Hypothesis' own tests/quality/test_discovery_ability.py: for
each region, ``find`` must produce an example of it from the strategy the
suite actually uses. A region the strategy never reaches would make every
property silently weaker.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import math
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, Phase, given, settings
from test_planted import corpus

from knapsack_audit import search
from knapsack_audit.cases import Case
from knapsack_audit.exhaustive import SCOPE_THRESHOLD_BUDGETS
from knapsack_audit.integer_oracle import fits_two_words, integer_optimum
from knapsack_audit.optimized import (
    backends,
    bounded,
    dp_knapsack_sliding_hirschberg,
    frontier_knapsack,
    grouping,
    reductions,
    solver,
    two_word,
)
from knapsack_audit.optimized.backends import TorchBackend
from knapsack_audit.properties import (
    Finding,
    Judge,
    check_call,
    exact_value,
    know_optimum,
    tolerance,
)
from knapsack_audit.reference import exact_optimum, quantize, validate
from knapsack_audit.reference.validation import integer_runtimes
from knapsack_audit.scaling import (
    FEW_ITEMS,
    FEW_ITEMS_FAR_CELLS,
    TABLE_TIERS,
    Scaling,
    scaled,
    table_cells,
)
from knapsack_audit.search import (
    COMPOSITE_PATTERNS,
    COMPOSITE_SIZES,
    EARLIER_PATTERNS,
    EXACT_SHARES_PARTS,
    GIGABYTE_SIZES,
    GROUPING_PATTERNS,
    IDLE_LIGHTEST_DRAWS,
    INT64_LIMIT_DRAWS,
    LATER_REGIONS,
    PAST_POWER_DRAWS,
    RAISED_TWICE_DRAWS,
    SAVED_COUNT_SIZES,
    SESSION_32_PATTERNS,
    SHORT_OF_TOTAL_DRAWS,
    SPLITTING_DRAWS,
    SPLITTING_SHAPES,
    WIDEST_GRID_DRAWS,
    BreadthCase,
    KnownCase,
)
from knapsack_audit.strategies import (
    BIG_TABLE_CELLS,
    HUGE_BUDGET_CELLS,
    HUGE_BUDGET_ITEMS,
    INTEGER_LIMIT_CELLS,
    LARGE_BUDGET_ITEMS,
    LARGE_BUDGET_UNITS,
    LARGEST_REAL_ITEMS,
    PACKED_TABLE_CELLS,
    PAST_LARGEST_ITEMS,
    PAST_LARGEST_REGIONS,
    PAST_POWER_COPIES,
    REGION_BUILDERS,
    SCALE,
    SIZE_TIERS,
    SPLIT_CORE_ITEMS,
    TESTING_RUNTIME,
    THRESHOLD_SIZES,
    TINY_RUNTIME_SCALES,
    WIDE_SPLIT_UNITS,
    WIDE_TABLE_UNITS,
    cases,
    correlated_case,
    equal_decimal_runtimes_case,
    float32_budget_readings,
    gigabyte_half_way_case,
    naive_spread,
    one_per_node_case,
    raised_in_two_rounds,
    region_case,
    tiered_cases,
    tiny_runtime_copies_case,
)

SEARCH = settings(
    max_examples=1000, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def weights(case: Case) -> list[int]:
    return [quantize(float(m)) for m in case.memory]


def budget(case: Case) -> int:
    return quantize(float(case.max_memory))


def _raised_twice(case: Case) -> bool:
    """Whether bound fixing over the case's item types (those of positive
    runtime that fit) raises a type in both of two rounds."""
    q = budget(case)
    kinds = Counter(
        (w, int(r))
        for w, r in zip(weights(case), case.runtime, strict=True)
        if r > 0 and 1 <= w <= q
    )
    return raised_in_two_rounds([(w, v, m) for (w, v), m in kinds.items()], q)


REGIONS = {
    "exact-unit weights": lambda c: (
        c.n >= 2 and all(m * 10000 == round(m * 10000) for m in c.memory)
    ),
    "half-way weight (m*1e4 = k + 0.5 exactly)": lambda c: any(
        (m * 10000) % 1 == 0.5 for m in c.memory
    ),
    "near-half weight (0.00015)": lambda c: 0.00015 in c.memory,
    "duplicated items": lambda c: len(set(zip(c.memory, c.runtime, strict=True))) < c.n,
    "ties: two items of equal weight and runtime, budget fits one": lambda c: (
        c.n >= 2
        and c.memory[0] == c.memory[1]
        and c.runtime[0] == c.runtime[1]
        and weights(c)[0] <= budget(c) < 2 * weights(c)[0]
    ),
    "zero weight": lambda c: 0 in weights(c),
    "zero runtime": lambda c: 0.0 in c.runtime,
    "every item too heavy": lambda c: c.n >= 2 and all(w > budget(c) for w in weights(c)),
    "zero budget": lambda c: c.n >= 1 and budget(c) == 0,
    "budget >= total weight": lambda c: c.n >= 2 and budget(c) >= sum(weights(c)) > 0,
    "partitioner-like (memories sum to 1)": lambda c: (
        c.n >= 5 and math.isclose(sum(c.memory), 1.0, rel_tol=1e-9)
    ),
    "flops-like runtimes (integers >= 1e9)": lambda c: any(
        r >= 1e9 and r == int(r) for r in c.runtime
    ),
    "millisecond runtimes (fractional, 0.001..100)": lambda c: any(
        0.001 <= r <= 100 and r != int(r) for r in c.runtime
    ),
    "float32-absorbing runtimes (1e8 beside 1)": lambda c: 1e8 in c.runtime and 1.0 in c.runtime,
    "n >= 64": lambda c: c.n >= 64,
    "Q >= 65536": lambda c: budget(c) >= LARGE_BUDGET_UNITS,
}

EXTENDED_REGIONS = {
    "negative runtime": lambda c: any(r < 0 for r in c.runtime),
    "zero-weight negative runtime": lambda c: any(
        w == 0 and r < 0 for w, r in zip(weights(c), c.runtime, strict=True)
    ),
}


def region_counts(domain: str, regions: dict[str, Callable[[Case], bool]]) -> Counter[str]:
    """Generate examples (no shrinking) and count how many fall in each region."""
    counts: Counter[str] = Counter()

    @settings(SEARCH, phases=[Phase.generate])
    @given(cases(domain=domain))
    def sample(case: Case) -> None:
        counts["examples"] += 1
        for name, predicate in regions.items():
            counts[name] += predicate(case)

    sample()
    return counts


@pytest.fixture(scope="module")
def partitioner_counts() -> Counter[str]:
    return region_counts("partitioner", {**REGIONS, **EXTENDED_REGIONS})


@pytest.fixture(scope="module")
def extended_counts() -> Counter[str]:
    return region_counts("extended", EXTENDED_REGIONS)


@pytest.mark.parametrize("region", REGIONS)
def test_partitioner_domain_strategy_reaches(region, partitioner_counts):
    """SPEC 4.4: the partitioner-domain strategy reaches every edge case listed."""
    assert partitioner_counts[region] > 0, dict(partitioner_counts)


@pytest.mark.parametrize("region", EXTENDED_REGIONS)
def test_extended_domain_strategy_reaches(region, extended_counts):
    """SPEC 4.4, 1.7: the extended-domain strategy reaches every edge case
    listed, negative runtimes too."""
    assert extended_counts[region] > 0, dict(extended_counts)


def test_partitioner_domain_has_no_negative_runtimes(partitioner_counts):
    """SPEC 4.4: third-party solvers are not fed negative runtimes by default."""
    assert partitioner_counts["examples"] >= 500
    assert partitioner_counts["negative runtime"] == 0


# --- every value region at every size tier and table size ---------------------------


def _free(c: Case) -> int:
    return sum(w == 0 and r > 0 for w, r in zip(weights(c), c.runtime, strict=True))


def _near_copies(c: Case) -> bool:
    """Two neighbours equal up to 1e-4 relative but not copies under SPEC 6.3:
    different quantized weights, or the same weight and different runtimes."""
    q = weights(c)
    for i in range(c.n - 1):
        m, n_, r, s = c.memory[i], c.memory[i + 1], c.runtime[i], c.runtime[i + 1]
        if q[i] != q[i + 1] and 0 < abs(m - n_) <= 1e-4 * m and r == s:
            return True
        if q[i] == q[i + 1] and m == n_ and 0 < abs(r - s) <= 1e-4 * abs(r):
            return True
    return False


def _unit_decides_fixing(c: Case) -> bool:
    """proofs/07, R6 in exact fractions: with ``r`` the efficiency of the first
    item the greedy fill (by ``v/w``) cannot take, the bound is ``U = r C + sum
    of max(0, v_i - r w_i)``; some item has ``w_s v_i - v_s w_i = 1``, and some
    ``|v_i - r w_i|`` is within that many ``1/w_s`` below ``U - LB``."""
    w, room = weights(c), budget(c)
    if 0 in w or any(r != int(r) for r in c.runtime):
        return False  # the region's items: whole units and runtimes
    v = [int(r) for r in c.runtime]
    order = sorted(range(c.n), key=lambda i: Fraction(v[i], w[i]), reverse=True)
    lower, critical = 0, None
    for i in order:
        if w[i] <= room:
            room, lower = room - w[i], lower + v[i]
        elif critical is None:
            critical = i
    if critical is None:
        return False
    r = Fraction(v[critical], w[critical])
    gaps = [v[i] - r * w[i] for i in range(c.n)]
    slack = r * budget(c) + sum(g for g in gaps if g > 0) - lower
    ones = sum(g == Fraction(1, w[critical]) for g in gaps)
    return slack >= 1 and any(slack - Fraction(ones, w[critical]) < abs(g) <= slack for g in gaps)


def _efficiencies(c: Case, number: Callable[[float], Any]) -> set[Any]:
    """The distinct ``r / w`` of the items of positive weight, with ``r`` as
    ``number`` (``float``: the rounded quotient; ``Fraction``: the exact one)."""
    return {number(r) / w for r, w in zip(c.runtime, weights(c), strict=True) if w}


def _critical_among_first_five(c: Case) -> bool:
    """Every runtime differs, and the greedy fill by exact ``v/w`` meets an
    item it cannot take within the first five (SPEC 2.1's weights)."""
    w, room = weights(c), budget(c)
    if len(set(c.runtime)) < c.n or 0 in w:
        return False
    order = sorted(range(c.n), key=lambda i: Fraction(c.runtime[i]) / w[i], reverse=True)
    for i in order[:5]:
        if w[i] > room:
            return True
        room -= w[i]
    return False


def _misordered_by_one_unit(c: Case) -> bool:
    """Two item types, the first by index, ``(w_a, r_a)``, before
    ``(w_b, r_b)``, with ``r_a / w_a == r_b / w_b`` in float and ``r_b w_a -
    r_a w_b`` exactly one unit of the runtimes' common integer scale (SPEC
    2.1's weights; the scale divided by the runtimes' gcd)."""
    scale = max(Fraction(r).denominator for r in c.runtime)
    scaled = [int(Fraction(r) * scale) for r in c.runtime]
    unit = math.gcd(*scaled)
    types = list(dict.fromkeys(zip(weights(c), c.runtime, scaled, strict=True)))
    return any(
        a[0] and b[0] and a[1] / a[0] == b[1] / b[0] and b[2] * a[0] - a[2] * b[0] == unit
        for i, a in enumerate(types)
        for b in types[i + 1 :]
    )


def _near_one_efficiency_copies(c: Case) -> bool:
    """Copies of 4 to 10 types whose ``r / w`` lie within a third of each
    other (SPEC 2.1's weights), under a budget below their total weight."""
    types = set(zip(weights(c), c.runtime, strict=True))
    ratios = [r / w for w, r in types if w]
    return (
        4 <= len(types) <= 10
        and len(ratios) == len(types)
        and max(ratios) <= 4 / 3 * min(ratios)
        and budget(c) < sum(weights(c))
    )


def _fits_in_a_split_table(c: Case) -> bool:
    """``min(n, SPLIT_CORE_ITEMS)`` items fit the budget, with distinct
    runtimes, in a table of at least 2e6 cells (SPEC 2.1's weights)."""
    fitting = [r for w, r in zip(weights(c), c.runtime, strict=True) if w <= budget(c)]
    return (
        len(fitting) == min(c.n, SPLIT_CORE_ITEMS)
        and len(set(fitting)) == len(fitting)
        and len(fitting) * budget(c) >= 2_000_000
    )


def _window_past_int32(c: Case) -> bool:
    """Fitting runtimes below 2**30 in all, and three or more copies of one
    item (whole runtime ``v``, weight ``w``) with ``(C // w) v`` past 2**31."""
    fitting = [(w, r) for w, r in zip(weights(c), c.runtime, strict=True) if w <= budget(c)]
    copies = Counter(fitting)
    return sum(r for _, r in fitting) < 2**30 and any(
        m >= 3 and w >= 1 and (budget(c) // w) * r > 2**31 for (w, r), m in copies.items()
    )


def _strongly_correlated(c: Case) -> bool:
    """At least two items fit the budget, each with a whole runtime between
    its weight in units and twice its weight plus 120 (SPEC 2.1's weights)."""
    fitting = [(w, r) for w, r in zip(weights(c), c.runtime, strict=True) if w <= budget(c)]
    return len(fitting) >= 2 and all(r == int(r) and w <= r <= 2 * w + 120 for w, r in fitting)


FLOAT32_MAX = float(np.finfo(np.float32).max)


def _few_fit_and_all_of_them_together(case: Case) -> bool:
    """1 to 12 items fit the budget alone, and all of them fit it together."""
    fitting = [w for w in weights(case) if w <= budget(case)]
    return 1 <= len(fitting) <= 12 and sum(fitting) <= budget(case)


def _one_fits_at_a_time(case: Case) -> bool:
    """Some item of some weight fits the budget, every such item weighs more
    than half of it, and (from two items) two of them tie for the best
    runtime."""
    fitting = [
        (w, r) for w, r in zip(weights(case), case.runtime, strict=True) if 0 < w <= budget(case)
    ]
    best = max((r for _, r in fitting), default=None)
    return (
        best is not None
        and all(2 * w > budget(case) for w, _ in fitting)
        and (case.n == 1 or [r for _, r in fitting].count(best) >= 2)
    )


def _layers_measured_apart(case: Case) -> bool:
    """Two items of one weight with different runtimes (one item: no pair)."""
    runtimes: dict[int, set[float]] = {}
    for w, r in zip(weights(case), case.runtime, strict=True):
        runtimes.setdefault(w, set()).add(r)
    return case.n == 1 or any(len(seen) > 1 for seen in runtimes.values())


def _one_size_under_whole_shares(case: Case) -> bool:
    """The weighed items all of one size, a whole number of which is the
    budget, not all of them fitting, beside an item of no weight worth 0."""
    sizes = {w for w in weights(case) if w > 0}
    return case.n <= 2 or (
        len(sizes) == 1
        and budget(case) % min(sizes) == 0
        and sum(weights(case)) > budget(case)
        and any(w == 0 and r == 0 for w, r in zip(weights(case), case.runtime, strict=True))
    )


TIERED_REGIONS: dict[str, Callable[[Case], bool]] = {
    "exact units": lambda c: all(m == round(m * 10000) / 10000 for m in c.memory),
    "half-way memories": lambda c: any((m * 10000) % 1 == 0.5 for m in c.memory),
    "float32 quantization differs": lambda c: any(
        round(m * 10000) != round(float(np.float32(m)) * 10000) for m in c.memory
    ),
    "near-copies": _near_copies,
    "exact copies": lambda c: c.n == 1 or len(set(zip(c.memory, c.runtime, strict=True))) < c.n,
    "copies a bound raises twice": lambda c: c.n <= 3 or _raised_twice(c),
    "copies a branch and bound gives up on": lambda c: c.n < 13 or _near_one_efficiency_copies(c),
    "copies whose window passes 2**31": lambda c: c.n < 15 or _window_past_int32(c),
    "split by a Hirschberg solver": lambda c: c.n <= 12 or _fits_in_a_split_table(c),
    "strongly correlated items": lambda c: c.n <= 3 or _strongly_correlated(c),
    "free items": lambda c: _free(c) >= min(c.n, 1),
    "zero runtimes": lambda c: 0.0 in c.runtime or c.n <= 2,
    "few items fit alone": _few_fit_and_all_of_them_together,
    "one paying item": lambda c: sum(r > 0 for r in c.runtime) == 1,
    "runtimes past float32's range": lambda c: any(
        r > FLOAT32_MAX and w > budget(c) for w, r in zip(weights(c), c.runtime, strict=True)
    ),
    "runtimes on a binary grid, whole total": lambda c: (
        math.fsum(c.runtime) % 1 == 0 and (c.n == 1 or any(r % 1 for r in c.runtime))
    ),
    "every runtime one decimal": lambda c: (
        len(set(c.runtime)) == 1 and Fraction(c.runtime[0]).denominator > 8
    ),
    "one fits at a time": _one_fits_at_a_time,
    "one runtime, every item fits": lambda c: (
        len(set(c.runtime)) == 1 and sum(weights(c)) <= budget(c)
    ),
    "layers measured apart": _layers_measured_apart,
    "one size under whole shares": _one_size_under_whole_shares,
    "profiled runtimes of four decimals": lambda c: (
        all(round(r, 4) == r for r in c.runtime) and any(0 < r < 0.001 for r in c.runtime)
    ),
    "budget = float sum < quantized sum": lambda c: (
        c.max_memory >= sum(c.memory) and sum(weights(c)) > budget(c)
    ),
    "budget past the float sum, memories quantized up": lambda c: (
        budget(c) >= round(sum(c.memory) * 10000) < sum(weights(c))
    ),
    "float32-absorbing runtimes": lambda c: any(r >= 1e8 for r in c.runtime) or c.n <= 2,
    "bound fixing decided by a unit": lambda c: _unit_decides_fixing(c) or c.n <= 2,
    "runtime proportional to memory": lambda c: (
        c.n <= 3 or (len(_efficiencies(c, float)) <= 3 and len(_efficiencies(c, Fraction)) > 1)
    ),
    "critical item among the first five": _critical_among_first_five,
    "efficiencies tied in float only": lambda c: (
        c.n <= 2 or len(_efficiencies(c, float)) < len(_efficiencies(c, Fraction))
    ),
    "flop-count runtimes": lambda c: all(r == int(r) and r >= 1 for r in c.runtime),
    "Q >= 65536": lambda c: budget(c) >= LARGE_BUDGET_UNITS,
    "wide tables": lambda c: (
        budget(c) >= WIDE_TABLE_UNITS and (c.n < 16 or c.n * budget(c) >= 1 << 20)
    ),
    "few items, huge budget": lambda c: (
        c.n <= HUGE_BUDGET_ITEMS and c.n * budget(c) >= HUGE_BUDGET_CELLS
    ),
    "optimum across 2**31": lambda c: (
        sum(c.runtime) >= 2**31 and (c.n < 3 or len(set(c.runtime)) < c.n)
    ),
    "optimum across 2**63": lambda c: (
        sum(c.runtime) >= 2**63 and (c.n < 3 or len(set(c.runtime)) < c.n)
    ),
}
"""What makes a case of each region of :data:`REGION_BUILDERS` (tiny cases of
some regions hold too few items to show the pattern every time; some draw of
the tier must)."""

TIER_SIZES = {
    "1-3": range(1, 4),
    "4-12": range(4, 13),
    "thresholds": THRESHOLD_SIZES,
    "partitioner": range(128, LARGEST_REAL_ITEMS + 44),
}
DRAWS = 12
CAPPED_REGIONS = ("Q >= 65536", "wide tables", "few items, huge budget")
"""Regions built with at most LARGE_BUDGET_ITEMS items (a table solver pays n x Q cells)."""


def test_every_region_of_the_builders_is_listed_here() -> None:
    """SPEC 4.4: the table above covers every region the strategies build."""
    assert set(TIERED_REGIONS) == set(REGION_BUILDERS)


@pytest.mark.parametrize("tier", SIZE_TIERS)
@pytest.mark.parametrize("region", sorted(REGION_BUILDERS))
def test_every_region_is_built_at_every_size_tier(region: str, tier: str) -> None:
    """SPEC 2.1, 3.2, 6.3: each value region (float32-splitting memories,
    near-copies, many free items, float-sum budgets, ...) is generated at each
    size tier, the partitioner's real sizes up to the largest captured call
    included (the Q >= 65536, wide-table and huge-budget regions stop at
    LARGE_BUDGET_ITEMS items)."""
    rng = random.Random(f"{region}/{tier}")
    built = [region_case(region, tier, rng) for _ in range(DRAWS)]
    sizes = TIER_SIZES[tier]
    if region in CAPPED_REGIONS:
        sizes = range(1, LARGE_BUDGET_ITEMS + 1)
    if region == "budget = float sum < quantized sum" and tier == "1-3":
        sizes = range(2, 4)
    assert all(case.n in sizes for case in built), [case.n for case in built]
    assert any(TIERED_REGIONS[region](case) for case in built)


WEIGHED_CELLS_CAP = 2 * INTEGER_LIMIT_CELLS
"""Most cells a region case makes a table solver weigh: 12e6, about 3.5 s of our
pure-Python reference idle on CI's machine (27.3e6 cells took 7.8 s; a 2**63
case of that size timed out at 10 s on CI's loaded machine at e6387e4)."""


@pytest.mark.parametrize("region", sorted(REGION_BUILDERS))
def test_no_region_case_outgrows_the_reference(region: str) -> None:
    """SPEC 7.2, for the audit itself: a correct table solver answers every
    region case well within the default call timeout. Counted as the cells a
    table solver cannot skip: the items that fit, times ``min(Q, sum w)``
    (heavier items are a row copy)."""
    for tier in SIZE_TIERS:
        rng = random.Random(f"{region}/{tier}/cost")
        for _ in range(DRAWS):
            case = region_case(region, tier, rng)
            q, w = budget(case), weights(case)
            weighed = sum(v <= q for v in w) * min(q, sum(w))
            assert weighed <= WEIGHED_CELLS_CAP, (tier, case.n, q, weighed)


def _spied_answers(
    monkeypatch: pytest.MonkeyPatch, module: Any, name: str, region: str, draws: int, seed: int
) -> list[Any]:
    """What ``module.name`` returned while our solver answered ``draws``
    threshold-size cases of ``region``, each answer checked optimal (SPEC 7.1:
    the value is the float of the exact optimum)."""
    returned: list[Any] = []
    original = getattr(module, name)

    def spy(*args: Any) -> Any:
        returned.append(original(*args))
        return returned[-1]

    monkeypatch.setattr(module, name, spy)
    rng = random.Random(seed)
    for _ in range(draws):
        case = region_case(region, "thresholds", rng)
        value, _, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
        assert value == float(exact_optimum(*case.arguments()).value)
    return returned


def test_huge_budget_cases_reach_our_sparse_frontier(monkeypatch: pytest.MonkeyPatch) -> None:
    """SPEC 3.3: the huge-budget region reaches the fast path of our solver it was
    built for, at default knobs: the sparse Pareto frontier (``optimized/frontier.py``,
    cores of at most 62 items and 2**22 cells) answers most threshold-tier cases, and
    the answers are optimal. Without the region no audit case reached it (all 71
    mutants of frontier.py survived ``verify``; docs/mutation/README.md)."""
    answers = _spied_answers(
        monkeypatch, solver, "solve_by_frontier", "few items, huge budget", 6, 7
    )
    assert sum(answer is not None for answer in answers) >= 4, answers


def test_every_breadth_phase_reaches_our_two_word_backend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.1, 3.3: every breadth phase (seeds 0-2) holds calls of the
    region "profiled runtimes of four decimals" (runtimes of four decimals,
    one under 0.001 ms) whose exact values pass int64 once scaled, and some of
    them reach our solver's two-word backend (``optimized/two_word.py``),
    every answer optimal. The region's calls are not carried to huge tables
    (``search.NOT_SCALED_REGIONS``: a pure-Python table pays 6 to 20 s for
    one), so our Pareto frontier in Python ints is left to
    tests/test_optimized.py."""
    made = []
    original = two_word.TwoWordBackend

    def spy(*args: Any) -> Any:
        made.append(original(*args))
        return made[-1]

    monkeypatch.setattr(two_word, "TwoWordBackend", spy)
    for seed in range(3):
        before = len(made)
        calls = [
            c
            for c in (getattr(call, "case", call) for call in breadth_cases(seed))
            if TIERED_REGIONS["profiled runtimes of four decimals"](c)
            and sum(integer_runtimes(list(c.runtime))[0]) > torch.iinfo(torch.int64).max
        ]
        assert calls, seed
        for case in calls:
            value, _, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
            assert value == float(exact_optimum(*case.arguments()).value)
        assert len(made) > before, seed


def test_integer_limit_cases_reach_our_bounded_rows_at_both_widths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3: the regions whose optimum crosses 2**31 or 2**63 reach the
    integer rows of our bounded solver (``optimized/bounded.py``, exact copies)
    on both sides of each width: an int64 row where ``total + reach`` passes
    2**30, and a declined row (Python ints) past 2**61, and the answers are
    optimal. Without them no audit case tested ``row_dtype``'s bound (mutants
    426 and 432 of docs/mutation/optimized/thresholds_bounded.md survived).

    Across 2**31 (even weights, an odd budget) the branch-and-bound search
    gives up and the full integer table is built in most threshold-size calls:
    with any weights it was 3 in 10, and mutant 426 (int32 chosen from
    ``total - reach``) survived the audit at 3 seeds of 5."""
    int32_side = _spied_answers(monkeypatch, bounded, "row_dtype", "optimum across 2**31", 8, 3)
    assert len(int32_side) >= 5 and set(int32_side) == {torch.int64}, int32_side
    int64_side = _spied_answers(monkeypatch, bounded, "row_dtype", "optimum across 2**63", 16, 3)
    assert None in int64_side, int64_side


@pytest.mark.parametrize("tier", ["thresholds", "partitioner"])
def test_window_wrap_cases_reach_our_bounded_rows_with_a_window_past_int32(
    monkeypatch: pytest.MonkeyPatch, tier: str
) -> None:
    """SPEC 3.3: the window-wrap region reaches our bounded solver's integer
    rows (``bounded.row_dtype``) with a value total below 2**30 while a
    window type (3 or more copies, fewer than ``C // w``) has ``(C // w) v``
    past 2**31; the row is int64 and the answers are optimal. Before, no
    audit case did: mutants 418 and 422 of ``bounded.py`` (``reach`` from
    the least demanding type, or without its ``C // w``) choose int32 there
    and answer without the light copies (survivors_bounded_b.md); in process
    they fail on 38 and 39 of 40 draws per tier."""
    past: list[torch.dtype | None] = []
    original = bounded.row_dtype

    def spy(weights: Any, values: Any, copies: Any, capacity: int) -> Any:
        dtype = original(weights, values, copies, capacity)
        total = sum(m * v for m, v in zip(copies, values, strict=True))
        windows = [
            (capacity // w) * v
            for w, v, m in zip(weights, values, copies, strict=True)
            if 2 < m < capacity // w
        ]
        if total < 2**30 and max(windows, default=0) > 2**31:
            past.append(dtype)
        return dtype

    monkeypatch.setattr(bounded, "row_dtype", spy)
    rng = random.Random(f"window-wrap/{tier}")
    for _ in range(6):
        case = region_case("copies whose window passes 2**31", tier, rng)
        value, _, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
        assert value == float(exact_optimum(*case.arguments()).value)
    assert len(past) >= 4 and set(past) == {torch.int64}, past


@pytest.mark.parametrize("tier", ["thresholds", "partitioner"])
def test_zero_runtime_cases_reach_a_core_past_int32_beside_dropped_items(
    monkeypatch: pytest.MonkeyPatch, tier: str
) -> None:
    """SPEC 3.3: the zero-runtime region reaches our solver's table stage
    (``solver.solve_core``) with a core whose value total passes int32 while
    every other item of the call (zero runtime) was dropped by the
    reductions, and the answers are optimal. Before, no audit
    case did: mutant 228 of ``reductions.py`` (the core's value total summed
    over each item's index neighbour, so int32 is chosen and torch refuses
    the conversion) survived ``verify`` (survivors_reductions.md)."""
    wide: list[int] = []
    original = solver.solve_core

    def spy(instance: Any, core: Any) -> Any:
        if core.value_total > torch.iinfo(torch.int32).max:
            wide.append(len(core.items))
        return original(instance, core)

    monkeypatch.setattr(solver, "solve_core", spy)
    rng = random.Random(f"zero/{tier}")
    dropped_beside = 0
    for _ in range(6):
        case = region_case("zero runtimes", tier, rng)
        before = len(wide)
        value, _, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
        assert value == float(exact_optimum(*case.arguments()).value)
        dropped_beside += len(wide) > before and set(case.runtime[::2]) == {0.0}
    assert dropped_beside >= 2, (dropped_beside, wide)


@pytest.mark.parametrize("tier", ["thresholds", "partitioner"])
def test_hard_copies_reach_our_bounded_table_with_unbounded_stages(
    monkeypatch: pytest.MonkeyPatch, tier: str
) -> None:
    """SPEC 3.3: the region of copies a branch and bound gives up on makes
    our bounded solver build its integer table (``bounded.solve_counts``,
    after ``search_counts`` gave up) with an unbounded stage beside window
    or bundle stages, and the answers are optimal. Before, only the
    integer-limit regions reached that table, with no unbounded stage: six
    mutants of ``solve_counts`` (the unbounded stages' index buffer dropped
    or one cell short, a stage skipped, a row one cell short, a neighbour's
    stage kind, backtracking from ``C - 1``) survived ``verify``
    (docs/mutation/optimized/survivors_bounded_a.md)."""
    kinds: list[set[str]] = []
    original = bounded.solve_counts

    def spy(weights: Any, values: Any, copies: Any, capacity: int, *rest: Any) -> Any:
        counts = original(weights, values, copies, capacity, *rest)
        if counts is not None:
            kinds.append(
                {
                    bounded.stage_kind(w, min(m, capacity // w), capacity)
                    for w, m in zip(weights, copies, strict=True)
                }
            )
        return counts

    monkeypatch.setattr(bounded, "solve_counts", spy)
    rng = random.Random(f"gives up/{tier}")
    for _ in range(DRAWS):
        case = region_case("copies a branch and bound gives up on", tier, rng)
        value, _, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
        assert value == float(exact_optimum(*case.arguments()).value)
    assert sum("unbounded" in k and len(k) > 1 for k in kinds) >= 2, kinds


def test_split_cases_reach_our_torch_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """SPEC 3.3: at the partitioner's sizes the split region makes our solver
    split the budget with its torch backend (``TorchBackend.best_split``,
    the Hirschberg step of ``optimized/driver.py``), and the answers are
    optimal. Before, no audit case did: a split that reads an unset buffer,
    profiles never maximised or minimised instead, and a lower column bound
    too high (mutants 121, 200, 206, 216 of ``backends.py``) survived
    ``verify`` (docs/mutation/optimized/survivors_backends_a.md)."""
    splits: list[int] = []
    original = TorchBackend.best_split

    def spy(self: Any, *args: Any) -> Any:
        splits.append(len(args))
        return original(self, *args)

    monkeypatch.setattr(TorchBackend, "best_split", spy)
    rng = random.Random("split/partitioner")
    split_cases = 0
    for _ in range(6):
        case = region_case("split by a Hirschberg solver", "partitioner", rng)
        before = len(splits)
        value, _, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
        assert value == float(exact_optimum(*case.arguments()).value)
        split_cases += len(splits) > before
    assert split_cases >= 4, split_cases


def test_correlated_cases_split_int32_cores_lopsidedly_and_down_to_one_unit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3: at the partitioner's sizes the strongly correlated region
    makes our torch backend split int32 cores (packed base cases of more
    than 32 items), give one half of a split the whole budget or nothing
    but a unit of it, and solve segments of capacity 1, with optimal
    answers. Before, no audit case did: a word of 33 bits, a candidate
    buffer one short, an item as heavy as its segment skipped and a
    division by ``capacity - 1`` (mutants 9, 13, 123, 125, 137, 142, 178,
    217 of ``backends.py``) survived ``verify``
    (docs/mutation/optimized/survivors_backends_a.md)."""
    seen: list[tuple[torch.dtype, int, int]] = []
    capacities: list[int] = []
    split, solve_small = TorchBackend.best_split, TorchBackend.solve_small

    def split_spy(self: Any, left: Any, right: Any, capacity: int) -> Any:
        chosen = split(self, left, right, capacity)
        seen.append((self._row.dtype, chosen[0], capacity))
        return chosen

    def small_spy(self: Any, items: Any, capacity: int) -> Any:
        capacities.append(capacity)
        return solve_small(self, items, capacity)

    monkeypatch.setattr(TorchBackend, "best_split", split_spy)
    monkeypatch.setattr(TorchBackend, "solve_small", small_spy)
    rng = random.Random("correlated/partitioner")
    drawn = [region_case("strongly correlated items", "partitioner", rng) for _ in range(DRAWS)]
    # A segment of capacity 1 comes from the unit-items shape (2), on about 6
    # of its draws in 40 at these sizes: 20 draws of that shape.
    sizes = SIZE_TIERS["partitioner"]
    drawn += [correlated_case(rng, sizes(rng), 2) for _ in range(20)]
    for case in drawn:
        value, _, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
        assert value == integer_optimum(*case.arguments())  # whole runtimes: exact floats
    assert sum(dtype == torch.int32 for dtype, _, _ in seen) >= DRAWS // 2, seen
    assert any(chosen in (0, 1, capacity) for _, chosen, capacity in seen), seen
    assert 1 in capacities, sorted(set(capacities))[:10]


@pytest.mark.parametrize("tier", ["thresholds", "partitioner"])
def test_early_critical_cases_reach_our_window_at_its_start(
    monkeypatch: pytest.MonkeyPatch, tier: str
) -> None:
    """SPEC 3.3: the early-critical region reaches our bound fixing's window
    (``optimized/reductions.py``, ``_window_selection``) with the critical
    item closer to the front than the half-width, where the window starts at
    the first item, and the answers are optimal. Before the region no audit
    case did: mutants 151, 153, 155 and 158 (the window's start and prefix,
    over budget by up to 5x) survived ``verify``
    (docs/mutation/optimized/edges2_reductions.md). At the partitioner's
    sizes every window width is solved, the widest too, past the round
    where mutants 218 and 222 index a width list left with one entry."""
    seen: list[tuple[int, int]] = []
    original = reductions._window_selection

    def spy(weights: Any, order: Any, critical: int, *rest: Any) -> Any:
        seen.append((critical, rest[-1]))
        return original(weights, order, critical, *rest)

    monkeypatch.setattr(reductions, "_window_selection", spy)
    rng = random.Random(f"early/{tier}")
    for _ in range(DRAWS):
        case = region_case("critical item among the first five", tier, rng)
        value, _, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
        assert value == float(exact_optimum(*case.arguments()).value)
    assert sum(critical < half_width for critical, half_width in seen) >= DRAWS // 3, seen
    if tier == "partitioner":  # every window width, the last (32) above 2**18 cells
        assert {half_width for _, half_width in seen} == {4, 8, 32}, seen


@pytest.mark.parametrize("tier", ["4-12", "thresholds", "partitioner"])
def test_float_tied_cases_misorder_two_types_by_one_unit(tier: str) -> None:
    """SPEC 7.1 through a float sort: at every tier beyond the exhaustive one,
    the float-tied region holds cases whose less efficient type comes first by
    index and differs from the other by one unit of the cross product, the
    smallest misorder an exact repair must still undo (and a repair that
    stops at a difference of 1 does not); our solver answers each optimally."""
    rng = random.Random(f"one unit/{tier}")
    built = [region_case("efficiencies tied in float only", tier, rng) for _ in range(DRAWS)]
    misordered = [case for case in built if _misordered_by_one_unit(case)]
    assert len(misordered) >= DRAWS // 4, len(misordered)
    for case in misordered:
        value, _, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
        assert value == float(exact_optimum(*case.arguments()).value)


def test_many_free_items_reach_hundreds_at_the_partitioner_tier() -> None:
    """SPEC 4.2: free items (zero weight, positive runtime) come by the hundreds in large calls."""
    rng = random.Random(0)
    most = max(_free(region_case("free items", "partitioner", rng)) for _ in range(DRAWS))
    assert most >= 100


def test_free_items_are_at_least_half_of_a_call_past_12_items() -> None:
    """SPEC 4.2: past 12 items at least half of a free-items call is free, so
    most threshold-size calls of 47 items or more hold more than 32 free
    items. Before (a quarter at least), a fast path switching on more than
    32 free items (tests/planted ``greedy_when_many_free_items``) met no
    failing case in the breadth phase of 4 seeds in 20."""
    rng = random.Random(0)
    for _ in range(DRAWS):
        case = region_case("free items", rng.choice(["thresholds", "partitioner"]), rng)
        assert 2 * _free(case) >= case.n, (case.n, _free(case))
    drawn = [region_case("free items", "thresholds", rng) for _ in range(4 * DRAWS)]
    past_47 = [_free(case) for case in drawn if case.n >= 47]
    assert sum(free > 32 for free in past_47) > len(past_47) / 2, past_47


def test_the_tiered_strategy_draws_every_region_at_every_tier() -> None:
    """SPEC 4.4: the strategy the random phase uses reaches each (region, size tier) pair.
    2,000 examples for 24 x 4 pairs (each about 1 in 96): a pair is missed
    with odds of about 1e-7, whatever the generator's state. With 400, about
    one pair was missed on average, and the derandomized draws depend on the
    modules the process has loaded (Hypothesis draws constants from them):
    CI at ``198b740`` missed ("free items", 1-3) where a lone run did not."""
    seen: set[tuple[str, int]] = set()

    @settings(SEARCH, max_examples=2000, phases=[Phase.generate])
    @given(tiered_cases())
    def sample(case: Case) -> None:
        for region, predicate in TIERED_REGIONS.items():
            if predicate(case):
                seen.add((region, _tier_of(case.n)))

    sample()
    missing = {
        (region, tier)
        for region in TIERED_REGIONS
        for tier in range(len(SIZE_TIERS))
        if (region, tier) not in seen
        and not (region in CAPPED_REGIONS and tier == len(SIZE_TIERS) - 1)
    }
    assert not missing


def test_extended_tiered_cases_hold_dropped_items_in_about_half_the_draws() -> None:
    """SPEC 4.4: in the extended domain the random phase's regions-at-every-size
    tier puts items of negative runtime beside about half its cases (the
    first of them has runtime -1), and in the partitioner domain beside none."""
    drawn: dict[str, list[bool]] = {"extended": [], "partitioner": []}
    for domain, flags in drawn.items():

        @settings(SEARCH, max_examples=300, phases=[Phase.generate])
        @given(tiered_cases(domain))
        def sample(case: Case) -> None:
            flags.append(-1.0 in case.runtime)  # noqa: B023 (run at once)

        sample()
    assert 0.3 < sum(drawn["extended"]) / len(drawn["extended"]) < 0.7
    assert not any(drawn["partitioner"])


def _tier_of(n: int) -> int:
    return 0 if n <= 3 else 1 if n <= 12 else 2 if n <= 129 else 3


OVER_BUDGET_PATTERN_REGIONS = ("runtimes past float32's range",)
"""Regions whose pattern is on items heavier than the budget."""


@pytest.mark.parametrize("cells", TABLE_TIERS)
@pytest.mark.parametrize("region", sorted(REGION_BUILDERS))
def test_every_region_reaches_every_table_size(region: str, cells: int) -> None:
    """SPEC 3.3: a small case of each region, padded with items over its budget
    (:mod:`knapsack_audit.scaling`), reaches each table-size tier up to twice
    the largest real call's ``n * Q``, the region's items and budget kept."""
    rng = random.Random(region)
    base = region_case(region, "4-12", rng)
    budget_units = max(budget(base), 1)
    unit = 1 if cells <= 10**5 else max(1, 20_000 // budget_units)
    wide = budget_units * unit
    pads = max(-(-cells // wide) - base.n, 0)
    call = scaled(base, Scaling(unit, 1, pads, "over budget", "interleaved"))
    assert table_cells(call.case) >= cells or budget(base) == 0
    kept = [i for i, m in enumerate(call.case.memory) if quantize(m) <= budget(call.case)]
    assert call.optimum == exact_optimum(*base.arguments()).value
    if unit == 1:
        small = Case.of(
            [call.case.memory[i] for i in kept],
            [call.case.runtime[i] for i in kept],
            call.case.max_memory,
        )
        # The region whose pattern is on items over the budget keeps it in the pads' company.
        judged = call.case if region in OVER_BUDGET_PATTERN_REGIONS else small
        assert TIERED_REGIONS[region](judged) or TIERED_REGIONS[region](base) is False


def test_every_breadth_phase_ends_with_strongly_correlated_calls_of_each_splitting_shape(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3: whatever the seed, the breadth phase's unscaled calls end with
    ``SPLITTING_DRAWS`` strongly correlated calls of each of
    ``SPLITTING_SHAPES`` at the partitioner's sizes (one shape with unit
    items of runtime 1 in front, one with budgets past 65,536 units), and
    most of them make our torch backend split, once over a range of more
    than 65,536 columns (summed in two chunks). Before, a run drew the
    region once at those sizes, and at seed 10 that draw was the grain
    shape, whose flat profiles hide a split one column off: mutants 323 and
    466 of ``backends.py`` (a chunk of split sums one column off, a packed
    word one row off) survived ``mutate`` although the region fails them on
    5 to 13 draws in 20 (docs/mutation/optimized/correlated_backends.md);
    and no case reached a split range of two chunks (mutants 317, 321)."""
    count = SPLITTING_DRAWS * len(SPLITTING_SHAPES)
    for seed in range(4):
        # The packed-table case is the last unscaled one (the scaled few-item
        # calls past 2e7 cells follow: search.breadth_cases).
        tail = _unscaled(breadth_cases(seed))[-count - 1 : -1]
        cases = [case for case in tail if isinstance(case, Case)]
        assert len(cases) == count
        assert all(case.n >= 130 and _strongly_correlated(case) for case in cases)
        with_unit_items = [
            case
            for case in cases
            if sum(r == 1.0 and w == 1 for w, r in zip(weights(case), case.runtime, strict=True))
            >= 2
        ]
        assert len(with_unit_items) >= SPLITTING_DRAWS, seed
        wide = [case for case in cases if budget(case) > WIDE_SPLIT_UNITS]
        assert len(wide) >= SPLITTING_DRAWS, seed
    splits: list[int] = []
    split = TorchBackend.best_split

    def spy(self: Any, left: Any, right: Any, capacity: int) -> Any:
        splits.append(capacity)
        return split(self, left, right, capacity)

    monkeypatch.setattr(TorchBackend, "best_split", spy)
    split_calls = 0
    for case in cases:
        before = len(splits)
        value, _, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
        assert value == integer_optimum(*case.arguments())  # whole runtimes: exact floats
        split_calls += len(splits) > before
    assert split_calls >= count // 2, split_calls
    assert max(splits) > WIDE_SPLIT_UNITS, max(splits)


@functools.cache
def breadth_cases(seed: int, domain: str = "partitioner") -> tuple[BreadthCase, ...]:
    """:func:`knapsack_audit.search.breadth_cases`, made once per test process:
    a list takes about 0.9 s to make, and this file asks for one about 120
    times (99 s of its tests, measured in session 33). Cases are frozen."""
    return tuple(search.breadth_cases(seed, domain=domain))


@functools.cache
def _ours_findings(case: Case) -> tuple[Finding, ...]:
    """Our solver's findings on ``case``, judged exactly, once per test process:
    the tests below judge many breadth calls that more than one of them
    selects (782 checks of 514 calls in the rounding-patterns test alone).
    Not for a test that patches the solver."""
    return tuple(check_call(dp_knapsack_sliding_hirschberg, case, Judge(exact=True)))


PYTHON_INTEGER_CELLS = {"partitioner": 2 * 10**7, "extended": 15 * 10**7}
"""Most table cells the exact oracle may fill with Python integers over one
breadth list, per domain (the rest in int64 or two int64 words)."""


@pytest.mark.parametrize(
    ("seed", "domain"), [(0, "partitioner"), (1, "partitioner"), (0, "extended")]
)
def test_the_oracle_judges_the_breadth_calls_in_int64_words(seed: int, domain: str) -> None:
    """SPEC 3.3: the integer oracle judges the breadth calls of unknown optimum
    in int64 or two int64 words, save a few: rows of Python integers took 27.9 of
    the 31.7 s that judging seed 1's list took, and left the calls that fail
    ten planted twins past the audits' reach (session 34). Cells filled with
    Python integers per list: 3.6e8 to 4.6e8 before two words, 2.5e6 to 3.7e6
    (partitioner) and 6.0e7 to 6.3e7 (extended, scaled runtimes up to
    2**2077) after; a new region of such calls must not bring them back."""
    cells = 0
    for call in _unscaled(breadth_cases(seed, domain)):
        instance = validate(*call.arguments())
        values, _ = integer_runtimes(instance.runtimes)
        columns = min(instance.capacity, sum(instance.weights))
        if not fits_two_words(values):
            cells += instance.n * columns
    assert cells <= PYTHON_INTEGER_CELLS[domain], cells


def _unscaled(calls: Sequence[BreadthCase]) -> list[Case]:
    """The breadth calls that are not scaled ones (:class:`KnownCase`)."""
    return [call for call in calls if isinstance(call, Case)]


def test_the_breadth_phase_ends_with_a_table_our_frontier_keeps_packed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3: the breadth phase's last unscaled case has more than ``2**25`` cells
    and 64 items or more, so our all-budgets solver (``frontier_knapsack``,
    ``optimized/budgets.py``) keeps its decisions packed, two word rows per
    column, and answers optimally. Before, no audit case did: 9 mutants of
    the packed path of ``backends.py`` (351, 353, 377-381, 396, 468: a
    recorder never made, words or bits unset, a row or shift one off)
    survived ``mutate`` through ``frontier_knapsack``."""
    packed: list[int] = []
    original = backends._PackedRecorder.__init__

    def spy(self: Any, words: Any, bits: int, n_items: int, capacity: int) -> None:
        packed.append(n_items)
        original(self, words, bits, n_items, capacity)

    monkeypatch.setattr(backends._PackedRecorder, "__init__", spy)
    case = _unscaled(breadth_cases(seed=0))[-1]
    assert case.n * budget(case) > PACKED_TABLE_CELLS
    value, _, _ = frontier_knapsack(*case.arguments())
    assert value == integer_optimum(*case.arguments())  # whole runtimes: exact floats
    assert packed and max(packed) >= 64, packed


def _longest_pareto_frontier(case: Case) -> int:
    """Most (weight, runtime) pairs of a Pareto frontier over a prefix of the
    items: the state count of a sparse method merging them in order."""
    capacity, frontier, longest = budget(case), [(0, 0.0)], 1
    for w, r in zip(weights(case), case.runtime, strict=True):
        merged = sorted(
            [*frontier, *((fw + w, fr + r) for fw, fr in frontier if fw + w <= capacity)]
        )
        frontier = []
        for pair in merged:  # by weight, then runtime: keep those better than all lighter
            if not frontier or pair[1] > frontier[-1][1]:
                if frontier and frontier[-1][0] == pair[0]:
                    frontier.pop()
                frontier.append(pair)
        longest = max(longest, len(frontier))
    return longest


def test_every_breadth_phase_holds_a_huge_budget_call_of_each_runtime_kind() -> None:
    """SPEC 3.3: whatever the seed, the breadth phase holds a huge-budget call
    (``HUGE_BUDGET_ITEMS`` items, at least ``HUGE_BUDGET_CELLS`` cells) of
    each runtime kind of ``HUGE_BUDGET_NOISES``, and the one of the smallest
    noise has a Pareto frontier of more than 1,024 states. Before, the
    region drew its kind at random, and at seed 16 both huge-budget calls
    had runtimes proportional to the weights (short frontiers): the planted
    ``frontier_of_1024_states_above_4e6_cells`` (a sparse method's buffer
    of 1,024 states dropping its heaviest) got PASS once in the planted
    corpus at 30ef72a (docs/planted.md)."""
    for seed in range(4):
        huge = [
            case
            for case in breadth_cases(seed)
            if isinstance(case, Case)
            and case.n == HUGE_BUDGET_ITEMS
            and case.n * budget(case) >= HUGE_BUDGET_CELLS
        ]
        excess = {
            case: [r - w for w, r in zip(weights(case), case.runtime, strict=True)] for case in huge
        }
        small_noise = [case for case, e in excess.items() if min(e) >= 0 and max(e) <= 10]
        large_noise = [case for case, e in excess.items() if min(e) >= 0 and max(e) > 10]
        proportional = [case for case, e in excess.items() if min(e) < 0]
        assert small_noise and large_noise and proportional, seed
        assert max(_longest_pareto_frontier(case) for case in small_noise) > 1024, seed


def _on_widest_grid(case: Case) -> bool:
    """Whether the case is copies of 4 to 10 types under an odd budget that is
    a multiple of its widest weight, the other weights even but the lightest."""
    q, kinds = budget(case), sorted({w for w in weights(case)})
    widest = kinds[-1]
    return (
        4 <= len(kinds) <= 10
        and len(set(case.runtime)) < case.n
        and widest % 2 == 1
        and q % 2 == 1
        and q % widest == 0
        and all(w % 2 == 0 for w in kinds[1:-1])
    )


class _ShortRowTorch:
    """``torch`` for :mod:`optimized.bounded`, but the profile row of
    :func:`~knapsack_audit.optimized.bounded.solve_counts` (its one
    ``torch.zeros``) is two cells shorter: mutant 176's scratch row."""

    def __getattr__(self, name: str) -> Any:
        return getattr(torch, name)

    def zeros(self, size: int, **kwargs: Any) -> torch.Tensor:
        return torch.zeros(size - 2, **kwargs)


def test_every_breadth_phase_holds_budgets_on_the_widest_types_grid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3: whatever the seed and domain, the breadth phase holds
    ``WIDEST_GRID_DRAWS`` calls at each of the threshold and partitioner
    sizes of copies a branch and bound gives up on, with an odd widest weight
    and the budget an odd multiple of it, so that a stage over the widest type
    ends at the budget's column. The region's own draws (even weights under
    an odd budget) never put it there: mutant 176 of ``bounded.py`` (the
    profile row two cells short) survived ``mutate`` and every breadth seed
    (0 of 360 draws in process). With that row, our solver now fails a call of
    the breadth phase of each seed below (docs/mutation/README.md, session 10)."""
    for seed in range(4):
        for domain in ("partitioner", "extended"):
            grid = [
                c
                for c in breadth_cases(seed, domain=domain)
                if isinstance(c, Case) and _on_widest_grid(c)
            ]
            assert sum(c.n in THRESHOLD_SIZES for c in grid) >= WIDEST_GRID_DRAWS, (seed, domain)
            assert sum(c.n >= 128 for c in grid) >= WIDEST_GRID_DRAWS, (seed, domain)
        judge = Judge(exact=True)
        assert not any(check_call(dp_knapsack_sliding_hirschberg, c, judge) for c in grid), seed
        with monkeypatch.context() as patched:
            patched.setattr(bounded, "torch", _ShortRowTorch())
            assert any(check_call(dp_knapsack_sliding_hirschberg, c, judge) for c in grid), seed


def _budget_capped_at_the_float_sum_from_128(
    memory: list[float], runtime: list[float], max_memory: float
) -> Any:
    """Our solver, but from 128 items the budget is capped at the float sum's
    quantization (a blind reviewer's bug, session 10)."""
    if len(memory) >= 128:
        max_memory = min(max_memory, round(sum(memory) * 10000) / 10000)
    return dp_knapsack_sliding_hirschberg(memory, runtime, max_memory)


def _saved_indices_in_1024_entries(
    memory: list[float], runtime: list[float], max_memory: float
) -> Any:
    """Our solver, but only the first 1,024 saved indices are kept (the other
    blind bug: a fixed-size buffer for the selection)."""
    value, saved, recomputable = dp_knapsack_sliding_hirschberg(memory, runtime, max_memory)
    return value, saved[:1024], recomputable


def test_every_breadth_phase_holds_every_item_fitting_past_each_power_of_two() -> None:
    """SPEC 2.1, 3.2, 7.2(b): whatever the seed and domain, the breadth phase
    holds, at each of ``SAVED_COUNT_SIZES`` (17 to 1,025 items), a call where
    every item fits and the budget lies past the float sum of memories that
    quantize up, so that the saved count crosses each power of two. Two bugs
    of a blind reviewer's corpus passed every default run before: a budget
    capped at the float sum's quantization from 128 items, and a selection
    kept in 1,024 entries. Both fail these calls; our solver is exact on them."""
    judge = Judge(exact=True)
    for seed in range(3):
        for domain in ("partitioner", "extended"):
            fitting = [
                c
                for c in breadth_cases(seed, domain=domain)
                if isinstance(c, Case)
                and c.n in SAVED_COUNT_SIZES
                and sum(weights(c)) <= budget(c)
                and round(sum(c.memory) * 10000) < sum(weights(c))
            ]
            assert sorted({c.n for c in fitting}) == list(SAVED_COUNT_SIZES), (seed, domain)
        assert not any(check_call(dp_knapsack_sliding_hirschberg, c, judge) for c in fitting)
        for bug in (_budget_capped_at_the_float_sum_from_128, _saved_indices_in_1024_entries):
            assert any(check_call(bug, c, judge) for c in fitting), (seed, bug.__name__)


def test_every_breadth_phase_holds_copies_a_bound_raises_twice_at_both_large_tiers() -> None:
    """SPEC 3.3: whatever the seed, the breadth phase holds at least
    ``RAISED_TWICE_DRAWS`` calls at each of the threshold and partitioner
    sizes whose types bound fixing raises in two rounds. Before, no region
    drew that pattern: mutant 115 of ``bounded.py`` (a second-round raise
    that cuts the room by the new count, not the copies added) survived
    ``mutate`` at seed 10 and the tests; one case of the region fails it in
    about half the draws, and the breadth phase of seeds 0-19 fails it
    every time (docs/mutation/README.md, session 8)."""
    for seed in range(4):
        cases = [c for c in breadth_cases(seed) if isinstance(c, Case) and _raised_twice(c)]
        assert sum(c.n in THRESHOLD_SIZES for c in cases) >= RAISED_TWICE_DRAWS, seed
        assert sum(c.n >= 128 for c in cases) >= RAISED_TWICE_DRAWS, seed


def _short_of_total(case: Case) -> bool:
    """Whether every item fits on its own and the budget is one unit short of
    the total weight, at 70 to 270 items and about 20,000 to 40,000
    units (weights drawn in a band about the mean: 19,274 to 41,469 in 2,000
    draws)."""
    short = sum(weights(case)) - budget(case)
    return (
        70 <= case.n <= 270
        and short == 1
        and 15_000 <= budget(case) <= 50_000
        and max(weights(case)) <= budget(case)
    )


_CHUNK_LOOP = "for start in range(0, last + 1 - first, SPLIT_CHUNK):"


def _mutated(module: ModuleType, old: str, new: str) -> dict[str, Any]:
    """The namespace of ``module``'s source in this checkout with ``old`` (which
    occurs once) replaced by ``new``, as ``mutate`` builds a mutant."""
    source = inspect.getsource(module)
    assert source.count(old) == 1, old
    name = f"mutated_{module.__name__.rpartition('.')[2]}"
    copy = ModuleType(name)
    copy.__package__ = module.__package__
    sys.modules[name] = copy  # dataclasses look their module up while it runs
    try:
        exec(compile(source.replace(old, new), name, "exec"), copy.__dict__)
    finally:
        del sys.modules[name]
    return copy.__dict__


def _breadth_calls(select: Callable[[Case], bool]) -> Iterator[tuple[int, str, list[Case]]]:
    """``(seed, domain, calls)`` for seeds 0-2 in both domains: the breadth
    phase's calls that ``select`` accepts, but the ones written again in
    other real types (equal to their originals, or under a budget not a
    plain float: tests/test_real_types.py) and the ones past the largest
    real call (``PAST_LARGEST_ITEMS``: their own test below)."""
    for seed in range(3):
        for domain in ("partitioner", "extended"):
            yield seed, domain, [c for c in _drawn_breadth_calls(seed, domain) if select(c)]


@functools.cache
def _drawn_breadth_calls(seed: int, domain: str) -> tuple[Case, ...]:
    """:func:`_breadth_calls`' calls before ``select``, made once per test
    process (about 0.4 s each; the tests below ask for them 30 times)."""
    cases = [c for c in breadth_cases(seed, domain=domain) if isinstance(c, Case)]
    return tuple(
        c for c in dict.fromkeys(cases) if type(c.max_memory) is float and c.n != PAST_LARGEST_ITEMS
    )


def _exact_but_failed_when_patched(
    calls: list[Case],
    patches: Sequence[tuple[Any, str, Any]],
    monkeypatch: pytest.MonkeyPatch,
    where: object,
) -> None:
    """Our solver is exact on every call of ``calls``, and fails one of them
    with each ``(owner, attribute, value)`` of ``patches`` set (a mutant)."""
    judge = Judge(exact=True)
    assert not any(check_call(dp_knapsack_sliding_hirschberg, c, judge) for c in calls), where
    with monkeypatch.context() as patched:
        for owner, attribute, value in patches:
            patched.setattr(owner, attribute, value)
        assert any(check_call(dp_knapsack_sliding_hirschberg, c, judge) for c in calls), where


def _split_summed_from(loop: str) -> Callable[..., Any]:
    """``TorchBackend.best_split`` with its chunk loop replaced by ``loop``."""
    best_split: Callable[..., Any] = _mutated(backends, _CHUNK_LOOP, loop)[
        "TorchBackend"
    ].best_split
    return best_split


@pytest.mark.parametrize(
    "loop",
    [
        "for start in range(1, last + 1 - first, SPLIT_CHUNK):",
        "for start in range(0, last - 1 - first, SPLIT_CHUNK):",
    ],
    ids=["from the second column", "two columns short"],
)
def test_every_breadth_phase_holds_budgets_a_unit_short_of_the_total(
    loop: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 3.3: whatever the seed and domain, the breadth phase holds
    ``SHORT_OF_TOTAL_DRAWS`` calls of strongly correlated items under a budget
    of 20,000 to 40,000 units one short of their total weight, so that a
    Hirschberg split's range is two columns wide. Our solver is exact on
    them. Before, no case made such narrow ranges at that width: mutants 287
    and 292 of ``backends.py`` (split sums from the range's second column, or
    two columns short, the rest left from an earlier split) survived
    ``verify``; with either loop, our solver now fails a call of every
    breadth phase below (docs/mutation/README.md, session 11)."""
    patch = [(TorchBackend, "best_split", _split_summed_from(loop))]
    for seed, domain, short in _breadth_calls(_short_of_total):
        assert len(short) == SHORT_OF_TOTAL_DRAWS, (seed, domain)
        assert all(_strongly_correlated(c) for c in short)
        _exact_but_failed_when_patched(short, patch, monkeypatch, (seed, domain))


def _lightest_idle(case: Case) -> bool:
    """Whether the case is copies of 4 to 10 types under an even budget, the
    lightest weight odd, of one copy and the most efficient, every other
    weight even."""
    q, units = budget(case), weights(case)
    kinds = sorted(set(zip(units, case.runtime, strict=True)))
    (lightest, runtime), rest = kinds[0], kinds[1:]
    return (
        4 <= len(kinds) <= 10
        and q % 2 == 0
        and lightest % 2 == 1
        and units.count(lightest) == 1
        and all(w % 2 == 0 and r * lightest < runtime * w for w, r in rest)
    )


def test_every_breadth_phase_holds_copies_whose_most_efficient_type_is_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3: whatever the seed and domain, the breadth phase holds
    ``IDLE_LIGHTEST_DRAWS`` calls at each of the threshold and partitioner
    sizes of copies a branch and bound gives up on, whose most efficient type
    (one odd copy beside even weights, under an even budget) the optimum
    leaves out, so that backtracking reads the profile before that type at
    the budget's own column. Mutants 234 and 237 of ``bounded.py`` (that
    profile saved one column short) survived ``mutate`` at seed 10
    (``9c5cd17``); with that profile our solver now fails a call of every
    breadth phase below, and it is exact on all of them
    (docs/mutation/README.md, session 12)."""
    short = _mutated(
        bounded, "before[t] = row[: capacity + 1].clone()", "before[t] = row[:capacity].clone()"
    )
    patch = [(bounded, "optimal_counts", short["optimal_counts"])]
    for seed, domain, idle in _breadth_calls(lambda c: c.n >= 13 and _lightest_idle(c)):
        assert sum(c.n in THRESHOLD_SIZES for c in idle) >= IDLE_LIGHTEST_DRAWS, (seed, domain)
        assert sum(c.n >= 128 for c in idle) >= IDLE_LIGHTEST_DRAWS, (seed, domain)
        _exact_but_failed_when_patched(idle, patch, monkeypatch, (seed, domain))


def test_every_breadth_phase_holds_optima_across_2_63_at_the_threshold_sizes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3, proofs/12 "Exactness": whatever the seed and domain, the
    breadth phase holds ``INT64_LIMIT_DRAWS`` more calls at the threshold
    sizes whose runtimes sum past 2**63, copies of nearly one efficiency that
    a branch and bound over types often gives up on. Mutant 432 of
    ``bounded.py`` (int64 rows chosen by ``total - reach``, so values past
    2**63 overflow) survived ``mutate`` at seed 10 (``9c5cd17``); with that
    rule our solver now fails a call of every breadth phase below, and it is
    exact on all of them (docs/mutation/README.md, session 12)."""
    wider = _mutated(
        bounded,
        "if total + reach <= MAX_VALUE_TOTAL:",
        "if total - reach <= MAX_VALUE_TOTAL:",
    )
    patch = [(bounded, "optimal_counts", wider["optimal_counts"])]
    past_2_63 = _breadth_calls(lambda c: c.n in THRESHOLD_SIZES and sum(c.runtime) >= 2.0**63)
    for seed, domain, past in past_2_63:
        assert len(past) > INT64_LIMIT_DRAWS, (seed, domain)
        _exact_but_failed_when_patched(past, patch, monkeypatch, (seed, domain))


def _past_power_copies(case: Case) -> bool:
    """Whether the case is 4 to 8 types, each of 4 or 8 to 10 copies, whose
    runtimes sum past 2**63."""
    copies = Counter(zip(weights(case), case.runtime, strict=True)).values()
    return (
        4 <= len(copies) <= 8
        and all(m in PAST_POWER_COPIES for m in copies)
        and sum(case.runtime) >= 2.0**63
    )


def test_every_breadth_phase_holds_copies_just_past_a_power_of_two_across_2_63(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3, 6.3, proofs/10 Lemma 10.1: whatever the seed and domain, the
    breadth phase holds ``PAST_POWER_DRAWS`` calls of types of 4 or 8 to 10
    copies with an optimum past 2**63, where a bounded solver over types
    declines and binary-split bundles must make every count. Mutant 92 of
    ``grouping.py`` (``bundle_sizes`` looping on ``3 p - 1 <= m``: 4 copies
    become bundles of 1 and 3) failed a breadth phase at 5 of 20 seeds
    before; with that split our solver now fails a call of every breadth
    phase below, and it is exact on all of them (docs/mutation/README.md,
    session 12)."""
    folded = _mutated(grouping, "while 2 * power - 1 <= copies:", "while 3 * power - 1 <= copies:")[
        "bundle_sizes"
    ]
    assert folded(4) == [1, 3]
    patches = [(grouping, "bundle_sizes", folded), (bounded, "bundle_sizes", folded)]
    for seed, domain, past in _breadth_calls(_past_power_copies):
        assert len(past) >= PAST_POWER_DRAWS, (seed, domain)
        _exact_but_failed_when_patched(past, patches, monkeypatch, (seed, domain))


def _float_sum_fits_weights_do_not(case: Case) -> bool:
    return (
        table_cells(case) >= BIG_TABLE_CELLS
        and math.fsum(case.memory) <= case.max_memory
        and sum(weights(case)) > quantize(case.max_memory)
    )


def _whole_runtimes_past_int32(case: Case) -> bool:
    return (
        table_cells(case) >= BIG_TABLE_CELLS
        and all(float(r).is_integer() and 2**20 <= r < 2**31 for r in case.runtime)
        and sum(case.runtime) >= 2**32
    )


def _copies_to_decimals(case: Case, decimals: int) -> int:
    """Items that share their weight and their runtime to ``decimals`` with an
    earlier item but not their exact runtime (not copies, SPEC 6.3)."""
    first: dict[tuple[int, float], float] = {}
    count = 0
    for w, r in zip(weights(case), case.runtime, strict=True):
        key = (w, round(float(r), decimals))
        count += key in first and first[key] != r
        first.setdefault(key, r)
    return count


def _many_under_a_relative_tolerance(case: Case) -> bool:
    """At least 320 items, of which hundreds have runtimes under 1e-5 of the total."""
    total = sum(case.runtime)
    small = sum(0 < r < 1e-5 * total for r in case.runtime)
    return case.n >= 320 and small >= 200


def _an_exact_fit_or_no_room(case: Case) -> bool:
    """At least 128 items, and one of exactly the budget's weight or a budget of 0."""
    budget = quantize(case.max_memory)
    return case.n >= 128 and (budget == 0 or budget in weights(case))


def _half_way_past_30_units(case: Case) -> bool:
    """At least 500 items, 8 or more of them within 1e-3 units of a half-way
    point past 30 units."""
    units = [m * SCALE for m in case.memory]
    halves = sum(u > 30 and abs(u - math.floor(u) - 0.5) < 1e-3 for u in units)
    return case.n >= 500 and halves >= 8


def _weights_past_2_15_beside_a_narrow_budget(case: Case) -> bool:
    """A table of 3e6 cells or more under a budget below ``2**15`` units, and
    items of ``2**15`` units or more."""
    budget = quantize(case.max_memory)
    heavy = any(w >= 1 << 15 for w in weights(case))
    return table_cells(case) >= 3_000_000 and budget < 1 << 15 and heavy


def _a_dominant_runtime_out_of_reach(case: Case) -> bool:
    """At least 100 items; the largest runtime is on an item heavier than the
    budget, and 64 or more runtimes are under ``2**-24`` of it."""
    w = weights(case)
    top = max(range(case.n), key=lambda i: case.runtime[i], default=None)
    if case.n < 100 or top is None or w[top] <= quantize(case.max_memory):
        return False
    return sum(r < case.runtime[top] * 2.0**-24 for r in case.runtime) >= 64


def _a_budget_past_the_total_at_a_big_table(case: Case) -> bool:
    """A table of more than 8e6 cells under a budget past the total weight."""
    return table_cells(case) > 8_000_000 and quantize(case.max_memory) > sum(weights(case))


def _weights_past_the_budget_by_more_than_the_float_sum(case: Case) -> bool:
    """A table of more than 5e6 cells whose memories' float sum passes the
    budget by at most a tenth of it, while their weights pass it by more
    than the float excess rounded up."""
    over = math.fsum(case.memory) - case.max_memory
    excess = sum(weights(case)) - quantize(case.max_memory)
    return (
        table_cells(case) > 5_000_000
        and 0 < over <= case.max_memory / 10
        and excess > math.ceil(over * SCALE)
    )


def _runtimes_proportional_to_memories_off_the_grid(case: Case) -> bool:
    """At least 128 items whose runtimes are one multiple of their memories
    (to 1e-9 relative), half of them 0.1 units or more off the unit grid."""
    if case.n < 128 or min(case.memory) <= 0:
        return False
    ratios = [r / m for m, r in zip(case.memory, case.runtime, strict=True)]
    off = sum(abs(m * SCALE - round(m * SCALE)) >= 0.1 for m in case.memory)
    return max(ratios) - min(ratios) <= 1e-9 * max(ratios) and 2 * off >= case.n


def _the_second_half_fills_the_budget_in_coarse_steps(case: Case) -> bool:
    """A table of more than 1e7 cells, and the second half of the items
    weigh multiples of one step that divides the budget 12 times or fewer."""
    budget = quantize(case.max_memory)
    step = math.gcd(*weights(case)[case.n // 2 :])
    coarse = step > 0 and budget % step == 0 and budget <= 12 * step
    return table_cells(case) > 10_000_000 and coarse


def _exactly_two_weights_in_a_zigzag(case: Case) -> bool:
    """At least 64 items of exactly two nonzero weights, neither a multiple of
    the other, with runtimes of their own (not copies)."""
    kinds = sorted(set(weights(case)))
    if case.n < 64 or len(kinds) != 2 or kinds[0] == 0 or kinds[1] % kinds[0] == 0:
        return False
    return len(set(case.runtime)) > case.n // 2


def _blocks_and_one_odd_item_that_fits_beside_them(case: Case) -> bool:
    """At least 128 items, all but one of one weight ``b``, the odd one lighter
    and no heavier than the budget's remainder over ``b``."""
    w = weights(case)
    kinds = sorted(set(w))
    if case.n < 128 or len(kinds) != 2:
        return False
    odd, block = kinds
    return w.count(odd) == 1 and 0 < odd <= quantize(case.max_memory) % block


def _three_items_of_a_third_of_the_budget(case: Case) -> bool:
    """More than 6e6 cells, and three items of exactly a third of the budget."""
    budget = quantize(case.max_memory)
    return (
        table_cells(case) > 6_000_000 and budget % 3 == 0 and weights(case).count(budget // 3) >= 3
    )


def _two_items_of_half_the_budget(case: Case) -> bool:
    """More than 5e6 cells, and two items of exactly half the budget."""
    budget = quantize(case.max_memory)
    return (
        table_cells(case) > 5_000_000 and budget % 2 == 0 and weights(case).count(budget // 2) >= 2
    )


def _whole_runtimes_sharing_a_factor(case: Case) -> bool:
    """At least 128 items whose runtimes are whole and share a factor above
    1, under a budget of at least four times their total plus one."""
    if case.n < 128 or not all(r >= 0 and float(r).is_integer() for r in case.runtime):
        return False
    whole = [round(r) for r in case.runtime]
    total = sum(whole)
    return math.gcd(*whole) > 1 and 0 < 4 * (total + 1) <= quantize(case.max_memory) + 1


def _a_budget_float32_reads_otherwise(case: Case) -> bool:
    """At least 256 items, under a budget that every float32 reading takes
    for another count of units."""
    units = quantize(case.max_memory)
    return case.n >= 256 and units not in float32_budget_readings(case.max_memory)


def _power_of_two_sizes_that_all_fit(case: Case) -> bool:
    """At least 64 items, every nonzero weight a unit times a power of two,
    and all of them within the budget."""
    units = [w for w in weights(case) if w > 0]
    if case.n < 64 or not units or sum(units) > quantize(case.max_memory):
        return False
    unit = min(units)
    return all(w % unit == 0 and (w // unit) & (w // unit - 1) == 0 for w in units)


def _dominant_items_that_do_not_fit_together(case: Case) -> bool:
    """At least 128 items, and two or more items that fit the budget alone,
    each worth more than all cheaper fitting items together, too heavy
    together."""
    budget, units = quantize(case.max_memory), weights(case)
    fitting = sorted(
        (i for i, w in enumerate(units) if 0 < w <= budget), key=lambda i: -case.runtime[i]
    )
    dominant = []
    for k, i in enumerate(fitting):
        if case.runtime[i] <= sum(max(case.runtime[j], 0.0) for j in fitting[k + 1 :]):
            break
        dominant.append(i)
    return case.n >= 128 and len(dominant) >= 2 and sum(units[i] for i in dominant) > budget


def _one_layer_repeated_that_no_repeated_choice_fills(case: Case) -> bool:
    """At least 256 items that repeat one layer of ``p <= n / 4`` items
    exactly, in order, ``k`` times, with an optimum worth more than ``k``
    times the layer's best under ``Q // k`` units (by 1e-3 of it): no
    selection repeated in every layer is optimal."""
    n = case.n
    if n < 256:
        return False
    items = list(zip(weights(case), case.runtime, strict=True))
    period = next((p for p in range(1, n // 4 + 1) if n % p == 0 and items[p:] == items[:-p]), 0)
    if not period:
        return False
    layers, share = n // period, quantize(case.max_memory) // (n // period)
    best_layer = max(
        sum(r for (w, r), taken in zip(items, mask, strict=False) if taken)
        for mask in itertools.product((0, 1), repeat=period)
        if sum(w for (w, _), taken in zip(items, mask, strict=False) if taken) <= share
    )
    return exact_value(case) > layers * best_layer * (1 + 1e-3)


def _few_items_with_a_shared_weight_under_a_huge_table(case: Case) -> bool:
    """At most 24 items under a table of more than 3e6 cells, two of them in
    the second half of one weight and different runtimes."""
    units, half = weights(case), case.n // 2
    worth: dict[int, set[float]] = {}
    for i in range(half, case.n):
        worth.setdefault(units[i], set()).add(case.runtime[i])
    return (
        case.n <= 24
        and table_cells(case) > 3_000_000
        and any(len(runtimes) > 1 for runtimes in worth.values())
    )


def _every_runtime_zero(case: Case) -> bool:
    """At least 128 items, every runtime zero."""
    return case.n >= 128 and all(r == 0 for r in case.runtime)


@pytest.mark.parametrize(
    ("select", "bug"),
    [
        (_float_sum_fits_weights_do_not, "everything_fits_by_numpy_sum_above_9e6_cells"),
        (_whole_runtimes_past_int32, "int32_rows_for_whole_runtimes_above_5e6_cells"),
        (
            lambda case: _copies_to_decimals(case, 3) >= 80,
            "copies_by_runtime_to_3_decimals_from_80",
        ),
        (_many_under_a_relative_tolerance, "backtrack_within_a_relative_gain_from_320"),
        (_an_exact_fit_or_no_room, "heavy_items_filtered_from_128"),
        (_half_way_past_30_units, "weights_in_tenths_of_a_thousandth_from_600"),
        (
            _weights_past_2_15_beside_a_narrow_budget,
            "uint16_weights_under_2_16_columns_above_2e6_cells",
        ),
        (_a_dominant_runtime_out_of_reach, "negligible_beside_the_largest_from_100"),
        (_a_budget_past_the_total_at_a_big_table, "columns_up_to_the_total_above_8e6_cells"),
        (
            _weights_past_the_budget_by_more_than_the_float_sum,
            "excess_freed_by_float_sum_above_5e6_cells",
        ),
        (
            _runtimes_proportional_to_memories_off_the_grid,
            "bandwidth_runtimes_fill_the_budget_from_128",
        ),
        (
            _the_second_half_fills_the_budget_in_coarse_steps,
            "halves_split_from_one_unit_above_1e7_cells",
        ),
        (_exactly_two_weights_in_a_zigzag, "two_weights_by_ternary_search_from_64"),
        (_every_runtime_zero, "runtimes_to_integers_by_the_largest_from_128"),
        (_blocks_and_one_odd_item_that_fits_beside_them, "one_odd_item_on_the_block_grid_from_128"),
        (
            _three_items_of_a_third_of_the_budget,
            "two_best_of_the_items_over_a_third_above_6e6_cells",
        ),
        (_two_items_of_half_the_budget, "best_of_the_items_over_half_above_5e6_cells"),
        (
            _whole_runtimes_sharing_a_factor,
            "runtime_table_read_to_its_first_gap_from_128_items",
        ),
        (_a_budget_float32_reads_otherwise, "budget_read_in_float32_from_256_items"),
        (_power_of_two_sizes_that_all_fit, "halving_greedy_carries_pairs_only_from_64_items"),
        (_dominant_items_that_do_not_fit_together, "dominant_items_saved_first_from_128_items"),
        (_one_layer_repeated_that_no_repeated_choice_fills, "layer_choice_repeated_from_256_items"),
    ],
    ids=[
        "float sum fits",
        "int32 sums",
        "runtimes equal to 3 decimals",
        "under a tolerance",
        "exact fit",
        "half-way past 30 units",
        "weights past 2**15",
        "dominant runtime out of reach",
        "budget past the total",
        "budget under the float sum",
        "proportional off the grid",
        "optimum in the second half",
        "two weights",
        "every runtime zero",
        "blocks and one odd item",
        "three thirds of the budget",
        "two halves of the budget",
        "whole runtimes sharing a factor",
        "a budget float32 reads otherwise",
        "power-of-two sizes that all fit",
        "dominant items that do not fit together",
        "one layer repeated",
    ],
)
def test_every_breadth_phase_carries_rounding_and_integer_patterns_to_big_calls(
    select: Callable[[Case], bool], bug: str
) -> None:
    """SPEC 2.1, 3.2, 6.3: whatever the seed and domain, the breadth phase holds
    calls of more than twice the largest real table whose memories' float sum
    fits the budget while their weights do not, whose whole runtimes each fit
    int32 while their sums do not (``BIG_REGION_DRAWS`` of each of
    ``BIG_REGIONS``), and of 72 to 160 items of one weight whose tiny runtimes
    agree to their scale's decimal without being copies (``TINY_RUNTIME_DRAWS``
    per scale), and of hundreds of items each under a relative tolerance of
    the optimum (``TOLERANCE_DRAWS`` per ratio), and with an item of exactly
    the budget's weight or a budget of 0 (``EXACT_FIT_DRAWS``), and of 500
    items or more with half-way memories past 30 units
    (``WIDE_HALF_WAY_DRAWS``), with weights past ``2**15`` units beside a
    budget below it (``WRAPPING_DRAWS``), and with the largest runtime
    ``2**25`` or more times 64 others on an item too heavy to save
    (``DOMINANT_DRAWS``, judged under SPEC 5.4), and of more than 8e6
    cells under a budget past the total weight (``BIG_FIT_DRAWS``), and
    of more than 5e6 cells with memories quantized up under a budget a
    little below their float sum (``UNDER_FLOAT_SUM_DRAWS``), of 128 items
    or more whose runtimes are proportional to memories off the unit grid
    (``PROPORTIONAL_OFF_GRID_DRAWS``), and of more than 1e7 cells whose
    second half fills the budget in coarse steps (``ONE_SIDED_DRAWS``), of
    64 items or more of exactly two weights (``TWO_SIZES_DRAWS``), and of
    128 items or more whose runtimes are all zero (``ZERO_RUNTIME_DRAWS``),
    and of 128 items or more, all blocks of one weight but one lighter item
    that fits beside the best blocks (``BLOCKS_AND_ONE_ODD_DRAWS``), and of
    more than 6e6 cells whose optimum is three items of exactly a third of
    the budget, or more than 5e6 cells and two of half (``EXACT_SHARES_PARTS``),
    and of 128 items or more whose whole runtimes share a factor under a
    budget of four times their total or more (``SHARED_RUNTIME_FACTORS``),
    and of 256 items or more under a budget that float32 reads as a unit
    more or less (``FLOAT32_BUDGET_DIRECTIONS``), of 64 items or more of
    power-of-two sizes that all fit (``POWER_OF_TWO_DRAWS``), and of 128
    or more with items each worth more than all cheaper ones, too heavy
    together (``SUPERINCREASING_DRAWS``), and of 256 or more that repeat one
    layer under a budget no repeated choice fills (``PERIODIC_LAYERS_DRAWS``).
    Four blind-corpus bugs passed default ``verify`` without the first five
    (docs/planted.md, session 13), three more without the next three, one
    was left to the rounds without the ninth (session 14), three more
    passed without the next three (session 15), two without the next
    two and one more without the one after (session 16), one more
    without the next (session 17: its half-budget sibling) and one was
    left to the rounds without the next (session 17), a bug of our own
    passed without the next, two blind ones passed the breadth phase
    without the next two (session 18), and one more was left to the rounds
    without the last (session 19); the
    planted bug of each class fails one of these calls (judged
    float32-tolerant, as ``verify`` judges it), and our solver is exact on
    all of them."""
    solver = getattr(corpus, bug)
    for seed, domain, calls in _breadth_calls(select):
        where = (seed, domain, bug)
        assert calls, where
        # Judged as verify judges a third party: float32-tolerant (SPEC 5.2).
        assert any(check_call(solver, c, Judge(exact=False)) for c in calls), where
        assert not any(_ours_findings(c) for c in calls), where


def test_every_breadth_phase_carries_few_items_to_a_huge_table() -> None:
    """SPEC 3.3, 5.2: whatever the seed and domain, the breadth phase holds
    calls of at most 24 items under a table of more than 3e6 cells with a
    weight shared by two items of different worth in their second half
    (every value region at a few items, unit-scaled:
    ``scaling.few_items_huge_table``). A blind-corpus bug that met few items
    under a huge budget in the middle, keeping one subset per weight,
    passed default ``verify`` without them (session 19, /work/blind11); the
    planted bug of that class fails one of these calls (float32-tolerant,
    as ``verify`` judges it), and our solver is exact on all of them."""
    solver = corpus.halves_keep_one_subset_per_weight_above_2e6_cells
    select = _few_items_with_a_shared_weight_under_a_huge_table
    for seed in range(3):
        for domain in ("partitioner", "extended"):
            known = [
                call
                for call in breadth_cases(seed, domain=domain)
                if isinstance(call, KnownCase) and select(call.case)
            ]
            assert known, (seed, domain)
            for call in known:
                know_optimum(call.case, call.optimum)
            cases = [call.case for call in known]
            assert any(check_call(solver, c, Judge(exact=False)) for c in cases), (seed, domain)
            assert not any(_ours_findings(c) for c in cases)


def test_every_breadth_phase_calls_twins_of_its_big_tables_and_a_rematched_pair() -> None:
    """SPEC 3.2, 3.3, 5.2, 8.1: whatever the seed and domain, the breadth
    phase's scaled calls of more than twice the largest real table are
    followed by a reversed twin and by runtime-scaled ones (``scaling.twins``),
    then by the rematched pair (``scaling.rematched_pair``). Called in the
    breadth phase's order in one process, a solver that keeps answers by the
    sorted items, one that keeps them by the sorted memories and sorted
    runtimes, one that ignores gains under 1e-9 and one that flushes float32
    subnormals to zero each fail one of them (blind-corpus bugs of these
    kinds passed default ``verify``, sessions 15 to 17), judged
    float32-tolerant; the sorted-columns one passes the pair's first call
    and fails its second right after. The pair's first call comes after its
    items under two lower budgets (``scaling.budget_sweep``): a solver that
    remembers the items too heavy for the first of them fails a later one.
    Our solver is exact on all."""
    bugs = (
        "answers_kept_by_sorted_items_above_5e6_cells",
        "answer_kept_by_sorted_columns_from_1024_items",
        "too_heavy_items_remembered_by_memories_from_256_items",
        "gains_under_a_billionth_ignored_above_8e6_cells",
        "subnormal_runtimes_flushed_above_6e6_cells",
    )
    for seed in range(3):
        for domain in ("partitioner", "extended"):
            scaled_calls = [
                known
                for known in breadth_cases(seed, domain=domain)
                if isinstance(known, KnownCase)
                and known.note.startswith("the call is ")
                and known.case.n > FEW_ITEMS[1]  # not few_items_huge_table's (the test above)
                and table_cells(known.case) < FEW_ITEMS_FAR_CELLS[0]  # nor its padded ones
                and not _under_a_threshold_budget(known.case)
            ]
            notes = " ".join(known.note for known in scaled_calls)
            assert "the items in reverse order" in notes, (seed, domain)
            assert "every runtime times 2**" in notes, (seed, domain)
            for known in scaled_calls:
                if "the budget lowered to" not in known.note:
                    assert table_cells(known.case) >= BIG_TABLE_CELLS
                know_optimum(known.case, known.optimum)
            tolerant = Judge(exact=False)
            for bug in bugs:
                corpus._ANSWERS.clear()
                corpus._KEPT_BY_COLUMNS.clear()
                corpus._TOO_HEAVY.clear()
                solver = getattr(corpus, bug)
                where = (seed, domain, bug)
                # In the breadth phase's order: the cache bug needs the original first.
                assert any(check_call(solver, c.case, tolerant) for c in scaled_calls), where
            *sweep, first, second = scaled_calls[-4:]
            assert "each memory taken from the item" in second.note, (seed, domain)
            assert all(
                (known.case.memory, known.case.runtime) == (first.case.memory, first.case.runtime)
                and known.case.max_memory < first.case.max_memory
                for known in sweep
            ), (seed, domain)
            corpus._TOO_HEAVY.clear()
            remembers = corpus.too_heavy_items_remembered_by_memories_from_256_items
            assert not check_call(remembers, sweep[0].case, tolerant), (seed, domain)
            assert any(check_call(remembers, c.case, tolerant) for c in [*sweep[1:], first])
            corpus._KEPT_BY_COLUMNS.clear()
            columns = corpus.answer_kept_by_sorted_columns_from_1024_items
            assert not check_call(columns, first.case, tolerant), (seed, domain)
            assert check_call(columns, second.case, tolerant), (seed, domain)
            for known in scaled_calls:
                assert not _ours_findings(known.case)


def test_every_breadth_phase_makes_its_exact_shares_after_a_quarter_of_their_budget() -> None:
    """SPEC 3.2, 3.3, 8.1: whatever the seed and domain, each breadth call of
    more than 5e6 cells whose optimum is two or three exact shares of the
    budget comes right after its
    items under a quarter of that budget, where the shares do not fit. A
    solver that remembers the items too heavy for the first call fails the
    second (judged float32-tolerant), and passes it alone; a blind-corpus
    bug that clamped cached weights to an earlier budget was missed by
    ``scaling.budget_sweep`` alone at 1 seed of 20 (session 17). Our
    solver is exact on both."""
    remembers = corpus.too_heavy_items_remembered_by_memories_from_256_items
    tolerant = Judge(exact=False)
    for seed in range(3):
        for domain in ("partitioner", "extended"):
            calls = [c for c in breadth_cases(seed, domain=domain) if isinstance(c, Case)]
            shares = [
                k
                for k, c in enumerate(calls)
                if k > 0 and table_cells(c) > 5_000_000 and _exact_shares(c)
            ]
            assert len(shares) == len(EXACT_SHARES_PARTS), (seed, domain)
            for k in shares:
                quarter, case = calls[k - 1], calls[k]
                where = (seed, domain, case.n)
                assert (quarter.memory, quarter.runtime) == (case.memory, case.runtime), where
                assert quantize(quarter.max_memory) == quantize(case.max_memory) // 4, where
                for call in (quarter, case):
                    assert not _ours_findings(call), where
                if case.n < 256:
                    continue
                corpus._TOO_HEAVY.clear()
                assert not check_call(remembers, case, tolerant), where
                corpus._TOO_HEAVY.clear()
                assert not check_call(remembers, quarter, tolerant), where
                assert check_call(remembers, case, tolerant), where


def _under_a_threshold_budget(case: Case) -> bool:
    """A call of ``scaling.threshold_budget_tables``: 2,114 items under one of
    the scope's threshold budgets."""
    return case.n == PAST_LARGEST_ITEMS and quantize(case.max_memory) in SCOPE_THRESHOLD_BUDGETS


def _exact_shares(case: Case) -> bool:
    """Two or three items of exactly ``Q / 2`` or ``Q / 3``, each worth more
    than all the other items together."""
    budget, units = quantize(case.max_memory), weights(case)
    for parts in EXACT_SHARES_PARTS:
        share = [i for i, w in enumerate(units) if budget % parts == 0 and w == budget // parts]
        others = sum(r for i, r in enumerate(case.runtime) if i not in share)
        if len(share) == parts and all(case.runtime[i] > others for i in share):
            return True
    return False


def test_tiny_runtime_copies_agree_at_every_scale_s_decimal() -> None:
    """SPEC 6.3: at every scale of ``TINY_RUNTIME_SCALES`` the copies' runtimes
    agree to the scale's decimal for at least 64 of them, and are not copies."""
    rng = random.Random(0)
    for scale in TINY_RUNTIME_SCALES:
        decimals = round(-math.log10(scale))
        for n in (72, 300, LARGEST_REAL_ITEMS):
            case = tiny_runtime_copies_case(rng, n, scale)
            assert case.n == n
            assert _copies_to_decimals(case, decimals) >= 64, (scale, n)


def test_every_breadth_phase_carries_rounding_edges_past_the_largest_real_call() -> None:
    """SPEC 2.1, 6.3: at twice the largest real call's item count (deeper
    models), every breadth phase holds each region of
    ``PAST_LARGEST_REGIONS`` and two budgets float32 reads a unit off, with
    a memory of 1 unit in float64 that float32 takes for a free item, a
    budget whose float32 product rounds to another unit, and runtimes equal
    in float32 but not in float64 on items of different weights. A blind
    corpus passed a budget quantized through a float32 tensor from 1536
    items, zero weights detected in float32 from 1024 items, and rows
    sorted by float32 runtime mapped back in float64 from 384 items
    (docs/blind-corpus-12)."""
    for seed in range(3):
        big = _past_largest(seed)
        assert len(big) >= len(PAST_LARGEST_REGIONS) + 2, seed

        def free_in_float32(case: Case) -> bool:
            return any(
                round(m * 1e4) == 1 and round(float(np.float32(m)) * 1e4) == 0 for m in case.memory
            )

        def budget_a_unit_off_in_float32(case: Case) -> bool:
            product = np.float32(case.max_memory) * np.float32(1e4)
            return round(float(product)) != round(case.max_memory * 1e4)

        def float32_ties_of_two_weights(case: Case) -> bool:
            q = weights(case)
            return any(
                case.runtime[i] != case.runtime[i + 1]
                and np.float32(case.runtime[i]) == np.float32(case.runtime[i + 1])
                and q[i] != q[i + 1]
                for i in range(case.n - 1)
            )

        for wanted in (free_in_float32, budget_a_unit_off_in_float32, float32_ties_of_two_weights):
            assert any(wanted(case) for case in big), (seed, wanted.__name__)


def _past_largest(seed: int) -> list[Case]:
    return [
        case
        for case in (getattr(call, "case", call) for call in breadth_cases(seed))
        if case.n == PAST_LARGEST_ITEMS
    ]


def test_every_breadth_phase_counts_past_2048_with_the_testing_estimator() -> None:
    """SPEC 3.3, 4.4: at 2,114 items every breadth phase holds a call of the
    ``testing`` estimator's int runtimes (1 per node) with free items, under a
    budget of at most 2,048 units, whose optimum passes 2,048: a float16
    table, chosen because ``max(r) * min(n, Q) <= 2048`` bounds every
    entry of a table without free items, stops counting there. A blind
    corpus passed such a table from 1,536 items (docs/blind-corpus-13)."""
    for seed in range(3):
        calls = [
            case
            for case in _past_largest(seed)
            if all(type(r) is int and r == TESTING_RUNTIME for r in case.runtime)
        ]
        assert calls, seed
        (case,) = calls
        free = sum(w == 0 for w in weights(case))
        assert free >= 2 * case.n // 5 and quantize(case.max_memory) <= 2048, seed
        assert exact_value(case) > 2048, seed


def test_every_breadth_phase_holds_runtimes_python_hashes_alike() -> None:
    """SPEC 6.3: at 2,114 items every breadth phase holds a call where items of
    one weight are worth ``k`` and ``k * 2**61`` (one hash, not copies),
    more of the cheap ones first than the budget holds, and the optimum
    saves every dear one. A blind corpus passed copies grouped by
    ``hash((q, r))`` from 256 items (docs/blind-corpus-13)."""
    for seed in range(3):
        found = False
        for case in _past_largest(seed):
            q = weights(case)
            pairs = list(zip(q, case.runtime, strict=True))
            dear = [i for i, (w, r) in enumerate(pairs) if r >= 2.0**61]
            if not dear:
                continue
            w, r = pairs[dear[0]]
            cheap = [i for i, pair in enumerate(pairs) if pair == (w, r / 2.0**61)]
            if not cheap:  # dear runtimes of another call (a scaled base's, past 2**61)
                continue
            assert hash((w, r)) == hash((w, r / 2.0**61)), seed
            assert len(cheap) > quantize(case.max_memory) // w and max(cheap) < min(dear), seed
            assert exact_value(case) >= sum(Fraction(case.runtime[i]) for i in dear), seed
            found = True
        assert found, seed


def test_optimality_is_judged_past_the_largest_real_call() -> None:
    """SPEC 3.3: the default judge (``verify``'s) runs the oracle on the calls
    past the largest real call: a solver wrong on optimality only from 1,536
    items gets an optimality finding at 2,114. With the earlier limit of
    2,000 items it was judged on feasibility alone there."""

    def drops_the_last_item_from_1536(memory: Any, runtime: Any, max_memory: Any) -> Any:
        value, saved, rest = corpus.exact(memory, runtime, max_memory)
        if len(memory) >= 1536 and saved:
            last = saved[-1]
            return value - runtime[last], saved[:-1], sorted([*rest, last], reverse=True)
        return value, saved, rest

    case = one_per_node_case(random.Random(0), PAST_LARGEST_ITEMS)
    assert Judge().oracle_max_items >= PAST_LARGEST_ITEMS
    found = check_call(drops_the_last_item_from_1536, case, Judge(), ["optimality"])
    assert [f.property for f in found] == ["optimality"]


def test_every_breadth_phase_holds_one_set_of_items_either_side_of_a_half_unit() -> None:
    """SPEC 2.1, 3.2, 3.3, 8.1: at 2,114 items and past twice the largest real
    table, every breadth phase makes three calls of one set of items under
    budgets at most 1e-9 GB apart that quantize to ``Q - 1``, ``Q`` and
    ``Q - 1`` units, and the optimum under ``Q`` is far above the one
    under ``Q - 1`` (so one call answered with another's is over budget or
    short by more than SPEC 5.2 allows). A blind corpus passed answers
    reused for budgets within 1e-9 GB, and a kept table read for a budget
    one unit wider (docs/blind-corpus-14)."""
    for seed in range(3):
        calls = _past_largest(seed)
        found = [
            (a, b)
            for a, b, c in zip(calls, calls[1:], calls[2:], strict=False)
            if a == c
            and (a.memory, a.runtime) == (b.memory, b.runtime)
            and abs(a.max_memory - b.max_memory) <= 1e-9
            and quantize(a.max_memory) + 1 == quantize(b.max_memory)
        ]
        assert len(found) == 1, seed
        low, high = found[0]
        assert table_cells(low) >= BIG_TABLE_CELLS, seed
        assert exact_value(high) - exact_value(low) > 1000 * tolerance(high), seed


def test_every_breadth_phase_holds_placeholder_sizes_and_one_size_that_all_fits() -> None:
    """SPEC 2.1, 3.2, 7.2: at 2,114 items every breadth phase holds a call with
    memories of 1e7 to 1e14 GB (placeholders no budget fits; upstream's
    ``torch.long`` weights still hold them) each worth more than all the
    rest, and a call of items all of one size under a budget that holds
    more of them than there are. A blind corpus passed sizes past 1e6 read
    as bytes from 256 items, and ``topk(Q // q)`` unclamped for equal sizes
    from 128 items (docs/blind-corpus-14)."""
    for seed in range(3):
        calls = _past_largest(seed)
        placeholders = [c for c in calls if max(c.memory) > 1e6]
        assert placeholders, seed
        for case in placeholders:
            assert all(round(m * 1e4) < 2**63 for m in case.memory), seed
            assert quantize(case.max_memory) < min(quantize(m) for m in case.memory if m > 1e6)
        one_size = [c for c in calls if len(set(c.memory)) == 1 and c.memory[0] > 0]
        assert any(quantize(c.max_memory) // quantize(c.memory[0]) > c.n for c in one_size), seed


def test_every_breadth_phase_walks_back_from_the_scope_threshold_budgets_at_2114_items() -> None:
    """SPEC 3.2, 3.3: at 2,114 items every breadth phase holds one call under
    each of the scope's threshold budgets (``10**4`` to ``2**16 + 1`` units,
    where a solver may narrow its column's dtype), its optimum stated from
    the small case it was scaled from, and our solver answers each exactly.
    A blind corpus passed a walk back that kept its column in int16 whenever
    ``Q < 2**16``, from 1,024 items (docs/blind-corpus-15): the twin planted
    here fails both calls from ``2**15`` units and answers ``2**16`` right."""
    twin = corpus.walk_back_column_in_int16_under_two_byte_budgets_from_1536_items
    for seed in range(3):
        known = {
            quantize(call.case.max_memory): call
            for call in breadth_cases(seed)
            if isinstance(call, KnownCase) and call.case.n == PAST_LARGEST_ITEMS
        }
        assert set(SCOPE_THRESHOLD_BUDGETS) <= set(known), seed
        for budget in SCOPE_THRESHOLD_BUDGETS:
            case = known[budget].case
            know_optimum(case, known[budget].optimum)
            assert not _ours_findings(case), seed
            if seed == 0 and budget >= 2**15:
                failed = check_call(twin, case, Judge(exact=False), ["optimality"])
                assert bool(failed) == (budget < 2**16), budget


def test_every_breadth_phase_holds_two_shares_a_unit_apart_in_either_order() -> None:
    """SPEC 3.3: at 2,114 items every breadth phase holds two calls whose
    optimum is two items a unit apart, of 2,048 units or more, that fill the
    budget and are each worth more than the rest together: the heavier last
    (the walk back meets its row at column ``2 q - 1``) and first (``2 q +
    1``). A blind corpus passed a row written in two slices that never wrote
    column ``2 q - 1`` above 4e6 cells (docs/blind-corpus-15); unit-scaled
    calls and equal shares never meet that column. The twin planted here
    (column ``2 q + 1``) fails the second; our solver answers both exactly."""
    twin = corpus.heavy_rows_in_two_slices_miss_column_2q_plus_1_above_8e6_cells
    for seed in range(3):
        found = []
        for case in _past_largest(seed):
            units, budget = weights(case), quantize(case.max_memory)
            pair = sorted(sorted(range(case.n), key=lambda i: case.runtime[i])[-2:])
            rest = sum(r for i, r in enumerate(case.runtime) if i not in pair)
            first, last = (units[i] for i in pair)
            if (
                first + last == budget
                and abs(first - last) == 1
                and min(first, last) >= 2048
                and all(case.runtime[i] > rest for i in pair)
            ):
                found.append((last - first, case))
        assert sorted(offset for offset, _ in found) == [-1, 1], seed
        for offset, case in found:
            assert not _ours_findings(case), seed
            failed = check_call(twin, case, Judge(exact=False), ["optimality"])
            assert bool(failed) == (offset == -1), (seed, offset)


def _rival_and_heavy(case: Case) -> tuple[int, int] | None:
    """The indices of a rival of exactly the budget's weight and a heavy item
    of more than half of it beside it, at the start of ``case`` (in that
    order) or at its end (the reverse), or ``None``."""
    units, q = weights(case), budget(case)
    for rival, heavy in ((0, 1), (case.n - 1, case.n - 2)):
        if units[rival] == q and q < 2 * units[heavy] < 2 * q:
            return rival, heavy
    return None


def test_every_breadth_phase_holds_a_heavy_item_its_rival_beats_at_its_row() -> None:
    """SPEC 3.3: at 2,114 items every breadth phase holds two calls whose
    optimum takes an item of more than half the budget, completed by light
    items, while a rival of the whole budget is worth more than it alone:
    the rival listed first (at the heavy item's row the rival holds column
    ``Q``) and last. A blind corpus passed a table that skipped such an
    item's row when it did not raise column ``Q`` there, above 6e6 cells
    (docs/blind-corpus-16): the light items listed after it can complete it.
    The twin planted here (a pre-pass over one row) fails the rival-first
    call and answers the other; our solver answers both exactly."""
    twin = corpus.heavy_items_pruned_by_a_prefix_row_from_1536_items
    for seed in range(3):
        found = {}
        for case in _past_largest(seed):
            pair = _rival_and_heavy(case)
            if pair is None:
                continue
            rival, heavy = pair
            assert case.runtime[rival] > case.runtime[heavy], seed
            assert not _ours_findings(case), seed
            _, saved, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
            assert heavy in saved and rival not in saved, seed
            assert table_cells(case) >= BIG_TABLE_CELLS, seed
            found[rival == 0] = case
        assert sorted(found) == [False, True], seed
        for rival_first, case in found.items():
            failed = check_call(twin, case, Judge(exact=False), ["optimality"])
            assert bool(failed) == rival_first, (seed, rival_first)


def test_every_breadth_phase_holds_runtimes_whose_float32_squares_leave_its_range() -> None:
    """SPEC 3.3, 5.2: at 2,114 items every breadth phase holds a call whose
    runtimes differ and are all float32 numbers whose squares underflow
    float32 (under ``2**-75``), and one whose largest runtime's square
    overflows it (``2**64`` or more, the sum of all still finite in
    float32). A blind corpus passed a "runtimes all equal" fast path
    that tested ``var() == 0`` in float32, from 128 items
    (docs/blind-corpus-16). The twin planted here (``n * sum(r * r) ==
    sum(r) ** 2`` in float32) fails both; our solver answers both exactly."""
    twin = corpus.lightest_first_when_float32_square_sums_agree_from_1536_items
    for seed in range(3):
        tiny, huge = [], []
        for case in _past_largest(seed):
            sizes = [abs(float(r)) for r in case.runtime if r != 0]
            if len(set(sizes)) < 2:
                continue
            if all(2.0**-149 <= size < 2.0**-75 for size in sizes):
                tiny.append(case)
            elif max(sizes) >= 2.0**64 and math.fsum(sizes) < 2.0**127:
                huge.append(case)
        assert tiny and huge, seed
        for case in (tiny[0], huge[-1]):
            assert not _ours_findings(case), seed
            assert check_call(twin, case, Judge(exact=False), ["optimality"]), seed


def test_every_breadth_phase_holds_items_over_a_budget_written_half_a_unit_below() -> None:
    """SPEC 2.1, 3.2: at 2,114 items every breadth phase holds a call under an
    even budget of ``Q`` units written as ``(Q - 0.5) / 1e4`` (float64 rounds
    it up to ``Q``), with items heavier than ``Q`` worth more than the rest
    together. A blind corpus passed sizes capped at "one unit over the
    budget" in GB from 256 items (docs/blind-corpus-17): ``max_memory +
    1e-4`` rounds back to ``Q``, so a capped item fits. Our solver answers
    the call exactly; the capped call's answer saves an item over ``Q``, and
    the twin planted here (the budget rounded half down, ``Q - 1``) falls
    short of the optimum."""
    twin = corpus.budget_rounded_half_down_from_512_items
    for seed in range(3):
        found = [
            case
            for case in _past_largest(seed)
            if case.max_memory * SCALE == budget(case) - 0.5
            and budget(case) % 2 == 0
            and max(weights(case)) > budget(case)
        ]
        assert found, seed
        case = found[0]
        assert not _ours_findings(case), seed
        cap = case.max_memory + 1 / SCALE
        capped = [min(float(m), cap) for m in case.memory]
        _, saved, _ = dp_knapsack_sliding_hirschberg(capped, list(case.runtime), case.max_memory)
        assert max(weights(case)[i] for i in saved) > budget(case), seed
        assert check_call(twin, case, Judge(exact=False), ["optimality"]), seed


def test_every_breadth_phase_holds_items_listed_by_weight_with_runtimes_rising_with_it() -> None:
    """SPEC 3.3: at 2,114 items every breadth phase holds a call whose
    memories and runtimes both never fall along the list, and one whose
    both never rise, where neither the longest fitting prefix nor suffix
    is optimal. A blind corpus passed a dominance-chain fast path whose
    runtime test was copied from the size test (it took the lightest
    prefix of such a list, from 192 items: docs/blind-corpus-18); the twin
    planted here (the dearest suffix) fails one of them; our solver answers
    each exactly."""
    twin = corpus.heaviest_suffix_when_both_lists_rise_from_768_items
    for seed in range(3):
        found = {}
        for case in _past_largest(seed):
            if len(set(case.runtime)) == 1:  # equal runtimes rise and fall alike
                continue
            for order, pairs in (("rising", itertools.pairwise), ("falling", _pairs_reversed)):
                if all(a <= b for a, b in pairs(case.memory)) and all(
                    a <= b for a, b in pairs(case.runtime)
                ):
                    found[order] = case
        assert set(found) == {"rising", "falling"}, seed
        for case in found.values():
            optimum = exact_value(case)
            weights = [quantize(m) for m in case.memory]
            budget = quantize(case.max_memory)
            for order in (list(range(case.n)), list(reversed(range(case.n)))):
                taken = _longest_fitting_prefix([weights[i] for i in order], budget)
                assert sum(Fraction(case.runtime[i]) for i in order[:taken]) < optimum
            assert not _ours_findings(case), seed
        assert check_call(twin, found["rising"], Judge(exact=False), ["optimality"]), seed


def test_every_breadth_phase_holds_two_calls_of_zero_runtimes_past_768_items() -> None:
    """SPEC 3.3, 8.4: every breadth phase holds two calls with every runtime
    zero past 768 items, so that a fast path which hands out one kept
    list for "nothing saved" meets, on the second, the entry the worker
    wrote into the first's (tests/test_fresh.py shows the worker's side).
    A blind corpus passed such a module list from 768 items: the phase had
    one such call (docs/blind-corpus-19)."""
    for seed in range(3):
        calls = [getattr(call, "case", call) for call in breadth_cases(seed)]
        idle = [c for c in calls if c.n >= 768 and all(r == 0 for r in c.runtime)]
        assert len(idle) >= 2, seed


def _longest_fitting_prefix(weights: Sequence[int], budget: int) -> int:
    total = 0
    for k, weight in enumerate(weights):
        total += weight
        if total > budget:
            return k
    return len(weights)


def _pairs_reversed(values: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
    return itertools.pairwise(reversed(values))


def test_every_breadth_phase_holds_runs_of_one_object_of_which_part_fits() -> None:
    """SPEC 3.3, 4.6: at 2,114 items every breadth phase holds a call in runs
    of equal neighbours, passed as one object per run, whose optimum takes
    part of a run. A blind corpus passed runs of the very same object
    folded into one item (docs/blind-corpus-17): pickled to the worker,
    every float had been an object of its own. The twin planted here
    (every use of one object bundled) fails one of them; our solver
    answers each exactly."""
    twin = corpus.copies_bundled_by_object_identity_from_256_items
    for seed in range(3):
        found = []
        for case in _past_largest(seed):
            memory, runtime, _ = case.arguments()
            runs = [
                k
                for k in range(1, case.n)
                if memory[k] is memory[k - 1] and runtime[k] is runtime[k - 1]
            ]
            if len(runs) < case.n // 2 or type(memory[0]) is not float:
                continue
            _, saved, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
            if any((k in saved) != (k - 1 in saved) for k in runs):
                found.append(case)
        assert found, seed
        for case in found:
            assert not _ours_findings(case), seed
        assert any(check_call(twin, case, Judge(exact=False), ["optimality"]) for case in found)


LATER_REGION_TWINS = {
    "few items fit alone": "best_one_or_two_of_the_few_that_fit_from_384_items",
    "one paying item": "lone_paying_item_left_among_the_recomputed_from_320_items",
    "runtimes past float32's range": (
        "value_as_a_float32_product_with_the_saved_mask_from_768_items"
    ),
}
"""The session 25 regions and the planted twin of a blind bug on each that a
call past the largest real call kills (the fourth region's twin switches
on table cells, not items: the regions carried to huge tables hold it)."""


def test_every_breadth_phase_holds_the_session_25_regions_past_the_largest_real_call() -> None:
    """SPEC 3.3, 7.2(b), 7.2(e): every breadth phase holds, at 2,114 items, three
    or more items that fit alone and all fit together among items over the
    budget, every runtime zero but one of an item that fits, runtimes past
    float32's range on items over the budget, and runtimes on a binary grid
    whose total is whole; the planted twin of each of the first three fails
    its call (judged as verify judges a third party). A blind corpus passed
    three such fast paths gated at 192 to 512 items: the breadth phase held
    none of these regions (docs/blind-corpus-20)."""
    for seed in range(3):
        past = [
            c
            for c in (getattr(call, "case", call) for call in breadth_cases(seed))
            if c.n == PAST_LARGEST_ITEMS
        ]
        calls = {region: [c for c in past if TIERED_REGIONS[region](c)] for region in LATER_REGIONS}
        assert all(calls.values()), (seed, {r: len(c) for r, c in calls.items()})
        assert any(
            len([w for w in weights(c) if w <= budget(c)]) >= 3
            for c in calls["few items fit alone"]
        ), seed
        for region, twin in LATER_REGION_TWINS.items():
            solver = getattr(corpus, twin)
            assert any(check_call(solver, c, Judge(exact=False)) for c in calls[region]), (
                seed,
                region,
            )


SESSION_30_TWINS = (
    "one_runtime_at_least_the_lightest_saved_from_256_items",
    "copies_keyed_by_millionths_of_the_largest_runtime_from_64_copies",
    "periodic_walk_stops_at_a_block_saving_nothing_from_384_items",
    "one_fitting_size_picks_indexed_among_the_fitting_from_128_items",
)
"""Planted twins of the four blind bugs of session 30 that passed, one per
pattern of ``search.COMPOSITE_PATTERNS``, in that order."""


def test_every_breadth_phase_holds_the_session_30_patterns_that_the_twins_fail() -> None:
    """SPEC 3.2, 3.3, 5.4: every breadth phase (seeds 0-1) holds the four
    patterns of ``search.COMPOSITE_PATTERNS`` at 1,057 and 2,114 items (every
    runtime equal and nothing fits; many exact copies beside one runtime that
    dwarfs the rest; exact repeats of a block whose top blocks save nothing;
    one fitting size among heavier items), from the stream the breadth phase
    draws them from. Each planted twin of a blind bug on a pattern fails a
    call of its pattern (judged as verify judges a third party), and our
    optimized solver answers every call exactly. The blind bugs passed
    default ``verify`` before these calls (docs/blind-corpus-25, -26)."""
    for seed in range(2):
        rng = random.Random(f"{seed}: session 30 patterns at large sizes")
        by_pattern = [[build(rng, n) for build in COMPOSITE_PATTERNS] for n in COMPOSITE_SIZES]
        listed = {
            (c.memory, c.runtime, c.max_memory)
            for c in (getattr(call, "case", call) for call in breadth_cases(seed))
        }
        for twin, calls in zip(SESSION_30_TWINS, zip(*by_pattern, strict=True), strict=True):
            assert all((c.memory, c.runtime, c.max_memory) in listed for c in calls), seed
            solver = getattr(corpus, twin)
            assert any(check_call(solver, c, Judge(exact=False)) for c in calls), (seed, twin)
            for case in calls:
                assert _ours_findings(case) == ()


SESSION_31_TWINS = (
    ("budget_rounded_half_down_from_512_items", "half-way-up budget"),
    ("saved_slots_counted_by_value_over_the_cheapest_runtime_from_512_items", "one decimal"),
    ("gigabyte_sizes_quantized_whole_part_apart_from_96_items", "gigabytes"),
    ("sizes_grouped_by_their_low_12_bits_from_256_items", "sizes a power apart"),
    ("heavy_items_one_per_band_of_a_32nd_above_2e6_cells", "close heavy pair"),
    ("layer_picks_mapped_by_position_from_256_items", "permuted blocks"),
)
"""A planted twin of each of the seven blind bugs of session 31 that passed
(the first covers two), and the calls it must fail."""


GROUPING_NAMES = ("sizes a power apart", "close heavy pair", "permuted blocks")
"""Names of ``search.GROUPING_PATTERNS``, in order."""


def test_every_breadth_phase_holds_the_session_31_patterns_early() -> None:
    """SPEC 2.1, 3.2, 3.3, 7.2: every breadth phase (seeds 0-3) holds, before
    its 250th call, a budget written half a unit below an even ``Q`` and every
    item worth one decimal runtime at 1,057 and 2,114 items
    (``search.EARLIER_PATTERNS``), items of a gigabyte written on half units
    at 128 and 256 items (``search.GIGABYTE_SIZES``), and the three patterns
    of ``search.GROUPING_PATTERNS`` (two sizes equal in their low bits, two
    close items over half the budget, blocks in orders of their own), from
    the stream the breadth phase draws them from. Each planted twin fails one of its calls
    at every seed, as verify judges a third party; our optimized solver
    answers every call exactly. Before them the first two patterns came past
    the 300th call only, and the others nowhere (docs/blind-corpus-27, -28)."""
    for seed in range(4):
        rng = random.Random(f"{seed}: session 31 patterns")
        earlier = [build(rng, n) for n in COMPOSITE_SIZES for build in EARLIER_PATTERNS]
        calls = {
            "half-way-up budget": earlier[0::2],
            "one decimal": earlier[1::2],
            "gigabytes": [gigabyte_half_way_case(rng, n) for n in GIGABYTE_SIZES],
        }
        for (build, sizes), pattern in zip(GROUPING_PATTERNS, GROUPING_NAMES, strict=True):
            calls[pattern] = [build(rng, n) for n in sizes]
        listed = {
            (c.memory, c.runtime, c.max_memory)
            for c in (getattr(call, "case", call) for call in breadth_cases(seed)[:250])
        }
        for twin, pattern in SESSION_31_TWINS:
            assert all((c.memory, c.runtime, c.max_memory) in listed for c in calls[pattern])
            solver = getattr(corpus, twin)
            judged = [check_call(solver, c, Judge(exact=False)) for c in calls[pattern]]
            assert any(judged), (seed, twin)
        for case in [case for pattern in calls.values() for case in pattern]:
            assert _ours_findings(case) == ()


SESSION_32_TWINS = (
    "light_items_totalled_past_a_float_sum_from_24_heavy_items",
    "equal_sizes_made_one_object_in_the_callers_list_from_600_items",
)
"""A planted twin of each of the two blind bugs of session 32 that passed
after the breadth phase's reach grew, in the order of ``search.SESSION_32_PATTERNS``."""


def test_every_breadth_phase_holds_the_session_32_patterns_early() -> None:
    """SPEC 3.2, 8.2: every breadth phase (seeds 0-3) holds, before its 250th
    call, a "never save" sentinel of 1e14 GB or more listed first beside 32
    to 48 heavy items (at 256 and 1,057 items), and repeats of a layer whose
    later copies write equal sizes as another type (at 640 and 1,057 items),
    from the stream the breadth phase draws them from
    (``search.SESSION_32_PATTERNS``). Each planted twin fails one of its
    calls at every seed, as verify judges a third party; our optimized solver
    answers every call exactly. Before them, blind bugs on each passed
    default ``verify`` (docs/blind-corpus-29)."""
    for seed in range(4):
        rng = random.Random(f"{seed}: session 32 patterns")
        calls = [[build(rng, n) for n in sizes] for build, sizes in SESSION_32_PATTERNS]
        listed = {
            (c.memory, c.runtime, c.max_memory)
            for c in (getattr(call, "case", call) for call in breadth_cases(seed)[:250])
        }
        for twin, pattern in zip(SESSION_32_TWINS, calls, strict=True):
            assert all((c.memory, c.runtime, c.max_memory) in listed for c in pattern), seed
            solver = getattr(corpus, twin)
            assert any(check_call(solver, c, Judge(exact=False)) for c in pattern), (seed, twin)
            for case in pattern:
                assert _ours_findings(case) == ()


SESSION_29_TWINS = {
    "layers measured apart": ("heavy_weight_ties_keep_the_last_listed_from_256_items", 256, 0),
    "one size under whole shares": (
        "greedy_certificate_keyed_inf_times_runtime_from_2048_items",
        2048,
        0,
    ),
    "one runtime, every item fits": (
        "one_runtime_lightest_first_split_by_slices_above_8e6_cells",
        0,
        8_000_000,
    ),
}
"""Each session 29 region, the planted twin of a blind bug on it, and the
twin's gate (items, table cells)."""


def test_every_breadth_phase_holds_the_session_29_regions_past_the_twins_gates() -> None:
    """SPEC 3.3, 7.2(b): every breadth phase holds calls of the three session
    29 regions past the gate of a planted twin of a blind bug on each (from
    256 items: one item kept per weight among those over half the budget;
    from 2,048: a greedy certificate sorted on NaN keys; above 8e6 cells:
    ``order[k - n:]`` when every item fits), and each twin fails one of them
    (judged as verify judges a third party). The blind bugs passed default
    ``verify`` before these regions (docs/blind-corpus-23, -24)."""
    for seed in range(3):
        cases = [getattr(call, "case", call) for call in breadth_cases(seed)]
        for region, (twin, items, cells) in SESSION_29_TWINS.items():
            calls = [
                c
                for c in cases
                if c.n >= items and c.n * (budget(c) + 1) > cells and TIERED_REGIONS[region](c)
            ]
            solver = getattr(corpus, twin)
            assert any(check_call(solver, c, Judge(exact=False)) for c in calls), (
                seed,
                region,
                len(calls),
            )


def test_a_spread_sign_no_draw_can_have_is_an_error_naming_it() -> None:
    """SPEC 7.2: the region that tests the no-crash clause on alike runtimes
    stops with a ValueError naming ``spread_sign`` when no draw can have the
    asked sign (one item's spread is exactly 0), instead of drawing forever;
    at 2,114 items it gives each sign."""
    with pytest.raises(ValueError, match="spread_sign=1"):
        equal_decimal_runtimes_case(random.Random(0), 1, 1)
    for sign in (-1, 1):
        case = equal_decimal_runtimes_case(random.Random(0), PAST_LARGEST_ITEMS, sign)
        assert (naive_spread(case.runtime) > 0) == (sign > 0)


SESSION_27_TWINS = (
    "tied_best_lone_fit_unpacked_from_320_items",
    "weightless_items_left_out_when_one_fits_at_a_time_above_5e6_cells",
)


def test_every_breadth_phase_holds_a_call_past_the_largest_real_call_where_one_fits_at_a_time() -> (
    None
):
    """SPEC 3.3, 7.2: every breadth phase holds, at 2,114 items and past 5e6
    cells, a call where no two items of some weight fit the budget together,
    two of them tie for the best runtime, and items of no weight pay; the
    planted twin of a blind bug (``.item()`` on the tied best, gated at 288
    items) and one that drops the weightless items each fail one of the
    calls of the region "one fits at a time". The breadth phase had no such
    call (docs/blind-corpus-22)."""
    for seed in range(3):
        calls = [getattr(call, "case", call) for call in breadth_cases(seed)]
        region = [c for c in calls if TIERED_REGIONS["one fits at a time"](c)]
        assert any(
            c.n == PAST_LARGEST_ITEMS
            and c.n * budget(c) > 5_000_000
            and any(w == 0 and r > 0 for w, r in zip(weights(c), c.runtime, strict=True))
            for c in region
        ), seed
        for twin in SESSION_27_TWINS:
            solver = getattr(corpus, twin)
            assert any(check_call(solver, c, Judge(exact=False)) for c in region), (seed, twin)


SESSION_26_TWINS = (
    "lone_fitting_item_answered_without_the_recomputed_from_448_items",
    "alike_runtimes_tested_by_their_textbook_spread_from_224_items",
    "every_paying_item_saved_under_a_wrapped_int64_total_above_5e6_cells",
)


def test_every_breadth_phase_holds_the_session_26_calls_past_the_largest_real_call() -> None:
    """SPEC 3.2, 7.2(a), 7.2: every breadth phase holds, at 2,114 items, a call
    where exactly one item fits the budget alone and one where exactly two
    do, one runtime for every item with the float64 spread
    ``E[r**2] - E[r]**2`` negative and one with it positive, and placeholder
    sizes each under ``2**63`` units whose total passes it, in a table past
    5e6 cells; the planted twin of each blind bug on them fails one of
    these calls. A blind corpus passed three such fast paths gated at 192
    to 4e6 cells: the breadth phase held none of these calls
    (docs/blind-corpus-21)."""
    for seed in range(3):
        past = [
            c
            for c in (getattr(call, "case", call) for call in breadth_cases(seed))
            if c.n == PAST_LARGEST_ITEMS
        ]
        fitting = {c: sum(w <= budget(c) for w in weights(c)) for c in past}
        assert {1, 2} <= set(fitting.values()), seed
        alike = [c for c in past if TIERED_REGIONS["every runtime one decimal"](c)]
        assert {naive_spread(c.runtime) < 0 for c in alike} == {True, False}, seed
        wrapped = [
            c
            for c in past
            if sum(weights(c)) >= 2**63 > max(weights(c)) and c.n * budget(c) > 5_000_000
        ]
        calls = [[c for c in past if fitting[c] == 1], alike, wrapped]
        for twin, its_calls in zip(SESSION_26_TWINS, calls, strict=True):
            solver = getattr(corpus, twin)
            assert any(check_call(solver, c, Judge(exact=False)) for c in its_calls), (seed, twin)
