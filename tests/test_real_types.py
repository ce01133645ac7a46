"""The breadth phase's calls again in the other real types SPEC 1 accepts.

SPEC 1.2 accepts ints and numpy integer and floating scalars, SPEC 1.5
``-0.0``; the partitioner domain (SPEC 4.4) is every valid input. These tests
check that each rewriting keeps what it must (values, so the optimum), that
every default breadth phase holds each one at the sizes a fast path switches
on, and that a change a caller can see in its lists, an equal value of
another sign or type, is a mutation (SPEC 8.2).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_planted import corpus
from torch._functorch._activation_checkpointing.knapsack import dp_knapsack as upstream_dp_knapsack

from knapsack_audit import properties as props
from knapsack_audit.cases import Case
from knapsack_audit.isolation import IsolatedSolver
from knapsack_audit.properties import Judge
from knapsack_audit.real_types import (
    WHOLE_BUDGET,
    as_numpy_scalars,
    as_python_ints,
    leading_int_runtime,
    numpy_total_past,
    python_ints_past_int64,
    signed_zeros,
    whole_budget,
)
from knapsack_audit.reference import exact_optimum, quantize
from knapsack_audit.scaling import table_cells
from knapsack_audit.search import breadth_cases
from knapsack_audit.strategies import BIG_TABLE_CELLS, half_way_budget
from knapsack_audit.targets import parse_target
from knapsack_audit.verify import golden_calls

BASE = Case.of([0.0, 0.0003, 0.0002, 0.00015], [3.0, 2.0, 1.5, 4.0], 0.0005)
SEEDS = (0, 1, 2)


@pytest.mark.parametrize("rewrite", [signed_zeros, as_python_ints, as_numpy_scalars])
def test_value_keeping_rewritings_keep_every_value_and_the_optimum(
    rewrite: Callable[[Case], Case | None],
) -> None:
    """SPEC 1.2, 1.5, 3.3: signed zeros, ints and numpy scalars are the same
    numbers: equal entry by entry, and the exact optimum is the original's."""
    rewritten = rewrite(BASE)
    assert rewritten is not None and rewritten == BASE
    assert exact_optimum(*rewritten.arguments()) == exact_optimum(*BASE.arguments())


def test_each_rewriting_writes_the_types_it_names() -> None:
    """SPEC 1.2, 1.5: ``-0.0`` for every zero, ``int`` for every whole value,
    numpy ``float64`` memories and budget with ``int32`` whole runtimes."""
    zeros = signed_zeros(Case.of([0.0, 0.5], [1.0, 2.0], 0.0))
    assert zeros is not None
    assert [repr(m) for m in zeros.memory] == ["-0.0", "0.5"] and repr(zeros.max_memory) == "-0.0"
    assert signed_zeros(Case.of([0.5], [1.0], 0.5)) is None
    ints = as_python_ints(BASE)
    assert ints is not None
    assert [type(v) for v in ints.runtime] == [int, int, float, int] and type(ints.memory[0]) is int
    scalars = as_numpy_scalars(BASE)
    assert scalars is not None
    assert {type(m) for m in scalars.memory} == {np.float64}
    assert [type(r) for r in scalars.runtime] == [np.int32, np.int32, np.float64, np.int32]


@pytest.mark.parametrize("integer", [np.int32, np.int64])
def test_numpy_totals_pass_the_width_while_each_runtime_fits(integer: Any) -> None:
    """SPEC 1.2: the whole runtimes scaled by one factor (the optimum's
    selection is unchanged), each within the type, their total past it, so
    Python's ``sum`` of the scalars wraps to a negative number."""
    base = Case.of([0.0001] * 64, [float(r) for r in range(1, 65)], 0.0032)
    rewritten = numpy_total_past(integer, base)
    assert rewritten is not None
    largest = int(np.iinfo(integer).max)
    assert all(type(r) is integer for r in rewritten.runtime)
    assert sum(int(r) for r in rewritten.runtime) > largest
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert sum(rewritten.runtime) < 0
    optimum = exact_optimum(*base.arguments())
    assert exact_optimum(*rewritten.arguments()).saved == optimum.saved
    assert numpy_total_past(integer, Case.of([0.1, 0.1], [0.5, 1.0], 0.1)) is None


def test_a_whole_budget_is_an_int_over_about_half_the_weight() -> None:
    """SPEC 1.2, 2.1: the budget is the int ``1`` (10,000 units) and the
    item weights add up to about twice it, zero weights kept zero."""
    case = Case.of([0.0, 0.0003, 0.0005, 0.0002], [1.0, 2.0, 3.0, 4.0], 0.0004)
    rewritten = whole_budget(case)
    assert rewritten is not None
    assert rewritten.max_memory == WHOLE_BUDGET and type(rewritten.max_memory) is int
    weights = [quantize(m) for m in rewritten.memory]
    assert weights[0] == 0 and abs(sum(weights) - 2 * 10_000) <= len(weights)


def test_a_half_way_budget_rounds_back_to_its_units() -> None:
    """SPEC 2.1: ``(Q + 0.5) / 1e4`` quantizes to ``Q`` (or to ``units - 1``
    where ``units`` rounds up), and its shortest decimal ends in a 5 at the
    fifth place."""
    for units in range(0, 3000):
        budget = half_way_budget(units)
        q = round(budget * 10_000)
        assert q in (units, units - 1)
        if budget != units / 10_000:
            assert repr(budget).endswith("5") and round(budget * 100_000) % 10 == 5


def _breadth(seed: int) -> list[Case]:
    sample, _ = golden_calls()
    return [getattr(call, "case", call) for call in breadth_cases(seed, sample)]


@pytest.fixture(scope="module")
def breadths() -> dict[int, list[Case]]:
    return {seed: _breadth(seed) for seed in SEEDS}


def _has(calls: list[Case], wanted: Callable[[Case], bool]) -> bool:
    return any(wanted(case) for case in calls)


def test_every_breadth_phase_holds_each_other_type_at_the_partitioner_sizes(
    breadths: dict[int, list[Case]],
) -> None:
    """SPEC 1.2, 1.5, 4.4: every default breadth phase holds signed zero
    memories from 384 items, int runtimes and an int budget of 1 from 512,
    numpy int32 runtimes whose total passes ``2**31`` and int64 ones past
    ``2**63`` from 64 items, and numpy float64 memories from 512."""
    for seed, calls in breadths.items():
        assert _has(calls, lambda c: c.n >= 384 and "-0.0" in map(repr, c.memory)), seed
        assert _has(calls, lambda c: c.n >= 512 and type(c.runtime[0]) is int), seed
        assert _has(calls, lambda c: c.n >= 512 and type(c.max_memory) is int and c.max_memory >= 1)
        for integer in (np.int32, np.int64):
            largest = int(np.iinfo(integer).max)
            assert _has(
                calls,
                lambda c, t=integer, top=largest: (
                    c.n >= 64 and type(c.runtime[0]) is t and sum(int(r) for r in c.runtime) > top
                ),
            ), (seed, integer)
        assert _has(calls, lambda c: c.n >= 512 and type(c.memory[0]) is np.float64), seed


def test_python_int_runtimes_pass_int64_one_by_one_and_keep_the_optimum() -> None:
    """SPEC 1.2, 3.3: whole runtimes times one factor, as Python ints, the
    largest past ``2**63`` (past any fixed width numpy or torch infers),
    the optimum's selection kept; ``None`` when a runtime is not whole."""
    base = Case.of([0.0001] * 64, [float(r) for r in range(1, 65)], 0.0032)
    rewritten = python_ints_past_int64(base)
    assert rewritten is not None
    assert all(type(r) is int for r in rewritten.runtime) and max(rewritten.runtime) >= 2**63
    assert rewritten.memory == base.memory and rewritten.max_memory == base.max_memory
    optimum = exact_optimum(*base.arguments())
    assert exact_optimum(*rewritten.arguments()).saved == optimum.saved
    assert python_ints_past_int64(Case.of([0.1, 0.1], [0.5, 1.0], 0.1)) is None


def test_every_breadth_phase_holds_python_int_runtimes_past_int64_from_256_items(
    breadths: dict[int, list[Case]],
) -> None:
    """SPEC 1.2, 7.2: every default breadth phase holds calls whose runtimes
    are all Python ints, some at least ``2**63``, at 256-511, 512-1023 and
    1024-2047 items; torch's ``dp_knapsack`` answers them. A blind corpus
    passed integrality sniffed by ``torch.tensor(runtime).dtype ==
    torch.int64``, which raises on such an int, from 256 items
    (docs/blind-corpus-18); the twin planted here (an int64 table) fails
    them, and without the rewriting it passed."""
    twin = corpus.int_runtimes_in_an_int64_table_from_512_items
    for seed, calls in breadths.items():
        found = [
            case
            for case in calls
            if case.n >= 256
            and all(type(r) is int for r in case.runtime)
            and max(case.runtime) >= 2**63
        ]
        assert {case.n.bit_length() for case in found} >= {9, 10, 11}, seed
        assert not props.check_call(upstream_dp_knapsack, found[-1], Judge(exact=False)), seed
        assert any(
            props.check_call(twin, case, Judge(exact=False), ["no-crash"]) for case in found
        ), seed


def test_every_breadth_phase_holds_a_leading_int_before_fractional_runtimes(
    breadths: dict[int, list[Case]],
) -> None:
    """SPEC 1.2, 7.2(e): every default breadth phase holds calls whose first
    runtime is an ``int`` and some later one is not whole, at 128-255,
    256-511 and 512-1023 items. A blind corpus passed a value returned as
    ``type(runtime[0])(value)`` from 160 items (docs/blind-corpus-19); the
    twin planted here (the value rounded when the first runtime is an int)
    fails one, and passed every call without the rewriting."""
    twin = corpus.value_rounded_when_the_first_runtime_is_an_int_from_384_items
    assert leading_int_runtime(Case.of([0.1, 0.2], [1.5, 2.0], 0.3)) is None
    for seed, calls in breadths.items():
        found = [
            case
            for case in calls
            if type(case.runtime[0]) is int
            and any(not float(r).is_integer() for r in case.runtime[1:])
        ]
        assert {case.n.bit_length() for case in found} >= {8, 9, 10}, seed
        assert any(
            props.check_call(twin, case, Judge(exact=False), ["value-consistency"])
            for case in found
        ), seed


def test_every_breadth_phase_holds_zero_budgets_of_either_sign_and_type_with_free_items(
    breadths: dict[int, list[Case]],
) -> None:
    """SPEC 1.5, 2.2, 4.4: every default breadth phase holds, from 128 items
    and at 2,114, a call under the budget ``-0.0`` and one under the int
    ``0`` (the partitioner's ``max(budget, 0)``) with a free item of positive
    runtime, whose saving is the optimum. A blind corpus passed a "budget <=
    0: save nothing" exit that tests the sign bit (``math.copysign``) from
    128 items (docs/blind-corpus-13)."""

    def has_a_free_item(case: Case) -> bool:
        items = zip(case.memory, case.runtime, strict=True)
        return any(quantize(m) == 0 and r > 0 for m, r in items)

    for seed, calls in breadths.items():
        for zero in ("-0.0", "0"):
            sizes = {
                case.n for case in calls if repr(case.max_memory) == zero and has_a_free_item(case)
            }
            assert any(128 <= n < 256 for n in sizes) and max(sizes) >= 2114, (seed, zero, sizes)


PASSED_TYPES = (float, int, np.float64, np.int32, np.int64)
"""What SPEC 4.5 lets the audit pass a third-party solver (integers: runtimes only)."""


def test_every_breadth_value_quantizes_as_upstream_would(
    breadths: dict[int, list[Case]],
) -> None:
    """SPEC 4.5: every value of every breadth call is of a type upstream
    quantizes by SPEC 2.1 (``round(m * 10000)`` is ``round(float(m) * 10000)``):
    no Fraction, no numpy float32, no numpy integer memory or budget."""
    for seed, calls in breadths.items():
        for case in calls:
            assert {type(r) for r in case.runtime} <= set(PASSED_TYPES), (seed, case.n)
            for m in (*case.memory, case.max_memory):
                assert type(m) in (float, int, np.float64), (seed, case.n, type(m))
                assert round(m * 10000) == quantize(float(m)), (seed, case.n, m)


def test_upstream_quantizes_a_fraction_and_a_float32_otherwise() -> None:
    """SPEC 4.5: why the audit passes neither. ``Fraction(3, 20000)`` weighs
    1 unit by SPEC 2.1 (``float(m) * 10000`` is 1.4999999999999998), 2 by
    upstream's exact ``round(m * 10000)``; ``np.float32(0.00025)`` weighs 3
    by SPEC 2.1 (its float64 product is 2.5000001...), 2 in float32."""
    from fractions import Fraction

    assert quantize(float(Fraction(3, 20000))) == 1
    assert round(Fraction(3, 20000) * 10000) == 2
    assert quantize(float(np.float32(0.00025))) == 3
    assert round(np.float32(0.00025) * 10000) == 2


def test_every_breadth_phase_holds_a_half_way_budget_and_an_item_over_it_in_float(
    breadths: dict[int, list[Case]],
) -> None:
    """SPEC 2.1, 3.3: a half-way budget (its float a half unit above the
    ``Q`` it quantizes to) from 256 items, and, past twice the largest real
    call's table, an item of exactly ``Q`` units whose float is over the
    budget's, by one ulp and by a quarter unit, in the optimum."""

    def half_way(case: Case) -> bool:
        budget = case.max_memory
        return isinstance(budget, float) and round(budget * 100_000) % 10 == 5

    def over_in_float(case: Case, gap: float) -> bool:
        q = quantize(case.max_memory)
        return table_cells(case) > BIG_TABLE_CELLS and any(
            quantize(m) == q and 0 < m - case.max_memory <= gap for m in case.memory
        )

    for seed, calls in breadths.items():
        assert _has(calls, lambda c: c.n >= 256 and half_way(c)), seed
        assert _has(calls, lambda c: over_in_float(c, 1e-15)), seed
        assert _has(calls, lambda c: over_in_float(c, 0.26e-4)), seed


def test_every_breadth_phase_holds_a_weight_past_int32_worth_more_than_the_rest(
    breadths: dict[int, list[Case]],
) -> None:
    """SPEC 3.2: from 64 items, an item heavier than ``2**31 - 1`` units
    worth more than every item that fits together (a clamp to the budget
    saves it)."""
    for seed, calls in breadths.items():

        def dominant_past_int32(case: Case) -> bool:
            q = quantize(case.max_memory)
            weights = [quantize(m) for m in case.memory]
            fitting = sum(r for w, r in zip(weights, case.runtime, strict=True) if w <= q)
            heavy = [r for w, r in zip(weights, case.runtime, strict=True) if w > 2**31 - 1]
            return case.n >= 64 and any(r > fitting for r in heavy)

        assert _has(calls, dominant_past_int32), seed


def _zeros_cleared(memory: list[Any], runtime: list[Any], max_memory: Any) -> Any:
    for i, m in enumerate(memory):
        if m == 0:
            memory[i] = 0.0
    return 0.0, [], list(reversed(range(len(memory))))


def test_a_signed_zero_made_positive_in_place_is_a_mutation() -> None:
    """SPEC 8.2: ``-0.0`` rewritten as ``0.0`` in the caller's list compares
    equal, but the caller can tell: a ``no-mutation`` finding."""
    case = Case.of([-0.0, 0.5], [1.0, 2.0], 0.0)
    found = props.check_call(_zeros_cleared, case, Judge(exact=False), ["no-mutation"])
    assert [finding.property for finding in found] == ["no-mutation"]
    untouched = Case.of([0.0, 0.5], [1.0, 2.0], 0.0)
    assert props.check_call(_zeros_cleared, untouched, Judge(exact=False), ["no-mutation"]) == []


def test_a_worker_reports_an_int_made_a_float_in_place(tmp_path: Path) -> None:
    """SPEC 8.2: through the isolated worker, an ``int`` runtime replaced by
    the equal ``float`` comes back as a change of the caller's list."""
    file = tmp_path / "floats.py"
    file.write_text(
        "def solver(memory, runtime, max_memory):\n"
        "    runtime[:] = [float(r) for r in runtime]\n"
        "    return 0.0, [], list(reversed(range(len(memory))))\n"
    )
    (target,) = parse_target(f"{file}:solver")
    with IsolatedSolver(target, call_timeout=30) as worker:
        outcome = props.call(worker, Case.of([0.5, 0.5], [1, 2], 0.0))
    assert outcome.extras["mutated"] is True


def test_a_value_summed_in_numpy_int64_is_judged_not_fatal() -> None:
    """SPEC 1.2, 7.2(e): a solver that sums numpy int64 runtimes returns a
    numpy int64 value; one that wrapped around is a value-consistency
    finding, and judging it raises nothing (the auditor once crashed on a
    fixed-width product inside the fraction)."""
    base = Case.of([0.0001] * 64, [float(r) for r in range(1, 65)], 0.0064)
    case = numpy_total_past(np.int64, base)
    assert case is not None

    def wraps(memory: list[Any], runtime: list[Any], max_memory: Any) -> Any:
        saved = list(range(len(memory)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            value = sum(runtime[i] for i in saved)
        return value, saved, []

    found = props.check_call(wraps, case, Judge(exact=False), ["value-consistency"])
    assert [finding.property for finding in found] == ["value-consistency"]
