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

import secrets
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from hypothesis import settings

from knapsack_audit.agreement import AGREEMENT_SECONDS, disagreement, probes
from knapsack_audit.captured import KEEP_BYTES, StreamSummary
from knapsack_audit.cases import Case, describe_size
from knapsack_audit.exhaustive import scope_for
from knapsack_audit.fresh import Alone, FreshWorker, recheck
from knapsack_audit.golden import fixtures
from knapsack_audit.isolation import (
    AUDIT_THREADS,
    DEFAULT_CALL_TIMEOUT,
    DEFAULT_MEMORY_LIMIT,
    IsolatedSolver,
    SolverFailure,
)
from knapsack_audit.properties import PROPERTIES as PROPERTY_TABLE
from knapsack_audit.properties import Judge
from knapsack_audit.reference.validation import quantize
from knapsack_audit.sandbox import PROTECTIONS
from knapsack_audit.search import (
    GOLDEN_NOTE,
    PROPERTIES,
    AuditResult,
    KnownCase,
    audit,
    breadth_cases,
    note_calls_before,
)
from knapsack_audit.targets import Target, TargetError
from knapsack_audit.threads import WORKER_THREADS, threaded_findings, threaded_plan

PINNED_CASES = (
    Case.of([1e-4] * 3, [1.0] * 3, 1e-4),
    Case.of([0.0], [1.0], 1.0),
    Case.of([], [], 0.5),
)
"""Known upstream bugs, always tried first: the over-budget selection of
``dp_knapsack_sliding_hirschberg`` (pytorch issue #197871), ``greedy_knapsack``'s
ZeroDivisionError on a zero memory, ``ilp_knapsack``'s crash on empty input."""


def _known(fixture: fixtures.Fixture) -> KnownCase:
    provenance = fixture.provenance
    note = (
        f"{GOLDEN_NOTE} ({provenance.get('model')}, budget {provenance.get('budget')}, "
        f"{provenance.get('runtime_estimator')} estimator)"
    )
    return KnownCase(fixture.case, fixture.optimum, note)


def _free_items(case: Case) -> int:
    return sum(
        quantize(float(m)) == 0 and r > 0 for m, r in zip(case.memory, case.runtime, strict=True)
    )


def golden_calls() -> tuple[list[KnownCase], list[KnownCase]]:
    """The real partitioner calls shipped with the package (golden data), as
    ``(sample, rest)``, each with its stored exact optimum and provenance.

    The sample is checked in the breadth phase of every audit, cheapest
    first (a short time budget leaves the costliest to the rounds): the
    smallest table of every model, then the call with the most free items
    (zero weight, positive runtime), the one with the largest ``n`` and the
    one with the largest table ``n * Q``; the rest follow,
    :data:`~knapsack_audit.search.GOLDEN_PER_ROUND` per round, smallest tables first.
    """
    calls = fixtures.load()

    def cells(fixture: fixtures.Fixture) -> int:
        return fixture.case.n * fixture.quantized_budget

    models = sorted({str(f.provenance.get("model")) for f in calls})
    sample = [
        min((f for f in calls if f.provenance.get("model") == model), key=cells) for model in models
    ]
    sample += [
        max(calls, key=lambda f: _free_items(f.case)),
        max(calls, key=lambda f: f.case.n),
        max(calls, key=cells),
    ]
    chosen: list[fixtures.Fixture] = []
    for fixture in sample:
        if fixture not in chosen:
            chosen.append(fixture)
    rest = sorted((f for f in calls if f not in chosen), key=cells)
    return [_known(f) for f in chosen], [_known(f) for f in rest]


DEFAULT_MAX_EXAMPLES = 5000
"""Random-phase example budget per target (the time budget usually ends it first)."""
DEFAULT_TIME_BUDGET = 45.0
"""Seconds per target, shared by the pinned, breadth, exhaustive and random
phases, after which the random phase draws no new example."""
ROUND_EXAMPLES = 100
"""Hypothesis examples per round and tier; each round has a fresh seed."""
HARD_STOP_GRACE = 10.0
"""Seconds after the time budget at which the audit of a target is cut off
(a shrink still running then is reported as it is, "not fully shrunk"). So
a target's audit takes at most ``time_budget + HARD_STOP_GRACE`` seconds
(55 s by default), plus the worker's start (loading the target: torch's
import takes 1 to 3 s): at most 60 s per target at default effort."""

RECHECK_SHARE = 0.3
"""A failing target's findings' calls are re-checked after the audit, each in
a fresh worker (each imports the target again, about 1.2 s with torch), until
``time_budget * (1 + RECHECK_SHARE)`` seconds after the target's worker
started loading it: 58.5 s at default effort, re-checks included, however
long the audit took (after an audit cut off at its hard stop, they get the
few seconds left). The 1.5 s to 60 s are for closing the last worker and
the command's own start (0.6 to 0.8 s), so that ``verify`` of one target
ends within 60 s on the wall clock (session 26 measured up to 60.8 s with
a window of 60 s)."""

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


@dataclass(frozen=True)
class AuditOptions:
    """How hard and how safely to audit (the ``verify`` options).

    Attributes:
        max_examples: random-phase example budget.
        time_budget: seconds per target (all phases) after which the random
            phase draws no new example.
        seed: seeds the random phase; ``None``: a fresh seed, reported so
            that ``--seed`` replays the run.
        call_timeout: seconds per solver call.
        memory_limit: the worker's address-space limit in bytes (``None``: none).
        exact: judge exactly (``None``: exactly for ours only, SPEC 5).
        domain: ``partitioner`` or ``extended`` (``None``: extended for ours, SPEC 4.4).
        sandbox: run the worker under bubblewrap (:mod:`knapsack_audit.sandbox`).
        stop_at_first: end the audit at its first finding (``mutate``).
        skip: properties not to check (``mutate``: those the original fails).
        recheck_seconds: time after the audit to compare two processes'
            answers (:mod:`knapsack_audit.agreement`) and to re-check the
            findings' calls in fresh workers (:mod:`knapsack_audit.fresh`;
            ``None``: until ``time_budget * (1 + RECHECK_SHARE)`` after the
            target's start, :data:`RECHECK_SHARE`).
    """

    max_examples: int = DEFAULT_MAX_EXAMPLES
    time_budget: float = DEFAULT_TIME_BUDGET
    seed: int | None = None
    call_timeout: float = DEFAULT_CALL_TIMEOUT
    memory_limit: int | None = DEFAULT_MEMORY_LIMIT
    exact: bool | None = None
    domain: str | None = None
    sandbox: bool = False
    stop_at_first: bool = False
    skip: tuple[str, ...] = ()
    recheck_seconds: float | None = None


@dataclass(frozen=True)
class PropertyVerdict:
    """One row of a target's table.

    ``verdict`` is ``pass``, ``fail`` or ``warning`` (no failure found, but
    the search was cut off before its effort was spent: not a pass).
    ``examples`` and ``seconds``: how many examples were tried, and how long
    it took, until the failure was found or the search ended.
    """

    property: str
    verdict: str
    examples: int
    seconds: float


@dataclass(frozen=True)
class FindingReport:
    """A failure: the shrunk counterexample as a call, expected versus actual.

    ``items`` and ``item_types``: the size of the call (its items, and its
    distinct ``(memory, runtime)`` pairs); ``found_items``: the items of the
    failing case before it was shrunk. ``alone``: the call re-checked in a
    fresh worker (:mod:`knapsack_audit.fresh`): ``fails``, ``passes`` (it
    fails only after earlier calls in the same process) or ``""`` (not
    re-checked); ``after``: for ``passes``, the calls to make first so that
    it fails again; ``replayed``: how many earlier calls were tried for that.
    """

    property: str
    clause: str
    call: str
    expected: str
    actual: str
    explanation: str = ""
    items: int = 0
    item_types: int = 0
    found_items: int = 0
    alone: str = ""
    after: list[str] = field(default_factory=list)
    replayed: int = 0

    def size(self) -> str:
        """``'3 items of 1 type (shrunk from 57)'``."""
        return describe_size(self.items, self.item_types, self.found_items)

    def state_note(self) -> str:
        """For a call that fails only after earlier calls: that, and how to
        reproduce it (SPEC 8.1); otherwise ``''``."""
        if self.alone != "passes":
            return ""
        note = (
            "this call fails only after earlier calls in the same process (SPEC 8.1): "
            "alone, in a fresh worker, it passes"
        )
        if len(self.after) == 1:
            return f"{note}; made after the call under 'after', it fails again"
        if self.after:
            calls = f"the {len(self.after)} calls in the JSON report"
            return f"{note}; made after {calls}, it fails again"
        if not self.replayed:
            return (
                f"{note}; none of the calls made before it was replayed (not remembered, "
                "or the re-checks' time ran out)"
            )
        return (
            f"{note}; replaying the last {self.replayed} calls made before it did not "
            "reproduce the failure: the state comes from further back, or the answer varies "
            "by chance (--seed replays the audit)"
        )


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
    seed: int = 0
    rounds: int = 0
    scope: str = ""
    scope_checked: int = 0
    scope_total: int = 0
    golden_checked: int = 0
    golden_total: int = 0
    breadth_checked: int = 0
    breadth_total: int = 0
    largest_table: int = 0
    processes_compared: int = 0
    threads_checked: int = 0

    @property
    def complete(self) -> bool:
        """The effort was spent: the whole exhaustive scope was checked and the
        hard stop did not cut the search off before the time budget (a case begun
        within the budget may end past the stop; the rounds start none after it)."""
        return not self.stopped_early and self.scope_checked == self.scope_total

    @property
    def status(self) -> str:
        """``error`` (could not load), ``fail`` (some property failed),
        ``incomplete`` (nothing failed, but the effort was not spent) or ``pass``."""
        if self.error is not None:
            return "error"
        if self.findings:
            return "fail"
        return "pass" if self.complete else "incomplete"

    @property
    def effort(self) -> str:
        """The effort spent, in words: exhaustive bound and count, random cases, seed."""
        scope = f"exhaustive: {self.scope_checked} of {self.scope_total} instances"
        if self.scope_checked < self.scope_total:
            scope += " (not finished)"
        stop = "; cut off by the hard stop" if self.stopped_early else ""
        golden = f"real calls: {self.golden_checked} of {self.golden_total}"
        breadth = f"breadth: {self.breadth_checked} of {self.breadth_total} calls"
        return (
            f"{scope}; {breadth}; {golden}; largest table {self.largest_table:,} cells; "
            f"random: {self.examples} cases in {self.rounds} rounds, "
            f"--seed {self.seed}; {self.calls} calls, {self.seconds:.1f} s{stop}; "
            f"two processes compared on {self.processes_compared} calls; "
            f"{self.threads_checked} calls in workers of "
            f"{' and '.join(map(str, WORKER_THREADS))} threads"
        )

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
        return {"status": self.status, "effort": self.effort, **asdict(self)}


EXIT_PASSED, EXIT_FAILED, EXIT_UNUSABLE, EXIT_INCOMPLETE = 0, 1, 2, 3


def exit_code(reports: Sequence[TargetReport]) -> int:
    """2 if a target could not be loaded (or knapsack-audit failed on it), else
    1 if a property failed, else 3 if a search was not completed (no failure,
    but no pass either), else 0."""
    if any(report.status == "error" for report in reports):
        return EXIT_UNUSABLE
    if any(report.status == "fail" for report in reports):
        return EXIT_FAILED
    if any(report.status == "incomplete" for report in reports):
        return EXIT_INCOMPLETE
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
    solver = IsolatedSolver(
        target, options.call_timeout, options.memory_limit, sandbox=options.sandbox
    )
    with solver:
        report = verify_in(solver, target, options, on_example, fresh_workers(target, options))
    report.solver_output = solver.captured_output()
    return report


def fresh_workers(target: Target, options: AuditOptions) -> FreshWorker:
    """How :func:`verify_target` starts a fresh worker for ``target`` (with
    ``options``' memory limit and sandbox, and a ``PYTHONHASHSEED`` if given)
    to re-check a finding alone, or to compare two processes' answers
    (:mod:`knapsack_audit.agreement`)."""

    def fresh(
        call_timeout: float, hash_seed: int | None = None, threads: int | None = None
    ) -> IsolatedSolver:
        worker = IsolatedSolver(
            target,
            call_timeout,
            options.memory_limit,
            sandbox=options.sandbox,
            threads=AUDIT_THREADS if threads is None else threads,
            hash_seed=hash_seed,
        )
        worker.start()
        return worker

    return fresh


def audit_configuration(
    domain: str,
    seed: int,
    time_budget: float = DEFAULT_TIME_BUDGET,
    max_examples: int = DEFAULT_MAX_EXAMPLES,
) -> dict[str, Any]:
    """The engine's arguments as ``verify`` runs it on one target
    (:func:`knapsack_audit.search.audit`): pinned cases, the exhaustive scope of
    ``domain``, the breadth phase (every size tier and value region, scaled
    big tables, a sample of the real calls, the other real calls in the
    rounds), rounds of :data:`ROUND_EXAMPLES`, the scale tier, the effort;
    tests call it to audit exactly as ``verify`` does."""
    sample, rest = golden_calls()
    return {
        "hypothesis_settings": settings(max_examples=ROUND_EXAMPLES, derandomize=False),
        "domain": domain,
        "pinned": PINNED_CASES,
        "breadth": breadth_cases(seed, sample, domain),
        "golden": rest,
        "scope": scope_for(domain),
        "time_budget": time_budget,
        "max_examples": max_examples,
        "search_seed": seed,
        "scale": True,
    }


def verify_in(
    solver: IsolatedSolver,
    target: Target,
    options: AuditOptions,
    on_example: Callable[[int], None] | None = None,
    fresh: FreshWorker | None = None,
) -> TargetReport:
    """Audit ``target`` in ``solver``'s worker, loading it there first
    (:meth:`~knapsack_audit.isolation.IsolatedSolver.retarget`: ``mutate``
    audits its mutants one after the other in one worker).

    With ``fresh`` (how to start a new worker), each finding's call is then
    re-checked alone in a fresh worker (:func:`knapsack_audit.fresh.recheck`),
    and two fresh workers of different hash seeds make the same calls,
    unless ``determinism`` already failed
    (:func:`knapsack_audit.agreement.disagreement`), for at most
    :data:`~knapsack_audit.agreement.AGREEMENT_SECONDS` of what is left.
    A target with no finding is then judged on the calls of
    :func:`~knapsack_audit.threads.threaded_plan` in fresh workers of more
    threads (band edges) and with tuples (:mod:`knapsack_audit.threads`).
    All end ``time_budget * (1 + RECHECK_SHARE)`` seconds after the start,
    or ``recheck_seconds`` after the audit if that is set."""
    judge, domain = judging(target, options)
    report = TargetReport(
        target.label, target.function, "exact" if judge.exact else "tolerant", domain
    )
    report.sandbox = list(PROTECTIONS) if options.sandbox else []
    started = time.perf_counter()
    try:
        solver.retarget(target)
    except (TargetError, SolverFailure) as error:
        report.error = str(error)
        return report
    search_seed = secrets.randbits(32) if options.seed is None else options.seed
    configuration = audit_configuration(
        domain, search_seed, options.time_budget, options.max_examples
    )
    result = audit(
        solver,
        judge,
        **configuration,
        on_example=on_example,
        hard_stop=time.monotonic() + options.time_budget + HARD_STOP_GRACE,
        properties=[name for name in PROPERTIES if name not in options.skip],
        stop_at_first=options.stop_at_first,
    )
    report.calls = solver.calls
    alone = {}
    if fresh is not None:
        breadth = [getattr(call, "case", call) for call in configuration["breadth"]]
        note_calls_before(result, solver)
        solver.close()  # its state is not needed any more: what follows starts afresh
        after = options.recheck_seconds
        ends = (
            started + options.time_budget * (1 + RECHECK_SHARE)
            if after is None
            else time.perf_counter() + after
        )
        if result.findings:
            alone = recheck(
                fresh,
                judge,
                result.findings,
                result.before,
                options.call_timeout,
                ends - time.perf_counter(),
            )
        if "determinism" not in {*options.skip, *result.findings}:
            agreement = disagreement(
                fresh,
                probes(breadth),
                options.call_timeout,
                min(AGREEMENT_SECONDS, ends - time.perf_counter()),
            )
            report.processes_compared = agreement.compared
            if agreement.finding is not None:  # found in fresh workers: nothing to re-check
                result.findings["determinism"] = agreement.finding
                result.found_at["determinism"] = (result.examples, time.perf_counter() - started)
        if not result.findings:
            threaded = threaded_findings(
                fresh,
                judge,
                threaded_plan(breadth),
                options.call_timeout,
                ends - time.perf_counter(),
            )
            report.threads_checked = threaded.checked
            for name, finding in (threaded.findings or {}).items():
                if name not in options.skip:
                    result.findings[name] = finding
                    result.found_at[name] = (result.examples, time.perf_counter() - started)
    _describe(report, result, target, alone)
    report.seconds = time.perf_counter() - started
    return report


def _describe(
    report: TargetReport, result: AuditResult, target: Target, alone: dict[str, Alone]
) -> None:
    report.examples = result.examples
    report.stopped_early = result.stopped_early
    report.seed, report.rounds = result.seed, result.rounds
    report.scope, report.scope_checked = result.scope, result.scope_checked
    report.scope_total = result.scope_total
    report.golden_checked, report.golden_total = result.golden_checked, result.golden_total
    report.breadth_checked, report.breadth_total = result.breadth_checked, result.breadth_total
    report.largest_table = result.largest_table
    for name in PROPERTIES:
        if name in result.findings:
            examples, seconds = result.found_at.get(name, (result.examples, result.seconds))
            verdict = "fail"
        else:
            examples, seconds = result.examples, result.seconds
            verdict = "pass" if report.complete else "warning"
        report.verdicts.append(PropertyVerdict(name, verdict, examples, round(seconds, 3)))
    for name in result.failed():
        finding = result.findings[name]
        again = alone.get(name, Alone(""))
        report.findings.append(
            FindingReport(
                property=name,
                clause=finding.clause,
                call=finding.case.as_call(target.function),
                expected=PROPERTY_TABLE[name].expectation,
                actual=finding.message,
                explanation=_explanation(target, name),
                items=finding.case.n,
                item_types=finding.case.distinct_items(),
                found_items=result.found_items.get(name, finding.case.n),
                alone=again.verdict,
                after=[call.as_call(target.function) for call in again.after],
                replayed=again.replayed,
            )
        )


def smallest_failure(findings: Sequence[FindingReport]) -> str:
    """The smallest failing size found over ``findings``, and its property ('' if none).

    >>> smallest_failure([FindingReport("a", "", "", "", "", "", 5, 2, 9),
    ...                   FindingReport("b", "", "", "", "", "", 2, 2, 2)])
    'smallest failing case found: 2 items (b)'
    """
    if not findings:
        return ""
    least = min(findings, key=lambda finding: (finding.items, finding.item_types))
    items = f"{least.items} item{'s' * (least.items != 1)}"
    return f"smallest failing case found: {items} ({least.property})"


def _explanation(target: Target, prop: str) -> str:
    if not target.is_torch_ilp:
        return ""
    return ILP_CRASH_EXPLANATION if prop == "no-crash" else ILP_EXPLANATION


def _failed(error: BaseException) -> str:
    """A target's error when its audit ended without a report: a ``--jobs``
    process that died (killed from outside, say) as such; else knapsack-audit
    itself failed, and the exception and where in knapsack-audit it was
    raised are given (a bug to report, not the solver's verdict)."""
    if isinstance(error, BrokenProcessPool):
        return f"the audit process failed: {type(error).__name__}: {error}"
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if "knapsack_audit" in frame.filename
    ]
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return (
        f"knapsack-audit failed while auditing it ({type(error).__name__}: "
        f"{str(error)[:500]}{where}); this is a bug of knapsack-audit, not a verdict"
    )


def verify_all(
    targets: list[Target],
    options: AuditOptions,
    jobs: int = 1,
    on_example: Callable[[Target, int], None] | None = None,
    on_done: Callable[[TargetReport], None] | None = None,
    on_start: Callable[[Target], None] | None = None,
) -> list[TargetReport]:
    """Audit every target, ``jobs`` at a time in separate processes; reports in order.

    With ``jobs == 1`` the targets run one after the other in this process
    (their solvers still in workers) and ``on_example`` sees progress; with
    more, ``on_start`` sees each target handed to a job process.
    """
    reports: list[TargetReport] = []
    if jobs <= 1 or len(targets) <= 1:
        for target in targets:

            def progress(count: int, target: Target = target) -> None:
                if on_example is not None:
                    on_example(target, count)

            try:
                reports.append(verify_target(target, options, progress))
            except Exception as error:  # knapsack-audit's own failure: the other targets go on
                reports.append(TargetReport(target.label, target.function, error=_failed(error)))
            if on_done is not None:
                on_done(reports[-1])
        return reports
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(verify_target, target, options) for target in targets]
        for target in targets:
            if on_start is not None:
                on_start(target)
        for target, future in zip(targets, futures, strict=True):
            try:
                reports.append(future.result())
            except Exception as error:  # the job's process died, or the audit failed in it
                reports.append(TargetReport(target.label, target.function, error=_failed(error)))
            if on_done is not None:
                on_done(reports[-1])
    return reports
