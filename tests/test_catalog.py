"""The catalog is the one list: a solver added to ``OUR_SOLVERS`` is run everywhere.

A throwaway solver of ours (the reference plus one item it should have left
out: a planted bug) is added to :data:`knapsack_audit.catalog.OUR_SOLVERS`,
and the contract suite and the engine's tests are shown to collect it, and
the contract's checks, the exhaustive scope, the golden replay and the
release report to run it (and catch it where they judge).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from knapsack_audit import catalog
from knapsack_audit.cases import Case
from knapsack_audit.exhaustive import verify_small_scope
from knapsack_audit.golden import fixtures, replay
from knapsack_audit.properties import Judge, check_call
from knapsack_audit.release import release_targets
from knapsack_audit.targets import parse_target

THROWAWAY = "throwaway_solver:saves_one_more"

THROWAWAY_SOURCE = '''
from knapsack_audit.reference import dp_knapsack


def saves_one_more(memory, runtime, max_memory):
    """The reference, but it also saves the lowest-indexed item it left out."""
    value, saved, recomputable = dp_knapsack(memory, runtime, max_memory)
    if not recomputable:
        return value, saved, recomputable
    extra = recomputable[-1]
    return value, sorted([*saved, extra]), recomputable[:-1]
'''

PLUGIN_SOURCE = f"""
from knapsack_audit import catalog
from knapsack_audit.cases import Case

catalog.OUR_SOLVERS = (*catalog.OUR_SOLVERS, {THROWAWAY!r})
"""
"""A pytest plugin (``-p``) that adds the throwaway before the test modules import."""


@pytest.fixture
def throwaway(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The throwaway solver's folder, on ``sys.path``, the solver in the catalog."""
    (tmp_path / "throwaway_solver.py").write_text(THROWAWAY_SOURCE)
    (tmp_path / "throwaway_plugin.py").write_text(PLUGIN_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(catalog, "OUR_SOLVERS", (*catalog.OUR_SOLVERS, THROWAWAY))
    return tmp_path


def _pytest(folder: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    tests = Path(__file__).parent
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "throwaway_plugin",
            "-p",
            "no:cacheprovider",
            "-q",
            "--durations=0",
            *arguments,
        ],
        cwd=tests.parent,
        env=env,
        capture_output=True,
        text=True,
    )


def test_throwaway_is_ours_and_judged_exactly(throwaway: Path) -> None:
    """SPEC 4.4, 5.1: a solver listed in OUR_SOLVERS is ours: exact, extended domain."""
    (entry,) = [solver for solver in catalog.ours() if solver.name == THROWAWAY]
    assert (entry.exact, entry.domain) == (True, catalog.EXTENDED)
    assert parse_target(THROWAWAY)[0].is_ours


def test_contract_suite_and_engine_tests_collect_it(throwaway: Path) -> None:
    """SPEC 1-8: every contract test and the engine's test of ours collect the
    throwaway as often as the reference (one pytest run, collection only)."""
    run = _pytest(throwaway, "--collect-only", "tests/test_contract.py", "tests/test_engine.py")
    assert run.returncode == 0, run.stdout + run.stderr
    ids = run.stdout.splitlines()
    for module in ("test_contract.py", "test_engine.py"):
        ours = [line for line in ids if module in line and THROWAWAY in line]
        reference = [line for line in ids if module in line and catalog.REFERENCE in line]
        assert ours and len(ours) == len(reference), module


def test_contract_checks_catch_it(throwaway: Path) -> None:
    """SPEC 3.2, 7.2(c): the one-call properties the contract suite asserts
    report the throwaway's extra item on pytorch issue #197871's case."""
    (entry,) = [solver for solver in catalog.ours() if solver.name == THROWAWAY]
    case = Case((1e-4, 1e-4, 1e-4), (1.0, 1.0, 1.0), 1e-4)
    findings = check_call(entry.load(), case, Judge(exact=entry.exact))
    assert "feasibility" in {finding.property for finding in findings}


def test_exhaustive_scope_runs_it_and_catches_it(throwaway: Path) -> None:
    """SPEC 3.2: the exhaustive check loads it by name in its workers."""
    summary = verify_small_scope(THROWAWAY, max_items=1, workers=1, keep=100)
    assert summary.failure_count > 0
    assert any("feasibility (SPEC 3.2)" in failure for failure in summary.failures)


def test_golden_replay_and_release_report_run_it(throwaway: Path) -> None:
    """SPEC 3.2: the golden replay judges it exactly and finds its overruns; the
    release report audits it."""
    (named,) = [solver for solver in replay.our_solvers() if solver.name == THROWAWAY]
    assert named.judge.exact
    loaded = fixtures.load(fixtures.default_directory())[:5]
    assert {finding.property for finding in replay.replay(named, loaded)} >= {"feasibility"}
    targets, notes = release_targets()
    assert THROWAWAY in [target.label for target in targets]
    assert notes == []
