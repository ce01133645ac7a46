"""SPEC 1 (accepted input) and SPEC 2 (quantization) of the shared validation.

The errors every solver of ours raises, and the quantization seen through
their answers, are in the contract suite (tests/test_contract.py).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from knapsack_audit.reference import quantize, validate


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


def test_whole_list_validation_equals_the_per_item_checks():
    """SPEC 1, 2.1: a list of plain floats and ints (validated by whole-list
    C loops) quantizes and converts exactly as the per-item path does (taken
    when one entry is a Fraction), half-way points and huge runtimes included."""
    rng = np.random.default_rng(0)
    memory = [1e-4, 4.9e-5, 5e-5, 0.00015, 2.5e-4, 3.5e-4, 1.0, 0.3, 0.0, -0.0, 1e-300, 3]
    memory += [float(x) for x in rng.random(200)] + [
        float(x) for x in rng.integers(0, 99, 50) / 2e4
    ]
    runtime = [float(x) for x in rng.normal(0, 1e12, len(memory) - 2)] + [7, 1e300]
    fast = validate(memory, runtime, 0.5)
    slow = validate([*memory, Fraction(0)], [*runtime, Fraction(0)], 0.5)
    assert fast.weights == tuple(quantize(float(m)) for m in memory) == slow.weights[:-1]
    assert fast.runtimes == slow.runtimes[:-1] and all(type(r) is float for r in fast.runtimes)
