"""What ``knapsack-audit`` shows in the terminal: tables, counterexamples, progress.

Results go to stdout (a :mod:`rich` table per target, then every failure as
a copy-pasteable call, printed without wrapping); the progress display goes
to stderr and only when stderr is a terminal and ``--quiet`` is not given.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from knapsack_audit.targets import Target
from knapsack_audit.verify import TargetReport, smallest_failure

VERDICT_STYLES = {
    "pass": "green",
    "fail": "bold red",
    "warning": "yellow",
    "incomplete": "yellow",
    "error": "bold red",
}


def print_report(console: Console, report: TargetReport) -> None:
    """One target: its verdict table and its failures."""
    style = VERDICT_STYLES[report.status]
    title = Text.assemble((report.label, "bold"), ": ", (report.status.upper(), style))
    if report.error is not None:
        console.print(title)
        console.print(Text(f"  could not be loaded: {report.error}"), soft_wrap=True)
        for note in report.isolation_notes():
            console.print(Text(f"  {note}"), soft_wrap=True)
        console.print()
        return
    table = Table(
        title=title,
        caption=f"judge {report.judge}, {report.domain} domain; {report.effort}",
        title_justify="left",
    )
    table.add_column("property")
    table.add_column("verdict")
    table.add_column("examples", justify="right")
    table.add_column("time (s)", justify="right")
    for row in report.verdicts:
        table.add_row(
            row.property,
            Text(row.verdict, style=VERDICT_STYLES[row.verdict]),
            str(row.examples),
            f"{row.seconds:.1f}",
        )
    console.print(table)
    for note in report.isolation_notes():
        console.print(Text(note), soft_wrap=True)
    if report.findings:
        console.print(Text(smallest_failure(report.findings)))
    for finding in report.findings:
        console.print(
            Text.assemble(("FAIL ", "bold red"), (finding.property, "bold"), f" ({finding.clause})")
        )
        console.print(Text(f"  {finding.call}", style="cyan"), soft_wrap=True)
        console.print(Text(f"  size:     {finding.size()}"), soft_wrap=True)
        console.print(Text(f"  expected: {finding.expected}"), soft_wrap=True)
        console.print(Text(f"  actual:   {finding.actual}"), soft_wrap=True)
        if finding.explanation:
            console.print(Text(f"  note:     {finding.explanation}"), soft_wrap=True)
        if finding.state_note():
            console.print(Text(f"  state:    {finding.state_note()}"), soft_wrap=True)
        if len(finding.after) == 1:
            console.print(Text(f"  after:    {finding.after[0]}", style="cyan"), soft_wrap=True)
    console.print()


def print_summary(console: Console, reports: Sequence[TargetReport], exit_code: int) -> None:
    """One line per target, then the exit code."""
    for report in reports:
        failed = ", ".join(finding.property for finding in report.findings)
        console.print(
            Text.assemble(
                (f"{report.status.upper():5} ", VERDICT_STYLES[report.status]),
                report.label,
                f"  ({failed})" if failed else "",
            ),
            soft_wrap=True,
        )
    console.print(f"exit code {exit_code}")


class ProgressDisplay:
    """A spinner per target with the running example count (stderr)."""

    def __init__(self, progress: Progress | None) -> None:
        self._progress = progress
        self._tasks: dict[str, TaskID] = {}

    def example(self, target: Target, count: int) -> None:
        """``target`` has now tried ``count`` examples."""
        if self._progress is None:
            return
        if target.label not in self._tasks:
            self._tasks[target.label] = self._progress.add_task(target.label, total=None)
        self._progress.update(
            self._tasks[target.label], description=f"{target.label}: {count} examples"
        )

    def started(self, target: Target) -> None:
        """``target`` was handed to a job process (``--jobs``: no example counts)."""
        if self._progress is None or target.label in self._tasks:
            return
        self._tasks[target.label] = self._progress.add_task(
            f"{target.label}: queued or auditing in a job process", total=None
        )

    def done(self, report: TargetReport) -> None:
        """``report``'s target is finished."""
        if self._progress is None:
            return
        if report.label not in self._tasks:
            self._tasks[report.label] = self._progress.add_task(report.label, total=None)
        task = self._tasks[report.label]
        self._progress.update(
            task,
            description=f"{report.label}: {report.status} ({report.examples} examples)",
            total=1,
            completed=1,
        )


@contextmanager
def progress_display(quiet: bool) -> Iterator[ProgressDisplay]:
    """A :class:`ProgressDisplay`, live on stderr unless quiet or not a terminal."""
    if quiet or not sys.stderr.isatty():
        yield ProgressDisplay(None)
        return
    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with progress:
        yield ProgressDisplay(progress)
