"""The partitioner really calls our solver inside ``use_optimized_solver()``."""

from __future__ import annotations

import pytest
import torch
import torch._functorch.config as functorch_config
import torch._functorch.partitioners as partitioners
from compiled_steps import gradients

from knapsack_audit.optimized import dp_knapsack_sliding_hirschberg, integration


def _model() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(16, 32),
        torch.nn.ReLU(),
        torch.nn.Linear(32, 32),
        torch.nn.ReLU(),
        torch.nn.Linear(32, 4),
    )


def test_compiled_mlp_uses_our_solver_and_matches_eager(
    fresh_dynamo: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 3.2, 3.3: the partitioner calls our solver and the compiled step matches eager."""
    calls: list[tuple[int, float]] = []

    def counting_solver(
        memory: list[float], runtime: list[float], max_memory: float
    ) -> tuple[float, list[int], list[int]]:
        calls.append((len(memory), max_memory))
        return dp_knapsack_sliding_hirschberg(memory, runtime, max_memory)

    monkeypatch.setattr(integration, "dp_knapsack_sliding_hirschberg", counting_solver)
    model = _model()
    # Batch 8 of 64 positions: activations must outweigh the parameters, or the
    # partitioner returns before the knapsack (max_act_size <= min_act_size).
    inputs = torch.randn(8, 64, 16, generator=torch.Generator().manual_seed(1))
    expected = gradients(model, inputs)
    original = getattr(partitioners, integration.PARTITIONER_ATTRIBUTE)
    with (
        integration.use_optimized_solver(),
        functorch_config.patch(activation_memory_budget=0.5),
    ):
        compiled = torch.compile(model, backend="aot_eager_decomp_partition")
        actual = gradients(compiled, inputs)  # type: ignore[arg-type]
    assert calls, "the partitioner never called our solver"
    assert all(budget == 0.5 for _, budget in calls)
    torch.testing.assert_close(actual, expected)
    assert getattr(partitioners, integration.PARTITIONER_ATTRIBUTE) is original
    assert functorch_config.activation_memory_budget_solver == "dp"


def test_restores_on_exception() -> None:
    """SPEC 8.2: the context manager restores the partitioner's solver even on an exception."""
    original = getattr(partitioners, integration.PARTITIONER_ATTRIBUTE)
    with pytest.raises(RuntimeError, match="boom"), integration.use_optimized_solver():
        assert (
            getattr(partitioners, integration.PARTITIONER_ATTRIBUTE)
            is dp_knapsack_sliding_hirschberg
        )
        raise RuntimeError("boom")
    assert getattr(partitioners, integration.PARTITIONER_ATTRIBUTE) is original
