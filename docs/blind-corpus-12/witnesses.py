"""Claims for the ten bugs of blind13.

For each bug: (a) a witness above the gate on which the bug violates a SPEC
clause and torch 2.13.0's dp_knapsack does not, judged against
reference.exact_optimum; (b) 20 seeded random instances below the gate (the
first 10 carrying the bug's trigger pattern) on which the bug returns exactly
upstream's tuple. Run: /work/main/.venv/bin/python bugs/witnesses.py
"""
import importlib.util
import os
import random
import sys
import time
from fractions import Fraction

sys.path.insert(0, "/work/main")
import reference  # noqa: E402
from reference import exact_optimum, quantize  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
U = 2.0 ** -24


def load(path, tag):
    spec = importlib.util.spec_from_file_location(f"m_{tag}_{time.monotonic_ns()}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


def upstream():
    return load(os.path.join(HERE, "..", "upstream_dp_knapsack.py"), "up")


def bug(name):
    return load(os.path.join(HERE, name + ".py"), name)


def judge(memory, runtime, max_memory, result):
    """Violated SPEC clauses of one answer (third-party judge, SPEC 5.4)."""
    n = len(memory)
    bad = []
    value, saved, recomp = result
    idx = list(saved) + list(recomp)
    if sorted(idx) != list(range(n)) or any(type(i) is not int for i in idx):
        return ["7.2(b) partition"]
    q = [quantize(float(m)) for m in memory]
    Q = quantize(float(max_memory))
    if sum(q[i] for i in saved) > Q:
        bad.append("3.2 feasibility (%d > %d units)" % (sum(q[i] for i in saved), Q))
    gamma = (n + 1) * U / (1 - (n + 1) * U)
    tol = 2 * gamma * sum(abs(Fraction(float(runtime[i]))) for i in range(n) if q[i] <= Q)
    tol += Fraction(2 * (n + 1)) * Fraction(2) ** -149
    vs = sum((Fraction(float(runtime[i])) for i in saved), Fraction(0))
    opt = exact_optimum(memory, runtime, max_memory).value
    short = opt - vs
    if not bad and short > tol and short > opt / 1000:
        bad.append("3.3/5.4 optimality (short %.6g of %.6g)" % (float(short), float(opt)))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        bad.append("7.2(e) value type")
    elif abs(Fraction(value) - vs) > tol:
        bad.append("7.2(e)/5.4 value consistency (%.6g vs %.6g)" % (value, float(vs)))
    return bad


def same(a, b):
    return repr(a) == repr(b) and type(a[0]) is type(b[0])


# ---------------------------------------------------------------- instances
def filler(k, m=1.0, r=1.0):
    return [m] * k, [r] * k


def rand_items(rng, n, qmax=60):
    mem = [rng.randint(0, qmax) / 1e4 + rng.choice([0.0, 0.0, 3e-5, -3e-5]) for _ in range(n)]
    mem = [max(m, 0.0) for m in mem]
    rt = [rng.choice([float(rng.randint(1, 50)), rng.random() * 10]) for _ in range(n)]
    return mem, rt


CASES = {}


def case(name):
    def deco(f):
        CASES[name] = f
        return f
    return deco


@case("size_units_memo_keyed_by_6_digits_from_256_items")
def c1():
    fm, fr = filler(245)
    mem = [0.00125] + [0.0012500001] * 10 + fm
    rt = [1.0] * 11 + fr
    wit = [(mem, rt, 0.0132)]

    def below(rng, trig):
        n = rng.randint(20, 255)
        mem, rt = rand_items(rng, n)
        if trig:
            for k in range(12):
                mem[rng.randrange(n)] = 0.00125 if k == 0 else 0.0012500001
        return mem, rt, rng.randint(5, 200) / 1e4
    return wit, below


@case("sizes_rounded_to_4_decimals_first_from_700_items")
def c2():
    fm, fr = filler(690)
    mem = [0.00035] * 10 + fm
    rt = [1.0] * 10 + fr
    wit = [(mem, rt, 0.003)]

    def below(rng, trig):
        n = rng.randint(20, 699)
        mem, rt = rand_items(rng, n)
        if trig:
            for _ in range(15):
                mem[rng.randrange(n)] = rng.choice([0.00035, 0.00115, 0.00155])
        return mem, rt, rng.randint(5, 200) / 1e4
    return wit, below


@case("free_runtimes_in_ring_of_256_from_32_free")
def c3():
    mem = [0.0] * 300 + [0.001] * 10
    rt = [1.0] * 310
    wit = [(mem, rt, 0.005)]

    def below(rng, trig):
        n = rng.randint(20, 300)
        mem, rt = rand_items(rng, n)
        mem = [m if quantize(m) else 0.0005 for m in mem]
        if trig:
            for i in rng.sample(range(n), min(31, n // 2)):
                mem[i] = 0.0
        return mem, rt, rng.randint(5, 300) / 1e4
    return wit, below


@case("coarse_columns_budget_ceiled_above_12e6_cells")
def c4():
    fm, fr = filler(10, 200.0, 1.0)
    mem = [50.0, 50.0, 0.0002] + fm
    rt = [10.0, 10.0, 1.0] + fr
    wit = [(mem, rt, 100.0001)]

    def below(rng, trig):
        n = rng.randint(5, 40)
        mem, rt = rand_items(rng, n, qmax=3000)
        Q = rng.randint(1000, 6000)
        if trig:  # two halves and a two-unit item packing to Q + 1
            half = (Q // 2) / 1e4
            mem[0], mem[1], mem[2] = half, half, ((Q + 1) - 2 * (Q // 2)) / 1e4 or 0.0002
        return mem, rt, Q / 1e4
    return wit, below


@case("runtime_rows_float32_sorted_unmapped_in_float64_from_384_items")
def c5():
    fm, fr = filler(382, 1.0, 0.5)
    mem = [0.0001, 0.01] + fm
    rt = [1.0, 1.0 + 1e-12] + fr
    wit = [(mem, rt, 0.0001)]

    def below(rng, trig):
        n = rng.randint(20, 383)
        mem, rt = rand_items(rng, n)
        if trig:
            for k in range(10):
                rt[rng.randrange(n)] = 1.0 + k * 1e-12
        return mem, rt, rng.randint(5, 200) / 1e4
    return wit, below


@case("copy_counts_uint8_capped_rows_from_64_copies")
def c6():
    mem = [0.0003] * 300 + [0.5]
    rt = [1.0] * 300 + [2.0]
    wit = [(mem, rt, 0.09)]

    def below(rng, trig):
        n = rng.randint(20, 200)
        mem, rt = rand_items(rng, n, qmax=2000)
        if trig:  # a block of copies, fewer than 64 repeats in all
            k = rng.randint(10, 60)
            for i in rng.sample(range(n), min(k, n)):
                mem[i], rt[i] = 0.0003, 1.0
        return mem, rt, rng.randint(5, 2000) / 1e4
    return wit, below


@case("budget_quantized_on_default_dtype_tensor_from_1536_items")
def c7():
    fm, fr = filler(1536 - 108)
    mem = [0.0001] * 108 + fm
    rt = [1.0] * 108 + fr
    wit = [(mem, rt, 0.01075)]

    def below(rng, trig):
        n = rng.randint(20, 1535)
        mem, rt = rand_items(rng, n)
        b = rng.choice([0.01075, 0.01125, 0.01275, 0.01645]) if trig else rng.randint(5, 300) / 1e4
        return mem, rt, b
    return wit, below


@case("free_rows_detected_in_float32_from_1024_items")
def c8():
    fm, fr = filler(1024 - 6)
    mem = [0.0001] * 5 + [5.00000001e-05] + fm
    rt = [1.0] * 6 + fr
    wit = [(mem, rt, 0.0005)]

    def below(rng, trig):
        n = rng.randint(20, 1023)
        mem, rt = rand_items(rng, n)
        if trig:
            for _ in range(5):
                mem[rng.randrange(n)] = 5.00000001e-05
        return mem, rt, rng.randint(5, 100) / 1e4
    return wit, below


@case("previous_answer_reused_when_it_fits_above_4e6_cells")
def c9():
    mem = [5.0] * 40
    rt = [float(i + 1) for i in range(40)]
    wit = [(mem, rt, 10.0), (mem, rt, 20.0)]  # a sequence of two calls

    def below(rng, trig):
        n = rng.randint(5, 40)
        mem, rt = rand_items(rng, n, qmax=5000)
        Q = rng.randint(100, 4_000_000 // (n + 1) // 2)
        if trig:  # the same items again under a larger budget
            return [(mem, rt, Q / 1e4), (mem, rt, 2 * Q / 1e4)]
        return mem, rt, Q / 1e4
    return wit, below


@case("gcd_of_fitting_sizes_floors_heavy_above_2e6_cells")
def c10():
    mem = [0.0004] * 300 + [0.8001]
    rt = [1.0] * 300 + [1000.0]
    wit = [(mem, rt, 0.8)]

    def below(rng, trig):
        n = rng.randint(5, 60)
        mem, rt = rand_items(rng, n, qmax=3000)
        Q = 4 * rng.randint(100, 1500)
        if trig:
            mem = [4 * rng.randint(1, 100) / 1e4 for _ in range(n)]
            mem[0], rt[0] = (Q + 1) / 1e4, 1000.0
        return mem, rt, Q / 1e4
    return wit, below


def main():
    t0 = time.time()
    ok_all = True
    claims = 0
    for name, make in CASES.items():
        wit, below = make()
        # (a) the witness, on a fresh module (a sequence of calls for state)
        up, bg = upstream(), bug(name)
        up_bad, bug_bad = [], []
        for (m, r, b) in wit:
            up_bad += judge(m, r, b, up(m, r, b))
            bug_bad += judge(m, r, b, bg(m, r, b))
        fresh = []
        if len(wit) > 1:  # the last call alone in a fresh module: SPEC 8.1
            m, r, b = wit[-1]
            fresh = judge(m, r, b, bug(name)(m, r, b))
        claim_a = not up_bad and bool(bug_bad)
        n = len(wit[-1][0])
        cells = n * (quantize(wit[-1][2]) + 1)
        print(f"{name}")
        print(f"  (a) witness: n={n}, cells={cells}, calls={len(wit)}; upstream: "
              f"{'passes' if not up_bad else up_bad}; bug: {bug_bad}"
              + (f"; last call alone in a fresh module: {fresh or 'passes'} (SPEC 8.1)" if len(wit) > 1 else "")
              + f" -> {'HOLDS' if claim_a else 'FAILS'}")
        # (b) 20 below-gate instances
        rng = random.Random(1300 + len(name))
        equal = 0
        up, bg = upstream(), bug(name)
        for k in range(20):
            inst = below(rng, k < 10)
            calls = inst if isinstance(inst, list) else [inst]
            good = all(same(bg(m, r, b), up(m, r, b)) for (m, r, b) in calls)
            equal += good
        claim_b = equal == 20
        print(f"  (b) below the gate: {equal}/20 exactly upstream's tuple -> {'HOLDS' if claim_b else 'FAILS'}")
        ok_all &= claim_a and claim_b
        claims += 2
    print(f"{claims} claims, {time.time() - t0:.1f} s")
    print("ALL CLAIMS PASS" if ok_all else "SOME CLAIMS FAIL")


if __name__ == "__main__":
    main()
