"""The worker's process tree: adopt every descendant, and kill what a call leaves behind.

A solver under audit may start processes (``subprocess.Popen``, ``os.fork``,
a ``multiprocessing`` pool) and return without stopping them. The worker
(:mod:`knapsack_audit.isolation`) therefore

* becomes a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``, Linux 3.4+):
  a descendant whose parent exits is re-parented to the worker instead of to
  init, so the whole tree stays under the worker, even across ``setsid``;
* runs in its own session and process group (the auditor starts it with
  ``start_new_session``), so the auditor can kill the group if the worker
  itself dies;
* after every call, and before it exits, kills every descendant it finds
  (:func:`kill_descendants`) and reaps them, and reports how many there were.

Invariant after :func:`kill_descendants` returns: the worker has no child,
living or zombie (up to :data:`SWEEP_SECONDS` against a process that forks
faster than it is killed).
"""

from __future__ import annotations

import ctypes
import os
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
