"""Witness claims for the blind15 corpus. Run: python bugs/witnesses.py"""
import importlib.util, itertools, random, sys, traceback
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, "/work/main")
from reference import exact_optimum, quantize  # noqa: E402

_count = itertools.count()


def fresh(path):
    spec = importlib.util.spec_from_file_location(f"b15_mod_{next(_count)}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


def upstream():
    return fresh(ROOT / "upstream_dp_knapsack.py")


def bug(name):
    return fresh(HERE / f"{name}.py")


def violations(memory, runtime, budget, result, want_shortfall=False):
    """Clauses of SPEC 3.2 / 5 / 7.2 the result breaks ([] if none)."""
    n = len(memory)
    bad = []
    try:
        value, saved, recomp = result
    except Exception:
        return ["return-shape"]
    allidx = list(saved) + list(recomp)
    if any(type(i) is not int for i in allidx) or sorted(allidx) != list(range(n)):
        bad.append("partition (7.2b)")
    S = set(i for i in saved if type(i) is int and 0 <= i < n)
    q = [quantize(float(m)) for m in memory]
    Q = quantize(float(budget))
    if sum(q[i] for i in S) > Q:
        bad.append("feasibility (3.2)")
    opt = exact_optimum(memory, runtime, budget).value
    val = sum((Fraction(float(runtime[i])) for i in S), Fraction(0))
    u = Fraction(1, 2**24)
    g = (n + 1) * u / (1 - (n + 1) * u)
    tol = 2 * g * sum(abs(Fraction(float(runtime[i]))) for i in range(n) if q[i] <= Q) + 2 * (n + 1) * Fraction(1, 2**149)
    short = opt - val
    if short > tol and (not want_shortfall or short > opt / 1000):
        bad.append(f"optimality (3.3/5.4, {float(short / opt) * 100:.3g}% short)")
    if abs(Fraction(value) - val) > tol:
        bad.append("value consistency (7.2e)")
    return bad


def call(f, args):
    try:
        return f(*args)
    except Exception as e:  # a crash is a violation of 'no crash'
        return e


def verdict(args, res):
    if isinstance(res, Exception):
        return [f"no crash ({type(res).__name__}: {str(res)[:60]})"]
    return violations(*args, res, want_shortfall=True)


def rnd_items(rng, n, lo=0.001, hi=0.05):
    return [round(rng.uniform(lo, hi), 6) for _ in range(n)], [round(rng.uniform(0.1, 10), 4) for _ in range(n)]


# Each spec: witness -> list of calls (args), the LAST one judged; trigger(seed)/plain(seed)
# -> list of calls below the gate (all compared with upstream); plain_above(seed) -> calls.
SPECS = {}


def spec(name):
    def deco(fn):
        SPECS[name] = fn()
        return fn
    return deco


@spec("table_cache_hit_width_off_by_one_above_4e6_cells")
def _():
    def witness():
        m, r = [0.003] * 400, [1.0] * 400
        return [(m, r, 1.1999), (m, r, 1.2)]          # Q 11999 then 12000; cells 4.8e6
    def below(seed, trig):
        rng = random.Random(seed)
        n = rng.randint(100, 250)
        m, r = rnd_items(rng, n)
        if trig:
            m, r = [0.003] * n, [float(rng.randint(1, 3)) for _ in range(n)]
            kmax = int((4e6 / n - 2) / 30)              # keep n * (Q + 1) <= 4e6
            k = rng.randint(20, kmax)
            b = round(k * 0.003 - 0.0001, 4)             # Q = 30k - 1, then 30k: the hit that bites
            assert n * (round(k * 0.003 * 10000) + 1) <= 4e6
            return [(m, r, b), (m, r, round(k * 0.003, 4)), (m, r, b / 2)]
        return [(m, r, round(sum(m) * 0.3, 4))]
    def plain(seed):
        rng = random.Random(seed)
        m, r = rnd_items(rng, 400)
        return [(m, r, 1.25)]
    return witness, below, plain


@spec("lp_bound_row_stop_on_float_sizes_from_192_items")
def _():
    def witness():
        return [([0.0001] * 100 + [0.00014] * 100, [1.0] * 100 + [1.3] * 100, 0.01)]
    def below(seed, trig):
        rng = random.Random(seed)
        n = rng.randint(64, 191)
        if trig:
            a = n // 2
            return [([0.0001] * a + [0.00014] * (n - a), [1.0] * a + [1.3] * (n - a), round(a * 0.0001, 4))]
        m, r = rnd_items(rng, n)
        return [(m, r, round(sum(m) * 0.3, 4))]
    def plain(seed):
        rng = random.Random(seed)
        m, r = rnd_items(rng, 300)
        return [(m, r, round(sum(m) * 0.3, 4))]
    return witness, below, plain


@spec("cardinality_width_cap_bisect_left_from_512_items")
def _():
    def witness():
        rng = random.Random(5)
        return [([0.002] * 600, [round(rng.uniform(1, 2), 4) for _ in range(600)], 0.6)]
    def below(seed, trig):
        rng = random.Random(seed)
        n = rng.randint(64, 511)
        if trig:
            k = rng.randint(10, n - 1)
            return [([0.002] * n, [round(rng.uniform(1, 2), 4) for _ in range(n)], round(k * 0.002, 4))]
        m, r = rnd_items(rng, n)
        return [(m, r, round(sum(m) * 0.3, 4))]
    def plain(seed):
        rng = random.Random(seed)
        m, r = rnd_items(rng, 600)
        return [(m, r, round(sum(m) * 0.25, 4))]
    return witness, below, plain


@spec("row_list_free_rows_added_in_place_above_3e6_cells")
def _():
    def free_mix(rng, n):
        m, r = rnd_items(rng, n, 0.001, 0.01)
        for k in range(0, n, 6):
            m[k], r[k] = 0.0, 1.0
        return m, r
    def witness():
        m, r = free_mix(random.Random(1), 300)
        return [(m, r, 1.2)]                           # cells 300 * 12001 = 3.6e6
    def below(seed, trig):
        rng = random.Random(seed)
        n = rng.randint(64, 250)
        m, r = free_mix(rng, n) if trig else rnd_items(rng, n, 0.001, 0.01)
        return [(m, r, round(rng.uniform(0.2, 1.0), 4))]   # cells <= 2.5e6
    def plain(seed):
        rng = random.Random(seed)
        m, r = rnd_items(rng, 300, 0.001, 0.01)
        return [(m, r, 1.2)]
    return witness, below, plain


@spec("copy_run_bundles_by_bit_length_from_64_run_copies")
def _():
    def witness():
        return [([0.001] * 100 + [0.005] * 100, [1.0] * 100 + [0.1] * 100, 0.127)]
    def below(seed, trig):
        rng = random.Random(seed)
        if trig:
            c = rng.randint(33, 63)
            m2, r2 = rnd_items(rng, 100, 0.001, 0.01)
            return [([0.001] * c + m2, [1.0] * c + r2, round((c + rng.randint(1, 30)) * 0.001, 4))]
        m, r = rnd_items(rng, rng.randint(64, 300))
        return [(m, r, round(sum(m) * 0.3, 4))]
    def plain(seed):
        rng = random.Random(seed)
        m, r = rnd_items(rng, 300)
        return [(m, r, round(sum(m) * 0.3, 4))]
    return witness, below, plain


@spec("free_rows_batched_into_first_free_row_from_64_free")
def _():
    def mix(rng, n, nfree):
        m, r = rnd_items(rng, n)
        for k in rng.sample(range(n), nfree):
            m[k], r[k] = 0.0, round(rng.uniform(1, 2), 4)
        return m, r
    def witness():
        m, r = mix(random.Random(2), 300, 80)
        return [(m, r, round(sum(m) * 0.3, 4))]
    def below(seed, trig):
        rng = random.Random(seed)
        n = rng.randint(100, 300)
        m, r = mix(rng, n, rng.randint(2, 63)) if trig else rnd_items(rng, n)
        return [(m, r, round(sum(m) * 0.3, 4))]
    def plain(seed):
        rng = random.Random(seed)
        m, r = rnd_items(rng, 400)
        return [(m, r, round(sum(m) * 0.3, 4))]
    return witness, below, plain


@spec("uniform_size_topk_unclamped_from_128_items")
def _():
    def witness():
        rng = random.Random(3)
        return [([0.001] * 200, [round(rng.uniform(1, 5), 3) for _ in range(200)], 0.25)]
    def below(seed, trig):
        rng = random.Random(seed)
        n = rng.randint(20, 127)
        if trig:
            return [([0.001] * n, [round(rng.uniform(1, 5), 3) for _ in range(n)], round(rng.uniform(0.01, 0.3), 4))]
        m, r = rnd_items(rng, n)
        return [(m, r, round(sum(m) * 0.3, 4))]
    def plain(seed):
        rng = random.Random(seed)
        m, r = rnd_items(rng, 300)
        return [(m, r, round(sum(m) * 1.2, 4))]
    return witness, below, plain


@spec("byte_units_guessed_from_sizes_over_1e6_from_256_items")
def _():
    def witness():
        return [([0.01] * 300 + [1e7], [1.0] * 301, 1.0)]
    def below(seed, trig):
        rng = random.Random(seed)
        n = rng.randint(64, 254)
        m, r = rnd_items(rng, n)
        if trig:
            m.append(float(rng.choice([1e7, 2.5e6, 3e8]))); r.append(1.0)
        return [(m, r, round(sum(m[:n]) * 0.3, 4))]
    def plain(seed):
        rng = random.Random(seed)
        m, r = rnd_items(rng, 300)
        return [(m, r, round(sum(m) * 0.3, 4))]
    return witness, below, plain


@spec("budget_sweep_memo_within_1e9_gb_above_2e6_cells")
def _():
    items = ([0.0001] + [0.004] * 250, [1.0] * 251)
    def witness():
        m, r = items
        return [(m, r, 1.0000500001), (m, r, 1.0000499999)]   # Q 10001 then 10000
    def below(seed, trig):
        rng = random.Random(seed)
        if trig:
            k = rng.randint(60, 150)
            m, r = [0.0001] + [0.004] * k, [1.0] * (k + 1)
            b = k * 0.004 + 0.00005
            return [(m, r, b + 1e-10), (m, r, b - 1e-10)]
        m, r = rnd_items(rng, rng.randint(64, 200))
        return [(m, r, round(sum(m) * 0.3, 4))]
    def plain(seed):
        rng = random.Random(seed)
        m, r = rnd_items(rng, 300)
        return [(m, r, 1.0), (m, r, 1.01)]
    return witness, below, plain


@spec("below_lightest_size_exit_drops_zero_runtime_free_from_64_items")
def _():
    def witness():
        return [([0.01] * 100 + [0.0] * 10, [1.0] * 100 + [0.0] * 5 + [2.0] * 5, 0.005)]
    def below(seed, trig):
        rng = random.Random(seed)
        n = rng.randint(10, 55)
        if trig:
            return [([0.01] * n + [0.0] * 6, [1.0] * n + [0.0] * 3 + [2.0] * 3, 0.005)]
        m, r = rnd_items(rng, n)
        return [(m, r, round(sum(m) * 0.3, 4))]
    def plain(seed):
        rng = random.Random(seed)
        m, r = rnd_items(rng, 200)
        return [(m, r, round(sum(m) * 0.3, 4))]
    return witness, below, plain


def main():
    ok = True
    for name, (witness, below, plain) in SPECS.items():
        print(f"== {name}")
        calls = witness()
        up, bg = upstream(), bug(name)
        for args in calls[:-1]:
            call(up, args), call(bg, args)
        ru, rb = call(upstream(), calls[-1]), call(bg, calls[-1])
        vu, vb = verdict(calls[-1], ru), verdict(calls[-1], rb)
        held = not vu and bool(vb)
        ok &= held
        print(f"  witness (n={len(calls[-1][0])}, {len(calls)} call(s)): upstream {vu or 'correct'}; bug {vb}: {'PASS' if held else 'FAIL'}")
        same = 0
        for s in range(20):
            seq = below(1000 + s, s < 10)
            up, bg = upstream(), bug(name)
            eq = all(repr(call(up, a)) == repr(call(bg, a)) for a in seq)
            same += eq
        held = same == 20
        ok &= held
        print(f"  below gate: {same}/20 identical to upstream (10 with the trigger pattern): {'PASS' if held else 'FAIL'}")
        fails = 0
        for s in range(4):
            seq = plain(2000 + s)
            bg = bug(name)
            for a in seq:
                if verdict(a, call(bg, a)):
                    fails += 1
        print(f"  plain random above gate: {fails} of 4 instances fail (info)")
    print("ALL CLAIMS PASS" if ok else "SOME CLAIMS FAILED")


if __name__ == "__main__":
    main()
