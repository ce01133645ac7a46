"""The exact optimum of a benchmark cell, and where it came from.

Sources, in the order :func:`cell_optimum` tries them:

``pareto``
    :func:`knapsack_audit.reference.pareto_optimum`, the project's exact
    :class:`~fractions.Fraction` oracle, when ``n * min(Q, sum w)`` is at most
    ``pareto_limit`` (it is pure Python).
``ortools`` / ``milp``
    the exact integer value of a selection that OR-Tools' branch and bound, or
    scipy ``milp`` (HiGHS, relative gap 0), *proved* optimal in one of the
    benchmark runs. Both solve the problem on the quantized integer weights.
``int64_dp``
    :func:`int64_dp_value`: the one-row dynamic programme of
    :func:`knapsack_audit.integer_oracle.instance_optimum` over the integer
    runtimes, value only (numpy ``int64`` while every sum stays below
    ``2**62``, Python integers otherwise). Time O(n * C), memory O(C).

When several sources are available they are all recorded and compared; a
disagreement is reported in RESULTS.md.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from knapsack_audit.integer_oracle import instance_optimum
from knapsack_audit.reference import Instance, pareto_optimum
from knapsack_audit.reference.validation import format_result, integer_runtimes, validate


def int64_dp_value(instance: Instance) -> Fraction:
    """Exact optimum by the one-row table ``OPT(c) = max(OPT(c), v_i + OPT(c - w_i))``
    of :func:`knapsack_audit.integer_oracle.instance_optimum` (int64 while no
    sum can overflow, Python integers otherwise), with no width limit. Time
    O(n * C), memory O(C) cells, ``C = min(Q, sum w)``."""
    value = instance_optimum(instance, max_columns=None)
    assert value is not None  # no limit, so always an answer
    return value


def pareto_value(instance: Instance) -> Fraction:
    """Exact optimum from the project's Pareto-frontier oracle."""
    value: Fraction = pareto_optimum(instance).value
    return value


def int64_canonical_dp(
    memory: list[float], runtime: list[float], max_memory: float
) -> tuple[float, list[int], list[int]] | None:
    """:func:`knapsack_audit.reference.dp_knapsack`'s answer, the canonical
    selection of SPEC 6.1, from the full table ``OPT(i, c)`` in numpy int64:
    backtrack from the last item, leaving item ``i`` out whenever
    ``OPT(i - 1, c) == OPT(i, c)``. Exact because every entry is the value of a
    subset, below ``2**62`` in absolute value (checked; ``None`` otherwise).
    An independent exact solver for the knee searches of the multi-budget grid
    (the pure-Python reference takes seconds per budget at n = 481).
    Time and memory O(n * C) cells, ``C = min(Q, sum w)``.
    """
    instance = validate(memory, runtime, max_memory)
    values, _ = integer_runtimes(instance.runtimes)
    if sum(abs(v) for v in values) >= 2**62:
        return None
    weights = instance.weights
    columns = min(instance.capacity, sum(weights)) + 1
    table = np.zeros((len(weights) + 1, columns), dtype=np.int64)
    for i, (w, v) in enumerate(zip(weights, values, strict=True)):
        table[i + 1] = table[i]
        if w < columns:
            np.maximum(table[i, : columns - w] + v, table[i, w:], out=table[i + 1, w:])
    saved, c = [], columns - 1
    for i in range(len(weights) - 1, -1, -1):
        if table[i + 1, c] != table[i, c]:
            saved.append(i)
            c -= weights[i]
    return format_result(instance.runtimes, saved)
