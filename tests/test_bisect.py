"""``knapsack-audit bisect``: the first bad revision of a small git history.

The history is built here from successive versions of a ``knapsack.py``, as
a PyTorch checkout would hold it: upstream ``dp_knapsack`` (copied from the
installed torch, without the sliding solver), unrelated commits, the
off-by-one ``dp_knapsack_sliding_hirschberg`` (the installed torch's file,
BRIEF: pytorch issue #197871), more unrelated commits (one of which leaves
the file unloadable, one deletes it), then the patched one
(patches/upstream-knapsack-offbyone.patch). Each version sets ``solver`` to
the solver the partitioner would use, as ``config.activation_memory_budget_solver``
does; ``solver`` is the function bisected.
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest
import torch
from test_cli import knapsack_audit
from torch._functorch._activation_checkpointing.knapsack import dp_knapsack_sliding_hirschberg

from knapsack_audit.bisect import BisectError, Worker, audit_revision, bisect, revisions_between
from knapsack_audit.cases import Case
from knapsack_audit.reference.validation import quantize

PATCH = Path(__file__).parent.parent / "patches" / "upstream-knapsack-offbyone.patch"
RELATIVE = Path("torch/_functorch/_activation_checkpointing/knapsack.py")
INSTALLED = Path(torch.__file__).parent.parent / RELATIVE


def _without_function(source: str, name: str) -> str:
    """``source`` less the top-level function ``name`` (upstream before the sliding solver)."""
    (node,) = [
        n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == name
    ]
    lines = source.splitlines(keepends=True)
    assert node.end_lineno is not None
    return "".join(lines[: node.lineno - 1] + lines[node.end_lineno :])


def _git(repo: Path, *arguments: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *arguments], capture_output=True, text=True, check=True
    ).stdout.strip()


def _commit(repo: Path, message: str, files: dict[str, str | None]) -> str:
    for name, text in files.items():
        path = repo / name
        if text is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    _git(repo, "add", "--all")
    _git(repo, "commit", "--quiet", "-m", message)
    return _git(repo, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The repository and its named revisions."""
    repo = tmp_path_factory.mktemp("pytorch-history")
    _git(repo, "init", "--quiet")
    _git(repo, "config", "user.email", "test@example.com")
    _git(repo, "config", "user.name", "test")
    upstream = INSTALLED.read_text()
    dp_only = _without_function(upstream, "dp_knapsack_sliding_hirschberg")
    knapsack = str(RELATIVE)
    sliding = upstream + "\nsolver = dp_knapsack_sliding_hirschberg\n"
    revisions = {"repo": str(repo)}
    dp = dp_only + "\nsolver = dp_knapsack\n"
    revisions["dp"] = _commit(repo, "knapsack: dp_knapsack", {knapsack: dp})
    _commit(repo, "docs: README", {"README.md": "a model zoo\n"})
    revisions["deleted"] = _commit(repo, "knapsack: move out", {knapsack: None})
    _commit(repo, "knapsack: move back", {knapsack: dp})
    revisions["offbyone"] = _commit(
        repo,
        "knapsack: 20x less memory use (sliding window + Hirschberg)",
        {knapsack: sliding},
    )
    _commit(repo, "docs: changelog", {"CHANGELOG.md": "2.10\n"})
    revisions["broken"] = _commit(
        repo, "knapsack: half-done refactor", {knapsack: upstream + "\nsolver = (\n"}
    )
    _commit(repo, "knapsack: finish refactor", {knapsack: sliding})
    _commit(repo, "partitioner: quieter", {"torch/partitioner.py": "LOG = False\n"})
    revisions["last_bad"] = _git(repo, "rev-parse", "HEAD")
    subprocess.run(
        ["patch", "-p1", "--batch", "--quiet", "-d", str(repo)],
        input=PATCH.read_text(),
        text=True,
        check=True,
    )
    revisions["patched"] = _commit(repo, "knapsack: fix the right half's capacity", {})
    return revisions


def test_a_missing_or_unloadable_file_is_a_skip(history: dict[str, str]) -> None:
    """SPEC 9.5: a revision without the file, or whose file does not load, is "skip" (never
    "good" or "bad"); the patched revision is "good": the fix passes."""
    with Worker() as worker:
        verdicts = {
            name: audit_revision(history["repo"], history[name], str(RELATIVE), "solver", worker)
            for name in ("deleted", "broken", "patched")
        }
    assert verdicts["deleted"].status == "skip" and "no torch/" in verdicts["deleted"].detail
    assert verdicts["broken"].status == "skip" and "cannot be loaded" in verdicts["broken"].detail
    assert verdicts["patched"].status == "good", verdicts["patched"].detail


def test_bisect_refuses_a_good_end_that_fails(history: dict[str, str]) -> None:
    """SPEC 9.5: GOOD must pass: from the off-by-one commit it fails, and bisect says so."""
    with pytest.raises(BisectError, match=r"GOOD .* is bad, not good"):
        bisect(history["repo"], f"{RELATIVE}:solver", history["offbyone"], history["patched"])


def test_bisect_refuses_unknown_revisions_and_order(history: dict[str, str]) -> None:
    """SPEC 9.5: bad input gets a clear error naming the argument."""
    with pytest.raises(BisectError, match=r"GOOD .* is not an ancestor of BAD"):
        revisions_between(history["repo"], history["patched"], history["dp"])
    with pytest.raises(BisectError, match="no-such-revision"):
        revisions_between(history["repo"], "no-such-revision", history["dp"])


@pytest.mark.slow
@pytest.mark.release
def test_bisect_names_the_off_by_one_commit(history: dict[str, str]) -> None:
    """SPEC 3.2, 9.5: the first revision whose ``solver`` fails feasibility is the commit
    that brought the off-by-one, named with upstream's own 3-item over-budget call
    (exit 0); the revision without the file is tried and skipped, not blamed."""
    run = knapsack_audit(
        "bisect", history["repo"], f"{RELATIVE}:solver", history["dp"], history["last_bad"]
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"first bad revision: {history['offbyone']}" in run.stdout
    assert "20x less memory use" in run.stdout
    assert "feasibility fails (SPEC 3.2)" in run.stdout
    (call,) = [
        line.strip() for line in run.stdout.splitlines() if line.strip().startswith("solver(")
    ]
    _, case = Case.from_call(call)
    assert case.n <= 3, call  # the pinned case of pytorch issue #197871 has 3 items
    assert f"size: {case.n} items of {case.distinct_items()} type" in run.stdout
    _, saved, _ = dp_knapsack_sliding_hirschberg(*case.arguments())
    assert sum(quantize(case.memory[i]) for i in saved) > quantize(case.max_memory)
    assert f"skip  {history['deleted'][:7]}" in run.stderr
    assert f"good  {history['dp'][:7]}" in run.stderr
