"""Search for property failures and shrink each to a minimal case.

:func:`audit` runs the properties of :data:`knapsack_audit.properties.TABLE`
in three phases:

1. **pinned**: known upstream bugs, one case each;
2. **breadth**: a few cases of every size tier and value region, small cases
   scaled to tables over twice the largest real call's
   (:mod:`knapsack_audit.scaling`) and a sample of the real calls, each of
   known optimum (:class:`KnownCase`): a slow solver is judged across sizes
   before the exhaustive phase takes its time;
3. **exhaustive**: every instance of a small scope
   (:func:`knapsack_audit.exhaustive.audit_scope`: up to 3 items), in
   batches, one-call properties only: the small-scope hypothesis, so a bug
   with a counterexample of a few items is found in well under a second;
4. **random**: Hypothesis rounds over :mod:`knapsack_audit.strategies`, each
   round with a fresh seed derived from ``seed``, until the time budget or
   the example budget is spent (a PASS means the effort was spent),
   steered by ``hypothesis.target`` towards larger optimality gaps and more
   units over budget. Each
   property raises its own exception class, so Hypothesis shrinks the first
   failing property of a round; later rounds ignore the properties found.

Every finding is then reduced further by :func:`minimize` (whole types of
copies, then single items, dropped while the property still fails). A
failure seen is never lost: the smallest failing case of each property is
kept as it is seen, and if the hard stop cuts a shrink short, that case is
reported, marked "not fully shrunk". A call that times out is not shrunk by
Hypothesis (each step would wait out the timeout) but by
:func:`shrink_timeout`: whole chunks of items dropped, with a shorter call
timeout.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, TypeVar, runtime_checkable

from hypothesis import HealthCheck, Phase, given, seed, settings, target
from hypothesis import strategies as st
from hypothesis.errors import Flaky, FlakyStrategyDefinition

from knapsack_audit import properties as props
from knapsack_audit.cases import Case
from knapsack_audit.exhaustive import SCOPE_THRESHOLD_BUDGETS, Scope
from knapsack_audit.oracle_ahead import AHEAD_FROM_CELLS, AHEAD_FROM_SECONDS, OracleAhead
from knapsack_audit.properties import Finding, Judge, Outcome, Solver
from knapsack_audit.real_types import other_types_calls
from knapsack_audit.scaling import (
    BIG_TABLE_UNITS,
    FEW_ITEMS,
    FEW_ITEMS_CELLS,
    FEW_ITEMS_FAR_CELLS,
    FLOAT32_NORMAL,
    Scaled,
    big_tables,
    budget_sweep,
    few_items_huge_table,
    heavy_padded_items,
    rematched_pair,
    scaled,
    scaled_cases,
    table_cells,
    threshold_budget_tables,
    twins,
)
from knapsack_audit.shrink import Shrinker
from knapsack_audit.strategies import (
    BIG_REGIONS,
    BIG_TABLE_CELLS,
    DOMINANT_EXPONENTS,
    EXTREME_RUNTIME_TOPS,
    FEW_FITTING_MOST,
    HEAVY_RIVAL_ORDERS,
    HUGE_BUDGET_CELLS,
    HUGE_BUDGET_ITEMS,
    HUGE_BUDGET_NOISES,
    LARGEST_REAL_ITEMS,
    ONE_SIDED_PLACES,
    OVER_IN_FLOAT,
    PAST_LARGEST_ITEMS,
    PAST_LARGEST_ONE_AT_A_TIME_UNITS,
    PAST_LARGEST_REGIONS,
    PLACES,
    REGION_BUILDERS,
    SCALE_SIZES,
    SIZE_TIERS,
    SORTED_TOGETHER_ORDERS,
    SPREAD_SIGNS,
    TINY_RUNTIME_SCALES,
    TOLERANCE_RATIOS,
    UNEQUAL_SHARES,
    WIDE_HALF_WAY_UNITS,
    big_region_case,
    big_table_units,
    blocks_and_one_odd_case,
    cases,
    close_heavy_pair_case,
    copy_runs_case,
    correlated_case,
    dominant_out_of_reach_case,
    dwarfed_copies_case,
    equal_decimal_runtimes_case,
    everything_fits_case,
    exact_fit_case,
    exact_shares_case,
    extreme_runtimes_case,
    few_fitting_case,
    float32_budget_case,
    gigabyte_half_way_case,
    half_unit_steps,
    hash_twins_case,
    heavy_rival_case,
    huge_budget_case,
    measured_layers_case,
    mixed_types_copies_case,
    one_fits_at_a_time_case,
    one_fitting_size_among_heavy_case,
    one_paying_case,
    one_per_node_case,
    one_runtime_nothing_fits_case,
    one_sided_optimum_case,
    one_size_case,
    over_a_half_way_up_budget_case,
    over_in_float_case,
    packed_table_case,
    past_int64_total_case,
    past_power_copies_case,
    past_the_total_case,
    periodic_layers_case,
    periodic_saved_below_case,
    permuted_blocks_case,
    power_of_two_sizes_case,
    proportional_off_grid_case,
    region_case,
    scale_cases,
    search_gives_up_case,
    sentinel_first_case,
    sentinel_sizes_case,
    shared_factor_runtimes_case,
    short_of_total_case,
    sizes_a_power_apart_case,
    small_cases,
    sorted_together_case,
    superincreasing_case,
    tiered_cases,
    tiny_runtime_copies_case,
    tolerance_absorbed_case,
    two_sizes_case,
    under_a_quarter_budget,
    under_the_float_sum_case,
    unequal_shares_case,
    wide_half_way_case,
    with_dropped_items,
    wrapping_weights_case,
    zero_runtimes_case,
)

PROPERTIES = tuple(prop.name for prop in props.TABLE)

BATCH_SIZE = 256
"""Exhaustive-phase cases sent to a worker in one message, at most."""

FIRST_BATCH_SIZE = 32
"""The first exhaustive batch, before the solver's speed is known."""

BATCH_SECONDS = 1.0
"""Target seconds per exhaustive batch: a batch cannot be interrupted, so the
next one is sized from the last one's speed, and a slow solver (scipy's milp
took 9 s per 256 calls on a loaded machine) does not carry the audit far past
its hard stop."""

SCALE_EXAMPLES = 3
"""Examples per round of the partitioner-scale tier (hundreds of items: slow
for a pure-Python solver, so few, and one-call properties only)."""

TIERED_EXAMPLES = 16
"""Examples per round of the regions-at-every-size tier
(:func:`~knapsack_audit.strategies.tiered_cases`), one-call properties only."""

SCALED_EXAMPLES = 4
"""Examples per round of the scaled tier (:func:`~knapsack_audit.scaling.scaled_cases`:
small cases carried to tables of up to twice the largest real call's)."""

GOLDEN_PER_ROUND = 8
"""Real calls (after the breadth phase's sample) checked at the start of each round."""

BREADTH_LEFT_PER_ROUND = 32
"""Breadth calls left by the breadth phase checked at the start of each round,
before the real calls. With 8 (as the real calls), an audit of an
upstream-speed solver beside another left the breadth list's last calls
(the other real types, about the 300th to the 390th) unchecked: a leading
int and Python ints past ``2**63`` were made in process but never through
``verify`` (the twentieth blind corpus, session 24)."""

BREADTH_PER_TIER = 2
"""Cases of each tiny size tier in the breadth phase, of different value regions."""

BREADTH_SHARE = 1 / 3
"""Share of the time budget the breadth phase may take before the exhaustive
phase (a short ``--time-budget`` still completes the scope)."""
BREADTH_AFTER_SCOPE_SHARE = 2 / 3
"""Share of the time budget up to which the breadth cases left go on after
the exhaustive phase; those left then are checked at the start of the
rounds, :data:`BREADTH_LEFT_PER_ROUND` per round, before the real calls.
A loaded machine reached the 2,114-item calls (about the 230th) after the
first share, and 8 per round took them to 44 s of 45 (a blind corpus,
session 21)."""

SPLITTING_SHAPES = (0, 1, 2, 4)
"""Shapes of :func:`~knapsack_audit.strategies.correlated_case` of which the
breadth phase holds :data:`SPLITTING_DRAWS` cases each at the partitioner's
sizes: their cores reach a Hirschberg solver's split (upstream's bug) with
uneven profiles, the last with split ranges past 65,536 columns. The grain
shape (3) is left out: its profiles are flat (multiples of a grain), so a
split one column off loses nothing there."""

RAISED_TWICE_DRAWS = 3
"""Cases of the region "copies a bound raises twice" at each size tier of
:data:`EVERY_REGION_TIERS` in the breadth phase, beside the one every region
has. One case shows a second-round raise that cuts the room wrongly in
about half the draws at those sizes (``optimized/bounded.py`` mutant 115;
a planted bug in about a third at the threshold sizes); several make it
likely in every run. Tables of a few hundred cells: milliseconds."""

SPLITTING_DRAWS = 3
"""Cases of each of :data:`SPLITTING_SHAPES` in the breadth phase. One
random case of a shape shows a split one column off, a stale chunk of split
sums or a packed table one word off in 1 to 8 draws of 10 (measured on
``mutate`` survivors of ``optimized/backends.py``); three of each make it
likely in every run, not in one run of several."""

DROPPED_ITEM_PLACES = {"4-12": ("interleaved",), "thresholds": PLACES}
"""Size tiers at which an extended-domain breadth phase holds every value
region beside items every optimum drops (:func:`_with_dropped_items`), and
their places: at 4-12 items always interleaved (a dropped item at index 0
and before every own item), at threshold sizes first, last and interleaved
in turn. Mutant 77 of ``bounded.py`` (the critical type starts as type 0,
then a dropped item's) fails on a dropped item at index 0 only: at 4-12
items it failed 23 of 288 cases placed first, 23 interleaved, 0 last, and
every one of 12 seeds held a failing case; 228 of ``reductions.py`` fails
at threshold sizes at 10 of 10 breadth seeds."""

DROPPED_TYPE_REGIONS = (
    "exact copies",
    "copies a branch and bound gives up on",
    "copies whose window passes 2**31",
    "optimum across 2**31",
)
"""Regions of exact copies (SPEC 6.3) that an extended-domain breadth phase
draws :data:`DROPPED_TYPE_DRAWS` more times at 4-12 items beside as many
interleaved dropped items: a solver that groups copies into types then
meets a first type that every optimum drops. One case of these regions
fails mutant 77 of ``bounded.py`` in 5 to 6 draws of 12 (the others in 0 to
1), and one of each region at 4-12 items left it alive at 5 of 10 breadth
seeds (10-19, ``4ceff47``). Tables of a few hundred cells: milliseconds."""

DROPPED_TYPE_DRAWS = 2
"""Cases of each of :data:`DROPPED_TYPE_REGIONS` that :func:`_with_dropped_items`
adds beside the one every region has."""

WIDEST_GRID_DRAWS = 12
"""Cases of the region "copies a branch and bound gives up on" with the budget
on the widest type's grid (:func:`~knapsack_audit.strategies.search_gives_up_case`,
``on_widest_grid``) at each size tier of :data:`EVERY_REGION_TIERS`: the
last row of a stage over the widest type then ends at the budget's column,
where a scratch row a cell or two short is overrun. One case fails such a
bug (``optimized/bounded.py`` mutant 176) in about 1 draw of 6 (14 of 80 in
process), the region's own draws never (0 of 360: an even widest weight
under an odd budget); with twelve per tier, breadth seeds 0-19 hold a
failing case at 19 of 20. Tables of at most about 2e6 cells."""

SAVED_COUNT_SIZES = (17, 33, 65, 129, 257, 513, 1025)
"""Item counts just past each power of two from 16 to 1024 at which the
breadth phase holds a call where every item fits
(:func:`~knapsack_audit.strategies.everything_fits_case`): the saved
count then crosses each, and the budget lies past the float sum of
memories that quantize up. An independent reviewer's blind corpus of
eight size-gated bugs (session 10) had two that passed every default
run: a budget capped at the float sum's quantization from 128 items, and
the saved indices kept in a buffer of 1,024 entries; no region drew a
budget past the float sum at those sizes, nor more than 1,024 saved
items. Tables of at most about 2.1e6 cells."""

SHORT_OF_TOTAL_DRAWS = 8
"""Calls of :func:`~knapsack_audit.strategies.short_of_total_case` in the
breadth phase (strongly correlated items under a budget of tens of
thousands of units, one short of their total weight): a Hirschberg split's
range of columns is then two wide. No region drew that budget at that
width, and two mutants of ``optimized/backends.py`` that sum a split from
its second column or stop two columns short (287, 292) survived
``verify``; one call fails each in about 1 draw of 2 (in process), eight
in nearly every run. Tables of at most about 1.1e7 cells: about 0.01 s a
call for our solver, a few seconds for the pure-Python reference."""

IDLE_LIGHTEST_DRAWS = 4
"""Cases of the region "copies a branch and bound gives up on" whose most
efficient type the optimum leaves out
(:func:`~knapsack_audit.strategies.search_gives_up_case`, ``lightest_idle``)
at each size tier of :data:`EVERY_REGION_TIERS`: backtracking from the
budget then reads the profile before that type at the budget's own column.
A profile saved one column short there (``optimized/bounded.py`` mutants
234 and 237) fails such a case in about 1 draw of 2 from 33 items (62 of
120 at 16 to 1,057 items, in process), the region's own draws in 5 of 120;
it survived ``mutate`` at seed 10 (``9c5cd17``). Tables of at most about
2e6 cells."""

INT64_LIMIT_DRAWS = 10
"""More cases of the region "optimum across 2**63" at the threshold sizes,
where a solver's branch and bound over types gives up in about half the
draws and an integer table of the types is built: a row type chosen by
``total - reach`` instead of ``total + reach`` (``optimized/bounded.py``
mutant 432: int64 rows for values past 2**63) fails about 1 draw in 3 (15 of
50 in process), and the one case of each tier left it alive at seed 10
(``9c5cd17``). Tables of at most about 5e5 cells: 0.13 s a call for the
pure-Python reference."""

PAST_POWER_DRAWS = 16
"""Calls of :func:`~knapsack_audit.strategies.past_power_copies_case`: types
of 4 or 8 to 10 copies with an optimum past 2**63, so that a solver whose
bounded path declines such values solves binary-split bundles. A split
that cannot make the middle counts (``optimized/grouping.py`` mutant 92)
fails about 1 draw in 4 (in process); the region "optimum across 2**63"
failed it at 5 of 20 breadth seeds before :data:`INT64_LIMIT_DRAWS`, at 11
of 20 with them. Tables of at most about 4e5 cells."""

EVERY_REGION_TIERS = ("thresholds", "partitioner")
"""Size tiers of which the breadth phase holds a case of every value region
(fast paths switch on sizes like these)."""

BIG_REGION_DRAWS = 3
"""Cases of each of :data:`~knapsack_audit.strategies.BIG_REGIONS` at the
partitioner's sizes with a table of 1.06e7 to 2.1e7 cells
(:func:`~knapsack_audit.strategies.big_region_case`). A blind-corpus bug
(docs/planted.md, session 13) took "everything fits" from the float sum of
the memories above 1.2e7 cells, another filled an int32 table for integer
runtimes above 8e6 cells: both passed, since the regions were drawn at
tables of at most 2e6 cells and the big tables came from unit scaling,
which rounds the memories exactly, and from small bases, whose sums stay
within int32."""

TINY_RUNTIME_DRAWS = 2
"""Cases of :func:`~knapsack_audit.strategies.tiny_runtime_copies_case` per
scale of :data:`~knapsack_audit.strategies.TINY_RUNTIME_SCALES`, at the
partitioner's sizes: a blind-corpus bug that grouped items by their
runtime rounded to 4 decimals, from 64 repeats, passed without them."""

TOLERANCE_DRAWS = 3
"""Cases of :func:`~knapsack_audit.strategies.tolerance_absorbed_case` per
ratio of :data:`~knapsack_audit.strategies.TOLERANCE_RATIOS`, at the
partitioner's sizes: a blind-corpus bug whose backtracking compared table
values with ``torch.isclose`` from 400 items passed without them."""

EXACT_FIT_DRAWS = 2
"""Cases of :func:`~knapsack_audit.strategies.exact_fit_case` at the
partitioner's sizes with an item of exactly the budget's weight, and as
many under a budget of 0: a blind-corpus bug that filtered out items of
``q >= Q`` from 120 items was found only by the rounds, after 24 s."""

WIDE_HALF_WAY_DRAWS = 2
"""Cases of :func:`~knapsack_audit.strategies.wide_half_way_case` per largest
unit count of :data:`~knapsack_audit.strategies.WIDE_HALF_WAY_UNITS`, the
first at the largest real call's size (:func:`_largest_real_size_first`): a
blind-corpus bug (docs/planted.md, session 14) that quantized by dividing by
``1 / S`` from 500 items passed, since every half-way memory drawn was of at
most 30 units, where that division agrees with SPEC 2.1."""

WRAPPING_DRAWS = 3
"""Cases of :func:`~knapsack_audit.strategies.wrapping_weights_case`, the
first at the largest real call's size: a blind-corpus bug that kept weights
in int16 above 3e6 cells under a budget below ``2**15`` passed, since no
item drawn weighed past ``2**15`` units beside such a budget."""

DOMINANT_DRAWS = 1
"""Cases of :func:`~knapsack_audit.strategies.dominant_out_of_reach_case`
per exponent of :data:`~knapsack_audit.strategies.DOMINANT_EXPONENTS`, the
first at the largest real call's size: a blind-corpus bug that recomputed
every item under ``2**-24`` of the largest runtime, from 64 of them, passed
(SPEC 5.4 and these calls together find it)."""

BIG_FIT_DRAWS = 1
"""Pairs of cases at the largest real call's size with memories quantized
up and tables of 1.06e7 to about 2.1e7 cells
(:func:`~knapsack_audit.strategies.big_table_units`): one where every item
fits (:func:`~knapsack_audit.strategies.everything_fits_case`, runtimes
of four decimals), one under a budget 1.5 to 2 times their weight
(:func:`~knapsack_audit.strategies.past_the_total_case`, items half as
heavy). A blind-corpus bug that capped its table's width at the total
weight above 6e6 cells (and crashed reading column ``Q``) was found only by
the rounds, after 14 to 17 s; one that asserted its table's value at most
``torch.sum`` of the fitting runtimes above 2e6 cells (two float32 sums in
different orders), only at 53.3 s, while the runtimes were whole (session
25, docs/blind-corpus-20)."""

UNDER_FLOAT_SUM_DRAWS = 2
"""Cases of :func:`~knapsack_audit.strategies.under_the_float_sum_case`
(memories quantized up, a budget 1 unit to a sixteenth under their
float sum) with tables of 1.06e7 to about 2.1e7 cells, the first at the largest
real call's size: a blind-corpus bug (docs/blind-corpus-4) that solved the
complement above 4e6 cells, freeing the float sum's excess, passed."""

PROPORTIONAL_OFF_GRID_DRAWS = 2
"""Cases of :func:`~knapsack_audit.strategies.proportional_off_grid_case`
(runtime ``c * m`` with memories off the unit grid), the first at the
largest real call's size: a blind-corpus bug that read proportional
runtimes as a subset-sum of the quantized weights from 96 items passed,
since the proportional region keeps memories on the grid."""

ONE_SIDED_DRAWS = 1
"""Cases of :func:`~knapsack_audit.strategies.one_sided_optimum_case` per
place of :data:`~knapsack_audit.strategies.ONE_SIDED_PLACES` (the optimum
in the first or the last half of the items, filling the budget), at 1.06e7
to about 2.1e7 cells, the first at the largest real call's size: a
blind-corpus bug that joined two halves' tables above 1e7 cells over the
splits ``0 .. Q - 1`` only passed."""
TWO_SIZES_DRAWS = 4
"""Cases of :func:`~knapsack_audit.strategies.two_sizes_case` (items of
exactly two weights, the value zigzagging in the count of large ones), the
first at the largest real call's size: a blind-corpus bug that walked the
count of large items to its first decrease from 64 items passed default
``verify`` (session 16)."""
ZERO_RUNTIME_DRAWS = 1
"""Cases of :func:`~knapsack_audit.strategies.zero_runtimes_case` (every
runtime zero), at the largest real call's size: a blind-corpus bug that
divided runtimes by the largest from 128 items (0 / 0 with all zero) passed
default ``verify`` (session 16)."""
EXACT_SHARES_PARTS = (2, 3)
"""One case of :func:`~knapsack_audit.strategies.exact_shares_case` per count
of shares, the first at the largest real call's size: a blind-corpus bug
that took items of at least half the budget as excluding one another above
4e6 cells (``2 q >= Q``: two items of exactly ``Q / 2`` fit together) passed
default ``verify`` (session 17, docs/blind-corpus-8). Each is made right
after its items under a quarter of its budget
(:func:`~knapsack_audit.strategies.under_a_quarter_budget`): the shares are
then too heavy, so a solver that clamps cached weights to an earlier
budget, or remembers the items too heavy for it, saves them wrongly
(``scaling.budget_sweep`` alone missed such a bug at 1 seed of 20)."""
SHARED_RUNTIME_FACTORS = (2, 3)
"""One case of :func:`~knapsack_audit.strategies.shared_factor_runtimes_case`
per common factor of the runtimes, the first at the largest real call's
size: a blind-corpus bug that, from 128 items with whole runtimes and a
budget of at least ``4 (V + 1)`` units, read a table by runtime with a
binary search (right for all-1.0 runtimes, low when they share a factor)
was left to the random rounds (found at 28 to 31 s of 45, session 17,
docs/blind-corpus-8)."""
FLOAT32_BUDGET_DIRECTIONS = (True, False)
"""One case of :func:`~knapsack_audit.strategies.float32_budget_case` (a
budget whose float32 readings are all a unit over, then all a unit under,
SPEC 2.1's quantization, at 1.06e7 to 2.1e7 cells), the first at the
largest real call's size: a bug of our own that
quantized the budget in float32 from 256 items passed default ``verify``
(session 18; the region "float32 quantization differs" then split only
memories)."""
POWER_OF_TWO_DRAWS = 2
"""Cases of :func:`~knapsack_audit.strategies.power_of_two_sizes_case` (sizes
``u * 2**k``, every item fitting under a power of two), the first at the
largest real call's size: a blind-corpus bug that, from 64 items of such
sizes, ran the greedy for divisible sizes and dropped each size's odd last
bundle passed the breadth phase (session 18, /work/blind10)."""
SUPERINCREASING_DRAWS = 2
"""Cases of :func:`~knapsack_audit.strategies.superincreasing_case` (2 to 5
items each worth more than all cheaper ones together, no two fitting
together), the first at the largest real call's size: a blind-corpus bug
that, from 128 items, saved such items up front checking only that each
fits the budget alone passed the breadth phase (session 18)."""
PERIODIC_LAYERS_DRAWS = 2
"""Cases of :func:`~knapsack_audit.strategies.periodic_layers_case` (one layer
of 3 to 8 items repeated exactly, in order, 4 or more times, under a budget
no repeated selection makes the most of), the first at the largest real
call's size: a blind-corpus bug that, from 256 such items, solved one layer
under its share of the budget and repeated its choice was found only by the
random rounds (13 to 17 s), never by the breadth phase (session 19,
docs/blind-corpus-6)."""
BLOCKS_AND_ONE_ODD_DRAWS = 2
"""Cases of :func:`~knapsack_audit.strategies.blocks_and_one_odd_case`
(blocks of one weight and one lighter odd item that fits beside the best
blocks), the first at the largest real call's size: a blind-corpus bug that
counted the odd item as whole block slots from 128 items passed default
``verify`` (session 16, docs/blind-corpus-7)."""

MINIMIZE_SECONDS = 10.0
"""Seconds :func:`minimize` may spend; then its smallest case is kept (marked)."""

SHRINK_SECONDS = 10.0
"""Seconds Hypothesis may spend shrinking one failure; then the smallest case
seen is kept (marked "not fully shrunk") and :func:`minimize` drops items."""

SHRINK_CALL_TIMEOUT = 1.0
"""Seconds per call while :func:`shrink_timeout` drops items from a timing-out case."""

NOT_FULLY_SHRUNK = " (not fully shrunk: the search was stopped while shrinking)"
DID_NOT_REPLAY = " (did not reproduce on replay: nondeterministic or timing-dependent)"
SHRINK_CUT = f" (not fully shrunk: shrinking stopped after {SHRINK_SECONDS:g} s)"
MINIMIZE_CUT = f" (not fully shrunk: dropping items stopped after {MINIMIZE_SECONDS:g} s)"


class SearchStopped(BaseException):
    """Raised when the hard stop passes: ends :func:`audit` early.

    A ``BaseException``, so neither :func:`knapsack_audit.properties.call` nor
    Hypothesis treats it as a failure; :func:`audit` returns what it has found.
    """


class PropertyFailed(AssertionError):
    """Raised inside the Hypothesis test; one subclass per property."""

    finding: Finding


class _TimedOut(BaseException):
    """Ends a Hypothesis round at a call timeout, so Hypothesis does not shrink it."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


_FAILURE_TYPES: dict[str, type[PropertyFailed]] = {
    name: type(f"PropertyFailed_{name.replace('-', '_')}", (PropertyFailed,), {})
    for name in PROPERTIES
}


@runtime_checkable
class Worker(Protocol):
    """What an isolated solver (:class:`knapsack_audit.isolation.IsolatedSolver`)
    offers beyond a call: batched calls and an adjustable call timeout."""

    call_timeout: float

    def __call__(self, memory: list[Any], runtime: list[Any], max_memory: Any) -> Any: ...

    def call_many(self, arguments: list[tuple[list[Any], list[Any], Any]]) -> list[Any]: ...


@dataclass(frozen=True)
class KnownCase:
    """A case whose exact optimum is known without an oracle run (a golden call's
    stored optimum, a scaled case's), and what it is, for a finding's message."""

    case: Case
    optimum: Fraction
    note: str

    @classmethod
    def of(cls, scaled: Scaled) -> KnownCase:
        """The transformed case of a :class:`~knapsack_audit.scaling.Scaled`."""
        return cls(scaled.case, scaled.optimum, scaled.note())


BreadthCase = Case | KnownCase


LATER_REGIONS_DRAWN_PLAINLY = (
    "runtimes past float32's range",
    "runtimes on a binary grid, whole total",
)
"""The later regions whose call past the largest real call is their builder's
plain draw (the other two are drawn with the items that fit fitting
together, :data:`FEW_FITTING_COUNTS`, and with the paying item fitting)."""


LATER_REGIONS = ("few items fit alone", "one paying item", *LATER_REGIONS_DRAWN_PLAINLY)
"""Regions added in session 25: they follow the seeded order of the others in
the breadth phase, so that the others' draws at the small tiers, from which
the big tables and their twins are made, stay what they were (a base of
"optimum across 2**63" drawn instead left a seed without its runtime twins).
One call of each is also made past the largest real call
(:data:`~knapsack_audit.strategies.PAST_LARGEST_ITEMS`, a random stream of
their own; the items that fit all fitting together, two counts of them,
:data:`FEW_FITTING_COUNTS`, and the paying item fitting): planted twins of
blind bugs on them gated at 384 to 768 items failed none of the breadth
calls at some seeds without it."""


NEWEST_REGIONS = {
    "every runtime one decimal": "the newest regions",
    "one fits at a time": "the region one fits at a time",
    "one runtime, every item fits": "the region one runtime, every item fits",
    "layers measured apart": "the region layers measured apart",
    "one size under whole shares": "the region one size under whole shares",
    "profiled runtimes of four decimals": "the region profiled runtimes of four decimals",
}
"""Regions added since session 26, each with the name of its random stream:
the breadth phase draws their cases at every size tier, and at a few items
carried to huge tables, from that stream, so that every other call stays
what it was (session 27's region has a stream of its own, so that session
26's stays the same too). Session 30's, "profiled runtimes of four
decimals", holds values past int64 in tables met in full (our solver's
two-word backend), at the tiers only (:data:`NOT_SCALED_REGIONS`). Rotated in with
the others, one more region changed which regions the tiny tiers drew, and
with them the bases of the big tables: two tests of calls that kill
mutants of our solver lost their call at a seed."""


NOT_SCALED_REGIONS = ("profiled runtimes of four decimals",)
"""Regions left out of the few-item calls carried to huge tables: exact
values past ``2**63`` there cost a pure-Python table 6 to 20 s a call (our
reference; 2 to 19 s for 16 items under 5e6 cells), past the call timeout
on a loaded machine, and the calls pushed torch's ``dp_knapsack`` audit past
its effort in CI (``incomplete``, session 30). Their tier calls stay."""


NEWEST_PAST_LARGEST_REGIONS = (
    "one runtime, every item fits",
    "layers measured apart",
    "one size under whole shares",
)
"""The regions of session 29, each also drawn once past the largest real
call (:data:`~knapsack_audit.strategies.PAST_LARGEST_ITEMS`) from its own
stream: blind bugs on them switched on at 192 and 2,048 items and above 8e6
cells, where no breadth call held their pattern."""


COMPOSITE_PATTERNS = (
    one_runtime_nothing_fits_case,
    dwarfed_copies_case,
    periodic_saved_below_case,
    one_fitting_size_among_heavy_case,
)
"""Patterns the breadth phase makes at each of :data:`COMPOSITE_SIZES`, right
after the partitioner sizes' cheap region calls (session 30): every runtime
equal and nothing fits; many exact copies beside one runtime that dwarfs the
rest on an item too heavy to save; exact repeats of a block where the top
blocks save nothing; one fitting size among items heavier than the budget,
one of them first. Four blind bugs on them, gated at 128 to 384 items (or 64
copies), passed default ``verify``: the regions drew each pattern's parts,
never the whole at those sizes (docs/blind-corpus-25, -26)."""


COMPOSITE_SIZES = (LARGEST_REAL_ITEMS, PAST_LARGEST_ITEMS)
"""Item counts of :data:`COMPOSITE_PATTERNS`' calls (each at most
:data:`~knapsack_audit.strategies.REGION_CELLS` cells)."""


EARLIER_PATTERNS = (over_a_half_way_up_budget_case, equal_decimal_runtimes_case)
"""Patterns the breadth phase also makes at each of :data:`COMPOSITE_SIZES`
right after :data:`COMPOSITE_PATTERNS` (session 31): a budget written half a
unit below an even ``Q`` (SPEC 2.1 rounds it up) whose last unit holds the key
item, and every item worth one decimal runtime. Each was drawn at 2,114 items
only, past the 300th breadth call, which an audit of an upstream-speed solver
does not reach in its 45 s beside another audit: blind bugs that read such a
budget a unit short from 512 and 1,536 items, and that sized the saved
indices' buffer by the plan's float32 value over its cheapest runtime from 384
items, passed default ``verify`` (docs/blind-corpus-27, -28)."""


GIGABYTE_SIZES = (128, 256)
"""Item counts of the breadth phase's :func:`~knapsack_audit.strategies.gigabyte_half_way_case`
calls (session 31): a blind bug that quantized sizes of a gigabyte or more as
their whole part plus their rounded fraction, from 64 such items, passed
default ``verify``; no breadth call held an item past a gigabyte written on a
half unit (docs/blind-corpus-28). About 2.6e6 to 8.3e6 cells."""


GROUPING_PATTERNS = (
    (sizes_a_power_apart_case, (256, 384)),
    (close_heavy_pair_case, (LARGEST_REAL_ITEMS, 1536)),
    (permuted_blocks_case, (256, LARGEST_REAL_ITEMS)),
)
"""Patterns, each at two item counts, the breadth phase makes after the
gigabyte calls (session 31): two sizes equal in their low 12 or 13 bits; two
items over half the budget within a 256th of it, the dearer leaving
less room; repeats of one block, each in an order of its own. Blind bugs that
grouped items more loosely than exact copies (SPEC 6.3) on each passed
default ``verify``: a cap per size counted in 4,096 bins of the low bits
(from 192 items), one row per sixteenth of the budget among the items over
half of it (above 2e6 cells), and repeated layers found by their blocks'
totals (from 256 items; docs/blind-corpus-27, -28). Kept under about 7e6
cells: our pure-Python reference answers the six in about 10 s."""


SESSION_32_PATTERNS = (
    (sentinel_first_case, (256, LARGEST_REAL_ITEMS)),
    (mixed_types_copies_case, (640, LARGEST_REAL_ITEMS)),
)
"""Patterns, each at two item counts, the breadth phase makes after
:data:`GROUPING_PATTERNS` (session 32): a "never save" sentinel of 1e14 GB or
more listed first, which swallows the light sizes in a float sum, beside 32
to 48 items heavier than the budget; repeats of a layer whose later copies
write equal sizes as another type (``-0.0``, an ``int``, a
``numpy.float64``). Blind bugs passed default ``verify`` on each: a fast path
for "everything that fits alone fits together" tested on the float total
less the heavy sizes (from 32 heavy items), and sizes interned into the
caller's list by value (from 512 items; docs/blind-corpus-29)."""


MEASURED_LAYERS_SIZES = (SCALE_SIZES[0], LARGEST_REAL_ITEMS, PAST_LARGEST_ITEMS)
"""Item counts of the breadth phase's calls of "layers measured apart" whose
budget holds one heavy item: a blind bug that kept one item per weight among
items over half the budget (from 192 items) passed the region's own draws at
a seed of four, which hold such a budget in half of them."""


FEW_FITTING_COUNTS = ((3, 6), (7, FEW_FITTING_MOST))
"""How many items fit the budget alone (at least, at most) in the breadth
phase's calls of the region "few items fit alone" past the largest real
call, all of them together: a fast path for a handful of fitting items may
switch on at six or eight of them, or twelve."""


FEW_FITTING_EXACTLY = (1, 2)
"""And exactly how many in two more such calls (session 26: a blind bug's
path for "exactly one item fits" returned a 1-tuple; the region draws 1 to
12 fitting items, so rarely exactly one)."""


def breadth_cases(
    seed: int, real: Sequence[KnownCase] = (), domain: str = "partitioner"
) -> list[BreadthCase]:
    """The breadth phase's cases, cheapest first: :data:`BREADTH_PER_TIER` cases
    of each tiny tier, one of every value region at the threshold sizes
    (regions in a seeded order), those of fewer than
    :data:`~knapsack_audit.strategies.HUGE_BUDGET_CELLS` table cells, and
    :data:`RAISED_TWICE_DRAWS` more of the region "copies a bound raises
    twice", :data:`WIDEST_GRID_DRAWS` of "copies a branch and bound gives
    up on" with the budget on the widest type's grid and
    :data:`IDLE_LIGHTEST_DRAWS` with the most efficient type left out, at
    each of :data:`EVERY_REGION_TIERS`, :data:`INT64_LIMIT_DRAWS` more of
    "optimum across 2**63" at the threshold sizes and :data:`PAST_POWER_DRAWS`
    of types of copies just past a power of two across it,
    :data:`TINY_RUNTIME_DRAWS` of many items of one weight with tiny unequal
    runtimes per scale of :data:`~knapsack_audit.strategies.TINY_RUNTIME_SCALES`
    at the partitioner's sizes, :data:`TOLERANCE_DRAWS` of hundreds of items
    each under a relative tolerance of the optimum per ratio of
    :data:`~knapsack_audit.strategies.TOLERANCE_RATIOS`, :data:`EXACT_FIT_DRAWS`
    with an item of exactly the budget's weight and as many under a budget
    of 0, :data:`DOMINANT_DRAWS` with items too heavy to save worth
    ``2**e`` times the others per exponent of
    :data:`~knapsack_audit.strategies.DOMINANT_EXPONENTS`,
    :data:`PROPORTIONAL_OFF_GRID_DRAWS` with runtimes proportional to memories
    off the unit grid, one call where every item fits at each of
    :data:`SAVED_COUNT_SIZES`, and in the extended domain
    every region at each tier of :data:`DROPPED_ITEM_PLACES` beside items
    every optimum drops (those of more cells after the costly ones); then,
    from the first three small ones with a positive budget, one call per
    scaling of :func:`~knapsack_audit.scaling.big_tables` (tables over twice
    the largest real call's; the last made twice in a row, SPEC 8.4) and
    their :func:`~knapsack_audit.scaling.twins`
    (one reversed, runtime-scaled ones), and the two calls of
    :func:`~knapsack_audit.scaling.rematched_pair` (the second the first's
    memories and runtimes paired otherwise), the first made after its items
    under two lower budgets (:func:`~knapsack_audit.scaling.budget_sweep`);
    then the ``real`` calls; then the cheap region cases of the partitioner's
    sizes and the real-type rewritings under a zero budget (below); then one
    case of each of :data:`NEWEST_PAST_LARGEST_REGIONS` at
    :data:`~knapsack_audit.strategies.PAST_LARGEST_ITEMS` items and one of
    "layers measured apart" whose budget holds one heavy item at each of
    :data:`MEASURED_LAYERS_SIZES` (each from its region's stream); then the
    tiny and threshold-size cases of more
    cells (the huge-budget region: about a
    second per call for a pure-Python table solver), :data:`BIG_REGION_DRAWS`
    of each of :data:`~knapsack_audit.strategies.BIG_REGIONS` at the
    partitioner's sizes with tables of 1.06e7 to 2.1e7 cells,
    :data:`WIDE_HALF_WAY_DRAWS` with half-way memories of up to each of
    :data:`~knapsack_audit.strategies.WIDE_HALF_WAY_UNITS` units and
    :data:`WRAPPING_DRAWS` with weights past ``2**15`` to ``2**32`` units
    beside a budget under ``2**15``, and :data:`BIG_FIT_DRAWS` pairs with
    memories quantized up at about 1.06e7 to 2.1e7 cells, every item fitting,
    under their weight plus 0 to 2 units and under 1.5 to 2 times it,
    :data:`UNDER_FLOAT_SUM_DRAWS` with such memories under a budget below
    their float sum and :data:`ONE_SIDED_DRAWS` per place of
    :data:`~knapsack_audit.strategies.ONE_SIDED_PLACES` with the optimum in
    one half of the items (each kind's first at the largest real call's
    size), one per count of :data:`EXACT_SHARES_PARTS` whose optimum is
    that many items of exactly an equal share of the budget (each after its
    items under a quarter of that budget), one per factor
    of :data:`SHARED_RUNTIME_FACTORS` whose small whole runtimes all share
    it under a budget of four times their total or more,
    one per direction of :data:`FLOAT32_BUDGET_DIRECTIONS` under a budget
    whose float32 readings are a unit over or under,
    :data:`POWER_OF_TWO_DRAWS` of sizes ``u * 2**k`` that all fit under a
    power of two, :data:`SUPERINCREASING_DRAWS` with a few items each worth
    more than all cheaper ones, no two fitting together,
    :data:`PERIODIC_LAYERS_DRAWS` of one layer repeated 4 or more times under
    a budget no repeated selection makes the most of, one case of every
    value region at a few items (:data:`~knapsack_audit.scaling.FEW_ITEMS`)
    unit-scaled to a table of 3e6 to 1.2e7 cells
    (:func:`~knapsack_audit.scaling.few_items_huge_table`), then each of
    those under twice the largest real table again past it, one huge-budget
    case of
    :data:`~knapsack_audit.strategies.HUGE_BUDGET_ITEMS` items per runtime
    kind of :data:`~knapsack_audit.strategies.HUGE_BUDGET_NOISES` (the
    longest Pareto frontiers: a sparse method's state buffer),
    :data:`SHORT_OF_TOTAL_DRAWS` calls under a budget a unit short of the
    total weight, one case of every value region at the partitioner's
    sizes, and :data:`SPLITTING_DRAWS` strongly correlated ones of each of
    :data:`SPLITTING_SHAPES`, and one
    table past :data:`~knapsack_audit.strategies.PACKED_TABLE_CELLS` (the
    costliest for a pure-Python solver, so the first left to the rounds when
    time is short). Before the costliest (the dropped items' huge tables
    onwards), :data:`~knapsack_audit.strategies.OVER_IN_FLOAT` calls with an
    item of exactly the budget's weight written over it in float
    (:func:`~knapsack_audit.strategies.over_in_float_case`, past twice the
    largest real table), one of each of
    :data:`~knapsack_audit.strategies.PAST_LARGEST_REGIONS` at
    :data:`~knapsack_audit.strategies.PAST_LARGEST_ITEMS` items, one per
    direction of :data:`FLOAT32_BUDGET_DIRECTIONS` there, one of the
    ``testing`` estimator's unit runtimes, half the items free, whose
    optimum passes 2,048
    (:func:`~knapsack_audit.strategies.one_per_node_case`) and one with
    runtimes Python hashes alike
    (:func:`~knapsack_audit.strategies.hash_twins_case`), three of one
    set of items under budgets 2e-10 GB either side of a half unit
    (:func:`~knapsack_audit.strategies.half_unit_steps`), one with
    placeholder sizes of 1e7 to 1e14 GB
    (:func:`~knapsack_audit.strategies.sentinel_sizes_case`), one of
    items all of one size that all fit
    (:func:`~knapsack_audit.strategies.one_size_case`) and one per offsets
    of :data:`~knapsack_audit.strategies.UNEQUAL_SHARES` whose optimum is
    two shares a unit apart that fill the budget
    (:func:`~knapsack_audit.strategies.unequal_shares_case`), all from an
    rng of their own, and one call under each of the scope's
    :data:`~knapsack_audit.exhaustive.SCOPE_THRESHOLD_BUDGETS` (``10**4`` to
    ``2**16 + 1`` units, up to 1.4e8 cells), a small case scaled and padded
    with items over the budget
    (:func:`~knapsack_audit.scaling.threshold_budget_tables`), two whose
    optimum takes an item of more than half the budget that a rival of the
    whole budget beats alone, the rival listed first and last
    (:func:`~knapsack_audit.strategies.heavy_rival_case`), and two of
    flop-count runtimes all scaled so that their squares underflow or
    overflow float32
    (:func:`~knapsack_audit.strategies.extreme_runtimes_case`), one over a
    budget written half a unit below an even one
    (:func:`~knapsack_audit.strategies.over_a_half_way_up_budget_case`),
    one in runs of one object
    (:func:`~knapsack_audit.strategies.copy_runs_case`) and two listed by
    weight with runtimes rising with it, both lists rising or both falling
    (:func:`~knapsack_audit.strategies.sorted_together_case`) and one with
    every runtime zero (the second such call past 768 items: a fast path
    that hands out one kept list for "nothing saved" gives it the entry
    the worker wrote into the first's, SPEC 8.4), the regions of
    :data:`LATER_REGIONS`, two calls where exactly
    :data:`FEW_FITTING_EXACTLY` items fit alone, one of one decimal
    runtime for every item per sign of
    :data:`~knapsack_audit.strategies.SPREAD_SIGNS` and one whose
    placeholder sizes total past ``2**63`` units
    (:func:`~knapsack_audit.strategies.past_int64_total_case`), and one where
    no two items of some weight fit together
    (:func:`~knapsack_audit.strategies.one_fits_at_a_time_case`, from that
    region's stream); the cases
    of :data:`NEWEST_REGIONS` at every size tier come right after the
    tiny and threshold-size ones (those of more cells after the costly
    ones); then the calls
    :func:`~knapsack_audit.real_types.other_types_calls` writes again from
    all of them but the newest regions' cases in the other real types
    SPEC 1 accepts (signed zeros, ints,
    numpy scalars, an int budget, zero budgets of either sign), which draw
    nothing from ``rng``; last of all, each few-item base again with a
    prime unit at :data:`~knapsack_audit.scaling.FEW_ITEMS_FAR_CELLS` (2.1e7
    to 5.3e7 cells), then once more padded with items over the budget to as
    many items as a unit of
    :data:`~knapsack_audit.scaling.FAR_PADDED_LEAST_UNIT` leaves room for
    (at most :data:`~knapsack_audit.strategies.PAST_LARGEST_ITEMS`; each
    from a stream of its own, not rewritten)."""
    rng = random.Random(seed)
    regions = sorted(set(REGION_BUILDERS) - set(LATER_REGIONS) - set(NEWEST_REGIONS))
    rng.shuffle(regions)
    regions += LATER_REGIONS
    by_tier: dict[str, list[BreadthCase]] = {}
    for k, tier in enumerate(SIZE_TIERS):
        count = len(regions) if tier in EVERY_REGION_TIERS else BREADTH_PER_TIER
        by_tier[tier] = [
            region_case(regions[(k + j) % len(regions)], tier, rng) for j in range(count)
        ]
    last = list(SIZE_TIERS)[-1]
    first = [case for tier, cases in by_tier.items() if tier != last for case in cases]
    cheap = [case for case in first if _cells(case) < HUGE_BUDGET_CELLS]
    costly = [case for case in first if _cells(case) >= HUGE_BUDGET_CELLS]
    # Bases of the big tables and their twins: runtimes within float32's
    # range, which the twins rescale by up to 2**40 (a base of the region
    # "runtimes past float32's range" would leave no twin).
    small = [
        case
        for case in cheap
        if isinstance(case, Case)
        and 0 < case.n <= 12
        and max(map(abs, case.runtime), default=0.0) <= FLOAT32_NORMAL[1]
    ]
    big = big_tables(small, most=len(BIG_TABLE_UNITS))
    pair = rematched_pair(small)
    # The last big call twice in a row: a cache of answers that hands out its
    # own lists gives the second the lists the worker reused (SPEC 8.4).
    again = big[-1:]
    scaled_up = [
        KnownCase.of(call) for call in [*big, *again, *twins(big), *budget_sweep(pair[0]), *pair]
    ]
    splitting = [
        correlated_case(rng, SIZE_TIERS[last](rng), shape)
        for _ in range(SPLITTING_DRAWS)
        for shape in SPLITTING_SHAPES
    ]
    frontiers = [huge_budget_case(rng, HUGE_BUDGET_ITEMS, noise) for noise in HUGE_BUDGET_NOISES]
    packed = packed_table_case(rng)
    raised_twice = [
        region_case("copies a bound raises twice", tier, rng)
        for tier in EVERY_REGION_TIERS
        for _ in range(RAISED_TWICE_DRAWS)
    ]
    newest_rngs = {
        region: random.Random(f"{seed}: {stream}") for region, stream in NEWEST_REGIONS.items()
    }
    dropped = _with_dropped_items(rng, newest_rngs) if domain == "extended" else []
    widest_grid = [
        search_gives_up_case(rng, SIZE_TIERS[tier](rng), on_widest_grid=True)
        for tier in EVERY_REGION_TIERS
        for _ in range(WIDEST_GRID_DRAWS)
    ]
    saved_counts = [everything_fits_case(rng, n, every_item_fits=True) for n in SAVED_COUNT_SIZES]
    short_of_total = [short_of_total_case(rng) for _ in range(SHORT_OF_TOTAL_DRAWS)]
    lightest_idle = [
        search_gives_up_case(rng, SIZE_TIERS[tier](rng), lightest_idle=True)
        for tier in EVERY_REGION_TIERS
        for _ in range(IDLE_LIGHTEST_DRAWS)
    ]
    int64_limit = [
        region_case("optimum across 2**63", "thresholds", rng) for _ in range(INT64_LIMIT_DRAWS)
    ]
    past_power = [past_power_copies_case(rng) for _ in range(PAST_POWER_DRAWS)]
    tiny_runtimes = [
        tiny_runtime_copies_case(rng, SIZE_TIERS[last](rng), scale)
        for scale in TINY_RUNTIME_SCALES
        for _ in range(TINY_RUNTIME_DRAWS)
    ]
    big_regions = [
        big_region_case(rng, region, SIZE_TIERS[last](rng))
        for region in BIG_REGIONS
        for _ in range(BIG_REGION_DRAWS)
    ]
    absorbed = [
        tolerance_absorbed_case(rng, SIZE_TIERS[last](rng), ratio)
        for ratio in TOLERANCE_RATIOS
        for _ in range(TOLERANCE_DRAWS)
    ]
    exact_fits = [
        exact_fit_case(rng, SIZE_TIERS[last](rng), zero_budget)
        for zero_budget in (False, True)
        for _ in range(EXACT_FIT_DRAWS)
    ]
    wide_half_way = [
        wide_half_way_case(rng, n, most)
        for most in WIDE_HALF_WAY_UNITS
        for n in _largest_real_size_first(rng, WIDE_HALF_WAY_DRAWS)
    ]
    wrapping = [
        wrapping_weights_case(rng, n) for n in _largest_real_size_first(rng, WRAPPING_DRAWS)
    ]
    dominant = [
        dominant_out_of_reach_case(rng, n, exponent)
        for exponent in DOMINANT_EXPONENTS
        for n in _largest_real_size_first(rng, DOMINANT_DRAWS)
    ]
    big_fits = [
        case
        for n in _largest_real_size_first(rng, BIG_FIT_DRAWS)
        for case in (
            everything_fits_case(rng, n, True, big_table_units(rng, n), fractional=True),
            # Weights half as heavy: the budget is up to twice their total.
            past_the_total_case(rng, n, big_table_units(rng, n) // 2),
        )
    ]
    under_float_sum = [
        under_the_float_sum_case(rng, n, big_table_units(rng, n))
        for n in _largest_real_size_first(rng, UNDER_FLOAT_SUM_DRAWS)
    ]
    proportional = [
        proportional_off_grid_case(rng, n)
        for n in _largest_real_size_first(rng, PROPORTIONAL_OFF_GRID_DRAWS)
    ]
    one_sided = [
        one_sided_optimum_case(rng, n, place)
        for place in ONE_SIDED_PLACES
        for n in _largest_real_size_first(rng, ONE_SIDED_DRAWS)
    ]
    two_sizes = [two_sizes_case(rng, n) for n in _largest_real_size_first(rng, TWO_SIZES_DRAWS)]
    zero_runtimes = [
        zero_runtimes_case(rng, n) for n in _largest_real_size_first(rng, ZERO_RUNTIME_DRAWS)
    ]
    one_odd = [
        blocks_and_one_odd_case(rng, n)
        for n in _largest_real_size_first(rng, BLOCKS_AND_ONE_ODD_DRAWS)
    ]
    exact_shares = [
        exact_shares_case(rng, n, parts) for parts, n in _each_at_a_size(rng, EXACT_SHARES_PARTS)
    ]
    shared_factors = [
        shared_factor_runtimes_case(rng, n, factor)
        for factor, n in _each_at_a_size(rng, SHARED_RUNTIME_FACTORS)
    ]
    float32_budgets = [
        float32_budget_case(rng, n, up) for up, n in _each_at_a_size(rng, FLOAT32_BUDGET_DIRECTIONS)
    ]
    power_of_two = [
        power_of_two_sizes_case(rng, n) for n in _largest_real_size_first(rng, POWER_OF_TWO_DRAWS)
    ]
    superincreasing = [
        superincreasing_case(rng, n) for n in _largest_real_size_first(rng, SUPERINCREASING_DRAWS)
    ]
    periodic_layers = [
        periodic_layers_case(rng, n) for n in _largest_real_size_first(rng, PERIODIC_LAYERS_DRAWS)
    ]
    newest = [
        region_case(region, tier, newest_rngs[region])
        for tier in SIZE_TIERS
        for region in NEWEST_REGIONS
    ]
    few_items: list[BreadthCase] = []
    few_items_past_twice_real: list[BreadthCase] = []
    few_items_far: list[BreadthCase] = []
    far_rng = random.Random(f"{seed}: few items far past the largest real call")
    few_items_far_padded: list[BreadthCase] = []
    padded_rng = random.Random(f"{seed}: few items far past the largest real call, padded")
    for region, its_rng in _region_streams(rng, newest_rngs):
        if region in NOT_SCALED_REGIONS:
            continue
        base = REGION_BUILDERS[region](its_rng, its_rng.randint(*FEW_ITEMS))
        cells = its_rng.randint(*FEW_ITEMS_CELLS)
        call = few_items_huge_table(base, cells)
        if call is None:
            continue
        few_items.append(KnownCase.of(call))
        # Every region past twice the largest real table at every seed: a
        # draw under it left the rounded-runtimes twin (gated at 6e6 cells)
        # without a failing breadth call at two seeds of four (session 25).
        if cells < BIG_TABLE_CELLS:
            past = few_items_huge_table(base, BIG_TABLE_CELLS)
            assert past is not None  # the same base qualified above
            few_items_past_twice_real.append(KnownCase.of(past))
        # Session 28, from a stream of its own (the other calls unchanged).
        far = few_items_huge_table(base, far_rng.randint(*FEW_ITEMS_FAR_CELLS), prime_unit=True)
        assert far is not None  # the same base qualified above
        few_items_far.append(KnownCase.of(far))
        # And padded, every weight heavy: a coarser table gated on the item
        # count too (from 256 items) passed every call above (session 28).
        padded_cells = padded_rng.randint(*FEW_ITEMS_FAR_CELLS)
        padded = few_items_huge_table(
            base,
            padded_cells,
            prime_unit=True,
            items=heavy_padded_items(base, padded_cells, PAST_LARGEST_ITEMS),
            place=PLACES[len(few_items_far_padded) % len(PLACES)],
        )
        assert padded is not None
        few_items_far_padded.append(KnownCase.of(padded))
    over_in_float = [
        over_in_float_case(rng, n, over) for over, n in _each_at_a_size(rng, OVER_IN_FLOAT)
    ]
    past_rng = random.Random(f"{seed}: past the largest real call")  # rng's stream unchanged
    later_rng = random.Random(f"{seed}: later regions past the largest real call")
    past_largest: list[BreadthCase] = [
        *(REGION_BUILDERS[region](past_rng, PAST_LARGEST_ITEMS) for region in PAST_LARGEST_REGIONS),
        *(
            float32_budget_case(past_rng, PAST_LARGEST_ITEMS, up)
            for up in FLOAT32_BUDGET_DIRECTIONS
        ),
        one_per_node_case(past_rng, PAST_LARGEST_ITEMS),
        hash_twins_case(past_rng, PAST_LARGEST_ITEMS),
        *half_unit_steps(past_rng, PAST_LARGEST_ITEMS),
        sentinel_sizes_case(past_rng, PAST_LARGEST_ITEMS),
        one_size_case(past_rng, PAST_LARGEST_ITEMS),
        *(unequal_shares_case(past_rng, PAST_LARGEST_ITEMS, offsets) for offsets in UNEQUAL_SHARES),
        *(
            KnownCase.of(call)
            for call in threshold_budget_tables(small, SCOPE_THRESHOLD_BUDGETS, PAST_LARGEST_ITEMS)
        ),
        *(heavy_rival_case(past_rng, PAST_LARGEST_ITEMS, order) for order in HEAVY_RIVAL_ORDERS),
        *(extreme_runtimes_case(past_rng, PAST_LARGEST_ITEMS, top) for top in EXTREME_RUNTIME_TOPS),
        over_a_half_way_up_budget_case(past_rng, PAST_LARGEST_ITEMS),
        copy_runs_case(past_rng, PAST_LARGEST_ITEMS),
        *(sorted_together_case(past_rng, PAST_LARGEST_ITEMS, o) for o in SORTED_TOGETHER_ORDERS),
        zero_runtimes_case(past_rng, PAST_LARGEST_ITEMS),
        *(
            few_fitting_case(later_rng, PAST_LARGEST_ITEMS, together=True, least=least, most=most)
            for least, most in FEW_FITTING_COUNTS
        ),
        one_paying_case(later_rng, PAST_LARGEST_ITEMS, fits=True),
        *(
            REGION_BUILDERS[region](later_rng, PAST_LARGEST_ITEMS)
            for region in LATER_REGIONS_DRAWN_PLAINLY
        ),
        # Session 26, after session 25's draws from later_rng so that those
        # stay the same calls.
        *(
            few_fitting_case(later_rng, PAST_LARGEST_ITEMS, least=count, most=count)
            for count in FEW_FITTING_EXACTLY
        ),
        *(equal_decimal_runtimes_case(later_rng, PAST_LARGEST_ITEMS, s) for s in SPREAD_SIGNS),
        past_int64_total_case(later_rng, PAST_LARGEST_ITEMS),
    ]
    # Session 27, from the region's own stream (after its tiers' draws).
    one_at_a_time = one_fits_at_a_time_case(
        newest_rngs["one fits at a time"], PAST_LARGEST_ITEMS, PAST_LARGEST_ONE_AT_A_TIME_UNITS
    )
    past_largest.append(one_at_a_time)
    # Session 29, each from its region's own stream (after its tiers' and
    # few-item draws): blind bugs on them gated at 192 and 2,048 items. Cheap
    # but one (a table of about 9e6 cells), they come right after the partitioner
    # sizes' cheap region calls: listed with the other calls past the largest
    # real call, an audit beside another reached them in the rounds only.
    newest_past_largest = [
        REGION_BUILDERS[region](newest_rngs[region], PAST_LARGEST_ITEMS)
        for region in NEWEST_PAST_LARGEST_REGIONS
    ]
    layers_rng = newest_rngs["layers measured apart"]
    newest_past_largest += [
        measured_layers_case(layers_rng, n, one_heavy=True) for n in MEASURED_LAYERS_SIZES
    ]
    # Session 30, from a stream of their own: blind bugs gated at 128 to 384
    # items (or 64 copies) passed on these patterns at large sizes.
    composite_rng = random.Random(f"{seed}: session 30 patterns at large sizes")
    newest_past_largest += [
        build(composite_rng, n) for n in COMPOSITE_SIZES for build in COMPOSITE_PATTERNS
    ]
    # Session 31, from a stream of their own (the calls above unchanged).
    session_31_rng = random.Random(f"{seed}: session 31 patterns")
    newest_past_largest += [
        *(build(session_31_rng, n) for n in COMPOSITE_SIZES for build in EARLIER_PATTERNS),
        *(gigabyte_half_way_case(session_31_rng, n) for n in GIGABYTE_SIZES),
        *(build(session_31_rng, n) for build, sizes in GROUPING_PATTERNS for n in sizes),
    ]
    # Session 32, from a stream of their own (the calls above unchanged).
    session_32_rng = random.Random(f"{seed}: session 32 patterns")
    newest_past_largest += [
        build(session_32_rng, n) for build, sizes in SESSION_32_PATTERNS for n in sizes
    ]
    last_tier_cheap = [case for case in by_tier[last] if _cells(case) < HUGE_BUDGET_CELLS]
    up_to_the_real_calls: list[BreadthCase] = [
        *cheap,
        *[case for case in newest if _cells(case) < HUGE_BUDGET_CELLS],
        *raised_twice,
        *widest_grid,
        *lightest_idle,
        *int64_limit,
        *past_power,
        *tiny_runtimes,
        *absorbed,
        *exact_fits,
        *dominant,
        *proportional,
        *two_sizes,
        *zero_runtimes,
        *one_odd,
        *saved_counts,
        *[case for case in dropped if _cells(case) < HUGE_BUDGET_CELLS],
        *scaled_up,
        *real,
    ]
    calls: list[BreadthCase] = [
        *up_to_the_real_calls,
        *costly,
        *[case for case in newest if _cells(case) >= HUGE_BUDGET_CELLS],
        *big_regions,
        *wide_half_way,
        *wrapping,
        *big_fits,
        *under_float_sum,
        *one_sided,
        *[call for case in exact_shares for call in (under_a_quarter_budget(case), case)],
        *shared_factors,
        *float32_budgets,
        *power_of_two,
        *superincreasing,
        *periodic_layers,
        *few_items,
        *few_items_past_twice_real,
        *over_in_float,
        *past_largest,
    ]
    costliest: list[BreadthCase] = [
        *[case for case in dropped if _cells(case) >= HUGE_BUDGET_CELLS],
        *frontiers,
        *short_of_total,
        *by_tier[last],
        *splitting,
        packed,
    ]
    # Not from the newest regions' calls: listed before the older calls of
    # their sizes, they would take those calls' rewritings.
    newest_ids = {id(case) for case in [*newest, one_at_a_time, *newest_past_largest]}
    rewritten = other_types_calls(
        [_case_of(call) for call in [*calls, *costliest] if id(call) not in newest_ids]
    )
    # Every region at the partitioner's sizes comes earlier (right after the
    # sample of real calls) where its table is cheap: a bug on a value region
    # gated at 128 to 1,100 items was found at 26-28 s from the list's end
    # (session 25). Not before them: a short --time-budget's breadth share
    # would then shrink findings of 1,000 items before the scope. The
    # real-type rewritings above are made from the list as it was, so that
    # they stay the same calls.
    # The rewritings under a zero budget (tables of one column) come there
    # too: at the list's end, a fast path for budgets "<= 0" that a blind
    # corpus's `-0.0` call had killed passed once the list had grown past
    # what an audit's breadth share reaches (session 27).
    moved = {id(case) for case in last_tier_cheap}
    after = len(up_to_the_real_calls)
    zero_budget = [case for case in rewritten if float(case.max_memory) == 0]
    return [
        *calls[:after],
        *last_tier_cheap,
        *zero_budget,
        *newest_past_largest,
        *calls[after:],
        *[case for case in rewritten if float(case.max_memory) != 0],
        *[case for case in costliest if id(case) not in moved],
        # Last of all: a table solver in numpy or pure Python pays 0.4 to 3 s
        # for each (torch's dp_knapsack about 0.1 s). Before the real-type
        # rewritings, they left a planted bug on those (int runtimes, from
        # 512 items) without a failing call at default effort (session 28).
        *few_items_far,
        *few_items_far_padded,
    ]


def _case_of(call: BreadthCase) -> Case:
    return call.case if isinstance(call, KnownCase) else call


_Value = TypeVar("_Value")


def _largest_real_size_first(rng: random.Random, count: int) -> list[int]:
    """``count`` item counts: the largest real call's
    (:data:`~knapsack_audit.strategies.LARGEST_REAL_ITEMS`), where a fast path
    gated on any smaller size is on, then drawn from the partitioner's tier."""
    return [LARGEST_REAL_ITEMS, *(SIZE_TIERS["partitioner"](rng) for _ in range(count - 1))][:count]


def _each_at_a_size(rng: random.Random, values: Sequence[_Value]) -> list[tuple[_Value, int]]:
    """Each of ``values`` with an item count, the first the largest real
    call's (:func:`_largest_real_size_first`)."""
    return list(zip(values, _largest_real_size_first(rng, len(values)), strict=True))


def _region_streams(
    rng: random.Random, newest_rngs: dict[str, random.Random]
) -> list[tuple[str, random.Random]]:
    """Every value region with the stream that draws its cases: the older ones
    by name with ``rng``, then those of :data:`NEWEST_REGIONS` with their own
    streams, ``newest_rngs``."""
    older = sorted(set(REGION_BUILDERS) - set(NEWEST_REGIONS))
    return [(region, rng) for region in older] + [(r, newest_rngs[r]) for r in NEWEST_REGIONS]


def _with_dropped_items(rng: random.Random, newest_rngs: dict[str, random.Random]) -> list[Case]:
    """One case of every value region at each tier of
    :data:`DROPPED_ITEM_PLACES` with as many
    :func:`~knapsack_audit.strategies.dropped_item` as it has items, at the
    tier's places in turn from a drawn start (the extended domain, SPEC 4.4;
    the cases of :data:`NEWEST_REGIONS` drawn by their ``newest_rngs``), then
    :data:`DROPPED_TYPE_DRAWS` more of each of :data:`DROPPED_TYPE_REGIONS`
    at 4-12 items, interleaved."""
    calls, turn = [], rng.randrange(len(PLACES))
    for tier, places in DROPPED_ITEM_PLACES.items():
        for k, (region, its_rng) in enumerate(_region_streams(rng, newest_rngs)):
            case = region_case(region, tier, its_rng)
            calls.append(with_dropped_items(case, case.n, places[(turn + k) % len(places)]))
    for region in DROPPED_TYPE_REGIONS:
        for _ in range(DROPPED_TYPE_DRAWS):
            case = region_case(region, "4-12", rng)
            calls.append(with_dropped_items(case, case.n, "interleaved"))
    return calls


def _cells(case: BreadthCase) -> int:
    return table_cells(_case_of(case))


@dataclass
class AuditResult:
    """What :func:`audit` found, and the effort it spent."""

    findings: dict[str, Finding] = field(default_factory=dict)
    examples: int = 0
    """Random-phase examples tried (pinned cases included)."""
    seconds: float = 0.0
    calls: Counter[str] = field(default_factory=Counter)
    found_at: dict[str, tuple[int, float]] = field(default_factory=dict)
    """Per finding: (examples tried, seconds elapsed) when it was found."""
    found_items: dict[str, int] = field(default_factory=dict)
    """Per finding: items of the failing case before :func:`minimize` shrank it."""
    before: dict[str, tuple[Case, tuple[Case, ...]]] = field(default_factory=dict)
    """Per property: the last failing call the worker remembers, and the calls
    made before it, oldest first
    (:attr:`~knapsack_audit.isolation.IsolatedSolver.recent`; none for a
    solver that does not remember its calls): what a finding that fails only
    after earlier calls is replayed after (SPEC 8.1)."""
    stopped_early: bool = False
    """The hard stop ended the search before its budgets were spent: before the
    time budget, before the scope's last instance, or with no time budget."""
    seed: int = 0
    rounds: int = 0
    scope: str = ""
    """The exhaustive phase's bound, in words (empty: no exhaustive phase)."""
    scope_checked: int = 0
    scope_total: int = 0
    golden_checked: int = 0
    golden_total: int = 0
    breadth_checked: int = 0
    """Breadth calls (not real calls) judged, in the breadth phase or the rounds."""
    breadth_total: int = 0
    largest_table: int = 0
    """Most cells (``n * Q``) of a call judged (a scaled or golden one, mostly)."""

    def failed(self) -> list[str]:
        """Names of the failing properties, in :data:`PROPERTIES` order."""
        return [name for name in PROPERTIES if name in self.findings]

    @property
    def scope_complete(self) -> bool:
        """Every instance of the exhaustive scope was checked."""
        return self.scope_checked == self.scope_total


def relation_checks(
    solver: Solver,
    case: Case,
    judge: Judge,
    data: st.DataObject,
    wanted: Collection[str] = props.RELATIONS,
) -> list[Finding]:
    """Draw each wanted relation's parameter (from the table) and run that relation."""
    findings: list[Finding] = []
    for prop in props.TABLE:
        if prop.name in wanted and prop.relation is not None and prop.parameter is not None:
            parameter = data.draw(prop.parameter(case, judge), label=prop.name)
            findings += prop.relation(solver, case, judge, parameter)
    return findings


def findings_for(
    solver: Solver,
    case: Case,
    judge: Judge,
    data: st.DataObject | None,
    wanted: Collection[str] = PROPERTIES,
) -> list[Finding]:
    """The findings of the ``wanted`` properties on one case.

    The metamorphic relations run only when ``data`` (to draw their
    parameters) is given and one of them is wanted.
    """
    return _findings_and_outcome(solver, case, judge, data, wanted)[0]


def _findings_and_outcome(
    solver: Solver,
    case: Case,
    judge: Judge,
    data: st.DataObject | None,
    wanted: Collection[str],
    outcome: Outcome | None = None,
) -> tuple[list[Finding], Outcome]:
    """:func:`findings_for`, and the call's outcome (``outcome``: the call was made already)."""
    if outcome is None:
        outcome = props.call(solver, case)
    if isinstance(outcome.error, TimeoutError):
        # Calling again (determinism, relations) would wait out more timeouts.
        timed_out = {"no-crash"} & set(wanted)
        return props.judge_outcome(solver, case, judge, outcome, timed_out), outcome
    findings = props.judge_outcome(solver, case, judge, outcome, wanted)
    if data is not None and not set(wanted).isdisjoint(props.RELATIONS):
        findings += relation_checks(solver, case, judge, data, wanted)
    return findings, outcome


class Stoppable:
    """The solver, raising :class:`SearchStopped` once ``hard_stop`` (a
    :func:`time.monotonic` time) has passed: how a search, or a caller's
    :func:`minimize`, is cut off without the solver knowing."""

    def __init__(self, solver: Solver, hard_stop: float | None) -> None:
        self.solver = solver
        self.hard_stop = hard_stop

    def __call__(self, memory: list[Any], runtime: list[Any], max_memory: Any) -> Any:
        self.check()
        return self.solver(memory, runtime, max_memory)

    def submit(self, memory: list[Any], runtime: list[Any], max_memory: Any) -> Callable[[], Any]:
        """:meth:`__call__`, begun now (:func:`~knapsack_audit.properties.start_call`):
        the returned function gives the answer. A solver with a ``submit`` of its
        own (a worker process) computes meanwhile; any other is called at once."""
        self.check()
        submit = getattr(self.solver, "submit", None)
        if submit is not None:
            collect: Callable[[], Any] = submit(memory, runtime, max_memory)
            return collect
        answer = self.solver(memory, runtime, max_memory)
        return lambda: answer

    def stopped(self) -> bool:
        """Whether the hard stop has passed."""
        return self.hard_stop is not None and time.monotonic() > self.hard_stop

    def check(self) -> None:
        """Raise :class:`SearchStopped` if the hard stop has passed."""
        if self.stopped():
            raise SearchStopped


class _Search:
    """The state of one :func:`audit`: what is wanted, found and seen."""

    def __init__(
        self,
        solver: Stoppable,
        judge: Judge,
        wanted: set[str],
        on_example: Callable[[int], None] | None,
        stop_at_first: bool = False,
    ) -> None:
        self.stop_at_first = stop_at_first
        self.solver = solver
        self.judge = judge
        self.wanted = wanted
        self.asked = frozenset(wanted)
        """The properties the audit was asked for (``wanted`` loses those found)."""
        self.on_example = on_example
        self.result = AuditResult()
        self.started = time.perf_counter()
        self.seen: dict[str, Finding] = {}
        """Per property not yet found: the smallest failing case seen (shrinking)."""
        self.known: dict[Case, KnownCase | Scaled] = {}
        """Judged cases with a known optimum: how each was made (shrinking, reports)."""

    def judge_known(
        self, known: KnownCase | Scaled, outcome: Outcome | None = None
    ) -> tuple[list[Finding], Outcome]:
        """The one-call properties (but determinism) of a case of known optimum,
        and the call's outcome (``outcome``: the call was made already)."""
        props.know_optimum(known.case, known.optimum)
        self.known[known.case] = known
        return self.judge_call(known.case, outcome)

    def judge_call(
        self, case: Case, outcome: Outcome | None = None
    ) -> tuple[list[Finding], Outcome]:
        """The one-call properties (but determinism: each call of a large table
        costs) of ``case``, and the call's outcome."""
        self.result.largest_table = max(self.result.largest_table, table_cells(case))
        wanted = self.wanted & (set(props.CALL_PROPERTIES) - {"determinism"})
        return _findings_and_outcome(self.solver, case, self.judge, None, wanted, outcome)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def note_before(self, finding: Finding) -> None:
        """Remember the calls made before ``finding``'s call, if the worker does."""
        calls = calls_before(self.solver.solver, finding.case)
        if calls is not None:
            self.result.before[finding.property] = (finding.case, calls)

    def see(self, finding: Finding) -> None:
        """Remember ``finding`` if it is the smallest failure of its property so far."""
        self.result.found_at.setdefault(finding.property, (self.result.examples, self.elapsed()))
        known = self.seen.get(finding.property)
        if known is None or _size(finding.case) < _size(known.case):
            self.seen[finding.property] = finding
            self.note_before(finding)

    def pop_smallest_seen(self) -> Finding:
        """The smallest failure seen and not yet recorded, forgotten as seen
        (a round that ended before Hypothesis shrank or replayed it)."""
        name, smallest = min(self.seen.items(), key=lambda item: _size(item[1].case))
        self.seen.pop(name)
        return smallest

    def record(self, finding: Finding, shrink: bool = True) -> None:
        """A found failure: stop searching for its property, then shrink it."""
        name = finding.property
        self.result.found_at.setdefault(name, (self.result.examples, self.elapsed()))
        self.note_before(finding)
        self.wanted.discard(name)
        self.seen.pop(name, None)
        self.result.findings[name] = finding
        self.result.found_items.setdefault(name, finding.case.n)
        known = self.known.get(finding.case)
        if known is not None and shrink:
            self.result.findings[name] = shrink_known(
                self.solver, self.judge, finding, known, self.note_before
            )
        elif shrink:
            smaller = minimize(self.solver, self.judge, finding, on_failure=self.note_before)
            if finding.message.endswith(SHRINK_CUT) and not smaller.message.endswith(SHRINK_CUT):
                smaller = dataclasses.replace(smaller, message=smaller.message + SHRINK_CUT)
            self.result.findings[name] = smaller
        if self.stop_at_first:
            self.wanted.clear()

    def keep_seen(self) -> None:
        """After a stop: report each failure seen but not recorded, unshrunk."""
        for name, finding in list(self.seen.items()):
            if name in self.result.findings:
                current = self.result.findings[name]
                if _size(finding.case) < _size(current.case):
                    current = finding
                self.result.findings[name] = _unshrunk(current)
            else:
                self.record(_unshrunk(finding), shrink=False)
        self.seen.clear()


def calls_before(solver: Solver, case: Case) -> tuple[Case, ...] | None:
    """The calls ``solver`` remembers (its ``recent`` calls, if it keeps them)
    from before its last call on ``case``: what led to the state that call saw.
    First, when it is another call made before those, the first call with
    ``case``'s item count and budget (its ``first_call_like``): the one a
    cache keyed by them keeps, however far back; that call alone when the
    call on ``case`` is not remembered any more.

    The failing call itself and what followed it (a determinism re-call, the
    relations' transformed calls) are left out. ``None`` if nothing is
    remembered from before the call on ``case`` (a solver that does not
    remember its calls, or an early call of a long batch that was the first
    of its item count and budget).
    """
    recent = list(getattr(solver, "recent", ()))
    first_call_like = getattr(solver, "first_call_like", None)
    first = None if first_call_like is None else first_call_like(case)
    if first == case:
        first = None
    last = max((index for index, call in enumerate(recent) if call == case), default=None)
    if last is None:
        return None if first is None else (first,)
    earlier = recent[:last]
    while earlier and earlier[-1] == case:
        earlier.pop()
    if first is not None and first not in recent:
        earlier.insert(0, first)
    return tuple(earlier)


def note_calls_before(result: AuditResult, solver: Solver) -> None:
    """For each finding whose calls before were not noted on its own case
    (:attr:`AuditResult.before` names another, or none), what ``solver``
    remembers of them at the end of the audit (:func:`calls_before`)."""
    for name, finding in result.findings.items():
        noted = result.before.get(name)
        if noted is None or noted[0] != finding.case:
            calls = calls_before(solver, finding.case)
            if calls is not None:
                result.before[name] = (finding.case, calls)


def _size(case: Case) -> tuple[int, int]:
    return case.n, len(case.as_flat_call())


def _unshrunk(finding: Finding, why: str = NOT_FULLY_SHRUNK) -> Finding:
    """``finding`` marked as not fully shrunk (``why``), unless it is marked already."""
    if "(not fully shrunk" in finding.message:
        return finding
    return dataclasses.replace(finding, message=finding.message + why)


def audit(
    solver: Solver,
    judge: Judge,
    *,
    strategy: st.SearchStrategy[Case] | None = None,
    hypothesis_settings: settings | None = None,
    properties: Iterable[str] = PROPERTIES,
    domain: str = "partitioner",
    pinned: Sequence[Case] = (),
    breadth: Sequence[BreadthCase] = (),
    golden: Sequence[KnownCase] = (),
    scope: Scope | None = None,
    on_example: Callable[[int], None] | None = None,
    time_budget: float | None = None,
    max_examples: int | None = None,
    search_seed: int = 0,
    hard_stop: float | None = None,
    scale: bool = False,
    stop_at_first: bool = False,
) -> AuditResult:
    """Search for failures of ``properties`` and shrink each to a minimal case.

    The random phase runs rounds of ``hypothesis_settings.max_examples``
    examples per tier (tiny cases first, cheap to shrink, where most bugs
    show; then every regime of :func:`knapsack_audit.strategies.cases`).
    With a derandomized profile (the test suite) every round would repeat
    the last, so the search stops at the first round that finds nothing.
    Otherwise round ``k`` is seeded from ``search_seed`` and ``k``, and rounds go
    on until ``time_budget`` seconds or ``max_examples`` examples are spent
    (at least one round when neither is given).

    Args:
        solver: the callable under audit (upstream's signature); a
            :class:`Worker` also gets batched calls and timeout shrinking.
        judge: exact (ours) or float32-tolerant (third party), SPEC 5.
        strategy: cases to draw instead of the two default tiers.
        hypothesis_settings: e.g. a registered profile; default: the loaded one.
        properties: the subset of :data:`PROPERTIES` to check.
        domain: ``"partitioner"`` or ``"extended"`` (SPEC 4.4).
        pinned: cases checked first (known upstream bugs).
        breadth: cases checked next, before the exhaustive phase, one-call
            properties only: a few of every size tier and table size
            (:func:`breadth_cases`) and a sample of the real calls, so that a
            slow solver is judged across sizes before the scope takes its time
            (at most :data:`BREADTH_SHARE` of ``time_budget``, not counting the
            time spent shrinking its findings; the rest go on after the scope
            up to :data:`BREADTH_AFTER_SCOPE_SHARE` of it, then first in the
            rounds).
        golden: real calls of known optimum, :data:`GOLDEN_PER_ROUND` checked at
            the start of each round (the breadth phase holds a sample of them).
        scope: the exhaustive phase's scope (``None``: no exhaustive phase).
        on_example: called with the running example count (progress display).
        time_budget: seconds from the start of the audit (all phases share
            them) after which the random phase starts no new example (a
            failure being shrunk is still shrunk, up to ``hard_stop``).
        max_examples: random-phase example budget (``None``: no limit but time).
        search_seed: seeds the random phase (replay a run with the same seed).
        hard_stop: a :func:`time.monotonic` time after which every solver call
            ends the search; what was found or seen is still reported.
        scale: add to each round, before its last tier, :data:`SCALE_EXAMPLES` of the
            partitioner's real sizes (:func:`~knapsack_audit.strategies.scale_cases`),
            :data:`TIERED_EXAMPLES` of every value region at every size
            (:func:`~knapsack_audit.strategies.tiered_cases`) and
            :data:`SCALED_EXAMPLES` small cases scaled to large tables
            (:func:`~knapsack_audit.scaling.scaled_cases`), one-call properties only.
        stop_at_first: end the search at the first finding (mutation testing).
    """
    wanted = set(properties)
    unknown = wanted - set(PROPERTIES)
    if unknown:
        raise ValueError(f"properties: unknown names {sorted(unknown)}; known: {PROPERTIES}")
    stoppable = Stoppable(solver, hard_stop)
    search = _Search(stoppable, judge, wanted, on_example, stop_at_first)
    search.result.seed = search_seed
    base = hypothesis_settings or settings()
    tiers = [
        _Tier(tier)
        for tier in ([strategy] if strategy is not None else [small_cases(domain), cases(domain)])
    ]
    if scale:
        tiers[-1:-1] = [
            _Tier(tiered_cases(domain), TIERED_EXAMPLES, one_call=True),
            _Tier(scaled_cases(domain), SCALED_EXAMPLES, one_call=True),
            _Tier(scale_cases(), SCALE_EXAMPLES, one_call=True),
        ]
    real = sum(_is_real_call(case) for case in breadth)
    search.result.golden_total = len(golden) + real
    search.result.breadth_total = len(breadth) - real
    try:
        for case in pinned:
            for finding in findings_for(stoppable, case, judge, None, wanted):
                search.record(finding)
            search.result.examples += 1
        share = None if time_budget is None else time_budget * BREADTH_SHARE
        left = _breadth_phase(search, breadth, share)
        if scope is not None:
            _exhaustive_phase(search, solver, scope)
        if left and time_budget is not None:
            left = _breadth_phase(search, left, time_budget * BREADTH_AFTER_SCOPE_SHARE)
        _random_phase(
            search, tiers, base, time_budget, max_examples, search_seed, [*left, *golden], len(left)
        )
    except SearchStopped:
        # Past the time budget the rounds start no new case, so a stop there cut
        # off only a case begun within it (its later calls or its shrink): the
        # effort was spent, unless the scope was left unfinished. (An audit of torch's
        # dp_knapsack under a 25 s budget ended 7.6 s past it, session 34.)
        search.result.stopped_early = (
            time_budget is None
            or search.elapsed() <= time_budget
            or not search.result.scope_complete
        )
    search.keep_seen()
    search.result.seconds = search.elapsed()
    return search.result


GOLDEN_NOTE = "a real call"
"""How a golden call's note starts (``verify`` writes the provenance after it)."""


def _is_real_call(case: BreadthCase) -> bool:
    """``case`` is one of the partitioner's captured calls (not a breadth call)."""
    return isinstance(case, KnownCase) and case.note.startswith(GOLDEN_NOTE)


def _breadth_phase(
    search: _Search, breadth: Sequence[BreadthCase], until: float | None = None
) -> list[BreadthCase]:
    """The breadth cases in order, one-call properties but determinism (each call
    of a large table costs), until ``until`` seconds of checking into the audit;
    returns the cases left unchecked then (the rounds check them).

    Each call is begun before the call before it is judged: a worker process
    computes the next answer while the exact oracle judges the last one, on
    another core (with the oracle process below, an audit of upstream's
    ``dp_knapsack`` judged about 405 calls in 30 s instead of 340, seed 1,
    session 32).
    The calls reach the solver in the breadth order all the same, each
    :class:`_Recalls` call right after the call that makes it due.

    Shrinking a finding does not count against ``until``: a failure found early
    (shrunk for up to :data:`SHRINK_SECONDS`) must not leave the breadth calls
    that hold the other properties' failures to the rounds."""
    short = until is not None and until - search.elapsed() < AHEAD_FROM_SECONDS
    ahead = None if short else _oracle_ahead(search, breadth)
    try:
        return _breadth_calls(search, breadth, until, ahead)
    finally:
        if ahead is not None:
            ahead.close()


def _oracle_ahead(search: _Search, breadth: Sequence[BreadthCase]) -> OracleAhead | None:
    """A process computing the optima of the breadth calls that need the oracle
    (:mod:`knapsack_audit.oracle_ahead`), when the solver runs in a worker
    process (else the auditor's process is the only one busy, and the
    oracle's turn costs no more than it does there) and optimality is wanted."""
    if (
        not isinstance(search.solver.solver, Worker)
        or search.judge.oracle is not None
        or "optimality" not in search.wanted
    ):
        return None
    heavy = [
        (k, case)
        for k, case in enumerate(breadth)
        if isinstance(case, Case)
        and case.n <= search.judge.oracle_max_items
        and table_cells(case) >= AHEAD_FROM_CELLS
    ]
    return OracleAhead(heavy) if heavy else None


def _breadth_calls(
    search: _Search,
    breadth: Sequence[BreadthCase],
    until: float | None,
    ahead: OracleAhead | None,
) -> list[BreadthCase]:
    """:func:`_breadth_phase`'s loop: each call begun before the last is judged."""
    shrinking = 0.0
    recalls = _Recalls()
    answered: dict[int, tuple[Outcome, Finding | None]] = {}

    def go_on() -> bool:
        return bool(search.wanted) and (until is None or search.elapsed() - shrinking <= until)

    def begin(k: int) -> props.PendingCall | None:
        """The call of ``breadth[k]``, begun, if there is one and time is left
        (past the hard stop, the call before is judged still)."""
        if k < len(breadth) and go_on() and not search.solver.stopped():
            return props.start_call(search.solver.submit, _case_of(breadth[k]))
        return None

    def collect(k: int, call: props.PendingCall) -> None:
        """The answer of call ``k``, then at once the calls made again after it."""
        if k in answered:
            return
        outcome = call.outcome()
        history = None
        if "determinism" in search.wanted:
            called = _case_of(breadth[k])
            history = recalls.after(search.solver, called)
            recalls.keep(called, outcome)
        answered[k] = (outcome, history)

    pending = begin(0)
    for k, case in enumerate(breadth):
        if pending is None:
            return list(breadth[k:]) if search.wanted else []
        collect(k, pending)
        outcome, history = answered.pop(k)
        pending = begin(k + 1)
        if isinstance(case, KnownCase):
            findings, _ = search.judge_known(case, outcome)
        else:
            optimum = None if ahead is None else ahead.optimum(k)
            if optimum is not None:
                props.know_optimum(case, optimum)
            findings, _ = search.judge_call(case, outcome)
        search.result.examples += 1
        if _is_real_call(case):
            search.result.golden_checked += 1
        else:
            search.result.breadth_checked += 1
        if history is not None:
            search.record(history, shrink=False)
        for finding in findings:
            if finding.property in search.wanted:
                if pending is not None:
                    collect(k + 1, pending)  # shrinking calls the solver: the next answer first
                started = search.elapsed()
                search.record(finding)
                shrinking += search.elapsed() - started
    return []


RECALL_FROM_ITEMS = 64
"""Fewest items of a breadth call the breadth phase makes again (:class:`_Recalls`)."""

RECALL_MAX_CELLS = 2_000_000
"""Largest table (``n * (Q + 1)``) of a call made again: a second call of a
pure-Python table solver costs about a second."""

RECALLS_PER_OCTAVE = 2
"""Calls made again per power of two of item counts."""


class _Recalls:
    """SPEC 8.1 across calls: the same call, made again after another call, gets
    the same answer. ``determinism`` calls twice in a row, so a solver that
    carries a choice over from its previous call (a tie broken towards the
    last plan, a cache keyed too loosely) answers both the same. Here the
    first :data:`RECALLS_PER_OCTAVE` answered calls of each power of two of
    item counts from :data:`RECALL_FROM_ITEMS` up (of at most
    :data:`RECALL_MAX_CELLS` cells) are made again right after the next
    breadth call of the same power of two: a state that only calls of that
    size keep is then another call's. A blind bug broke ties towards the
    previous plan from 768 items; a second call a fixed 8 calls later came
    after small calls only, which left the state as the first call had
    (session 31)."""

    def __init__(self) -> None:
        self.kept: dict[int, int] = {}
        self.waiting: dict[int, list[tuple[Case, Outcome]]] = {}

    def keep(self, case: Case, outcome: Outcome) -> None:
        """Keep ``case`` to call again, if it is among the first answered calls
        of its power of two of item counts."""
        octave = case.n.bit_length()
        if (
            outcome.error is None
            and case.n >= RECALL_FROM_ITEMS
            and table_cells(case) <= RECALL_MAX_CELLS
            and self.kept.get(octave, 0) < RECALLS_PER_OCTAVE
        ):
            self.kept[octave] = self.kept.get(octave, 0) + 1
            self.waiting.setdefault(octave, []).append((case, outcome))

    def after(self, solver: Solver, case: Case) -> Finding | None:
        """After a call on ``case``: call again each kept call of its power of
        two made before it; ``determinism``'s finding for the first answered
        otherwise."""
        waiting = self.waiting.get(case.n.bit_length(), [])
        due = [(kept, first) for kept, first in waiting if kept != case]
        waiting[:] = [(kept, first) for kept, first in waiting if kept == case]
        for kept, first in due:
            again = props.call(solver, kept)
            if not props.same_answer(first, again, kept):
                message = (
                    f"the same call, made again after a call of {case.n} items, answered "
                    f"differently: first {props.said(first)}, then {props.said(again)}"
                )
                return Finding("determinism", "SPEC 8.1", message, kept)
        return None


def _exhaustive_phase(search: _Search, solver: Solver, scope: Scope) -> None:
    """Every case of ``scope``, one-call properties, batched to a worker if there is one.

    A property found before (by the breadth phase, on a larger case) is still
    judged, and the first scope instance that fails it replaces the finding:
    the report shows the smallest counterexample known.

    A batch that fails as a whole (a call timed out or ended the worker) is
    retried one case at a time up to the first call that fails, which is a
    ``no-crash`` finding; the phase then ends (incomplete, as the verdict
    says), since every further call might wait out a timeout or restart the
    worker too.
    """
    wanted = search.wanted - {"determinism"}
    # Still judged once found: a property the breadth phase found on a larger
    # case is reported on the scope's smallest failing instance instead.
    judged = search.asked - {"determinism"}
    search.result.scope = scope.bound
    instances = scope.cases()
    search.result.scope_total = len(instances)
    start, size = 0, FIRST_BATCH_SIZE
    while start < len(instances):
        if not wanted & search.wanted:
            search.result.scope_checked = search.result.scope_total
            return
        search.solver.check()
        batch = instances[start : start + size]
        started = time.perf_counter()
        outcomes = _outcomes(solver, batch)
        seconds = time.perf_counter() - started
        start += len(batch)
        size = max(1, min(BATCH_SIZE, int(len(batch) * BATCH_SECONDS / max(seconds, 1e-6))))
        for case, outcome in zip(batch, outcomes, strict=True):
            gave_up = outcome is None
            if outcome is None:
                outcome = props.call(search.solver, case)
                gave_up = outcome.error is not None
            if not gave_up:
                search.result.scope_checked += 1
            found = props.judge_outcome(solver, case, search.judge, outcome, judged)
            for finding in found:
                if finding.property in search.wanted:
                    search.record(finding)
                elif finding.property in search.result.findings and _size(finding.case) < _size(
                    search.result.findings[finding.property].case
                ):
                    search.result.findings[finding.property] = finding
            if gave_up:
                return


def _outcomes(solver: Solver, batch: Sequence[Case]) -> list[Outcome | None]:
    """Outcomes of one batch, or ``None`` for each case of a batch that failed as
    a whole (the worker's :class:`~knapsack_audit.isolation.SolverFailure`)."""
    if not isinstance(solver, Worker):
        return [props.call(solver, case) for case in batch]
    try:
        return list(props.call_many(solver.call_many, batch))
    except Exception:  # a timeout or a dead worker: retried case by case
        return [None] * len(batch)


@dataclass(frozen=True)
class _Tier:
    """A strategy of the random phase, its examples per round (``None``: the
    settings' ``max_examples``) and whether only one-call properties run."""

    strategy: st.SearchStrategy[Case] | st.SearchStrategy[Scaled]
    examples: int | None = None
    one_call: bool = False


def _random_phase(
    search: _Search,
    tiers: Sequence[_Tier],
    base: settings,
    time_budget: float | None,
    max_examples: int | None,
    search_seed: int,
    golden: Sequence[BreadthCase] = (),
    breadth_left: int = 0,
) -> None:
    """Rounds of the tiers until the time or example budget is spent; each
    round starts with up to :data:`BREADTH_LEFT_PER_ROUND` of the first
    ``breadth_left`` entries of ``golden`` (breadth calls the breadth phase
    left), then :data:`GOLDEN_PER_ROUND` of the rest (real calls)."""
    run_settings = settings(
        base,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        phases=[p for p in base.phases if p is not Phase.explain],
    )
    seeds = random.Random(search_seed)
    result = search.result
    unlimited = time_budget is None and max_examples is None

    def spent() -> bool:
        if time_budget is not None and search.elapsed() > time_budget:
            return True
        return max_examples is not None and result.examples >= max_examples

    pending = list(golden)
    while search.wanted and not spent():
        result.rounds += 1
        round_seed = seeds.getrandbits(64)
        size = min(BREADTH_LEFT_PER_ROUND, breadth_left) if breadth_left > 0 else GOLDEN_PER_ROUND
        chunk, pending = pending[:size], pending[size:]
        breadth_left -= len(chunk)
        for case in chunk:
            if spent():
                return
            _breadth_phase(search, [case])
        found = False
        for tier in tiers:
            if tier.one_call and search.wanted.isdisjoint(props.CALL_PROPERTIES):
                continue
            tier_settings = settings(run_settings, max_examples=tier.examples or base.max_examples)
            finding = _search_round(search, tier, tier_settings, round_seed, spent)
            if finding is not None:
                search.record(finding)
                found = True
                break
        if not found and (base.derandomize or unlimited):
            return


def _search_round(
    search: _Search,
    tier: _Tier,
    run_settings: settings,
    round_seed: int,
    spent: Callable[[], bool],
) -> Finding | None:
    """One Hypothesis run; its first failing property, shrunk, or ``None``."""
    result = search.result

    failing_since: list[float] = []

    def check(drawn: Case | Scaled, data: st.DataObject) -> None:
        case = drawn.case if isinstance(drawn, Scaled) else drawn
        if isinstance(drawn, Scaled):
            props.know_optimum(drawn.case, drawn.optimum)
            search.known[drawn.case] = drawn
            result.largest_table = max(result.largest_table, table_cells(drawn.case))
        if not search.seen and spent():
            raise _BudgetSpent
        if failing_since and search.elapsed() - failing_since[0] > SHRINK_SECONDS:
            raise _ShrinkCut
        result.examples += 1
        if search.on_example is not None:
            search.on_example(result.examples)
        wanted = search.wanted & set(props.CALL_PROPERTIES) if tier.one_call else search.wanted
        findings, outcome = _findings_and_outcome(search.solver, case, search.judge, data, wanted)
        gap, overrun = props.shortfall(outcome, case, search.judge)
        target(gap, label="optimality gap (relative)")
        target(float(overrun), label="units over budget")
        for finding in findings:
            search.see(finding)
        if findings and not failing_since:
            failing_since.append(search.elapsed())
        if findings and isinstance(outcome.error, TimeoutError):
            timed_out = [f for f in findings if f.property == "no-crash"]
            if timed_out:
                raise _TimedOut(timed_out[0])
        for finding in findings:
            failure = _FAILURE_TYPES[finding.property](finding.message)
            failure.finding = finding
            raise failure

    test = given(tier.strategy, st.data())(check)
    if not run_settings.derandomize:
        test = seed(round_seed)(test)
    try:
        _run(settings(run_settings)(test))
    except _BudgetSpent:
        return None
    except _ShrinkCut:
        smallest = search.pop_smallest_seen()
        return dataclasses.replace(smallest, message=smallest.message + SHRINK_CUT)
    except _TimedOut as timeout:
        search.seen.pop(timeout.finding.property, None)
        search.record(timeout.finding, shrink=False)
        search.result.findings[timeout.finding.property] = shrink_timeout(
            search.solver, search.judge, timeout.finding
        )
        return None
    except PropertyFailed as failure:
        return failure.finding
    except Flaky as flaky:
        # The failure did not reproduce when Hypothesis replayed it (a solver
        # that is nondeterministic, or that hit a call timeout once): still a
        # finding, reported with that caveat rather than crashing the audit.
        # A replay that drew otherwise (FlakyStrategyDefinition: a call timed
        # out on replay, so no relation's parameter was drawn) names no
        # failure: the smallest one seen in the round stands for it.
        for error in _leaves(flaky):
            if isinstance(error, PropertyFailed):
                finding = error.finding
                return dataclasses.replace(finding, message=finding.message + DID_NOT_REPLAY)
        if not search.seen:
            return None
        smallest = search.pop_smallest_seen()
        return dataclasses.replace(smallest, message=smallest.message + DID_NOT_REPLAY)
    return None


def _run(test: Callable[[], None]) -> None:
    """Run a Hypothesis test, re-raising our control exceptions as themselves.

    Hypothesis replays an example that raised a ``BaseException``; when the
    replay draws differently (the relations draw after the stop point) it
    raises :class:`FlakyStrategyDefinition` from ours instead.
    """
    try:
        test()
    except FlakyStrategyDefinition as error:
        cause: BaseException | None = error
        while cause is not None:
            if isinstance(cause, SearchStopped | _BudgetSpent | _ShrinkCut | _TimedOut):
                raise cause from None
            cause = cause.__context__
        raise


class _BudgetSpent(BaseException):
    """Ends a Hypothesis round when the budget is spent and nothing is being shrunk."""


class _ShrinkCut(BaseException):
    """Ends a Hypothesis round that has shrunk one failure for :data:`SHRINK_SECONDS`."""


def _leaves(error: BaseException) -> Iterable[BaseException]:
    """The exceptions inside (nested) exception groups, or ``error`` itself.

    Duck-typed on ``.exceptions`` so that it also works on Python 3.10, where
    Hypothesis uses the ``exceptiongroup`` backport.
    """
    inner: Sequence[BaseException] | None = getattr(error, "exceptions", None)
    if inner is None:
        yield error
        return
    for each in inner:
        yield from _leaves(each)


CHUNKED_FROM = 16
"""Item types above which :func:`minimize` drops chunks of items before anything else."""


class _MinimizeCut(Exception):
    """:data:`MINIMIZE_SECONDS` spent: :func:`minimize` returns what it has."""


def minimize(
    solver: Solver,
    judge: Judge,
    finding: Finding,
    keep: Callable[[Case], bool] | None = None,
    on_failure: Callable[[Finding], None] | None = None,
) -> Finding:
    """Shrink a one-call finding while the same property still fails (and ``keep`` holds).

    Hypothesis shrinks within one regime of the strategy; this step makes the
    counterexample small whatever regime found it. A case of more than
    :data:`CHUNKED_FROM` item types (a random big call, a scaled one) first
    loses chunks of ``n/2``, ``n/4``, ... items, so that hundreds of items do
    not cost a solver call per item per step; then structural moves
    (:class:`knapsack_audit.shrink.Shrinker`: whole types of copies dropped or
    halved, the budget lowered or scaled with them), then single items, to a
    1-minimal case. Metamorphic findings depend on drawn parameters and keep
    Hypothesis' shrink. After :data:`MINIMIZE_SECONDS`, or if the search is
    stopped meanwhile, the smallest case so far is returned, marked as cut.
    ``on_failure`` sees each failing candidate right after its call (what
    :meth:`_Search.note_before` remembers the calls before).
    """
    if finding.property not in props.CALL_PROPERTIES:
        return finding
    until = time.monotonic() + MINIMIZE_SECONDS

    def fails(case: Case) -> Finding | None:
        if time.monotonic() > until:
            raise _MinimizeCut
        again = findings_for(solver, case, judge, None, [finding.property])
        if not again or (keep is not None and not keep(case)):
            return None
        if on_failure is not None:
            on_failure(again[0])
        return again[0]

    shrinker = Shrinker(fails, finding)
    try:
        if finding.case.distinct_items() > CHUNKED_FROM:
            drop_runs(shrinker)
        shrinker.structural()
        return shrinker.one_by_one()
    except _MinimizeCut:
        return _unshrunk(shrinker.current, MINIMIZE_CUT)
    except SearchStopped:
        return _unshrunk(shrinker.current)


def drop_runs(shrinker: Shrinker, smallest: int = 2) -> None:
    """Drop runs of ``n/2``, ``n/4``, ... down to ``smallest`` neighbouring
    items (the budget kept) while one helps."""
    chunk = shrinker.current.case.n // 2
    while chunk >= smallest:
        start = 0
        while start < shrinker.current.case.n:
            case = shrinker.current.case
            fewer = range(start, min(start + chunk, case.n))
            if not shrinker.try_case(_without(case, fewer)):
                start += chunk
        chunk //= 2


def shrink_known(
    solver: Solver,
    judge: Judge,
    finding: Finding,
    known: KnownCase | Scaled,
    on_failure: Callable[[Finding], None] | None = None,
) -> Finding:
    """Shrink a failure on a case of known optimum, and say where it came from.

    A scaled case: if its small base fails the same property, the base is
    minimized (:func:`minimize`) and reported alone; otherwise the base's items
    are dropped one pass while the scaled call still fails, and the finding
    is the scaled call, its message naming the scaling and the small case. A
    real call: minimized like any case, the message naming the call it came
    from (model, budget, estimator). ``on_failure``: as :func:`minimize`'s.
    """
    wanted = [finding.property]

    def seen(failures: list[Finding]) -> list[Finding]:
        if failures and on_failure is not None:
            on_failure(failures[0])
        return failures

    if isinstance(known, Scaled):
        small = seen(findings_for(solver, known.base, judge, None, wanted))
        if small:
            return minimize(solver, judge, small[0], on_failure=on_failure)
        current, base = finding, known.base
        try:
            for i in reversed(range(base.n)):
                fewer = scaled(_without(base, [i]), known.scaling)
                props.know_optimum(fewer.case, fewer.optimum)
                again = seen(findings_for(solver, fewer.case, judge, None, wanted))
                if again:
                    current, base = again[0], fewer.base
                    known = fewer
        except SearchStopped:
            current = _unshrunk(current)
        return dataclasses.replace(current, message=f"{current.message}; {known.note()}")
    smaller = minimize(solver, judge, finding, on_failure=on_failure)
    if smaller.case == known.case:
        return dataclasses.replace(smaller, message=f"{smaller.message}; {known.note}")
    return dataclasses.replace(smaller, message=f"{smaller.message}; shrunk from {known.note}")


def shrink_timeout(solver: Solver, judge: Judge, finding: Finding) -> Finding:
    """Shrink a case on which the call timed out by dropping chunks of items.

    Chunks of ``n/2``, ``n/4``, ..., 1 items are dropped while the smaller case
    still times out under :data:`SHRINK_CALL_TIMEOUT` (a :class:`Worker`'s
    call timeout is lowered meanwhile), then the result is confirmed with the
    full timeout; if it does not time out then, the original case stands
    (noted "did not reproduce" when nothing was dropped).
    """
    case = finding.case
    with _call_timeout(solver, SHRINK_CALL_TIMEOUT):
        try:
            chunk = max(case.n // 2, 1)
            while chunk >= 1 and case.n > 0:
                start = 0
                while start < case.n:
                    smaller = _without(case, range(start, min(start + chunk, case.n)))
                    if _times_out(solver, smaller):
                        case = smaller
                    else:
                        start += chunk
                chunk //= 2
        except SearchStopped:
            return _unshrunk(finding)
    outcome = props.call(solver, case)
    if isinstance(outcome.error, TimeoutError):
        return props.judge_outcome(solver, case, judge, outcome, ["no-crash"])[0]
    if case == finding.case:
        return dataclasses.replace(finding, message=finding.message + DID_NOT_REPLAY)
    return finding


def _times_out(solver: Solver, case: Case) -> bool:
    return isinstance(props.call(solver, case).error, TimeoutError)


@contextlib.contextmanager
def _call_timeout(solver: Solver, seconds: float) -> Iterator[None]:
    """Lower a :class:`Worker`'s call timeout to ``seconds`` for the block."""
    target = solver.solver if isinstance(solver, Stoppable) else solver
    if not isinstance(target, Worker):
        yield
        return
    saved = target.call_timeout
    target.call_timeout = min(saved, seconds)
    try:
        yield
    finally:
        target.call_timeout = saved


def _without(case: Case, drop: Iterable[int]) -> Case:
    dropped = set(drop)
    keep = [i for i in range(case.n) if i not in dropped]
    return Case(
        tuple(case.memory[i] for i in keep),
        tuple(case.runtime[i] for i in keep),
        case.max_memory,
    )
