"""The wheel, as a release engineer installs it: the golden fixtures come with it.

The test copies the project's files to a temporary folder, builds the wheel
there (``pip wheel --no-deps --no-build-isolation``, with the test
environment's setuptools), creates a fresh virtual environment outside the
checkout and installs the wheel with ``--no-deps``. The heavy dependencies
(torch, numpy, hypothesis, scipy, rich) come from the test environment's
site-packages through a ``.pth`` line: Python only appends such a folder to
``sys.path`` without running the ``.pth`` files inside it, so the editable
install's import hook (``__editable__.knapsack_audit-*.pth``) stays off, and
the test checks that ``knapsack_audit`` is imported from the new environment.
Then ``knapsack-audit report`` runs from an empty folder, with the smallest
search effort: its golden section must replay the shipped fixtures. A whole
report (122 s in CI at df63769, under load): in the release set, not in the
README's test command (session 31).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

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


@pytest.mark.slow
@pytest.mark.release
def test_wheel_report_replays_the_shipped_fixtures(tmp_path: Path) -> None:
    """SPEC 3.2 from an installed wheel: ``knapsack-audit report`` has the golden section."""
    venv = _fresh_environment(tmp_path, _build_wheel(tmp_path))
    where = tmp_path / "elsewhere"
    where.mkdir()
    located = _run(
        venv / "bin" / "python", "-c", "import knapsack_audit; print(knapsack_audit.__file__)",
        cwd=where,
    )  # fmt: skip
    assert located.stdout.startswith(str(venv)), located.stdout + located.stderr
    report = where / "report.md"
    run = _run(
        venv / "bin" / "knapsack-audit", "report", "--output", report, "--quiet",
        "--max-examples", "1", "--time-budget", "1", "--repeats", "1",
        cwd=where,
    )  # fmt: skip
    assert report.exists(), run.stdout + run.stderr
    text = report.read_text()
    golden = text.split("## Golden replay", 1)[1].split("## Targets", 1)[0]
    assert "- ours: correct on 168 of 168 real calls;" in golden, golden[:2000]
    assert "reproduces the recorded findings" in golden
    assert "upstream dp_knapsack_sliding_hirschberg: correct on 140 of 168 real calls" in golden
    assert (where / "report-pareto.png").stat().st_size > 0
    assert "No golden fixtures found" not in text
