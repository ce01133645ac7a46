"""One timed solve in a fresh process: ``python -m benchmarks.worker < job.json``.

:mod:`benchmarks.run` starts this module once per (cell, solver, repeat) with
:func:`subprocess.run`, i.e. fork + exec of a new interpreter. The job is a
JSON object on stdin; the result is one JSON line on stdout, prefixed with
:data:`RESULT_MARKER` so that anything a solver prints is ignored.

Order of events in the child:

1. ``RLIMIT_AS`` is set to the job's memory cap, before anything else is
   imported, so an allocation beyond it fails (``MemoryError`` in Python,
   ``RuntimeError: ... can't allocate memory`` from torch, ``std::bad_alloc``
   from C++) instead of pushing the machine into swap or the OOM killer.
2. The solver's modules are imported and the instance is generated.
   One *warm-up* solve of the instance of the same family, ``n`` and seed
   with ``Q`` capped at :data:`WARMUP_CAPACITY` (for smaller ``Q`` that is the
   measured instance itself, so the measured solve touches no kernel code
   for the first time) runs first, for
   every solver alike, so that one-time costs (torch's lazy kernel and
   allocator set-up, first-call dispatch caches, code pages of kernels for
   the family's dtypes; milliseconds and a few MiB) are not charged to the
   measured solve: in the partitioner the solver runs in a process that has
   already used torch. A warm-up that fails is ignored (the measured solve
   reports the failure).
3. Memory the warm-up freed is returned to the kernel (``malloc_trim(0)``,
   after ``gc.collect()``), so the measured solve cannot hide its buffers in
   it, and ``VmHWM`` is reset to the current resident set (``5`` written to
   ``/proc/self/clear_refs``, Linux >= 4.0). ``VmHWM`` (peak resident set of
   this process) is read from ``/proc/self/status``: the *baseline*. If the
   reset is refused, ``hwm_reset`` is false in the record and the baseline
   includes the warm-up's peak.
4. The solve runs, timed with :func:`time.perf_counter`.
5. ``VmHWM`` is read again: the *peak*. ``peak - baseline`` is what the solve
   itself added on top of the interpreter, its imports and the instance.

Why a fresh, exec'd process: ``VmHWM`` belongs to the address space. A
forked child without exec starts with its parent's resident pages counted, and
``getrusage(RUSAGE_CHILDREN).ru_maxrss`` even keeps the pre-exec maximum. After
exec the new address space starts from zero, so the child's ``VmHWM`` is its
own. A fresh process per run also keeps allocator caches and torch's thread
pool from leaking one solve's state into the next.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import math
import resource
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any, cast

from knapsack_audit import catalog

RESULT_MARKER = "BENCH-RESULT "
SOLVERS = (
    "reference",
    "optimized",
    "upstream_dp",
    "upstream_hirschberg",
    "greedy",
    "milp",
    "ortools",
)
"""Every solver :func:`load_solver` knows, in report order."""
CATALOG_NAMES = {
    "reference": catalog.REFERENCE,
    "optimized": catalog.OPTIMIZED,
    "upstream_dp": f"{catalog.TORCH_MODULE}:dp_knapsack",
    "upstream_hirschberg": f"{catalog.TORCH_MODULE}:{catalog.TORCH_HIRSCHBERG}",
    "greedy": f"{catalog.TORCH_MODULE}:greedy_knapsack",
}
"""The solvers :func:`load_solver` takes from :mod:`knapsack_audit.catalog`."""

WARMUP_CAPACITY = 100_000
"""Largest ``Q`` of the warm-up instance (see the module docstring)."""

Solver = Callable[[list[float], list[float], float], tuple[float, list[int], list[int]]]


def read_vm_kib(field: str) -> int:
    """Return a ``/proc/self/status`` field (``VmHWM``, ``VmRSS``, ...) in KiB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not found in /proc/self/status")


def release_and_reset_hwm() -> bool:
    """Return freed heap memory to the kernel and reset ``VmHWM`` to ``VmRSS``.

    Returns whether the reset was accepted (``/proc/self/clear_refs``).
    """
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
    except OSError:
        return False
    return True


def traced_peaks(solve: Callable[[], Any]) -> tuple[int, int]:
    """Peak bytes one call of ``solve`` allocates, at byte resolution:
    ``(python, torch)``.

    ``python`` is :mod:`tracemalloc`'s peak (every Python allocator domain,
    objects and buffers) during one call; ``torch`` the peak of the running
    sum of the CPU allocator's allocation and free events that
    ``torch.profiler`` records (``profile_memory=True``) during a second call.
    Neither sees native memory outside those two allocators (torch's tensor
    headers, say). So ``max(python, torch)`` is a lower bound on the call's
    peak and, for a solver that makes no torch call, ``python`` is its peak.
    """
    import tracemalloc

    from torch._C._profiler import _EventType
    from torch.profiler import ProfilerActivity, profile

    gc.collect()
    tracemalloc.start()
    try:
        solve()
        _, python_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as profiler:
        solve()
    events, pending = [], list(profiler.profiler.kineto_results.experimental_event_tree())
    while pending:
        event = pending.pop()
        if event.tag == _EventType.Allocation:
            events.append((event.start_time_ns, event.extra_fields.alloc_size))
        pending.extend(event.children)
    allocated = torch_peak = 0
    for _, size in sorted(events):
        allocated += size
        torch_peak = max(torch_peak, allocated)
    return python_peak, torch_peak


def read_loadavg() -> float:
    """The 1-minute load average (``/proc/loadavg``): how busy the machine was."""
    with open("/proc/loadavg", encoding="ascii") as loadavg:
        return float(loadavg.read().split()[0])


def _milp_solver(time_limit: float, extra: dict[str, Any]) -> Solver:
    """scipy ``milp`` (HiGHS) on the quantized integer weights, gap 0."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp  # type: ignore[import-untyped]

    from knapsack_audit.reference import validate
    from knapsack_audit.reference.validation import integer_runtimes

    def solve(
        memory: list[float], runtime: list[float], max_memory: float
    ) -> tuple[float, list[int], list[int]]:
        instance = validate(memory, runtime, max_memory)
        values, _ = integer_runtimes(instance.runtimes)
        n = instance.n
        res = milp(
            c=-np.array(values, dtype=np.float64),
            constraints=[
                LinearConstraint(
                    np.array([instance.weights], dtype=np.float64), ub=instance.capacity
                )
            ],
            integrality=np.ones(n),
            bounds=Bounds(0, 1),
            options={"mip_rel_gap": 0.0, "time_limit": time_limit, "disp": False},
        )
        extra["milp_status"] = int(res.status)
        extra["milp_message"] = str(res.message)
        extra["proven_optimal"] = res.status == 0
        if res.x is None:
            raise RuntimeError(f"milp found no solution: {res.message}")
        saved = [i for i in range(n) if res.x[i] > 0.5]
        chosen = set(saved)
        recomputable = [i for i in range(n - 1, -1, -1) if i not in chosen]
        return float(-res.fun), saved, recomputable

    return solve


def _ortools_solver(time_limit: float, extra: dict[str, Any]) -> Solver:
    """OR-Tools' branch-and-bound knapsack solver on integer weights and values."""
    from ortools.algorithms.python import knapsack_solver  # type: ignore[import-untyped]

    from knapsack_audit.reference import validate
    from knapsack_audit.reference.validation import integer_runtimes

    def solve(
        memory: list[float], runtime: list[float], max_memory: float
    ) -> tuple[float, list[int], list[int]]:
        instance = validate(memory, runtime, max_memory)
        values, shift = integer_runtimes(instance.runtimes)
        if min(values, default=0) < 0 or sum(values) >= 2**63:
            raise ValueError("OR-Tools needs non-negative int64 values; scaled runtimes do not fit")
        solver = knapsack_solver.KnapsackSolver(
            knapsack_solver.SolverType.KNAPSACK_MULTIDIMENSION_BRANCH_AND_BOUND_SOLVER, "bench"
        )
        solver.set_time_limit(time_limit)
        solver.init(values, [list(instance.weights)], [instance.capacity])
        best = solver.solve()
        extra["proven_optimal"] = bool(solver.is_solution_optimal())
        saved = [i for i in range(instance.n) if solver.best_solution_contains(i)]
        chosen = set(saved)
        recomputable = [i for i in range(instance.n - 1, -1, -1) if i not in chosen]
        return math.ldexp(float(best), -shift), saved, recomputable

    return solve


def load_solver(name: str, time_limit: float, extra: dict[str, Any]) -> Solver:
    """Import and return the solver called ``name`` (one of :data:`SOLVERS`)."""
    if name in CATALOG_NAMES:
        return cast(Solver, catalog.load(CATALOG_NAMES[name]))
    if name == "milp":
        return _milp_solver(time_limit, extra)
    if name == "ortools":
        return _ortools_solver(time_limit, extra)
    raise ValueError(f"unknown solver {name!r}")


def _is_oom(error: BaseException) -> bool:
    text = str(error).lower()
    return isinstance(error, MemoryError) or (
        isinstance(error, RuntimeError) and ("allocate" in text or "out of memory" in text)
    )


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """Run one job (see the module docstring) and return its result record."""
    mem_limit = int(job["mem_limit_bytes"])
    resource.setrlimit(resource.RLIMIT_AS, (mem_limit, mem_limit))
    extra: dict[str, Any] = {}
    solver = load_solver(job["solver"], float(job["time_limit"]), extra)

    from benchmarks.instances import make_instance

    inst = make_instance(
        job["family"],
        int(job["n"]),
        int(job["capacity"]),
        int(job["seed"]),
        int(job["runtime_scale"]),
    )
    warmup = make_instance(
        job["family"],
        int(job["n"]),
        min(int(job["capacity"]), WARMUP_CAPACITY),
        int(job["seed"]),
        int(job["runtime_scale"]),
    )
    warmup_start = time.perf_counter()
    with contextlib.suppress(Exception):  # the measured solve reports a failure
        solver(warmup.memory, warmup.runtime, warmup.max_memory)
    warmup_s = time.perf_counter() - warmup_start
    hwm_reset = release_and_reset_hwm()
    record: dict[str, Any] = {
        "warmup_s": warmup_s,
        "hwm_reset": hwm_reset,
        "hwm_baseline_kib": read_vm_kib("VmHWM"),
        "loadavg_before": read_loadavg(),
    }
    start = time.perf_counter()
    try:
        value, saved, _ = solver(inst.memory, inst.runtime, inst.max_memory)
    except Exception as error:
        record["time_s"] = time.perf_counter() - start
        record["status"] = "oom" if _is_oom(error) else "error"
        record["error"] = f"{type(error).__name__}: {error}"[:500]
        record["traceback"] = traceback.format_exc()[-2000:]
    else:
        record["time_s"] = time.perf_counter() - start
        record["status"] = "ok"
        record["value"] = float(value)
        record["saved"] = [int(i) for i in saved]
    record["hwm_peak_kib"] = read_vm_kib("VmHWM")
    record["loadavg_after"] = read_loadavg()
    record.update(extra)
    return record


def main() -> None:
    """Read a job from stdin, print its result after :data:`RESULT_MARKER`."""
    job = json.loads(sys.stdin.read())
    record = run_job(job)
    sys.stdout.write(RESULT_MARKER + json.dumps(record) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
