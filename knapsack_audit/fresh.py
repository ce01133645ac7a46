"""Re-check each finding's call in a fresh worker: does it fail on its own?

An audit makes thousands of calls in one worker process. A solver that keeps
state between calls (a cache keyed too loosely, a scratch buffer reused
without clearing) can fail a call only because of the calls made before it.
Pasted alone into a new process, that counterexample passes. SPEC 8.1 asks
for the same answer in any process, so the finding stands, but the report
must say how to reproduce it.

For each distinct call among the findings of the one-call properties,
:func:`recheck` starts a new worker and makes that call alone (every call
first, then the set-up searches):

- if the call fails again, the finding is ``fails`` alone;
- if it passes, the finding is ``passes`` alone, and the search for a
  set-up begins:
  1. the candidates are the calls the audit's worker made before it last
     failed on that call (:attr:`~knapsack_audit.search.AuditResult.before`, at most
     :data:`~knapsack_audit.isolation.RECENT_CALLS`), preceded by the first
     call of the same item count and budget when the worker kept it from
     further back; each run of them is replayed in a fresh worker, then the
     call;
  2. the set-up is the oldest candidate alone if it suffices, else the
     shortest run of the last of them after which the call fails again
     (galloping from the end, then bisection: :func:`_set_up`), or the first
     call of that run alone if it suffices (``after``).

Invariant: ``after`` is never empty unless the failure could not be
reproduced in a fresh worker. Every step stops when ``seconds`` have passed;
what is not re-checked by then has the verdict ``""`` (not re-checked).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from knapsack_audit import properties as props
from knapsack_audit.cases import Case
from knapsack_audit.isolation import SolverFailure, SolverTimeout, WorkerDied
from knapsack_audit.properties import Finding, Judge
from knapsack_audit.reference.validation import quantize
from knapsack_audit.targets import TargetError

MIN_SECONDS = 2.0
"""Least time a re-check, or :func:`knapsack_audit.threads.threaded_findings`,
starts a fresh worker in (its start, the target's import, takes about 1.2 s
with torch: a threaded-check worker started with less left ran a passing
target's audit 1.3 s past its window, session 27)."""

LOST_STATE = (SolverTimeout, WorkerDied)
"""Outcomes that end a worker: a replay with one of them has lost its state,
and a call with one of them was not judged (a timeout is the machine's
verdict as much as the solver's, so a timed-out finding is not re-checked)."""


@dataclass(frozen=True)
class Alone:
    """How a finding's call behaves in a fresh worker.

    ``verdict``: ``"fails"`` (it fails on its own), ``"passes"`` (it fails
    only after earlier calls) or ``""`` (not re-checked: a relation's finding,
    or the time ran out). ``after``: for ``"passes"``, the calls that, made
    first in a fresh worker, make it fail again (empty: not reproduced);
    ``replayed``: how many earlier calls were candidates for that.
    """

    verdict: str
    after: tuple[Case, ...] = ()
    replayed: int = 0


class FreshWorker(Protocol):
    """Starts a new worker for the target, with the given call timeout in
    seconds and, if given, ``PYTHONHASHSEED`` and intra-op threads (else the
    audit's, :data:`~knapsack_audit.isolation.AUDIT_THREADS`)
    (:class:`~knapsack_audit.isolation.IsolatedSolver` as a context manager)."""

    def __call__(
        self, call_timeout: float, hash_seed: int | None = None, threads: int | None = None
    ) -> AbstractContextManager[Any]: ...


def _time_left(worker: Any, call_timeout: float, deadline: float) -> bool:
    """Whether time is left before ``deadline``; if so, the next call's
    timeout is cut to it, so that no call runs past the window."""
    left = deadline - time.monotonic()
    worker.call_timeout = min(call_timeout, max(left, 0.0))
    return left > 0


def recheck(
    fresh: FreshWorker,
    judge: Judge,
    findings: Mapping[str, Finding],
    before: Mapping[str, tuple[Case, Sequence[Case]]],
    call_timeout: float,
    seconds: float,
) -> dict[str, Alone]:
    """Per one-call property in ``findings``: its call's :class:`Alone`.

    Args:
        fresh: starts a new worker (see :data:`FreshWorker`).
        judge: the audit's judge.
        findings: the audit's findings, by property.
        before: per property, a failing call and the calls made before it
            (:attr:`~knapsack_audit.search.AuditResult.before`); used when
            that call is the finding's.
        call_timeout: the audit's call timeout (capped by the time left).
        seconds: the time for all re-checks.
    """
    deadline = time.monotonic() + seconds
    groups: dict[Case, list[str]] = {}
    for name, finding in findings.items():
        if name in props.CALL_PROPERTIES and not props.is_call_timeout(finding.message):
            groups.setdefault(finding.case, []).append(name)

    def failing(first: Sequence[Case], case: Case, names: list[str]) -> set[str] | None:
        """The properties of ``names`` that fail on ``case`` in a fresh worker
        after the calls ``first``; ``None`` if the time ran out or the worker
        would not start."""
        left = deadline - time.monotonic()
        if left < MIN_SECONDS:
            return None
        try:
            with fresh(min(call_timeout, left)) as worker:
                for earlier in first:
                    if not _time_left(worker, call_timeout, deadline):
                        return None  # a long replay ends with the time
                    if isinstance(props.call(worker, earlier).error, LOST_STATE):
                        return None
                if not _time_left(worker, call_timeout, deadline):
                    return None
                outcome = props.call(worker, case)
                if isinstance(outcome.error, LOST_STATE):
                    return None
                found = props.judge_outcome(worker, case, judge, outcome, names)
        except (TargetError, SolverFailure):
            return None
        if time.monotonic() > deadline:
            return None
        return {finding.property for finding in found}

    alone: dict[str, Alone] = {}
    passing: list[tuple[Case, list[str]]] = []
    for case, names in groups.items():
        again = failing((), case, names)
        if again is None:
            break
        for name in again:
            alone[name] = Alone("fails")
        if rest := [name for name in names if name not in again]:
            passing.append((case, rest))
    for case, names in passing:
        failed, earlier = before.get(names[0], (case, ()))
        earlier = earlier if failed == case else ()
        after = _set_up(failing, case, names, earlier)
        for name in names:
            alone[name] = (
                Alone("passes")
                if after is None  # the time ran out before a replay answered
                else Alone("passes", after, len(earlier))
            )
    return alone


def _set_up(
    failing: Callable[[Sequence[Case], Case, list[str]], set[str] | None],
    case: Case,
    names: list[str],
    earlier: Sequence[Case],
) -> tuple[Case, ...] | None:
    """The shortest run of the last of ``earlier`` after which ``case`` fails
    again in a fresh worker, or its first call alone if that suffices; ``()``
    if no run of them does; ``None`` if the time ran out before a replay made
    the call fail again.

    First the oldest alone (when the worker kept one, the first call of the
    case's item count and budget, which
    :func:`~knapsack_audit.search.calls_before` puts first), the case
    itself made once before (a cache of answers keyed by the arguments; the
    calls before leave out copies of the case right before its failing
    call, which may be this set-up: at 70ed0d3 a blind-corpus cache's
    finding named none), and the first of the case's size bucket alone
    (:func:`_first_of_bucket`); then galloping
    from the end (the last 1, 2, 4, ... calls, ending with all of them) and
    bisection between the last run that passed and the first that failed.
    Cheap runs come first: a set-up ``d`` calls back costs about
    ``2 log2 d`` fresh workers and about ``3 d`` replayed calls, however many
    calls are remembered (at 568461d a whole replay came first and spent
    the re-checks' time on the 178 calls before a shape-bucketed
    autotuner's finding).
    """
    longest = len(earlier)
    if not longest:
        return ()
    if longest > 1:
        oldest = failing(earlier[:1], case, names)
        if oldest is None:
            return None
        if oldest:
            return tuple(earlier[:1])
    singles = [case]  # the same call, made before it
    bucket_first = _first_of_bucket(case, earlier[1:-1])
    if bucket_first is not None and bucket_first != case:
        singles.append(bucket_first)
    for single in singles:
        again = failing((single,), case, names)
        if again is None:
            return None
        if again:
            return (single,)
    passed, length = 0, 1
    while True:
        again = failing(earlier[-length:], case, names)
        if again is None:
            return None
        if again:
            break
        if length == longest:
            return ()
        passed, length = length, min(2 * length, longest)
    while length - passed > 1:
        middle = (passed + length) // 2
        again = failing(earlier[-middle:], case, names)
        if again is None:  # the time ran out: the run of ``length`` is known to suffice
            break
        if again:
            length = middle
        else:
            passed = middle
    run = tuple(earlier[-length:])
    if 1 < length < longest and failing(run[:1], case, names):
        return run[:1]
    return run


def _first_of_bucket(case: Case, earlier: Sequence[Case]) -> Case | None:
    """The first of ``earlier`` in ``case``'s size bucket: the same bit
    lengths of the item count and of the budget in units (SPEC 2.1), as an
    autotuner or a compiled-kernel cache keys shapes rounded to powers of two.
    A blind-corpus bug cached its kernel choice so: its set-up was 67 calls
    back, among calls of other buckets (session 19, docs/blind-corpus-9)."""
    try:
        bucket = (case.n.bit_length(), quantize(float(case.max_memory)).bit_length())
        for call in earlier:
            if (call.n.bit_length(), quantize(float(call.max_memory)).bit_length()) == bucket:
                return call
    except (TypeError, ValueError, OverflowError):  # a budget that is not a number (bad input)
        return None
    return None
