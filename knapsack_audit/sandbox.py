"""``--sandbox``: run the worker under bubblewrap (``bwrap``), as Flatpak runs untrusted apps.

Protections (each a ``bwrap`` option), on top of the default isolation of
:mod:`knapsack_audit.isolation`:

=====================  ====================================================
protection             how
=====================  ====================================================
read-only file system  ``--ro-bind / /``: the solver can read, not write or
                       delete, anything outside its private ``/tmp``
private temporary dir  ``--tmpfs /tmp`` (and ``TMPDIR=/tmp``), gone with it
no network             ``--unshare-net``: a loopback device of its own only
own PID namespace      ``--unshare-pid``: it sees only its own processes, so
                       it cannot signal the auditor; when its init ends, the
                       kernel kills everything left in the namespace
die with the parent    ``--die-with-parent``
new session            ``--new-session``: no controlling terminal to inject
                       keystrokes into (``TIOCSTI``)
=====================  ====================================================

plus new IPC, UTS, cgroup and user namespaces (``--unshare-all``). A file
target under ``/tmp`` is bound read-only at its own path so it can load.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys

from knapsack_audit.targets import TargetError

PROTECTIONS = (
    "read-only file system",
    "private /tmp",
    "no network",
    "own PID namespace",
    "dies with the auditor",
    "new session",
)
"""What ``--sandbox`` turns on, in words (reports list them)."""


class SandboxUnavailable(TargetError):
    """``--sandbox`` was asked for but cannot work here; the message says why.

    A :class:`TargetError`: the target cannot be audited as asked (exit code 2).
    """


@functools.cache
def sandbox_problem() -> str | None:
    """Why the sandbox cannot work on this machine, or ``None`` if it can.

    Runs ``bwrap ... true`` once: user namespaces may be disabled
    (``kernel.unprivileged_userns_clone``, container seccomp profiles).
    """
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap is not installed (no bwrap on PATH; apt-get install bubblewrap)"
    try:
        probe = subprocess.run(
            [*bwrap_arguments(bwrap, []), "true"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{bwrap} could not be run: {error}"
    if probe.returncode != 0:
        return f"{bwrap} fails here (exit code {probe.returncode}): {probe.stderr.strip()}"
    return None


def require_sandbox() -> None:
    """Raise :class:`SandboxUnavailable` with the reason if the sandbox cannot work."""
    problem = sandbox_problem()
    if problem is not None:
        raise SandboxUnavailable(f"--sandbox is not available: {problem}")


def describe_sandbox(enabled: bool) -> str:
    """For reports: ``'on (read-only file system, ...)'``, or ``'off'`` and why."""
    if enabled:
        return f"on ({', '.join(PROTECTIONS)})"
    problem = sandbox_problem()
    return "off" if problem is None else f"off, not available: {problem}"


def bwrap_arguments(bwrap: str, readable: list[str]) -> list[str]:
    """The ``bwrap`` command line up to the sandboxed command (see the module doc).

    Args:
        bwrap: path of the ``bwrap`` executable.
        readable: directories under ``/tmp`` to bind read-only (file targets).
    """
    arguments = [
        bwrap,
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--tmpfs",
        "/tmp",
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--setenv",
        "TMPDIR",
        "/tmp",
        "--chdir",
        "/tmp",
    ]
    for directory in readable:
        arguments += ["--ro-bind", directory, directory]
    return [*arguments, "--"]


def sandboxed(command: list[str], target_path: str | None) -> list[str]:
    """``command`` run inside the sandbox (call :func:`require_sandbox` first)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(f"--sandbox is not available: {sandbox_problem()}")
    # The private /tmp hides whatever lives under the real one: bind back,
    # read-only, the target's folder and the interpreter's environment (a
    # virtual environment made under /tmp, as a wheel test makes).
    places = [sys.prefix, *sys.path]
    if target_path is not None:
        places.append(os.path.dirname(os.path.abspath(target_path)))
    readable: list[str] = []
    for place in places:
        directory = os.path.abspath(place) if place else ""
        under_tmp = directory == "/tmp" or directory.startswith("/tmp/")
        if under_tmp and os.path.isdir(directory) and directory not in readable:
            readable.append(directory)
    return [*bwrap_arguments(bwrap, readable), *command]
