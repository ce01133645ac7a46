"""A worker with more intra-op threads (SPEC 8.1: the same answer in any process).

The audit's worker runs one torch thread; the partitioner runs one per core.
A fast path that splits a big table's rows into one band of columns per
thread is upstream's loop with one thread. These tests check that the
threaded worker's answers to the band-edge calls are judged, and that the
calls put an item on every band-edge formula for two threads.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from knapsack_audit import properties as props
from knapsack_audit.cases import Case
from knapsack_audit.isolation import IsolatedSolver
from knapsack_audit.optimized import dp_knapsack_sliding_hirschberg
from knapsack_audit.properties import Judge
from knapsack_audit.reference import exact_optimum, quantize
from knapsack_audit.scaling import table_cells
from knapsack_audit.targets import parse_target
from knapsack_audit.threads import (
    THREADS,
    band_edge_cases,
    every_item_fits,
    threaded_findings,
)
from knapsack_audit.verify import AuditOptions, verify_target

BAND_EDGES_SKIPPED = (
    Path(__file__).parent / "fixtures" / "thread_dependent" / "band_edges_skipped.py"
)


def test_band_edge_calls_put_a_key_item_on_every_two_thread_band_edge() -> None:
    """SPEC 3.3: for an even and an odd budget past 1e7 cells, a key item of
    ``Q // 2`` and of ``Q // 2 + 1`` units (every formula of the first band
    edge for two threads: ``ceil((Q + 1) / 2)``, ``(Q + 1) // 2``,
    ``Q // 2``, ``ceil(Q / 2)``), worth more than the others together, and
    every item fits: the recorded optimum is the exact one."""
    cases = band_edge_cases()
    budgets = {quantize(case.max_memory) for case in cases}
    assert {budget % 2 for budget in budgets} == {0, 1}
    for case in cases:
        budget = quantize(case.max_memory)
        weights = [quantize(m) for m in case.memory]
        key = max(range(case.n), key=lambda i: weights[i])
        assert weights[key] in (budget // 2, budget // 2 + 1)
        assert case.runtime[key] > sum(case.runtime) - case.runtime[key]
        assert sum(weights) <= budget and table_cells(case) > 10_000_000
    edges = {(quantize(c.max_memory), max(quantize(m) for m in c.memory)) for c in cases}
    for budget in budgets:
        for edge in (-(-(budget + 1) // 2), (budget + 1) // 2, budget // 2, -(-budget // 2)):
            assert (budget, edge) in edges
    small = Case.of([0.0001] * 3 + [0.0002], [0.5, 0.25, 1.0, 8.0], 0.0005)
    assert every_item_fits(small) == exact_optimum(*small.arguments()).value


@contextmanager
def _band_dependent(
    call_timeout: float, hash_seed: int | None = None, threads: int | None = None
) -> Iterator[Any]:
    """An in-process "worker" that recomputes every item but the heaviest
    when it has more than one thread."""

    def worker(memory: list[float], runtime: list[float], max_memory: float) -> Any:
        if (threads or 1) > 1:
            heaviest = max(range(len(memory)), key=lambda i: memory[i])
            kept = [i for i in range(len(memory)) if i != heaviest]
            value = sum(runtime[i] for i in kept)
            return value, kept, [heaviest]
        return dp_knapsack_sliding_hirschberg(memory, runtime, max_memory)

    yield worker


def test_the_threaded_workers_answers_are_judged() -> None:
    """SPEC 3.3, 8.1: an answer that loses the key item only with more than
    one thread is an optimality finding, said to come from the threaded
    worker; the same solver with one thread has none."""
    result = threaded_findings(_band_dependent, Judge(exact=False), band_edge_cases(), 10, 30)
    assert result.checked == 1
    assert result.findings is not None
    finding = result.findings["optimality"]
    assert f"{THREADS} intra-op threads" in finding.message
    for case in band_edge_cases():
        with _band_dependent(10, threads=1) as worker:
            assert props.check_call(worker, case, Judge(exact=False)) == []


@contextmanager
def _lists_only(
    call_timeout: float, hash_seed: int | None = None, threads: int | None = None
) -> Iterator[Any]:
    """An in-process "worker" that adds a list to its inputs ("memory + [0.0]")."""

    def worker(memory: list[float], runtime: list[float], max_memory: float) -> Any:
        return dp_knapsack_sliding_hirschberg((memory + [0.0])[:-1], runtime, max_memory)  # noqa: RUF005

    yield worker


def test_the_band_edge_calls_are_made_again_with_tuples() -> None:
    """SPEC 1.1, 4.4: after the four calls with lists, the same four with
    tuples; a solver that concatenates its input with a list crashes only
    there, and the finding says so."""
    result = threaded_findings(_lists_only, Judge(exact=False), band_edge_cases(), 10, 30)
    assert result.checked == 5
    assert result.findings is not None
    assert "passed as tuples (SPEC 1.1" in result.findings["no-crash"].message


def test_a_worker_called_with_tuples_reports_no_mutation() -> None:
    """SPEC 8.2: tuples cannot be mutated; the worker compares its inputs by
    content, so a call with tuples is no ``no-mutation`` finding."""
    (target,) = parse_target("torch:dp_knapsack")
    case = band_edge_cases()[0]
    memory, runtime, budget = case.arguments()
    with IsolatedSolver(target, call_timeout=30) as worker:
        answer = worker(tuple(memory), tuple(runtime), budget)
        outcome = props.Outcome(result=answer, extras={"mutated": False})
        assert props.judge_outcome(worker, case, Judge(exact=False), outcome, ["no-mutation"]) == []
        assert answer[0] > 1000


def test_nothing_is_checked_without_time() -> None:
    """SPEC 8.1: under its least time the threaded check starts no worker."""

    def no_worker(
        call_timeout: float, hash_seed: int | None = None, threads: int | None = None
    ) -> Any:
        raise AssertionError("a worker was started without time left")

    assert threaded_findings(no_worker, Judge(exact=False), band_edge_cases(), 10, 1).checked == 0


def test_verify_fails_a_solver_that_skips_band_edges_with_two_threads() -> None:
    """SPEC 3.3, 8.1: ``verify`` fails a solver exact with one thread that,
    with two and above 6e6 cells, never takes an item at a band's first
    column; the effort line says how many calls the threaded worker made."""
    (target,) = parse_target(f"{BAND_EDGES_SKIPPED}:solver")
    options = AuditOptions(time_budget=4.0, seed=0, call_timeout=10.0, recheck_seconds=20.0)
    report = verify_target(target, options)
    assert report.status == "fail", report.effort
    (finding,) = report.findings
    assert finding.property == "optimality"
    assert f"in a fresh worker with {THREADS} intra-op threads" in finding.actual
    assert report.threads_checked >= 1
    assert f"{report.threads_checked} calls in a {THREADS}-thread worker" in report.effort
