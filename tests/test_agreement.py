"""Two processes compared (SPEC 8.1: the same answer in any process, whatever
``PYTHONHASHSEED``).

A solver whose answer depends on the process (a ``set`` of strings orders
its rows) is consistent within one worker, so no in-process property can see
it. These tests check the comparison against independent replays in workers
of known hash seeds, and that a deterministic solver is never flagged.
"""

from __future__ import annotations

import random
from pathlib import Path

from knapsack_audit.agreement import HASH_SEEDS, PROBE_CALLS, disagreement, probes
from knapsack_audit.cases import Case
from knapsack_audit.isolation import IsolatedSolver
from knapsack_audit.properties import call as call_solver
from knapsack_audit.properties import same_answer
from knapsack_audit.targets import Target, parse_target
from knapsack_audit.verify import AuditOptions, fresh_workers, verify_target

HASH_ORDERED = Path(__file__).parent / "fixtures" / "process_dependent" / "hash_ordered_rows.py"


def _target(spec: str) -> Target:
    (target,) = parse_target(spec)
    return target


def _copies(seed: int, n: int = 80, types: int = 8) -> Case:
    """``n`` items of ``types`` kinds (so most have exact copies) under 0.05 GB."""
    rng = random.Random(seed)
    kinds = [(rng.randint(1, 40) / 1e4, rng.uniform(1, 100)) for _ in range(types)]
    items = [kinds[rng.randrange(types)] for _ in range(n)]
    return Case.of([m for m, _ in items], [r for _, r in items], 0.05)


def _answers_by_seed(target: Target, case: Case) -> list[object]:
    """``case``'s outcome in a new worker per seed of :data:`HASH_SEEDS`."""
    outcomes = []
    for seed in HASH_SEEDS:
        with IsolatedSolver(target, call_timeout=10, hash_seed=seed) as worker:
            worker.start()
            outcomes.append(call_solver(worker, case))
    return outcomes


def test_processes_that_answer_differently_are_a_determinism_finding() -> None:
    """SPEC 8.1: rows ordered by a set of strings answer differently in two
    processes; the finding's call, shrunk, still differs when replayed alone
    in two new workers of the same hash seeds, and its message names them."""
    target = _target(f"{HASH_ORDERED}:solver")
    calls = [_copies(seed) for seed in range(3)]
    agreement = disagreement(fresh_workers(target, AuditOptions()), calls, 10, 60)
    finding = agreement.finding
    assert finding is not None
    assert finding.property == "determinism" and finding.clause == "SPEC 8.1"
    assert "PYTHONHASHSEED=1 and 2" in finding.message
    assert 1 <= agreement.compared <= len(calls)
    assert finding.case.n < calls[agreement.compared - 1].n
    first, second = _answers_by_seed(target, finding.case)
    assert not same_answer(first, second, finding.case)  # type: ignore[arg-type]


def test_a_deterministic_solver_agrees_on_every_call() -> None:
    """SPEC 8.1: the reference answers every call the same in both processes:
    no finding, every call compared."""
    target = _target("knapsack_audit.reference:dp_knapsack")
    calls = [_copies(seed, n=30) for seed in range(4)]
    agreement = disagreement(fresh_workers(target, AuditOptions()), calls, 10, 60)
    assert agreement.finding is None
    assert agreement.compared == len(calls)


def test_probes_put_the_calls_with_the_most_copies_first_and_keep_their_order() -> None:
    """SPEC 8.1: the probes are the calls of 16 items or more and at most 4e6
    cells with the most exact copies, at most ``PROBE_CALLS``, in their order."""
    distinct = [
        Case.of([k / 1e4 + j / 1e4 for j in range(20)], [1.0] * 20, 0.01) for k in range(30)
    ]
    copies = [_copies(seed, n=40) for seed in range(3)]
    tiny = Case.of([1e-4] * 10, [1.0] * 10, 0.001)
    huge = Case.of([1e-4] * 100, [1.0] * 100, 10.0)
    calls = [tiny, *distinct[:10], copies[0], huge, *distinct[10:], copies[1], copies[2]]
    chosen = probes(calls)
    assert len(chosen) == PROBE_CALLS
    assert tiny not in chosen and huge not in chosen
    assert all(case in chosen for case in copies)
    assert chosen == [case for case in calls if case in chosen]


def test_verify_reports_a_process_dependent_solver() -> None:
    """SPEC 8.1: ``verify`` fails a solver that is consistent within a process
    but answers differently in another, by ``determinism``, on calls of its
    own breadth phase, and says how many calls the two processes compared
    and how many breadth calls were checked."""
    target = _target(f"{HASH_ORDERED}:solver")
    options = AuditOptions(time_budget=4.0, seed=0, call_timeout=5.0, recheck_seconds=20.0)
    report = verify_target(target, options)
    failed = {finding.property: finding for finding in report.findings}
    assert "determinism" in failed, sorted(failed)
    assert "two fresh processes" in failed["determinism"].actual
    assert report.processes_compared >= 1
    assert f"two processes compared on {report.processes_compared} calls" in report.effort
    assert 0 < report.breadth_checked <= report.breadth_total
    assert f"breadth: {report.breadth_checked} of {report.breadth_total} calls" in report.effort
