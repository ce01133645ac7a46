"""How this project times solvers: one method, shared by every speed figure.

Two measurements live here, and every timing the package or ``benchmarks/``
reports comes from one of them:

* :func:`measured_call` (time and peak memory of one solver in its own
  process, below);
* :func:`interleaved` (several solvers on one call in one process, their
  timed calls interleaved; the ``paired`` grid of
  ``benchmarks/workload.py``, the golden time ratios of
  :mod:`knapsack_audit.golden.findings` and the release report), with
  :func:`per_round_ratio` and :func:`spread` to read its rounds.

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
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
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


INTERLEAVED_METHOD = (
    "interleaved in one process: an untimed warm-up call of each solver, then {repeats} "
    "rounds of one timed call each, the order rotating; a ratio is the median over "
    "rounds of the two solvers' times in the same round"
)
"""How :func:`interleaved` times, for the label beside each figure (``{repeats}``)."""


def interleaved(calls: Mapping[str, Callable[[], object]], repeats: int) -> dict[str, list[float]]:
    """``repeats`` rounds of one timed call of each of ``calls``; seconds per call.

    The caller has made one untimed call of each already (the warm-up: it pays
    the one-time costs and, in the golden replay, its answer is the one
    judged). Round ``r`` starts at the ``r``-th call in ``calls``' order and
    goes round, so no solver always runs first. A round's calls are
    milliseconds apart, so the slow and fast phases a shared machine drifts
    through (the same solve measured 0.44 and 0.82 ms a few seconds apart)
    hit them alike, which timing each solver in its own run does not: compare
    solvers with :func:`per_round_ratio`. An exception propagates.

    >>> times = interleaved({"a": lambda: None, "b": lambda: None}, 3)
    >>> sorted(times), [len(seconds) for seconds in times.values()]
    (['a', 'b'], [3, 3])
    """
    names = list(calls)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for round_number in range(repeats):
        start = round_number % len(names) if names else 0
        for name in names[start:] + names[:start]:
            started = time.perf_counter()
            calls[name]()
            seconds[name].append(time.perf_counter() - started)
    return seconds


def per_round_ratio(numerator: Sequence[float], denominator: Sequence[float]) -> float:
    """Median over rounds of ``numerator[r] / denominator[r]`` (rounds of :func:`interleaved`).

    >>> per_round_ratio([2.0, 9.0, 4.0], [1.0, 1.0, 2.0])
    2.0
    """
    return statistics.median(a / b for a, b in zip(numerator, denominator, strict=True) if b > 0)


def spread(values: Sequence[float]) -> float:
    """``3 * MAD / median`` of repeated measurements: their relative noise.

    MAD is the median absolute deviation, which one stalled repeat does not
    move; for normal noise ``3 * MAD`` is about two standard deviations.

    >>> round(spread([1.0, 1.0, 1.2, 0.8, 5.0]), 6)
    0.6
    """
    middle = statistics.median(values)
    deviation = statistics.median(abs(value - middle) for value in values)
    return 3 * deviation / middle if middle > 0 else 0.0
