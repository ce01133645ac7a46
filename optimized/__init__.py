"""Fast exact solvers honouring docs/SPEC.md.

``knapsack_audit.optimized`` is installed from the top-level ``optimized/``
folder (see CONTRIBUTING.md, "Layout").

Modules: :mod:`.solver` (the public solver), :mod:`.reductions` (exact
reductions and bound fixing), :mod:`.driver` (Hirschberg divide and conquer),
:mod:`.backends` (pure-Python and torch array backends), :mod:`.frontier`
(sparse Pareto frontier for small cores), :mod:`.grouping` (identical items
as one item type), :mod:`.bounded` (the bounded knapsack over item types), :mod:`.repeated`
(calls with repeated items read as item types in a few C loops),
:mod:`.budgets` (every budget in one pass), :mod:`.checks` (invariant
checkers), :mod:`.integration` (drop-in use inside torch's partitioner),
:mod:`.evaluator` (torch's knee search without its per-budget overhead).
Proofs: proofs/04, 06, 07, 08, 09, 10, 12.
"""

from .budgets import (
    RuntimeMemoryFrontier,
    frontier_knapsack,
    runtime_memory_frontier,
    selection_at,
)
from .solver import dp_knapsack_sliding_hirschberg

__all__ = [
    "RuntimeMemoryFrontier",
    "dp_knapsack_sliding_hirschberg",
    "frontier_knapsack",
    "runtime_memory_frontier",
    "selection_at",
]
