"""The breadth phase with a worker: each call begun before the last is judged,
and the exact optima computed ahead in a process of their own
(:mod:`knapsack_audit.oracle_ahead`). Only when an answer or an optimum is
ready may change; what is judged, against what, and in which order the
solver is called may not."""

from __future__ import annotations

import random
import socket
import threading
from fractions import Fraction
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from knapsack_audit import properties as props
from knapsack_audit import search as search_module
from knapsack_audit.cases import Case
from knapsack_audit.isolation import IsolatedSolver
from knapsack_audit.oracle_ahead import AHEAD_FROM_CELLS, serve
from knapsack_audit.properties import Judge
from knapsack_audit.reference import exact_optimum
from knapsack_audit.scaling import table_cells
from knapsack_audit.search import audit
from knapsack_audit.targets import parse_target

WRONG_AT_300_ITEMS = """\
import os

from knapsack_audit.reference import dp_knapsack


def solver(memory, runtime, max_memory):
    with open(os.environ["CALLS_LOG"], "a") as log:  # the calls in the order they came
        log.write(f"{len(memory)} {sum(runtime)!r}\\n")
    value, saved, rest = dp_knapsack(memory, runtime, max_memory)
    if len(memory) == 300 and saved:  # a fast path from 300 items drops one saved item
        rest = sorted([*rest, saved[0]], reverse=True)
        saved = saved[1:]
    return value, saved, rest
"""


def _heavy(n: int, seed: int) -> Case:
    """``n`` items of 1 to 20 units under a budget of 1,000 units: a table of
    at least :data:`AHEAD_FROM_CELLS` cells, whose optimum is computed ahead."""
    rng = random.Random(seed)
    case = Case.of(
        [rng.randint(1, 20) * 1e-4 for _ in range(n)],
        [float(rng.randint(1, 1000)) for _ in range(n)],
        0.1,
    )
    assert table_cells(case) >= AHEAD_FROM_CELLS
    return case


def _layer(n: int) -> Case:
    return Case.of([0.0001] * n, [1.0] * n, 0.0001)


def test_the_oracle_process_computes_exact_optima_in_order_and_skips_claimed_calls() -> None:
    """SPEC 3.3: the optimum a breadth call is judged against is the exact one,
    whoever computed it. The process answers each call in order with the
    oracle's exact optimum, announcing it first (the auditor then waits for
    it), and skips the calls up to one the auditor claimed (the auditor
    computed it, and has judged those before it)."""
    calls, calls_child = socket.socketpair()
    claims, claims_child = socket.socketpair()
    process = threading.Thread(target=serve, args=(calls_child.detach(), claims_child.detach()))
    process.start()
    auditor_calls, auditor_claims = Connection(calls.detach()), Connection(claims.detach())
    cases = [_heavy(120, seed) for seed in range(3)]
    auditor_calls.send((0, cases[0]))
    messages = [auditor_calls.recv() for _ in range(2)]
    auditor_claims.send(1)  # the auditor has judged the calls up to 1
    for index, case in enumerate(cases[1:], 1):
        auditor_calls.send((index, case))
    auditor_calls.send(None)
    messages += [auditor_calls.recv() for _ in range(2)]
    process.join(30)
    assert not process.is_alive()
    assert messages == [
        ("start", 0),
        ("done", 0, exact_optimum(*cases[0].arguments()).value),
        ("start", 2),
        ("done", 2, exact_optimum(*cases[2].arguments()).value),
    ]
    assert all(isinstance(message[2], Fraction) for message in messages[1::2])
    auditor_calls.close()
    auditor_claims.close()


def test_a_worker_gets_the_breadth_calls_in_order_each_recall_right_after_its_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 3.3 and 8.1: with a worker, the next breadth call is begun before
    the last is judged, and the large calls' optima come from a process of
    their own. The solver still gets the calls in the breadth order, a call
    made again (determinism across calls) right after the call that makes it
    due, before the shrinking of a finding; and a fast path wrong from 300
    items is found, judged against the exact optimum."""
    file = tmp_path / "wrong_at_300.py"
    file.write_text(WRONG_AT_300_ITEMS)
    monkeypatch.setattr(search_module, "MINIMIZE_SECONDS", 1.0)  # the order is the point here
    log = tmp_path / "calls.log"
    monkeypatch.setenv("CALLS_LOG", str(log))
    (target,) = parse_target(f"{file}:solver")
    heavy = _heavy(300, 7)
    breadth = [_heavy(200, 1), _layer(64), _layer(8), heavy, _layer(65), _layer(9), _heavy(250, 2)]
    with IsolatedSolver(target) as solver:
        result = audit(
            solver,
            Judge(exact=True),
            breadth=breadth,
            scope=None,
            golden=[],
            properties=["optimality", "determinism"],
            max_examples=0,
        )
    called = log.read_text().splitlines()
    expected = [f"{case.n} {sum(case.runtime)!r}" for case in breadth]
    assert called[:6] == [*expected[:5], expected[1]]
    assert called[-3:] == [*expected[-2:], expected[0]]  # 250 items: 200 made again
    assert result.breadth_checked == len(breadth)
    assert set(result.findings) == {"optimality"}
    assert result.found_items["optimality"] == 300
    optimum = exact_optimum(*heavy.arguments()).value
    assert props.exact_value(heavy) == optimum
