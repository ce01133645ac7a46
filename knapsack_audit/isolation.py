"""Run a solver under audit in a separate worker process, with time and memory limits.

The auditing process runs the property engine; the ``solver`` it is given is
an :class:`IsolatedSolver`, a proxy that sends ``(memory, runtime,
max_memory)`` over a socket to a worker process and returns the worker's
answer. Whatever the solver does, the audit goes on and the failure carries
its input:

========================  ===================================================
solver behaviour          what the proxy does (the engine then reports it)
========================  ===================================================
raises ``E("msg")``       raises a :class:`SolverFailure` subclass named ``E``
                          with message ``msg`` (``no-crash``, SPEC 7.2)
exceeds the call timeout  kills the worker, raises :class:`SolverTimeout`
exceeds the memory limit  ``RLIMIT_AS`` turns it into ``MemoryError`` (or the
                          kernel kills the worker: :class:`WorkerDied`)
``os._exit``, segfault    raises :class:`WorkerDied` with the exit code/signal,
                          even if a forked child still holds the socket
kills its parent, its     the parent is a keeper, not the auditor; the proxy
process group             raises :class:`WorkerDied` ("the solver killed its
                          parent process"); the group is the worker's own
starts processes and      the worker kills them after the call and the proxy
leaves them running       raises :class:`LeftProcessesRunning` ("left N
                          processes running"); see :mod:`.processes`
prints                    the worker's stdout and stderr are pipes into
                          bounded buffers (:mod:`.captured`); the auditor's
                          own streams stay clean
changes a process-wide    the worker puts it back and the proxy raises
setting (torch's default  :class:`ChangedSettings` (``no-mutation``, SPEC
dtype, threads, RNG...)   8.6; :mod:`.process_state`)
mutates its input lists   the worker sends the changed lists back and the
                          proxy applies them to the caller's lists, so the
                          engine's own check sees it (``no-mutation``, 8.2)
returns odd types         sent back as they are when the auditing process can
                          unpickle them (numpy integers stay numpy integers,
                          torch tensors travel by value: :func:`send_plain`);
                          anything else becomes an :class:`Opaque` description
returns a huge or         conversion is bounded (:func:`portable`): a list
self-referencing answer   longer than the instance allows arrives as an
                          :class:`Oversized` (its length only), nesting deeper
                          than :data:`MAX_DEPTH` as an :class:`Opaque`
breaks the conversion     the tool's own failure is reported as such, with
(or the auditor cannot    its cause: :class:`ToolFailure`; a reply the
read the reply)           auditor cannot read also stops the worker
========================  ===================================================

The auditor starts a keeper with :mod:`subprocess` (``python -c``, in a new
session, optionally under bubblewrap: :mod:`.sandbox`), and the keeper starts
the worker in a session of its own (:func:`knapsack_audit.processes.keep`):
the solver's parent is the keeper, so no ``getppid()``, ``kill(0, ...)`` or
``killpg(getpgrp(), ...)`` reaches the auditor. A dead or killed worker is
restarted for the next call. :meth:`IsolatedSolver.close` (also on leaving
the ``with`` block) stops the worker, which first kills its descendants; the
keeper then kills the worker's process group and the orphans it adopted, so
no process outlives the audit (up to a descendant that leaves the group
*and* outlives a killed keeper: only ``--sandbox``'s PID namespace catches
that one).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import resource
import signal
import socket
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from types import TracebackType
from typing import Any

from knapsack_audit import process_state
from knapsack_audit.captured import CapturedStream, StreamSummary
from knapsack_audit.cases import Case, Oversized, same_values, shared_runs
from knapsack_audit.catalog import TargetError, load
from knapsack_audit.measure import measured_call
from knapsack_audit.processes import (
    become_subreaper,
    die_with_parent,
    kill_descendants,
    kill_group,
    read_status,
)
from knapsack_audit.sandbox import require_sandbox, sandboxed
from knapsack_audit.targets import Target

DEFAULT_CALL_TIMEOUT = 10.0
"""Seconds one solver call may take before the worker is killed."""

DEFAULT_MEMORY_LIMIT = 4 * 2**30
"""Bytes of address space (``RLIMIT_AS``) the worker may use."""

DEFAULT_LOAD_TIMEOUT = 120.0
"""Seconds the worker may take to import the target (torch takes a few)."""

RECENT_CALLS = 256
"""Calls an :class:`IsolatedSolver` remembers (:attr:`IsolatedSolver.recent`):
what a finding that depends on earlier calls is replayed after (SPEC 8.1).
As many as a full batch of the exhaustive phase, so that a batch's earlier
calls are remembered whichever of them failed."""

FIRST_OF_SHAPE_ITEMS = 250_000
"""Most items, summed over the calls, that an :class:`IsolatedSolver` keeps in
:attr:`IsolatedSolver.first_of_shape` (about 16 MB of floats); later shapes
are not kept."""

AUDIT_THREADS = 1
"""Intra-op threads of a worker whose answers are judged (``OMP_NUM_THREADS``,
read by torch when it loads; an ``OMP_NUM_THREADS`` already set is kept).
An audit keeps two processes busy, the auditor judging and the worker
solving, and ``--jobs``, the test suite's ``-n 2`` and audits run side by
side add more; with torch's default of one thread per core, two audits on
two cores ran their breadth phase in 18 s instead of 4.7 s and passed a bug
that one audit fails (docs/CLI.md, "Time budget"). A timed worker
(``compare``, SPEC 9.2) keeps torch's default, as the partitioner runs it."""

MAX_DEPTH = 6
"""Containers nested deeper than this in an answer arrive as :class:`Opaque`.
A valid answer is 2 deep: a tuple of two lists of ints."""

SPARE_ENTRIES = 64
"""Entries an answer may hold beyond the instance's ``n`` (a partition of ``n``
indices has ``n`` entries, plus the value and the tuple itself)."""

MAX_OBJECT_BYTES = 1 << 20
"""A shipped object (a string, an array) pickling to more than this is described."""

_SHIPPABLE_MODULES = frozenset({"builtins", "numpy", "torch", "fractions", "decimal"})
"""Types from these packages unpickle in the auditing process as they are."""

_POLL_SECONDS = 0.05
"""How often a waiting proxy checks whether its worker is still alive."""


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


class LeftProcessesRunning(SolverFailure):
    """The call returned but left processes running; the worker killed them."""


class ChangedSettings(SolverFailure):
    """The call returned but changed a process-wide setting and left it so
    (SPEC 8.6, :mod:`.process_state`); the worker put it back. Judged as
    ``no-mutation``, not as a crash (the engine reads :attr:`settings_changed`)."""

    settings_changed = True


class ToolFailure(SolverFailure):
    """knapsack-audit itself failed while handling the solver's answer (the cause is named)."""


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
        text: its ``repr``, cut to 200 characters (or why it was not sent).
    """

    type_name: str
    text: str

    def __repr__(self) -> str:
        return f"<{self.type_name}: {self.text}>"


def portable(value: Any, max_entries: int = 1 << 16) -> Any:
    """``value`` with every part the auditing process cannot unpickle replaced.

    Lists and tuples (including named tuples) are rebuilt as plain lists and
    tuples; objects of builtins, numpy, torch, fractions and decimal are kept
    as they are (the auditing process has those packages) if they pickle to
    at most :data:`MAX_OBJECT_BYTES`; anything else (say a class defined in a
    file target) becomes an :class:`Opaque`. Bounded: at most ``max_entries``
    list and tuple entries in all (a longer container becomes an
    :class:`Oversized`) and :data:`MAX_DEPTH` levels of nesting, so the work
    is ``O(max_entries)`` whatever the solver returned (a list holding
    itself, ``[0] * 10**9``).
    """
    return _Converter(max_entries).convert(value, 0)


class _Converter:
    """:func:`portable` with its entry budget."""

    def __init__(self, max_entries: int) -> None:
        self.remaining = max_entries

    def convert(self, value: Any, depth: int) -> Any:
        if isinstance(value, (list, tuple)):
            container = "list" if isinstance(value, list) else "tuple"
            if depth >= MAX_DEPTH:
                return Opaque(container, f"nested more than {MAX_DEPTH} levels deep")
            length = len(value)
            if length > self.remaining:
                return Oversized(container, length)
            self.remaining -= length
            items = [self.convert(item, depth + 1) for item in value]
            return items if container == "list" else tuple(items)
        if type(value).__module__.partition(".")[0] in _SHIPPABLE_MODULES:
            try:
                size = len(pickle.dumps(value))
            except Exception:
                return _describe(value)
            if size > MAX_OBJECT_BYTES:
                return Opaque(_type_name(value), f"{size} bytes pickled, not sent")
            return value
        return _describe(value)


def _type_name(value: Any) -> str:
    kind = type(value)
    return f"{kind.__module__}.{kind.__qualname__}"


def _describe(value: Any) -> Opaque:
    try:
        text = repr(value)[:200]
    except Exception as error:
        text = f"repr failed: {type(error).__name__}"
    return Opaque(_type_name(value), text)


def describe_exit(exitcode: int | None) -> str:
    """In words, how the worker process ended."""
    if exitcode is None:
        return "the worker process stopped answering"
    if exitcode < 0:
        name = signal.Signals(-exitcode).name
        hint = " (by the solver itself, or the kernel's OOM killer)" if name == "SIGKILL" else ""
        return f"the worker process was killed by signal {name}{hint}"
    return f"the solver ended the worker process with exit code {exitcode}"


def format_bytes(size: int) -> str:
    """``4294967296`` -> ``'4 GiB'``."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale:
            return f"{size / scale:g} {unit}"
    return f"{size} bytes"


def worker_entry(fd: int) -> None:
    """The worker process (``python -c``): receive the target on socket ``fd``, serve it.

    Exits with ``os._exit`` after killing its descendants, so threads or
    ``atexit`` handlers left by the solver cannot keep it alive.
    """
    die_with_parent()
    become_subreaper()
    connection = Connection(fd)
    target, memory_limit, threads = connection.recv()
    try:
        _worker_main(connection, target, memory_limit, threads)
    finally:
        kill_descendants()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                continue
        os._exit(0)


def _worker_main(
    connection: Connection, target: Target, memory_limit: int | None, threads: int | None
) -> None:
    """The worker: load the solver, then answer calls until told to stop (``None``).

    A worker of more than one thread sets torch's intra-op threads itself
    before loading the target: ``OMP_NUM_THREADS`` above the machine's cores
    is capped to them when torch loads, and the threaded check
    (:mod:`knapsack_audit.threads`) needs more threads than a CI machine's two.
    """
    if memory_limit is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    if threads is not None and threads > 1:
        import torch  # only a threaded worker needs it before the target loads

        torch.set_num_threads(threads)
    worker = os.getpid()
    try:
        solver = load(target.entry.name, target.label)
    except TargetError as error:
        send_plain(connection, ("load-error", str(error)))
        return
    if os.getpid() != worker:  # the target forked while loading: the copy must not answer
        os._exit(0)
    kill_descendants()
    send_plain(connection, ("ready",))
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
                solver = load(request.target.entry.name, request.target.label)
            except TargetError as error:
                send_plain(connection, ("load-error", str(error)))
                continue
            send_plain(connection, ("ready",))
            continue
        reply: Any
        if isinstance(request, list):  # a batch: one reply for many calls
            reply = [_serve(solver, arguments, limit_note, worker) for arguments in request]
        else:
            reply = _serve(solver, request, limit_note, worker)
        try:
            message = pickle.dumps(reply)
        except Exception as error:
            cause = f"sending the answer: {type(error).__name__}: {_text(error)}"
            message = pickle.dumps(("tool-error", cause))
        connection.send_bytes(message)


def send_plain(connection: Connection, message: Any) -> None:
    """A worker's message to the auditing process, pickled by plain
    :mod:`pickle`: a ``Connection.send`` pickles with multiprocessing's
    reducers, which torch replaces for tensors by file descriptors shared
    through a listener of the sending process; a worker started by
    ``python -c`` has no key that listener accepts, so a solver that
    returned a tensor would seem to raise ``AuthenticationError``."""
    connection.send_bytes(pickle.dumps(message))


def receive_plain(connection: Connection) -> Any:
    """The worker's next message (:func:`send_plain`)."""
    return pickle.loads(connection.recv_bytes())


def _serve(solver: Any, request: tuple[Any, ...], limit_note: str, worker: int) -> tuple[Any, ...]:
    """One call and what follows it: the forked copy of a worker exits without
    answering, and descendants the call left are killed (a finding)."""
    reply = _answer(solver, request, limit_note)
    if os.getpid() != worker:  # the solver forked and this is the copy: it must not answer
        os._exit(0)
    left = kill_descendants()
    if left:
        return ("left-processes", left)
    return reply


def _answer(solver: Any, request: tuple[Any, ...], limit_note: str) -> tuple[Any, ...]:
    """Call the solver on one request and build the reply (SPEC 7.2, 8.2 data).

    A request is ``(memory, runtime, max_memory)``, or with a fourth entry, the
    number of timed repeats of a measured call (``knapsack-audit compare``,
    :func:`knapsack_audit.measure.measured_call`).

    A call of an odd number of items (not measured) is made as a caller of
    other settings than the defaults would make it
    (:data:`~knapsack_audit.process_state.UNUSUAL_CALLER`), and those are
    put back after it: a solver that resets a setting to its default
    instead of the value it found changes them (SPEC 8.6). By item count, so
    that a call made twice, or on the same items reordered, runs under the
    same settings both times.
    """
    memory, _, _, *repeats = request
    if repeats or len(memory) % 2 == 0:
        return _answer_as_found(solver, request, limit_note)
    usual = process_state.as_unusual_caller()
    try:
        return _answer_as_found(solver, request, limit_note)
    finally:
        process_state.restore(usual)


def _answer_as_found(solver: Any, request: tuple[Any, ...], limit_note: str) -> tuple[Any, ...]:
    """:func:`_answer` under the process's settings as they are."""
    memory, runtime, max_memory, *repeats = request
    # Unpickled, every float is an object of its own: runs of equal
    # neighbours are made one object again, as the caller built them (SPEC 4.6).
    memory, runtime = shared_runs(memory), shared_runs(runtime)
    before = (list(memory), list(runtime))
    settings = process_state.snapshot()
    try:
        if repeats:
            result = measured_call(solver, memory, runtime, max_memory, repeats[0])
        else:
            result = solver(memory, runtime, max_memory)
    except MemoryError as error:
        process_state.restore(settings)  # the crash is the finding; later calls start clean
        return ("raised", "MemoryError", f"out of memory{limit_note} {_text(error)}".strip())
    except (Exception, SystemExit) as error:
        process_state.restore(settings)
        return ("raised", type(error).__name__, _text(error))
    changed = process_state.changes(settings)
    if changed:
        process_state.restore(settings)
        return ("changed-settings", changed)
    max_entries = len(before[0]) + SPARE_ENTRIES
    try:
        mutated = None
        if not (same_values(memory, before[0]) and same_values(runtime, before[1])):
            mutated = (portable(memory, max_entries), portable(runtime, max_entries))
        reply = ("returned", portable(result, max_entries), mutated)
    except Exception as error:
        return ("tool-error", f"converting the answer: {type(error).__name__}: {_text(error)}")
    if not repeats:
        hand_over(result, memory, runtime)
    return reply


CALLER_ENTRY = "written by the caller into a list of an earlier answer"
"""What :func:`hand_over` leaves in each list it reuses (SPEC 8.4)."""


def hand_over(answer: Any, *inputs: Any) -> None:
    """Reuse every ``list`` in ``answer`` (itself, or one of its entries) once
    it has been read, as a caller that owns the lists it got would: clear
    it and write one entry of its own, :data:`CALLER_ENTRY` (SPEC 8.4). A
    solver that hands out lists it keeps (a cache of answers, one module
    list for "nothing saved") then gives a later call a list holding that
    entry, which no valid answer holds. The call's own ``inputs`` are left
    alone (returning one is another failure)."""
    parts = [answer, *answer] if isinstance(answer, list | tuple) else [answer]
    for part in parts:
        if type(part) is list and not any(part is given for given in inputs):
            part[:] = [CALLER_ENTRY]


MAX_MESSAGE_CHARS = 2000
"""An exception message longer than this is cut (a solver may raise a huge one)."""


def _text(error: BaseException) -> str:
    """``str(error)``, cut to :data:`MAX_MESSAGE_CHARS`; a failing ``str`` is described."""
    try:
        text = str(error)
    except Exception as failure:
        return f"<str of the exception failed: {type(failure).__name__}>"
    return text if len(text) <= MAX_MESSAGE_CHARS else text[:MAX_MESSAGE_CHARS] + "..."


class IsolatedSolver:
    """A solver proxy that runs ``target`` in a worker process (see the module doc).

    Args:
        target: what to load in the worker.
        call_timeout: seconds per call before the worker is killed.
        memory_limit: ``RLIMIT_AS`` of the worker in bytes (``None``: no limit).
        load_timeout: seconds the worker may take to load the target.
        sandbox: run the worker under bubblewrap (:mod:`.sandbox`); raises
            :class:`~knapsack_audit.sandbox.SandboxUnavailable` on start
            if it cannot work here.
        threads: the worker's ``OMP_NUM_THREADS`` (:data:`AUDIT_THREADS`),
            unless the environment sets it; ``None``: torch's default. Over
            1, the worker also sets torch's threads to it before loading the
            target (``OMP_NUM_THREADS`` is capped at the cores).
        hash_seed: the worker's ``PYTHONHASHSEED``; ``None``: the
            environment's (unset: a random one per process).

    Attributes:
        call_timeout: seconds per call, or per batch of calls (settable).
        calls: number of calls made.
        recent: the last :data:`RECENT_CALLS` calls made to the current
            worker, oldest first, as they were sent (cleared when a worker
            starts: a new process has none of the old one's state).
        first_of_shape: per item count and budget, the first call made with
            them to the current worker (cleared likewise; at most
            :data:`FIRST_OF_SHAPE_ITEMS` items in all): the call a cache keyed
            by size and budget answers every later one with (SPEC 8.1).
        stdout, stderr: what every worker so far printed (bounded).
    """

    def __init__(
        self,
        target: Target,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
        load_timeout: float = DEFAULT_LOAD_TIMEOUT,
        sandbox: bool = False,
        threads: int | None = AUDIT_THREADS,
        hash_seed: int | None = None,
    ) -> None:
        self.target = target
        self.threads = threads
        self.hash_seed = hash_seed
        self.call_timeout = call_timeout
        self.memory_limit = memory_limit
        self.load_timeout = load_timeout
        self.sandbox = sandbox
        self.calls = 0
        self.recent: deque[Case] = deque(maxlen=RECENT_CALLS)
        self.first_of_shape: dict[tuple[int, float], Case] = {}
        self._kept_items = 0
        self.stdout = CapturedStream("stdout")
        self.stderr = CapturedStream("stderr")
        self._process: subprocess.Popen[bytes] | None = None
        self._connection: Connection | None = None
        self._status: int | None = None
        """Read end of the keeper's status pipe (:func:`~.processes.keep`)."""
        self._control: int | None = None
        """Write end of the keeper's control pipe: a byte stops the worker."""
        self._status_log = ""
        self._pending: tuple[float, float, str] | None = None
        """A request sent and not yet answered: its deadline, timeout and note."""
        self._sends = 0

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
        """The current keeper's process id (the worker's parent), if one is running."""
        return None if self._process is None else self._process.pid

    def start(self) -> None:
        """Start the worker and wait until it has loaded the target.

        Raises:
            TargetError: the target could not be loaded, or loading timed out
                or killed the worker.
            SandboxUnavailable: ``sandbox`` was asked for and cannot work here.
        """
        self.close()
        self._forget_calls()
        if self.sandbox:
            require_sandbox()
        parent_end, child_end = socket.socketpair()
        status_read, status_write = os.pipe()
        control_read, control_write = os.pipe()
        worker = [
            sys.executable,
            "-c",
            "from knapsack_audit.isolation import worker_entry; "
            f"worker_entry({child_end.fileno()})",
        ]
        command = [
            sys.executable,
            "-c",
            "from knapsack_audit.processes import keep; "
            f"keep({status_write}, {control_read}, {worker!r})",
        ]
        if self.sandbox:
            command = sandboxed(command, self.target.path)
        environment = None
        if self.threads is not None and "OMP_NUM_THREADS" not in os.environ:
            environment = {**os.environ, "OMP_NUM_THREADS": str(self.threads)}
        if self.hash_seed is not None:
            environment = {**(environment or os.environ), "PYTHONHASHSEED": str(self.hash_seed)}
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        try:
            process = subprocess.Popen(
                command,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=out_write,
                stderr=err_write,
                pass_fds=(child_end.fileno(), status_write, control_read),
                start_new_session=True,
            )
        finally:
            for fd in (out_write, err_write, status_write, control_read):
                os.close(fd)
            child_end.close()
        self.stdout.drain(out_read)
        self.stderr.drain(err_read)
        connection = Connection(parent_end.detach())
        self._process, self._connection = process, connection
        self._status, self._control, self._status_log = status_read, control_write, ""
        connection.send((self.target, self.memory_limit, self.threads))
        if self._wait(self.load_timeout) == "timeout":
            self.close(kill=True)
            raise TargetError(
                f"target {self.target.label}: loading took more than {self.load_timeout:g} s"
            )
        try:
            reply = receive_plain(connection)
        except (EOFError, OSError):  # closed, or reset by a dying worker
            raise TargetError(
                f"target {self.target.label}: loading it ended the process ({self._reap()})"
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

    def measure(
        self, memory: list[Any], runtime: list[Any], max_memory: Any, repeats: int
    ) -> tuple[Any, list[float], list[int]]:
        """A warm-up call and ``repeats`` timed ones in the worker
        (:func:`knapsack_audit.measure.measured_call`): the warm-up's answer,
        then each repeat's seconds and peak bytes. The request may take
        ``call_timeout * (1 + repeats)``.
        """
        timeout = self.call_timeout * (1 + repeats)
        reply = self._exchange((memory, runtime, max_memory, repeats), timeout, " (measured)")
        answer, seconds, peaks = _unpack(reply, memory, runtime)
        return answer, seconds, peaks

    def call_many(self, arguments: list[tuple[list[Any], list[Any], Any]]) -> list[Any]:
        """Many calls in one message; per call the answer or the :class:`SolverFailure`.

        Raises:
            SolverTimeout: the whole batch took longer than ``call_timeout``
                (the worker was killed; which call hung is unknown).
            WorkerDied: the worker ended during the batch.
        """
        replies = self._exchange(list(arguments), self.call_timeout, f" for {len(arguments)} calls")
        if not isinstance(replies, list):  # the batch's answer could not be sent
            replies = [replies] * len(arguments)
        answers: list[Any] = []
        for reply, (memory, runtime, _) in zip(replies, arguments, strict=True):
            try:
                answers.append(_unpack(reply, memory, runtime))
            except SolverFailure as failure:
                answers.append(failure)
        return answers

    def first_call_like(self, case: Case) -> Case | None:
        """The first call made to the current worker with ``case``'s item count
        and budget (:attr:`first_of_shape`), if one was kept."""
        with contextlib.suppress(TypeError):  # a budget that cannot be hashed (bad input)
            return self.first_of_shape.get((case.n, case.max_memory))
        return None

    def _remember(self, case: Case) -> None:
        self.recent.append(case)
        if self._kept_items + case.n > FIRST_OF_SHAPE_ITEMS:
            return
        with contextlib.suppress(TypeError):  # a budget that cannot be hashed (bad input)
            if self.first_of_shape.setdefault((case.n, case.max_memory), case) is case:
                self._kept_items += case.n

    def _forget_calls(self) -> None:
        self.recent.clear()
        self.first_of_shape.clear()
        self._kept_items = 0

    def submit(self, memory: list[Any], runtime: list[Any], max_memory: Any) -> Callable[[], Any]:
        """Send a call and return at once, so that the caller works while the
        worker computes; the returned function waits for the answer and gives
        what :meth:`__call__` would (answer, or raise). The call timeout counts
        from the send.

        Another request first waits for a submitted call's answer, and drops
        it if it was not collected; collecting it then raises ``RuntimeError``
        (the tool's own misuse, not the solver's fault).
        """
        self._send((memory, runtime, max_memory), self.call_timeout, "")
        sent = self._sends

        def collect() -> Any:
            if sent != self._sends or self._pending is None:
                raise RuntimeError("a submitted call was collected after another request")
            return _unpack(self._receive(), memory, runtime)

        return collect

    def _exchange(self, request: Any, timeout: float, what: str) -> Any:
        self._send(request, timeout, what)
        return self._receive()

    def _send(self, request: Any, timeout: float, what: str) -> None:
        """Send ``request``, to be answered within ``timeout`` seconds from now
        (:meth:`_receive` waits for the answer)."""
        if self._pending is not None:
            with contextlib.suppress(SolverFailure):
                self._receive()  # a submitted call never collected: its answer is dropped
        if self._connection is None:
            self.start()
        connection = self._connection
        assert connection is not None
        if isinstance(request, Load):
            self._forget_calls()
        else:
            for arguments in request if isinstance(request, list) else [request[:3]]:
                self._remember(Case.of(*arguments))
        self.calls += (
            len(request) if isinstance(request, list) else int(not isinstance(request, Load))
        )
        try:
            connection.send(request)
        except OSError:
            raise WorkerDied(self._reap()) from None
        self._sends += 1
        self._pending = (time.monotonic() + timeout, timeout, what)

    def _receive(self) -> Any:
        """The answer to the request sent last, waited for until its deadline."""
        assert self._pending is not None
        deadline, timeout, what = self._pending
        self._pending = None
        connection = self._connection
        assert connection is not None
        waited = self._wait(deadline - time.monotonic())
        if waited == "timeout":
            self.close(kill=True)
            raise SolverTimeout(
                f"no answer within the call timeout of {timeout:g} s{what} (the worker was killed)"
            )
        if waited == "died":
            raise WorkerDied(self._reap())
        try:
            return receive_plain(connection)
        except (EOFError, OSError):  # closed, or reset by a dying worker
            raise WorkerDied(self._reap()) from None
        except Exception as error:  # the tool's own failure, not the solver's
            self.close(kill=True)
            raise ToolFailure(
                "knapsack-audit failed while receiving the answer, "
                f"{type(error).__name__}: {_text(error)}"
            ) from None

    def _wait(self, timeout: float) -> str:
        """``'reply'`` once the worker has answered (or closed the socket), ``'died'``
        if it exited without doing either (a forked child may still hold the
        socket open), ``'timeout'`` after ``timeout`` seconds."""
        connection, process = self._connection, self._process
        assert connection is not None and process is not None
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if connection.poll(max(0.0, min(_POLL_SECONDS, remaining))):
                return "reply"
            if _has_exited(process.pid):
                return "reply" if connection.poll() else "died"
            if remaining <= 0:
                return "timeout"

    def _reap(self) -> str:
        """Wait briefly for a dying worker, forget it, and say in words how it ended.

        The keeper reports the worker's exit code; a keeper that ended
        without doing so was killed, and only the solver (its child) had
        reason to: "the solver killed its parent process".
        """
        process = self._process
        if process is None:
            return describe_exit(None)
        deadline = time.monotonic() + 5
        while not _has_exited(process.pid) and time.monotonic() < deadline:
            time.sleep(_POLL_SECONDS)
        status = self._status_text()
        self.close(kill=True)
        _, exitcode = read_status(status)
        if exitcode is not None:
            return describe_exit(exitcode)
        keeper = process.returncode
        if self.sandbox and keeper is not None and keeper > 128:
            keeper = -(keeper - 128)  # bwrap exits 128 + N for a child killed by signal N
        if keeper is not None and keeper < 0:
            name = signal.Signals(-keeper).name
            return f"the solver killed its parent process (the worker's keeper got {name})"
        return describe_exit(None)

    def _status_text(self) -> str:
        """Everything the keeper wrote on its status pipe so far (two short lines at most)."""
        if self._status is not None:
            self._status_log += _read_ready(self._status)
        return self._status_log

    def close(self, kill: bool = False) -> None:
        """Stop the worker: ask it to exit (or ``kill`` it at once, through the
        keeper); then kill the keeper's process group and reap it. The worker
        kills its own descendants first, the keeper the worker's group and the
        orphans it adopted."""
        process, connection = self._process, self._connection
        self._process, self._connection, self._pending = None, None, None
        if connection is not None:
            try:
                if not kill and process is not None and not _has_exited(process.pid):
                    connection.send(None)
            except OSError:
                pass
            connection.close()
        if process is not None:
            if kill and self._control is not None:
                _poke(self._control)
            deadline = time.monotonic() + (5 if kill else 1)
            while not _has_exited(process.pid) and time.monotonic() < deadline:
                time.sleep(0.01)
            kill_group(process.pid)  # the leader is not yet reaped, so its group id is still ours
            process.wait()
            worker, exitcode = read_status(self._status_text())
            if worker is not None and exitcode is None and not self.sandbox:
                kill_group(worker)  # the keeper was killed: the worker's group is left
        for fd in (self._status, self._control):
            if fd is not None:
                os.close(fd)
        self._status = self._control = None

    def captured_output(self) -> list[StreamSummary]:
        """What the solver printed (call after :meth:`close`: waits for the pipes to drain)."""
        for stream in (self.stdout, self.stderr):
            stream.stop()
        return [self.stdout.summary(), self.stderr.summary()]


def _poke(control: int) -> None:
    """Ask a keeper to kill its worker now (a byte on its control pipe)."""
    try:
        os.write(control, b"k")
    except OSError:  # the keeper is gone
        return


def _read_ready(fd: int) -> str:
    """What can be read from ``fd`` now, without blocking."""
    os.set_blocking(fd, False)
    chunks = []
    try:
        while chunk := os.read(fd, 4096):
            chunks.append(chunk)
    except BlockingIOError:
        pass
    return b"".join(chunks).decode("ascii", errors="replace")


def _has_exited(pid: int) -> bool:
    """Whether child ``pid`` has exited, without reaping it (its pid stays reserved)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _unpack(reply: tuple[Any, ...], memory: list[Any], runtime: list[Any]) -> Any:
    """A worker's reply to one call: the result (mutations applied), or raise."""
    if reply[0] == "raised":
        raise raised_type(reply[1])(reply[2])
    if reply[0] == "left-processes":
        count = reply[1]
        raise LeftProcessesRunning(
            f"the solver left {count} process{'es' if count > 1 else ''} running "
            "after the call (the worker killed them)"
        )
    if reply[0] == "changed-settings":
        raise ChangedSettings(
            f"the call changed {'; '.join(reply[1])}, and left it so (the worker put it back)"
        )
    if reply[0] == "tool-error":
        raise ToolFailure(f"knapsack-audit failed while handling the answer, {reply[1]}")
    _, result, mutated = reply
    if mutated is not None:
        # An Oversized list cannot be applied; a one-entry list holding it
        # still differs from the input, which is what the engine checks.
        memory[:], runtime[:] = (part if isinstance(part, list) else [part] for part in mutated)
    return result
