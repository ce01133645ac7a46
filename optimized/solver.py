"""Exact 0/1 knapsack in O(Q) memory: sliding window + Hirschberg, fixed and fast.

Problem (SPEC 3): items ``i = 0..n-1`` with quantized weights ``w_i`` (ints
>= 0, SPEC 2) and runtimes ``v_i`` (finite floats, any sign); budget ``Q``.
Find ``S`` maximising ``sum(v_i for i in S)`` subject to
``sum(w_i for i in S) <= Q``. Recurrence (``OPT(0, c) = 0``)::

    OPT(i, c) = max(OPT(i-1, c), v_i + OPT(i-1, c - w_i))   (second term if w_i <= c)

Pipeline:

0. A call with repeated items (a real model's repeated blocks) is read as item
   types by :func:`.repeated.read_types` (validation, quantization and scaling
   once per distinct raw pair) and solved by :func:`.bounded.optimal_counts`;
   :meth:`.repeated.TypedCall.answer` saves each type's lowest-indexed copies.
   Whatever it declines (invalid input, no copies, too many types) takes
   steps 1 to 6, which give the same answer (tests/test_repeated.py).
1. :func:`~knapsack_audit.reference.validation.validate` (SPEC 1, 2), then the
   buffer check of SPEC 1.6 from ``n`` and ``Q`` before any allocation.
2. Exact integers: runtimes scaled by one power of two
   (:func:`~knapsack_audit.reference.validation.integer_runtimes`).
3. Identical items (equal quantized weight and equal runtime) become one
   item type when binary splitting would remove items. The bounded knapsack
   over the types is solved by :mod:`.bounded` (proofs/12): the LP bound
   narrows each type's count to a range, a branch and bound solves the few
   types left open, or, if it gives up, a few kernel launches per open type
   on one profile row. Where it declines, each
   type is split into bundles of 1, 2, 4, ... copies (:mod:`.grouping`,
   proofs/10) and steps 4 and 5 run on the bundles. Either way the answer
   maps back to counts per type and to each type's lowest-indexed copies
   (SPEC 6.3; ungrouped answers are normalised the same way).
4. Exact reductions (:mod:`.reductions`, proofs/07): drop ``v_i <= 0`` and
   ``w_i > Q``, save zero-weight positive items, save everything if it fits,
   cap the capacity, fix items by the LP (Dembo-Hammer) bound; then divide the
   remaining values by their gcd.
5. The remaining *core* is solved by the Hirschberg driver (:mod:`.driver`,
   proofs/06) over an array backend (:mod:`.backends`): sliding-window rows
   computed only on the columns that can matter (proofs/04, Lemma 4.4) and
   base cases with packed decision bits (Lemma 4.3), in ``torch.int32`` or
   ``torch.int64`` when the core's total value fits (exact: every table entry
   is the value of a subset, at most that total), else in Python integers
   (exact for any magnitude). A core whose whole table has at most
   :data:`PYTHON_TABLE_CELLS` cells is solved by one Python-int table (there,
   kernel launches would cost more than the cells). A core of at
   most 62 items with a large capacity first tries the sparse Pareto frontier
   (:mod:`.frontier`, proofs/09), which gives up beyond ``(C + 1) / 16`` states.
6. :func:`~knapsack_audit.reference.validation.format_result` (SPEC 7).

Invariants: a profile row ``P`` after items ``A`` holds ``P[c] = OPT(A, c)``
for ``0 <= c <= C`` (proofs/04); the split ``c*`` maximises
``L[c] + R[C - c]`` and that maximum is ``OPT`` of the segment (proofs/06);
each half receives at most its share, so the selection never exceeds ``Q``.

Cost (proofs/08), with ``n`` items, ``C = min(Q, sum w)`` and ``b`` the
base-case size: time O(n log n) for the reductions plus O(n_core * C *
log2(n_core / b)) for the core, with two or three kernel launches per item per
recursion level (seven in a packed base case); memory ``(3 (C + 1) + D) *
itemsize`` bytes of buffers (``itemsize`` = 4 or 8; ``D`` decision words, one
row of ``C + 1`` for ``C >= 2**16`` with int32, at most 256 KiB more below),
plus O(n); independent of ``n`` at fixed ``C``.

Equivalent to, but faster than: :func:`knapsack_audit.reference.dp_knapsack`
(the values are equal; the selection may differ among ties, SPEC 6.2).

Unlike upstream ``dp_knapsack_sliding_hirschberg`` (torch 2.10-2.14), the
right half gets ``C - c*`` units, not one more (pytorch issue #197871), so the
result is never over budget; arithmetic is exact rather than float32.

References:
    D. S. Hirschberg, "A linear space algorithm for computing maximal common
    subsequences", Communications of the ACM 18(6), 1975.
    H. Kellerer, U. Pferschy, D. Pisinger, *Knapsack Problems*, Springer 2004
    (sec. 3.3 storage reduction, sec. 3.4 Dembo-Hammer reduction, sec. 5.1).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import torch

from knapsack_audit.reference.validation import (
    ALWAYS_FITS_BYTES,
    Instance,
    format_result,
    integer_runtimes,
    require_buffer_fits,
    validate,
)

from . import bounded, checks, driver, repeated
from .backends import (
    DECISION_BYTES_FLOOR,
    PYTHON_BASE_CASE_CELLS,
    ProfileBackend,
    PythonBackend,
    TorchBackend,
    decision_words,
)
from .frontier import MAX_ITEMS, solve_by_frontier
from .grouping import (
    bundle_count,
    canonical_copies,
    counts_of_bundles,
    first_copies,
    group,
    normalise_copies,
    repeated_types,
    type_counts,
    with_singletons,
)
from .reductions import reduce_instance

_FRONTIER_MAX_ITEMS = MAX_ITEMS
"""Cores of at most this many items try the sparse frontier (:mod:`.frontier`)
first when their dense table would have at least :data:`_FRONTIER_MIN_CELLS`
cells; tests set these knobs to force or disable it."""

_FRONTIER_MIN_CELLS = 1 << 22

FRONTIER_STATES_PER_UNIT = 16
"""The frontier gives up beyond ``(C + 1) // 16`` states: a merge of ``F``
states costs about as much as ``16 F`` dense cells, and its buffers stay below
the dense backend's (proofs/08)."""

PYTHON_TABLE_CELLS = 1 << 12
"""Cores (and lower-bound windows) whose whole decision table has at most this
many cells are solved by :class:`.PythonBackend`'s table: about 60 ns per
cell against about 6 us per kernel launch, three launches per item. This
bounds the Python work per cell to a constant number of cells per call."""

_BOUNDED_TYPES = True
"""Knob for tests: when false, repeated types always go through bundles
(:func:`_solve_items`) instead of :mod:`.bounded`."""

BOUNDED_MAX_TYPES = 256
""":mod:`.bounded` is tried only on at most this many types: its bound costs
O(T log T) Python steps, wasted when it then declines. Measured (in process,
min of 5): Pisinger weakly correlated, n = 2000, Q = 1e5 (1757 types, declined)
12.4 ms against 9.5 ms through bundles alone; uncorrelated n = 1000, Q = 5000
(332 types, solved) 1.2 against 1.7 ms; real calls have at most 20 types."""

BOUNDED_MAX_STAGES = 24
""":mod:`.bounded` solves a core of at most this many stages (one per type, or
one per bundle of a type split into bundles); above it the bundle path runs.
Each stage keeps one decision row of ``C + 1`` cells of at most 8 bytes, so
the decisions stay within ``192 (C + 1)`` bytes; the golden calls need at
most 19 stages (proofs/12, "Cost")."""

_TYPED_FRONT = True
"""Knob for tests: when false, calls with repeated items skip
:func:`.repeated.read_types` and take the general pipeline (validate,
integer runtimes, types from the pairs, :func:`.grouping.first_copies`)."""

_BOUND_FIXING = True
"""Knob for tests: when false, skip the LP-bound fixing so the DP sees larger cores."""

_GROUPING_MIN_SAVED_ITEMS = 1
"""Identical items are solved as bundles when binary splitting removes at least
this many items (:func:`solve_integers`); tests set 0 to force grouping on
every instance, even one without three copies of any type."""

PYTHON_CELL_BYTES = 48
"""Upper estimate of one Python-int row cell (list slot plus int object); the
Python backend holds at most the base-case table or five rows at once (L, R,
sums and two working rows)."""


UPSTREAM_ROW_BYTES = 16
"""Bytes per budget unit of upstream's four float32 rows; the dense backend's
decision words may use what that leaves beside its own rows
(:func:`.backends.decision_words`)."""


def profile_dtype(total_value: int) -> torch.dtype | None:
    """The narrowest integer dtype holding every subset value, or ``None``.

    Every table entry and every split sum is the value of a subset of the core,
    so it lies in ``0..total_value`` (proofs/07); ``None`` selects Python ints.
    """
    for dtype in (torch.int32, torch.int64):
        if total_value <= torch.iinfo(dtype).max:
            return dtype
    return None


_Solver = Callable[[list[float], list[float], float], tuple[float, list[int], list[int]]]


def _allocation_failure_as_memory_error(solver: _Solver) -> _Solver:
    """Turn torch's ``DefaultCPUAllocator: can't allocate memory`` (a ``RuntimeError``)
    into ``MemoryError`` (SPEC 1.10): the budget check comes first, but an
    allocation can still fail (other threads, a limit the check cannot see)."""

    @functools.wraps(solver)
    def guarded(
        memory: list[float], runtime: list[float], max_memory: float
    ) -> tuple[float, list[int], list[int]]:
        try:
            return solver(memory, runtime, max_memory)
        except RuntimeError as error:
            if "can't allocate memory" not in str(error):
                raise
            detail = str(error).strip().splitlines()[-1]
            raise MemoryError(f"torch could not allocate the solver's buffers: {detail}") from None

    return guarded


@_allocation_failure_as_memory_error
def dp_knapsack_sliding_hirschberg(
    memory: list[float], runtime: list[float], max_memory: float
) -> tuple[float, list[int], list[int]]:
    """Solve the quantized 0/1 knapsack exactly in O(Q) memory.

    Same signature and conventions as upstream's function of the same name
    (SPEC 7), without its over-budget bug.

    Args:
        memory: item sizes, finite and >= 0; quantized to ``round(m * 10000)``.
        runtime: item runtimes, finite, any sign (SPEC 1.7, 4.2).
        max_memory: the budget, finite and >= 0; quantized like ``memory``.

    Returns:
        ``(value, saved, recomputable)``: ``saved`` is an optimal selection
        (SPEC 3.3), ascending; ``recomputable`` the rest, descending; ``value``
        the float nearest to the exact sum of the saved runtimes (SPEC 7.1).

    Raises:
        TypeError, ValueError: invalid input (SPEC 1).
        BudgetTooLargeError: ``(3 (C + 1) + D) * 8`` bytes, with
            ``C = min(Q, sum w)`` and ``D`` the decision words for ``n`` items
            (:func:`.backends.decision_words`, int64), exceed the available
            memory, address-space and data limits included (SPEC 1.6, 1.10);
            checked before any allocation.
        MemoryError: an allocation failed all the same; never torch's
            allocator ``RuntimeError`` (SPEC 1.10).

    Time O(n log n + n_core * C * log n_core), memory O(C + n) (proofs/08).

    >>> dp_knapsack_sliding_hirschberg([1e-4] * 3, [1.0] * 3, 1e-4)
    (1.0, [0], [2, 1])
    """
    if _TYPED_FRONT and _BOUNDED_TYPES:
        typed = repeated.read_types(
            memory, runtime, max_memory, _GROUPING_MIN_SAVED_ITEMS, BOUNDED_MAX_TYPES
        )
        if typed is not None and (
            buffers_always_fit(typed.capacity)
            or solver_buffer_bytes(typed.n, typed.capacity, typed.weight_total)[0]
            <= ALWAYS_FITS_BYTES
        ):  # else the general path checks SPEC 1.6
            counts = bounded.optimal_counts(
                typed.weights, typed.values, typed.copies, typed.capacity, BOUNDED_MAX_STAGES
            )
            if counts is not None:
                return typed.answer(counts)
    instance = validate(memory, runtime, max_memory)
    require_solver_buffers(instance)
    values, _ = integer_runtimes(instance.runtimes)
    return format_result(
        instance.runtimes, solve_integers(instance, list(instance.weights), values)
    )


def solver_buffer_bytes(n: int, capacity: int, weight_total: int) -> tuple[int, str]:
    """The bytes of the buffers in :func:`dp_knapsack_sliding_hirschberg`'s
    docstring for ``n`` items, budget ``Q = capacity`` and ``sum_i q_i =
    weight_total``, and their layout in words."""
    columns = min(capacity, weight_total)
    words = decision_words(n, columns, torch.int64, UPSTREAM_ROW_BYTES * (capacity + 1))
    return (
        TorchBackend.bytes_needed(columns, torch.int64, words),
        f"3 x (C+1) int64 rows and {words} int64 decision words, C={columns}",
    )


def buffers_always_fit(capacity: int) -> bool:
    """Whether :func:`solver_buffer_bytes` is at most ``ALWAYS_FITS_BYTES`` for
    budget ``Q = capacity`` whatever ``n`` and ``sum_i q_i``, decided without
    touching torch (a cold torch call costs more than the typed front's
    whole answer). With ``C <= Q``, 8-byte words and :func:`.backends.decision_words`'
    ``words <= max(C + 1, spare / 8)``, ``spare = max(DECISION_BYTES_FLOOR,
    16 (Q + 1) - 24 (C + 1))``, the bytes are at most ``max(32 (Q + 1), 24 (Q
    + 1) + DECISION_BYTES_FLOOR)`` (tests/test_optimized.py checks the bound)."""
    units = capacity + 1
    return max(32 * units, 24 * units + DECISION_BYTES_FLOOR) <= ALWAYS_FITS_BYTES


def require_solver_buffers(instance: Instance) -> None:
    """SPEC 1.6 for :func:`dp_knapsack_sliding_hirschberg` (the formula of its
    docstring), from ``n`` and ``Q`` alone, before any allocation."""
    needed, layout = solver_buffer_bytes(instance.n, instance.capacity, sum(instance.weights))
    require_buffer_fits(instance, needed, layout)


def solve_integers(instance: Instance, weights: list[int], values: list[int]) -> list[int]:
    """An optimal selection for the exact integers ``weights``, ``values`` and
    ``instance.capacity``, copies chosen as SPEC 6.3 says.

    Items of one type ``(w_i, v_i)`` are solved as one bounded item type
    (:mod:`.bounded`, proofs/12), or as bundles (:mod:`.grouping`, proofs/10)
    when that declines, whenever binary splitting would remove at least
    :data:`_GROUPING_MIN_SAVED_ITEMS` items; either way each type's saved
    copies are its lowest-indexed ones.
    """
    if _GROUPING_MIN_SAVED_ITEMS > 0 and len(set(values)) == len(values):
        # Distinct values, so distinct types: the common case of independent
        # runtimes, decided by one set of ints (0.4 ms at n = 5000).
        return sorted(_solve_items(instance, weights, values, windows=True))
    pairs = list(zip(weights, values, strict=True))
    copies = type_counts(pairs)
    saved_items = sum([m - bundle_count(m) for m in copies.values() if m > 2])
    if saved_items >= _GROUPING_MIN_SAVED_ITEMS:
        counts = None
        if _BOUNDED_TYPES and len(copies) <= BOUNDED_MAX_TYPES:
            counts = bounded.optimal_counts(
                [w for w, _ in copies],
                [v for _, v in copies],
                list(copies.values()),
                instance.capacity,
                BOUNDED_MAX_STAGES,
            )
        if counts is not None:
            return first_copies(pairs, copies, dict(zip(copies, counts, strict=True)))
        types = with_singletons(len(weights), repeated_types(pairs, copies))
        grouped = group(weights, values, types)
        bundles = _solve_items(instance, grouped.weights, grouped.values, windows=False)
        return canonical_copies(types, counts_of_bundles(grouped, bundles))
    repeated = repeated_types(pairs, copies)
    saved = _solve_items(instance, weights, values, windows=True)
    return normalise_copies(len(weights), repeated, saved)


def _solve_items(
    instance: Instance, weights: list[int], values: list[int], *, windows: bool
) -> list[int]:
    """Reductions, then the core (steps 4 and 5 of the module docstring).
    ``values`` is not modified. ``windows``: let bound fixing solve windows
    around the critical item for a better lower bound. Off for bundles: the
    bundles of the critical item's type share its efficiency, so their reduced
    costs are 0 and no bound fixes them, and a window solve costs about as
    much as the small core it would shrink (measured on the real-scale golden
    calls: 10% less time over the 37 flops calls of at least 100 items)."""
    values = list(values)
    reduced = reduce_instance(
        weights,
        values,
        instance.capacity,
        use_bounds=_BOUND_FIXING,
        solve_window=(
            (lambda items, capacity: _solve_window(weights, values, items, capacity))
            if windows
            else None
        ),
    )
    saved = list(reduced.forced)
    if reduced.free:
        core = reduced.free
        divisor = math.gcd(*(values[i] for i in core))
        for i in core:
            values[i] //= divisor
        saved += _solve_core(instance, weights, values, core, reduced.capacity)
    return saved


def _solve_window(
    weights: list[int], values: list[int], items: Sequence[int], capacity: int
) -> list[int] | None:
    """Exact answer for the lower-bound window of :func:`.reductions.fix_by_bounds`
    (``2 * half_width`` items or fewer) by the dense driver, usually one
    decision table; ``None`` (decline) if the values do not fit int64."""
    capacity = min(capacity, sum(weights[i] for i in items))
    if len(items) * (capacity + 1) <= PYTHON_TABLE_CELLS:
        return PythonBackend(weights, values).solve_small(items, capacity)
    dtype = profile_dtype(sum(values[i] for i in items))
    if dtype is None:
        return None
    backend = TorchBackend(
        weights, values, capacity, dtype, decision_words(len(items), capacity, dtype)
    )
    return driver.solve(backend, weights, values, items, capacity)


def _solve_core(
    instance: Instance, weights: list[int], values: list[int], core: tuple[int, ...], capacity: int
) -> list[int]:
    dtype = profile_dtype(sum(values[i] for i in core))
    chosen = _solve_without_driver(weights, values, core, capacity, dtype)
    if chosen is None:
        backend = _backend(instance, weights, values, core, capacity, dtype)
        return driver.solve(backend, weights, values, core, capacity)
    if driver._DEBUG_CHECKS:
        checks.check_selection(weights, values, core, capacity, chosen)
    return chosen


def _solve_without_driver(
    weights: list[int],
    values: list[int],
    core: tuple[int, ...],
    capacity: int,
    dtype: torch.dtype | None,
) -> list[int] | None:
    """A tiny core's Python-int table, or the sparse frontier when it applies and
    stays small; ``None`` leaves the core to the Hirschberg driver."""
    cells = len(core) * (capacity + 1)
    if cells <= PYTHON_TABLE_CELLS:
        return PythonBackend(weights, values).solve_small(core, capacity)
    if dtype is None or len(core) > _FRONTIER_MAX_ITEMS or cells < _FRONTIER_MIN_CELLS:
        return None
    states = (capacity + 1) // FRONTIER_STATES_PER_UNIT
    return solve_by_frontier(weights, values, core, capacity, dtype, states)


def _backend(
    instance: Instance,
    weights: list[int],
    values: list[int],
    core: tuple[int, ...],
    capacity: int,
    dtype: torch.dtype | None,
) -> ProfileBackend:
    if dtype is not None:
        return TorchBackend(
            weights,
            values,
            capacity,
            dtype,
            decision_words(
                len(core), capacity, dtype, UPSTREAM_ROW_BYTES * (instance.capacity + 1)
            ),
        )
    base_cells = max(PYTHON_BASE_CASE_CELLS, capacity + 1)
    require_buffer_fits(
        instance,
        (base_cells + 5 * (capacity + 1)) * PYTHON_CELL_BYTES,
        f"{base_cells} + 5 x (C+1) Python-int cells, C={capacity}",
    )
    return PythonBackend(weights, values)
