"""SPEC 3, 4, 6, 7, 8 for the reference solver, including the exhaustive small scope."""

from __future__ import annotations

import doctest
import json
import os
import subprocess
import sys
import time
from fractions import Fraction

import pytest

import knapsack_audit.reference.oracle
import knapsack_audit.reference.table
import knapsack_audit.reference.validation
from knapsack_audit.exhaustive import DEFAULT_RUNTIMES, verify_small_scope
from knapsack_audit.reference import dp_knapsack, exact_optimum


def test_pytorch_issue_197871_minimal_case():
    """SPEC 3.2, 3.3: three 1-unit items, a 1-unit budget: one item, value 1.0."""
    value, saved, recomputable = dp_knapsack([1e-4] * 3, [1.0] * 3, 1e-4)
    assert value == 1.0
    assert len(saved) == 1
    assert sorted(saved + recomputable) == [0, 1, 2]


def test_exhaustive_small_scope():
    """SPEC 3.3, 6.1, 7.1 on every instance: n <= 4, weights 0..3, budget 0..7,
    runtimes from {0, 0.5, 1, 2, 3, 1e8, -1} (negative runtimes: SPEC 1.7).

    The brute force in knapsack_audit.exhaustive enumerates subsets (no DP);
    each answer must be a feasible partition whose exact value is the optimum,
    whose returned value is float(exact sum), and which is the canonical
    selection. Instances: 8 * sum(28**k, k = 0..4) = 5,099,368.
    """
    started = time.perf_counter()
    summary = verify_small_scope(
        "knapsack_audit.reference:dp_knapsack",
        max_items=4,
        weights=range(4),
        budgets=range(8),
        runtimes=DEFAULT_RUNTIMES,
        canonical=True,
    )
    elapsed = time.perf_counter() - started
    print(f"exhaustive small scope: {summary.instances} instances in {elapsed:.1f} s")
    assert summary.instances == 8 * sum(28**k for k in range(5))
    assert summary.failures == []
    assert summary.failure_count == 0


def test_exhaustive_check_detects_a_planted_bug():
    """The exhaustive checker itself can fail: upstream hirschberg goes over budget."""
    summary = verify_small_scope(
        "torch._functorch._activation_checkpointing.knapsack:dp_knapsack_sliding_hirschberg",
        max_items=3,
        runtimes=(1.0,),
        workers=1,
    )
    assert summary.failure_count > 0
    assert any("weighs more than" in failure for failure in summary.failures)


@pytest.mark.parametrize(
    ("memory", "runtime", "budget", "saved"),
    [
        # Equal items: leave out the highest indices (SPEC 6.1).
        ([1e-4] * 3, [1.0] * 3, 1e-4, [0]),
        ([1e-4] * 3, [1.0] * 3, 2e-4, [0, 1]),
        # Item 2 alone ties with items 0 + 1: keep the lower indices.
        ([1e-4, 1e-4, 2e-4], [1.0, 1.0, 2.0], 2e-4, [0, 1]),
        # Zero runtime never saved, even when it fits (SPEC 4.2).
        ([0.0, 1e-4], [0.0, 0.0], 1.0, []),
        # Zero weight, positive runtime: always saved (SPEC 4.2).
        ([0.0, 5e-4], [0.5, 1.0], 0.0, [0]),
        # Negative runtime never saved, even at zero weight (SPEC 4.2).
        ([0.0, 0.0, 1e-4], [-1.0, 2.0, -3.0], 1.0, [1]),
    ],
)
def test_tie_rule_and_nonpositive_runtimes(memory, runtime, budget, saved):
    """SPEC 4.2 and 6.1 on hand-derived cases."""
    assert dp_knapsack(memory, runtime, budget)[1] == saved


def test_return_types_and_order():
    """SPEC 7.1: (float, ascending list of int, descending list of int)."""
    value, saved, recomputable = dp_knapsack([0.1, 0.2, 0.3, 0.4], [1, 2, 3, 4], 0.5)
    assert type(value) is float
    assert type(saved) is list and type(recomputable) is list
    assert all(type(i) is int for i in saved + recomputable)
    assert saved == sorted(saved)
    assert recomputable == sorted(recomputable, reverse=True)
    assert value == 5.0


def test_value_is_correctly_rounded_exact_sum():
    """SPEC 7.1: not a left-to-right float sum, the exact sum rounded once."""
    runtime = [1e16, 1.0, 1.0]
    value, saved, _ = dp_knapsack([0.0, 0.0, 0.0], runtime, 0.0)
    assert saved == [0, 1, 2]
    assert (1e16 + 1.0) + 1.0 == 1e16  # the naive float sum loses both ones
    assert value == float(Fraction(10**16 + 2)) == 1.0000000000000002e16


def test_large_runtimes_stay_exact():
    """SPEC 3.1: 1e8 + 1 is not absorbed (upstream's float32 table absorbs it)."""
    value, saved, _ = dp_knapsack([1e-4, 1e-4, 2e-4], [1e8, 1.0, 1e8], 2e-4)
    assert saved == [0, 1] or saved == [2]
    assert value == exact_optimum([1e-4, 1e-4, 2e-4], [1e8, 1.0, 1e8], 2e-4).value == 1e8 + 1


def test_budget_capped_at_total_weight_handles_huge_budgets():
    """Columns stop at min(Q, sum w): a budget of 1e9 with small items is fine."""
    assert dp_knapsack([0.5, 0.25], [1.0, 2.0], 1e9) == (3.0, [0, 1], [])


def test_deterministic_across_processes():
    """SPEC 8.1: the same answer in fresh processes with different hash seeds."""
    code = (
        "import json; from knapsack_audit.reference import dp_knapsack;"
        "print(json.dumps(dp_knapsack([0.1, 0.1, 0.2, 0.05, 0.05], [1, 1, 2, 0.5, 0.5], 0.2)))"
    )
    answers = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        answers.add(out.stdout)
    assert len(answers) == 1
    in_process = json.dumps(dp_knapsack([0.1, 0.1, 0.2, 0.05, 0.05], [1, 1, 2, 0.5, 0.5], 0.2))
    assert answers == {in_process + "\n"}


@pytest.mark.parametrize(
    "module",
    [
        knapsack_audit.reference.table,
        knapsack_audit.reference.oracle,
        knapsack_audit.reference.validation,
    ],
)
def test_doctests(module):
    """The examples in the docstrings run and hold."""
    failures, tried = doctest.testmod(module)
    assert tried > 0 or module is knapsack_audit.reference.oracle
    assert failures == 0
