"""The ``knapsack-audit`` command.

``knapsack-audit verify TARGET [TARGET ...]`` audits solvers against
docs/SPEC.md with the property engine; ``knapsack-audit report --output
PATH.md`` writes a release audit. Exit codes: 0 every target passed, 1 some
property failed, 2 usage error or a target that cannot be loaded, 3 no failure
found but a search was cut off before its effort was spent (not a pass).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

from knapsack_audit import __version__
from knapsack_audit.compare import CompareOptions, parse_claim, read_claims, run_compare
from knapsack_audit.compare_report import print_compare, provenance, write_compare_report
from knapsack_audit.families import EFFORTS
from knapsack_audit.isolation import DEFAULT_CALL_TIMEOUT, DEFAULT_MEMORY_LIMIT
from knapsack_audit.reports import report_format, write_report
from knapsack_audit.sandbox import SandboxUnavailable, require_sandbox, sandbox_problem
from knapsack_audit.targets import TargetError, parse_targets
from knapsack_audit.terminal import print_report, print_summary, progress_display
from knapsack_audit.verify import (
    DEFAULT_MAX_EXAMPLES,
    DEFAULT_TIME_BUDGET,
    EXIT_UNUSABLE,
    HARD_STOP_GRACE,
    AuditOptions,
    TargetReport,
    exit_code,
    verify_all,
)

TARGET_HELP = """\
TARGET is one of:
  torch                          every knapsack solver of the installed torch
                                 (dp_knapsack, dp_knapsack_sliding_hirschberg,
                                 greedy_knapsack, ilp_knapsack: whichever exist)
  torch:NAME                     one of them
  package.module:function        e.g. knapsack_audit.reference:dp_knapsack
  path/to/file.py:function       e.g. a knapsack.py from a PyTorch checkout,
                                 loaded from the file without installing it

WARNING: loading a module or file target EXECUTES ITS CODE (in a separate
worker process with a time and memory limit, but with your permissions).
Audit only code you would run.

Targets in knapsack_audit.* are judged exactly on the extended domain
(SPEC 4.4, 5.1); others with float32 tolerance on the partitioner domain
(SPEC 4.4, 5.2).

Search phases, per target: pinned known bugs, then every instance of a
small scope (up to 3 items, every budget), then random rounds with a fresh
seed each until --time-budget or --max-examples is spent. The verdict
states the effort and the seed; --seed SEED replays the same cases.

Exit codes: 0 every target passed, 1 some property failed,
2 usage error, a target that cannot be loaded or one knapsack-audit failed
on (the others are audited all the same), 3 no failure found but a
search was cut off before its effort was spent (not a pass)."""

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B?|B)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def memory_size(text: str) -> int | None:
    """``'4GiB'``, ``'512M'``, ``'1073741824'`` -> bytes; ``'0'`` or ``'none'`` -> no limit."""
    if text.strip().lower() in ("0", "none", "unlimited"):
        return None
    match = _SIZE.match(text)
    if match is None:
        raise argparse.ArgumentTypeError(f"not a memory size: {text!r} (say 4GiB or 512MiB)")
    number, unit = match.groups()
    return int(float(number) * _UNITS[(unit or "")[:1].upper()])


def positive_float(text: str) -> float:
    """A number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def positive_int(text: str) -> int:
    """An integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {text}")
    return value


JOBS_AUTO = "auto"
"""``--jobs auto``: one audit per usable core, at most one per target (``verify``'s default)."""


def jobs_count(text: str) -> int | str:
    """``--jobs``: an integer >= 1, or ``auto``."""
    if text == JOBS_AUTO:
        return JOBS_AUTO
    try:
        return positive_int(text)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{error} (or 'auto')") from None


def jobs_for(jobs: int | str, targets: int | None = None) -> int:
    """The audits to run side by side: ``jobs``, or for ``auto`` the usable
    cores, at most one per target (``targets``, when known). An audit and its
    solver's worker take turns (the auditor waits for each answer), so one
    audit keeps about one core busy: ``verify torch --jobs 2`` on two cores
    audited each target as much as ``--jobs 1`` (docs/CLI.md, "Time budget")."""
    if jobs != JOBS_AUTO:
        return int(jobs)
    cores = usable_cores()
    return max(1, min(cores, targets or cores))


def comma_list(text: str) -> tuple[str, ...]:
    """Names separated by commas (at least one)."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError(f"expected comma-separated names, got {text!r}")
    return names


def line_list(text: str) -> tuple[int, ...]:
    """Line numbers (>= 1) separated by commas."""
    return tuple(positive_int(part) for part in comma_list(text))


def add_audit_options(
    parser: argparse.ArgumentParser, sandbox_default: str, jobs_default: int | str = 1
) -> None:
    """Search effort and isolation options, shared by ``verify``, ``report`` and
    ``mutate`` (``verify``'s ``--jobs`` defaults to ``auto``; ``report`` times the
    golden replay beside its audits, and ``mutate`` is usually given ``--jobs``)."""
    effort = parser.add_argument_group("search effort")
    effort.add_argument(
        "--max-examples",
        type=positive_int,
        default=DEFAULT_MAX_EXAMPLES,
        metavar="N",
        help="random-phase example budget per target (default %(default)s)",
    )
    effort.add_argument(
        "--time-budget",
        type=positive_float,
        default=DEFAULT_TIME_BUDGET,
        metavar="SECONDS",
        help="per target, shared by all phases: draw no new random case after SECONDS; "
        f"the audit is cut off {HARD_STOP_GRACE:g} s later, keeping what it found "
        "(default %(default)s)",
    )
    effort.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the random phase; the verdict prints the one used, so --seed "
        "replays a run (default: a fresh seed)",
    )
    effort.add_argument(
        "--jobs",
        type=jobs_count,
        default=jobs_default,
        metavar="N",
        help="audit N targets in parallel, in separate processes; 'auto': one per usable "
        "core, at most one per target (default %(default)s)",
    )
    add_isolation_options(
        parser,
        "seconds per call; a call taking longer is a failure and its worker is killed",
        sandbox_default,
    )


def add_isolation_options(
    parser: argparse.ArgumentParser, call_timeout_help: str, sandbox_default: str | None
) -> None:
    """``--call-timeout``, ``--memory-limit`` and (unless ``sandbox_default`` is
    ``None``) ``--sandbox``: the worker options of ``verify``, ``report``,
    ``mutate`` and ``compare``."""
    isolation = parser.add_argument_group("isolation of the solver(s) under audit")
    isolation.add_argument(
        "--call-timeout",
        type=positive_float,
        default=DEFAULT_CALL_TIMEOUT,
        metavar="SECONDS",
        help=f"{call_timeout_help} (default %(default)s)",
    )
    isolation.add_argument(
        "--memory-limit",
        type=memory_size,
        default=DEFAULT_MEMORY_LIMIT,
        metavar="SIZE",
        help="each worker's address-space limit (RLIMIT_AS), e.g. 4GiB; 0 for none (default 4GiB)",
    )
    if sandbox_default is None:
        return
    isolation.add_argument(
        "--sandbox",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="run the solver under bubblewrap (bwrap): read-only file system but a private "
        "/tmp, no network, own PID namespace; see docs/CLI.md, 'Threat model' "
        f"(default {sandbox_default})",
    )


def add_quiet_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--quiet``: what the command stops printing while it runs."""
    parser.add_argument("--quiet", action="store_true", help=help_text)


def add_report_options(parser: argparse.ArgumentParser, formats: str, quiet_help: str) -> None:
    """``--report PATH`` (repeatable, format by extension) and ``--quiet``:
    verify and compare write the same kinds of report."""
    parser.add_argument(
        "--report",
        action="append",
        default=[],
        metavar="PATH",
        help=f"also write a report; format by extension: {formats}; repeatable",
    )
    add_quiet_option(parser, quiet_help)


def add_judge_options(parser: argparse.ArgumentParser, exact_by_default: str) -> None:
    """``--exact`` / ``--tolerant`` (SPEC 5), shared by ``verify`` and ``compare``;
    ``exact_by_default`` says when the judge is exact without either."""
    judge = parser.add_mutually_exclusive_group()
    judge.add_argument(
        "--exact",
        dest="exact",
        action="store_const",
        const=True,
        default=None,
        help=f"judge exactly, no tolerance (SPEC 5.1; default {exact_by_default})",
    )
    judge.add_argument(
        "--tolerant",
        dest="exact",
        action="store_const",
        const=False,
        help="judge with the float32 tolerance (SPEC 5.2; default otherwise)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``knapsack-audit`` and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="knapsack-audit",
        description="Audit 0/1 knapsack solvers for PyTorch activation checkpointing "
        "against docs/SPEC.md.",
        epilog="Loading a module or file target executes its code; see 'verify --help'.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    verify = commands.add_parser(
        "verify",
        help="audit solvers property by property (executes the targets' code)",
        description="Search for inputs on which each solver breaks a property of\n"
        "docs/SPEC.md, and print each failure as a minimal, copy-pasteable call.",
        epilog=TARGET_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verify.add_argument("targets", nargs="+", metavar="TARGET", help="solver(s) to audit")
    add_judge_options(verify, "for knapsack_audit.* targets")
    verify.add_argument(
        "--domain",
        choices=("partitioner", "extended"),
        default=None,
        help="inputs to search (SPEC 4.4; default extended for knapsack_audit.*, else partitioner)",
    )
    add_report_options(verify, ".json, .md or .xml (JUnit)", "no progress display")
    add_audit_options(verify, "off", JOBS_AUTO)
    report = commands.add_parser(
        "report",
        help="release audit of the installed torch's solvers and ours, as Markdown",
        description="Audit the installed torch's knapsack solvers and ours, replay the "
        "golden fixtures if installed, and write one Markdown report with versions, "
        "environment, verdicts and counterexamples. Executes the solvers' code.",
    )
    report.add_argument(
        "--output",
        required=True,
        metavar="PATH.md",
        help="Markdown file; PATH.json, PATH.xml (JUnit) and three PATH-*.png plots go beside it",
    )
    report.add_argument(
        "--baseline",
        metavar="OLD.json",
        help="a previous report's JSON: exit 1 on any regression against it, else 0",
    )
    report.add_argument(
        "--repeats",
        type=positive_int,
        default=3,
        metavar="N",
        help="timed rounds per golden call, interleaved, after a warm-up (default 3)",
    )
    add_quiet_option(report, "no progress display")
    add_audit_options(report, "on where bwrap works")
    add_compare_parser(commands)
    add_bisect_parser(commands)
    mutate = commands.add_parser(
        "mutate",
        help="mutation testing: audit first-order mutants of a solver (executes its code)",
        description="Make first-order mutants of TARGET's source with Python's ast "
        "(comparisons, integer constants, slice bounds, arithmetic, max/min, dropped "
        "statements, removed else branches), audit each like 'verify' (stopping at its "
        "first new finding) and report killed / timed out / survived, every survivor as "
        "a diff. TARGET: package.module:function or path/to/file.py:function (torch:NAME "
        "for the installed torch). Exit 0 when it ran, 2 on a usage error.",
    )
    mutate.add_argument("target", metavar="TARGET", help="the solver to mutate")
    mutate.add_argument(
        "--output", metavar="PATH.md", help="also write the Markdown report (survivors' diffs)"
    )
    mutate.add_argument(
        "--max-mutants", type=positive_int, default=None, metavar="N", help="only the first N"
    )
    mutate.add_argument(
        "--module",
        metavar="MODULE",
        default=None,
        help="mutate every function and method of MODULE (a module of TARGET's package, "
        "say knapsack_audit.optimized.bounded) instead of TARGET's function, auditing "
        "each mutant through TARGET",
    )
    mutate.add_argument(
        "--operators",
        metavar="NAMES",
        type=comma_list,
        default=None,
        help="only mutants of these operators, comma-separated (compare, constant, slice, "
        "arithmetic, minmax, statement, else); numbered as in the whole run",
    )
    mutate.add_argument(
        "--lines",
        metavar="N,...",
        type=line_list,
        default=None,
        help="only mutants of these source lines (of the mutated module); numbered as in "
        "the whole run",
    )
    add_quiet_option(mutate, "no line per mutant")
    add_audit_options(mutate, "off")
    golden = commands.add_parser(
        "golden",
        help="capture golden fixtures from real compilations, or regenerate expected findings",
        description="capture [--out DIR] [--model NAME]: compile the model zoo with the "
        "min-cut partitioner and record every knapsack call; expected [--fixtures DIR]: "
        "replay torch's solvers and rewrite expected_findings.json; check [--force]: "
        "re-capture a subset and report whether the partitioner's inputs drifted from the "
        "fixtures. See tests/golden/README.md.",
    )
    golden.add_argument(
        "golden_arguments", nargs=argparse.REMAINDER, metavar="capture|expected|check"
    )
    return parser


COMPARE_HELP = """\
BASE and NEW are TARGETs as for verify, plus:
  path/to/knapsack.py            every function of the file with upstream's
                                 signature (memory, runtime, max_memory)
  path/to/pytorch                a PyTorch checkout: its
                                 torch/_functorch/_activation_checkpointing/knapsack.py
One solver on each side is one pair; otherwise solvers pair by name, and
solvers only NEW (added) or only BASE (removed) has are listed.

Exit codes: 0 no regression and every gate and claim held; 1 a correctness
regression (NEW fails a property BASE passes), a failed --max-slowdown /
--max-memory-ratio gate, or a claim not held; 2 usage error or a target that
cannot be loaded. Loading a target EXECUTES ITS CODE (see verify --help)."""


def add_compare_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``knapsack-audit compare BASE NEW`` (docs/CLI.md, "compare")."""
    compare = commands.add_parser(
        "compare",
        help="review a solver change: BASE against NEW on the same cases (executes both)",
        description="Run BASE and NEW on the same cases per family (golden fixtures, the "
        "small scope, partitioner-like, Pisinger families, large Q), judge both against "
        "the exact oracle, minimize every regression, and give time and peak-memory "
        "ratios NEW/BASE with the run's noise.",
        epilog=COMPARE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    compare.add_argument("base", metavar="BASE", help="the solver(s) before the change")
    compare.add_argument("new", metavar="NEW", help="the solver(s) after the change")
    compare.add_argument(
        "--effort",
        choices=tuple(EFFORTS),
        default="default",
        help="cases per family and repeats (default %(default)s; docs/CLI.md)",
    )
    compare.add_argument(
        "--repeats",
        type=positive_int,
        default=None,
        metavar="N",
        help="timed calls per case and solver after the warm-up (default: the effort's)",
    )
    compare.add_argument(
        "--claim",
        action="append",
        default=[],
        metavar="CLAIM",
        help="a claimed ratio NEW/BASE, [FAMILY.]time|memory OP NUMBER, e.g. 'memory<=0.05' "
        "(every family's median must satisfy it); repeatable",
    )
    compare.add_argument(
        "--claims", metavar="FILE", help="claims, one per line ('#' starts a comment)"
    )
    compare.add_argument(
        "--max-slowdown",
        type=positive_float,
        default=None,
        metavar="RATIO",
        help="fail if a family's median time ratio NEW/BASE exceeds RATIO (e.g. 1.2)",
    )
    compare.add_argument(
        "--max-memory-ratio",
        type=positive_float,
        default=None,
        metavar="RATIO",
        help="fail if a family's median peak-memory ratio NEW/BASE exceeds RATIO",
    )
    add_judge_options(compare, "when both sides are knapsack_audit.*")
    add_report_options(
        compare, ".md (for a PR comment), .json or .xml (JUnit)", "no progress lines on stderr"
    )
    add_isolation_options(
        compare,
        "seconds per call; a measured case (warm-up and repeats) may take that times "
        "(1 + repeats), else its worker is killed",
        None,
    )


def run_compare_command(arguments: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``knapsack-audit compare``."""
    try:
        for path in arguments.report:
            report_format(path)
        claims = [parse_claim(text) for text in arguments.claim]
        if arguments.claims is not None:
            claims += read_claims(arguments.claims)
        effort = EFFORTS[arguments.effort]
        if arguments.repeats is not None:
            effort = dataclasses.replace(effort, repeats=arguments.repeats)
        options = CompareOptions(
            effort=effort,
            call_timeout=arguments.call_timeout,
            memory_limit=arguments.memory_limit,
            exact=arguments.exact,
            max_slowdown=arguments.max_slowdown,
            max_memory_ratio=arguments.max_memory_ratio,
            claims=tuple(claims),
        )
        quiet = arguments.quiet

        def progress(line: str) -> None:
            if not quiet:
                print(line, file=sys.stderr, flush=True)

        report = run_compare(arguments.base, arguments.new, options, progress)
    except (OSError, ValueError, TargetError) as error:
        parser.exit(EXIT_UNUSABLE, f"knapsack-audit compare: error: {error}\n")
    print_compare(Console(highlight=False), report)
    lines = provenance(sys.argv if arguments.command_line is None else arguments.command_line)
    for path in arguments.report:
        write_compare_report(path, report, lines)
    return report.exit_code


BISECT_HELP = """\
Example, on a PyTorch checkout (its working tree is not touched):
  knapsack-audit bisect ~/pytorch \\
    torch/_functorch/_activation_checkpointing/knapsack.py:dp_knapsack_sliding_hirschberg \\
    v2.9.0 v2.10.0

Exit codes: 0 the first bad revision was named, 1 skipped revisions leave
several candidates (listed), 2 the bisection cannot run (a bad revision,
GOOD failing or BAD passing: the message says which)."""


def add_bisect_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``knapsack-audit bisect REPO PATH:FUNC GOOD BAD``."""
    bisect = commands.add_parser(
        "bisect",
        help="name the first revision of a git checkout at which a solver fails",
        description="Binary search over the revisions GOOD..BAD of the git checkout REPO: "
        "at each revision tried, PATH (relative to REPO) is read with 'git show' into a "
        "temporary folder and its FUNC is audited with a quick, deterministic effort "
        "(pinned cases, every instance of up to 2 items, 20 random cases from seed 0). "
        "A revision where the file is missing or cannot be loaded is skipped. Prints the "
        "first bad revision and its counterexample. Executes the code of every revision "
        "tried.",
        epilog=BISECT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bisect.add_argument("repo", metavar="REPO", help="a git checkout")
    bisect.add_argument("location", metavar="PATH:FUNC", help="file in REPO and its solver")
    bisect.add_argument("good", metavar="GOOD", help="a revision at which the solver passes")
    bisect.add_argument("bad", metavar="BAD", help="a later revision at which it fails")
    add_quiet_option(bisect, "do not print each revision's verdict as it is audited")


def run_bisect(arguments: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``knapsack-audit bisect``."""
    from knapsack_audit.bisect import BisectError, Verdict, bisect, describe

    def progress(verdict: Verdict) -> None:
        if not arguments.quiet:
            print(f"{verdict.status:4}  {verdict.subject}", file=sys.stderr, flush=True)

    try:
        result = bisect(arguments.repo, arguments.location, arguments.good, arguments.bad, progress)
    except BisectError as error:
        parser.exit(EXIT_UNUSABLE, f"knapsack-audit bisect: error: {error}\n")
    print("\n".join(describe(result)))
    return 0 if result.first_bad is not None else 1


def use_sandbox(arguments: argparse.Namespace) -> bool:
    """``--sandbox`` as asked; unset: on for ``report`` where it works, off for ``verify``.

    Raises:
        SandboxUnavailable: ``--sandbox`` was given and cannot work here.
    """
    if arguments.sandbox:
        require_sandbox()
        return True
    if arguments.sandbox is None and arguments.command == "report":
        return sandbox_problem() is None
    return False


def options_from(arguments: argparse.Namespace) -> AuditOptions:
    """The :class:`AuditOptions` the parsed command line asks for.

    Raises:
        SandboxUnavailable: ``--sandbox`` was given and cannot work here.
    """
    return AuditOptions(
        max_examples=arguments.max_examples,
        time_budget=arguments.time_budget,
        seed=arguments.seed,
        call_timeout=arguments.call_timeout,
        memory_limit=arguments.memory_limit,
        exact=getattr(arguments, "exact", None),
        domain=getattr(arguments, "domain", None),
        sandbox=use_sandbox(arguments),
    )


def run_verify(arguments: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``knapsack-audit verify``."""
    try:
        for path in arguments.report:
            report_format(path)
        targets = parse_targets(arguments.targets)
        options = options_from(arguments)
    except (ValueError, TargetError) as error:
        parser.exit(EXIT_UNUSABLE, f"knapsack-audit verify: error: {error}\n")
    console = Console(highlight=False)
    with progress_display(arguments.quiet) as progress:
        reports = verify_all(
            targets,
            options,
            jobs_for(arguments.jobs, len(targets)),
            on_example=progress.example,
            on_done=progress.done,
            on_start=progress.started,
        )
    for report in reports:
        print_report(console, report)
    code = exit_code(reports)
    print_summary(console, reports, code)
    for path in arguments.report:
        write_report(path, reports, code)
    return code


def run_mutate(arguments: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``knapsack-audit mutate``."""
    from knapsack_audit.mutate import run_mutation, summary_markdown, verdict_of

    console = Console(highlight=False)

    def done(report: TargetReport) -> None:
        if not arguments.quiet:
            outcome, properties = verdict_of(report)
            shown = "survived" if outcome == "survived" else ", ".join(properties)
            console.print(f"{report.label}: {shown} ({report.seconds:.1f} s)", soft_wrap=True)

    try:
        baseline, results = run_mutation(
            arguments.target,
            options_from(arguments),
            jobs_for(arguments.jobs),
            arguments.max_mutants,
            on_done=done,
            module=arguments.module,
            operators=arguments.operators,
            lines=arguments.lines,
        )
    except TargetError as error:
        parser.exit(EXIT_UNUSABLE, f"knapsack-audit mutate: error: {error}\n")
    command = "knapsack-audit " + " ".join(sys.argv[1:] if sys.argv[1:2] == ["mutate"] else [])
    text = summary_markdown(arguments.target, command.strip(), baseline, results)
    console.print(text, soft_wrap=True, markup=False)
    if arguments.output:
        Path(arguments.output).write_text(text, encoding="utf-8")
    return 0


def usable_cores() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def warn_if_more_jobs_than_cores(command: str, jobs: int) -> None:
    """Warn on stderr when ``--jobs`` exceeds the usable cores: the time budget
    is wall-clock time (docs/CLI.md, "Time budget"), so audits that share a core each check fewer
    cases, and a bug found alone can pass."""
    cores = usable_cores()
    if jobs > cores:
        sys.stderr.write(
            f"knapsack-audit {command}: warning: --jobs {jobs} runs more audits than the "
            f"{cores} usable cores; each audit's time budget is wall-clock time, so each "
            f"checks fewer cases than alone (use --jobs {cores} or fewer)\n"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``knapsack-audit`` console script; returns the exit code."""
    parser = build_parser()
    arguments = parser.parse_args(argv)
    jobs = getattr(arguments, "jobs", 1)
    if jobs != JOBS_AUTO:
        warn_if_more_jobs_than_cores(arguments.command, jobs)
    if arguments.command == "verify":
        return run_verify(arguments, parser)
    if arguments.command == "compare":
        arguments.command_line = None if argv is None else ["knapsack-audit", *argv]
        return run_compare_command(arguments, parser)
    if arguments.command == "mutate":
        return run_mutate(arguments, parser)
    if arguments.command == "bisect":
        return run_bisect(arguments, parser)
    if arguments.command == "golden":
        from knapsack_audit.golden.cli import main as golden_main

        return golden_main(arguments.golden_arguments)
    from knapsack_audit.release import read_baseline, run_release_report

    try:
        options = options_from(arguments)
        baseline = None if arguments.baseline is None else read_baseline(arguments.baseline)
    except (SandboxUnavailable, ValueError) as error:
        parser.exit(EXIT_UNUSABLE, f"knapsack-audit report: error: {error}\n")
    return run_release_report(
        arguments.output,
        options,
        jobs_for(arguments.jobs),
        arguments.quiet,
        baseline,
        arguments.repeats,
    )


if __name__ == "__main__":
    sys.exit(main())
