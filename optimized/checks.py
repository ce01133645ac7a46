"""Invariant checkers (like sortedcontainers' ``_check()``).

Each checker recomputes its claim with the readable full table of
:func:`knapsack_audit.reference.table.build_table` and raises
``AssertionError`` on a mismatch. They cost O(n * C) Python work per call, so
the solver calls them only when :attr:`.config.Config.debug_checks` is set (tests).
"""

from __future__ import annotations

from collections.abc import Sequence

from knapsack_audit.reference.table import build_table


def _last_row(
    weights: Sequence[int], values: Sequence[int], items: Sequence[int], capacity: int
) -> list[int]:
    table = build_table([weights[i] for i in items], [values[i] for i in items], capacity + 1)
    return table[-1]


def check_profile(
    row: Sequence[int],
    weights: Sequence[int],
    values: Sequence[int],
    items: Sequence[int],
    capacity: int,
) -> None:
    """The sliding row equals the last row of the full table (proofs/04)."""
    expected = _last_row(weights, values, items, capacity)
    assert list(row) == expected, f"profile of {list(items)} at C={capacity}: {row} != {expected}"


def check_split(
    weights: Sequence[int],
    values: Sequence[int],
    left: Sequence[int],
    right: Sequence[int],
    capacity: int,
    split: int,
    value: int,
) -> None:
    """``L[c*] + R[C - c*]`` is the optimum of the whole segment (proofs/06)."""
    assert 0 <= split <= capacity, f"split {split} outside 0..{capacity}"
    left_row = _last_row(weights, values, left, capacity)
    right_row = _last_row(weights, values, right, capacity)
    optimum = _last_row(weights, values, [*left, *right], capacity)[capacity]
    halves = left_row[split] + right_row[capacity - split]
    assert halves == value == optimum, (
        f"split {split} of C={capacity}: L + R = {halves}, reported {value}, OPT = {optimum}"
    )


def check_selection(
    weights: Sequence[int],
    values: Sequence[int],
    items: Sequence[int],
    capacity: int,
    saved: Sequence[int],
) -> None:
    """``saved`` is a feasible subset of ``items`` with the optimal value (SPEC 3.3)."""
    assert len(set(saved)) == len(saved), f"duplicate items in {list(saved)}"
    assert set(saved) <= set(items), f"{list(saved)} not a subset of {list(items)}"
    weight = sum(weights[i] for i in saved)
    assert weight <= capacity, f"selection weighs {weight} > C={capacity}"
    optimum = _last_row(weights, values, items, capacity)[capacity]
    value = sum(values[i] for i in saved)
    assert value == optimum, f"selection value {value} != OPT {optimum}"
