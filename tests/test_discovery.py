"""The strategies reach the regions where knapsack bugs live (issue #3, item 2).

In the style of Hypothesis' own tests/quality/test_discovery_ability.py: for
each region, ``find`` must produce an example of it from the strategy the
suite actually uses. A region the strategy never reaches would make every
property silently weaker.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from knapsack_audit.cases import Case
from knapsack_audit.reference import quantize
from knapsack_audit.strategies import LARGE_BUDGET_UNITS, cases

SEARCH = settings(
    max_examples=1000, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def weights(case: Case) -> list[int]:
    return [quantize(float(m)) for m in case.memory]


def budget(case: Case) -> int:
    return quantize(float(case.max_memory))


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
