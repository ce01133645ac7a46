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
from operator import itemgetter


def item_types(weights: Sequence[int], values: Sequence[int]) -> list[list[int]]:
    """The types with at least two copies, each list ascending, ordered by first
    copy; every item not listed is alone of its type. Time O(n log n) in C
    loops (``map``, ``Counter``, ``sorted``) plus O(types) Python steps.

    The key ``v_i * (max w + 1) + w_i`` is one int, injective on ``(w_i, v_i)``
    because ``0 <= w_i <= max w``. Sorting the indices by key (stable, so each
    type's copies stay ascending) puts every type in one run, whose length is
    its count: no container is allocated per item (which would trigger the
    cyclic garbage collector over torch's heap).
    """
    if len(weights) != len(values):
        raise ValueError(f"{len(weights)} weights but {len(values)} values")
    if len(set(values)) == len(values):
        # Distinct values, so distinct types: the common case of independent
        # runtimes, decided by one set of ints. Cheaper than the keyed count
        # below at n = 5000: 0.4 against 2.1 ms for random values, 1.9 against
        # 2.4 ms for multiples of 2**40, whose hashes share their low bits.
        return []
    span = max(weights, default=0) + 1
    keys = list(map(int.__add__, map(span.__mul__, values), weights))
    counts = Counter(keys)
    if len(counts) == len(keys):
        return []
    order = sorted(range(len(keys)), key=keys.__getitem__)
    repeated, start = [], 0
    for key in sorted(counts):
        stop = start + counts[key]
        if stop - start > 1:
            repeated.append(order[start:stop])
        start = stop
    repeated.sort(key=itemgetter(0))
    return repeated


def with_singletons(n_items: int, repeated: Sequence[Sequence[int]]) -> list[list[int]]:
    """Every type: the ``repeated`` ones, then each remaining item alone."""
    listed = bytearray(n_items)
    for copies in repeated:
        for i in copies:
            listed[i] = 1
    return [*map(list, repeated), *([i] for i in range(n_items) if not listed[i])]


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
