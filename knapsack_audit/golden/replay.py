"""Replay golden fixtures through the property engine, and the expected-findings table.

Every solver is judged by :func:`knapsack_audit.properties.check_call`, the one
implementation of every one-call property: ours with the exact judge
(SPEC 5.1), third-party (the installed torch's) with the float32 tolerance of
SPEC 5.2. Oracle checks run on every fixture, whatever its size
(:data:`ORACLE_MAX_ITEMS`).

The fixtures of the small zoo and of the real-scale zoo (:func:`is_real_scale`)
are counted apart: every property of every solver on a 300-item call needs
the oracle and the reference table (seconds each), so the finding counts
below and the default test run cover the small zoo with every property, and
the real-scale calls go through :mod:`knapsack_audit.golden.findings` (one
call per solver, judged against the stored exact optimum); the full replay of
our solvers on the real-scale calls is a ``slow`` test.

Upstream's findings are counted per ``(solver, property)`` and compared with
``expected_findings.json`` in the fixtures directory, keyed by
:func:`environment_key` (the torch version, and whether scipy is importable,
because ``ilp_knapsack`` raises without it). ``python -m knapsack_audit.golden
expected`` regenerates the entry for the installed environment by running
this replay; the numbers are never written by hand.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import torch

from knapsack_audit import catalog, properties
from knapsack_audit.cases import Case
from knapsack_audit.golden.fixtures import Fixture
from knapsack_audit.golden.models import REAL_SCALE_ZOO
from knapsack_audit.properties import Finding, Judge, Solver
from knapsack_audit.reference import exact_optimum, quantize
from knapsack_audit.reference.validation import SCALE

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:
    from importlib.abc import Traversable

ORACLE_MAX_ITEMS = 100_000
"""Judge every fixture against the oracle, including the 300+ item calls."""

EXACT = Judge(exact=True, oracle_max_items=ORACLE_MAX_ITEMS)
TOLERANT = Judge(exact=False, oracle_max_items=ORACLE_MAX_ITEMS)

EXPECTED_FILE = "expected_findings.json"


@dataclass(frozen=True)
class NamedSolver:
    """A solver under replay: its ``module:function`` name, callable and judge."""

    name: str
    function: Solver
    judge: Judge


def _named(solver: catalog.Entry) -> NamedSolver:
    return NamedSolver(solver.name, solver.load(), EXACT if solver.exact else TOLERANT)


def our_solvers() -> list[NamedSolver]:
    """Every solver of ours (:func:`knapsack_audit.catalog.ours`), judged exactly."""
    return [_named(solver) for solver in catalog.ours()]


def upstream_solvers() -> list[NamedSolver]:
    """The installed torch's four solvers, judged with the SPEC 5.2 tolerance."""
    return [_named(solver) for solver in catalog.torch_entries()]


def environment_key() -> str:
    """``"torch <version>, scipy <version or absent>"``: what upstream's findings depend on."""
    scipy = "absent"
    if importlib.util.find_spec("scipy") is not None:
        scipy = str(importlib.import_module("scipy").__version__)
    return f"torch {torch.__version__}, scipy {scipy}"


REAL_SCALE_MODELS = frozenset(spec.name for spec in REAL_SCALE_ZOO)


def is_real_scale(fixture: Fixture) -> bool:
    """Whether the fixture comes from a model of the real-scale zoo."""
    return fixture.provenance.get("model") in REAL_SCALE_MODELS


def split(fixtures: Sequence[Fixture]) -> tuple[list[Fixture], list[Fixture]]:
    """``(small zoo fixtures, real-scale fixtures)``, each in fixture order."""
    real = [fixture for fixture in fixtures if is_real_scale(fixture)]
    return [fixture for fixture in fixtures if not is_real_scale(fixture)], real


def replay(solver: NamedSolver, fixtures: Sequence[Fixture]) -> list[Finding]:
    """All one-call findings of ``solver`` over ``fixtures``, in fixture order."""
    findings: list[Finding] = []
    for fixture in fixtures:
        findings += properties.check_call(solver.function, fixture.case, solver.judge)
    return findings


def count(findings: Sequence[Finding]) -> dict[str, int]:
    """Findings per property, properties sorted by name."""
    return dict(sorted(Counter(finding.property for finding in findings).items()))


def upstream_table(
    fixtures: Sequence[Fixture], log: Callable[[str], None] = lambda _: None
) -> dict[str, dict[str, int]]:
    """``{solver name: {property: count}}`` for every upstream solver (empty if none)."""
    table = {}
    for solver in upstream_solvers():
        table[solver.name.rpartition(":")[2]] = count(replay(solver, fixtures))
        log(f"{solver.name}: {table[solver.name.rpartition(':')[2]]}")
    return table


def read_expected(directory: Traversable) -> dict[str, Any]:
    """The whole expected-findings document (``{}`` if the file does not exist)."""
    path = directory / EXPECTED_FILE
    if not path.is_file():
        return {}
    document: dict[str, Any] = json.loads(path.read_text())
    return document


def write_expected(
    directory: Path, fixtures: Sequence[Fixture], log: Callable[[str], None] = print
) -> Path:
    """Replay upstream on every fixture and store the counts under this environment's key.

    ``fixtures``/``findings`` count the small zoo (:func:`split`; the
    real-scale calls are summarized by :mod:`knapsack_audit.golden.findings`
    instead), ``hirschberg_overruns`` covers every fixture. Entries for
    other environments are kept.
    """
    document = read_expected(directory)
    small, _ = split(fixtures)
    document[environment_key()] = {
        "fixtures": len(small),
        "findings": upstream_table(small, log),
        "hirschberg_overruns": overrun_histogram(fixtures),
    }
    path = directory / EXPECTED_FILE
    path.write_text(json.dumps(dict(sorted(document.items())), indent=2) + "\n")
    return path


def overrun_units(solver: Solver, fixture: Fixture) -> int:
    """How many quantized units the solver's saved set exceeds the budget by (0 if feasible)."""
    memory, runtime, max_memory = fixture.case.arguments()
    saved: list[int] = list(solver(memory, runtime, max_memory)[1])
    return max(0, properties.saved_weight(fixture.case, saved) - fixture.quantized_budget)


def overrun_histogram(fixtures: Sequence[Fixture]) -> dict[str, int]:
    """``{units over budget: number of fixtures}`` for upstream's Hirschberg solver.

    Only over-budget fixtures are counted; keys are strings (JSON).
    """
    (hirschberg,) = catalog.torch_entries([catalog.TORCH_HIRSCHBERG])
    solver = hirschberg.load()
    histogram = Counter(overrun_units(solver, fixture) for fixture in fixtures)
    return {str(units): histogram[units] for units in sorted(histogram) if units > 0}


def optimum_is_unique(case: Case) -> bool:
    """Whether exactly one selection reaches the optimum (SPEC 3.3), by the exact oracle.

    Let ``S*`` be the oracle's optimal set. Two optimal sets differ in some
    item ``i``; then either ``i`` is in ``S*`` and the optimum without ``i``
    is still ``OPT``, or ``i`` is not and the optimum with ``i`` forced in is
    ``OPT``. So the optimum is unique iff none of these ``n`` exact checks
    reaches ``OPT``. Cost: ``n`` oracle calls.
    """
    memory, runtime, max_memory = case.arguments()
    best = exact_optimum(memory, runtime, max_memory)
    budget = quantize(float(max_memory))
    too_heavy = (budget + 1) / SCALE
    for i in range(case.n):
        if i in best.saved:
            without = [too_heavy if j == i else m for j, m in enumerate(memory)]
            if exact_optimum(without, runtime, max_memory).value == best.value:
                return False
            continue
        weight = quantize(float(memory[i]))
        if weight > budget:
            continue
        rest_memory = memory[:i] + memory[i + 1 :]
        rest_runtime = runtime[:i] + runtime[i + 1 :]
        rest = exact_optimum(rest_memory, rest_runtime, (budget - weight) / SCALE).value
        if rest + Fraction(float(runtime[i])) == best.value:
            return False
    return True
