"""The bounded knapsack over item types (optimized/bounded.py, proofs/12).

Judged against a brute force over count vectors written here (exact integers,
no DP): :func:`brute_force` lists every optimal count vector, so the ranges
of :func:`bounded.fix_counts` can be checked to keep all of them (Lemma 12.1)
and :func:`bounded.solve_counts` to return one (Lemmas 12.2, 12.3). The
solver's small scope with copies (tests/test_grouping.py) rarely reaches the
stages, since with at most three items the bound decides almost every
instance; the scope here has up to six copies per type and no bound in front.
Planted bugs show that each check can fail.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest
import torch
from grouping_forced import solve_grouped
from hypothesis import given, settings
from hypothesis import strategies as st

from knapsack_audit.optimized import bounded, grouping, solver
from knapsack_audit.optimized.config import Config, configured

Instance = tuple[list[int], list[int], list[int], int]


def brute_force(
    weights: list[int], values: list[int], copies: list[int], capacity: int
) -> tuple[int, set[tuple[int, ...]]]:
    """The optimum and every optimal count vector ``0 <= k_t <= copies[t]``."""
    best, optimal = None, set()
    for counts in itertools.product(*(range(m + 1) for m in copies)):
        if sum(k * w for k, w in zip(counts, weights, strict=True)) > capacity:
            continue
        value = sum(k * v for k, v in zip(counts, values, strict=True))
        if best is None or value > best:
            best, optimal = value, {counts}
        elif value == best:
            optimal.add(counts)
    assert best is not None  # the zero vector is feasible
    return best, optimal


def _without_nonpositive(optimal: set[tuple[int, ...]], values: list[int]) -> list[tuple[int, ...]]:
    """The vectors of ``optimal`` that save no copy of a type of value <= 0."""
    return [k for k in optimal if all(c == 0 for c, v in zip(k, values, strict=True) if v <= 0)]


def count_failure(instance: Instance, counts: list[int] | None) -> str | None:
    """Why ``counts`` is not an optimal count vector of ``instance``, or ``None``."""
    weights, values, copies, capacity = instance
    if counts is None:
        return f"{instance}: declined"
    if len(counts) != len(copies) or any(
        not 0 <= k <= m for k, m in zip(counts, copies, strict=True)
    ):
        return f"{instance}: counts {counts} outside 0..copies"
    if sum(k * w for k, w in zip(counts, weights, strict=True)) > capacity:
        return f"{instance}: counts {counts} over the capacity"
    best, optimal = brute_force(*instance)
    value = sum(k * v for k, v in zip(counts, values, strict=True))
    if value != best:
        return f"{instance}: value {value}, optimum {best}"
    expected = lex_max(instance, optimal)
    if tuple(counts) != expected:
        return f"{instance}: counts {counts}, the tie rule wants {expected}"
    return None


def lex_max(instance: Instance, optimal: set[tuple[int, ...]]) -> tuple[int, ...]:
    """proofs/12 "Ties": of the optimal vectors that save no type of value <= 0,
    the lexicographically largest with the types of ``w > 0`` read by
    decreasing ``v / w`` (exact fractions), ties by ascending index."""
    weights, values, _, _ = instance
    positive = [t for t, (w, v) in enumerate(zip(weights, values, strict=True)) if w > 0 < v]
    order = sorted(positive, key=lambda t: (-Fraction(values[t], weights[t]), t))
    return max(_without_nonpositive(optimal, values), key=lambda k: [k[t] for t in order])


def core_instances() -> Iterator[Instance]:
    """The preconditions of ``solve_counts`` (``1 <= w <= C``, ``v > 0``): one or
    two types, weights 1..3, values 1..3, up to six copies, capacities 1..13."""
    kinds = list(itertools.product(range(1, 4), range(1, 4), range(1, 7)))
    for n_types in (1, 2):
        for chosen in itertools.product(kinds, repeat=n_types):
            weights, values, copies = (list(x) for x in zip(*chosen, strict=True))
            for capacity in range(max(weights), 14):
                yield weights, values, copies, capacity


def first_stage_failure(solve: Callable[..., list[int] | None] | None = None) -> str | None:
    """The first instance of :func:`core_instances` that ``solve`` (default
    ``bounded.solve_counts``, looked up at call time) gets wrong."""
    for instance in core_instances():
        try:
            failure = count_failure(instance, (solve or bounded.solve_counts)(*instance))
        except (ValueError, IndexError, RuntimeError) as error:
            failure = f"{instance}: {error!r}"
        if failure:
            return failure
    return None


def test_solve_counts_is_optimal_on_the_core_scope() -> None:
    """SPEC 3.3, proofs/12 Lemmas 12.2 and 12.3, "Ties": every instance of the
    core scope (all three stage kinds occur), exactly optimal, within the
    copies, and the lex-max optimal vector."""
    kinds = {
        bounded.stage_kind(w, m, c)
        for ws, _, ms, c in core_instances()
        for w, m in zip(ws, ms, strict=True)
    }
    assert kinds == {"unbounded", "window", "bundle"}
    assert first_stage_failure() is None


def test_large_values_take_int64_rows_and_beyond_2_61_are_declined() -> None:
    """SPEC 3.3, proofs/12 "Exactness": every seventh core instance with values
    times 2**40 runs on int64 rows and stays optimal; values whose ``q v``
    passes 2**61 are declined (the bundle path's Python ints take them), never
    wrapped around."""
    for weights, values, copies, capacity in itertools.islice(core_instances(), 0, None, 7):
        large = (weights, [v << 40 for v in values], copies, capacity)
        assert bounded.row_dtype(*large) == torch.int64
        assert count_failure(large, bounded.solve_counts(*large)) is None
    assert bounded.row_dtype([1], [1 << 20], [3], 10) == torch.int32
    assert bounded.solve_counts([1], [1 << 58], [3], 10) is None


def test_fix_counts_orders_huge_values_without_overflow() -> None:
    """SPEC 1.7, 3.3: a subnormal runtime scales the others by up to 2**1074
    (SPEC 3.1); the bound's float ordering key must not overflow (found by
    ``knapsack-audit verify`` on [1e8, 0, 0, -2.2250738585e-313, 0])."""
    huge = [3 << 1100, 1 << 1100, 5]
    ranges = bounded.fix_counts([2, 1, 1], huge, [2, 3, 1], 3)
    instance = ([2, 1, 1], huge, [2, 3, 1], 3)
    for counts in _without_nonpositive(brute_force(*instance)[1], huge):
        assert all(lo <= k <= hi for lo, k, hi in zip(ranges.lo, counts, ranges.hi, strict=True))


@pytest.mark.parametrize("kind", ["bundle", "window"])
def test_every_type_solved_by_one_stage_kind(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """SPEC 3.3, proofs/12 Lemma 12.3 and 10.1: forcing every type through bundles,
    or through one window stage (valid for any copy count), stays optimal."""
    monkeypatch.setattr(bounded, "stage_kind", lambda w, m, capacity: kind)
    assert first_stage_failure() is None


def unbounded_search(*instance: Any) -> list[int] | None:
    """``bounded.search_counts`` without a node budget (it never gives up)."""
    return bounded.search_counts(*instance, max_nodes=1 << 60)


def test_search_counts_is_the_lex_max_optimum_on_the_core_scope() -> None:
    """SPEC 3.3, proofs/12 Lemma 12.4: the branch and bound, run to the end, returns
    exactly the vector the stages return (optimal, lex-max) on every instance."""
    assert first_stage_failure(unbounded_search) is None


def test_search_counts_gives_up_at_its_node_budget() -> None:
    """SPEC 3.3, proofs/12 Lemma 12.4: with a small budget the search either answers the
    lex-max optimum or declines (``None``); it declines on some instance, so
    the solver's fallback to the stages is reached."""
    declined = 0
    for instance in itertools.islice(core_instances(), 0, None, 5):
        counts = bounded.search_counts(*instance, max_nodes=3)
        if counts is None:
            declined += 1
        else:
            assert count_failure(instance, counts) is None
    assert declined > 0


@st.composite
def bounded_instances(draw: Any) -> Instance:
    """Up to four types of any sign and weight 0..6, up to seven copies, capacity 0..30."""
    n_types = draw(st.integers(1, 4))
    weights = draw(st.lists(st.integers(0, 6), min_size=n_types, max_size=n_types))
    values = draw(st.lists(st.integers(-3, 40), min_size=n_types, max_size=n_types))
    copies = draw(st.lists(st.integers(1, 7), min_size=n_types, max_size=n_types))
    return weights, values, copies, draw(st.integers(0, 30))


@settings(max_examples=400, deadline=None)
@given(bounded_instances())
def test_fix_counts_keeps_every_optimal_count_vector(instance: Instance) -> None:
    """SPEC 3.3, 4.2, proofs/12 Lemma 12.1: every optimal count vector that saves
    no type of value <= 0 (R1 keeps one such vector, not the ties through
    zero-value types) lies in the ranges; the ranges' lower ends fit; a vector
    the bound calls optimal is."""
    weights, values, copies, capacity = instance
    ranges = bounded.fix_counts(weights, values, copies, capacity)
    _, optimal = brute_force(*instance)
    for counts in _without_nonpositive(optimal, values):
        assert all(lo <= k <= hi for lo, k, hi in zip(ranges.lo, counts, ranges.hi, strict=True)), (
            counts
        )
    used = sum(lo * w for lo, w in zip(ranges.lo, weights, strict=True))
    assert ranges.capacity == capacity - used >= 0
    if ranges.optimal is not None:
        assert count_failure(instance, ranges.optimal) is None


@pytest.mark.parametrize("search_nodes", [Config().search_max_nodes, 0], ids=["search", "stages"])
@settings(max_examples=300, deadline=None)
@given(instance=bounded_instances())
def test_solver_types_path_is_optimal(search_nodes: int, instance: Instance) -> None:
    """SPEC 3.3, proofs/12 "Ties": the solver's bounded path,
    ``bounded.optimal_counts`` (bound, then the search or, when it gives up,
    the stages on what is left, values divided by their gcd), returns the
    lex-max optimal count vector."""
    weights, values, copies, capacity = instance
    pairs = [(w, v) for w, v in zip(weights, values, strict=True)]
    if len(set(pairs)) < len(pairs):  # one type per pair: merge repeats
        merged: dict[tuple[int, int], int] = {}
        for pair, m in zip(pairs, copies, strict=True):
            merged[pair] = merged.get(pair, 0) + m
        pairs, copies = list(merged), list(merged.values())
        weights, values = [w for w, _ in pairs], [v for _, v in pairs]
    instance = (weights, values, copies, capacity)
    with configured(search_max_nodes=search_nodes):
        counts = bounded.optimal_counts(weights, values, copies, capacity)
    assert count_failure(instance, counts) is None


def test_lowest_copies_saves_the_lowest_indexed_copies() -> None:
    """SPEC 6.3, proofs/10 Lemma 10.2: k copies of a type are its k lowest indices."""
    pairs = [(1, 5), (2, 3), (1, 5), (1, 5), (2, 3), (4, 4)]
    types = grouping.item_types([w for w, _ in pairs], [v for _, v in pairs])
    assert types.copies == [3, 2, 1]
    assert grouping.ascending(grouping.lowest_copies(types, [2, 2, 0])) == [0, 1, 2, 4]
    with pytest.raises(ValueError, match="3 copies requested of a type that has 2"):
        grouping.lowest_copies(types, [0, 3, 0])


def _window_one_short(original: Callable[..., Any]) -> Callable[..., Any]:
    def stage(row, scratch, head, steps, w, v, m, capacity):  # type: ignore[no-untyped-def]
        return original(row, scratch, head, steps, w, v, m - 1, capacity)

    return stage


def _unbounded_one_row_short(original: Callable[..., Any]) -> Callable[..., Any]:
    def stage(row, steps, indices, w, v, capacity):  # type: ignore[no-untyped-def]
        return original(row, steps, indices, w, v, capacity - w)  # the last q row left out

    return stage


def _ascending_order(original: Callable[..., Any]) -> Callable[..., Any]:
    def order(weights, values, types):  # type: ignore[no-untyped-def]
        return original(weights, values, types)[::-1]  # sorted the wrong way round

    return order


def _whole_types_only(original: Callable[..., Any]) -> Callable[..., Any]:
    def bound(weight_sums, value_sums, weights, values, d, room):  # type: ignore[no-untyped-def]
        s = bisect.bisect_right(weight_sums, room + weight_sums[d], d) - 1
        return value_sums[s] - value_sums[d]  # the fraction of the next type forgotten

    return bound


@pytest.mark.parametrize(
    ("name", "mutant"),
    [
        ("stage_kind", lambda original: lambda w, m, capacity: "unbounded"),  # limit ignored
        ("_window_stage", _window_one_short),  # a window of m rows, not m + 1
        ("_unbounded_stage", _unbounded_one_row_short),  # the grid's last row left out
        ("allowed_deviation", lambda original: lambda slack, cost: (slack - 1) // cost),
        ("efficiency_order", _ascending_order),  # the search's cut no longer valid
        ("fractional_fill", _whole_types_only),  # the search's bound below the LP's
    ],
    ids=[
        "copy-limit-ignored",
        "window-one-short",
        "unbounded-one-row-short",
        "bound-not-strict",
        "order-ascending",
        "search-bound-too-low",
    ],
)
def test_planted_bounded_bugs_are_caught(
    monkeypatch: pytest.MonkeyPatch, name: str, mutant: Callable[..., Any]
) -> None:
    """SPEC 3.3: each bug a pull request could plausibly make in the stages or
    the bound is found by the core scope or by the bound's brute-force check."""
    monkeypatch.setattr(bounded, name, mutant(getattr(bounded, name)))
    if name == "allowed_deviation":
        assert _first_range_failure() is not None
    elif name in ("efficiency_order", "fractional_fill"):
        assert first_stage_failure(unbounded_search) is not None
    else:
        assert first_stage_failure() is not None


def _first_range_failure() -> str | None:
    """The first instance (types 1..2, weights 0..3, values -1..3, copies 1..4,
    capacities 0..9) whose ranges lose an optimal count vector."""
    kinds = list(itertools.product(range(4), range(-1, 4), range(1, 5)))
    for n_types in (1, 2):
        for chosen in itertools.product(kinds, repeat=n_types):
            weights, values, copies = (list(x) for x in zip(*chosen, strict=True))
            for capacity in range(10):
                ranges = bounded.fix_counts(weights, values, copies, capacity)
                _, optimal = brute_force(weights, values, copies, capacity)
                for counts in _without_nonpositive(optimal, values):
                    if not all(
                        lo <= k <= hi
                        for lo, k, hi in zip(ranges.lo, counts, ranges.hi, strict=True)
                    ):
                        return f"{weights}, {values}, {copies}, {capacity}: lost {counts}"
    return None


def test_planted_type_key_and_copy_bugs_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """SPEC 3.3, 6.3: through the whole solver (grouping forced), a type keyed by
    weight alone, or the highest-indexed copies saved, is found."""
    from test_grouping import _last_copies, _weight_only_types, first_failure

    for name, mutant in (("item_types", _weight_only_types), ("lowest_copies", _last_copies)):
        with monkeypatch.context() as patch, configured(typed_front=False):
            # the typed front's own bugs: tests/test_repeated.py
            patch.setattr(solver, name, mutant)
            assert first_failure(solve_grouped) is not None, name
