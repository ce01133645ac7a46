"""torch's multi-call paths served from one frontier (optimized/integration.py,
optimized/evaluator.py).

The knee point of ``dynamic_memory_budget_dp`` is computed by torch's own
``KnapsackEvaluator`` on each golden call (same budgets, same normalization),
once with torch's ``dp_knapsack`` and once with our :class:`FrontierSolver`;
the two must agree, or, where upstream's float32 table answers below the
exact optimum, ours must agree with torch's search on the exact canonical
solver. The served evaluator must return torch's results float
for float; compiled models run the knee search and the Pareto plot end to end.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import torch
import torch._functorch.config as functorch_config
import torch._functorch.partitioners as partitioners
from compiled_steps import gradients
from torch._functorch._activation_checkpointing.knapsack import dp_knapsack
from torch._functorch._activation_checkpointing.knapsack_evaluator import KnapsackEvaluator

from knapsack_audit.golden import fixtures
from knapsack_audit.integer_oracle import canonical_table
from knapsack_audit.optimized import dp_knapsack_sliding_hirschberg, integration
from knapsack_audit.optimized.evaluator import (
    FrontierKnapsackEvaluator,
    evaluator_for_call,
    knee_budgets,
)
from knapsack_audit.reference import dp_knapsack as reference_dp_knapsack
from knapsack_audit.reference import quantize

SMALL_CALL_ITEMS = 100
"""By default the knee test runs on the first golden call of each fixture file
below this many items (100 upstream dp_knapsack calls cost 0.2-2 s each on
these); every other golden call, including the 320-item ones (about 10 s
each), is marked slow."""


def knee_cases() -> list[Any]:
    cases, sources = [], set()
    for fixture in fixtures.load():
        default = fixture.case.n < SMALL_CALL_ITEMS and fixture.source not in sources
        sources.add(fixture.source)
        marks = [] if default else [pytest.mark.slow]
        cases.append(pytest.param(fixture, id=fixture.name, marks=marks))
    return cases


@pytest.mark.parametrize("fixture", knee_cases())
def test_knee_point_equals_torchs_on_golden_calls(fixture: fixtures.Fixture) -> None:
    """SPEC 6.1, 7.3: torch's knee search over 100 budgets picks the same knee
    with one frontier as with 100 upstream dp_knapsack calls, wherever
    upstream's answers are exact. upstream's float32 table drops items on some
    real-scale calls (gpt2_48, resnet_101, vit_24 with ``flops``): there the
    frontier's knee must be the knee of torch's search with the exact
    canonical solver (an independent numpy table), and upstream must answer
    below the exact optimum at some budget (what explains the difference)."""
    memory, runtime, max_memory = fixture.case.arguments()
    expected = evaluator_for_call(memory, runtime).get_knee_point_memory_budget(
        knapsack_algo=dp_knapsack, max_mem_budget=max_memory
    )
    solver = integration.FrontierSolver()
    actual = evaluator_for_call(memory, runtime).get_knee_point_memory_budget(
        knapsack_algo=solver, max_mem_budget=max_memory
    )
    assert solver.frontiers_built == 1 and solver.calls == 100
    if actual == expected:
        return
    exact = canonical_table(memory, runtime, max_memory)
    assert exact is not None  # the golden values sum below 2**62
    assert actual == evaluator_for_call(memory, runtime).get_knee_point_memory_budget(
        knapsack_algo=exact, max_mem_budget=max_memory
    )
    assert any(
        exact_value(runtime, dp_knapsack(memory, runtime, b)[1])
        < exact_value(runtime, exact(memory, runtime, b)[1])
        for b in knee_budgets(max_memory)
    ), "the knees differ although upstream's answers are exact"


def exact_value(runtime: list[float], saved: list[int]) -> Fraction:
    return sum((Fraction(runtime[i]) for i in saved), Fraction(0))


REAL_SCALE_ITEMS = 250
"""The evaluator test runs by default on the first golden call and on the first
with at least this many items (a real-scale model); every other call is slow."""


def evaluation_cases() -> list[Any]:
    cases, first_small, first_large = [], True, True
    for fixture in fixtures.load():
        default = first_small or (first_large and fixture.case.n >= REAL_SCALE_ITEMS)
        first_small = False
        first_large = first_large and not (default and fixture.case.n >= REAL_SCALE_ITEMS)
        marks = [] if default else [pytest.mark.slow]
        cases.append(pytest.param(fixture, id=fixture.name, marks=marks))
    return cases


@pytest.mark.parametrize("fixture", evaluation_cases())
def test_served_evaluator_returns_torchs_results_float_for_float(
    fixture: fixtures.Fixture,
) -> None:
    """SPEC 7.3: FrontierKnapsackEvaluator (the per-budget totals taken once)
    returns exactly the result dicts of torch's KnapsackEvaluator at the 100
    knee budgets, for a frontier and for a solver without ``prepare``."""
    memory, runtime, max_memory = fixture.case.arguments()
    budgets = knee_budgets(max_memory)
    for make_solver in (integration.FrontierSolver, lambda: dp_knapsack_sliding_hirschberg):
        expected = evaluator_for_call(
            memory, runtime
        ).evaluate_distribution_of_results_for_knapsack_algo(make_solver(), budgets)
        actual = evaluator_for_call(
            memory, runtime, FrontierKnapsackEvaluator
        ).evaluate_distribution_of_results_for_knapsack_algo(make_solver(), budgets)
        assert actual == expected
        assert [list(r) for r in actual] == [list(r) for r in expected]  # same keys, same order


def _model() -> torch.nn.Module:
    torch.manual_seed(0)
    blocks: list[torch.nn.Module] = []
    for _ in range(4):
        blocks += [torch.nn.Linear(32, 32), torch.nn.GELU()]
    return torch.nn.Sequential(torch.nn.Linear(16, 32), *blocks, torch.nn.Linear(32, 4))


Solve = Callable[[list[float], list[float], float], Any]


def _compile_and_record(
    monkeypatch: pytest.MonkeyPatch,
    inputs: torch.Tensor,
    per_budget: Solve | None,
    **config: Any,
) -> tuple[list[torch.Tensor], list[tuple[float, Any]], int]:
    """Compile and train ``_model()`` under ``functorch_config.patch(**config)``
    with the partitioner's ``dp_knapsack`` set to ``per_budget``, or (``None``)
    inside ``serve_budgets_from_frontiers``; return the gradients, every
    knapsack call's budget and answer, and the frontiers built."""
    torch._dynamo.reset()
    calls: list[tuple[float, Any]] = []

    def record(solve: Solve) -> Solve:
        def recording(memory: list[float], runtime: list[float], budget: float) -> Any:
            answer = solve(memory, runtime, budget)
            calls.append((budget, answer))
            return answer

        return recording

    with functorch_config.patch(**config):
        if per_budget is not None:
            monkeypatch.setattr(partitioners, "dp_knapsack", record(per_budget))
            grads = gradients(torch.compile(_model(), backend="aot_eager_decomp_partition"), inputs)
            monkeypatch.undo()
            return grads, calls, 0
        with integration.serve_budgets_from_frontiers() as solver:
            monkeypatch.setattr(partitioners, "dp_knapsack", record(partitioners.dp_knapsack))
            grads = gradients(torch.compile(_model(), backend="aot_eager_decomp_partition"), inputs)
            monkeypatch.undo()
        return grads, calls, solver.frontiers_built


INPUTS_SEED = 1
"""Batch 8 of 64 positions: activations outweigh the parameters, so the
partitioner reaches the knapsack."""


def test_compiled_model_with_knee_search_served_from_one_frontier(
    fresh_dynamo: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 3.3, 6.1: torch.compile with dynamic_memory_budget_dp inside
    serve_budgets_from_frontiers makes the same 101 calls (100 knee budgets,
    then the knee) as with torch's dp_knapsack, from one frontier, picks the
    same knee, and trains like eager."""
    inputs = torch.randn(8, 64, 16, generator=torch.Generator().manual_seed(INPUTS_SEED))
    expected = gradients(_model(), inputs)
    originals = (partitioners.dp_knapsack, partitioners.KnapsackEvaluator)
    config = {
        "activation_memory_budget": 0.5,
        "activation_memory_budget_solver": "dynamic_memory_budget_dp",
    }
    upstream_grads, upstream_calls, _ = _compile_and_record(
        monkeypatch, inputs, dp_knapsack, **config
    )
    grads, calls, frontiers = _compile_and_record(monkeypatch, inputs, None, **config)
    assert len(upstream_calls) == 101, "the partitioner never ran the knee search"
    assert [b for b, _ in calls] == [b for b, _ in upstream_calls]  # same budgets, same knee
    assert frontiers == 1
    torch.testing.assert_close(grads, expected)
    torch.testing.assert_close(upstream_grads, expected)
    assert (partitioners.dp_knapsack, partitioners.KnapsackEvaluator) == originals


class _RecordingPyplot(types.ModuleType):
    """Stands in for ``matplotlib.pyplot`` (not a test dependency): keeps the
    points the partitioner plots and the file name it saves to."""

    def __init__(self) -> None:
        super().__init__("matplotlib.pyplot")
        self.points: list[tuple[list[float], list[float]]] = []
        self.saved: list[str] = []

    def plot(self, x: list[float], y: list[float], **_: Any) -> None:
        self.points.append((list(x), list(y)))

    def gcf(self) -> Any:
        return types.SimpleNamespace(savefig=self.saved.append)

    def __getattr__(self, name: str) -> Callable[..., None]:
        if name.startswith("_"):  # module machinery (__file__, __spec__): absent
            raise AttributeError(name)
        return lambda *args, **kwargs: None  # figure, annotate, labels, grid, show


def test_pareto_plot_served_from_one_frontier_equals_the_exact_per_budget_plot(
    fresh_dynamo: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """SPEC 3.2, 6.1: with visualize_memory_budget_pareto, the partitioner's
    bisection over budgets 0..1 served from one frontier per graph makes the
    same calls, gets the same answers and plots the same curve as with the
    exact canonical solver called per budget (knapsack_audit.reference), and
    training still matches eager."""
    inputs = torch.randn(8, 64, 16, generator=torch.Generator().manual_seed(INPUTS_SEED))
    expected = gradients(_model(), inputs)
    config = {
        "activation_memory_budget": 0.5,
        "visualize_memory_budget_pareto": True,
        "memory_budget_pareto_dir": str(tmp_path),
    }
    plots = []
    for per_budget in (reference_dp_knapsack, None):
        pyplot = _RecordingPyplot()
        package = types.ModuleType("matplotlib")
        package.pyplot = pyplot  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "matplotlib", package)
        monkeypatch.setitem(sys.modules, "matplotlib.pyplot", pyplot)
        grads, calls, frontiers = _compile_and_record(monkeypatch, inputs, per_budget, **config)
        torch.testing.assert_close(grads, expected)
        plots.append((calls, pyplot.points, len(pyplot.saved), frontiers))
    (exact_calls, exact_points, exact_files, _), (calls, points, files, frontiers) = plots
    assert len(exact_calls) > 3, "the partitioner never bisected the budgets"
    assert calls == exact_calls
    assert points == exact_points and len(points) == files == exact_files >= 1
    assert frontiers == files  # one frontier per plotted graph


def test_serving_restores_on_exception_and_detects_missing_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3 (torch is served only by the optimal solver it asked for): the
    partitioner's names are restored on exceptions; a torch without them is
    refused before anything is patched."""
    names = (*integration.MULTI_CALL_ATTRIBUTES, integration.EVALUATOR_ATTRIBUTE)
    originals = {name: getattr(partitioners, name) for name in names}
    with pytest.raises(RuntimeError, match="boom"), integration.serve_budgets_from_frontiers():
        assert isinstance(partitioners.dp_knapsack, integration.FrontierSolver)
        assert partitioners.KnapsackEvaluator is FrontierKnapsackEvaluator
        raise RuntimeError("boom")
    assert {n: getattr(partitioners, n) for n in originals} == originals
    monkeypatch.delattr(partitioners, "dp_knapsack_sliding_hirschberg")
    with pytest.raises(RuntimeError, match="has no"), integration.serve_budgets_from_frontiers():
        pass
    assert partitioners.dp_knapsack is originals["dp_knapsack"]


def test_frontier_solver_errors_name_the_argument() -> None:
    """SPEC 1.2, 1.5: invalid input gets the solver's own errors."""
    solver = integration.FrontierSolver()
    with pytest.raises(ValueError, match="max_memory must be >= 0"):
        solver([1e-4], [1.0], -1.0)
    with pytest.raises(TypeError, match=r"memory\[0\] must be a real number"):
        solver([[1]], [1.0], 1.0)  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"memory\[0\] must be >= 0"):
        solver([-1.0], [1.0], 1.0)


def _first_golden_call() -> tuple[list[float], list[float], float]:
    return fixtures.load()[0].case.arguments()


def test_knee_budgets_are_the_budgets_torchs_knee_search_evaluates() -> None:
    """SPEC 7.3: ``knee_budgets`` is the list of budgets torch's
    ``get_knee_point_memory_budget`` passes to the solver, in order."""
    memory, runtime, max_memory = _first_golden_call()
    asked: list[float] = []

    def recording(memory: list[float], runtime: list[float], budget: float) -> Any:
        asked.append(budget)
        return dp_knapsack_sliding_hirschberg(memory, runtime, budget)

    evaluator_for_call(memory, runtime).get_knee_point_memory_budget(
        knapsack_algo=recording, max_mem_budget=max_memory
    )
    assert asked == knee_budgets(max_memory)


def test_the_served_evaluator_rejects_a_solver_that_loses_an_item_as_torchs_does() -> None:
    """SPEC 7.3: an answer that leaves an item neither saved nor recomputed is
    refused by FrontierKnapsackEvaluator with torch's own check and message."""
    memory, runtime, max_memory = _first_golden_call()

    def loses_one(memory: list[float], runtime: list[float], budget: float) -> Any:
        value, saved, recomputed = dp_knapsack_sliding_hirschberg(memory, runtime, budget)
        return value, saved, recomputed[1:]

    for evaluator_class in (KnapsackEvaluator, FrontierKnapsackEvaluator):
        evaluator = evaluator_for_call(memory, runtime, evaluator_class)
        with pytest.raises(AssertionError, match="must be accounted for"):
            evaluator.evaluate_distribution_of_results_for_knapsack_algo(loses_one, [max_memory])


def test_the_knee_search_builds_one_frontier_as_wide_as_its_largest_budget() -> None:
    """SPEC 7.3: FrontierKnapsackEvaluator prepares the solver for the largest
    budget of the search, so one frontier of exactly that width serves all 100
    budgets (a frontier of the items' whole weight costs more)."""
    memory, runtime, max_memory = _first_golden_call()
    solver = integration.FrontierSolver()
    evaluator_for_call(memory, runtime, FrontierKnapsackEvaluator).get_knee_point_memory_budget(
        knapsack_algo=solver, max_mem_budget=max_memory
    )
    widths = [frontier.capacity for frontier in solver._frontiers.values()]
    assert solver.frontiers_built == 1 and solver.calls == 100
    assert widths == [quantize(max(knee_budgets(max_memory)))] < [quantize(sum(memory))]


def test_frontier_solver_prepares_once_and_then_serves_without_building() -> None:
    """SPEC 7.3: ``prepare`` builds a frontier unless one as wide exists, and
    calls at budgets it covers build none; a call with no frontier builds one
    as wide as the items' whole weight, which serves every larger budget."""
    memory, runtime = [0.6, 0.7, 0.8], [3.0, 4.0, 5.0]
    solver = integration.FrontierSolver()
    solver.prepare(memory, runtime, 1.3)
    solver.prepare(memory, runtime, 1.3)
    assert solver.frontiers_built == 1
    assert solver(memory, runtime, 1.3) == dp_knapsack_sliding_hirschberg(memory, runtime, 1.3)
    assert solver.frontiers_built == 1
    fresh = integration.FrontierSolver()
    for budget in (0.5, 1.6, 2.1):
        assert fresh(memory, runtime, budget) == dp_knapsack_sliding_hirschberg(
            memory, runtime, budget
        )
    assert fresh.frontiers_built == 1


def test_frontier_solver_serves_the_asked_budget_when_the_whole_weight_is_too_wide() -> None:
    """SPEC 1.6, 7.3: when a frontier of the items' whole weight would not fit
    in memory, the solver builds one only as wide as the budget asked."""
    memory, runtime = [1e12, 2e-4, 3e-4], [1.0, 2.0, 3.0]
    solver = integration.FrontierSolver()
    assert solver(memory, runtime, 4e-4) == dp_knapsack_sliding_hirschberg(memory, runtime, 4e-4)
    assert solver.frontiers_built == 1
