"""Test support: the optimized solver with grouping forced on, SPEC 6.3 asserted
(:func:`solve_grouped`: types through :mod:`optimized.bounded` where it answers;
:func:`solve_bundled`: always as bundles).

A module-level ``module:function`` target, so the spawned workers of
:func:`knapsack_audit.exhaustive.verify_small_scope` can load it (they inherit
the test process's ``sys.path``, which holds ``tests/``). The knob is set only
for the duration of each call, so importing this module changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from knapsack_audit.optimized import dp_knapsack_sliding_hirschberg
from knapsack_audit.optimized.config import configured
from knapsack_audit.reference import quantize


def copies_violation(
    memory: Sequence[float], runtime: Sequence[float], saved: Sequence[int]
) -> str | None:
    """SPEC 6.3: of every set of copies (equal quantized weight, equal float
    runtime) the saved ones are the lowest-indexed; a description if not.
    Written from the clause, independent of ``optimized.grouping``."""
    copies: dict[tuple[int, float], list[int]] = {}
    for i, (m, r) in enumerate(zip(memory, runtime, strict=True)):
        copies.setdefault((quantize(float(m)), float(r)), []).append(i)
    chosen = set(saved)
    for indices in copies.values():
        count = sum(i in chosen for i in indices)
        if set(indices[:count]) != chosen & set(indices):
            kept = sorted(chosen & set(indices))
            return f"copies {indices}: saved {kept}, SPEC 6.3 wants {indices[:count]}"
    return None


def solve_grouped(
    memory: list[float], runtime: list[float], max_memory: float
) -> tuple[float, list[int], list[int]]:
    """:func:`dp_knapsack_sliding_hirschberg` with every instance grouped
    (``grouping_min_saved_items=0``); raises ``AssertionError`` on a SPEC 6.3
    violation."""
    with configured(grouping_min_saved_items=0):
        result = dp_knapsack_sliding_hirschberg(memory, runtime, max_memory)
    violation = copies_violation(memory, runtime, result[1])
    assert violation is None, f"solve_grouped({memory!r}, {runtime!r}, {max_memory!r}): {violation}"
    return result


def solve_bundled(
    memory: list[float], runtime: list[float], max_memory: float
) -> tuple[float, list[int], list[int]]:
    """:func:`solve_grouped` with the bounded path off (``bounded_types=False``):
    every instance solved as bundles (proofs/10)."""
    with configured(bounded_types=False):
        return solve_grouped(memory, runtime, max_memory)
