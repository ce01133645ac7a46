"""Symbolic checks of the Hirschberg driver on the pure-Python backend (CrossHair).

Each function below states, as a PEP 316 contract, that the driver's answer is
feasible and has the full table's optimal value. CrossHair explores the
contract symbolically for every instance in its preconditions. A
deliberately buggy twin with upstream's split (the right half gets
``C - c + 1`` units, proofs/06) shows the check has teeth: CrossHair must find
a counterexample. Verdicts are asserted through the API; an unsatisfiable
precondition (which would make the check vacuous) is a failure.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from crosshair.core import run_checkables
from crosshair.core_and_libs import analyze_function
from crosshair.options import AnalysisKind, AnalysisOptionSet
from crosshair.statespace import MessageType

from knapsack_audit.optimized import driver
from knapsack_audit.optimized.backends import PythonBackend
from knapsack_audit.reference.table import build_table

Configure = Callable[..., object]

OPTIONS = AnalysisOptionSet(
    analysis_kind=[AnalysisKind.PEP316],
    per_condition_timeout=30,
    per_path_timeout=5,
    max_uninteresting_iterations=60,
)


def driver_is_optimal(weights: list[int], values: list[int], capacity: int) -> bool:
    """
    pre: 1 <= len(weights) <= 3 and len(values) == len(weights)
    pre: all(1 <= w <= 3 for w in weights) and all(1 <= v <= 4 for v in values)
    pre: 0 <= capacity <= 5
    post: __return__
    """
    items = list(range(len(weights)))
    saved = driver.solve(PythonBackend(weights, values), weights, values, items, capacity)
    best = build_table(weights, values, capacity + 1)[-1][capacity]
    weight = sum(weights[i] for i in saved)
    return weight <= capacity and sum(values[i] for i in saved) == best


def _upstream_split(
    backend: PythonBackend, weights: list[int], items: list[int], capacity: int, saved: list[int]
) -> None:
    if len(items) == 1:
        saved.extend(i for i in items if weights[i] <= capacity)
        return
    middle = len(items) // 2
    split, _ = backend.best_split(items[:middle], items[middle:], capacity)
    _upstream_split(backend, weights, items[:middle], split, saved)
    _upstream_split(backend, weights, items[middle:], capacity + 1 - split, saved)


def upstream_split_is_optimal(weights: list[int], values: list[int], capacity: int) -> bool:
    """
    pre: 1 <= len(weights) <= 3 and len(values) == len(weights)
    pre: all(1 <= w <= 3 for w in weights) and all(1 <= v <= 4 for v in values)
    pre: 0 <= capacity <= 5
    post: __return__
    """
    saved: list[int] = []
    backend = PythonBackend(weights, values)
    _upstream_split(backend, weights, list(range(len(weights))), capacity, saved)
    best = build_table(weights, values, capacity + 1)[-1][capacity]
    weight = sum(weights[i] for i in saved)
    return weight <= capacity and sum(values[i] for i in saved) == best


def _verdicts(function: Callable[..., bool]) -> list[MessageType]:
    return [message.state for message in run_checkables(analyze_function(function, OPTIONS))]


def test_crosshair_finds_upstreams_off_by_one() -> None:
    """SPEC 3.2: CrossHair finds upstream's split off-by-one (proofs/06)."""
    assert _verdicts(upstream_split_is_optimal) == [MessageType.POST_FAIL]


@pytest.mark.slow
@pytest.mark.release
def test_crosshair_finds_no_counterexample_in_the_driver(configure: Configure) -> None:
    """SPEC 3.3: about a minute; CrossHair cannot confirm within its budget,
    but must find nothing."""
    configure(base_case_items=1)
    verdicts = _verdicts(driver_is_optimal)
    assert verdicts
    assert set(verdicts) <= {MessageType.CONFIRMED, MessageType.CANNOT_CONFIRM}
