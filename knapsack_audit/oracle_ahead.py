"""The exact optima of the breadth calls to come, computed in a process of their own.

The breadth phase (``search._breadth_phase``) judges each call against its
exact optimum (:func:`knapsack_audit.properties.exact_value`). On calls of
thousands of items the oracle costs the auditor as much as the solver costs
the worker, and unevenly: a run of captured calls (optimum known) is all
solver, a run of grouping patterns all oracle. :class:`OracleAhead` runs
the oracle, in call order, in a third process, while the worker solves and
the auditor judges what is ready; the auditor then only waits for the slower
of the two, not for their sum.

The auditor takes a call's optimum from the process when it is computed, or
being computed (it waits for it); a call the process has not reached yet
the auditor computes itself, and tells the process to skip it. Either way
the optimum is the same exact number: only when it is ready changes.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from fractions import Fraction
from multiprocessing.connection import Connection

from knapsack_audit.cases import Case

AHEAD_CALLS = 64
"""How far ahead of the auditor, in breadth calls, the process may compute: the
calls a run does not reach (its time is up) cost no core."""

AHEAD_FROM_SECONDS = 5.0
"""Shortest breadth phase (seconds left of its share) that starts the process:
a shorter one (a ``--time-budget`` of 10 s or less) would pay its start, half a
second of a core, and its computing ahead for calls it never reaches (the
test suite's many short audits took 2 minutes longer in CI)."""

AHEAD_FROM_CELLS = 100_000
"""Smallest table (``n * (Q + 1)``) whose optimum is computed ahead: below, the
auditor's own oracle answers in milliseconds, less than a message costs."""


def serve(calls_fd: int, claims_fd: int) -> None:
    """The process: each ``(index, case)`` received on ``calls_fd``, unless the
    auditor has claimed the index on ``claims_fd``: ``("start", index)``, then
    ``("done", index, optimum)`` or ``("failed", index)`` (the auditor's own
    oracle then raises, and the call is judged as it is without this process)."""
    from knapsack_audit.properties import exact_value

    calls, claims = Connection(calls_fd), Connection(claims_fd)
    claimed = -1
    while True:
        try:
            task = calls.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        index, case = task
        while claims.poll():
            claimed = max(claimed, claims.recv())
        if index <= claimed:
            continue
        calls.send(("start", index))
        try:
            optimum = exact_value(case)
        except Exception:
            calls.send(("failed", index))
            continue
        calls.send(("done", index, optimum))


class OracleAhead:
    """A process computing the exact optima of ``cases`` (by their index in
    the caller's list), in order; :meth:`optimum` gives one, :meth:`close`
    stops the process. One process: a second took the core the worker needs.

    The process is a new interpreter (``sys.executable``), as the worker is
    (:mod:`knapsack_audit.isolation`), not a ``multiprocessing`` child: that
    would run the caller's main script again."""

    def __init__(self, cases: Sequence[tuple[int, Case]]) -> None:
        calls, calls_child = socket.socketpair()
        claims, claims_child = socket.socketpair()
        command = [
            sys.executable,
            "-c",
            "from knapsack_audit.oracle_ahead import serve; "
            f"serve({calls_child.fileno()}, {claims_child.fileno()})",
        ]
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,  # a process that fails leaves its calls to the auditor
            stderr=subprocess.DEVNULL,
            pass_fds=(calls_child.fileno(), claims_child.fileno()),
        )
        calls_child.close()
        claims_child.close()
        self._calls = Connection(calls.detach())
        self._claims = Connection(claims.detach())
        self._done: dict[int, Fraction | None] = {}
        self._current = -1
        self._alive = True
        self._reached = threading.Condition()
        self._at = -1
        """The index of the call the auditor judges now."""
        # A thread feeds the cases (a socket holds only a few of the largest):
        # it waits while the process computes, the auditor does not.
        self._feeder = threading.Thread(target=self._feed, args=(list(cases),), daemon=True)
        self._feeder.start()

    def _feed(self, cases: list[tuple[int, Case]]) -> None:
        try:
            for index, case in cases:
                with self._reached:
                    self._reached.wait_for(
                        lambda: index <= self._at + AHEAD_CALLS or not self._alive  # noqa: B023
                    )
                self._calls.send((index, case))
            self._calls.send(None)
        except (OSError, ValueError):  # the process was stopped
            return

    def _take(self) -> None:
        """One message of the process (waits for it)."""
        try:
            message = self._calls.recv()
        except (EOFError, OSError):
            self._alive = False
            return
        if message[0] == "start":
            self._current = message[1]
        else:
            self._done[message[1]] = message[2] if message[0] == "done" else None

    def optimum(self, index: int) -> Fraction | None:
        """The optimum of the case of ``index``, if the process computed it or
        is computing it (then wait); ``None``: the caller computes it (the
        process, told so, skips it and those before it)."""
        with self._reached:
            self._at = index  # the feeder may send up to AHEAD_CALLS past it
            self._reached.notify()
        while self._alive and self._calls.poll():
            self._take()
        while self._alive and self._current == index and index not in self._done:
            self._take()
        if index in self._done:
            return self._done.pop(index)
        if self._alive:
            try:
                self._claims.send(index)
            except OSError:
                self._alive = False
        return None

    def close(self) -> None:
        """Stop the process, whatever it is computing."""
        with self._reached:
            self._alive = False
            self._reached.notify()
        self._process.kill()
        self._process.wait()
        self._feeder.join(5)
        self._calls.close()
        self._claims.close()
