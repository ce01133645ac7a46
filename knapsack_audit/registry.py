"""Where solvers live: ours, and the installed torch's.

Targets are ``package.module:function`` strings, so a solver can be loaded in
a fresh process (determinism across processes, SPEC 8.1; isolation).
"""

from __future__ import annotations

import importlib
from typing import Any

from knapsack_audit.properties import Solver

OUR_SOLVERS = (
    "knapsack_audit.reference:dp_knapsack",
    "knapsack_audit.optimized:dp_knapsack_sliding_hirschberg",
)
"""Every solver of ours; each honours all of docs/SPEC.md exactly."""

TORCH_KNAPSACK_MODULE = "torch._functorch._activation_checkpointing.knapsack"
TORCH_SOLVER_NAMES = (
    "dp_knapsack",
    "dp_knapsack_sliding_hirschberg",
    "greedy_knapsack",
    "ilp_knapsack",
)


def load(target: str) -> Solver:
    """Import ``package.module:function`` and return the function.

    Raises:
        ValueError: ``target`` has no ``:``.
        ImportError, AttributeError: the module or the function is missing.
    """
    module_name, colon, attribute = target.partition(":")
    if not colon or not module_name or not attribute:
        raise ValueError(f"target must look like package.module:function, got {target!r}")
    function: Any = getattr(importlib.import_module(module_name), attribute)
    if not callable(function):
        raise TypeError(f"target {target!r} is not callable")
    return function  # type: ignore[no-any-return]


def torch_solvers() -> dict[str, str]:
    """``{name: target}`` for every knapsack solver the installed torch has."""
    module = importlib.import_module(TORCH_KNAPSACK_MODULE)
    return {
        name: f"{TORCH_KNAPSACK_MODULE}:{name}"
        for name in TORCH_SOLVER_NAMES
        if callable(getattr(module, name, None))
    }
