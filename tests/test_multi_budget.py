"""torch's multi-call paths served from one frontier (optimized/integration.py).

The knee point of ``dynamic_memory_budget_dp`` is computed by torch's own
``KnapsackEvaluator`` on each golden call (same budgets, same normalization),
once with torch's ``dp_knapsack`` and once with our :class:`FrontierSolver`;
the two must agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import torch
import torch._functorch.config as functorch_config
import torch._functorch.partitioners as partitioners
from torch._functorch._activation_checkpointing.graph_info_provider import GraphInfoProvider
from torch._functorch._activation_checkpointing.knapsack import dp_knapsack
from torch._functorch._activation_checkpointing.knapsack_evaluator import KnapsackEvaluator

from knapsack_audit.golden import fixtures
from knapsack_audit.optimized import integration

SMALL_CALL_ITEMS = 100
"""By default the knee test runs on the first golden call of each fixture file
below this many items (100 upstream dp_knapsack calls cost 0.2-2 s each on
these); every other golden call, including the 320-item ones (about 10 s
each), is marked slow."""


def evaluator(memory: list[float], runtime: list[float]) -> KnapsackEvaluator:
    """torch's evaluator on a call, built the way the partitioner builds it
    (``recorded_knapsack_input_*``), with one graph node per item."""
    names = [f"n{i}" for i in range(len(memory))]
    provider = GraphInfoProvider(
        graph_nodes_in_order=names,
        graph_edges=[],
        all_recomputable_banned_nodes=names,
        recorded_knapsack_input_memories=memory,
        recorded_knapsack_input_runtimes=runtime,
    )
    return KnapsackEvaluator(graph_info_provider=provider)


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
    with one frontier as with 100 upstream dp_knapsack calls (the frontier
    returns the canonical selection, which upstream's float32 table also
    backtracks to on these calls)."""
    memory, runtime, max_memory = fixture.case.arguments()
    expected = evaluator(memory, runtime).get_knee_point_memory_budget(
        knapsack_algo=dp_knapsack, max_mem_budget=max_memory
    )
    solver = integration.FrontierSolver()
    actual = evaluator(memory, runtime).get_knee_point_memory_budget(
        knapsack_algo=solver, max_mem_budget=max_memory
    )
    assert actual == expected
    assert solver.frontiers_built == 1 and solver.calls == 100


def _model() -> torch.nn.Module:
    torch.manual_seed(0)
    blocks: list[torch.nn.Module] = []
    for _ in range(4):
        blocks += [torch.nn.Linear(32, 32), torch.nn.GELU()]
    return torch.nn.Sequential(torch.nn.Linear(16, 32), *blocks, torch.nn.Linear(32, 4))


def _gradients(model: Any, inputs: torch.Tensor) -> list[torch.Tensor]:
    model.zero_grad()
    model(inputs).pow(2).sum().backward()
    return [p.grad.clone() for p in model.parameters() if p.grad is not None]


@pytest.fixture
def fresh_dynamo() -> Iterator[None]:
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _compile_and_record(
    monkeypatch: pytest.MonkeyPatch, inputs: torch.Tensor, served: bool
) -> tuple[list[torch.Tensor], list[float], int]:
    """Gradients of the compiled model under dynamic_memory_budget_dp, the
    budgets of every knapsack call, and the frontiers built (0 if not served)."""
    torch._dynamo.reset()
    budgets: list[float] = []
    with functorch_config.patch(
        activation_memory_budget=0.5, activation_memory_budget_solver="dynamic_memory_budget_dp"
    ):
        if served:
            with integration.serve_budgets_from_frontiers() as solver:
                inner = partitioners.dp_knapsack

                def recording(memory: list[float], runtime: list[float], budget: float) -> Any:
                    budgets.append(budget)
                    return inner(memory, runtime, budget)

                monkeypatch.setattr(partitioners, "dp_knapsack", recording)
                gradients = _gradients(
                    torch.compile(_model(), backend="aot_eager_decomp_partition"), inputs
                )
                monkeypatch.undo()
            return gradients, budgets, solver.frontiers_built

        def upstream(memory: list[float], runtime: list[float], budget: float) -> Any:
            budgets.append(budget)
            return dp_knapsack(memory, runtime, budget)

        monkeypatch.setattr(partitioners, "dp_knapsack", upstream)
        gradients = _gradients(
            torch.compile(_model(), backend="aot_eager_decomp_partition"), inputs
        )
        monkeypatch.undo()
        return gradients, budgets, 0


def test_compiled_model_with_knee_search_served_from_one_frontier(
    fresh_dynamo: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 3.3, 6.1: torch.compile with dynamic_memory_budget_dp inside
    serve_budgets_from_frontiers makes the same 101 calls (100 knee budgets,
    then the knee) as with torch's dp_knapsack, from one frontier, picks the
    same knee, and trains like eager."""
    inputs = torch.randn(8, 64, 16, generator=torch.Generator().manual_seed(1))
    expected = _gradients(_model(), inputs)
    original = partitioners.dp_knapsack
    upstream_gradients, upstream_budgets, _ = _compile_and_record(monkeypatch, inputs, False)
    gradients, budgets, frontiers = _compile_and_record(monkeypatch, inputs, True)
    assert len(upstream_budgets) == 101, "the partitioner never ran the knee search"
    assert budgets == upstream_budgets  # same 100 budgets and the same knee
    assert frontiers == 1
    torch.testing.assert_close(gradients, expected)
    torch.testing.assert_close(upstream_gradients, expected)
    assert partitioners.dp_knapsack is original


def test_serving_restores_on_exception_and_detects_missing_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3 (torch is served only by the optimal solver it asked for): the
    partitioner's names are restored on exceptions; a torch without them is
    refused before anything is patched."""
    originals = {name: getattr(partitioners, name) for name in integration.MULTI_CALL_ATTRIBUTES}
    with pytest.raises(RuntimeError, match="boom"), integration.serve_budgets_from_frontiers():
        assert isinstance(partitioners.dp_knapsack, integration.FrontierSolver)
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
