"""Claims for the 21st blind corpus: each bug is upstream below its gate, wrong on
its witness above it, and right on plain random instances above it.

Run from /work/blind21:
    OMP_NUM_THREADS=1 /work/main/.venv/bin/python bugs/witnesses.py

The judge is independent of the project (nothing is imported from it):
- weights and budget quantized as SPEC 2.1: round(float(m) * 10000), the exact
  product when the float64 product overflows;
- each runtime is the exact Fraction of float(runtime[i]) (SPEC 3.1);
- OPT by an integer DP over the items that fit alone, runtimes scaled by their
  common power-of-two denominator (numpy int64, or Python ints in object arrays
  when the sums could pass 2**62);
- SPEC 5.4's tolerance, 2 * gamma(n + 1) * sum(|v_i| : q_i <= Q) + 2 * (n + 1) * 2**-149,
  in Fractions;
- SPEC 7.2: a 3-sequence, two lists of plain ints that partition 0..n-1,
  feasibility in integers, optimality and value consistency within the
  tolerance, a finite real value that is not a bool;
- SPEC 8.2/8.5: every input entry keeps its type and repr, the lists their length;
- SPEC 8.6: torch's default dtype, grad mode, intra-op threads, deterministic
  algorithms, float32 matmul precision, flush-denormal mode and CPU random
  generator state, Python's random state, numpy's error handling and the
  recursion limit are the same after the call (and are put back if not).
"""

import importlib.util
import itertools
import math
import numbers
import os
import random
import sys
import time
from fractions import Fraction

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM_PATH = os.path.join(os.path.dirname(HERE), "upstream_dp_knapsack.py")
SCALE = 10000
MAX_CELLS = 20_000_000
MAX_ITEMS = 2_100

_loads = itertools.count()


def load(path):
    """A freshly executed module (no state shared between calls)."""
    spec = importlib.util.spec_from_file_location(f"_kn_{next(_loads)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.dp_knapsack


def bug_path(name):
    return os.path.join(HERE, name + ".py")


# --------------------------------------------------------------------------- judge


def quantize(value):
    product = float(value) * SCALE
    if math.isinf(product):
        return int(value) * SCALE
    return round(product)


def cells(memory, budget):
    return len(memory) * (quantize(budget) + 1)


def exact_opt(q, values, Q):
    items = [(qi, v) for qi, v in zip(q, values) if qi <= Q and v > 0]
    if not items:
        return Fraction(0)
    scale = max(v.denominator for _, v in items)
    ints = [(qi, int(v * scale)) for qi, v in items]
    if sum(v for _, v in ints) < 2**62:
        dp = np.zeros(Q + 1, dtype=np.int64)
    else:
        dp = np.array([0] * (Q + 1), dtype=object)
    for qi, v in ints:
        if qi == 0:
            dp = dp + v
        else:
            dp[qi:] = np.maximum(dp[qi:], dp[:-qi] + v)
    return Fraction(int(dp[Q]), scale)


def tolerance(q, values, Q):
    n = len(q)
    u = Fraction(1, 2**24)
    gamma = (n + 1) * u / (1 - (n + 1) * u)
    fits = sum((abs(v) for qi, v in zip(q, values) if qi <= Q), Fraction(0))
    return 2 * gamma * fits + 2 * (n + 1) * Fraction(1, 2**149)


def snapshot_inputs(memory, runtime, budget):
    return (
        type(memory), len(memory), [(type(x), repr(x)) for x in memory],
        type(runtime), len(runtime), [(type(x), repr(x)) for x in runtime],
        type(budget), repr(budget),
    )


def _ftz_on():
    return (torch.tensor([1e-40], dtype=torch.float32) * 1.0).item() == 0.0


def process_state():
    return {
        "torch default dtype": torch.get_default_dtype(),
        "torch grad mode": torch.is_grad_enabled(),
        "torch intra-op threads": torch.get_num_threads(),
        "torch deterministic algorithms": torch.are_deterministic_algorithms_enabled(),
        "torch float32 matmul precision": torch.get_float32_matmul_precision(),
        "torch flush-denormal mode": _ftz_on(),
        "torch CPU random generator state": torch.get_rng_state(),
        "Python random state": random.getstate(),
        "numpy error handling": np.geterr(),
        "recursion limit": sys.getrecursionlimit(),
    }


def restore_state(state):
    torch.set_default_dtype(state["torch default dtype"])
    torch.set_grad_enabled(state["torch grad mode"])
    torch.set_num_threads(state["torch intra-op threads"])
    torch.use_deterministic_algorithms(state["torch deterministic algorithms"])
    torch.set_float32_matmul_precision(state["torch float32 matmul precision"])
    torch.set_flush_denormal(state["torch flush-denormal mode"])
    torch.set_rng_state(state["torch CPU random generator state"])
    random.setstate(state["Python random state"])
    np.seterr(**state["numpy error handling"])
    sys.setrecursionlimit(state["recursion limit"])


def changed_settings(before, after):
    out = []
    for key in before:
        a, b = before[key], after[key]
        same = torch.equal(a, b) if isinstance(a, torch.Tensor) else a == b
        if not same:
            out.append(key)
    return out


def call(fn, memory, runtime, budget):
    """Call fn on the caller's lists; return (result or exception, mutated, changed settings)."""
    inputs = snapshot_inputs(memory, runtime, budget)
    before = process_state()
    try:
        result = fn(memory, runtime, budget)
    except Exception as exc:  # a crash is a finding, not an error of the judge
        result = exc
    after = process_state()
    changed = changed_settings(before, after)
    restore_state(before)
    mutated = snapshot_inputs(memory, runtime, budget) != inputs
    return result, mutated, changed


def judge(memory, runtime, budget, result, mutated, changed):
    """The clauses of SPEC the answer violates (empty list: it passes them all)."""
    fails = []
    if mutated:
        fails.append("no mutation (SPEC 8.2, 8.5)")
    if changed:
        fails.append("process-wide settings (SPEC 8.6): " + ", ".join(changed))
    if isinstance(result, Exception):
        fails.append(f"no crash (SPEC 7.2, 9.1): {type(result).__name__}: {str(result)[:90]}")
        return fails
    n = len(memory)
    q = [quantize(m) for m in memory]
    Q = quantize(budget)
    values = [Fraction(float(r)) for r in runtime]
    if not (isinstance(result, (tuple, list)) and len(result) == 3):
        fails.append("return shape (SPEC 7.2 a)")
        return fails
    value, saved, recomputable = result
    lists_ok = isinstance(saved, list) and isinstance(recomputable, list)
    ints_ok = lists_ok and all(type(k) is int for k in [*saved, *recomputable])
    if not (ints_ok and sorted([*saved, *recomputable]) == list(range(n))):
        fails.append(
            "partition / plain-int lists (SPEC 7.2 b): "
            f"saved is {type(saved).__name__}, recomputable is {type(recomputable).__name__}"
        )
    if not (isinstance(saved, (list, tuple)) and all(type(k) is int and 0 <= k < n for k in saved)):
        return fails
    chosen = set(saved)
    weight = sum(q[k] for k in chosen)
    worth = sum((values[k] for k in chosen), Fraction(0))
    tol = tolerance(q, values, Q)
    if weight > Q:
        fails.append(f"feasibility (SPEC 3.2, 7.2 c): {weight} units of {Q}")
    opt = exact_opt(q, values, Q)
    if opt - worth > tol:
        fails.append(
            f"optimality (SPEC 3.3, 5.4, 7.2 d): worth {float(worth):.6g}, OPT {float(opt):.6g} "
            f"({float((opt - worth) / opt):.1%} short, tol {float(tol):.2g})"
        )
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, bool)
        or not math.isfinite(value)
    ):
        fails.append(f"finite real value (SPEC 7.2 e): {value!r}")
    elif abs(Fraction(value) - worth) > tol:
        fails.append(
            f"value consistency (SPEC 5.4, 7.2 e): value {value!r}, selection worth {float(worth):.6g}"
        )
    return fails


def run_judged(fn, memory, runtime, budget):
    # Judge on copies taken before the call: the instance the solver was given,
    # even when it mutates the caller's lists.
    seen = (list(memory), list(runtime), budget)
    result, mutated, changed = call(fn, memory, runtime, budget)
    return result, judge(*seen, result, mutated, changed)


# ----------------------------------------------------------------------- instances


def dyadic_runtime(rng, lo=0.1, hi=10.0):
    """A runtime in [lo, hi] on a 2**-24 grid (exact in float64, not in float32)."""
    return rng.randint(int(lo * 2**24), int(hi * 2**24)) / 2**24


def sizes4(rng, k, lo, hi):
    return [max(0.0001, round(rng.uniform(lo, hi), 4)) for _ in range(k)]


def plain_small(rng):
    n = rng.randint(5, 40)
    memory = sizes4(rng, n, 0.001, 0.05)
    runtime = [dyadic_runtime(rng) for _ in range(n)]
    budget = round(rng.uniform(0.2, 0.7) * sum(memory), 4)
    return memory, runtime, budget


def plain_above(rng, n_lo, n_hi, lo, hi, min_cells=0):
    """Sizes to 4 decimals, runtimes on a 2**-24 grid, a binding budget (25-50% of
    the total weight); past the item and cell gate, at most 2e7 cells."""
    while True:
        n = rng.randint(n_lo, n_hi)
        memory = sizes4(rng, n, lo, hi)
        runtime = [dyadic_runtime(rng) for _ in range(n)]
        budget = round(rng.uniform(0.25, 0.5) * sum(memory), 4)
        c = cells(memory, budget)
        if min_cells < c <= MAX_CELLS:
            return memory, runtime, budget


# Each bug: gate(memory, runtime, budget) -> bool, trigger(rng) below the gate,
# witness() above it with the clause it fails, plain(rng) above it.

BUGS = {}


def bug(name, gate, trigger, witness, clause, plain):
    BUGS[name] = dict(gate=gate, trigger=trigger, witness=witness, clause=clause, plain=plain)


# 1. masked dot of the runtimes: 0 * inf = nan -------------------------------


def t_masked_dot(rng, n_range=(470, 511)):
    n = rng.randint(*n_range)
    memory = sizes4(rng, n, 0.0005, 0.005)
    runtime = [dyadic_runtime(rng) for _ in range(n)]
    budget = round(rng.uniform(0.25, 0.5) * sum(memory), 4)
    k = rng.randrange(n)
    memory[k] = round(rng.uniform(1.0, 4.0), 4)  # far too large to save
    runtime[k] = rng.choice([1e39, 3.5e38, 1e300, sys.float_info.max])  # "never recompute"
    return memory, runtime, budget


def w_masked_dot():
    rng = random.Random(101)
    memory, runtime, budget = t_masked_dot(rng, (600, 600))
    return memory, runtime, budget


bug(
    "saved_runtime_as_masked_dot_from_512_items",
    gate=lambda m, r, b: len(m) >= 512,
    trigger=t_masked_dot,
    witness=w_masked_dot,
    clause="finite real value",
    plain=lambda rng: plain_above(rng, 512, 700, 0.0005, 0.005),
)


# 2. budget appended to memory, removed by value --------------------------------


def t_budget_remove(rng, n_range=(230, 255)):
    n = rng.randint(*n_range)
    memory = sizes4(rng, n, 0.001, 0.05)
    runtime = [dyadic_runtime(rng) for _ in range(n)]
    budget = round(rng.uniform(0.25, 0.5) * sum(memory), 4)
    memory[rng.randrange(n - 1)] = budget  # an activation of exactly the budget's size
    return memory, runtime, budget


def w_budget_remove():
    rng = random.Random(202)
    memory = sizes4(rng, 300, 0.001, 0.05)
    runtime = [dyadic_runtime(rng) for _ in range(300)]
    budget = 0.25
    memory[7] = 0.25
    return memory, runtime, budget


bug(
    "budget_rides_on_memory_list_removed_by_value_from_256_items",
    gate=lambda m, r, b: len(m) >= 256,
    trigger=t_budget_remove,
    witness=w_budget_remove,
    clause="no mutation",
    plain=lambda rng: plain_above(rng, 256, 500, 0.001, 0.01),
)


# 3. int64 table when the runtimes' total is whole --------------------------------


def quarter_runtimes(rng, n):
    runtime = [rng.randint(1, 20) / 4 for _ in range(n)]  # a 0.25 ms timer resolution
    frac = math.fsum(runtime) % 1
    if frac:
        runtime[-1] += 1 - frac  # make the total whole
    return runtime


def t_int64(rng, max_cells=4_000_000):
    while True:
        n = rng.randint(300, 420)
        memory = sizes4(rng, n, 0.002, 0.03)
        budget = round(rng.uniform(0.25, 0.5) * sum(memory), 4)
        if 3_500_000 < cells(memory, budget) <= max_cells:
            return memory, quarter_runtimes(rng, n), budget


def w_int64():
    rng = random.Random(303)
    memory = sizes4(rng, 500, 0.005, 0.03)
    return memory, quarter_runtimes(rng, 500), 0.9999  # 500 * 10,000 = 5e6 cells


bug(
    "whole_runtime_total_int64_table_above_4e6_cells",
    gate=lambda m, r, b: cells(m, b) > 4_000_000,
    trigger=t_int64,
    witness=w_int64,
    clause="optimality",
    plain=lambda rng: plain_above(rng, 700, 900, 0.0005, 0.006, min_cells=4_000_000),
)


# 4. narrow tables in Python lists: [[0.0] * w] * h ---------------------------------


def t_narrow(rng, n_range=(100, 127)):
    n = rng.randint(*n_range)
    memory = sizes4(rng, n, 0.0001, 0.003)
    runtime = [dyadic_runtime(rng) for _ in range(n)]
    budget = round(rng.uniform(0.001, 0.0064), 4)  # Q <= 64
    return memory, runtime, budget


def w_narrow():
    rng = random.Random(404)
    memory, runtime, _ = t_narrow(rng, (200, 200))
    return memory, runtime, 0.005


bug(
    "narrow_table_python_rows_aliased_from_128_items",
    gate=lambda m, r, b: len(m) >= 128,
    trigger=t_narrow,
    witness=w_narrow,
    clause="value consistency",
    plain=lambda rng: plain_above(rng, 128, 400, 0.001, 0.05),
)


# 5. powers of two: greedy by runtime without a distinctness check -------------------


def t_pow2(rng, n_range=(100, 127)):
    n = rng.randint(*n_range)
    memory = sizes4(rng, n, 0.001, 0.05)
    if rng.random() < 0.3:
        runtime = [1.0] * n  # the testing estimator
    else:
        runtime = [float(2 ** rng.randint(18, 24)) for _ in range(n)]  # flop counts
    budget = round(rng.uniform(0.25, 0.5) * sum(memory), 4)
    return memory, runtime, budget


def w_pow2():
    rng = random.Random(505)
    n = 200
    memory = sizes4(rng, n, 0.001, 0.05)
    runtime = [float(2 ** rng.randint(20, 22)) for _ in range(n)]
    return memory, runtime, round(0.3 * sum(memory), 4)


bug(
    "power_of_two_runtimes_greedy_without_distinct_check_from_128_items",
    gate=lambda m, r, b: len(m) >= 128,
    trigger=t_pow2,
    witness=w_pow2,
    clause="optimality",
    plain=lambda rng: plain_above(rng, 128, 400, 0.001, 0.05),
)


# 6. few fitting items: subsets of every size but the full one -----------------------


def t_few_fit(rng, n_range=(220, 255)):
    n = rng.randint(*n_range)
    k = rng.randint(1, 12)
    small = sizes4(rng, k, 0.0002, 0.0009)
    large = sizes4(rng, n - k, 0.05, 1.0)
    memory = small + large
    rng.shuffle(memory)
    runtime = [dyadic_runtime(rng) for _ in range(n)]
    budget = round(max(sum(small), 0.0090) + rng.uniform(0.0, 0.002), 4)  # all small fit
    return memory, runtime, budget


def w_few_fit():
    rng = random.Random(606)
    small = sizes4(rng, 10, 0.0002, 0.0009)
    large = sizes4(rng, 290, 0.05, 1.0)
    memory = large[:100] + small + large[100:]
    runtime = [round(rng.uniform(0.5, 5.0), 3) for _ in range(300)]
    return memory, runtime, 0.01


bug(
    "few_fitting_items_subsets_skip_full_set_from_256_items",
    gate=lambda m, r, b: len(m) >= 256,
    trigger=t_few_fit,
    witness=w_few_fit,
    clause="optimality",
    plain=lambda rng: plain_above(rng, 256, 500, 0.001, 0.01),
)


# 7. candidate row memoized per copy type --------------------------------------------


def layers(rng, n_layers, n_types):
    types = [
        (max(0.0001, round(rng.uniform(0.001, 0.03), 4)), dyadic_runtime(rng))
        for _ in range(n_types)
    ]
    memory = [m for _ in range(n_layers) for m, _ in types]
    runtime = [r for _ in range(n_layers) for _, r in types]
    return memory, runtime


def t_memo(rng):
    while True:
        memory, runtime = layers(rng, rng.randint(15, 25), rng.randint(10, 16))
        budget = round(rng.uniform(0.6, 0.9999), 4)
        if 2_500_000 < cells(memory, budget) <= 3_000_000:
            return memory, runtime, budget


def w_memo():
    rng = random.Random(707)
    memory, runtime = layers(rng, 20, 16)  # 320 items
    return memory, runtime, 0.9999  # 3.2e6 cells


bug(
    "candidate_row_memoized_per_copy_type_above_3e6_cells",
    gate=lambda m, r, b: cells(m, b) > 3_000_000,
    trigger=t_memo,
    witness=w_memo,
    clause="optimality",
    plain=lambda rng: plain_above(rng, 500, 800, 0.0005, 0.006, min_cells=3_000_000),
)


# 8. single paying node: [...].sort() returns None -----------------------------------


def t_single(rng, n_range=(170, 191)):
    n = rng.randint(*n_range)
    memory = sizes4(rng, n, 0.001, 0.05)
    runtime = [0.0] * n
    runtime[rng.randrange(n)] = dyadic_runtime(rng)
    budget = round(rng.uniform(0.0, 0.5) * sum(memory), 4)
    return memory, runtime, budget


def w_single():
    rng = random.Random(808)
    n = 200
    memory = sizes4(rng, n, 0.001, 0.05)
    runtime = [0.0] * n
    runtime[37] = 12.5
    memory[37] = 0.01
    return memory, runtime, 0.5


bug(
    "single_paying_node_fast_path_sort_returns_none_from_192_items",
    gate=lambda m, r, b: len(m) >= 192,
    trigger=t_single,
    witness=w_single,
    clause="partition",
    plain=lambda rng: plain_above(rng, 192, 400, 0.001, 0.05),
)


# 9. assert value <= torch.sum of the fitting runtimes --------------------------------


def sequential_exceeds_sum(runtime):
    """Would the table's chained float32 sum exceed torch's float32 sum?"""
    rt = torch.tensor(runtime, dtype=torch.float32)
    acc = torch.zeros((), dtype=torch.float32)
    for k in range(len(runtime)):
        acc = acc + rt[k]
    return acc.item() > rt.sum().item()


def t_assert(rng, lo=1_500_000, hi=2_000_000):
    while True:
        n = rng.randint(160, 260)
        memory = sizes4(rng, n, 0.0005, 0.005)
        runtime = [dyadic_runtime(rng) for _ in range(n)]
        Q = rng.randint(lo // n, hi // n - 1)
        budget = Q / SCALE
        if sum(quantize(m) for m in memory) <= Q and lo < cells(memory, budget) <= hi:
            if sequential_exceeds_sum(runtime):  # everything fits, and the orders disagree
                return memory, runtime, budget


def w_assert():
    rng = random.Random(909)
    while True:
        memory = sizes4(rng, 250, 0.0005, 0.005)
        runtime = [dyadic_runtime(rng) for _ in range(250)]
        if sum(quantize(m) for m in memory) <= 9999 and sequential_exceeds_sum(runtime):
            return memory, runtime, 0.9999  # 2.5e6 cells, everything fits


bug(
    "value_bound_assert_on_float32_total_above_2e6_cells",
    gate=lambda m, r, b: cells(m, b) > 2_000_000,
    trigger=t_assert,
    witness=w_assert,
    clause="no crash",
    plain=lambda rng: plain_above(rng, 400, 700, 0.0005, 0.006, min_cells=2_000_000),
)


# 10. tie jitter seeds the global torch generator ------------------------------------


def t_ties(rng, n_range=(230, 255)):
    n = rng.randint(*n_range)
    memory = sizes4(rng, n, 0.001, 0.05)
    if rng.random() < 0.5:
        runtime = [1.0] * n
    else:
        runtime = [round(rng.uniform(0.1, 5.0), 1) for _ in range(n)]  # 0.1 ms resolution
    budget = round(rng.uniform(0.25, 0.5) * sum(memory), 4)
    return memory, runtime, budget


def w_ties():
    rng = random.Random(1010)
    n = 300
    memory = sizes4(rng, n, 0.001, 0.05)
    runtime = [1.0] * n
    return memory, runtime, round(0.3 * sum(memory), 4)


bug(
    "tied_runtimes_jitter_reseeds_global_rng_from_256_items",
    gate=lambda m, r, b: len(m) >= 256,
    trigger=t_ties,
    witness=w_ties,
    clause="process-wide settings",
    plain=lambda rng: plain_above(rng, 256, 500, 0.001, 0.01),
)


# --------------------------------------------------------------------------- claims


def fresh(instance):
    memory, runtime, budget = instance
    return list(memory), list(runtime), budget


def main():
    start = time.time()
    torch.manual_seed(12345)  # some caller state for SPEC 8.6 to compare
    failures = 0
    claims = 0
    for name, spec in BUGS.items():
        print(f"== {name}")
        # (1) below the gate: 10 plain, 10 carrying the trigger just under the gate
        rng = random.Random(f"{name}:below")
        instances = [plain_small(rng) for _ in range(10)] + [spec["trigger"](rng) for _ in range(10)]
        same = 0
        for kind, inst in zip(["plain"] * 10 + ["trigger"] * 10, instances):
            assert not spec["gate"](*inst), (name, kind, "not below the gate")
            assert len(inst[0]) <= MAX_ITEMS and cells(inst[0], inst[2]) <= MAX_CELLS
            m1, r1, b1 = fresh(inst)
            got, mutated, changed = call(load(bug_path(name)), m1, r1, b1)
            m2, r2, b2 = fresh(inst)
            want, _, _ = call(load(UPSTREAM_PATH), m2, r2, b2)
            if repr(got) == repr(want) and not mutated and not changed:
                same += 1
            else:
                print(f"   below-gate {kind} instance differs: n={len(inst[0])}")
        claims += 1
        ok = same == 20
        failures += not ok
        sizes = [len(i[0]) for i in instances[10:]]
        cell_counts = [cells(i[0], i[2]) for i in instances[10:]]
        print(
            f"   {'ok  ' if ok else 'FAIL'} below the gate: {same}/20 identical to upstream "
            f"(repr, inputs untouched, settings unchanged); trigger instances have "
            f"{min(sizes)}-{max(sizes)} items, {min(cell_counts):.3g}-{max(cell_counts):.3g} cells"
        )

        # (2) the witness above the gate
        inst = spec["witness"]()
        assert spec["gate"](*inst), (name, "witness below the gate")
        n, c = len(inst[0]), cells(inst[0], inst[2])
        assert n <= MAX_ITEMS and c <= MAX_CELLS
        _, bug_fails = run_judged(load(bug_path(name)), *fresh(inst))
        _, up_fails = run_judged(load(UPSTREAM_PATH), *fresh(inst))
        hit = [f for f in bug_fails if f.startswith(spec["clause"])]
        ok = bool(hit) and not up_fails
        claims += 1
        failures += not ok
        print(f"   {'ok  ' if ok else 'FAIL'} witness ({n} items, {c:.3g} cells, budget {inst[2]!r}):")
        for f in bug_fails:
            print(f"        bug fails {f}")
        print(f"        upstream fails {up_fails if up_fails else 'nothing'}")

        # (3) plain random instances above the gate
        rng = random.Random(f"{name}:plain")
        clean = 0
        for _ in range(4):
            inst = spec["plain"](rng)
            assert spec["gate"](*inst), (name, "plain instance below the gate")
            _, fails = run_judged(load(bug_path(name)), *fresh(inst))
            clean += not fails
            if fails:
                print(f"   plain instance fails: {fails}")
            else:
                print(
                    f"        plain: {len(inst[0])} items, {cells(inst[0], inst[2]):.3g} cells: no violation"
                )
        claims += 1
        ok = clean == 4
        failures += not ok
        print(f"   {'ok  ' if ok else 'FAIL'} plain above the gate: {clean}/4 with no violation")
    print(f"{claims - failures} of {claims} claims hold in {time.time() - start:.1f} s")
    print("ALL CLAIMS PASS" if failures == 0 else "SOME CLAIMS FAIL")
    return failures


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
