"""Drop-in use of our solver inside torch's min-cut partitioner.

:func:`use_optimized_solver` makes every knapsack call ours;
:func:`serve_budgets_from_frontiers` serves the multi-call paths (the knee
search of ``dynamic_memory_budget_dp``, the Pareto plot) from one frontier per
graph (:mod:`.budgets`).

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
from typing import Any

import torch
import torch._functorch.config as functorch_config
import torch._functorch.partitioners as partitioners

from knapsack_audit.reference.validation import (
    SCALE,
    BudgetTooLargeError,
    quantized_budget,
    validate,
)

from .budgets import RuntimeMemoryFrontier, runtime_memory_frontier, selection_at
from .evaluator import FrontierKnapsackEvaluator
from .solver import dp_knapsack_sliding_hirschberg

SUPPORTED_TORCH = "2.10 to 2.15"
"""The torch releases whose partitioner has every name this module patches
(and whose ``knapsack.py`` has the off-by-one of pytorch issue #197871): the
one place the project states the range."""


@contextmanager
def patch_partitioner(**replacements: Any) -> Iterator[dict[str, Any]]:
    """Rebind module attributes of ``torch._functorch.partitioners`` for the
    block (``patch_partitioner(dp_knapsack=solver)``) and restore them on exit,
    also on exceptions; yields the originals by name. The one place the
    project saves and restores the partitioner's names (integration, golden
    capture, end-to-end tests). Not thread-safe (module attributes are
    process-wide).

    Raises:
        RuntimeError: the installed torch's partitioner lacks one of the names
            (detected on entry; nothing is patched then).
    """
    missing = [name for name in replacements if not hasattr(partitioners, name)]
    if missing:
        raise RuntimeError(
            f"torch {torch.__version__}: torch._functorch.partitioners has no {missing}; "
            f"supported: torch {SUPPORTED_TORCH}"
        )
    originals = {name: getattr(partitioners, name) for name in replacements}
    for name, replacement in replacements.items():
        setattr(partitioners, name, replacement)
    try:
        yield originals
    finally:
        for name, original in originals.items():
            setattr(partitioners, name, original)


SOLVER_NAME = "dp_knapsack_sliding_hirschberg"
"""The ``activation_memory_budget_solver`` value whose implementation we replace."""

PARTITIONER_ATTRIBUTE = "dp_knapsack_sliding_hirschberg"
"""The name under which ``partitioners.py`` imported upstream's solver."""


@contextmanager
def use_optimized_solver() -> Iterator[None]:
    """Make torch's partitioner use our exact solver for the duration of the block."""
    with (
        functorch_config.patch(activation_memory_budget_solver=SOLVER_NAME),
        patch_partitioner(**{PARTITIONER_ATTRIBUTE: dp_knapsack_sliding_hirschberg}),
    ):
        yield


EVALUATOR_ATTRIBUTE = "KnapsackEvaluator"
"""The name under which ``partitioners.py`` imported torch's evaluator class."""

MULTI_CALL_ATTRIBUTES = ("dp_knapsack", "dp_knapsack_sliding_hirschberg")
"""The solver names ``partitioners.py`` (:data:`SUPPORTED_TORCH`) calls on its multi-call
paths: ``"dp"`` and the knee search of ``"dynamic_memory_budget_dp"``
(``KnapsackEvaluator(...).get_knee_point_memory_budget(knapsack_algo=dp_knapsack)``
then ``dp_knapsack`` at the knee), ``"dp_knapsack_sliding_hirschberg"``, and the
Pareto plot (``visualize_memory_budget_pareto``), which re-runs the
configured solver per budget."""


class FrontierSolver:
    """A solver with upstream's signature that answers every call on the same
    items from one :class:`~knapsack_audit.optimized.RuntimeMemoryFrontier`.

    The first call on some ``(memory, runtime)`` builds the frontier for every
    budget up to 1.0 and the items' total weight, or up to the budget given to
    :meth:`prepare` before (SPEC 1.6 is checked there); later
    calls on the same items, at any budget, cost one :func:`selection_at`.
    Answers equal :func:`dp_knapsack_sliding_hirschberg`'s (proofs/11).

    Attributes:
        frontiers_built: how many frontiers were computed (one per distinct
            items), for tests and reports.
        calls: how many calls were answered.
    """

    def __init__(self) -> None:
        self._frontiers: dict[
            tuple[tuple[float, ...], tuple[float, ...]], RuntimeMemoryFrontier
        ] = {}
        self.frontiers_built = 0
        self.calls = 0

    def __call__(
        self, memory: list[float], runtime: list[float], max_memory: float
    ) -> tuple[float, list[int], list[int]]:
        try:
            key = (tuple(memory), tuple(runtime))
            frontier = self._frontiers.get(key)
        except TypeError:  # unhashable: invalid input, let the solver say why (SPEC 1)
            return dp_knapsack_sliding_hirschberg(memory, runtime, max_memory)
        budget = quantized_budget(max_memory)
        if frontier is None or budget > frontier.capacity:
            instance = validate(memory, runtime, max_memory)
            # Budget 1.0 too: the partitioner's budgets lie in [0, 1] and the
            # table is capped at the items' total weight, so it costs nothing.
            widest = max(max_memory, 1.0, sum(instance.weights) / SCALE)
            try:
                frontier = self._build(key, widest)
            except BudgetTooLargeError:  # then only as wide as asked (SPEC 1.6 names that Q)
                frontier = self._build(key, max_memory)
        self.calls += 1
        return selection_at(frontier, max_memory)

    def prepare(self, memory: list[float], runtime: list[float], max_memory: float) -> None:
        """Build the frontier of these items for budgets up to ``max_memory`` now
        (unless one that large exists), so that calls at budgets up to it need
        no larger one: the knee search knows its largest budget in advance
        (:class:`.evaluator.FrontierKnapsackEvaluator`), and a table only that
        wide is cheaper than one for the items' whole weight."""
        key = (tuple(memory), tuple(runtime))
        frontier = self._frontiers.get(key)
        if frontier is None or quantized_budget(max_memory) > frontier.capacity:
            self._build(key, max_memory)

    def _build(
        self, key: tuple[tuple[float, ...], tuple[float, ...]], max_memory: float
    ) -> RuntimeMemoryFrontier:
        frontier = runtime_memory_frontier(list(key[0]), list(key[1]), max_memory)
        self._frontiers[key] = frontier
        self.frontiers_built += 1
        return frontier


@contextmanager
def serve_budgets_from_frontiers() -> Iterator[FrontierSolver]:
    """Serve torch's multi-call knapsack paths from one frontier per graph.

    Inside the block, the partitioner module's ``dp_knapsack`` and
    ``dp_knapsack_sliding_hirschberg`` (:data:`MULTI_CALL_ATTRIBUTES`) are one
    :class:`FrontierSolver`, and its ``KnapsackEvaluator``
    (:data:`EVALUATOR_ATTRIBUTE`) is
    :class:`~.evaluator.FrontierKnapsackEvaluator`, so with
    ``activation_memory_budget_solver="dynamic_memory_budget_dp"`` the knee
    search's 100 calls and the final call cost one frontier (as wide as the
    budget) and 101 selections, with the evaluator's per-budget totals taken
    once (same results, float for float), and
    ``visualize_memory_budget_pareto``'s bisection one frontier per graph.
    The configured solver is left as the caller set it. Restored on exit,
    also on exceptions. Not thread-safe (a module attribute is rebound
    process-wide).

    ``CustomKnapsackSolver`` (torch's supported plug-in) is not used: it is
    called without the runtimes, so it could not return the optimum the
    partitioner's own estimator defines.

    Raises:
        RuntimeError: the installed torch's partitioner lacks one of the
            names (detected on entry; nothing is patched then).
    """
    solver = FrontierSolver()
    replacements: dict[str, Any] = dict.fromkeys(MULTI_CALL_ATTRIBUTES, solver)
    replacements[EVALUATOR_ATTRIBUTE] = FrontierKnapsackEvaluator
    with patch_partitioner(**replacements):
        yield solver
