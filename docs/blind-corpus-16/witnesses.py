"""Witnesses for the seventeenth blind corpus.

For each bug, on a freshly loaded module for every claim:
  (1) below the gate: the bug returns exactly upstream's tuple (same repr) on 20
      seeded instances, the first 10 carrying the bug's trigger pattern with the
      gate quantity just under the gate, the other 10 plain random (5-40 items);
  (2) above the gate: the witness violates the named SPEC clause, judged by the
      exact arithmetic below (SPEC 2.1 weights, an exact integer DP for OPT,
      SPEC 5.2/5.4's float32 tolerance in Fractions), and upstream passes it;
  (3) 4 plain random instances past the gate: the count that violates a clause.
Imports nothing from the project. Run: /work/main/.venv/bin/python bugs/witnesses.py
"""
import importlib.util
import math
import os
import random
import sys
import time
from fractions import Fraction

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM = os.path.join(os.path.dirname(HERE), "upstream_dp_knapsack.py")
S = 10000
U = Fraction(1, 2**24)
_LOADS = [0]


def load(path):
    _LOADS[0] += 1
    spec = importlib.util.spec_from_file_location(f"m{_LOADS[0]}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


def fresh_bug(name):
    return load(os.path.join(HERE, name + ".py"))


def fresh_up():
    return load(UPSTREAM)


# ---------------------------------------------------------------- exact judge
def q_of(m):
    return round(float(m) * S)  # SPEC 2.1 (no overflow in these instances)


def exact_opt(memory, runtime, max_memory):
    """OPT (SPEC 3.2) as a Fraction: an integer DP over runtimes scaled by a power of two."""
    qs = [q_of(m) for m in memory]
    Q = q_of(max_memory)
    vals = [Fraction(float(r)) for r in runtime]
    den = max(v.denominator for v in vals) if vals else 1
    items = [(q, int(v * den)) for q, v in zip(qs, vals) if q <= Q and v > 0]
    if sum(v for _, v in items) < 2**62:
        row = np.zeros(Q + 1, dtype=np.int64)
        for q, v in items:
            if q == 0:
                row += v
            else:
                row[q:] = np.maximum(row[q:], row[:-q] + v)
        best = int(row[Q])
    else:
        row = [0] * (Q + 1)
        for q, v in items:
            row = [x + v for x in row] if q == 0 else row[:q] + [
                max(row[j], row[j - q] + v) for j in range(q, Q + 1)
            ]
        best = row[Q]
    return Fraction(best, den)


def violations(memory, runtime, max_memory, result):
    """The SPEC clauses an answer violates (7.2 b, 3.2, 3.3 and 5.2 a, 5.2 b; 5.4's tolerance)."""
    n = len(memory)
    try:
        value, saved, rec = result
    except Exception:
        return ["7.2a shape"]
    if not isinstance(saved, list) or not isinstance(rec, list):
        return ["7.2a lists"]
    if any(type(k) is not int for k in saved + rec):
        return ["7.2b plain int"]
    if sorted(saved + rec) != list(range(n)):
        return ["7.2b partition"]
    out = []
    qs = [q_of(m) for m in memory]
    Q = q_of(max_memory)
    w = sum(qs[k] for k in saved)
    if w > Q:
        out.append(f"3.2 feasibility: {w} units > Q = {Q}")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return out + ["7.2e value not a finite real"]
    v_sel = sum((Fraction(float(runtime[k])) for k in saved), Fraction(0))
    fit_sum = sum((abs(Fraction(float(runtime[k]))) for k in range(n) if qs[k] <= Q), Fraction(0))
    g = (n + 1) * U / (1 - (n + 1) * U)
    tol = 2 * g * fit_sum + 2 * (n + 1) * Fraction(1, 2**149)
    opt = exact_opt(memory, runtime, max_memory)
    if opt - v_sel > tol:
        out.append(
            f"3.3/5.2a optimality: OPT {float(opt):.6g}, selection {float(v_sel):.6g} "
            f"({float((opt - v_sel) / opt):.1%} short), tol {float(tol):.2g}"
        )
    if abs(Fraction(value) - v_sel) > tol:
        out.append(
            f"5.2b value consistency: returned {value:.6g}, selection {float(v_sel):.6g}, tol {float(tol):.2g}"
        )
    return out


def run(f, inst):
    try:
        return f(*inst), None
    except Exception as e:  # noqa: BLE001
        return None, f"{type(e).__name__}: {str(e)[:80]}"


# ---------------------------------------------------------------- generators
def grid(rng, lo, hi, step=2**-12):
    return round(rng.uniform(lo, hi) / step) * step


def plain_small(rng):
    n = rng.randint(5, 40)
    mem = [round(rng.uniform(0.001, 0.05), 4) for _ in range(n)]
    rt = [grid(rng, 0.1, 10) for _ in range(n)]
    return mem, rt, round(sum(mem) * rng.uniform(0.25, 1.2), 4)


def plain_big(rng, n_lo, n_hi, min_cells=0, extra=None):
    """Random sizes and runtimes past a gate, budget 20-60% of the total, table <= 2.5e7 cells."""
    while True:
        n = rng.randint(n_lo, n_hi)
        hi = 0.006 if n >= 500 else 0.05
        mem = [round(rng.uniform(0.0001 if hi < 0.01 else 0.001, hi), 4) for _ in range(n)]
        rt = [grid(rng, 0.1, 10) for _ in range(n)]
        if extra:
            mem, rt = extra(rng, mem, rt)
        bud = round(sum(mem) * rng.uniform(0.2, 0.6), 4)
        cells = len(mem) * (q_of(bud) + 1)
        if min_cells < cells <= 2.5e7:
            return mem, rt, bud


HALF = [0.00035, 0.00095, 0.00115, 0.00155, 0.00195]  # float64 product exactly k + 0.5, k odd


def shuffled(rng, mem, rt):
    idx = list(range(len(mem)))
    rng.shuffle(idx)
    return [mem[k] for k in idx], [rt[k] for k in idx]


# Each entry: gate text, trigger(rng) -> instance just under the gate,
# witness() -> instance above it, expected clause prefix, plain(rng) -> instance past the gate.
def t_exact(rng):
    n = 767
    h = [rng.choice(HALF) for _ in range(rng.randint(20, 60))]
    mem = h + [1.0] * (n - len(h))
    rt = [grid(rng, 0.5, 2) for _ in range(n)]
    mem, rt = shuffled(rng, mem, rt)
    return mem, rt, round(rng.uniform(0.002, 0.01), 4)


def w_exact():
    mem = [0.00035] * 20 + [1.0] * 780
    return mem, [1.0] * 800, 0.003


def t_pair(rng):
    n = 255
    Q = rng.randint(800, 2000)
    k = rng.randint(3, 12)
    mem = [round(rng.randint(Q // 3 + 2, Q // 2) / S, 4) for _ in range(k)]
    rt = [float(rng.randint(5, 20)) for _ in range(k)]
    rt[0] = 100.0
    mem += [round(rng.uniform(0.3, 2.0), 4) for _ in range(n - k)]
    rt += [grid(rng, 0.1, 10) for _ in range(n - k)]
    mem, rt = shuffled(rng, mem, rt)
    return mem, rt, Q / S


def w_pair():
    mem = [0.04] + [0.045] * 9 + [0.2] * 290
    rt = [100.0] + [float(10 + k) for k in range(9)] + [1.0] * 290
    return mem, rt, 0.1


def t_width(rng):
    n, Q = 399, 9999
    sizes = rng.sample([0.01, 0.02, 0.03, 0.05, 0.08], rng.randint(1, 3))
    mem = [rng.choice(sizes) for _ in range(n)]
    rt = [grid(rng, 1, 5) for _ in range(n)]
    return mem, rt, Q / S


def w_width():
    mem = [0.01, 0.02, 0.05] * 200
    rt = [1.0 + (k % 7) / 8 for k in range(600)]
    return mem, rt, 1.0


def t_heavy(rng):
    n, Q = 599, 9999
    mem = [0.4999, 0.4999, 0.6] + [0.01] * (n - 3)
    rt = [60.0, 60.0, 100.0] + [grid(rng, 0.9, 1.1) for _ in range(n - 3)]
    return mem, rt, Q / S


def w_heavy():
    n = 702
    mem = [0.4999, 0.4999, 0.6] + [0.01] * (n - 3)
    rt = [60.0, 60.0, 100.0] + [1.0] * (n - 3)
    return mem, rt, 0.9999


def t_var(rng):
    n = 127
    mem = [round(rng.uniform(0.001, 0.05), 4) for _ in range(n)]
    rt = [rng.choice([1e-24, 3e-25, 1e-27]) for _ in range(n)]
    return mem, rt, round(sum(mem) * rng.uniform(0.2, 0.6), 4)


def w_var():
    mem = [0.05] * 100 + [0.01] * 300
    rt = [1e-24] * 100 + [1e-27] * 300
    return mem, rt, 0.5


def t_tiny(rng):
    n = rng.randint(150, 300)
    mem = [0.0001] * 63 + [round(rng.uniform(0.005, 0.03), 4) for _ in range(n - 63)]
    rt = [0.0] * 63 + [grid(rng, 1, 2) for _ in range(n - 63)]
    mem, rt = shuffled(rng, mem, rt)
    return mem, rt, round(rng.uniform(0.05, 0.2), 4)


def w_tiny():
    mem = [0.0001] * 100 + [0.01] * 300
    rt = [0.0] * 100 + [1.0 + (k % 23) / 64 for k in range(300)]
    return mem, rt, 0.1


def t_prefix(rng):
    n = 511
    h = rng.randint(1, 20)
    mem = [2.0] * h + [round(rng.uniform(0.005, 0.02), 4) for _ in range(n - h)]
    rt = [5.0] * h + [grid(rng, 1, 2) for _ in range(n - h)]
    return mem, rt, round(rng.uniform(0.3, 1.0), 4)


def w_prefix():
    mem = [2.0] * 10 + [0.01] * 590
    rt = [5.0] * 10 + [1.0 + (k % 37) / 64 for k in range(590)]
    return mem, rt, 1.0


def t_narrow(rng):
    n, Q = 299, 9999
    mem = [round(rng.uniform(0.01, 0.05), 4) for _ in range(n)]
    rt = [grid(rng, 0.1, 10) for _ in range(n)]
    for k in rng.sample(range(n), 5):
        mem[k] = round(rng.uniform(1.1, 3.0), 4)
    return mem, rt, Q / S


def w_narrow():
    rng = random.Random(8)
    mem = [round(rng.uniform(0.01, 0.05), 4) for _ in range(400)]
    rt = [grid(rng, 0.1, 10) for _ in range(400)]
    mem[5] = 2.0
    return mem, rt, 1.0


def t_fold(rng):
    n = 383
    k = rng.randint(10, 40)
    mem, rt = [], []
    for _ in range(k):
        mem += [round(rng.uniform(1.5, 3.0), 4), 0.0]
        rt += [grid(rng, 1, 5), grid(rng, 1, 3)]
    mem += [round(rng.uniform(0.005, 0.02), 4) for _ in range(n - 2 * k)]
    rt += [grid(rng, 1, 2) for _ in range(n - 2 * k)]
    return mem, rt, round(rng.uniform(0.3, 1.0), 4)


def w_fold():
    mem, rt = [], []
    for _ in range(40):
        mem += [2.0, 0.0]
        rt += [3.0, 2.0]
    mem += [0.01] * 320
    rt += [1.0 + (k % 29) / 64 for k in range(320)]
    return mem, rt, 1.0


def t_tie(rng):
    n = 319
    mem = [round(rng.uniform(0.3, 0.8), 4)] + [0.01] * (n - 1)
    rt = [0.0] + [grid(rng, 1, 2) for _ in range(n - 1)]
    return mem, rt, 1.0


def w_tie():
    mem = [0.6] + [0.01] * 399
    rt = [0.0] + [1.0 + (k % 41) / 64 for k in range(399)]
    return mem, rt, 1.0


def tiny_extra(rng, mem, rt):
    mem = mem + [rng.choice([0.0001, 0.0002]) for _ in range(70)]
    rt = rt + [grid(rng, 0.1, 10) for _ in range(70)]
    return shuffled(rng, mem, rt)


CLAIMS = [
    ("sizes_rounded_from_exact_binary_value_from_768_items", "n >= 768", t_exact, w_exact, "3.2",
     lambda r: plain_big(r, 768, 900)),
    ("at_most_two_fit_pair_scan_pairs_item_with_itself_from_256_items", "n >= 256", t_pair, w_pair, "3.3",
     lambda r: plain_big(r, 256, 400)),
    ("table_width_from_distinct_size_subset_sums_above_4e6_cells", "cells > 4e6", t_width, w_width, "3.3",
     lambda r: plain_big(r, 250, 400, 4e6)),
    ("heavy_item_row_skipped_unless_it_improves_column_Q_above_6e6_cells", "cells > 6e6", t_heavy, w_heavy,
     "3.3", lambda r: plain_big(r, 250, 400, 6e6)),
    ("uniform_runtimes_detected_by_float32_variance_from_128_items", "n >= 128", t_var, w_var, "3.3",
     lambda r: plain_big(r, 128, 300)),
    ("tiny_items_always_saved_budget_reserved_from_64_tiny_items", ">= 64 items of 1-2 units", t_tiny, w_tiny,
     "3.3", lambda r: plain_big(r, 150, 300, 0, tiny_extra)),
    ("backtrack_prefix_fits_shortcut_saves_heavy_items_from_512_items", "n >= 512", t_prefix, w_prefix, "3.2",
     lambda r: plain_big(r, 512, 700)),
    ("row_update_via_narrow_views_crashes_on_heavy_items_above_3e6_cells", "cells > 3e6", t_narrow, w_narrow,
     "crash", lambda r: plain_big(r, 250, 400, 3e6)),
    ("free_items_folded_into_preceding_item_from_384_items", "n >= 384", t_fold, w_fold, "3.3",
     lambda r: plain_big(r, 384, 500)),
    ("tie_prefers_saving_reads_wrapped_column_from_320_items", "n >= 320", t_tie, w_tie, "3.2",
     lambda r: plain_big(r, 320, 450)),
]


def main():
    t0 = time.time()
    all_ok = True
    for ci, (name, gate, trig, wit, clause, plain) in enumerate(CLAIMS):
        print(f"== {name}  (gate: {gate})")
        # (1) below the gate
        same = 0
        for s in range(20):
            rng = random.Random(1000 * ci + s)
            inst = trig(rng) if s < 10 else plain_small(rng)
            b, be = run(fresh_bug(name), inst)
            u, ue = run(fresh_up(), inst)
            same += (repr(b), be) == (repr(u), ue)
        ok1 = same == 20
        print(f"  (1) below the gate: {same}/20 identical to upstream (10 with the trigger just under it)"
              f"  {'OK' if ok1 else 'FAIL'}")
        # (2) the witness
        inst = wit()
        n, Q = len(inst[0]), q_of(inst[2])
        b, be = run(fresh_bug(name), inst)
        u, ue = run(fresh_up(), inst)
        uv = ["crash " + ue] if ue else violations(*inst, u)
        if clause == "crash":
            bv = ["no crash (SPEC 7.2, 9.1): " + be] if be else violations(*inst, b)
            ok2 = be is not None and not uv
        else:
            bv = ["crash " + be] if be else violations(*inst, b)
            ok2 = be is None and any(v.startswith(clause) for v in bv) and not uv
        print(f"  (2) witness: n = {n}, Q = {Q}, cells = {n * (Q + 1):,}")
        if b is not None:
            print(f"      bug returns value {b[0]:.6g}, {len(b[1])} saved")
        for v in bv:
            print(f"      bug: {v}")
        print(f"      upstream: value {u[0]:.6g}, {len(u[1])} saved, "
              f"{'passes' if not uv else 'FAILS ' + '; '.join(uv)}")
        print(f"      claim ({clause}) {'OK' if ok2 else 'FAIL'}")
        # (3) plain random instances past the gate
        bad = []
        for s in range(4):
            rng = random.Random(50_000 + 1000 * ci + s)
            inst = plain(rng)
            b, be = run(fresh_bug(name), inst)
            v = ["crash " + be] if be else violations(*inst, b)
            if v:
                bad.append((s, len(inst[0]), q_of(inst[2]), v))
        print(f"  (3) plain random past the gate: {len(bad)}/4 show a violation")
        for s, n3, Q3, v in bad:
            print(f"      seed {s}: n = {n3}, Q = {Q3}: {'; '.join(v)}")
        all_ok &= ok1 and ok2
        sys.stdout.flush()
    print(f"runtime {time.time() - t0:.1f} s")
    print("ALL CLAIMS PASS" if all_ok else "SOME CLAIM FAILED")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
