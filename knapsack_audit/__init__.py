"""knapsack-audit: a tested reference suite for PyTorch's checkpointing knapsack solvers.

Subpackages: :mod:`knapsack_audit.reference` (specification-defining solver,
exact oracle, validation) and :mod:`knapsack_audit.optimized` (the fast exact
solver). The contract is docs/SPEC.md.
"""

__version__ = "0.1.0"
