"""Golden tests: every solver replayed on knapsack calls captured from real compilations.

The fixtures (package data in knapsack_audit/golden/data, described in
tests/golden/README.md) are the partitioner's own solver calls, from small
models and from models at real depth. Ours must pass every one-call property
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
from knapsack_audit.catalog import OUR_SOLVERS, TORCH_HIRSCHBERG, TORCH_MODULE, load
from knapsack_audit.golden import capture, drift, findings, fixtures, models, replay
from knapsack_audit.golden import cli as golden_cli
from knapsack_audit.golden.fixtures import Fixture
from knapsack_audit.properties import Finding
from knapsack_audit.reference import exact_optimum, quantize

MIN_FIXTURES = 100
MIN_MODELS = 6
MIN_LARGEST = 300
MIN_REAL_SCALE_MODELS = 5
MIN_REAL_SCALE_CALLS = 30
MIN_LARGEST_REAL_SCALE = 1000
PACKAGE_DATA_LIMIT_BYTES = 2 * 1024 * 1024
DRIFT_SUBSET = (("mlp", 0.5, "flops"),)
README = Path(__file__).parent / "golden" / "README.md"


@pytest.fixture(scope="module")
def golden() -> list[Fixture]:
    return fixtures.load()


@pytest.fixture(scope="module")
def small(golden: list[Fixture]) -> list[Fixture]:
    return replay.split(golden)[0]


@pytest.fixture(scope="module")
def real_scale(golden: list[Fixture]) -> list[Fixture]:
    return replay.split(golden)[1]


def _describe(findings: Sequence[Finding]) -> str:
    return "\n".join(
        f"{f.property} ({f.clause}): {f.message:.300} on {f.case.as_call():.300}"
        for f in findings[:5]
    )


def test_acceptance_size(golden: list[Fixture]) -> None:
    """SPEC 4.4: the fixtures are varied enough to audit against: >= 100 distinct
    calls, >= 6 models, one call with >= 300 items."""
    distinct = {fixture.case for fixture in golden}
    assert len(distinct) == len(golden), "identical calls must be stored once"
    assert len(distinct) >= MIN_FIXTURES
    assert len({fixture.provenance["model"] for fixture in golden}) >= MIN_MODELS
    assert max(fixture.case.n for fixture in golden) >= MIN_LARGEST


def test_every_fixture_has_full_provenance(golden: list[Fixture]) -> None:
    """SPEC 2.1, 3.3: every fixture records its provenance, its quantized
    budget and its exact optimum."""
    incomplete = {
        fixture.name: fixtures.missing_provenance(fixture)
        for fixture in golden
        if fixtures.missing_provenance(fixture)
    }
    assert not incomplete


def _disagreeing_with_the_oracle(selected: list[Fixture]) -> list[str]:
    return [
        fixture.name
        for fixture in selected
        if fixture.quantized_budget != quantize(float(fixture.case.max_memory))
        or exact_optimum(*fixture.case.arguments()).value != fixture.optimum
    ]


def test_recorded_optimum_and_budget_agree_with_the_oracle(small: list[Fixture]) -> None:
    """SPEC 2.1 and 3.2: the stored ``Q`` and ``"p/q"`` optimum are recomputed now."""
    assert not _disagreeing_with_the_oracle(small)


@pytest.mark.slow
@pytest.mark.release
def test_recorded_real_scale_optimum_agrees_with_the_oracle(real_scale: list[Fixture]) -> None:
    """SPEC 3.2: the stored optimum of every real-scale call, recomputed by the exact oracle.

    Slow (seconds per call); the default run judges real-scale calls against
    these stored optima (test_our_optimized_solver_is_exact_at_real_scale).
    """
    assert not _disagreeing_with_the_oracle(real_scale)


def test_upstream_answer_was_recorded_faithfully(golden: list[Fixture]) -> None:
    """SPEC 8.1: The stored upstream answer is what the installed ``dp_knapsack`` returns now."""
    if any(f.provenance["torch_version"] != torch.__version__ for f in golden):
        pytest.skip("fixtures were captured with another torch version")
    solver = load(f"{TORCH_MODULE}:dp_knapsack")
    changed = [
        fixture.name
        for fixture in golden
        if solver(*fixture.case.arguments())[1:]
        != (list(fixture.upstream_saved), list(fixture.upstream_recomputable))
    ]
    assert not changed


@pytest.mark.parametrize("solver", replay.our_solvers(), ids=lambda s: s.name)
def test_our_solver_has_no_findings(solver: replay.NamedSolver, small: list[Fixture]) -> None:
    """SPEC 3.3, 5.1, 7 and 8: ours have no finding on any small-zoo call."""
    findings = replay.replay(solver, small)
    assert not findings, _describe(findings)


@pytest.mark.slow
@pytest.mark.release
@pytest.mark.parametrize("solver", replay.our_solvers(), ids=lambda s: s.name)
def test_our_solver_has_no_findings_at_real_scale(
    solver: replay.NamedSolver, real_scale: list[Fixture]
) -> None:
    """SPEC 3.3, 5.1, 7 and 8 on every real-scale call (slow: the oracle and the full table)."""
    findings = replay.replay(solver, real_scale)
    assert not findings, _describe(findings)


def test_our_optimized_solver_is_exact_at_real_scale(real_scale: list[Fixture]) -> None:
    """SPEC 3.2 and 3.3: feasible and exactly optimal on every real-scale call.

    Judged against the stored exact optimum (recomputed by the slow
    test_recorded_real_scale_optimum_agrees_with_the_oracle).
    """
    wrong = {
        fixture.name: result
        for fixture in real_scale
        if not findings.exact(result := findings.judge_ours(fixture))
    }
    assert real_scale
    assert not wrong


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
    solver: replay.NamedSolver, small: list[Fixture], expected: dict[str, object]
) -> None:
    """SPEC 3, 5.2, 7, 8: upstream's finding counts on the small zoo are the recorded ones."""
    assert expected["fixtures"] == len(small), "fixtures changed: regenerate the table"
    table = expected["findings"]
    assert isinstance(table, dict)
    counts = replay.count(replay.replay(solver, small))
    assert counts == table[solver.name.rpartition(":")[2]]


def test_hirschberg_overrun_histogram_matches_the_table(
    golden: list[Fixture], expected: dict[str, object]
) -> None:
    """SPEC 3.2: how far upstream's Hirschberg solver goes over budget, in units."""
    assert replay.overrun_histogram(golden) == expected["hirschberg_overruns"]


def test_drift_check_finds_the_stored_inputs_unchanged(golden: list[Fixture]) -> None:
    """SPEC 2.1: re-captured, the MLP's knapsack arguments equal the stored ones exactly.

    Runs only on the torch version the fixtures were captured with (on
    another, ``golden check`` reports the drift instead).
    """
    if drift.needs_check(golden):
        pytest.skip(
            f"fixtures are from torch {sorted(drift.stored_versions(golden))}, "
            f"installed is {torch.__version__}"
        )
    rows = drift.check(golden, DRIFT_SUBSET)
    assert rows
    assert [row.status for row in rows] == ["same"] * len(rows), [r.describe() for r in rows]


def test_drift_compare_reports_moved_weights_and_items(golden: list[Fixture]) -> None:
    """SPEC 2.1: a call whose quantized weights moved is reported with counts and distance."""
    stored = next(f for f in golden if f.provenance["model"] == "transformer" and f.case.n > 2)
    case = stored.case
    moved = Case((case.memory[0] + 7e-4, *case.memory[1:]), case.runtime, case.max_memory)
    row = drift.compare("transformer", 0.3, "flops", moved, [stored])
    assert (row.status, row.unmatched_weights, row.largest_move) == ("changed", 1, 7)
    shorter = Case(case.memory[1:], case.runtime[1:], case.max_memory)
    row = drift.compare("transformer", 0.3, "flops", shorter, [stored])
    assert (row.status, row.stored_items, row.captured_items) == ("changed", case.n, case.n - 1)
    same = drift.compare("transformer", 0.3, "flops", case, [stored])
    assert same.status == "same"
    elsewhere = Case(case.memory, case.runtime, case.max_memory / 2)
    assert drift.compare("transformer", 0.3, "flops", elsewhere, [stored]).status == "new"
    assert drift.drifted([same, row])
    assert not drift.drifted([same])


def test_golden_check_is_a_no_op_on_the_capture_torch(
    golden: list[Fixture], capsys: pytest.CaptureFixture[str]
) -> None:
    """SPEC 2.1: without --force, ``golden check`` re-captures only when torch differs."""
    if drift.needs_check(golden):
        pytest.skip("fixtures are from another torch version")
    assert golden_cli.main(["check"]) == 0
    assert "nothing to check" in capsys.readouterr().out


def test_capture_sweep_equals_separate_compilations() -> None:
    """SPEC 2.1: one compilation swept over settings records the calls of separate ones."""
    spec = models.by_name("convnet")
    settings = [(0.3, "flops"), (0.1, "testing")]
    swept = capture.capture_sweep(spec, settings)
    assert all(swept[setting] for setting in settings)
    for budget, estimator in settings:
        assert swept[(budget, estimator)] == capture.capture_model(spec, budget, estimator)


def test_real_scale_acceptance(golden: list[Fixture]) -> None:
    """SPEC 3.2 at real scale: 5 deep models, 30 calls of 250+ items, one of 1000+."""
    real_scale = {spec.name for spec in models.REAL_SCALE_ZOO}
    captured = {f.provenance["model"] for f in golden} & real_scale
    assert len(captured) >= MIN_REAL_SCALE_MODELS, sorted(captured)
    assert sum(1 for f in golden if f.case.n >= findings.REAL_SCALE_ITEMS) >= MIN_REAL_SCALE_CALLS
    assert max(f.case.n for f in golden) >= MIN_LARGEST_REAL_SCALE


def test_fixtures_are_small_package_data() -> None:
    """SPEC 3.2 (golden replay from an installed wheel): the fixtures ship as package
    data, gzipped above the threshold, within a size limit on the total."""
    files = fixtures.fixture_files(fixtures.default_directory())
    sizes = {path.name: len(path.read_bytes()) for path in files}
    assert sum(sizes.values()) <= PACKAGE_DATA_LIMIT_BYTES, sizes
    for path in files:
        if path.name.endswith(".json"):
            assert sizes[path.name] <= fixtures.GZIP_THRESHOLD_BYTES, path.name


@pytest.fixture(scope="module")
def judged(golden: list[Fixture]) -> list[findings.FixtureFindings]:
    return findings.judge_all(golden)


@pytest.mark.slow
@pytest.mark.release
def test_readme_quotes_the_upstream_totals(judged: list[findings.FixtureFindings]) -> None:
    """SPEC 3.2 and 3.3: the totals quoted in tests/golden/README.md are recomputed here.

    Regenerate them with ``python -m knapsack_audit.golden findings``.
    """
    text = README.read_text()
    missing = [line for line in findings.summary_lines(judged) if line not in text]
    assert not missing, "tests/golden/README.md is out of date:\n" + "\n".join(missing)


@pytest.mark.slow
def test_findings_agree_with_the_overrun_histogram(
    golden: list[Fixture], judged: list[findings.FixtureFindings]
) -> None:
    """SPEC 3.2: the per-fixture overruns of Hirschberg are the histogram's, call by call."""
    overruns = [f.result("dp_knapsack_sliding_hirschberg").units_over for f in judged]
    histogram = replay.overrun_histogram(golden)
    assert {str(units): overruns.count(units) for units in set(overruns) if units} == histogram


def test_findings_measure_a_planted_overrun_and_shortfall() -> None:
    """SPEC 3.2 and 3.3: over budget in exact units, and below the optimum by the exact gap.

    Upstream issue #197871's case (2 units saved for a 1-unit budget), and a
    solver that saves nothing (short by the whole optimum).
    """
    case = Case((1e-4,) * 3, (1.0,) * 3, 1e-4)
    fixture = fixtures.from_record(
        fixtures.call_record(case, {}, (2.0, [0, 1], [2])), source="synthetic"
    )
    hirschberg = load(f"{TORCH_MODULE}:{TORCH_HIRSCHBERG}")
    result = findings.judge_solver("hirschberg", hirschberg, fixture)
    assert (result.units_over, result.shortfall, result.error) == (1, None, None)

    def saves_nothing(*_: object) -> tuple[float, list[int], list[int]]:
        return 0.0, [], [2, 1, 0]

    result = findings.judge_solver("nothing", saves_nothing, fixture)
    assert (result.units_over, result.shortfall) == (0, 1)
    lines = findings.summary_lines([findings.FixtureFindings(fixture, result, (result,))])
    assert lines[2].startswith("upstream nothing: correct on 0 of 1 real calls; over budget on 0;")
    assert (
        "below the optimum beyond the SPEC 5.2 float32 tolerance on 1 (within it on 0)" in lines[2]
    )
    assert "worst 1 of the optimum" in lines[2]


def test_every_solver_of_ours_is_replayed() -> None:
    """SPEC 5.1: Guard against silently skipping ours (catalog.OUR_SOLVERS)."""
    names = [solver.name for solver in replay.our_solvers()]
    assert names == list(OUR_SOLVERS)
    assert len(names) >= 2


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
    """SPEC 3.3: a fixture missing a provenance field is refused."""
    case = Case((0.25, 0.5), (3, 1), 0.5)
    origin = {name: "x" for name in fixtures.PROVENANCE_FIELDS}
    del origin["captured_at"]
    record = fixtures.call_record(case, origin, (3.0, [0], [1]))
    assert record["optimum"] == "3/1"
    assert fixtures.missing_provenance(fixtures.from_record(record, "synthetic")) == ["captured_at"]


def test_fixture_files_round_trip_exactly(tmp_path: Path) -> None:
    """SPEC 2.1: floats are written with repr: reading a file back gives the
    same values, bit for bit."""
    case = Case((0.1 + 0.2, 5e-05, 1 / 3), (1e-300, 2.5, 7), 0.30000000000000004)
    origin = {name: "x" for name in fixtures.PROVENANCE_FIELDS}
    fixtures.write_file(
        tmp_path / "synthetic-flops", [fixtures.call_record(case, origin, (0.0, [], [2, 1, 0]))]
    )
    (loaded,) = fixtures.load(tmp_path)
    assert loaded.case == case
    assert [type(r) for r in loaded.case.runtime] == [float, float, int]
