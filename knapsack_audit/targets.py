"""What ``knapsack-audit verify`` audits: parse TARGET arguments.

A TARGET names a solver with upstream's signature (SPEC, contract):

* ``torch``: every knapsack solver of the installed torch
  (:data:`knapsack_audit.catalog.TORCH_SOLVERS`, whichever exist);
* ``torch:NAME``: one of them;
* ``package.module:function``: a function of an importable module;
* ``path/to/file.py:function``: a function of a Python file, loaded with
  :mod:`importlib` without installing it (its ``import torch`` uses the
  installed torch);
* ``path/to/file.py``: every function of the file with upstream's signature
  (:func:`file_solvers`);
* ``path/to/pytorch``: a PyTorch checkout, i.e. its :data:`CHECKOUT_FILE`.

Loading a module or a file executes its code, so the one loader
(:func:`knapsack_audit.catalog.load`, given :attr:`Target.entry`) is only
called inside the isolated worker (:mod:`knapsack_audit.isolation`), never in
the auditing process.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from pathlib import Path

from knapsack_audit.catalog import (
    TORCH_ILP,
    TORCH_MODULE,
    Entry,
    TargetError,
    installed_torch_solvers,
    is_ours,
)

__all__ = ["Target", "TargetError", "file_solvers", "parse_target", "parse_targets"]

CHECKOUT_FILE = Path(*TORCH_MODULE.split(".")).with_suffix(".py")
"""Where a PyTorch checkout keeps the knapsack solvers (the module path of :data:`TORCH_MODULE`)."""

SOLVER_PARAMETERS = (("memory",), ("runtime", "runtimes"), ("max_memory",))
"""Upstream's signature: three positional parameters with these names
(upstream calls the second ``runtime`` in ``dp_knapsack``, ``runtimes`` in
``greedy_knapsack``)."""


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
    def entry(self) -> Entry:
        """The catalog's view of it: ``location:function``, judge and domain."""
        location = self.path if self.path is not None else self.module
        assert location is not None
        return Entry(location, self.function)

    @property
    def is_ours(self) -> bool:
        """Ours (SPEC, "Ours"): judged exactly on the extended domain (SPEC 4.4, 5.1)."""
        return is_ours(self.module)

    @property
    def is_torch_ilp(self) -> bool:
        """Upstream's ILP solver, which solves the unquantized problem."""
        return self.module == TORCH_MODULE and self.function == TORCH_ILP


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
