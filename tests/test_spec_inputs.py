"""SPEC 1 (input domain and errors) and SPEC 2 (quantization), for every solver of ours."""

from __future__ import annotations

import math
import tracemalloc
from fractions import Fraction

import numpy as np
import pytest
import torch

from knapsack_audit.properties import documented_error
from knapsack_audit.reference import BudgetTooLargeError, quantize, validate
from knapsack_audit.registry import OUR_SOLVERS, load

SOLVERS = [load(target) for target in OUR_SOLVERS]

# (clause, arguments, error type, text the message must contain)
INVALID = [
    ("1.1", (None, [1.0], 1.0), TypeError, "memory"),
    ("1.1", ([0.1], "1", 1.0), TypeError, "runtime"),
    ("1.1", ((m for m in [0.1]), [1.0], 1.0), TypeError, "memory"),
    ("1.1", (torch.tensor([0.1]), [1.0], 1.0), TypeError, "memory"),
    ("1.1", ([0.1], 1.0, 1.0), TypeError, "runtime"),
    ("1.2", ([True], [1.0], 1.0), TypeError, "memory[0]"),
    ("1.2", ([0.1, 0.2], [1.0, False], 1.0), TypeError, "runtime[1]"),
    ("1.2", ([0.1], [1.0], True), TypeError, "max_memory"),
    ("1.2", ([0.1], ["1.0"], 1.0), TypeError, "runtime[0]"),
    ("1.2", ([None], [1.0], 1.0), TypeError, "memory[0]"),
    ("1.2", ([0.1], [1.0], None), TypeError, "max_memory"),
    ("1.2", ([0.1], [1.0], "0.5"), TypeError, "max_memory"),
    ("1.2", ([0.1], [complex(1, 0)], 1.0), TypeError, "runtime[0]"),
    ("1.2", ([np.bool_(True)], [1.0], 1.0), TypeError, "memory[0]"),
    ("1.2", ([torch.tensor(0.1)], [1.0], 1.0), TypeError, "memory[0]"),
    ("1.3", ([math.nan], [1.0], 1.0), ValueError, "memory[0]"),
    ("1.3", ([math.inf], [1.0], 1.0), ValueError, "memory[0]"),
    ("1.3", ([0.1], [math.nan], 1.0), ValueError, "runtime[0]"),
    ("1.3", ([0.1, 0.1], [1.0, -math.inf], 1.0), ValueError, "runtime[1]"),
    ("1.3", ([0.1], [1.0], math.nan), ValueError, "max_memory"),
    ("1.3", ([0.1], [1.0], math.inf), ValueError, "max_memory"),
    ("1.3", ([0.1], [10**400], 1.0), ValueError, "runtime[0]"),
    ("1.3", ([0.1, 0.1], [1e308, 1e308], 1.0), ValueError, "runtime"),
    ("1.4", ([0.1, 0.2], [1.0], 1.0), ValueError, "len(memory)=2 and len(runtime)=1"),
    ("1.5", ([-0.1], [1.0], 1.0), ValueError, "memory[0]"),
    ("1.5", ([0.1, -1e-300], [1.0, 1.0], 1.0), ValueError, "memory[1]"),
    ("1.5", ([0.1], [1.0], -1e-4), ValueError, "max_memory"),
    ("1.6", ([1e8], [1.0], 1e12), BudgetTooLargeError, "max_memory"),
    ("1.6", ([1e300], [1.0], 1e300), BudgetTooLargeError, "max_memory"),
]


@pytest.mark.parametrize("solver", SOLVERS, ids=OUR_SOLVERS)
@pytest.mark.parametrize(
    ("clause", "arguments", "error_type", "names"),
    INVALID,
    ids=[f"SPEC{c}-{names}" for c, _, _, names in INVALID],
)
def test_invalid_input_raises_documented_error(solver, clause, arguments, error_type, names):
    """SPEC 1.1-1.6: the exact error type, and a message naming the argument."""
    assert documented_error(solver, arguments, error_type, names) is None


def test_budget_too_large_is_refused_before_allocating():
    """SPEC 1.6 and 8.3: the refusal happens before any large allocation."""
    tracemalloc.start()
    try:
        with pytest.raises(BudgetTooLargeError, match="Q=10000000000000000 units"):
            SOLVERS[0]([1e8], [1.0], 1e12)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20


def test_budget_too_large_is_a_value_error():
    """SPEC 1.6: callers that catch ValueError for bad input also catch it."""
    assert issubclass(BudgetTooLargeError, ValueError)


def test_check_order_reports_lengths_before_entries():
    """SPEC 1 check order: 1.4 is checked before the entries."""
    with pytest.raises(ValueError, match="same length"):
        validate([math.nan, 0.1], [1.0], 1.0)


@pytest.mark.parametrize(
    "value",
    [1, 0.25, Fraction(1, 4), np.float32(0.25), np.float64(0.25), np.int64(2), -0.0],
    ids=repr,
)
def test_accepted_real_types(value):
    """SPEC 1: ints, floats, Fractions and numpy scalars are accepted."""
    instance = validate([abs(value)], [value], abs(value))
    assert instance.runtimes == (float(value),)


def test_negative_zero_is_accepted():
    """SPEC 1.5: -0.0 equals 0 and is valid for memory and budget."""
    assert validate([-0.0], [1.0], -0.0).capacity == 0


def test_empty_instance():
    """SPEC 1.8: n = 0 is valid; the answer is (0.0, [], [])."""
    for solver in SOLVERS:
        assert solver([], [], 0.5) == (0.0, [], [])


@pytest.mark.parametrize(
    ("memory", "units"),
    [
        (1e-4, 1),
        (4.9e-5, 0),
        (5e-5, 0),  # 0.5 exactly: half to even
        (0.00015, 1),  # 1.4999999999999998 in float64
        (2.5e-4, 2),  # 2.5 exactly: half to even
        (3.5e-4, 4),  # 3.5 exactly: half to even
        (1.0, 10000),
        (0.3, 3000),
        (0.0, 0),
        (1e-300, 0),
    ],
)
def test_quantization_matches_upstream(memory, units):
    """SPEC 2.1, 2.2: round(float64(m * 10000)), half to even, as upstream."""
    assert quantize(memory) == units
    assert round(memory * 10000) == units  # upstream's own expression


def test_quantization_overflowing_product_is_exact():
    """SPEC 2.1: when m * 10000 overflows float64, q = int(m) * 10000 exactly."""
    huge = 1.7e308
    assert math.isinf(huge * 10000)
    assert quantize(huge) == int(huge) * 10000


def test_budget_below_half_unit_is_zero():
    """SPEC 2.2: a budget below 5e-5 fits only zero-weight items."""
    for solver in SOLVERS:
        assert solver([4e-5, 6e-5], [1.0, 1.0], 4.9e-5) == (1.0, [0], [1])


def test_inputs_are_not_mutated():
    """SPEC 8.2."""
    memory, runtime = [0.3, 0.2, 0.0], [1.0, -2.0, 3.0]
    for solver in SOLVERS:
        solver(memory, runtime, 0.25)
        assert memory == [0.3, 0.2, 0.0] and runtime == [1.0, -2.0, 3.0]
