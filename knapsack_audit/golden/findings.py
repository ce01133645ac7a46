"""Per-fixture upstream findings: over budget by how many units, below the optimum by how much.

For every golden fixture (one real partitioner call) and every upstream
solver of the installed torch (:func:`knapsack_audit.golden.replay.upstream_solvers`),
:func:`judge_fixture` records

* ``units_over``: ``sum(q_i for i in saved) - Q`` when positive, else 0
  (SPEC 3.2, exact integers);
* ``shortfall``: ``OPT - sum(v_i for i in saved)`` in exact arithmetic, for a
  feasible selection only (an over-budget selection may exceed ``OPT``);
  the fixture's stored optimum is recomputed by the golden tests;
* ``seconds``: one timed call, next to one timed call of our optimized
  solver (:data:`knapsack_audit.catalog.OPTIMIZED`) on the same
  arguments. Single calls on a shared machine are noisy: the report gives
  ratios, and no test asserts them.

:func:`summary_lines` turns the exact columns into the sentences quoted in
tests/golden/README.md and the release report ("upstream hirschberg over
budget on X of Y real calls, worst +Z units on MODEL at budget B");
``tests/test_golden.py`` recomputes them from the fixtures and requires the
README to contain them verbatim, so the quoted numbers are never typed by hand.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from knapsack_audit import catalog, properties
from knapsack_audit.golden import replay
from knapsack_audit.golden.fixtures import Fixture
from knapsack_audit.properties import Solver

REAL_SCALE_ITEMS = 250
"""A call with at least this many items counts as real scale in the summary (issue #11)."""


@dataclass(frozen=True)
class SolverResult:
    """One upstream solver on one fixture."""

    solver: str
    units_over: int
    shortfall: Fraction | None
    seconds: float
    error: str | None = None


@dataclass(frozen=True)
class FixtureFindings:
    """Every upstream solver's result on one fixture, and our optimized solver's."""

    fixture: Fixture
    ours: SolverResult
    results: tuple[SolverResult, ...]

    @property
    def ours_seconds(self) -> float:
        """Our optimized solver's time on this fixture (one call)."""
        return self.ours.seconds

    def result(self, solver: str) -> SolverResult:
        """The result of the upstream solver called ``solver``."""
        return next(result for result in self.results if result.solver == solver)


def _timed(solver: Solver, fixture: Fixture) -> tuple[properties.Outcome, float]:
    started = time.perf_counter()
    outcome = properties.call(solver, fixture.case)
    return outcome, time.perf_counter() - started


def judge_solver(name: str, solver: Solver, fixture: Fixture) -> SolverResult:
    """Call ``solver`` once on ``fixture`` and measure its overrun and shortfall exactly."""
    outcome, seconds = _timed(solver, fixture)
    if outcome.error is not None:
        return SolverResult(name, 0, None, seconds, f"{type(outcome.error).__name__}")
    saved = properties._valid_saved(outcome, fixture.case)
    if saved is None:
        return SolverResult(name, 0, None, seconds, "malformed answer")
    over = properties.saved_weight(fixture.case, saved) - fixture.quantized_budget
    if over > 0:
        return SolverResult(name, over, None, seconds)
    shortfall = fixture.optimum - properties.saved_value(fixture.case, saved)
    return SolverResult(name, 0, shortfall, seconds)


def exact(result: SolverResult) -> bool:
    """Feasible, answered, and not below the optimum at all (SPEC 3.2, 3.3)."""
    return result.error is None and result.units_over == 0 and result.shortfall == 0


def judge_ours(fixture: Fixture) -> SolverResult:
    """Our optimized solver on ``fixture``: it must be feasible with zero shortfall (SPEC 3.3)."""
    return judge_solver(catalog.OPTIMIZED, catalog.load(catalog.OPTIMIZED), fixture)


def judge_fixture(fixture: Fixture) -> FixtureFindings:
    """Every upstream solver on ``fixture``, and our optimized solver."""
    ours = judge_ours(fixture)
    results = tuple(
        judge_solver(solver.name.rpartition(":")[2], solver.function, fixture)
        for solver in replay.upstream_solvers()
    )
    return FixtureFindings(fixture, ours, results)


def judge_all(fixtures: Sequence[Fixture]) -> list[FixtureFindings]:
    """:func:`judge_fixture` on every fixture, in fixture order."""
    return [judge_fixture(fixture) for fixture in fixtures]


def _where(fixture: Fixture) -> str:
    origin = fixture.provenance
    return (
        f"{origin.get('model')} at budget {origin.get('budget')} "
        f"({origin.get('runtime_estimator')}, n={fixture.case.n}, Q={fixture.quantized_budget})"
    )


def summary_lines(findings: Sequence[FixtureFindings]) -> list[str]:
    """One exact sentence per upstream solver, then the real-scale count.

    Deterministic (no timings), so a test can recompute it and compare.
    """
    if not findings:
        return []
    calls = len(findings)
    real_scale = sum(1 for f in findings if f.fixture.case.n >= REAL_SCALE_ITEMS)
    largest = max(f.fixture.case.n for f in findings)
    real_models = sum(1 for f in findings if replay.is_real_scale(f.fixture))
    lines = [
        f"{calls} real calls ({real_scale} with at least {REAL_SCALE_ITEMS} items, "
        f"the largest {largest} items)."
    ]
    for result in findings[0].results:
        name = result.solver
        rows = [(f, f.result(name)) for f in findings]
        over = [(f, r) for f, r in rows if r.units_over > 0]
        below = [(f, r) for f, r in rows if r.shortfall is not None and r.shortfall > 0]
        beyond = sum(
            1 for f, r in below if (r.shortfall or 0) > properties.tolerance(f.fixture.case.runtime)
        )
        errors = sum(1 for _, r in rows if r.error is not None)
        deep = sum(1 for f, _ in over if replay.is_real_scale(f.fixture))
        parts = [
            f"upstream {name} over budget on {len(over)} of {calls} real calls "
            f"({deep} of the {real_models} real-scale-zoo calls)"
        ]
        if over:
            worst, worst_result = max(over, key=lambda row: row[1].units_over)
            parts[0] += f", worst +{worst_result.units_over} units on {_where(worst.fixture)}"
        parts.append(
            f"below the optimum on {len(below)} ({beyond} beyond the SPEC 5.2 float32 tolerance)"
        )
        if below:
            worst, worst_result = max(
                below, key=lambda row: (row[1].shortfall or 0) / row[0].fixture.optimum
            )
            relative = float((worst_result.shortfall or 0) / worst.fixture.optimum)
            parts[-1] += f", worst {relative:.3g} of the optimum on {_where(worst.fixture)}"
        parts.append(f"raised on {errors}")
        lines.append("; ".join(parts) + ".")
    return lines


def time_ratio_lines(findings: Sequence[FixtureFindings]) -> list[str]:
    """Median of upstream time / our time per solver, over the calls it answered (noisy)."""
    if not findings:
        return []
    lines = []
    for result in findings[0].results:
        ratios = [
            f.result(result.solver).seconds / f.ours_seconds
            for f in findings
            if f.result(result.solver).error is None and f.ours_seconds > 0
        ]
        if ratios:
            lines.append(
                f"upstream {result.solver}: median {statistics.median(ratios):.2f}x our "
                f"optimized solver's time per call (one timed call each, {len(ratios)} calls)"
            )
    return lines


def _cell(result: SolverResult) -> str:
    if result.error is not None:
        return f"raised {result.error}"
    if result.units_over > 0:
        return f"**+{result.units_over} units**"
    if result.shortfall:
        return f"-{float(result.shortfall):.4g}"
    return "ok"


def markdown_table(findings: Sequence[FixtureFindings]) -> list[str]:
    """One row per fixture: each solver's overrun (units) or shortfall, and its time ratio."""
    if not findings:
        return []
    names = [result.solver for result in findings[0].results]
    lines = [
        "| fixture | n | Q | " + " | ".join(names) + " | time / ours |",
        "|---|---|---|" + "---|" * len(names) + "---|",
    ]
    for f in findings:
        ratios = ", ".join(
            f"{r.seconds / f.ours_seconds:.2g}" if f.ours_seconds > 0 else "-" for r in f.results
        )
        cells = " | ".join(_cell(f.result(name)) for name in names)
        lines.append(
            f"| {f.fixture.name} | {f.fixture.case.n} | {f.fixture.quantized_budget} "
            f"| {cells} | {ratios} |"
        )
    return lines
