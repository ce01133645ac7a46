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
copies. :meth:`TypedCall.answer` maps the counts per type back to items in
a few more ``bytes`` and ``compress`` passes.

Same answer as the general pipeline, bit for bit, whenever :func:`read_types`
accepts a call (``tests/test_repeated.py`` checks it):

- the same types in the same order: raw pairs ``(m_i, r_i)`` with equal
  quantized weight and equal ``float(r_i)`` merge into one type (SPEC 6.3),
  numbered by first copy, as ``grouping.type_counts`` numbers the pairs
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

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress, count
from typing import cast

from knapsack_audit.reference.validation import SCALE, integer_runtimes, quantize

from .grouping import bundle_count

_NUMBERS = frozenset((float, int))
_FLIP = bytes.maketrans(b"\x00\x01", b"\x01\x00")


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

    ``weights[t]``, ``values[t]`` (runtimes times ``2**shift``, exact
    integers) and ``copies[t]`` per type ``t``, numbered by first copy;
    ``capacity`` the quantized budget; byte ``item_types[i]`` the type of item ``i``.
    """

    weights: list[int]
    values: list[int]
    copies: list[int]
    capacity: int
    shift: int
    item_types: bytes

    @property
    def n(self) -> int:
        """Number of items."""
        return len(self.item_types)

    @property
    def weight_total(self) -> int:
        """``sum_i q_i``."""
        return sum(map(int.__mul__, self.weights, self.copies))

    def answer(self, counts: Sequence[int]) -> tuple[float, list[int], list[int]]:
        """SPEC 7's triple for ``counts[t]`` copies of each type: the
        lowest-indexed ones (SPEC 6.3), ``saved`` ascending, ``recomputable``
        descending, the value ``float`` of the exact sum (SPEC 7.1)."""
        saving = bytearray(256)  # saving[t]: type t's copies are saved (so far)
        partial = []
        for t, (k, m) in enumerate(zip(counts, self.copies, strict=True)):
            if not 0 <= k <= m:
                raise ValueError(f"{k} copies requested of a type that has {m}")
            if k == m:
                saving[t] = 1
            elif k:
                partial.append((first_items_end(self.item_types, t, k), t))
        saved = bytearray(self.item_types.translate(saving))
        # A partial type's saved copies are its copies before its end. From the
        # largest end down, each prefix is re-marked with the type added: a
        # type marked earlier has every copy before this end saved.
        for end, t in sorted(partial, reverse=True):
            saving[t] = 1
            saved[:end] = self.item_types[:end].translate(saving)
        total = sum(map(int.__mul__, counts, self.values))
        value = total / (1 << self.shift)  # correctly rounded (exact ints)
        n = len(saved)
        ascending = list(compress(range(n), saved))
        descending = list(compress(range(n - 1, -1, -1), saved.translate(_FLIP)[::-1]))
        return value, ascending, descending


def first_items_end(item_types: bytes, t: int, k: int) -> int:
    """The least ``end`` such that ``item_types[:end]`` holds ``k`` items of type
    ``t`` (``1 <= k <=`` its copies): the ``k`` lowest-indexed copies are the
    type's items before ``end`` (SPEC 6.3). Bisection on ``bytes.count``."""
    low, high = k, len(item_types)  # count(:low) <= k <= count(:high)
    while low < high:
        middle = (low + high) // 2
        if item_types.count(t, 0, middle) < k:
            low = middle + 1
        else:
            high = middle
    return low


def read_types(
    memory: object, runtime: object, max_memory: object, min_saved_items: int, max_types: int
) -> TypedCall | None:
    """The call as item types, or ``None`` for the general pipeline (module
    docstring): grouping must remove at least ``min_saved_items`` items by
    binary splitting (:func:`.grouping.bundle_count`, as ``solve_integers``
    decides), into at most ``max_types`` types, from at most
    :data:`MAX_RAW_PAIRS` distinct raw pairs."""
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
    budget = _valid_memory(max_memory)
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
    quantized = [_valid_memory(m) for m, _ in numbering]
    floats = [_finite_float(r) for _, r in numbering]
    if None in quantized or None in floats:
        return None
    # integer_runtimes on the distinct runtimes: the same shift as on all
    # items, their denominators being the same set of powers of two
    scaled, shift = integer_runtimes(floats)  # type: ignore[arg-type]
    weights, values, type_of = merge_types(quantized, scaled)  # type: ignore[arg-type]
    if len(weights) > max_types:
        return None
    item_types = raw_ids.translate(bytes(type_of).ljust(256, b"\0"))
    copies = list(map(item_types.count, range(len(weights))))
    try:  # SPEC 1.3: sum |r_i| must be a finite float64
        sum(abs(v) * m for v, m in zip(values, copies, strict=True)) / (1 << shift)
    except OverflowError:
        return None
    if sum([m - bundle_count(m) for m in copies if m > 2]) < min_saved_items:
        return None
    return TypedCall(weights, values, copies, budget, shift, item_types)


def merge_types(weights: list[int], values: list[int]) -> tuple[list[int], list[int], list[int]]:
    """SPEC 6.3's types from the distinct raw pairs (in order of first copy),
    given their quantized weights and scaled values: pairs with equal
    ``(q, v)`` are one type, numbered by its first raw pair. Returns the
    types' weights and values, and each raw pair's type."""
    number: dict[tuple[int, int], int] = {}
    type_of = [number.setdefault(pair, len(number)) for pair in zip(weights, values, strict=True)]
    return [q for q, _ in number], [v for _, v in number], type_of


def _valid_memory(value: object) -> int | None:
    """``quantize(float(value))`` (SPEC 2.1, the reference's one definition) for a
    finite ``value >= 0`` whose product with ``SCALE`` is finite (SPEC 1.3,
    1.5), else ``None``."""
    as_float = _finite_float(value)
    if as_float is None or not (as_float >= 0 and math.isfinite(as_float * SCALE)):
        return None
    return quantize(as_float)


def _finite_float(value: object) -> float | None:
    """``float(value)`` when finite (SPEC 1.3), else ``None``."""
    try:
        as_float = float(cast(float, value))  # a float or an int: read_types checked
    except OverflowError:
        return None
    return as_float if math.isfinite(as_float) else None


def _numbers_only(memory: Sequence[object], runtime: Sequence[object]) -> bool:
    """Every entry exactly a ``float`` or an ``int`` (not ``bool``, not numpy)."""
    return set(map(type, memory)) <= _NUMBERS and set(map(type, runtime)) <= _NUMBERS
