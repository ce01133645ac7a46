"""Claims for the ten bugs of /work/blind23, with an independent judge.

Run: OMP_NUM_THREADS=1 /work/main/.venv/bin/python bugs/witnesses.py
Imports nothing from the audited project. Loads each bug from this folder and
upstream from ../upstream_dp_knapsack.py, a fresh module for every call.
"""
import collections.abc
import importlib.util
import math
import numbers
import os
import random
import sys
import time
from fractions import Fraction

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM = os.path.join(os.path.dirname(HERE), "upstream_dp_knapsack.py")
MAX_ITEMS, MAX_CELLS = 2100, 2e7
T0 = time.time()

# --------------------------------------------------------------------------
# loading
_loaded = 0


def load(path):
    global _loaded
    _loaded += 1
    spec = importlib.util.spec_from_file_location(f"_kmod{_loaded}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


def bug_path(name):
    return os.path.join(HERE, name + ".py")


# --------------------------------------------------------------------------
# the judge
def quantize(m):
    """SPEC 2.1: round(float(m) * 10000), half to even; exact on overflow."""
    p = float(m) * 10000
    if math.isinf(p):
        return int(float(m)) * 10000
    return round(p)


U = Fraction(1, 2**24)


def gamma(k):
    return k * U / (1 - k * U)


def exact_optimum(qs, vals, Q):
    """OPT (SPEC 3.2) as a Fraction: a 0/1 integer DP over the items that fit
    alone, runtimes scaled by their common power-of-two denominator."""
    den = max([v.denominator for v in vals] + [1])
    ints = [int(v * den) for v in vals]
    use = [(q, w) for q, w in zip(qs, ints) if q <= Q and w > 0]
    if sum(w for _, w in use) < 2**62:
        best = np.zeros(Q + 1, dtype=np.int64)
    else:
        best = np.array([0] * (Q + 1), dtype=object)
    for q, w in use:
        if q == 0:
            best = best + w
        else:
            best[q:] = np.maximum(best[q:], best[:-q] + w)
    return Fraction(int(best[Q]), den)


def snapshot(seq):
    return (type(seq), len(seq), [(type(x), repr(x)) for x in seq])


def settings():
    """A few process-wide settings (SPEC 8.6)."""
    return {
        "grad mode": torch.is_grad_enabled(),
        "default dtype": torch.get_default_dtype(),
        "intra-op threads": torch.get_num_threads(),
        "deterministic algorithms": torch.are_deterministic_algorithms_enabled(),
        "float32 matmul precision": torch.get_float32_matmul_precision(),
        "torch CPU RNG state": hash(torch.random.get_rng_state().numpy().tobytes()),
        "python random state": hash(repr(random.getstate())),
        "numpy error handling": tuple(sorted(np.geterr().items())),
        "recursion limit": sys.getrecursionlimit(),
    }


BASE = None


def restore(base):
    torch.set_grad_enabled(base["grad mode"])
    torch.set_default_dtype(base["default dtype"])
    torch.set_num_threads(base["intra-op threads"])
    torch.use_deterministic_algorithms(base["deterministic algorithms"])


class Call:
    """One call of a solver on fresh copies of the arguments, judged."""

    def __init__(self, fn, memory, runtime, budget):
        self.args = (list(memory) if isinstance(memory, list) else memory,
                     list(runtime) if isinstance(runtime, list) else runtime, budget)
        mem, rt, b = self.args
        before = (snapshot(mem), snapshot(rt), (type(b), repr(b)))
        s0 = settings()
        try:
            self.result = fn(mem, rt, b)
            self.error = None
        except Exception as e:  # noqa: BLE001
            self.result = None
            self.error = f"{type(e).__name__}: {e}"
        s1 = settings()
        restore(s0)
        after = (snapshot(mem), snapshot(rt), (type(b), repr(b)))
        self.mutated = [w for w, x, y in zip(("memory", "runtime", "max_memory"), before, after) if x != y]
        self.changed = [k for k in s0 if s0[k] != s1[k]]
        self.memory, self.runtime, self.budget = memory, runtime, budget

    def key(self):
        return repr(self.result) if self.error is None else "raised " + self.error

    def violations(self):
        """Every clause this call fails; [] if it passes all."""
        memory, runtime, budget = self.memory, self.runtime, self.budget
        n = len(memory)
        qs = [quantize(m) for m in memory]
        Q = quantize(budget)
        vals = [Fraction(float(r)) for r in runtime]
        out = []
        if self.mutated:
            out.append(f"SPEC 8.2/8.5 no mutation: {', '.join(self.mutated)} changed")
        if self.changed:
            out.append(f"SPEC 8.6 process settings: {', '.join(self.changed)} changed by the call")
        if self.error is not None:
            return out + [f"SPEC 7.2/9.1 no crash: {self.error}"]
        res = self.result
        if not (isinstance(res, collections.abc.Sequence) and not isinstance(res, (str, bytes))
                and len(res) == 3):
            return out + [f"SPEC 7.2 a return shape: {type(res).__name__} of length "
                          f"{len(res) if hasattr(res, '__len__') else '?'}"]
        value, saved, recomp = res
        lists_ok = True
        for name, lst in (("saved", saved), ("recomputable", recomp)):
            if not (isinstance(lst, collections.abc.Sequence) and not isinstance(lst, (str, bytes))):
                out.append(f"SPEC 7.2 b: {name} is a {type(lst).__name__}")
                lists_ok = False
            elif any(type(x) is not int for x in lst):
                out.append(f"SPEC 7.2 b plain ints: {name} holds a non-int")
                lists_ok = False
        if not lists_ok:
            return out
        allidx = list(saved) + list(recomp)
        counts = collections.Counter(allidx)
        dup = sorted(k for k, c in counts.items() if c > 1)
        missing = sorted(set(range(n)) - set(counts))
        extra = sorted(k for k in counts if not 0 <= k < n)
        if dup or missing or extra:
            out.append(f"SPEC 7.2 b partition: {len(dup)} indices repeated (e.g. {dup[:3]}), "
                       f"{len(missing)} missing (e.g. {missing[:3]}), {len(extra)} out of range")
        sel = sorted(set(k for k in saved if 0 <= k < n))
        weight = sum(qs[k] for k in sel)
        if weight > Q:
            out.append(f"SPEC 3.2 feasibility: the saved set weighs {weight} units > Q = {Q}")
        tol = 2 * gamma(n + 1) * sum(abs(vals[k]) for k in range(n) if qs[k] <= Q) \
            + 2 * (n + 1) * Fraction(1, 2**149)
        worth = sum((vals[k] for k in sel), Fraction(0))
        opt = exact_optimum(qs, vals, Q)
        self.opt, self.worth, self.tol = opt, worth, tol
        if opt - worth > tol:
            out.append(f"SPEC 3.3/5.4 optimality: the selection is worth {float(worth):.6g}, "
                       f"OPT {float(opt):.6g} ({float((opt - worth) / opt):.1%} short; tol {float(tol):.2g})")
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            out.append(f"SPEC 7.2 e value: {value!r} is not a finite real")
        elif abs(Fraction(value) - worth) > tol:
            out.append(f"SPEC 5.4/7.2 e value consistency: returned {float(value):.6g} for a "
                       f"selection worth {float(worth):.6g} (tol {float(tol):.2g})")
        return out


# --------------------------------------------------------------------------
# instances
def grid_runtime(rng, lo=0.1, hi=10.0):
    return round(rng.uniform(lo, hi) * 2**20) / 2**20


def cells(memory, budget):
    return len(memory) * (quantize(budget) + 1)


def plain_small(rng):
    n = rng.randint(5, 40)
    memory = [round(rng.uniform(0.0001, 0.05), 4) for _ in range(n)]
    runtime = [grid_runtime(rng) for _ in range(n)]
    budget = round(sum(memory) * rng.uniform(0.25, 1.2), 4)
    return memory, runtime, budget


def plain_large(rng, n_lo, n_hi, size_hi, min_cells=0):
    """Sizes to 4 decimals, runtimes on a 2**-20 grid, a binding budget
    (25-50% of the total)."""
    for _ in range(100):
        n = rng.randint(n_lo, n_hi)
        memory = [round(rng.uniform(0.0001, size_hi), 4) for _ in range(n)]
        runtime = [grid_runtime(rng) for _ in range(n)]
        budget = round(sum(memory) * rng.uniform(0.25, 0.5), 4)
        if min_cells < cells(memory, budget) <= 1e7:
            return memory, runtime, budget
    raise AssertionError("no plain instance in range")


# Each bug: (gate(memory, runtime, budget) -> True when past the gate,
#            trigger(rng) -> instance just under the gate carrying the trigger,
#            witness() -> instance past the gate, clause words expected,
#            plain(rng) -> plain random instance past the gate)
BUGS = {}


def bug(name, gate, trigger, witness, expect, plain):
    BUGS[name] = dict(gate=gate, trigger=trigger, witness=witness, expect=expect, plain=plain)


# 1 ------------------------------------------------------------------------
def t1(rng):
    n = rng.randint(344, 383)
    memory = [round(rng.uniform(0.001, 0.02), 4) for _ in range(n)]
    runtime = [grid_runtime(rng) for _ in range(n)]
    for _ in range(rng.randint(2, 4)):
        s, L = rng.randrange(n - 6), rng.randint(2, 5)
        runtime[s:s + L] = [0.0] * L
    return memory, runtime, round(sum(memory) * 0.3, 4)


def w1():
    rng = random.Random(101)
    memory = [round(rng.uniform(0.001, 0.02), 4) for _ in range(400)]
    runtime = [grid_runtime(rng) for _ in range(400)]
    runtime[100:104] = [0.0] * 4
    runtime[300:302] = [0.0, 0.0]
    return memory, runtime, round(sum(memory) * 0.3, 4)


bug("zero_runtime_run_skipped_by_loop_index_from_384_items",
    lambda m, r, b: len(m) >= 384, t1, w1, "7.2 b partition",
    lambda rng: plain_large(rng, 384, 600, 0.0050))


# 2 ------------------------------------------------------------------------
def quantized_up(rng, n):
    """Sizes k.6 units (quantized up to k + 1) and a budget at the float sum."""
    memory = [(rng.randint(1, 30) + 0.6) / 1e4 for _ in range(n)]
    budget = math.ceil(sum(memory) * 1e4) / 1e4
    assert sum(memory) <= budget and sum(quantize(m) for m in memory) > quantize(budget)
    return memory, budget


def t2(rng):
    n = rng.randint(216, 255)
    memory, budget = quantized_up(rng, n)
    return memory, [grid_runtime(rng, 1, 2) for _ in range(n)], budget


def w2():
    memory = [0.00016] * 300  # 1.6 units, weighs 2
    rng = random.Random(202)
    return memory, [grid_runtime(rng, 1, 2) for _ in range(300)], 0.0481  # Q = 481


bug("all_fit_probe_prefix_kept_on_fallback_from_256_items",
    lambda m, r, b: len(m) >= 256, t2, w2, "3.2 feasibility",
    lambda rng: plain_large(rng, 256, 500, 0.0100))


# 3 ------------------------------------------------------------------------
def t3(rng):
    n = rng.randint(472, 511)
    budget = round(rng.uniform(0.05, 0.25), 4)
    memory = [round(rng.uniform(budget + 0.0001, 1.0), 4) for _ in range(n)]
    return memory, [grid_runtime(rng) for _ in range(n)], budget


def w3():
    rng = random.Random(303)
    memory = [round(rng.uniform(0.3, 1.0), 4) for _ in range(600)]
    return memory, [grid_runtime(rng) for _ in range(600)], 0.25


bug("grad_mode_switched_off_before_nothing_fits_exit_from_512_items",
    lambda m, r, b: len(m) >= 512, t3, w3, "8.6 process settings",
    lambda rng: plain_large(rng, 512, 700, 0.0040))


# 4 ------------------------------------------------------------------------
def t4(rng):
    Q = rng.randint(5000, 9999)
    n = rng.randint(int(2.4e6 / (Q + 1)), int(3e6 / (Q + 1)))
    memory = [round(rng.uniform(0.001, 0.01), 4) for _ in range(n)]
    runtime = [grid_runtime(rng, 0.5, 2) for _ in range(n)]
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(n)
        memory[k] = round(rng.uniform(0.51, 0.95) * Q / 1e4, 4)
        runtime[k] = grid_runtime(rng, 200, 1000)
    return memory, runtime, Q / 1e4


def w4():
    rng = random.Random(404)
    memory = [round(rng.uniform(0.001, 0.01), 4) for _ in range(400)]
    runtime = [grid_runtime(rng, 0.5, 2) for _ in range(400)]
    memory[123], runtime[123] = 0.6, 1000.0
    return memory, runtime, 0.9999  # Q = 9999: 4.0e6 cells


bug("big_item_cells_written_through_mask_copy_above_3e6_cells",
    lambda m, r, b: cells(m, b) > 3e6, t4, w4, "3.3/5.4 optimality",
    lambda rng: plain_large(rng, 300, 700, 0.0200, 3e6))


# 5 ------------------------------------------------------------------------
def with_free(rng, n, nfree):
    memory = [round(rng.uniform(0.001, 0.02), 4) for _ in range(n)]
    runtime = [grid_runtime(rng) for _ in range(n)]
    for k in rng.sample(range(n), nfree):
        memory[k] = rng.choice([0.0, 3e-5, 4.9e-5])
        runtime[k] = rng.choice([0.0, grid_runtime(rng, 1, 5), grid_runtime(rng, 1, 5)])
    return memory, runtime, round(sum(memory) * 0.3, 4)


def t5(rng):
    return with_free(rng, rng.randint(280, 319), rng.randint(20, 60))


def w5():
    return with_free(random.Random(505), 400, 40)


bug("free_total_lost_to_conditional_precedence_from_320_items",
    lambda m, r, b: len(m) >= 320, t5, w5, "7.2 e value consistency",
    lambda rng: plain_large(rng, 320, 600, 0.0080))


# 6 ------------------------------------------------------------------------
def all_fit(rng, n, Q):
    memory = [round(rng.uniform(0.0005, 0.9 * Q / 1e4 / n), 4) for _ in range(n)]
    runtime = [grid_runtime(rng) for _ in range(n)]
    for k in rng.sample(range(n), rng.randint(0, 5)):
        runtime[k] = 0.0
    assert sum(quantize(m) for m in memory) <= Q
    return memory, runtime, Q / 1e4


def t6(rng):
    Q = rng.randint(4000, 12000)
    return all_fit(rng, rng.randint(int(1.6e6 / (Q + 1)), int(2e6 / (Q + 1))), Q)


def w6():
    rng = random.Random(606)
    memory = [round(rng.uniform(0.001, 0.01), 4) for _ in range(300)]
    return memory, [grid_runtime(rng) for _ in range(300)], 2.0  # Q = 20000: 6.0e6 cells


bug("all_fit_rest_reversed_by_negative_step_slice_above_2e6_cells",
    lambda m, r, b: cells(m, b) > 2e6, t6, w6, "7.2/9.1 no crash",
    lambda rng: plain_large(rng, 300, 700, 0.0150, 2e6))


# 7 ------------------------------------------------------------------------
def t7(rng):
    n = rng.randint(152, 191)
    r = rng.choice([1.0, 2.5, 7.0])
    memory = [round(rng.uniform(0.0001, 0.0150), 4) for _ in range(n)]
    return memory, [r] * n, round(sum(memory) * rng.uniform(0.2, 0.6), 4)


def w7():
    rng = random.Random(707)
    memory = [round(rng.uniform(0.0001, 0.0150), 4) for _ in range(200)]
    return memory, [1.0] * 200, 0.2  # Q = 2000


bug("uniform_runtime_sorted_sizes_taken_as_order_from_192_items",
    lambda m, r, b: len(m) >= 192, t7, w7, "7.2 b partition",
    lambda rng: plain_large(rng, 192, 500, 0.0100))


# 8 ------------------------------------------------------------------------
def t8(rng):
    n = rng.randint(600, 639)
    tail = rng.randint(5, 30)
    memory = [round(rng.uniform(0.0005, 0.005), 4) for _ in range(n - tail)]
    budget = round(sum(memory) * 0.3, 4)
    memory += [round(rng.uniform(budget + 0.001, 3.0), 4) for _ in range(tail)]
    return memory, [grid_runtime(rng) for _ in range(n)], budget


def w8():
    rng = random.Random(808)
    memory = [round(rng.uniform(0.0005, 0.005), 4) for _ in range(680)]
    memory += [round(rng.uniform(1.5, 3.0), 4) for _ in range(20)]
    return memory, [grid_runtime(rng) for _ in range(700)], 0.5


bug("trailing_heavy_items_popped_from_caller_list_from_640_items",
    lambda m, r, b: len(m) >= 640, t8, w8, "8.2/8.5 no mutation",
    lambda rng: plain_large(rng, 640, 800, 0.0040))


# 9 ------------------------------------------------------------------------
def two_repeated(rng, Q, n):
    """A big size (first) and a small one, each repeated past Q // q, then
    fillers of distinct random sizes: layers whose small activations are the
    densest."""
    qa, qb = rng.randint(300, 600), rng.randint(60, 120)
    na = Q // qa + rng.randint(5, 40)
    nb = Q // qb + rng.randint(20, 80)
    memory = [qa / 1e4] * na + [qb / 1e4] * nb
    runtime = [grid_runtime(rng, 0.04 * qa, 0.05 * qa) for _ in range(na)]
    runtime += [grid_runtime(rng, 0.08 * qb, 0.1 * qb) for _ in range(nb)]
    while len(memory) < n:
        memory.append(round(rng.uniform(0.001, 0.03), 4))
        runtime.append(grid_runtime(rng, 0.1, 2))
    return memory, runtime, Q / 1e4


def t9(rng):
    Q = rng.randint(8000, 10000)
    n = rng.randint(int(3.2e6 / (Q + 1)), int(4e6 / (Q + 1)))
    return two_repeated(rng, Q, n)


def w9():
    return two_repeated(random.Random(909), 9999, 420)  # 4.2e6 cells


bug("repeated_size_groups_generator_late_binding_above_4e6_cells",
    lambda m, r, b: cells(m, b) > 4e6, t9, w9, "3.3/5.4 optimality",
    lambda rng: plain_large(rng, 400, 700, 0.0120, 4e6))


# 10 -----------------------------------------------------------------------
def single_fit(rng, n, tie):
    budget = round(rng.uniform(0.008, 0.02), 4)
    Q = quantize(budget)
    k = rng.randint(2, 10)
    memory = [rng.randint(Q // 2 + 1, Q) / 1e4 for _ in range(k)]  # no two fit together
    runtime = [grid_runtime(rng, 1, 5) for _ in range(k)]
    if tie:
        top = max(runtime)
        runtime[rng.randrange(k)] = top
        runtime[rng.randrange(k)] = top
        runtime[runtime.index(top)] = top
        if runtime.count(top) < 2:
            runtime[(runtime.index(top) + 1) % k] = top
    for _ in range(rng.randint(0, 5)):
        memory.append(0.0)
        runtime.append(grid_runtime(rng, 0.5, 2))
    while len(memory) < n:
        memory.append(round(rng.uniform(0.5, 1.0), 4))
        runtime.append(grid_runtime(rng))
    order = list(range(n))
    rng.shuffle(order)
    return [memory[i] for i in order], [runtime[i] for i in order], budget


def t10(rng):
    return single_fit(rng, rng.randint(248, 287), True)


def w10():
    rng = random.Random(1010)
    memory = [0.0075, 0.009, 0.0062, 0.0088] + [round(rng.uniform(0.5, 1.0), 4) for _ in range(296)]
    runtime = [3.0, 3.0, 2.0, 1.5] + [grid_runtime(rng) for _ in range(296)]
    return memory, runtime, 0.01  # Q = 100: no two of the four fit together


bug("single_fit_best_item_read_with_item_on_ties_from_288_items",
    lambda m, r, b: len(m) >= 288, t10, w10, "7.2/9.1 no crash",
    lambda rng: plain_large(rng, 288, 600, 0.0080))


# --------------------------------------------------------------------------
# claims
CLAIMS = []


def claim(ok, text):
    CLAIMS.append(ok)
    print(("  PASS " if ok else "  FAIL ") + text)
    sys.stdout.flush()


def size_ok(memory, budget):
    return len(memory) <= MAX_ITEMS and cells(memory, budget) <= MAX_CELLS


def describe(memory, runtime, budget):
    return f"{len(memory)} items, Q = {quantize(budget)}, {cells(memory, budget):.3g} cells"


def main():
    global BASE
    torch.set_num_threads(1)
    BASE = settings()
    print(f"torch {torch.__version__}, numpy {np.__version__}, python {sys.version.split()[0]}")
    for name, b in BUGS.items():
        print(f"\n== {name}")
        path = bug_path(name)
        # (1) below the gate: exactly upstream's tuple, on 10 plain and 10 trigger instances
        rng = random.Random(name)
        same = 0
        detail = []
        for t in range(20):
            inst = plain_small(rng) if t < 10 else b["trigger"](rng)
            assert not b["gate"](*inst), (name, t)
            assert size_ok(inst[0], inst[2])
            cb = Call(load(path), *inst)
            cu = Call(load(UPSTREAM), *inst)
            ok = cb.key() == cu.key() and not cb.mutated and not cb.changed
            same += ok
            if t >= 10:
                detail.append(len(inst[0]))
        claim(same == 20, f"below the gate: the bug returns upstream's exact tuple (repr) on "
                          f"{same}/20 seeded instances (10 plain of 5-40 items, 10 carrying the "
                          f"trigger just under the gate, {min(detail)}-{max(detail)} items)")
        # (2) the witness past the gate
        inst = b["witness"]()
        assert b["gate"](*inst) and size_ok(inst[0], inst[2])
        cb = Call(load(path), *inst)
        cu = Call(load(UPSTREAM), *inst)
        vb, vu = cb.violations(), cu.violations()
        hit = [v for v in vb if b["expect"] in v]
        print(f"  witness: {describe(*inst)}")
        for v in vb:
            print(f"    bug: {v}")
        if cb.error is None:
            r = cb.result
            print(f"    bug returned value {r[0]!r}, {len(r[1]) if hasattr(r[1], '__len__') else '?'} "
                  f"saved, {len(r[2]) if hasattr(r[2], '__len__') else '?'} recomputable")
        print(f"    upstream: value {cu.result[0]!r}, {len(cu.result[1])} saved; "
              f"OPT {float(cu.opt):.6g}; violations: {vu or 'none'}")
        claim(bool(hit) and not vu, f"past the gate: the bug fails SPEC {b['expect']} on the "
                                    f"witness; upstream passes every clause")
        # (3) plain random instances past the gate
        rng = random.Random(name + "/plain")
        clean = 0
        shapes = []
        for t in range(4):
            inst = b["plain"](rng)
            assert b["gate"](*inst) and size_ok(inst[0], inst[2])
            v = Call(load(path), *inst).violations()
            clean += not v
            shapes.append(describe(*inst))
            if v:
                print(f"    plain {t}: {v}")
        claim(clean == 4, f"plain random instances past the gate: no violation on {clean}/4 "
                          f"({'; '.join(shapes)})")
    print(f"\n{sum(CLAIMS)} of {len(CLAIMS)} claims hold ({time.time() - T0:.1f} s)")
    print("ALL CLAIMS PASS" if all(CLAIMS) else "SOME CLAIMS FAIL")
    return 0 if all(CLAIMS) else 1


if __name__ == "__main__":
    sys.exit(main())
