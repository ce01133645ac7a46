"""Answers of a worker with more intra-op threads: SPEC 8.1's "in any process".

The audit's worker runs one torch thread (:data:`~knapsack_audit.isolation.AUDIT_THREADS`),
while the partitioner runs torch's default, one thread per core. A fast path
that splits a big table's row into one band of columns per thread changes
its code path with the thread count: with one thread it is upstream's loop.
A band's first column is where an off-by-one at a band edge bites, and with
``T`` threads the first band edge is at about ``(Q + 1) / T`` units.

:func:`threaded_findings` starts one fresh worker of :data:`THREADS` threads
and judges its answers to :func:`band_edge_cases` with the one-call
properties (tolerant like the rest of the audit: a parallel reduction's
rounding is no finding, a lost item is). Each case has one key item of
about half the budget, on either side of every band-edge formula for two
threads (``ceil((Q + 1) / 2)``, ``(Q + 1) // 2``, ``Q // 2``,
``ceil(Q / 2)``), worth more than every other item together, beside unit
items that fill the rest of the budget: the optimum is every item, known
exactly without an oracle, and a solver that never takes the key item at
the last column is short by more than half the optimum.

The same worker then makes the four calls again with ``memory`` and
``runtime`` as tuples: SPEC 1.1 accepts any sequence, and the audit's other
calls pass lists (as the partitioner does), so a solver that concatenates
its inputs with a list (``memory + [...]``) fails only here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from knapsack_audit import properties as props
from knapsack_audit.cases import Case
from knapsack_audit.fresh import LOST_STATE, FreshWorker
from knapsack_audit.isolation import SolverFailure
from knapsack_audit.properties import Finding, Judge
from knapsack_audit.strategies import unit_memory
from knapsack_audit.targets import TargetError

THREADS = 2
"""Intra-op threads of the threaded worker: torch's default on a two-core
machine (the CI's), and more than the audit's one."""

BAND_EDGE_ITEMS = 700
"""Items of each :func:`band_edge_cases` call."""

BAND_EDGE_BUDGETS = (17_142, 17_143)
"""The budgets of :func:`band_edge_cases`, in units, one even and one odd:
tables of 1.2e7 cells, past the cell counts a parallel fill switches on."""

MIN_SECONDS = 2.0
"""Least time :func:`threaded_findings` starts its worker in."""

THREADED_NOTE = "in a fresh worker with {threads} intra-op threads (the audit's has 1): {message}"
AS_TUPLES_NOTE = (
    "with memory and runtime passed as tuples (SPEC 1.1; the same call with lists "
    "passed in this worker), in a fresh worker with {threads} intra-op threads: {message}"
)


def band_edge_cases() -> list[Case]:
    """Per budget of :data:`BAND_EDGE_BUDGETS` and per key weight ``Q // 2``
    and ``Q // 2 + 1``: :data:`BAND_EDGE_ITEMS` items, the key item (worth
    1000) at a seeded place among unit items worth 0.1 to 1 each, whose
    total weight leaves room for all of them. Their optima are recorded
    (:func:`~knapsack_audit.properties.know_optimum`): judging them runs no
    oracle.

    >>> cases = band_edge_cases()
    >>> [(case.n, round(case.max_memory * 1e4), max(case.memory)) for case in cases]
    [(700, 17142, 0.8571), (700, 17142, 0.8572), (700, 17143, 0.8571), (700, 17143, 0.8572)]
    """
    rng = random.Random(0)
    cases = []
    for budget in BAND_EDGE_BUDGETS:
        for key in (budget // 2, budget // 2 + 1):
            items = [(unit_memory(1), rng.uniform(0.1, 1.0)) for _ in range(BAND_EDGE_ITEMS - 1)]
            items.insert(rng.randrange(BAND_EDGE_ITEMS), (unit_memory(key), 1000.0))
            memory, runtime = zip(*items, strict=True)
            case = Case(tuple(memory), tuple(runtime), unit_memory(budget))
            props.know_optimum(case, every_item_fits(case))
            cases.append(case)
    return cases


def every_item_fits(case: Case) -> Fraction:
    """The optimum of a case whose items all fit together: every positive runtime."""
    return sum((Fraction(r) for r in case.runtime if r > 0), Fraction(0))


@dataclass(frozen=True)
class Threaded:
    """How many calls the threaded worker answered, and its first finding per property."""

    checked: int = 0
    findings: dict[str, Finding] | None = None


def threaded_findings(
    fresh: FreshWorker,
    judge: Judge,
    cases: Sequence[Case],
    call_timeout: float,
    seconds: float,
) -> Threaded:
    """The one-call properties (but determinism) on ``cases`` in one fresh
    worker of :data:`THREADS` threads, in order, then on the same calls with
    tuples, until the first call with findings or until ``seconds`` have
    passed (each call's timeout cut to the time left); a call that times out
    or ends the worker stops the check."""
    deadline = time.monotonic() + seconds
    wanted = [name for name in props.CALL_PROPERTIES if name != "determinism"]
    checked = 0
    if seconds < MIN_SECONDS:
        return Threaded()
    try:
        with fresh(call_timeout, threads=THREADS) as worker:
            for note, as_tuples in ((THREADED_NOTE, False), (AS_TUPLES_NOTE, True)):
                for case in cases:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return Threaded(checked)
                    worker.call_timeout = min(call_timeout, left)
                    outcome = props.call(worker, case, as_tuples)
                    if isinstance(outcome.error, LOST_STATE):
                        return Threaded(checked)
                    checked += 1
                    found = props.judge_outcome(worker, case, judge, outcome, wanted)
                    if found:
                        return Threaded(checked, _noted(found, note))
    except (TargetError, SolverFailure):
        pass
    return Threaded(checked)


def _noted(found: Sequence[Finding], note: str) -> dict[str, Finding]:
    """``found`` by property, each message put in ``note``."""
    return {
        finding.property: Finding(
            finding.property,
            finding.clause,
            note.format(threads=THREADS, message=finding.message),
            finding.case,
        )
        for finding in found
    }
