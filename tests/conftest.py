"""Shared test set-up: the Hypothesis profile (``HYPOTHESIS_PROFILE``, default
``ci``) and the ``fresh_dynamo`` fixture."""

from collections.abc import Iterator

import pytest

from knapsack_audit.profiles import load_from_environment

load_from_environment()


@pytest.fixture
def fresh_dynamo() -> Iterator[None]:
    """``torch._dynamo.reset()`` before and after the test, so that every
    ``torch.compile`` in it partitions afresh and leaves no cached graph."""
    import torch

    torch._dynamo.reset()
    yield
    torch._dynamo.reset()
