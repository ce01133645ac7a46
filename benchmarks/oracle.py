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

from knapsack_audit.integer_oracle import instance_optimum
from knapsack_audit.reference import Instance, pareto_optimum


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
