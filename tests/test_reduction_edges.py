"""Calls at the edges of our solver's reductions (proofs/07, optimized/reductions.py),
each judged as every call is, by the property engine with the exact judge
(``test_optimized.assert_optimal``: SPEC 3.3, 5.1, 7.1).

They come from a one-by-one reading of the 102 survivors of ``mutate`` on the
whole of ``reductions.py`` (docs/mutation/README.md, section "Whole modules:
``reductions.py``"), which the probe's 3,000 random calls had counted
equivalent: 25 of them change answers, on calls no value region drew. Each
call below is one where such a mutant answers over budget, below the
optimum or with an exception, while the unmutated solver is exact. The
expected answers are the oracle's, not the solver's.
"""

from __future__ import annotations

import random

import pytest
from test_optimized import assert_optimal

from knapsack_audit.strategies import unit_memory

Call = tuple[list[float], list[float], float]


def _units(weights: list[int]) -> list[float]:
    return [unit_memory(w) for w in weights]


def _types(kinds: list[tuple[int, float, int]], budget_units: int) -> Call:
    """Copies of item types ``(units, runtime, copies)``, in that order."""
    memory: list[float] = []
    runtime: list[float] = []
    for units, value, copies in kinds:
        memory += [unit_memory(units)] * copies
        runtime += [value] * copies
    return memory, runtime, unit_memory(budget_units)


EARLY_CRITICAL: dict[str, Call] = {
    # A tiny, very efficient item, then 15 items of runtime 2 per unit: the
    # critical item is the third of the order, inside the window's half-width.
    "critical third": (
        _units([1, 98, 100, 102, *range(104, 128, 2)]),
        [3.0] + [2.0 * w for w in [98, 100, 102, *range(104, 128, 2)]],
        0.03,
    ),
    # One item fits beside the tiny one: the critical item is the second.
    "critical second": (
        [0.0001] + [0.03] * 15,
        [500.0] + [float(v) for v in range(885, 900)],
        0.03,
    ),
}


@pytest.mark.parametrize("name", EARLY_CRITICAL)
def test_a_window_around_an_early_critical_item(name: str) -> None:
    """SPEC 3.3 (proofs/07 R6, the core problem's window): when the critical
    item is among the first ``half_width`` of the efficiency order, the
    window starts at the first item and the greedy prefix before it is
    empty. A prefix that reaches into the window or past the critical item
    (mutants 151, 153, 155, 157, 158 of ``reductions.py``) made an
    incumbent over the budget, which the bound then returned; fixing an item
    whose reduced cost equals the slack (mutant 142) lost the optimum."""
    assert_optimal(*EARLY_CRITICAL[name])


TIED_EFFICIENCIES: dict[str, Call] = {
    "two types, keys equal in float": _types(
        [(6, 6.828469482228027, 4), (2, 2.2761564940760093, 4)], 6
    ),
    "three types, second pair tied": _types(
        [(5, 47.05906617228718, 5), (4, 37.64725293782975, 6), (56, 53.64327482007149, 1)], 25
    ),
    "three types, 21-17-38 units": _types(
        [(21, 27.291007162521534, 5), (17, 22.092720083946006, 4), (38, 49.383727246467544, 3)],
        110,
    ),
    "three types, 51-30-13 units": _types(
        [(51, 17.9639885838682, 4), (30, 10.567052108157766, 4), (13, 4.579055913535032, 3)], 181
    ),
    "three types, 1-24-7 units": _types(
        [(1, 79.4715608683777, 4), (24, 1907.3174608410648, 4), (7, 556.3009260786439, 3)], 97
    ),
    "three types, 31-19-48 units": _types(
        [(31, 98.42937697058741, 6), (19, 60.32768265939229, 6), (48, 17.368500211490055, 3)], 209
    ),
    "three types, 38-13-26 units": _types(
        [(38, 21.36667589912693, 4), (13, 7.309652281280266, 3), (26, 35.99110963490132, 2)], 219
    ),
    "three types, 15-6-20 units": _types(
        [(15, 93.33138936313742, 6), (6, 37.33255574525497, 3), (20, 71.72294545399753, 3)], 165
    ),
    "two types, 15-10 units": _types([(15, 24.56114007084567, 5), (10, 16.37409338056378, 5)], 70),
    "two types, 2-5 units": _types([(2, 67.51581723612831, 5), (5, 168.7895430903208, 3)], 15),
    "three types, 51-25-43 units": _types(
        [(51, 74.53827902975765, 5), (25, 36.53837207341061, 6), (43, 63.27477802924467, 2)], 102
    ),
    "two types, 3-1 units": _types([(3, 60.63307810941669, 4), (1, 20.21102603647223, 4)], 12),
    "three types, 58-21-9 units": _types(
        [(58, 29.579158465071185, 5), (21, 10.709695306318878, 4), (9, 60.72347058697174, 1)], 272
    ),
    "two types, 10-50 units": _types(
        [(10, 49.499835225634214, 5), (50, 247.4991761281711, 4)], 184
    ),
}


@pytest.mark.parametrize("name", TIED_EFFICIENCIES)
def test_item_types_whose_efficiencies_tie_in_float(name: str) -> None:
    """SPEC 3.3, 6.3 (proofs/12, the bounded path's search): copies of item
    types whose exact ``v / w`` differ but whose float keys are equal (or
    whose cross products differ by 1). ``efficiency_order`` repairs the float
    order by exact comparison; a repair loop that stops early, swaps the
    wrong neighbour or drops a type (mutants 42, 46, 47, 50, 51, 57-60, 73,
    76, 79, 81, 82) gave answers one float step short, far below, over the
    budget, or an IndexError."""
    assert_optimal(*TIED_EFFICIENCIES[name])


@pytest.mark.parametrize(
    "runtime",
    [[1e300, -1.0, 1e-300], [-1e300, 1e-300, 2.5e-300]],
    ids=["1e300 beside a negative runtime", "-1e300 beside tiny ones"],
)
def test_runtimes_near_the_float_range(runtime: list[float]) -> None:
    """SPEC 2.2, 4.4 (extended domain): runtimes near the float range become
    integers of about 2000 bits; the efficiency keys shift them down by their
    own largest value. Reading a neighbour's value instead (mutants 32, 40)
    overflowed the float conversion."""
    assert_optimal([0.0001] * 3, runtime, 0.0001)


def test_a_large_core_with_every_window_round() -> None:
    """SPEC 3.3 (proofs/07 R6): 400 distinct items of 100-999 units,
    strongly correlated runtimes (``w + 100``), half the total as budget:
    bound fixing runs its window rounds down to the widest width. Reading the
    next width while only one is left (mutants 218, 222) raised IndexError."""
    rng = random.Random(1)
    weights = rng.sample(range(100, 1000), 400)
    call = (_units(weights), [float(w + 100) for w in weights], sum(weights) // 2 / 10000)
    assert_optimal(*call)


def test_a_core_whose_values_pass_2_to_the_31() -> None:
    """SPEC 3.3: 40 items of runtime near ``7e6`` per unit (the core's total is
    past 2**31) interleaved with items of negative runtime, which the basic
    reductions drop. The core's value total picks the table's integer type;
    summing the neighbours' values instead (mutant 228) chose int32, and
    torch refused the conversion."""
    rng = random.Random(3)
    heavy = rng.sample(range(100, 200), 40)
    k = 7_000_003
    weights: list[int] = []
    runtime: list[float] = []
    for j, w in enumerate(heavy):
        weights += [w, 1]
        runtime += [float(k * w + 10 * k + j), float(-1 - j)]
    assert_optimal(_units(weights), runtime, sum(heavy) // 2 / 10000)
