"""``knapsack_audit.testing`` and the module PyTorch could add (docs/TESTING.md).

docs/pytorch/test_ac_knapsack_audit.py is run here as PyTorch would run it,
with ``unittest`` and ``torch.testing._internal.common_utils.TestCase``
(which needs ``expecttest``, one of PyTorch's test dependencies): it must
pass for ``dp_knapsack`` and fail, with the over-budget counterexample, for
``dp_knapsack_sliding_hirschberg`` (pytorch issue #197871).
"""

from __future__ import annotations

import importlib.util
import unittest
from pathlib import Path

import pytest

from knapsack_audit.optimized import dp_knapsack_sliding_hirschberg as optimized
from knapsack_audit.testing import assert_no_regression, assert_solver_correct

MODULE = Path(__file__).resolve().parents[1] / "docs" / "pytorch" / "test_ac_knapsack_audit.py"


def _failures() -> dict[str, str]:
    """Run the module's three tests; the traceback of each that did not pass."""
    spec = importlib.util.spec_from_file_location("test_ac_knapsack_audit", MODULE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromModule(module).run(result)
    assert result.testsRun == 3
    return {test.id().rsplit(".", 1)[1]: trace for test, trace in result.failures + result.errors}


def test_the_documented_module_fails_for_hirschberg_and_passes_for_dp() -> None:
    """SPEC 3.2, 9.1: the over-budget selection fails both hirschberg tests with a
    copy-pasteable call of at most 3 items; dp_knapsack passes (SPEC 5.2)."""
    failed = _failures()
    assert set(failed) == {
        "test_dp_knapsack_sliding_hirschberg",
        "test_sliding_hirschberg_no_regression_from_dp",
    }
    correct = failed["test_dp_knapsack_sliding_hirschberg"]
    assert "AssertionError" in correct and "feasibility fails (SPEC 3.2)" in correct
    assert "dp_knapsack_sliding_hirschberg([0.0001" in correct
    regression = failed["test_sliding_hirschberg_no_regression_from_dp"]
    assert "small-scope: feasibility regresses" in regression
    assert "smallest: dp_knapsack_sliding_hirschberg([0.0001, 0.0001]" in regression


def _one_unit_too_many(memory: list[float], runtime: list[float], max_memory: float) -> object:
    return optimized(memory, runtime, (round(max_memory * 10000) + 1) / 10000)


def test_assertions_on_our_solver_and_a_planted_bug() -> None:
    """SPEC 3.3, 5.1, 9.1: our exact solver passes exactly; one unit of budget
    slack fails both assertions; an unknown effort is named."""
    assert_solver_correct(optimized, exact=True)
    assert_no_regression(optimized, optimized, exact=True)
    with pytest.raises(AssertionError, match=r"feasibility fails \(SPEC 3.2\)"):
        assert_solver_correct(_one_unit_too_many, exact=True)
    with pytest.raises(AssertionError, match="_one_unit_too_many regresses against dp_knapsack"):
        assert_no_regression(optimized, _one_unit_too_many)
    with pytest.raises(ValueError, match="effort must be one of quick, default, long"):
        assert_solver_correct(optimized, effort="fast")
