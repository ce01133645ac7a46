"""The breadth phase's calls again, their values in the other real types SPEC 1 accepts.

SPEC 1.2 accepts every ``numbers.Real`` but ``bool`` (``int``, ``float``,
numpy integer and floating scalars) and SPEC 1.5 accepts ``-0.0``; SPEC 4.4's
partitioner domain is every valid input with runtimes >= 0. The partitioner
itself passes Python floats for memories, ints for the ``flops`` and
``testing`` estimators' runtimes, and ``max(budget, 0)``: the int ``0`` for a
negative budget. A fast path that branches on a value's type
(``isinstance(max_memory, float)``, a numpy scalar's fixed-width sum) or on a
zero's sign answers another instance than the floats the audit draws.

:func:`other_types_calls` writes, per item count's bit length (0, 1, 2-3,
4-7, ...), the first call of the breadth phase of at most
:data:`TYPES_CELLS` cells that has what a rewriting needs, again:

- *signed zeros*: every zero memory, and a zero budget, as ``-0.0``;
- *Python ints*: every whole value as an ``int``;
- *numpy scalars*: memories and budget as ``numpy.float64``, whole runtimes
  as ``numpy.int32`` where all fit in it (else ``numpy.int64``), the others
  as ``numpy.float64``;
- *numpy totals past a width*: whole runtimes times the least factor that
  takes their total past ``2**31`` (as ``numpy.int32``), or past ``2**63``
  (as ``numpy.int64``), each runtime still within the type: Python's
  ``sum`` of such scalars wraps around, with only a warning;
- *a leading int*: the first runtime truncated to an ``int`` before
  runtimes that are not whole (a new instance);
- *Python ints past int64*: whole runtimes times the least factor that
  takes the largest past ``2**63``, as Python ints;
- *a whole budget*: the weights scaled to about twice 1 GB in all, and the
  budget the int ``1`` (at most :data:`WHOLE_BUDGET_CELLS` cells).
- *zero budgets*: the budget ``-0.0`` (``max(budget, 0)`` keeps a ``-0.0``)
  and the int ``0`` (the partitioner's ``max(budget, 0)`` of a negative
  budget), on a call with a free item (zero weight, positive runtime): its
  free items still fit (SPEC 1.5, 2.2), whatever the zero's sign or type.

The signed zeros, ints and numpy scalars keep every value, so the optimum
is the original's (and a case equal to its original by ``==`` shares its
judged optimum); the others are new instances, judged by the oracle like any
other.
Not passed (SPEC 4.5): ``fractions.Fraction`` and ``numpy.float32``
values. SPEC 1.2 accepts them and SPEC 2.1 quantizes ``float(m)``, but
upstream multiplies them as they come (``round(m * 10000)``: exactly for a
Fraction, ``Fraction(3, 20000)`` weighing 2 units, not 1; in float32 for a
numpy float32, ``np.float32(0.00025)`` weighing 2, not 3), and the
partitioner passes neither; a finding there would cry wolf
on upstream's own ``dp_knapsack``. Our own solvers are checked on both
(tests/test_spec_inputs.py).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from knapsack_audit.cases import Case
from knapsack_audit.scaling import table_cells
from knapsack_audit.strategies import SCALE, unit_memory

TYPES_CELLS = 4_000_000
"""Largest table of a rewritten call: a pure-Python table solver answers it in seconds."""

WHOLE_BUDGET_CELLS = 12_000_000
"""Largest table of a whole-budget call (``n * 10001`` cells: up to 1199 items)."""

WHOLE_BUDGET = 1
"""The whole budget, in GB, as an ``int``."""


def other_types_calls(calls: Sequence[Case]) -> list[Case]:
    """The rewritings of :mod:`this module <knapsack_audit.real_types>` of
    ``calls``, per rewriting, in the order of their originals.

    >>> calls = [Case.of([0.0, 0.0001], [2.0, 0.5], 0.0), Case.of([0.5] * 4, [1.0] * 4, 1.0)]
    >>> for case in other_types_calls(calls):
    ...     print(case.as_call())
    solver([-0.0, 0.0001], [2.0, 0.5], -0.0)
    solver([0, 0.0001], [2, 0.5], 0)
    solver([0.5] * 4, [1] * 4, 1)
    solver([np.float64(0.0), np.float64(0.0001)], [np.int32(2), np.float64(0.5)], np.float64(0.0))
    solver([np.float64(0.5)] * 4, [np.int32(1)] * 4, np.float64(1.0))
    solver([np.float64(0.5)] * 4, [np.int32(536870912)] * 4, np.float64(1.0))
    solver([np.float64(0.5)] * 4, [np.int64(2305843009213693952)] * 4, np.float64(1.0))
    solver([0.5] * 4, [9223372036854775809] * 4, 1.0)
    solver([0.0, 0.0001], [2, 0.5], 0.0)
    solver([0.0, 2.0], [2.0, 0.5], 1)
    solver([0.5] * 4, [1.0] * 4, 1)
    solver([0.0, 0.0001], [2.0, 0.5], -0.0)
    solver([0.0, 0.0001], [2.0, 0.5], 0)
    """
    small = [case for case in calls if table_cells(case) <= TYPES_CELLS]
    return [
        *_each(small, signed_zeros),
        *_each(small, as_python_ints),
        *_each(small, as_numpy_scalars),
        *_each(small, functools.partial(numpy_total_past, np.int32)),
        *_each(small, functools.partial(numpy_total_past, np.int64)),
        *_each(small, python_ints_past_int64),
        *_each(small, leading_int_runtime),
        *_each(calls, whole_budget),
        *_each(calls, functools.partial(zero_budget, -0.0)),
        *_each(calls, functools.partial(zero_budget, 0)),
    ]


def _each(calls: Sequence[Case], rewrite: Callable[[Case], Case | None]) -> list[Case]:
    """Per item count's bit length, ``rewrite`` of the first call it applies to
    (:func:`first_of_each_size` with the identity)."""
    chosen: dict[int, Case] = {}
    for case in calls:
        bucket = case.n.bit_length()
        if bucket not in chosen and (rewritten := rewrite(case)) is not None:
            chosen[bucket] = rewritten
    return list(chosen.values())


def first_of_each_size(calls: Sequence[Case], most_cells: int = TYPES_CELLS) -> list[Case]:
    """Of ``calls``, the first of every item count's bit length with at most
    ``most_cells`` table cells, in their order.

    >>> calls = [Case.of([0.1] * n, [1.0] * n, 0.5) for n in (1, 3, 2, 9)]
    >>> [case.n for case in first_of_each_size(calls)]
    [1, 3, 9]
    """
    return _each([case for case in calls if table_cells(case) <= most_cells], lambda case: case)


def signed_zeros(case: Case) -> Case | None:
    """``case`` with every zero memory and a zero budget as ``-0.0``; ``None``
    if it has none."""
    if all(m != 0 for m in case.memory) and case.max_memory != 0:
        return None
    memory = tuple(-0.0 if m == 0 else m for m in case.memory)
    return Case(memory, case.runtime, -0.0 if case.max_memory == 0 else case.max_memory)


def as_python_ints(case: Case) -> Case | None:
    """``case`` with every whole value as an ``int``; ``None`` if it has no
    whole runtime (a whole memory or budget alone is mostly 0)."""
    if not any(_whole(r) for r in case.runtime):
        return None
    return Case(
        tuple(map(_int_if_whole, case.memory)),
        tuple(map(_int_if_whole, case.runtime)),
        _int_if_whole(case.max_memory),
    )


def as_numpy_scalars(case: Case) -> Case | None:
    """``case`` in numpy scalars: memories and budget ``float64``, whole
    runtimes ``int32`` if every whole one fits in it, else ``int64``, the
    others ``float64``; ``None`` for an empty case."""
    if case.n == 0:
        return None
    whole = [int(r) for r in case.runtime if _whole(r)]
    fits = all(-(2**31) <= r < 2**31 for r in whole)
    integer = np.int32 if fits else np.int64
    runtime = tuple(integer(int(r)) if _whole(r) else np.float64(r) for r in case.runtime)
    return Case(tuple(map(np.float64, case.memory)), runtime, np.float64(case.max_memory))


PAST_INT64_CELLS = 1_000_000
"""Largest table of the calls whose runtimes pass ``2**63`` in all
(:func:`numpy_total_past` for int64) or one by one
(:func:`python_ints_past_int64`): the exact oracle sums such ints as Python
ints, about 2.6 s at 3.6e6 cells (0.5 s at 1.5e6), and the breadth calls
after them reach fewer leftovers in the rounds."""


def numpy_total_past(integer: type[np.signedinteger[Any]], case: Case) -> Case | None:
    """``case`` in numpy scalars, its runtimes, all whole and >= 0, times the
    least factor that takes their total past ``integer``'s largest value, as
    ``integer``; ``None`` if some runtime is not whole or negative, or one
    would not fit, or (int64) its table passes :data:`PAST_INT64_CELLS`.

    >>> numpy_total_past(np.int32, Case.of([0.0001] * 3, [1.0, 2.0, 3.0], 0.0002)).runtime
    (np.int32(357913942), np.int32(715827884), np.int32(1073741826))
    """
    largest = int(np.iinfo(integer).max)
    if case.n < 2 or (integer is np.int64 and table_cells(case) > PAST_INT64_CELLS):
        return None
    runtime = _whole_counts(case)
    if runtime is None:
        return None
    factor = largest // max(sum(runtime), 1) + 1
    if max(runtime) * factor > largest:
        return None
    return Case(
        tuple(map(np.float64, case.memory)),
        tuple(integer(r * factor) for r in runtime),
        np.float64(case.max_memory),
    )


def python_ints_past_int64(case: Case) -> Case | None:
    """``case`` with every runtime, all whole and >= 0, times the least
    factor that takes the largest past ``2**63``, as Python ints (the
    memories and budget kept); ``None`` if some runtime is not whole or
    negative, or all are 0, or its table passes :data:`PAST_INT64_CELLS`.
    A Python int has no width: a fast path that puts them in an int64
    tensor (``torch.tensor(runtime)`` infers int64) raises on them, where
    upstream's float32 reads them.

    >>> python_ints_past_int64(Case.of([0.0001] * 2, [1.0, 3.0], 0.0001)).runtime
    (3074457345618258603, 9223372036854775809)
    """
    if case.n == 0 or table_cells(case) > PAST_INT64_CELLS:
        return None
    runtime = _whole_counts(case)
    if runtime is None or max(runtime) == 0:
        return None
    factor = 2**63 // max(runtime) + 1
    return Case(case.memory, tuple(r * factor for r in runtime), case.max_memory)


LEADING_INT_TOTAL = 2**20
"""``(n + 1)`` times the largest sum of runtime magnitudes
:func:`leading_int_runtime` rewrites: SPEC 5.2's tolerance,
``2 * gamma(n + 1) * sum|v|``, stays under about ``1/8`` there."""


def leading_int_runtime(case: Case) -> Case | None:
    """``case`` with its first runtime an ``int`` (truncated: ``0`` for
    ``0.37``) before runtimes that are not whole; ``None`` if every other
    runtime is whole, or if their magnitudes sum past
    :data:`LEADING_INT_TOTAL` over ``n + 1`` (SPEC 5.2's float32 tolerance
    would then pass ``1/8``, and a value that lost its fraction could hide
    in it). A new instance, judged by the oracle. A list of mixed types is
    valid (SPEC 1.2): a fast path that reads the list's type from its
    first entry (``type(runtime[0])(total)``) truncates the value.

    >>> leading_int_runtime(Case.of([0.1, 0.2], [0.5, 1.25], 0.3)).runtime
    (0, 1.25)
    >>> leading_int_runtime(Case.of([0.1, 0.2], [0.5, 1e6 + 0.5], 0.3)) is None
    True
    """
    if case.n < 2 or all(_whole(r) for r in case.runtime[1:]):
        return None
    if sum(abs(float(r)) for r in case.runtime) > LEADING_INT_TOTAL / (case.n + 1):
        return None
    first = float(case.runtime[0])
    if not math.isfinite(first) or abs(first) >= 2**63:
        return None
    return Case(case.memory, (math.trunc(first), *case.runtime[1:]), case.max_memory)


def whole_budget(case: Case) -> Case | None:
    """``case``'s items, their weights scaled to about twice
    :data:`WHOLE_BUDGET` GB in all (each positive weight at least 1 unit),
    under the budget :data:`WHOLE_BUDGET` as an ``int``; ``None`` if the
    table would pass :data:`WHOLE_BUDGET_CELLS` cells or no item has weight."""
    weights = [round(m * SCALE) for m in case.memory]
    total = sum(weights)
    units = WHOLE_BUDGET * SCALE
    if total == 0 or case.n * (units + 1) > WHOLE_BUDGET_CELLS:
        return None
    scaled = [0 if w == 0 else max(1, round(w * 2 * units / total)) for w in weights]
    return Case(tuple(map(unit_memory, scaled)), case.runtime, WHOLE_BUDGET)


def zero_budget(zero: float, case: Case) -> Case | None:
    """``case`` under the budget ``zero`` (``-0.0`` or the int ``0``); ``None``
    if it has no free item (zero weight, positive runtime), whose saving is
    the whole optimum then.

    >>> zero_budget(-0.0, Case.of([0.0, 0.5], [2.0, 1.0], 0.5)).as_call()
    'solver([0.0, 0.5], [2.0, 1.0], -0.0)'
    """
    items = zip(case.memory, case.runtime, strict=True)
    if not any(round(m * SCALE) == 0 and r > 0 for m, r in items):
        return None
    return Case(case.memory, case.runtime, zero)


def _whole_counts(case: Case) -> list[int] | None:
    """``case``'s runtimes as ints, if all are whole and >= 0."""
    if not all(_whole(r) and r >= 0 for r in case.runtime):
        return None
    return [int(r) for r in case.runtime]


def _whole(value: Any) -> bool:
    return float(value).is_integer() and abs(value) < 2**63


def _int_if_whole(value: Any) -> Any:
    return int(value) if _whole(value) else value
