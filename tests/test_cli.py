"""The ``knapsack-audit`` command end to end.

Every command runs as a subprocess (``python -m knapsack_audit.cli``) with a
unique marker in its environment; the solver workers inherit it, so scanning
``/proc/*/environ`` for the marker after the command ends finds any process
it left behind. Misbehaving solvers live in tests/fixtures/bad_solvers/ and
are audited as file targets.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from knapsack_audit import cli
from knapsack_audit.cases import Case
from knapsack_audit.cli import memory_size
from knapsack_audit.isolation import (
    AUDIT_THREADS,
    IsolatedSolver,
    Opaque,
    SolverTimeout,
    portable,
)
from knapsack_audit.properties import is_call_timeout
from knapsack_audit.targets import TargetError, parse_target

BAD_SOLVERS = Path(__file__).parent / "fixtures" / "bad_solvers"
QUICK = ("--max-examples", "5", "--call-timeout", "1", "--time-budget", "2", "--quiet")


@dataclass
class Run:
    """A finished ``knapsack-audit`` command."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float
    marker: str


def processes_with(marker: str) -> list[int]:
    """Pids of live processes whose environment contains ``marker``."""
    found = []
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environment = (entry / "environ").read_bytes()
        except OSError:
            continue
        if needle in environment:
            found.append(int(entry.name))
    return found


def knapsack_audit(
    *arguments: str,
    timeout: float = 300,
    python: str | Path = sys.executable,
    cwd: Path | None = None,
) -> Run:
    """Run the command with ``python`` (another environment's, for the wheel)
    in ``cwd``; assert it left no process behind."""
    marker = f"knapsack-audit-test-{uuid.uuid4()}"
    environment = {**os.environ, "KNAPSACK_AUDIT_TEST_MARKER": marker}
    started = time.perf_counter()
    completed = subprocess.run(
        [str(python), "-m", "knapsack_audit.cli", *arguments],
        capture_output=True,
        text=True,
        env=environment,
        timeout=timeout,
        check=False,
        cwd=cwd,
    )
    seconds = time.perf_counter() - started
    deadline = time.monotonic() + 3  # multiprocessing's resource tracker exits just after
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(marker) == [], "the command left processes behind"
    return Run(completed.returncode, completed.stdout, completed.stderr, seconds, marker)


def findings_by_property(report: dict[str, Any], label: str) -> dict[str, dict[str, Any]]:
    """The JSON report's findings for target ``label``, by property."""
    (target,) = [t for t in report["targets"] if t["label"] == label]
    return {finding["property"]: finding for finding in target["findings"]}


def call_arguments(call: str) -> tuple[Any, ...]:
    """The arguments of a printed call ``f([..] * k + [..], [..], x)``."""
    return Case.from_call(call)[1].arguments()


# --- verify torch: run once, three report formats ------------------------------------


@pytest.fixture(scope="module")
def torch_audit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, Path]:
    """``verify torch`` with JSON, Markdown and JUnit reports, run once."""
    folder = tmp_path_factory.mktemp("torch-audit")
    run = knapsack_audit(
        "verify",
        "torch",
        # The README's command uses the default (45 s). 25 s is the shortest budget whose
        # hard stop (35 s) leaves torch's dp_knapsack room to finish its exhaustive scope on
        # a loaded CI machine: breadth ends at 8.3 s, the scope takes about 15 s here alone
        # or beside two busy cores; at 10 s the stop (20 s) cut it off in CI at 5bd2e67.
        "--time-budget",
        "25",
        "--report",
        str(folder / "audit.json"),
        "--report",
        str(folder / "audit.md"),
        "--report",
        str(folder / "audit.xml"),
    )
    return run, folder


def test_verify_torch_exits_1(torch_audit: tuple[Run, Path]) -> None:
    """SPEC 3.2, 5.2, 7.2: Exit 1: torch 2.13 has failing solvers. The wall time is printed for the
    issue's 4-minute acceptance, not asserted (CI machines are noisy)."""
    run, _ = torch_audit
    print(f"knapsack-audit verify torch: {run.seconds:.1f} s")
    assert run.returncode == 1, run.stdout + run.stderr


def test_verify_torch_json_verdicts(torch_audit: tuple[Run, Path]) -> None:
    """SPEC 3.2, 5.2, 7.2: the JSON report has each torch solver's verdict per property."""
    _, folder = torch_audit
    report = json.loads((folder / "audit.json").read_text())
    assert report["exit_code"] == 1
    status = {target["label"]: target["status"] for target in report["targets"]}
    assert status == {
        "torch:dp_knapsack": "pass",
        "torch:dp_knapsack_sliding_hirschberg": "fail",
        "torch:greedy_knapsack": "fail",
        "torch:ilp_knapsack": "fail",
    }
    greedy = findings_by_property(report, "torch:greedy_knapsack")
    assert "optimality" in greedy
    assert "ZeroDivisionError" in greedy["no-crash"]["actual"]
    ilp = findings_by_property(report, "torch:ilp_knapsack")
    assert "unquantized" in ilp["optimality"]["explanation"]


def test_hirschberg_counterexample_is_small_and_replays(torch_audit: tuple[Run, Path]) -> None:
    """SPEC 3.2: the printed call, pasted, really returns an over-budget selection."""
    from torch._functorch._activation_checkpointing.knapsack import (
        dp_knapsack_sliding_hirschberg,
    )

    from knapsack_audit.reference.validation import quantize

    _, folder = torch_audit
    report = json.loads((folder / "audit.json").read_text())
    finding = findings_by_property(report, "torch:dp_knapsack_sliding_hirschberg")["feasibility"]
    memory, _, max_memory = call_arguments(finding["call"])
    assert len(memory) <= 3
    assert "> budget" in finding["actual"]
    _, saved, _ = eval(
        finding["call"], {finding["call"].partition("(")[0]: dp_knapsack_sliding_hirschberg}
    )
    assert sum(quantize(memory[i]) for i in saved) > quantize(max_memory)


def test_verify_torch_junit_parses(torch_audit: tuple[Run, Path]) -> None:
    """SPEC 3.2, 7.2: the JUnit XML report parses and lists the failures."""
    _, folder = torch_audit
    root = ET.parse(folder / "audit.xml").getroot()
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert suites["torch:dp_knapsack"].get("failures") == "0"
    hirschberg = suites["torch:dp_knapsack_sliding_hirschberg"]
    failed = {
        case.get("name") for case in hirschberg.iter("testcase") if case.find("failure") is not None
    }
    assert "feasibility" in failed
    assert int(root.get("failures", "0")) >= 5


def test_verify_torch_markdown_and_terminal(torch_audit: tuple[Run, Path]) -> None:
    """SPEC 3.2, 7.2: the Markdown report and the terminal show the findings."""
    run, folder = torch_audit
    markdown = (folder / "audit.md").read_text()
    assert "`torch:dp_knapsack`: PASS" in markdown
    assert "`torch:dp_knapsack_sliding_hirschberg`: FAIL" in markdown
    assert "| feasibility | fail |" in markdown
    assert "dp_knapsack_sliding_hirschberg([" in run.stdout
    assert "unquantized" in run.stdout
    assert run.stderr == ""  # no progress display when stderr is not a terminal


# --- ours ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.release
def test_verify_reference_passes() -> None:
    """SPEC 3.3, 5.1: the reference passes every property, judged exactly. The
    budget covers the exhaustive phase (18,267 calls through the worker, 20.6 s
    once on CI's machine in a slow phase, where 10 s plus the hard-stop grace
    cut it off as INCOMPLETE)."""
    run = knapsack_audit(
        "verify", "knapsack_audit.reference:dp_knapsack", "--time-budget", "30", "--quiet"
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "judge exact, extended domain" in " ".join(run.stdout.split())


# --- misbehaving solvers -------------------------------------------------------------


@pytest.mark.parametrize(
    ("solver", "prop", "words"),
    [
        ("hangs", "no-crash", "SolverTimeout"),
        ("raises", "no-crash", "RuntimeError: solver exploded"),
        ("allocates", "no-crash", "MemoryError"),
        ("exits", "no-crash", "exit code 3"),
        ("segfaults", "no-crash", "signal SIGSEGV"),
        ("wrong_shape", "return-shape", "got tuple: (0.0, [])"),
        ("numpy_ints", "partition", "numpy.int64"),
        ("mutates", "no-mutation", "changed its input lists"),
    ],
)
def test_bad_solver_is_reported(solver: str, prop: str, words: str, tmp_path: Path) -> None:
    """SPEC 7.2, 8.2: a crashing, hanging or misbehaving solver is reported, not fatal."""
    report_path = tmp_path / "report.json"
    run = knapsack_audit(
        "verify", f"{BAD_SOLVERS / solver}.py:solver", *QUICK, "--report", str(report_path)
    )
    assert run.returncode == 1, run.stdout + run.stderr
    report = json.loads(report_path.read_text())
    finding = findings_by_property(report, f"{solver}.py:solver")[prop]
    assert words in finding["actual"]
    assert is_call_timeout(finding["actual"]) == (solver == "hangs")
    assert finding["call"].startswith("solver([")
    assert f"FAIL {prop}" in run.stdout


# --- usage errors --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ((), "required"),
        (("nonsense",), "expected 'torch'"),
        (("no_such_module_xyz:f",), "module not found: no_such_module_xyz"),
        ((f"{BAD_SOLVERS / 'missing.py'}:solver",), "file not found"),
        (("knapsack_audit.reference:no_such_solver",), "has no attribute 'no_such_solver'"),
        ((f"{BAD_SOLVERS / 'not_callable.py'}:solver",), "not callable"),
        (("torch", "--report", "out.txt"), "unknown extension"),
        (("torch", "--memory-limit", "lots"), "not a memory size"),
    ],
)
def test_usage_errors_exit_2(arguments: tuple[str, ...], words: str) -> None:
    """SPEC 1: a malformed TARGET or option is a usage error (exit 2)."""
    run = knapsack_audit("verify", *arguments, "--quiet")
    assert run.returncode == 2
    assert words in run.stdout + run.stderr


def test_help_warns_that_targets_execute() -> None:
    """SPEC 1.9: the help says loading a target executes its code."""
    run = knapsack_audit("verify", "--help")
    assert run.returncode == 0
    assert "EXECUTES ITS CODE" in run.stdout


# --- units: target parsing and isolation ---------------------------------------------


def test_parse_targets() -> None:
    """SPEC 1.9: every TARGET form parses; a missing file is a TargetError."""
    (ours,) = parse_target("knapsack_audit.reference:dp_knapsack")
    assert ours.is_ours and ours.module == "knapsack_audit.reference"
    labels = [target.label for target in parse_target("torch")]
    assert "torch:dp_knapsack" in labels and "torch:ilp_knapsack" in labels
    with pytest.raises(TargetError, match="file not found"):
        parse_target("nowhere/knapsack.py:dp_knapsack")


def test_memory_size() -> None:
    """SPEC 1.6: --memory-limit sizes parse."""
    assert memory_size("4GiB") == 4 * 2**30
    assert memory_size("512M") == 512 * 2**20
    assert memory_size("0") is None


def test_portable_keeps_numpy_and_describes_the_rest() -> None:
    """SPEC 7.2(b): numpy integers survive the worker's answer, so partition can see them."""
    import numpy as np

    class Local:
        pass

    value = portable((np.int64(1), [Local()]))
    assert type(value[0]) is np.int64
    assert isinstance(value[1][0], Opaque)


def test_isolated_solver_restarts_after_timeout_and_leaves_no_child() -> None:
    """SPEC 7.2: a call timeout is a finding; the worker restarts and leaves no process."""
    (target,) = parse_target(f"{BAD_SOLVERS / 'hangs'}.py:solver")
    with IsolatedSolver(target, call_timeout=0.5) as solver:
        for _ in range(2):
            with pytest.raises(SolverTimeout):
                solver([1e-4], [1.0], 1e-4)
        pid = solver.pid
        assert pid is None  # killed after the timeout, restarted on the next call
    assert _workers() == []


def test_a_submitted_call_answers_while_the_caller_works_and_in_order() -> None:
    """SPEC 8.1: the breadth phase begins each call before it judges the one
    before, so the worker's answers must come back to the call that asked,
    in order. A call submitted and not collected is dropped by the next
    request (whose answer is its own), and collecting it then is the tool's
    error; a submitted call that hangs times out from its send, as a plain
    call does."""
    (target,) = parse_target("knapsack_audit.reference:dp_knapsack")
    with IsolatedSolver(target) as solver:
        first = solver.submit([2e-4, 1e-4], [1.0, 3.0], 2e-4)
        assert solver([1e-4], [2.0], 1e-4) == (2.0, [0], [])
        with pytest.raises(RuntimeError, match="collected after another request"):
            first()
        later = solver.submit([2e-4, 1e-4], [1.0, 3.0], 2e-4)
        assert later() == (3.0, [1], [0])
        assert solver.calls == 3
    (hangs,) = parse_target(f"{BAD_SOLVERS / 'hangs'}.py:solver")
    with IsolatedSolver(hangs, call_timeout=0.5) as solver:
        collect = solver.submit([1e-4], [1.0], 1e-4)
        time.sleep(0.6)
        started = time.monotonic()
        with pytest.raises(SolverTimeout):
            collect()
        assert time.monotonic() - started < 0.4
    assert _workers() == []


THREADS_SOLVER = """\
import os

import torch


def threads(memory, runtime, max_memory):
    return float(torch.get_num_threads()), [], list(range(len(memory)))


def setting(memory, runtime, max_memory):
    return float(os.environ.get("OMP_NUM_THREADS", "0")), [], list(range(len(memory)))
"""


def test_an_audited_worker_runs_one_torch_thread_and_a_timed_one_torch_s_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 9.2: the worker of an audit runs torch on AUDIT_THREADS threads (two
    audits on two cores otherwise take four times as long, and pass a bug), a
    worker that ``compare`` times keeps torch's default, and an
    ``OMP_NUM_THREADS`` the user set is kept."""
    import torch

    file = tmp_path / "threads.py"
    file.write_text(THREADS_SOLVER)
    (threads,) = parse_target(f"{file}:threads")
    (setting,) = parse_target(f"{file}:setting")
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    with IsolatedSolver(threads) as solver:
        assert solver([1.0], [1.0], 1.0)[0] == AUDIT_THREADS == 1
    with IsolatedSolver(threads, threads=None) as solver:
        assert solver([1.0], [1.0], 1.0)[0] == torch.get_num_threads()
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    with IsolatedSolver(setting) as solver:
        assert solver([1.0], [1.0], 1.0)[0] == 3


def test_more_jobs_than_usable_cores_is_warned_about_before_anything_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """SPEC 9.2: the audit's time budget, like a timed ratio, is wall-clock
    time, so ``--jobs`` above the usable cores gets a warning on stderr naming both
    numbers; at or below the cores, and for commands without ``--jobs``, none."""
    monkeypatch.setattr(cli, "usable_cores", lambda: 2)
    missing = "no_such_module_for_jobs:solver"
    assert cli.main(["verify", "--quiet", "--jobs", "3", missing]) == 2
    warned = capsys.readouterr().err
    assert "knapsack-audit verify: warning: --jobs 3" in warned
    assert "2 usable cores" in warned
    assert cli.main(["verify", "--quiet", "--jobs", "2", missing]) == 2
    assert "warning" not in capsys.readouterr().err
    cli.warn_if_more_jobs_than_cores("mutate", 1)
    assert capsys.readouterr().err == ""
    assert cli.usable_cores() >= 1


def test_verify_runs_one_audit_per_usable_core_by_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """SPEC 9.2: ``verify``'s ``--jobs`` defaults to ``auto``: the usable cores, at
    most one per target, never more than the cores (so never the warning above);
    an explicit count is kept, and anything else is refused naming the option."""
    monkeypatch.setattr(cli, "usable_cores", lambda: 2)
    assert cli.jobs_for("auto", 4) == 2
    assert cli.jobs_for("auto", 1) == 1
    assert cli.jobs_for("auto") == 2
    assert cli.jobs_for(3, 4) == 3
    monkeypatch.setattr(cli, "usable_cores", lambda: 1)
    assert cli.jobs_for("auto", 4) == 1
    seen: list[int] = []

    def record(targets: list[object], options: object, jobs: int, **_: object) -> list[object]:
        seen.append(jobs)
        return []

    monkeypatch.setattr(cli, "usable_cores", lambda: 2)
    monkeypatch.setattr(cli, "verify_all", record)
    assert cli.main(["verify", "--quiet", "torch"]) == 0
    assert cli.main(["verify", "--quiet", "--jobs", "1", "torch"]) == 0
    assert cli.main(["verify", "--quiet", "knapsack_audit.reference:dp_knapsack"]) == 0
    assert seen == [2, 1, 1]
    assert "warning" not in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["verify", "--jobs", "0", "torch"])
    assert "--jobs: must be >= 1, got 0 (or 'auto')" in capsys.readouterr().err
    assert cli.build_parser().parse_args(["mutate", "torch"]).jobs == 1


def _workers() -> list[int]:
    """Live child processes of this one, except multiprocessing's resource tracker."""
    path = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
    workers = []
    for pid in path.read_text().split():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"resource_tracker" not in command:
            workers.append(int(pid))
    return workers


def test_file_target_from_a_checkout_uses_installed_torch(tmp_path: Path) -> None:
    """SPEC 7.2: a knapsack.py outside any package (as in a PyTorch checkout)
    loads from its path."""
    spec = importlib.util.find_spec("torch")
    assert spec is not None and spec.origin is not None
    upstream = Path(spec.origin).parent / "_functorch" / "_activation_checkpointing" / "knapsack.py"
    checkout = tmp_path / "knapsack.py"
    checkout.write_text(upstream.read_text())
    report_path = tmp_path / "report.json"
    run = knapsack_audit(
        "verify", f"{checkout}:greedy_knapsack", *QUICK, "--report", str(report_path)
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert report_path.exists(), run.stdout + run.stderr
    findings = findings_by_property(
        json.loads(report_path.read_text()), "knapsack.py:greedy_knapsack"
    )
    assert findings["no-crash"]["call"] == "greedy_knapsack([0.0], [1.0], 1.0)"


LOGGING_SOLVER = """
import os

from knapsack_audit.optimized import dp_knapsack_sliding_hirschberg


def solver(memory, runtime, max_memory):
    with open(os.environ["KNAPSACK_AUDIT_CALL_LOG"], "a") as log:
        log.write(repr((memory, runtime, max_memory)) + "\\n")
    return dp_knapsack_sliding_hirschberg(memory, runtime, max_memory)
"""


@pytest.mark.slow
@pytest.mark.release
def test_seed_option_seeds_the_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SPEC 8.1 (for the audit itself): the same --seed replays the same calls,
    another seed makes other calls; so --seed reaches the search. Three whole
    default audits (the breadth phase's about 400 calls each): 78.8 s at
    bb7279a, 116.1 s at cad41b9 in the README's test command, the longest of
    it; the release set runs it since session 25 (the README's claim "--seed
    replays a run")."""
    target = tmp_path / "logged.py"
    target.write_text(LOGGING_SOLVER)
    # The example count bounds the run; the time budget is set far above it,
    # since the breadth phase hands what it has not checked by a third of the
    # budget to the rounds: a loaded machine would then reorder the calls
    # (CI at 010745c: the same seed gave another order at --time-budget 60).
    # The call timeout is raised for the same reason: a call cut off on a
    # loaded machine is a finding that changes the run (CI at e6387e4: the
    # pure-Python reference, logged here then, timed out on a 27.3e6-cell call
    # at 10 s). The logged solver is our optimized one: with the reference,
    # the three runs took 390 s of the suite's 12 min (17 s each now).
    effort = ("--max-examples", "5", "--time-budget", "900", "--call-timeout", "60", "--quiet")
    calls = {}
    for run_name, seed in (("first", "7"), ("again", "7"), ("other", "8")):
        log = tmp_path / f"{run_name}.log"
        monkeypatch.setenv("KNAPSACK_AUDIT_CALL_LOG", str(log))
        run = knapsack_audit("verify", f"{target}:solver", *effort, "--seed", seed)
        assert run.returncode == 0, run.stdout + run.stderr
        calls[run_name] = log.read_text().splitlines()
    assert len(calls["first"]) > 20
    assert calls["again"] == calls["first"]
    assert calls["other"] != calls["first"]


def test_worker_dies_with_a_killed_audit() -> None:
    """SPEC 8.1: SIGKILL the auditing process during a hanging call: its worker must not survive."""
    marker = f"knapsack-audit-test-{uuid.uuid4()}"
    command = [
        sys.executable,
        "-m",
        "knapsack_audit.cli",
        "verify",
        f"{BAD_SOLVERS / 'hangs'}.py:solver",
        "--call-timeout",
        "60",
        "--quiet",
    ]
    audit = subprocess.Popen(
        command,
        env={**os.environ, "KNAPSACK_AUDIT_TEST_MARKER": marker},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while len(processes_with(marker)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(processes_with(marker)) >= 2, "the worker never started"
        time.sleep(1)
    finally:
        audit.kill()
        audit.wait()
    deadline = time.monotonic() + 5
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(marker) == []


# --- golden subcommand ----------------------------------------------------------------


def test_golden_subcommand_regenerates_expected_findings(tmp_path: Path) -> None:
    """SPEC 3.2, 5.2: ``knapsack-audit golden expected`` delegates to
    knapsack_audit.golden."""
    source = Path(__file__).parents[1] / "knapsack_audit" / "golden" / "data" / "mlp-flops.json"
    (tmp_path / source.name).write_text(source.read_text())
    run = knapsack_audit("golden", "expected", "--fixtures", str(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    document = json.loads((tmp_path / "expected_findings.json").read_text())
    (entry,) = document.values()
    assert set(entry["findings"]) == {
        "dp_knapsack",
        "dp_knapsack_sliding_hirschberg",
        "greedy_knapsack",
        "ilp_knapsack",
    }


IDENTITY_SOLVER = """\
def solver(memory, runtime, max_memory):
    same = [k for k in range(1, len(memory)) if memory[k] is memory[k - 1]]
    return float(len(same)), same, [type(memory).__name__, runtime[0] is runtime[1]]
"""


def test_the_worker_passes_runs_of_equal_neighbours_as_one_object(tmp_path: Path) -> None:
    """SPEC 4.6: unpickled in the worker, a call's runs of neighbours of the
    same type and ``repr`` are one object again, as ``[v] * k`` builds them
    (a list stays a list, a tuple a tuple); ``-0.0`` and ``0.0``, ``1`` and
    ``1.0``, stay apart. A blind-corpus bug that folded runs of the very
    same object passed default ``verify`` before (docs/blind-corpus-17)."""
    path = tmp_path / "identity.py"
    path.write_text(IDENTITY_SOLVER, encoding="utf-8")
    (target,) = parse_target(f"{path}:solver")
    memory = [0.5, 0.5, 0.5, -0.0, 0.0, 1, 1.0]
    with IsolatedSolver(target, call_timeout=10) as solver:
        assert solver(memory, [2.0, 2.0], 1.0) == (2.0, [1, 2], ["list", True])
        assert solver(tuple(memory), (2.0, 3.0), 1.0) == (2.0, [1, 2], ["tuple", False])
