"""``knapsack-audit bisect REPO PATH:FUNC GOOD BAD``: the first revision that breaks a solver.

Binary search, as ``git bisect`` does, over the revisions of a git checkout
between GOOD (the solver passes) and BAD (it fails): ``git rev-list
--ancestry-path --reverse GOOD..BAD``, oldest first (a linear history, as
PyTorch's main branch is). At each revision tried, the file ``PATH`` is read
with ``git show REV:PATH`` into a fresh temporary folder (the checkout and
its working tree are never touched) and its ``FUNC`` is audited
(:func:`audit_revision`) with a quick, deterministic effort
(:data:`BISECT_EFFORT`): the pinned known bugs, every instance of a small
exhaustive scope, then :data:`BISECT_EXAMPLES` random cases from a fixed
seed. The verdict of a revision is

* ``bad``: some property fails (its smallest counterexample is kept);
* ``good``: no failure found;
* ``skip``: the file is missing at that revision, or cannot be loaded
  (a syntax error, no ``FUNC``), as ``git bisect skip``.

The result names the first bad revision (the one after the last good one),
with its counterexample, or, when skipped revisions sit between the last
good and the first bad, every revision that may be it.

All revisions are audited one after the other in one worker
(:meth:`~knapsack_audit.isolation.IsolatedSolver.retarget`: torch is
imported once). Cost: ``ceil(log2(k + 1))`` audits for ``k`` revisions,
plus the two ends, plus one per skipped revision met.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from knapsack_audit.cases import describe_size
from knapsack_audit.exhaustive import Scope, scope_for
from knapsack_audit.isolation import IsolatedSolver, SolverFailure
from knapsack_audit.properties import Judge
from knapsack_audit.search import audit
from knapsack_audit.targets import Target, TargetError, parse_target
from knapsack_audit.verify import PINNED_CASES

BISECT_EXAMPLES = 20
"""Random cases per revision, after the pinned cases and the small scope."""

BISECT_SEED = 0
"""The random phase's seed: the same revision always gets the same cases."""

BISECT_TIME_BUDGET = 120.0
"""Seconds per revision; the example budget normally ends the search first."""

BISECT_EFFORT = (
    f"pinned cases, every instance of n <= 2 items, then {BISECT_EXAMPLES} random cases "
    f"(seed {BISECT_SEED})"
)
"""The effort of each revision's audit, in words (the report states it)."""


class BisectError(ValueError):
    """The bisection cannot run as asked (no git, an unknown revision, GOOD not
    an ancestor of BAD, GOOD failing or BAD passing); the message says which."""


@dataclass(frozen=True)
class Verdict:
    """One revision's audit: ``good``, ``bad`` or ``skip``, and why."""

    revision: str
    subject: str
    status: str
    detail: str = ""
    call: str = ""
    size: str = ""


@dataclass
class BisectResult:
    """What :func:`bisect` found: the first bad revision, or the candidates.

    Attributes:
        first_bad: the first bad revision's verdict (``None`` when skipped
            revisions leave it ambiguous: then ``candidates`` lists them).
        candidates: revisions that may be the first bad one, oldest first.
        tried: every revision audited, in the order tried.
        revisions: revisions in GOOD..BAD (BAD included).
        seconds: wall time.
    """

    first_bad: Verdict | None = None
    candidates: list[str] = field(default_factory=list)
    tried: list[Verdict] = field(default_factory=list)
    revisions: int = 0
    seconds: float = 0.0


def git(repo: str, *arguments: str) -> str:
    """Run ``git -C repo ARGUMENTS`` and return its output.

    Raises:
        BisectError: git is missing or fails (its message included).
    """
    try:
        done = subprocess.run(
            ["git", "-C", repo, *arguments], capture_output=True, text=True, check=False
        )
    except OSError as error:
        raise BisectError(f"git could not be run: {error}") from None
    if done.returncode != 0:
        raise BisectError(f"git {' '.join(arguments)}: {done.stderr.strip()}")
    return done.stdout


def revisions_between(repo: str, good: str, bad: str) -> list[str]:
    """Full hashes of the revisions after ``good`` up to ``bad``, oldest first.

    Raises:
        BisectError: a revision is unknown, or ``good`` is not an ancestor of ``bad``.
    """
    good_hash = git(repo, "rev-parse", "--verify", f"{good}^{{commit}}").strip()
    bad_hash = git(repo, "rev-parse", "--verify", f"{bad}^{{commit}}").strip()
    try:
        git(repo, "merge-base", "--is-ancestor", good_hash, bad_hash)
    except BisectError:
        raise BisectError(f"GOOD {good} is not an ancestor of BAD {bad}") from None
    listed = git(repo, "rev-list", "--ancestry-path", "--reverse", f"{good_hash}..{bad_hash}")
    return listed.split()


class Worker:
    """One worker for every revision audited (started for the first), closed on exit."""

    def __init__(self) -> None:
        self.solver: IsolatedSolver | None = None

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exception: object) -> None:
        if self.solver is not None:
            self.solver.close()

    def load(self, target: Target) -> IsolatedSolver:
        """The worker, with ``target`` loaded.

        Raises:
            TargetError, SolverFailure: ``target`` cannot be loaded.
        """
        if self.solver is None:
            self.solver = IsolatedSolver(target)
        self.solver.retarget(target)
        return self.solver


def audit_revision(repo: str, revision: str, path: str, function: str, worker: Worker) -> Verdict:
    """Audit ``path:function`` as it is at ``revision`` (see the module doc)."""
    subject = git(repo, "log", "-1", "--format=%h %s", revision).strip()
    try:
        source = git(repo, "show", f"{revision}:{path}")
    except BisectError as error:
        return Verdict(revision, subject, "skip", f"no {path} here ({error})")
    with tempfile.TemporaryDirectory(prefix="knapsack-audit-bisect-") as folder:
        copy = Path(folder) / Path(path).name
        copy.write_text(source, encoding="utf-8")
        (target,) = parse_target(f"{copy}:{function}")
        try:
            solver = worker.load(target)
        except (TargetError, SolverFailure) as error:
            return Verdict(revision, subject, "skip", f"cannot be loaded: {error}")
        result = audit(
            solver,
            Judge(exact=False),
            domain="partitioner",
            pinned=PINNED_CASES,
            scope=bisect_scope(),
            time_budget=BISECT_TIME_BUDGET,
            max_examples=BISECT_EXAMPLES,
            search_seed=BISECT_SEED,
            hard_stop=time.monotonic() + 2 * BISECT_TIME_BUDGET,
        )
    failed = result.failed()
    if not failed:
        return Verdict(revision, subject, "good", f"no failure in {result.examples} cases")
    finding = min((result.findings[name] for name in failed), key=lambda found: found.case.n)
    case = finding.case
    return Verdict(
        revision,
        subject,
        "bad",
        f"{finding.property} fails ({finding.clause}): {finding.message}",
        case.as_call(target.function),
        describe_size(case.n, case.distinct_items(), case.n),
    )


def bisect_scope() -> Scope:
    """The small exhaustive scope of each revision: ``verify``'s, up to 2 items."""
    return Scope(scope_for("partitioner").levels[:2])


def bisect(
    repo: str,
    location: str,
    good: str,
    bad: str,
    on_verdict: Callable[[Verdict], None] | None = None,
) -> BisectResult:
    """Find the first revision in ``good..bad`` at which ``location`` (``PATH:FUNC``) fails.

    Raises:
        BisectError: as :func:`revisions_between`; ``location`` is not
            ``PATH:FUNC``; GOOD fails or is skipped; BAD passes or is skipped.
    """
    path, _, function = location.rpartition(":")
    if not path or not function.isidentifier():
        raise BisectError(
            f"PATH:FUNC: expected a file in the checkout and a function, got {location!r}"
        )
    started = time.perf_counter()
    revisions = revisions_between(repo, good, bad)
    result = BisectResult(revisions=len(revisions))
    with Worker() as worker:

        def tried(revision: str) -> Verdict:
            verdict = audit_revision(repo, revision, path, function, worker)
            result.tried.append(verdict)
            if on_verdict is not None:
                on_verdict(verdict)
            return verdict

        for end, wanted in ((good, "good"), (revisions[-1] if revisions else bad, "bad")):
            verdict = tried(end)
            if verdict.status != wanted:
                side = "GOOD" if wanted == "good" else "BAD"
                raise BisectError(
                    f"{side} {end} is {verdict.status}, not {wanted}: {verdict.detail}"
                )
        last_verdict = result.tried[-1]
        low, high = -1, len(revisions) - 1  # revisions[low] good (-1: GOOD), revisions[high] bad
        verdicts = {high: last_verdict}
        skipped: set[int] = set()
        while True:
            untried = [i for i in range(low + 1, high) if i not in skipped]
            if not untried:
                break
            middle = (low + high) // 2
            index = min(untried, key=lambda i: (abs(i - middle), i))
            verdict = tried(revisions[index])
            if verdict.status == "skip":
                skipped.add(index)
            elif verdict.status == "good":
                low = index
            else:
                high = index
                verdicts[high] = verdict
    result.candidates = revisions[low + 1 : high + 1]
    if len(result.candidates) == 1:
        result.first_bad = verdicts[high]
    result.seconds = round(time.perf_counter() - started, 1)
    return result


def describe(result: BisectResult) -> list[str]:
    """The result in lines: the first bad revision and its counterexample, or the candidates."""
    lines = []
    if result.first_bad is not None:
        bad = result.first_bad
        lines += [
            f"first bad revision: {bad.revision}",
            f"  {bad.subject}",
            f"  {bad.detail}",
            f"  {bad.call}",
            f"  size: {bad.size}",
        ]
    else:
        lines.append("the first bad revision is one of these (the others between were skipped):")
        lines += [f"  {revision}" for revision in result.candidates]
    lines.append(
        f"{len(result.tried)} of {result.revisions + 1} revisions audited in "
        f"{result.seconds:g} s; each: {BISECT_EFFORT}"
    )
    return lines
