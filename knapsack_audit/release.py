"""``knapsack-audit report``: the release audit, one story in four files.

It runs ``verify`` on every knapsack solver of the installed torch and on
every solver of ours that loads (both from :mod:`knapsack_audit.catalog`),
and, in a second process at the same time, replays the golden fixtures
shipped with the package (:func:`replay_golden`). It writes, beside the
Markdown file ``PATH.md``:

* ``PATH.json``, the same verdicts for a machine (and for ``--baseline``);
* ``PATH.xml``, JUnit XML: a suite per target, and one for the golden replay;
* ``PATH-over-budget.png``, ``PATH-time-ratio.png``, ``PATH-pareto.png``
  (:mod:`knapsack_audit.plots`), linked from the Markdown.

One vocabulary everywhere (terminal, Markdown, JSON, JUnit): a solver is
"correct on N of C real calls" and "over budget on M", with the worst call
copy-pasteable (:class:`knapsack_audit.golden.findings.SolverVerdict`); the
check that upstream still behaves as recorded is a separate, named *drift
check* (:class:`DriftCheck`), which "reproduces the recorded findings" or
does not. Every time ratio is measured one way
(:func:`knapsack_audit.measure.interleaved`) and says so.

With ``--baseline OLD.json`` (a previous report's JSON twin) the exit code
is the release gate's (:func:`regressions`): 1 on any regression against
it, else 0.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from knapsack_audit import __version__, catalog, plots
from knapsack_audit.golden import findings as golden_findings
from knapsack_audit.golden import fixtures
from knapsack_audit.golden import replay as golden_replay
from knapsack_audit.golden.findings import FixtureFindings, SolverVerdict
from knapsack_audit.reports import Check, markdown_sections, to_junit, verdict_table
from knapsack_audit.sandbox import describe_sandbox
from knapsack_audit.targets import Target, parse_target
from knapsack_audit.terminal import print_summary, progress_display
from knapsack_audit.verify import AuditOptions, TargetReport, exit_code, verify_all

VERSIONED = ("torch", "numpy", "hypothesis", "scipy", "matplotlib", "knapsack-audit")

PARETO_GRAPH = ("gpt2_48", "flops")
"""The real graph of the Pareto figure: a 48-block GPT-2 (481 items, 8 item types),
on which upstream's Hirschberg solver goes over budget; without it, the largest call."""

SPEED_NOISE_FLOOR = 1.0
"""Smallest relative fall of a median time ratio the gate calls a slowdown (a factor 2).

Each run's own noise (:attr:`SolverVerdict.noise`, the rounds' spread)
covers the rounds of one run; between two runs on a shared machine the
median ratio also moves with the load: two replays on the 2-core machine at
a load average of 6 to 8 gave upstream ``dp_knapsack`` / ours medians of
27.9x and 49.8x. So a slowdown must exceed both."""

REPLAY_NICE = 10
"""Niceness of the golden replay's process: ``verify``'s searches have a wall-clock
budget and go first; the replay has none, and its time ratios compare solvers
in the same round, so a lower priority costs it only wall time."""

EXIT_PASSED, EXIT_FAILED, EXIT_UNUSABLE = 0, 1, 2


@dataclass(frozen=True)
class DriftCheck:
    """Does upstream still give the findings recorded for this environment?

    Upstream's findings per property on the small zoo (every one-call
    property) against ``expected_findings.json``. This says whether
    upstream *changed*, not whether it is correct: a solver that is still
    wrong in the same ways reproduces the recorded findings.

    ``rows``: ``(solver, findings now, findings recorded or None)``.
    """

    environment: str
    fixtures: int
    rows: tuple[tuple[str, dict[str, int], dict[str, int] | None], ...]

    @property
    def recorded(self) -> bool:
        """Whether this environment has recorded findings at all."""
        return any(recorded is not None for _, _, recorded in self.rows)

    @property
    def reproduces(self) -> bool:
        """Every solver's findings equal the recorded ones."""
        return self.recorded and all(now == recorded for _, now, recorded in self.rows)

    def changes(self) -> list[str]:
        """One line per solver whose findings differ from the record."""
        return [
            f"{name}: {now or 'none'} now, {recorded or 'none'} recorded"
            for name, now, recorded in self.rows
            if recorded is not None and now != recorded
        ]

    def sentence(self) -> str:
        """The drift check's verdict in words."""
        what = (
            f"Drift check (upstream's findings per property on the {self.fixtures} small-zoo "
            f"calls against those recorded for {self.environment})"
        )
        if not self.recorded:
            return f"{what}: not run, nothing is recorded for this environment."
        if self.reproduces:
            return f"{what}: reproduces the recorded findings."
        return f"{what}: does NOT reproduce the recorded findings ({'; '.join(self.changes())})."


@dataclass
class GoldenReplay:
    """What replaying the golden fixtures gave (:func:`replay_golden`).

    ``small_zoo``: ``(solver, fixtures, findings)`` for each solver of ours
    on the small zoo, every property; ``findings``: every solver on every
    fixture (:mod:`knapsack_audit.golden.findings`); ``pareto``: the curves
    of :data:`PARETO_GRAPH`.
    """

    installed: bool
    repeats: int = golden_findings.TIMING_REPEATS
    small_zoo: list[tuple[str, int, int]] = field(default_factory=list)
    findings: list[FixtureFindings] = field(default_factory=list)
    drift: DriftCheck | None = None
    pareto: plots.ParetoCurves | None = None

    def verdicts(self) -> list[SolverVerdict]:
        """Ours, then each upstream solver, over every real call."""
        return golden_findings.verdicts(self.findings)

    @property
    def failed(self) -> bool:
        """Ours wrong anywhere, or upstream no longer as recorded."""
        ours_wrong = any(v.correct < v.calls for v in self.verdicts() if v.solver == "ours")
        drifted = self.drift is not None and self.drift.recorded and not self.drift.reproduces
        return ours_wrong or drifted or any(count for _, _, count in self.small_zoo)

    def real_scale_calls(self) -> int:
        """Calls from the real-scale zoo (deep models)."""
        return sum(1 for f in self.findings if golden_replay.is_real_scale(f.fixture))

    def verdict_lines(self) -> list[str]:
        """The sentence per solver, then our small-zoo lines, then the drift check."""
        lines = [v.sentence(self.real_scale_calls()) for v in self.verdicts()]
        lines += [
            f"{name}: {count} findings on the {fixtures_} small-zoo calls, every property"
            for name, fixtures_, count in self.small_zoo
        ]
        if self.drift is not None:
            lines.append(self.drift.sentence())
        return lines

    def time_lines(self) -> list[str]:
        """The timing method, then one median ratio per upstream solver."""
        return golden_findings.time_ratio_lines(self.findings, self.repeats)

    def to_dict(self) -> dict[str, Any]:
        """The JSON twin's ``golden`` section."""
        if not self.installed:
            return {"installed": False}
        return {
            "installed": True,
            "calls": len(self.findings),
            "timing_method": golden_findings.timing_method(self.repeats),
            "timing_rounds": self.repeats,
            "solvers": [
                {**v.to_dict(), "sentence": v.sentence(self.real_scale_calls())}
                for v in self.verdicts()
            ],
            "small_zoo": [
                {"solver": name, "calls": count_, "findings": found}
                for name, count_, found in self.small_zoo
            ],
            "drift_check": None
            if self.drift is None
            else {
                "reproduces_recorded_findings": self.drift.reproduces,
                "recorded": self.drift.recorded,
                "sentence": self.drift.sentence(),
            },
        }

    def checks(self) -> list[Check]:
        """The JUnit twin's golden suite: a case per solver, and the drift check."""
        suite = "golden replay"
        checks = [
            Check(
                suite,
                f"{v.label}: correct on every real call",
                None if v.correct == v.calls else v.sentence(self.real_scale_calls()),
                v.worst_call() or "",
            )
            for v in self.verdicts()
        ]
        checks += [
            Check(
                suite, f"{name}: small zoo, every property", f"{count} findings" if count else None
            )
            for name, _, count in self.small_zoo
        ]
        if self.drift is not None and self.drift.recorded:
            checks.append(
                Check(
                    suite,
                    "drift check: reproduces the recorded findings",
                    None if self.drift.reproduces else self.drift.sentence(),
                )
            )
        return checks


def release_targets() -> tuple[list[Target], list[str]]:
    """Torch's solvers and ours that exist, and notes on those that do not."""
    notes: list[str] = []
    targets = [
        target
        for name in catalog.installed_torch_solvers()
        for target in parse_target(f"torch:{name}")
    ]
    for solver in catalog.ours():
        if _loads(solver):
            targets += parse_target(solver.name)
        else:
            notes.append(f"`{solver.name}` is not installed; not audited.")
    return targets, notes


def _loads(solver: catalog.Entry) -> bool:
    try:
        solver.load()
    except catalog.TargetError:
        return False
    return True


def drift_check(small: list[fixtures.Fixture], recorded: dict[str, Any]) -> DriftCheck:
    """Upstream's findings per property on ``small`` against ``recorded`` (this
    environment's entry of ``expected_findings.json``)."""
    expected = recorded.get("findings", {})
    rows = []
    for solver in golden_replay.upstream_solvers():
        name = solver.name.rpartition(":")[2]
        now = golden_replay.count(golden_replay.replay(solver, small))
        rows.append((name, now, expected.get(name)))
    return DriftCheck(golden_replay.environment_key(), len(small), tuple(rows))


def pareto_fixture(loaded: list[fixtures.Fixture]) -> fixtures.Fixture:
    """The call of :data:`PARETO_GRAPH`, or the largest call."""
    model, estimator = PARETO_GRAPH
    for fixture in loaded:
        origin = fixture.provenance
        if origin.get("model") == model and origin.get("runtime_estimator") == estimator:
            return fixture
    return max(loaded, key=lambda fixture: fixture.case.n)


def replay_golden(repeats: int = golden_findings.TIMING_REPEATS) -> GoldenReplay:
    """Replay the golden fixtures (package data) against ours and torch's solvers.

    Small zoo: every one-call property; ours must have no finding, and
    upstream's are the drift check (:class:`DriftCheck`). Every fixture,
    real scale included: every solver once, judged exactly (overrun,
    shortfall), then timed (:mod:`knapsack_audit.golden.findings`); ours must
    be correct on every one. Then the Pareto curves of one real graph. An
    install without the fixtures skips the replay.
    """
    directory = fixtures.default_directory()
    if not directory.is_dir():
        return GoldenReplay(installed=False)
    loaded = fixtures.load(directory)
    small, _ = golden_replay.split(loaded)
    outcome = GoldenReplay(installed=True, repeats=repeats)
    for solver in golden_replay.our_solvers():
        outcome.small_zoo.append(
            (solver.name, len(small), len(golden_replay.replay(solver, small)))
        )
    solvers = golden_findings.judged_solvers()
    outcome.findings = golden_findings.judge_all(loaded, repeats, solvers)
    recorded = golden_replay.read_expected(directory).get(golden_replay.environment_key(), {})
    outcome.drift = drift_check(small, recorded)
    graph = pareto_fixture(loaded)
    title = f"{graph.provenance.get('model')} ({graph.provenance.get('runtime_estimator')}, "
    outcome.pareto = plots.pareto_curves(graph.case, solvers[1:], title + f"n={graph.case.n})")
    return outcome


def versions() -> list[tuple[str, str]]:
    """(package, version) for Python and :data:`VERSIONED`."""
    rows = [("python", platform.python_version())]
    for name in VERSIONED:
        try:
            rows.append((name, importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:
            rows.append((name, "not installed"))
    return rows


def environment() -> list[tuple[str, str]]:
    """(what, value) describing the machine the audit ran on."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return [
        ("platform", platform.platform()),
        ("machine", platform.machine()),
        ("cpu count", str(os.cpu_count())),
        ("load average (1 min, at the end)", f"{load:.2f}"),
        ("python executable", sys.executable),
    ]


def plot_paths(output: Path) -> dict[str, Path]:
    """Where the three figures go: beside ``output``, named after it."""
    return {
        kind: output.with_name(f"{output.stem}-{kind}.png")
        for kind in ("over-budget", "time-ratio", "pareto")
    }


def write_plots(golden: GoldenReplay, output: Path) -> dict[str, Path]:
    """Draw the figures the replay has data for; their paths by kind."""
    if not golden.findings:
        return {}
    paths = plot_paths(output)
    drawn = {
        "over-budget": plots.plot_over_budget(golden.findings, paths["over-budget"]),
        "time-ratio": plots.plot_time_ratios(
            golden.findings, paths["time-ratio"], golden_findings.timing_method(golden.repeats)
        ),
    }
    if golden.pareto is not None:
        drawn["pareto"] = plots.plot_pareto(golden.pareto, paths["pareto"])
    return drawn


@dataclass
class Release:
    """Everything one ``report`` run found, for the four outputs."""

    reports: list[TargetReport]
    golden: GoldenReplay
    notes: list[str]
    options: AuditOptions
    code: int = 0
    plots: dict[str, Path] = field(default_factory=dict)
    seconds: float = 0.0
    baseline: str | None = None
    regressions: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The JSON twin (what ``--baseline`` reads back)."""
        return {
            "tool": "knapsack-audit report",
            "version": __version__,
            "exit_code": self.code,
            "seconds": round(self.seconds, 1),
            "versions": dict(versions()),
            "targets": [report.to_dict() for report in self.reports],
            "golden": self.golden.to_dict(),
            "plots": {kind: path.name for kind, path in self.plots.items()},
            "baseline": None
            if self.baseline is None
            else {"path": self.baseline, "regressions": self.regressions},
        }


def _exit_sentence(release: Release) -> str:
    if release.baseline is not None:
        if release.regressions:
            return (
                f"Exit code {release.code}: {len(release.regressions)} regressions against the "
                f"baseline `{release.baseline}` (listed under Release gate)."
            )
        return (
            f"Exit code {release.code}: no regression against the baseline "
            f"`{release.baseline}`; failures already in the baseline do not stop the release."
        )
    if release.code:
        return f"Exit code {release.code}: at least one solver failed a check (see Verdicts)."
    return "Exit code 0: every check passed."


def release_markdown(release: Release) -> str:
    """The release report in Markdown."""
    golden, options = release.golden, release.options
    lines = ["# knapsack-audit release audit", "", _exit_sentence(release), ""]
    if release.baseline is not None:
        lines += ["## Release gate", ""]
        lines += [f"Baseline: `{release.baseline}`.", ""]
        lines += [f"- REGRESSION: {line}" for line in release.regressions] or [
            "No regression: no solver that passed fails now, no new over-budget real call, "
            "no slower median time ratio beyond the noise."
        ]
        lines.append("")
    lines += ["## Versions", "", "| package | version |", "|---|---|"]
    lines += [f"| {name} | {version} |" for name, version in versions()]
    lines += ["", "## Environment", "", "| what | value |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in environment()]
    lines += [
        "",
        f"Search: at most {options.max_examples} random cases and {options.time_budget:g} s "
        "per target after the exhaustive phase, seed "
        f"{'fresh per target (in each verdict)' if options.seed is None else options.seed}; "
        "call timeout "
        f"{options.call_timeout:g} s. Sandbox: {describe_sandbox(options.sandbox)}. "
        f"Report made in {release.seconds:.0f} s.",
        "",
        "## Verdicts",
        "",
    ]
    lines += verdict_table(release.reports)
    lines += [""] + [f"- {note}" for note in release.notes] + [""]
    lines += golden_markdown(golden, release.plots)
    lines += ["", "## Targets", ""]
    lines += markdown_sections(release.reports, level=3)
    return "\n".join(lines) + "\n"


def golden_markdown(golden: GoldenReplay, drawn: dict[str, Path]) -> list[str]:
    """The golden section: verdicts per solver, timings, pictures, drift check."""
    lines = ["## Golden replay: the partitioner's real calls", ""]
    if not golden.installed:
        return [*lines, "No golden fixtures found in the installed package; replay skipped."]
    calls = len(golden.findings)
    lines += [
        golden_findings.summary_lines(golden.findings)[0],
        "Correct means answered, within the budget and not below the optimum: exactly for "
        f"ours (`{catalog.OPTIMIZED}`), within the SPEC 5.2 float32 tolerance for upstream's "
        "(as `verify` judges them).",
        "",
        "| solver | correct on | over budget on | worst overrun | time / ours (median per call) |",
        "|---|---|---|---|---|",
    ]
    for v in golden.verdicts():
        worst = "-" if v.worst is None else f"+{v.worst[0]} units"
        ratio = "-" if v.time_ratio is None else f"{v.time_ratio:.3g}x (noise {v.noise:.0%})"
        lines.append(
            f"| {v.label} | {v.correct} of {calls} | {len(v.over_budget)} of {calls} | {worst} "
            f"| {ratio} |"
        )
    lines += ["", *(f"- {line}" for line in golden.verdict_lines())]
    lines += ["", *golden.time_lines()[:1], ""]
    lines += [f"- {line}" for line in golden.time_lines()[1:]]
    captions = {
        "over-budget": "Units over budget per real call, by model and budget",
        "time-ratio": "Upstream time / ours per real call (log scales)",
        "pareto": "Memory budget against saved runtime on one real graph",
    }
    for kind, path in drawn.items():
        lines += ["", f"![{captions[kind]}]({path.name})"]
    overrunning = [v for v in golden.verdicts() if v.worst_call() is not None]
    if overrunning:
        lines += ["", "### The worst over-budget call of each solver", ""]
    for v in overrunning:
        assert v.worst is not None
        lines += [
            f"<details><summary>{v.label}: +{v.worst[0]} units on "
            f"{golden_findings.where(v.worst[1])}</summary>",
            "",
            "```python",
            v.worst_call() or "",
            "```",
            "",
            "</details>",
            "",
        ]
    lines += [
        "",
        "<details><summary>Per call: units over budget (bold) or shortfall below the "
        "optimum; each upstream solver's time / ours (median of the interleaved rounds)"
        "</summary>",
        "",
        *golden_findings.markdown_table(golden.findings),
        "",
        "</details>",
    ]
    return lines


@dataclass(frozen=True)
class Baseline:
    """A previous report's JSON twin and where it was read from."""

    path: str
    document: dict[str, Any]


def read_baseline(path: str) -> Baseline:
    """A previous report's JSON twin; :class:`ValueError` naming ``--baseline`` if unusable."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"--baseline {path}: cannot read a report's JSON: {error}") from error
    if not isinstance(document, dict) or document.get("tool") != "knapsack-audit report":
        raise ValueError(f"--baseline {path}: not the JSON of a `knapsack-audit report`")
    return Baseline(path, document)


def _failed(target: dict[str, Any]) -> set[str]:
    return {finding["property"] for finding in target.get("findings", [])}


def regressions(baseline: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """What got worse from ``baseline`` to ``current`` (both JSON twins).

    * a target that passed and now fails or errs (a target that failed
      already is not compared property by property: the random search finds
      a different subset of its failures from run to run, greedy's
      ``permutation-invariant`` in two runs of three here);
    * a golden solver correct on every call then and not now, or correct on
      fewer calls; a real call over budget now and not then;
    * a median time ratio (upstream / ours) smaller now by more than the
      larger of the two runs' noise and :data:`SPEED_NOISE_FLOOR`: our
      solver got slower against the same upstream.
    """
    found = []
    before = {target["label"]: target for target in baseline.get("targets", [])}
    for target in current.get("targets", []):
        old = before.get(target["label"])
        if old is None:
            continue
        if old["status"] == "pass" and target["status"] in ("fail", "error"):
            failed = ", ".join(sorted(_failed(target))) or target["status"]
            found.append(f"`{target['label']}` passed in the baseline and now fails ({failed})")
    old_solvers = {v["solver"]: v for v in baseline.get("golden", {}).get("solvers", [])}
    for verdict in current.get("golden", {}).get("solvers", []):
        old = old_solvers.get(verdict["solver"])
        if old is None:
            continue
        name = verdict["solver"]
        if verdict["correct"] < old["correct"]:
            was = "every" if old["correct"] == old["calls"] else f"{old['correct']} of the"
            found.append(
                f"{name}: correct on {verdict['correct']} of {verdict['calls']} real calls, "
                f"{was} {old['calls']} in the baseline"
            )
        new_over = [call for call in verdict["over_budget"] if call not in old["over_budget"]]
        if new_over:
            found.append(
                f"{name}: over budget on {len(new_over)} real calls it was not over budget on in "
                f"the baseline: {', '.join(new_over[:5])}{' ...' if len(new_over) > 5 else ''}"
            )
        ratio, old_ratio = verdict.get("median_time_ratio"), old.get("median_time_ratio")
        if ratio and old_ratio:
            noise = max(
                verdict.get("time_ratio_noise") or 0, old.get("time_ratio_noise") or 0,
                SPEED_NOISE_FLOOR,
            )  # fmt: skip
            if ratio < old_ratio / (1 + noise):
                found.append(
                    f"ours against {name}: median time ratio {ratio:.3g}x, "
                    f"{old_ratio:.3g}x in the baseline (slower beyond the noise, {noise:.0%})"
                )
    return found


def _print_golden(console: Console, golden: GoldenReplay) -> None:
    if not golden.installed:
        console.print("no golden fixtures found in the installed package; golden replay skipped")
        return
    console.print(Text("Golden replay", style="bold"))
    for line in [*golden.verdict_lines(), *golden.time_lines()]:
        console.print(Text(f"  {line}"), soft_wrap=True)


def run_release_report(
    output: str,
    options: AuditOptions,
    jobs: int,
    quiet: bool,
    baseline: Baseline | None = None,
    repeats: int = golden_findings.TIMING_REPEATS,
) -> int:
    """``knapsack-audit report``: audit, replay, write the four files; the exit code
    (the release gate's against ``baseline`` when given)."""
    started = time.perf_counter()
    targets, notes = release_targets()
    console = Console(highlight=False)
    with ProcessPoolExecutor(
        max_workers=1, mp_context=get_context("spawn"), initializer=os.nice, initargs=(REPLAY_NICE,)
    ) as pool:
        replaying = pool.submit(replay_golden, repeats)
        with progress_display(quiet) as progress:
            reports = verify_all(
                targets,
                options,
                jobs,
                on_example=progress.example,
                on_done=progress.done,
                on_start=progress.started,
            )
        golden = replaying.result()
    path = Path(output)
    release = Release(reports, golden, notes, options)
    release.baseline = None if baseline is None else baseline.path
    release.plots = write_plots(golden, path)
    release.code = exit_code(reports)
    if golden.failed and release.code == EXIT_PASSED:
        release.code = EXIT_FAILED
    release.seconds = time.perf_counter() - started
    if baseline is not None:
        release.regressions = regressions(baseline.document, release.to_dict())
        release.code = EXIT_FAILED if release.regressions else EXIT_PASSED
    path.write_text(release_markdown(release), encoding="utf-8")
    twin = path.with_suffix(".json")
    twin.write_text(json.dumps(release.to_dict(), indent=2) + "\n", encoding="utf-8")
    junit = path.with_suffix(".xml")
    checks = golden.checks()
    if baseline is not None:
        failure = f"{len(release.regressions)} regressions" if release.regressions else None
        name = f"no regression against {baseline.path}"
        checks.append(Check("release gate", name, failure, "\n".join(release.regressions)))
    junit.write_text(to_junit(reports, checks), encoding="utf-8")
    _print_golden(console, golden)
    for line in release.regressions:
        console.print(Text(f"REGRESSION {line}", style="bold red"), soft_wrap=True)
    print_summary(console, reports, release.code)
    written = [path, twin, junit, *release.plots.values()]
    console.print(f"report written to {', '.join(str(p) for p in written)}", soft_wrap=True)
    return release.code
