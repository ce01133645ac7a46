"""Witnesses for the blind knapsack bug corpus in ./bugs.

For every bug module this checks three claims:
  witness   - on a hand-built instance above the bug's gate, the bug's answer
              fails the expected property (over budget / suboptimal /
              malformed / crash), while upstream's dp_knapsack is correct on
              the same instance;
  below     - on 30 random instances below the gate (seeded, built to contain
              the triggering pattern where that is possible below the gate)
              the bug agrees with the exact optimum;
  above     - (informative) on 3 plain random instances above the gate the bug
              is still correct, i.e. a naive random test would pass.

The exact checker solves the 0/1 knapsack on the quantized weights
(round(m * 10000), budget round(max_memory * 10000)) with an integer DP, after
scaling the runtimes to integers with their common denominator (runtimes are
dyadic rationals here, so Fraction gives them exactly); a returned selection is
judged by its exact quantized weight and its exact runtime sum (Fraction).

Run: python witnesses.py    (single process, well under 90 s on 2 cores)
"""

from __future__ import annotations

import importlib.util
import math
import os
import random
import sys
import time
from fractions import Fraction

import numpy as np

from torch._functorch._activation_checkpointing.knapsack import (
    dp_knapsack as upstream_dp_knapsack,
)

S = 10000
REL_TOL = 1e-3
HERE = os.path.dirname(os.path.abspath(__file__))


# --------------------------------------------------------------------------
# exact checker
# --------------------------------------------------------------------------
def quantize(memory, max_memory):
    return [round(m * S) for m in memory], round(max_memory * S)


def exact_optimum(memory, runtime, max_memory) -> Fraction:
    """Exact optimum of sum(runtime) over subsets with sum(q) <= Q."""
    q, Q = quantize(memory, max_memory)
    if Q < 0:
        raise ValueError("negative budget")
    fr = [Fraction(r) for r in runtime]
    D = 1
    for f in fr:
        D = D * f.denominator // math.gcd(D, f.denominator)
    vals = [int(f * D) for f in fr]
    base = 0
    items = []
    for w, v in zip(q, vals):
        if v <= 0:
            continue  # never worth saving (all test runtimes are > 0 anyway)
        if w <= 0:
            base += v
        elif w <= Q:
            items.append((w, v))
    total = sum(v for _, v in items) + base
    dtype = np.int64 if total < 2**62 else object
    dp = np.zeros(Q + 1, dtype=dtype)
    for w, v in items:
        dp[w:] = np.maximum(dp[w:], dp[:-w] + v)
    return Fraction(int(dp[Q]) + base, D)


def judge(fn, memory, runtime, max_memory):
    """Return 'ok', 'crash', 'malformed', 'over budget' or 'suboptimal'."""
    n = len(memory)
    try:
        res = fn(list(memory), list(runtime), max_memory)
        _, saved, recomp = res
        saved = [int(i) for i in saved]
        recomp = [int(i) for i in recomp]
    except Exception as e:  # noqa: BLE001
        return f"crash ({type(e).__name__}: {str(e)[:60]})"
    if sorted(saved + recomp) != list(range(n)):
        return "malformed"
    q, Q = quantize(memory, max_memory)
    used = sum(q[i] for i in saved)
    if used > Q:
        return f"over budget ({used} > {Q} units)"
    got = sum((Fraction(runtime[i]) for i in saved), Fraction(0))
    opt = exact_optimum(memory, runtime, max_memory)
    if opt - got > REL_TOL * abs(opt):
        return f"suboptimal ({float(got):.6g} < {float(opt):.6g})"
    return "ok"


def load(name):
    path = os.path.join(HERE, "bugs", name + ".py")
    spec = importlib.util.spec_from_file_location("bug_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


# --------------------------------------------------------------------------
# instance helpers (all runtimes dyadic so Fraction is exact and small)
# --------------------------------------------------------------------------
def dyadic(rng, lo=1, hi=4096, den=64):
    return rng.randint(lo, hi) / den


def plain_items(rng, n, qlo=1, qhi=500):
    mem = [rng.randint(qlo, qhi) / S for _ in range(n)]
    rt = [dyadic(rng) for _ in range(n)]
    return mem, rt


def noisy_items(rng, n):
    """Random float memories in [1e-4, 0.05] (not on the 1e-4 grid)."""
    mem = [rng.uniform(1e-4, 0.05) for _ in range(n)]
    rt = [dyadic(rng) for _ in range(n)]
    return mem, rt


def blocks(rng, n_blocks, per_block):
    """Repeated transformer-like blocks: per_block distinct items, n_blocks copies."""
    proto = [(rng.randint(1, 300) / S, dyadic(rng)) for _ in range(per_block)]
    mem, rt = [], []
    for _ in range(n_blocks):
        for m, r in proto:
            mem.append(m)
            rt.append(r)
    return mem, rt


def budget_frac(memory, frac):
    q, _ = quantize(memory, 0)
    return round(sum(q) * frac) / S


def shuffle_together(rng, *lists):
    idx = list(range(len(lists[0])))
    rng.shuffle(idx)
    return [[lst[i] for i in idx] for lst in lists]


def cells(memory, max_memory):
    return len(memory) * (round(max_memory * S) + 1)


# --------------------------------------------------------------------------
# per-bug definitions: gate(inst) -> bool, witness(), below(rng), above(rng)
# --------------------------------------------------------------------------
BUGS = []


def bug(name, expect):
    def deco(cls):
        cls.name = name
        cls.expect = expect
        BUGS.append(cls)
        return cls

    return deco


@bug("runtime_bucket_grouping_from_64_repeats", "suboptimal")
class RuntimeBucketGrouping:
    @staticmethod
    def gate(mem, rt, mm):
        keys = {(round(m * S), round(r, 4)) for m, r in zip(mem, rt)}
        return len(mem) - len(keys) >= 64

    @staticmethod
    def witness():
        # runtimes in seconds: 100 copies of one activation (q = 20) whose
        # profiled runtimes are 6.0e-5 s for half of them and 1.4e-4 s for the
        # other half; both bucket to 1e-4 at 4 decimals.
        rng = random.Random(11)
        mem = [0.002] * 100
        rt = [63 / 2**20] * 50 + [147 / 2**20] * 50
        for _ in range(40):
            mem.append(rng.randint(10, 200) / S)
            rt.append(rng.randint(50, 150) / 2**20)
        return mem, rt, 0.1

    @staticmethod
    def below(rng):
        # up to 60 redundant copies (exact and near-equal runtimes)
        nb = rng.randint(2, 6)
        pb = rng.randint(3, 10)
        mem, rt = blocks(rng, nb, pb)
        m2, r2 = plain_items(rng, rng.randint(5, 40))
        mem += m2
        rt += r2
        k = rng.randint(0, 20)  # near-equal small runtimes on one weight
        mem += [0.002] * k
        rt += [rng.choice([63, 147]) / 2**20 for _ in range(k)]
        mem, rt = shuffle_together(rng, mem, rt)
        return mem, rt, budget_frac(mem, rng.uniform(0.1, 0.9))

    @staticmethod
    def above(rng):
        mem, rt = blocks(rng, rng.randint(24, 48), rng.randint(3, 6))
        m2, r2 = plain_items(rng, 30)
        mem, rt = shuffle_together(rng, mem + m2, rt + r2)
        return mem, rt, budget_frac(mem, rng.uniform(0.1, 0.9))


@bug("vectorized_quantize_from_300_items", "over budget")
class VectorizedQuantize:
    @staticmethod
    def gate(mem, rt, mm):
        return len(mem) >= 300

    @staticmethod
    def witness():
        # 0.00035 * 10000 = 3.5000000000000004 in float64 (rounds to 4) but
        # float32(0.00035) * 10000 rounds to 3.
        rng = random.Random(12)
        mem = [0.00035] * 200
        rt = [1.0] * 200
        for _ in range(120):
            mem.append(rng.randint(20, 400) / S)
            rt.append(rng.randint(1, 16) / 64)
        mem, rt = shuffle_together(rng, mem, rt)
        return mem, rt, 0.06

    @staticmethod
    def below(rng):
        n = rng.randint(20, 299)
        mem, rt = noisy_items(rng, n)
        for i in rng.sample(range(n), min(n, rng.randint(0, 60))):
            mem[i] = rng.choice([0.00035, 0.00305, 0.00015, 0.00425])
        return mem, rt, rng.uniform(0.05, 0.5)

    @staticmethod
    def above(rng):
        mem, rt = noisy_items(rng, rng.randint(300, 500))
        return mem, rt, rng.uniform(0.1, 0.9)


@bug("free_item_split_from_40_free", "over budget")
class FreeItemSplit:
    @staticmethod
    def gate(mem, rt, mm):
        return sum(1 for m in mem if m * S < 1) >= 40

    @staticmethod
    def witness():
        # 60 activations of 7e-5: below one unit, but round(0.7) == 1 unit.
        rng = random.Random(13)
        mem = [0.00007] * 60 + [0.0] * 20
        rt = [dyadic(rng) for _ in range(80)]
        m2, r2 = plain_items(rng, 120, 1, 60)
        mem, rt = shuffle_together(rng, mem + m2, rt + r2)
        return mem, rt, 0.05

    @staticmethod
    def below(rng):
        mem, rt = plain_items(rng, rng.randint(10, 120), 1, 200)
        k = rng.randint(0, 39)  # fewer than 40 sub-unit items
        mem += [rng.choice([0.0, 0.00003, 0.00007, 0.00009]) for _ in range(k)]
        rt += [dyadic(rng) for _ in range(k)]
        mem, rt = shuffle_together(rng, mem, rt)
        return mem, rt, budget_frac(mem, rng.uniform(0.05, 0.6))

    @staticmethod
    def above(rng):
        mem, rt = plain_items(rng, rng.randint(100, 300), 1, 200)
        mem += [0.0] * 60  # true zero-weight items
        rt += [dyadic(rng) for _ in range(60)]
        mem, rt = shuffle_together(rng, mem, rt)
        return mem, rt, budget_frac(mem, rng.uniform(0.05, 0.6))


@bug("gcd_rescale_from_3e6_cells", "over budget")
class GcdRescale:
    @staticmethod
    def gate(mem, rt, mm):
        return cells(mem, mm) > 3_000_000

    @staticmethod
    def witness():
        # every weight is an even number of units, budget 9999 units (odd):
        # round(9999 / 2) == 5000 half-units == 10000 units.
        rng = random.Random(14)
        mem = [2 * rng.randint(1, 100) / S for _ in range(400)]
        rt = [dyadic(rng) for _ in range(400)]
        return mem, rt, 0.9999

    @staticmethod
    def below(rng):
        n = rng.randint(20, 150)
        g = rng.choice([1, 2, 5, 10])
        mem = [g * rng.randint(1, 100) / S for _ in range(n)]
        rt = [dyadic(rng) for _ in range(n)]
        mm = rng.choice([0.9999, 0.7771, 0.2223, 0.0999, 0.5557])
        return mem, rt, mm

    @staticmethod
    def above(rng):
        mem, rt = plain_items(rng, rng.randint(350, 450), 1, 100)
        return mem, rt, rng.choice([0.9999, 0.8887, 0.7771])


@bug("oversized_item_prefilter_from_120_items", "suboptimal")
class OversizedPrefilter:
    @staticmethod
    def gate(mem, rt, mm):
        return len(mem) >= 120

    @staticmethod
    def witness():
        # one activation exactly as big as the budget, worth more than any
        # combination of the others.
        rng = random.Random(15)
        mem, rt = plain_items(rng, 149, 100, 500)
        mem.append(0.1)
        rt.append(1000.0)
        mem, rt = shuffle_together(rng, mem, rt)
        return mem, rt, 0.1

    @staticmethod
    def below(rng):
        n = rng.randint(10, 119)
        mem, rt = plain_items(rng, n, 50, 500)
        mm = rng.randint(100, 600) / S
        Q = round(mm * S)
        for i in rng.sample(range(n), rng.randint(1, 3)):
            mem[i] = Q / S  # exactly the budget
            rt[i] = rng.randint(500, 2000) / 2
        return mem, rt, mm

    @staticmethod
    def above(rng):
        mem, rt = noisy_items(rng, rng.randint(120, 300))
        return mem, rt, rng.uniform(0.02, 0.3)


@bug("all_fit_shortcut_from_12e6_cells", "over budget")
class AllFitShortcut:
    @staticmethod
    def gate(mem, rt, mm):
        return cells(mem, mm) > 12_000_000

    @staticmethod
    def witness():
        # 1300 activations whose sizes all round *up* when quantized: the
        # float sum fits the budget, the quantized sum does not.
        rng = random.Random(16)
        mem = [(rng.randint(2, 12) + rng.uniform(0.55, 0.95)) / S for _ in range(1300)]
        rt = [dyadic(rng) for _ in range(1300)]
        mm = math.fsum(mem) + 1e-6
        return mem, rt, mm

    @staticmethod
    def below(rng):
        n = rng.randint(50, 600)
        mem = [(rng.randint(2, 12) + rng.uniform(0.55, 0.95)) / S for _ in range(n)]
        rt = [dyadic(rng) for _ in range(n)]
        mm = math.fsum(mem) + 1e-6 if rng.random() < 0.5 else rng.uniform(0.5, 1.5) * sum(mem)
        return mem, rt, mm

    @staticmethod
    def above(rng):
        mem, rt = noisy_items(rng, 1300)
        mem = [m / 5 for m in mem]
        return mem, rt, math.fsum(mem) * rng.uniform(0.95, 1.3)


@bug("tolerant_backtrack_from_400_items", "suboptimal")
class TolerantBacktrack:
    @staticmethod
    def gate(mem, rt, mm):
        return len(mem) >= 400

    @staticmethod
    def witness():
        # 100 expensive matmul-like items and 1000 cheap pointwise items whose
        # runtime is 5e-6 of the total each (5e-3 of it together).
        rng = random.Random(17)
        mem = [0.005] * 100 + [0.0001] * 1000
        rt = [2000.0] * 100 + [1.0] * 1000
        mem, rt = shuffle_together(rng, mem, rt)
        return mem, rt, 0.6

    @staticmethod
    def below(rng):
        nb = rng.randint(5, 100)
        nt = rng.randint(0, 399 - nb)
        mem = [rng.randint(20, 80) / S for _ in range(nb)] + [0.0001] * nt
        rt = [2000.0] * nb + [1.0] * nt
        mem, rt = shuffle_together(rng, mem, rt)
        return mem, rt, budget_frac(mem, rng.uniform(0.3, 1.0))

    @staticmethod
    def above(rng):
        mem, rt = plain_items(rng, rng.randint(400, 500), 1, 100)
        rt = [rng.randint(64, 4096) / 64 for _ in mem]
        return mem, rt, budget_frac(mem, rng.uniform(0.1, 0.9))


@bug("int32_table_for_integer_runtimes_from_8e6_cells", "suboptimal")
class Int32Table:
    @staticmethod
    def gate(mem, rt, mm):
        return cells(mem, mm) > 8_000_000

    @staticmethod
    def witness():
        # flops-style runtimes (multiples of 2**20, ~1e8 each): any 12+ saved
        # items overflow int32.
        rng = random.Random(18)
        mem, _ = plain_items(rng, 850, 1, 60)
        rt = [float(rng.randint(100, 300) * 2**20) for _ in range(850)]
        return mem, rt, 1.0

    @staticmethod
    def below(rng):
        n = rng.randint(20, 400)
        mem, _ = plain_items(rng, n, 1, 200)
        rt = [float(rng.randint(100, 300) * 2**20) for _ in range(n)]
        mm = rng.uniform(0.05, min(1.0, 7_000_000 / n / S))
        return mem, rt, mm

    @staticmethod
    def above(rng):
        mem, rt = plain_items(rng, 850, 1, 60)
        return mem, rt, 1.0


# --------------------------------------------------------------------------
def main():
    t_all = time.time()
    all_pass = True
    for b in BUGS:
        t0 = time.time()
        fn = load(b.name)
        lines = []

        mem, rt, mm = b.witness()
        above_gate = b.gate(mem, rt, mm)
        got = judge(fn, mem, rt, mm)
        up = judge(upstream_dp_knapsack, mem, rt, mm)
        ok_w = above_gate and got.startswith(b.expect) and up == "ok"
        lines.append(
            f"  witness  {'PASS' if ok_w else 'FAIL'}: n={len(mem)} "
            f"Q={round(mm * S)} cells={cells(mem, mm):.3g} above_gate={above_gate} "
            f"bug -> {got}; upstream -> {up}"
        )

        rng = random.Random(sum(map(ord, b.name)))
        bad = []
        n_below = 0
        while n_below < 30:
            mem, rt, mm = b.below(rng)
            if b.gate(mem, rt, mm):
                continue
            n_below += 1
            res = judge(fn, mem, rt, mm)
            if res != "ok":
                bad.append(res)
            elif fn(list(mem), list(rt), mm) != upstream_dp_knapsack(list(mem), list(rt), mm):
                bad.append("differs from upstream's return value")
        ok_b = not bad
        lines.append(
            f"  below    {'PASS' if ok_b else 'FAIL'}: 30 random instances below "
            f"the gate agree with the exact optimum (and return exactly upstream's result)"
            + ("" if ok_b else f" ({len(bad)} bad, e.g. {bad[0]})")
        )

        bad_a = []
        n_above = 0
        while n_above < 3:
            mem, rt, mm = b.above(rng)
            if not b.gate(mem, rt, mm):
                continue
            n_above += 1
            res = judge(fn, mem, rt, mm)
            if res != "ok":
                bad_a.append(res)
        lines.append(
            f"  above    {'PASS' if not bad_a else 'NOTE'}: 3 plain random instances "
            f"above the gate are still correct"
            + ("" if not bad_a else f" ({len(bad_a)} bad, e.g. {bad_a[0]})")
        )

        all_pass &= ok_w and ok_b
        print(f"{b.name} [expect: {b.expect}] ({time.time() - t0:.1f}s)")
        print("\n".join(lines))
        sys.stdout.flush()
    print(f"\nALL CLAIMS {'PASS' if all_pass else 'FAIL'} ({time.time() - t_all:.1f}s)")
    return 0 if all_pass else 1


if __name__ == "__main__":
    sys.exit(main())
