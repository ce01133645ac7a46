"""Render ``results.json`` as ``RESULTS.md`` (see benchmarks/README.md for the columns)."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

from benchmarks.instances import FAMILIES
from benchmarks.worker import SOLVERS
from benchmarks.workload_report import workload_sections

SOLVER_ORDER = SOLVERS


def _mib(kib: float) -> str:
    return f"{kib / 1024:.1f}"


def _ok(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["status"] == "ok"]


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Median time and peak memory, and correctness counts, of one solver on one cell."""
    ok = _ok(records)
    out: dict[str, Any] = {"runs": len(records), "ok": len(ok)}
    failed = [r for r in records if r["status"] != "ok"]
    if failed:
        out["status"] = failed[0]["status"]
    elif any(r.get("proven_optimal") is False for r in ok):
        out["status"] = "ok, not proven (time limit)"
    else:
        out["status"] = "ok"
    if ok:
        out["time_s"] = statistics.median(r["time_s"] for r in ok)
        out["time_min_s"] = min(r["time_s"] for r in ok)
        out["peak_kib"] = statistics.median(r["hwm_peak_kib"] for r in ok)
        out["delta_kib"] = statistics.median(r["hwm_peak_kib"] - r["hwm_baseline_kib"] for r in ok)
        out["over_budget"] = sum(r["over_budget"] for r in ok)
        judged = [r for r in ok if "exact_agrees" in r]
        out["judged"] = len(judged)
        out["exact"] = sum(r["exact_agrees"] for r in judged)
        out["within_tol"] = sum(r["within_tolerance"] for r in judged)
        out["beats"] = sum(r.get("beats_optimum", False) for r in judged)
        out["deterministic"] = len({r["selection_sha256"] for r in ok}) == 1
    return out


def _ratio(a: dict[str, Any], b: dict[str, Any], key: str) -> str:
    if key in a and key in b and b[key] > 0:
        return f"{a[key] / b[key]:.3g}"
    return "-"


def _grid_section(name: str, grid: dict[str, Any], optimized_present: bool) -> list[str]:
    meta = grid["meta"]
    lines = [
        f"## Grid `{name}`",
        "",
        f"Run {meta['date_utc']} on revision {meta.get('revision', 'unknown')}, "
        f"command `{meta['command']}`, "
        f"wall time {grid.get('wall_s', float('nan')):.0f} s (incomplete if missing).",
        *(
            f"Cells not re-run were measured earlier by `{m['command']}` ({m['date_utc']}, "
            f"revision {m.get('revision', 'unknown')})."
            for m in grid.get("earlier_runs", [])
        ),
        "",
        "| family | n | Q | solver | status | ok/runs | time (s, median) | time (s, min) "
        "| peak VmHWM (MiB) | solve Δpeak (MiB) | over budget | exact = OPT "
        "| within SPEC 5.2 tol | same selection |",
        "|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    ratio_rows: list[str] = []
    oracle_rows: list[str] = []
    for cell in grid["cells"]:
        head = f"| {cell['family']} | {cell['n']} | {cell['capacity']} "
        summaries: dict[str, dict[str, Any]] = {}
        for solver in SOLVER_ORDER:
            if solver in cell["skipped"]:
                lines.append(head + f"| {solver} | {cell['skipped'][solver]} |" + " - |" * 9)
                continue
            if solver not in cell["runs"]:
                continue
            s = summarize(cell["runs"][solver])
            summaries[solver] = s
            if s["ok"] == 0:
                lines.append(head + f"| {solver} | {s['status']} | 0/{s['runs']} |" + " - |" * 8)
                continue
            judged = s["judged"]
            exact = f"{s['exact']}/{judged}" if judged else "no OPT"
            tol = f"{s['within_tol']}/{judged}" if judged else "no OPT"
            if s["beats"]:
                exact += f" (BEATS OPT {s['beats']})"
            lines.append(
                head + f"| {solver} | {s['status']} | {s['ok']}/{s['runs']} "
                f"| {s['time_s']:.4g} | {s['time_min_s']:.4g} "
                f"| {_mib(s['peak_kib'])} | {_mib(s['delta_kib'])} "
                f"| {s['over_budget']}/{s['ok']} | {exact} | {tol} "
                f"| {'yes' if s['deterministic'] else 'NO'} |"
            )
        opt, dp, hb = (
            summaries.get(k, {}) for k in ("optimized", "upstream_dp", "upstream_hirschberg")
        )
        ratio_rows.append(
            head + f"| {_ratio(opt, dp, 'time_s')} | {_ratio(opt, dp, 'delta_kib')} "
            f"| {_ratio(opt, hb, 'time_s')} | {_ratio(opt, hb, 'delta_kib')} |"
        )
        sources = ", ".join(f"{k}" for k in cell["opt_sources"]) or "none"
        if cell["opt_disagreement"]:
            check = "DISAGREE"
        elif len(cell["opt_sources"]) > 1:
            check = "agree"
        else:
            check = "single source"
        oracle_rows.append(
            head + f"| {cell['sum_weights']} | {cell['opt'] or '-'} | {cell['opt_source'] or '-'} "
            f"| {sources} | {check} "
            f"| {cell['tolerance']:.3g} |"
        )
    loads = [
        r["loadavg_before"]
        for cell in grid["cells"]
        for records in cell["runs"].values()
        for r in records
        if "loadavg_before" in r
    ]
    if loads:
        lines += [
            "",
            f"1-minute load average at the start of each run: min {min(loads):.2f}, median "
            f"{statistics.median(loads):.2f}, max {max(loads):.2f} (on "
            f"{meta['machine']['nproc']} CPUs; above ~1 other processes competed for the "
            "CPUs, which inflates times, most of all for torch's multi-threaded kernels).",
        ]
    lines += ["", "Ratios (optimized / upstream; time and solve Δpeak):", ""]
    if optimized_present:
        lines += [
            "| family | n | Q | time opt/dp | Δpeak opt/dp | time opt/hirschberg "
            "| Δpeak opt/hirschberg |",
            "|---|---:|---:|---:|---:|---:|---:|",
            *ratio_rows,
        ]
    else:
        lines.append(
            "**optimized was absent** (not importable when this grid ran): no ratios, "
            "no numbers for it."
        )
    lines += [
        "",
        "Exact optimum per cell (`opt source` is the one the agreement columns use; all "
        "sources found are listed and compared):",
        "",
        "| family | n | Q | sum w | OPT | opt source | sources | cross-check | SPEC 5.2 tol |",
        "|---|---:|---:|---:|---:|---|---|---|---:|",
        *oracle_rows,
        "",
    ]
    return lines


def _largest_section(largest: dict[str, Any] | None) -> list[str]:
    lines = ["## Largest n*Q solved within the memory cap and the time limit", ""]
    if not largest:
        return [*lines, "Not run (`python -m benchmarks.run --largest`).", ""]
    meta = largest["meta"]
    lines += [
        f"Doubling search over Q at fixed n, family `uncorrelated`, one run per step; run "
        f"{meta['date_utc']}, command `{meta['command']}`, caps: "
        f"{meta['options']['mem_limit_gib']} GiB RLIMIT_AS, {meta['options']['timeout']} s. "
        "Solved means returned within both caps; answers are not checked in this mode "
        "(see the grids: `upstream_hirschberg` can return over-budget selections). Steps "
        "are single runs on a possibly busy machine, so the time limit is approximate.",
        *(
            f"Rows for {', '.join(f'`{s}`' for s in m['solvers'])} come from a later run, "
            f"{m['date_utc']}, command `{m['command']}`, revision {m['revision']}."
            for m in largest.get("merged_runs", [])
        ),
        "",
    ]
    for solver in SOLVER_ORDER:
        found = largest["solvers"].get(solver)
        if found is None:
            lines.append(f"- `{solver}`: not run in the search")
            continue
        best = found.get("largest")
        if found["status"] == "absent":
            lines.append(f"- `{solver}`: absent (not importable)")
        elif best is None:
            lines.append(f"- `{solver}`: nothing solved ({found.get('stopped', '')})")
        else:
            lines.append(
                f"- `{solver}`: n*Q = {best['nQ']:.3g} (n={best['n']}, Q={best['capacity']}, "
                f"{best['time_s']:.1f} s, peak {_mib(best['hwm_peak_kib'])} MiB); "
                f"next step: {found.get('stopped') or 'search bound reached'}"
            )
    return [*lines, ""]


TEN_X_FAMILIES = ("uncorrelated", "weakly_correlated", "partitioner_like")
TWO_X_FAMILIES = ("strongly_correlated", "subset_sum")


def _cell_summaries(grids: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``(grid name, cell, {solver: summary})`` for every cell of every grid."""
    out = []
    for name, grid in grids.items():
        for cell in grid["cells"]:
            summaries = {
                solver: summarize(records)
                for solver, records in cell["runs"].items()
                if solver not in cell["skipped"]
            }
            out.append((name, cell, summaries))
    return out


def _speedups(
    rows: list[tuple[str, dict[str, Any], dict[str, Any]]], families: tuple[str, ...], other: str
) -> list[tuple[float, str]]:
    """``(upstream time / optimized time, cell label)`` where both have a median."""
    out = []
    for name, cell, summaries in rows:
        opt, up = summaries.get("optimized", {}), summaries.get(other, {})
        if cell["family"] in families and "time_s" in opt and "time_s" in up:
            label = f"{name}:{cell['family']}/n={cell['n']}/Q={cell['capacity']}"
            out.append((up["time_s"] / opt["time_s"], label))
    return sorted(out)


def _speedup_line(target: str, pairs: list[tuple[float, str]], needed: float) -> str:
    if not pairs:
        return f"| {target} | no cells with both solvers | - |"
    misses = [f"{label} ({x:.2g}x)" for x, label in pairs if x < needed]
    verdict = "met" if not misses else f"missed in {len(misses)}: " + ", ".join(misses)
    return f"| {target} | min {pairs[0][0]:.3g}x over {len(pairs)} cells | {verdict} |"


def _targets_section(grids: dict[str, Any]) -> list[str]:
    """The fast solver's speed targets, each recomputed from the measurements above."""
    rows = [r for r in _cell_summaries(grids) if "optimized" in r[2]]
    lines = [
        "## Targets of the fast solver, recomputed from the cells below",
        "",
        "Speed-ups are upstream median time / optimized median time in the same run "
        "(upstream dp is absent where its table exceeds the memory cap).",
        "",
        "| target | measured | verdict |",
        "|---|---|---|",
    ]
    for other, label in (("upstream_dp", "dp"), ("upstream_hirschberg", "hirschberg")):
        lines.append(
            _speedup_line(
                f">= 10x vs {label} on uncorrelated, weakly correlated, partitioner-like",
                _speedups(rows, TEN_X_FAMILIES, other),
                10.0,
            )
        )
    lines.append(
        _speedup_line(
            ">= 2x vs hirschberg on strongly correlated, subset-sum",
            _speedups(rows, TWO_X_FAMILIES, "upstream_hirschberg"),
            2.0,
        )
    )
    lines.append(
        _speedup_line(
            "never slower than dp (any family)", _speedups(rows, FAMILIES, "upstream_dp"), 1.0
        )
    )
    memory = []
    for name, cell, summaries in rows:
        opt, hb = summaries["optimized"], summaries.get("upstream_hirschberg", {})
        if "delta_kib" in opt and "delta_kib" in hb:
            label = f"{name}:{cell['family']}/n={cell['n']}/Q={cell['capacity']}"
            memory.append((opt["delta_kib"] - hb["delta_kib"], label, opt, hb))
    above = [
        f"{label} ({_mib(o['delta_kib'])} vs {_mib(h['delta_kib'])} MiB)"
        for d, label, o, h in sorted(memory, reverse=True)
        if d > 0
    ]
    lines.append(
        f"| solve Δpeak <= hirschberg's | {len(memory) - len(above)}/{len(memory)} cells "
        f"| {'met' if not above else 'above in: ' + ', '.join(above)} |"
    )
    deltas = {
        (name, cell["family"], cell["n"], cell["capacity"]): summaries["optimized"]["delta_kib"]
        for name, cell, summaries in rows
        if "delta_kib" in summaries["optimized"]
    }
    doubling = []
    for (name, family, n, q), delta in sorted(deltas.items()):
        doubled = deltas.get((name, family, 2 * n, q))
        if doubled is not None:
            change = (doubled - delta) / max(delta, 1)
            doubling.append(
                f"{family}/Q={q}: n={n}->{2 * n} {_mib(delta)}->{_mib(doubled)} MiB "
                f"({100 * change:+.0f}%)"
            )
    lines.append(
        "| doubling n at fixed Q changes Δpeak < 10% | "
        + ("; ".join(doubling) or "no doubled pair")
        + " | see measured |"
    )
    bad = [
        f"{name}:{cell['family']}/n={cell['n']}/Q={cell['capacity']}"
        for name, cell, summaries in rows
        if summaries["optimized"].get("over_budget")
        or summaries["optimized"].get("exact", 0) < summaries["optimized"].get("judged", 0)
    ]
    judged = sum(1 for _, _, s in rows if s["optimized"].get("judged"))
    lines.append(
        f"| 0 over budget, 100% exact | {judged} cells judged against an exact optimum "
        f"| {'met' if not bad else 'FAILED in ' + ', '.join(bad)} |"
    )
    return [*lines, ""]


def _correctness_section(grids: dict[str, Any]) -> list[str]:
    """Per solver, over all grids: cells run and cells with a wrong answer."""
    tally: dict[str, dict[str, list[str]]] = {}
    for grid_name, grid in grids.items():
        for cell in grid["cells"]:
            where = f"{grid_name}:{cell['family']}/n={cell['n']}/Q={cell['capacity']}"
            for solver, records in cell["runs"].items():
                s = summarize(records)
                if not s["ok"]:
                    continue
                t = tally.setdefault(solver, {"run": [], "over": [], "inexact": [], "tol": []})
                t["run"].append(where)
                if s["over_budget"]:
                    t["over"].append(where)
                if s["judged"] and s["exact"] < s["judged"]:
                    t["inexact"].append(where)
                if s["judged"] and s["within_tol"] < s["judged"]:
                    t["tol"].append(where)
    lines = [
        "## Correctness summary",
        "",
        "Cells where at least one run of the solver was over budget, missed the exact "
        "optimum, or missed it by more than SPEC 5.2's tolerance (over-budget runs count as "
        "misses).",
        "",
        "| solver | cells solved | over budget | not exact | outside SPEC 5.2 tol |",
        "|---|---:|---:|---:|---:|",
    ]
    for solver in SOLVER_ORDER:
        if solver in tally:
            t = tally[solver]
            lines.append(
                f"| {solver} | {len(t['run'])} | {len(t['over'])} | {len(t['inexact'])} "
                f"| {len(t['tol'])} |"
            )
    for solver in SOLVER_ORDER:
        over = tally.get(solver, {}).get("over", [])
        if over:
            lines.append("")
            lines.append(f"`{solver}` over budget in: " + ", ".join(over))
    return [*lines, ""]


def print_summary(results: dict[str, Any]) -> None:
    """Print the correctness summary of every grid to the terminal (with rich)."""
    from rich.console import Console
    from rich.table import Table

    rows = [
        line.strip("|").split("|")
        for line in _correctness_section(results.get("grids", {}))
        if line.startswith("| ") and not line.startswith("| solver")
    ]
    table = Table(title="Correctness summary (cells)")
    for header in ("solver", "solved", "over budget", "not exact", "outside tol"):
        table.add_column(header, justify="left" if header == "solver" else "right")
    for row in rows:
        table.add_row(*(cell.strip() for cell in row))
    Console(stderr=True).print(table)


def write_markdown(results: dict[str, Any], path: Path) -> None:
    """Write RESULTS.md from the results dictionary built by :mod:`benchmarks.run`."""
    grids = results.get("grids", {})
    meta = next((g["meta"] for g in grids.values()), results["meta"])
    machine = meta["machine"]
    lines = [
        "# Benchmark results",
        "",
        "Generated by `benchmarks/report.py` from `results.json`; columns are explained in "
        "[benchmarks/README.md](../README.md).",
        "",
        f"- Machine: {machine['nproc']} CPUs ({machine.get('cpu_model', '?')}), MemTotal "
        f"{machine['mem_total_kib'] / 2**20:.1f} GiB, {machine['platform']}",
        f"- Versions: Python {machine['python']}, torch {machine['torch']}, numpy "
        f"{machine['numpy']}, scipy {machine['scipy']}, ortools {machine['ortools']}, "
        f"matplotlib {machine['matplotlib']}",
        f"- Threads: children ran with OMP_NUM_THREADS = "
        f"{meta['options'].get('torch_threads', '0')} (0: torch's default, here "
        f'{machine.get("torch_default_threads", "?")}); see README, "How time and memory are '
        f'measured"',
        f"- optimized (`knapsack_audit.optimized.dp_knapsack_sliding_hirschberg`): "
        f"{'present' if meta['optimized_present'] else 'ABSENT'} ({meta['optimized_note']})",
        "- Each run is a fresh `python -m benchmarks.worker` process with RLIMIT_AS = "
        f"{meta['options']['mem_limit_gib']} GiB and a {meta['options']['timeout']} s limit; "
        f"{meta['options']['repeats']} repeats per solver and cell unless a run fails.",
        "",
    ]
    lines += _targets_section(grids)
    lines += _correctness_section(grids)
    for name, grid in grids.items():
        lines += _grid_section(name, grid, bool(grid["meta"]["optimized_present"]))
    lines += _largest_section(results.get("largest"))
    workload = path.parent / "workload.json"
    if workload.exists():
        lines += ["", *workload_sections(json.loads(workload.read_text()))]
    path.write_text("\n".join(lines))


def main() -> None:
    """Rewrite RESULTS.md from ``results.json`` in the directory given (default results/)."""
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "results"
    results = json.loads((out_dir / "results.json").read_text())
    write_markdown(results, out_dir / "RESULTS.md")


if __name__ == "__main__":
    main()
