"""The minimal upstream fix (patches/upstream-knapsack-offbyone.patch) works.

The installed torch's ``knapsack.py`` is copied to a temporary directory, the
patch is applied there with ``git apply`` (or ``patch -p1``), and the patched
module is imported from that file. proofs/06 explains the bug and the fix.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
import shutil
import subprocess
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest
from torch._functorch._activation_checkpointing import knapsack as installed

from knapsack_audit.reference import exact_optimum, validate

PATCH = Path(__file__).resolve().parents[1] / "patches" / "upstream-knapsack-offbyone.patch"
RELATIVE = Path("torch/_functorch/_activation_checkpointing/knapsack.py")
UNIT = 1e-4
NON_NEGATIVE_RUNTIMES = (0.0, 1.0, 2.0, 1e8)

Solver = Callable[[list[float], list[float], float], tuple[float, list[int], list[int]]]


def _apply(patch: Path, directory: Path) -> None:
    if shutil.which("git"):
        command = ["git", "apply", str(patch)]
    elif shutil.which("patch"):
        command = ["patch", "-p1", "--batch", "-i", str(patch)]
    else:
        pytest.skip("neither git nor patch is installed")
    subprocess.run(command, cwd=directory, check=True, capture_output=True)


@pytest.fixture(scope="module")
def patched(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    directory = tmp_path_factory.mktemp("upstream")
    target = directory / RELATIVE
    target.parent.mkdir(parents=True)
    assert installed.__file__ is not None
    shutil.copyfile(installed.__file__, target)
    _apply(PATCH, directory)
    assert target.read_text() != Path(installed.__file__).read_text()
    spec = importlib.util.spec_from_file_location("patched_knapsack", target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tolerance(runtime: list[float]) -> Fraction:
    """SPEC 5.2: ``2 gamma(n+1) sum|v_i| + 2 (n+1) 2**-149`` for float32 solvers."""
    n, u = len(runtime), Fraction(1, 2**24)
    gamma = (n + 1) * u / (1 - (n + 1) * u)
    return 2 * gamma * sum(abs(Fraction(r)) for r in runtime) + 2 * (n + 1) * Fraction(1, 2**149)


def assert_feasible_and_near_optimal(
    solver: Solver, memory: list[float], runtime: list[float], budget: float
) -> None:
    _, saved, recomputable = solver(memory, runtime, budget)
    instance = validate(memory, runtime, budget)
    assert sorted(saved + recomputable) == list(range(instance.n))
    assert sum(instance.weights[i] for i in saved) <= instance.capacity, (memory, budget, saved)
    exact = sum((Fraction(runtime[i]) for i in saved), Fraction(0))
    optimum = exact_optimum(memory, runtime, budget).value
    assert optimum - exact <= tolerance(runtime), (memory, runtime, budget, saved)


def scope(n: int) -> Iterator[tuple[list[float], list[float], float]]:
    for units in itertools.product(range(4), repeat=n):
        for runtime in itertools.product(NON_NEGATIVE_RUNTIMES, repeat=n):
            for budget in range(8):
                yield [k * UNIT for k in units], list(runtime), budget * UNIT


def test_patch_is_one_line() -> None:
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
    _, saved, _ = installed.dp_knapsack_sliding_hirschberg([1e-4] * 3, [1.0] * 3, 1e-4)
    assert len(saved) == 2  # 2 units for a 1-unit budget


def test_patched_fixes_issue_197871(patched: ModuleType) -> None:
    assert patched.dp_knapsack_sliding_hirschberg([1e-4] * 3, [1.0] * 3, 1e-4) == (
        1.0,
        [0],
        [2, 1],
    )


@pytest.mark.parametrize("n", [0, 1, 2])
def test_patched_is_feasible_and_optimal_on_small_scope(patched: ModuleType, n: int) -> None:
    """Every instance: weights 0..3 units, budget 0..7, runtimes >= 0 (SPEC 3.2, 5.2)."""
    for memory, runtime, budget in scope(n):
        assert_feasible_and_near_optimal(
            patched.dp_knapsack_sliding_hirschberg, memory, runtime, budget
        )


@pytest.mark.parametrize("n", [3, 4])
def test_patched_on_sampled_small_scope(patched: ModuleType, n: int) -> None:
    rng = random.Random(n)
    for _ in range(1500):
        memory = [rng.randrange(4) * UNIT for _ in range(n)]
        runtime = [rng.choice(NON_NEGATIVE_RUNTIMES) for _ in range(n)]
        budget = rng.randrange(8) * UNIT
        assert_feasible_and_near_optimal(
            patched.dp_knapsack_sliding_hirschberg, memory, runtime, budget
        )


@pytest.mark.slow
@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4])
def test_patched_on_full_small_scope_slow(patched: ModuleType, n: int) -> None:
    """The full scope for n = 3 (32,768 instances) and n = 4 (524,288)."""
    for memory, runtime, budget in scope(n):
        assert_feasible_and_near_optimal(
            patched.dp_knapsack_sliding_hirschberg, memory, runtime, budget
        )


def test_unpatched_fails_the_same_check() -> None:
    """The check above has teeth: it rejects the installed function."""
    with pytest.raises(AssertionError):
        assert_feasible_and_near_optimal(
            installed.dp_knapsack_sliding_hirschberg, [1e-4] * 3, [1.0] * 3, 1e-4
        )
