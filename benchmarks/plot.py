"""PNG plots of solve time and peak memory from ``results.json``.

``python -m benchmarks.plot [results_dir]`` (also called by :mod:`benchmarks.run`).
For each grid and family: time, peak ``VmHWM`` and the solve's Δpeak against
``n`` (one column per ``Q``) and against ``Q`` (one column per ``n``), log-log,
one line per solver; a family with a single cell gets a bar chart instead
(peak split into "before the solve" and the solve's Δpeak). Only successful runs are
plotted (medians over repeats); failures and skips are in RESULTS.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from benchmarks.report import SOLVER_ORDER, summarize

MARKERS = dict(zip(SOLVER_ORDER, "osD^vxP", strict=True))
COLORS = dict(zip(SOLVER_ORDER, (f"C{i}" for i in range(len(SOLVER_ORDER))), strict=True))
"""Fixed colour per solver, so that every panel and every figure agree."""
DELTA_FLOOR_MIB = 0.1
"""Δpeak values below this are drawn at it (log axis; greedy adds about nothing)."""


def _points(grid: dict[str, Any], family: str) -> dict[tuple[int, int], dict[str, dict[str, Any]]]:
    """``{(n, Q): {solver: summary}}`` for the successful solvers of one family."""
    out: dict[tuple[int, int], dict[str, dict[str, Any]]] = {}
    for cell in grid["cells"]:
        if cell["family"] != family:
            continue
        sums = {s: summarize(r) for s, r in cell["runs"].items()}
        out[(cell["n"], cell["capacity"])] = {s: v for s, v in sums.items() if v["ok"]}
    return out


def _line_figure(
    points: dict[tuple[int, int], dict[str, dict[str, Any]]], title: str, by: str, path: Path
) -> None:
    """Panels per fixed other axis; x = n (``by='n'``) or Q (``by='Q'``)."""
    fixed_values = sorted({q if by == "n" else n for n, q in points})
    fig, axes = plt.subplots(
        3, len(fixed_values), figsize=(4.5 * len(fixed_values), 11), squeeze=False
    )
    for col, fixed in enumerate(fixed_values):
        cells = sorted(
            (n if by == "n" else q, sums)
            for (n, q), sums in points.items()
            if (q if by == "n" else n) == fixed
        )
        for solver in SOLVER_ORDER:
            xs = [x for x, sums in cells if solver in sums]
            if not xs:
                continue
            times = [sums[solver]["time_s"] for _, sums in cells if solver in sums]
            peaks = [sums[solver]["peak_kib"] / 1024 for _, sums in cells if solver in sums]
            deltas = [
                max(DELTA_FLOOR_MIB, sums[solver]["delta_kib"] / 1024)
                for _, sums in cells
                if solver in sums
            ]
            style = {"marker": MARKERS[solver], "color": COLORS[solver], "label": solver}
            axes[0][col].plot(xs, times, **style)
            axes[1][col].plot(xs, peaks, **style)
            axes[2][col].plot(xs, deltas, **style)
        other = "Q" if by == "n" else "n"
        axes[0][col].set_title(f"{other} = {fixed:g}")
        axes[0][col].set_ylabel("solve time (s, median)")
        axes[1][col].set_ylabel("peak VmHWM of the process (MiB)")
        axes[2][col].set_ylabel(f"solve Δpeak (MiB, floor {DELTA_FLOOR_MIB})")
        for row in (0, 1, 2):
            axes[row][col].set_xscale("log")
            axes[row][col].set_yscale("log")
            axes[row][col].set_xlabel(by)
            axes[row][col].grid(True, which="both", alpha=0.3)
    handles = {
        label: handle
        for ax in axes.flat
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True)
    }
    shown = [s for s in SOLVER_ORDER if s in handles]
    ncol = min(4, 2 * len(fixed_values))
    legend_rows = -(-len(shown) // ncol)
    fig.legend([handles[s] for s in shown], shown, loc="lower center", ncol=ncol, fontsize=9)
    fig.suptitle(title)
    fig.tight_layout(rect=(0.0, 0.01 + 0.025 * legend_rows, 1.0, 1.0))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _bar_figure(sums: dict[str, dict[str, Any]], title: str, path: Path) -> None:
    solvers = [s for s in SOLVER_ORDER if s in sums]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    axes[0].bar(solvers, [sums[s]["time_s"] for s in solvers], color=[COLORS[s] for s in solvers])
    axes[0].set_yscale("log")
    axes[0].set_ylabel("solve time (s, median)")
    baselines = [(sums[s]["peak_kib"] - sums[s]["delta_kib"]) / 1024 for s in solvers]
    deltas = [sums[s]["delta_kib"] / 1024 for s in solvers]
    axes[1].bar(solvers, baselines, color="#bbbbbb", label="before the solve")
    axes[1].bar(solvers, deltas, bottom=baselines, color="#d62728", label="solve Δpeak")
    axes[1].set_ylabel("peak VmHWM of the process (MiB)")
    axes[1].legend(fontsize=8)
    for ax in axes:
        ax.tick_params(axis="x", rotation=40, labelsize=8)
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_all(results: dict[str, Any], out_dir: Path) -> list[Path]:
    """Write every plot for every grid; return the paths written."""
    written: list[Path] = []
    for grid_name, grid in results.get("grids", {}).items():
        for family in dict.fromkeys(cell["family"] for cell in grid["cells"]):
            points = _points(grid, family)
            ns = {n for n, _ in points}
            qs = {q for _, q in points}
            base = f"{grid_name}_{family}"
            if len(points) == 1:
                (((n, q), sums),) = points.items()
                path = out_dir / f"{base}.png"
                _bar_figure(sums, f"{grid_name}: {family}, n={n}, Q={q}", path)
                written.append(path)
                continue
            if len(ns) > 1:
                path = out_dir / f"{base}_vs_n.png"
                _line_figure(points, f"{grid_name}: {family}, against n", "n", path)
                written.append(path)
            if len(qs) > 1:
                path = out_dir / f"{base}_vs_Q.png"
                _line_figure(points, f"{grid_name}: {family}, against Q", "Q", path)
                written.append(path)
    return written


def main() -> None:
    """Plot ``results.json`` of the directory given (default benchmarks/results)."""
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "results"
    results = json.loads((out_dir / "results.json").read_text())
    for path in plot_all(results, out_dir):
        print(path)


if __name__ == "__main__":
    main()
