"""Evidence for the blind4 corpus.

For each bug: (a) a witness above the gate where the bug is wrong and upstream
is right, (b) 30 seeded random instances below the gate where the bug returns
exactly upstream's value, (c) 3 plain random instances above the gate
(informative: the bug should be right there).

Exact checker: q = round(m * 10000) (knapsack_audit.reference.quantize),
runtimes scaled to integers with fractions.Fraction, exact integer DP (numpy
int64, or Python ints on overflow) for the optimum; a returned selection is
judged by its exact quantized weight and exact runtime sum.
Run: OMP_NUM_THREADS=1 nice -n 19 python witnesses.py [bug-name ...]
"""
import importlib.util
import math
import os
import random
import sys
import time
import traceback
from fractions import Fraction

import numpy as np
import torch

torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))
try:
    from knapsack_audit.reference import quantize
except Exception:  # pragma: no cover
    def quantize(v):
        return round(v * 10000)


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


upstream = load(os.path.join(HERE, "upstream_dp_knapsack.py"), "upstream")

REL = 1e-3


# ---------------------------------------------------------------- exact check
def exact_opt(memory, runtime, max_memory):
    """Exact optimum (Fraction) over quantized weights; runtimes >= 0."""
    q = [quantize(m) for m in memory]
    Q = quantize(max_memory)
    fr = [Fraction(r) for r in runtime]
    L = 1
    for f in fr:
        L = L * f.denominator // math.gcd(L, f.denominator)
    v = [int(f * L) for f in fr]
    if Q < 0:
        return Fraction(0)
    if sum(abs(x) for x in v) < 2**62:
        best = np.zeros(Q + 1, dtype=np.int64)
    else:
        best = np.zeros(Q + 1, dtype=object)
    for w, x in zip(q, v):
        if x <= 0:
            continue
        if w == 0:
            best = best + x
        elif w <= Q:
            cand = best[: Q + 1 - w] + x
            best[w:] = np.maximum(best[w:], cand)
    return Fraction(int(best[Q]), L)


def judge(memory, runtime, max_memory, res, opt):
    """List of failed properties for a returned result."""
    n = len(memory)
    if isinstance(res, BaseException):
        return [f"crash: {type(res).__name__}: {str(res)[:60]}"]
    value, saved, rec = res
    fails = []
    if sorted(list(saved) + list(rec)) != list(range(n)):
        fails.append(
            f"partition (saved {len(saved)}/{len(set(saved))} distinct, rec {len(rec)}, n {n})"
        )
    sset = set(i for i in saved if isinstance(i, int) and 0 <= i < n)
    w = sum(quantize(memory[i]) for i in sset)
    Q = quantize(max_memory)
    if w > Q:
        fails.append(f"over budget (weight {w} > Q {Q})")
    got = sum((Fraction(runtime[i]) for i in sset), Fraction(0))
    if got < opt * (1 - Fraction(REL)):
        fails.append(f"suboptimal ({float(got):.6g} < opt {float(opt):.6g})")
    if abs(Fraction(float(value)) - got) > Fraction(REL) * max(opt, got) + Fraction(1, 10**12):
        fails.append(f"value (reported {float(value):.6g}, saved set {float(got):.6g})")
    return fails


def run(fn, args):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001
        return e


# ---------------------------------------------------------------- generators
def dy(rng, bits=20):
    """random positive dyadic runtime in (0, 1]"""
    return rng.randint(1, 2**bits) / 2**bits


def plain(rng, n, cells_lo=0, cells_hi=2e6, qmax=None, frac_hi=0.95):
    """random memories in (0, 0.1), random runtimes, budget = a random fraction
    of the total, chosen so that n*(Q+1) lies in [cells_lo, cells_hi]."""
    memory = [rng.uniform(1e-6, 0.1) for _ in range(n)]
    runtime = [dy(rng) for _ in range(n)]
    total = sum(memory)
    lo = max(0.0, (cells_lo / n) / 10000 / total)
    hi = min(frac_hi, (cells_hi / n - 1) / 10000 / total)
    if qmax is not None:
        hi = min(hi, (qmax - 1) / 10000 / total)
    if lo > hi:  # cells_lo not reachable with a budget below the total
        lo = hi / 2
    frac = rng.uniform(lo, hi) if lo < hi else lo
    return memory, runtime, frac * total


def kinds(rng, n, k, mem_hi=0.1, per_item_runtime=False):
    """n items in k distinct random kinds (exact copies), shuffled"""
    km = [rng.uniform(1e-6, mem_hi) for _ in range(k)]
    kr = [dy(rng) for _ in range(k)]
    ids = [i % k for i in range(n)]
    rng.shuffle(ids)
    memory = [km[t] for t in ids]
    runtime = [dy(rng) if per_item_runtime else kr[t] for t in ids]
    return memory, runtime


def cells(memory, B):
    return len(memory) * (quantize(B) + 1)


# ---------------------------------------------------------------- witnesses
def w_dantzig():
    memory = [0.00026] * 10 + [0.05] * 90
    runtime = [1.0] * 10 + [2.0**-7] * 90
    used = 0.0
    for m in memory[:10]:
        used += m
    return memory, runtime, used


def w_unit_division():
    return [0.00155] * 500, [1.0] * 500, 0.15


def w_f32_group():
    a = 0.00025
    b = math.nextafter(a, 1.0)
    return [a] * 100 + [b] * 100, [1.0] * 200, 0.03


def w_size_buffer():
    return [0.0001] * 300 + [0.0005] * 100, [1.0] * 400, 0.03


def w_half_width():
    # q = 1001 for every item: 0.1% rounding slack allows g = 2 (1001 -> 1002),
    # but ten items pack the budget Q = 10010 exactly.
    return [0.1001] * 2000, [1.0] * 2000, 1.001


def w_int16():
    rng = random.Random(6)
    memory = [rng.uniform(1e-6, 0.1) for _ in range(199)]
    runtime = [dy(rng) for _ in range(199)]
    memory.insert(50, 6.5538)  # q = 65538, int16 wraps to 2
    runtime.insert(50, 100.0)
    return memory, runtime, 2.0


def w_negligible():
    memory = [5.0] + [0.0001] * 100
    runtime = [1.0] + [2.0**-26] * 100
    return memory, runtime, 0.005


def w_size_prune():
    memory = [0.0104] * 101 + [0.0111] * 5 + [0.09] * 494
    runtime = [1.0] * 101 + [0.875] * 5 + [2.0**-10] * 494
    return memory, runtime, 1.11


def w_sorted_dict():
    rng = random.Random(9)
    memory, runtime = kinds(rng, 1500, 20, mem_hi=0.01)
    return memory, runtime, 0.25 * sum(memory)


def w_width_cap():
    rng = random.Random(10)
    memory = [rng.uniform(1e-6, 0.01) for _ in range(300)]
    runtime = [dy(rng) for _ in range(300)]
    return memory, runtime, 1.5 * sum(memory)


# ---------------------------------------------------------------- below / above
def below_n(gate, cells_hi=1e6):
    def gen(rng):
        n = rng.randint(2, gate - 1)
        return plain(rng, n, cells_hi=max(cells_hi, 4 * n))
    return gen


def above_n(ns, cells_hi=6e6):
    def gen(rng, k):
        return plain(rng, ns[k], cells_hi=cells_hi)
    return gen


def below_cells(gate, qmax=None):
    def gen(rng):
        n = rng.randint(2, 400)
        return plain(rng, n, cells_lo=min(gate / 2, 1e5), cells_hi=gate, qmax=qmax)
    return gen


def above_cells(specs, qmax=None):
    def gen(rng, k):
        n, lo, hi = specs[k]
        return plain(rng, n, cells_lo=lo, cells_hi=hi, qmax=qmax)
    return gen


def below_f32_group(rng):
    # plain random, half of them with fewer than 64 exact copies mixed in
    n = rng.randint(2, 300)
    memory, runtime, _ = plain(rng, n)
    if rng.random() < 0.5:
        extra = rng.randint(1, 63)
        memory += [memory[0]] * extra
        runtime += [runtime[0]] * extra
    B = rng.uniform(0.05, 0.9) * sum(memory)
    if cells(memory, B) > 2e6:
        B = (2e6 / len(memory) - 1) / 10000
    return memory, runtime, B


def above_f32_group(rng, k):
    n = [200, 500, 900][k]
    memory, runtime = kinds(rng, n, [10, 40, 60][k])
    B = rng.uniform(0.05, 0.9) * sum(memory)
    if cells(memory, B) > 6e6:
        B = (6e6 / n - 1) / 10000
    return memory, runtime, B


def below_size_buffer(rng):
    if rng.random() < 0.5:  # few sizes, but fewer than 256 items
        n = rng.randint(2, 255)
        memory, runtime = kinds(rng, n, rng.randint(1, 10), per_item_runtime=True)
    else:  # 256+ items, many sizes
        n = rng.randint(256, 600)
        memory, runtime, _ = plain(rng, n)
    B = rng.uniform(0.05, 0.9) * sum(memory)
    if cells(memory, B) > 2e6:
        B = (2e6 / len(memory) - 1) / 10000
    return memory, runtime, B


def above_size_buffer(rng, k):
    n = [300, 600, 1000][k]
    memory, runtime = kinds(rng, n, [6, 10, 16][k], per_item_runtime=True)
    B = rng.uniform(0.05, 0.9) * sum(memory)
    if cells(memory, B) > 6e6:
        B = (6e6 / n - 1) / 10000
    return memory, runtime, B


def below_negligible(rng):
    n = rng.randint(2, 400)
    memory, runtime, B = plain(rng, n)
    if rng.random() < 0.5:  # fewer than 64 negligible items
        extra = rng.randint(1, 63)
        memory += [rng.uniform(1e-6, 0.1) for _ in range(extra)]
        runtime += [2.0**-40] * extra
    return memory, runtime, B


def above_negligible(rng, k):
    n = [200, 500, 1000][k]
    memory, runtime, B = plain(rng, n, cells_hi=3e6)
    extra = [64, 100, 300][k]
    memory += [rng.uniform(1e-6, 0.1) for _ in range(extra)]
    runtime += [2.0**-40] * extra
    return memory, runtime, B


BUGS = [
    ("dantzig_exact_fill_from_96_items", w_dantzig, below_n(96),
     above_n([100, 400, 900])),
    ("vectorized_unit_division_quantize_from_500_items", w_unit_division, below_n(500),
     above_n([500, 900, 1400])),
    ("float32_key_copy_grouping_from_64_copies", w_f32_group, below_f32_group,
     above_f32_group),
    ("size_class_buffer_256_from_256_items", w_size_buffer, below_size_buffer,
     above_size_buffer),
    ("coarse_columns_above_2e7_cells", w_half_width, below_cells(4e6),
     above_cells([(1000, 2.1e7, 2.6e7), (2000, 2.1e7, 2.6e7), (700, 2.1e7, 2.6e7)])),
    ("int16_weights_above_3e6_cells", w_int16, below_cells(3e6),
     above_cells([(200, 3.1e6, 6e6), (400, 3.1e6, 8e6), (1000, 3.1e6, 1.2e7)], qmax=32766)),
    ("negligible_runtime_prefilter_from_64_items", w_negligible, below_negligible,
     above_negligible),
    ("size_class_prune_from_600_items", w_size_prune, below_n(600),
     above_n([600, 1200, 2000], cells_hi=1e7)),
    ("sorted_items_dict_unmap_from_1500_items", w_sorted_dict, below_n(1500, cells_hi=2e6),
     above_n([1500, 2200, 3000], cells_hi=1e7)),
    ("table_width_capped_at_total_above_6e6_cells", w_width_cap, below_cells(6e6),
     above_cells([(300, 6.1e6, 8e6), (600, 6.1e6, 1e7), (1000, 6.1e6, 1.2e7)])),
]


def main(argv):
    ok_all = True
    for b, (name, witness, below, above) in enumerate(BUGS):
        if argv and name not in argv:
            continue
        t0 = time.time()
        bug = load(os.path.join(HERE, "bugs", name + ".py"), name)
        # (a) witness
        args = witness()
        opt = exact_opt(*args)
        fb = judge(*args, run(bug, args), opt)
        fu = judge(*args, run(upstream, args), opt)
        a_ok = bool(fb) and not fu
        wit = f"n={len(args[0])} Q={quantize(args[2])} cells={cells(args[0], args[2]):.3g}"
        # (b) below the gate: identical to upstream
        rng = random.Random(1000 + b)
        same = 0
        bsz = []
        for _ in range(30):
            inst = below(rng)
            bsz.append((len(inst[0]), cells(inst[0], inst[2])))
            rb = run(bug, inst)
            ru = run(upstream, inst)
            if not isinstance(rb, BaseException) and not isinstance(ru, BaseException) and rb == ru:
                same += 1
        b_ok = same == 30
        # (c) plain random above the gate
        rng = random.Random(2000 + b)
        right = 0
        cfails = []
        asz = []
        for k in range(3):
            inst = above(rng, k)
            asz.append(f"{len(inst[0])}/{cells(inst[0], inst[2]):.2g}")
            f = judge(*inst, run(bug, inst), exact_opt(*inst))
            if not f:
                right += 1
            else:
                cfails.append(f[0])
        ok = a_ok and b_ok
        ok_all &= ok
        print(
            f"{'OK ' if ok else 'BAD'} {name}: (a) witness {wit}: bug fails "
            f"[{'; '.join(fb) if fb else 'none'}], upstream {'right' if not fu else 'WRONG ' + '; '.join(fu)}"
            f" | (b) below gate identical {same}/30 (max n {max(x[0] for x in bsz)},"
            f" max cells {max(x[1] for x in bsz):.2g})"
            f" | (c) above gate right {right}/3 (n/cells {', '.join(asz)})"
            + (f" [{'; '.join(cfails)}]" if cfails else "")
            + f" | {time.time() - t0:.1f}s",
            flush=True,
        )
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
