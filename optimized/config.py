"""Every knob of the optimized solver, in one frozen :class:`Config`.

The defaults are the product: measured thresholds and switches that are all
on. Tests change them to force a path (the deepest recursion, the sparse
frontier on every core, the bundles instead of the bounded path, the
invariant checkers at every step) for the duration of a block::

    with configured(base_case_items=1, debug_checks=True):
        dp_knapsack_sliding_hirschberg(memory, runtime, max_memory)

:func:`configured` swaps the process-wide configuration and restores it on
exit, also on exceptions; like any ``config.patch`` it is not thread-safe.
Every module reads its knobs through :func:`current` when it runs, never
through a module global of its own, so one ``with`` reaches them all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    """The knobs, by the stage that reads them (module docstring of :mod:`.solver`).

    Read (:mod:`.solver`, :mod:`.repeated`):
        typed_front: read calls with repeated items as item types
            (:func:`.repeated.read_types`); off, they take the general path.
    Solve, item types (:mod:`.solver`, :mod:`.bounded`):
        bounded_types: solve item types by :mod:`.bounded`; off, always as
            bundles (and no typed front).
        grouping_min_saved_items: identical items are grouped when binary
            splitting removes at least this many items; 0 groups every
            instance, even one without three copies of any type.
        search_max_nodes: :func:`.bounded.search_counts` gives up after this
            many branches (a branch about 1 us of Python, a stage 15-60 us
            of kernel launches; the golden ``flops`` calls the bound leaves
            open need 2 to 147, median 21).
        window_stage_cells: a bounded type is solved by one window stage
            when its window table has at most this many cells, else by its
            bundles (:func:`.bounded.stage_kind`; measured at C = 3029: 36k-76k
            cells 39-58 us against 57-87 us for 4-5 bundles, 185k cells 92
            against 90 us); 0 splits every bounded type into bundles.
    Reduce (:mod:`.reductions`):
        bound_fixing: fix items by the LP bound; off, the DP sees larger cores.
        window_half_widths: items each side of the critical item that the
            window lower bound re-solves, one width per round (measured,
            n = 100, Q = 1e5: 1.0 -> 0.7 ms and 1.3 -> 1.0 ms against (8, 32)).
        window_min_cells: a window of half-width 8 is solved only for cores
            with more cells than this (scaled by ``width**2 / 64``).
    Solve, a core (:mod:`.solver`, :mod:`.driver`, :mod:`.backends`):
        python_table_cells: cores (and windows) whose whole table has at most
            this many cells are solved by one Python-int table (about 60 ns
            per cell against about 6 us per kernel launch).
        frontier_max_items, frontier_min_cells: cores of at most this many
            items whose dense table has at least that many cells try the
            sparse frontier (:mod:`.frontier`) first.
        base_case_items: upper limit on the driver's base-case segments, on
            top of the backend's own; 1 forces the deepest recursion.
        debug_checks: check every profile, split and selection against the
            reference's table (:mod:`.checks`; O(n C) Python work each).
        window_min_columns: rows narrower than this are computed whole,
            without the column window of proofs/04.
        bool_table_cells: base-case tables of at most this many cells use
            one ``bool`` per cell (three kernel launches per item); larger
            ones pack decisions into words (seven).
    All budgets (:mod:`.budgets`):
        table_max_bytes: the all-budgets decision table is kept when it needs
            at most this many bytes (64 MiB, the size below which SPEC 1.6
            checks nothing); beyond, :func:`.budgets.selection_at` runs the
            solver per budget. 0 forces that.
        byte_table_max_bytes: tables of at most this many cells keep one byte
            per decision; larger ones are packed. 0 forces packing.
    """

    typed_front: bool = True
    bounded_types: bool = True
    grouping_min_saved_items: int = 1
    search_max_nodes: int = 256
    window_stage_cells: int = 1 << 17
    bound_fixing: bool = True
    window_half_widths: tuple[int, ...] = (4, 8, 32)
    window_min_cells: int = 1 << 14
    python_table_cells: int = 1 << 12
    frontier_max_items: int = 62
    frontier_min_cells: int = 1 << 22
    base_case_items: int = 1 << 30
    debug_checks: bool = False
    window_min_columns: int = 1 << 10
    bool_table_cells: int = 1 << 20
    table_max_bytes: int = 1 << 26
    byte_table_max_bytes: int = 1 << 25


_current = Config()


def current() -> Config:
    """The configuration in force (the defaults outside :func:`configured`)."""
    return _current


@contextmanager
def configured(**changes: object) -> Iterator[Config]:
    """Run the block with the named knobs changed (``TypeError`` for an unknown
    name); the previous configuration is restored on exit.

    >>> with configured(debug_checks=True) as config:
    ...     config.debug_checks, current().debug_checks
    (True, True)
    >>> current().debug_checks
    False
    """
    global _current
    previous = _current
    _current = dataclasses.replace(previous, **changes)  # type: ignore[arg-type]
    try:
        yield _current
    finally:
        _current = previous
