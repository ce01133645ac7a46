"""Tests of knapsack_audit.optimized against the exact oracle and the reference.

Validators check properties of the answer (partition, feasibility, exact
optimality, value, types), never one expected item list: several selections
can be optimal (SPEC 6.2).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest
import torch
from hypothesis import example, given
from hypothesis import strategies as st

from knapsack_audit.cases import Case
from knapsack_audit.exhaustive import DEFAULT_RUNTIMES, sample_instances, verify_small_scope
from knapsack_audit.optimized import (
    backends,
    dp_knapsack_sliding_hirschberg,
    driver,
    frontier,
    reductions,
    solver,
    two_word,
)
from knapsack_audit.optimized import checks as invariants
from knapsack_audit.optimized.config import Config
from knapsack_audit.properties import Judge, check_call
from knapsack_audit.reference import dp_knapsack, exact_optimum, quantize, validate, validation
from knapsack_audit.reference.validation import ALWAYS_FITS_BYTES, BudgetTooLargeError

Configure = Callable[..., object]

UNIT = 1e-4


EXACT = Judge(exact=True)


def assert_optimal(memory: list[float], runtime: list[float], budget: float) -> None:
    """Run ours and judge it as every solver is judged (the property engine,
    exact: SPEC 3.3, 5.1, 7.1, 7.2(b))."""
    case = Case.of(memory, runtime, budget)
    assert check_call(dp_knapsack_sliding_hirschberg, case, EXACT) == []


@pytest.fixture
def deep_recursion(configure: Configure) -> None:
    """Force the Hirschberg driver down to single items, with every invariant checked
    and column windows on every row."""
    configure(base_case_items=1, window_min_columns=0, debug_checks=True, bound_fixing=False)


@pytest.fixture
def frontier_always(configure: Configure) -> None:
    """Send every core to the sparse frontier, with the final selection checked."""
    configure(frontier_min_cells=0, debug_checks=True, bound_fixing=False)


@pytest.fixture
def checked(configure: Configure) -> None:
    """Invariants checked; column windows on every row."""
    configure(debug_checks=True, window_min_columns=0)


@pytest.fixture
def packed_decisions(configure: Configure) -> None:
    """Every base case through packed decision words and column windows, with
    invariants checked."""
    configure(bool_table_cells=0, window_min_columns=0, debug_checks=True, bound_fixing=False)


# --- exhaustive small scope (SPEC 3.3, 4.2, 5.1) -------------------------------------
# With the default knobs the contract suite (tests/test_contract.py) checks the
# scope exhaustively up to n = 3; here every internal path gets n <= 2 exhaustively
# and larger n sampled, in this process so the knobs apply.

PATHS = ["checked", "deep_recursion", "frontier_always", "packed_decisions"]


@pytest.mark.parametrize("path", PATHS)
def test_exhaustive_small_scope_on_every_path(path: str, request: pytest.FixtureRequest) -> None:
    """SPEC 3.3, 4.2, 5.1, 7.1: every instance of the exhaustive scope with
    n <= 2 (6,504), each path's knobs lowered (the fixture named ``path``)."""
    request.getfixturevalue(path)
    summary = verify_small_scope(dp_knapsack_sliding_hirschberg, max_items=2)
    assert summary.instances == 8 * sum(28**k for k in range(3))
    assert summary.failures == []


@pytest.mark.parametrize(
    ("path", "n", "count", "seed"),
    [
        ("frontier_always", 3, 500, 23),
        ("frontier_always", 4, 500, 24),
        ("frontier_always", 8, 500, 28),
        ("checked", 3, 2000, 3),
        ("checked", 4, 2000, 4),
        ("packed_decisions", 3, 1000, 33),
        ("packed_decisions", 4, 1000, 34),
        ("packed_decisions", 8, 1000, 38),
        ("deep_recursion", 3, 1000, 13),
        ("deep_recursion", 4, 1000, 14),
        ("deep_recursion", 6, 1000, 16),
    ],
)
def test_sampled_small_scope_on_every_path(
    path: str, n: int, count: int, seed: int, request: pytest.FixtureRequest
) -> None:
    """SPEC 3.3, 4.2, 5.1, 7.1: random instances of the scope with ``n`` items
    (beyond its exhaustive bound), each path's knobs lowered."""
    request.getfixturevalue(path)
    for memory, runtime, budget in sample_instances(n, count, seed):
        assert_optimal(memory, runtime, budget)


@given(
    st.lists(
        st.tuples(
            st.integers(0, 12),
            st.one_of(st.sampled_from(DEFAULT_RUNTIMES), st.floats(-10, 1e6, allow_nan=False)),
        ),
        max_size=12,
    ),
    st.integers(0, 40),
)
@example([(1, 1.0)] * 3, 1)
@example([(0, -1.0), (0, 2.0), (3, 0.0)], 0)
def test_random_instances_are_optimal(items: list[tuple[int, float]], budget_units: int) -> None:
    """SPEC 3.3, 5.1, 7.1: random instances of up to 12 items are exactly optimal."""
    memory = [w * UNIT for w, _ in items]
    runtime = [r for _, r in items]
    assert_optimal(memory, runtime, budget_units * UNIT)


# --- named cases ---------------------------------------------------------------------


def test_issue_197871_deep_recursion(deep_recursion: None) -> None:
    """SPEC 3.2, 3.3: pytorch issue #197871's case with the recursion down to single items."""
    value, saved, _ = dp_knapsack_sliding_hirschberg([1e-4] * 3, [1.0] * 3, 1e-4)
    assert (value, len(saved)) == (1.0, 1)


def _forbid_python_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("the int64 path was expected, not the Python fallback")

    monkeypatch.setattr(solver, "PythonBackend", refuse)


def test_flops_runtimes_take_the_int64_path(
    monkeypatch: pytest.MonkeyPatch, configure: Configure
) -> None:
    """SPEC 3.3: Flop counts up to 1e12 are exact in int64; the result equals the reference's."""
    rng = random.Random(7)
    memory = [rng.randint(1, 60) * UNIT for _ in range(150)]
    runtime = [float(rng.randint(1, 10**12)) for _ in range(150)]
    _forbid_python_backend(monkeypatch)
    configure(bound_fixing=False)
    ours = dp_knapsack_sliding_hirschberg(memory, runtime, 0.2)
    reference = dp_knapsack(memory, runtime, 0.2)
    assert ours[0] == reference[0]
    instance = validate(memory, runtime, 0.2)
    assert sum(instance.weights[i] for i in ours[1]) <= instance.capacity


@given(
    st.integers(0, 1 << 23),
    st.integers(0, 1 << 24),
    st.integers(0, 1 << 40),
)
@example((1 << 21) - 1, 10**6, 1 << 40)
@example((1 << 21) - 1, 1, 1 << 21)
@example(3 << 20, 1, 1 << 22)  # a bound twice too generous admits this
def test_buffers_always_fit_only_where_the_buffers_do(
    capacity: int, n: int, weight_total: int
) -> None:
    """SPEC 1.6: the typed front skips the buffer check (``buffers_always_fit``)
    only for budgets where no ``n`` and no total weight need more than
    ``ALWAYS_FITS_BYTES``."""
    if solver.buffers_always_fit(capacity):
        assert solver.solver_buffer_bytes(n, capacity, weight_total)[0] <= ALWAYS_FITS_BYTES


def test_buffers_always_fit_is_tight() -> None:
    """SPEC 1.6: the bound admits every budget of the partitioner (Q <= 10000)
    and stops where a call needs more than ``ALWAYS_FITS_BYTES`` (Q = 2**21,
    one item)."""
    assert solver.buffers_always_fit((1 << 21) - 1)
    assert not solver.buffers_always_fit(1 << 21)
    assert solver.solver_buffer_bytes(1, 1 << 21, 1 << 21)[0] > ALWAYS_FITS_BYTES


@pytest.mark.parametrize(
    ("resolution", "budget", "layout"),
    [
        (2.0**-36, 100.0, "72 bytes x (C+1) and a decision table, C=1000000"),
        (2.0**-70, 30.0, "300001 + 5 x (C+1) Python-int cells, C=300000"),
    ],
    ids=["two words", "python ints"],
)
def test_wide_value_buffers_are_checked_by_their_formula(
    resolution: float, budget: float, layout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 1.6: a core whose total value exceeds int64 is solved in two int64
    words per cell below 2**95, in Python ints beyond, and its buffers,
    ``72 (C + 1) + Config.bool_table_cells`` or ``(max(2**16, C + 1) + 5 (C + 1))
    * 48`` bytes by the solver's docstring, are checked before any allocation:
    refused when more than is available, with that count in the message. Two
    items of one unit with runtimes of 2**-36 (or 2**-70) resolution scale the
    others (runtimes near 1e9 per GB, all of one efficiency, so the bounds fix
    none) past 2**63 (or 2**95); 1,000,001 columns (72 MB) or 300,001 (86 MB),
    above the 64 MiB that is never checked."""
    monkeypatch.setattr(validation, "memory_headroom", lambda: (0, "a test's limit"))
    rng = random.Random(0)
    scale = budget / 30.0
    memory = [rng.randint(10000, 15000) * scale / 10000 for _ in range(60)]
    runtime = [m * 1e9 + rng.randint(0, 10**6) for m in memory]
    memory[:2] = [1e-4, 1e-4]
    runtime[:2] = [3 * resolution, 5 * resolution]
    with pytest.raises(BudgetTooLargeError) as refused:
        dp_knapsack_sliding_hirschberg(memory, runtime, budget)
    columns = round(budget * 1e4) + 1
    if layout.startswith("72"):
        needed = 72 * columns + Config().bool_table_cells
    else:
        needed = (max(2**16, columns) + 5 * columns) * 48
    assert f"({layout}) need {needed} bytes" in str(refused.value)


@pytest.mark.parametrize(
    ("total", "dtype"),
    [(2**31 - 1, torch.int32), (2**31, torch.int64), (2**63 - 1, torch.int64), (2**63, None)],
)
def test_profile_dtype_holds_every_subset_value(total: int, dtype: torch.dtype | None) -> None:
    """SPEC 3.1: the profile dtype holds every subset value exactly (proofs/07)."""
    assert solver.profile_dtype(total) == dtype


@pytest.mark.parametrize(
    "runtime",
    [
        [2.0**62, 2.0**62 - 2**10, 2.0**61, 1.0, 3.0],
        [1e300, 1e-300, 5e299, 3.0, 2.0],
        [2.0**62, 0.5, 2.0**62, -1.0, 1.5],
    ],
)
def test_huge_values_fall_back_to_exact_python_ints(
    runtime: list[float], monkeypatch: pytest.MonkeyPatch, configure: Configure, checked: None
) -> None:
    """SPEC 3.1, 3.3: values beyond int64 fall back to exact Python ints."""
    used: list[str] = []
    original = backends.PythonBackend

    def spy(*args: list[int]) -> backends.PythonBackend:
        used.append("python")
        return original(*args)

    monkeypatch.setattr(solver, "PythonBackend", spy)
    configure(bound_fixing=False)
    memory = [2e-4, 1e-4, 2e-4, 1e-4, 1e-4]
    for budget_units in range(7):
        assert_optimal(memory, runtime, budget_units * UNIT)
    assert used


# --- equivalence with the reference (SPEC 6.2: values equal) --------------------------


@pytest.mark.parametrize("seed", range(8))
def test_equivalent_to_reference_dp_knapsack(seed: int) -> None:
    """SPEC 3.3, 6.2: the same value as the reference, and feasible."""
    rng = random.Random(seed)
    n = rng.randint(20, 70)
    memory = [rng.randint(0, 30) * UNIT for _ in range(n)]
    runtime = [rng.choice([rng.random(), float(rng.randint(-5, 50)), 0.0]) for _ in range(n)]
    budget = rng.randint(0, 300) * UNIT
    ours = dp_knapsack_sliding_hirschberg(memory, runtime, budget)
    reference = dp_knapsack(memory, runtime, budget)
    assert ours[0] == reference[0]
    instance = validate(memory, runtime, budget)
    assert sum(instance.weights[i] for i in ours[1]) <= instance.capacity


@pytest.mark.parametrize("narrow_windows", [False, True])
@pytest.mark.parametrize("correlation", ["none", "weak", "strong", "inverse", "subset_sum"])
def test_wide_rows_equal_the_reference(
    correlation: str, narrow_windows: bool, monkeypatch: pytest.MonkeyPatch, configure: Configure
) -> None:
    """SPEC 3.3 with the default knobs on capacities of thousands of units, where
    the column window, the packed decision words and the window lower bound
    are in use (Pisinger's families, small n), against the exact reference.
    ``narrow_windows`` shrinks the lower-bound windows to half-widths 2 and 4
    (and drops their size threshold) so both window rounds run on these n."""
    if narrow_windows:
        configure(window_half_widths=(2, 4), window_min_cells=0)
    widths: list[int] = []
    original = backends.TorchBackend._fill

    def spy(
        self: backends.TorchBackend, row: torch.Tensor, items: list[int], capacity: int, *rest: Any
    ) -> list[int]:
        widths.append(capacity)
        return original(self, row, items, capacity, *rest)

    monkeypatch.setattr(backends.TorchBackend, "_fill", spy)
    rng = random.Random(correlation)
    for _ in range(5):
        n = rng.randint(20, 40)
        spread = rng.randint(200, 800)
        weights = [rng.randint(1, spread) for _ in range(n)]
        profits = {
            "none": [rng.randint(1, spread) for _ in weights],
            "weak": [max(1, w + rng.randint(-spread // 10, spread // 10)) for w in weights],
            "strong": [w + spread // 10 for w in weights],
            "inverse": [max(1, w - spread // 10) for w in weights],
            "subset_sum": list(weights),
        }[correlation]
        memory = [w * UNIT for w in weights]
        budget = max(1000, sum(weights) // 2) * UNIT
        ours = dp_knapsack_sliding_hirschberg(memory, [float(p) for p in profits], budget)
        reference = dp_knapsack(memory, [float(p) for p in profits], budget)
        assert ours[0] == reference[0]
        instance = validate(memory, [float(p) for p in profits], budget)
        assert sum(instance.weights[i] for i in ours[1]) <= instance.capacity
    if correlation != "none":  # uncorrelated cores shrink below the window threshold
        assert max(widths, default=0) >= Config().window_min_columns


# --- backends and driver --------------------------------------------------------------


def _random_core(rng: random.Random, n: int, max_value: int) -> tuple[list[int], list[int], int]:
    weights = [rng.randint(1, 12) for _ in range(n)]
    values = [rng.choice([rng.randint(1, 5), rng.randint(1, max_value)]) for _ in range(n)]
    return weights, values, rng.randint(0, sum(weights))


@pytest.mark.parametrize("base", [1, 2, 3, 32, 1 << 30])
@pytest.mark.parametrize("dtype", [torch.int32, torch.int64])
@pytest.mark.parametrize("table", ["bool", "packed"])
@pytest.mark.parametrize("window_min_columns", [0, 1 << 10])
def test_torch_and_python_backends_agree(
    base: int, dtype: torch.dtype, table: str, window_min_columns: int, configure: Configure
) -> None:
    """SPEC 3.3, 6.2: Identical selections (same tie rules, same split range), on many
    instances, with checks on; up to 70 items, so packed int32 decisions span
    three word rows and use every bit position."""
    configure(
        base_case_items=base,
        debug_checks=base == 1,
        bool_table_cells=1 << 16 if table == "bool" else 0,
        window_min_columns=window_min_columns,
    )
    rng = random.Random(base)
    max_value = 2**20 if dtype == torch.int32 else 2**56
    for _ in range(40):
        n = rng.randint(1, 70)
        weights, values, capacity = _random_core(rng, n, max_value)
        items = list(range(n))
        python = driver.solve(
            backends.PythonBackend(weights, values), weights, values, items, capacity
        )
        words = backends.decision_words(n, capacity, dtype)
        torch_backend = backends.TorchBackend(weights, values, capacity, dtype, words)
        assert torch_backend.small_items(capacity) >= min(n, base)
        assert driver.solve(torch_backend, weights, values, items, capacity) == python
        invariants.check_selection(weights, values, items, capacity, python)


def _returns_of(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[Any]:
    """Wrap ``module.name`` for the test: the list it returns fills with what
    each call returned."""
    returned: list[Any] = []
    original = getattr(module, name)

    def spy(*args: Any) -> Any:
        returned.append(original(*args))
        return returned[-1]

    monkeypatch.setattr(module, name, spy)
    return returned


def _wide_values(rng: random.Random, n: int) -> list[int]:
    """Values past int64 whose low words sit at the carry's edges: low words of
    0, 1, 2**32 - 1 and random ones, high words from 0 to 2**55 (so that 70 of
    them stay within the backend's precondition, ``two_word.MAX_TOTAL``)."""
    lows = [0, 1, 2**31, 2**32 - 1, 2**32 - 2]
    return [
        max(
            1,
            rng.choice([0, 1, rng.randint(0, 2**55)]) << 32
            | rng.choice([*lows, rng.randint(0, 2**32 - 1)]),
        )
        for _ in range(n)
    ]


@pytest.mark.parametrize("base", [1, 2, 3, 32, 1 << 30])
def test_two_word_and_python_backends_agree(base: int, configure: Configure) -> None:
    """SPEC 3.3, 6.2: the two-word backend (values past int64) returns the
    Python-int backend's profiles, splits and selections (same recurrence, same
    tie rules, same split range), on values whose low words make and miss the
    carry, with copies of one value (ties), with checks on."""
    configure(base_case_items=base, debug_checks=base == 1, bool_table_cells=1 << 16)
    rng = random.Random(100 + base)
    for _ in range(40):
        n = rng.randint(1, 70)
        weights = [rng.randint(1, 12) for _ in range(n)]
        values = _wide_values(rng, n)
        if rng.random() < 0.3:
            values = [values[0]] * n  # every subset of k items ties
        capacity = rng.randint(0, sum(weights))
        items = list(range(n))
        assert sum(values) <= two_word.MAX_TOTAL
        python_backend = backends.PythonBackend(weights, values)
        wide = two_word.TwoWordBackend(weights, values, capacity)
        assert wide.profile(items, capacity) == python_backend.profile(items, capacity)
        middle = n // 2
        if sum(w for w in weights if w <= capacity) > capacity and middle:
            left, right = items[:middle], items[middle:]
            assert wide.best_split(left, right, capacity) == python_backend.best_split(
                left, right, capacity
            )
        python = driver.solve(python_backend, weights, values, items, capacity)
        assert driver.solve(wide, weights, values, items, capacity) == python
        invariants.check_selection(weights, values, items, capacity, python)


def test_cores_past_int64_take_the_two_word_backend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3: a core of more than 62 items whose total value passes int64
    (300 runtimes of four decimals, 100 per GB of memory plus 0.1: strongly
    correlated) is solved by the two-word backend, and the answer is optimal;
    the Python-int driver took 14.5 s on such a call of the breadth phase
    (1,057 items, 10,199 units)."""
    made = _returns_of(monkeypatch, two_word, "TwoWordBackend")
    rng = random.Random(0)
    memory = [round(rng.uniform(0.0001, 0.02), 4) for _ in range(300)]
    runtime = [round(m * 100 + 0.1, 4) for m in memory]
    assert sum(validation.integer_runtimes(runtime)[0]) > torch.iinfo(torch.int64).max
    assert_optimal(memory, runtime, 0.5)
    assert made


class _Corrupted(backends.PythonBackend):
    """A backend with one wrong answer of the kind ``fault`` names: the first
    base case one item short, the profile of a split's left or right half one
    unit high, a split's value one high, or a split of -1."""

    def __init__(self, weights: list[int], values: list[int], fault: str) -> None:
        super().__init__(weights, values)
        self.fault, self.base_cases, self.halves = fault, 0, {}

    def solve_small(self, items: Any, capacity: int) -> list[int]:
        chosen = super().solve_small(items, capacity)
        self.base_cases += 1
        first = self.base_cases == 1 and self.fault == "base case"
        return chosen[:-1] if first and chosen else chosen

    def profile(self, items: Any, capacity: int) -> list[int]:
        row = super().profile(items, capacity)
        if self.halves.get(self.fault) == list(items):
            return [*row[:-1], row[-1] + 1]
        return row

    def best_split(self, left: Any, right: Any, capacity: int) -> tuple[int, int]:
        split, value = super().best_split(left, right, capacity)
        self.halves = {"left profile": list(left), "right profile": list(right)}
        if self.fault == "split below 0":
            return -1, value
        return split, value + (self.fault == "split value")


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("base case", "selection value"),
        ("left profile", "profile of"),
        ("right profile", "profile of"),
        ("split value", r"L \+ R = "),
        ("split below 0", "split -1 outside"),
    ],
)
def test_debug_checks_catch_a_wrong_backend_answer_at_every_step(
    fault: str, message: str, configure: Configure
) -> None:
    """SPEC 3.3: with ``debug_checks`` the driver checks each base case's
    selection, both halves' profiles and each split (its range, then its value)
    against the full table (proofs/04, 06), so one wrong answer of the backend
    raises at once: a wrong first base case before a second one is solved."""
    configure(base_case_items=2, debug_checks=True)
    weights = [3, 4, 5, 2, 6, 1, 5, 4, 3, 6]
    values = [4, 5, 7, 2, 9, 1, 6, 5, 4, 8]  # two base cases at C = 14
    backend = _Corrupted(weights, values, fault)
    with pytest.raises(AssertionError, match=message):
        driver.solve(backend, weights, values, range(10), 14)
    assert backend.base_cases <= 1


def test_debug_checks_check_the_whole_selection_at_the_end(
    configure: Configure, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SPEC 3.3: with ``debug_checks`` the driver's answer is checked as a whole,
    so a wrong step outside the backend (here: an item saved twice) raises."""
    configure(debug_checks=True)
    solve_segment = driver._solve_segment

    def saves_one_twice(*args: Any) -> None:
        solve_segment(*args)
        args[-1].append(args[-1][0])

    monkeypatch.setattr(driver, "_solve_segment", saves_one_twice)
    weights, values = [3, 4, 5], [4, 5, 7]
    with pytest.raises(AssertionError, match="duplicate items"):
        driver.solve(backends.PythonBackend(weights, values), weights, values, range(3), 9)


def test_backend_profiles_equal_the_full_table() -> None:
    """SPEC 3.3: each backend's profile equals the table's row (proofs/04)."""
    rng = random.Random(3)
    for _ in range(30):
        weights, values, capacity = _random_core(rng, rng.randint(0, 15), 1000)
        items = list(range(len(weights)))
        torch_backend = backends.TorchBackend(weights, values, capacity, torch.int64, 0)
        for backend in (backends.PythonBackend(weights, values), torch_backend):
            invariants.check_profile(
                backend.profile(items, capacity), weights, values, items, capacity
            )


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64])
def test_frontier_is_optimal_and_gives_up_beyond_its_state_limit(dtype: torch.dtype) -> None:
    """SPEC 3.3: the frontier's selection is optimal; beyond its state limit it gives up."""
    rng = random.Random(5)
    gave_up = 0
    for _ in range(60):
        n = rng.randint(1, 20)
        weights, values, capacity = _random_core(rng, n, 2**20)
        items = list(range(n))
        chosen = frontier.solve_by_frontier(weights, values, items, capacity, dtype, 10**6)
        assert chosen is not None
        invariants.check_selection(weights, values, items, capacity, chosen)
        gave_up += frontier.solve_by_frontier(weights, values, items, capacity, dtype, 1) is None
    assert gave_up > 0


@pytest.mark.parametrize("seed", range(3))
def test_large_capacity_small_core_takes_the_frontier(
    seed: int, monkeypatch: pytest.MonkeyPatch, configure: Configure
) -> None:
    """SPEC 3.3: The n = 100, Q = 10**6 shape of the benchmark, checked against the oracle;
    every core tries the frontier (with its default state limit), which answers."""
    configure(frontier_min_cells=0)
    answers = _returns_of(monkeypatch, solver, "solve_by_frontier")
    rng = random.Random(seed)
    memory = [rng.random() * 6.6 for _ in range(60)]
    runtime = [rng.random() for _ in range(60)]
    assert_optimal(memory, runtime, 60.0)
    assert answers and answers[-1] is not None


def test_the_frontier_in_python_ints_returns_the_tensor_merge_subset() -> None:
    """SPEC 3.3, 6.2: with ``dtype=None`` (values past int64) the frontier merges
    lists of Python ints with the tensor merge's tie rules: on cores within int64
    both return the same subset and give up at the same state limit; past int64
    the subset is optimal (checked in exact integers)."""
    rng = random.Random(11)
    for _ in range(80):
        n = rng.randint(1, 24)
        weights, values, capacity = _random_core(rng, n, 2**20)
        items = list(range(n))
        for states in (10**6, rng.randint(1, 40)):
            tensor = frontier.solve_by_frontier(
                weights, values, items, capacity, torch.int64, states
            )
            assert frontier.solve_by_frontier(weights, values, items, capacity, None, states) == (
                tensor
            )
        huge = [v * 2**62 + rng.randint(0, 2**40) for v in values]
        chosen = frontier.solve_by_frontier(weights, huge, items, capacity, None, 10**6)
        assert chosen is not None
        invariants.check_selection(weights, huge, items, capacity, chosen)


def test_a_few_item_core_past_int64_takes_the_frontier(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SPEC 3.3: a layer of two items repeated 8 times, runtimes of four
    decimals (their exact scaled sum passes int64), under 2.8e5 units, room
    for four heavy items: the core goes to the Python-int frontier, which
    answers, and the answer is optimal. The dense Python-int driver took 109 s
    on this call scaled to 1.1e7 units (session 30)."""
    answers = _returns_of(monkeypatch, solver, "solve_by_frontier")
    memory = [6.65, 0.35] * 8
    runtime = [519.4511, 1.5609, 471.2003, 1.55, 576.904, 1.9857, 641.5214, 1.3201]
    runtime += [486.7395, 1.3104, 550.1031, 1.7045, 635.285, 1.4578, 611.4564, 1.9335]
    assert sum(validation.integer_runtimes(runtime)[0]) > torch.iinfo(torch.int64).max
    assert_optimal(memory, runtime, 28.0)
    assert answers and answers[-1] is not None


def test_frontier_uses_all_62_mask_bits() -> None:
    """SPEC 3.3: Item 61 (the highest mask bit) is saved and decoded."""
    weights, values = [2] * 61 + [1], [1] * 61 + [5]
    assert frontier.solve_by_frontier(weights, values, range(62), 1, torch.int64, 100) == [61]


def test_checkers_reject_wrong_claims() -> None:
    """SPEC 3.3: the invariant checkers reject a wrong profile, split and selection."""
    weights, values = [1, 1, 1], [1, 1, 1]
    with pytest.raises(AssertionError):
        invariants.check_profile([0, 1, 1], weights, values, [0, 1, 2], 2)
    with pytest.raises(AssertionError):  # upstream's split: right half gets C - c + 1
        invariants.check_split(weights, values, [1, 2], [0], 1, 0, 2)
    with pytest.raises(AssertionError):
        invariants.check_selection(weights, values, [0, 1, 2], 1, [0, 1])


def test_the_lp_slack_counts_a_reduced_cost_of_one() -> None:
    """SPEC 3.3 (proofs/07, R6): the LP bound sums every positive reduced cost,
    including one of exactly 1 (small integer runtimes beside ones near 1e9, and
    weights of a few units, make such ties). Summing only those above 1
    (mutant 135 of ``reductions.py``) fixed an item out that the optimum saves:
    2 short of the optimum here. The call is the one ``mutate``'s probe found
    (docs/mutation/optimized/full_reductions.md); the exact oracle judges it."""
    memory = [1.5e-4, 3.5e-4, 1.5e-4, 1e-4, 2e-4, 2e-4, 7e-4, 3e-4, 6e-4, 1e-4, 3e-4]
    runtime = [0.0, 7.0, -1.0, 2.0, -1.0, 2.0, 2.0, 1.0, 935789648.0, 519653352.0, 2.0]
    value, saved, _ = dp_knapsack_sliding_hirschberg(memory, runtime, 4e-4)
    assert value == float(exact_optimum(memory, runtime, 4e-4).value)
    assert sum(quantize(memory[i]) for i in saved) <= 4


@pytest.mark.parametrize("with_window", [False, True])
def test_bound_fixing_only_fixes_what_every_optimum_agrees_on(with_window: bool) -> None:
    """SPEC 3.3: proofs/07, R6: a fixed item has the same status in every optimal subset."""
    rng = random.Random(11)
    fixed_seen = proved_optimal = 0
    for _ in range(150):
        n = rng.randint(2, 10)
        weights, values, capacity = _random_core(rng, n, 60)
        reduced = reductions.basic_reductions(weights, values, range(n), capacity)
        if not reduced.free:
            continue
        free = reduced.free
        window = solver.window_solver(weights, values) if with_window else None
        fixed_in, fixed_out, optimal = reductions.fix_by_bounds(
            weights, values, free, reduced.capacity, window, half_width=rng.choice([1, 2, 4])
        )
        subsets = [
            s
            for k in range(len(free) + 1)
            for s in itertools.combinations(free, k)
            if sum(weights[i] for i in s) <= reduced.capacity
        ]
        best = max(sum(values[i] for i in s) for s in subsets)
        if optimal is not None:  # R7: a selection proved optimal by the bound
            assert sum(weights[i] for i in optimal) <= reduced.capacity
            assert sum(values[i] for i in optimal) == best
            proved_optimal += 1
            continue
        for s in subsets:
            if sum(values[i] for i in s) == best:
                assert set(fixed_in) <= set(s) and not set(fixed_out) & set(s)
        fixed_seen += len(fixed_in) + len(fixed_out)
    assert fixed_seen > 0 and proved_optimal > 0
