"""Witnesses for the blind16 corpus: below-gate equality, above-gate violations, random checks.

Exact arithmetic only: weights q = round(float(m) * 10000) (SPEC 2.1), runtimes scaled to
integers by their common power-of-two denominator (SPEC 3.1), the optimum by an int64 table
(asserted not to overflow), the float32 tolerance of SPEC 5.2 / 5.4 in Fractions.
"""
import importlib.util
import itertools
import math
import pathlib
import random
import sys
import time
from fractions import Fraction

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
UPSTREAM = HERE.parent / "upstream_dp_knapsack.py"
S = 10000
_counter = itertools.count()


def load(path):
    name = f"blind16_mod_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


def quant(m):
    return round(float(m) * S)


def scaled(runtime):
    fr = [Fraction(float(r)) for r in runtime]
    den = max([f.denominator for f in fr] + [1])
    return [int(f * den) for f in fr], den


def optimum(memory, runtime, max_memory):
    q = [quant(m) for m in memory]
    Q = quant(max_memory)
    v, den = scaled(runtime)
    assert sum(abs(x) for x in v) < 2**62, "int64 table would overflow"
    dp = np.zeros(Q + 1, dtype=np.int64)
    for qi, vi in zip(q, v):
        if vi <= 0 or qi > Q:
            continue
        if qi == 0:
            dp += vi
        else:
            dp[qi:] = np.maximum(dp[qi:], dp[:-qi] + vi)
    return Fraction(int(dp[Q]), den)


def tolerance(memory, runtime, max_memory):
    n = len(memory)
    Q = quant(max_memory)
    u = Fraction(1, 2**24)
    k = n + 1
    gamma = k * u / (1 - k * u)
    total = sum(abs(Fraction(float(r))) for m, r in zip(memory, runtime) if quant(m) <= Q)
    return 2 * gamma * total + 2 * (n + 1) * Fraction(1, 2**149)


def violations(result, memory, runtime, max_memory):
    """Clauses the answer fails (SPEC 7.2 b, 3.2, 3.3/5.2 a, 5.2 b)."""
    n = len(memory)
    value, saved, recomputable = result
    out = []
    idx = list(saved) + list(recomputable)
    if any(type(i) is not int for i in idx) or sorted(idx) != list(range(n)):
        return ["partition (7.2 b)"]
    Q = quant(max_memory)
    weight = sum(quant(memory[i]) for i in saved)
    if weight > Q:
        out.append(f"feasibility (3.2: {weight} > {Q} units)")
    got = sum((Fraction(float(runtime[i])) for i in saved), Fraction(0))
    opt = optimum(memory, runtime, max_memory)
    tol = tolerance(memory, runtime, max_memory)
    if opt - got > tol:
        out.append(f"optimality (3.3/5.2a: {float(got):.6g} < OPT {float(opt):.6g}, tol {float(tol):.3g})")
    if abs(Fraction(float(value)) - got) > tol:
        out.append(f"value consistency (5.2b: returned {float(value):.6g}, selection {float(got):.6g})")
    return out


def dy(rng, lo=0.1, hi=10.0):
    """A random runtime in [lo, hi], dyadic (multiple of 2**-12) so exact sums stay in int64."""
    return rng.randint(round(lo * 4096), round(hi * 4096)) / 4096


def plain_random(rng, n, size_lo=0.001, size_hi=0.05):
    memory = [rng.uniform(size_lo, size_hi) for _ in range(n)]
    runtime = [dy(rng) for _ in range(n)]
    budget = sum(memory) * rng.uniform(0.25, 1.2)
    return memory, runtime, budget


# ---------------------------------------------------------------------------
# Per-bug: a trigger pattern just under the gate, a witness above it, and plain
# random instances past the gate. Each instance is (memory, runtime, max_memory).

def dom_under(rng):  # 299 items, a block of copies heavier than the budget together
    c = rng.randint(150, 299)
    memory = [0.001] * c + [rng.uniform(0.001, 0.05) for _ in range(299 - c)]
    runtime = [1.0] * c + [dy(rng) for _ in range(299 - c)]
    return memory, runtime, 0.1


def fixed_under(rng):  # 998 items under Q = 10000: 999 * 10001 cells <= 1e7
    memory = [0.001] * 998
    runtime = [rng.choice([2**-12, 2**-11, 2**-9]) for _ in range(998)]
    return memory, runtime, 1.0


def int16_under(rng):  # 1023 items, Q in [2**15, 2**16)
    q = rng.randint(33, 40)
    memory = [q / 10000] * 1023
    runtime = [dy(rng, 0.5, 2.0) for _ in range(1023)]
    return memory, runtime, (1000 * q) / 10000


def floor_budget_under(rng):  # 1799 items, budget whose product falls just under a whole unit
    memory = [1.0] * 1798 + [0.0029]
    runtime = [1.0] * 1798 + [100.0]
    return memory, runtime, rng.choice([0.0029, 0.0058, 0.0087])


def split_under(rng):  # 975 items, Q = 2q - 1: 976 * 4096 cells <= 4e6
    memory = [0.5] * 973 + [0.2047, 0.2048]
    runtime = [1.0] * 973 + [10.0, dy(rng, 5, 20)]
    return memory, runtime, 0.4095


def rfloor_under(rng):  # 639 items with sub-10-us runtimes
    memory = [0.001] * 639
    runtime = [rng.choice([2**-10, 2**-8]) for _ in range(639)]
    return memory, runtime, 0.32


def card_under(rng):  # 598 items under Q = 10000: 599 * 10001 cells <= 6e6
    heavy = rng.randint(50, 150)
    memory = [0.1] * heavy + [0.01] * (598 - heavy)
    runtime = [5.0] * heavy + [1.0] * (598 - heavy)
    return memory, runtime, 1.0


def group_under(rng):  # 95 items of one size (the gate is 96), plus others
    extra = rng.randint(1, 40)
    memory = [0.001] * 95 + [rng.uniform(0.001, 0.05) for _ in range(extra)]
    runtime = [1.0] * 95 + [dy(rng) for _ in range(extra)]
    return memory, runtime, 0.095 + 0.001 * rng.randint(0, 50)


def cap_under(rng):  # 1499 items with a runtime outlier
    memory = [0.001] * 1498 + [2.0]
    runtime = [1.0] * 1498 + [float(rng.choice([10**5, 10**6]))]
    return memory, runtime, 2.0


def cache_under(rng):  # two calls, same sizes and budget, 199 * 10000 = 2e6 cells (gate: > 2e6)
    memory = [0.01] * 199
    r1 = [2.0] * 100 + [1.0] * 99
    return [(memory, r1, 0.9999), (memory, list(reversed(r1)), 0.9999)]


BUGS = {
    "dominance_prune_mutual_copies_from_300_items": dict(
        under=dom_under,
        witness=lambda: ([0.001] * 300, [1.0] * 300, 0.1),
        above=lambda rng: plain_random(rng, 300)),
    "fixed_point_microunit_int64_table_above_1e7_cells": dict(
        under=fixed_under,
        witness=lambda: ([0.001] * 1000, [2**-12] * 1000, 1.0),
        above=lambda rng: plain_random(rng, 450)),
    "backtrack_column_int16_for_budget_below_2p16_from_1024_items": dict(
        under=int16_under,
        witness=lambda: ([0.0033] * 1024, [1.0] * 1024, 3.3),
        above=lambda rng: plain_random(rng, 1100, 0.0001, 0.006)),
    "budget_floored_with_int_from_1800_items": dict(
        under=floor_budget_under,
        witness=lambda: ([1.0] * 1799 + [0.0029], [1.0] * 1799 + [100.0], 0.0029),
        above=lambda rng: plain_random(rng, 1800, 0.0001, 0.002)),
    "big_item_split_update_skips_column_2q_minus_1_above_4e6_cells": dict(
        under=split_under,
        witness=lambda: ([0.5] * 1000 + [0.2047, 0.2048], [1.0] * 1000 + [10.0, 10.0], 0.4095),
        above=lambda rng: plain_random(rng, 260)),
    "runtime_floor_at_timer_resolution_from_640_items": dict(
        under=rfloor_under,
        witness=lambda: ([0.001] * 640, [2**-10] * 320 + [2**-8] * 320, 0.32),
        above=lambda rng: plain_random(rng, 640, 0.0001, 0.005)),
    "cardinality_rows_top_runtime_only_above_6e6_cells": dict(
        under=card_under,
        witness=lambda: ([0.1] * 100 + [0.01] * 600, [5.0] * 100 + [1.0] * 600, 1.0),
        above=lambda rng: plain_random(rng, 320)),
    "same_size_group_row_best_k_off_by_one_from_96_of_a_size": dict(
        under=group_under,
        witness=lambda: ([0.001] * 128, [1.0] * 128, 0.128),
        above=lambda rng: plain_random(rng, 300)),
    "runtime_outliers_capped_at_1000x_median_from_1500_items": dict(
        under=cap_under,
        witness=lambda: ([0.001] * 1499 + [2.0], [1.0] * 1499 + [1e5], 2.0),
        above=lambda rng: plain_random(rng, 1500, 0.0001, 0.004)),
    "answer_cache_keyed_without_runtimes_above_2e6_cells": dict(
        under=cache_under,
        witness=lambda: [([0.01] * 300, [2.0] * 150 + [1.0] * 150, 1.0),
                         ([0.01] * 300, [1.0] * 150 + [2.0] * 150, 1.0)],
        above=lambda rng: [plain_random(rng, 200), plain_random(rng, 200)],
        sequence=True),
}


def run_calls(fn, inst, sequence):
    """Return the answer to the last call (earlier calls of a sequence are set-up)."""
    calls = inst if sequence else [inst]
    out = None
    for memory, runtime, budget in calls:
        out = fn(list(memory), list(runtime), budget)
    return out


def main():
    t0 = time.time()
    all_ok = True
    for name, b in BUGS.items():
        path = HERE / f"{name}.py"
        seq = b.get("sequence", False)
        print(f"== {name}")
        # 1. below the gate
        equal = 0
        for seed in range(20):
            rng = random.Random(1000 + seed)
            if seed < 10:
                inst = b["under"](rng)
            else:
                inst = plain_random(rng, rng.randint(5, 40))
                if seq:
                    inst = [inst, (inst[0], [dy(rng) for _ in inst[0]], inst[2])]
            got = run_calls(load(path), inst, seq)
            want = run_calls(load(UPSTREAM), inst, seq)
            if repr(got) == repr(want):
                equal += 1
            else:
                print(f"   below-gate seed {seed}: DIFFERS from upstream")
        ok1 = equal == 20
        print(f"   [claim 1] below the gate, equal to upstream's tuple (repr) on {equal}/20"
              f" (10 with the trigger pattern just under the gate): {'PASS' if ok1 else 'FAIL'}")
        # 2. witness above the gate
        inst = b["witness"]()
        last = inst[-1] if seq else inst
        try:
            got = run_calls(load(path), inst, seq)
            bad = violations(got, *last)
        except Exception as e:  # noqa: BLE001
            bad = [f"no crash ({type(e).__name__}: {e})"]
        up = run_calls(load(UPSTREAM), inst, seq)
        up_bad = violations(up, *last)
        extra = ""
        if seq:
            fresh = run_calls(load(path), last, False)
            if repr(fresh) != repr(got):
                bad.append("determinism / no state across calls (8.1: a fresh module answers differently)")
            extra = f"; fresh-module answer value {fresh[0]!r}"
        n = len(last[0])
        print(f"   witness: n={n}, Q={quant(last[2])}, cells={(n + 1) * (quant(last[2]) + 1):,}"
              f"{', after one set-up call' if seq else ''}")
        print(f"   bug value {got[0]!r}, saved {len(got[1])}; upstream value {up[0]!r}, saved {len(up[1])}{extra}")
        ok2 = bool(bad) and not up_bad
        print(f"   [claim 2] witness violates: {bad}; upstream violates: {up_bad or 'nothing'}: "
              f"{'PASS' if ok2 else 'FAIL'}")
        # 3. plain random above the gate (report only)
        fails = 0
        for seed in range(4):
            rng = random.Random(5000 + seed)
            inst = b["above"](rng)
            last = inst[-1] if seq else inst
            try:
                got = run_calls(load(path), inst, seq)
                bad = violations(got, *last)
            except Exception as e:  # noqa: BLE001
                bad = [f"crash {type(e).__name__}"]
            n = len(last[0])
            Q = quant(last[2])
            print(f"   random above gate seed {seed}: n={n} Q={Q} cells={(n + 1) * (Q + 1):,}: "
                  f"{'FAILS ' + str(bad) if bad else 'no violation'}")
            fails += bool(bad)
        print(f"   [report 3] plain random instances past the gate that fail: {fails}/4")
        all_ok &= ok1 and ok2
        sys.stdout.flush()
    print(f"elapsed {time.time() - t0:.1f} s")
    print("ALL CLAIMS PASS" if all_ok else "SOME CLAIMS FAIL")


if __name__ == "__main__":
    main()
