"""The typed front end for calls with repeated items (optimized/repeated.py).

:func:`repeated.read_types` and :meth:`repeated.TypedCall.answer` replace the
general pipeline (validate, integer runtimes, types from the pairs,
first_copies, format_result) whenever they accept a call, so the tests
compare the two: the solver with ``Config.typed_front`` on and off must return the
same triple, bit for bit, or raise the same error (SPEC 1, 6.3, 7), on
inputs chosen to reach every decline: ints beside floats, -0.0, subnormals,
huge values, distinct memories with one quantized weight, bools, NaN.
Planted bugs show that the comparisons can fail.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from grouping_forced import solve_grouped
from hypothesis import given, settings
from hypothesis import strategies as st

from knapsack_audit.optimized import dp_knapsack_sliding_hirschberg, grouping, repeated, solver
from knapsack_audit.optimized.config import configured, current

Call = tuple[list[Any], list[Any], Any]

MEMORIES = [0.0, -0.0, 1e-4, 1.4e-4, 2e-4, 0.00015, 2.5e-4, 4.9e-5, 5e-5, 3.7e-3, 3, 0, 1e300]
RUNTIMES = [0.0, -0.0, 1.0, 2.0, 0.5, -1.0, 0.1, 5e-324, 2.2e-313, 2.0**60, 3, 7, 10**20, 1e300]


@st.composite
def repeated_calls(draw: Any) -> Call:
    """Up to 40 items drawn from a few (memory, runtime) pools, so copies are common."""
    memories = draw(st.lists(st.sampled_from(MEMORIES), min_size=1, max_size=5))
    runtimes = draw(st.lists(st.sampled_from(RUNTIMES), min_size=1, max_size=5))
    n = draw(st.integers(0, 40))
    memory = [draw(st.sampled_from(memories)) for _ in range(n)]
    runtime = [draw(st.sampled_from(runtimes)) for _ in range(n)]
    budget = draw(st.sampled_from([0.0, 1e-4, 3e-4, 1e-3, 0.0123, 1, 2]))
    return memory, runtime, budget


def outcome(call: Call, typed_front: bool) -> tuple[Any, ...]:
    """The solver's triple, or its error's type and message."""
    try:
        with configured(typed_front=typed_front):
            return ("answer", dp_knapsack_sliding_hirschberg(*call))
    except (TypeError, ValueError) as error:
        return ("error", type(error), str(error))


def front_difference(call: Call) -> str | None:
    """How the solver with the typed front differs from the general pipeline on
    ``call``, with grouping as usual and forced on; ``None`` if never."""
    for min_saved in (current().grouping_min_saved_items, 0):
        with configured(grouping_min_saved_items=min_saved):
            typed, general = outcome(call, True), outcome(call, False)
        if typed != general:
            return f"{call} (min saved {min_saved}): typed {typed}, general {general}"
        if typed[0] == "answer" and type(typed[1][0]) is not float:
            return f"{call}: value {typed[1][0]!r} is not a float (SPEC 7.1)"
    return None


def sample_calls() -> Iterator[Call]:
    """A fixed sample for the planted bugs: every pair of pool entries as a
    block repeated 1-3 times beside one odd item, at three budgets."""
    pairs = list(itertools.product(MEMORIES[:9], RUNTIMES[:7]))
    for (m1, r1), (m2, r2) in itertools.islice(itertools.combinations(pairs, 2), 0, None, 7):
        for copies, budget in itertools.product((1, 2, 3), (1e-4, 3e-4, 1e-3)):
            yield [m1, m2] * copies + [m2], [r1, r2] * copies + [r1], budget


def first_sample_difference() -> str | None:
    for call in sample_calls():
        difference = front_difference(call)
        if difference:
            return difference
    return None


@settings(max_examples=600, deadline=None)
@given(repeated_calls())
def test_typed_front_equals_the_general_pipeline(call: Call) -> None:
    """SPEC 1, 3.3, 6.3, 7: with the typed front on and off, the same triple
    (value bits, saved, recomputable) or the same error."""
    assert front_difference(call) is None


def test_typed_front_answers_most_of_the_sample() -> None:
    """SPEC 3.3, 6.3: the comparison above is not vacuous: the typed front accepts most calls
    of the fixed sample (it declines the all-distinct and the invalid ones)."""
    calls = list(sample_calls())
    accepted = sum(
        repeated.read_types(*call, current().grouping_min_saved_items, solver.BOUNDED_MAX_TYPES)
        is not None
        for call in calls
    )
    assert accepted > len(calls) // 2, (accepted, len(calls))
    assert first_sample_difference() is None


@pytest.mark.parametrize(
    ("memory", "runtime", "budget"),
    [
        ([1e-4, 1e-4, 2e-4], [1.0, True, 1.0], 1e-4),  # a bool equals 1 (SPEC 1.2)
        ([1e-4, 1e-4, 2e-4], [1.0, 1.0, math.nan], 1e-4),
        ([1e-4, math.inf, 1e-4], [1.0, 1.0, 1.0], 1e-4),
        ([1e-4, -1e-4, 1e-4], [1.0, 1.0, 1.0], 1e-4),
        ([1e-4] * 3, [1.7e308] * 3, 1e-4),  # sum |r| beyond float64 (SPEC 1.3)
        ([1e-4] * 3, [10**400] * 3, 1e-4),
        ([1e-4] * 3, [1.0] * 3, -1.0),
        ([1e-4] * 3, [1.0] * 3, math.nan),
        ([1e-4] * 3, [1.0] * 3, "1"),
        ([1e-4] * 3, [1.0, 2.0, 3.0], 1e-4),  # distinct runtimes: no copies
        ([1e-4] * 3, [[1.0], 1.0, 1.0], 1e-4),  # unhashable
        ([i * 1e-4 for i in range(300)], [1.0] * 300, 1e-2),  # 300 distinct pairs
        ((1e-4, 1e-4, 1e-4), [1.0] * 3, 1e-4),  # a tuple is accepted
    ],
)
def test_typed_front_declines_what_the_general_pipeline_must_decide(
    memory: Any, runtime: Any, budget: Any
) -> None:
    """SPEC 1: invalid entries, the float64 sum, too many pairs and no copies are
    left to the general pipeline, whose answer or error the solver returns."""
    call = (memory, runtime, budget)
    accepted = repeated.read_types(*call, 1, solver.BOUNDED_MAX_TYPES) is not None
    assert accepted == (type(memory) is tuple)
    assert front_difference(call) is None


def test_distinct_memories_of_one_weight_are_one_type() -> None:
    """SPEC 6.3: 1e-4 and 1.4e-4 both quantize to 1, so with equal runtimes the
    three items are copies; two saved are the two lowest indices."""
    call = ([1e-4, 1.4e-4, 1e-4], [1.0, 1.0, 1.0], 2e-4)
    typed = repeated.read_types(*call, 0, solver.BOUNDED_MAX_TYPES)
    assert typed is not None and typed.types.copies == [3]
    assert outcome(call, True) == ("answer", (2.0, [0, 1], [2]))
    assert front_difference(call) is None


def test_first_items_end_against_a_scan() -> None:
    """SPEC 6.3: the ``k`` lowest-indexed items of a type lie before the returned end."""
    item_types = bytes([2, 0, 2, 1, 2, 2, 0, 1])
    for t in range(3):
        positions = [i for i, x in enumerate(item_types) if x == t]
        for k in range(1, len(positions) + 1):
            assert grouping.first_items_end(item_types, t, k) == positions[k - 1] + 1


def test_answer_saves_the_lowest_indexed_copies_of_every_type() -> None:
    """SPEC 6.3, 7: for every count vector over three interleaved types (two or
    three of them partial at once), ``TypedCall.answer`` saves exactly each
    type's lowest-indexed copies, ascending, the rest descending."""
    item_types = bytes([2, 0, 1, 2, 0, 0, 1, 2, 1, 0, 2])
    copies = [item_types.count(t) for t in range(3)]
    call = repeated.TypedCall(grouping.Types([1, 1, 1], [4, 2, 1], copies, item_types), 11, 0)
    for counts in itertools.product(*(range(m + 1) for m in copies)):
        expected = sorted(
            i
            for t in range(3)
            for i in [i for i, x in enumerate(item_types) if x == t][: counts[t]]
        )
        value, saved, rest = call.answer(list(counts))
        assert saved == expected, counts
        assert rest == sorted(set(range(len(item_types))) - set(expected), reverse=True)
        assert value == 4 * counts[0] + 2 * counts[1] + counts[2]


def _weight_only(original: Callable[..., Any]) -> Callable[..., Any]:
    def merge(weights, values):  # type: ignore[no-untyped-def]
        return original(weights, [values[weights.index(q)] for q in weights])  # keyed by q alone

    return merge


def _unmerged(original: Callable[..., Any]) -> Callable[..., Any]:
    def merge(weights, values):  # type: ignore[no-untyped-def]
        return list(weights), list(values), list(range(len(weights)))  # raw pairs as types

    return merge


@pytest.mark.parametrize(
    ("name", "mutant"),
    [
        ("merge_types", _weight_only),
        ("merge_types", _unmerged),
    ],
    ids=["weight-only-key", "raw-pairs-unmerged"],
)
def test_planted_typed_front_bugs_are_caught(
    monkeypatch: pytest.MonkeyPatch, name: str, mutant: Callable[..., Any]
) -> None:
    """SPEC 3.2, 6.3: each bug is found by the comparison with the general
    pipeline on the fixed sample or on the one-weight case."""
    monkeypatch.setattr(repeated, name, mutant(getattr(repeated, name)))
    one_weight = front_difference(([1e-4, 1.4e-4, 1e-4], [1.0, 1.0, 1.0], 2e-4))
    assert one_weight is not None or first_sample_difference() is not None


def test_planted_typed_front_bugs_reach_the_exhaustive_scope(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 6.3: keyed by weight alone, the typed front fails the in-process
    exhaustive scope with grouping forced (tests/test_grouping.py)."""
    from test_grouping import first_failure

    monkeypatch.setattr(repeated, "merge_types", _weight_only(repeated.merge_types))
    assert first_failure(solve_grouped) is not None
