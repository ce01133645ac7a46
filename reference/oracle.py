"""Exact optimum of the quantized 0/1 knapsack, independent of the DP table.

The optimum is defined over subsets (SPEC 3.2)::

    OPT = max { sum(v_i for i in S) : S subset of items, sum(w_i for i in S) <= Q }

with ``v_i`` the exact rational value of the float64 runtime. Two independent
methods compute it, both exactly:

* :func:`brute_force` enumerates all ``2**n`` subsets in :class:`Fraction`
  arithmetic: the definition itself.
  Time O(2**n * n); for n <= 20.
* :func:`pareto_optimum` keeps the Pareto frontier of reachable
  ``(weight, value)`` pairs (values scaled exactly into integers), adding
  one item at a time and dropping every pair that another pair dominates
  (no heavier and no less valuable). Invariant: after item ``i`` the
  frontier holds, for every weight ``c <= Q`` at which the best value over
  subsets of items ``0..i`` improves, one subset achieving it.
  Time O(n * F log F) with F <= min(Q + 1, 2**n) frontier pairs.

Neither method shares code with the table of :mod:`.table` beyond validation
and quantization, which SPEC 2 fixes and the tests check on their own.

Reference: Nemhauser and Ullmann, "Discrete dynamic programming and capital
allocation", Management Science 15(9), 1969 (the dominance list method).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .validation import Instance, integer_runtimes, validate

BRUTE_FORCE_MAX_ITEMS = 20
AUTO_BRUTE_FORCE_MAX_ITEMS = 8


@dataclass(frozen=True)
class OracleResult:
    """The exact optimum and one optimal selection (indices ascending)."""

    value: Fraction
    saved: tuple[int, ...]


def _selection(mask: int, n: int) -> tuple[int, ...]:
    return tuple(i for i in range(n) if mask >> i & 1)


def brute_force(instance: Instance) -> OracleResult:
    """Maximise over every subset (SPEC 3.2 verbatim). Time O(2**n * n)."""
    if instance.n > BRUTE_FORCE_MAX_ITEMS:
        raise ValueError(
            f"brute_force enumerates 2**n subsets; n={instance.n} exceeds {BRUTE_FORCE_MAX_ITEMS}"
        )
    values = [Fraction(r) for r in instance.runtimes]
    best_value, best_mask = Fraction(0), 0
    for mask in range(1 << instance.n):
        chosen = _selection(mask, instance.n)
        if sum(instance.weights[i] for i in chosen) > instance.capacity:
            continue
        value = sum((values[i] for i in chosen), Fraction(0))
        if value > best_value:
            best_value, best_mask = value, mask
    return OracleResult(best_value, _selection(best_mask, instance.n))


def pareto_optimum(instance: Instance) -> OracleResult:
    """Sparse exact DP over the Pareto frontier of (weight, value) pairs.

    Values are the runtimes scaled by one power of two into integers
    (:func:`integer_runtimes`, exact), which is much faster than adding
    fractions; the optimum is scaled back into a :class:`Fraction`.
    Time O(n * F log F), memory O(F) pairs, F <= min(Q + 1, 2**n).
    """
    values, shift = integer_runtimes(instance.runtimes)
    frontier: list[tuple[int, int, int]] = [(0, 0, 0)]
    for i, (w, v) in enumerate(zip(instance.weights, values, strict=True)):
        extended = [
            (weight + w, value + v, mask | 1 << i)
            for weight, value, mask in frontier
            if weight + w <= instance.capacity
        ]
        merged = sorted(frontier + extended, key=lambda pair: (pair[0], -pair[1]))
        frontier = []
        for pair in merged:
            if not frontier or pair[1] > frontier[-1][1]:
                frontier.append(pair)
    _, value, mask = frontier[-1]
    return OracleResult(Fraction(value, 2**shift), _selection(mask, instance.n))


def exact_optimum(memory: object, runtime: object, max_memory: object) -> OracleResult:
    """Exact optimum for raw solver arguments (validated as SPEC 1 says).

    Uses :func:`brute_force` for ``n <= 8`` and :func:`pareto_optimum` above.
    """
    instance = validate(memory, runtime, max_memory)
    if instance.n <= AUTO_BRUTE_FORCE_MAX_ITEMS:
        return brute_force(instance)
    return pareto_optimum(instance)
