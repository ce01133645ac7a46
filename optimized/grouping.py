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
(SPEC 6.3, :func:`canonical_copies`). Ungrouped selections are normalised the
same way (:func:`normalise_copies`), so the choice among copies never
depends on the path taken.

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
from itertools import compress, islice


def item_types(weights: Sequence[int], values: Sequence[int]) -> list[list[int]]:
    """The types with at least two copies, each list ascending, ordered by first
    copy; every item not listed is alone of its type. Time O(n) expected: C
    loops (``set``, ``zip``, ``Counter``) plus one Python step per item.

    Keyed by the pair ``(w_i, v_i)``: a tuple's hash mixes its fields, so
    values that are multiples of large powers of two (flop counts, whose int
    hashes share their low bits) do not collide as bare ints would.
    """
    if len(weights) != len(values):
        raise ValueError(f"{len(weights)} weights but {len(values)} values")
    if len(set(values)) == len(values):
        # Distinct values, so distinct types: the common case of independent
        # runtimes, decided by one set of ints (0.4 ms at n = 5000).
        return []
    pairs = list(zip(weights, values, strict=True))
    return repeated_types(pairs, type_counts(pairs))


def repeated_types(
    pairs: Sequence[tuple[int, int]], copies: Counter[tuple[int, int]]
) -> list[list[int]]:
    """:func:`item_types` from the pairs ``(w_i, v_i)`` and their :func:`type_counts`."""
    if len(copies) == len(pairs):
        return []
    number = {pair: t for t, pair in enumerate(copies)}  # by first copy
    members: list[list[int]] = [[] for _ in number]
    appenders = [indices.append for indices in members]
    for i, t in enumerate(map(number.__getitem__, pairs)):
        appenders[t](i)
    return [indices for indices in members if len(indices) > 1]


def with_singletons(n_items: int, repeated: Sequence[Sequence[int]]) -> list[list[int]]:
    """Every type: the ``repeated`` ones, then each remaining item alone."""
    alone = sorted(set(range(n_items)).difference(*repeated))
    return [*map(list, repeated), *([i] for i in alone)]


def type_counts(pairs: Sequence[tuple[int, int]]) -> Counter[tuple[int, int]]:
    """The copies of every type, ``pairs[i] = (w_i, v_i)``, ordered by first copy.
    One C loop (``Counter``; a tuple's hash mixes its fields)."""
    return Counter(pairs)


def first_copies(
    pairs: Sequence[tuple[int, int]],
    copies: Counter[tuple[int, int]],
    taken: dict[tuple[int, int], int],
) -> list[int]:
    """The ``taken[t]`` lowest-indexed items of each type ``t`` (SPEC 6.3), ascending.

    The bijection of Lemma 10.2 from count vectors onto prefix selections, as
    :func:`canonical_copies`, without per-type index lists: the types saved
    whole are found in one C loop over the items, and each type saved in part
    by one more that stops at its ``taken[t]``-th copy.
    """
    full, partial = set(), []
    for pair, count in taken.items():
        if not 0 <= count <= copies[pair]:
            raise ValueError(f"{count} copies requested of a type that has {copies[pair]}")
        if count == copies[pair]:
            full.add(pair)
        elif count:
            partial.append((pair, count))
    items = range(len(pairs))
    saved = list(compress(items, map(full.__contains__, pairs)))
    for pair, count in partial:
        saved += islice(compress(items, map(pair.__eq__, pairs)), count)
    if partial:
        saved.sort()
    return saved


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
class Grouped:
    """The bundle instance of one 0/1 instance.

    Attributes:
        weights, values: of each bundle (``size * w_t``, ``size * v_t``).
        bundle_type: the type index of each bundle.
        bundle_size: the copies each bundle stands for.
        types: the items of each type, ascending (:func:`item_types`).
    """

    weights: list[int]
    values: list[int]
    bundle_type: list[int]
    bundle_size: list[int]
    types: list[list[int]]


def group(weights: Sequence[int], values: Sequence[int], types: Sequence[Sequence[int]]) -> Grouped:
    """Split every type of ``types`` into bundles (:func:`bundle_sizes`)."""
    bundle_weights, bundle_values, bundle_type, bundle_size = [], [], [], []
    for t, copies in enumerate(types):
        w, v = weights[copies[0]], values[copies[0]]
        for size in bundle_sizes(len(copies)):
            bundle_weights.append(size * w)
            bundle_values.append(size * v)
            bundle_type.append(t)
            bundle_size.append(size)
    return Grouped(bundle_weights, bundle_values, bundle_type, bundle_size, [*map(list, types)])


def counts_of_bundles(grouped: Grouped, bundles: Sequence[int]) -> list[int]:
    """How many copies of each type the bundle selection ``bundles`` saves."""
    counts = [0] * len(grouped.types)
    for b in bundles:
        counts[grouped.bundle_type[b]] += grouped.bundle_size[b]
    return counts


def normalise_copies(
    n_items: int, repeated: Sequence[Sequence[int]], saved: Sequence[int]
) -> list[int]:
    """``saved`` with the saved copies of each type moved to its lowest-indexed
    copies (SPEC 6.3), ascending. Same weight and value (Lemma 10.0). Time O(n)."""
    is_saved = bytearray(n_items)
    for i in saved:
        is_saved[i] = 1
    for copies in repeated:
        count = sum(is_saved[i] for i in copies)
        for rank, i in enumerate(copies):
            is_saved[i] = rank < count
    return [i for i in range(n_items) if is_saved[i]]


def canonical_copies(types: Sequence[Sequence[int]], counts: Sequence[int]) -> list[int]:
    """The ``counts[t]`` lowest-indexed items of each type ``t`` (SPEC 6.3).

    A bijection between count vectors ``0 <= k_t <= m_t`` and the selections
    that save a prefix of each type's copies (Lemma 10.2).
    """
    saved: list[int] = []
    for copies, count in zip(types, counts, strict=True):
        if count > len(copies):
            raise ValueError(f"{count} copies requested of a type that has {len(copies)}")
        saved.extend(copies[:count])
    return saved
