"""Exact 0/1 knapsack in O(Q) memory: sliding window + Hirschberg, fixed and fast.

Problem (SPEC 3): items ``i = 0..n-1`` with quantized weights ``w_i`` (ints
>= 0, SPEC 2) and runtimes ``v_i`` (finite floats, any sign); budget ``Q``.
Find ``S`` maximising ``sum(v_i for i in S)`` subject to
``sum(w_i for i in S) <= Q``. Recurrence (``OPT(0, c) = 0``)::

    OPT(i, c) = max(OPT(i-1, c), v_i + OPT(i-1, c - w_i))   (second term if w_i <= c)

Pipeline (the call sequence of :func:`dp_knapsack_sliding_hirschberg`, stage
for stage; :func:`.budgets.runtime_memory_frontier` runs stages 1, 2, 3 and
the reductions' R1-R3 of the same modules):

1. *Read* (:func:`read`): SPEC 1 and 2 by
   :func:`~knapsack_audit.reference.validation.validate`, the one validator,
   then the buffer check of SPEC 1.6 from ``n`` and ``Q`` before any
   allocation. Its fast path (:func:`read_types`): a call with repeated items
   (a real model's repeated blocks) is read as item types by
   :func:`.repeated.read_types`, the reference's checks once per distinct raw
   pair, and goes straight to stage 3's :func:`solve_types`; whatever it
   declines (invalid input, no copies, too many types) or the bounded path
   declines takes the general path, which gives the same answer
   (tests/test_repeated.py).
2. *Exact integers*: runtimes scaled by one power of two
   (:func:`~knapsack_audit.reference.validation.integer_runtimes`).
3. *Solve* (:func:`solve_integers`), on one of three inputs:

   - item types (:func:`.grouping.item_types`: equal quantized weight and
     equal runtime), when binary splitting would remove items:
     :func:`solve_types`, the bounded knapsack of :mod:`.bounded`
     (proofs/12: the LP bound narrows each type's count to a range, a branch
     and bound solves the few types left open or, if it gives up, a few
     kernel launches per open type on one profile row); where it declines,
     :func:`solve_bundles`: each type split into bundles of 1, 2, 4, ...
     copies (:mod:`.grouping`, proofs/10), solved as items below;
   - items (:func:`solve_items`): *reduce* (:func:`.reductions.reduce_instance`,
     proofs/07: drop ``v_i <= 0`` and ``w_i > Q``, save zero-weight positive
     items, save everything if it fits, cap the capacity, fix items by the LP
     (Dembo-Hammer) bound, :func:`.reductions.lp_slack` in
     :func:`.reductions.efficiency_order`, the bound and order :mod:`.bounded`
     uses too) to a :class:`.reductions.Core`, divide its values by their gcd,
     then :func:`solve_core`: a core whose whole table has at most
     ``Config.python_table_cells`` cells by one Python-int table (there, kernel
     launches would cost more than the cells); a core of at most 62 items
     with a large capacity first by the sparse Pareto frontier
     (:mod:`.frontier`, proofs/09; in Python ints when the values pass
     int64), which gives up beyond ``(C + 1) / 16`` states; else the
     Hirschberg driver (:mod:`.driver`, proofs/06) over an array backend
     (:mod:`.backends`): sliding-window rows computed only on the columns
     that can matter (proofs/04, Lemma 4.4) and base cases with
     packed decision bits (Lemma 4.3), in ``torch.int32`` or ``torch.int64``
     when the core's total value fits (exact: every table entry is the value
     of a subset, at most that total), else in two int64 words per cell
     (:mod:`.two_word`, totals below 2**95), else in Python integers (exact
     for any magnitude). Every table is read back by the one canonical backtracking,
     :func:`knapsack_audit.reference.table.backtrack`.

4. *Map back* (:func:`.grouping.lowest_copies`, SPEC 6.3): counts per type,
   from the bounded path, from the bundles, or counted in an item-by-item
   answer, become each type's lowest-indexed copies.
5. *Format*: :func:`~knapsack_audit.reference.validation.format_result`
   (SPEC 7), or :meth:`.repeated.TypedCall.answer` on the fast path.

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

Unlike upstream ``dp_knapsack_sliding_hirschberg`` (torch
:data:`.integration.SUPPORTED_TORCH`), the
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
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import torch

from knapsack_audit.reference.validation import (
    ALWAYS_FITS_BYTES,
    Instance,
    format_result,
    integer_runtimes,
    require_buffer_fits,
    validate,
)

from . import bounded, checks, driver, repeated, two_word
from .backends import (
    DECISION_BYTES_FLOOR,
    PYTHON_BASE_CASE_CELLS,
    ProfileBackend,
    PythonBackend,
    TorchBackend,
    decision_words,
)
from .config import current
from .frontier import solve_by_frontier
from .grouping import Types, ascending, bundles_of, item_types, lowest_copies
from .reductions import Core, WindowSolver, reduce_instance
from .repeated import TypedCall

FRONTIER_STATES_PER_UNIT = 16
"""The frontier gives up beyond ``(C + 1) // 16`` states: a merge of ``F``
states costs about as much as ``16 F`` dense cells, and its buffers stay below
the dense backend's (proofs/08)."""

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


_P = ParamSpec("_P")
_R = TypeVar("_R")


def allocation_failure_as_memory_error(entry: Callable[_P, _R]) -> Callable[_P, _R]:
    """Turn torch's ``DefaultCPUAllocator: can't allocate memory`` (a ``RuntimeError``)
    into ``MemoryError`` (SPEC 1.10) for an entry point: the budget check comes
    first, but an allocation can still fail (other threads, a limit the check
    cannot see)."""

    @functools.wraps(entry)
    def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return entry(*args, **kwargs)
        except RuntimeError as error:
            if "can't allocate memory" not in str(error):
                raise
            detail = str(error).strip().splitlines()[-1]
            raise MemoryError(f"torch could not allocate the solver's buffers: {detail}") from None

    return guarded


@allocation_failure_as_memory_error
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
            checked before any allocation. A core whose total value exceeds
            int64 is solved in Python ints: ``(max(2**16, C + 1) + 5 (C + 1))
            * 48`` bytes (:data:`PYTHON_CELL_BYTES` per cell), checked alike.
        MemoryError: an allocation failed all the same; never torch's
            allocator ``RuntimeError`` (SPEC 1.10).

    Time O(n log n + n_core * C * log n_core), memory O(C + n) (proofs/08).

    >>> dp_knapsack_sliding_hirschberg([1e-4] * 3, [1.0] * 3, 1e-4)
    (1.0, [0], [2, 1])
    """
    typed = read_types(memory, runtime, max_memory)  # 1. read: the typed fast path
    if typed is not None:
        counts = solve_types(typed.types, typed.capacity)  # 3. solve
        if counts is not None:
            return typed.answer(counts)  # 4. map back, 5. format
    instance = read(memory, runtime, max_memory)  # 1. read
    values, _ = integer_runtimes(instance.runtimes)  # 2. exact integers
    saved = solve_integers(instance, list(instance.weights), values)  # 3, 4
    return format_result(instance.runtimes, saved)  # 5. format


def read_types(memory: object, runtime: object, max_memory: object) -> TypedCall | None:
    """Stage 1's fast path: a call with repeated items as item types
    (:func:`.repeated.read_types`), when grouping would pay, the bounded path
    may run, and its buffers need no SPEC 1.6 check; else ``None``."""
    config = current()
    if not (config.typed_front and config.bounded_types):
        return None
    typed = repeated.read_types(
        memory, runtime, max_memory, config.grouping_min_saved_items, BOUNDED_MAX_TYPES
    )
    if typed is None or not (
        buffers_always_fit(typed.capacity)
        or solver_buffer_bytes(typed.n, typed.capacity, typed.weight_total)[0] <= ALWAYS_FITS_BYTES
    ):  # the general path checks SPEC 1.6
        return None
    return typed


def read(memory: object, runtime: object, max_memory: object) -> Instance:
    """Stage 1: SPEC 1 and 2 (:func:`~knapsack_audit.reference.validation.validate`,
    the one validator), then SPEC 1.6 for the solver's buffers from ``n`` and
    ``Q``, before any allocation."""
    instance = validate(memory, runtime, max_memory)
    require_solver_buffers(instance)
    return instance


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
    """Stages 3 and 4: an optimal selection for the exact integers ``weights``,
    ``values`` and ``instance.capacity``, copies chosen as SPEC 6.3 says.

    Items of one type ``(w_i, v_i)`` are solved as one bounded item type
    (:func:`solve_types`), or as bundles (:func:`solve_bundles`) when that
    declines, whenever binary splitting would remove at least
    ``Config.grouping_min_saved_items`` items; else item by item
    (:func:`solve_items`). Every path maps back through
    :func:`.grouping.lowest_copies`, so each type's saved copies are its
    lowest-indexed ones.
    """
    min_saved_items = current().grouping_min_saved_items
    if min_saved_items > 0 and len(set(values)) == len(values):
        # Distinct values, so distinct types: the common case of independent
        # runtimes, decided by one set of ints (0.4 ms at n = 5000).
        return sorted(solve_items(instance, weights, values))
    types = item_types(weights, values)
    if types.saved_by_bundles >= min_saved_items:
        counts = solve_types(types, instance.capacity)
        if counts is None:
            counts = solve_bundles(instance, types)
    else:
        counts = types.counts(solve_items(instance, weights, values))
    return ascending(lowest_copies(types, counts))


def solve_types(types: Types, capacity: int) -> list[int] | None:
    """Counts per type by the bounded knapsack (:func:`.bounded.optimal_counts`,
    proofs/12), or ``None`` where it declines or is off (``Config.bounded_types``,
    :data:`BOUNDED_MAX_TYPES`, :data:`BOUNDED_MAX_STAGES`)."""
    if not current().bounded_types or len(types.copies) > BOUNDED_MAX_TYPES:
        return None
    return bounded.optimal_counts(
        types.weights, types.values, types.copies, capacity, BOUNDED_MAX_STAGES
    )


def solve_bundles(instance: Instance, types: Types) -> list[int]:
    """Counts per type by the 0/1 problem over each type's bundles
    (:mod:`.grouping`, proofs/10), reduced and solved as items are."""
    bundles = bundles_of(types)
    chosen = solve_items(instance, bundles.weights, bundles.values, windows=False)
    return bundles.counts(len(types.copies), chosen)


def solve_items(
    instance: Instance, weights: list[int], values: list[int], *, windows: bool = True
) -> list[int]:
    """Reduce to a :class:`.reductions.Core`, then solve it (:func:`solve_core`):
    an optimal selection of the items ``weights``, ``values`` within
    ``instance.capacity``. ``windows``: let bound fixing solve windows
    around the critical item for a better lower bound. Off for bundles: the
    bundles of the critical item's type share its efficiency, so their reduced
    costs are 0 and no bound fixes them, and a window solve costs about as
    much as the small core it would shrink (measured on the real-scale golden
    calls: 10% less time over the 37 flops calls of at least 100 items)."""
    reduced = reduce_instance(
        weights,
        values,
        instance.capacity,
        use_bounds=current().bound_fixing,
        solve_window=window_solver(weights, values) if windows else None,
    )
    saved = list(reduced.forced)
    if reduced.free:
        core = Core(weights, values, reduced.free, reduced.capacity).divided()
        saved += solve_core(instance, core)
    return saved


def window_solver(weights: list[int], values: list[int]) -> WindowSolver:
    """The window solver bound fixing calls (:func:`_solve_window` on the
    window's items as a :class:`.reductions.Core`)."""
    return lambda items, capacity: _solve_window(Core(weights, values, tuple(items), capacity))


def _solve_window(window: Core) -> list[int] | None:
    """Exact answer for the lower-bound window of :func:`.reductions.fix_by_bounds`
    (``2 * half_width`` items or fewer) by the dense driver, usually one
    decision table; ``None`` (decline) if the values do not fit int64."""
    weights, values, items = window.weights, window.values, window.items
    capacity = min(window.capacity, sum(weights[i] for i in items))
    if len(items) * (capacity + 1) <= current().python_table_cells:
        return PythonBackend(weights, values).solve_small(items, capacity)
    dtype = profile_dtype(window.value_total)
    if dtype is None:
        return None
    backend = TorchBackend(
        weights, values, capacity, dtype, decision_words(len(items), capacity, dtype)
    )
    return driver.solve(backend, weights, values, items, capacity)


def solve_core(instance: Instance, core: Core) -> list[int]:
    """Stage 3 on a reduced core: a tiny core's Python table, the sparse
    frontier where it applies, else the Hirschberg driver over an array backend."""
    dtype = profile_dtype(core.value_total)
    chosen = _solve_without_driver(core, dtype)
    if chosen is None:
        backend = _backend(instance, core, dtype)
        return driver.solve(backend, core.weights, core.values, core.items, core.capacity)
    if current().debug_checks:
        checks.check_selection(core.weights, core.values, core.items, core.capacity, chosen)
    return chosen


def _solve_without_driver(core: Core, dtype: torch.dtype | None) -> list[int] | None:
    """A tiny core's Python-int table, or the sparse frontier when it applies and
    stays small; ``None`` leaves the core to the Hirschberg driver."""
    cells, config = core.cells, current()
    if cells <= config.python_table_cells:
        return PythonBackend(core.weights, core.values).solve_small(core.items, core.capacity)
    if len(core.items) > config.frontier_max_items or cells < config.frontier_min_cells:
        return None
    states = (core.capacity + 1) // FRONTIER_STATES_PER_UNIT
    return solve_by_frontier(core.weights, core.values, core.items, core.capacity, dtype, states)


def _backend(instance: Instance, core: Core, dtype: torch.dtype | None) -> ProfileBackend:
    weights, values, capacity = core.weights, core.values, core.capacity
    if dtype is not None:
        return TorchBackend(
            weights,
            values,
            capacity,
            dtype,
            decision_words(
                len(core.items), capacity, dtype, UPSTREAM_ROW_BYTES * (instance.capacity + 1)
            ),
        )
    if core.value_total <= two_word.MAX_TOTAL:
        require_buffer_fits(
            instance,
            two_word.ROW_BYTES * (capacity + 1) + current().bool_table_cells,
            f"{two_word.ROW_BYTES} bytes x (C+1) and a decision table, C={capacity}",
        )
        return two_word.TwoWordBackend(weights, values, capacity)
    base_cells = max(PYTHON_BASE_CASE_CELLS, capacity + 1)
    require_buffer_fits(
        instance,
        (base_cells + 5 * (capacity + 1)) * PYTHON_CELL_BYTES,
        f"{base_cells} + 5 x (C+1) Python-int cells, C={capacity}",
    )
    return PythonBackend(weights, values)
