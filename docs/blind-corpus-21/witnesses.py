"""Claims for the 22nd blind corpus, checked by an independent judge.

Run from /work/blind22 (or anywhere):
    OMP_NUM_THREADS=1 /work/main/.venv/bin/python bugs/witnesses.py

Nothing from the project is imported. The judge:
- quantizes by SPEC 2.1: q = round(float(m) * 10000) (float64 product, round half
  to even; the exact product when the float64 product overflows);
- values item i as the exact Fraction of float(runtime[i]) (SPEC 3.1);
- computes OPT by an integer DP over the items that fit alone, runtimes scaled by
  their common power-of-two denominator (numpy int64, or Python ints when the
  sums could pass 2**62);
- allows SPEC 5.4's tolerance 2*gamma(n+1)*sum(|v_i| : q_i <= Q) + 2*(n+1)*2**-149,
  with u = 2**-24 and gamma(k) = k*u/(1-k*u), in Fractions;
- checks the result form of SPEC 7.2 (a 3-sequence; two lists of plain ints that
  partition 0..n-1; feasibility in integers; optimality; a finite real value, not
  bool, consistent with the selection), SPEC 8.2/8.5 (every input entry keeps its
  type and repr) and a few SPEC 8.6 settings.

For each bug it checks three claims:
1. below the gate, 20 seeded instances (10 plain, 10 carrying the trigger just
   under the gate) on which the bug returns exactly upstream's tuple (same repr,
   or the same exception), inputs untouched;
2. above the gate, a witness on which the bug fails the named clause while
   upstream passes every clause;
3. above the gate, 4 plain random instances (sizes to 4 decimals, binding budget)
   on which the bug shows no violation.
Every call is asserted to have at most 2,100 items and 2e7 cells. Each call runs
on a freshly loaded module (a stateful claim: one module per call sequence).
"""

import collections.abc
import importlib.util
import itertools
import math
import numbers
import os
import random
import sys
import time
from fractions import Fraction

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.dont_write_bytecode = True

import warnings  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

# Upstream's own slices of a sentinel-size item (past 2**62 units) make torch
# warn that it truncates the slice bounds; the answer is unaffected.
warnings.filterwarnings("ignore", message="Truncating the start/stop/step of slice")

torch.set_num_threads(1)

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM = os.path.join(os.path.dirname(HERE), "upstream_dp_knapsack.py")
SCALE = 10000
U = Fraction(1, 2**24)
TINY = Fraction(1, 2**149)
MAX_ITEMS = 2100
MAX_CELLS = 2e7

_counter = itertools.count()


def load(path):
    name = f"_blind22_mod_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


def bug_path(name):
    return os.path.join(HERE, name + ".py")


# ---------------------------------------------------------------- the judge


def quantize(m):
    product = float(m) * SCALE
    if math.isinf(product):
        return int(m) * SCALE
    return round(product)


def cells_of(inst):
    memory, _runtime, budget = inst
    return len(memory) * (quantize(budget) + 1)


def gamma(k):
    return k * U / (1 - k * U)


def exact_values(runtime):
    return [Fraction(float(r)) for r in runtime]


def exact_opt(qs, vals, Q):
    items = [(q, v) for q, v in zip(qs, vals) if q <= Q and v > 0]
    if not items:
        return Fraction(0)
    den = max(v.denominator for _, v in items)  # powers of two: the lcm is the max
    ints = [(q, int(v * den)) for q, v in items]
    total = sum(x for _, x in ints)
    dtype = np.int64 if total < 2**62 else object
    best = np.zeros(Q + 1, dtype=dtype)
    for q, x in ints:
        if q == 0:
            best += x
        else:
            best[q:] = np.maximum(best[q:], best[:-q] + x)
    return Fraction(int(best[Q]), den)


def snapshot(seq):
    return [(type(x), repr(x)) for x in seq]


def settings():
    probe = (torch.tensor([1e-40], dtype=torch.float32) * 1.0).item() != 0.0
    return (
        torch.get_default_dtype(),
        torch.is_grad_enabled(),
        torch.get_num_threads(),
        torch.are_deterministic_algorithms_enabled(),
        probe,
    )


def restore(state):
    dtype, grad, threads, det, subnormals_kept = state
    torch.set_default_dtype(dtype)
    torch.set_grad_enabled(grad)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(det)
    torch.set_flush_denormal(not subnormals_kept)


def call(fn, inst):
    """Call fn on fresh copies of the instance; return an outcome dict."""
    memory, runtime, budget = inst
    n = len(memory)
    assert n <= MAX_ITEMS and cells_of(inst) <= MAX_CELLS, (n, cells_of(inst))
    mem, rt = list(memory), list(runtime)
    before = (snapshot(mem), snapshot(rt), (type(budget), repr(budget)))
    state = settings()
    try:
        result, exc = fn(mem, rt, budget), None
    except Exception as e:  # noqa: BLE001 - a crash is a finding
        result, exc = None, e
    after_state = settings()
    if after_state != state:
        restore(state)
    after = (snapshot(mem), snapshot(rt), (type(budget), repr(budget)))
    return {
        "result": result,
        "exc": exc,
        "mutated": before != after,
        "settings_changed": after_state != state,
        "key": repr(result) if exc is None else f"{type(exc).__name__}: {exc}",
    }


def judge(inst, out):
    """Violations of SPEC 7.2 / 8.2 / 8.6 on one call, as (clause, detail)."""
    memory, runtime, budget = inst
    n = len(memory)
    qs = [quantize(m) for m in memory]
    Q = quantize(budget)
    vals = exact_values(runtime)
    bad = []
    if out["mutated"]:
        bad.append(("no mutation (SPEC 8.2, 8.5)", "an input entry changed type or repr"))
    if out["settings_changed"]:
        bad.append(("process settings (SPEC 8.6)", "a setting changed"))
    if out["exc"] is not None:
        bad.append(("no crash (SPEC 7.2, 9.1)", out["key"][:160]))
        return bad
    res = out["result"]
    if (
        not isinstance(res, collections.abc.Sequence)
        or isinstance(res, (str, bytes))
        or len(res) != 3
    ):
        bad.append(("return shape (SPEC 7.2 a)", f"{type(res).__name__} of length "
                    f"{len(res) if hasattr(res, '__len__') else '?'}"))
        return bad
    value, saved, rec = res
    lists_ok = True
    for lst in (saved, rec):
        if not isinstance(lst, collections.abc.Sequence) or isinstance(lst, (str, bytes)):
            lists_ok = False
        elif any(type(x) is not int for x in lst):
            lists_ok = False
    if not lists_ok:
        bad.append(("plain-int lists (SPEC 7.2 b)", "an entry is not a plain int"))
    ints_saved = [x for x in saved if type(x) is int] if isinstance(
        saved, collections.abc.Sequence) else []
    ints_rec = [x for x in rec if type(x) is int] if isinstance(
        rec, collections.abc.Sequence) else []
    if not lists_ok or sorted(ints_saved + ints_rec) != list(range(n)):
        dup = len(ints_saved) - len(set(ints_saved))
        both = len(set(ints_saved) & set(ints_rec))
        missing = n - len(set(ints_saved) | set(ints_rec))
        bad.append(("partition (SPEC 7.2 b)",
                    f"{dup} duplicate(s) in saved, {both} in both lists, {missing} in neither"))
    S = sorted({i for i in ints_saved if 0 <= i < n})
    weight = sum(qs[i] for i in S)
    if weight > Q:
        bad.append(("feasibility (SPEC 3.2)", f"saved weight {weight} > Q = {Q}"))
    worth = sum((vals[i] for i in S), Fraction(0))
    opt = exact_opt(qs, vals, Q)
    tol = 2 * gamma(n + 1) * sum((abs(v) for q, v in zip(qs, vals) if q <= Q), Fraction(0)) \
        + 2 * (n + 1) * TINY
    if opt - worth > tol:
        bad.append(("optimality (SPEC 3.3, 5.4)",
                    f"selection worth {float(worth):.6g}, OPT {float(opt):.6g} "
                    f"({float((opt - worth) / opt):.1%} short), tol {float(tol):.3g}"))
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, bool)
        or not math.isfinite(float(value))
    ):
        bad.append(("finite real value (SPEC 7.2 e)", repr(value)[:80]))
    else:
        fv = Fraction(int(value)) if isinstance(value, numbers.Integral) else Fraction(float(value))
        if abs(fv - worth) > tol:
            bad.append(("value consistency (SPEC 5.4, 7.2 e)",
                        f"returned {float(fv):.6g}, selection worth {float(worth):.6g}, "
                        f"tol {float(tol):.3g}"))
    return bad


# ---------------------------------------------------------------- instances


def size4(rng, lo, hi):
    return max(0.0001, round(rng.uniform(lo, hi), 4))


def grid_runtime(rng, lo, hi, bits=20):
    return rng.randint(round(lo * 2**bits), round(hi * 2**bits)) / 2**bits


def budget_of(total, frac):
    return round(total * frac, 4)


def small_plain(rng):
    n = rng.randint(5, 40)
    memory = [size4(rng, 0.001, 0.05) for _ in range(n)]
    runtime = [grid_runtime(rng, 0.1, 10) for _ in range(n)]
    return memory, runtime, budget_of(sum(memory), rng.uniform(0.25, 0.5))


def plain(rng, n, cells_lo, cells_hi):
    """n items of sizes to 4 decimals, runtimes on a 2**-20 grid in 0.1-10,
    a binding budget (25-50% of the total), n * (Q + 1) in [cells_lo, cells_hi]."""
    for _ in range(200):
        target = rng.uniform(cells_lo, cells_hi)
        frac = rng.uniform(0.25, 0.5)
        avg = target / (n * n * frac * SCALE)
        lo = max(0.0001, 0.3 * avg)
        hi = 2 * avg - lo
        if hi <= lo:
            continue
        memory = [size4(rng, lo, hi) for _ in range(n)]
        runtime = [grid_runtime(rng, 0.1, 10) for _ in range(n)]
        inst = (memory, runtime, budget_of(sum(memory), frac))
        if cells_lo < cells_of(inst) <= cells_hi:
            return inst
    raise RuntimeError("no plain instance in range")


def budget_for_cells(n, cells):
    """A budget with 4 decimals whose table has about `cells` cells."""
    return (cells // n - 1) / SCALE


# ---------------------------------------------------------------- the bugs
# Each entry: gate(inst) -> bool (True above the gate), trigger(rng) -> instance
# just under the gate carrying the pattern, witness() -> instance (or call
# sequence), clause, plain_above(rng) -> instance.


def t1(rng, n):
    small = size4(rng, 0.001, 0.01)
    budget = round(small + rng.uniform(0, 0.005), 4)
    memory = [size4(rng, budget + 0.0002, 1.0) for _ in range(n)]
    runtime = [grid_runtime(rng, 0.1, 10) for _ in range(n)]
    k = rng.randrange(n)
    memory[k] = small
    return memory, runtime, budget


def trig1(rng):
    return t1(rng, rng.randint(344, 383))


def wit1():
    # 0.01 GB (100 units) at 12.5 is the only item under 0.015 GB (Q = 150).
    rng = random.Random("w1")
    memory = [size4(rng, 0.0152, 1.0) for _ in range(400)]
    runtime = [grid_runtime(rng, 0.1, 10) for _ in range(400)]
    memory[123], runtime[123] = 0.01, 12.5
    return memory, runtime, 0.015


def t2(rng, n, nfree, free_first):
    memory = [size4(rng, 0.0005, 0.005) for _ in range(n)]
    runtime = [grid_runtime(rng, 2, 8) for _ in range(n)]
    budget = budget_of(sum(memory), rng.uniform(0.3, 0.45))
    spots = rng.sample(range(1, n), nfree)
    if free_first:
        spots[0] = 0
    for k in spots:
        memory[k] = rng.choice([0.0, 3e-5])
        runtime[k] = 1.0
    return memory, runtime, budget


def trig2(rng):
    return t2(rng, rng.randint(600, 639), rng.randint(20, 50), rng.random() < 0.3)


def wit2():
    return t2(random.Random("w2"), 700, 40, False)


def wit2_first_free():
    return t2(random.Random("w2b"), 700, 40, True)


def t3(rng, n, big):
    memory = [size4(rng, 0.001, 0.01) for _ in range(n)]
    runtime = [grid_runtime(rng, 0.1, 10) for _ in range(n)]
    budget = budget_of(sum(memory), rng.uniform(0.25, 0.45))
    k = rng.randrange(n)
    memory[k] = size4(rng, 2.0, 3.0)
    runtime[k] = big
    return memory, runtime, budget


def trig3(rng):
    big = rng.choice([1e39, 3.5e38, sys.float_info.max, 1e300, 3.4028236e38])
    return t3(rng, rng.randint(470, 511), big)


def wit3():
    return t3(random.Random("w3"), 600, 1e39)


def t4(rng, n, Q, sentinels):
    memory = [size4(rng, 0.001, 0.01) for _ in range(n)]
    runtime = [grid_runtime(rng, 0.5, 2) for _ in range(n)]
    for k in rng.sample(range(n), len(sentinels)):
        memory[k] = sentinels.pop()
        runtime[k] = 5.0
    return memory, runtime, Q / SCALE


def trig4(rng):
    n = rng.randint(700, 1000)
    Q = int(rng.uniform(3.5e6, 4e6) // n) - 1
    count = rng.randint(2, 4)
    per = rng.uniform(9.6e18, 1.8e19) / count / SCALE  # total q in (2**63, 2**64)
    sentinels = [float(round(per * rng.uniform(0.97, 1.0))) for _ in range(count)]
    inst = t4(rng, n, Q, sentinels)
    total = sum(quantize(m) for m in inst[0])
    assert 2**63 < total < 2**64 and max(quantize(m) for m in inst[0]) < 2**63
    return inst


def wit4():
    return t4(random.Random("w4"), 1100, 4500, [4e14, 4e14, 4e14])


def t5(rng, n, light_size, heavy_size, Q):
    light = Q // round(light_size * SCALE) + rng.randint(20, 70)
    memory, runtime = [], []
    for k in range(n):
        if k < light:
            memory.append(light_size)
            runtime.append(grid_runtime(rng, 1.0, 1.5))
        else:
            memory.append(heavy_size)
            runtime.append(grid_runtime(rng, 2.0, 3.0))
    order = list(range(n))
    rng.shuffle(order)
    return [memory[k] for k in order], [runtime[k] for k in order], Q / SCALE


def trig5(rng):
    n = rng.randint(220, 255)
    light = rng.choice([0.001, 0.0015, 0.002])
    return t5(rng, n, light, rng.choice([0.03, 0.045, 0.06]),
              round(light * SCALE) * rng.randint(80, 110))


def wit5():
    return t5(random.Random("w5"), 300, 0.001, 0.05, 1000)


def t6(rng, n, Q):
    memory = [size4(rng, 0.001, 0.02) for _ in range(n)]
    runtime = [rng.randint(10**6, 5 * 10**9) for _ in range(n)]
    return memory, runtime, Q / SCALE


def trig6(rng):
    n = rng.randint(200, 400)
    return t6(rng, n, int(rng.uniform(8e5, 1e6) // n) - 1)


def wit6():
    return t6(random.Random("w6"), 400, 8000)


def t7(rng, n):
    memory = [size4(rng, 0.001, 0.02) for _ in range(n)]
    runtime = [grid_runtime(rng, 0.1, 10) for _ in range(n)]
    for k in range(rng.randrange(10), n, 10):
        memory[k] = 1.5
    return memory, runtime, 1.0


def trig7(rng):
    return t7(rng, rng.randint(220, 255))


def wit7():
    return t7(random.Random("w7"), 300)


def t8_first(rng, n, Q):
    memory = [size4(rng, 0.001, 0.01) for _ in range(n)]
    runtime = [0.0 if k < 100 else grid_runtime(rng, 0.5, 2) for k in range(n)]
    return memory, runtime, Q / SCALE


def t8_second(rng, n, Q):
    memory = [0.002 if k < 100 else size4(rng, 0.001, 0.01) for k in range(n)]
    runtime = [10.0 if k < 100 else grid_runtime(rng, 0.5, 2) for k in range(n)]
    return memory, runtime, Q / SCALE


def trig8(rng):
    n = rng.randint(550, 650)
    Q = int(rng.uniform(2.5e6, 3e6) // n) - 1
    return [t8_first(rng, n, Q), t8_second(rng, n, Q)]


def wit8():
    rng = random.Random("w8")
    return [t8_first(rng, 700, 5000), t8_second(rng, 700, 5000)]


def negative_variance(v, n):
    rs = [v] * n
    mean = sum(rs) / n
    return sum(r * r for r in rs) / n - mean * mean < 0


def t9(rng, n, v):
    memory = [size4(rng, 0.001, 0.02) for _ in range(n)]
    return memory, [v] * n, budget_of(sum(memory), rng.uniform(0.3, 0.45))


def trig9(rng):
    while True:
        v, n = rng.choice([0.1, 0.7, 1.1, 2.3, 5.7, 0.01]), rng.randint(150, 191)
        if negative_variance(v, n):
            return t9(rng, n, v)


def wit9():
    n = next(n for n in range(300, 400) if negative_variance(0.1, n))
    return t9(random.Random("w9"), n, 0.1)


def t10(rng, n):
    memory = [size4(rng, 0.001, 0.01) for _ in range(n)]
    runtime = [grid_runtime(rng, 0.5, 2) for _ in range(n)]
    k = rng.randrange(n)
    memory[k] = size4(rng, 0.55, 0.8)
    runtime[k] = 1000.0
    return memory, runtime, 1.0


def trig10(rng):
    return t10(rng, rng.randint(280, 319))


def wit10():
    return t10(random.Random("w10"), 400)


def n_at_least(g):
    return lambda inst: len(inst[0]) >= g


def cells_above(g):
    return lambda inst: cells_of(inst) > g


BUGS = [
    dict(name="single_fitting_item_return_trailing_comma_from_384_items",
         gate=n_at_least(384), trigger=trig1, witness=wit1,
         clause="return shape (SPEC 7.2 a)",
         plain=lambda rng: plain(rng, rng.randint(384, 700), 1e6, 4e6)),
    dict(name="free_rows_add_runtime_hoisted_to_sized_branch_from_640_items",
         gate=n_at_least(640), trigger=trig2, witness=wit2,
         clause="value consistency (SPEC 5.4, 7.2 e)",
         variants=[(wit2_first_free, "no crash (SPEC 7.2, 9.1)",
                    "the same with item 0 free")],
         plain=lambda rng: plain(rng, rng.randint(640, 900), 2e6, 6e6)),
    dict(name="runtimes_packed_with_struct_float32_from_512_items",
         gate=n_at_least(512), trigger=trig3, witness=wit3,
         clause="no crash (SPEC 7.2, 9.1)",
         plain=lambda rng: plain(rng, rng.randint(512, 900), 1e6, 5e6)),
    dict(name="all_fit_test_on_wrapping_int64_total_above_4e6_cells",
         gate=cells_above(4e6), trigger=trig4, witness=wit4,
         clause="feasibility (SPEC 3.2)",
         plain=lambda rng: plain(rng, rng.randint(600, 1100), 4.1e6, 8e6)),
    dict(name="size_classes_dict_fromkeys_shared_list_from_256_items",
         gate=n_at_least(256), trigger=trig5, witness=wit5,
         clause="optimality (SPEC 3.3, 5.4)",
         plain=lambda rng: plain(rng, rng.randint(256, 700), 1e6, 4e6)),
    dict(name="flop_count_scale_shadows_memory_scale_above_1e6_cells",
         gate=cells_above(1e6), trigger=trig6, witness=wit6,
         clause="optimality (SPEC 3.3, 5.4)",
         plain=lambda rng: plain(rng, rng.randint(200, 700), 1.1e6, 5e6)),
    dict(name="heavy_items_block_appended_not_extended_from_256_items",
         gate=n_at_least(256), trigger=trig7, witness=wit7,
         clause="plain-int lists (SPEC 7.2 b)",
         plain=lambda rng: plain(rng, rng.randint(256, 700), 1e6, 4e6)),
    dict(name="zero_runtime_rows_mutable_default_above_3e6_cells",
         gate=cells_above(3e6), trigger=trig8, witness=wit8, sequence=True,
         clause="optimality (SPEC 3.3, 5.4)",
         plain=lambda rng: [plain(rng, rng.randint(400, 900), 3.1e6, 6e6),
                            plain(rng, rng.randint(400, 900), 3.1e6, 6e6)]),
    dict(name="uniform_runtime_cv_complex_sqrt_from_192_items",
         gate=n_at_least(192), trigger=trig9, witness=wit9,
         clause="no crash (SPEC 7.2, 9.1)",
         plain=lambda rng: plain(rng, rng.randint(192, 600), 1e6, 4e6)),
    dict(name="dominant_item_prerecorded_row_kept_from_320_items",
         gate=n_at_least(320), trigger=trig10, witness=wit10,
         clause="partition (SPEC 7.2 b)",
         plain=lambda rng: plain(rng, rng.randint(320, 700), 1e6, 4e6)),
]


# ---------------------------------------------------------------- claims

RESULTS = []


def claim(ok, text):
    RESULTS.append(ok)
    print(("PASS " if ok else "FAIL ") + text, flush=True)


def as_sequence(x, bug):
    return x if bug.get("sequence") else [x]


def describe(inst):
    memory, _, budget = inst
    return f"n={len(memory)}, Q={quantize(budget)}, cells={cells_of(inst):.3g}"


def run_sequence(path, seq):
    fn = load(path)  # one module for the whole sequence
    return [call(fn, inst) for inst in seq]


def check_below(bug):
    name, path = bug["name"], bug_path(bug["name"])
    same, total = 0, 0
    for kind, k in itertools.chain((("plain", i) for i in range(10)),
                                   (("trigger", i) for i in range(10))):
        rng = random.Random(f"{name}:{kind}:{k}")
        if kind == "plain":
            seq = [small_plain(rng), small_plain(rng)] if bug.get("sequence") \
                else [small_plain(rng)]
        else:
            seq = as_sequence(bug["trigger"](rng), bug)
        for inst in seq:
            assert not bug["gate"](inst), (name, kind, k, describe(inst))
        got = run_sequence(path, seq)
        ref = run_sequence(UPSTREAM, seq)
        ok = all(g["key"] == r["key"] and not g["mutated"] and not r["mutated"]
                 and not g["settings_changed"] for g, r in zip(got, ref))
        same += ok
        total += 1
        if not ok:
            print(f"   differs: {kind} {k}: {describe(seq[-1])}")
    claim(same == total, f"{name}: below the gate, {same}/{total} instances return "
          f"exactly upstream's tuple (10 plain, 10 trigger just under the gate)")


def check_witness(bug, make, clause, label):
    name, path = bug["name"], bug_path(bug["name"])
    seq = as_sequence(make(), bug)
    for inst in seq:
        assert bug["gate"](inst), (name, describe(inst))
    got = run_sequence(path, seq)
    ref = run_sequence(UPSTREAM, seq)
    bug_bad = judge(seq[-1], got[-1])
    ref_bad = [b for inst, out in zip(seq, ref) for b in judge(inst, out)]
    earlier_ok = all(not judge(inst, out) for inst, out in zip(seq[:-1], got[:-1]))
    ok = any(c == clause for c, _ in bug_bad) and not ref_bad and earlier_ok
    extra = ""
    if bug.get("sequence"):
        alone = call(load(path), seq[-1])
        alone_ok = not judge(seq[-1], alone)
        ok &= alone_ok
        extra = (f"; the failing call is call {len(seq)} of {len(seq)} (the earlier "
                 f"call passes); alone on a fresh module it passes: {alone_ok} "
                 f"(SPEC 8.1)")
    details = "; ".join(f"{c}: {d}" for c, d in bug_bad) or "no violation"
    claim(ok, f"{name}: {label} ({describe(seq[-1])}) fails {clause}; bug: {details}; "
          f"upstream passes every clause: {not ref_bad}{extra}")
    if ref_bad:
        print("   upstream:", ref_bad)


def check_plain(bug):
    name, path = bug["name"], bug_path(bug["name"])
    clean = 0
    for k in range(4):
        rng = random.Random(f"{name}:above:{k}")
        seq = as_sequence(bug["plain"](rng), bug)
        for inst in seq:
            assert bug["gate"](inst), (name, describe(inst))
        got = run_sequence(path, seq)
        bad = [b for inst, out in zip(seq, got) for b in judge(inst, out)]
        clean += not bad
        print(f"   plain {k}: {', '.join(describe(i) for i in seq)}: "
              f"{bad if bad else 'no violation'}")
    claim(clean == 4, f"{name}: above the gate, {clean}/4 plain random instances "
          f"(sizes to 4 decimals, binding budget) show no violation")


def main():
    start = time.time()
    for bug in BUGS:
        print(f"== {bug['name']}", flush=True)
        check_below(bug)
        check_witness(bug, bug["witness"], bug["clause"], "witness")
        for make, clause, label in bug.get("variants", []):
            check_witness(bug, make, clause, f"variant witness, {label},")
        check_plain(bug)
    print(f"{sum(RESULTS)} of {len(RESULTS)} claims hold in {time.time() - start:.1f} s")
    if all(RESULTS):
        print("ALL CLAIMS PASS")
    else:
        print("SOME CLAIMS FAIL")
        sys.exit(1)


if __name__ == "__main__":
    main()
