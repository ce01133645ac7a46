"""Shared test set-up: the Hypothesis profile (``HYPOTHESIS_PROFILE``, default
``ci``), the ``configure`` fixture (the optimized solver's knobs for one test)
and the ``fresh_dynamo`` fixture."""

import contextlib
from collections.abc import Callable, Iterator

import pytest

from knapsack_audit.optimized.config import configured
from knapsack_audit.profiles import load_from_environment

load_from_environment()


@pytest.fixture
def configure() -> Iterator[Callable[..., object]]:
    """``configure(name=value, ...)`` changes knobs of
    :class:`knapsack_audit.optimized.config.Config` until the test ends."""
    with contextlib.ExitStack() as stack:
        yield lambda **changes: stack.enter_context(configured(**changes))


@pytest.fixture
def fresh_dynamo() -> Iterator[None]:
    """``torch._dynamo.reset()`` before and after the test, so that every
    ``torch.compile`` in it partitions afresh and leaves no cached graph."""
    import torch

    torch._dynamo.reset()
    yield
    torch._dynamo.reset()
