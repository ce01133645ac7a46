"""The map of docs/ARCHITECTURE.md is complete, and no import goes up a layer.

The document's module table gives every module of ``knapsack_audit/``,
``reference/`` and ``optimized/`` (the three folders of the import package,
CONTRIBUTING.md, Layout) one layer; its layer table orders the layers, the
top first. A module may import from its own layer or a lower one. The
imports are read with :mod:`ast` (module level, inside functions and under
``TYPE_CHECKING`` alike), so no module is imported to check it. The solvers
(``reference/``, ``optimized/``) must run where the partitioner runs: with
the standard library and torch alone, and nothing of ``knapsack_audit`` but
each other.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
FOLDERS = {
    "knapsack_audit": "knapsack_audit",
    "reference": "knapsack_audit.reference",
    "optimized": "knapsack_audit.optimized",
}
"""Each folder and the package it is installed as (pyproject.toml, ``package-dir``)."""

SOLVERS_MAY_IMPORT = frozenset(sys.stdlib_module_names) | {"torch", "knapsack_audit"}
"""Top-level names a solvers-layer module may import (``knapsack_audit`` for
``knapsack_audit.reference``, which the layer rule then keeps within the layer)."""

ROW = re.compile(r"^\| `([\w/]+\.py)` \| (\w+) \|", re.MULTILINE)
LAYER_ROW = re.compile(r"^\| (\w+) \| (?!-)", re.MULTILINE)


def module_files() -> list[str]:
    """Every ``.py`` file of the three folders, as a path from the repository root."""
    return sorted(
        path.relative_to(ROOT).as_posix()
        for folder in FOLDERS
        for path in (ROOT / folder).rglob("*.py")
    )


def module_name(path: str) -> str:
    """``reference/table.py`` -> ``knapsack_audit.reference.table``; a package's
    ``__init__.py`` is the package."""
    folder, *rest = path.removesuffix(".py").split("/")
    parts = [FOLDERS[folder], *rest]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def documented_layers(text: str) -> tuple[list[str], dict[str, str]]:
    """The layers, the top first, and each documented module's layer."""
    layers_section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    order = [layer for layer in LAYER_ROW.findall(layers_section) if layer != "layer"]
    modules_section = text.split("## Modules", 1)[1].split("\n## ", 1)[0]
    return order, dict(ROW.findall(modules_section))


def imported_modules(path: str, source: str, known: Iterable[str]) -> set[str]:
    """The dotted names of ``knapsack_audit`` that ``source`` (the text of
    ``path``) imports: ``from package import module`` names the module when it
    is one of ``known``, else the package."""
    known = set(known)
    package = module_name(path).split(".")
    if not path.endswith("__init__.py"):
        package.pop()
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return found


def upward_imports(
    sources: Mapping[str, str], layers: Mapping[str, str], order: list[str]
) -> list[str]:
    """``importer -> imported`` for each import of a module of a higher layer."""
    rank = {layer: index for index, layer in enumerate(order)}
    layer_of = {module_name(path): layers[path] for path in sources if path in layers}
    found = []
    for path, source in sorted(sources.items()):
        if path not in layers:
            continue
        for name in sorted(imported_modules(path, source, layer_of)):
            if name in layer_of and rank[layer_of[name]] < rank[layers[path]]:
                found.append(f"{path} ({layers[path]}) -> {name} ({layer_of[name]})")
    return found


def foreign_imports(sources: Mapping[str, str], layers: Mapping[str, str]) -> list[str]:
    """``module -> name`` for each import of a solvers-layer module that is
    neither the standard library, torch, nor ``knapsack_audit``."""
    found = []
    for path, source in sorted(sources.items()):
        if layers.get(path) != "solvers":
            continue
        for name in sorted(imported_modules(path, source, ())):
            if name.split(".")[0] not in SOLVERS_MAY_IMPORT:
                found.append(f"{path} -> {name}")
    return found


def _tree() -> tuple[dict[str, str], list[str], dict[str, str]]:
    sources = {path: (ROOT / path).read_text(encoding="utf-8") for path in module_files()}
    order, layers = documented_layers(ARCHITECTURE.read_text(encoding="utf-8"))
    return sources, order, layers


def test_every_module_is_on_the_map() -> None:
    """SPEC 1 (the contract every layer serves; docs/ARCHITECTURE.md): every
    module has one row with a known layer, and every row is a module."""
    sources, order, layers = _tree()
    assert order == ["command", "audit", "golden", "engine", "catalog", "solvers"]
    assert sorted(set(sources) - set(layers)) == []
    assert sorted(set(layers) - set(sources)) == []
    assert sorted({layer for layer in layers.values()} - set(order)) == []


def test_no_import_goes_up_a_layer() -> None:
    """SPEC 1 (docs/ARCHITECTURE.md, Layers): a module imports only from its
    own layer or the layers below."""
    sources, order, layers = _tree()
    assert upward_imports(sources, layers, order) == []


def test_solvers_run_with_torch_alone() -> None:
    """SPEC 1 (the contract is upstream's: our solvers drop into the
    partitioner, where torch is all there is): reference/ and optimized/
    import the standard library, torch and each other only."""
    sources, _, layers = _tree()
    assert foreign_imports(sources, layers) == []


def test_the_map_check_can_fail() -> None:
    """SPEC 1 (docs/ARCHITECTURE.md): an unlisted module, an upward import
    (absolute, relative or ``from package import module``) and a solver
    importing numpy are all reported."""
    sources, order, layers = _tree()
    planted = {
        **sources,
        "knapsack_audit/unlisted.py": "",
        "reference/table.py": "from knapsack_audit import verify\n",
        "optimized/solver.py": "import numpy\nfrom ..golden.fixtures import load\n",
        "knapsack_audit/catalog.py": "def f():\n    import knapsack_audit.search\n",
    }
    assert sorted(set(planted) - set(layers)) == ["knapsack_audit/unlisted.py"]
    assert upward_imports(planted, layers, order) == [
        "knapsack_audit/catalog.py (catalog) -> knapsack_audit.search (engine)",
        "optimized/solver.py (solvers) -> knapsack_audit.golden.fixtures (golden)",
        "reference/table.py (solvers) -> knapsack_audit.verify (audit)",
    ]
    assert foreign_imports(planted, layers) == ["optimized/solver.py -> numpy"]
