"""Prose that is checked: the names the documents use exist, and every test cites SPEC.

Prose and proof stay together: every file of proofs/ has a ``Coq:`` line
naming the theorems of proofs/coq that check it (``Split.split_lemma``), every
theorem it names exists, and every main theorem (the table of
proofs/coq/README.md) is named by some file of proofs/.

Values are not copied into prose: proofs/*.md and CONTRIBUTING.md name the
constants (``solver.FRONTIER_STATES_PER_UNIT``) and knobs
(``Config.python_table_cells``), and this suite checks every such name exists
in the code, that the knob table lists every knob with the code's default, and
that every test function cites a clause docs/SPEC.md has (CONTRIBUTING.md,
Rules). The docstring examples themselves run with ``--doctest-modules``
(pyproject.toml).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest
from test_coq import defined_names, main_theorems, sources

import knapsack_audit
import knapsack_audit.optimized
import knapsack_audit.reference
from knapsack_audit.optimized.config import Config
from knapsack_audit.optimized.integration import SUPPORTED_TORCH

ROOT = Path(__file__).resolve().parents[1]
PROSE = [*sorted(ROOT.glob("proofs/*.md")), ROOT / "CONTRIBUTING.md"]
ENVIRONMENT_VARIABLES = {"HYPOTHESIS_PROFILE": "knapsack_audit/profiles.py"}
"""Upper-case names in the prose that are environment variables, and the module reading each."""

CONSTANT = re.compile(r"\b((?:[a-z_][a-z0-9_]*\.)*_?[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+)\b")
"""A constant, optionally behind its module path: ``solver.FRONTIER_STATES_PER_UNIT``
(not a symbol of a proof such as ``W_B``: two capitals at least before ``_``)."""

KNOB = re.compile(r"\bConfig\.([a-z_][a-z0-9_]*)")
"""A knob of :class:`knapsack_audit.optimized.config.Config` named in prose."""

TORCH_RANGE = re.compile(r"\b2\.1\d(?:\.\d+)?\s*(?:-|\u2013|to|through)\s*2\.1\d(?:\.\d+)?\b")
"""A range of torch releases written in prose (``2.10 to 2.15``)."""

RANGE_DOCUMENTS = (
    "*.md",
    "docs/**/*.md",
    "benchmarks/**/*.md",
    "tests/**/*.md",
    "proofs/**/*.md",
    "proofs/**/*.v",
)
RANGE_SOURCES = ("knapsack_audit", "reference", "optimized", "tests", "benchmarks", "scripts")

CITATION = re.compile(r"SPEC (\d+(?:\.\d+)?)")
CLAUSE = re.compile(r"^(?:## )?(\d+)\.(?:(\d+) |\s)", re.MULTILINE)


def _modules() -> list[ModuleType]:
    """Every module of the three packages (reference/ and optimized/ are folders
    of their own, CONTRIBUTING.md, Layout)."""
    names = []
    for package in (knapsack_audit, knapsack_audit.reference, knapsack_audit.optimized):
        names.append(package.__name__)
        names += [
            info.name
            for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
            if not info.name.endswith("__main__")
        ]
    return [importlib.import_module(name) for name in sorted(set(names))]


def _named_constants(path: Path) -> list[str]:
    spans = re.findall(r"`([^`\n]+)`", path.read_text(encoding="utf-8"))
    return sorted({name for span in spans for name in CONSTANT.findall(span)})


def _exists(name: str, modules: list[ModuleType]) -> bool:
    *prefix, attribute = name.split(".")
    suffix = "." + ".".join(prefix) if prefix else ""
    return any(
        hasattr(module, attribute) and module.__name__.endswith(suffix) for module in modules
    )


@pytest.mark.parametrize("document", PROSE, ids=lambda path: path.name)
def test_every_constant_named_in_the_prose_exists(document: Path) -> None:
    """SPEC 1.6, 5.2 and every clause the proofs rely on: a constant a document
    names (``module.NAME`` or ``NAME``) is an attribute of that module of the
    package, so a renamed or removed knob cannot leave the prose behind."""
    modules = _modules()
    missing = [
        name
        for name in _named_constants(document)
        if name not in ENVIRONMENT_VARIABLES and not _exists(name, modules)
    ]
    assert missing == []


@pytest.mark.parametrize("document", PROSE, ids=lambda path: path.name)
def test_every_knob_named_in_the_prose_exists(document: Path) -> None:
    """SPEC 1.6, 3.3 (the knobs pick exact paths): a ``Config.name`` a document
    names is a field of the one configuration, so a renamed knob cannot leave
    the prose behind."""
    spans = re.findall(r"`([^`\n]+)`", document.read_text(encoding="utf-8"))
    named = {name for span in spans for name in KNOB.findall(span)}
    assert named - {field.name for field in dataclasses.fields(Config)} == set()


def test_named_environment_variables_are_read() -> None:
    """SPEC 8.1 (reproducible runs): the profile variable the prose names is read."""
    for name, module in ENVIRONMENT_VARIABLES.items():
        assert f'"{name}"' in (ROOT / module).read_text(encoding="utf-8")


def test_the_prose_check_can_fail() -> None:
    """SPEC 1.6: a name that no module defines is reported."""
    assert not _exists("solver.NO_SUCH_KNOB", _modules())
    assert _exists("solver.FRONTIER_STATES_PER_UNIT", _modules())
    assert KNOB.findall("`Config.no_such_knob * 2`") == ["no_such_knob"]
    assert CONSTANT.findall("(`max(PYTHON_BASE_CASE_CELLS, C_c + 1)`)") == [
        "PYTHON_BASE_CASE_CELLS"
    ]


def _torch_range_files() -> list[Path]:
    """Every document and source file whose prose may name the supported torch
    releases (generated reports under benchmarks/results and docs/compare
    included: their generators' text is checked with them)."""
    files = {path for pattern in RANGE_DOCUMENTS for path in ROOT.glob(pattern)}
    files |= {path for folder in RANGE_SOURCES for path in (ROOT / folder).rglob("*.py")}
    return sorted(files)


def _other_torch_ranges(text: str) -> list[str]:
    return [found for found in TORCH_RANGE.findall(text) if found != SUPPORTED_TORCH]


def test_every_torch_range_is_the_supported_one() -> None:
    """SPEC 1 (the contract is upstream's, in the releases named once by
    ``integration.SUPPORTED_TORCH``): every range of torch releases the prose
    writes is that one, word for word."""
    found = [
        f"{path.relative_to(ROOT)}: {mention}"
        for path in _torch_range_files()
        for mention in _other_torch_ranges(path.read_text(encoding="utf-8"))
    ]
    assert found == []
    assert any(SUPPORTED_TORCH in p.read_text(encoding="utf-8") for p in _torch_range_files())


def test_the_torch_range_check_can_fail() -> None:
    """SPEC 1: a range written with a dash or another last release is reported."""
    dashed, older = "2.10" + "-2.15", "2.10 to " + "2.14"
    assert _other_torch_ranges(f"torch {dashed}, torch {older}, torch {SUPPORTED_TORCH}") == [
        dashed,
        older,
    ]


def _knob_rows() -> list[tuple[str, str]]:
    """``(field, default)`` pairs of CONTRIBUTING.md's table of knobs."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Knobs of the optimized solver", 1)[1].split("\n## ", 1)[0]
    pairs = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) != 3 or not re.fullmatch(r"`[a-z_]+`", cells[0]):
            continue
        pairs.append((cells[0].strip("`"), cells[1].strip("`")))
    return pairs


def test_knob_table_defaults_are_the_code_defaults() -> None:
    """SPEC 1.6, 3.3 (the knobs pick exact paths): CONTRIBUTING.md lists every
    field of the one configuration, once, with the default in the code."""
    rows = _knob_rows()
    assert sorted(name for name, _ in rows) == sorted(f.name for f in dataclasses.fields(Config))
    defaults = Config()
    for name, default in rows:
        expected = eval(default, {"__builtins__": {}})  # e.g. "2**30", "(4, 8, 32)"
        assert getattr(defaults, name) == expected, name


def _spec_clauses() -> set[str]:
    text = (ROOT / "docs" / "SPEC.md").read_text(encoding="utf-8")
    clauses = set()
    for section, clause in CLAUSE.findall(text):
        clauses.add(section)
        if clause:
            clauses.add(f"{section}.{clause}")
    clauses |= {f"1.{row}" for row in re.findall(r"^\| 1\.(\d+) \|", text, re.MULTILINE)}
    return clauses


def _test_functions() -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [
            (f"{path.name}::{node.name}", node)
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        ]
    return found


def test_every_test_cites_a_spec_clause_that_exists() -> None:
    """SPEC 1-8: every test function's docstring cites a clause (``SPEC 3.2``),
    and every clause a test cites is in docs/SPEC.md (CONTRIBUTING.md, Rules)."""
    clauses = _spec_clauses()
    assert {"1.1", "1.6", "3.2", "5.2", "7.2", "8.3"} <= clauses
    uncited, unknown = [], []
    for name, function in _test_functions():
        cited = CITATION.findall(ast.get_docstring(function) or "")
        if not cited:
            uncited.append(name)
        unknown += [f"{name}: SPEC {clause}" for clause in cited if clause not in clauses]
    assert uncited == []
    assert unknown == []


def _coq_citations(text: str) -> list[tuple[str, str]]:
    """``(file, theorem)`` for each ``Module.name`` in backquotes whose module is
    a file of the Coq development."""
    modules = "|".join(Path(source).stem for source in sources())
    return re.findall(rf"`({modules})\.(\w+)`", text)


def _missing_coq_theorems(citations: list[tuple[str, str]]) -> list[str]:
    return [
        f"{module}.{name}" for module, name in citations if name not in defined_names(f"{module}.v")
    ]


@pytest.mark.parametrize(
    "document", sorted(ROOT.glob("proofs/[0-9]*.md")), ids=lambda path: path.name
)
def test_every_proof_file_names_its_coq_theorems(document: Path) -> None:
    """SPEC 3.3 (proofs/README.md): each proof file has a ``Coq:`` line, and
    every Coq theorem the file names exists in proofs/coq."""
    text = document.read_text(encoding="utf-8")
    assert re.search(r"^Coq: ", text, re.MULTILINE), "no line starting with 'Coq: '"
    assert _missing_coq_theorems(_coq_citations(text)) == []


def test_every_main_coq_theorem_is_cited_by_a_proof_file() -> None:
    """SPEC 3.3: no main theorem of proofs/coq/README.md is left unexplained by
    the prose of proofs/."""
    cited = {
        citation
        for document in ROOT.glob("proofs/*.md")
        for citation in _coq_citations(document.read_text(encoding="utf-8"))
    }
    assert [f"{m}.{n}" for m, n in main_theorems() if (m, n) not in cited] == []


def test_the_coq_citation_check_can_fail() -> None:
    """SPEC 3.3: a theorem that proofs/coq does not define is reported; a
    backquoted name of another module is not a citation."""
    citations = _coq_citations("`Split.split_lemma`, `Split.no_such_lemma`, `Case.as_call`")
    assert citations == [("Split", "split_lemma"), ("Split", "no_such_lemma")]
    assert _missing_coq_theorems(citations) == ["Split.no_such_lemma"]
