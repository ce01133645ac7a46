"""Witnesses for the blind14 corpus.

For each bug: (a) one instance above its gate on which upstream is correct
and the bug violates a clause of SPEC (feasibility 3.2, optimality 3.3/5.4
with a shortfall > 1e-3 of OPT, value consistency 7.2(e), partition 7.2(b));
(b) 20 seeded instances below the gate (the first 10 carrying the trigger
pattern) on which the bug returns exactly upstream's tuple (same repr).
Every claim loads the bug (and upstream) as a fresh module.
"""

import importlib.util
import itertools
import math
import random
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, "/work/main")
from reference import exact_optimum, quantize  # noqa: E402

HERE = Path(__file__).resolve().parent
UPSTREAM = HERE.parent / "upstream_dp_knapsack.py"
_counter = itertools.count()


def load(path):
    name = f"_w14_{Path(path).stem}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


def tolerance(memory, runtime, max_memory):
    n = len(memory)
    u = 2.0**-24
    k = (n + 1) * u
    gamma = k / (1 - k)
    Q = quantize(float(max_memory))
    s = sum(abs(Fraction(float(r))) for m, r in zip(memory, runtime) if quantize(float(m)) <= Q)
    return 2 * Fraction(gamma) * s + 2 * (n + 1) * Fraction(2) ** -149


def violations(memory, runtime, max_memory, res):
    n = len(memory)
    out = []
    value, saved, recomp = res
    idx = list(saved) + list(recomp)
    if not all(type(i) is int for i in idx) or sorted(idx) != list(range(n)):
        out.append("partition")
    saved_set = {i for i in saved if type(i) is int and 0 <= i < n}
    Q = quantize(float(max_memory))
    if sum(quantize(float(memory[i])) for i in saved_set) > Q:
        out.append("feasibility")
    opt = exact_optimum(memory, runtime, max_memory).value
    got = sum((Fraction(float(runtime[i])) for i in saved_set), Fraction(0))
    tol = tolerance(memory, runtime, max_memory)
    if opt - got > tol:
        out.append(f"optimality(short {float((opt - got) / opt) if opt else float('inf'):.4g} of OPT)"
                   if opt - got > Fraction(1, 1000) * opt else "optimality(small)")
    if abs(Fraction(float(value)) - got) > max(tol, Fraction(1, 1000) * opt):
        out.append(f"value-consistency(returned {float(value):.6g}, selection {float(got):.6g})")
    return out


def same(a, b):
    return repr(a) == repr(b) and type(a) is type(b) and all(
        type(x) is type(y) for x, y in zip(a, b)
    )


# ---------------------------------------------------------------- instances
def rnd_items(rng, k, lo=0.001, hi=0.02, rlo=1.0, rhi=10.0):
    return ([rng.uniform(lo, hi) for _ in range(k)], [rng.uniform(rlo, rhi) for _ in range(k)])


def w_prefix(seed, n, trigger):
    rng = random.Random(seed)
    mem, rt = rnd_items(rng, n)
    if trigger:  # a sentinel size far beyond any budget (> 2**31 units)
        # above the gate it comes first (the graph's input placeholder); below
        # the gate anywhere
        mem[0 if n >= 1024 else rng.randrange(n)] = 300000.0
    return mem, rt, 0.2


def w_f16(seed, n, trigger):
    rng = random.Random(seed)
    if trigger:
        nf = n * 3 // 4
        mem = [0.0] * nf + [0.0001] * (n - nf)
        rt = [1.0] * n
        order = list(range(n))
        rng.shuffle(order)
        return [mem[i] for i in order], [rt[i] for i in order], 0.06
    mem, rt = rnd_items(rng, n)
    return mem, [float(round(r)) for r in rt], 0.2


def w_hash(seed, n, trigger):
    rng = random.Random(seed)
    k = n // 3
    mem, rt = rnd_items(rng, n - k)
    if trigger:
        mem += [0.1] * k
        rt += [1.0] * (k - 1) + [2.0**61]   # hash(2.0**61) == hash(1.0)
    else:
        mem += [0.1] * k
        rt += [1.0] * k
    return mem, rt, 0.2


def w_mb(seed, n, trigger):
    rng = random.Random(seed)
    if trigger:
        mem = [0.00295] * n
        rt = [rng.choice([1.0, 2.0]) for _ in range(n)]
        return mem, rt, 0.29
    mem, rt = rnd_items(rng, n)
    return mem, rt, 0.2


def w_paying(seed, n, trigger):
    rng = random.Random(seed)
    if trigger:
        k = n // 4
        mem, rt = rnd_items(rng, n - k, 0.001, 0.003, 1.0, 5.0)
        mem += [0.05] * k
        rt += [0.0] * k
        order = list(range(n))
        rng.shuffle(order)
        return [mem[i] for i in order], [rt[i] for i in order], 0.5 * (n - k) / 150 + 0.1
    mem, rt = rnd_items(rng, n)
    return mem, rt, 0.2


def w_signbit(seed, n, trigger):
    rng = random.Random(seed)
    mem, rt = rnd_items(rng, n)
    for i in rng.sample(range(n), 20):
        mem[i] = rng.choice([0.0, 3e-5])
    return mem, rt, (-0.0 if trigger else 0.2)


def w_lru(seed, n, trigger):
    rng = random.Random(seed)
    if trigger:
        v = np.float32(0.00025)
        mem = [v] + [float(v)] * (n - 1)
        rt = [0.0] + [rng.choice([1.0, 1.5]) for _ in range(n - 1)]
        return mem, rt, 0.03
    mem, rt = rnd_items(rng, n)
    return [np.float32(m) if i % 2 else m for i, m in enumerate(mem)], rt, 0.2


def w_copies(seed, n, trigger):
    rng = random.Random(seed)
    if trigger:
        a = 10
        mem = [0.02] * a + [0.01] * (n - a)
        rt = [1.5] * a + [1.0] * (n - a)
        return mem, rt, 0.02 + 0.01 * rng.randrange(0, 3)
    mem, rt = rnd_items(rng, n)
    return mem, rt, 0.2


def w_subunit(seed, n, trigger, nfree=100):
    rng = random.Random(seed)
    if trigger:
        mem = [4e-5] * nfree + [0.001] * (n - nfree)
        rt = [0.1] * nfree + [1.0] * (n - nfree)
        return mem, rt, 0.1
    mem, rt = rnd_items(rng, n)
    return mem, rt, 0.2


def w_rebase(seed, n, trigger):
    rng = random.Random(seed)
    # flop-count runtimes; zero-size items worth 2e6 flops each
    mem, rt = rnd_items(rng, n, rlo=1e5, rhi=1e6)
    if trigger:
        for i in range(10):
            mem[i], rt[i] = 0.0, 2e6
    return mem, rt, 0.2


BUGS = [
    # name, instance maker, witness (seed, n), below-gate sizes (lo, hi), gate kwargs for below
    ("prefix_weight_bound_int32_cumsum_from_1024_items", w_prefix, (1, 1100), (100, 1023), {}),
    ("small_integer_runtimes_float16_table_from_1536_items", w_f16, (1, 2600), (200, 1535), {}),
    ("copy_rows_capped_by_hash_key_from_256_items", w_hash, (1, 300), (60, 255), {}),
    ("sizes_scaled_via_mb_two_roundings_from_640_items", w_mb, (1, 700), (100, 639), {}),
    ("all_paying_items_fit_saves_zero_runtime_from_192_items", w_paying, (1, 200), (40, 191), {}),
    ("signbit_budget_skips_free_items_from_128_items", w_signbit, (1, 150), (30, 127), {}),
    ("size_units_lru_cache_conflates_numpy_float32_from_512_items", w_lru, (1, 601), (100, 511), {}),
    ("consecutive_copy_rows_masked_by_own_column_from_384_items", w_copies, (1, 400), (40, 383), {}),
    ("budget_charged_for_subunit_free_items_from_64_free", w_subunit, (1, 300), (100, 600), {"nfree": 63}),
    ("free_offset_rebased_every_512_rows_from_1024_items", w_rebase, (1, 1100), (100, 1023), {}),
]


def main():
    all_ok = True
    for name, maker, (wseed, wn), (lo, hi), below_kw in BUGS:
        path = HERE / f"{name}.py"
        print(f"== {name}")
        # (a) witness above the gate
        args = maker(wseed, wn, True)
        up = load(UPSTREAM)(*args)
        up_v = violations(*args, up)
        bug = load(path)(*args)
        bug_v = violations(*args, bug)
        ok_a = not up_v and bool(bug_v)
        all_ok &= ok_a
        print(f"  (a) witness n={len(args[0])}, Q={quantize(float(args[2]))}: upstream "
              f"{'correct' if not up_v else up_v}; bug violates {bug_v or 'nothing'}: "
              f"{'PASS' if ok_a else 'FAIL'}")
        # (b) 20 seeded instances below the gate
        rng = random.Random(1400 + len(name))
        n_same = 0
        for k in range(20):
            trigger = k < 10
            n = rng.randint(lo, hi)
            kw = below_kw if trigger else {}
            args = maker(1000 + k, n, trigger, **kw)
            a = load(UPSTREAM)(*args)
            b = load(path)(*args)
            if same(a, b):
                n_same += 1
            else:
                print(f"    differs: seed {1000 + k}, n={n}, trigger={trigger}")
        ok_b = n_same == 20
        all_ok &= ok_b
        print(f"  (b) below the gate: {n_same}/20 identical to upstream (10 with the trigger pattern): "
              f"{'PASS' if ok_b else 'FAIL'}")
    print("ALL CLAIMS PASS" if all_ok else "SOME CLAIMS FAIL")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
