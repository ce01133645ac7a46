"""Claims for the ten bugs of /work/blind26, with an independent exact judge.

Run from /work/blind26:  OMP_NUM_THREADS=1 /work/main/.venv/bin/python bugs/witnesses.py

Nothing from the audited project is imported.  The judge:
- quantizes by SPEC 2.1: q = round(float(m) * 10000), float64 product, half to even
  (the exact product int(m) * 10000 when the float product overflows);
- values runtime i as the exact Fraction of float(runtime[i]) (SPEC 3.1);
- computes OPT with an exact 0/1 integer DP (runtimes scaled by their common
  power-of-two denominator; numpy int64 when safe, Python ints otherwise);
- allows SPEC 5.4's tolerance, in Fractions;
- checks SPEC 7.2 (shape, plain-int partition, feasibility, optimality, finite
  real non-bool value consistent with the selection), SPEC 8.2/8.5 (inputs:
  container type, length, each entry's type and repr) and SPEC 8.6 (the
  process-wide settings listed there, read before and after each call).

For each bug it checks:
  1. the witness above the gate fails the named clause, and upstream passes
     every clause on the same call;
  2. 200 seeded instances below the gate (100 plain small ones, 100 carrying the
     bug's trigger just under the gate): the bug returns exactly upstream's
     tuple (same repr, same element types), mutates nothing, changes no setting;
  3. 200 seeded plain random instances past the gate: no violation.
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
ROOT = os.path.dirname(HERE)
UPSTREAM = os.path.join(ROOT, "upstream_dp_knapsack.py")
S = 10000
MAX_ITEMS = 2114
MAX_CELLS = 2e7

# --------------------------------------------------------------------------- judge


def quantize(v):
    v = float(v)
    p = v * S
    if math.isinf(p):
        return int(v) * S
    return round(p)


def cells(memory, max_memory):
    return len(memory) * (quantize(max_memory) + 1)


def exact_opt(memory, runtime, max_memory):
    Q = quantize(max_memory)
    items = []
    for m, r in zip(memory, runtime):
        q = quantize(m)
        v = Fraction(float(r))
        if q <= Q and v > 0:
            items.append((q, v))
    if not items:
        return Fraction(0)
    den = max(v.denominator for _, v in items)
    ints = [(q, int(v * den)) for q, v in items]
    total = sum(v for _, v in ints)
    width = min(Q, sum(q for q, _ in ints)) + 1
    if total < 2**62:
        dp = np.zeros(width, dtype=np.int64)
    else:
        dp = np.array([0] * width, dtype=object)
    for q, v in ints:
        if q == 0:
            dp = dp + v
        elif q < width:
            dp[q:] = np.maximum(dp[q:], dp[:-q] + v)
    return Fraction(int(dp[-1]), den)


def tolerance(memory, runtime, max_memory):
    n = len(memory)
    Q = quantize(max_memory)
    u = Fraction(1, 2**24)
    k = n + 1
    gamma = k * u / (1 - k * u)
    s = sum(abs(Fraction(float(r))) for m, r in zip(memory, runtime) if quantize(m) <= Q)
    return 2 * gamma * s + 2 * (n + 1) * Fraction(1, 2**149)


def judge(memory, runtime, max_memory, result):
    """Failed SPEC 7.2 properties of one answer (an exception is 'no-crash')."""
    if isinstance(result, BaseException):
        return ["no-crash"]
    fails = []
    if not (isinstance(result, (tuple, list)) and len(result) == 3):
        return ["return-shape"]
    value, saved, recomputable = result
    n = len(memory)
    Q = quantize(max_memory)
    try:
        saved = list(saved)
        recomputable = list(recomputable)
    except TypeError:
        return ["partition"]
    if not all(type(x) is int for x in saved + recomputable) or sorted(
        saved + recomputable
    ) != list(range(n)):
        fails.append("partition")
    chosen = {x for x in saved if type(x) is int and 0 <= x < n}
    if sum(quantize(memory[i]) for i in chosen) > Q:
        fails.append("feasibility")
    worth = sum((Fraction(float(runtime[i])) for i in chosen), Fraction(0))
    tol = tolerance(memory, runtime, max_memory)
    if exact_opt(memory, runtime, max_memory) - worth > tol:
        fails.append("optimality")
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, bool)
        or not math.isfinite(value)
    ):
        fails.append("value-type")
    elif abs(Fraction(float(value)) - worth) > tol:
        fails.append("value-consistency")
    return fails


# ----------------------------------------------------------- settings and inputs


def _ftz_on():
    return bool((torch.tensor([1e-40], dtype=torch.float32) * 1.0).item() == 0.0)


def settings():
    return {
        "default dtype": torch.get_default_dtype(),
        "default device": str(torch.get_default_device()),
        "grad mode": torch.is_grad_enabled(),
        "deterministic algorithms": (
            torch.are_deterministic_algorithms_enabled(),
            torch.is_deterministic_algorithms_warn_only_enabled(),
        ),
        "intra-op threads": torch.get_num_threads(),
        "float32 matmul precision": torch.get_float32_matmul_precision(),
        "flush-denormal": _ftz_on(),
        "torch CPU RNG": bytes(torch.get_rng_state().numpy()),
        "python random": random.getstate(),
        "numpy errstate": tuple(sorted(np.geterr().items())),
        "recursion limit": sys.getrecursionlimit(),
    }


def restore(s):
    torch.set_default_dtype(s["default dtype"])
    torch.set_grad_enabled(s["grad mode"])
    det, warn = s["deterministic algorithms"]
    torch.use_deterministic_algorithms(det, warn_only=warn)
    torch.set_num_threads(s["intra-op threads"])
    torch.set_float32_matmul_precision(s["float32 matmul precision"])
    torch.set_flush_denormal(s["flush-denormal"])
    torch.set_rng_state(torch.tensor(list(s["torch CPU RNG"]), dtype=torch.uint8))
    random.setstate(s["python random"])
    np.seterr(**dict(s["numpy errstate"]))
    sys.setrecursionlimit(s["recursion limit"])


def snapshot(seq):
    return (type(seq), len(seq), [(type(x), repr(x)) for x in seq])


def load(path):
    spec = importlib.util.spec_from_file_location(
        "m%d" % random.getrandbits(32), path
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


class Outcome:
    def __init__(self, result, mutated, changed):
        self.result = result
        self.mutated = mutated
        self.changed = changed


def run(path, memory, runtime, max_memory):
    fn = load(path)
    mem = list(memory) if isinstance(memory, list) else tuple(memory)
    rt = list(runtime) if isinstance(runtime, list) else tuple(runtime)
    before = (snapshot(mem), snapshot(rt))
    s0 = settings()
    try:
        result = fn(mem, rt, max_memory)
    except Exception as e:  # noqa: BLE001
        result = e
    s1 = settings()
    restore(s0)
    changed = sorted(k for k in s0 if s0[k] != s1[k])
    return Outcome(result, (snapshot(mem), snapshot(rt)) != before, changed)


def failures(memory, runtime, max_memory, out):
    f = judge(memory, runtime, max_memory, out.result)
    if out.mutated:
        f.append("no-mutation")
    if out.changed:
        f.append("process-settings(%s)" % ", ".join(out.changed))
    return f


def same(a, b):
    ra, rb = a.result, b.result
    if isinstance(ra, BaseException) or isinstance(rb, BaseException):
        return type(ra) is type(rb) and str(ra) == str(rb)
    if repr(ra) != repr(rb) or type(ra) is not type(rb):
        return False
    types = lambda r: [type(r[0]), type(r[1]), type(r[2])] + [type(x) for x in r[1]] + [
        type(x) for x in r[2]
    ]
    return types(ra) == types(rb) and not a.mutated and not b.mutated and not a.changed and not b.changed


# ------------------------------------------------------------------ generators


def grid_runtime(rng, lo=0.1, hi=10.0):
    return round(rng.uniform(lo, hi) * 2**20) / 2**20


def size4(rng, lo=0.0005, hi=0.01):
    return round(rng.uniform(lo, hi), 4)


def plain_items(rng, n, lo=0.0005, hi=0.01, rlo=0.1, rhi=10.0):
    return [size4(rng, lo, hi) for _ in range(n)], [grid_runtime(rng, rlo, rhi) for _ in range(n)]


def binding_budget(rng, memory, lo=0.25, hi=0.5):
    return round(sum(memory) * rng.uniform(lo, hi), 4)


def shuffled(rng, memory, runtime):
    pairs = list(zip(memory, runtime))
    rng.shuffle(pairs)
    return [m for m, _ in pairs], [r for _, r in pairs]


def plain_small(rng):
    n = rng.randint(5, 60)
    memory, runtime = plain_items(rng, n, 0.0001, 0.03)
    return memory, runtime, round(sum(memory) * rng.uniform(0.25, 1.2), 4)


# --------------------------------------------------------------------- the bugs
# Each entry: gate(memory, runtime, max_memory) -> bool (computed here, on its own),
# witness() -> (memory, runtime, max_memory), the clause the witness fails,
# trigger_below(rng) and plain_above(rng).

BUGS = {}


def bug(name):
    def deco(cls):
        BUGS[name] = cls
        return cls

    return deco


@bug("free_items_mirrored_by_reversed_enumerate_from_64_free_items")
class FreeMirrored:
    clause = "value-consistency"
    region = "zero-size items whose runtimes mix 0 and > 0, not in a mirror-symmetric order"

    @staticmethod
    def gate(memory, runtime, max_memory):
        return sum(quantize(m) == 0 for m in memory) >= 64

    @staticmethod
    def _build(rng, n_sized, n_free, free_runtimes):
        memory, runtime = plain_items(rng, n_sized, 0.001, 0.03)
        budget = binding_budget(rng, memory, 0.3, 0.3)
        positions = sorted(rng.sample(range(n_sized + n_free), n_free))
        fm, fr = [], []
        mem, rt = [], []
        it_s = iter(zip(memory, runtime))
        it_f = iter(free_runtimes)
        for k in range(n_sized + n_free):
            if positions and k == positions[0]:
                positions.pop(0)
                mem.append(0.0)
                rt.append(next(it_f))
            else:
                m, r = next(it_s)
                mem.append(m)
                rt.append(r)
        return mem, rt, budget

    @classmethod
    def witness(cls):
        rng = random.Random(101)
        free_rt = [grid_runtime(rng, 1.0, 5.0) for _ in range(40)] + [0.0] * 40
        return cls._build(rng, 300, 80, free_rt)

    @classmethod
    def trigger_below(cls, rng):
        k = rng.randint(20, 31)
        free_rt = [grid_runtime(rng, 1.0, 5.0) for _ in range(k)] + [0.0] * rng.randint(10, 63 - k)
        return cls._build(rng, rng.randint(50, 150), len(free_rt), free_rt)

    @classmethod
    def plain_above(cls, rng):
        n_free = rng.randint(64, 130)
        free_rt = [grid_runtime(rng) for _ in range(n_free)]
        mem, rt, b = cls._build(rng, rng.randint(150, 300), n_free, free_rt)
        # sizes of views: 0.0 or under half a unit
        mem = [m if m > 0 or rng.random() < 0.5 else round(rng.uniform(0, 4.9e-5), 7) for m in mem]
        return mem, rt, b


@bug("saved_float_total_trimmed_to_budget_from_768_items")
class FloatTrim:
    clause = "optimality"
    region = "a plan whose float total of sizes exceeds the budget by over 1% (views of 1e-5 to 5e-5 GB, sizes that round down)"

    @staticmethod
    def gate(memory, runtime, max_memory):
        return len(memory) >= 768

    @staticmethod
    def _build(rng, n_sized, n_free, budget, free_size=4e-5):
        memory, runtime = plain_items(rng, n_sized, 0.001, 0.01)
        memory += [free_size] * n_free
        runtime += [grid_runtime(rng, 1.0, 2.0) for _ in range(n_free)]
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, budget

    @classmethod
    def witness(cls):
        return cls._build(random.Random(202), 700, 100, 0.05)

    @classmethod
    def variant_zero_budget(cls):
        return cls._build(random.Random(203), 700, 100, 0.0)

    @classmethod
    def trigger_below(cls, rng):
        n_free = rng.randint(40, 120)
        return cls._build(rng, rng.randint(200, 767 - n_free), n_free, rng.choice([0.0, 0.02, 0.05]))

    @classmethod
    def plain_above(cls, rng):
        memory, runtime = plain_items(rng, rng.randint(768, 1000), 0.0005, 0.005)
        return memory, runtime, binding_budget(rng, memory)


@bug("deterministic_mode_restored_in_for_else_from_16_heavy_items")
class ForElse:
    clause = "process-settings"
    region = "a list that ends with a run of 8+ activations larger than the budget"

    @staticmethod
    def gate(memory, runtime, max_memory):
        Q = quantize(max_memory)
        return sum(quantize(m) > Q for m in memory) >= 16

    @staticmethod
    def _build(rng, n_plain, n_scattered, n_tail):
        memory, runtime = plain_items(rng, n_plain, 0.001, 0.02)
        budget = binding_budget(rng, memory, 0.3, 0.3)
        for _ in range(n_scattered):
            k = rng.randint(0, len(memory))
            memory.insert(k, round(budget * rng.uniform(1.2, 3.0), 4))
            runtime.insert(k, grid_runtime(rng))
        for _ in range(n_tail):
            memory.append(round(budget * rng.uniform(1.2, 3.0), 4))
            runtime.append(grid_runtime(rng))
        return memory, runtime, budget

    @classmethod
    def witness(cls):
        return cls._build(random.Random(303), 300, 12, 10)

    @classmethod
    def trigger_below(cls, rng):
        tail = rng.randint(8, 15)
        return cls._build(rng, rng.randint(50, 200), rng.randint(0, 15 - tail), tail)

    @classmethod
    def plain_above(cls, rng):
        return cls._build(rng, rng.randint(200, 350), rng.randint(16, 40), 0)


@bug("copy_bundles_quantized_on_float_total_from_16_copies_of_a_type")
class BundleQuant:
    clause = "feasibility"
    region = "16+ copies of a size off the 1e-4 GB grid (0.00016 GB = 1.6 units weighs 2; 4 copies weigh 6 as a bundle)"

    @staticmethod
    def gate(memory, runtime, max_memory):
        c = Counter((quantize(m), float(r)) for m, r in zip(memory, runtime))
        return max(c.values()) >= 16

    @classmethod
    def witness(cls):
        rng = random.Random(404)
        memory, runtime = plain_items(rng, 200, 0.001, 0.02, 0.1, 2.0)
        memory += [0.00016] * 40
        runtime += [1.0] * 40
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, 0.03

    @classmethod
    def trigger_below(cls, rng):
        memory, runtime = plain_items(rng, rng.randint(30, 150), 0.001, 0.02, 0.1, 2.0)
        for _ in range(rng.randint(1, 3)):
            size = rng.choice([0.00016, 0.00024, 0.00136, 0.0123456, 4e-5])
            k = rng.randint(8, 15)
            memory += [size] * k
            runtime += [grid_runtime(rng, 0.5, 2.0)] * k
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, round(sum(memory) * rng.uniform(0.05, 0.5), 4)

    @classmethod
    def plain_above(cls, rng):
        memory, runtime = plain_items(rng, rng.randint(150, 300))
        for _ in range(rng.randint(1, 3)):
            k = rng.randint(16, 48)
            memory += [size4(rng)] * k
            runtime += [grid_runtime(rng)] * k
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, binding_budget(rng, memory)


@bug("saved_deque_capped_by_lightest_size_from_384_items")
class DequeCap:
    clause = "partition"
    region = "zero-size items saved beside a plan of Q // q_min sized items (a budget filled by items of the lightest size)"

    @staticmethod
    def gate(memory, runtime, max_memory):
        return len(memory) >= 384

    @staticmethod
    def _build(rng, n_light, n_free, n_other):
        memory = [0.001] * n_light + [0.0] * n_free + [size4(rng, 0.02, 0.05) for _ in range(n_other)]
        runtime = (
            [grid_runtime(rng, 1.0, 2.0) for _ in range(n_light)]
            + [grid_runtime(rng, 0.5, 1.0) for _ in range(n_free)]
            + [grid_runtime(rng, 0.1, 1.0) for _ in range(n_other)]
        )
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, 0.1

    @classmethod
    def witness(cls):
        return cls._build(random.Random(505), 300, 60, 40)

    @classmethod
    def trigger_below(cls, rng):
        return cls._build(rng, rng.randint(150, 300), rng.randint(20, 60), rng.randint(0, 20))

    @classmethod
    def plain_above(cls, rng):
        memory, runtime = plain_items(rng, rng.randint(384, 700))
        return memory, runtime, binding_budget(rng, memory)


@bug("one_size_top_k_strict_threshold_drops_ties_from_128_one_size_items")
class TieThreshold:
    clause = "optimality"
    region = "a repeated size whose Q // q-th and (Q // q + 1)-th dearest items tie (one runtime, whole flop counts, copies)"

    @staticmethod
    def gate(memory, runtime, max_memory):
        c = Counter(q for q in map(quantize, memory) if q > 0)
        return bool(c) and max(c.values()) >= 128

    @staticmethod
    def _build(rng, n_size, size, size_runtimes, n_other, budget):
        memory, runtime = plain_items(rng, n_other, 0.001, 0.05, 0.1, 2.0)
        memory += [size] * n_size
        runtime += size_runtimes
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, budget

    @classmethod
    def witness(cls):
        return cls._build(random.Random(606), 300, 0.01, [5.0] * 300, 100, 0.5)

    @classmethod
    def trigger_below(cls, rng):
        k = rng.randint(60, 127)
        return cls._build(rng, k, 0.01, [rng.choice([1.0, 5.0, 3.0])] * k, rng.randint(20, 100), round(rng.uniform(0.1, 0.5), 4))

    @classmethod
    def plain_above(cls, rng):
        k = rng.randint(128, 300)
        size = size4(rng, 0.001, 0.01)
        mem, rt, _ = cls._build(rng, k, size, [grid_runtime(rng) for _ in range(k)], rng.randint(100, 200), 0)
        return mem, rt, binding_budget(rng, mem)


@bug("big_items_exclusive_by_float_pair_sum_from_64_big_items")
class FloatPair:
    clause = "optimality"
    region = "the two lightest activations over 40% of the budget fit together in units but not in floats (0.50004 GB twice under 1.0 GB)"

    @staticmethod
    def gate(memory, runtime, max_memory):
        return sum(m > 0.4 * max_memory for m in memory) >= 64

    @classmethod
    def witness(cls):
        rng = random.Random(707)
        memory, runtime = plain_items(rng, 300, 0.001, 0.005, 0.01, 0.05)
        memory += [0.50004, 0.50004]
        runtime += [100.0, 100.0]
        memory += [size4(rng, 0.6, 0.95) for _ in range(62)]
        runtime += [grid_runtime(rng, 1.0, 5.0) for _ in range(62)]
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, 1.0

    @classmethod
    def trigger_below(cls, rng):
        memory, runtime = plain_items(rng, rng.randint(50, 150), 0.001, 0.005, 0.01, 0.05)
        memory += [0.50004, 0.50004]
        runtime += [100.0, 100.0]
        k = rng.randint(20, 61)
        memory += [size4(rng, 0.6, 0.95) for _ in range(k)]
        runtime += [grid_runtime(rng, 1.0, 5.0) for _ in range(k)]
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, 1.0

    @classmethod
    def plain_above(cls, rng):
        memory, runtime = plain_items(rng, rng.randint(150, 250), 0.0005, 0.01)
        budget = binding_budget(rng, memory)
        k = rng.randint(64, 100)
        memory += [round(budget * rng.uniform(0.41, 1.6), 4) for _ in range(k)]
        runtime += [grid_runtime(rng) for _ in range(k)]
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, budget


@bug("fitting_items_swapped_front_undone_forward_above_2e6_cells")
class SwapUndo:
    clause = "no-mutation"
    region = "an activation larger than the budget followed by 2+ that fit (the swaps chain)"

    @staticmethod
    def gate(memory, runtime, max_memory):
        return cells(memory, max_memory) > 2e6

    @staticmethod
    def _build(rng, n, n_heavy, lo, hi):
        memory, runtime = plain_items(rng, n, lo, hi)
        budget = binding_budget(rng, memory, 0.3, 0.3)
        for _ in range(n_heavy):
            k = rng.randint(0, len(memory) - 3)
            memory.insert(k, round(budget * rng.uniform(2.0, 3.0), 4))
            runtime.insert(k, grid_runtime(rng))
        return memory, runtime, budget

    @classmethod
    def witness(cls):
        return cls._build(random.Random(808), 400, 10, 0.001, 0.02)

    @classmethod
    def trigger_below(cls, rng):
        return cls._build(rng, rng.randint(60, 150), rng.randint(1, 10), 0.001, 0.02)

    @classmethod
    def plain_above(cls, rng):
        memory, runtime = plain_items(rng, rng.randint(300, 450), 0.001, 0.02)
        return memory, runtime, binding_budget(rng, memory)


@bug("one_runtime_lightest_k_via_kthvalue_from_256_same_runtime_items")
class KthValue:
    clause = "no-crash"
    region = "one runtime for every item under a budget below every size (nothing fits)"

    @staticmethod
    def gate(memory, runtime, max_memory):
        return len(memory) >= 256 and len(set(map(float, runtime))) == 1

    @classmethod
    def witness(cls):
        rng = random.Random(909)
        memory = [size4(rng, 0.01, 0.05) for _ in range(300)]
        return memory, [1.0] * 300, 0.005

    @classmethod
    def trigger_below(cls, rng):
        n = rng.randint(100, 255)
        memory = [size4(rng, 0.01, 0.05) for _ in range(n)]
        return memory, [rng.choice([1.0, 2.5, 0.75])] * n, rng.choice([0.0, 0.005, 0.0099])

    @classmethod
    def plain_above(cls, rng):
        n = rng.randint(256, 500)
        memory = [size4(rng) for _ in range(n)]
        return memory, [grid_runtime(rng)] * n, binding_budget(rng, memory)


@bug("copy_types_keyed_by_runtime_share_of_max_from_64_copies")
class ShareKey:
    clause = "optimality"
    region = "a runtime a million times the others' (here on an item too large to save), so every other runtime's share rounds to 0"

    @staticmethod
    def gate(memory, runtime, max_memory):
        c = Counter((quantize(m), float(r)) for m, r in zip(memory, runtime))
        return sum(v for v in c.values() if v >= 2) >= 64

    @staticmethod
    def _build(rng, n_layer, n_other, dominant, budget):
        memory = [0.01] * n_layer
        runtime = [rng.choice([1.0, 2.0, 3.0, 4.0, 5.0]) for _ in range(n_layer)]
        m2, r2 = plain_items(rng, n_other, 0.001, 0.05)
        memory += m2 + [2.0]
        runtime += r2 + [dominant]
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, budget

    @classmethod
    def witness(cls):
        return cls._build(random.Random(1010), 300, 50, 1e8, 0.5)

    @classmethod
    def trigger_below(cls, rng):
        # under the gate: fewer than 64 items that repeat another exactly
        n_layer = rng.randint(20, 40)
        mem, rt, b = cls._build(rng, n_layer, rng.randint(20, 80), 1e8, round(rng.uniform(0.05, 0.2), 4))
        return mem, rt, b

    @classmethod
    def plain_above(cls, rng):
        memory, runtime = plain_items(rng, rng.randint(150, 250))
        copies = 0
        while copies < 64:
            k = rng.randint(12, 30)
            memory += [size4(rng)] * k
            runtime += [grid_runtime(rng)] * k
            copies += k
        memory, runtime = shuffled(rng, memory, runtime)
        return memory, runtime, binding_budget(rng, memory)


# ---------------------------------------------------------------------- claims

ALL_OK = True


def claim(ok, text):
    global ALL_OK
    ALL_OK &= bool(ok)
    print(("PASS " if ok else "FAIL ") + text, flush=True)


def check_size(memory, max_memory):
    assert len(memory) <= MAX_ITEMS, len(memory)
    assert cells(memory, max_memory) <= MAX_CELLS, cells(memory, max_memory)


def describe(result):
    if isinstance(result, BaseException):
        return "%s: %s" % (type(result).__name__, str(result)[:100])
    v, s, r = result
    return "value %r, %d saved, %d recomputable" % (v, len(s), len(r))


def witness_claim(name, cls, inst, label="witness"):
    path = os.path.join(HERE, name + ".py")
    memory, runtime, budget = inst
    check_size(memory, budget)
    assert cls.gate(memory, runtime, budget), "witness below the gate"
    out_bug = run(path, memory, runtime, budget)
    out_up = run(UPSTREAM, memory, runtime, budget)
    f_bug = failures(memory, runtime, budget, out_bug)
    f_up = failures(memory, runtime, budget, out_up)
    opt = exact_opt(memory, runtime, budget)
    ok = any(f.startswith(cls.clause) for f in f_bug) and not f_up
    claim(
        ok,
        "%s %s: n=%d, Q=%d, cells=%.2e, OPT=%.6g; bug fails %s (%s); upstream fails %s (%s)"
        % (
            name, label, len(memory), quantize(budget), cells(memory, budget), float(opt),
            f_bug, describe(out_bug.result), f_up or "nothing", describe(out_up.result),
        ),
    )
    return out_bug, out_up


def main():
    torch.set_num_threads(1)
    t0 = time.time()
    only = sys.argv[1:]
    for name, cls in BUGS.items():
        if only and not any(o in name for o in only):
            continue
        t = time.time()
        path = os.path.join(HERE, name + ".py")
        print("=" * 78)
        print(name)
        print("  region:", cls.region)
        # 1. witness
        out_bug, _ = witness_claim(name, cls, cls.witness())
        if name.startswith("saved_float_total"):
            witness_claim(name, cls, cls.variant_zero_budget(), "variant (budget 0.0)")
        if cls.clause == "no-mutation":
            mem, rt, b = cls.witness()
            m2, r2 = list(mem), list(rt)
            fn = load(path)
            fn(m2, r2, b)
            moved = sum(1 for x, y in zip(mem, m2) if repr(x) != repr(y))
            print("     the caller's memory list after the call: %d of %d entries moved" % (moved, len(mem)))
        # 2. below the gate: exactly upstream's tuple
        rng = random.Random(sum(map(ord, name)))
        equal = 0
        triggers = 0
        for k in range(200):
            if k % 2 == 0:
                inst = plain_small(rng)
            else:
                inst = cls.trigger_below(rng)
                triggers += 1
            memory, runtime, budget = inst
            check_size(memory, budget)
            assert not cls.gate(memory, runtime, budget), "a below-gate instance is past the gate"
            a = run(path, memory, runtime, budget)
            b = run(UPSTREAM, memory, runtime, budget)
            equal += same(a, b)
        claim(equal == 200, "%s below the gate: bug == upstream's tuple on %d of 200 (%d carry the trigger)" % (name, equal, triggers))
        # 3. plain random past the gate
        right = 0
        first_bad = None
        for k in range(200):
            memory, runtime, budget = cls.plain_above(rng)
            check_size(memory, budget)
            assert cls.gate(memory, runtime, budget), "a plain instance is below the gate"
            out = run(path, memory, runtime, budget)
            f = failures(memory, runtime, budget, out)
            right += not f
            if f and first_bad is None:
                first_bad = (k, f, len(memory), quantize(budget))
        claim(right == 200, "%s past the gate: judged right on %d of 200 plain random instances%s"
              % (name, right, "" if first_bad is None else " (first failure %r)" % (first_bad,)))
        print("  (%.1f s)" % (time.time() - t))
    print("=" * 78)
    print("total %.1f s" % (time.time() - t0))
    print("ALL CLAIMS PASS" if ALL_OK else "SOME CLAIMS FAIL")
    return 0 if ALL_OK else 1


if __name__ == "__main__":
    sys.exit(main())
