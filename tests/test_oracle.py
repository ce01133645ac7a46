"""The exact oracle (SPEC 3): two independent methods, hand-derived cases."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from knapsack_audit import integer_oracle
from knapsack_audit.integer_oracle import (
    canonical_table,
    fits_int64,
    optimum_row,
    row_optimum,
    two_word_row_optimum,
)
from knapsack_audit.reference import (
    brute_force,
    dp_knapsack,
    exact_optimum,
    pareto_optimum,
    validate,
)
from knapsack_audit.reference.validation import integer_runtimes
from knapsack_audit.strategies import cases, small_cases


@pytest.mark.parametrize(
    ("weights", "values", "capacity", "optimum"),
    [
        # Textbook instance: items 1 and 2 (3 + 4 = 7 units, 4 + 5 = 9).
        ([1, 3, 4, 5], [1, 4, 5, 7], 7, 9),
        # Nothing fits.
        ([5, 6], [10, 20], 4, 0),
        # Everything fits.
        ([1, 2, 3], [1, 2, 3], 6, 6),
        # Greedy by ratio takes items 0 and 1 (5); the optimum is items 1 + 2.
        ([1, 2, 2], [2, 3, 3], 4, 6),
    ],
)
def test_hand_derived_optima(weights, values, capacity, optimum):
    """SPEC 3.2, on instances whose optimum is derived by hand."""
    memory = [w / 10000 for w in weights]
    result = exact_optimum(memory, values, capacity / 10000)
    assert result.value == optimum
    assert sum(weights[i] for i in result.saved) <= capacity
    assert sum(Fraction(values[i]) for i in result.saved) == optimum


@given(small_cases(domain="extended"))
def test_brute_force_and_pareto_agree_small(case):
    """SPEC 3.3: Both methods compute the same exact optimum; each selection achieves it."""
    instance = validate(*case.arguments())
    brute, pareto = brute_force(instance), pareto_optimum(instance)
    assert brute.value == pareto.value
    for result in (brute, pareto):
        assert sum(instance.weights[i] for i in result.saved) <= instance.capacity
        assert sum(Fraction(instance.runtimes[i]) for i in result.saved) == result.value


@given(cases(domain="extended", large=False))
def test_brute_force_and_pareto_agree(case):
    """SPEC 3.3: As above, across every regime small enough to enumerate."""
    instance = validate(*case.arguments())
    if instance.n <= 14:
        assert brute_force(instance).value == pareto_optimum(instance).value


def test_brute_force_refuses_large_n():
    """SPEC 3.3: the brute force refuses n above its bound rather than run for ages."""
    with pytest.raises(ValueError, match="n=21"):
        brute_force(validate([0.0] * 21, [1.0] * 21, 0.0))


WIDE_VALUES = st.one_of(
    st.integers(-(2**80), 2**80),
    st.integers(2**62 - 4, 2**62 + 4),  # the low word's edge
    st.integers(-(2**62) - 4, -(2**62) + 4),
    st.sampled_from([0, 1, -1, 2**63 - 1, 2**63, 2**123 // 8]),
)


@given(
    st.lists(st.tuples(st.integers(0, 12), WIDE_VALUES), max_size=8),
    st.integers(0, 40),
)
def test_the_two_word_row_is_the_best_subset(items, capacity):
    """SPEC 3.2: the two-int64-word row's optimum is the best subset's value,
    by enumeration, for values past int64 (negative ones and low-word carries
    included), and :func:`row_optimum`, which takes it past int64, agrees with
    the row of Python integers."""
    best = max(
        sum(v for _, v in subset)
        for k in range(len(items) + 1)
        for subset in itertools.combinations(items, k)
        if sum(w for w, _ in subset) <= capacity
    )
    assert two_word_row_optimum(items, capacity) == best
    assert row_optimum(items, capacity) == int(optimum_row(items, capacity)[-1]) == best


def test_row_optimum_past_int64_is_the_python_integer_row_s_on_a_wide_table(monkeypatch):
    """SPEC 3.2: on a wide table (2,000 items, sums past int64), row_optimum
    gives the row of Python integers' optimum, without building that row."""
    values = [(2**55 + 977 * i) * (1 + i % 3) for i in range(2000)]
    items = [(1 + i % 97, v) for i, v in enumerate(values)]
    assert not fits_int64(values)
    python_row = int(optimum_row(items, 5000)[-1])

    def no_python_row(*args):
        raise AssertionError("the row of Python integers was built")

    monkeypatch.setattr(integer_oracle, "optimum_row", no_python_row)
    assert row_optimum(items, 5000) == python_row


@given(cases(domain="extended"))
def test_integer_runtimes_are_exact(case):
    """SPEC 3.1: scaled[i] == runtime[i] * 2**shift exactly, all integers."""
    runtimes = [float(r) for r in case.runtime]
    scaled, shift = integer_runtimes(runtimes)
    assert all(Fraction(s) == Fraction(r) * 2**shift for s, r in zip(scaled, runtimes, strict=True))


@given(small_cases(domain="extended"))
def test_canonical_table_selects_the_references_answer_at_every_budget(case):
    """SPEC 6.1: knapsack_audit.integer_oracle.canonical_table, built once for
    the case's budget, backtracks the reference dp_knapsack's canonical
    selection at every smaller budget (the multi-budget tests and benchmark
    judge the knee search with it)."""
    memory, runtime, max_memory = case.arguments()
    instance = validate(memory, runtime, max_memory)
    values, _ = integer_runtimes(instance.runtimes)
    table = canonical_table(memory, runtime, max_memory)
    if table is None:  # declined exactly when int64 could overflow
        assert sum(map(abs, values)) >= 2**62
        return
    assert sum(map(abs, values)) < 2**62
    for c in range(instance.capacity + 1):
        assert table(memory, runtime, c / 10000) == dp_knapsack(memory, runtime, c / 10000), c
    with pytest.raises(ValueError, match="capacity must be in"):
        table.select(instance.capacity + 1)
