"""Witnesses for the ten planted bugs of /work/blind9 (a blind corpus).

For each bug NAME (bugs/NAME.py, torch 2.13.0's dp_knapsack with one change):

(a) a witness above the bug's gate on which the bug is wrong and upstream is
    right, both judged against the exact optimum (reference.exact_optimum);
    upstream within SPEC 5.4's float32 tolerance. An optimality claim also
    needs a shortfall above 1e-3 of the optimum. For the stateful bug the
    witness is a call sequence whose last call is wrong, while that call
    alone on a freshly loaded module is right.
(b) 30 seeded random instances below the gate (15 of them carrying the bug's
    trigger pattern) on which the bug returns exactly upstream's tuple (value,
    lists, element types) and leaves its inputs untouched. For the stateful
    bug an instance is a sequence of two calls on one module, and both calls
    are compared.

Run from anywhere with /work/main/.venv/bin/python; it imports `reference`
from /work/main (the exact oracle and SPEC 2's quantization) and nothing of
knapsack_audit. Prints one line per claim and ALL CLAIMS PASS at the end.
"""

from __future__ import annotations

import importlib.util
import itertools
import math
import numbers
import random
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, "/work/main")
from reference import exact_optimum, quantize

HERE = Path(__file__).resolve().parent
UPSTREAM = HERE.parent / "upstream_dp_knapsack.py"
MAX_WITNESS_CELLS = 15_000_000

_module_ids = itertools.count()


def load(path: Path):
    """A freshly loaded copy of the module at `path` (no state shared)."""
    spec = importlib.util.spec_from_file_location(f"_blind9_{next(_module_ids)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bug_path(name: str) -> Path:
    return HERE / f"{name}.py"


UPSTREAM_FN = load(UPSTREAM).dp_knapsack

# ---------------------------------------------------------------------------
# The judge (SPEC 3, 5.4, 7.2, 8.2)
# ---------------------------------------------------------------------------

U = Fraction(1, 2**24)


def gamma(k: int) -> Fraction:
    return k * U / (1 - k * U)


def tolerance(weights: list[int], runtime: list, capacity: int) -> Fraction:
    """SPEC 5.4: 2 gamma(n + 1) sum(|v_i| : q_i <= Q) + 2 (n + 1) 2**-149."""
    n = len(weights)
    total = sum(
        (abs(Fraction(float(r))) for w, r in zip(weights, runtime) if w <= capacity),
        Fraction(0),
    )
    return 2 * gamma(n + 1) * total + 2 * (n + 1) * Fraction(1, 2**149)


def snapshot(values: list) -> list:
    return [(type(x), x) for x in values]


def judge(fn, memory, runtime, max_memory, opt: Fraction) -> tuple[list[str], dict]:
    """Failures of one call (empty when correct) and a few numbers about it."""
    before = (snapshot(memory), snapshot(runtime))
    try:
        result = fn(memory, runtime, max_memory)
    except Exception as error:  # noqa: BLE001 (a crash is a finding)
        return [f"crash ({type(error).__name__}: {str(error)[:80]})"], {}
    failures = []
    if (snapshot(memory), snapshot(runtime)) != before:
        failures.append("mutated input")
    n = len(memory)
    weights = [quantize(float(m)) for m in memory]
    capacity = quantize(float(max_memory))
    if not (isinstance(result, (tuple, list)) and len(result) == 3):
        return failures + ["not a 3-sequence"], {}
    value, saved, recomputable = result
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
    ):
        failures.append(f"value not a finite real ({type(value).__name__})")
        value = None
    if not all(type(i) is int for i in list(saved) + list(recomputable)):
        failures.append("indices not plain int")
    indices = [int(i) for i in list(saved) + list(recomputable)]
    if sorted(indices) != list(range(n)):
        counts = Counter(indices)
        doubled = sorted(i for i, c in counts.items() if c > 1)
        missing = sorted(set(range(n)) - set(counts))
        failures.append(
            f"broken partition (in both lists or twice: {doubled[:5]}"
            f"{'...' if len(doubled) > 5 else ''} ({len(doubled)}); "
            f"missing: {missing[:5]}{'...' if len(missing) > 5 else ''} ({len(missing)}))"
        )
    chosen = sorted({int(i) for i in saved})
    if not all(0 <= i < n for i in chosen):
        return failures + ["saved index out of range"], {}
    used = sum(weights[i] for i in chosen)
    worth = sum((Fraction(float(runtime[i])) for i in chosen), Fraction(0))
    tol = tolerance(weights, runtime, capacity)
    info = {
        "Q": capacity,
        "used": used,
        "saved": len(chosen),
        "selection_worth": float(worth),
        "returned": value,
        "opt": float(opt),
    }
    if used > capacity:
        failures.append(f"over budget ({used} > {capacity} units)")
    shortfall = opt - worth
    if shortfall > tol:
        relative = float(shortfall / opt)
        info["short_rel"] = relative
        failures.append(
            f"optimality ({float(worth):.6g} vs OPT {float(opt):.6g}, "
            f"{100 * relative:.3g}% short)"
        )
    if value is not None and abs(Fraction(value) - worth) > tol:
        failures.append(
            f"value inconsistent (returned {value:.6g}, selection worth {float(worth):.6g})"
        )
    return failures, info


def clearly_wrong(failures: list[str], info: dict) -> bool:
    """Wrong beyond doubt: any failure, an optimality-only one above 1e-3."""
    if not failures:
        return False
    if all(f.startswith("optimality") for f in failures):
        return info.get("short_rel", 0.0) > 1e-3
    return True


def same_tuple(a, b) -> bool:
    """Exactly the same answer: value (and its type), lists, element types."""
    if type(a) is not type(b) or len(a) != 3 or len(b) != 3:
        return False
    (va, sa, ra), (vb, sb, rb) = a, b
    if type(va) is not type(vb) or va != vb:
        return False
    for x, y in ((sa, sb), (ra, rb)):
        if type(x) is not type(y) or list(x) != list(y):
            return False
        if any(type(i) is not type(j) for i, j in zip(x, y)):
            return False
    return True


# ---------------------------------------------------------------------------
# Claims
# ---------------------------------------------------------------------------

RESULTS: list[bool] = []


def claim(ok: bool, text: str) -> None:
    RESULTS.append(ok)
    print(f"{'PASS' if ok else 'FAIL'} {text}", flush=True)


def witness(name: str, memory, runtime, max_memory, setup=(), note: str = "") -> None:
    """(a): the bug is wrong on the call, upstream is right; for a stateful
    bug, `setup` calls come first on the same module, and the call alone on
    a freshly loaded module is right."""
    n = len(memory)
    cells = n * (quantize(float(max_memory)) + 1)
    assert cells < MAX_WITNESS_CELLS, cells
    opt = exact_optimum(memory, runtime, max_memory).value
    module = load(bug_path(name))
    for call in setup:
        module.dp_knapsack(*call)
    bug_fail, bug_info = judge(module.dp_knapsack, memory, runtime, max_memory, opt)
    up_fail, up_info = judge(UPSTREAM_FN, memory, runtime, max_memory, opt)
    ok = clearly_wrong(bug_fail, bug_info) and not up_fail
    detail = (
        f"n={n}, Q={quantize(float(max_memory))}, cells={cells:.3g}{note}: "
        f"bug: {'; '.join(bug_fail) or 'correct'}"
    )
    if bug_info:
        detail += (
            f" [saved {bug_info['saved']}, {bug_info['used']} units, "
            f"returned {bug_info['returned']!r}]"
        )
    detail += (
        f"; upstream: {'; '.join(up_fail) or 'correct'} "
        f"[value {up_info.get('returned')!r}, OPT {float(opt):.9g}]"
    )
    if setup:
        alone_fail, _ = judge(load(bug_path(name)).dp_knapsack, memory, runtime, max_memory, opt)
        ok = ok and not alone_fail
        detail += f"; the last call alone, fresh module: {'; '.join(alone_fail) or 'correct'}"
    claim(ok, f"{name} witness ({len(setup) + 1} call{'s' if setup else ''}) {detail}")


def below_gate(name: str, instances, gate_ok) -> None:
    """(b): `instances` is a list of (is_trigger, [calls]); each call is
    (memory, runtime, max_memory). All calls of an instance run on one
    freshly loaded module. `gate_ok(call)` asserts the call is below the gate."""
    assert len(instances) == 30 and sum(t for t, _ in instances) == 15
    bad = []
    for number, (is_trigger, calls) in enumerate(instances):
        module = load(bug_path(name))
        for memory, runtime, max_memory in calls:
            assert gate_ok(memory, runtime, max_memory), (name, number)
            before = (snapshot(memory), snapshot(runtime))
            expected = UPSTREAM_FN(list(memory), list(runtime), max_memory)
            try:
                got = module.dp_knapsack(memory, runtime, max_memory)
            except Exception as error:  # noqa: BLE001
                bad.append(f"#{number} crash {type(error).__name__}")
                continue
            if not same_tuple(got, expected):
                bad.append(f"#{number} differs")
            if (snapshot(memory), snapshot(runtime)) != before:
                bad.append(f"#{number} mutated input")
    calls = sum(len(c) for _, c in instances)
    claim(
        not bad,
        f"{name} below the gate: 30 instances ({calls} calls, 15 with the trigger): "
        + ("bug == upstream tuple, inputs untouched" if not bad else ", ".join(bad)),
    )


# ---------------------------------------------------------------------------
# Instance generators
# ---------------------------------------------------------------------------


def plain(rng: random.Random, n: int, fill=(0.2, 0.8)):
    """Log-uniform memories (5 decimals) and runtimes, budget a random share."""
    memory = [round(math.exp(rng.uniform(math.log(2e-4), math.log(0.02))), 5) for _ in range(n)]
    runtime = [math.exp(rng.uniform(math.log(0.01), math.log(100.0))) for _ in range(n)]
    budget = round(sum(memory) * rng.uniform(*fill), 4)
    return memory, runtime, budget


def cells(memory, max_memory) -> int:
    return len(memory) * (quantize(float(max_memory)) + 1)


def cap_budget(memory, budget: float, max_cells: int) -> float:
    """The budget, lowered (to 4 decimals) until the table has at most max_cells."""
    while cells(memory, budget) > max_cells:
        budget = round((max_cells // len(memory) - 2) / 10000, 4)
    return budget


# ---------------------------------------------------------------------------
# The ten bugs
# ---------------------------------------------------------------------------


def bug_cache_clamp() -> None:
    name = "quantized_weights_cache_clamped_in_place_from_256_items"
    rng = random.Random(7)
    memory = [0.01] * 150 + [0.15] * 150
    rng.shuffle(memory)
    runtime = [rng.uniform(1, 2) if m == 0.01 else rng.uniform(30, 40) for m in memory]
    # First the same graph under 0.1 GB (an equal list, not the same object),
    # then under 1.0 GB: the 0.15 GB items were clamped to 1,001 units.
    witness(
        name,
        memory,
        runtime,
        1.0,
        setup=[(list(memory), list(runtime), 0.1)],
        note=" (after the same graph under 0.1 GB)",
    )

    instances = []
    for k in range(30):
        r = random.Random(1000 + k)
        n = r.randint(40, 255)
        if k < 15:  # trigger: a budget sweep upward over items heavier than the first budget
            light = [round(r.uniform(0.002, 0.01), 4) for _ in range(n // 2)]
            heavy = [round(r.uniform(0.05, 0.2), 4) for _ in range(n - n // 2)]
            memory = light + heavy
            r.shuffle(memory)
            runtime = [r.uniform(1, 2) if m < 0.05 else r.uniform(20, 40) for m in memory]
            calls = [(list(memory), runtime, 0.04), (list(memory), runtime, 0.6)]
        else:
            memory, runtime, budget = plain(r, n)
            calls = [(memory, runtime, budget), (list(memory), runtime, round(budget * 1.5, 4))]
        instances.append((k < 15, calls))
    below_gate(name, instances, lambda m, r, b: len(m) < 256)


def bug_runtime_indexed() -> None:
    name = "runtime_indexed_table_searchsorted_from_128_items"
    rng = random.Random(0)
    n = 150
    memory = [round(rng.uniform(0.001, 0.03), 4) for _ in range(n)]
    runtime = [float(rng.choice([2, 4, 6, 8])) for _ in range(n)]
    witness(name, memory, runtime, 0.5, note=" (integer runtimes 2, 4, 6, 8)")

    instances = []
    for k in range(30):
        r = random.Random(2000 + k)
        n = r.randint(30, 127)
        if k < 15:  # trigger: small integer runtimes sharing a factor, Q >= 4 (V + 1)
            memory = [round(r.uniform(0.001, 0.02), 4) for _ in range(n)]
            step = r.choice([2, 3])
            runtime = [float(step * r.randint(1, 4)) for _ in range(n)]
            budget = max(0.5, round(4 * (sum(runtime) + 1) / 10000 + 0.01, 4))
        else:
            memory, runtime, budget = plain(r, n)
        instances.append((k < 15, [(memory, runtime, budget)]))
    below_gate(name, instances, lambda m, r, b: len(m) < 128)


def bug_heavy_rows() -> None:
    name = "heavy_rows_dropped_weight_by_row_from_32_heavy"
    rng = random.Random(5)
    # 40 items too heavy for 0.5 GB, then 40 light zero-runtime items, then
    # 160 items of 0.01 GB. Rows 41-80 hold the first 40 of the 0.01 GB items,
    # but the backtrack subtracts the weight of items 40-79 (0.001 GB each).
    memory = [1.5] * 40 + [0.001] * 40 + [0.01] * 160
    runtime = [100.0] * 40 + [0.0] * 40 + [rng.uniform(1, 2) for _ in range(160)]
    witness(name, memory, runtime, 0.5, note=" (40 items of 1.5 GB first)")

    instances = []
    for k in range(30):
        r = random.Random(3000 + k)
        n = r.randint(40, 300)
        memory, runtime, budget = plain(r, n, fill=(0.1, 0.3))
        if k < 15:  # trigger: up to 31 items heavier than the budget, spread over the list
            for i in r.sample(range(n), r.randint(1, 31)):
                memory[i] = round(budget * r.uniform(1.1, 3.0), 4)
        q = quantize(budget)
        assert (sum(quantize(m) > q for m in memory) > 0) == (k < 15)
        instances.append((k < 15, [(memory, runtime, budget)]))
    below_gate(
        name,
        instances,
        lambda m, r, b: sum(quantize(x) > quantize(b) for x in m) < 32,
    )


def bug_runtime_span() -> None:
    name = "runtime_span_divides_by_min_runtime_from_384_items"
    rng = random.Random(7)
    memory = [round(rng.uniform(0.001, 0.02), 4) for _ in range(400)]
    runtime = [rng.uniform(0.1, 5) for _ in range(400)]
    runtime[17] = 0.0  # an op too fast for the profiler's timer
    witness(name, memory, runtime, 0.5, note=" (one runtime 0.0)")

    instances = []
    for k in range(30):
        r = random.Random(4000 + k)
        n = r.randint(40, 383)
        memory, runtime, budget = plain(r, n)
        if k < 15:  # trigger: zero runtimes (float and int)
            for i in r.sample(range(n), r.randint(1, 20)):
                runtime[i] = r.choice([0.0, 0])
        instances.append((k < 15, [(memory, runtime, budget)]))
    below_gate(name, instances, lambda m, r, b: len(m) < 384)


def bug_runtime_floor() -> None:
    name = "clustered_runtimes_floor_subtracted_from_128_items"
    rng = random.Random(55)
    memory = [0.01] * 100 + [0.02] * 50
    runtime = [rng.uniform(10, 10.5) for _ in range(100)] + [rng.uniform(10.6, 11) for _ in range(50)]
    witness(name, memory, runtime, 1.0, note=" (runtimes 10-11)")

    instances = []
    for k in range(30):
        r = random.Random(5000 + k)
        n = r.randint(40, 127)
        memory, runtime, budget = plain(r, n)
        if k < 15:  # trigger: clustered runtimes (spread below the floor)
            base = math.exp(r.uniform(math.log(1.0), math.log(1e12)))
            runtime = [base * r.uniform(1.0, 1.5) for _ in range(n)]
        instances.append((k < 15, [(memory, runtime, budget)]))
    below_gate(name, instances, lambda m, r, b: len(m) < 128)


def bug_tiebreak() -> None:
    name = "memory_tiebreak_charge_from_64_tied_runtimes"
    rng = random.Random(7)
    memory = [round(rng.uniform(0.005, 0.02), 4) for _ in range(100)]
    runtime = [2e-6] * 70 + [rng.uniform(1e-6, 5e-6) for _ in range(30)]
    witness(name, memory, runtime, 0.5, note=" (runtimes in seconds, 70 of them 2e-6)")

    instances = []
    for k in range(30):
        r = random.Random(6000 + k)
        n = r.randint(40, 300)
        memory, runtime, budget = plain(r, n)
        if k < 15:  # trigger: tiny runtimes, up to 63 of them tied
            runtime = [r.uniform(1e-6, 5e-6) for _ in range(n)]
            for i in r.sample(range(n), min(n, r.randint(30, 63))):
                runtime[i] = 2e-6
        instances.append((k < 15, [(memory, runtime, budget)]))
    below_gate(
        name,
        instances,
        lambda m, r, b: len(m) < 64 or max(Counter(r).values()) < 64,
    )


def bug_grid_snap() -> None:
    name = "near_grid_weights_snapped_above_2e6_cells"
    rng = random.Random(77)
    memory = [0.0101] * 300
    runtime = [rng.uniform(1, 2) for _ in range(300)]
    witness(name, memory, runtime, 1.0, note=" (300 items of 101 units)")

    instances = []
    for k in range(30):
        r = random.Random(7000 + k)
        if k < 15:  # trigger: weights on or one unit above a grid of 10 or 100 units
            n = r.randint(40, 150)
            grid, lowest = r.choice([(10, 11), (100, 2)])
            memory = [
                (grid * r.randint(lowest, 8 * lowest) + r.choice([0, 1, 1])) / 10000
                for _ in range(n)
            ]
            runtime = [r.uniform(1, 2) for _ in range(n)]
            budget = round(sum(memory) * r.uniform(0.2, 0.6), 4)
        else:
            memory, runtime, budget = plain(r, r.randint(40, 300))
        budget = cap_budget(memory, budget, 2_000_000)
        instances.append((k < 15, [(memory, runtime, budget)]))
    below_gate(name, instances, lambda m, r, b: cells(m, b) <= 2_000_000)


def bug_copies() -> None:
    name = "copies_canonicalized_saved_only_from_64_copies"
    rng = random.Random(5)
    types = [(round(rng.uniform(0.001, 0.02), 4), rng.uniform(0.1, 10)) for _ in range(30)]
    items = [types[rng.randrange(30)] for _ in range(100)]
    memory = [m for m, _ in items]
    runtime = [r for _, r in items]
    witness(name, memory, runtime, 0.3, note=" (100 items of 30 types)")

    instances = []
    for k in range(30):
        r = random.Random(8000 + k)
        if k < 15:  # trigger: copies with fractional runtimes, fewer than 64 items with a copy
            kinds = [(round(r.uniform(0.001, 0.02), 4), r.uniform(0.1, 10)) for _ in range(12)]
            items = [kinds[i % 12] for i in range(60)]  # 12 kinds, 5 copies each
            items += [
                (round(r.uniform(0.001, 0.02), 4) + 1e-7 * i, r.uniform(0.1, 10))
                for i in range(r.randint(10, 80))
            ]
            r.shuffle(items)
            memory = [m for m, _ in items]
            runtime = [x for _, x in items]
            budget = round(sum(memory) * r.uniform(0.2, 0.6), 4)
        else:
            memory, runtime, budget = plain(r, r.randint(40, 300))
        instances.append((k < 15, [(memory, runtime, budget)]))

    def copy_members(m, r, b):
        groups = Counter((quantize(x), float(y)) for x, y in zip(m, r))
        return sum(c for c in groups.values() if c > 1)

    below_gate(name, instances, lambda m, r, b: len(m) < 64 or copy_members(m, r, b) < 64)


def bug_half_budget() -> None:
    name = "half_budget_items_exclusive_above_4e6_cells"
    memory = [0.5, 0.5] + [0.01] * 399
    runtime = [100.0, 100.0] + [0.5] * 399
    witness(name, memory, runtime, 1.0, note=" (two items of exactly half the budget)")

    instances = []
    for k in range(30):
        r = random.Random(9000 + k)
        if k < 15:  # trigger: items of exactly half the budget, cells <= 4e6
            n = r.randint(40, 300)
            memory, runtime, _ = plain(r, n)
            budget = cap_budget(memory, round(r.uniform(0.2, 1.2), 3), 4_000_000)
            half = quantize(budget) // 2
            for i in r.sample(range(n), r.randint(2, 6)):
                memory[i] = half / 10000
                runtime[i] = r.uniform(1000, 5000)
            assert 2 * quantize(half / 10000) == quantize(budget) - quantize(budget) % 2
        else:
            memory, runtime, budget = plain(r, r.randint(40, 300))
            budget = cap_budget(memory, budget, 4_000_000)
        instances.append((k < 15, [(memory, runtime, budget)]))
    below_gate(name, instances, lambda m, r, b: cells(m, b) <= 4_000_000)


def bug_float_zero_test() -> None:
    name = "free_item_test_on_float_memory_from_256_items"
    rng = random.Random(1010)
    memory = [round(rng.uniform(0.001, 0.02), 4) for _ in range(300)]
    memory[5] = 3e-5  # a 30 KB activation: weighs 0 units, but is not 0.0
    runtime = [rng.uniform(0.1, 5) for _ in range(300)]
    witness(name, memory, runtime, 0.5, note=" (memory[5] = 3e-5)")

    instances = []
    for k in range(30):
        r = random.Random(10000 + k)
        n = r.randint(40, 255)
        memory, runtime, budget = plain(r, n)
        if k < 15:  # trigger: memories that quantize to 0 without being 0.0, and exact zeros
            for i in r.sample(range(n), r.randint(1, 20)):
                memory[i] = r.choice([r.uniform(1e-7, 4.9e-5), 0.0])
        instances.append((k < 15, [(memory, runtime, budget)]))
    below_gate(name, instances, lambda m, r, b: len(m) < 256)


def main() -> int:
    start = time.perf_counter()
    bug_cache_clamp()
    bug_runtime_indexed()
    bug_heavy_rows()
    bug_runtime_span()
    bug_runtime_floor()
    bug_tiebreak()
    bug_grid_snap()
    bug_copies()
    bug_half_budget()
    bug_float_zero_test()
    elapsed = time.perf_counter() - start
    print(f"{sum(RESULTS)} of {len(RESULTS)} claims hold ({elapsed:.1f} s)")
    if all(RESULTS):
        print("ALL CLAIMS PASS")
        return 0
    print("SOME CLAIMS FAIL")
    return 1


if __name__ == "__main__":
    sys.exit(main())
