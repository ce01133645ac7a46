"""Do two processes agree? SPEC 8.1 asks for the same answer in any process.

Every rank of a distributed job runs the partitioner on its own, and the
ranks must recompute the same nodes: SPEC 8.1 asks for the same answer "in
any process, whatever ``PYTHONHASHSEED``". One worker cannot show a
difference that comes from the process (string hashes are salted per
process, so the order of a ``set`` or of a ``dict`` built from one moves).

:func:`disagreement` makes the same calls, in the same order, in two fresh
workers started with different hash seeds (:data:`HASH_SEEDS`), and compares
their answers as ``determinism`` compares two calls
(:func:`~knapsack_audit.properties.same_answer`). Invariant: both workers
have seen exactly the same calls before each compared one, so a difference
is the process's, never the call history's. The first call they answer
differently is shrunk, in the same two workers, by dropping runs of items
while they still disagree; the finding is ``determinism``'s (SPEC 8.1).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from knapsack_audit import properties as props
from knapsack_audit.cases import Case
from knapsack_audit.fresh import LOST_STATE, FreshWorker
from knapsack_audit.isolation import SolverFailure
from knapsack_audit.properties import Finding
from knapsack_audit.scaling import table_cells
from knapsack_audit.search import drop_runs
from knapsack_audit.shrink import Shrinker
from knapsack_audit.targets import TargetError

HASH_SEEDS = (1, 2)
"""The two workers' ``PYTHONHASHSEED``: fixed, so that a run replays."""

AGREEMENT_SECONDS = 10.0
"""Most seconds :func:`disagreement` spends, both workers' start included."""

MIN_SECONDS = 3.0
"""Least time :func:`disagreement` starts its two workers in (each imports
the target, torch included)."""

PROBE_CALLS = 24
"""Most calls :func:`probes` picks."""

PROBE_CELLS = 4_000_000
"""Largest table (``n * (Q + 1)``) of a probe: a pure-Python table solver
answers it in a few seconds."""

PROCESS_NOTE = (
    "the same calls, made in the same order in two fresh processes "
    "(PYTHONHASHSEED={first} and {second}), answered this one differently: {said}"
)


def probes(calls: Sequence[Case]) -> list[Case]:
    """The calls :func:`disagreement` makes: of ``calls``, those of at most
    :data:`PROBE_CELLS` cells with at least 16 items, those with the most
    items that have an exact copy first (a solver that groups copies by a
    hashed key orders them per process), at most :data:`PROBE_CALLS`, in
    their order in ``calls``."""
    usable = [
        (k, case)
        for k, case in enumerate(calls)
        if case.n >= 16 and table_cells(case) <= PROBE_CELLS
    ]
    usable.sort(key=lambda item: (-(item[1].n - item[1].distinct_items()), item[0]))
    return [case for _, case in sorted(usable[:PROBE_CALLS], key=lambda item: item[0])]


@dataclass(frozen=True)
class Agreement:
    """What :func:`disagreement` saw: how many calls both workers answered,
    and ``determinism``'s finding for the first they answered differently."""

    compared: int = 0
    finding: Finding | None = None


def disagreement(
    fresh: FreshWorker, calls: Sequence[Case], call_timeout: float, seconds: float
) -> Agreement:
    """The calls of ``calls`` two fresh workers (:data:`HASH_SEEDS`) answer, in
    order, until the first they answer differently (its finding shrunk) or
    until ``seconds`` have passed (each call's timeout is cut to the time
    left); the comparison stops where a worker would not start or a call
    timed out or ended one."""
    deadline = time.monotonic() + seconds
    first, second = HASH_SEEDS
    compared = 0
    if seconds < MIN_SECONDS:  # not even time to start the two workers
        return Agreement()
    try:
        with ExitStack() as stack:
            workers = [stack.enter_context(fresh(call_timeout, seed)) for seed in HASH_SEEDS]

            def differ(case: Case) -> str | None:
                outcomes = []
                for worker in workers:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise _Lost
                    worker.call_timeout = min(call_timeout, left)  # a hang ends with the time
                    outcome = props.call(worker, case)
                    if isinstance(outcome.error, LOST_STATE):
                        raise _Lost
                    outcomes.append(outcome)
                if props.same_answer(outcomes[0], outcomes[1], case):
                    return None
                return _difference(*(outcome.result for outcome in outcomes)) or "; ".join(
                    f"PYTHONHASHSEED={seed} {props.said(outcome)}"
                    for seed, outcome in zip(HASH_SEEDS, outcomes, strict=True)
                )

            for case in calls:
                if time.monotonic() > deadline:
                    break
                said = differ(case)
                compared += 1
                if said is not None:
                    case, said = _shrunk(differ, case, said, deadline)
                    message = PROCESS_NOTE.format(first=first, second=second, said=said)
                    return Agreement(compared, Finding("determinism", "SPEC 8.1", message, case))
    except (TargetError, SolverFailure, _Lost):
        pass
    return Agreement(compared)


class _Lost(Exception):
    """The time ran out, or a call timed out or ended a worker (the two no
    longer share a history)."""


def _shrunk(
    differ: Callable[[Case], str | None], case: Case, said: str, deadline: float
) -> tuple[Case, str]:
    """``case`` with runs of items dropped (halves, then quarters, ... single
    items: :func:`~knapsack_audit.search.drop_runs`) while the two workers
    still answer differently, until ``deadline``."""

    def fails(candidate: Case) -> Finding | None:
        if time.monotonic() >= deadline:
            raise _Lost
        again = differ(candidate) if candidate.n else None
        return None if again is None else Finding("determinism", "SPEC 8.1", again, candidate)

    shrinker = Shrinker(fails, Finding("determinism", "SPEC 8.1", said, case))
    with contextlib.suppress(_Lost):  # the time ran out, or the workers' histories part
        drop_runs(shrinker, smallest=1)
    return shrinker.current.case, shrinker.current.message


def _difference(first: object, second: object) -> str:
    """Where two ``(value, saved, recomputable)`` answers differ, in words
    (``""`` if either is not such a tuple).

    >>> _difference((3.0, [0, 2], [1]), (3.0, [0, 1], [2])).split("; ")[:2]
    ['values 3.0 and 3.0', 'saved [0, 2] and [0, 1], first apart at position 1 (2 and 1)']
    """
    if not all(isinstance(answer, tuple) and len(answer) == 3 for answer in (first, second)):
        return ""
    mine: tuple[Any, ...] = first  # type: ignore[assignment]
    theirs: tuple[Any, ...] = second  # type: ignore[assignment]
    parts = [f"values {mine[0]!r} and {theirs[0]!r}"]
    for name, one, other in zip(("saved", "recomputable"), mine[1:], theirs[1:], strict=True):
        if one == other or not (isinstance(one, list) and isinstance(other, list)):
            continue
        at = next(
            (k for k, (a, b) in enumerate(zip(one, other, strict=False)) if a != b),
            min(len(one), len(other)),
        )
        shown = [str(part[at]) if at < len(part) else "its end" for part in (one, other)]
        parts.append(
            f"{name} {_short(one)} and {_short(other)}, first apart at position {at} "
            f"({shown[0]} and {shown[1]})"
        )
    return "; ".join(parts)


def _short(indices: list[object]) -> str:
    """A list of indices, its middle cut when it has more than 12."""
    if len(indices) <= 12:
        return repr(indices)
    head, tail = ", ".join(map(str, indices[:6])), ", ".join(map(str, indices[-3:]))
    return f"[{head}, ..., {tail}] ({len(indices)} entries)"
