"""Shrinking real-scale failures (knapsack_audit.shrink) and how reports print their size.

The real-scale case is built the way the partitioner's calls look (BRIEF:
"a model's repeated blocks give many identical (weight, runtime) items"):
48 blocks of the same four items, interleaved block by block, at a budget
of a third of the total weight. Upstream's ``dp_knapsack_sliding_hirschberg``
(the installed torch's, pytorch issue #197871) returns an over-budget
selection on it; the exact check is SPEC 3.2's feasibility, computed by the
engine from the quantized weights, never by another solver.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console
from torch._functorch._activation_checkpointing.knapsack import (
    dp_knapsack,
    dp_knapsack_sliding_hirschberg,
)

from knapsack_audit.cases import Case
from knapsack_audit.properties import Finding, Judge, check_call
from knapsack_audit.reports import to_json, to_junit, to_markdown
from knapsack_audit.search import minimize
from knapsack_audit.shrink import Shrinker, group_copies, size
from knapsack_audit.terminal import print_report
from knapsack_audit.verify import FindingReport, PropertyVerdict, TargetReport

TOLERANT = Judge(exact=False, oracle_max_items=10**6)
BLOCK = ((0.0016926354242642761, 2.0**25), (0.0008463177121321381, 2.0**24))
BLOCK += ((5.289485700825863e-05, 2.0**20), (2.6447428504129314e-05, 2.0**19))


def _blocks(count: int, fraction: float) -> Case:
    items = list(BLOCK) * count
    memory = [m for m, _ in items]
    runtime = [r for _, r in items]
    return Case.of(memory, runtime, sum(memory) * fraction)


@pytest.fixture(scope="module")
def real_scale() -> Finding:
    """The first 48-block case (budget fractions tried in order) that upstream
    hirschberg answers over budget."""
    for step in range(1, 40):
        case = _blocks(48, step / 40)
        found = check_call(dp_knapsack_sliding_hirschberg, case, TOLERANT, ["feasibility"])
        if found:
            return found[0]
    raise AssertionError("no 48-block case fails feasibility: the installed torch changed")


def test_structural_moves_shrink_a_real_scale_failure_to_a_few_types(
    real_scale: Finding,
) -> None:
    """SPEC 3.2, 9.4: the 192-item, 4-type case shrinks (through search.minimize, the
    engine's entry point) to a case that still fails feasibility, has at most 10
    types, prints in at most 300 characters, and is 1-minimal: dropping any one
    item (budget kept) makes it pass."""
    assert real_scale.case.n == 192
    smaller = minimize(dp_knapsack_sliding_hirschberg, TOLERANT, real_scale)
    case = smaller.case
    assert check_call(dp_knapsack_sliding_hirschberg, case, TOLERANT, ["feasibility"])
    assert case.distinct_items() <= 10 and case.n < 192
    assert len(case.as_call("dp_knapsack_sliding_hirschberg")) <= 300
    for i in range(case.n):
        keep = [j for j in range(case.n) if j != i]
        dropped = Case.of(
            [case.memory[j] for j in keep], [case.runtime[j] for j in keep], case.max_memory
        )
        assert not check_call(dp_knapsack_sliding_hirschberg, dropped, TOLERANT, ["feasibility"])


def test_structural_moves_need_far_fewer_calls(real_scale: Finding) -> None:
    """SPEC 9.1: why the structural moves come first: from the same failure, single-item
    moves alone need several times more solver calls (each a full solve of a
    large case) to reach a 1-minimal case. Calls are counted, not timed."""
    calls = 0

    def fails(case: Case) -> Finding | None:
        nonlocal calls
        calls += 1
        found = check_call(dp_knapsack_sliding_hirschberg, case, TOLERANT, ["feasibility"])
        return found[0] if found else None

    structural = Shrinker(fails, real_scale)
    structural.structural()
    structural.one_by_one()
    structural_calls, calls = calls, 0
    Shrinker(fails, real_scale).one_by_one()
    assert 3 * structural_calls < calls


def test_keep_restricts_shrinking_to_cases_base_passes(real_scale: Finding) -> None:
    """SPEC 9.1: with ``keep`` (compare's "BASE still passes"), every accepted
    case keeps BASE passing; upstream dp_knapsack passes the result."""

    def base_passes(case: Case) -> bool:
        return not check_call(dp_knapsack, case, TOLERANT, ["feasibility"])

    smaller = minimize(dp_knapsack_sliding_hirschberg, TOLERANT, real_scale, keep=base_passes)
    assert base_passes(smaller.case)
    assert smaller.case.n < real_scale.case.n


def test_group_copies_keeps_each_item_and_groups_runs() -> None:
    """SPEC 9.4: the grouping move is a permutation: the same items, copies side by side."""
    case = _blocks(3, 0.5)
    grouped = group_copies(case)
    assert sorted(zip(grouped.memory, grouped.runtime, strict=True)) == sorted(
        zip(case.memory, case.runtime, strict=True)
    )
    assert grouped.as_call().count(" * 3") == 2 * len(BLOCK)
    assert size(grouped) < size(case)


def _report() -> TargetReport:
    case = Case.of([1e-4] * 3, [1.0] * 3, 1e-4)
    finding = FindingReport(
        "feasibility",
        "SPEC 3.2",
        case.as_call(),
        "fits",
        "2 units > 1",
        items=case.n,
        item_types=case.distinct_items(),
        found_items=57,
    )
    verdict = PropertyVerdict("feasibility", "fail", 1, 0.0)
    return TargetReport("t.py:solver", "solver", verdicts=[verdict], findings=[finding])


def test_every_report_states_the_size_and_the_smallest_failure() -> None:
    """SPEC 9.4: terminal, Markdown, JUnit and JSON give each counterexample's size (items,
    types, the size it was found at) and the target's smallest failing case."""
    report = _report()
    words = "3 items of 1 type (shrunk from 57)"
    console = Console(file=io.StringIO(), width=200)
    print_report(console, report)
    terminal = console.file.getvalue()  # type: ignore[attr-defined]
    assert words in terminal and "smallest failing case found: 3 items (feasibility)" in terminal
    markdown = to_markdown([report], 1)
    assert f"- size: {words}" in markdown
    assert "Smallest failing case found: 3 items (feasibility)." in markdown
    failure = ET.fromstring(to_junit([report])).find(".//failure")
    assert failure is not None and f"size: {words}" in (failure.text or "")
    (finding,) = json.loads(to_json([report], 1))["targets"][0]["findings"]
    assert (finding["items"], finding["item_types"], finding["found_items"]) == (3, 1, 57)
