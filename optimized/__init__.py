"""Fast exact solvers honouring docs/SPEC.md (issue #4 fills this package).

``knapsack_audit.optimized`` is installed from the top-level ``optimized/``
folder (see CONTRIBUTING.md, "Layout").
"""
