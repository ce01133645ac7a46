"""Claims for the nineteenth blind corpus, checked by an independent judge.

Run: OMP_NUM_THREADS=1 /work/main/.venv/bin/python bugs/witnesses.py

The judge imports nothing from the project.  It quantizes by SPEC 2.1
(q = round(float(m) * 10000), exact product when it overflows), values each
runtime as the exact rational of float(runtime[i]) (SPEC 3.1), computes the
exact optimum by an integer DP (runtimes scaled by their common power-of-two
denominator; int64 when the sums fit, Python ints otherwise), and allows the
float32 tolerance of SPEC 5.2 as amended by 5.4, in Fractions.  It checks the
result form of SPEC 7.2 (3-sequence, plain-int lists, partition, feasibility,
optimality, finite real value not bool, consistency) and SPEC 8.2/8.5 (every
input entry keeps its type and repr).

For each bug:
  (a) 20 seeded instances below the gate (10 plain, 10 carrying the trigger
      just under the gate): the bug returns exactly upstream's tuple (repr);
  (b) one witness above the gate: the bug fails the named clause, upstream
      passes every one-call property;
  (c) 4 plain random instances above the gate (sizes to 4 decimals, binding
      budget): no violation.
Every call runs on a freshly loaded module; torch's default dtype is reset to
float32 after every claim (one bug leaks it on purpose).
"""

import collections.abc
import importlib.util
import itertools
import math
import numbers
import os
import random
import sys
import time
from fractions import Fraction

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)

HERE = os.path.dirname(os.path.abspath(__file__))
UPSTREAM = os.path.join(os.path.dirname(HERE), "upstream_dp_knapsack.py")
SCALE = 10000
_counter = itertools.count()
START = time.time()
FAILED = []


# ----------------------------------------------------------------- loading
def load(path):
    spec = importlib.util.spec_from_file_location(f"_b19_{next(_counter)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.dp_knapsack


def bug_path(name):
    return os.path.join(HERE, name + ".py")


def reset_torch():
    torch.set_default_dtype(torch.float32)


# ------------------------------------------------------------------- judge
def quantize(value):
    product = float(value) * SCALE
    if math.isinf(product):
        return int(value) * SCALE
    return round(product)


def exact_optimum(qs, values, Q):
    """OPT as a Fraction: integer DP over runtimes scaled to integers."""
    den = max((v.denominator for v in values), default=1)  # powers of two
    ints = [int(v * den) for v in values]
    base = sum(x for q, x in zip(qs, ints) if q == 0 and x > 0)
    items = [(q, x) for q, x in zip(qs, ints) if 0 < q <= Q and x > 0]
    cap = min(Q, sum(q for q, _ in items))
    bound = base + sum(x for _, x in items)
    if bound < 2**62:
        dp = np.zeros(cap + 1, dtype=np.int64)
    else:
        dp = np.array([0] * (cap + 1), dtype=object)
    for q, x in items:
        if q <= cap:
            dp[q:] = np.maximum(dp[q:], dp[:-q] + x)
    return Fraction(int(dp[cap]) + base, den)


def tolerance(qs, values, Q):
    n = len(qs)
    u = Fraction(1, 2**24)
    k = n + 1
    gamma = k * u / (1 - k * u)
    total = sum((abs(v) for q, v in zip(qs, values) if q <= Q), Fraction(0))
    return 2 * gamma * total + 2 * (n + 1) * Fraction(1, 2**149)


def snapshot(seq):
    return (type(seq), len(seq), [(type(x), repr(x)) for x in seq])


def call(solver, memory, runtime, max_memory):
    before = (snapshot(memory), snapshot(runtime), (type(max_memory), repr(max_memory)))
    try:
        result, exc = solver(memory, runtime, max_memory), None
    except Exception as e:  # the judge reports crashes as findings
        result, exc = None, e
    after = (snapshot(memory), snapshot(runtime), (type(max_memory), repr(max_memory)))
    return result, exc, before != after


class Instance:
    """One call's arguments, built fresh (with fresh lists) on every use."""

    def __init__(self, label, build):
        self.label = label
        self.build = build  # () -> (memory, runtime, max_memory)
        self._opt = None

    def args(self):
        return self.build()

    def reference(self):
        if self._opt is None:
            memory, runtime, max_memory = self.build()
            qs = [quantize(m) for m in memory]
            Q = quantize(max_memory)
            values = [Fraction(float(r)) for r in runtime]
            self._opt = (qs, Q, values, exact_optimum(qs, values, Q), tolerance(qs, values, Q))
        return self._opt

    def cells(self):
        memory, _, max_memory = self.build()
        return len(memory) * (quantize(max_memory) + 1)


def judge(inst, result, exc, mutated):
    """The SPEC clauses this answer violates (empty list: it passes)."""
    out = []
    if mutated:
        out.append("no mutation (SPEC 8.2, 8.5)")
    if exc is not None:
        out.append(f"no crash (SPEC 7.2, 9.1): {type(exc).__name__}: {exc}")
        return out, {}
    memory, runtime, max_memory = inst.args()
    n = len(memory)
    if (
        not isinstance(result, collections.abc.Sequence)
        or isinstance(result, (str, bytes))
        or len(result) != 3
    ):
        out.append("return shape (SPEC 7.2 a)")
        return out, {}
    value, saved, recomputable = result
    if not all(isinstance(x, (list, tuple)) for x in (saved, recomputable)):
        out.append("return shape (SPEC 7.2 a): saved/recomputable are not lists")
        return out, {}
    if not all(type(i) is int for i in (*saved, *recomputable)):
        out.append("plain int indices (SPEC 7.2 b)")
    indices = [int(i) for i in (*saved, *recomputable)]
    if sorted(indices) != list(range(n)):
        missing = sorted(set(range(n)) - set(indices))
        out.append(
            f"partition (SPEC 7.2 b): {len(indices)} indices for {n} items,"
            f" {len(missing)} missing"
        )
    qs, Q, values, opt, tol = inst.reference()
    chosen = {int(i) for i in saved if 0 <= int(i) < n}
    weight = sum(qs[i] for i in chosen)
    worth = sum((values[i] for i in chosen), Fraction(0))
    info = {"Q": Q, "weight": weight, "worth": float(worth), "OPT": float(opt), "tol": float(tol)}
    if weight > Q:
        out.append(f"feasibility (SPEC 3.2): {weight} units saved under Q = {Q}")
    elif opt - worth > tol:
        short = float((opt - worth) / opt) if opt else 0.0
        out.append(
            f"optimality (SPEC 3.3, 5.2 a, 5.4): selection worth {float(worth):.6g},"
            f" OPT {float(opt):.6g} ({short:.1%} short)"
        )
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
    ):
        out.append(f"value type (SPEC 7.2 e): {type(value).__name__}")
    else:
        exact = Fraction(value) if isinstance(value, int) else Fraction(float(value))
        info["value"] = float(value)
        if abs(exact - worth) > tol:
            out.append(
                f"value consistency (SPEC 5.2 b, 5.4, 7.2 e): returned {float(value):.6g},"
                f" selection worth {float(worth):.6g}"
            )
    return out, info


# ------------------------------------------------------------ instance kit
def dyadic(rng, lo, hi, bits=24):
    return round(rng.uniform(lo, hi) * 2**bits) / 2**bits


def size4(rng, lo, hi):
    return round(rng.uniform(lo, hi), 4)


def budget_of(memory, rng, lo=0.25, hi=0.5):
    return round(math.fsum(float(m) for m in memory) * rng.uniform(lo, hi), 4)


def plain_small(name, k):
    """Below every gate: 5-40 items (cells far below the cell gates)."""

    def build():
        rng = random.Random(f"{name}:plain-small:{k}")
        n = rng.randint(5, 40)
        memory = [size4(rng, 0.001, 0.05) for _ in range(n)]
        runtime = [dyadic(rng, 0.1, 10) for _ in range(n)]
        return memory, runtime, budget_of(memory, rng, 0.2, 0.6)

    return Instance(f"plain small #{k}", build)


def plain_big(name, k, n_lo, n_hi, size_lo, size_hi, frac=(0.25, 0.5)):
    """Above a gate: sizes to 4 decimals, dyadic runtimes, binding budget."""

    def build():
        rng = random.Random(f"{name}:plain-big:{k}")
        n = rng.randint(n_lo, n_hi)
        memory = [size4(rng, size_lo, size_hi) for _ in range(n)]
        runtime = [dyadic(rng, 0.1, 10) for _ in range(n)]
        return memory, runtime, budget_of(memory, rng, *frac)

    return Instance(f"plain n={n_lo}-{n_hi} #{k}", build)


# ------------------------------------------------------------------ claims
def claim(ok, text):
    print(("  PASS  " if ok else "  FAIL  ") + text)
    if not ok:
        FAILED.append(text)


def same_as_upstream(name, inst, below_gate):
    """Bug and upstream (fresh modules, fresh lists) return the same repr."""
    assert below_gate(inst), f"{name}: {inst.label} is not below the gate"
    bug, up = load(bug_path(name)), load(UPSTREAM)
    b_res, b_exc, b_mut = call(bug, *inst.args())
    reset_torch()
    u_res, u_exc, u_mut = call(up, *inst.args())
    reset_torch()
    same = repr(b_res) == repr(u_res) and repr(b_exc) == repr(u_exc) and not b_mut and not u_mut
    return same


def run_below(name, triggers, below_gate):
    insts = [plain_small(name, k) for k in range(10)] + triggers
    results = [same_as_upstream(name, inst, below_gate) for inst in insts]
    claim(
        all(results),
        f"below the gate: {sum(results)}/20 equal to upstream's tuple"
        f" (10 plain, 10 trigger: {triggers[0].label})",
    )


def run_witness(name, inst, clause, above_gate):
    assert above_gate(inst), f"{name}: witness not above the gate"
    bug, up = load(bug_path(name)), load(UPSTREAM)
    b = judge(inst, *call(bug, *inst.args()))
    reset_torch()
    u = judge(inst, *call(up, *inst.args()))
    reset_torch()
    ok = any(v.startswith(clause) for v in b[0]) and not u[0]
    mem, _, budget = inst.args()
    claim(ok, f"witness ({inst.label}; n={len(mem)}, cells={inst.cells():,}): bug fails {clause}")
    for v in b[0]:
        print(f"          bug: {v}")
    print(f"          upstream: {'passes' if not u[0] else u[0]} (value {u[1].get('value')!r}, OPT {u[1].get('OPT')!r})")
    return b, u


def run_plain_above(name, insts, above_gate):
    bad = []
    for inst in insts:
        assert above_gate(inst), f"{name}: {inst.label} not above the gate"
        bug = load(bug_path(name))
        v, _ = judge(inst, *call(bug, *inst.args()))
        reset_torch()
        if v:
            bad.append((inst.label, v))
    sizes = ", ".join(f"n={len(i.args()[0])}/{i.cells():.2g} cells" for i in insts)
    claim(not bad, f"4 plain instances above the gate ({sizes}): no violation {bad if bad else ''}")


def header(name, gate, clause):
    print(f"\n== {name}\n   gate: {gate}; claimed: {clause}")


def n_below(limit):
    return lambda inst: len(inst.args()[0]) < limit


def n_above(limit):
    return lambda inst: len(inst.args()[0]) >= limit


def cells_below(limit):
    return lambda inst: inst.cells() <= limit


def cells_above(limit):
    return lambda inst: inst.cells() > limit


# ==================================================================== bugs
def bug_running_total():
    name = "weights_by_rounded_running_total_from_512_items"
    header(name, "n >= 512", "feasibility (SPEC 2.1, 3.2)")
    biased = [0.00016, 0.00027, 0.000351, 0.00118, 0.000249, 0.00236]

    def trig(k):
        def build():
            rng = random.Random(f"{name}:trigger:{k}")
            n = rng.randint(472, 511)
            memory = [
                rng.choice(biased) if rng.random() < 0.7 else size4(rng, 0.0001, 0.003)
                for _ in range(n)
            ]
            runtime = [dyadic(rng, 0.1, 10) for _ in range(n)]
            return memory, runtime, budget_of(memory, rng)

        return Instance(f"{k}: 472-511 items, 70% sizes off the 1e-4 grid (0.00016 ...)", build)

    run_below(name, [trig(k) for k in range(10)], n_below(512))
    w = Instance(
        "600 x 0.00016 GB (1.6 units, weighs 2) at 1.0, budget 0.05 GB",
        lambda: ([0.00016] * 600, [1.0] * 600, 0.05),
    )
    run_witness(name, w, "feasibility", n_above(512))
    run_plain_above(name, [plain_big(name, k, 520, 700, 0.0001, 0.005) for k in range(4)], n_above(512))


def bug_block_gcd():
    name = "block_gcd_of_first_64_weights_above_4e6_cells"
    header(name, "n * (Q + 1) > 4e6", "feasibility (SPEC 3.2)")

    def trig(k):
        def build():
            rng = random.Random(f"{name}:trigger:{k}")
            n = rng.randint(700, 799)
            block = rng.choice([0.001, 0.002])
            memory = [block * rng.randint(1, 4) for _ in range(64)]
            memory += [
                round(block * rng.randint(1, 4) + rng.choice([0.0, 0.0005, 0.0003]), 4)
                for _ in range(n - 64)
            ]
            runtime = [dyadic(rng, 0.1, 10) for _ in range(n)]
            return memory, runtime, 0.5

        return Instance(f"{k}: 700-799 items under 0.5 GB (<= 4e6 cells), first 64 on a 10/20-unit block, later ones off it", build)

    run_below(name, [trig(k) for k in range(10)], cells_below(4e6))
    w = Instance(
        "64 x 0.001 GB at 0.5, then 836 x 0.0015 GB at 1.0, budget 0.5 GB",
        lambda: ([0.001] * 64 + [0.0015] * 836, [0.5] * 64 + [1.0] * 836, 0.5),
    )
    run_witness(name, w, "feasibility", cells_above(4e6))
    run_plain_above(
        name, [plain_big(name, k, 900, 1000, 0.0001, 0.005, (0.3, 0.45)) for k in range(4)], cells_above(4e6)
    )


def bug_chain_prefix():
    name = "dominance_chain_prefix_copy_pasted_runtime_test_from_192_items"
    header(name, "n >= 192", "optimality (SPEC 3.3, 5.2 a)")

    def sorted_case(rng, n):
        memory = sorted(size4(rng, 0.001, 0.05) for _ in range(n))
        runtime = sorted(dyadic(rng, 0.1, 10) for _ in range(n))
        return memory, runtime, budget_of(memory, rng)

    def trig(k):
        def build():
            rng = random.Random(f"{name}:trigger:{k}")
            return sorted_case(rng, rng.randint(152, 191))

        return Instance(f"{k}: 152-191 items listed by size, runtimes ascending", build)

    run_below(name, [trig(k) for k in range(10)], n_below(192))

    def wbuild():
        rng = random.Random(f"{name}:witness")
        memory = sorted(size4(rng, 0.001, 0.05) for _ in range(200))
        runtime = sorted(dyadic(rng, 0.1, 10) for _ in range(200))
        return memory, runtime, round(math.fsum(memory) * 0.3, 4)

    w = Instance("200 items listed by size, runtimes ascending too, budget 30% of the total", wbuild)
    run_witness(name, w, "optimality", n_above(192))
    run_plain_above(name, [plain_big(name, k, 200, 350, 0.001, 0.03) for k in range(4)], n_above(192))


def bug_fsum_set():
    name = "exact_value_fsum_over_a_set_above_2e6_cells"
    header(name, "n * (Q + 1) > 2e6", "value consistency (SPEC 5.2 b, 7.2 e)")

    def trig(k):
        def build():
            rng = random.Random(f"{name}:trigger:{k}")
            n = rng.randint(360, 399)
            memory = [size4(rng, 0.001, 0.02) for _ in range(n)]
            runtime = [float(rng.randint(1, 20)) for _ in range(n)]
            return memory, runtime, 0.5

        return Instance(f"{k}: 360-399 items under 0.5 GB (<= 2e6 cells), runtimes whole 1-20", build)

    run_below(name, [trig(k) for k in range(10)], cells_below(2e6))

    def wbuild():
        rng = random.Random(f"{name}:witness")
        memory = [size4(rng, 0.001, 0.02) for _ in range(600)]
        runtime = [float(rng.randint(1, 20)) for _ in range(600)]
        return memory, runtime, 0.5

    w = Instance("600 items of 0.001-0.02 GB, runtimes whole numbers 1-20, budget 0.5 GB", wbuild)
    run_witness(name, w, "value consistency", cells_above(2e6))
    run_plain_above(
        name, [plain_big(name, k, 450, 650, 0.001, 0.01, (0.25, 0.35)) for k in range(4)], cells_above(2e6)
    )


def bug_filter_iterator():
    name = "heavy_items_filter_iterator_read_twice_from_384_items"
    header(name, "n >= 384", "partition (SPEC 7.2 b)")

    def trig(k):
        def build():
            rng = random.Random(f"{name}:trigger:{k}")
            n = rng.randint(344, 383)
            memory = [
                size4(rng, 1.0, 3.0) if rng.random() < 0.1 else size4(rng, 0.001, 0.03)
                for _ in range(n)
            ]
            runtime = [dyadic(rng, 0.1, 10) for _ in range(n)]
            return memory, runtime, 0.8

        return Instance(f"{k}: 344-383 items, ~10% of 1-3 GB, budget 0.8 GB", build)

    run_below(name, [trig(k) for k in range(10)], n_below(384))

    def wbuild():
        rng = random.Random(f"{name}:witness")
        memory = [1.5 if i % 10 == 9 else size4(rng, 0.005, 0.05) for i in range(400)]
        runtime = [dyadic(rng, 0.1, 10) for _ in range(400)]
        return memory, runtime, 1.0

    w = Instance("400 items, every tenth 1.5 GB, the rest 0.005-0.05 GB, budget 1.0 GB", wbuild)
    run_witness(name, w, "partition", n_above(384))
    run_plain_above(name, [plain_big(name, k, 400, 600, 0.001, 0.01) for k in range(4)], n_above(384))


def bug_dtype_sniff():
    name = "integer_runtimes_sniffed_by_torch_dtype_from_256_items"
    header(name, "n >= 256", "no crash (SPEC 7.2, 9.1)")

    def trig(k):
        def build():
            rng = random.Random(f"{name}:trigger:{k}")
            n = rng.randint(216, 255)
            memory = [size4(rng, 0.001, 0.02) for _ in range(n)]
            runtime = [rng.randint(1, 10**9) for _ in range(n)]
            runtime[rng.randrange(n)] = rng.choice([2**64, 10**20, 2**63])
            return memory, runtime, budget_of(memory, rng)

        return Instance(f"{k}: 216-255 items, int runtimes, one of 2**63-1e20", build)

    run_below(name, [trig(k) for k in range(10)], n_below(256))

    def wbuild():
        rng = random.Random(f"{name}:witness")
        memory = [size4(rng, 0.001, 0.01) for _ in range(300)]
        runtime = [rng.randint(10**6, 10**9) for _ in range(300)]
        runtime[7] = 2**64  # a "never recompute" flop count
        return memory, runtime, round(math.fsum(memory) * 0.4, 4)

    w = Instance("300 items, int flop counts 1e6-1e9, one of 2**64", wbuild)
    run_witness(name, w, "no crash", n_above(256))
    run_plain_above(name, [plain_big(name, k, 260, 400, 0.001, 0.02) for k in range(4)], n_above(256))


def bug_numpy_in_place():
    name = "numpy_sizes_made_float_in_place_from_1024_items"
    header(name, "n >= 1024 (memory a list)", "no mutation (SPEC 8.2, 8.5)")

    def trig(k):
        def build():
            rng = random.Random(f"{name}:trigger:{k}")
            n = rng.randint(984, 1023)
            memory = [np.float64(size4(rng, 0.0001, 0.003)) for _ in range(n)]
            runtime = [dyadic(rng, 0.1, 10) for _ in range(n)]
            return memory, runtime, budget_of(memory, rng)

        return Instance(f"{k}: 984-1023 items, numpy.float64 sizes", build)

    run_below(name, [trig(k) for k in range(10)], n_below(1024))

    def wbuild():
        rng = random.Random(f"{name}:witness")
        memory = [np.float64(size4(rng, 0.0001, 0.005)) for _ in range(1100)]
        runtime = [dyadic(rng, 0.1, 10) for _ in range(1100)]
        return memory, runtime, 0.5

    w = Instance("1,100 items with numpy.float64 sizes of 0.0001-0.005 GB, budget 0.5 GB", wbuild)
    b, u = run_witness(name, w, "no mutation", n_above(1024))
    same = b[1] == u[1]
    claim(same, "on the witness the bug's answer is upstream's (value and selection judged equal)")
    run_plain_above(name, [plain_big(name, k, 1030, 1150, 0.0001, 0.003) for k in range(4)], n_above(1024))


LEAK = "wide_runtimes_default_dtype_left_float64_from_640_items"


def _wide(n, tag):
    def build():
        rng = random.Random(f"{LEAK}:wide:{tag}")
        memory = [size4(rng, 0.001, 0.01) for _ in range(n)]
        runtime = [rng.uniform(1e6, 1e9) for _ in range(n)]  # flop counts
        return memory, runtime, budget_of(memory, rng, 0.3, 0.4)

    return Instance(f"{n} items, flop-count runtimes 1e6-1e9", build)


def _tie(n):
    def build():
        memory = [0.01, 0.01] + [0.02] * (n - 2)
        runtime = [1.0, 1.0 + 2**-40] + [0.5] * (n - 2)
        return memory, runtime, 0.01

    return Instance(
        f"{n} items: 0.01 GB at 1.0 and at 1.0 + 2**-40, the rest 0.02 GB, budget 0.01 GB", build
    )


def leak_trigger_sizes():
    return [600 + 4 * k - (1 if k == 9 else 0) for k in range(10)]


def bug_default_dtype_leak():
    name = "wide_runtimes_default_dtype_left_float64_from_640_items"
    header(name, "n >= 640", "determinism (SPEC 8.1): a call's answer depends on an earlier call")

    wide, tie = _wide, _tie

    # below the gate: each trigger is a sequence (wide call, then tie call)
    results = []
    for k in range(10):
        results.append(same_as_upstream(name, plain_small(name, k), n_below(640)))
    for k, n in enumerate(leak_trigger_sizes()):
        a, b = wide(n, k), tie(n)
        bug, up = load(bug_path(name)), load(UPSTREAM)
        seq_b = [call(bug, *a.args())[0], call(bug, *b.args())[0]]
        leaked = torch.get_default_dtype()
        reset_torch()
        seq_u = [call(up, *a.args())[0], call(up, *b.args())[0]]
        reset_torch()
        results.append(repr(seq_b) == repr(seq_u) and leaked == torch.float32 and n < 640)
    claim(
        all(results),
        f"below the gate: {sum(results)}/20 equal to upstream's tuple (10 plain; 10 trigger"
        " sequences of 600-639 items: a flop-count call, then a float32-tie call; default dtype"
        " left float32)",
    )

    # witness: the tie call alone, and after a flop-count call
    a, b = wide(700, "witness"), tie(700)
    bug = load(bug_path(name))
    alone = call(bug, *b.args())
    reset_torch()
    bug = load(bug_path(name))
    call(bug, *a.args())
    leaked = torch.get_default_dtype()
    after = call(bug, *b.args())
    reset_torch()
    up = load(UPSTREAM)
    u_alone = call(up, *b.args())
    up = load(UPSTREAM)
    call(up, *a.args())
    u_after = call(up, *b.args())
    reset_torch()
    j_alone, j_after = judge(b, *alone)[0], judge(b, *after)[0]
    j_up = judge(b, *u_alone)[0] + judge(b, *u_after)[0]
    ok = (
        repr(alone[0]) != repr(after[0])
        and repr(u_alone[0]) == repr(u_after[0])
        and not j_alone
        and not j_after
        and not j_up
        and n_above(640)(a)
        and n_above(640)(b)
    )
    claim(
        ok,
        f"witness (700-item flop-count call, then the 700-item tie call; cells {a.cells():,} and {b.cells():,}):"
        " bug fails determinism (SPEC 8.1)",
    )
    print(f"          bug, tie call alone:            {alone[0][0]!r}, saved {alone[0][1]}")
    print(f"          bug, after the flop-count call: {after[0][0]!r}, saved {after[0][1]}"
          f" (torch default dtype left {leaked})")
    print(f"          upstream, both orders:          {u_alone[0][0]!r}, saved {u_alone[0][1]}"
          f"; each answer passes every one-call property: {not j_alone and not j_after and not j_up}")

    # plain above the gate: two plain calls on one module, each judged, the
    # second equal to the same call on a fresh module, default dtype intact
    bad = []
    sizes = []
    for k in range(4):
        first = plain_big(name, k, 650, 800, 0.0001, 0.005)
        second = plain_big(name, k + 10, 650, 800, 0.0001, 0.005)
        bug = load(bug_path(name))
        r1 = call(bug, *first.args())
        r2 = call(bug, *second.args())
        dtype_after = torch.get_default_dtype()
        reset_torch()
        fresh = call(load(bug_path(name)), *second.args())
        reset_torch()
        v = judge(first, *r1)[0] + judge(second, *r2)[0]
        if v or repr(r2[0]) != repr(fresh[0]) or dtype_after != torch.float32:
            bad.append((k, v))
        sizes.append(f"n={len(first.args()[0])}+{len(second.args()[0])}")
    claim(not bad, f"4 plain two-call sequences above the gate ({', '.join(sizes)}): no violation,"
                   f" second call equal to it alone {bad if bad else ''}")


def bug_groupby_dict():
    name = "copy_runs_grouped_by_groupby_into_dict_from_160_items"
    header(name, "n >= 160", "optimality (SPEC 3.3, 5.2 a)")

    def layered(rng, n):
        kinds = [(size4(rng, 0.005, 0.03), float(rng.randint(1, 8))) for _ in range(rng.randint(2, 4))]
        run = rng.randint(8, 25)
        memory, runtime = [], []
        while len(memory) < n:
            for size, rt in kinds:
                take = min(run, n - len(memory))
                memory += [size] * take
                runtime += [rt] * take
        return memory, runtime

    def trig(k):
        def build():
            rng = random.Random(f"{name}:trigger:{k}")
            memory, runtime = layered(rng, rng.randint(120, 159))
            return memory, runtime, budget_of(memory, rng, 0.3, 0.6)

        return Instance(f"{k}: 120-159 items in interleaved runs of copies of 2-4 kinds", build)

    run_below(name, [trig(k) for k in range(10)], n_below(160))
    w = Instance(
        "3 x [50 x (0.01 GB, 2.0), 50 x (0.02 GB, 1.0)], budget 1.0 GB",
        lambda: (([0.01] * 50 + [0.02] * 50) * 3, ([2.0] * 50 + [1.0] * 50) * 3, 1.0),
    )
    run_witness(name, w, "optimality", n_above(160))
    run_plain_above(name, [plain_big(name, k, 170, 400, 0.001, 0.015) for k in range(4)], n_above(160))


def bug_lightest_fitting():
    name = "backtrack_finish_below_lightest_fitting_size_from_320_items"
    header(name, "n >= 320", "no crash (SPEC 7.2, 9.1)")

    def trig(k):
        def build():
            rng = random.Random(f"{name}:trigger:{k}")
            n = rng.randint(280, 319)
            memory = [0.0 if rng.random() < 0.05 else size4(rng, 0.001, 0.05) for _ in range(n)]
            runtime = [dyadic(rng, 0.1, 10) for _ in range(n)]
            return memory, runtime, rng.choice([0.0, 0.0, 0.0004, 4e-5])

        return Instance(f"{k}: 280-319 items, budget 0 or below every size (some free items)", build)

    run_below(name, [trig(k) for k in range(10)], n_below(320))

    def wbuild():
        rng = random.Random(f"{name}:witness")
        memory = [size4(rng, 0.001, 0.05) for _ in range(400)]
        runtime = [dyadic(rng, 0.1, 10) for _ in range(400)]
        return memory, runtime, 0.0

    w = Instance("400 items of 0.001-0.05 GB, budget 0.0", wbuild)
    run_witness(name, w, "no crash", n_above(320))
    run_plain_above(name, [plain_big(name, k, 330, 500, 0.001, 0.01) for k in range(4)], n_above(320))


def main():
    print(f"torch {torch.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]},"
          f" {torch.get_num_threads()} torch thread(s)")
    for run in (
        bug_running_total,
        bug_block_gcd,
        bug_chain_prefix,
        bug_fsum_set,
        bug_filter_iterator,
        bug_dtype_sniff,
        bug_numpy_in_place,
        bug_default_dtype_leak,
        bug_groupby_dict,
        bug_lightest_fitting,
    ):
        t = time.time()
        run()
        reset_torch()
        print(f"   ({time.time() - t:.1f} s)")
    print(f"\n{len(FAILED)} claim(s) failed; {time.time() - START:.1f} s in all")
    if FAILED:
        for text in FAILED:
            print("FAILED: " + text)
        sys.exit(1)
    print("ALL CLAIMS PASS")


if __name__ == "__main__":
    main()
