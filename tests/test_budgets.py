"""Every budget in one pass (optimized/budgets.py): the frontier equals
per-budget solves.

Judged against the brute force of :mod:`knapsack_audit.exhaustive` (exact
integers, no DP) on the small scope, against the solver called per budget
and the oracle optimum recorded in each golden fixture, and, without a
decision table, against the integer oracle's optimum at every budget.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from grouping_forced import copies_violation

from knapsack_audit.exhaustive import best_masks, exact_scale, subset_table
from knapsack_audit.golden import fixtures
from knapsack_audit.integer_oracle import canonical_table, optimum_row
from knapsack_audit.optimized import (
    dp_knapsack_sliding_hirschberg,
    runtime_memory_frontier,
    selection_at,
)
from knapsack_audit.optimized.config import configured
from knapsack_audit.optimized.evaluator import knee_budgets
from knapsack_audit.reference import dp_knapsack, quantize

Configure = Callable[..., object]


def exact_sum(runtime: list[float], saved: list[int]) -> Fraction:
    return sum((Fraction(runtime[i]) for i in saved), Fraction(0))


SCOPE_RUNTIMES = (0.0, 0.5, 1.0, 1e8, -1.0)
SCOPE_BUDGET = 7


TABLE_MODES = {
    "bytes": {},
    "packed": {"byte_table_max_bytes": 0},
    "no table": {"table_max_bytes": 0},
}
"""The three ways :mod:`optimized.budgets` answers: one byte per decision,
packed decision words, and the solver per budget (proofs/11)."""


@pytest.mark.parametrize("mode", TABLE_MODES)
def test_small_scope_frontier_equals_per_budget_solves(mode: str, configure: Configure) -> None:
    """SPEC 3.2, 3.3, 7.1: for every instance with n <= 3, weights 0..3 and
    runtimes {0, 0.5, 1, 1e8, -1} (8,421 instances), the frontier built at
    Q = 7 holds the brute-force optimum at every budget 0..7, its breakpoints
    are exactly where the optimum grows, and selection_at returns the
    reference's canonical answer (SPEC 6.1) at every budget with either
    decision table, or, without one, the solver's own answer. Weights
    {2}, {2, 2}, {3} ... exercise the weights' common factor (proofs/11)."""
    configure(**TABLE_MODES[mode])
    scale = exact_scale(SCOPE_RUNTIMES)
    kinds = list(itertools.product(range(4), SCOPE_RUNTIMES))
    checked = 0
    for n in range(4):
        for chosen in itertools.product(kinds, repeat=n):
            weights = [w for w, _ in chosen]
            runtime = [r for _, r in chosen]
            memory = [w / 10000 for w in weights]
            subsets = subset_table(weights, [int(Fraction(r) * scale) for r in runtime])
            optima = [
                Fraction(best_masks(subsets, c, n)[0], scale) for c in range(SCOPE_BUDGET + 1)
            ]
            frontier = runtime_memory_frontier(memory, runtime, SCOPE_BUDGET / 10000)
            assert frontier.capacity == SCOPE_BUDGET
            assert [frontier.optimum(c) for c in range(SCOPE_BUDGET + 1)] == optima
            growth = [c for c in range(SCOPE_BUDGET + 1) if c == 0 or optima[c] > optima[c - 1]]
            assert list(frontier.budgets) == growth
            solve = dp_knapsack if mode != "no table" else dp_knapsack_sliding_hirschberg
            for c in range(SCOPE_BUDGET + 1):
                expected = solve(memory, runtime, c / 10000)
                assert selection_at(frontier, c / 10000) == expected, (memory, runtime, c)
            checked += 1
    assert checked == sum(20**k for k in range(4))


@pytest.mark.parametrize(
    "fixture", [f for f in fixtures.load() if f.case.n >= 100], ids=lambda f: f.name
)
def test_tables_backtrack_the_canonical_selection_at_the_knee_budgets(
    fixture: fixtures.Fixture,
) -> None:
    """SPEC 6.1: on every golden call of >= 100 items (repeated blocks; the
    weights' common factor is 6 in deep_narrow, 4 in llama_32, 1 elsewhere),
    the one-byte and the packed decision tables both give the reference's
    canonical selection at each of torch's 100 knee-search budgets."""
    memory, runtime, max_memory = fixture.case.arguments()
    budgets_searched = knee_budgets(max_memory)
    table = canonical_table(memory, runtime, max_memory)
    assert table is not None  # the golden values sum below 2**62
    expected = [table.select(quantize(b)) for b in budgets_searched]
    with_bytes = runtime_memory_frontier(memory, runtime, max_memory)
    with configured(byte_table_max_bytes=0):
        packed = runtime_memory_frontier(memory, runtime, max_memory)
    assert with_bytes._table is not None and packed._table is not None
    for budget, canonical in zip(budgets_searched, expected, strict=True):
        assert selection_at(with_bytes, budget)[1] == canonical, budget
        assert selection_at(packed, budget)[1] == canonical, budget


@pytest.mark.parametrize("fixture", fixtures.load(), ids=lambda f: f.name)
def test_golden_frontier_equals_per_budget_solves(fixture: fixtures.Fixture) -> None:
    """SPEC 3.3, 7.1: on every golden call, the frontier's optimum at the call's
    budget is the oracle optimum recorded in the fixture, and at five budgets
    across 0..Q selection_at returns an optimal selection (SPEC 3.3: the exact
    value the solver's own answer has, and the frontier's optimum there),
    saving the lowest-indexed copies (SPEC 6.3)."""
    memory, runtime, max_memory = fixture.case.arguments()
    frontier = runtime_memory_frontier(memory, runtime, max_memory)
    assert frontier.capacity == fixture.quantized_budget
    assert frontier.optimum(frontier.capacity) == fixture.optimum
    for k in range(5):
        budget = k * max_memory / 4
        value, saved, recomputable = selection_at(frontier, budget)
        solver_saved = dp_knapsack_sliding_hirschberg(memory, runtime, budget)[1]
        exact = sum((Fraction(runtime[i]) for i in saved), Fraction(0))
        assert exact == frontier.optimum(quantize(budget)) == exact_sum(runtime, solver_saved)
        assert sum(quantize(memory[i]) for i in saved) <= quantize(budget)
        assert sorted(saved + recomputable) == list(range(len(memory)))
        assert value == float(exact) and copies_violation(memory, runtime, saved) is None


def test_selection_at_rejects_a_budget_beyond_the_frontier() -> None:
    """SPEC 1.5 and the frontier's range: errors name max_memory / the budget."""
    frontier = runtime_memory_frontier([1e-4, 2e-4], [1.0, 2.0], 2e-4)
    with pytest.raises(ValueError, match="above the frontier's 2"):
        selection_at(frontier, 3e-4)
    with pytest.raises(ValueError, match="max_memory must be >= 0"):
        selection_at(frontier, -1.0)
    with pytest.raises(ValueError, match=r"budget must be in 0\.\.2 units"):
        frontier.optimum(3)
    with pytest.raises(ValueError, match=r"budget must be in 0\.\.2 units, got -1"):
        frontier.optimum(-1)


def test_optima_are_the_brute_force_optimum_at_each_breakpoint() -> None:
    """SPEC 3.2: ``optima`` (built on first use, apart from ``optimum``) holds the
    exact optimum at each breakpoint, as a brute force over every subset finds
    it; runtimes of 2**-3 resolution make the integer scale matter."""
    memory, runtime = [1e-4, 2e-4, 2e-4, 3e-4], [0.125, 1.5, 3.0, 0.25]
    frontier = runtime_memory_frontier(memory, runtime, 6e-4)
    subsets = [
        (sum(quantize(memory[i]) for i in chosen), exact_sum(runtime, list(chosen)))
        for size in range(len(memory) + 1)
        for chosen in itertools.combinations(range(len(memory)), size)
    ]
    best = [max(value for weight, value in subsets if weight <= c) for c in range(7)]
    assert list(frontier.budgets) == [0, *(c for c in range(1, 7) if best[c] > best[c - 1])]
    assert list(frontier.optima) == [best[c] for c in frontier.budgets]


def test_frontier_validates_like_the_solver() -> None:
    """SPEC 1.4: the same checks and messages as the solver."""
    with pytest.raises(ValueError, match="same length"):
        runtime_memory_frontier([1e-4], [1.0, 2.0], 1.0)


def breakpoints_of_the_oracle(
    weights: list[int], runtime: list[float], capacity: int
) -> tuple[tuple[int, ...], tuple[Fraction, ...]]:
    """``(budgets, optima)`` where the exact optimum grows over ``0..capacity``
    (whole runtimes), from :func:`integer_oracle.optimum_row`, flat past the
    total weight."""
    row = optimum_row(list(zip(weights, [int(r) for r in runtime], strict=True)), capacity)
    growth = [0, *(int(c) for c in np.flatnonzero(np.diff(row)) + 1)]
    return tuple(growth), tuple(Fraction(int(row[c])) for c in growth)


def copies_past_their_largest_bundle(
    rng: random.Random, light_items: int, extra_weight: int
) -> tuple[list[int], list[float], int]:
    """``(weights, runtime, budget)``: ``light_items`` distinct light items
    (one of weight 1), then 7 copies of ``extra_weight`` more than all of them
    together, under a budget of 3 copies, the light items and less than
    ``extra_weight``: of the bundles of 1, 2 and 4 copies (proofs/10) the
    largest is heavier than the budget, so the fitting bundles weigh less
    than the budget although all the items weigh more. Whole runtimes: each
    weight plus 0 to 30, the same for the copies."""
    light = [1, *(rng.randint(1, 50) for _ in range(light_items - 1))]
    weight = sum(light) + extra_weight
    budget = sum(light) + 3 * weight + rng.randint(0, extra_weight - 1)
    copy_runtime = float(weight + rng.randint(0, 30))
    runtime = [*(float(w + rng.randint(0, 30)) for w in light), *[copy_runtime] * 7]
    return [*light, *[weight] * 7], runtime, budget


@pytest.mark.parametrize("seed", range(8))
def test_no_table_frontier_holds_the_budgets_its_bundles_leave_unfilled(
    seed: int, configure: Configure
) -> None:
    """SPEC 3.2, 3.3: without a decision table the frontier is the profile
    over bundles of copies, and where the fitting bundles weigh less than
    the budget its tail (every budget past them) still holds the optimum:
    the breakpoints and optima over ``0..Q`` equal the exact oracle's.
    Before, no test or audit case reached that tail: 8 mutants of
    ``backends.py`` that leave it unset or one column off (226-237, 263)
    survived (docs/mutation/optimized/offpath_frontier_backends_b.md)."""
    configure(table_max_bytes=0)
    rng = random.Random(seed)
    weights, runtime, capacity = copies_past_their_largest_bundle(
        rng, rng.randint(2, 40), rng.randint(2, 300)
    )
    frontier = runtime_memory_frontier([w / 10000 for w in weights], runtime, capacity / 10000)
    assert frontier._table is None and frontier.capacity == capacity
    assert (frontier.budgets, frontier.optima) == breakpoints_of_the_oracle(
        weights, runtime, capacity
    )


def test_frontier_past_the_packed_table_limit_holds_every_budget() -> None:
    """SPEC 3.2, 3.3: at the default limits a call of 64 items or more and
    more than ``2**22`` columns keeps no decision table (two 63-bit words
    per column pass 64 MiB), and its breakpoints and optima over ``0..Q``
    equal the exact oracle's, with copies whose largest bundle is left out
    (the no-table path at a real call's size)."""
    rng = random.Random("no table at scale")
    weights, runtime, capacity = copies_past_their_largest_bundle(rng, 64, 1_500_000)
    frontier = runtime_memory_frontier([w / 10000 for w in weights], runtime, capacity / 10000)
    assert frontier._table is None and frontier.capacity == capacity > 1 << 22
    assert (frontier.budgets, frontier.optima) == breakpoints_of_the_oracle(
        weights, runtime, capacity
    )
