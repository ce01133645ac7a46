"""Audit one target with the property engine and describe the outcome as data.

:func:`verify_target` starts the target's isolated worker
(:mod:`knapsack_audit.isolation`), runs :func:`knapsack_audit.search.audit`
on the proxy and turns the :class:`~knapsack_audit.search.AuditResult` into a
:class:`TargetReport`: one :class:`PropertyVerdict` per property and one
:class:`FindingReport` per failure, with a copy-pasteable call. Reports are
plain dataclasses, so they cross process boundaries (``--jobs``) and
serialize to JSON (:meth:`TargetReport.to_dict`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from typing import Any

import hypothesis.core
from hypothesis import settings

from knapsack_audit.captured import KEEP_BYTES, StreamSummary
from knapsack_audit.cases import Case
from knapsack_audit.isolation import (
    DEFAULT_CALL_TIMEOUT,
    DEFAULT_MEMORY_LIMIT,
    IsolatedSolver,
)
from knapsack_audit.properties import Judge
from knapsack_audit.sandbox import PROTECTIONS
from knapsack_audit.search import PROPERTIES, AuditResult, audit
from knapsack_audit.targets import Target, TargetError

PINNED_CASES = (
    Case.of([1e-4] * 3, [1.0] * 3, 1e-4),
    Case.of([0.0], [1.0], 1.0),
    Case.of([], [], 0.5),
)
"""Known upstream bugs, always tried first: the over-budget selection of
``dp_knapsack_sliding_hirschberg`` (pytorch issue #197871), ``greedy_knapsack``'s
ZeroDivisionError on a zero memory, ``ilp_knapsack``'s crash on empty input."""

DEFAULT_MAX_EXAMPLES = 60
DEFAULT_TIME_BUDGET = 36.0
HARD_STOP_FACTOR = 1.5
"""A round still running at ``HARD_STOP_FACTOR * time_budget`` is cut off."""

ILP_CRASH_EXPLANATION = (
    "ilp_knapsack hands the instance to scipy milp as it is, and milp rejects some "
    "valid instances (an empty one, for example)."
)
ILP_EXPLANATION = (
    "ilp_knapsack solves a different problem: scipy milp on the unquantized float "
    "memories and budget, whereas feasibility and the optimum are defined on the "
    "quantized weights round(m * 10000) (SPEC 2.1, 3.2); it also reads the solution "
    "with an exact `x == 1` test."
)

EXPECTATIONS = {
    "no-crash": "returns an answer for every valid input (SPEC 7.2)",
    "return-shape": "returns (value, saved, recomputable) (SPEC 7.2(a))",
    "partition": "saved and recomputable hold plain ints, each index once (SPEC 7.2(b))",
    "feasibility": "the saved items fit the quantized budget (SPEC 3.2)",
    "optimality": "the saved runtime reaches the exact optimum (SPEC 3.3, 5)",
    "value-consistency": "the value equals the saved runtimes' sum (SPEC 7.1, 7.2(e))",
    "no-mutation": "the input lists are left unchanged (SPEC 8.2)",
    "determinism": "the same input gives the same answer (SPEC 8.1)",
    "budget-monotone": "a larger budget never lowers the saved runtime",
    "permutation-invariant": "reordering the items keeps the saved runtime",
    "append-heavy-item": "an item over the budget changes nothing",
    "append-nonpositive-item": "an item with runtime <= 0 changes nothing",
    "runtime-scaling": "scaling the runtimes by 2**k scales the saved runtime",
    "zero-weight-gain": "a free item with runtime r adds exactly r",
}
"""Each property's expected outcome, in words (the actual one is the finding's message)."""


@dataclass(frozen=True)
class AuditOptions:
    """How hard and how safely to audit (the ``verify`` options).

    Attributes:
        max_examples: Hypothesis examples per search round and tier.
        time_budget: seconds after which no new search round starts.
        seed: Hypothesis seed; ``None``: derandomized (the same search every run).
        call_timeout: seconds per solver call.
        memory_limit: the worker's address-space limit in bytes (``None``: none).
        exact: judge exactly (``None``: exactly for ours only, SPEC 5).
        domain: ``partitioner`` or ``extended`` (``None``: extended for ours, SPEC 4.4).
        sandbox: run the worker under bubblewrap (:mod:`knapsack_audit.sandbox`).
    """

    max_examples: int = DEFAULT_MAX_EXAMPLES
    time_budget: float = DEFAULT_TIME_BUDGET
    seed: int | None = None
    call_timeout: float = DEFAULT_CALL_TIMEOUT
    memory_limit: int | None = DEFAULT_MEMORY_LIMIT
    exact: bool | None = None
    domain: str | None = None
    sandbox: bool = False


@dataclass(frozen=True)
class PropertyVerdict:
    """One row of a target's table.

    ``verdict`` is ``pass``, ``fail`` or ``warning`` (the search stopped on
    the time budget before it could finish a round without failures).
    ``examples`` and ``seconds``: how many examples were tried, and how long
    it took, until the failure was found or the search ended.
    """

    property: str
    verdict: str
    examples: int
    seconds: float


@dataclass(frozen=True)
class FindingReport:
    """A failure: the shrunk counterexample as a call, expected versus actual."""

    property: str
    clause: str
    call: str
    expected: str
    actual: str
    explanation: str = ""


@dataclass
class TargetReport:
    """Everything ``verify`` learned about one target.

    ``solver_output``: how much the solver printed to stdout and stderr, with
    the first and last bytes (:mod:`knapsack_audit.captured`); ``sandbox``:
    the protections ``--sandbox`` turned on (empty without it).
    """

    label: str
    function: str
    judge: str = ""
    domain: str = ""
    verdicts: list[PropertyVerdict] = field(default_factory=list)
    findings: list[FindingReport] = field(default_factory=list)
    examples: int = 0
    seconds: float = 0.0
    calls: int = 0
    stopped_early: bool = False
    error: str | None = None
    solver_output: list[StreamSummary] = field(default_factory=list)
    sandbox: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        """``error`` (could not load), ``fail`` (some property failed) or ``pass``."""
        if self.error is not None:
            return "error"
        return "fail" if self.findings else "pass"

    def isolation_notes(self) -> list[str]:
        """Sentences on how the solver was confined and what it printed (for reports)."""
        notes = []
        if self.sandbox:
            notes.append(f"Sandbox: {', '.join(self.sandbox)}.")
        printed = [stream for stream in self.solver_output if stream.total_bytes]
        if printed:
            amounts = " and ".join(
                f"{stream.total_bytes} bytes to {stream.name}" for stream in printed
            )
            notes.append(
                f"The solver printed {amounts} (captured; the first and last "
                f"{KEEP_BYTES} bytes of each are in the JSON report)."
            )
        return notes

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``status`` included)."""
        return {"status": self.status, **asdict(self)}


EXIT_PASSED, EXIT_FAILED, EXIT_UNUSABLE = 0, 1, 2


def exit_code(reports: Sequence[TargetReport]) -> int:
    """2 if a target could not be loaded, else 1 if a property failed, else 0."""
    if any(report.status == "error" for report in reports):
        return EXIT_UNUSABLE
    if any(report.status == "fail" for report in reports):
        return EXIT_FAILED
    return EXIT_PASSED


def judging(target: Target, options: AuditOptions) -> tuple[Judge, str]:
    """The judge and domain for ``target``: ours exact and extended (SPEC 4.4, 5.1)."""
    exact = target.is_ours if options.exact is None else options.exact
    domain = options.domain or ("extended" if target.is_ours else "partitioner")
    return Judge(exact=exact), domain


def verify_target(
    target: Target,
    options: AuditOptions,
    on_example: Callable[[int], None] | None = None,
) -> TargetReport:
    """Audit ``target`` in an isolated worker; never raises for the target's faults."""
    judge, domain = judging(target, options)
    report = TargetReport(
        target.label, target.function, "exact" if judge.exact else "tolerant", domain
    )
    report.sandbox = list(PROTECTIONS) if options.sandbox else []
    started = time.perf_counter()
    solver = IsolatedSolver(
        target, options.call_timeout, options.memory_limit, sandbox=options.sandbox
    )
    with solver:
        try:
            solver.start()
        except TargetError as error:
            solver.close()
            report.error = str(error)
            report.solver_output = solver.captured_output()
            return report
        solver.deadline = time.monotonic() + HARD_STOP_FACTOR * options.time_budget
        result = audit(
            solver,
            judge,
            hypothesis_settings=_search_settings(options),
            domain=domain,
            pinned=PINNED_CASES,
            on_example=on_example,
            time_budget=options.time_budget,
        )
        report.calls = solver.calls
    report.solver_output = solver.captured_output()
    _describe(report, result, target)
    report.seconds = time.perf_counter() - started
    return report


def _search_settings(options: AuditOptions) -> settings:
    # --seed: Hypothesis' own pytest plugin (--hypothesis-seed) sets this
    # module global; the engine builds its tests internally, so it is the one
    # seam that seeds them without changing the engine.
    hypothesis.core.global_force_seed = options.seed  # type: ignore[assignment]
    return settings(max_examples=options.max_examples, derandomize=options.seed is None)


def _describe(report: TargetReport, result: AuditResult, target: Target) -> None:
    report.examples = result.examples
    report.stopped_early = result.stopped_early
    for name in PROPERTIES:
        if name in result.findings:
            examples, seconds = result.found_at.get(name, (result.examples, result.seconds))
            verdict = "fail"
        else:
            examples, seconds = result.examples, result.seconds
            verdict = "warning" if result.stopped_early else "pass"
        report.verdicts.append(PropertyVerdict(name, verdict, examples, round(seconds, 3)))
    for name in result.failed():
        finding = result.findings[name]
        report.findings.append(
            FindingReport(
                property=name,
                clause=finding.clause,
                call=finding.case.as_call(target.function),
                expected=EXPECTATIONS.get(name, name),
                actual=finding.message,
                explanation=_explanation(target, name),
            )
        )


def _explanation(target: Target, prop: str) -> str:
    if not target.is_torch_ilp:
        return ""
    return ILP_CRASH_EXPLANATION if prop == "no-crash" else ILP_EXPLANATION


def verify_all(
    targets: list[Target],
    options: AuditOptions,
    jobs: int = 1,
    on_example: Callable[[Target, int], None] | None = None,
    on_done: Callable[[TargetReport], None] | None = None,
) -> list[TargetReport]:
    """Audit every target, ``jobs`` at a time in separate processes; reports in order.

    With ``jobs == 1`` the targets run one after the other in this process
    (their solvers still in workers) and ``on_example`` sees progress.
    """
    reports: list[TargetReport] = []
    if jobs <= 1 or len(targets) <= 1:
        for target in targets:

            def progress(count: int, target: Target = target) -> None:
                if on_example is not None:
                    on_example(target, count)

            reports.append(verify_target(target, options, progress))
            if on_done is not None:
                on_done(reports[-1])
        return reports
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(verify_target, target, options) for target in targets]
        for target, future in zip(targets, futures, strict=True):
            try:
                reports.append(future.result())
            except Exception as error:  # the job's process died (say, killed from outside)
                reports.append(
                    TargetReport(
                        target.label,
                        target.function,
                        error=f"the audit process failed: {type(error).__name__}: {error}",
                    )
                )
            if on_done is not None:
                on_done(reports[-1])
    return reports
