"""Independent judge and witnesses for the ten bugs of blind corpus 31.

Run: OMP_NUM_THREADS=1 nice -n 10 python bugs/witnesses.py
Judge: SPEC 2.1 quantization (own), exact Fraction runtimes, exact integer DP for
OPT, SPEC 5.4 float32 tolerance, partition/format, no crash, no mutation of the
inputs (type and repr of every entry), process-wide settings, determinism.
"""
import importlib.util
import math
import pathlib
import random
import sys
import zlib
from fractions import Fraction

import numpy as np
import torch

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
S = 10000


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


UPSTREAM = load(ROOT / "upstream_dp_knapsack.py", "upstream_dp_knapsack")


def quant(x):  # SPEC 2.1
    p = float(x) * S
    if math.isinf(p):
        return int(float(x)) * S
    return round(p)


def exact_opt(q, v, Q):
    """OPT as a Fraction: integer DP over items with q <= Q and v > 0."""
    items = [(qi, vi) for qi, vi in zip(q, v) if qi <= Q and vi > 0]
    if not items:
        return Fraction(0)
    L = max(vi.denominator for _, vi in items)
    ints = [(qi, int(vi * L)) for qi, vi in items]
    total = sum(x for _, x in ints)
    free = sum(x for qi, x in ints if qi == 0)
    rest = [(qi, x) for qi, x in ints if qi > 0]
    dtype = np.int64 if total < 2**62 else object
    row = np.zeros(Q + 1, dtype=dtype)
    for qi, x in rest:
        cand = row[:-qi] + x if qi <= Q else None
        if cand is not None:
            row[qi:] = np.maximum(row[qi:], cand)
    return Fraction(int(row[Q]) + free, L)


def tol(q, v, Q, n):
    u = Fraction(1, 2**24)
    k = n + 1
    gamma = k * u / (1 - k * u)
    return 2 * gamma * sum(abs(vi) for qi, vi in zip(q, v) if qi <= Q) + 2 * (n + 1) * Fraction(1, 2**149)


def settings():
    return {
        "default_dtype": torch.get_default_dtype(),
        "default_device": str(torch.get_default_device()),
        "grad": torch.is_grad_enabled(),
        "deterministic": torch.are_deterministic_algorithms_enabled(),
        "threads": torch.get_num_threads(),
        "matmul_precision": torch.get_float32_matmul_precision(),
        "torch_rng": bytes(torch.get_rng_state().numpy()),
        "py_random": random.getstate(),
        "np_err": np.geterr(),
        "recursion": sys.getrecursionlimit(),
    }


def restore(before):
    torch.set_default_dtype(before["default_dtype"])
    torch.set_grad_enabled(before["grad"])
    torch.use_deterministic_algorithms(before["deterministic"])
    torch.set_num_threads(before["threads"])
    torch.set_float32_matmul_precision(before["matmul_precision"])
    torch.set_rng_state(torch.tensor(list(before["torch_rng"]), dtype=torch.uint8))
    random.setstate(before["py_random"])
    np.seterr(**before["np_err"])
    sys.setrecursionlimit(before["recursion"])


def snap(lst):
    return [(type(x), repr(x)) for x in lst]


def call(solver, memory, runtime, budget):
    """One call: (answer or exception, mutated?, changed settings)."""
    m_before, r_before, b_before = snap(memory), snap(runtime), (type(budget), repr(budget))
    before = settings()
    try:
        ans, err = solver(memory, runtime, budget), None
    except Exception as e:  # noqa: BLE001
        ans, err = None, e
    after = settings()
    changed = sorted(k for k in before if before[k] != after[k])
    restore(before)
    mutated = snap(memory) != m_before or snap(runtime) != r_before or (type(budget), repr(budget)) != b_before
    return ans, err, mutated, changed


def judge(solver, memory, runtime, budget, calls=2):
    """Set of failed clauses for this solver on this instance."""
    mem0, rt0 = list(memory), list(runtime)
    fails = set()
    answers = []
    for _ in range(calls):
        ans, err, mutated, changed = call(solver, memory, runtime, budget)
        if mutated:
            fails.add("no-mutation (8.2)")
            memory[:], runtime[:] = mem0, rt0
        if changed:
            fails.add("process-wide settings (8.6): " + ",".join(changed))
        if err is not None:
            fails.add(f"no-crash ({type(err).__name__})")
            return fails
        answers.append(ans)
    if any(repr(a) != repr(answers[0]) for a in answers):
        fails.add("determinism (8.1)")
    ans = answers[0]
    n = len(memory)
    q = [quant(m) for m in memory]
    v = [Fraction(float(r)) for r in runtime]
    Q = quant(budget)
    if not (isinstance(ans, (tuple, list)) and len(ans) == 3):
        fails.add("partition/format (7.2a)")
        return fails
    value, saved, rec = ans
    idx = list(saved) + list(rec)
    if any(type(i) is not int for i in idx) or sorted(idx) != list(range(n)):
        fails.add("partition/format (7.2b)")
        return fails
    if sum(q[i] for i in saved) > Q:
        fails.add("feasibility (3.2)")
    vs = sum((v[i] for i in saved), Fraction(0))
    t = tol(q, v, Q, n)
    if exact_opt(q, v, Q) - vs > t:
        fails.add("optimality (3.3/5.4)")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        fails.add("value consistency (7.2e)")
    elif abs(Fraction(value) - vs) > t:
        fails.add("value consistency (7.2e)")
    return fails


def rand_instance(rng, n, Q):
    """A plain random instance: n items, budget about Q units (a random float)."""
    budget = (Q + rng.random()) / S
    mean = 2.0 * budget / n
    memory = [rng.uniform(0.0, 2 * mean) for _ in range(n)]
    if rng.random() < 0.5:
        runtime = [rng.randint(10486, 100 * 2**20) / 2**20 for _ in range(n)]
    else:
        runtime = [float(rng.randint(10**6, 10**10)) for _ in range(n)]
    return memory, runtime, budget


CLAIMS = 0


def claim(ok, text):
    global CLAIMS
    CLAIMS += 1
    print(("PASS " if ok else "FAIL ") + text, flush=True)
    if not ok:
        raise SystemExit(1)


# ---------------------------------------------------------------- witnesses
def w_equal_runtime(n_fill=28):
    rng = random.Random(1)
    memory = [1.0 + k * 0.01 for k in range(n_fill)] + [0.0008] * 50 + [0.0015] * 50
    runtime = [rng.randint(1, 10**6) / 1024 + 1000 for _ in range(n_fill)] + [5.0] * 100
    return memory, runtime, 0.06


def w_top_up(n=512):
    return [0.00016] * n, [1.0] * n, 0.08


def w_scratch(n=16):
    return [1.0 + 0.25 * k for k in range(n)], [float(k + 1) for k in range(n)], 110.0


def w_errstate(n=256):
    rng = random.Random(4)
    memory = [rng.uniform(0.001, 0.02) for _ in range(n)]
    runtime = [rng.randint(1, 10**6) / 1024 for _ in range(n)]
    runtime[3] = runtime[77] = runtime[200] = 0.0
    return memory, runtime, 0.8


def w_split(n=768):
    rng = random.Random(5)
    k = 100
    memory = [0.00305] * k + [1.0] * (n - k)
    runtime = [1.0] * k + [rng.randint(1, 10**6) / 1024 for _ in range(n - k)]
    return memory, runtime, 0.305


def w_ties(n=800):
    return [0.001] * n, [1.0] * n, 0.4


def w_alias(n=400):
    rng = random.Random(7)
    memory = [rng.uniform(0.001, 0.02) for _ in range(n)]
    for k in range(0, n, 20):
        memory[k] = (k % 7 + 1) * 0.0001 * 3  # e.g. 0.00030000000000000003 GB
    runtime = [rng.randint(1, 10**6) / 1024 for _ in range(n)]
    return memory, runtime, 1.0


def w_range(n=320):
    rng = random.Random(8)
    memory = [rng.uniform(0.001, 0.02) for _ in range(n)]
    memory[10] = memory[250] = 0.0
    runtime = [rng.randint(1, 10**6) / 1024 for _ in range(n)]
    return memory, runtime, 1.0


def w_flops(n=192):
    rng = random.Random(9)
    memory = [rng.uniform(0.001, 0.02) for _ in range(n)]
    runtime = [float(rng.randint(2**25, 2**30)) for _ in range(n)]
    return memory, runtime, 0.9


def w_layers(layers=32, p=8):
    memory, runtime = [], []
    for layer in range(layers):
        for pos in range(p):
            if layer == layers // 2:
                memory.append(0.05)
                runtime.append(float(100 + pos))
            else:
                memory.append(0.01)
                runtime.append(float(pos + 1))
    return memory, runtime, 1.28


BUGS = [
    # name, witness builder, clause expected, below-gate variant, random gen above gate, random gen below gate, pre-call setting
    ("equal_runtime_size_class_weighed_at_ceil_mean_from_128_items", w_equal_runtime, "optimality",
     lambda: w_equal_runtime(27), lambda r: (r.randint(128, 400), r.randint(500, 20000)), lambda r: (r.randint(1, 127), r.randint(10, 20000)), None),
    ("float_spare_room_top_up_from_512_items", w_top_up, "feasibility",
     lambda: w_top_up(511), lambda r: (r.randint(512, 800), r.randint(1000, 10000)), lambda r: (r.randint(1, 511), r.randint(10, 10000)), None),
    ("candidate_row_scratch_of_2p20_columns_above_4e6_cells", w_scratch, "no-crash",
     lambda: w_scratch(3), "cells", "cells_below", None),
    ("numpy_errstate_restored_by_unentered_errstate_from_256_items", w_errstate, "process-wide settings",
     lambda: w_errstate(255), lambda r: (r.randint(256, 500), r.randint(500, 20000)), lambda r: (r.randint(1, 255), r.randint(10, 20000)), None),
    ("sizes_scaled_as_split_power_of_two_product_from_768_items", w_split, "feasibility",
     lambda: w_split(767), lambda r: (r.randint(768, 1000), r.randint(1000, 5000)), lambda r: (r.randint(1, 767), r.randint(10, 5000)), None),
    ("tie_break_alternates_per_call_from_768_items", w_ties, "determinism",
     lambda: w_ties(767), lambda r: (r.randint(768, 1000), r.randint(1000, 5000)), lambda r: (r.randint(1, 767), r.randint(10, 5000)), None),
    ("caller_lists_aliased_by_copy_of_tuple_from_384_items", w_alias, "no-mutation",
     lambda: w_alias(383), lambda r: (r.randint(384, 600), r.randint(500, 20000)), lambda r: (r.randint(1, 383), r.randint(10, 20000)), None),
    ("same_size_caps_counted_with_range_step_from_320_items", w_range, "no-crash",
     lambda: w_range(319), lambda r: (r.randint(320, 600), r.randint(500, 20000)), lambda r: (r.randint(1, 319), r.randint(10, 20000)), None),
    ("matmul_precision_reset_to_default_for_flop_counts_from_192_items", w_flops, "process-wide settings",
     lambda: w_flops(191), lambda r: (r.randint(192, 400), r.randint(500, 20000)), lambda r: (r.randint(1, 191), r.randint(10, 20000)), "high"),
    ("layer_stack_recognized_by_end_layers_from_256_items", w_layers, "feasibility",
     lambda: w_layers(31), lambda r: (r.randint(256, 500), r.randint(500, 20000)), lambda r: (r.randint(1, 255), r.randint(10, 20000)), None),
]


def sized(spec, r):
    if spec == "cells":  # more than 4e6 cells, Q < 2**20
        n = r.randint(300, 600)
        return n, r.randint(4_000_000 // n + 1, 4_000_000 // n + 6000)
    if spec == "cells_below":
        n = r.randint(1, 600)
        return n, r.randint(10, 4_000_000 // n - 2)
    return spec(r)


def with_setting(setting, fn):
    if setting is None:
        return fn()
    old = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision(setting)
    try:
        return fn()
    finally:
        torch.set_float32_matmul_precision(old)


def main():
    only = sys.argv[1:]  # optional: names (or prefixes) of bugs to check
    for name, wit, clause, below, above_gen, below_gen, setting in BUGS:
        if only and not any(name.startswith(o) for o in only):
            continue
        bug = load(HERE / f"{name}.py", name)
        print(f"== {name}", flush=True)
        mem, rt, b = wit()
        n, Q = len(mem), quant(b)
        fb = with_setting(setting, lambda: judge(bug, list(mem), list(rt), b))
        fu = with_setting(setting, lambda: judge(UPSTREAM, list(mem), list(rt), b))
        note = f" (caller's float32 matmul precision set to '{setting}' before the call)" if setting else ""
        claim(any(f.startswith(clause) for f in fb) and not fu,
              f"witness n={n} Q={Q} cells={n * (Q + 1)}{note}: bug fails {sorted(fb)}; upstream passes all")
        # below the gate: the same region, exact upstream tuple and no side effects
        mem, rt, b = below()
        def same(mem, rt, b):
            ub = call(bug, list(mem), list(rt), b)
            ub2 = call(bug, list(mem), list(rt), b)
            uu = call(UPSTREAM, list(mem), list(rt), b)
            return (repr(ub[0]) == repr(uu[0]) == repr(ub2[0]) and ub[1] is None and not ub[2] and not ub[3]
                    and ub[1:] == uu[1:])
        ok = with_setting(setting, lambda: same(mem, rt, b))
        claim(ok, f"below the gate, the witness's region (n={len(mem)}, cells={len(mem) * (quant(b) + 1)}): bug returns upstream's exact tuple, twice, no side effects")
        r = random.Random(zlib.crc32(name.encode()))
        bad = 0
        for _ in range(200):
            n, Q = sized(below_gen, r)
            mem, rt, b = rand_instance(r, n, Q)
            bad += not with_setting(setting, lambda: same(mem, rt, b))
        claim(bad == 0, f"200 random instances below the gate: bug == upstream exactly ({bad} differ)")
        bad = 0
        for _ in range(200):
            n, Q = sized(above_gen, r)
            mem, rt, b = rand_instance(r, n, Q)
            f = judge(bug, mem, rt, b)
            if f:
                bad += 1
                print("   random failure", n, Q, sorted(f))
        claim(bad == 0, f"200 random instances past the gate judged right ({bad} wrong)")
    print(f"{CLAIMS} claims")
    print("ALL CLAIMS PASS")


if __name__ == "__main__":
    main()
