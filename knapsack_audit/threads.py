"""Answers of workers with more intra-op threads, and calls with tuples.

SPEC 8.1 asks for the same answer "in any process". The audit's worker runs
one torch thread (:data:`~knapsack_audit.isolation.AUDIT_THREADS`), while the
partitioner runs torch's default, one thread per core. A fast path that
splits a big table's row into bands of columns, one per thread, is
upstream's loop with one thread. A band's first column is where an
off-by-one at a band edge bites, and with ``d`` bands the edges are at about
``k * (Q + 1) / d`` units.

:func:`threaded_findings` makes the calls of :func:`threaded_plan` in fresh
workers, one per thread count of :data:`WORKER_THREADS`, and judges the
answers with the one-call properties (tolerant like the rest of the audit:
a parallel reduction's rounding is no finding, a lost item is):

- in the worker of 2 threads, :func:`band_edge_cases` for two bands; then
  the same calls, and one call of every size of the audit's own calls
  (:func:`tuple_sample`), with ``memory`` and ``runtime`` as tuples: SPEC 1.1
  accepts any sequence and the audit's other calls pass lists (as the
  partitioner does), so a solver that concatenates its inputs with a list
  (``memory + [...]``) fails only here;
- in the worker of 8 threads, :func:`band_edge_cases` for 8, 4 and 2 bands
  (a band count per thread, or a fixed one once there are enough threads).

Each band-edge case has one key item whose weight is a first or last band's
first column by every rounding of the edge formula (:func:`band_edges`),
worth more than every other item together, beside unit items that fill the
rest of the budget: the optimum is every item, known exactly without an
oracle, and a solver that drops the key item is short by more than half the
optimum. The key item must sit on the last band's edge as well as the
first's: the calls after it read its row at columns just under ``Q``, in
the last band.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from knapsack_audit import properties as props
from knapsack_audit.cases import Case
from knapsack_audit.fresh import LOST_STATE, MIN_SECONDS, FreshWorker
from knapsack_audit.isolation import SolverFailure
from knapsack_audit.properties import Finding, Judge
from knapsack_audit.real_types import first_of_each_size
from knapsack_audit.strategies import unit_memory
from knapsack_audit.targets import TargetError

WORKER_THREADS = (2, 8)
"""Intra-op threads of the threaded workers, in the order they run: torch's
default on a two-core machine (the CI's), then a typical workstation's."""

BAND_COUNTS = {2: (2,), 8: (8, 4, 2)}
"""Per worker's thread count, the band counts whose edges its calls hold."""

BAND_EDGE_ITEMS = 700
"""Items of each :func:`band_edge_cases` call."""

BAND_EDGE_BUDGETS = (17_142, 17_143)
"""The budgets of :func:`band_edge_cases`, in units, one even and one odd:
tables of 1.2e7 cells, past the cell counts a parallel fill switches on."""

TUPLE_SAMPLE_CELLS = 4_000_000
"""Largest table of a :func:`tuple_sample` call (a pure-Python table solver
answers it in seconds)."""

THREADED_NOTE = "in a fresh worker with {threads} intra-op threads (the audit's has 1): {message}"
AS_TUPLES_NOTE = (
    "with memory and runtime passed as tuples (SPEC 1.1; the audit's other calls "
    "pass lists), in a fresh worker with {threads} intra-op threads: {message}"
)


@dataclass(frozen=True)
class ThreadedCall:
    """One call of the threaded check: its case, and whether it passes tuples."""

    case: Case
    as_tuples: bool = False


def band_edges(budget: int, bands: int) -> list[int]:
    """The first columns of the first and the last of ``bands`` bands of
    ``budget + 1`` columns, by every rounding a band split uses: ``k * (Q +
    1) / d`` and ``k * Q / d`` rounded down and up, and ``k`` times the band
    width rounded down and up, for ``k`` in ``1`` and ``d - 1``.

    >>> band_edges(17142, 2), band_edges(17143, 2)
    ([8571, 8572], [8571, 8572])
    >>> band_edges(17143, 8)
    [2142, 2143, 15000, 15001]
    """
    edges = set()
    for k in {1, bands - 1}:
        for total in (budget + 1, budget):
            edges.add(k * total // bands)
            edges.add(-(-k * total // bands))
        edges.add(k * ((budget + 1) // bands))
        edges.add(k * -(-(budget + 1) // bands))
    return sorted(edges)


def band_edge_cases(bands: int = 2) -> list[Case]:
    """Per budget of :data:`BAND_EDGE_BUDGETS` and per key weight of
    :func:`band_edges`: :data:`BAND_EDGE_ITEMS` items, the key item (worth
    1000) at a seeded place among unit items worth 0.1 to 1 each, whose
    total weight leaves room for all of them. Their optima are recorded
    (:func:`~knapsack_audit.properties.know_optimum`): judging them runs no
    oracle.

    >>> cases = band_edge_cases()
    >>> [(case.n, round(case.max_memory * 1e4), max(case.memory)) for case in cases]
    [(700, 17142, 0.8571), (700, 17142, 0.8572), (700, 17143, 0.8571), (700, 17143, 0.8572)]
    >>> len(band_edge_cases(8)), len(band_edge_cases(4))
    (10, 10)
    """
    rng = random.Random(0)
    cases = []
    for budget in BAND_EDGE_BUDGETS:
        for key in band_edges(budget, bands):
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


def tuple_sample(calls: Sequence[Case]) -> list[Case]:
    """Of ``calls``, the first of every item count's bit length (0, 1, 2-3,
    4-7, ...) with at most :data:`TUPLE_SAMPLE_CELLS` table cells, in their
    order (:func:`~knapsack_audit.real_types.first_of_each_size`): one call
    of every size the audit reached, for a solver whose handling of tuples
    switches on ``n``."""
    return first_of_each_size(calls, TUPLE_SAMPLE_CELLS)


def threaded_plan(calls: Sequence[Case] = ()) -> dict[int, list[ThreadedCall]]:
    """The calls per worker thread count (:data:`WORKER_THREADS`), in order:
    the two-band edges with lists, then with tuples, then ``calls``'
    :func:`tuple_sample` with tuples, in the worker of 2; the 8-, 4- and
    2-band edges with lists in the worker of 8."""
    two = band_edge_cases(2)
    return {
        2: [
            *(ThreadedCall(case) for case in two),
            *(ThreadedCall(case, as_tuples=True) for case in [*two, *tuple_sample(calls)]),
        ],
        8: [ThreadedCall(case) for bands in BAND_COUNTS[8] for case in band_edge_cases(bands)],
    }


@dataclass(frozen=True)
class Threaded:
    """How many calls the threaded workers answered, and the first finding per property."""

    checked: int = 0
    findings: dict[str, Finding] | None = None


def threaded_findings(
    fresh: FreshWorker,
    judge: Judge,
    plan: dict[int, list[ThreadedCall]],
    call_timeout: float,
    seconds: float,
) -> Threaded:
    """The one-call properties (but determinism) on ``plan``'s calls, each
    worker of its thread count started fresh in turn, until the first call
    with findings or until ``seconds`` have passed (each call's timeout cut
    to the time left); a call that times out or ends its worker ends that
    worker's calls."""
    deadline = time.monotonic() + seconds
    checked = 0
    if seconds < MIN_SECONDS:
        return Threaded()
    for threads, calls in plan.items():
        if deadline - time.monotonic() < MIN_SECONDS:
            break
        answered, found = _in_one_worker(fresh, judge, threads, calls, call_timeout, deadline)
        checked += answered
        if found:
            return Threaded(checked, found)
    return Threaded(checked)


def _in_one_worker(
    fresh: FreshWorker,
    judge: Judge,
    threads: int,
    calls: Sequence[ThreadedCall],
    call_timeout: float,
    deadline: float,
) -> tuple[int, dict[str, Finding]]:
    """How many of ``calls`` one fresh worker of ``threads`` threads answered,
    and the findings of the first call that had any (noted)."""
    wanted = [name for name in props.CALL_PROPERTIES if name != "determinism"]
    checked = 0
    try:
        with fresh(call_timeout, threads=threads) as worker:
            for call in calls:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                worker.call_timeout = min(call_timeout, left)
                outcome = props.call(worker, call.case, call.as_tuples)
                if isinstance(outcome.error, LOST_STATE):
                    break
                checked += 1
                found = props.judge_outcome(worker, call.case, judge, outcome, wanted)
                if found:
                    note = AS_TUPLES_NOTE if call.as_tuples else THREADED_NOTE
                    return checked, _noted(found, note, threads)
    except (TargetError, SolverFailure):
        pass
    return checked, {}


def _noted(found: Sequence[Finding], note: str, threads: int) -> dict[str, Finding]:
    """``found`` by property, each message put in ``note``."""
    return {
        finding.property: Finding(
            finding.property,
            finding.clause,
            note.format(threads=threads, message=finding.message),
            finding.case,
        )
        for finding in found
    }
