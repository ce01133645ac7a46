"""Per-solver verdicts on the golden calls: correct on how many, over budget on which.

For every golden fixture (one real partitioner call) :func:`judge_fixture`
calls our optimized solver (:data:`knapsack_audit.catalog.OPTIMIZED`) and
every upstream solver of the installed torch
(:func:`knapsack_audit.golden.replay.upstream_solvers`) once, judges that
call, then times them (:func:`knapsack_audit.measure.interleaved`). A
:class:`SolverResult` records

* ``units_over``: ``sum(q_i for i in saved) - Q`` when positive, else 0
  (SPEC 3.2, exact integers);
* ``shortfall``: ``OPT - sum(v_i for i in saved)`` in exact arithmetic, for a
  feasible selection only (an over-budget selection may exceed ``OPT``);
  the fixture's stored optimum is recomputed by the golden tests;
* ``seconds``: the timed calls, ``repeats`` rounds interleaved with the
  other solvers on the same call after the judged call (the warm-up), the
  method of the benchmarks' ``paired`` grid (:data:`TIMING_METHOD`).

A solver is **correct** on a call (:func:`correct`) when it answers, stays
within the budget and is not below the optimum: exactly for ours (SPEC 5.1),
within the SPEC 5.2 float32 tolerance for upstream's, as ``verify`` judges
them. :func:`verdicts` counts, per solver, the calls it is correct on and
those it is over budget on, with the worst as a copy-pasteable call
(:meth:`knapsack_audit.cases.Case.as_call`); :func:`summary_lines` words
them ("correct on N of 168 real calls; over budget on M ..."), the sentences
quoted in tests/golden/README.md and the release report.
``tests/test_golden.py`` recomputes them from the fixtures and requires the
README to contain them verbatim, so the quoted numbers are never typed by hand.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from knapsack_audit import catalog, measure, properties
from knapsack_audit.golden import replay
from knapsack_audit.golden.fixtures import Fixture
from knapsack_audit.properties import Outcome, Solver

REAL_SCALE_ITEMS = 250
"""A call with at least this many items counts as real scale in the summary."""

TIMING_REPEATS = 3
"""Timed rounds per call: the quick mode of the benchmarks' ``paired`` grid (which uses 9)."""

OURS = "ours"
"""How the sentences name our optimized solver."""


def timing_method(repeats: int) -> str:
    """The label of every time ratio measured with ``repeats`` rounds."""
    return measure.INTERLEAVED_METHOD.format(repeats=repeats)


@dataclass(frozen=True)
class SolverResult:
    """One solver on one fixture: the judged call, then the timed rounds."""

    solver: str
    units_over: int
    shortfall: Fraction | None
    error: str | None = None
    seconds: tuple[float, ...] = ()


@dataclass(frozen=True)
class FixtureFindings:
    """Every upstream solver's result on one fixture, and our optimized solver's."""

    fixture: Fixture
    ours: SolverResult
    results: tuple[SolverResult, ...]

    def result(self, solver: str) -> SolverResult:
        """The result of the upstream solver called ``solver``."""
        return next(result for result in self.results if result.solver == solver)

    def ratio(self, solver: str) -> float | None:
        """Median over rounds of the upstream solver's time / ours (``None``: not timed)."""
        theirs = self.result(solver).seconds
        if not theirs or len(theirs) != len(self.ours.seconds):
            return None
        return measure.per_round_ratio(theirs, self.ours.seconds)

    def ratio_noise(self, solver: str) -> float | None:
        """:func:`knapsack_audit.measure.spread` of the per-round ratios (``None``: not timed)."""
        theirs = self.result(solver).seconds
        if not theirs or len(theirs) != len(self.ours.seconds):
            return None
        return measure.spread([a / b for a, b in zip(theirs, self.ours.seconds, strict=True)])


def judge_outcome(name: str, outcome: Outcome, fixture: Fixture) -> SolverResult:
    """Measure one answer's overrun and shortfall exactly."""
    if outcome.error is not None:
        return SolverResult(name, 0, None, type(outcome.error).__name__)
    saved = properties._valid_saved(outcome, fixture.case)
    if saved is None:
        return SolverResult(name, 0, None, "malformed answer")
    over = properties.saved_weight(fixture.case, saved) - fixture.quantized_budget
    if over > 0:
        return SolverResult(name, over, None)
    return SolverResult(name, 0, fixture.optimum - properties.saved_value(fixture.case, saved))


def judge_solver(name: str, solver: Solver, fixture: Fixture) -> SolverResult:
    """Call ``solver`` once on ``fixture`` and measure its overrun and shortfall exactly."""
    return judge_outcome(name, properties.call(solver, fixture.case), fixture)


def judge_ours(fixture: Fixture) -> SolverResult:
    """Our optimized solver on ``fixture``: it must be feasible with zero shortfall (SPEC 3.3)."""
    return judge_solver(OURS, catalog.load(catalog.OPTIMIZED), fixture)


def correct(result: SolverResult, fixture: Fixture, exact: bool) -> bool:
    """Answered, within the budget (SPEC 3.2) and not below the optimum (SPEC 3.3):
    exactly if ``exact`` (ours, SPEC 5.1), else within the float32 tolerance (SPEC 5.2)."""
    if result.error is not None or result.units_over > 0 or result.shortfall is None:
        return False
    allowed = Fraction(0) if exact else properties.tolerance(fixture.case)
    return result.shortfall <= allowed


def exact(result: SolverResult) -> bool:
    """Feasible, answered, and not below the optimum at all (SPEC 3.2, 3.3)."""
    return result.error is None and result.units_over == 0 and result.shortfall == 0


def judged_solvers(
    upstream: Sequence[replay.NamedSolver] | None = None,
) -> list[tuple[str, Solver]]:
    """``(name, solver)``: ours first (:data:`OURS`), then each upstream solver by
    its function name (``upstream``, default :func:`replay.upstream_solvers`)."""
    others = replay.upstream_solvers() if upstream is None else upstream
    return [(OURS, catalog.load(catalog.OPTIMIZED))] + [
        (solver.name.rpartition(":")[2], solver.function) for solver in others
    ]


def judge_fixture(
    fixture: Fixture,
    repeats: int = TIMING_REPEATS,
    solvers: Sequence[tuple[str, Solver]] | None = None,
) -> FixtureFindings:
    """Every solver of :func:`judged_solvers` on ``fixture``: one judged call each
    (the warm-up), then ``repeats`` interleaved timed rounds of those that answered."""
    named = judged_solvers() if solvers is None else list(solvers)
    judged = {
        name: judge_outcome(name, properties.call(solver, fixture.case), fixture)
        for name, solver in named
    }
    memory, runtime, max_memory = fixture.case.arguments()
    timed = {
        name: partial(solver, memory, runtime, max_memory)
        for name, solver in named
        if judged[name].error is None
    }
    seconds = measure.interleaved(timed, repeats) if OURS in timed else {}
    results = [
        SolverResult(r.solver, r.units_over, r.shortfall, r.error, tuple(seconds.get(name, ())))
        for name, r in judged.items()
    ]
    return FixtureFindings(fixture, results[0], tuple(results[1:]))


def judge_all(
    fixtures: Sequence[Fixture],
    repeats: int = TIMING_REPEATS,
    solvers: Sequence[tuple[str, Solver]] | None = None,
) -> list[FixtureFindings]:
    """:func:`judge_fixture` on every fixture, in fixture order."""
    named = judged_solvers() if solvers is None else list(solvers)
    return [judge_fixture(fixture, repeats, named) for fixture in fixtures]


def where(fixture: Fixture) -> str:
    """``"MODEL at budget B (ESTIMATOR, n=N, Q=Q)"``."""
    origin = fixture.provenance
    return (
        f"{origin.get('model')} at budget {origin.get('budget')} "
        f"({origin.get('runtime_estimator')}, n={fixture.case.n}, Q={fixture.quantized_budget})"
    )


@dataclass(frozen=True)
class SolverVerdict:
    """One solver over every fixture, in the release report's words.

    ``over_budget``: the names of the fixtures it is over budget on;
    ``worst``: the largest overrun (units) and its fixture; ``time_ratio``:
    the median over calls of :meth:`FixtureFindings.ratio` and ``noise`` the
    median of the calls' :meth:`FixtureFindings.ratio_noise` (``None`` for
    ours, or when not timed).
    """

    solver: str
    exact_judge: bool
    calls: int
    correct: int
    over_budget: tuple[str, ...]
    over_budget_real_scale: int
    worst: tuple[int, Fixture] | None
    below_beyond_tolerance: int
    below_within_tolerance: int
    worst_below: tuple[float, Fixture] | None
    raised: int
    timed_calls: int = 0
    time_ratio: float | None = None
    noise: float | None = None

    @property
    def label(self) -> str:
        """``ours`` or ``upstream NAME``."""
        return self.solver if self.solver == OURS else f"upstream {self.solver}"

    def worst_call(self) -> str | None:
        """The worst over-budget call, copy-pasteable (runs grouped)."""
        if self.worst is None:
            return None
        return self.worst[1].case.as_call(self.solver if self.solver != OURS else "solver")

    def sentence(self, real_scale_calls: int) -> str:
        """``"upstream X: correct on N of C real calls; over budget on M ...; raised on E."``"""
        parts = [f"{self.label}: correct on {self.correct} of {self.calls} real calls"]
        over = f"over budget on {len(self.over_budget)}"
        if self.over_budget:
            over += (
                f" ({self.over_budget_real_scale} of the {real_scale_calls} real-scale-zoo calls)"
            )
        if self.worst is not None:
            over += f", worst +{self.worst[0]} units on {where(self.worst[1])}"
        parts.append(over)
        below = f"below the optimum on {self.below_beyond_tolerance}"
        if not self.exact_judge:
            below = (
                f"below the optimum beyond the SPEC 5.2 float32 tolerance on "
                f"{self.below_beyond_tolerance} (within it on {self.below_within_tolerance})"
            )
        if self.worst_below is not None:
            below += (
                f", worst {self.worst_below[0]:.3g} of the optimum on {where(self.worst_below[1])}"
            )
        parts.append(below)
        parts.append(f"raised on {self.raised}")
        return "; ".join(parts) + "."

    def time_sentence(self, repeats: int) -> str | None:
        """``"upstream X: median 25.1x our time per call (N calls, noise 8%; METHOD)"``."""
        if self.time_ratio is None or self.noise is None:
            return None
        return (
            f"{self.label}: median {self.time_ratio:.3g}x our optimized solver's time per call "
            f"({self.timed_calls} calls, noise {self.noise:.0%}; {repeats} interleaved rounds "
            "after a warm-up)"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON: counts, the over-budget calls by fixture name, the worst call, the timing."""
        return {
            "solver": self.solver,
            "judge": "exact" if self.exact_judge else "float32 tolerance (SPEC 5.2)",
            "calls": self.calls,
            "correct": self.correct,
            "over_budget": list(self.over_budget),
            "worst_units_over": None if self.worst is None else self.worst[0],
            "worst_call": self.worst_call(),
            "below_optimum_beyond_tolerance": self.below_beyond_tolerance,
            "below_optimum_within_tolerance": self.below_within_tolerance,
            "raised": self.raised,
            "timed_calls": self.timed_calls,
            "median_time_ratio": self.time_ratio,
            "time_ratio_noise": self.noise,
        }


def _verdict(
    name: str, exact_judge: bool, rows: Sequence[tuple[Fixture, SolverResult]]
) -> SolverVerdict:
    over = [(f, r) for f, r in rows if r.units_over > 0]
    below = [(f, r) for f, r in rows if r.shortfall is not None and r.shortfall > 0]
    beyond = [(f, r) for f, r in below if not correct(r, f, exact_judge)]
    worst = max(over, key=lambda row: row[1].units_over, default=None)
    worst_below = max(below, key=lambda row: (row[1].shortfall or 0) / row[0].optimum, default=None)
    return SolverVerdict(
        solver=name,
        exact_judge=exact_judge,
        calls=len(rows),
        correct=sum(1 for f, r in rows if correct(r, f, exact_judge)),
        over_budget=tuple(f.name for f, _ in over),
        over_budget_real_scale=sum(1 for f, _ in over if replay.is_real_scale(f)),
        worst=None if worst is None else (worst[1].units_over, worst[0]),
        below_beyond_tolerance=len(beyond),
        below_within_tolerance=len(below) - len(beyond),
        worst_below=None
        if worst_below is None
        else (float((worst_below[1].shortfall or 0) / worst_below[0].optimum), worst_below[0]),
        raised=sum(1 for _, r in rows if r.error is not None),
    )


def verdicts(findings: Sequence[FixtureFindings]) -> list[SolverVerdict]:
    """Ours (judged exactly), then each upstream solver (SPEC 5.2 tolerance), with time ratios."""
    if not findings:
        return []
    result = [_verdict(OURS, True, [(f.fixture, f.ours) for f in findings])]
    for first in findings[0].results:
        name = first.solver
        verdict = _verdict(name, False, [(f.fixture, f.result(name)) for f in findings])
        ratios = [(f.ratio(name), f.ratio_noise(name)) for f in findings]
        timed = [(r, n) for r, n in ratios if r is not None and n is not None]
        if timed:
            verdict = SolverVerdict(
                **{
                    **verdict.__dict__,
                    "timed_calls": len(timed),
                    "time_ratio": statistics.median(r for r, _ in timed),
                    "noise": statistics.median(n for _, n in timed),
                }
            )
        result.append(verdict)
    return result


def summary_lines(findings: Sequence[FixtureFindings]) -> list[str]:
    """The calls, then one sentence per solver (:meth:`SolverVerdict.sentence`).

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
    return lines + [verdict.sentence(real_models) for verdict in verdicts(findings)]


def time_ratio_lines(findings: Sequence[FixtureFindings], repeats: int) -> list[str]:
    """The timing method, then per upstream solver the median of its per-call ratios to ours."""
    lines = [
        verdict.time_sentence(repeats)
        for verdict in verdicts(findings)
        if verdict.time_sentence(repeats) is not None
    ]
    if not lines:
        return []
    return [f"Time per call ({timing_method(repeats)}):", *(line for line in lines if line)]


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
            "-" if (ratio := f.ratio(name)) is None else f"{ratio:.2g}" for name in names
        )
        cells = " | ".join(_cell(f.result(name)) for name in names)
        lines.append(
            f"| {f.fixture.name} | {f.fixture.case.n} | {f.fixture.quantized_budget} "
            f"| {cells} | {ratios} |"
        )
    return lines
