"""Identical items as one item type: the 0/1 knapsack as a bounded knapsack (proofs/10).

A real partitioner call repeats its model's blocks, so many items share the
same quantized weight and the same runtime: a 576-item call from a 96-block
transformer has 5 distinct ``(w_i, v_i)`` pairs. Items of one *type* ``t``
(weight ``w_t``, value ``v_t``, ``m_t`` copies) are interchangeable, so the
0/1 problem is the bounded knapsack::

    maximise  sum_t v_t * k_t   subject to  sum_t w_t * k_t <= Q,  0 <= k_t <= m_t.

Binary splitting turns it back into a 0/1 problem over *bundles*: type ``t``
becomes bundles of ``1, 2, 4, ..., 2**(p-1)`` copies and a remainder
``r = m_t - (2**p - 1)`` (omitted when 0), with ``p = floor(log2(m_t + 1))``
(:func:`bundle_sizes`). A bundle of ``s`` copies weighs ``s * w_t`` and is worth
``s * v_t``. The subset sums of the sizes are exactly ``0..m_t`` (Lemma 10.1),
so the bundles' optimum equals the 0/1 optimum and any optimal bundle
selection maps to an optimal item selection (Lemma 10.2). About
``sum_t log2(m_t + 1)`` bundles replace ``n`` items.

Copies: a type saved ``k`` times saves its ``k`` lowest-indexed copies
(SPEC 6.3, :func:`lowest_copies`, the one place that rule is written: the
bounded path, the bundles, the typed front of :mod:`.repeated` and the
normalisation of ungrouped selections all map back through it), so the
choice among copies never depends on the path taken.

Types are keyed by the exact integers ``(w_i, v_i)`` (the quantized weight and
the scaled runtime of SPEC 3.1): runtimes that differ in the last bit are
different types. Time O(n) expected (one dict pass) plus O(sum_t log m_t).

Reference: H. Kellerer, U. Pferschy, D. Pisinger, *Knapsack Problems*,
Springer 2004, sec. 7.1.1 (transformation of the bounded into the 0/1 knapsack).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress


@dataclass(frozen=True)
class Types:
    """The item types of one instance, numbered by first copy (SPEC 6.3).

    Attributes:
        weights, values: ``w_t`` and ``v_t`` of each type ``t``.
        copies: ``m_t``, how many items are of type ``t``.
        of_item: the type of each item: a ``bytes`` string when there are at
            most 256 types (C-speed mapping back), else a list.
    """

    weights: list[int]
    values: list[int]
    copies: list[int]
    of_item: bytes | list[int]

    @property
    def saved_by_bundles(self) -> int:
        """Items binary splitting removes: ``sum_t (m_t - bundles(m_t))``."""
        return sum([m - bundle_count(m) for m in self.copies if m > 2])

    def counts(self, saved: Sequence[int]) -> list[int]:
        """How many copies of each type the selection ``saved`` holds."""
        counts = [0] * len(self.copies)
        for t in map(self.of_item.__getitem__, saved):
            counts[t] += 1
        return counts


def item_types(weights: Sequence[int], values: Sequence[int]) -> Types:
    """The types of the items ``(w_i, v_i)``, numbered by first copy. Time O(n)
    expected: C loops (``zip``, ``Counter``, ``map``).

    Keyed by the pair ``(w_i, v_i)``: a tuple's hash mixes its fields, so
    values that are multiples of large powers of two (flop counts, whose int
    hashes share their low bits) do not collide as bare ints would.
    """
    if len(weights) != len(values):
        raise ValueError(f"{len(weights)} weights but {len(values)} values")
    pairs = list(zip(weights, values, strict=True))
    copies = Counter(pairs)  # ordered by first copy
    number = {pair: t for t, pair in enumerate(copies)}
    ids = list(map(number.__getitem__, pairs))
    return Types(
        [w for w, _ in copies],
        [v for _, v in copies],
        list(copies.values()),
        bytes(ids) if len(copies) <= 256 else ids,
    )


_FLIP = bytes.maketrans(b"\x00\x01", b"\x01\x00")


def lowest_copies(types: Types, counts: Sequence[int]) -> bytearray:
    """SPEC 6.3: the selection saving the ``counts[t]`` lowest-indexed copies of
    each type ``t``, as one byte per item (1: saved).

    The bijection of Lemma 10.2 between count vectors ``0 <= k_t <= m_t`` and
    the selections that save a prefix of each type's copies. With ``bytes``
    types, in C loops: ``bytes.translate`` marks the types saved whole, and
    each type saved in part is marked on the prefix that holds its ``k_t``
    copies (:func:`first_items_end`), from the longest prefix down.
    """
    full, partial = bytearray(max(256, len(counts))), []
    for t, (k, m) in enumerate(zip(counts, types.copies, strict=True)):
        if not 0 <= k <= m:
            raise ValueError(f"{k} copies requested of a type that has {m}")
        if k == m:
            full[t] = 1
        elif k:
            partial.append(t)
    of_item = types.of_item
    if isinstance(of_item, bytes):
        saved = bytearray(of_item.translate(full))
        ends = sorted(((first_items_end(of_item, t, counts[t]), t) for t in partial), reverse=True)
        # A type marked earlier has every copy before this end saved.
        for end, t in ends:
            full[t] = 1
            saved[:end] = of_item[:end].translate(full)
        return saved
    saved = bytearray(map(full.__getitem__, of_item))
    left = {t: counts[t] for t in partial}
    for i, t in enumerate(of_item):
        if left.get(t):
            saved[i] = 1
            left[t] -= 1
    return saved


def first_items_end(of_item: bytes, t: int, k: int) -> int:
    """The least ``end`` such that ``of_item[:end]`` holds ``k`` items of type
    ``t`` (``1 <= k <=`` its copies): the ``k`` lowest-indexed copies are the
    type's items before ``end`` (SPEC 6.3). Bisection on ``bytes.count``."""
    low, high = k, len(of_item)  # count(:low) <= k <= count(:high)
    while low < high:
        middle = (low + high) // 2
        if of_item.count(t, 0, middle) < k:
            low = middle + 1
        else:
            high = middle
    return low


def ascending(selection: bytearray) -> list[int]:
    """The saved items of a one-byte-per-item selection, ascending."""
    return list(compress(range(len(selection)), selection))


def descending_rest(selection: bytearray) -> list[int]:
    """The items a one-byte-per-item selection leaves out, descending."""
    n = len(selection)
    return list(compress(range(n - 1, -1, -1), selection.translate(_FLIP)[::-1]))


def bundle_sizes(copies: int) -> list[int]:
    """Binary splitting of ``copies >= 1``: ``1, 2, ..., 2**(p-1)`` and the remainder.

    Every count ``0..copies`` is the sum of a subset of the sizes, and no
    subset sums to more (Lemma 10.1).

    >>> bundle_sizes(1), bundle_sizes(6), bundle_sizes(7)
    ([1], [1, 2, 3], [1, 2, 4])
    """
    sizes, power = [], 1
    while 2 * power - 1 <= copies:  # the sizes so far and ``power`` sum to 2 * power - 1
        sizes.append(power)
        power *= 2
    remainder = copies - (power - 1)
    if remainder:
        sizes.append(remainder)
    return sizes


def bundle_count(copies: int) -> int:
    """``len(bundle_sizes(copies))`` without building the list: ``p =
    floor(log2(copies + 1))`` powers, plus the remainder unless ``copies + 1``
    is a power of two."""
    powers = (copies + 1).bit_length() - 1
    return powers + (1 if (copies + 1) & copies else 0)


@dataclass(frozen=True)
class Bundles:
    """The bundle instance of some item types (every type split by
    :func:`bundle_sizes`).

    Attributes:
        weights, values: of each bundle (``size * w_t``, ``size * v_t``).
        bundle_type: the type index of each bundle.
        bundle_size: the copies each bundle stands for.
    """

    weights: list[int]
    values: list[int]
    bundle_type: list[int]
    bundle_size: list[int]

    def counts(self, n_types: int, bundles: Sequence[int]) -> list[int]:
        """How many copies of each type the bundle selection ``bundles`` saves."""
        counts = [0] * n_types
        for b in bundles:
            counts[self.bundle_type[b]] += self.bundle_size[b]
        return counts


def bundles_of(types: Types) -> Bundles:
    """Split every type into bundles (:func:`bundle_sizes`)."""
    bundle_weights, bundle_values, bundle_type, bundle_size = [], [], [], []
    for t, (w, v, m) in enumerate(zip(types.weights, types.values, types.copies, strict=True)):
        for size in bundle_sizes(m):
            bundle_weights.append(size * w)
            bundle_values.append(size * v)
            bundle_type.append(t)
            bundle_size.append(size)
    return Bundles(bundle_weights, bundle_values, bundle_type, bundle_size)
