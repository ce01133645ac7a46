"""Workers with more intra-op threads (SPEC 8.1: the same answer in any
process), and calls with tuples (SPEC 1.1).

The audit's worker runs one torch thread; the partitioner runs one per core.
A fast path that splits a big table's rows into bands of columns, one per
thread, is upstream's loop with one thread. These tests check that the
threaded workers' answers are judged, that the calls put an item on the
first and last band edges of 2, 4 and 8 bands by every rounding, and that
one call of every size is made again with tuples.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from knapsack_audit import properties as props
from knapsack_audit.cases import Case
from knapsack_audit.isolation import IsolatedSolver
from knapsack_audit.optimized import dp_knapsack_sliding_hirschberg
from knapsack_audit.properties import Judge
from knapsack_audit.reference import exact_optimum, quantize
from knapsack_audit.scaling import table_cells
from knapsack_audit.targets import parse_target
from knapsack_audit.threads import (
    WORKER_THREADS,
    band_edge_cases,
    every_item_fits,
    threaded_findings,
    threaded_plan,
)
from knapsack_audit.verify import AuditOptions, verify_target

BAND_EDGES_SKIPPED = (
    Path(__file__).parent / "fixtures" / "thread_dependent" / "band_edges_skipped.py"
)


@pytest.mark.parametrize("bands", [2, 4, 8])
def test_band_edge_calls_put_a_key_item_on_the_first_and_last_band_edges(bands: int) -> None:
    """SPEC 3.3: for an even and an odd budget past 1e7 cells, a key item on
    the first column of the first and of the last of ``bands`` bands, by
    every rounding of the edge (``k * (Q + 1) / d`` and ``k * Q / d`` down
    and up, ``k`` band widths rounded down and up), worth more than the
    others together, and every item fits: the recorded optimum is the exact
    one."""
    cases = band_edge_cases(bands)
    budgets = {quantize(case.max_memory) for case in cases}
    assert {budget % 2 for budget in budgets} == {0, 1}
    keys = set()
    for case in cases:
        budget = quantize(case.max_memory)
        weights = [quantize(m) for m in case.memory]
        key = max(range(case.n), key=lambda i: weights[i])
        keys.add((budget, weights[key]))
        assert case.runtime[key] > sum(case.runtime) - case.runtime[key]
        assert sum(weights) <= budget and table_cells(case) > 10_000_000
    for budget in budgets:
        for k in (1, bands - 1):
            for total in (budget, budget + 1):
                assert (budget, k * total // bands) in keys
                assert (budget, -(-k * total // bands)) in keys
            assert (budget, k * ((budget + 1) // bands)) in keys
            assert (budget, k * -(-(budget + 1) // bands)) in keys
    small = Case.of([0.0001] * 3 + [0.0002], [0.5, 0.25, 1.0, 8.0], 0.0005)
    assert every_item_fits(small) == exact_optimum(*small.arguments()).value


def test_the_plan_holds_every_band_count_in_its_worker_and_tuples_of_every_size() -> None:
    """SPEC 1.1, 8.1: the worker of 2 threads makes the two-band calls with
    lists, then with tuples, then one call of every item count's bit length
    with tuples; the worker of 8 makes the 8-, 4- and 2-band calls."""
    calls = [Case.of([0.0001] * n, [1.0] * n, 0.0003) for n in (1, 2, 3, 5, 40, 40)]
    plan = threaded_plan(calls)
    assert list(plan) == list(WORKER_THREADS) == [2, 8]
    two = band_edge_cases(2)
    assert [(call.case, call.as_tuples) for call in plan[2]] == [
        *((case, False) for case in two),
        *((case, True) for case in two),
        *((calls[k], True) for k in (0, 1, 3, 4)),
    ]
    assert [call.case for call in plan[8]] == [
        *band_edge_cases(8),
        *band_edge_cases(4),
        *band_edge_cases(2),
    ]
    assert not any(call.as_tuples for call in plan[8])


def _band_dependent(from_threads: int) -> Any:
    """An in-process "worker" that recomputes every item but the heaviest
    when it has ``from_threads`` threads or more."""

    @contextmanager
    def fresh(
        call_timeout: float, hash_seed: int | None = None, threads: int | None = None
    ) -> Iterator[Any]:
        yield functools.partial(_heaviest_lost, (threads or 1) >= from_threads)

    return fresh


def _heaviest_lost(lost: bool, memory: list[float], runtime: list[float], max_memory: float) -> Any:
    if lost:
        heaviest = max(range(len(memory)), key=lambda i: memory[i])
        kept = [i for i in range(len(memory)) if i != heaviest]
        return sum(runtime[i] for i in kept), kept, [heaviest]
    return dp_knapsack_sliding_hirschberg(memory, runtime, max_memory)


def test_the_threaded_workers_answers_are_judged() -> None:
    """SPEC 3.3, 8.1: an answer that loses the key item only with more than
    one thread is an optimality finding at the first call, said to come from
    the worker of 2 threads; the same solver with one thread has none."""
    judge = Judge(exact=False)
    result = threaded_findings(_band_dependent(2), judge, threaded_plan(), 10, 30)
    assert result.checked == 1
    assert result.findings is not None
    assert "in a fresh worker with 2 intra-op threads" in result.findings["optimality"].message
    with _band_dependent(2)(10, threads=1) as worker:
        for case in band_edge_cases():
            assert props.check_call(worker, case, judge) == []


def test_a_solver_wrong_from_eight_threads_fails_in_the_worker_of_eight() -> None:
    """SPEC 3.3, 8.1: a fast path that switches on 8 threads or more passes
    every call of the worker of 2 and fails the first of the worker of 8."""
    plan = threaded_plan()
    result = threaded_findings(_band_dependent(8), Judge(exact=False), plan, 10, 60)
    assert result.checked == len(plan[2]) + 1
    assert result.findings is not None
    assert "in a fresh worker with 8 intra-op threads" in result.findings["optimality"].message


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
    result = threaded_findings(_lists_only, Judge(exact=False), threaded_plan(), 10, 30)
    assert result.checked == 5
    assert result.findings is not None
    assert "passed as tuples (SPEC 1.1" in result.findings["no-crash"].message


@contextmanager
def _tuples_refused_under_16_items(
    call_timeout: float, hash_seed: int | None = None, threads: int | None = None
) -> Iterator[Any]:
    """An in-process "worker" whose small-call path indexes a list method."""

    def worker(memory: Any, runtime: Any, max_memory: float) -> Any:
        if len(memory) < 16:
            memory.copy()
        return dp_knapsack_sliding_hirschberg(memory, runtime, max_memory)

    yield worker


def test_one_call_of_every_size_is_made_with_tuples() -> None:
    """SPEC 1.1, 4.4: a solver that handles tuples wrong only for few items
    passes the band-edge calls (700 items) and fails the first call of the
    audit's sample of sizes with fewer."""
    calls = [Case.of([0.0001] * n, [1.0] * n, 0.0003) for n in (40, 5, 3)]
    plan = threaded_plan(calls)
    result = threaded_findings(_tuples_refused_under_16_items, Judge(exact=False), plan, 10, 30)
    assert result.checked == 10
    assert result.findings is not None
    finding = result.findings["no-crash"]
    assert finding.case == calls[1] and "AttributeError" in finding.message


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


TORCH_THREADS_SOLVER = """\
import torch


def solver(memory, runtime, max_memory):
    return float(torch.get_num_threads()), [], list(range(len(memory)))
"""


@pytest.mark.parametrize("threads", WORKER_THREADS)
def test_a_threaded_worker_runs_torch_on_its_threads(tmp_path: Path, threads: int) -> None:
    """SPEC 8.1: each threaded worker runs torch on its own thread count,
    also past the machine's cores (``OMP_NUM_THREADS`` alone is capped at
    them: 2 on the CI's machine)."""
    file = tmp_path / "threads.py"
    file.write_text(TORCH_THREADS_SOLVER)
    (target,) = parse_target(f"{file}:solver")
    with IsolatedSolver(target, call_timeout=30, threads=threads) as worker:
        assert worker([1.0], [1.0], 1.0)[0] == threads


def test_nothing_is_checked_without_time() -> None:
    """SPEC 8.1: under its least time the threaded check starts no worker."""

    def no_worker(
        call_timeout: float, hash_seed: int | None = None, threads: int | None = None
    ) -> Any:
        raise AssertionError("a worker was started without time left")

    assert threaded_findings(no_worker, Judge(exact=False), threaded_plan(), 10, 1).checked == 0


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
    assert "in a fresh worker with 2 intra-op threads" in finding.actual
    assert report.threads_checked >= 1
    assert f"{report.threads_checked} calls in workers of 2 and 8 threads" in report.effort
