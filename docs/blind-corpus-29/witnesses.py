#!/usr/bin/env python
"""Blind corpus 30: an independent exact judge, and the claims for each bug.

For every bug in this folder the script shows:
  1. a witness above the gate on which the bug fails a named SPEC clause while
     upstream passes every clause the judge checks;
  2. the same kind of instance just below the gate, where the bug returns
     exactly upstream's tuple (compared by repr: value bits, lists, order);
  3. 200 seeded random instances below the gate (plain ones and ones from the
     bug's region), where the bug returns exactly upstream's tuple;
  4. 200 seeded plain random instances past the gate, judged right.
It prints each claim and ends with ALL CLAIMS PASS (or exits 1).

The judge is written from docs/SPEC.md alone:
  * SPEC 2.1 quantization q = round(float(m) * 10000), with the overflow rule;
  * SPEC 3.1 exact values: Fraction(float(runtime[i]));
  * SPEC 3.2 feasibility in integers; 3.3 OPT by an exact integer DP over the
    runtimes scaled to integers by their common power-of-two denominator
    (numpy int64 when the sum provably fits, Python ints otherwise);
  * SPEC 5.4 tolerance 2*gamma(n+1)*sum(|v_i| : q_i <= Q) + 2*(n+1)*2**-149,
    gamma(k) = k*u/(1-k*u), u = 2**-24, in exact rationals, for optimality and
    value consistency;
  * SPEC 7.2 shape, plain-int partition, finite real non-bool value;
  * SPEC 8.2/8.5 no mutation: each input entry's type and repr before/after;
  * SPEC 7.2/9.1 no crash.

Run: OMP_NUM_THREADS=1 nice -n 10 python bugs/witnesses.py
"""

from __future__ import annotations

import collections.abc
import importlib.util
import math
import numbers
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
S = 10000
GRID = 2**20  # random runtimes are multiples of 2**-20 (about 1e-6 ms)


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.dp_knapsack


UPSTREAM = load(ROOT / "upstream_dp_knapsack.py", "upstream_dp_knapsack")


# --------------------------------------------------------------------------
# The judge
# --------------------------------------------------------------------------


def quantize(x) -> int:
    """SPEC 2.1: round(float(x) * 10000), half to even; exact on overflow."""
    x = float(x)
    product = x * S
    if math.isinf(product):
        return int(x) * S
    return round(product)


def exact_opt(q: list[int], vals: list[Fraction], Q: int) -> Fraction:
    """SPEC 3.2/3.3: the exact optimum, by an integer DP over capacities."""
    items = [(qi, v) for qi, v in zip(q, vals) if qi <= Q and v > 0]
    if not items:
        return Fraction(0)
    D = max(v.denominator for _, v in items)  # powers of two: the lcm is the max
    ints = [(qi, v.numerator * (D // v.denominator)) for qi, v in items]
    bound = sum(v for _, v in ints)
    if bound < 2**62:
        dp = np.zeros(Q + 1, dtype=np.int64)
    else:
        dp = np.array([0] * (Q + 1), dtype=object)
    for qi, v in ints:
        if qi == 0:
            dp += v
        else:
            dp[qi:] = np.maximum(dp[qi:], dp[: Q + 1 - qi] + v)
    return Fraction(int(dp[Q]), D)


def tolerance(q, vals, Q, n) -> Fraction:
    u = Fraction(1, 2**24)
    k = n + 1
    gamma = k * u / (1 - k * u)
    mass = sum((abs(v) for qi, v in zip(q, vals) if qi <= Q), Fraction(0))
    return 2 * gamma * mass + 2 * k * Fraction(1, 2**149)


def entries(seq):
    return [(type(x), repr(x)) for x in seq]


def run(fn, memory, runtime, max_memory):
    """Call fn on the given lists; report result, exception and mutation."""
    before = (entries(memory), entries(runtime), len(memory), len(runtime))
    try:
        result, error = fn(memory, runtime, max_memory), None
    except Exception as exc:  # noqa: BLE001 - a crash is a finding
        result, error = None, exc
    after = (entries(memory), entries(runtime), len(memory), len(runtime))
    return result, error, before != after


def judge(memory, runtime, max_memory, result, error, mutated, orig=None):
    """Return (list of failed clauses, details). orig: the inputs as passed."""
    mem, rts = orig if orig is not None else (memory, runtime)
    n = len(mem)
    q = [quantize(m) for m in mem]
    Q = quantize(max_memory)
    vals = [Fraction(float(r)) for r in rts]
    fails, info = [], {}
    if mutated:
        fails.append("no mutation (8.2, 8.5)")
    if error is not None:
        fails.append("no crash (7.2, 9.1)")
        info["error"] = f"{type(error).__name__}: {error}"
        return fails, info
    if not (
        isinstance(result, collections.abc.Sequence)
        and not isinstance(result, (str, bytes))
        and len(result) == 3
    ):
        fails.append("return shape (7.2 a)")
        return fails, info
    value, saved, recomputable = result
    lists_ok = all(
        isinstance(lst, collections.abc.Sequence) and not isinstance(lst, (str, bytes))
        for lst in (saved, recomputable)
    )
    if not lists_ok:
        fails.append("partition (7.2 b)")
        return fails, info
    plain = all(type(x) is int for x in list(saved) + list(recomputable))
    if not plain or sorted(list(saved) + list(recomputable)) != list(range(n)):
        fails.append("partition (7.2 b)")
    chosen = {x for x in saved if type(x) is int and 0 <= x < n}
    weight = sum(q[k] for k in chosen)
    worth = sum((vals[k] for k in chosen), Fraction(0))
    opt = exact_opt(q, vals, Q)
    tol = tolerance(q, vals, Q, n)
    info.update(
        n=n, Q=Q, weight=weight, worth=float(worth), OPT=float(opt), tol=float(tol),
        saved=len(list(saved)), distinct_saved=len(chosen),
    )
    if weight > Q:
        fails.append("feasibility (3.2)")
    if opt - worth > tol:
        fails.append("optimality (3.3, 5.4)")
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(float(value))
    ):
        fails.append("value a finite real (7.2 e)")
    else:
        info["value"] = float(value)
        v = Fraction(value) if isinstance(value, int) else Fraction(float(value))
        if abs(v - worth) > tol:
            fails.append("value consistency (5.4, 7.2 e)")
    return fails, info


def check(fn, memory, runtime, max_memory):
    """Judge fn on private copies of the lists (the caller's stay intact)."""
    mem, rts = list(memory), list(runtime)
    result, error, mutated = run(fn, mem, rts, max_memory)
    return judge(mem, rts, max_memory, result, error, mutated, orig=(memory, runtime))


def same_as_upstream(fn, memory, runtime, max_memory) -> tuple[bool, str]:
    mem_b, rts_b = list(memory), list(runtime)
    mem_u, rts_u = list(memory), list(runtime)
    rb, eb, mb = run(fn, mem_b, rts_b, max_memory)
    ru, eu, mu = run(UPSTREAM, mem_u, rts_u, max_memory)
    if eb is not None or eu is not None:
        same = type(eb) is type(eu) and str(eb) == str(eu)
        return same and not mb, f"errors {eb!r} / {eu!r}"
    same = repr(rb) == repr(ru) and type(rb[0]) is type(ru[0]) and not mb and not mu
    return same, "" if same else f"bug {repr(rb)[:120]} / upstream {repr(ru)[:120]}"


# --------------------------------------------------------------------------
# Generators
# --------------------------------------------------------------------------


def rt(rng, lo=0.1, hi=10.0) -> float:
    return round(rng.uniform(lo, hi) * GRID) / GRID


def plain(rng, n, cells_lo, cells_hi, size_lo=0.0005, size_hi=0.02):
    """Plain random: full-precision sizes, runtimes on a 2**-20 grid, and a
    budget drawn so that n * (Q + 1) lies in [cells_lo, cells_hi]."""
    memory = [rng.uniform(size_lo, size_hi) for _ in range(n)]
    runtime = [rt(rng) for _ in range(n)]
    q_lo = max(1, math.ceil(cells_lo / n))
    q_hi = max(q_lo, int(cells_hi / n) - 1)
    budget = rng.uniform(q_lo, q_hi) / S
    return memory, runtime, budget


def cells(memory, budget):
    return len(memory) * (quantize(budget) + 1)


# --------------------------------------------------------------------------
# The bugs
# --------------------------------------------------------------------------

BUGS = {}


def bug(name, gate, clause, witness, under, above, below):
    BUGS[name] = dict(gate=gate, clause=clause, witness=witness, under=under,
                      above=above, below=below)


# 1 -------------------------------------------------------------------------
def b1_instance(rng, heavy_count, small=400, sentinel=True):
    budget = 0.5
    memory = [rng.uniform(1.5, 3.0) for _ in range(heavy_count - (1 if sentinel else 0))]
    memory += [rng.uniform(0.001, 0.03) for _ in range(small)]
    rng.shuffle(memory)
    if sentinel:
        memory = [4e14] + memory  # a "never save" sentinel size, listed first
    runtime = [rt(rng) for _ in memory]
    return memory, runtime, budget


def b1_above(rng):
    while True:
        fit = [rng.uniform(0.0005, 0.01) for _ in range(rng.randint(150, 450))]
        budget = sum(fit) * rng.uniform(0.2, 1.4)
        heavy = [budget * rng.uniform(1.05, 4.0) for _ in range(rng.randint(32, 64))]
        memory = fit + heavy
        rng.shuffle(memory)
        runtime = [rt(rng) for _ in memory]
        Q = quantize(budget)
        if cells(memory, budget) <= 2e7 and sum(quantize(m) > Q for m in memory) >= 32:
            return memory, runtime, budget


def b1_below(rng):
    if rng.random() < 0.5:
        return b1_instance(rng, rng.randint(0, 31), small=rng.randint(100, 400),
                           sentinel=rng.random() < 0.7)
    fit = [rng.uniform(0.0005, 0.01) for _ in range(rng.randint(64, 400))]
    budget = sum(fit) * rng.uniform(0.2, 1.4)
    memory = fit + [budget * rng.uniform(1.05, 4.0) for _ in range(rng.randint(0, 31))]
    rng.shuffle(memory)
    return memory, [rt(rng) for _ in memory], budget


bug(
    "fitting_total_by_float_total_minus_heavy_total_from_32_heavy_items",
    "32 or more items with q > Q",
    "feasibility (3.2)",
    lambda: b1_instance(random.Random(101), 32),
    lambda: b1_instance(random.Random(101), 31),
    b1_above,
    b1_below,
)


# 2 -------------------------------------------------------------------------
def b2_instance(rng, halves, others=100):
    memory = [0.00085] * halves + [rng.uniform(0.001, 0.05) for _ in range(others)]
    runtime = [1.0] * halves + [rt(rng, 0.1, 2.0) for _ in range(others)]
    order = list(range(len(memory)))
    rng.shuffle(order)
    return [memory[k] for k in order], [runtime[k] for k in order], 0.2


def b2_below(rng):
    if rng.random() < 0.5:
        return b2_instance(rng, rng.randint(100, 900), others=rng.randint(0, 100))
    return plain(rng, rng.randint(64, 1023), 1e5, 4e6)


bug(
    "sizes_rounded_to_whole_bytes_before_units_from_1024_items",
    "n >= 1024",
    "optimality (3.3, 5.4)",
    lambda: b2_instance(random.Random(202), 1000),
    lambda: b2_instance(random.Random(202), 900),
    lambda rng: plain(rng, rng.randint(1024, 2100), 2e5, 6e6),
    b2_below,
)


# 3 -------------------------------------------------------------------------
TINY = 2**-40  # tiny runtimes: multiples of 2**-40 (about 9.1e-13)


def b3_instance(rng, block, others=100):
    # the other items avoid the block's 100 units, so the gate counts the block
    memory = [0.01] * block + [rng.uniform(0.0106, 0.05) for _ in range(others)]
    runtime = [rng.randint(110, 5500) * TINY for _ in memory]  # 1e-10 .. 5e-9
    order = list(range(len(memory)))
    rng.shuffle(order)
    return [memory[k] for k in order], [runtime[k] for k in order], 0.5


def b3_above(rng):
    while True:
        size = rng.uniform(0.002, 0.02)
        block = rng.randint(128, 400)
        pool = [rt(rng) for _ in range(rng.randint(5, 60))]
        runtime = [rng.choice(pool) if rng.random() < 0.5 else rt(rng) for _ in range(block)]
        memory = [size] * block
        for _ in range(rng.randint(0, 500)):
            memory.append(rng.uniform(0.001, 0.05))
            runtime.append(rt(rng))
        order = list(range(len(memory)))
        rng.shuffle(order)
        memory = [memory[k] for k in order]
        runtime = [runtime[k] for k in order]
        qb = quantize(size)
        q_hi = min(int(2e7 / len(memory)) - 1, int(qb * block * 1.2))
        budget = rng.uniform(qb * 8, max(qb * 8, q_hi)) / S
        if cells(memory, budget) <= 2e7:
            return memory, runtime, budget


def b3_below(rng):
    if rng.random() < 0.5:
        return b3_instance(rng, rng.randint(0, 127), others=rng.randint(50, 300))
    return plain(rng, rng.randint(64, 600), 1e5, 4e6)


bug(
    "same_size_runtimes_grouped_by_np_isclose_from_128_items_of_one_size",
    "128 or more items of one size q (0 < q <= Q)",
    "optimality (3.3, 5.4)",
    lambda: b3_instance(random.Random(303), 300),
    lambda: b3_instance(random.Random(303), 127),
    b3_above,
    b3_below,
)


# 4 -------------------------------------------------------------------------
def b4_instance(rng, budget, layers=40, ops=8):
    # Sizes in GiB as an estimator computes them (numel * 4 bytes / 2**30):
    # exact binary fractions whose shortest repr has 17 significant digits.
    sizes = [rng.randint(270_000, 2_600_000) * 4 / 2**30 for _ in range(ops)]
    memory, runtime = [], []
    for _ in range(layers):
        for t in range(ops):
            memory.append(sizes[t])
            runtime.append(rt(rng, 1.0, 1.99))  # one op, timed per layer (jitter)
    return memory, runtime, budget


def b4_above(rng):
    if rng.random() < 0.3:  # repeated layers with short-repr sizes and exact copies
        ops, layers = rng.randint(4, 12), rng.randint(20, 60)
        sizes = [round(rng.uniform(0.001, 0.03), 4) for _ in range(ops)]
        times = [rt(rng) for _ in range(ops)]
        memory = sizes * layers
        runtime = times * layers
        n = len(memory)
        budget = rng.uniform(2e6 / n, 6e6 / n) / S
        return memory, runtime, budget
    return plain(rng, rng.randint(200, 2100), 2.05e6, 6e6)


def b4_below(rng):
    if rng.random() < 0.5:
        return b4_instance(rng, rng.uniform(0.1, 0.6), layers=rng.randint(10, 40))
    return plain(rng, rng.randint(64, 1500), 1e5, 1.95e6)


bug(
    "copies_canonicalized_by_24_char_string_keys_above_2e6_cells",
    "n * (Q + 1) > 2e6",
    "value consistency (5.4, 7.2 e)",
    lambda: b4_instance(random.Random(404), 0.7),
    lambda: b4_instance(random.Random(404), 0.6),
    b4_above,
    b4_below,
)


# 5 -------------------------------------------------------------------------
def b5_instance(rng, n):
    memory, runtime, budget = plain(rng, n, 2e6, 3e6)
    memory[100] = 0.0
    memory[200] = -0.0  # equal to 0.0, but another float (sign bit)
    memory[300] = 1  # an int size of 1 GB ...
    memory[400 % n] = 1.0  # ... and a float one (equal values)
    return memory, runtime, budget


def b5_above(rng):
    memory, runtime, budget = plain(rng, rng.randint(512, 2100), 2e5, 6e6)
    for _ in range(rng.randint(0, 50)):  # equal sizes as distinct float objects
        k, j = rng.randrange(len(memory)), rng.randrange(len(memory))
        memory[k] = float(repr(memory[j]))
    return memory, runtime, budget


bug(
    "sizes_interned_in_caller_list_by_value_from_512_items",
    "n >= 512 (memory a list)",
    "no mutation (8.2, 8.5)",
    lambda: b5_instance(random.Random(505), 600),
    lambda: b5_instance(random.Random(505), 511),
    b5_above,
    lambda rng: b5_instance(rng, rng.randint(401, 511)) if rng.random() < 0.5
    else plain(rng, rng.randint(64, 511), 1e5, 4e6),
)


# 6 -------------------------------------------------------------------------
def b6_instance(rng, n):
    memory = [rng.uniform(0.001, 0.02) for _ in range(n)]
    runtime = [rt(rng) for _ in range(n)]
    for k in range(5, n, 10):
        memory[k] = 1.5  # larger than the budget
    memory[0], runtime[0] = 0.001, 10.0  # the densest item: saved
    return memory, runtime, 1.0


bug(
    "heavy_rows_compacted_saved_marks_filtered_by_truthiness_from_128_items",
    "n >= 128",
    "partition (7.2 b)",
    lambda: b6_instance(random.Random(606), 300),
    lambda: b6_instance(random.Random(606), 127),
    lambda rng: plain(rng, rng.randint(128, 2100), 1e5, 6e6),
    lambda rng: b6_instance(rng, rng.randint(64, 127)) if rng.random() < 0.5
    else plain(rng, rng.randint(64, 127), 1e5, 2e6),
)


# 7 -------------------------------------------------------------------------
def b7_instance(rng, budget):
    memory = [rng.uniform(0.001, 0.02) for _ in range(600)]
    runtime = [rt(rng) for _ in range(600)]
    memory[123], runtime[123] = 2.5, 1000.0  # too large to save, the dearest
    return memory, runtime, budget


bug(
    "runtimes_scaled_by_fitting_max_unscaled_by_overall_max_above_1e6_cells",
    "n * (Q + 1) > 1e6",
    "value consistency (5.4, 7.2 e)",
    lambda: b7_instance(random.Random(707), 0.5),
    lambda: b7_instance(random.Random(707), 0.15),
    lambda rng: plain(rng, rng.randint(64, 2100), 1.01e6, 6e6),
    lambda rng: b7_instance(rng, rng.uniform(0.01, 0.16)) if rng.random() < 0.5
    else plain(rng, rng.randint(64, 1500), 1e5, 0.99e6),
)


# 8 -------------------------------------------------------------------------
def b8_instance(rng, n, copies=200):
    memory = [0.01] * copies + [rng.uniform(0.001, 0.05) for _ in range(n - copies)]
    runtime = [1.0] * copies + [rt(rng) for _ in range(n - copies)]
    return memory, runtime, 0.5


def b8_above(rng):
    memory, runtime, budget = plain(rng, rng.randint(256, 2100), 2e5, 6e6)
    Q = quantize(budget)
    light = [j for j, m in enumerate(memory) if 4 * quantize(m) <= Q]
    sources = rng.sample(light, min(len(light), rng.randint(1, 20)))
    targets = rng.sample([k for k in range(len(memory)) if k not in set(sources)],
                         3 * len(sources))
    for i, j in enumerate(sources):
        # a few exact copies, 2 to 4 of a kind, of sizes that fit 4 times
        for k in targets[3 * i: 3 * i + rng.randint(1, 3)]:
            memory[k], runtime[k] = memory[j], runtime[j]
    return memory, runtime, budget


bug(
    "copy_rows_capped_by_true_division_slice_from_256_items",
    "n >= 256",
    "no crash (7.2, 9.1)",
    lambda: b8_instance(random.Random(808), 300),
    lambda: b8_instance(random.Random(808), 255),
    b8_above,
    lambda rng: b8_instance(rng, rng.randint(200, 255), copies=rng.randint(60, 199))
    if rng.random() < 0.5 else plain(rng, rng.randint(64, 255), 1e5, 4e6),
)


# 9 -------------------------------------------------------------------------
def b9_instance(rng, blocks, p=8):
    sizes = [rng.uniform(0.001, 0.05) for _ in range(p)]
    times = [rt(rng) for _ in range(p)]
    memory, runtime = sizes * blocks, times * blocks
    return memory, runtime, 0.3 * sum(memory)


def b9_above(rng):
    if rng.random() < 0.2:  # period 1: every item identical
        n = rng.randint(256, 2100)
        size = rng.uniform(0.001, 0.05)
        return [size] * n, [rt(rng)] * n, rng.uniform(1e5 / n, 6e6 / n) / S
    return plain(rng, rng.randint(256, 2100), 1e5, 6e6)


bug(
    "periodic_block_tiled_with_repeat_interleave_from_256_items",
    "n >= 256",
    "feasibility (3.2)",
    lambda: b9_instance(random.Random(909), 40),
    lambda: b9_instance(random.Random(909), 31),
    b9_above,
    lambda rng: b9_instance(rng, rng.randint(4, 31), p=rng.randint(2, 8))
    if rng.random() < 0.5 else plain(rng, rng.randint(64, 255), 1e5, 4e6),
)


# 10 ------------------------------------------------------------------------
def b10_instance(rng, budget):
    memory = [rng.uniform(0.001, 0.01) for _ in range(1000)]
    return memory, [1.0] * 1000, budget  # the "testing" estimator: all 1.0


bug(
    "bfloat16_table_for_bf16_exact_runtimes_above_8e6_cells",
    "n * (Q + 1) > 8e6",
    "optimality (3.3, 5.4)",
    lambda: b10_instance(random.Random(1010), 0.9999),
    lambda: b10_instance(random.Random(1010), 0.75),
    lambda rng: plain(rng, rng.randint(800, 2100), 8.01e6, 1.2e7),
    lambda rng: b10_instance(rng, rng.uniform(0.2, 0.79)) if rng.random() < 0.5
    else plain(rng, rng.randint(64, 2100), 1e5, 7.9e6),
)


# --------------------------------------------------------------------------
# Claims
# --------------------------------------------------------------------------


def fmt(info):
    keys = ("n", "Q", "weight", "saved", "distinct_saved", "value", "worth", "OPT",
            "tol", "error")
    return ", ".join(f"{k}={info[k]:.6g}" if isinstance(info.get(k), float)
                     else f"{k}={info[k]}" for k in keys if k in info)


def main() -> int:
    torch.set_num_threads(1)
    only = sys.argv[1:]
    failures = 0
    t_all = time.time()

    def claim(ok, text):
        nonlocal failures
        print(("PASS " if ok else "FAIL ") + text)
        failures += 0 if ok else 1

    for name, b in BUGS.items():
        if only and name not in only:
            continue
        t0 = time.time()
        fn = load(HERE / f"{name}.py", name)
        print(f"\n=== {name}\n    gate: {b['gate']}; claimed clause: {b['clause']}")

        memory, runtime, budget = b["witness"]()
        print(f"    witness: n={len(memory)}, budget={budget!r}, "
              f"cells={cells(memory, budget):.3g}")
        up_fails, up_info = check(UPSTREAM, memory, runtime, budget)
        claim(not up_fails, f"upstream passes the witness ({fmt(up_info)})")
        bug_fails, bug_info = check(fn, memory, runtime, budget)
        claim(b["clause"] in bug_fails,
              f"bug fails {b['clause']} on the witness: {bug_fails} ({fmt(bug_info)})")

        memory, runtime, budget = b["under"]()
        same, why = same_as_upstream(fn, memory, runtime, budget)
        claim(same, f"below the gate (n={len(memory)}, cells={cells(memory, budget):.3g}) "
              f"the same kind of instance gets upstream's exact tuple {why}")

        rng = random.Random(sum(map(ord, name)))
        bad = []
        for trial in range(200):
            memory, runtime, budget = b["below"](rng)
            same, why = same_as_upstream(fn, memory, runtime, budget)
            if not same:
                bad.append((trial, why))
        claim(not bad, f"200 random instances below the gate: upstream's exact tuple "
              f"({len(bad)} differ{'' if not bad else ': ' + str(bad[:2])})")

        rng = random.Random(1 + sum(map(ord, name)))
        bad, ns, cs = [], [], []
        for trial in range(200):
            memory, runtime, budget = b["above"](rng)
            ns.append(len(memory))
            cs.append(cells(memory, budget))
            fails, info = check(fn, memory, runtime, budget)
            if fails:
                bad.append((trial, fails, fmt(info)))
        claim(not bad, f"200 plain random instances past the gate judged right "
              f"(n {min(ns)}-{max(ns)}, cells {min(cs):.3g}-{max(cs):.3g}; "
              f"{len(bad)} wrong{'' if not bad else ': ' + str(bad[:2])})")
        print(f"    ({time.time() - t0:.1f} s)")

    print(f"\n{len(BUGS) if not only else len(only)} bugs, {time.time() - t_all:.0f} s")
    if failures:
        print(f"{failures} CLAIMS FAIL")
        return 1
    print("ALL CLAIMS PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
