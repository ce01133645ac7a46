"""The release report's pictures (matplotlib, Agg backend, PNG files).

Three figures, each drawn from data the report has already measured:

* :func:`plot_over_budget`: units over budget per real call, one panel per
  upstream solver, a model (and runtime estimator) per row and a budget per
  column (:mod:`knapsack_audit.golden.findings`);
* :func:`plot_time_ratios`: each upstream solver's time over ours per real
  call against the call's item count, log scales
  (:func:`knapsack_audit.measure.interleaved`);
* :func:`plot_pareto`: for one real graph, memory budget against saved
  runtime: the exact optimum at every budget
  (:func:`knapsack_audit.optimized.runtime_memory_frontier`) and each
  upstream solver's selection at :data:`PARETO_BUDGETS`
  (:func:`pareto_curves`), over-budget selections marked.

Figures are built as :class:`matplotlib.figure.Figure` objects on a
:class:`~matplotlib.backends.backend_agg.FigureCanvasAgg`, never through
``pyplot``: no display, no global state, the same pixels on any machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from knapsack_audit import properties
from knapsack_audit.cases import Case
from knapsack_audit.golden.findings import FixtureFindings
from knapsack_audit.optimized import runtime_memory_frontier
from knapsack_audit.properties import Solver
from knapsack_audit.reference import quantize

PARETO_BUDGETS = tuple(step / 20 for step in range(21))
"""Budgets 0, 0.05, ..., 1 at which each upstream solver is called for the Pareto figure."""

DPI = 110
"""Resolution of the PNG files."""


@dataclass(frozen=True)
class SolverPoint:
    """One solver's selection at one budget: its exact value and whether it fits."""

    budget: float
    value: Fraction
    over_budget: bool


@dataclass(frozen=True)
class ParetoCurves:
    """One call's exact frontier and each upstream solver's points on it."""

    title: str
    total: Fraction
    frontier: tuple[tuple[float, Fraction], ...]
    solvers: tuple[tuple[str, tuple[SolverPoint, ...]], ...]


def pareto_curves(
    case: Case,
    solvers: Sequence[tuple[str, Solver]],
    title: str,
    budgets: Sequence[float] = PARETO_BUDGETS,
) -> ParetoCurves:
    """The exact optimum of ``case``'s items at every budget up to the largest of
    ``budgets`` (breakpoints), and each solver's selection at each of ``budgets``
    (exact value; over budget or not). A call that raises gives no point."""
    memory, runtime, _ = case.arguments()
    frontier = runtime_memory_frontier(memory, runtime, max(budgets))
    exact = tuple((units / 10_000, frontier.optimum(units)) for units in frontier.budgets)
    points = []
    for name, solver in solvers:
        mine = []
        for budget in budgets:
            outcome = properties.call(solver, Case(case.memory, case.runtime, budget))
            saved = properties._valid_saved(outcome, case)
            if outcome.error is None and saved is not None:
                over = properties.saved_weight(case, saved) > quantize(budget)
                mine.append(SolverPoint(budget, properties.saved_value(case, saved), over))
        points.append((name, tuple(mine)))
    total = properties.saved_value(case, range(case.n))
    return ParetoCurves(title, total, exact, tuple(points))


def _save(figure: Figure, path: Path) -> Path:
    FigureCanvasAgg(figure)
    figure.savefig(path, dpi=DPI, format="png")
    return path


def _row_label(fixture_findings: FixtureFindings) -> str:
    origin = fixture_findings.fixture.provenance
    return f"{origin.get('model')} ({origin.get('runtime_estimator')})"


def plot_over_budget(findings: Sequence[FixtureFindings], path: Path) -> Path:
    """Units over budget per real call: a panel per upstream solver, a row per
    model and estimator, a column per budget; a cell shows the largest overrun
    among that setting's calls, blank where no call was captured."""
    names = [result.solver for result in findings[0].results]
    rows = sorted({_row_label(f) for f in findings})
    budgets = sorted({float(f.fixture.provenance.get("budget", math.nan)) for f in findings})
    figure = Figure(figsize=(3.2 * len(names) + 1.5, 0.26 * len(rows) + 2.2), layout="constrained")
    axes = figure.subplots(1, len(names), sharey=True, squeeze=False)[0]
    worst = max((r.units_over for f in findings for r in f.results), default=0)
    colors = colormaps["Reds"].with_extremes(under="#dff0d8", bad="white")
    for axis, name in zip(axes, names, strict=True):
        grid = [[math.nan] * len(budgets) for _ in rows]
        for f in findings:
            row = rows.index(_row_label(f))
            column = budgets.index(float(f.fixture.provenance.get("budget", math.nan)))
            units = f.result(name).units_over
            previous = grid[row][column]
            grid[row][column] = units if math.isnan(previous) else max(previous, units)
        image = axis.imshow(grid, cmap=colors, vmin=0.5, vmax=max(worst, 1), aspect="auto")
        for row, values in enumerate(grid):
            for column, cell in enumerate(values):
                if not math.isnan(cell) and cell > 0:
                    shade = "white" if cell > worst / 2 else "black"
                    axis.text(
                        column,
                        row,
                        f"{cell:.0f}",
                        ha="center",
                        va="center",
                        fontsize=6,
                        color=shade,
                    )
        over = sum(1 for f in findings if f.result(name).units_over > 0)
        axis.set_title(f"{name}\nover budget on {over} of {len(findings)} calls", fontsize=9)
        axis.set_xticks(range(len(budgets)), [f"{b:g}" for b in budgets], fontsize=7)
        axis.set_xlabel("activation memory budget", fontsize=8)
        axis.set_yticks(range(len(rows)), rows, fontsize=7)
    figure.colorbar(image, ax=list(axes), label="units of 1e-4 over the budget (largest per cell)")
    figure.suptitle(
        "Upstream solvers: units over budget on the partitioner's real calls "
        "(green: within budget, white: no call)"
    )
    return _save(figure, path)


def plot_time_ratios(findings: Sequence[FixtureFindings], path: Path, method: str) -> Path:
    """Upstream time / our time per real call against the call's items, log scales."""
    figure = Figure(figsize=(8, 5), layout="constrained")
    axis = figure.subplots()
    markers = "os^Dv"
    for index, first in enumerate(findings[0].results):
        points = [
            (f.fixture.case.n, ratio)
            for f in findings
            if (ratio := f.ratio(first.solver)) is not None and ratio > 0
        ]
        if points:
            axis.scatter(
                [n for n, _ in points],
                [ratio for _, ratio in points],
                s=14,
                marker=markers[index % len(markers)],
                alpha=0.7,
                label=first.solver,
            )
    axis.axhline(1.0, color="black", linewidth=0.8, linestyle="--", label="as fast as ours")
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("items in the call (n)")
    axis.set_ylabel("upstream time / our optimized solver's time")
    axis.set_title(
        "Time per real call against our optimized solver\n" + _wrap(method, 120), fontsize=8
    )
    axis.legend(fontsize=8)
    return _save(figure, path)


def _wrap(text: str, width: int) -> str:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "\n".join([*lines, line])


def plot_pareto(curves: ParetoCurves, path: Path) -> Path:
    """Left, memory budget against saved runtime: the exact optimum as a step
    line, each upstream solver's selections as markers. Right, each selection's
    saved runtime minus the exact optimum at its budget: below zero it saves less
    than it could, above zero it can only be over budget (hollow red markers)."""
    figure = Figure(figsize=(11, 4.8), layout="constrained")
    curve, gap = figure.subplots(1, 2)
    total = curves.total or Fraction(1)
    budgets = [budget for budget, _ in curves.frontier]
    optima = [value for _, value in curves.frontier]
    values = [float(value / total) for value in optima]
    curve.step(
        [*budgets, 1.0], [*values, values[-1]], where="post", color="black", linewidth=1.2,
        label="exact optimum",
    )  # fmt: skip
    gap.axhline(0.0, color="black", linewidth=1.2, label="exact optimum")

    def optimum(budget: float) -> Fraction:
        units = quantize(budget)
        return max((v for b, v in curves.frontier if quantize(b) <= units), default=Fraction(0))

    markers = "os^Dv"
    for index, (name, points) in enumerate(curves.solvers):
        marker = markers[index % len(markers)]
        color = f"C{index}"
        curve.scatter(
            [p.budget for p in points],
            [float(p.value / total) for p in points],
            s=18, marker=marker, color=color, alpha=0.8, label=name,
        )  # fmt: skip
        for over, style in ((False, {"color": color}), (True, {"facecolors": "none"})):
            chosen = [p for p in points if p.over_budget is over]
            if not chosen:
                continue
            gap.scatter(
                [p.budget for p in chosen],
                [float((p.value - optimum(p.budget)) / total) for p in chosen],
                s=40 if over else 18,
                marker=marker,
                edgecolors="red" if over else color,
                linewidths=1.4 if over else 0.5,
                label=f"{name}: over budget" if over else name,
                **style,
            )
    curve.set_xlabel("activation memory budget")
    curve.set_ylabel("saved runtime (fraction of the total)")
    curve.set_xlim(0, 1)
    curve.set_title(f"Pareto curve on {curves.title}", fontsize=10)
    curve.legend(fontsize=7, loc="lower right")
    gap.set_xlabel("activation memory budget")
    gap.set_ylabel("saved runtime - exact optimum (fraction of the total)")
    gap.set_xlim(0, 1)
    gap.set_yscale("symlog", linthresh=1e-4)
    gap.set_title("Against the exact optimum: above 0 only by going over budget", fontsize=10)
    gap.legend(fontsize=7, loc="lower right")
    return _save(figure, path)
