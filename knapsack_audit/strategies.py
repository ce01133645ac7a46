"""Hypothesis strategies that reach the regions where knapsack bugs live.

:func:`cases` mixes regimes (see :data:`REGIONS` and tests/test_discovery.py,
which shows each region is actually generated):

* weights: exact units (``k * 1e-4``, so ``q = k``), quantization half-way
  points (``m * 1e4 == j + 0.5`` exactly in float64) and near-halves
  (``0.00015``: ``1.4999999999999998``), zero weights, duplicated items;
* runtimes: small values where float32 ties and absorption happen
  (``{0, 0.5, 1, 2, 3, 1e8}``), flop counts up to ``1e12``, milliseconds,
  all-ones (the ``testing`` estimator), and, in the extended domain
  (SPEC 4.4), negative runtimes;
* budgets: zero, below every weight, exact units, at or above the total,
  partitioner fractions in ``[0, 1]``, large (``Q >= 65536``), and at a
  subset's feasibility boundary (its weight -1, 0 or +1 unit), where a budget
  quantized one unit too high (``math.ceil``: ``51 / 1e4 * 1e4`` is
  ``51.00000000000001``) or a coarsened weight shows;
* sizes: tiny (where shrinking lands), larger ``n >= 64``, and
  partitioner-like normalized instances.

Distinct items are the common case (issue #10): most tiny cases draw every
item's weight and runtime independently, so ratios differ and a heuristic
(greedy, a split chosen from one half) is wrong on them; a minority draws
from pools of one to three values (ties, duplicates). Budgets cut through the
middle of the item set, not only 0 and the total. Sizes sit around every
threshold a fast path might use (:data:`THRESHOLD_SIZES`, budgets around
:data:`THRESHOLD_BUDGETS`), and the partitioner's real sizes are in every
round of ``verify`` (:func:`scale_cases`, a tier of its own in
:func:`knapsack_audit.search.audit`): its calls (hundreds of items from
repeated blocks, :func:`repeated_block_cases`) and hundreds to a thousand
distinct items around :data:`SCALE_SIZES` (:func:`distinct_scale_cases`).
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from knapsack_audit.cases import Case

SCALE = 10000
SMALL_RUNTIMES = (0.0, 0.5, 1.0, 2.0, 3.0, 1e8)
FLOPS_MAX = 10**12
LARGE_BUDGET_UNITS = 65536
THRESHOLD_SIZES = (15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 127, 128, 129)
"""Item counts around powers of two and round numbers a fast path might test
(larger ones, :data:`SCALE_SIZES`, are in the partitioner-scale tier)."""
THRESHOLD_BUDGETS = (2**15, 2**16, 10**4)
"""Budgets (units) a fast path might switch on: around these, +-2."""


def unit_memory(units: int) -> float:
    """A memory that quantizes to exactly ``units`` (``round(units * 1e-4 * 1e4)``)."""
    return units / SCALE


@st.composite
def half_way_memory(draw: st.DrawFn) -> float:
    """A memory ``m`` with ``m * 1e4`` exactly ``j + 0.5``, or just beside it."""
    j = draw(st.integers(0, 40))
    m = (j + 0.5) / SCALE
    if m * SCALE != j + 0.5:
        m = 1.5 / SCALE
    return draw(st.sampled_from([m, 0.00015, 5e-5, m * (1 + 2**-52), m * (1 - 2**-52)]))


def memories(max_units: int) -> st.SearchStrategy[float]:
    """One item's memory: mostly exact units, sometimes half-way or zero."""
    units = st.integers(1, max_units).map(unit_memory)
    return st.one_of(
        units,
        units,
        units,
        half_way_memory(),
        st.just(0.0),
        st.floats(0, max_units / SCALE, allow_nan=False, allow_infinity=False),
    )


def runtimes(domain: str) -> st.SearchStrategy[float]:
    """One item's runtime (SPEC 4.4: negatives only in the extended domain)."""
    options = [
        st.sampled_from(SMALL_RUNTIMES),
        st.integers(1, FLOPS_MAX).map(float),
        st.floats(0.001, 100.0, allow_nan=False, allow_infinity=False),
    ]
    if domain == "extended":
        options.append(st.sampled_from((-1.0, -0.5, -1e8)))
        options.append(st.floats(-100.0, 100.0, allow_nan=False, allow_infinity=False))
    return st.one_of(*options)


@st.composite
def subset_boundary(draw: st.DrawFn, weights: list[int]) -> int:
    """A budget at the feasibility boundary of a subset of two or more items: its
    weight minus one unit, exactly, or plus one. Where weights are large, a
    uniform budget almost never lands there, and a solver that rounds or
    coarsens weights (say, halves them above some Q) errs only there."""
    chosen = draw(
        st.lists(
            st.sampled_from(range(len(weights))), min_size=2, max_size=len(weights), unique=True
        )
    )
    return max(sum(weights[i] for i in chosen) + draw(st.sampled_from((-1, 0, 1))), 0)


@st.composite
def budgets(draw: st.DrawFn, weights: list[int]) -> float:
    """A budget chosen relative to the quantized weights."""
    total = sum(weights)
    lightest = min(weights, default=0)
    options = [
        st.just(0),
        st.integers(0, max(lightest - 1, 0)),
        st.integers(0, total + 2),
        st.integers(total, total + 3),
        st.integers(max(total // 2 - 1, 0), total // 2 + 1),
        st.integers(lightest, max(total - 1, lightest)),
    ]
    if len(weights) >= 2:
        options.append(subset_boundary(weights))
    return unit_memory(draw(st.one_of(options)))


def distinct_runtimes(domain: str) -> st.SearchStrategy[float]:
    """Small whole runtimes with different ratios (mostly), or any runtime."""
    return st.one_of(st.integers(1, 9).map(float), st.integers(1, 9).map(float), runtimes(domain))


@st.composite
def small_cases(draw: st.DrawFn, domain: str = "partitioner", max_items: int = 8) -> Case:
    """Tiny instances, where shrinking lands: mostly independent items (distinct
    ratios), sometimes drawn from pools of one to three values (ties, duplicates)."""
    n = draw(st.integers(0, max_items))
    if draw(st.integers(0, 3)) < 3:
        memory = draw(st.lists(memories(6), min_size=n, max_size=n))
        runtime = draw(st.lists(distinct_runtimes(domain), min_size=n, max_size=n))
    else:
        pool_m = draw(st.lists(memories(4), min_size=1, max_size=3))
        pool_r = draw(st.lists(runtimes(domain), min_size=1, max_size=3))
        memory = draw(st.lists(st.sampled_from(pool_m), min_size=n, max_size=n))
        runtime = draw(st.lists(st.sampled_from(pool_r), min_size=n, max_size=n))
    weights = [round(m * SCALE) for m in memory]
    return Case(tuple(memory), tuple(runtime), draw(budgets(weights)))


@st.composite
def varied_cases(draw: st.DrawFn, domain: str = "partitioner", max_items: int = 12) -> Case:
    """Independent items: any mixture of the weight and runtime regimes."""
    n = draw(st.integers(0, max_items))
    memory = draw(st.lists(memories(30), min_size=n, max_size=n))
    runtime = draw(st.lists(runtimes(domain), min_size=n, max_size=n))
    weights = [round(m * SCALE) for m in memory]
    return Case(tuple(memory), tuple(runtime), draw(budgets(weights)))


@st.composite
def partitioner_cases(draw: st.DrawFn, min_items: int = 1, max_items: int = 40) -> Case:
    """Like the partitioner's calls: memories normalized to sum to about 1,
    flop-count runtimes, and a budget fraction in [0, 1]."""
    n = draw(st.integers(min_items, max_items))
    sizes = draw(st.lists(st.integers(1, 2**20), min_size=n, max_size=n))
    total = sum(sizes)
    memory = tuple(s / total for s in sizes)
    estimator = draw(st.sampled_from(("flops", "testing")))
    if estimator == "flops":
        runtime = tuple(
            float(r) for r in draw(st.lists(st.integers(1, FLOPS_MAX), min_size=n, max_size=n))
        )
    else:
        runtime = (1.0,) * n
    budget = draw(st.sampled_from((0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9)) | st.floats(0, 1))
    return Case(memory, runtime, budget)


@st.composite
def many_item_cases(draw: st.DrawFn, domain: str = "partitioner") -> Case:
    """``n >= 64`` items with small weights (bounded table size)."""
    n = draw(st.integers(64, 96))
    memory = draw(st.lists(st.integers(0, 12).map(unit_memory), min_size=n, max_size=n))
    runtime = draw(st.lists(runtimes(domain), min_size=n, max_size=n))
    units = draw(st.integers(0, sum(round(m * SCALE) for m in memory)))
    return Case(tuple(memory), tuple(runtime), unit_memory(min(units, 160)))


@st.composite
def large_budget_cases(draw: st.DrawFn, domain: str = "partitioner") -> Case:
    """``Q >= 65536`` with a few items heavy enough to need the whole budget;
    half the time the budget sits on a subset's boundary (:func:`subset_boundary`).

    ``Q`` and the weights are uniform (a :class:`random.Random` seeded from one
    drawn integer, as in :func:`threshold_cases`): Hypothesis' integers
    favour the low end of a range, so weights of 65536 units and more (where a
    16-bit weight wraps around) came up in one case of seven.
    """
    n = draw(st.integers(1, 4))
    rng = random.Random(draw(st.integers(0, 2**64 - 1), label="weight seed"))
    q = rng.randint(LARGE_BUDGET_UNITS, 4 * LARGE_BUDGET_UNITS)
    weights = [rng.randint(0, q) for _ in range(n)]
    if n >= 2 and draw(st.booleans()):
        q = max(draw(subset_boundary(weights)), LARGE_BUDGET_UNITS)
    runtime = draw(st.lists(runtimes(domain), min_size=n, max_size=n))
    return Case(tuple(unit_memory(w) for w in weights), tuple(runtime), unit_memory(q))


@st.composite
def threshold_cases(draw: st.DrawFn, domain: str = "partitioner") -> Case:
    """Sizes around :data:`THRESHOLD_SIZES`, a budget through the middle; or a few
    items with a budget around :data:`THRESHOLD_BUDGETS`.

    Everything is drawn by a :class:`random.Random` seeded from one drawn
    integer, uniformly and independently: Hypothesis' own list generation favours repeated simple
    values, on which a heuristic is often optimal (greedy on 49 such items was
    never wrong in 193 draws, on uniform ones in 40 %). Shrinking then falls
    to :func:`knapsack_audit.search.minimize`, which drops items.
    """
    rng = random.Random(draw(st.integers(0, 2**64 - 1), label="item seed"))
    scale = 1 if domain == "partitioner" else rng.choice((1, -1))
    if rng.random() < 0.75:
        n = rng.choice(THRESHOLD_SIZES)
        weights = [rng.randint(1, 9) for _ in range(n)]
        runtime = tuple(float(rng.randint(1, 9) * scale) for _ in range(n))
        total = sum(weights)
        units = rng.randint(total // 4, 3 * total // 4)
        return Case(tuple(unit_memory(w) for w in weights), runtime, unit_memory(units))
    q = rng.choice(THRESHOLD_BUDGETS) + rng.randint(-2, 2)
    n = rng.randint(2, 6)
    weights = [rng.randint(q // 4, q) for _ in range(n)]
    if rng.random() < 0.5:
        # Two items on the budget's boundary: together q - 1, q or q + 1 units.
        weights[1] = max(q + rng.randint(-1, 1) - weights[0], 0)
    runtime = tuple(float(rng.randint(1, 10**6)) for _ in range(n))
    return Case(tuple(unit_memory(w) for w in weights), runtime, unit_memory(q))


@st.composite
def repeated_block_cases(draw: st.DrawFn, min_items: int = 100, max_items: int = 600) -> Case:
    """The partitioner's real calls: a model's repeated blocks give hundreds of
    items of a few units from a handful of distinct (memory, runtime) pairs,
    memories normalized to sum to 1, a budget fraction in [0.05, 0.9]."""
    block = draw(
        st.lists(
            st.tuples(st.integers(1, 2**12), st.integers(1, FLOPS_MAX)), min_size=1, max_size=6
        )
    )
    blocks = draw(st.integers(-(-min_items // len(block)), max_items // len(block)))
    items = block * blocks
    total = sum(size for size, _ in items)
    memory = tuple(size / total for size, _ in items)
    runtime = tuple(float(flops) for _, flops in items)
    budget = draw(st.sampled_from((0.05, 0.1, 0.2, 0.3, 0.5, 0.9)) | st.floats(0.05, 0.9))
    return Case(memory, runtime, budget)


SCALE_SIZES = (255, 256, 257, 511, 512, 513, 1023, 1024, 1025)
"""Partitioner-scale item counts a fast path might switch on."""


@st.composite
def distinct_scale_cases(draw: st.DrawFn) -> Case:
    """Hundreds to a thousand independent items (often :data:`SCALE_SIZES`) of
    1 to 9 units, a budget through the middle: where a fast path for large
    calls errs. Half the time the runtimes are independent (1 to 9), half the
    time strongly correlated, ``w_i + k`` for one ``k`` in 1..9 (Pisinger's
    family that is hard for greedy: it prefers light items and leaves a gap
    the optimum fills). On repeated blocks a greedy fast path is within
    tolerance of the optimum; on independent runtimes it misses by more in
    about 1 of 30 draws above 256 items, on correlated ones in about 4 of 5.
    Drawn by a seeded :class:`random.Random`, as :func:`threshold_cases`."""
    rng = random.Random(draw(st.integers(0, 2**64 - 1), label="item seed"))
    n = rng.choice(SCALE_SIZES) if rng.random() < 0.5 else rng.randint(200, 1100)
    weights = [rng.randint(1, 9) for _ in range(n)]
    if rng.random() < 0.5:
        offset = rng.randint(1, 9)
        runtime = tuple(float(w + offset) for w in weights)
    else:
        runtime = tuple(float(rng.randint(1, 9)) for _ in range(n))
    total = sum(weights)
    units = rng.randint(total // 4, 3 * total // 4)
    return Case(tuple(unit_memory(w) for w in weights), runtime, unit_memory(units))


def scale_cases() -> st.SearchStrategy[Case]:
    """The partitioner-scale tier of ``verify``: repeated blocks (the real calls)
    or distinct items at sizes a fast path might switch on."""
    return st.one_of(repeated_block_cases(), distinct_scale_cases())


def cases(domain: str = "partitioner", large: bool = True) -> st.SearchStrategy[Case]:
    """Every regime above but the partitioner's real sizes (a separate tier of
    the search, being slow for a pure-Python solver); ``large=False`` also leaves
    out ``n >= 64``, ``Q >= 65536`` and the threshold sizes."""
    regimes = [
        small_cases(domain),
        varied_cases(domain),
        partitioner_cases(),
    ]
    if large:
        regimes += [
            many_item_cases(domain),
            large_budget_cases(domain),
            threshold_cases(domain),
        ]
    return st.one_of(*regimes)
