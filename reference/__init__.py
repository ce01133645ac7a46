"""The reference solver, the exact oracle and the shared validation (SPEC 1-7).

``knapsack_audit.reference`` is installed from the top-level ``reference/``
folder (see CONTRIBUTING.md, "Layout").
"""

from .oracle import OracleResult, brute_force, exact_optimum, pareto_optimum
from .table import dp_knapsack
from .validation import BudgetTooLargeError, Instance, quantize, validate

__all__ = [
    "BudgetTooLargeError",
    "Instance",
    "OracleResult",
    "brute_force",
    "dp_knapsack",
    "exact_optimum",
    "pareto_optimum",
    "quantize",
    "validate",
]
