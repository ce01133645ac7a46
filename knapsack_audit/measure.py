"""Time and peak memory of one solver call, measured inside the worker process.

``knapsack-audit compare`` (:mod:`knapsack_audit.compare`) asks the isolated
worker (:mod:`knapsack_audit.isolation`) for a *measured call*; each
solver's worker runs :func:`measured_call` in its own process:

1. a warm-up call on the arguments themselves: its answer is the one judged
   (and the worker's mutation check sees its lists), and it pays the
   one-time costs (torch's lazy kernel set-up, dispatch caches) that a
   solver inside the partitioner has already paid;
2. ``repeats`` timed calls, each on fresh copies of the original arguments.
   Before each, freed memory goes back to the kernel (``gc.collect()``,
   ``malloc_trim(0)``; objects that existed before the measured call are
   moved out of the collector's reach with ``gc.freeze()`` first, or a full
   collection in a process that imported torch would cost ~0.2 s) and the
   peak resident set ``VmHWM`` is reset to the current one (``5`` written
   to ``/proc/self/clear_refs``, Linux >= 4.0); after it, ``VmHWM`` minus
   the resident set before the call (``VmHWM`` right after the reset) is
   that call's peak, and :func:`time.perf_counter` gives its time.

Peaks are page-granular and only count memory the call touched beyond what
the allocator already held, so small peaks (below about a MiB) are noise;
:mod:`knapsack_audit.compare` only forms memory ratios above a floor.
Where ``VmHWM`` cannot be reset (not Linux), peaks are reported as ``-1``.
"""

from __future__ import annotations

import contextlib
import copy
import ctypes
import functools
import gc
import os
import time
from collections.abc import Callable
from typing import Any

KIB = 1024
"""Bytes per KiB, the unit of ``/proc/self/status``."""


@functools.cache
def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


def _status_bytes(field: bytes) -> int:
    """A ``/proc/self/status`` size field (``b"VmHWM"``) in bytes."""
    descriptor = os.open("/proc/self/status", os.O_RDONLY)
    try:
        status = os.read(descriptor, 1 << 16)
    finally:
        os.close(descriptor)
    start = status.index(field + b":") + len(field) + 1
    return int(status[start : status.index(b"kB", start)]) * KIB


def _reset_peak() -> int | None:
    """Release freed memory, reset ``VmHWM``; return the resident set in bytes."""
    gc.collect()
    libc = _libc()
    if libc is not None:
        with contextlib.suppress(AttributeError):
            libc.malloc_trim(0)
    try:
        descriptor = os.open("/proc/self/clear_refs", os.O_WRONLY)
        try:
            os.write(descriptor, b"5")
        finally:
            os.close(descriptor)
        return _status_bytes(b"VmHWM")
    except (OSError, ValueError):
        return None


def measured_call(
    solver: Callable[..., Any],
    memory: list[Any],
    runtime: list[Any],
    max_memory: Any,
    repeats: int,
) -> tuple[Any, list[float], list[int]]:
    """The warm-up call's answer, then each timed repeat's seconds and peak bytes.

    An exception of the warm-up or of a repeat propagates, as from a plain
    call. A peak is ``-1`` where ``VmHWM`` cannot be reset.
    """
    gc.freeze()
    original = (copy.copy(memory), copy.copy(runtime))
    answer = solver(memory, runtime, max_memory)
    seconds: list[float] = []
    peaks: list[int] = []
    for _ in range(repeats):
        arguments = (copy.copy(original[0]), copy.copy(original[1]), max_memory)
        resident = _reset_peak()
        started = time.perf_counter()
        solver(*arguments)
        seconds.append(time.perf_counter() - started)
        peaks.append(-1 if resident is None else max(0, _status_bytes(b"VmHWM") - resident))
    return answer, seconds, peaks
