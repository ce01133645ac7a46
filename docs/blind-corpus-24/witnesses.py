"""Claims for the blind corpus in /work/blind25 (run from anywhere):

    OMP_NUM_THREADS=1 /work/main/.venv/bin/python bugs/witnesses.py

For every bug: (1) 20 seeded instances below its gate (10 plain, 10 carrying the
bug's trigger just under the gate) on which it returns exactly upstream's tuple
(same repr, or the same exception), mutates nothing and changes no setting;
(2) one witness above the gate that fails the named SPEC clause while upstream
passes every clause; (3) 4 plain random instances above the gate (sizes to 4
decimals, binding budget) with no violation.

The judge is independent of the project (nothing is imported from it):
quantization by SPEC 2.1, the exact optimum by an integer DP over runtimes made
exact with fractions.Fraction, the exact value of the selection, SPEC 5.4's
tolerance, the result form and partition of SPEC 7.2, input mutation (8.2/8.5)
and process-wide settings (8.6).
"""

import importlib.util
import math
import numbers
import os
import random
import sys
import time
from collections import Counter
from fractions import Fraction

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM = os.path.join(os.path.dirname(HERE), "upstream_dp_knapsack.py")
S = 10000
MAX_ITEMS, MAX_CELLS = 2100, 20_000_000
GRID = 2**20  # plain runtimes are multiples of 2**-20 in [0.1, 10]

# --------------------------------------------------------------------- judge


def quantize(value):
    """SPEC 2.1: round(float(m) * 10000), exact product when it overflows."""
    product = float(value) * S
    if math.isinf(product):
        return int(value) * S
    return round(product)


def cells(memory, max_memory):
    return len(memory) * (quantize(max_memory) + 1)


def exact_optimum(q, values, Q):
    """Exact OPT (a Fraction) by a 0/1 integer DP over runtimes scaled to ints."""
    items = [(w, v) for w, v in zip(q, values) if w <= Q and v > 0]
    if not items:
        return Fraction(0)
    denom = max(v.denominator for _, v in items)
    ints = [(w, int(v * denom)) for w, v in items]
    dtype = np.int64 if sum(x for _, x in ints) < 2**62 else object
    best = np.zeros(Q + 1, dtype=dtype)
    for w, x in ints:
        if w == 0:
            best = best + x
        else:
            best[w:] = np.maximum(best[w:], best[:-w] + x)
    return Fraction(int(best[Q]), denom)


def tolerance(q, values, Q):
    """SPEC 5.4: 2 gamma(n+1) sum(|v_i| : q_i <= Q) + 2 (n+1) 2**-149."""
    n = len(q)
    u = Fraction(1, 2**24)
    gamma = (n + 1) * u / (1 - (n + 1) * u)
    fitting = sum(abs(v) for w, v in zip(q, values) if w <= Q)
    return 2 * gamma * fitting + 2 * (n + 1) * Fraction(1, 2**149)


def flushes_denormals():
    return torch.tensor([1e-40], dtype=torch.float32).mul(1.0).item() == 0.0


def settings():
    return {
        "intra-op threads": torch.get_num_threads(),
        "default dtype": torch.get_default_dtype(),
        "grad mode": torch.is_grad_enabled(),
        "deterministic algorithms": torch.are_deterministic_algorithms_enabled(),
        "float32 matmul precision": torch.get_float32_matmul_precision(),
        "flush-denormal": flushes_denormals(),
        "torch CPU RNG": bytes(torch.get_rng_state().numpy()),
        "python random": random.getstate(),
        "numpy errstate": tuple(sorted(np.geterr().items())),
        "recursion limit": sys.getrecursionlimit(),
    }


def restore(saved):
    torch.set_num_threads(saved["intra-op threads"])
    torch.set_default_dtype(saved["default dtype"])
    torch.set_grad_enabled(saved["grad mode"])
    torch.use_deterministic_algorithms(saved["deterministic algorithms"])
    torch.set_float32_matmul_precision(saved["float32 matmul precision"])
    torch.set_flush_denormal(saved["flush-denormal"])


def snapshot(seq):
    return (type(seq), len(seq), [(type(x), repr(x)) for x in seq])


_LOADED = 0


def load(path):
    global _LOADED
    _LOADED += 1
    spec = importlib.util.spec_from_file_location(f"solver_{_LOADED}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Outcome:
    def __init__(self, result, error, mutated, changed):
        self.result, self.error, self.mutated, self.changed = result, error, mutated, changed

    def key(self):
        """What 'exactly upstream's tuple' compares: repr, or the exception."""
        if self.error is not None:
            return ("raised", type(self.error).__name__, str(self.error))
        return ("returned", repr(self.result), type(self.result[0]).__name__
                if isinstance(self.result, tuple) and self.result else None)


def call(path, memory, runtime, max_memory, threads=1):
    """One call on a freshly loaded module, with fresh argument lists."""
    module = load(path)
    mem = type(memory)(memory)
    run = type(runtime)(runtime)
    before_m, before_r = snapshot(mem), snapshot(run)
    torch.set_num_threads(threads)
    before = settings()
    try:
        result, error = module.dp_knapsack(mem, run, max_memory), None
    except Exception as exc:  # noqa: BLE001 - a crash is a finding
        result, error = None, exc
    after = settings()
    restore(before)
    torch.set_num_threads(1)
    mutated = [name for name, seq, snap in (("memory", mem, before_m), ("runtime", run, before_r))
               if snapshot(seq) != snap]
    changed = [k for k in before if before[k] != after[k]]
    return Outcome(result, error, mutated, changed)


class Instance:
    def __init__(self, memory, runtime, max_memory, label=""):
        self.memory, self.runtime, self.max_memory, self.label = memory, runtime, max_memory, label
        self._opt = None

    @property
    def n(self):
        return len(self.memory)

    @property
    def cells(self):
        return cells(self.memory, self.max_memory)

    def exact(self):
        if self._opt is None:
            q = [quantize(m) for m in self.memory]
            Q = quantize(self.max_memory)
            values = [Fraction(float(r)) for r in self.runtime]
            self._opt = (q, Q, values, exact_optimum(q, values, Q), tolerance(q, values, Q))
        return self._opt


def judge(inst, out):
    """Failed properties of one answer, each naming its SPEC clause."""
    fails = []
    if out.mutated:
        fails.append(f"no-mutation (SPEC 8.2, 8.5): {', '.join(out.mutated)} changed")
    if out.changed:
        fails.append(f"process-settings (SPEC 8.6): {', '.join(out.changed)} changed")
    if out.error is not None:
        return [f"no-crash (SPEC 7.2, 9.1): {type(out.error).__name__}: {out.error}"] + fails
    res = out.result
    if not isinstance(res, (tuple, list)) or len(res) != 3:
        return [f"return-shape (SPEC 7.2 a): {type(res).__name__}"] + fails
    value, saved, rec = res
    q, Q, values, opt, tol = inst.exact()
    n = inst.n
    lists_ok = isinstance(saved, (list, tuple)) and isinstance(rec, (list, tuple))
    ints = lists_ok and all(type(i) is int for i in list(saved) + list(rec))
    if not (lists_ok and ints and Counter(list(saved) + list(rec)) == Counter(range(n))):
        detail = "not plain-int lists" if not (lists_ok and ints) else (
            f"{len(saved)} saved + {len(rec)} recomputable entries for {n} items, "
            f"{sum(1 for c in Counter(list(saved) + list(rec)).values() if c > 1)} indices repeated, "
            f"{n - len(set(list(saved) + list(rec)) & set(range(n)))} missing")
        fails.append(f"partition (SPEC 7.2 b): {detail}")
    chosen = {i for i in (saved if lists_ok else []) if type(i) is int and 0 <= i < n}
    weight = sum(q[i] for i in chosen)
    if weight > Q:
        fails.append(f"feasibility (SPEC 3.2): saved weight {weight} units > Q = {Q}")
    worth = sum((values[i] for i in chosen), Fraction(0))
    if weight <= Q and opt - worth > tol:
        fails.append(f"optimality (SPEC 3.3, 5.2 a): selection worth {float(worth):.6g}, "
                     f"OPT {float(opt):.6g}, short by {float((opt - worth) / opt):.1%} (tol {float(tol):.3g})")
    real = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if not real or not math.isfinite(value):
        fails.append(f"value-type (SPEC 7.2 e): value {value!r} of type {type(value).__name__}")
    elif abs(Fraction(value) - worth) > tol:
        fails.append(f"value-consistency (SPEC 5.2 b, 7.2 e): returned {value!r}, "
                     f"selection worth {float(worth):.6g} (tol {float(tol):.3g})")
    return fails


# --------------------------------------------------------------- instances


def grid_runtime(rng, lo=0.1, hi=10.0):
    return rng.randint(int(lo * GRID), int(hi * GRID)) / GRID


def size4(rng, lo, hi):
    return round(rng.uniform(lo, hi), 4)


def plain_small(rng, below):
    """5-40 random items, budget 25-120% of the total, below the gate."""
    while True:
        n = rng.randint(5, 40)
        mem = [size4(rng, 0.0001, 0.05) for _ in range(n)]
        run = [grid_runtime(rng) for _ in range(n)]
        b = round(rng.uniform(0.25, 1.2) * sum(mem), 4)
        inst = Instance(mem, run, b, "plain")
        if below(inst):
            return inst


def plain_above(rng, n_lo, n_hi, c_lo, c_hi):
    """Random sizes to 4 decimals, runtimes on a 2**-20 grid, a binding budget
    (25-50% of the total), n in [n_lo, n_hi] and cells in (c_lo, c_hi]."""
    for _ in range(10000):
        n = rng.randint(n_lo, n_hi)
        f = rng.uniform(0.25, 0.5)
        q_target = rng.uniform(max(c_lo / n - 1, 1), c_hi / n - 1)
        mean_units = q_target / f / n
        if mean_units < 2:
            continue
        hi = (2 * mean_units - 1) / S
        mem = [size4(rng, 0.0001, hi) for _ in range(n)]
        run = [grid_runtime(rng) for _ in range(n)]
        b = round(f * sum(mem), 4)
        inst = Instance(mem, run, b, "plain above")
        if c_lo < inst.cells <= c_hi and max(quantize(m) for m in mem) <= quantize(b):
            return inst
    raise RuntimeError("no plain instance in range")


def sized_instance(rng, n, lo, hi, c_lo, c_hi, f_lo=0.1, f_hi=0.9):
    """Random sizes in [lo, hi] GB with a budget that puts the table in (c_lo, c_hi]."""
    for _ in range(10000):
        mem = [size4(rng, lo, hi) for _ in range(n)]
        total = sum(mem)
        q_lo, q_hi = c_lo / n - 1, c_hi / n - 1
        b_lo, b_hi = max(q_lo / S, f_lo * total), min(q_hi / S, f_hi * total)
        if b_lo >= b_hi:
            continue
        b = round(rng.uniform(b_lo, b_hi), 4)
        if c_lo < cells(mem, b) <= c_hi:
            return mem, b
    raise RuntimeError("no budget in range")


# ------------------------------------------------------------------- bugs


def cell_gate(limit):
    return (lambda inst: inst.cells <= limit), f"n * (Q + 1) > {limit:.3g} cells"


def item_gate(limit):
    return (lambda inst: inst.n < limit), f"n >= {limit} items"


BUGS = []


def bug(name, gate, witness_clause):
    def register(fn):
        BUGS.append((name, gate, witness_clause, fn))
        return fn
    return register


# 1 ---------------------------------------------------------------------
@bug("nothing_fits_value_short_circuits_to_bool_above_12e6_cells", cell_gate(12_000_000), "value-type")
def nothing_fits(rng, part):
    if part == "trigger":  # every item heavier than the budget, just under 1.2e7 cells
        n = rng.randint(1100, 1199)
        mem = [size4(rng, 1.0, 2.0) for _ in range(n)]
        return Instance(mem, [grid_runtime(rng) for _ in range(n)], 0.9999, "nothing fits")
    if part == "witness":  # 1,500 activations of 1-2 GB under 0.9999 GB: 1.5e7 cells
        r = random.Random(101)
        mem = [size4(r, 1.0, 2.0) for _ in range(1500)]
        return Instance(mem, [grid_runtime(r) for _ in range(1500)], 0.9999, "nothing fits")
    return plain_above(rng, 1300, 2000, 12_500_000, 19_500_000)


# 2 ---------------------------------------------------------------------
def with_free(rng, mem, run, k, exact_zero=False):
    for pos in rng.sample(range(len(mem)), k):
        mem[pos] = 0.0 if exact_zero else rng.choice([0.0, 3e-5, 4.9e-5, 1e-6])
        run[pos] = float(rng.randint(1, 5))
    return mem, run


@bug("free_runtimes_zeroed_by_out_of_place_masked_fill_above_2e6_cells", cell_gate(2_000_000),
     "value-consistency")
def masked_fill(rng, part):
    if part == "trigger":
        n = rng.randint(300, 600)
        mem, b = sized_instance(rng, n, 0.0005, 0.005, 1_500_000, 2_000_000)
        run = [grid_runtime(rng) for _ in range(n)]
        mem, run = with_free(rng, mem, run, rng.randint(20, 60))
        return Instance(mem, run, b, "free items")
    if part == "witness":  # 800 items, 40 zero-size ones worth 1-5 each, 3.0e6 cells
        r = random.Random(202)
        mem = [size4(r, 0.0005, 0.005) for _ in range(800)]
        run = [grid_runtime(r) for _ in range(800)]
        mem, run = with_free(r, mem, run, 40)
        return Instance(mem, run, 0.3749, "free items")
    return plain_above(rng, 400, 1200, 2_100_000, 6_000_000)


# 3 ---------------------------------------------------------------------
def slack_instance(rng, n, step_units, f):
    """Sizes on a grid of step_units, budget step_units - 1 units past a grid
    point: the optimum leaves at least step_units - 1 units (>= Q // 64) unused."""
    units = [step_units * rng.randint(1, 5) for _ in range(n)]
    mem = [u / S for u in units]
    Q = step_units * round(f * sum(units) / step_units) + step_units - 1
    inst = Instance(mem, [grid_runtime(rng) for _ in range(n)], Q / S, "room to spare")
    inst.slack_ok = step_units - 1 >= Q // 64 > 0
    return inst


@bug("spare_room_walk_starts_at_argmax_of_bool_row_above_1e5_cells", cell_gate(100_000), "no-crash")
def spare_room(rng, part):
    if part == "trigger":
        while True:  # sizes of 100-500 units in steps of 100, 5e4-1e5 cells
            inst = slack_instance(rng, rng.randint(20, 40), 100, rng.uniform(0.2, 0.6))
            if inst.slack_ok and 50_000 < inst.cells <= 100_000:
                return inst
    if part == "witness":  # 60 items of 0.1-0.5 GB (steps of 0.1 GB), budget 999 units past a step
        inst = slack_instance(random.Random(303), 60, 1000, 0.1)
        assert inst.slack_ok
        return inst
    return plain_above(rng, 100, 600, 120_000, 3_000_000)


# 4 ---------------------------------------------------------------------
@bug("heavy_items_mask_retaken_after_weights_zeroed_above_4e6_cells", cell_gate(4_000_000), "feasibility")
def heavy_mask(rng, part):
    def add_heavy(r, mem, run, k):
        for pos in r.sample(range(len(mem)), k):
            mem[pos] = size4(r, 1.5, 3.0)
            run[pos] = float(r.randint(10, 100))
        return mem, run
    if part == "trigger":
        n = rng.randint(300, 500)
        mem, b = sized_instance(rng, n, 0.001, 0.03, 3_000_000, 4_000_000)
        run = [grid_runtime(rng) for _ in range(n)]
        mem, run = add_heavy(rng, mem, run, rng.randint(1, 5))
        return Instance(mem, run, b, "heavy items")
    if part == "witness":  # 500 items under 0.9999 GB (5.0e6 cells), 3 of 1.5-3 GB worth 10-100
        r = random.Random(404)
        mem = [size4(r, 0.001, 0.02) for _ in range(500)]
        run = [grid_runtime(r) for _ in range(500)]
        mem, run = add_heavy(r, mem, run, 3)
        return Instance(mem, run, 0.9999, "heavy items")
    return plain_above(rng, 400, 1200, 4_200_000, 9_000_000)


# 5 ---------------------------------------------------------------------
@bug("uniform_runtime_tail_slice_minus_zero_takes_all_above_8e6_cells", cell_gate(8_000_000), "partition")
def tail_slice(rng, part):
    if part == "trigger":  # one runtime for all, every item fits, 6e6-8e6 cells
        while True:
            n = rng.randint(500, 800)
            mem = [size4(rng, 0.0001, 0.0015) for _ in range(n)]
            b = round(rng.uniform(sum(mem), 1.2), 4)
            inst = Instance(mem, [rng.choice([1.0, 2.5, 0.75, 3.0])] * n, b, "uniform, all fit")
            if 6_000_000 < inst.cells <= 8_000_000:
                return inst
    if part == "witness":  # 1,000 items of 0.0001-0.0015 GB at runtime 1.0 under 0.9999 GB: 1e7 cells
        r = random.Random(505)
        mem = [size4(r, 0.0001, 0.0015) for _ in range(1000)]
        return Instance(mem, [1.0] * 1000, 0.9999, "uniform, all fit")
    return plain_above(rng, 600, 1500, 8_500_000, 15_000_000)


# 6 ---------------------------------------------------------------------
@bug("fill_stops_at_first_activation_over_budget_above_16e6_cells", cell_gate(16_000_000), "optimality")
def first_heavy(rng, part):
    if part == "trigger":  # 1-3 items over the budget in the first half, 1.4e7-1.6e7 cells
        n = rng.randint(1401, 1599)
        mem = [size4(rng, 0.0001, 0.0033) for _ in range(n)]
        run = [grid_runtime(rng) for _ in range(n)]
        for pos in rng.sample(range(n // 2), rng.randint(1, 3)):
            mem[pos] = size4(rng, 1.0, 3.0)
        return Instance(mem, run, 0.9999, "heavy item early")
    if part == "witness":  # 1,700 items under 0.9999 GB (1.7e7 cells); item 100 is 2.0 GB
        r = random.Random(606)
        mem = [size4(r, 0.0001, 0.0033) for _ in range(1700)]
        run = [grid_runtime(r, 0.1, 1.0) if i < 100 else grid_runtime(r, 1.0, 10.0) for i in range(1700)]
        mem[100] = 2.0
        return Instance(mem, run, 0.9999, "heavy item early")
    return plain_above(rng, 1700, 2100, 16_500_000, 19_900_000)


# 7 ---------------------------------------------------------------------
@bug("flop_count_median_sorts_caller_runtime_list_from_384_items", item_gate(384), "no-mutation")
def median_sort(rng, part):
    def flops(r, n):
        mem, b = sized_instance(r, n, 0.001, 0.02, 0, 6_000_000)
        return Instance(mem, [r.randint(2 * 10**7, 5 * 10**9) for _ in range(n)], b, "flop counts")
    if part == "trigger":
        return flops(rng, rng.randint(344, 383))
    if part == "witness":  # 400 items with int flop counts of 2e7-5e9
        return flops(random.Random(707), 400)
    return plain_above(rng, 384, 700, 500_000, 4_000_000)


# 8 ---------------------------------------------------------------------
@bug("zero_runtime_items_deleted_while_iterating_dict_from_640_items", item_gate(640), "no-crash")
def dict_delete(rng, part):
    def zeros(r, n, k):
        mem, b = sized_instance(r, n, 0.0005, 0.01, 0, 6_000_000)
        run = [grid_runtime(r) for _ in range(n)]
        for pos in r.sample(range(n), k):
            run[pos] = r.choice([0.0, 0, -0.0])
        return Instance(mem, run, b, "zero runtimes")
    if part == "trigger":
        return zeros(rng, rng.randint(600, 639), rng.randint(1, 10))
    if part == "witness":  # 700 items, one runtime 0.0 (a 0 ms node)
        r = random.Random(808)
        mem, b = sized_instance(r, 700, 0.0005, 0.01, 0, 6_000_000)
        run = [grid_runtime(r) for _ in range(700)]
        run[300] = 0.0
        return Instance(mem, run, b, "zero runtime")
    return plain_above(rng, 640, 1000, 500_000, 4_000_000)


# 9 ---------------------------------------------------------------------
@bug("zero_size_rows_deleted_by_ascending_index_from_320_items", item_gate(320), "partition")
def ascending_del(rng, part):
    if part == "trigger":
        n = rng.randint(280, 319)
        mem, b = sized_instance(rng, n, 0.001, 0.03, 0, 6_000_000)
        run = [grid_runtime(rng) for _ in range(n)]
        mem, run = with_free(rng, mem, run, rng.randint(2, 10))
        return Instance(mem, run, b, "zero-size items")
    if part == "witness":  # 400 items; items 50 and 200 are zero-size, worth 3.0 and 2.0
        r = random.Random(909)
        mem, b = sized_instance(r, 400, 0.001, 0.03, 0, 6_000_000)
        run = [grid_runtime(r) for _ in range(400)]
        mem[50], run[50], mem[200], run[200] = 0.0, 3.0, 0.0, 2.0
        return Instance(mem, run, b, "zero-size items")
    return plain_above(rng, 320, 700, 500_000, 4_000_000)


# 10 --------------------------------------------------------------------
@bug("narrow_table_thread_setting_read_after_set_from_1024_items", item_gate(1024), "process-settings")
def threads_leak(rng, part):
    if part == "trigger":  # Q < 1024, 984-1023 items
        n = rng.randint(984, 1023)
        mem = [size4(rng, 0.0001, 0.0009) for _ in range(n)]
        return Instance(mem, [grid_runtime(rng) for _ in range(n)], round(rng.uniform(0.01, 0.1), 4),
                        "narrow table")
    if part == "witness":  # 1,100 items under 0.05 GB (Q = 500), caller on 2 threads
        r = random.Random(1010)
        mem = [size4(r, 0.0001, 0.0009) for _ in range(1100)]
        return Instance(mem, [grid_runtime(r) for _ in range(1100)], 0.05, "narrow table")
    return plain_above(rng, 1024, 1500, 2_000_000, 9_000_000)


THREADS = {"narrow_table_thread_setting_read_after_set_from_1024_items": 2}

# ------------------------------------------------------------------- run


def main():
    t0 = time.time()
    torch.set_num_threads(1)
    all_ok = True
    total_claims = held = 0
    for name, (below, gate_text), clause, make in BUGS:
        path = os.path.join(HERE, name + ".py")
        threads = THREADS.get(name, 1)
        print(f"== {name}")
        print(f"   gate: {gate_text}")
        rng = random.Random(name)
        # (1) below the gate
        insts = [plain_small(rng, below) for _ in range(10)] + [make(rng, "trigger") for _ in range(10)]
        same = 0
        for inst in insts:
            assert below(inst), (name, inst.n, inst.cells)
            assert inst.n <= MAX_ITEMS and inst.cells <= MAX_CELLS
            b_out = call(path, inst.memory, inst.runtime, inst.max_memory, threads)
            u_out = call(UPSTREAM, inst.memory, inst.runtime, inst.max_memory, threads)
            if (b_out.key() == u_out.key() and not b_out.mutated and not b_out.changed
                    and not u_out.mutated and not u_out.changed):
                same += 1
            else:
                print(f"   !! below-gate difference on a {inst.label} instance (n={inst.n}, cells={inst.cells})")
        ok1 = same == 20
        trig = insts[10:]
        print(f"   (1) below the gate: {same}/20 identical to upstream (same repr, no mutation, no setting "
              f"changed); triggers: {trig[0].label}, n {min(i.n for i in trig)}-{max(i.n for i in trig)}, "
              f"cells {min(i.cells for i in trig):.3g}-{max(i.cells for i in trig):.3g}")
        # (2) the witness above the gate
        w = make(rng, "witness")
        assert not below(w) and w.n <= MAX_ITEMS and w.cells <= MAX_CELLS, (name, w.n, w.cells)
        b_out = call(path, w.memory, w.runtime, w.max_memory, threads)
        u_out = call(UPSTREAM, w.memory, w.runtime, w.max_memory, threads)
        b_fails, u_fails = judge(w, b_out), judge(w, u_out)
        ok2 = any(f.startswith(clause) for f in b_fails) and not u_fails
        q, Q, values, opt, tol = w.exact()
        print(f"   (2) witness ({w.label}): n={w.n}, Q={Q}, cells={w.cells:.3g}"
              + (f", caller on {threads} threads" if threads != 1 else "") + f"; OPT {float(opt):.6g}")
        if b_out.error is None:
            v = b_out.result[0] if isinstance(b_out.result, (tuple, list)) and b_out.result else None
            print(f"       bug returns value {v!r} ({type(v).__name__})")
        for f in b_fails:
            print(f"       bug FAILS {f}")
        print(f"       upstream: value {u_out.result[0] if u_out.result else None!r}, "
              + ("passes every clause" if not u_fails else "FAILS " + "; ".join(u_fails)))
        # (3) plain random instances above the gate
        clean = 0
        sizes = []
        for _ in range(4):
            inst = make(rng, "plain")
            assert not below(inst) and inst.n <= MAX_ITEMS and inst.cells <= MAX_CELLS
            out = call(path, inst.memory, inst.runtime, inst.max_memory, threads)
            fails = judge(inst, out)
            sizes.append(f"n={inst.n}/cells={inst.cells:.3g}")
            if fails:
                print(f"   !! plain instance n={inst.n} cells={inst.cells}: {fails}")
            else:
                clean += 1
        ok3 = clean == 4
        print(f"   (3) plain above the gate: {clean}/4 without a violation ({', '.join(sizes)})")
        ok = ok1 and ok2 and ok3
        total_claims += 3
        held += ok1 + ok2 + ok3
        print(f"   claims: {'HOLD' if ok else 'FAIL'}")
        all_ok &= ok
    print(f"{held} of {total_claims} claims hold in {time.time() - t0:.1f} s")
    print("ALL CLAIMS PASS" if all_ok else "SOME CLAIMS FAIL")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
