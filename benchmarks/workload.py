"""The real workload: golden partitioner calls, one solve each and every budget at once.

Four grids, each side by side in one run:

``golden``
    Every call :func:`knapsack_audit.golden.fixtures.load` returns (the golden
    fixtures, including any real-scale models added to them) plus the deep
    transformer calls of ``benchmarks/data`` (:mod:`benchmarks.capture_deep`),
    solved by each of :data:`GOLDEN_SOLVERS`. One child process per solver
    (``python -m benchmarks.workload --child SOLVER``) runs every call: a
    warm-up solve, then ``VmHWM`` reset (:func:`benchmarks.worker.release_and_reset_hwm`)
    and one solve for the peak, then ``--repeats`` timed solves (median and
    min), then two solves traced at byte resolution
    (:func:`benchmarks.worker.traced_peaks`: Python's allocators and torch's
    CPU allocator, since one page of ``VmHWM`` is coarser than most of these
    solves' allocations). Each selection is judged exactly (feasible, value equal to the
    fixture's oracle optimum).
``paired``
    The timing half of ``golden`` in one process, the solvers interleaved:
    on every ``flops`` call with at least ``--golden-min-items`` items, a
    warm-up solve by each of :data:`PAIRED_SOLVERS`, then ``--repeats``
    rounds of one solve each (the order rotating by round). A round's ratios
    compare solves milliseconds apart, so they survive the slow and fast
    phases this shared machine drifts through (measured: the same solve 0.44
    and 0.82 ms a few seconds apart), which separate processes per solver do
    not; the table reports the median of the per-round ratios and min / min.
``multi-budget``
    On every call with at least ``--min-items`` items, torch's knee-point
    search (``KnapsackEvaluator.get_knee_point_memory_budget``, 100 budgets
    0.001..b, torch's own normalization, built as the partitioner builds it)
    with torch's ``dp_knapsack`` against the same search with one
    :class:`~knapsack_audit.optimized.integration.FrontierSolver` on torch's
    evaluator (``frontier``) and on the evaluator that
    :func:`~knapsack_audit.optimized.integration.serve_budgets_from_frontiers`
    installs (``served``: :class:`~knapsack_audit.optimized.evaluator.FrontierKnapsackEvaluator`,
    the totals taken once, the frontier as wide as the largest budget); and the
    solver work alone: the time inside ``dp_knapsack`` during upstream's search
    against 100 ``FrontierSolver`` calls. Knees must be equal; where
    they are not, the record adds torch's knee with the exact canonical solver
    :func:`knapsack_audit.reference.dp_knapsack` per budget (``exact_knee``)
    and how many of the 100 budgets upstream's float32 ``dp_knapsack`` answers
    below the exact optimum.

``pareto``
    On every distinct item list of the calls with at least ``--min-items``
    items, torch's Pareto bisection (``visualize_memory_budget_pareto``,
    :func:`pareto_curve`) with torch's ``dp_knapsack`` per budget (one run)
    against the same bisection served by one fresh
    :class:`~knapsack_audit.optimized.integration.FrontierSolver` per run
    (what ``serve_budgets_from_frontiers`` installs; median of
    ``--repeats``). The curves are compared point by point (budget, exact
    value of the selection); where they differ, the record adds whether
    ours equals the curve of the exact canonical solver and how many of
    upstream's points lie below the exact optimum.

Results go to ``benchmarks/results/workload.json`` with the command, the
revision and the machine; ``python -m benchmarks.report`` adds both grids and
their targets to RESULTS.md. Timings on a shared machine are noisy: the
1-minute load average is recorded before and after each grid.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.capture_deep import DATA_DIRECTORY
from benchmarks.report import write_markdown
from benchmarks.worker import (
    load_solver,
    read_loadavg,
    read_vm_kib,
    release_and_reset_hwm,
    traced_peaks,
)
from knapsack_audit import catalog, measure
from knapsack_audit.cases import Case
from knapsack_audit.golden import fixtures
from knapsack_audit.integer_oracle import canonical_table
from knapsack_audit.properties import saved_value, saved_weight
from knapsack_audit.reference import dp_knapsack as reference_dp
from knapsack_audit.reference import quantize

GOLDEN_SOLVERS = ("optimized", "upstream_dp", "upstream_hirschberg", "ortools")
PAIRED_SOLVERS = ("optimized", "upstream_dp", "upstream_hirschberg")
GRIDS = ("golden", "paired", "multi-budget", "pareto")
RESULTS_PATH = Path(__file__).resolve().parent / "results" / "workload.json"


def workload_calls() -> list[fixtures.Fixture]:
    """The golden fixtures, then the deep-transformer captures."""
    calls = fixtures.load()
    if DATA_DIRECTORY.is_dir():
        calls += fixtures.load(DATA_DIRECTORY)
    return calls


def _timed(solve: Callable[[], Any], repeats: int) -> tuple[list[float], Any]:
    times, answer = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        answer = solve()
        times.append(time.perf_counter() - start)
    return times, answer


def measure_solver(
    name: str, repeats: int, time_limit: float, min_items: int
) -> list[dict[str, Any]]:
    """Every workload call with at least ``min_items`` items solved by ``name``
    in this process (see the module docstring)."""
    solver = load_solver(name, time_limit, {})
    records = []
    for fixture in workload_calls():
        if fixture.case.n < min_items:
            continue
        memory, runtime, max_memory = fixture.case.arguments()
        solver(memory, runtime, max_memory)  # warm-up on the call itself
        release_and_reset_hwm()
        baseline = read_vm_kib("VmHWM")
        _, saved, _ = solver(memory, runtime, max_memory)
        peak = read_vm_kib("VmHWM")
        times, _ = _timed(lambda m=memory, r=runtime, b=max_memory: solver(m, r, b), repeats)
        python_peak, torch_peak = traced_peaks(
            lambda m=memory, r=runtime, b=max_memory: solver(m, r, b)
        )
        weight = saved_weight(fixture.case, saved)
        exact = saved_value(fixture.case, saved)
        records.append(
            {
                "call": fixture.name,
                "n": fixture.case.n,
                "capacity": fixture.quantized_budget,
                "estimator": fixture.provenance.get("runtime_estimator"),
                "time_median_s": statistics.median(times),
                "time_min_s": min(times),
                "delta_peak_kib": peak - baseline,
                "traced_python_peak_bytes": python_peak,
                "traced_torch_peak_bytes": torch_peak,
                "over_budget": weight > fixture.quantized_budget,
                "exact": exact == fixture.optimum and weight <= fixture.quantized_budget,
            }
        )
    return records


def measure_paired(repeats: int, min_items: int) -> list[dict[str, Any]]:
    """The ``paired`` grid (module docstring): per call and solver, the times of
    every round of :func:`knapsack_audit.measure.interleaved` (the method of the
    release report's and ``golden findings``' time ratios)."""
    solvers = {name: load_solver(name, 120.0, {}) for name in PAIRED_SOLVERS}
    records = []
    for fixture in workload_calls():
        if fixture.case.n < min_items or fixture.provenance.get("runtime_estimator") != "flops":
            continue
        memory, runtime, max_memory = fixture.case.arguments()
        calls = {
            name: partial(solve, memory, runtime, max_memory) for name, solve in solvers.items()
        }
        for solve in calls.values():
            solve()  # warm-up on the call itself
        times = measure.interleaved(calls, repeats)
        records.append(
            {
                "call": fixture.name,
                "n": fixture.case.n,
                "capacity": fixture.quantized_budget,
                "times_s": times,
            }
        )
    return records


def _knee(
    memory: list[float],
    runtime: list[float],
    max_memory: float,
    make_solver: Callable[[], Any],
    served: bool = False,
) -> Any:
    """torch's knee search on one call (with ``served``, on the evaluator
    :func:`~knapsack_audit.optimized.integration.serve_budgets_from_frontiers`
    installs); ``make_solver()`` is called once per search."""
    from knapsack_audit.optimized.evaluator import FrontierKnapsackEvaluator, evaluator_for_call

    if served:
        evaluator = evaluator_for_call(memory, runtime, FrontierKnapsackEvaluator)
    else:
        evaluator = evaluator_for_call(memory, runtime)
    return evaluator.get_knee_point_memory_budget(make_solver(), max_memory)


def _calls(
    memory: list[float], runtime: list[float], budgets: list[float], make_solver: Callable[[], Any]
) -> list[Any]:
    """The solver work of the knee search alone: one call per budget."""
    solver = make_solver()
    return [solver(memory, runtime, b) for b in budgets]


class _TimedSolver:
    """A solver that adds the time spent in it to ``seconds``: upstream's solver
    work is timed inside its one knee search instead of in a second run."""

    def __init__(self, solver: Callable[..., Any]) -> None:
        self._solver = solver
        self.seconds = 0.0

    def __call__(self, memory: list[float], runtime: list[float], max_memory: float) -> Any:
        start = time.perf_counter()
        answer = self._solver(memory, runtime, max_memory)
        self.seconds += time.perf_counter() - start
        return answer


def _below_optimum(case: Case, points: list[tuple[float, Fraction]]) -> int:
    """Points ``(budget, exact value of a selection)`` worth less than the exact
    optimum at their budget (upstream's float32 table can drop an item)."""
    from knapsack_audit.optimized import runtime_memory_frontier

    memory, runtime, _ = case.arguments()
    frontier = runtime_memory_frontier(memory, runtime, max(budget for budget, _ in points))
    return sum(value < frontier.optimum(quantize(budget)) for budget, value in points)


def _exact_canonical(
    memory: list[float], runtime: list[float], max_memory: float
) -> Callable[[list[float], list[float], float], tuple[float, list[int], list[int]]]:
    """A solver with the reference's canonical answers (SPEC 6.1) on these
    items at every budget up to ``max_memory``: one int64 table
    (:func:`knapsack_audit.integer_oracle.canonical_table`) when exact there,
    else the pure-Python reference itself."""
    table = canonical_table(memory, runtime, max_memory)
    return reference_dp if table is None else table


def measure_multi_budget(min_items: int, repeats: int) -> list[dict[str, Any]]:
    """torch's knee search and the solver work alone, upstream dp against one
    frontier; where the knees differ, torch's knee with the exact canonical
    per-budget solver (:func:`knapsack_audit.reference.dp_knapsack`'s answer,
    :func:`_exact_canonical`) too."""
    import torch

    from knapsack_audit.optimized.evaluator import knee_budgets
    from knapsack_audit.optimized.integration import FrontierSolver

    dp_knapsack = catalog.load(f"{catalog.TORCH_MODULE}:dp_knapsack")
    torch.set_num_threads(1)

    records = []
    for fixture in workload_calls():
        memory, runtime, max_memory = fixture.case.arguments()
        if fixture.case.n < min_items or max_memory <= 0.001:
            continue
        budgets = knee_budgets(max_memory)

        upstream_solver = _TimedSolver(dp_knapsack)
        upstream_knee = partial(
            _knee, memory, runtime, max_memory, lambda solver=upstream_solver: solver
        )
        frontier_knee = partial(_knee, memory, runtime, max_memory, FrontierSolver)
        served_knee = partial(_knee, memory, runtime, max_memory, FrontierSolver, True)
        frontier_calls = partial(_calls, memory, runtime, budgets, FrontierSolver)
        served_knee()  # warm-up
        upstream_knee_times, upstream_point = _timed(upstream_knee, 1)
        frontier_knee_times, frontier_point = _timed(frontier_knee, repeats)
        served_knee_times, served_point = _timed(served_knee, repeats)
        frontier_call_times, _ = _timed(frontier_calls, repeats)
        record = {
            "call": fixture.name,
            "n": fixture.case.n,
            "capacity": fixture.quantized_budget,
            "estimator": fixture.provenance.get("runtime_estimator"),
            "upstream_knee_s": upstream_knee_times[0],
            "frontier_knee_s": statistics.median(frontier_knee_times),
            "served_knee_s": statistics.median(served_knee_times),
            "upstream_calls_s": upstream_solver.seconds,
            "frontier_calls_s": statistics.median(frontier_call_times),
            "upstream_knee": upstream_point,
            "frontier_knee": frontier_point,
            "served_knee": served_point,
            "same_knee": upstream_point == served_point == frontier_point,
        }
        if not record["same_knee"]:
            exact = _exact_canonical(memory, runtime, max_memory)
            record["exact_knee"] = _knee(memory, runtime, max_memory, lambda e=exact: e)
            record["upstream_budgets_below_optimum"] = _below_optimum(
                fixture.case,
                exact_points(
                    fixture.case, [(b, dp_knapsack(memory, runtime, b)[1]) for b in budgets]
                ),
            )
        records.append(record)
    return records


PARETO_RESOLUTION = 1e-3
"""torch's bisection stops at intervals narrower than this (partitioners.py)."""

ParetoPoint = tuple[float, Sequence[int]]


def pareto_curve(
    solver: Callable[[list[float], list[float], float], tuple[float, list[int], list[int]]],
    memory: list[float],
    runtime: list[float],
) -> tuple[list[ParetoPoint], int]:
    """torch's Pareto bisection (``visualize_memory_budget_pareto`` in
    ``torch/_functorch/partitioners.py``, torch 2.10 to 2.15) on one knapsack call,
    with ``solver`` where the partitioner calls its configured solver.

    torch evaluates budgets 0.0 and 1.0, then bisects an interval while its
    two outcomes differ and it is at least :data:`PARETO_RESOLUTION` wide;
    an outcome is (runtime recomputed, memory ratio of the min-cut's saved
    values). Without the graph, the memory ratio here is the saved items'
    normalized memory (the knapsack's own side of it); the runtime
    recomputed is ``sum(runtime)`` minus the solver's value, as torch has
    it. Returns the points ``(budget, saved indices)``, sorted, and the
    number of solver calls (:func:`exact_points` values the points outside
    the timed run)."""
    total = sum(runtime)
    selections: dict[float, tuple[int, ...]] = {}

    def estimate(budget: float) -> tuple[float, float, float]:
        value, saved, _ = solver(memory, runtime, max(budget, 0))
        selections[budget] = tuple(saved)
        return budget, total - value, sum(memory[i] for i in saved)

    options = [estimate(0.0), estimate(1.0)]
    calls = 2
    if options[0][1:] != options[1][1:]:
        bisects = [(options[0], options[1])]
        while bisects:
            lhs, rhs = bisects.pop()
            if rhs[0] - lhs[0] < PARETO_RESOLUTION:
                options += [lhs, rhs]
                continue
            mid = estimate((lhs[0] + rhs[0]) / 2)
            calls += 1
            if mid[1:] != lhs[1:]:
                bisects.append((lhs, mid))
            if mid[1:] != rhs[1:]:
                bisects.append((mid, rhs))
    return sorted((budget, selections[budget]) for budget, _, _ in options), calls


def exact_points(case: Case, points: list[ParetoPoint]) -> list[tuple[float, Fraction]]:
    """``(budget, saved indices)`` points of ``case`` as (budget, exact value of
    the saved runtimes, :func:`knapsack_audit.properties.saved_value`)."""
    return [(budget, saved_value(case, saved)) for budget, saved in points]


def _served_pareto_curve(
    memory: list[float], runtime: list[float]
) -> tuple[list[ParetoPoint], int]:
    """The bisection as ``serve_budgets_from_frontiers`` serves it: one new
    frontier for the graph, then one selection per budget."""
    from knapsack_audit.optimized.integration import FrontierSolver

    return pareto_curve(FrontierSolver(), memory, runtime)


def measure_pareto(min_items: int, repeats: int) -> list[dict[str, Any]]:
    """The ``pareto`` grid (module docstring), one record per distinct item list."""
    import torch

    dp_knapsack = catalog.load(f"{catalog.TORCH_MODULE}:dp_knapsack")
    torch.set_num_threads(1)
    records, seen = [], set()
    for fixture in workload_calls():
        memory, runtime, _ = fixture.case.arguments()
        key = (tuple(memory), tuple(runtime))
        if fixture.case.n < min_items or key in seen:
            continue
        seen.add(key)
        served = partial(_served_pareto_curve, memory, runtime)
        served()  # warm-up
        upstream_times, (upstream_curve, upstream_calls) = _timed(
            partial(pareto_curve, dp_knapsack, memory, runtime), 1
        )
        served_times, (served_curve, served_calls) = _timed(served, repeats)
        upstream_points = exact_points(fixture.case, upstream_curve)
        served_points = exact_points(fixture.case, served_curve)
        record = {
            "call": fixture.name,
            "n": fixture.case.n,
            "estimator": fixture.provenance.get("runtime_estimator"),
            "upstream_s": upstream_times[0],
            "served_s": statistics.median(served_times),
            "upstream_calls": upstream_calls,
            "served_calls": served_calls,
            "upstream_points": len(upstream_curve),
            "served_points": len(served_curve),
            "same_curve": upstream_points == served_points,
        }
        if not record["same_curve"]:
            exact = _exact_canonical(memory, runtime, 1.0)
            exact_curve = exact_points(fixture.case, pareto_curve(exact, memory, runtime)[0])
            record["exact_curve"] = exact_curve == served_points
            record["upstream_points_below_optimum"] = _below_optimum(fixture.case, upstream_points)
        records.append(record)
    return records


def _child(solver: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    """One solver's golden run in a fresh interpreter (its own VmHWM)."""
    command = [sys.executable, "-m", "benchmarks.workload", "--child", solver]
    command += ["--repeats", str(args.repeats), "--timeout", str(args.timeout)]
    command += ["--golden-min-items", str(args.golden_min_items)]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    records: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return records


def run_grid(grid: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run one grid and return its section of workload.json."""
    from benchmarks.run import machine_info, source_revision

    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = read_loadavg()
    if grid == "golden":
        data: Any = {name: _child(name, args) for name in GOLDEN_SOLVERS}
    elif grid == "paired":
        data = measure_paired(args.repeats, args.golden_min_items)
    elif grid == "multi-budget":
        data = measure_multi_budget(args.min_items, args.repeats)
    else:
        data = measure_pareto(args.min_items, args.repeats)
    return {
        "command": "python -m benchmarks.workload " + " ".join(sys.argv[1:]),
        "date": started.isoformat(timespec="seconds"),
        "revision": source_revision(),
        "machine": machine_info(),
        "wall_s": (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds(),
        "loadavg": [load_before, read_loadavg()],
        "torch_threads": 1,
        "results": data,
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", choices=(*GRIDS, "all"), default="all")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=120.0, help="ortools' time limit")
    parser.add_argument("--min-items", type=int, default=100, help="multi-budget and pareto grids")
    parser.add_argument(
        "--golden-min-items", type=int, default=0, help="golden grid: skip smaller calls"
    )
    parser.add_argument("--child", choices=GOLDEN_SOLVERS, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=RESULTS_PATH)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.child:
        print(
            json.dumps(
                measure_solver(args.child, args.repeats, args.timeout, args.golden_min_items)
            )
        )
        return
    os.environ["OMP_NUM_THREADS"] = "1"
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    for grid in GRIDS if args.grid == "all" else (args.grid,):
        results[grid] = run_grid(grid, args)
        args.out.write_text(json.dumps(results, indent=1) + "\n")
        print(f"{grid}: {results[grid]['wall_s']:.0f} s", flush=True)
    bench_results = args.out.parent / "results.json"
    if bench_results.exists():
        write_markdown(json.loads(bench_results.read_text()), args.out.parent / "RESULTS.md")


if __name__ == "__main__":
    main()
