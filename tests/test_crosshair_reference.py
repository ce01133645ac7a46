"""Symbolic checks (CrossHair) of the reference's pure-Python core.

Contracts in PEP 316 docstrings; verdicts asserted through CrossHair's API.
A precondition CrossHair cannot satisfy would make a check vacuous, so it is
treated as a failure, and each contract has a deliberately wrong twin whose
counterexample CrossHair must find. The driver and split checks of the
optimized solver are in tests/test_crosshair.py.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from crosshair.core_and_libs import analyze_function, run_checkables
from crosshair.options import AnalysisKind, AnalysisOptionSet
from crosshair.statespace import MessageType
from hypothesis import given, settings
from hypothesis import strategies as st

from knapsack_audit.reference.table import next_row
from knapsack_audit.reference.validation import quantize

OPTIONS = AnalysisOptionSet(
    analysis_kind=[AnalysisKind.PEP316],
    per_condition_timeout=10,
    per_path_timeout=2,
    max_uninteresting_iterations=20,
)


def quantize_units(units: int, tenths: int) -> int:
    """SPEC 2.1 on values k/10000 + small offsets: quantize rounds to the nearest unit.

    pre: 0 <= units <= 10**6
    pre: -4 <= tenths <= 4
    post: __return__ == units
    """
    return quantize((units + tenths / 10) / 10000)


def quantize_units_wrong(units: int, tenths: int) -> int:
    """Claims the product is never rounded up: false for offsets of +0.5 and more.

    pre: 0 <= units <= 10**6
    pre: 0 <= tenths <= 9
    post: __return__ == units
    """
    return quantize((units + tenths / 10) / 10000)


def dp_step(previous: list[int], w: int, v: int) -> list[int]:
    """One exact DP step (proofs/02, Lemma 2.1) keeps the row a valid OPT row.

    pre: 1 <= len(previous) <= 5 and 0 <= w <= 5 and -3 <= v <= 5
    pre: all(previous[i] <= previous[i + 1] for i in range(len(previous) - 1))
    pre: all(p >= 0 for p in previous)
    post: len(__return__) == len(previous)
    post: all(__return__[c] >= previous[c] for c in range(len(previous)))
    post: all(__return__[c] <= __return__[c + 1] for c in range(len(previous) - 1))
    post: all(__return__[c] >= v + previous[c - w] for c in range(w, len(previous)))
    post: all(__return__[c] == previous[c] for c in range(min(w, len(previous))))
    post: all(__return__[c] in (previous[c], v + previous[c - w]) for c in range(w, len(previous)))
    """
    return next_row(previous, w, v)


def dp_step_wrong(previous: list[int], w: int, v: int) -> list[int]:
    """Shifts by w - 1 (an off-by-one): the take-candidate bound breaks.

    pre: len(previous) == 5 and 1 <= w <= 4 and 0 <= v <= 5
    pre: all(previous[i] <= previous[i + 1] for i in range(len(previous) - 1))
    pre: all(p >= 0 for p in previous)
    post: all(__return__[c] <= max(previous[c], v + previous[c - w]) for c in range(w, 5))
    """
    return next_row(previous, max(w - 1, 0), v)


def verdicts(function: Callable[..., object]) -> list[MessageType]:
    messages = list(run_checkables(analyze_function(function, OPTIONS)))
    return [message.state for message in messages]


def assert_verified(function: Callable[..., object]) -> None:
    states = verdicts(function)
    assert MessageType.PRE_UNSAT not in states, f"{function.__name__}: vacuous precondition"
    assert MessageType.POST_FAIL not in states, f"{function.__name__}: counterexample {states}"
    assert MessageType.EXEC_ERR not in states, f"{function.__name__}: raised {states}"


def assert_refuted(function: Callable[..., object]) -> None:
    assert MessageType.POST_FAIL in verdicts(function), f"{function.__name__}: no counterexample"


def test_quantize_rounds_to_nearest_unit():
    """SPEC 2.1: quantize rounds to the nearest unit, half to even, symbolically."""
    assert_verified(quantize_units)


def test_crosshair_refutes_wrong_quantization_claim():
    """SPEC 2.2: CrossHair refutes a wrong claim about quantization (the check has teeth)."""
    assert_refuted(quantize_units_wrong)


@pytest.mark.slow
@pytest.mark.release
def test_one_dp_step_is_the_recurrence():
    """SPEC 3.3: one DP step is the recurrence of proofs/02, symbolically."""
    assert_verified(dp_step)


def test_crosshair_refutes_off_by_one_dp_step():
    """SPEC 3.3: CrossHair refutes an off-by-one DP step (the check has teeth)."""
    assert_refuted(dp_step_wrong)


# ----------------------------------------- the ``crosshair`` Hypothesis profile

SYMBOLIC = settings(settings.get_profile("crosshair"), max_examples=30, database=None)
ROWS = st.lists(st.integers(0, 20), min_size=1, max_size=4).map(sorted)


@SYMBOLIC
@given(ROWS, st.integers(0, 4), st.integers(-3, 5))
def test_symbolic_profile_one_dp_step_never_lowers_a_cell(previous, w, v):
    """SPEC 3.2 via proofs/02: run with the hypothesis-crosshair backend."""
    row = next_row(previous, w, v)
    assert all(new >= old for new, old in zip(row, previous, strict=True))


def test_symbolic_profile_finds_a_planted_counterexample():
    """SPEC 3.3: The backend is not vacuous: a false claim about one DP step is refuted."""

    @SYMBOLIC
    @given(ROWS, st.integers(0, 4), st.integers(-3, 5))
    def claims_rows_never_change(previous, w, v):
        assert next_row(previous, w, v) == previous

    with pytest.raises(AssertionError):
        claims_rows_never_change()
