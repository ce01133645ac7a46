"""Findings re-checked in a fresh worker (SPEC 8.1: the same answer in any process).

A solver with state between calls can fail a call only after other calls in
the audit's worker. The report must say so, and name a call that, made
first in a new process, makes it fail again. These tests check the marks
against an independent replay: the call alone, and after its set-up, each
in a new worker, compared with the reference's answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from knapsack_audit.cases import Case
from knapsack_audit.fresh import MIN_SECONDS, Alone, recheck
from knapsack_audit.isolation import (
    CALLER_ENTRY,
    FIRST_OF_SHAPE_ITEMS,
    RECENT_CALLS,
    IsolatedSolver,
)
from knapsack_audit.properties import Finding, Judge, check_call
from knapsack_audit.reference import dp_knapsack
from knapsack_audit.search import AuditResult, calls_before, note_calls_before
from knapsack_audit.targets import parse_target
from knapsack_audit.verify import AuditOptions, fresh_workers, verify_target

FIXTURES = Path(__file__).parent / "fixtures"
ANSWER_CACHE = FIXTURES / "stateful_solvers" / "answer_cache.py"
QUICK = AuditOptions(time_budget=4.0, seed=0, call_timeout=5.0, recheck_seconds=20.0)


def _answer_in_a_new_worker(target_spec: str, calls: list[Case]) -> object:
    """The answer to the last of ``calls``, made in order in a new worker."""
    (target,) = parse_target(target_spec)
    with IsolatedSolver(target, call_timeout=10) as worker:
        answer = None
        for case in calls:
            answer = worker(*case.arguments())
    return answer


def test_a_call_failing_only_after_earlier_ones_is_marked_in_the_report() -> None:
    """SPEC 8.1: a cache keyed by sorted items answers a permuted call with the
    first call's indices. ``verify`` reports such a call as failing only after
    earlier calls; replayed independently, alone in a new worker, it gets the
    reference's answer. Its set-up here lies further back than the worker
    remembers (the exhaustive phase's small calls), and the note says so."""
    spec = f"{ANSWER_CACHE}:solver"
    (target,) = parse_target(spec)
    report = verify_target(target, QUICK)
    assert report.status == "fail"
    marked = [finding for finding in report.findings if finding.alone == "passes"]
    assert marked, [(f.property, f.alone) for f in report.findings]
    for finding in marked:
        case = Case.from_call(finding.call)[1]
        assert _answer_in_a_new_worker(spec, [case]) == dp_knapsack(*case.arguments())
        if not finding.after:
            words = "did not reproduce" if finding.replayed else "none of the calls"
            assert words in finding.state_note()


def test_the_set_up_found_is_the_one_earlier_call_that_makes_the_call_fail() -> None:
    """SPEC 8.1: among the calls made before a failure, the re-check names the
    one after which the call fails again in a fresh worker: here the same
    items in the other order, three calls back, among unrelated calls."""
    spec = f"{ANSWER_CACHE}:solver"
    (target,) = parse_target(spec)
    set_up = Case.of([0.3, 0.2, 0.1], [1.0, 5.0, 2.0], 0.35)
    permuted = Case.of([0.1, 0.2, 0.3], [2.0, 5.0, 1.0], 0.35)
    others = [Case.of([0.1 * k], [1.0], 0.5) for k in range(1, 8)]
    earlier = (*others[:4], set_up, *others[4:])
    finding = Finding("feasibility", "SPEC 3.2", "over budget", permuted)

    alone = recheck(
        fresh_workers(target, AuditOptions()),
        Judge(exact=False),
        {"feasibility": finding},
        {"feasibility": (permuted, earlier)},
        call_timeout=10,
        seconds=30,
    )
    assert alone == {"feasibility": Alone("passes", (set_up,), len(earlier))}
    right = dp_knapsack(*permuted.arguments())
    assert _answer_in_a_new_worker(spec, [permuted]) == right
    assert _answer_in_a_new_worker(spec, [set_up, permuted]) != right


def test_a_call_failing_on_its_own_is_marked_so() -> None:
    """SPEC 8.2 and 8.1: a solver that appends to its input fails the mutation
    check on every call; in a fresh worker too, so ``fails`` and no set-up."""
    (target,) = parse_target(f"{FIXTURES / 'bad_solvers' / 'mutates.py'}:solver")
    report = verify_target(target, QUICK)
    findings = {finding.property: finding for finding in report.findings}
    assert findings["no-mutation"].alone == "fails"
    assert findings["no-mutation"].after == []
    assert findings["no-mutation"].state_note() == ""


def test_nothing_is_rechecked_without_time() -> None:
    """SPEC 8.1: re-checks stop at their time; what is not re-checked is not
    marked (no fresh worker is started when no time is left)."""

    def no_worker(call_timeout: float) -> IsolatedSolver:
        raise AssertionError("a worker was started without time left")

    case = Case.of([0.5], [1.0], 0.25)
    finding = Finding("feasibility", "SPEC 3.2", "over budget", case)
    alone = recheck(no_worker, Judge(exact=True), {"feasibility": finding}, {}, 1.0, seconds=0)
    assert alone.get("feasibility", Alone("")) == Alone("")


def _cache_workers(
    workers: list[list[Case]], wrong: Case, slow: float = 0.0
) -> Callable[[float], Any]:
    """Fresh in-process "workers" of a solver that keeps answers by the sorted
    items (the reference's, but none for ``wrong``), each logging its calls
    in a new list of ``workers``; a call made after earlier ones in the same
    worker takes ``slow`` seconds."""

    @contextmanager
    def fresh(call_timeout: float) -> Iterator[Any]:
        kept: dict[Any, Any] = {}
        made: list[Case] = []
        workers.append(made)

        def worker(memory: list[float], runtime: list[float], max_memory: float) -> Any:
            case = Case.of(memory, runtime, max_memory)
            if made:
                time.sleep(slow)
            made.append(case)
            if case == wrong:
                return 0.0, [], list(range(case.n - 1, -1, -1))
            key = (max_memory, tuple(sorted(zip(memory, runtime, strict=True))))
            return kept.setdefault(key, dp_knapsack(memory, runtime, max_memory))

        yield worker

    return fresh


SET_UP = Case.of([0.3, 0.2, 0.1], [1.0, 5.0, 2.0], 0.35)
PERMUTED = Case.of([0.1, 0.2, 0.3], [2.0, 5.0, 1.0], 0.35)
WRONG = Case.of([0.1], [1.0], 0.5)


def test_every_call_is_rechecked_alone_before_any_set_up_search() -> None:
    """SPEC 8.1: each finding's call is made alone in a fresh worker first, and
    only then are earlier calls replayed for the one that passes alone: a
    long set-up search cannot take the time of another finding's re-check."""
    workers: list[list[Case]] = []
    findings = {
        "feasibility": Finding("feasibility", "SPEC 3.2", "over budget", PERMUTED),
        "optimality": Finding("optimality", "SPEC 5.2", "below the optimum", WRONG),
    }
    alone = recheck(
        _cache_workers(workers, WRONG),
        Judge(exact=True),
        findings,
        {"feasibility": (PERMUTED, (SET_UP,))},
        call_timeout=10,
        seconds=30,
    )
    assert alone == {
        "feasibility": Alone("passes", (SET_UP,), 1),
        "optimality": Alone("fails"),
    }
    assert workers[:4] == [[PERMUTED], [WRONG], [PERMUTED, PERMUTED], [SET_UP, PERMUTED]]


def test_the_oldest_candidate_alone_is_tried_before_galloping() -> None:
    """SPEC 8.1: the first candidate (the first call of the failing call's size
    and budget, when the worker kept one) is tried alone first: one fresh
    worker finds a set-up made long before."""
    workers: list[list[Case]] = []
    others = tuple(Case.of([0.1 * k], [1.0], 0.5) for k in range(1, 40))
    findings = {"feasibility": Finding("feasibility", "SPEC 3.2", "over budget", PERMUTED)}
    alone = recheck(
        _cache_workers(workers, WRONG),
        Judge(exact=True),
        findings,
        {"feasibility": (PERMUTED, (SET_UP, *others))},
        call_timeout=10,
        seconds=30,
    )
    assert alone == {"feasibility": Alone("passes", (SET_UP,), 1 + len(others))}
    assert workers == [[PERMUTED], [SET_UP, PERMUTED]]


def test_a_recent_set_up_is_found_without_replaying_every_earlier_call() -> None:
    """SPEC 8.1: galloping starts from the last call: a set-up made two calls
    before the failing one, after 60 others, is found in short replays; no
    fresh worker replays all 62 (at 568461d a whole replay came first: 178
    calls at up to 7.6e6 cells, before a blind-corpus finding)."""
    workers: list[list[Case]] = []
    others = tuple(Case.of([0.1 * k], [1.0], 0.5) for k in range(1, 60))
    same_bucket = Case.of([0.3, 0.1, 0.2], [1.0, 1.0, 1.0], 0.35)  # no set-up: other runtimes
    last = Case.of([0.2], [1.0], 0.5)
    findings = {"feasibility": Finding("feasibility", "SPEC 3.2", "over budget", PERMUTED)}
    alone = recheck(
        _cache_workers(workers, WRONG),
        Judge(exact=True),
        findings,
        {"feasibility": (PERMUTED, (*others[:30], same_bucket, *others[30:], SET_UP, last))},
        call_timeout=10,
        seconds=30,
    )
    assert alone == {"feasibility": Alone("passes", (SET_UP,), len(others) + 3)}
    assert max(len(made) for made in workers) <= 3
    assert workers == [
        [PERMUTED],
        [others[0], PERMUTED],
        [PERMUTED, PERMUTED],  # the call made twice (test_the_same_call_made_before...)
        [same_bucket, PERMUTED],  # the first of its size bucket (the next test)
        [last, PERMUTED],
        [SET_UP, last, PERMUTED],
        [SET_UP, PERMUTED],
    ]


def test_the_first_call_of_the_failing_calls_size_bucket_is_tried_alone() -> None:
    """SPEC 8.1: a solver that caches a choice per size bucket (item count and
    budget in units rounded to powers of two, as an autotuner does) fails a
    call after the bucket's first call chose wrongly; later calls of the
    bucket do not change the choice, so no short run from the end makes it
    fail. The bucket's first remembered call is tried alone and named."""
    bucketed = Case.of([0.1] * 5, [1.0] * 5, 0.25)  # 5 items, 2500 units
    set_up = Case.of([0.2] * 6, [7.0] * 6, 0.3)  # 6 items, 3000 units: the same bucket
    later = Case.of([0.2] * 7, [1.0] * 7, 0.2)  # 7 items, 2000 units: the same bucket
    others = tuple(Case.of([0.1] * (1 + k % 2), [1.0] * (1 + k % 2), 0.5) for k in range(40))
    workers: list[list[Case]] = []

    @contextmanager
    def fresh(call_timeout: float) -> Iterator[Any]:
        greedy: dict[tuple[int, int], bool] = {}
        made: list[Case] = []
        workers.append(made)

        def worker(memory: list[float], runtime: list[float], max_memory: float) -> Any:
            case = Case.of(memory, runtime, max_memory)
            made.append(case)
            bucket = (case.n.bit_length(), round(max_memory * 1e4).bit_length())
            if greedy.setdefault(bucket, runtime[0] == 7.0) and case == bucketed:
                return 0.0, [], list(range(case.n - 1, -1, -1))
            return dp_knapsack(memory, runtime, max_memory)

        yield worker

    earlier = (*others[:20], set_up, later, *others[20:])
    findings = {"optimality": Finding("optimality", "SPEC 5.2", "below the optimum", bucketed)}
    alone = recheck(
        fresh,
        Judge(exact=True),
        findings,
        {"optimality": (bucketed, earlier)},
        call_timeout=10,
        seconds=30,
    )
    assert alone == {"optimality": Alone("passes", (set_up,), len(earlier))}
    assert workers == [[bucketed], [others[0], bucketed], [bucketed, bucketed], [set_up, bucketed]]


def test_the_same_call_made_before_is_tried_alone() -> None:
    """SPEC 8.1, 8.4: a solver that answers a call it has seen before wrongly
    (a cache of answers keyed by the arguments, whose kept lists the caller
    emptied) fails the call after its own earlier copy: the call made twice
    is tried right after the oldest candidate alone, before any run from the
    end (the copy, 30 calls back here, may also be the call right before,
    which the calls before leave out)."""
    workers: list[list[Case]] = []
    others = tuple(Case.of([0.1 * k], [1.0], 0.5) for k in range(1, 61))

    @contextmanager
    def fresh(call_timeout: float) -> Iterator[Any]:
        made: list[Case] = []
        workers.append(made)

        def worker(memory: list[float], runtime: list[float], max_memory: float) -> Any:
            case = Case.of(memory, runtime, max_memory)
            seen = case in made
            made.append(case)
            return (0.0, [], []) if seen else dp_knapsack(memory, runtime, max_memory)

        yield worker

    findings = {"partition": Finding("partition", "SPEC 7.2(b)", "missing", PERMUTED)}
    alone = recheck(
        fresh,
        Judge(exact=True),
        findings,
        {"partition": (PERMUTED, (*others[:30], PERMUTED, *others[30:]))},
        call_timeout=10,
        seconds=30,
    )
    assert alone == {"partition": Alone("passes", (PERMUTED,), len(others) + 1)}
    assert workers == [[PERMUTED], [others[0], PERMUTED], [PERMUTED, PERMUTED]]


def test_a_set_up_search_cut_by_the_time_says_nothing_was_replayed() -> None:
    """SPEC 8.1: when the re-checks' time runs out before or during the
    replay of the earlier calls, the finding passes alone and no replay is
    claimed: the note does not say the earlier calls failed to reproduce
    it. (The call alone takes 0.6 s of the 2.5; a worker is not started
    with less than ``fresh.MIN_SECONDS`` left.)"""
    findings = {"feasibility": Finding("feasibility", "SPEC 3.2", "over budget", PERMUTED)}
    alone = recheck(
        _cache_workers([], WRONG, slow=0.6),
        Judge(exact=True),
        findings,
        {"feasibility": (PERMUTED, (SET_UP,))},
        call_timeout=10,
        seconds=MIN_SECONDS + 0.5,
    )
    assert alone == {"feasibility": Alone("passes", (), 0)}


def test_a_worker_reuses_the_lists_it_was_given_as_their_owner() -> None:
    """SPEC 8.4: the worker reuses each answer's lists once read, as a caller
    that owns them may: cleared, with one entry of its own. A solver that
    hands out the lists it keeps for a repeat then answers the same call
    again with that entry (a partition finding), and so does one that
    hands out one module list for "nothing saved", which clearing alone
    left as it was; a solver that builds its lists afresh answers the
    same."""
    case = Case.of([0.3, 0.2, 0.1, 0.4], [1.0, 5.0, 2.0, 3.0], 0.5)
    right = dp_knapsack(*case.arguments())
    reused = [CALLER_ENTRY]
    (kept,) = parse_target(f"{FIXTURES / 'stateful_solvers' / 'last_answer_kept.py'}:solver")
    with IsolatedSolver(kept, call_timeout=10) as worker:
        assert worker(*case.arguments()) == right
        assert worker(*case.arguments()) == (right[0], reused, reused)
        findings = check_call(worker, case, Judge(exact=True))
        assert "partition" in {finding.property for finding in findings}
    idle = Case.of([0.3, 0.2], [0.0, 0.0], 0.5)
    (shared,) = parse_target(f"{FIXTURES / 'stateful_solvers' / 'shared_empty_list.py'}:solver")
    with IsolatedSolver(shared, call_timeout=10) as worker:
        assert worker(*idle.arguments()) == (0.0, [], [1, 0])
        findings = check_call(worker, idle, Judge(exact=False))
        assert "partition" in {finding.property for finding in findings}
    (fresh,) = parse_target("knapsack_audit.reference:dp_knapsack")
    with IsolatedSolver(fresh, call_timeout=10) as worker:
        assert [worker(*case.arguments()) for _ in range(3)] == [right] * 3


def test_a_timed_out_call_is_not_rechecked() -> None:
    """SPEC 8.1 and 7.2: a call that ran out of the call timeout is the
    machine's verdict as much as the solver's; passing in a fresh worker would
    not show state, so no worker is started for it."""

    def no_worker(call_timeout: float) -> IsolatedSolver:
        raise AssertionError("a worker was started for a timed-out call")

    case = Case.of([0.5] * 48, [1.0] * 48, 0.25)
    message = "raised SolverTimeout: no answer within the call timeout of 10 s"
    finding = Finding("no-crash", "SPEC 7.2", message, case)
    assert recheck(no_worker, Judge(exact=True), {"no-crash": finding}, {}, 10.0, 30.0) == {}


def test_a_worker_remembers_its_last_calls_and_forgets_them_on_restart() -> None:
    """SPEC 8.1: the calls a finding is replayed after are those made to the
    same process: the last ones, and the first of each item count and
    budget, up to a bound on their items; a restarted worker has none of the
    old one's state."""
    (target,) = parse_target("torch:dp_knapsack")
    cases = [Case.of([0.1] * k, [1.0] * k, 0.25) for k in range(1, RECENT_CALLS + 3)]
    again = Case.of([0.2], [3.0], 0.25)
    big = Case.of([0.1] * FIRST_OF_SHAPE_ITEMS, [1.0] * FIRST_OF_SHAPE_ITEMS, 0.0)
    with IsolatedSolver(target, call_timeout=60) as worker:
        for case in cases[:2]:
            worker(*case.arguments())
        worker.call_many([case.arguments() for case in [*cases[2:], again, big]])
        assert list(worker.recent) == [*cases, again, big][-RECENT_CALLS:]
        assert worker.first_of_shape == {(case.n, 0.25): case for case in cases}
        worker.start()
        assert list(worker.recent) == []
        assert worker.first_of_shape == {}


class _Remembers:
    def __init__(self, recent: list[Case], first: tuple[Case, ...] = ()) -> None:
        self.recent = recent
        self.first_of_shape = {(case.n, case.max_memory): case for case in first}

    def first_call_like(self, case: Case) -> Case | None:
        return self.first_of_shape.get((case.n, case.max_memory))


def test_calls_before_leave_out_the_failing_call_and_what_followed_it() -> None:
    """SPEC 8.1: the set-up candidates are the calls before the failing one; its
    determinism re-call and the relations' calls after it are left out."""
    a, b, failing, permuted = (Case.of([0.1 * k], [1.0], 0.5) for k in range(1, 5))
    solver = _Remembers([a, b, failing, failing, permuted])
    assert calls_before(solver, failing) == (a, b)
    assert calls_before(solver, permuted) == (a, b, failing, failing)
    assert calls_before(_Remembers([a, failing]), b) is None
    assert calls_before(object(), a) is None


def test_calls_before_start_with_the_first_call_of_the_same_size_and_budget() -> None:
    """SPEC 8.1: a cache keyed by the item count and the budget answers with its
    first call of them, made long before the worker's last calls: that call
    comes first among the set-up candidates, unless it is among them already
    or is the failing call itself; it is the only one when the failing call
    is no longer among the last calls."""
    first = Case.of([0.1, 0.3], [1.0, 1.0], 0.5)
    a, b, failing = (Case.of([0.1 * k, 0.1], [2.0, 1.0], 0.5) for k in range(2, 5))
    assert calls_before(_Remembers([a, b, failing], (first,)), failing) == (first, a, b)
    assert calls_before(_Remembers([first, b, failing], (first,)), failing) == (first, b)
    assert calls_before(_Remembers([a, failing], (failing,)), failing) == (a,)
    assert calls_before(_Remembers([a, b], (first,)), failing) == (first,)
    assert calls_before(_Remembers([a, b], (failing,)), failing) is None


def test_a_finding_not_noted_on_its_own_case_gets_its_calls_before_at_the_end() -> None:
    """SPEC 8.1: when the calls before a finding were noted for another case
    (a larger one, before shrinking) or not at all, the worker's memory at
    the end of the audit supplies them; a finding noted on its own case
    keeps its note."""
    first = Case.of([0.1, 0.3], [1.0, 1.0], 0.5)
    a, failing, other = (Case.of([0.1 * k, 0.1], [2.0, 1.0], 0.5) for k in range(2, 5))
    result = AuditResult()
    result.findings = {
        "feasibility": Finding("feasibility", "SPEC 3.2", "over budget", failing),
        "optimality": Finding("optimality", "SPEC 5.2", "below the optimum", other),
        "partition": Finding("partition", "SPEC 7.2", "an index twice", a),
    }
    result.before = {"feasibility": (other, (a,)), "partition": (a, (other,))}
    note_calls_before(result, _Remembers([a, failing, other], (first,)))
    assert result.before == {
        "feasibility": (failing, (first, a)),
        "optimality": (other, (first, a, failing)),
        "partition": (a, (other,)),
    }


def test_no_replay_is_given_more_time_than_the_window_has_left() -> None:
    """SPEC 8.1: each call of a re-check gets at most the time left in the
    re-checks' window as its timeout, so a slow replay ends with the window
    instead of running a whole call timeout past it.

    The bound holds without a tolerance under any load: the window opens
    before the first worker starts, so it closes by ``first start + seconds``,
    and each timeout is set after the mark before its call (the worker's
    start or the end of its previous call)."""
    marks: list[float] = []  # each worker's start, and the end of each call
    timeouts: list[tuple[float, float]] = []  # (the mark before a call, its timeout)

    class Worker:
        call_timeout = 0.0

        def __call__(self, memory: list[float], runtime: list[float], max_memory: float) -> Any:
            timeouts.append((marks[-1], self.call_timeout))
            time.sleep(0.05)
            answer = dp_knapsack(memory, runtime, max_memory)
            marks.append(time.monotonic())
            return answer

    @contextmanager
    def fresh(call_timeout: float) -> Iterator[Any]:
        marks.append(time.monotonic())
        worker = Worker()
        worker.call_timeout = call_timeout
        yield worker

    others = tuple(Case.of([0.1 * k], [1.0], 0.5) for k in range(1, 41))
    findings = {"partition": Finding("partition", "SPEC 7.2(b)", "missing", PERMUTED)}
    seconds = MIN_SECONDS + 1.0
    started = time.monotonic()
    recheck(
        fresh,
        Judge(exact=True),
        findings,
        {"partition": (PERMUTED, others)},
        call_timeout=10,
        seconds=seconds,
    )
    assert time.monotonic() - started < MIN_SECONDS + 2.0
    assert len(timeouts) > 10
    window_closes_by = marks[0] + seconds
    assert all(timeout <= window_closes_by - mark for mark, timeout in timeouts)
