"""Witnesses for the eighteenth blind corpus.

For each bug: (1) 20 seeded instances below its gate (10 plain, 10 carrying
the trigger just under the gate) give exactly upstream's tuple (same repr);
(2) a witness above the gate fails the named SPEC clause, judged here with
exact integer / Fraction arithmetic, while upstream passes the same call;
(3) 4 plain random instances above the gate: how many show a violation.
Imports nothing from the project. Run: python witnesses.py (from any cwd).
"""

import importlib.util
import math
import numbers
import pathlib
import sys
import time
from fractions import Fraction

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
UPSTREAM = HERE.parent / "upstream_dp_knapsack.py"
_counter = [0]


def load(path):
    """A fresh module for every load (no state shared between claims)."""
    _counter[0] += 1
    spec = importlib.util.spec_from_file_location(f"b18_mod_{_counter[0]}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


def quantize(x):  # SPEC 2.1
    p = float(x) * 10000
    if math.isinf(p):
        return int(x) * 10000
    return round(p)


def exact_opt(memory, runtime, max_memory):
    """Exact optimum (SPEC 3.2) as a Fraction: 0/1 DP over integer values."""
    Q = quantize(max_memory)
    fr = [Fraction(float(r)) for r in runtime]
    D = 1
    for f in fr:
        D = D * f.denominator // math.gcd(D, f.denominator)
    vals = [int(f * D) for f in fr]
    qs = [quantize(m) for m in memory]
    big = sum(v for v in vals if v > 0) >= 2**62
    row = np.zeros(Q + 1, dtype=object if big else np.int64)
    free = 0
    for q, v in zip(qs, vals):
        if v <= 0 or q > Q:
            continue
        if q == 0:
            free += v
            continue
        row[q:] = np.maximum(row[q:], row[:-q] + v)
    return Fraction(int(row[Q]) + free, D)


def tolerance(memory, runtime, max_memory):  # SPEC 5.2 / 5.4
    n = len(memory)
    Q = quantize(max_memory)
    u = Fraction(1, 2**24)
    k = n + 1
    gamma = k * u / (1 - k * u)
    s = sum(abs(Fraction(float(r))) for m, r in zip(memory, runtime) if quantize(m) <= Q)
    return 2 * gamma * s + 2 * (n + 1) * Fraction(2) ** -149


def judge(fn, memory, runtime, max_memory):
    """The list of SPEC clauses the call fails (empty: it passes)."""
    mem_before = [(type(x), repr(x)) for x in memory]
    run_before = [(type(x), repr(x)) for x in runtime]
    try:
        out = fn(memory, runtime, max_memory)
    except Exception as e:  # noqa: BLE001
        return [f"no-crash (7.2/9.1: {type(e).__name__}: {str(e)[:70]})"]
    fails = []
    if [(type(x), repr(x)) for x in memory] != mem_before or [
        (type(x), repr(x)) for x in runtime
    ] != run_before:
        fails.append("no-mutation (8.2)")
    if not (isinstance(out, (tuple, list)) and len(out) == 3):
        return fails + ["shape (7.2a)"]
    value, saved, recomp = out
    n = len(memory)
    try:
        saved, recomp = list(saved), list(recomp)
    except TypeError:
        return fails + ["partition (7.2b)"]
    if not all(type(i) is int for i in saved + recomp) or sorted(saved + recomp) != list(range(n)):
        return fails + ["partition (7.2b)"]
    Q = quantize(max_memory)
    if sum(quantize(memory[i]) for i in saved) > Q:
        fails.append("feasibility (3.2)")
    val_s = sum((Fraction(float(runtime[i])) for i in saved), Fraction(0))
    tol = tolerance(memory, runtime, max_memory)
    if exact_opt(memory, runtime, max_memory) - val_s > tol:
        fails.append("optimality (3.3/5.4)")
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not math.isfinite(value):
        fails.append(f"value-type (7.2e: {type(value).__name__})")
    elif abs(Fraction(float(value)) - val_s) > tol:
        fails.append("value-consistency (5.2b/5.4)")
    return fails


# ---------------------------------------------------------------- instances
def dyadic_runtime(rng, lo=1.0, hi=2.0):
    return float(rng.integers(int(lo * 1024), int(hi * 1024) + 1)) / 1024


def plain(seed, n, q_target):
    """Plain random: sizes with 4 decimals, dyadic runtimes, a binding budget."""
    rng = np.random.default_rng(seed)
    avg_units = max(2, int(q_target / (0.4 * n)))
    units = rng.integers(1, 2 * avg_units, size=n)
    memory = [round(float(u) / 10000 + 0.0, 4) for u in units]
    runtime = [dyadic_runtime(rng, 0.01, 50.0) for _ in range(n)]
    budget = round(float(sum(units)) * float(rng.uniform(0.3, 0.5)) / 10000, 4)
    return memory, runtime, budget


def with_trigger(seed, n, kind):
    rng = np.random.default_rng(seed)
    if kind == "many_saved":  # everything (n items) saved
        memory = [round(float(rng.integers(1, 4)) / 10000, 4) for _ in range(n)]
        runtime = [dyadic_runtime(rng) for _ in range(n)]
        return memory, runtime, round(sum(quantize(m) for m in memory) / 10000 + 0.001, 4)
    if kind == "free_binding":  # ~half the items free, a binding budget
        k = n // 2
        memory = [0.0] * k + [round(float(rng.integers(50, 150)) / 10000, 4) for _ in range(n - k)]
        runtime = [dyadic_runtime(rng) for _ in range(n)]
        perm = rng.permutation(n)
        memory = [memory[i] for i in perm]
        return memory, runtime, round(float(rng.integers(2000, 4000)) / 10000, 4)
    if kind == "all_fit":
        memory = [round(float(rng.integers(1, 40)) / 10000, 4) for _ in range(n)]
        runtime = [dyadic_runtime(rng) for _ in range(n)]
        return memory, runtime, round(sum(memory) + 0.01, 4)
    if kind == "free_pair":  # zero-size items at 2k, 2k+1
        memory, runtime, budget = plain(seed, n, 3000)
        for a in (10, 11, 40, 41):
            memory[a] = 0.0
        return memory, runtime, budget
    if kind == "zero_runtime":
        memory, runtime, budget = plain(seed, n, 3000)
        for a in rng.choice(n, size=6, replace=False):
            runtime[int(a)] = 0.0
        return memory, runtime, budget
    if kind == "biased_sizes":  # sizes of 1.6 units (weigh 2)
        memory = [0.00016] * n
        runtime = [dyadic_runtime(rng) for _ in range(n)]
        return memory, runtime, round(float(rng.integers(500, 1500)) / 10000, 4)
    if kind == "half_unit_budget_heavy":  # heavy item, budget at a half unit
        memory = [5.0] + [0.01] * (n - 1)
        runtime = [1000.0] + [dyadic_runtime(rng) for _ in range(n - 1)]
        return memory, runtime, 0.49995
    if kind == "object_runs":  # runs of the very same float objects
        memory, runtime = [], []
        while len(memory) < n:
            k = int(rng.integers(1, 30))
            m, r = round(float(rng.integers(50, 150)) / 10000, 4), dyadic_runtime(rng)
            memory += [m] * k
            runtime += [r] * k
        return memory[:n], runtime[:n], round(float(rng.integers(2000, 5000)) / 10000, 4)
    if kind == "subunit_sizes":
        k = 5
        memory = [4e-5] * k + [0.00016] * (n - k)
        runtime = [dyadic_runtime(rng) for _ in range(n)]
        return memory, runtime, round(float(rng.integers(200, 400)) / 10000, 4)
    if kind == "narrow_improvement":  # a last item that improves only columns Q-2..Q
        memory = [0.1] * (n - 1) + [1.0001]
        runtime = [1.0 + float(rng.integers(0, 64)) / 1024 for _ in range(n - 1)] + [15.0]
        return memory, runtime, 1.0003
    raise ValueError(kind)


# ---------------------------------------------------------------- claims
CLAIMS = [
    dict(
        name="recursive_backtrack_frame_per_saved_item_from_512_items",
        gate=lambda i: len(i[0]) >= 512,
        below_plain=lambda s: plain(s, 300 + s * 20, 3000),
        below_trigger=lambda s: with_trigger(s, 511, "many_saved"),
        witness=lambda: ([0.0001] * 2100, [1.0] * 2100, 0.2),
        clause="no-crash",
        above_plain=lambda s: plain(s, 600, 3000),
    ),
    dict(
        name="free_sizes_charged_one_unit_from_192_items",
        gate=lambda i: len(i[0]) >= 192,
        below_plain=lambda s: plain(s, 100 + s * 9, 3000),
        below_trigger=lambda s: with_trigger(s, 191, "free_binding"),
        witness=lambda: ([0.0] * 100 + [0.01] * 100, [1.0] * 100 + [5.0] * 100, 0.5),
        clause="optimality",
        above_plain=lambda s: plain(s, 250, 3000),
    ),
    dict(
        name="all_fit_shortcut_returns_tensor_value_from_256_items",
        gate=lambda i: len(i[0]) >= 256,
        below_plain=lambda s: plain(s, 100 + s * 15, 3000),
        below_trigger=lambda s: with_trigger(s, 255, "all_fit"),
        witness=lambda: (
            [0.001] * 300,
            [1.0 + k / 1024 for k in range(300)],
            1.0,
        ),
        clause="value-type",
        above_plain=lambda s: plain(s, 300, 3000),
    ),
    dict(
        name="paired_row_update_unguarded_free_pair_shift_from_256_items",
        gate=lambda i: len(i[0]) >= 256,
        below_plain=lambda s: plain(s, 100 + s * 15, 3000),
        below_trigger=lambda s: with_trigger(s, 254 + (s % 2), "free_pair"),
        witness=lambda: with_trigger(1000, 300, "free_pair"),
        clause="no-crash",
        above_plain=lambda s: plain(s, 300, 3000),
    ),
    dict(
        name="zero_runtime_rows_left_unwritten_from_128_items",
        gate=lambda i: len(i[0]) >= 128,
        below_plain=lambda s: plain(s, 60 + s * 6, 3000),
        below_trigger=lambda s: with_trigger(s, 127, "zero_runtime"),
        witness=lambda: (
            [0.01] * 200,
            [0.0 if k == 150 else 1.0 + (k % 7) / 8 for k in range(200)],
            0.5,
        ),
        clause="optimality",
        above_plain=lambda s: plain(s, 200, 3000),
    ),
    dict(
        name="budget_rescaled_by_quantized_total_ratio_from_1024_items",
        gate=lambda i: len(i[0]) >= 1024,
        below_plain=lambda s: plain(s, 600 + s * 40, 3000),
        below_trigger=lambda s: with_trigger(s, 1023, "biased_sizes"),
        witness=lambda: ([0.00016] * 1100, [1.0] * 1100, 0.08),
        clause="feasibility",
        above_plain=lambda s: plain(s, 1100, 3000),
    ),
    dict(
        name="sizes_capped_in_gb_one_unit_over_budget_from_256_items",
        gate=lambda i: len(i[0]) >= 256,
        below_plain=lambda s: plain(s, 100 + s * 15, 3000),
        below_trigger=lambda s: with_trigger(s, 255, "half_unit_budget_heavy"),
        witness=lambda: with_trigger(1000, 300, "half_unit_budget_heavy"),
        clause="feasibility",
        above_plain=lambda s: plain(s, 300, 3000),
    ),
    dict(
        name="identical_object_runs_folded_from_128_items",
        gate=lambda i: len(i[0]) >= 128,
        below_plain=lambda s: plain(s, 60 + s * 6, 3000),
        below_trigger=lambda s: with_trigger(s, 127, "object_runs"),
        witness=lambda: ([0.01] * 300, [1.0] * 300, 0.5),
        clause="optimality",
        above_plain=lambda s: plain(s, 200, 3000),
    ),
    dict(
        name="scale_refined_for_subunit_sizes_from_256_items",
        gate=lambda i: len(i[0]) >= 256,
        below_plain=lambda s: plain(s, 100 + s * 15, 3000),
        below_trigger=lambda s: with_trigger(s, 255, "subunit_sizes"),
        witness=lambda: ([4e-5] + [0.00016] * 299, [1.0] * 300, 0.032),
        clause="feasibility",
        above_plain=lambda s: plain(s, 300, 3000),
    ),
    dict(
        name="changed_rows_sampled_every_8th_column_above_4e6_cells",
        gate=lambda i: (len(i[0]) + 1) * (quantize(i[2]) + 1) > 4_000_000,
        below_plain=lambda s: plain(s, 200 + s * 15, 9000),
        below_trigger=lambda s: with_trigger(s, 398, "narrow_improvement"),
        witness=lambda: with_trigger(1000, 500, "narrow_improvement"),
        clause="optimality",
        above_plain=lambda s: plain(s, 450, 10000),
    ),
]


def cells(inst):
    m, r, b = inst
    return len(m) * (quantize(b) + 1)


def main():
    t0 = time.time()
    upstream = load(UPSTREAM)
    all_ok = True
    for c in CLAIMS:
        t1 = time.time()
        name = c["name"]
        print(f"== {name}")
        bug = load(HERE / f"{name}.py")
        # (1) below the gate
        same = 0
        for s in range(10):
            for inst in (c["below_plain"](s), c["below_trigger"](s)):
                assert not c["gate"](inst), "a below-gate instance is past the gate"
                a = repr(bug(*inst))
                b = repr(upstream(*inst))
                same += a == b
        ok1 = same == 20
        print(f"  below gate: {same}/20 identical to upstream (10 carry the trigger)")
        # (2) witness
        bug = load(HERE / f"{name}.py")  # fresh module for the witness
        inst = c["witness"]()
        assert c["gate"](inst) and all(c["gate"](c["above_plain"](100 + s)) for s in range(4))
        fb = judge(bug, *inst)
        fu = judge(upstream, *inst)
        ok2 = any(f.startswith(c["clause"]) for f in fb) and not fu
        m, r, b = inst
        print(
            f"  witness: n={len(m)}, Q={quantize(b)}, cells={cells(inst):.3g}, "
            f"OPT={float(exact_opt(m, r, b)):.6g}"
        )
        print(f"    bug fails: {fb}")
        print(f"    upstream fails: {fu or 'nothing (passes)'}")
        # (3) plain random instances above the gate
        bad = 0
        for s in range(4):
            bug = load(HERE / f"{name}.py")
            inst = c["above_plain"](100 + s)
            f = judge(bug, *inst)
            bad += bool(f)
            if f:
                print(f"    plain instance {s}: {f}")
        m, r, b = c["above_plain"](100)
        print(f"  plain random above the gate (n={len(m)}, cells~{cells((m, r, b)):.3g}): {bad}/4 violate")
        ok = ok1 and ok2
        all_ok &= ok
        print(f"  claim {'PASS' if ok else 'FAIL'} ({time.time() - t1:.1f} s)")
    print(f"total runtime {time.time() - t0:.1f} s")
    print("ALL CLAIMS PASS" if all_ok else "SOME CLAIMS FAIL")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
