"""Run a solver under audit in a separate worker process, with time and memory limits.

The auditing process runs the property engine; the ``solver`` it is given is
an :class:`IsolatedSolver`, a proxy that sends ``(memory, runtime,
max_memory)`` over a pipe to a worker process and returns the worker's answer.
Whatever the solver does, the audit goes on and the failure carries its input:

========================  ===================================================
solver behaviour          what the proxy does (the engine then reports it)
========================  ===================================================
raises ``E("msg")``       raises a :class:`SolverFailure` subclass named ``E``
                          with message ``msg`` (``no-crash``, SPEC 7.2)
exceeds the call timeout  kills the worker, raises :class:`SolverTimeout`
exceeds the memory limit  ``RLIMIT_AS`` turns it into ``MemoryError`` (or the
                          kernel kills the worker: :class:`WorkerDied`)
``os._exit``, segfault    raises :class:`WorkerDied` with the exit code/signal
mutates its input lists   the worker sends the changed lists back and the
                          proxy applies them to the caller's lists, so the
                          engine's own check sees it (``no-mutation``, 8.2)
returns odd types         sent back as they are when the auditing process can
                          unpickle them (numpy integers stay numpy integers);
                          anything else becomes an :class:`Opaque` description
========================  ===================================================

A dead or killed worker is restarted for the next call. :meth:`close` (also
on leaving the ``with`` block) stops the worker, killing it if needed, so no
process outlives the audit.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import pickle
import resource
import signal
import sys
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import TracebackType
from typing import Any

from knapsack_audit.targets import Target, TargetError, load_solver

DEFAULT_CALL_TIMEOUT = 10.0
"""Seconds one solver call may take before the worker is killed."""

DEFAULT_MEMORY_LIMIT = 4 * 2**30
"""Bytes of address space (``RLIMIT_AS``) the worker may use."""

DEFAULT_LOAD_TIMEOUT = 120.0
"""Seconds the worker may take to import the target (torch takes a few)."""

_PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal this process gets when its parent dies (Linux)."""

_SHIPPABLE_MODULES = frozenset({"builtins", "numpy", "torch", "fractions", "decimal"})
"""Types from these packages unpickle in the auditing process as they are."""


@dataclass(frozen=True)
class Load:
    """Worker message: load another target in place of the current one."""

    target: Target


class SolverFailure(Exception):
    """Base of what :class:`IsolatedSolver` raises when a call gives no answer."""


class SolverTimeout(SolverFailure, TimeoutError):
    """The call did not return within the call timeout; the worker was killed."""


class WorkerDied(SolverFailure):
    """The worker process ended during the call (``os._exit``, a signal, the OOM killer)."""


_RAISED_TYPES: dict[str, type[SolverFailure]] = {}


def raised_type(name: str) -> type[SolverFailure]:
    """The proxy exception class standing for the solver's exception type ``name``.

    One class per name, so two calls raising the same error compare equal in
    the engine's determinism check (SPEC 8.1).
    """
    if name not in _RAISED_TYPES:
        _RAISED_TYPES[name] = type(name, (SolverFailure,), {"__module__": __name__})
    return _RAISED_TYPES[name]


@dataclass(frozen=True)
class Opaque:
    """A returned object that cannot travel to the auditing process, described.

    Attributes:
        type_name: its type, ``module.QualifiedName``.
        text: its ``repr``, cut to 200 characters.
    """

    type_name: str
    text: str

    def __repr__(self) -> str:
        return f"<{self.type_name}: {self.text}>"


def portable(value: Any) -> Any:
    """``value`` with every part the auditing process cannot unpickle replaced.

    Lists and tuples (including named tuples) are rebuilt as plain lists and
    tuples; objects of builtins, numpy, torch, fractions and decimal are kept
    as they are (the auditing process has those packages); anything else (say
    a class defined in a file target) becomes an :class:`Opaque`.
    """
    if isinstance(value, list):
        return [portable(item) for item in value]
    if isinstance(value, tuple):
        return tuple(portable(item) for item in value)
    kind = type(value)
    if kind.__module__.partition(".")[0] in _SHIPPABLE_MODULES:
        try:
            pickle.dumps(value)
        except Exception:
            return _describe(value)
        return value
    return _describe(value)


def _describe(value: Any) -> Opaque:
    kind = type(value)
    try:
        text = repr(value)[:200]
    except Exception as error:
        text = f"repr failed: {type(error).__name__}"
    return Opaque(f"{kind.__module__}.{kind.__qualname__}", text)


def describe_exit(exitcode: int | None) -> str:
    """In words, how the worker process ended."""
    if exitcode is None:
        return "the worker process stopped answering"
    if exitcode < 0:
        name = signal.Signals(-exitcode).name
        hint = " (the memory limit or the kernel's OOM killer)" if name == "SIGKILL" else ""
        return f"the worker process was killed by signal {name}{hint}"
    return f"the solver ended the worker process with exit code {exitcode}"


def format_bytes(size: int) -> str:
    """``4294967296`` -> ``'4 GiB'``."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale:
            return f"{size / scale:g} {unit}"
    return f"{size} bytes"


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (``PR_SET_PDEATHSIG``).

    Without it, a worker stuck in a hanging solver would outlive an auditing
    process that was itself killed. Elsewhere this does nothing.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return


def _worker_main(connection: Connection, target: Target, memory_limit: int | None) -> None:
    """The worker: load the solver, then answer calls until told to stop (``None``)."""
    _die_with_parent()
    if memory_limit is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    try:
        solver = load_solver(target)
    except TargetError as error:
        connection.send(("load-error", str(error)))
        return
    connection.send(("ready",))
    limit_note = "" if memory_limit is None else f" (limit {format_bytes(memory_limit)})"
    while True:
        try:
            request = connection.recv()
        except EOFError:  # the auditing process is gone
            return
        if request is None:
            return
        if isinstance(request, Load):
            try:
                solver = load_solver(request.target)
            except TargetError as error:
                connection.send(("load-error", str(error)))
                continue
            connection.send(("ready",))
        elif isinstance(request, list):  # a batch: one reply for many calls
            connection.send([_answer(solver, arguments, limit_note) for arguments in request])
        else:
            connection.send(_answer(solver, request, limit_note))


def _answer(solver: Any, arguments: tuple[Any, Any, Any], limit_note: str) -> tuple[Any, ...]:
    """The reply to one call: ``("raised", type, message)`` or ``("returned", result, mutated)``."""
    memory, runtime, max_memory = arguments
    before = (list(memory), list(runtime))
    try:
        result = solver(memory, runtime, max_memory)
    except MemoryError as error:
        return ("raised", "MemoryError", f"out of memory{limit_note} {error}".strip())
    except (Exception, SystemExit) as error:
        return ("raised", type(error).__name__, str(error))
    mutated = None
    if (memory, runtime) != before:
        mutated = (portable(memory), portable(runtime))
    return ("returned", portable(result), mutated)


class IsolatedSolver:
    """A solver proxy that runs ``target`` in a worker process (see the module doc).

    Args:
        target: what to load in the worker.
        call_timeout: seconds per call before the worker is killed.
        memory_limit: ``RLIMIT_AS`` of the worker in bytes (``None``: no limit).
        load_timeout: seconds the worker may take to load the target.

    Attributes:
        call_timeout: seconds per call, or per batch of calls (settable).
        calls: number of calls made.
    """

    def __init__(
        self,
        target: Target,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
        load_timeout: float = DEFAULT_LOAD_TIMEOUT,
    ) -> None:
        self.target = target
        self.call_timeout = call_timeout
        self.memory_limit = memory_limit
        self.load_timeout = load_timeout
        self.calls = 0
        self._context = multiprocessing.get_context("spawn")
        self._process: BaseProcess | None = None
        self._connection: Connection | None = None

    def __enter__(self) -> IsolatedSolver:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The current worker's process id, if one is running."""
        return None if self._process is None else self._process.pid

    def start(self) -> None:
        """Start the worker and wait until it has loaded the target.

        Raises:
            TargetError: the target could not be loaded, or loading timed out
                or killed the worker.
        """
        self.close()
        parent_end, child_end = self._context.Pipe()
        process = self._context.Process(
            target=_worker_main,
            args=(child_end, self.target, self.memory_limit),
            name=f"knapsack-audit worker {self.target.label}",
            daemon=True,
        )
        process.start()
        child_end.close()
        self._process, self._connection = process, parent_end
        if not parent_end.poll(self.load_timeout):
            self.close()
            raise TargetError(
                f"target {self.target.label}: loading took more than {self.load_timeout:g} s"
            )
        try:
            reply = parent_end.recv()
        except EOFError:
            exitcode = self._reap()
            raise TargetError(
                f"target {self.target.label}: loading it ended the process "
                f"({describe_exit(exitcode)})"
            ) from None
        if reply[0] == "load-error":
            self.close()
            raise TargetError(reply[1])

    def retarget(self, target: Target) -> None:
        """Load ``target`` in the running worker (no new process: torch stays
        imported), or start one for it.

        Raises:
            TargetError: as :meth:`start`.
        """
        self.target = target
        self.calls = 0
        if self._connection is None:
            self.start()
            return
        reply = self._exchange(Load(target), self.load_timeout, " while loading")
        if reply[0] == "load-error":
            raise TargetError(reply[1])

    def __call__(self, memory: list[Any], runtime: list[Any], max_memory: Any) -> Any:
        """Call the solver in the worker; raise a :class:`SolverFailure` if it gives no answer."""
        reply = self._exchange((memory, runtime, max_memory), self.call_timeout, "")
        return _unpack(reply, memory, runtime)

    def call_many(self, arguments: list[tuple[list[Any], list[Any], Any]]) -> list[Any]:
        """Many calls in one message; per call the answer or the :class:`SolverFailure`.

        Raises:
            SolverTimeout: the whole batch took longer than ``call_timeout``
                (the worker was killed; which call hung is unknown).
            WorkerDied: the worker ended during the batch.
        """
        replies = self._exchange(list(arguments), self.call_timeout, f" for {len(arguments)} calls")
        answers: list[Any] = []
        for reply, (memory, runtime, _) in zip(replies, arguments, strict=True):
            try:
                answers.append(_unpack(reply, memory, runtime))
            except SolverFailure as failure:
                answers.append(failure)
        return answers

    def _exchange(self, request: Any, timeout: float, what: str) -> Any:
        if self._connection is None:
            self.start()
        connection = self._connection
        assert connection is not None
        self.calls += (
            len(request) if isinstance(request, list) else int(not isinstance(request, Load))
        )
        try:
            connection.send(request)
        except OSError:
            raise WorkerDied(describe_exit(self._reap())) from None
        if not connection.poll(timeout):
            self.close(kill=True)
            raise SolverTimeout(
                f"no answer within the call timeout of {self.call_timeout:g} s{what} "
                "(the worker was killed)"
            )
        try:
            return connection.recv()
        except EOFError:
            raise WorkerDied(describe_exit(self._reap())) from None

    def _reap(self) -> int | None:
        """Wait briefly for a dying worker and return its exit code; forget it."""
        process = self._process
        exitcode = None
        if process is not None:
            process.join(5)
            exitcode = process.exitcode
        self.close()
        return exitcode

    def close(self, kill: bool = False) -> None:
        """Stop the worker: ask it to exit (or ``kill`` it at once), and join it."""
        process, connection = self._process, self._connection
        self._process, self._connection = None, None
        if connection is not None:
            try:
                if not kill and process is not None and process.is_alive():
                    connection.send(None)
            except OSError:
                pass
            connection.close()
        if process is not None:
            process.join(0 if kill else 1)
            if process.is_alive():
                process.kill()
                process.join()
            process.close()


def _unpack(reply: tuple[Any, ...], memory: list[Any], runtime: list[Any]) -> Any:
    """A worker's reply to one call: the result (mutations applied), or raise."""
    if reply[0] == "raised":
        raise raised_type(reply[1])(reply[2])
    _, result, mutated = reply
    if mutated is not None:
        memory[:], runtime[:] = mutated
    return result
