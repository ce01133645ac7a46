"""Drop-in use of our solver inside torch's min-cut partitioner.

:func:`use_optimized_solver` is a context manager. Inside it,
``torch.compile`` training graphs partitioned under
``torch._functorch.config.activation_memory_budget < 1`` choose the activations
to save with :func:`knapsack_audit.optimized.dp_knapsack_sliding_hirschberg`
instead of upstream's solvers::

    with use_optimized_solver(), torch._functorch.config.patch(activation_memory_budget=0.5):
        loss = torch.compile(model)(inputs).sum()
        loss.backward()

How: the partitioner (``torch/_functorch/partitioners.py``,
``_optimize_runtime_with_given_memory``) dispatches on
``config.activation_memory_budget_solver`` and calls the name
``dp_knapsack_sliding_hirschberg`` that it imported into its own module. The
context manager (1) sets that config entry to ``"dp_knapsack_sliding_hirschberg"``
with ``torch._functorch.config.patch`` and (2) rebinds the partitioner module's
name to our function; both are restored on exit, also on exceptions. Graphs
compiled earlier are cached by ``torch.compile``; call ``torch._dynamo.reset()``
to repartition them.

Not thread-safe: it rebinds a module attribute process-wide, like any
``config.patch``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch._functorch.config as functorch_config
import torch._functorch.partitioners as partitioners

from .solver import dp_knapsack_sliding_hirschberg

SOLVER_NAME = "dp_knapsack_sliding_hirschberg"
"""The ``activation_memory_budget_solver`` value whose implementation we replace."""

PARTITIONER_ATTRIBUTE = "dp_knapsack_sliding_hirschberg"
"""The name under which ``partitioners.py`` imported upstream's solver."""


@contextmanager
def use_optimized_solver() -> Iterator[None]:
    """Make torch's partitioner use our exact solver for the duration of the block."""
    original = getattr(partitioners, PARTITIONER_ATTRIBUTE)
    with functorch_config.patch(activation_memory_budget_solver=SOLVER_NAME):
        setattr(partitioners, PARTITIONER_ATTRIBUTE, dp_knapsack_sliding_hirschberg)
        try:
            yield
        finally:
            setattr(partitioners, PARTITIONER_ATTRIBUTE, original)
