"""Calls with repeated items: from the raw lists to the answer in a few C loops.

A real partitioner call repeats its model's blocks: 209 to 1057 items with 4
to 20 distinct ``(memory, runtime)`` pairs (the golden ``flops`` calls). The
general pipeline of :mod:`.solver` (``validate``, ``integer_runtimes``,
``type_counts``, ``first_copies``, ``format_result``) walks the items about
twenty times. :func:`read_types` walks them three times at Python-object
speed (the entry types of each list, and one pass that numbers the raw pairs
by first copy into a ``bytes`` string), plus a ``set`` of the first 257
runtimes, and does every check, quantization and scaling once per distinct
raw pair; ``bytes.translate`` and ``bytes.count`` give the types and their
copies. :meth:`TypedCall.answer` maps the counts per type back to items
through :func:`.grouping.lowest_copies` (a few more ``bytes`` and ``compress``
passes). Every check is the reference's
(:func:`~knapsack_audit.reference.validation.quantized_budget`,
:func:`~knapsack_audit.reference.validation.as_finite_float`), run once per
distinct raw pair: this module holds no validation rule of its own.

Same answer as the general pipeline, bit for bit, whenever :func:`read_types`
accepts a call (``tests/test_repeated.py`` checks it):

- the same types in the same order: raw pairs ``(m_i, r_i)`` with equal
  quantized weight and equal ``float(r_i)`` merge into one type (SPEC 6.3),
  numbered by first copy, as :func:`.grouping.item_types` numbers the pairs
  ``(q_i, v_i)``; the runtimes are scaled by the same power of two as
  ``integer_runtimes`` (the largest denominator of the distinct ones is that
  of all of them);
- so the same counts per type, the same lowest-indexed copies (SPEC 6.3),
  and the value ``float(exact sum)`` (SPEC 7.1): Python's int true division
  is correctly rounded, as ``math.fsum`` is.

It declines (``None``: the general pipeline runs, and raises SPEC 1's errors)
on anything else: entries that are not exactly ``float`` or ``int``, a
non-finite or negative value, a sum of absolute runtimes beyond float64
(SPEC 1.3), distinct runtimes (no copies; the general path's own case), too
few copies for grouping to pay, too many types for :mod:`.bounded` or for a
byte (:data:`MAX_RAW_PAIRS`, :data:`PROBE_MAX_PAIRS`). A decline is always
safe: the general pipeline answers every valid call.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import count
from typing import TypeVar

from knapsack_audit.reference.validation import (
    as_finite_float,
    integer_runtimes,
    quantized_budget,
)

from .grouping import Types, ascending, descending_rest, lowest_copies

_NUMBERS = frozenset((float, int))
_T = TypeVar("_T")


MAX_RAW_PAIRS = 256
"""At most this many distinct raw pairs ``(m_i, r_i)``, so that each item's pair,
and its type, is one byte: ``bytes.translate`` maps pairs to types and
``bytes.count`` counts copies at C speed."""


PROBE_ITEMS = 64
PROBE_MAX_PAIRS = 32
"""With grouping as usual, :func:`read_types` numbers the first
:data:`PROBE_ITEMS` items first and declines if they hold more than
``PROBE_MAX_PAIRS`` distinct raw pairs: real calls have at most 20 types
(the golden ``flops`` calls; none declines), while on a call of hundreds of
types the pass would mostly run into more raw pairs than a byte numbers.
Measured in process (min of 30) on Pisinger uncorrelated n = 1000,
Q = 5000 (19 runtimes, 332 types): the solver 1.72 ms with the wasted pass
against 1.55 ms without the front."""


@dataclass(frozen=True)
class TypedCall:
    """A validated call as item types (SPEC 1, 2, 3.1, 6.3).

    ``types`` (values: runtimes times ``2**shift``, exact integers; ``of_item``
    a ``bytes`` string), ``capacity`` the quantized budget.
    """

    types: Types
    capacity: int
    shift: int

    @property
    def n(self) -> int:
        """Number of items."""
        return len(self.types.of_item)

    @property
    def weight_total(self) -> int:
        """``sum_i q_i``."""
        return sum(map(int.__mul__, self.types.weights, self.types.copies))

    def answer(self, counts: list[int]) -> tuple[float, list[int], list[int]]:
        """SPEC 7's triple for ``counts[t]`` copies of each type: the
        lowest-indexed ones (SPEC 6.3), ``saved`` ascending, ``recomputable``
        descending, the value ``float`` of the exact sum (SPEC 7.1)."""
        selection = lowest_copies(self.types, counts)
        total = sum(map(int.__mul__, counts, self.types.values))
        value = total / (1 << self.shift)  # correctly rounded (exact ints)
        return value, ascending(selection), descending_rest(selection)


def read_types(
    memory: object, runtime: object, max_memory: object, min_saved_items: int, max_types: int
) -> TypedCall | None:
    """The call as item types, or ``None`` for the general pipeline (module
    docstring): grouping must remove at least ``min_saved_items`` items by
    binary splitting (:attr:`.grouping.Types.saved_by_bundles`, as
    ``solve_integers`` decides), into at most ``max_types`` types, from at
    most :data:`MAX_RAW_PAIRS` distinct raw pairs."""
    if type(memory) not in (list, tuple) or type(runtime) not in (list, tuple):
        return None
    assert isinstance(memory, (list, tuple)) and isinstance(runtime, (list, tuple))
    n = len(memory)
    if len(runtime) != n or type(max_memory) not in _NUMBERS:
        return None
    if min_saved_items > 0:
        head = runtime[: MAX_RAW_PAIRS + 1]
        try:
            distinct = len(set(head))
        except TypeError:  # unhashable: invalid, the general pipeline says why
            return None
        if distinct == len(head):
            # No copies among the first 257: none at all (n <= 256), or more
            # raw pairs than a byte numbers. The general pipeline (decided
            # first: the common case of independent runtimes).
            return None
    budget = _or_none(quantized_budget, max_memory)
    if budget is None:
        return None
    # Each distinct raw pair numbered by its first copy, in C loops: the probe,
    # then the rest. Entries are hashed only once known to be floats or ints.
    numbering: defaultdict[tuple[object, object], int] = defaultdict(count().__next__)
    number = numbering.__getitem__
    probe = (memory[:PROBE_ITEMS], runtime[:PROBE_ITEMS])
    if not _numbers_only(*probe):
        return None
    raw_ids = bytes(map(number, zip(*probe, strict=True)))
    if min_saved_items > 0 and len(numbering) > PROBE_MAX_PAIRS:
        return None
    rest = (memory[PROBE_ITEMS:], runtime[PROBE_ITEMS:])
    if not _numbers_only(*rest):
        return None
    try:
        raw_ids += bytes(map(number, zip(*rest, strict=True)))
    except ValueError:  # more than MAX_RAW_PAIRS distinct pairs: not a byte
        return None
    quantized = [_or_none(quantized_budget, m) for m, _ in numbering]
    floats = [_or_none(as_finite_float, r) for _, r in numbering]
    if None in quantized or None in floats:
        return None
    # integer_runtimes on the distinct runtimes: the same shift as on all
    # items, their denominators being the same set of powers of two
    scaled, shift = integer_runtimes(floats)  # type: ignore[arg-type]
    weights, values, type_of = merge_types(quantized, scaled)  # type: ignore[arg-type]
    if len(weights) > max_types:
        return None
    of_item = raw_ids.translate(bytes(type_of).ljust(256, b"\0"))
    copies = list(map(of_item.count, range(len(weights))))
    try:  # SPEC 1.3: sum |r_i| must be a finite float64
        sum(abs(v) * m for v, m in zip(values, copies, strict=True)) / (1 << shift)
    except OverflowError:
        return None
    types = Types(weights, values, copies, of_item)
    if types.saved_by_bundles < min_saved_items:
        return None
    return TypedCall(types, budget, shift)


def merge_types(weights: list[int], values: list[int]) -> tuple[list[int], list[int], list[int]]:
    """SPEC 6.3's types from the distinct raw pairs (in order of first copy),
    given their quantized weights and scaled values: pairs with equal
    ``(q, v)`` are one type, numbered by its first raw pair. Returns the
    types' weights and values, and each raw pair's type."""
    number: dict[tuple[int, int], int] = {}
    type_of = [number.setdefault(pair, len(number)) for pair in zip(weights, values, strict=True)]
    return [q for q, _ in number], [v for _, v in number], type_of


def _or_none(check: Callable[[object], _T], value: object) -> _T | None:
    """``check(value)``, or ``None`` where it raises SPEC 1's errors (the
    general pipeline then raises them with their messages)."""
    try:
        return check(value)
    except (TypeError, ValueError):
        return None


def _numbers_only(memory: Sequence[object], runtime: Sequence[object]) -> bool:
    """Every entry exactly a ``float`` or an ``int`` (not ``bool``, not numpy)."""
    return set(map(type, memory)) <= _NUMBERS and set(map(type, runtime)) <= _NUMBERS
