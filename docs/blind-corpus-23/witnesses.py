"""Claims for the ten bugs of /work/blind24, with an independent judge.

Run from anywhere:  OMP_NUM_THREADS=1 /work/main/.venv/bin/python bugs/witnesses.py

The judge imports nothing from the project. It quantizes by SPEC 2.1, values runtimes as
exact Fractions (SPEC 3.1), computes the optimum with an integer DP over the items that
fit alone (runtimes scaled by their common power-of-two denominator), allows SPEC 5.4's
float32 tolerance, and checks the result form of SPEC 7.2, input mutation (SPEC 8.2, 8.5:
container type, length, every entry's type and repr) and the process-wide settings of
SPEC 8.6 (read before and after each call, and put back after it).

For each bug it checks:
  1. 20 seeded instances below the gate (10 plain, 10 with the trigger just under the
     gate): the bug returns exactly upstream's tuple (same repr, or the same exception),
     and leaves inputs and settings alone;
  2. one witness above the gate: the bug fails the named clause, upstream passes every
     clause on the same call;
  3. 4 plain random instances above the gate (sizes to 4 decimals, binding budget): the
     bug passes every clause.
Every module is loaded fresh for every call, with fresh input lists.
"""

from __future__ import annotations

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
ROOT = os.path.dirname(HERE)
UPSTREAM = os.path.join(ROOT, "upstream_dp_knapsack.py")
S = 10000
MAX_ITEMS, MAX_CELLS = 2100, 2e7

# ----------------------------------------------------------------------------- judge


def quantize(value) -> int:
    """SPEC 2.1: round(float(m) * 10000), float64 product, half to even."""
    product = float(value) * S
    if math.isinf(product):
        return int(value) * S
    return round(product)


def cells(memory, max_memory) -> int:
    return len(memory) * (quantize(max_memory) + 1)


def optimum(qs: list[int], values: list[Fraction], Q: int) -> Fraction:
    """Exact OPT: integer 0/1 DP over the items that fit alone (SPEC 3.2)."""
    base = sum((v for q, v in zip(qs, values) if q == 0 and v > 0), Fraction(0))
    items = [(q, v) for q, v in zip(qs, values) if 0 < q <= Q and v > 0]
    if not items:
        return base
    den = 1
    for _, v in items:
        den = max(den, v.denominator)  # powers of two: the largest is a multiple of all
    ints = [(q, int(v * den)) for q, v in items]
    total = sum(w for _, w in ints)
    dp = np.zeros(Q + 1, dtype=np.int64 if total < 2**62 else object)
    for q, w in ints:
        dp[q:] = np.maximum(dp[q:], dp[:-q] + w)
    return base + Fraction(int(dp[Q]), den)


def tolerance(qs, values, Q, n) -> Fraction:
    """SPEC 5.2 as amended by 5.4."""
    u = Fraction(1, 2**24)
    gamma = (n + 1) * u / (1 - (n + 1) * u)
    fit_sum = sum((abs(v) for q, v in zip(qs, values) if q <= Q), Fraction(0))
    return 2 * gamma * fit_sum + 2 * (n + 1) * Fraction(1, 2**149)


def snapshot(seq):
    return (type(seq), len(seq), [(type(x), repr(x)) for x in seq])


def _ftz_on() -> bool:
    return (torch.tensor([1e-40], dtype=torch.float32) * 1.0).item() == 0.0


def settings() -> dict:
    return {
        "numpy error handling": tuple(sorted(np.geterr().items())),
        "torch default dtype": torch.get_default_dtype(),
        "torch default device": str(torch.get_default_device()),
        "grad mode": torch.is_grad_enabled(),
        "intra-op threads": torch.get_num_threads(),
        "deterministic algorithms": torch.are_deterministic_algorithms_enabled(),
        "float32 matmul precision": torch.get_float32_matmul_precision(),
        "flush-denormal mode": _ftz_on(),
        "torch CPU RNG state": bytes(torch.get_rng_state().numpy()),
        "python random state": random.getstate(),
        "recursion limit": sys.getrecursionlimit(),
    }


def restore(before: dict) -> None:
    np.seterr(**dict(before["numpy error handling"]))
    torch.set_default_dtype(before["torch default dtype"])
    torch.set_default_device(before["torch default device"])
    torch.set_grad_enabled(before["grad mode"])
    torch.set_num_threads(before["intra-op threads"])
    torch.use_deterministic_algorithms(before["deterministic algorithms"])
    torch.set_float32_matmul_precision(before["float32 matmul precision"])
    torch.set_flush_denormal(before["flush-denormal mode"])
    torch.set_rng_state(torch.tensor(list(before["torch CPU RNG state"]), dtype=torch.uint8))
    random.setstate(before["python random state"])
    sys.setrecursionlimit(before["recursion limit"])


_COUNTER = [0]


def load(path: str):
    _COUNTER[0] += 1
    spec = importlib.util.spec_from_file_location(f"_b24_{_COUNTER[0]}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def call(path: str, memory, runtime, max_memory):
    """One call on a fresh module with fresh lists. Returns (outcome, mutated, settings)."""
    assert len(memory) <= MAX_ITEMS and cells(memory, max_memory) <= MAX_CELLS
    solver = load(path).dp_knapsack
    memory, runtime = _fresh(memory), _fresh(runtime)
    before_inputs = (snapshot(memory), snapshot(runtime))
    before = settings()
    try:
        outcome = ("ok", solver(memory, runtime, max_memory))
    except Exception as exc:  # noqa: BLE001 - a crash is a finding
        outcome = ("raised", f"{type(exc).__name__}: {exc}")
    after = settings()
    restore(before)
    changed = [
        k if k in ("torch CPU RNG state", "python random state")
        else f"{k}: {_short(before[k])} -> {_short(after[k])}"
        for k in before
        if before[k] != after[k]
    ]
    mutated = [
        f"{label}: {describe(b, a)}"
        for label, b, a in zip(("memory", "runtime"), before_inputs, (snapshot(memory), snapshot(runtime)))
        if a != b
    ]
    return outcome, mutated, changed


def describe(before, after) -> str:
    if before[0] is not after[0]:
        return f"container {before[0].__name__} -> {after[0].__name__}"
    if before[1] != after[1]:
        return f"length {before[1]} -> {after[1]}"
    k = next(k for k, (x, y) in enumerate(zip(before[2], after[2])) if x != y)
    return f"entry {k}: {before[2][k][1]} -> {after[2][k][1]}"


def _short(value) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return ", ".join(f"{k}={v}" for k, v in value)
    return str(value)


def _fresh(seq):
    return type(seq)(seq) if isinstance(seq, (list, tuple)) else seq


def judge(memory, runtime, max_memory, outcome, mutated, changed) -> dict[str, str]:
    """Every clause the call fails, with a short explanation."""
    fails: dict[str, str] = {}
    if mutated:
        fails["no mutation (SPEC 8.2, 8.5)"] = "; ".join(mutated)
    if changed:
        fails["process-wide settings (SPEC 8.6)"] = ", ".join(changed) + " changed"
    kind, result = outcome
    if kind == "raised":
        fails["no crash (SPEC 7.2, 9.1)"] = result
        return fails
    if not isinstance(result, (tuple, list)) or len(result) != 3:
        fails["return shape (SPEC 7.2 a)"] = repr(type(result))
        return fails
    value, saved, recomputable = result
    n = len(memory)
    qs = [quantize(m) for m in memory]
    Q = quantize(max_memory)
    values = [Fraction(float(r)) for r in runtime]
    try:
        entries = list(saved) + list(recomputable)
    except TypeError:
        fails["partition (SPEC 7.2 b)"] = "a list is not iterable"
        return fails
    if not all(type(i) is int for i in entries):
        fails["partition (SPEC 7.2 b)"] = "an entry is not a plain int"
        return fails
    if sorted(entries) != list(range(n)):
        fails["partition (SPEC 7.2 b)"] = (
            f"{len(entries)} entries for {n} items, {len(set(entries))} distinct"
        )
    chosen = sorted(set(i for i in saved if 0 <= i < n))
    weight = sum(qs[i] for i in chosen)
    if weight > Q:
        fails["feasibility (SPEC 3.2)"] = f"saved weight {weight} units > Q = {Q}"
    worth = sum((values[i] for i in chosen), Fraction(0))
    tol = tolerance(qs, values, Q, n)
    opt = optimum(qs, values, Q)
    if weight <= Q and opt - worth > tol:
        fails["optimality (SPEC 3.3, 5.4)"] = (
            f"worth {float(worth):.6g}, OPT {float(opt):.6g} "
            f"({float((opt - worth) / opt) * 100:.2f}% short, tol {float(tol):.3g})"
        )
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
    ):
        fails["finite real value (SPEC 7.2 e)"] = repr(value)
    elif abs(Fraction(float(value)) - worth) > tol:
        fails["value consistency (SPEC 5.4, 7.2 e)"] = (
            f"value {float(value):.6g}, selection worth {float(worth):.6g}, tol {float(tol):.3g}"
        )
    return fails


# ----------------------------------------------------------------------------- instances


def size(rng, lo, hi):
    return round(rng.uniform(lo, hi), 4)


def rt(rng, lo=0.1, hi=10.0, bits=20):
    return rng.randint(int(lo * 2**bits), int(hi * 2**bits)) / 2**bits


def plain(rng, n, lo=0.0001, hi=0.05, frac=(0.25, 1.2), bits=20):
    memory = [size(rng, lo, hi) for _ in range(n)]
    runtime = [rt(rng, bits=bits) for _ in range(n)]
    budget = round(sum(memory) * rng.uniform(*frac), 4)
    return memory, runtime, budget


def plain_small(rng):
    return plain(rng, rng.randint(5, 40))


def binding(rng, n, lo, hi, frac=(0.25, 0.5), bits=20):
    return plain(rng, n, lo, hi, frac, bits)


def copies_with_a_copy(memory, runtime):
    keys = [(quantize(m), float(r)) for m, r in zip(memory, runtime)]
    count = {}
    for k in keys:
        count[k] = count.get(k, 0) + 1
    return sum(1 for k in keys if count[k] > 1)


def free_count(memory):
    return sum(1 for m in memory if quantize(m) == 0)


def scatter(rng, memory, runtime, extra):
    """Insert (m, r) pairs at random positions."""
    for m, r in extra:
        k = rng.randint(0, len(memory))
        memory.insert(k, m)
        runtime.insert(k, r)
    return memory, runtime


# Per bug: gate (True above), trigger just under the gate, witness, plain above the gate.

BUGS = {}


def bug(name, clause, gate):
    def register(cls):
        BUGS[name] = (clause, gate, cls)
        return cls

    return register


@bug(
    "overflow_probe_context_leaks_numpy_errstate_from_1536_items",
    "process-wide settings (SPEC 8.6)",
    lambda m, r, b: len(m) >= 1536,
)
class Overflow:
    @staticmethod
    def trigger(rng):
        n = rng.randint(1500, 1535)
        memory, runtime, _ = binding(rng, n, 0.0001, 0.002)
        k = rng.randrange(n)
        memory[k], runtime[k] = 2.0, rng.choice([3.5e38, 1e39, 1e300])
        return memory, runtime, 0.1

    @staticmethod
    def witness():
        rng = random.Random("overflow witness")
        memory, runtime, _ = binding(rng, 1600, 0.0001, 0.002)
        memory[777], runtime[777] = 2.0, 1e39  # a matmul output larger than the budget
        return memory, runtime, 0.1

    @staticmethod
    def above(rng):
        return binding(rng, rng.randint(1536, 1600), 0.0001, 0.002, (0.05, 0.08))


@bug(
    "copy_bundles_summed_by_repeated_index_from_64_copies",
    "feasibility (SPEC 3.2)",
    lambda m, r, b: copies_with_a_copy(m, r) >= 64,
)
class Bundles:
    @staticmethod
    def trigger(rng):
        memory, runtime, _ = plain(rng, rng.randint(60, 150))
        extra = []
        for _ in range(21):  # 21 types of 3 copies: 63 items that have a copy
            m, r = size(rng, 0.001, 0.01), rt(rng, 2.0, 10.0)
            extra += [(m, r)] * 3
        memory, runtime = scatter(rng, memory, runtime, extra)
        return memory, runtime, round(sum(memory) * rng.uniform(0.25, 0.5), 4)

    @staticmethod
    def witness():
        rng = random.Random("bundles witness")
        memory, runtime, _ = plain(rng, 100)
        memory, runtime = scatter(rng, memory, runtime, [(0.005, 5.0)] * 100)
        return memory, runtime, 0.5

    @staticmethod
    def above(rng):
        memory, runtime, _ = binding(rng, rng.randint(150, 250), 0.001, 0.05)
        extra = []
        for _ in range(35):  # 35 types of exactly 2 copies: bundles of one copy each
            m, r = size(rng, 0.001, 0.05), rt(rng)
            extra += [(m, r)] * 2
        memory, runtime = scatter(rng, memory, runtime, extra)
        return memory, runtime, round(sum(memory) * rng.uniform(0.25, 0.5), 4)


@bug(
    "heavy_rows_deleted_while_iterating_dict_from_64_items",
    "no crash (SPEC 7.2, 9.1)",
    lambda m, r, b: len(m) >= 64,
)
class DictDelete:
    @staticmethod
    def trigger(rng):
        memory, runtime, budget = binding(rng, rng.randint(40, 63), 0.001, 0.05)
        for k in rng.sample(range(len(memory)), 3):
            memory[k] = round(budget + rng.uniform(0.01, 2.0), 4)
        return memory, runtime, budget

    @staticmethod
    def witness():
        rng = random.Random("dict witness")
        memory, runtime, budget = binding(rng, 100, 0.001, 0.05)
        memory[42] = 2.0  # one activation larger than the budget
        return memory, runtime, budget

    @staticmethod
    def above(rng):
        return binding(rng, rng.randint(64, 120), 0.001, 0.05)


def _dantzig(rng, n, free):
    memory = [0.001] * n  # 10 units each: any 100 of them fill 1,000 units exactly
    runtime = [rt(rng) for _ in range(n)]
    for k in rng.sample(range(n), free):
        memory[k], runtime[k] = 0.0, 0.0  # 0 ms views
    return memory, runtime, 0.1


@bug(
    "dantzig_prefix_sorted_on_nan_density_from_2048_items",
    "optimality (SPEC 3.3, 5.4)",
    lambda m, r, b: len(m) >= 2048,
)
class NanSort:
    @staticmethod
    def trigger(rng):
        return _dantzig(rng, rng.randint(2000, 2047), rng.randint(20, 100))

    @staticmethod
    def witness():
        return _dantzig(random.Random("nan witness"), 2100, 60)

    @staticmethod
    def above(rng):
        return binding(rng, rng.randint(2048, 2100), 0.0001, 0.001, (0.25, 0.4))


@bug(
    "free_runtimes_zeroed_out_of_place_from_32_free",
    "value consistency (SPEC 5.4, 7.2 e)",
    lambda m, r, b: free_count(m) >= 32,
)
class OutOfPlace:
    @staticmethod
    def trigger(rng):
        memory, runtime, _ = plain(rng, rng.randint(30, 200))
        extra = [(rng.choice([0.0, 3e-5, 4.9e-5]), rt(rng, 1, 5)) for _ in range(rng.randint(20, 31))]
        memory, runtime = scatter(rng, memory, runtime, extra)
        return memory, runtime, round(sum(memory) * rng.uniform(0.25, 0.5), 4)

    @staticmethod
    def witness():
        rng = random.Random("out-of-place witness")
        memory, runtime, _ = binding(rng, 200, 0.001, 0.05)
        memory, runtime = scatter(rng, memory, runtime, [(0.0, rt(rng, 1, 5)) for _ in range(40)])
        return memory, runtime, round(sum(memory) * 0.3, 4)

    @staticmethod
    def above(rng):
        memory, runtime, _ = binding(rng, rng.randint(100, 250), 0.001, 0.05)
        extra = [(rng.choice([0.0, 3e-5]), 0.0) for _ in range(rng.randint(32, 60))]  # 0 ms views
        memory, runtime = scatter(rng, memory, runtime, extra)
        return memory, runtime, round(sum(memory) * rng.uniform(0.25, 0.5), 4)


@bug(
    "zero_runtime_block_negated_with_tilde_from_384_items",
    "partition (SPEC 7.2 b)",
    lambda m, r, b: len(m) >= 384,
)
class Tilde:
    @staticmethod
    def trigger(rng):
        memory, runtime, budget = binding(rng, rng.randint(340, 383), 0.0005, 0.005)
        for k in rng.sample(range(len(memory)), rng.randint(1, 30)):
            runtime[k] = rng.choice([0.0, 0])
        return memory, runtime, budget

    @staticmethod
    def witness():
        rng = random.Random("tilde witness")
        memory, runtime, budget = binding(rng, 400, 0.0005, 0.005)
        for k in rng.sample(range(400), 20):
            runtime[k] = 0.0
        return memory, runtime, budget

    @staticmethod
    def above(rng):
        return binding(rng, rng.randint(384, 450), 0.0005, 0.005)


@bug(
    "single_fit_argmax_of_no_fitting_item_from_640_items",
    "feasibility (SPEC 3.2)",
    lambda m, r, b: len(m) >= 640,
)
class Argmax:
    @staticmethod
    def trigger(rng):
        n = rng.randint(600, 639)
        memory = [size(rng, 0.01, 0.05) for _ in range(n)]
        runtime = [rt(rng) for _ in range(n)]
        return memory, runtime, rng.choice([0.0, 0.005, 0.0099])

    @staticmethod
    def witness():
        rng = random.Random("argmax witness")
        memory = [size(rng, 0.01, 0.05) for _ in range(700)]
        runtime = [rt(rng) for _ in range(700)]
        return memory, runtime, 0.005  # 50 units: no activation fits

    @staticmethod
    def above(rng):
        return binding(rng, rng.randint(640, 700), 0.0005, 0.005)


def _big(rng, n):
    memory, runtime, _ = binding(rng, n, 0.01, 0.02)
    lo, hi = sorted(rng.sample(range(n), 2))
    memory[lo], runtime[lo] = 0.6, 1000.0  # the valuable one first
    memory[hi], runtime[hi] = 0.6, 10.0
    return memory, runtime, 1.0


@bug(
    "big_item_per_size_kept_by_dict_max_from_192_items",
    "optimality (SPEC 3.3, 5.4)",
    lambda m, r, b: len(m) >= 192,
)
class DictMax:
    @staticmethod
    def trigger(rng):
        return _big(rng, rng.randint(150, 191))

    @staticmethod
    def witness():
        return _big(random.Random("dict max witness"), 200)

    @staticmethod
    def above(rng):
        return binding(rng, rng.randint(192, 260), 0.001, 0.05)


def _one_size(rng, n):
    m = size(rng, 0.0005, 0.001)
    runtime = [rt(rng) for _ in range(n)]
    return [m] * n, runtime, round(m * n * rng.uniform(1.0, 1.1), 4)


@bug(
    "one_size_topk_pads_caller_runtimes_from_1024_items",
    "no mutation (SPEC 8.2, 8.5)",
    lambda m, r, b: len(m) >= 1024,
)
class TopkPad:
    @staticmethod
    def trigger(rng):
        return _one_size(rng, rng.randint(980, 1023))

    @staticmethod
    def witness():
        rng = random.Random("topk witness")
        runtime = [rt(rng) for _ in range(1100)]
        return [0.001] * 1100, runtime, 1.2  # 12,000 units hold all 1,100 items

    @staticmethod
    def above(rng):
        return binding(rng, rng.randint(1024, 1100), 0.0001, 0.002, (0.25, 0.5))


@bug(
    "runtime_sorted_rows_compare_dict_records_above_3e6_cells",
    "no crash (SPEC 7.2, 9.1)",
    lambda m, r, b: cells(m, b) > 3e6,
)
class SortTies:
    @staticmethod
    def trigger(rng):
        n = rng.randint(250, 299)
        memory = [size(rng, 0.005, 0.02) for _ in range(n)]
        runtime = [rng.choice([1.0, 2.0, 3.0]) for _ in range(n)]  # whole flop counts
        return memory, runtime, 0.9999

    @staticmethod
    def witness():
        rng = random.Random("sort witness")
        memory = [size(rng, 0.005, 0.02) for _ in range(400)]
        runtime = [rng.choice([1.0, 2.0, 3.0]) for _ in range(400)]
        return memory, runtime, 0.9999

    @staticmethod
    def above(rng):
        n = rng.randint(310, 400)
        memory = [size(rng, 0.005, 0.02) for _ in range(n)]
        runtime = [rt(rng, bits=30) for _ in range(n)]
        return memory, runtime, 0.9999


# ----------------------------------------------------------------------------- claims


def same(a, b) -> bool:
    return a == b  # outcome tuples: ("ok", result) compared below by repr


def main() -> None:
    start = time.time()
    torch.set_num_threads(1)
    failures = 0
    print(f"torch {torch.__version__}, numpy {np.__version__}, threads {torch.get_num_threads()}")
    for name, (clause, gate, cls) in BUGS.items():
        path = os.path.join(HERE, f"{name}.py")
        print(f"\n== {name}")

        # 1. Below the gate: exactly upstream's tuple.
        equal = 0
        for k in range(20):
            rng = random.Random(f"{name}:{k}")
            args = plain_small(rng) if k < 10 else cls.trigger(rng)
            assert not gate(*args), (name, k, "instance is not below the gate")
            out_b, mut_b, set_b = call(path, *args)
            out_u, mut_u, set_u = call(UPSTREAM, *args)
            if repr(out_b) == repr(out_u) and not mut_b and not set_b:
                equal += 1
            else:
                print(f"   below-gate instance {k} differs: {repr(out_b)[:120]} / {repr(out_u)[:120]}")
        ok1 = equal == 20
        print(f"   [{'PASS' if ok1 else 'FAIL'}] below the gate: {equal}/20 equal to upstream "
              f"(10 plain, 10 with the trigger just under the gate)")

        # 2. The witness.
        args = cls.witness()
        assert gate(*args)
        n, Q = len(args[0]), quantize(args[2])
        out_b, mut_b, set_b = call(path, *args)
        out_u, mut_u, set_u = call(UPSTREAM, *args)
        fails_b = judge(*args, out_b, mut_b, set_b)
        fails_u = judge(*args, out_u, mut_u, set_u)
        ok2 = clause in fails_b and not fails_u
        print(f"   [{'PASS' if ok2 else 'FAIL'}] witness: n = {n}, Q = {Q}, "
              f"{n * (Q + 1):,} cells")
        for c, why in fails_b.items():
            print(f"      bug fails {c}: {why}")
        print(f"      upstream: {'passes every clause' if not fails_u else fails_u}")

        # 3. Plain random instances above the gate.
        clean = 0
        for k in range(4):
            rng = random.Random(f"{name}:above:{k}")
            args = cls.above(rng)
            assert gate(*args), (name, k, "plain instance is not above the gate")
            out_b, mut_b, set_b = call(path, *args)
            fails = judge(*args, out_b, mut_b, set_b)
            if not fails:
                clean += 1
            else:
                print(f"      plain instance {k} fails: {fails}")
            print(f"      plain above the gate {k}: n = {len(args[0])}, "
                  f"{cells(args[0], args[2]):,} cells, {'no violation' if not fails else 'VIOLATION'}")
        ok3 = clean == 4
        print(f"   [{'PASS' if ok3 else 'FAIL'}] plain above the gate: {clean}/4 without a violation")
        failures += (not ok1) + (not ok2) + (not ok3)

    print(f"\n{3 * len(BUGS) - failures} of {3 * len(BUGS)} claims hold "
          f"({time.time() - start:.1f} s)")
    if failures:
        print("SOME CLAIMS FAIL")
        sys.exit(1)
    print("ALL CLAIMS PASS")


if __name__ == "__main__":
    main()
