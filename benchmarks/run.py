"""Benchmark the knapsack solvers, one fresh process per solve.

Usage (from the repository root)::

    python -m benchmarks.run --quick
    python -m benchmarks.run --grid partitioner --solvers upstream_dp,milp
    python -m benchmarks.run --grid paper --families subset_sum --repeats 5
    python -m benchmarks.run --largest

Each (grid cell, solver) is solved ``--repeats`` times, each time by a new
``python -m benchmarks.worker`` process (see that module for how time and peak
memory are measured). Results go to ``--out`` (default
``benchmarks/results``): ``results.json`` (raw data, rewritten after every
cell), ``RESULTS.md`` and PNG plots. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import importlib
import importlib.util
import json
import os
import platform
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.instances import FAMILIES, PARTITIONER_FAMILY, PISINGER_FAMILIES, make_instance
from benchmarks.oracle import int64_dp_value, pareto_value
from benchmarks.report import print_summary, write_markdown
from benchmarks.worker import RESULT_MARKER, SOLVERS
from knapsack_audit import catalog
from knapsack_audit.properties import units_tolerance
from knapsack_audit.reference import Instance, validate
from knapsack_audit.reference.validation import exact_sum

REPO_ROOT = Path(__file__).resolve().parent.parent
EXACT_THIRD_OPINIONS = ("ortools", "milp")
GIB = 2**30
STARTUP_GRACE_S = 60.0
"""Extra wall time a child gets on top of ``--timeout`` for interpreter start-up and imports."""


def optimized_status() -> tuple[bool, str]:
    """Whether the catalog's optimized solver (``catalog.OPTIMIZED``) loads."""
    try:
        solver = catalog.load(catalog.OPTIMIZED)
    except catalog.TargetError as error:
        return False, str(error)
    return True, f"found in {getattr(solver, '__module__', '?')}"


def grid_cells(grid: str, partitioner_q: int) -> list[tuple[str, int, int]]:
    """Cells ``(family, n, Q)`` of a named grid, cheapest first."""
    cells: list[tuple[str, int, int]] = []
    if grid in ("quick", "partitioner", "all"):
        ns = (100, 1000) if grid == "quick" else (100, 1000, 5000)
        cells += [(PARTITIONER_FAMILY, n, partitioner_q) for n in ns]
    if grid == "quick":
        cells += [(f, 100, 100_000) for f in PISINGER_FAMILIES]
    if grid in ("paper", "all"):
        cells += [
            (f, n, q)
            for f in PISINGER_FAMILIES
            for n in (100, 1000, 2000)
            for q in (100_000, 1_000_000, 10_000_000)
        ]
    return sorted(cells, key=lambda c: (c[1] * c[2], FAMILIES.index(c[0])))


def upstream_dp_table_bytes(n: int, capacity: int) -> int:
    """Bytes of upstream ``dp_knapsack``'s ``(n+1) x (Q+1)`` float32 table."""
    return (n + 1) * (capacity + 1) * 4


def a_priori_skip(
    solver: str, instance: Instance, args: argparse.Namespace, optimized_ok: bool
) -> str | None:
    """Reason not to run ``solver`` on this cell at all, or ``None``."""
    n, q = instance.n, instance.capacity
    if solver == "optimized" and not optimized_ok:
        return "absent: not importable"
    if solver == "reference":
        cells = n * min(q, sum(instance.weights))
        if cells > args.reference_limit:
            return f"skipped: n*min(Q, sum w) = {cells:.3g} > {args.reference_limit:.3g}"
    if solver == "upstream_dp":
        needed = upstream_dp_table_bytes(n, q)
        if needed > args.mem_limit_gib * GIB:
            return (
                f"skipped: needs {needed / GIB:.1f} GiB ((n+1)(Q+1) float32 table) "
                f"> {args.mem_limit_gib:g} GiB cap"
            )
    return None


def child_job(
    args: argparse.Namespace, solver: str, family: str, n: int, capacity: int
) -> dict[str, Any]:
    """The JSON job one ``benchmarks.worker`` child runs: one solve of one cell."""
    return {
        "solver": solver,
        "family": family,
        "n": n,
        "capacity": capacity,
        "seed": args.seed,
        "runtime_scale": args.runtime_scale,
        "mem_limit_bytes": int(args.mem_limit_gib * GIB),
        "time_limit": args.timeout,
        "torch_threads": args.torch_threads,
    }


def run_child(job: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Run one job in a new ``python -m benchmarks.worker`` process."""
    started = time.perf_counter()
    env = dict(os.environ)
    if job.get("torch_threads"):
        env["OMP_NUM_THREADS"] = str(job["torch_threads"])
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "benchmarks.worker"],
            input=json.dumps(job),
            capture_output=True,
            text=True,
            cwd=REPO_ROOT,
            env=env,
            timeout=timeout + STARTUP_GRACE_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "process_wall_s": time.perf_counter() - started}
    wall = time.perf_counter() - started
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(RESULT_MARKER):
            record: dict[str, Any] = json.loads(line[len(RESULT_MARKER) :])
            record["process_wall_s"] = wall
            if record["status"] == "ok" and record["time_s"] > timeout:
                record["status"] = "timeout"
            return record
    tail = proc.stderr[-1500:]
    status = "crash"
    if "bad_alloc" in tail or "MemoryError" in tail or "can't allocate" in tail:
        status = "oom"
    if proc.returncode < 0:
        detail = f"killed by {signal.Signals(-proc.returncode).name}"
    else:
        detail = f"exit code {proc.returncode}"
    return {"status": status, "error": detail, "stderr_tail": tail, "process_wall_s": wall}


def judge(record: dict[str, Any], instance: Instance) -> None:
    """Add feasibility and the selection's exact value to an ``ok`` record."""
    saved = record.pop("saved")
    weight = sum(instance.weights[i] for i in set(saved))
    record["n_saved"] = len(saved)
    record["selection_sha256"] = hashlib.sha256(json.dumps(sorted(saved)).encode()).hexdigest()
    record["weight"] = weight
    record["over_budget"] = weight > instance.capacity
    record["exact_value"] = str(exact_sum(instance.runtimes, sorted(set(saved))))


def cell_optimum(
    instance: Instance, runs: dict[str, list[dict[str, Any]]], args: argparse.Namespace
) -> dict[str, Any]:
    """Exact optimum of a cell from every affordable source (see benchmarks.oracle)."""
    sources: dict[str, str] = {}
    cells = instance.n * min(instance.capacity, sum(instance.weights))
    if cells <= args.pareto_limit:
        sources["pareto"] = str(pareto_value(instance))
    for solver in EXACT_THIRD_OPINIONS:
        for record in runs.get(solver, []):
            if (
                record["status"] == "ok"
                and record.get("proven_optimal")
                and not record["over_budget"]
            ):
                sources[solver] = record["exact_value"]
                break
    if not sources and cells <= args.int64_dp_limit:
        sources["int64_dp"] = str(int64_dp_value(instance))
    for record in runs.get("reference", []):
        if record["status"] == "ok" and sources:
            sources["reference"] = record["exact_value"]
            break
    if not sources:
        return {"opt": None, "opt_source": None, "opt_sources": {}, "opt_disagreement": False}
    first = next(iter(sources))
    return {
        "opt": sources[first],
        "opt_source": first,
        "opt_sources": sources,
        "opt_disagreement": len(set(sources.values())) > 1,
    }


def failed_before(
    failures: dict[str, list[tuple[str, int, int]]], solver: str, cell: tuple[str, int, int]
) -> str | None:
    """A smaller cell of the same family on which ``solver`` already failed."""
    family, n, q = cell
    for f, n0, q0 in failures.get(solver, []):
        if f == family and n >= n0 and q >= q0:
            return f"skipped: failed at smaller cell n={n0}, Q={q0}"
    return None


def run_cell(
    cell: tuple[str, int, int],
    solvers: list[str],
    args: argparse.Namespace,
    optimized_ok: bool,
    failures: dict[str, list[tuple[str, int, int]]],
) -> dict[str, Any]:
    """Run every solver on one cell; return the cell record."""
    family, n, q = cell
    bench = make_instance(family, n, q, args.seed, args.runtime_scale)
    instance = validate(bench.memory, bench.runtime, bench.max_memory)
    runs: dict[str, list[dict[str, Any]]] = {}
    skipped: dict[str, str] = {}
    for solver in solvers:
        reason = a_priori_skip(solver, instance, args, optimized_ok) or failed_before(
            failures, solver, cell
        )
        if reason:
            skipped[solver] = reason
            log(f"  {solver:20s} {reason}")
            continue
        runs[solver] = []
        for repeat in range(args.repeats):
            job = child_job(args, solver, family, n, q)
            record = run_child(job, args.timeout)
            record["repeat"] = repeat
            if record["status"] == "ok":
                judge(record, instance)
            runs[solver].append(record)
            log(
                f"  {solver:20s} run {repeat}: {record['status']:8s} "
                f"{record.get('time_s', float('nan')):9.3f} s  "
                f"peak {record.get('hwm_peak_kib', 0) / 1024:8.1f} MiB"
                + ("  OVER BUDGET" if record.get("over_budget") else "")
                + ("" if record.get("proven_optimal", True) else "  (not proven optimal)")
            )
            if record["status"] != "ok":
                failures.setdefault(solver, []).append(cell)
                break
            if solver in EXACT_THIRD_OPINIONS and not record.get("proven_optimal"):
                failures.setdefault(solver, []).append(cell)
                break
    optimum = cell_optimum(instance, runs, args)
    allowed = units_tolerance(instance.weights, instance.runtimes, instance.capacity)
    if optimum["opt"] is not None:
        opt = Fraction(optimum["opt"])
        for records in runs.values():
            for record in records:
                if record["status"] == "ok":
                    value = Fraction(record["exact_value"])
                    record["exact_agrees"] = value == opt and not record["over_budget"]
                    record["within_tolerance"] = (
                        opt - value <= allowed and not record["over_budget"]
                    )
                    record["beats_optimum"] = value > opt and not record["over_budget"]
    return {
        "family": family,
        "n": n,
        "capacity": q,
        "seed": args.seed,
        "runtime_scale": args.runtime_scale,
        "sum_weights": sum(instance.weights),
        "tolerance": float(allowed),
        **optimum,
        "runs": runs,
        "skipped": skipped,
    }


def largest_search(
    solvers: list[str], args: argparse.Namespace, optimized_ok: bool
) -> dict[str, Any]:
    """Doubling search for the largest ``n * Q`` each solver solves within the caps."""
    n = args.largest_n
    found: dict[str, Any] = {}
    for solver in solvers:
        if solver == "optimized" and not optimized_ok:
            found[solver] = {"status": "absent"}
            continue
        q, best, stop = args.largest_start_q, None, ""
        while q <= args.largest_max_q:
            bench = make_instance("uncorrelated", n, q, args.seed, args.runtime_scale)
            instance = validate(bench.memory, bench.runtime, bench.max_memory)
            reason = a_priori_skip(solver, instance, args, optimized_ok)
            if reason and not reason.startswith("skipped: n*min(Q, sum w)"):
                stop = f"Q={q}: {reason}"
                break
            if best is not None and 2.2 * best["time_s"] > args.timeout:
                stop = (
                    f"Q={q}: not run, predicted {2 * best['time_s']:.0f} s "
                    f"(2x the last step) > {args.timeout:g} s"
                )
                break
            job = child_job(args, solver, "uncorrelated", n, q)
            record = run_child(job, args.timeout)
            ok = record["status"] == "ok" and record.get("proven_optimal", True)
            log(
                f"  largest {solver:20s} n={n} Q={q}: {record['status']} "
                f"{record.get('time_s', float('nan')):.1f} s"
            )
            if not ok:
                stop = f"Q={q}: {record['status']}"
                break
            best = {
                "n": n,
                "capacity": q,
                "nQ": n * q,
                "time_s": record["time_s"],
                "hwm_peak_kib": record["hwm_peak_kib"],
            }
            q *= 2
        found[solver] = {"status": "ok" if best else "none", "largest": best, "stopped": stop}
    return found


def source_revision() -> str:
    """``git describe``-like label of the code being measured: the commit, plus
    ``+dirty`` when tracked files differ from it (``unknown`` outside git)."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()

    try:
        commit = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+dirty" if dirty else "")


def machine_info() -> dict[str, Any]:
    """CPU, memory and library versions of this machine."""
    info: dict[str, Any] = {"nproc": os.cpu_count(), "platform": platform.platform()}
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        for line in meminfo:
            if line.startswith("MemTotal:"):
                info["mem_total_kib"] = int(line.split()[1])
    with open("/proc/cpuinfo", encoding="ascii") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                info["cpu_model"] = line.split(":", 1)[1].strip()
                break
    info["python"] = platform.python_version()
    for module in ("torch", "numpy", "scipy", "ortools", "matplotlib"):
        try:
            info[module] = importlib.import_module(module).__version__
        except ImportError:
            info[module] = "not installed"
    import torch

    info["torch_default_threads"] = torch.get_num_threads()
    return info


def log(message: str) -> None:
    """Progress to stderr, flushed."""
    print(message, file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line options (``--help`` lists them)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="alias of --grid quick")
    parser.add_argument("--grid", choices=("quick", "partitioner", "paper", "all"), default="all")
    parser.add_argument("--largest", action="store_true", help="run the doubling search only")
    parser.add_argument("--families", default=",".join(FAMILIES), help="comma-separated")
    parser.add_argument(
        "--capacities",
        default="",
        help="comma-separated Q values: only the grid's cells with these Q (default: all)",
    )
    parser.add_argument("--solvers", default=",".join(SOLVERS), help="comma-separated")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per solve")
    parser.add_argument("--mem-limit-gib", type=float, default=8.0, help="RLIMIT_AS per child")
    parser.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help="OMP_NUM_THREADS for the children (0: leave torch's default, one per core)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runtime-scale", type=int, default=1)
    parser.add_argument(
        "--partitioner-q",
        type=int,
        default=5000,
        help="Q of the partitioner-like cells (max_memory = Q / 10000; must be < 10000)",
    )
    parser.add_argument("--reference-limit", type=float, default=2e7)
    parser.add_argument("--pareto-limit", type=float, default=1e6)
    parser.add_argument("--int64-dp-limit", type=float, default=2.5e10)
    parser.add_argument("--largest-n", type=int, default=1000)
    parser.add_argument("--largest-start-q", type=int, default=10_000)
    parser.add_argument("--largest-max-q", type=int, default=10**9)
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "benchmarks" / "results")
    parser.add_argument("--no-plots", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.grid = "quick"
    args.capacities = [int(q) for q in args.capacities.split(",") if q]
    for name, known in (("families", FAMILIES), ("solvers", SOLVERS)):
        chosen = [x for x in getattr(args, name).split(",") if x]
        unknown = sorted(set(chosen) - set(known))
        if unknown:
            parser.error(f"unknown {name}: {unknown}; known: {list(known)}")
        setattr(args, name, chosen)
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and write results.json, RESULTS.md and the plots."""

    args = parse_args(argv)
    optimized_ok, optimized_note = optimized_status()
    log(f"optimized: {'present' if optimized_ok else 'ABSENT'} ({optimized_note})")
    args.out.mkdir(parents=True, exist_ok=True)
    results_path = args.out / "results.json"
    previous: dict[str, Any] = {}
    if results_path.exists():
        previous = json.loads(results_path.read_text())
    results: dict[str, Any] = {
        "meta": {
            "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": "python -m benchmarks.run "
            + " ".join(sys.argv[1:] if argv is None else argv),
            "machine": machine_info(),
            "revision": source_revision(),
            "optimized_present": optimized_ok,
            "optimized_note": optimized_note,
            "options": {k: str(v) for k, v in vars(args).items()},
        },
        "grids": previous.get("grids", {}),
        "largest": previous.get("largest"),
    }
    started = time.perf_counter()
    if args.largest:
        results["largest"] = {
            "meta": results["meta"],
            "solvers": largest_search(args.solvers, args, optimized_ok),
        }
    else:
        cells = [
            c
            for c in grid_cells(args.grid, args.partitioner_q)
            if c[0] in args.families and (not args.capacities or c[2] in args.capacities)
        ]
        old_grid = results["grids"].get(args.grid, {})
        kept = [
            c
            for c in old_grid.get("cells", [])
            if (c["family"], c["n"], c["capacity"]) not in cells
        ]
        grid_record: dict[str, Any] = {
            "meta": results["meta"],
            "cells": kept,
            "earlier_runs": old_grid.get("earlier_runs", []) + ([old_grid["meta"]] if kept else []),
        }
        results["grids"][args.grid] = grid_record
        failures: dict[str, list[tuple[str, int, int]]] = {}
        for cell in cells:
            log(f"cell {cell[0]} n={cell[1]} Q={cell[2]}")
            grid_record["cells"].append(run_cell(cell, args.solvers, args, optimized_ok, failures))
            grid_record["cells"].sort(
                key=lambda c: (FAMILIES.index(c["family"]), c["n"], c["capacity"])
            )
            results_path.write_text(json.dumps(results, indent=1) + "\n")
        grid_record["wall_s"] = time.perf_counter() - started
    results_path.write_text(json.dumps(results, indent=1) + "\n")
    write_markdown(results, args.out / "RESULTS.md")
    print_summary(results)
    if not args.no_plots:
        from benchmarks.plot import plot_all

        for path in plot_all(results, args.out):
            log(f"wrote {path}")
    log(f"done in {time.perf_counter() - started:.0f} s; results in {args.out}")


if __name__ == "__main__":
    main()
