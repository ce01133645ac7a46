"""The worker's process tree: adopt every descendant, and kill what a call leaves behind.

A solver under audit may start processes (``subprocess.Popen``, ``os.fork``,
a ``multiprocessing`` pool) and return without stopping them. The worker
(:mod:`knapsack_audit.isolation`) therefore

* becomes a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``, Linux 3.4+):
  a descendant whose parent exits is re-parented to the worker instead of to
  init, so the whole tree stays under the worker, even across ``setsid``;
* runs in its own session and process group (``setsid``), so a solver's
  ``os.kill(0, sig)`` or ``os.killpg(os.getpgrp(), sig)`` reaches only the
  worker and what it started;
* after every call, and before it exits, kills every descendant it finds
  (:func:`kill_descendants`) and reaps them, and reports how many there were.

The worker's parent is not the auditing process but a *keeper*
(:func:`keep`), a small process the auditor starts (in a session of its
own), that starts the worker and waits for it. A solver that signals its
parent (``os.kill(os.getppid(), SIGKILL)``) kills the keeper, not the
auditor: the worker dies with it (``PR_SET_PDEATHSIG``) and the auditor,
seeing the keeper end without reporting the worker's exit, says so. The
keeper reports on a status pipe, one line each: ``worker PID`` once started,
``exit CODE`` when the worker has ended (``-N`` for signal ``N``).

Invariant after :func:`kill_descendants` returns: the worker has no child,
living or zombie (up to :data:`SWEEP_SECONDS` against a process that forks
faster than it is killed).
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import sys
import time

_PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal this process gets when its parent dies."""

_PR_SET_CHILD_SUBREAPER = 36
"""``prctl`` option: orphaned descendants are re-parented to this process."""

SWEEP_SECONDS = 5.0
"""How long :func:`kill_descendants` keeps killing a tree that keeps forking."""


def _prctl(option: int, argument: int) -> None:
    """Call Linux ``prctl``; elsewhere (or without libc) do nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, argument)
    except (OSError, AttributeError):
        return


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (``PR_SET_PDEATHSIG``).

    Without it, a worker stuck in a hanging solver would outlive an auditing
    process that was itself killed.
    """
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def become_subreaper() -> None:
    """Adopt orphaned descendants (``PR_SET_CHILD_SUBREAPER``)."""
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def children(pid: int) -> list[int]:
    """Direct children of ``pid`` (every thread's), from ``/proc``; zombies included.

    Plain ``os`` calls: this runs after every solver call.
    """
    found: list[int] = []
    tasks = f"/proc/{pid}/task"
    try:
        threads = os.listdir(tasks)
    except OSError:
        return found
    for thread in threads:
        try:
            fd = os.open(f"{tasks}/{thread}/children", os.O_RDONLY)
        except OSError:
            continue
        try:
            found += [int(child) for child in _read_all(fd).split()]
        except OSError:
            continue
        finally:
            os.close(fd)
    return found


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` in the tree, parents before children."""
    found: list[int] = []
    frontier = [pid]
    while frontier:
        below = [child for parent in frontier for child in children(parent)]
        found += below
        frontier = below
    return found


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as status:
            stat = status.read()
    except OSError:
        return True  # already gone
    return stat.rpartition(")")[2].split()[0] in ("Z", "X")


def _has_children() -> bool:
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return True


def _reap_children() -> None:
    """``waitpid`` every child that has exited, without blocking."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_descendants() -> int:
    """SIGKILL and reap every descendant of this process; return how many were alive.

    Freezing is not needed: each round kills what it sees, and a process
    forked meanwhile is a child of a killed one, so it is re-parented to us
    (a subreaper) and seen in the next round. Fast path (one system call,
    the usual case after a call): with no child at all, living or zombie,
    there is no descendant either, since orphans are re-parented to us.
    """
    if not _has_children():
        return 0
    killed: set[int] = set()
    me = os.getpid()
    deadline = time.monotonic() + SWEEP_SECONDS
    while time.monotonic() < deadline:
        alive = [pid for pid in descendants(me) if not _is_zombie(pid)]
        if not alive:
            break
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            killed.add(pid)
        _reap_children()
        time.sleep(0.001)
    _reap_children()
    return len(killed)


def kill_group(pgid: int) -> None:
    """SIGKILL process group ``pgid``, if any of it is left."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return


def keep(status_fd: int, control_fd: int, command: list[str]) -> None:
    """The keeper (``python -c``): run ``command`` (the worker) and report how it ends.

    Starts the worker in a new session (:func:`os.setsid`) with
    ``PR_SET_PDEATHSIG``, writes ``worker PID`` to ``status_fd``, waits for
    it, writes ``exit CODE``, kills what is left of the worker's process
    group and every orphan it adopted (it is a subreaper), and exits 0.
    Anything arriving on ``control_fd`` (or its end of file: the auditor is
    gone) means "stop the worker now": its process group is killed. The
    request comes on a pipe, not as a signal, so a solver signalling its
    parent is never mistaken for the auditor. Never returns.
    """
    die_with_parent()
    become_subreaper()
    keeper = os.getpid()
    worker = os.fork()
    if worker == 0:
        try:
            os.close(status_fd)
            os.close(control_fd)
            os.setsid()
            die_with_parent()
            if os.getppid() != keeper:  # the keeper died before the line above
                os._exit(1)
            os.execv(command[0], command)
        finally:
            os._exit(127)
    os.write(status_fd, f"worker {worker}\n".encode())
    ended = _wait_or_stop(worker, control_fd)
    code = ended.si_status if ended.si_code == os.CLD_EXITED else -ended.si_status
    os.write(status_fd, f"exit {code}\n".encode())
    kill_group(worker)  # not yet reaped, so the group id is still the worker's
    os.waitpid(worker, 0)
    kill_descendants()
    os._exit(0)


def _wait_or_stop(worker: int, control_fd: int) -> os.waitid_result:
    """Wait (without reaping) until ``worker`` exits; kill its group if asked to stop."""
    pidfd = os.pidfd_open(worker)
    watch = select.poll()
    watch.register(pidfd, select.POLLIN)
    watch.register(control_fd, select.POLLIN)
    while True:
        ended = os.waitid(os.P_PID, worker, os.WEXITED | os.WNOWAIT | os.WNOHANG)
        if ended is not None:
            return ended
        for fd, _ in watch.poll():
            if fd == control_fd:
                watch.unregister(control_fd)
                kill_group(worker)


def read_status(text: str) -> tuple[int | None, int | None]:
    """The worker's pid and exit code from a keeper's status lines (``None``: not said).

    >>> read_status("worker 41\\nexit -9\\n")
    (41, -9)
    >>> read_status("worker 41\\n")
    (41, None)
    """
    worker = code = None
    for line in text.splitlines():
        word, _, number = line.partition(" ")
        if word == "worker":
            worker = int(number)
        elif word == "exit":
            code = int(number)
    return worker, code
