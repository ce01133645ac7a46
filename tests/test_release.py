"""The release report: its parts, and the whole report from the built wheel.

Each part runs on a few fixtures, so that the gate can be shown to stop on
a real regression: the golden verdicts made with upstream's Hirschberg
solver patched (patches/upstream-knapsack-offbyone.patch, built as in
``tests/test_upstream_patch.py``) as the baseline, and made with the
unpatched one now.

The whole ``knapsack-audit report`` (:func:`test_release_report`, in the
release set) runs as a release engineer installs it: the test copies the
project's files to a temporary folder, builds the wheel there (``pip wheel
--no-deps --no-build-isolation``, with the test environment's setuptools),
creates a fresh virtual environment outside the checkout and installs the
wheel with ``--no-deps``. The heavy dependencies (torch, numpy, hypothesis,
scipy, rich, matplotlib) come from the test environment's site-packages
through a ``.pth`` line: Python only appends such a folder to ``sys.path``
without running the ``.pth`` files inside it, so the editable install's
import hook (``__editable__.knapsack_audit-*.pth``) stays off, and the test
checks that ``knapsack_audit`` is imported from the new environment. The
report then runs from an empty folder: its golden section must replay the
shipped fixtures. Until session 33 a second whole report ran from the wheel
in tests/test_wheel.py (425 s of the release set in CI at ``1e3ed40``,
beside this test's 445 s); one run now carries both tests' checks.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread
from test_cli import knapsack_audit
from torch._functorch._activation_checkpointing import knapsack as installed

from knapsack_audit import plots
from knapsack_audit.cases import Case
from knapsack_audit.catalog import OPTIMIZED, TORCH_HIRSCHBERG, load
from knapsack_audit.cli import main as cli_main
from knapsack_audit.golden import findings, fixtures
from knapsack_audit.golden.fixtures import Fixture
from knapsack_audit.properties import Solver
from knapsack_audit.release import GoldenReplay, Release, regressions, write_plots
from knapsack_audit.verify import AuditOptions

ROOT = Path(__file__).resolve().parents[1]
NOT_SHIPPED = (".git", ".venv", ".typecheck", "build", "dist", "benchmarks", "tests")


def _run(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, check=False
    )


def _build_wheel(tmp_path: Path) -> Path:
    source = tmp_path / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(*NOT_SHIPPED, "__pycache__", "*.egg-info", ".*_cache"),
    )
    built = _run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
        "-w", tmp_path / "wheels", source,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "wheels").glob("knapsack_audit-*.whl")
    return wheel


def _fresh_environment(tmp_path: Path, wheel: Path) -> Path:
    venv = tmp_path / "venv"
    created = _run(sys.executable, "-m", "venv", "--without-pip", venv)
    assert created.returncode == 0, created.stderr
    python = venv / "bin" / "python"
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    site = Path(purelib.stdout.strip())
    (site / "test-environment-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = _run(
        sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
        "--no-index", wheel,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return venv


PATCH = ROOT / "patches" / "upstream-knapsack-offbyone.patch"
RELATIVE = Path("torch/_functorch/_activation_checkpointing/knapsack.py")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MIN_PNG_BYTES = 10_000
REAL_OVERRUN = "resnet_101-flops[b=0.05]#n=209"
"""A real call of 209 items on which the unpatched Hirschberg solver is over budget."""


@pytest.fixture(scope="module")
def patched_hirschberg(tmp_path_factory: pytest.TempPathFactory) -> Solver:
    """Upstream's Hirschberg solver with the one-line fix, from a patched copy."""
    if shutil.which("git") is None:
        pytest.skip("git is needed to apply the patch")
    directory = tmp_path_factory.mktemp("upstream")
    target = directory / RELATIVE
    target.parent.mkdir(parents=True)
    assert installed.__file__ is not None
    shutil.copyfile(installed.__file__, target)
    subprocess.run(["git", "apply", str(PATCH)], cwd=directory, check=True, capture_output=True)
    return load(f"{target}:{TORCH_HIRSCHBERG}")


def _synthetic(case: Case) -> Fixture:
    return fixtures.from_record(
        fixtures.call_record(
            case, {"model": "synthetic", "budget": case.max_memory}, (0.0, [], [])
        ),
        source="synthetic",
    )


@pytest.fixture(scope="module")
def calls() -> list[Fixture]:
    """Pytorch issue #197871's 3-item call, a real 209-item call the unpatched
    solver overruns, and the small zoo's first five calls."""
    loaded = fixtures.load()
    real = [fixture for fixture in loaded if fixture.name == REAL_OVERRUN]
    assert real, f"fixture {REAL_OVERRUN} is missing"
    return [_synthetic(Case((1e-4,) * 3, (1.0,) * 3, 1e-4)), *real, *loaded[:5]]


def _document(findings_: list[findings.FixtureFindings]) -> dict[str, object]:
    golden = GoldenReplay(installed=True, repeats=0, findings=findings_)
    return Release([], golden, [], AuditOptions()).to_dict()


def _judged(
    calls: Sequence[Fixture], hirschberg: Solver, repeats: int = 0
) -> list[findings.FixtureFindings]:
    solvers = [(findings.OURS, load(OPTIMIZED)), (TORCH_HIRSCHBERG, hirschberg)]
    return findings.judge_all(calls, repeats, solvers)


def test_verdict_sentences_count_correct_and_over_budget_calls(calls: list[Fixture]) -> None:
    """SPEC 10.1: one sentence per solver, "correct on N of C real calls; over budget
    on M", the worst call copy-pasteable (it reads back to the same case)."""
    judged = _judged(
        calls, load(f"torch._functorch._activation_checkpointing.knapsack:{TORCH_HIRSCHBERG}")
    )
    ours, upstream = findings.verdicts(judged)
    assert ours.sentence(1).startswith(f"ours: correct on {len(calls)} of {len(calls)} real calls")
    assert upstream.over_budget[:2] == (calls[0].name, REAL_OVERRUN)
    assert upstream.correct <= len(calls) - 2
    sentence = upstream.sentence(1)
    assert f"correct on {upstream.correct} of {len(calls)} real calls" in sentence
    assert f"over budget on {len(upstream.over_budget)}" in sentence
    call = upstream.worst_call()
    assert call is not None and upstream.worst is not None
    assert Case.from_call(call) == (TORCH_HIRSCHBERG, upstream.worst[1].case)


def test_gate_stops_on_the_unpatched_solver_against_the_patched_baseline(
    calls: list[Fixture], patched_hirschberg: Solver
) -> None:
    """SPEC 10.3: the patched solver's verdicts as the baseline, the unpatched
    one's now: new over-budget real calls and fewer correct calls are
    regressions; a report against itself, or the fix against the bug, has none."""
    unpatched = load(f"torch._functorch._activation_checkpointing.knapsack:{TORCH_HIRSCHBERG}")
    baseline = _document(_judged(calls, patched_hirschberg))
    current = _document(_judged(calls, unpatched))
    found = regressions(baseline, current)
    assert any(
        line.startswith(f"{TORCH_HIRSCHBERG}: over budget on ") and REAL_OVERRUN in line
        for line in found
    ), found
    assert any(line.startswith(f"{TORCH_HIRSCHBERG}: correct on ") for line in found), found
    assert regressions(current, current) == []
    assert regressions(baseline, baseline) == []
    assert regressions(current, baseline) == []


def _with_ratio(ratio: float, noise: float) -> dict[str, object]:
    verdict = {
        "solver": "dp_knapsack",
        "calls": 1,
        "correct": 1,
        "over_budget": [],
        "median_time_ratio": ratio,
        "time_ratio_noise": noise,
    }
    return {"targets": [], "golden": {"solvers": [verdict]}}


def test_gate_stops_on_a_slower_median_beyond_the_noise() -> None:
    """SPEC 10.3: our median time ratio to upstream falling by more than the
    noise (and the floor) is a regression; a change within it is not."""
    assert regressions(_with_ratio(30.0, 0.1), _with_ratio(12.0, 0.1))
    assert regressions(_with_ratio(30.0, 0.1), _with_ratio(16.0, 0.1)) == []
    assert regressions(_with_ratio(30.0, 0.1), _with_ratio(12.0, 1.6)) == []
    assert regressions(_with_ratio(30.0, 0.1), _with_ratio(90.0, 0.1)) == []


def test_gate_stops_on_a_target_that_passed_and_now_fails() -> None:
    """SPEC 10.3: a ``verify`` target that passed and now fails; one that failed
    already is not a regression however many properties its search found."""

    def targets(status: str, failed: list[str]) -> dict[str, object]:
        target = {
            "label": "torch:x",
            "status": status,
            "findings": [{"property": p} for p in failed],
        }
        return {"targets": [target], "golden": {}}

    assert regressions(targets("pass", []), targets("fail", ["feasibility"]))
    assert (
        regressions(
            targets("fail", ["feasibility"]), targets("fail", ["feasibility", "optimality"])
        )
        == []
    )
    assert regressions(targets("fail", ["feasibility"]), targets("fail", ["feasibility"])) == []
    assert regressions(targets("fail", ["feasibility"]), targets("pass", [])) == []


def _colours(path: Path) -> int:
    pixels = imread(path)
    return len(np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0))


def test_plots_render_from_a_small_fixture(calls: list[Fixture], tmp_path: Path) -> None:
    """SPEC 10.2: the three pictures are drawn from measured data: valid PNG
    files, not tiny, and not one flat colour."""
    judged = _judged(
        calls,
        load(f"torch._functorch._activation_checkpointing.knapsack:{TORCH_HIRSCHBERG}"),
        repeats=2,
    )
    golden = GoldenReplay(installed=True, repeats=2, findings=judged)
    golden.pareto = plots.pareto_curves(
        calls[1].case,
        [
            (
                TORCH_HIRSCHBERG,
                load(f"torch._functorch._activation_checkpointing.knapsack:{TORCH_HIRSCHBERG}"),
            )
        ],
        "resnet_101",
        (0.0, 0.05, 0.1, 0.5, 1.0),
    )
    drawn = write_plots(golden, tmp_path / "release.md")
    assert sorted(drawn) == ["over-budget", "pareto", "time-ratio"]
    for kind, path in drawn.items():
        data = path.read_bytes()
        assert path.parent == tmp_path and path.name == f"release-{kind}.png"
        assert data.startswith(PNG_SIGNATURE), kind
        assert len(data) >= MIN_PNG_BYTES, (kind, len(data))
        assert _colours(path) > 2, kind
    over = golden.pareto.solvers[0][1]
    assert any(point.over_budget for point in over)


# --- the command end to end: in the release set (README, "Auditing a release"),
# beside the exhaustive scope there; 222 s of the README's test command under
# load in CI at df63769, the longest test of it (session 31) ---


@pytest.mark.slow
@pytest.mark.release
def test_release_report(tmp_path: Path) -> None:
    """SPEC 3.2, 5.2, 7.2, 10.1, 10.3, from the installed wheel (module
    docstring): the release report has versions, verdicts in one vocabulary,
    the golden replay of the shipped fixtures, the drift check apart, its
    JSON and JUnit twins and the plots; its JSON against itself is no
    regression."""
    venv = _fresh_environment(tmp_path, _build_wheel(tmp_path))
    python = venv / "bin" / "python"
    where = tmp_path / "elsewhere"
    where.mkdir()
    located = _run(python, "-c", "import knapsack_audit; print(knapsack_audit.__file__)", cwd=where)
    assert located.stdout.startswith(str(venv)), located.stdout + located.stderr
    output = where / "release.md"
    run = knapsack_audit(
        "report",
        "--output",
        str(output),
        "--jobs",
        "2",
        "--max-examples",
        "2",
        "--time-budget",
        "2",
        "--repeats",
        "1",
        "--quiet",
        timeout=900,
        python=python,
        cwd=where,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    markdown = output.read_text()
    assert "No golden fixtures found" not in markdown
    for name in ("python", "torch", "numpy", "hypothesis", "matplotlib", "cpu count"):
        assert f"| {name} |" in markdown
    assert "Replay: passed" not in markdown
    hirschberg = "upstream dp_knapsack_sliding_hirschberg: correct on 140 of 168 real calls"
    for text in (markdown, run.stdout):
        assert "ours: correct on 168 of 168 real calls; over budget on 0;" in text
        assert f"{hirschberg}; over budget on 28 (28 of the 50 real-scale-zoo calls)" in text
        assert "): reproduces the recorded findings." in text
        assert "1 interleaved rounds after a warm-up" in text
    assert "knapsack_audit.reference:dp_knapsack: 0 findings on the 118 small-zoo calls" in markdown
    # With a 2 s budget a loaded machine can cut the reference's search off
    # (status warning, exit code 3 in verify): what must never show is a failure of ours.
    assert "| `knapsack_audit.reference:dp_knapsack` | fail |" not in markdown
    assert "| `knapsack_audit.reference:dp_knapsack` |" in markdown
    assert "| `torch:dp_knapsack_sliding_hirschberg` | fail |" in markdown
    for kind in ("over-budget", "time-ratio", "pareto"):
        assert f"](release-{kind}.png)" in markdown
        assert (where / f"release-{kind}.png").read_bytes().startswith(b"\x89PNG")
    document = json.loads((where / "release.json").read_text())
    (verdict,) = [v for v in document["golden"]["solvers"] if v["solver"] == TORCH_HIRSCHBERG]
    assert verdict["sentence"] in markdown and len(verdict["over_budget"]) == 28
    assert Case.from_call(verdict["worst_call"])[0] == TORCH_HIRSCHBERG
    assert regressions(document, document) == []
    junit = ET.fromstring((where / "release.xml").read_text())
    (golden,) = [suite for suite in junit if suite.get("name") == "golden replay"]
    failures = {case.get("name"): case.find("failure") for case in golden}
    assert failures[f"upstream {TORCH_HIRSCHBERG}: correct on every real call"] is not None
    assert failures["ours: correct on every real call"] is None
    assert failures["drift check: reproduces the recorded findings"] is None


def test_release_report_refuses_an_unreadable_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SPEC 10.3: a baseline that is not a report's JSON is a usage error (exit 2)
    before anything runs."""
    not_a_report = tmp_path / "old.json"
    not_a_report.write_text('{"tool": "knapsack-audit"}')
    for baseline in (tmp_path / "missing.json", not_a_report):
        output = tmp_path / "r.md"
        with pytest.raises(SystemExit) as exited:
            cli_main(["report", "--output", str(output), "--baseline", str(baseline)])
        assert exited.value.code == 2
        assert f"--baseline {baseline}" in capsys.readouterr().err
        assert not output.exists()
