"""The minimal upstream fix (patches/upstream-knapsack-offbyone.patch) works.

The installed torch's ``knapsack.py`` is copied to a temporary directory, the
patch is applied there with ``git apply`` (or ``patch -p1``), and the patched
module is imported from that file. proofs/06 explains the bug and the fix.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

import pytest
from torch._functorch._activation_checkpointing import knapsack as installed

from knapsack_audit.cases import Case
from knapsack_audit.catalog import TORCH_HIRSCHBERG, load
from knapsack_audit.exhaustive import sample_instances, verify_small_scope
from knapsack_audit.properties import CALL_PROPERTIES, Judge, Solver, check_call

PATCH = Path(__file__).resolve().parents[1] / "patches" / "upstream-knapsack-offbyone.patch"
RELATIVE = Path("torch/_functorch/_activation_checkpointing/knapsack.py")
NON_NEGATIVE_RUNTIMES = (0.0, 1.0, 2.0, 1e8)
TOLERANT = Judge(exact=False)
Instance = tuple[list[float], list[float], float]


def _apply(patch: Path, directory: Path) -> None:
    if shutil.which("git"):
        command = ["git", "apply", str(patch)]
    elif shutil.which("patch"):
        command = ["patch", "-p1", "--batch", "-i", str(patch)]
    else:
        pytest.skip("neither git nor patch is installed")
    subprocess.run(command, cwd=directory, check=True, capture_output=True)


@pytest.fixture(scope="module")
def patched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The installed ``knapsack.py``, patched, in a temporary checkout layout."""
    directory = tmp_path_factory.mktemp("upstream")
    target = directory / RELATIVE
    target.parent.mkdir(parents=True)
    assert installed.__file__ is not None
    shutil.copyfile(installed.__file__, target)
    _apply(PATCH, directory)
    assert target.read_text() != Path(installed.__file__).read_text()
    return target


@pytest.fixture(scope="module")
def patched_module(patched: Path) -> ModuleType:
    """The patched file, imported (by the catalog's loader)."""
    solver = load(f"{patched}:{TORCH_HIRSCHBERG}")
    return sys.modules[solver.__module__]


ONE_CALL = [name for name in CALL_PROPERTIES if name != "determinism"]
"""Every one-call property but the second call of determinism (SPEC 8.1 is not
what the patch changes)."""


def check_tolerantly(solver: Solver, instances: Iterable[Instance]) -> list[str]:
    """SPEC 3.2, 5.2, 7.2: the one-call properties with the float32 tolerance;
    the findings' messages."""
    return [
        finding.message
        for memory, runtime, budget in instances
        for finding in check_call(
            solver, Case(tuple(memory), tuple(runtime), budget), TOLERANT, ONE_CALL
        )
    ]


def test_patch_is_one_line() -> None:
    """SPEC 3.2: the fix changes one line, the right half's capacity (proofs/06)."""
    changed = [
        line
        for line in PATCH.read_text().splitlines()
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    assert changed == [
        "-        right_capacity = capacity - best_split",
        "+        right_capacity = capacity - 1 - best_split",
    ]


def test_unpatched_is_over_budget_on_issue_197871() -> None:
    """SPEC 3.2: the installed function saves 2 units under a 1-unit budget."""
    _, saved, _ = installed.dp_knapsack_sliding_hirschberg([1e-4] * 3, [1.0] * 3, 1e-4)
    assert len(saved) == 2  # 2 units for a 1-unit budget


def test_patched_fixes_issue_197871(patched_module: ModuleType) -> None:
    """SPEC 3.2, 3.3: patched, it saves one item of the three."""
    assert patched_module.dp_knapsack_sliding_hirschberg([1e-4] * 3, [1.0] * 3, 1e-4) == (
        1.0,
        [0],
        [2, 1],
    )


@pytest.mark.parametrize(
    "max_items", [2, pytest.param(4, marks=pytest.mark.slow)], ids="n<={}".format
)
def test_patched_is_feasible_and_optimal_on_small_scope(
    patched_module: ModuleType, max_items: int
) -> None:
    """SPEC 3.2, 5.2: every instance with weights 0..3 units, budget 0..7 and
    runtimes >= 0 (the partitioner domain, SPEC 4.4) up to ``max_items`` items
    (n <= 4: 524,288 instances with n = 4, slow), in exhaustive.py's brute force."""
    summary = verify_small_scope(
        patched_module.dp_knapsack_sliding_hirschberg,
        max_items=max_items,
        runtimes=NON_NEGATIVE_RUNTIMES,
        exact=False,
    )
    assert summary.instances == 8 * sum(16**k for k in range(max_items + 1))
    assert summary.failures == []


@pytest.mark.parametrize("n", [3, 4])
def test_patched_on_sampled_small_scope(patched_module: ModuleType, n: int) -> None:
    """SPEC 3.2, 5.2: 1,500 random instances of the same scope with n items."""
    instances = sample_instances(n, 1500, seed=n, runtimes=NON_NEGATIVE_RUNTIMES)
    assert check_tolerantly(patched_module.dp_knapsack_sliding_hirschberg, instances) == []


def test_unpatched_fails_the_same_checks() -> None:
    """SPEC 3.2: the checks above have teeth: both reject the installed function."""
    installed_solver = installed.dp_knapsack_sliding_hirschberg
    assert check_tolerantly(installed_solver, [([1e-4] * 3, [1.0] * 3, 1e-4)])
    summary = verify_small_scope(
        installed_solver, max_items=3, runtimes=(1.0,), exact=False, keep=1
    )
    assert summary.failure_count > 0
    assert "feasibility (SPEC 3.2)" in summary.failures[0]
