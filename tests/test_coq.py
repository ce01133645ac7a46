"""The Coq development of proofs/coq: it compiles, admits nothing, and judges the solvers.

``proofs/coq`` models the problem with nat weights and Z values (SPEC 3.1:
exact integers, as the solvers compute after ``integer_runtimes``) and proves
the claims of proofs/03, 06 and 10 (proofs/coq/README.md lists the main
theorems). The development is compiled with ``coqc`` into a temporary folder.
The differential test then writes a ``.v`` file of a few hundred seeded random
instances, each with the answer of ``reference.dp_knapsack`` and of the
optimized solver, and has Coq evaluate every answer against the model's
``OPT`` (a maximum over all subsets) with ``vm_compute``: the compile fails on
an infeasible or suboptimal answer, and a planted wrong answer shows it does.

Without ``coqc`` these tests skip (``apt-get install coq``), except under CI
(the ``CI`` environment variable is set), where they fail: CI must compile
the proofs.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from torch._functorch._activation_checkpointing import knapsack as installed

from knapsack_audit.optimized import dp_knapsack_sliding_hirschberg
from knapsack_audit.reference import dp_knapsack
from knapsack_audit.reference.validation import integer_runtimes, validate

ROOT = Path(__file__).resolve().parents[1]
COQ = ROOT / "proofs" / "coq"
SEED = 20261202
INSTANCES = 300
RUNTIMES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, -1.0, 1e8)
"""Runtimes drawn per item: ties (0), fractions, a negative one, and 1e8 beside 1."""

Solver = Callable[[list[float], list[float], float], tuple[float, list[int], list[int]]]
SOLVERS: dict[str, Solver] = {
    "reference": dp_knapsack,
    "optimized": dp_knapsack_sliding_hirschberg,
}
FORBIDDEN = re.compile(r"\b(Admitted|admit|Axiom|Parameter|Hypothesis|Conjecture)\b")
"""Vernacular that would leave a hole in a proof or add an assumption."""


def coqc() -> str:
    """The ``coqc`` executable; skip without it, but fail under CI."""
    found = shutil.which("coqc")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("coqc is not installed; CI must compile proofs/coq (.ci/run installs coq)")
        pytest.skip("coqc is not installed (apt-get install coq): proofs/coq is not compiled")
    return found


def sources() -> list[str]:
    """The development's files in dependency order, as _CoqProject lists them."""
    lines = (COQ / "_CoqProject").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip().endswith(".v")]


def main_theorems() -> list[tuple[str, str]]:
    """``(file, theorem)`` of each row of proofs/coq/README.md's table of main theorems."""
    text = (COQ / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^\| `(\w+)\.(\w+)` \|", text, re.MULTILINE)


def defined_names(source: str) -> set[str]:
    """Names a ``.v`` file defines (theorems, lemmas, examples, definitions, fixpoints)."""
    text = (COQ / source).read_text(encoding="utf-8")
    kinds = "Theorem|Lemma|Corollary|Example|Definition|Fixpoint"
    return set(re.findall(rf"^(?:{kinds}) (\w+)", text, re.MULTILINE))


def compile_file(directory: Path, name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [coqc(), "-Q", ".", "Knapsack", name],
        cwd=directory,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A compiled copy of proofs/coq (coqc's outputs stay out of the tree)."""
    coqc()
    directory = tmp_path_factory.mktemp("coq")
    for source in sources():
        shutil.copy(COQ / source, directory / source)
        result = compile_file(directory, source)
        assert result.returncode == 0, f"{source}:\n{result.stdout}{result.stderr}"
    return directory


def test_development_admits_nothing_and_assumes_nothing(build: Path) -> None:
    """SPEC 3.3 (proofs/coq/README.md): no file holds an admitted proof or an
    axiom, and ``Print Assumptions`` of every main theorem is the closed
    context."""
    for source in sources():
        code = re.sub(r"\(\*.*?\*\)", "", (COQ / source).read_text(encoding="utf-8"), flags=re.S)
        assert FORBIDDEN.findall(code) == [], source
    theorems = main_theorems()
    assert len(theorems) >= 8
    modules = " ".join(Path(source).stem for source in sources())
    lines = [f"From Knapsack Require {modules}."]
    lines += [f"Print Assumptions {module}.{name}." for module, name in theorems]
    (build / "Assumptions.v").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = compile_file(build, "Assumptions.v")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("Closed under the global context") == len(theorems), result.stdout


def test_main_theorems_exist() -> None:
    """SPEC 3.3: every theorem of proofs/coq/README.md's table is defined in the
    file it names, and that file is part of the development."""
    missing = [
        f"{module}.{name}"
        for module, name in main_theorems()
        if f"{module}.v" not in sources() or name not in defined_names(f"{module}.v")
    ]
    assert missing == []


def random_instances(count: int, seed: int) -> list[tuple[list[float], list[float], float]]:
    """Small instances: up to 6 items of 0..5 units, budgets of 0..12 units,
    some memories off the unit grid so that quantization rounds (SPEC 2.1)."""
    rng = random.Random(seed)
    instances = []
    for _ in range(count):
        n = rng.randint(0, 6)
        offsets = (0.0, 0.0, 0.3e-4, -0.4e-4)
        memory = [max(rng.randint(0, 5) * 1e-4 + rng.choice(offsets), 0.0) for _ in range(n)]
        runtime = [rng.choice(RUNTIMES) for _ in range(n)]
        instances.append((memory, runtime, rng.randint(0, 12) * 1e-4))
    return instances


def coq_items(memory: list[float], runtime: list[float], budget: float) -> tuple[str, int]:
    """The instance as the model sees it: quantized weights (SPEC 2.1) and exact
    integer values (SPEC 3.1), as a Coq list literal, and the budget in units."""
    instance = validate(memory, runtime, budget)
    values, _ = integer_runtimes(instance.runtimes)
    items = "; ".join(f"({w}, ({v})%Z)" for w, v in zip(instance.weights, values, strict=True))
    return f"[{items}]", instance.capacity


def example(name: str, items: str, capacity: int, saved: list[int]) -> str:
    """One ``Example``, on one line, so that a compile error's line names it."""
    selection = "[" + "; ".join(map(str, saved)) + "]"
    return (
        f"Example {name} : answer_ok {items} {capacity} {selection}. "
        "Proof. apply check_answer_sound; vm_compute; reflexivity. Qed."
    )


def differential_file(answers: list[tuple[str, str, int, list[int]]]) -> str:
    header = [
        "From Coq Require Import List ZArith.",
        "From Knapsack Require Import Spec Selection.",
        "Import ListNotations.",
    ]
    return "\n".join(header + [example(*answer) for answer in answers]) + "\n"


def solver_answers() -> list[tuple[str, str, int, list[int]]]:
    """``(example name, items, capacity, saved)`` for every instance and solver."""
    answers = []
    for index, (memory, runtime, budget) in enumerate(random_instances(INSTANCES, SEED)):
        items, capacity = coq_items(memory, runtime, budget)
        for solver_name, solver in SOLVERS.items():
            _, saved, _ = solver(memory, runtime, budget)
            answers.append((f"{solver_name}_{index:03d}", items, capacity, saved))
    return answers


def test_solvers_agree_with_the_coq_model(build: Path) -> None:
    """SPEC 3.2, 3.3: on 300 seeded random instances, every answer of the
    reference and of the optimized solver is a valid selection within the
    budget whose value is the model's OPT, checked by Coq (``vm_compute``)."""
    answers = solver_answers()
    assert len(answers) == 2 * INSTANCES
    (build / "Differential.v").write_text(differential_file(answers), encoding="utf-8")
    result = compile_file(build, "Differential.v")
    assert result.returncode == 0, result.stderr


def upstream_file(cases: list[tuple[str, str, int, list[bool]]]) -> str:
    """Examples stating what the Coq model of upstream returns, one per line."""
    lines = [
        "From Coq Require Import List ZArith.",
        "From Knapsack Require Import Upstream.",
        "Import ListNotations.",
    ]
    for name, items, capacity, mask in cases:
        bits = "[" + "; ".join("true" if bit else "false" for bit in mask) + "]"
        lines.append(
            f"Example {name} : upstream_solve {items} {capacity} = {bits}. "
            "Proof. vm_compute; reflexivity. Qed."
        )
    return "\n".join(lines) + "\n"


def upstream_cases() -> list[tuple[str, str, int, list[bool]]]:
    """The installed torch's ``dp_knapsack_sliding_hirschberg`` on seeded random
    instances whose runtimes are small integers (exact in float32, so its
    profiles and ``argmax`` are the model's), its saved set as a mask."""
    rng = random.Random(SEED + 1)
    cases = []
    for index in range(INSTANCES):
        n = rng.randint(0, 6)
        memory = [rng.randint(0, 3) * 1e-4 for _ in range(n)]
        runtime = [float(rng.randint(-1, 3)) for _ in range(n)]
        budget = rng.randint(0, 7) * 1e-4
        items, capacity = coq_items(memory, runtime, budget)
        _, saved, _ = installed.dp_knapsack_sliding_hirschberg(memory, runtime, budget)
        cases.append((f"upstream_{index:03d}", items, capacity, [i in saved for i in range(n)]))
    return cases


def test_the_model_of_upstream_is_upstream(build: Path) -> None:
    """SPEC 3.2 (proofs/06): the Coq function ``Upstream.upstream_solve``, on
    which the counterexample and the overshoot ceiling are proved, saves
    exactly what the installed torch saves on 300 random instances; one
    flipped bit makes the compile fail on that example."""
    cases = upstream_cases()
    assert any(mask for *_, mask in cases)
    (build / "UpstreamModel.v").write_text(upstream_file(cases), encoding="utf-8")
    result = compile_file(build, "UpstreamModel.v")
    assert result.returncode == 0, result.stderr
    position = next(k for k, (*_, mask) in enumerate(cases) if mask)
    name, items, capacity, mask = cases[position]
    cases[position] = (name, items, capacity, [not mask[0], *mask[1:]])
    text = upstream_file(cases[: position + 20])
    (build / "UpstreamPlanted.v").write_text(text, encoding="utf-8")
    result = compile_file(build, "UpstreamPlanted.v")
    assert result.returncode != 0
    assert failing_example(result, text) == name


def failing_example(result: subprocess.CompletedProcess[str], text: str) -> str:
    """The name of the ``Example`` on the line coqc reports."""
    found = re.search(r"line (\d+)", result.stderr)
    assert found is not None, result.stderr
    line = text.splitlines()[int(found.group(1)) - 1]
    named = re.match(r"Example (\w+)", line)
    assert named is not None, line
    return named.group(1)


def planted(answers: list[tuple[str, str, int, list[int]]], plant: str) -> tuple[int, list[int]]:
    """The position of the first answer the plant applies to, and the wrong answer:
    ``drop an item`` leaves out a saved item of non-zero value (suboptimal),
    ``overweight`` saves every item of an instance that does not fit whole."""
    instances = random_instances(INSTANCES, SEED)
    for position, (name, _, capacity, saved) in enumerate(answers):
        instance = validate(*instances[int(name.rsplit("_", 1)[1])])
        values, _ = integer_runtimes(instance.runtimes)
        if plant == "drop an item" and any(values[i] != 0 for i in saved):
            dropped = next(i for i in saved if values[i] != 0)
            return position, [i for i in saved if i != dropped]
        if plant == "overweight" and sum(instance.weights) > capacity:
            return position, list(range(instance.n))
    raise AssertionError(f"no answer to plant {plant!r} in")


@pytest.mark.parametrize("plant", ["drop an item", "overweight"])
def test_a_wrong_answer_fails_the_compile(build: Path, plant: str) -> None:
    """SPEC 3.2, 3.3: the differential check can fail. One answer is made
    suboptimal or infeasible (``planted``); Coq rejects exactly that example."""
    answers = solver_answers()
    position, wrong = planted(answers, plant)
    name, items, capacity, _ = answers[position]
    answers[position] = (name, items, capacity, wrong)
    text = differential_file(answers[: position + 20])  # the plant and correct neighbours
    (build / "Planted.v").write_text(text, encoding="utf-8")
    result = compile_file(build, "Planted.v")
    assert result.returncode != 0
    assert failing_example(result, text) == name
