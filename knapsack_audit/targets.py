"""What ``knapsack-audit verify`` audits: parse TARGET arguments and load solvers.

A TARGET names a solver with upstream's signature (SPEC, contract):

* ``torch``: every knapsack solver of the installed torch
  (:data:`TORCH_SOLVERS`, whichever exist);
* ``torch:NAME``: one of them;
* ``package.module:function``: a function of an importable module;
* ``path/to/file.py:function``: a function of a Python file, loaded with
  :mod:`importlib` without installing it (its ``import torch`` uses the
  installed torch);
* ``path/to/file.py``: every function of the file with upstream's signature
  (:func:`file_solvers`);
* ``path/to/pytorch``: a PyTorch checkout, i.e. its :data:`CHECKOUT_FILE`.

Loading a module or a file executes its code. :func:`load_solver` is only
called inside the isolated worker (:mod:`knapsack_audit.isolation`), never in
the auditing process.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TORCH_MODULE = "torch._functorch._activation_checkpointing.knapsack"
"""Where upstream keeps its knapsack solvers (torch 2.10-2.14)."""

TORCH_SOLVERS = ("dp_knapsack", "dp_knapsack_sliding_hirschberg", "greedy_knapsack", "ilp_knapsack")
"""Upstream's solvers with the knapsack contract, in the order they are audited."""

CHECKOUT_FILE = Path("torch/_functorch/_activation_checkpointing/knapsack.py")
"""Where a PyTorch checkout keeps the knapsack solvers."""

SOLVER_PARAMETERS = (("memory",), ("runtime", "runtimes"), ("max_memory",))
"""Upstream's signature: three positional parameters with these names
(upstream calls the second ``runtime`` in ``dp_knapsack``, ``runtimes`` in
``greedy_knapsack``)."""

OUR_PACKAGE = "knapsack_audit"


class TargetError(Exception):
    """A TARGET that cannot be parsed or loaded; the message says why (exit code 2)."""


@dataclass(frozen=True)
class Target:
    """One solver to audit.

    Attributes:
        label: how reports name it (``torch:dp_knapsack``, ``pkg.mod:f``, ``file.py:f``).
        module: the module name, or ``None`` for a file target.
        path: the file of a file target, else ``None``.
        function: the attribute holding the solver.
    """

    label: str
    module: str | None
    path: str | None
    function: str

    @property
    def is_ours(self) -> bool:
        """Ours (SPEC, "Ours"): judged exactly on the extended domain (SPEC 4.4, 5.1)."""
        return self.module is not None and (
            self.module == OUR_PACKAGE or self.module.startswith(OUR_PACKAGE + ".")
        )

    @property
    def is_torch_ilp(self) -> bool:
        """Upstream's ILP solver, which solves the unquantized problem."""
        return self.module == TORCH_MODULE and self.function == "ilp_knapsack"


def parse_targets(arguments: list[str]) -> list[Target]:
    """Every target the command-line TARGET arguments name, in order, without repeats."""
    targets: list[Target] = []
    for argument in arguments:
        for target in parse_target(argument):
            if target not in targets:
                targets.append(target)
    return targets


def parse_target(argument: str) -> list[Target]:
    """The targets one TARGET argument names; :class:`TargetError` if malformed.

    File targets are checked for existence here; modules and attributes are
    checked when the worker loads them.
    """
    if argument == "torch":
        return [_torch_target(name) for name in installed_torch_solvers()]
    whole = Path(argument)
    if whole.is_dir():
        checkout_file = whole / CHECKOUT_FILE
        if not checkout_file.is_file():
            raise TargetError(f"target {argument!r}: not a PyTorch checkout (no {CHECKOUT_FILE})")
        return _file_targets(argument, checkout_file)
    if argument.endswith(".py"):
        if not whole.is_file():
            raise TargetError(f"target {argument!r}: file not found: {argument}")
        return _file_targets(argument, whole)
    location, colon, function = argument.rpartition(":")
    if not colon or not location or not function:
        raise TargetError(
            f"target {argument!r}: expected 'torch', 'torch:NAME', 'package.module:function', "
            "'path/to/file.py:function', 'path/to/file.py' or a PyTorch checkout directory"
        )
    if not function.isidentifier():
        raise TargetError(f"target {argument!r}: {function!r} is not a Python identifier")
    if location == "torch":
        return [_torch_target(function)]
    if location.endswith(".py") or os.sep in location or "/" in location:
        path = Path(location)
        if not path.is_file():
            raise TargetError(f"target {argument!r}: file not found: {location}")
        return [Target(f"{path.name}:{function}", None, str(path.resolve()), function)]
    if not all(part.isidentifier() for part in location.split(".")):
        raise TargetError(f"target {argument!r}: {location!r} is not a module name")
    return [Target(argument, location, None, function)]


def _file_targets(argument: str, path: Path) -> list[Target]:
    names = file_solvers(path)
    if not names:
        raise TargetError(
            f"target {argument!r}: {path} defines no function with upstream's signature "
            "(memory, runtime, max_memory)"
        )
    return [Target(f"{argument}:{name}", None, str(path.resolve()), name) for name in names]


def file_solvers(path: Path) -> list[str]:
    """Top-level functions of ``path`` with upstream's signature, in file order.

    Read with :mod:`ast` (the file is not run): exactly the three positional
    parameters of :data:`SOLVER_PARAMETERS`, no other required parameter.
    """
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError, UnicodeDecodeError) as error:
        raise TargetError(f"cannot read {path}: {type(error).__name__}: {error}") from None
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and _has_solver_signature(node.args)
    ]


def _has_solver_signature(arguments: ast.arguments) -> bool:
    positional = [*arguments.posonlyargs, *arguments.args]
    required_keywords = [d for d in arguments.kw_defaults if d is None]
    return (
        len(positional) == len(SOLVER_PARAMETERS)
        and not arguments.defaults
        and not required_keywords
        and all(a.arg in names for a, names in zip(positional, SOLVER_PARAMETERS, strict=True))
    )


def _torch_target(name: str) -> Target:
    return Target(f"torch:{name}", TORCH_MODULE, None, name)


def installed_torch_solvers() -> list[str]:
    """Which of :data:`TORCH_SOLVERS` the installed torch defines.

    Read from the source with :mod:`ast`, so the auditing process does not
    import torch.
    """
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        raise TargetError("target 'torch': torch is not installed")
    source = Path(spec.origin).parent / "_functorch" / "_activation_checkpointing" / "knapsack.py"
    if not source.is_file():
        raise TargetError(f"target 'torch': the installed torch has no {TORCH_MODULE}")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    return [name for name in TORCH_SOLVERS if name in defined]


def load_solver(target: Target) -> Callable[..., Any]:
    """Import the target's module or file and return its solver (executes its code).

    Raises:
        TargetError: module or file not found, import failed, attribute
            missing, or not callable; the message says which.
    """
    if target.path is not None:
        namespace = _load_file(target.path)
        where = target.path
    else:
        assert target.module is not None
        namespace = _import_module(target.module)
        where = f"module {target.module}"
    if not hasattr(namespace, target.function):
        raise TargetError(f"target {target.label}: {where} has no attribute {target.function!r}")
    solver = getattr(namespace, target.function)
    if not callable(solver):
        raise TargetError(
            f"target {target.label}: {target.function} is a {type(solver).__name__}, not callable"
        )
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
