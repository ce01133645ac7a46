"""Golden tests: every solver replayed on knapsack calls captured from real compilations.

The fixtures (package data in knapsack_audit/golden/data, described in
tests/golden/README.md) are
the partitioner's own solver calls. Ours must pass every one-call property
exactly (SPEC 3.3, 5.1, 7, 8); upstream's findings are counted per
``(solver, property)`` and must equal the committed table
``expected_findings.json`` for this environment, so that any change upstream
(a fix, or a new bug) shows as a changed count. Regenerate the table with
``python -m knapsack_audit.golden expected``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
import torch

from knapsack_audit.cases import Case
from knapsack_audit.golden import capture, fixtures, models, replay
from knapsack_audit.golden.fixtures import Fixture
from knapsack_audit.properties import Finding
from knapsack_audit.reference import exact_optimum, quantize
from knapsack_audit.registry import OUR_SOLVERS

MIN_FIXTURES = 100
MIN_MODELS = 6
MIN_LARGEST = 300
DRIFT_MODEL = "mlp"
DRIFT_ESTIMATOR = "flops"
DRIFT_BUDGET = 0.5


@pytest.fixture(scope="module")
def golden() -> list[Fixture]:
    return fixtures.load()


def _describe(findings: Sequence[Finding]) -> str:
    return "\n".join(
        f"{f.property} ({f.clause}): {f.message:.300} on {f.case.as_call():.300}"
        for f in findings[:5]
    )


def test_acceptance_size(golden: list[Fixture]) -> None:
    """Issue #6: >= 100 distinct calls, >= 6 models, one call with >= 300 items."""
    distinct = {fixture.case for fixture in golden}
    assert len(distinct) == len(golden), "identical calls must be stored once"
    assert len(distinct) >= MIN_FIXTURES
    assert len({fixture.provenance["model"] for fixture in golden}) >= MIN_MODELS
    assert max(fixture.case.n for fixture in golden) >= MIN_LARGEST


def test_every_fixture_has_full_provenance(golden: list[Fixture]) -> None:
    incomplete = {
        fixture.name: fixtures.missing_provenance(fixture)
        for fixture in golden
        if fixtures.missing_provenance(fixture)
    }
    assert not incomplete


def test_recorded_optimum_and_budget_agree_with_the_oracle(golden: list[Fixture]) -> None:
    """SPEC 2.1 and 3.2: the stored ``Q`` and ``"p/q"`` optimum are recomputed now."""
    wrong = [
        fixture.name
        for fixture in golden
        if fixture.quantized_budget != quantize(float(fixture.case.max_memory))
        or exact_optimum(*fixture.case.arguments()).value != fixture.optimum
    ]
    assert not wrong


def test_upstream_answer_was_recorded_faithfully(golden: list[Fixture]) -> None:
    """The stored upstream answer is what the installed ``dp_knapsack`` returns now."""
    if any(f.provenance["torch_version"] != torch.__version__ for f in golden):
        pytest.skip("fixtures were captured with another torch version")
    solver = replay.resolve(f"{replay.UPSTREAM_MODULE}:dp_knapsack")
    changed = [
        fixture.name
        for fixture in golden
        if solver(*fixture.case.arguments())[1:]
        != (list(fixture.upstream_saved), list(fixture.upstream_recomputable))
    ]
    assert not changed


@pytest.mark.parametrize("solver", replay.our_solvers(), ids=lambda s: s.name)
def test_our_solver_has_no_findings(solver: replay.NamedSolver, golden: list[Fixture]) -> None:
    findings = replay.replay(solver, golden)
    assert not findings, _describe(findings)


@pytest.fixture(scope="module")
def expected() -> dict[str, object]:
    table = replay.read_expected(fixtures.default_directory())
    key = replay.environment_key()
    if key not in table:
        pytest.fail(
            f"no expected findings for {key!r}; run `python -m knapsack_audit.golden expected`"
        )
    entry: dict[str, object] = table[key]
    return entry


@pytest.mark.parametrize("solver", replay.upstream_solvers(), ids=lambda s: s.name)
def test_upstream_findings_match_the_table(
    solver: replay.NamedSolver, golden: list[Fixture], expected: dict[str, object]
) -> None:
    assert expected["fixtures"] == len(golden), "fixtures changed: regenerate the table"
    table = expected["findings"]
    assert isinstance(table, dict)
    counts = replay.count(replay.replay(solver, golden))
    assert counts == table[solver.name.rpartition(":")[2]]


def test_hirschberg_overrun_histogram_matches_the_table(
    golden: list[Fixture], expected: dict[str, object]
) -> None:
    """SPEC 3.2: how far upstream's Hirschberg solver goes over budget, in units."""
    assert replay.overrun_histogram(golden) == expected["hirschberg_overruns"]


def test_drift_recapture_matches_fixture(golden: list[Fixture]) -> None:
    """Re-capture the MLP at one budget; its knapsack inputs must equal the fixture's.

    Runs only on the torch version the fixtures were captured with; the one
    re-capture command is ``python -m knapsack_audit.golden capture``.
    """
    stored = [
        fixture
        for fixture in golden
        if fixture.provenance["model"] == DRIFT_MODEL
        and fixture.provenance["runtime_estimator"] == DRIFT_ESTIMATOR
        and fixture.provenance["budget"] == DRIFT_BUDGET
    ]
    assert stored, "the drift fixture is missing"
    if stored[0].provenance["torch_version"] != torch.__version__:
        pytest.skip(
            f"fixtures are from torch {stored[0].provenance['torch_version']}, "
            f"installed is {torch.__version__}"
        )
    calls = capture.capture_model(models.by_name(DRIFT_MODEL), DRIFT_BUDGET, DRIFT_ESTIMATOR)
    recaptured = [(list(c.memory), list(c.runtime), c.max_memory) for c in calls]
    assert recaptured == [
        (list(f.case.memory), list(f.case.runtime), f.case.max_memory) for f in stored
    ]


def test_every_solver_of_ours_is_replayed() -> None:
    """Guard against silently skipping ours (registry.OUR_SOLVERS)."""
    names = [solver.name for solver in replay.our_solvers()]
    assert names == list(OUR_SOLVERS)
    assert replay.OPTIMIZED in names


def test_replay_detects_the_known_hirschberg_overrun() -> None:
    """The replay is not vacuous: it reports upstream issue #197871 (SPEC 3.2).

    Memory ``[1e-4] * 3``, runtime ``[1.0] * 3``, budget ``1e-4`` (1 unit):
    upstream's Hirschberg solver saves two items, one unit over the budget.
    """
    case = Case((1e-4,) * 3, (1.0,) * 3, 1e-4)
    fixture = fixtures.from_record(
        fixtures.call_record(case, {}, (2.0, [0, 1], [2])), source="synthetic"
    )
    hirschberg = next(
        solver
        for solver in replay.upstream_solvers()
        if solver.name.endswith(":dp_knapsack_sliding_hirschberg")
    )
    assert replay.overrun_units(hirschberg.function, fixture) == 1
    assert "feasibility" in replay.count(replay.replay(hirschberg, [fixture]))


def test_a_record_without_a_provenance_field_is_reported() -> None:
    case = Case((0.25, 0.5), (3, 1), 0.5)
    origin = {name: "x" for name in fixtures.PROVENANCE_FIELDS}
    del origin["captured_at"]
    record = fixtures.call_record(case, origin, (3.0, [0], [1]))
    assert record["optimum"] == "3/1"
    assert fixtures.missing_provenance(fixtures.from_record(record, "synthetic")) == ["captured_at"]


def test_fixture_files_round_trip_exactly(tmp_path: Path) -> None:
    """Floats are written with repr: reading a file back gives the same values, bit for bit."""
    case = Case((0.1 + 0.2, 5e-05, 1 / 3), (1e-300, 2.5, 7), 0.30000000000000004)
    origin = {name: "x" for name in fixtures.PROVENANCE_FIELDS}
    fixtures.write_file(
        tmp_path / "synthetic-flops", [fixtures.call_record(case, origin, (0.0, [], [2, 1, 0]))]
    )
    (loaded,) = fixtures.load(tmp_path)
    assert loaded.case == case
    assert [type(r) for r in loaded.case.runtime] == [float, float, int]
