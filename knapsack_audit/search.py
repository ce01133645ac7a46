"""Search for property failures with Hypothesis and shrink each to a minimal case.

:func:`audit` runs every property of :mod:`knapsack_audit.properties` on cases
drawn from :mod:`knapsack_audit.strategies`. Each property raises its own
exception class, so Hypothesis tracks and shrinks every failing property
separately (its multiple-bug reporting) and the result holds one minimal
counterexample per failing property.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Flaky

from knapsack_audit import properties as props
from knapsack_audit.cases import Case
from knapsack_audit.properties import Finding, Judge, Solver
from knapsack_audit.strategies import cases, small_cases

METAMORPHIC_PROPERTIES = (
    "budget-monotone",
    "permutation-invariant",
    "append-heavy-item",
    "append-nonpositive-item",
    "runtime-scaling",
    "zero-weight-gain",
)
PROPERTIES = (*props.CALL_PROPERTIES, *METAMORPHIC_PROPERTIES)


class SearchStopped(BaseException):
    """Raise from the solver or ``on_example`` to end :func:`audit` early.

    A ``BaseException``, so neither :func:`knapsack_audit.properties.call` nor
    Hypothesis treats it as a failure; :func:`audit` returns what it has found.
    """


class PropertyFailed(AssertionError):
    """Raised inside the Hypothesis test; one subclass per property."""

    finding: Finding


_FAILURE_TYPES: dict[str, type[PropertyFailed]] = {
    name: type(f"PropertyFailed_{name.replace('-', '_')}", (PropertyFailed,), {})
    for name in PROPERTIES
}


@dataclass
class AuditResult:
    """What :func:`audit` found: a minimal finding per failing property."""

    findings: dict[str, Finding] = field(default_factory=dict)
    examples: int = 0
    seconds: float = 0.0
    calls: Counter[str] = field(default_factory=Counter)
    found_at: dict[str, tuple[int, float]] = field(default_factory=dict)
    """Per finding: (examples tried, seconds elapsed) when it was found."""
    stopped_early: bool = False
    """The time budget or a :class:`SearchStopped` ended the search."""

    def failed(self) -> list[str]:
        """Names of the failing properties, in :data:`PROPERTIES` order."""
        return [name for name in PROPERTIES if name in self.findings]


def metamorphic_checks(
    solver: Solver,
    case: Case,
    judge: Judge,
    data: st.DataObject,
    wanted: Collection[str] = METAMORPHIC_PROPERTIES,
) -> list[Finding]:
    """Draw each wanted relation's parameter and run that relation."""
    findings: list[Finding] = []
    if "budget-monotone" in wanted:
        extra = data.draw(st.integers(1, 3), label="extra_units")
        findings += props.budget_monotone(solver, case, judge, extra)
    if "permutation-invariant" in wanted:
        order = data.draw(st.permutations(range(case.n)), label="order")
        findings += props.permutation_invariant(solver, case, judge, order)
    if "append-heavy-item" in wanted:
        heavy_runtime = data.draw(st.sampled_from((1.0, 1e12)), label="heavy_runtime")
        findings += props.append_heavy_item(solver, case, judge, heavy_runtime)
    if "append-nonpositive-item" in wanted:
        memory = data.draw(st.sampled_from((0.0, 1e-4, 3e-4)), label="memory")
        runtime = data.draw(
            st.sampled_from((0.0, -1.0) if judge.exact else (0.0,)), label="runtime"
        )
        findings += props.append_nonpositive_item(solver, case, judge, memory, runtime)
    if "runtime-scaling" in wanted:
        exponent = data.draw(st.integers(-4, 4), label="exponent")
        findings += props.runtime_scaling(solver, case, judge, exponent)
    if "zero-weight-gain" in wanted:
        gain = data.draw(st.sampled_from((1.0, 0.5, 1e6)), label="zero_runtime")
        findings += props.zero_weight_gain(solver, case, judge, gain)
    return findings


def audit(
    solver: Solver,
    judge: Judge,
    *,
    strategy: st.SearchStrategy[Case] | None = None,
    hypothesis_settings: settings | None = None,
    properties: Iterable[str] = PROPERTIES,
    domain: str = "partitioner",
    pinned: Sequence[Case] = (),
    on_example: Callable[[int], None] | None = None,
    time_budget: float | None = None,
) -> AuditResult:
    """Search for failures of ``properties`` and shrink each to a minimal case.

    The default search has two tiers: tiny cases first (cheap to shrink, where
    most bugs already show), then every regime of
    :func:`knapsack_audit.strategies.cases`. Hypothesis stops generating at its
    first failure, so the search runs in rounds: each round shrinks one
    failing property, which later rounds then ignore, until a round finds
    nothing new. Every finding is then reduced further by :func:`minimize`
    (drop items while the property still fails).

    Args:
        solver: the callable under audit (upstream's signature).
        judge: exact (ours) or float32-tolerant (third party), SPEC 5.
        strategy: cases to draw instead of the two default tiers.
        hypothesis_settings: e.g. a registered profile; default: the loaded one.
        properties: the subset of :data:`PROPERTIES` to check.
        domain: ``"partitioner"`` or ``"extended"`` (SPEC 4.4).
        pinned: cases checked before the search (known upstream bugs); a
            failure found there is reported (and minimized) like any other.
        on_example: called with the running example count (progress display).
        time_budget: seconds after which no new round starts.
    """
    wanted = set(properties)
    unknown = wanted - set(PROPERTIES)
    if unknown:
        raise ValueError(f"properties: unknown names {sorted(unknown)}; known: {PROPERTIES}")
    result = AuditResult()
    base = hypothesis_settings or settings()
    run_settings = settings(
        base,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        phases=[p for p in base.phases if p is not Phase.explain],
    )
    tiers = [strategy] if strategy is not None else [small_cases(domain), cases(domain)]
    started = time.perf_counter()
    try:
        for case in pinned:
            for pinned_finding in findings_for(solver, case, judge, None, wanted):
                result.findings[pinned_finding.property] = pinned_finding
                result.found_at[pinned_finding.property] = (
                    result.examples,
                    time.perf_counter() - started,
                )
                wanted.discard(pinned_finding.property)
                result.findings[pinned_finding.property] = minimize(solver, judge, pinned_finding)
            result.examples += 1
        while wanted:
            if time_budget is not None and time.perf_counter() - started > time_budget:
                result.stopped_early = True
                break
            found = _search_tiers(solver, judge, tiers, run_settings, wanted, result, on_example)
            if found is None:
                break
            result.findings[found.property] = found
            result.found_at[found.property] = (result.examples, time.perf_counter() - started)
            wanted.discard(found.property)
            result.findings[found.property] = minimize(solver, judge, found)
    except SearchStopped:
        result.stopped_early = True
    result.seconds = time.perf_counter() - started
    return result


def findings_for(
    solver: Solver,
    case: Case,
    judge: Judge,
    data: st.DataObject | None,
    wanted: Collection[str] = PROPERTIES,
) -> list[Finding]:
    """The findings of the ``wanted`` properties on one case.

    The metamorphic relations run only when ``data`` (to draw their
    parameters) is given and one of them is wanted.
    """
    findings = props.check_call(solver, case, judge, wanted)
    if data is not None and not set(wanted).isdisjoint(METAMORPHIC_PROPERTIES):
        findings += metamorphic_checks(solver, case, judge, data, wanted)
    return findings


def _search_tiers(
    solver: Solver,
    judge: Judge,
    tiers: Sequence[st.SearchStrategy[Case]],
    run_settings: settings,
    wanted: set[str],
    result: AuditResult,
    on_example: Callable[[int], None] | None,
) -> Finding | None:
    """The first tier that finds a failure of a wanted property, shrunk."""
    for tier in tiers:
        found = _search_round(solver, judge, tier, run_settings, wanted, result, on_example)
        if found is not None:
            return found
    return None


def _search_round(
    solver: Solver,
    judge: Judge,
    strategy: st.SearchStrategy[Case],
    run_settings: settings,
    wanted: set[str],
    result: AuditResult,
    on_example: Callable[[int], None] | None,
) -> Finding | None:
    def check(case: Case, data: st.DataObject) -> None:
        result.examples += 1
        if on_example is not None:
            on_example(result.examples)
        for finding in findings_for(solver, case, judge, data, wanted):
            failure = _FAILURE_TYPES[finding.property](finding.message)
            failure.finding = finding
            raise failure

    test = given(strategy, st.data())(check)
    try:
        settings(run_settings)(test)()
    except PropertyFailed as failure:
        return failure.finding
    except Flaky as flaky:
        # The failure did not reproduce when Hypothesis replayed it (a solver
        # that is nondeterministic, or that hit a call timeout once): still a
        # finding, reported with that caveat rather than crashing the audit.
        for error in _leaves(flaky):
            if isinstance(error, PropertyFailed):
                finding = error.finding
                note = " (did not reproduce on replay: nondeterministic or timing-dependent)"
                return dataclasses.replace(finding, message=finding.message + note)
        raise
    return None


def _leaves(error: BaseException) -> Iterable[BaseException]:
    """The exceptions inside (nested) exception groups, or ``error`` itself.

    Duck-typed on ``.exceptions`` so that it also works on Python 3.10, where
    Hypothesis uses the ``exceptiongroup`` backport.
    """
    inner: Sequence[BaseException] | None = getattr(error, "exceptions", None)
    if inner is None:
        yield error
        return
    for each in inner:
        yield from _leaves(each)


def minimize(solver: Solver, judge: Judge, finding: Finding) -> Finding:
    """Drop items one at a time while the same property still fails (1-minimal).

    Hypothesis shrinks within one regime of the strategy; this step makes the
    counterexample minimal in the number of items whatever regime found it.
    Metamorphic findings depend on drawn parameters and keep Hypothesis' shrink.
    """
    if finding.property not in props.CALL_PROPERTIES:
        return finding
    current = finding
    progress = True
    while progress:
        progress = False
        for i in range(current.case.n):
            smaller = _without(current.case, i)
            again = [f for f in findings_for(solver, smaller, judge, None, [finding.property])]
            if again:
                current = again[0]
                progress = True
                break
    return current


def _without(case: Case, i: int) -> Case:
    return Case(
        case.memory[:i] + case.memory[i + 1 :],
        case.runtime[:i] + case.runtime[i + 1 :],
        case.max_memory,
    )
