"""Every solver we know, the one loader, and how each is judged.

A solver is named ``location:function``, where ``location`` is a module
(``knapsack_audit.reference``) or a Python file (``path/to/knapsack.py``), so
it can be loaded again in a fresh process (determinism across processes,
SPEC 8.1; the isolated worker; the exhaustive check's worker pool).

* :data:`OUR_SOLVERS`: ours. Adding a solver of ours is one line here; the
  contract suite, the engine's tests, the exhaustive scope, the golden replay
  and the release report then run it.
* :data:`TORCH_MODULE` and :data:`TORCH_SOLVERS`: upstream's, by name.
* :func:`is_ours` and :func:`judging`: ours are judged exactly on the
  extended domain (SPEC 4.4, 5.1), every other solver with the float32
  tolerance of SPEC 5.2 on the partitioner domain.
* :func:`load`: the one loader (executes the module's or the file's code).

>>> [entry.name for entry in ours()][0]
'knapsack_audit.reference:dp_knapsack'
>>> judging("knapsack_audit.optimized"), judging(TORCH_MODULE)
((True, 'extended'), (False, 'partitioner'))
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

OUR_PACKAGE = "knapsack_audit"

REFERENCE = "knapsack_audit.reference:dp_knapsack"
"""The readable exact DP: the one solver that must return the canonical selection (SPEC 6.2)."""

OPTIMIZED = "knapsack_audit.optimized:dp_knapsack_sliding_hirschberg"
"""The fast exact solver: the one the golden findings time upstream's against."""

OUR_SOLVERS = (REFERENCE, OPTIMIZED)
"""Every solver of ours, ``module:function``; each honours all of docs/SPEC.md exactly."""

CANONICAL_TABLE = "knapsack_audit.integer_oracle:canonical_dp_knapsack"
"""The reference's answers from one int64 table (the benchmarks' exact
per-budget solver): like :data:`REFERENCE`, it must return the canonical selection."""

OTHER_ENTRY_POINTS = (
    "knapsack_audit.optimized:frontier_knapsack",
    "knapsack_audit.optimized.integration:FrontierSolver",
    CANONICAL_TABLE,
)
"""With :data:`OUR_SOLVERS`, every callable of ours with upstream's signature:
the all-budgets paths the partitioner reaches through
:mod:`knapsack_audit.optimized.integration` (``selection_at`` of a frontier;
a :class:`~knapsack_audit.optimized.integration.FrontierSolver`, loaded as a
fresh instance), and the int64 table the benchmarks use as the exact
per-budget solver (:class:`~knapsack_audit.integer_oracle.CanonicalTable`).
``tests/test_contract.py`` runs SPEC 1-8 on each."""

TORCH_MODULE = "torch._functorch._activation_checkpointing.knapsack"
"""Where upstream keeps its knapsack solvers (torch
:data:`knapsack_audit.optimized.integration.SUPPORTED_TORCH`)."""

TORCH_HIRSCHBERG = "dp_knapsack_sliding_hirschberg"
"""Upstream's Hirschberg solver, with the off-by-one of pytorch issue #197871."""

TORCH_ILP = "ilp_knapsack"
"""Upstream's ILP solver, which solves the unquantized problem (reports explain it)."""

TORCH_SOLVERS = ("dp_knapsack", TORCH_HIRSCHBERG, "greedy_knapsack", TORCH_ILP)
"""Upstream's solvers with the knapsack contract, in the order they are audited."""

EXTENDED, PARTITIONER = "extended", "partitioner"
"""The two input domains of SPEC 4.4."""


class TargetError(Exception):
    """A solver that cannot be named or loaded; the message says why (exit code 2)."""


@dataclass(frozen=True)
class Entry:
    """One solver of the catalog: where it lives and how it is judged.

    Attributes:
        location: a module name, or the path of a Python file.
        function: the attribute holding the solver.
    """

    location: str
    function: str

    @property
    def name(self) -> str:
        """``location:function``, the form :func:`load` and the worker processes take."""
        return f"{self.location}:{self.function}"

    @property
    def exact(self) -> bool:
        """Judged with no tolerance (SPEC 5.1) rather than SPEC 5.2's."""
        return judging(self.location)[0]

    @property
    def domain(self) -> str:
        """The input domain it is audited on (SPEC 4.4)."""
        return judging(self.location)[1]

    def load(self) -> Callable[..., Any]:
        """The solver itself (imports its module: executes code)."""
        return load(self.name)


def entry(name: str) -> Entry:
    """The entry for ``location:function``; :class:`TargetError` without a ``:``."""
    location, colon, function = name.rpartition(":")
    if not colon or not location or not function:
        raise TargetError(f"solver {name!r}: expected 'location:function'")
    return Entry(location, function)


def ours() -> list[Entry]:
    """Every solver of ours (:data:`OUR_SOLVERS`, read at call time)."""
    return [entry(name) for name in OUR_SOLVERS]


def entry_points() -> list[Entry]:
    """Every callable of ours with upstream's signature: :data:`OUR_SOLVERS`
    (read at call time) and :data:`OTHER_ENTRY_POINTS`."""
    return [entry(name) for name in (*OUR_SOLVERS, *OTHER_ENTRY_POINTS)]


def torch_entries(names: tuple[str, ...] | list[str] = TORCH_SOLVERS) -> list[Entry]:
    """Upstream's solvers named ``names`` (default: all of :data:`TORCH_SOLVERS`)."""
    return [Entry(TORCH_MODULE, name) for name in names]


def is_file(location: str) -> bool:
    """Whether ``location`` names a Python file rather than a module."""
    return location.endswith(".py") or "/" in location or "\\" in location


def is_ours(location: str | None) -> bool:
    """A module of this package or of :data:`OUR_SOLVERS` (SPEC, "Ours"); a file never is."""
    if location is None or is_file(location):
        return False
    return (
        location == OUR_PACKAGE
        or location.startswith(OUR_PACKAGE + ".")
        or location in {solver.location for solver in ours()}
    )


def judging(location: str | None) -> tuple[bool, str]:
    """``(exact, domain)`` for a solver at ``location``: the one rule (SPEC 4.4, 5).

    Ours: exact, extended domain. Every other solver: float32 tolerance,
    partitioner domain.
    """
    if is_ours(location):
        return True, EXTENDED
    return False, PARTITIONER


def installed_torch_solvers() -> list[str]:
    """Which of :data:`TORCH_SOLVERS` the installed torch defines.

    Read from the source with :mod:`ast`, so the calling process does not
    import torch.
    """
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        raise TargetError("target 'torch': torch is not installed")
    source = Path(spec.origin).parent.joinpath(*TORCH_MODULE.split(".")[1:]).with_suffix(".py")
    if not source.is_file():
        raise TargetError(f"target 'torch': the installed torch has no {TORCH_MODULE}")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    return [name for name in TORCH_SOLVERS if name in defined]


def load(name: str, label: str | None = None) -> Callable[..., Any]:
    """Import ``location:function`` and return the solver (executes its code);
    a class is instantiated (with no arguments), a fresh instance per load.

    ``label`` is how error messages name the solver (default ``name``).

    Raises:
        TargetError: malformed name, module or file not found, import failed,
            attribute missing, or not callable; the message says which.
    """
    solver_entry = entry(name)
    label = label or name
    location, function = solver_entry.location, solver_entry.function
    if is_file(location):
        namespace = _load_file(location)
        where = location
    else:
        namespace = _import_module(location)
        where = f"module {location}"
    if not hasattr(namespace, function):
        raise TargetError(f"target {label}: {where} has no attribute {function!r}")
    solver = getattr(namespace, function)
    if isinstance(solver, type):  # a solver class: its instances have the signature
        solver = solver()
    if not callable(solver):
        raise TargetError(f"target {label}: {function} is a {type(solver).__name__}, not callable")
    return solver  # type: ignore[no-any-return]


def _import_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        raise TargetError(f"module not found: {name} ({error})") from None
    except Exception as error:
        raise TargetError(f"importing {name} failed: {type(error).__name__}: {error}") from None


def _load_file(path: str) -> Any:
    name = f"_knapsack_audit_target_{Path(path).stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TargetError(f"cannot load {path} as a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise TargetError(f"loading {path} failed: {type(error).__name__}: {error}") from None
    return module
