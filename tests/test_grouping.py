"""Identical items as one item type (optimized/grouping.py, proofs/10).

Judged against the brute force of :mod:`knapsack_audit.exhaustive` (exact
integers, no DP) and against SPEC 6.3 written out independently in
``tests/grouping_forced.py``; planted bugs show that the checks can fail.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import pytest
from grouping_forced import copies_violation, solve_bundled, solve_grouped

from knapsack_audit.exhaustive import (
    Expected,
    best_masks,
    check_instance,
    exact_scale,
    subset_table,
    verify_small_scope,
)
from knapsack_audit.optimized import (
    dp_knapsack_sliding_hirschberg,
    grouping,
    solver,
)
from knapsack_audit.reference import exact_optimum

Solver = Callable[[list[float], list[float], float], Any]


def test_bundle_sizes_reach_every_count_and_no_more() -> None:
    """SPEC 6.3, proofs/10 Lemma 10.1: the subset sums of bundle_sizes(m) are 0..m,
    for every m <= 2000, with at most log2(m) + 2 bundles, as many as bundle_count says."""
    for copies in range(1, 2001):
        sizes = grouping.bundle_sizes(copies)
        sums = {0}
        for size in sizes:
            sums |= {s + size for s in sums}
        assert sums == set(range(copies + 1)), copies
        assert len(sizes) <= copies.bit_length() + 1
        assert grouping.bundle_count(copies) == len(sizes)


@pytest.mark.slow
@pytest.mark.release
@pytest.mark.parametrize("target", ["solve_grouped", "solve_bundled"])
def test_exhaustive_small_scope_grouping_forced(target: str) -> None:
    """SPEC 3.3, 6.3, 7.1 on every instance with n <= 3, weights 0..3, budgets
    0..7 and runtimes {0, 0.5, 1, 2, 3, 1e8, -1} (182,120 instances, with every
    pattern of copies those allow), every one grouped into types: solved by
    the bounded path (proofs/12), or always as bundles (proofs/10)."""
    summary = verify_small_scope(f"grouping_forced:{target}", max_items=3)
    assert summary.instances == 8 * sum(28**k for k in range(4))
    assert summary.failures == []


def small_instances(runtimes: Sequence[float]) -> Iterator[tuple[list[int], list[float], int]]:
    """Weights 0..3, the given runtimes, n <= 3, budgets 0..7."""
    kinds = list(itertools.product(range(4), runtimes))
    for n in range(4):
        for chosen in itertools.product(kinds, repeat=n):
            for budget in range(8):
                yield [w for w, _ in chosen], [r for _, r in chosen], budget


def first_failure(solve: Solver, runtimes: Sequence[float] = (1.0, 2.0)) -> str | None:
    """The first instance of :func:`small_instances` on which ``solve`` is wrong
    (brute force, SPEC 3.3 / 7.1) or breaks SPEC 6.3, or crashes."""
    scale = exact_scale(runtimes)
    for weights, runtime, budget in small_instances(runtimes):
        values = [int(Fraction(r) * scale) for r in runtime]
        best, _ = best_masks(subset_table(weights, values), budget, len(weights))
        memory = [w / 10000 for w in weights]
        try:
            answer = solve(memory, runtime, budget / 10000)
            failure = check_instance(
                lambda *_, result=answer: result,
                weights,
                runtime,
                budget,
                Expected(values, scale, best, None),
            )
        except (ValueError, IndexError, AssertionError) as error:
            return f"{weights}, {runtime}, {budget}: {error!r}"
        failure = failure or copies_violation(memory, runtime, answer[1])
        if failure is not None:
            return failure
    return None


@pytest.mark.parametrize("solve", [solve_grouped, solve_bundled], ids=["bounded", "bundled"])
def test_small_scope_with_grouping_forced_has_no_failure(solve: Solver) -> None:
    """SPEC 3.3, 6.3: the in-process scope the planted bugs below run on is passed."""
    assert first_failure(solve) is None


@pytest.fixture
def deep_recursion(configure: Callable[..., object]) -> None:
    """Hirschberg splits down to single items, no bound fixing, no Python table:
    the paths whose tie choices are not the lowest-indexed copies."""
    configure(base_case_items=1, window_min_columns=0, bound_fixing=False, python_table_cells=0)


def test_small_scope_without_forced_grouping_has_no_failure(deep_recursion: None) -> None:
    """SPEC 3.3, 6.3: with the default grouping knob (items solved one by one
    unless a type has three copies) and deep recursion, answers are
    normalised to the lowest-indexed copies."""
    assert first_failure(dp_knapsack_sliding_hirschberg) is None


def test_planted_normalisation_bug_is_caught(
    deep_recursion: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 6.3: mapping an ungrouped answer back to the highest-indexed copies
    is found (the split of [1e-4] * 3 at budget 1e-4 saves copy 1 or 2, not 0)."""
    monkeypatch.setattr(solver, "lowest_copies", _last_copies)
    assert first_failure(dp_knapsack_sliding_hirschberg) is not None


def _powers_only(copies: int) -> list[int]:
    return [1 << k for k in range((copies + 1).bit_length() - 1)]


def _weight_only_types(weights: Sequence[int], values: Sequence[int]) -> grouping.Types:
    by_weight: dict[int, int] = {}
    for i, w in enumerate(weights):
        by_weight.setdefault(w, i)
    number = {w: t for t, w in enumerate(by_weight)}
    ids = [number[w] for w in weights]
    copies = [ids.count(t) for t in range(len(number))]
    return grouping.Types(
        list(by_weight), [values[i] for i in by_weight.values()], copies, bytes(ids)
    )


def _last_copies(types: grouping.Types, counts: Sequence[int]) -> bytearray:
    selection = bytearray(len(types.of_item))
    left = list(counts)
    for i in range(len(selection) - 1, -1, -1):
        t = types.of_item[i]
        if left[t]:
            selection[i], left[t] = 1, left[t] - 1
    return selection


def _one_past(original: Callable[..., Any]) -> Callable[..., Any]:
    def end(of_item: bytes, t: int, k: int) -> int:
        return int(original(of_item, t, k)) + 1  # one item too far

    return end


def _all_copies(original: Callable[..., Any]) -> Callable[..., Any]:
    def end(of_item: bytes, t: int, k: int) -> int:
        return len(of_item)  # every copy up to the end, not the first k

    return end


def _overshooting_sizes(copies: int) -> list[int]:
    return [1 << k for k in range(copies.bit_length())]


@pytest.mark.parametrize(
    ("module", "name", "mutant"),
    [
        (grouping, "bundle_sizes", _powers_only),  # remainder dropped: m = 2 saves 1 copy
        (grouping, "bundle_sizes", _overshooting_sizes),  # 1, 2, 4 for m = 5
        (solver, "item_types", _weight_only_types),  # type keyed by weight only
        (solver, "lowest_copies", _last_copies),  # highest-indexed copies
    ],
    ids=["remainder-dropped", "sizes-overshoot", "weight-only-key", "last-copies"],
)
def test_planted_grouping_bugs_are_caught(
    monkeypatch: pytest.MonkeyPatch, module: Any, name: str, mutant: Any
) -> None:
    """SPEC 3.3, 6.3: each bug a pull request could plausibly make in the bundle
    path is found (the bounded path's own bugs: tests/test_bounded.py)."""
    monkeypatch.setattr(module, name, mutant)
    assert first_failure(solve_bundled) is not None


@pytest.mark.parametrize("mutant", [_one_past, _all_copies], ids=["one-past", "all-copies"])
def test_planted_mapping_back_bugs_are_caught(
    monkeypatch: pytest.MonkeyPatch, mutant: Callable[..., Any]
) -> None:
    """SPEC 6.3: a partial type's prefix ending one item late, or at the end, in
    the one mapping back every path shares (the typed front's too) is found."""
    monkeypatch.setattr(grouping, "first_items_end", mutant(grouping.first_items_end))
    assert first_failure(solve_grouped) is not None


def test_runtimes_one_ulp_apart_are_not_copies() -> None:
    """SPEC 6.3, 3.3: exactness first: near-tied runtimes are different types, so
    the one-ulp-larger item is saved."""
    x = 1e8 + 1
    y = math.nextafter(x, math.inf)
    memory, runtime = [1e-4] * 4, [x, x, x, y]
    _, saved, _ = dp_knapsack_sliding_hirschberg(memory, runtime, 2e-4)
    exact = sum(Fraction(runtime[i]) for i in saved)
    assert 3 in saved and exact == exact_optimum(memory, runtime, 2e-4).value


def test_repeated_blocks_are_solved_exactly_as_bundles() -> None:
    """SPEC 3.3, 6.3: a partitioner-shaped call, 48 blocks of the same 6
    activations (288 items, 5 distinct pairs), at budgets across 0..1, against
    the exact oracle; grouping is on by default here (many copies)."""
    block_memory = [0.0004, 0.0013, 0.0013, 0.0021, 0.0008, 0.0004]
    block_runtime = [2.0**20, 3 * 2.0**21, 3 * 2.0**21, 2.0**24, 5 * 2.0**19, 2.0**20]
    memory, runtime = block_memory * 48, block_runtime * 48
    for budget in (0.0, 0.0123, 0.05, 0.3):
        _, saved, recomputable = dp_knapsack_sliding_hirschberg(memory, runtime, budget)
        exact = sum(Fraction(runtime[i]) for i in saved)
        assert exact == exact_optimum(memory, runtime, budget).value
        assert copies_violation(memory, runtime, saved) is None
        assert sorted(saved + recomputable) == list(range(288))
