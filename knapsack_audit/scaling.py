"""Metamorphic scaling: small instances carried to large calls whose optimum is known.

The exact oracle is cheap on a few items and a small budget, and real calls
are large: the captured partitioner calls reach ``n * Q = 5.3e6`` table
cells. A :class:`Scaling` turns a small case into a large one by steps whose
effect on the exact optimum (SPEC 3.3) is known, so the large call is judged
exactly without running an oracle on it:

1. *unit scaling*: every quantized weight and the budget times ``unit``
   (memories ``w * unit / 1e4``, which quantize exactly): the same subsets
   fit, ``OPT`` unchanged, the table ``unit`` times wider;
2. *replication*: the instance ``copies`` times with budget ``copies * Q``:
   a bounded knapsack of ``copies`` copies of each item, whose optimum
   :func:`replicated_optimum` computes exactly on grouped items (binary
   splitting), at least ``copies * OPT``;
3. *padding* with ``pads`` neutral items (:data:`NEUTRAL`: zero runtime, heavier
   than the budget, zero memory and zero runtime, or, in the extended domain
   only (SPEC 4.4), a negative runtime that no optimum saves, SPEC 4.2),
   placed first, last or interleaved: no optimal value uses them, ``OPT``
   unchanged.

:func:`scaled` applies a scaling and states the optimum; :func:`big_tables`
plans the scalings that ``verify`` runs in every audit to reach twice the
largest captured table (:data:`BIG_TABLE_CELLS`) at a cost a pure-Python
table solver pays in about a second (padding heavier than the budget is a row
copy for it). :func:`scaled_cases` draws small cases and scalings for the
random phase; Hypothesis shrinks a failure towards a smaller base and a
smaller scaling, and :func:`knapsack_audit.search.minimize` drops items of
the base while the transformed call still fails, so the report shows both
the small case and the transformation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from hypothesis import strategies as st

from knapsack_audit.cases import Case
from knapsack_audit.integer_oracle import bundled_copies, row_optimum
from knapsack_audit.reference.oracle import exact_optimum
from knapsack_audit.reference.validation import integer_runtimes, quantize
from knapsack_audit.strategies import (
    BIG_TABLE_CELLS,
    PLACES,
    dropped_item,
    place_items,
    small_cases,
    unit_memory,
)

NEUTRAL = ("zero runtime", "over budget", "empty", "negative runtime")
"""Padding items that no optimal value uses: runtime 0, weight above the budget,
memory 0 and runtime 0, or a weight that fits and a runtime below 0 (every
optimum leaves it out, SPEC 4.2; extended domain only, :func:`neutral_kinds`)."""
BIG_TABLE_UNITS = (50_000, 5_000, 20_000)
"""Budgets (units) of :func:`big_tables`' calls: ``n`` is then about 212, 2120
and 530 (most of them items over the budget, a row copy for a table solver)."""
TABLE_TIERS = (10**3, 10**5, 10**6, BIG_TABLE_CELLS)
"""Table sizes (``n * Q``) the random phase's scaled tier aims at."""
MAX_PADS = 1500
"""Most padding items of a drawn scaling (a small budget reaches a tier only
with more items than the partitioner's calls have)."""
REPLICATED_WORK = 400_000
"""Most ``n * Q`` of the replicated part of a scaled call (every copy fits
the budget, so a table solver pays for each cell)."""


@dataclass(frozen=True)
class Scaling:
    """Unit scaling, then replication, then padding (see the module docstring)."""

    unit: int = 1
    copies: int = 1
    pads: int = 0
    neutral: str = "over budget"
    place: str = "last"
    lowered_budget: int | None = None
    """The call's budget, last, set to this many of the base's units (times
    ``unit`` and ``copies``), at most the base's own; the items, padding
    included, unchanged. The optimum is the base's under that budget:
    padding neutral under the base's budget stays neutral under a lower one."""
    runtime_exponent: int = 0
    """Every runtime times ``2**runtime_exponent`` first (the optimum is the
    base's with those runtimes, computed exactly)."""
    reverse: bool = False
    """The whole call's items in reverse order last (``OPT`` unchanged)."""
    memories_moved: int = 0
    """Before anything else, each base item's memory taken from the item
    ``memories_moved`` places further along (cyclically), runtimes kept in
    place: another instance, its optimum computed exactly."""
    budget_slack: int = 0
    """Units added to the scaled budget, fewer than ``unit`` (before padding,
    so that the pads stay heavier than the budget): every weight is a
    multiple of ``unit``, so the same subsets fit and ``OPT`` is unchanged,
    and the budget can be any number of units, not only a multiple of
    ``unit`` (:func:`threshold_budget_tables`)."""

    def __post_init__(self) -> None:
        if (
            self.unit < 1
            or self.copies < 1
            or self.pads < 0
            or self.memories_moved < 0
            or (self.lowered_budget or 0) < 0
            or not 0 <= self.budget_slack < self.unit
        ):
            raise ValueError(
                "scaling: unit and copies >= 1, pads, memories_moved and lowered_budget >= 0,"
                f" 0 <= budget_slack < unit, got {self}"
            )
        if self.neutral not in NEUTRAL or self.place not in PLACES:
            raise ValueError(f"scaling: neutral in {NEUTRAL}, place in {PLACES}, got {self}")

    def describe(self) -> str:
        """The steps in words (a finding's report shows them)."""
        steps = []
        if self.memories_moved:
            steps.append(
                f"each memory taken from the item {self.memories_moved} further along"
                " (runtimes in place)"
            )
        if self.runtime_exponent:
            steps.append(f"every runtime times 2**{self.runtime_exponent}")
        if self.unit > 1:
            steps.append(f"weights and budget times {self.unit}")
        if self.copies > 1:
            steps.append(f"{self.copies} copies of every item, budget times {self.copies}")
        if self.budget_slack:
            unit_word = "unit" if self.budget_slack == 1 else "units"
            steps.append(
                f"the budget {self.budget_slack} {unit_word} more (less than one scaled unit)"
            )
        if self.pads:
            steps.append(f"{self.pads} {self.neutral} items placed {self.place}")
        if self.reverse:
            steps.append("the items in reverse order")
        if self.lowered_budget is not None:
            steps.append(f"the budget lowered to {self.lowered_budget} of the base's units")
        return "; ".join(steps) or "unchanged"

    def with_runtimes(self, case: Case) -> Case:
        """``case`` with its memories moved (:attr:`memories_moved`) and every
        runtime times ``2**runtime_exponent``: the steps that change the optimum."""
        if self.memories_moved and case.n:
            shift = self.memories_moved % case.n
            case = Case(case.memory[shift:] + case.memory[:shift], case.runtime, case.max_memory)
        if not self.runtime_exponent:
            return case
        runtime = tuple(math.ldexp(float(r), self.runtime_exponent) for r in case.runtime)
        return Case(case.memory, runtime, case.max_memory)

    def apply(self, case: Case) -> Case:
        """The transformed case."""
        case = self.with_runtimes(case)
        memory, runtime, max_memory = list(case.memory), list(case.runtime), case.max_memory
        if self.unit > 1:
            memory = [unit_memory(quantize(float(m)) * self.unit) for m in memory]
            max_memory = unit_memory(quantize(float(max_memory)) * self.unit)
        if self.copies > 1:
            memory, runtime = memory * self.copies, runtime * self.copies
            max_memory = unit_memory(quantize(float(max_memory)) * self.copies)
        budget = quantize(float(max_memory))
        if self.budget_slack:
            budget += self.budget_slack
            max_memory = unit_memory(budget)
        pads = [self._pad(j, budget) for j in range(self.pads)]
        items = place_items(list(zip(memory, runtime, strict=True)), pads, self.place)
        if self.reverse:
            items.reverse()
        if self.lowered_budget is not None:
            lowered = self.lowered_budget * self.unit * self.copies
            max_memory = unit_memory(lowered + self.budget_slack)
        return Case(tuple(m for m, _ in items), tuple(r for _, r in items), max_memory)

    def _pad(self, j: int, budget: int) -> tuple[float, float]:
        """The ``j``-th padding item. An item over the budget has its runtime
        times ``2**runtime_exponent`` like every base item (the others' are
        0, or the extreme negatives of :func:`dropped_item`, kept as they
        are): a runtime-scaled call padded so is the unscaled call with every
        runtime scaled, and statistics over all runtimes (a variance, a
        maximum) see the scale too. With those pads' runtimes as they were
        (up to ``1e12``), a subnormal twin's variance in float32 was about
        ``1e23``, not 0: a blind-corpus bug that took ``var() == 0`` for
        "every runtime equal" from 128 items passed default ``verify``
        (session 23, docs/blind-corpus-16)."""
        memory, runtime = _neutral_item(self.neutral, j, budget)
        if self.neutral == "over budget":
            runtime = math.ldexp(runtime, self.runtime_exponent)
        return memory, runtime


def neutral_kinds(domain: str) -> tuple[str, ...]:
    """The padding kinds of ``domain`` (SPEC 4.4): negative runtimes are extended only."""
    return NEUTRAL if domain == "extended" else NEUTRAL[:-1]


def _neutral_item(kind: str, j: int, budget: int) -> tuple[float, float]:
    if kind == "zero runtime":
        return unit_memory(1 + j % max(budget, 1)), 0.0
    if kind == "negative runtime":
        return dropped_item(j, budget)
    if kind == "over budget":
        return unit_memory(budget + 1 + j % 3), (1e12, 1.0, 0.5)[j % 3]
    return 0.0, 0.0


@dataclass(frozen=True)
class Scaled:
    """A small case, its scaling, the transformed case and its exact optimum."""

    base: Case
    scaling: Scaling
    case: Case
    optimum: Fraction

    def note(self) -> str:
        """How the case was made, for a finding's message."""
        return f"the call is {self.scaling.describe()}, of {self.base.as_call()}"


def scaled(base: Case, scaling: Scaling) -> Scaled:
    """``base`` transformed by ``scaling``, with the transformed optimum (SPEC 3.3)."""
    valued = scaling.with_runtimes(base)
    if scaling.lowered_budget is not None:
        if scaling.lowered_budget > quantize(float(base.max_memory)):
            raise ValueError(f"scaling: lowered_budget above the base's budget, got {scaling}")
        valued = Case(valued.memory, valued.runtime, unit_memory(scaling.lowered_budget))
    if scaling.copies == 1:
        optimum = exact_optimum(*valued.arguments()).value
    else:
        optimum = replicated_optimum(valued, scaling.copies)
    return Scaled(base, scaling, scaling.apply(base), optimum)


def replicated_optimum(case: Case, copies: int) -> Fraction:
    """The exact optimum of ``copies`` copies of every item of ``case`` under
    ``copies`` times its quantized budget: a bounded knapsack, solved by binary
    splitting (bundles of 1, 2, 4, ... copies and the rest, which reach every
    count from 0 to ``copies``) and the one-row table in integers.

    Two copies each of a 2-unit item worth 2 and a 3-unit item worth 3.5,
    under 8 units: 3 + 3 + 2 units, worth 3.5 + 3.5 + 2.

    >>> replicated_optimum(Case.of([2e-4, 3e-4], [2.0, 3.5], 4e-4), 2)
    Fraction(9, 1)
    """
    values, shift = integer_runtimes([float(r) for r in case.runtime])
    capacity = quantize(float(case.max_memory)) * copies
    items = [(quantize(float(m)), v) for m, v in zip(case.memory, values, strict=True) if v > 0]
    return Fraction(row_optimum(bundled_copies(items, copies), capacity), 2**shift)


def table_cells(case: Case) -> int:
    """``n * Q``: the cells of a full table solver's table for ``case``."""
    return case.n * quantize(float(case.max_memory))


def big_tables(bases: list[Case], most: int | None = None) -> list[Scaled]:
    """One call of at least :data:`BIG_TABLE_CELLS` cells per base with a
    positive budget (the first ``most`` of them, or all), the ``k``-th
    unit-scaled to about ``BIG_TABLE_UNITS[k % 3]`` units (the second also
    replicated, its copies at most :data:`REPLICATED_WORK` cells) and padded
    with items over the budget (first, last, interleaved in turn) up to the size."""
    calls = []
    scalable = [b for b in bases if quantize(float(b.max_memory)) > 0]
    for k, base in enumerate(scalable[:most]):
        budget = quantize(float(base.max_memory))
        units = BIG_TABLE_UNITS[k % len(BIG_TABLE_UNITS)]
        copies = 1
        if k % len(BIG_TABLE_UNITS) == 1:
            copies = max(1, min(40, int((REPLICATED_WORK / (base.n * units)) ** 0.5 * 2)))
            while copies > 1 and base.n * copies * max(units, budget * copies) > REPLICATED_WORK:
                copies -= 1
        unit = max(1, units // (budget * copies))
        wide = budget * copies * unit
        pads = max(-(-BIG_TABLE_CELLS // wide) - base.n * copies, 0)
        place = PLACES[k % len(PLACES)]
        calls.append(scaled(base, Scaling(unit, copies, pads, "over budget", place)))
    return calls


def threshold_budget_tables(bases: list[Case], budgets: Sequence[int], items: int) -> list[Scaled]:
    """One call of ``items`` items under each of ``budgets`` (units), exactly:
    a base (in turn, of those with a positive budget ``b`` and ``b * b`` at
    most the budget) unit-scaled by ``budget // b``, the rest of the budget
    as :attr:`Scaling.budget_slack`, and padded with items heavier than the
    budget (first, last, interleaved in turn) up to ``items``. The scope's
    threshold budgets (``2**15``, ``2**16``: a narrower index or column
    dtype) then meet the largest item counts, a pure-Python table solver
    paying a row copy per pad. A blind-corpus bug that walked the backtrack's
    column in int16 "whenever ``Q < 2**16``" from 1,024 items passed default
    ``verify``: no call had both (session 22, docs/blind-corpus-15)."""
    usable = [b for b in bases if quantize(float(b.max_memory)) > 0]
    calls = []
    for k, budget in enumerate(budgets):
        fitting = [b for b in usable if quantize(float(b.max_memory)) ** 2 <= budget]
        if not fitting:
            continue
        base = fitting[k % len(fitting)]
        small = quantize(float(base.max_memory))
        unit = budget // small
        pads = max(items - base.n, 0)
        place = PLACES[k % len(PLACES)]
        slack = budget - unit * small
        calls.append(scaled(base, Scaling(unit, 1, pads, "over budget", place, budget_slack=slack)))
    return calls


FEW_ITEMS = (4, 32)
"""The item counts :func:`few_items_huge_table`'s bases are drawn at: a fast
path for "few items under a huge budget" (meet in the middle, a sparse
frontier) switches on such a count."""
FEW_ITEMS_CELLS = (3_000_001, 12_000_000)
"""The table sizes :func:`few_items_huge_table` scales its bases to: past the
cell counts such a fast path switches on."""
FEW_ITEMS_BASE_CELLS = 1_000_000
"""The largest base table :func:`few_items_huge_table` scales (its exact
optimum is computed on the base)."""
FEW_ITEMS_FAR_CELLS = (2 * BIG_TABLE_CELLS, 5 * BIG_TABLE_CELLS)
"""The table sizes (2.1e7 to 5.3e7 cells) :func:`few_items_huge_table`
carries every few-item base to a second time, with a prime unit: past the
cell counts a coarser table switches on. A blind-corpus bug that worked in
columns of ``g`` units (a power of two; weights rounded up, the budget down)
above 2e7 cells when every positive weight is at least 1,000 units passed
default ``verify`` (session 27, docs/blind-corpus-3): no breadth call past
2e7 cells had both every weight heavy and an optimum off ``g``'s grid. A few
items under a budget of a few units, times a prime of thousands or more,
have both: every weight is heavy, and a weight that is a multiple of the
prime is off every coarser grid that does not divide the base weight. For a
vectorized table solver each call costs about 0.1 s."""


FAR_PADDED_LEAST_UNIT = 1_000
"""The least unit of the breadth phase's padded far calls
(``search.breadth_cases``): every item of some weight then weighs 1,000
units (0.1 GB) or more, and each base is padded with items over the budget
to as many items as the table size leaves room for at that unit (at most
2,114; 17 to 2,114 at seeds 0-3, most of them hundreds). A coarser table
gated on the item count and on heavy weights (from 256 items, above 2e7
cells, every weight at least 1,000 units) passed every call padded to
2,114 items at one seed of four: their units were too small to make every
weight heavy (session 28). The same bug gated from 1,024 items fails one
of these calls at two seeds of four."""


def few_items_huge_table(
    base: Case, cells: int, prime_unit: bool = False, items: int = 0, place: str = "last"
) -> Scaled | None:
    """``base`` unit-scaled so that its table has ``cells`` cells or a few more
    (its weights and budget times ``k``, ``OPT`` unchanged; with
    ``prime_unit``, ``k`` the smallest prime that reaches ``cells``), or
    ``None`` when the base does not qualify: more than ``FEW_ITEMS[1]``
    items, a budget of 0, or a table already past
    :data:`FEW_ITEMS_BASE_CELLS`. Every value region, drawn at a few items,
    so meets a fast path gated on few items under a huge budget: its pattern
    (copies, equal subset sums, ties) is kept by the scaling, which
    multiplies every subset's weight alike. With ``items``, the call is
    padded with items over the budget (placed ``place``) up to that many,
    and ``k`` reaches ``cells`` over them all: the pattern then meets a fast
    path gated on both the item count and the cells.

    >>> call = few_items_huge_table(Case.of([1e-4, 2e-4, 3e-4], [1.0, 2.0, 2.5], 3e-4), 4_000_000)
    >>> call.scaling.unit, table_cells(call.case), call.optimum
    (444445, 4000005, Fraction(3, 1))
    >>> few_items_huge_table(call.base, 4_000_000, prime_unit=True).scaling.unit
    444449
    >>> padded = few_items_huge_table(call.base, 4_000_000, True, items=2000)
    >>> padded.case.n, padded.scaling.unit, table_cells(padded.case), padded.optimum
    (2000, 673, 4038000, Fraction(3, 1))
    """
    budget = quantize(float(base.max_memory))
    if base.n > FEW_ITEMS[1] or budget <= 0 or base.n * budget > FEW_ITEMS_BASE_CELLS:
        return None
    count = max(base.n, items)
    unit = -(-cells // (count * budget))
    if prime_unit:
        unit = prime_at_least(unit)
    return scaled(base, Scaling(unit=unit, pads=count - base.n, place=place))


def heavy_padded_items(base: Case, cells: int, most: int) -> int:
    """The items of ``base``'s padded far call (``items`` of
    :func:`few_items_huge_table`): as many as a unit of
    :data:`FAR_PADDED_LEAST_UNIT` leaves room for in a table of ``cells``
    cells, at most ``most`` (0 for a budget of 0, which no call scales).

    >>> heavy_padded_items(Case.of([1e-4, 2e-4, 3e-4], [1.0, 2.0, 2.5], 3e-4), 30_000_000, 2114)
    2114
    >>> heavy_padded_items(Case.of([1e-4, 2e-4, 3e-4], [1.0, 2.0, 2.5], 0.03), 30_000_000, 2114)
    100
    """
    budget = quantize(float(base.max_memory))
    return min(cells // (budget * FAR_PADDED_LEAST_UNIT), most) if budget > 0 else 0


def prime_at_least(k: int) -> int:
    """The smallest prime ``>= k``, by trial division (units stay below 1e8,
    and a prime is met within a few hundred numbers).

    >>> prime_at_least(1000), prime_at_least(2), prime_at_least(0)
    (1009, 2, 2)
    """
    candidate = max(k, 2)
    while any(candidate % d == 0 for d in range(2, math.isqrt(candidate) + 1)):
        candidate += 1
    return candidate


TWIN_RUNTIME_TOPS = (-40, 40)
"""``log2`` of the largest runtime of :func:`twins`' runtime-scaled calls:
about ``1e-12`` and ``1e12``."""
FLOAT32_NORMAL = (2.0**-126, 2.0**120)
"""Magnitudes a twin's nonzero runtimes stay within: float32's normal range
(with room for sums), where a float32 table solver keeps every bit SPEC
5.2's tolerance assumes."""
SUBNORMAL_TWIN_TOP = -128
"""``log2`` of the largest runtime of :func:`twins`' last call: every runtime
is then float32-subnormal (:data:`FLOAT32_SUBNORMAL`)."""
FLOAT32_SUBNORMAL = (2.0**-149, 2.0**-126)
"""float32's subnormal range, smallest subnormal to smallest normal: the
subnormal twin's nonzero runtimes stay within it, so that none rounds to
zero in float32 (SPEC 5.2's term ``2 * (n + 1) * 2**-149`` covers the
rounding of each)."""


def twins(calls: list[Scaled]) -> list[Scaled]:
    """Second calls related to :func:`big_tables`' calls, each judged against
    its own exact optimum: of the calls whose optimum is positive, the first
    in reverse item order, then the first with its base's runtimes scaled
    by a power of two so that the largest is about ``2**-40`` and the second
    so that it is about ``2**40`` (:data:`TWIN_RUNTIME_TOPS`; left out when
    a runtime would leave :data:`FLOAT32_NORMAL`); last, the first whose
    runtimes fit :data:`FLOAT32_SUBNORMAL` scaled so that the largest is about
    ``2**-128`` (:data:`SUBNORMAL_TWIN_TOP`). The padding's runtimes are
    scaled alike (:meth:`Scaling._pad`): in the subnormal twin every runtime
    is then under ``2**-75``, and its square is 0 in float32.

    Run after its original in one worker, the reversed call is the same
    multiset of items under the same budget, with other indices: a solver
    that caches answers by the sorted items returns the first call's
    indices for it. The scaled calls carry a tiny and a huge runtime scale to
    a big table: a solver that compares values against an absolute epsilon,
    or converts them to integers at a fixed scale, loses them; a table that
    flushes float32 subnormals to zero (``torch.set_flush_denormal``) loses
    the whole optimum of the subnormal one."""
    saving = [call for call in calls if call.optimum > 0]
    result = [scaled(call.base, replace(call.scaling, reverse=True)) for call in saving[:1]]
    for call, top in zip(saving, TWIN_RUNTIME_TOPS, strict=False):
        twin = _runtime_twin(call, _exponent_to(call.base, top))
        if twin is not None:
            result.append(twin)
    for call in saving:
        twin = _runtime_twin(call, _exponent_to(call.base, SUBNORMAL_TWIN_TOP, FLOAT32_SUBNORMAL))
        if twin is not None:
            result.append(twin)
            break
    return result


def _runtime_twin(call: Scaled, exponent: int | None) -> Scaled | None:
    """``call`` with every runtime, its padding over the budget's too, times
    ``2**exponent``; ``None`` without an exponent, or when a padding item's
    runtime would then pass float32's normal range (:data:`FLOAT32_NORMAL`;
    a sum of them could overflow in float32)."""
    if exponent is None:
        return None
    twin = scaled(call.base, replace(call.scaling, runtime_exponent=exponent))
    if max((abs(float(r)) for r in twin.case.runtime), default=0.0) > FLOAT32_NORMAL[1]:
        return None
    return twin


REMATCHED_UNITS = 5_000
"""About the budget, in units, of :func:`rematched_pair`'s calls: the
largest real call's (mixtral_32, 1057 items under 5000 units)."""


REMATCHED_GAIN = Fraction(1, 1000)
"""How much, relative to the first call's optimum, :func:`rematched_pair`'s
second call's optimum should exceed it."""


REMATCHED_LAST_BASE = Case.of([3e-4, 2e-4, 2e-4], [5.0, 3.0, 3.0], 4e-4)
""":func:`rematched_pair`'s base when no drawn one qualifies: its best is the
two 2-unit items, worth 6; with each memory taken from the next item, the
items are 2, 2 and 3 units worth 5, 3 and 3, and the best is worth 8."""


def rematched_pair(bases: list[Case]) -> list[Scaled]:
    """Two calls of at least :data:`BIG_TABLE_CELLS` cells, to be made one right
    after the other: a base with a positive optimum, a budget of at most
    :data:`REMATCHED_UNITS` units and two different memories, unit-scaled to
    about that budget and padded last with items over it (about twice the
    largest real call's items); then the same with each base item's memory
    taken from the item ``r`` places further along
    (:attr:`Scaling.memories_moved`). The base and ``r`` are the first that
    raise the exact optimum by at least :data:`REMATCHED_GAIN` of it (far
    beyond a float32 table's rounding, SPEC 5.2), of ``bases`` and then
    :data:`REMATCHED_LAST_BASE`.

    The second call has the first's item count, budget, total weight,
    memories (as a multiset) and runtimes, in the same order: only the
    pairing of memories with runtimes differs. A solver that recognises "the
    same call again" by such a fingerprint (sums, sorted lists) and reuses
    what it kept from the first answers the first call's question: an
    answer worth less than the second call's optimum."""
    for base in [*bases, REMATCHED_LAST_BASE]:
        budget = quantize(float(base.max_memory))
        if not 0 < budget <= REMATCHED_UNITS or len(set(base.memory)) < 2:
            continue
        optimum = exact_optimum(*base.arguments()).value
        if optimum <= 0:
            continue
        moves = [r for r in range(1, base.n) if base.memory[r:] + base.memory[:r] != base.memory]
        raising = [r for r in moves if _moved_optimum(base, r) >= (1 + REMATCHED_GAIN) * optimum]
        if raising:
            return _pair(base, raising[0])
    raise AssertionError("REMATCHED_LAST_BASE qualifies")


def budget_sweep(call: Scaled) -> list[Scaled]:
    """``call``'s items under lower budgets, each with its own exact optimum:
    a quarter of its base's budget, then one unit less than the heaviest item
    of an optimal selection of the base (the two in ascending order, each
    once). Made just before ``call``, they are the partitioner's budget
    search on one graph: a solver that keeps something from an earlier call
    on the same items (weights clamped to that call's budget, the items too
    heavy for it, its table) answers ``call`` with it, and that heaviest
    optimal item is too heavy for the earlier budget."""
    valued = call.scaling.with_runtimes(call.base)
    budget = quantize(float(valued.max_memory))
    saved = exact_optimum(*valued.arguments()).saved
    heaviest = max((quantize(float(valued.memory[i])) for i in saved), default=0)
    lowered = sorted({budget // 4, max(heaviest - 1, 0)} - {budget})
    return [scaled(call.base, replace(call.scaling, lowered_budget=q)) for q in lowered]


def _pair(base: Case, moved: int) -> list[Scaled]:
    budget = quantize(float(base.max_memory))
    unit = REMATCHED_UNITS // budget
    pads = max(-(-BIG_TABLE_CELLS // (budget * unit)) - base.n, 0)
    first = Scaling(unit=unit, pads=pads)
    return [scaled(base, first), scaled(base, replace(first, memories_moved=moved))]


def _moved_optimum(base: Case, moved: int) -> Fraction:
    return exact_optimum(*Scaling(memories_moved=moved).with_runtimes(base).arguments()).value


def _exponent_to(base: Case, top: int, within: tuple[float, float] = FLOAT32_NORMAL) -> int | None:
    """The ``e`` for which ``2**e`` times ``base``'s largest runtime magnitude
    is in ``[2**(top - 1), 2**top)``, or ``None`` when a nonzero runtime
    would then leave ``within`` (or there is none)."""
    sizes = [abs(float(r)) for r in base.runtime if r != 0]
    if not sizes:
        return None
    exponent = top - math.frexp(max(sizes))[1]
    low, high = within
    if all(low <= math.ldexp(size, exponent) <= high for size in sizes):
        return exponent
    return None


@st.composite
def scaled_cases(draw: st.DrawFn, domain: str = "partitioner") -> Scaled:
    """A small case (:func:`knapsack_audit.strategies.small_cases`) and a scaling
    towards a table tier of :data:`TABLE_TIERS`: unit scaling or replication
    (the replicated part at most :data:`REPLICATED_WORK` cells), then neutral
    padding of a drawn kind and place up to the tier, under a budget up to
    ``unit - 1`` units more (:attr:`Scaling.budget_slack`: the walk back
    then passes columns off the unit's multiples, such as ``2 q - 1``)."""
    base = draw(small_cases(domain))
    tier = draw(st.sampled_from(TABLE_TIERS), label="table cells")
    budget = quantize(float(base.max_memory))
    if base.n == 0 or budget == 0:
        pads = draw(st.integers(0, 64), label="pads")
        neutral = draw(st.sampled_from(neutral_kinds(domain)), label="neutral")
        return scaled(base, Scaling(1, 1, pads, neutral, draw(st.sampled_from(PLACES))))
    copies = 1
    if draw(st.booleans(), label="replicate"):
        most = max(1, min(64, int((REPLICATED_WORK / (base.n * budget)) ** 0.5)))
        copies = draw(st.integers(1, most), label="copies")
    widest = max(BIG_TABLE_UNITS) // (budget * copies)
    unit = draw(st.integers(1, max(1, widest)), label="unit")
    wide = budget * copies * unit
    items = base.n * copies
    wanted = min(max(-(-tier // wide) - items, 0), MAX_PADS)
    neutral = draw(st.sampled_from(neutral_kinds(domain)), label="neutral")
    if neutral != "over budget":
        # Every such pad fits the table solver's budget: it pays for each cell.
        wanted = min(wanted, max(REPLICATED_WORK // wide, 1))
    place = draw(st.sampled_from(PLACES), label="place")
    slack = draw(st.integers(0, unit - 1), label="budget slack")
    return scaled(base, Scaling(unit, copies, wanted, neutral, place, budget_slack=slack))
