"""Shared by the tests that train a model with ``torch.compile``
(tests/test_integration.py, tests/test_multi_budget.py); the fixture
``fresh_dynamo`` is in tests/conftest.py."""

from __future__ import annotations

import torch


def gradients(model: torch.nn.Module, inputs: torch.Tensor) -> list[torch.Tensor]:
    """The parameter gradients of one step on ``(model(inputs) ** 2).sum()``."""
    model.zero_grad()
    model(inputs).pow(2).sum().backward()
    return [p.grad.clone() for p in model.parameters() if p.grad is not None]
