"""``knapsack-audit compare BASE NEW``: review a solver change against its base.

Both solvers run in isolated workers (:mod:`knapsack_audit.isolation`) on the
same cases (:mod:`knapsack_audit.families`), alternating case by case so
drift in the machine's load hits both alike. Each case is one *measured
call* per solver (:func:`knapsack_audit.measure.measured_call`: a warm-up
call whose answer is judged, then timed repeats with the peak resident
memory of each). Per family the report gives (SPEC 9):

* each solver's failures of the one-call properties against the exact
  oracle (:func:`knapsack_audit.properties.check_call`), both judged alike;
* **regressions**: cases where NEW fails a property BASE passes (SPEC 9.1),
  the smallest of each property reduced by the engine's minimizer
  (:func:`knapsack_audit.search.minimize`) to a copy-pasteable call on which
  BASE still passes; **fixes**, the converse;
* cases where both are correct but their selections differ (ties, SPEC 6.2):
  information only;
* time and peak-memory ratios NEW / BASE (median and worst over the cases)
  with the run's noise, the spread between repeats (SPEC 9.2).

Exit code (SPEC 9.3): 1 on any regression, a failed ``--max-slowdown`` /
``--max-memory-ratio`` gate, or a ``--claim`` that does not hold; 2 when a
target cannot be loaded or parsed; else 0.
"""

from __future__ import annotations

import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from knapsack_audit.cases import Case, describe_size
from knapsack_audit.families import Effort, families
from knapsack_audit.isolation import DEFAULT_CALL_TIMEOUT, DEFAULT_MEMORY_LIMIT, IsolatedSolver
from knapsack_audit.measure import spread
from knapsack_audit.properties import CALL_PROPERTIES, Finding, Judge, Solver, check_call
from knapsack_audit.search import Stoppable, minimize
from knapsack_audit.targets import Target, TargetError, parse_target

JUDGED_PROPERTIES = tuple(name for name in CALL_PROPERTIES if name != "determinism")
"""One call per case and solver: ``verify`` checks determinism (SPEC 8.1)."""

MINIMIZE_SECONDS = 15.0
"""Time limit for minimizing one regression (large-Q calls take seconds each)."""

MEMORY_MEASURABLE = 2**20
"""Memory ratios use only cases where one of the two peaks reaches 1 MiB."""

MEMORY_FLOOR = 64 * 2**10
"""Peaks below 64 KiB count as 64 KiB in a ratio (page and allocator granularity)."""

EXIT_PASSED, EXIT_FAILED, EXIT_UNUSABLE = 0, 1, 2


@dataclass(frozen=True)
class CompareOptions:
    """How to run a comparison.

    Attributes:
        effort: the cases and repeats (:data:`knapsack_audit.families.EFFORTS`).
        call_timeout: seconds per solver call (each of the warm-up and repeats).
        memory_limit: each worker's address-space limit in bytes (``None``: none).
        exact: judge both exactly (SPEC 5.1); ``None``: exactly only if both are ours.
        max_slowdown: fail when a family's median time ratio exceeds it.
        max_memory_ratio: fail when a family's median memory ratio exceeds it.
        claims: claims to check (:func:`parse_claim`).
    """

    effort: Effort
    call_timeout: float = DEFAULT_CALL_TIMEOUT
    memory_limit: int | None = DEFAULT_MEMORY_LIMIT
    exact: bool | None = None
    max_slowdown: float | None = None
    max_memory_ratio: float | None = None
    claims: tuple[Claim, ...] = ()


@dataclass(frozen=True)
class Claim:
    """A claim of a pull request about a ratio NEW / BASE: ``memory<=0.05``.

    ``family`` ``None`` means every family that has the ratio must satisfy it.
    """

    text: str
    metric: str
    operator: str
    bound: float
    family: str | None = None

    def holds(self, ratio: float) -> bool:
        """Whether ``ratio`` satisfies the claim."""
        return _OPERATORS[self.operator](ratio, self.bound)


_OPERATORS: dict[str, Callable[[float, float], bool]] = {
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
}
_CLAIM = re.compile(r"^\s*(?:([a-z-]+)\.)?(time|memory)\s*(<=|>=|<|>)\s*([0-9.eE+-]+)\s*$")


def parse_claim(text: str) -> Claim:
    """``"memory<=0.05"``, ``"time<0.75"``, ``"partitioner.time<=0.75"`` -> :class:`Claim`.

    Raises:
        ValueError: the text is not ``[FAMILY.]time|memory OP NUMBER``.
    """
    match = _CLAIM.match(text)
    if match is None:
        raise ValueError(
            f"--claim {text!r}: expected [FAMILY.]time|memory OP NUMBER with OP one of "
            "<=, <, >=, >, e.g. 'memory<=0.05'"
        )
    family, metric, operator, number = match.groups()
    try:
        bound = float(number)
    except ValueError:
        raise ValueError(f"--claim {text!r}: {number!r} is not a number") from None
    return Claim(text.strip(), metric, operator, bound, family)


def read_claims(path: str) -> list[Claim]:
    """One claim per line; blank lines and ``#`` comments are ignored."""
    with open(path, encoding="utf-8") as lines:
        texts = [line.split("#", 1)[0].strip() for line in lines]
    return [parse_claim(text) for text in texts if text]


@dataclass(frozen=True)
class Ratio:
    """NEW / BASE over a family's cases, with the run's noise.

    Attributes:
        cases: cases the ratio is formed on.
        median: median of the per-case ratios (``None`` without cases).
        worst: the largest per-case ratio.
        noise: median over cases of the larger relative spread of the two
            solvers' repeats, ``3 * MAD / median`` (MAD: median absolute
            deviation, which one stalled repeat does not move; for normal
            noise ``3 * MAD`` is about two standard deviations).
        verdict: ``faster``/``slower`` (memory: ``smaller``/``larger``) beyond
            the noise, ``within noise``, or
            ``n/a`` (the reason is in ``note``).
        note: why a ratio is missing.
    """

    cases: int = 0
    median: float | None = None
    worst: float | None = None
    noise: float | None = None
    verdict: str = "n/a"
    note: str = ""

    def describe(self) -> str:
        """``'0.21x (worst 0.48x, noise 6%)'``, or why there is no ratio."""
        if self.median is None or self.worst is None or self.noise is None:
            return f"n/a ({self.note})" if self.note else "n/a"
        return f"{self.median:.3g}x (worst {self.worst:.3g}x, noise {self.noise:.0%})"


@dataclass(frozen=True)
class Regression:
    """A case where NEW fails a property that BASE passes (SPEC 9.1)."""

    family: str
    property: str
    clause: str
    call: str
    items: int
    new: str
    base: str
    minimized: str
    """``minimized`` (dropping any one item makes NEW pass), or why not."""
    types: int = 0
    """Distinct ``(memory, runtime)`` pairs of the call."""
    found_items: int = 0
    """Items of the case as the family gave it, before minimizing."""

    def size(self) -> str:
        """``'7 items of 1 type (shrunk from 126)'``."""
        return describe_size(self.items, self.types, self.found_items)


@dataclass
class FamilyComparison:
    """One family's counts and ratios."""

    family: str
    cases: int = 0
    base_failures: dict[str, int] = field(default_factory=dict)
    new_failures: dict[str, int] = field(default_factory=dict)
    regressions: int = 0
    fixes: int = 0
    differing: int = 0
    time: Ratio = field(default_factory=Ratio)
    memory: Ratio = field(default_factory=Ratio)
    examples: list[Regression] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class PairReport:
    """BASE against NEW: per-family comparisons, or why it could not run."""

    name: str
    base: str
    new: str
    judge: str = ""
    families: list[FamilyComparison] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None

    @property
    def regressions(self) -> int:
        """Cases with a regression, over all families."""
        return sum(family.regressions for family in self.families)


@dataclass(frozen=True)
class Check:
    """A gate or a claim, and whether the measured ratios satisfy it."""

    kind: str
    pair: str
    text: str
    held: bool
    figure: str


@dataclass
class CompareReport:
    """Everything ``compare`` found: pairs, added/removed solvers, gates and claims."""

    base: str
    new: str
    effort: str
    pairs: list[PairReport] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """SPEC 9.3: 2 unusable, 1 regression / failed gate / claim not held, else 0."""
        if any(pair.error is not None for pair in self.pairs):
            return EXIT_UNUSABLE
        if any(pair.regressions for pair in self.pairs) or not all(c.held for c in self.checks):
            return EXIT_FAILED
        return EXIT_PASSED

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``exit_code`` included)."""
        return {"exit_code": self.exit_code, **asdict(self)}


def pair_targets(
    base: Sequence[Target], new: Sequence[Target]
) -> tuple[list[tuple[Target, Target]], list[str], list[str]]:
    """Pairs to compare, and the solver names only NEW has (added) or only BASE has.

    One solver on each side is one pair whatever the names; otherwise
    solvers pair by function name.
    """
    if len(base) == 1 and len(new) == 1:
        return [(base[0], new[0])], [], []
    by_name = {target.function: target for target in base}
    new_names = {target.function for target in new}
    pairs = [(by_name[target.function], target) for target in new if target.function in by_name]
    added = [target.function for target in new if target.function not in by_name]
    removed = [target.function for target in base if target.function not in new_names]
    return pairs, added, removed


def run_compare(
    base_argument: str,
    new_argument: str,
    options: CompareOptions,
    on_progress: Callable[[str], None] | None = None,
) -> CompareReport:
    """Parse both TARGETs, compare every pair, check gates and claims.

    Raises:
        TargetError: a TARGET cannot be parsed, or the two share no solver.
    """
    base, new = parse_target(base_argument), parse_target(new_argument)
    pairs, added, removed = pair_targets(base, new)
    if not pairs:
        raise TargetError(f"{base_argument} and {new_argument} have no solver name in common")
    report = CompareReport(base_argument, new_argument, options.effort.name, added=added)
    report.removed = removed
    for base_target, new_target in pairs:
        report.pairs.append(compare_pair(base_target, new_target, options, on_progress))
    report.checks = checks(report.pairs, options)
    return report


def judge_for(base: Target, new: Target, options: CompareOptions) -> Judge:
    """One judge for both (SPEC 9.1): exact only when both are ours (SPEC 5.1)."""
    exact = base.is_ours and new.is_ours if options.exact is None else options.exact
    return Judge(exact=exact, oracle_max_items=10**6)


@dataclass
class _Measured:
    """One solver's measured call on one case."""

    answer: Any = None
    error: BaseException | None = None
    seconds: list[float] = field(default_factory=list)
    peaks: list[int] = field(default_factory=list)


def _measure(solver: IsolatedSolver, case: Case, repeats: int) -> _Measured:
    try:
        answer, seconds, peaks = solver.measure(*case.arguments(), repeats)
    except Exception as error:  # the solver's crash, timeout or death is a finding
        return _Measured(error=error)
    return _Measured(answer, None, list(seconds), list(peaks))


def _judge(measured: _Measured, case: Case, judge: Judge) -> list[Finding]:
    """The one-call findings of the measured answer (the engine's own checks)."""

    def replay(memory: list[float], runtime: list[float], max_memory: float) -> Any:
        if measured.error is not None:
            raise measured.error
        return measured.answer

    return check_call(replay, case, judge, JUDGED_PROPERTIES)


def _saved(measured: _Measured) -> frozenset[int]:
    return frozenset(measured.answer[1])


def compare_pair(
    base: Target,
    new: Target,
    options: CompareOptions,
    on_progress: Callable[[str], None] | None = None,
) -> PairReport:
    """Compare ``new`` against ``base`` on every family; never raises for their faults."""
    judge = judge_for(base, new, options)
    name = base.function if base.function == new.function else f"{base.function} -> {new.function}"
    report = PairReport(name, base.label, new.label, "exact" if judge.exact else "tolerant")
    started = time.perf_counter()
    with (
        # Timed (SPEC 9.2): torch's default threads, as the partitioner runs it.
        IsolatedSolver(
            base, options.call_timeout, options.memory_limit, threads=None
        ) as base_solver,
        IsolatedSolver(new, options.call_timeout, options.memory_limit, threads=None) as new_solver,
    ):
        try:
            base_solver.start()
            new_solver.start()
        except TargetError as error:
            report.error = str(error)
            return report
        for family in families(options.effort):
            if on_progress is not None:
                on_progress(f"{report.name}: {family.name} ({len(family.cases)} cases)")
            repeats = options.effort.repeats if family.timed else 0
            report.families.append(
                _compare_family(family.name, family.cases, base_solver, new_solver, judge, repeats)
            )
    report.seconds = round(time.perf_counter() - started, 1)
    return report


def _compare_family(
    name: str,
    cases: Sequence[Case],
    base: IsolatedSolver,
    new: IsolatedSolver,
    judge: Judge,
    repeats: int,
) -> FamilyComparison:
    started = time.perf_counter()
    result = FamilyComparison(name, len(cases))
    base_failures: Counter[str] = Counter()
    new_failures: Counter[str] = Counter()
    smallest: dict[str, Finding] = {}
    times: list[tuple[_Measured, _Measured]] = []
    for case in cases:
        base_run = _measure(base, case, repeats)
        new_run = _measure(new, case, repeats)
        base_findings = _judge(base_run, case, judge)
        new_findings = _judge(new_run, case, judge)
        base_props = {f.property for f in base_findings}
        new_props = {f.property for f in new_findings}
        base_failures.update(base_props)
        new_failures.update(new_props)
        worse = regressed(base_findings, new_findings)
        if worse:
            result.regressions += 1
            for finding in worse:
                kept = smallest.get(finding.property)
                if kept is None or case.n < kept.case.n:
                    smallest[finding.property] = finding
        elif base_props and not new_props:
            result.fixes += 1
        elif not base_props and not new_props and _saved(base_run) != _saved(new_run):
            result.differing += 1
        if base_run.error is None and new_run.error is None:
            times.append((base_run, new_run))
    result.base_failures = dict(sorted(base_failures.items()))
    result.new_failures = dict(sorted(new_failures.items()))
    if repeats:
        result.time = _time_ratio(times)
        result.memory = _memory_ratio(times)
    else:
        result.time = result.memory = Ratio(note="not timed")
    result.examples = [
        _bounded_minimal_regression(name, finding, base, new, judge)
        for finding in smallest.values()
    ]
    result.seconds = round(time.perf_counter() - started, 1)
    return result


def _bounded_minimal_regression(
    family: str, finding: Finding, base: IsolatedSolver, new: IsolatedSolver, judge: Judge
) -> Regression:
    """:func:`minimal_regression`, NEW's shrinking cut off after :data:`MINIMIZE_SECONDS`
    (:class:`~knapsack_audit.search.Stoppable`; the smallest case so far is kept,
    its message saying it is not fully shrunk)."""
    stoppable = Stoppable(new, time.monotonic() + MINIMIZE_SECONDS)
    return minimal_regression(family, finding, base, stoppable, judge, new.target.function)


def regressed(base: Sequence[Finding], new: Sequence[Finding]) -> list[Finding]:
    """NEW's findings for properties BASE passes on the same case (SPEC 9.1)."""
    base_properties = {finding.property for finding in base}
    return [finding for finding in new if finding.property not in base_properties]


def minimal_regression(
    family: str, finding: Finding, base: Solver, new: Solver, judge: Judge, function: str
) -> Regression:
    """The engine's minimizer on NEW, taking only smaller cases BASE still passes.

    ``function`` names NEW in the copy-pasteable call.
    """

    def base_passes(case: Case) -> bool:
        return not check_call(base, case, judge, [finding.property])

    smaller = minimize(new, judge, finding, keep=base_passes)
    base_findings = check_call(base, smaller.case, judge, JUDGED_PROPERTIES)
    return Regression(
        family=family,
        property=smaller.property,
        clause=smaller.clause,
        call=smaller.case.as_call(function),
        items=smaller.case.n,
        new=smaller.message,
        base="; ".join(f.message for f in base_findings) or "passes every one-call property",
        minimized=f"stopped after {MINIMIZE_SECONDS:g} s"
        if "(not fully shrunk" in smaller.message
        else "minimized",
        types=smaller.case.distinct_items(),
        found_items=finding.case.n,
    )


def _ratio(pairs: Sequence[tuple[Sequence[float], Sequence[float]]], more: str, less: str) -> Ratio:
    """Median and worst of ``median(new) / median(base)``; noise as in :class:`Ratio`.

    The verdict is ``more`` (``slower``, ``larger``) or ``less`` beyond the noise.
    """
    ratios = [statistics.median(n) / statistics.median(b) for b, n in pairs]
    noise = statistics.median(max(spread(b), spread(n)) for b, n in pairs)
    median = statistics.median(ratios)
    if median > 1 + noise:
        verdict = more
    elif median < 1 / (1 + noise):
        verdict = less
    else:
        verdict = "within noise"
    return Ratio(len(ratios), median, max(ratios), noise, verdict)


def _time_ratio(runs: Sequence[tuple[_Measured, _Measured]]) -> Ratio:
    pairs = [(b.seconds, n.seconds) for b, n in runs if b.seconds and n.seconds]
    if not pairs:
        return Ratio(note="no case where both answered")
    return _ratio(pairs, "slower", "faster")


def _memory_ratio(runs: Sequence[tuple[_Measured, _Measured]]) -> Ratio:
    pairs = []
    for b, n in runs:
        if not b.peaks or not n.peaks or min(b.peaks + n.peaks) < 0:
            continue
        if max(statistics.median(b.peaks), statistics.median(n.peaks)) < MEMORY_MEASURABLE:
            continue
        floored = [max(p, MEMORY_FLOOR) for p in b.peaks], [max(p, MEMORY_FLOOR) for p in n.peaks]
        pairs.append(floored)
    if not pairs:
        return Ratio(note="both peaks below 1 MiB")
    return _ratio(pairs, "larger", "smaller")


def _family_ratios(pair: PairReport, metric: str, family: str | None) -> list[tuple[str, Ratio]]:
    return [
        (f.family, getattr(f, metric))
        for f in pair.families
        if (family is None or f.family == family) and getattr(f, metric).median is not None
    ]


def checks(pairs: Sequence[PairReport], options: CompareOptions) -> list[Check]:
    """The gates (``--max-slowdown``, ``--max-memory-ratio``) and claims, evaluated."""
    wanted: list[tuple[str, Claim]] = [("claim", claim) for claim in options.claims]
    for metric, bound in (("time", options.max_slowdown), ("memory", options.max_memory_ratio)):
        if bound is not None:
            wanted.append(("gate", Claim(f"{metric}<={bound:g}", metric, "<=", bound)))
    results = []
    for kind, claim in wanted:
        for pair in pairs:
            ratios = _family_ratios(pair, claim.metric, claim.family)
            if not ratios:
                results.append(Check(kind, pair.name, claim.text, False, "no measured ratio"))
                continue
            failing = [(name, r) for name, r in ratios if not claim.holds(r.median or 0.0)]
            figure = ", ".join(f"{name} {r.median:.3g}x" for name, r in (failing or ratios))
            results.append(Check(kind, pair.name, claim.text, not failing, figure))
    return results
