"""Witnesses for the ten blind bugs of /work/blind6/bugs.

For each bug NAME.py (upstream's dp_knapsack with one gated change):

(a) a witness above the gate on which the bug is wrong (over budget, short of
    the exact optimum by more than 1e-3 relative, a broken partition, indices
    that are not plain ints, mutated inputs, or an answer that depends on an
    earlier call) while upstream is right on the same call;
(b) 30 seeded random instances below the gate (15 of them carrying the bug's
    trigger pattern) on which the bug returns exactly upstream's tuple and
    leaves its inputs alone.

Run from anywhere: `/work/main/.venv/bin/python witnesses.py`. It imports the
exact oracle from /work/main/reference and upstream_dp_knapsack.py from this
folder or its parent.
"""

from __future__ import annotations

import copy
import importlib.util
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, "/work/main")

from reference.oracle import exact_optimum  # noqa: E402
from reference.validation import quantize  # noqa: E402

_loaded = 0


def load(path: Path):
    """A fresh module (fresh function attributes) for every call."""
    global _loaded
    _loaded += 1
    spec = importlib.util.spec_from_file_location(f"blind6_mod_{_loaded}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.dp_knapsack


UPSTREAM = next(
    p for p in (HERE / "upstream_dp_knapsack.py", HERE.parent / "upstream_dp_knapsack.py") if p.exists()
)


def cells(memory, max_memory):
    return len(memory) * (quantize(max_memory) + 1)


# --------------------------------------------------------------------------
# the judge (SPEC 3.2, 5.4, 7.2, 8.2)
# --------------------------------------------------------------------------


def tolerance(memory, runtime, max_memory):
    n = len(memory)
    u = Fraction(1, 2**24)
    k = n + 1
    gamma = k * u / (1 - k * u)
    Q = quantize(max_memory)
    fit = sum(abs(Fraction(r)) for m, r in zip(memory, runtime) if quantize(m) <= Q)
    return 2 * gamma * fit + 2 * (n + 1) * Fraction(1, 2**149)


def judge(call_result, memory, runtime, max_memory, memory_after=None, runtime_after=None):
    """Return (failures, short_rel). call_result is ('ok', tuple) or ('crash', repr)."""
    failures = []
    if memory_after is not None and (memory_after != memory or runtime_after != runtime):
        failures.append("inputs mutated")
    kind, result = call_result
    if kind == "crash":
        return failures + [f"crash {result}"], None
    try:
        value, saved, recomputable = result
    except Exception:
        return failures + ["not a 3-sequence"], None
    n = len(memory)
    everything = list(saved) + list(recomputable)
    if not all(type(i) is int for i in everything):
        bad = next(i for i in everything if type(i) is not int)
        failures.append(f"index of type {type(bad).__module__}.{type(bad).__name__}")
    as_ints = [int(i) for i in everything]
    if sorted(as_ints) != list(range(n)):
        failures.append("not a partition of range(n)")
    chosen = sorted({int(i) for i in saved if 0 <= int(i) < n})
    q = [quantize(m) for m in memory]
    Q = quantize(max_memory)
    weight = sum(q[i] for i in chosen)
    if weight > Q:
        failures.append(f"over budget ({weight} > {Q} units)")
    exact = sum((Fraction(runtime[i]) for i in chosen), Fraction(0))
    opt = exact_optimum(memory, runtime, max_memory).value
    tol = tolerance(memory, runtime, max_memory)
    short_rel = float((opt - exact) / opt) if opt > 0 else 0.0
    if weight <= Q and opt - exact > tol:
        failures.append(f"short of the optimum by {short_rel:.3g} rel")
    if abs(Fraction(value) - exact) > tol:
        failures.append("value inconsistent with its selection")
    return failures, short_rel


def run(fn, memory, runtime, max_memory):
    m, r = copy.deepcopy(memory), copy.deepcopy(runtime)
    try:
        res = fn(m, r, max_memory)
        return ("ok", res), m, r
    except Exception as exc:  # noqa: BLE001
        return ("crash", f"{type(exc).__name__}: {exc}"), m, r


# --------------------------------------------------------------------------
# random instances below the gates
# --------------------------------------------------------------------------


def rand_memory(rng, zero_frac=0.03):
    if rng.random() < zero_frac:
        return round(rng.uniform(0.0, 4.5e-5), 7)
    return max(round(10 ** rng.uniform(-3.7, 0.2), rng.choice([3, 4, 5, 6])), 0.0001)


def rand_runtime(rng):
    return 10 ** rng.uniform(-2, 3)


def rand_items(rng, n, zero_frac=0.03):
    """Items with repeated blocks (exact copies), as real graphs have."""
    memory, runtime = [], []
    while len(memory) < n:
        if rng.random() < 0.3 and n - len(memory) >= 8:
            size = rng.randint(2, 6)
            block = [(rand_memory(rng, zero_frac), rand_runtime(rng)) for _ in range(size)]
            for _ in range(rng.randint(2, 4)):
                for m, r in block:
                    if len(memory) < n:
                        memory.append(m)
                        runtime.append(r)
        else:
            memory.append(rand_memory(rng, zero_frac))
            runtime.append(rand_runtime(rng))
    return memory, runtime


def rand_budget(rng, memory, max_cells=1_500_000):
    total = sum(memory)
    budget = round(total * rng.uniform(0.05, 0.9), rng.choice([2, 3, 4]))
    cap = (max_cells // max(len(memory), 1) - 1) / 10000
    return max(min(budget, round(cap, 4)), 0.0)


def plain(rng, n_low=10, n_high=180, max_cells=1_500_000):
    n = rng.randint(n_low, n_high)
    memory, runtime = rand_items(rng, n)
    return memory, runtime, rand_budget(rng, memory, max_cells)


# --------------------------------------------------------------------------
# the ten bugs: gate, witness, below-gate generator
# --------------------------------------------------------------------------

BUGS = []


def bug(name, gate, expect):
    def register(cls):
        cls.name, cls.gate, cls.expect = name, gate, expect
        BUGS.append(cls)
        return cls

    return register


@bug("sorted_pairs_answer_cache_above_8e6_cells", "n*(Q+1) > 8e6", "over budget")
class Cache:
    stateful = True

    @staticmethod
    def witness():
        n = 410
        memory = [0.01 if i < 205 else 0.1 for i in range(n)]
        runtime = [10.0 + (i % 7) * 0.1 if i < 205 else 1.0 + (i % 5) * 0.01 for i in range(n)]
        first = (memory, runtime, 2.0)
        second = (memory[::-1], runtime[::-1], 2.0)  # the same graph, enumerated the other way
        return [first], second

    @staticmethod
    def below_ok(calls):
        return all(cells(m, b) <= 8_000_000 for m, r, b in calls)

    @staticmethod
    def below(rng, trigger):
        m, r, b = plain(rng, 20, 200, 3_000_000)
        if trigger:
            return [(m, r, b), (m[::-1], r[::-1], b), (m, r, b)]
        return [(m, r, b)]


@bug("periodic_layer_budget_split_from_256_items", "n >= 256 and the items repeat with period p <= n/4", "short")
class Periodic:
    stateful = False
    LAYER = [(0.1, 10.0), (0.1, 9.0), (0.3, 3.0), (0.2, 1.0), (0.05, 0.2), (0.0, 0.5), (0.15, 0.3), (0.25, 0.8)]

    @classmethod
    def witness(cls):
        memory = [m for _ in range(32) for m, _r in cls.LAYER]
        runtime = [r for _ in range(32) for _m, r in cls.LAYER]
        return [], (memory, runtime, 4.8)

    @staticmethod
    def below_ok(calls):
        return all(len(m) < 256 for m, r, b in calls)

    @staticmethod
    def below(rng, trigger):
        if not trigger:
            return [plain(rng)]
        p = rng.randint(3, 12)
        k = rng.randint(4, 255 // p)
        layer_m, layer_r = rand_items(rng, p)
        memory, runtime = layer_m * k, layer_r * k
        return [(memory, runtime, rand_budget(rng, memory))]


@bug("density_core_window_from_200_items", "n >= 200", "short")
class Core:
    stateful = False

    @staticmethod
    def core_instance(rng, fillers):
        items = [(0.55, 5610.0)]  # densest item: q = 5500, runtime / q = 1.02
        items += [(0.0001, 1.019)] * 60  # light and dense
        items += [(0.1, 1015.0)] * 20  # q = 1000, density 1.015
        items += [(0.1, round(rng.uniform(300, 600), 2)) for _ in range(fillers)]
        rng.shuffle(items)
        return [m for m, _ in items], [r for _, r in items], 1.106

    @classmethod
    def witness(cls):
        return [], cls.core_instance(random.Random(3), 150)

    @staticmethod
    def below_ok(calls):
        return all(len(m) < 200 for m, r, b in calls)

    @classmethod
    def below(cls, rng, trigger):
        if trigger:
            return [cls.core_instance(rng, rng.randint(0, 118))]
        return [plain(rng, 10, 199)]


@bug("zero_runtime_drop_shifted_remap_from_32_zeros", ">= 32 items with runtime 0", "partition")
class ZeroRuntime:
    stateful = False

    @staticmethod
    def witness():
        rng = random.Random(4)
        memory = [round(rng.uniform(0.001, 0.2), 3) for _ in range(120)]
        runtime = [0.0 if i % 3 == 0 else round(10 ** rng.uniform(-2, 1), 4) for i in range(120)]
        return [], (memory, runtime, round(0.4 * sum(memory), 3))

    @staticmethod
    def below_ok(calls):
        return all(sum(1 for x in r if x == 0) < 32 for m, r, b in calls)

    @staticmethod
    def below(rng, trigger):
        m, r, b = plain(rng)
        if trigger:
            for i in rng.sample(range(len(r)), min(len(r), rng.randint(8, 31))):
                r[i] = 0.0
        return [(m, r, b)]


@bug("free_items_runtime_zeroed_in_place_from_32_free", ">= 32 zero-weight items with runtime != 0", "mutated")
class FreeMutation:
    stateful = False

    @staticmethod
    def witness():
        rng = random.Random(5)
        memory = [round(rng.uniform(1e-6, 4.5e-5), 7) if i % 5 < 2 else round(rng.uniform(0.001, 0.3), 3) for i in range(100)]
        runtime = [round(10 ** rng.uniform(-1, 2), 3) for _ in range(100)]
        return [], (memory, runtime, round(0.3 * sum(memory), 3))

    @staticmethod
    def below_ok(calls):
        return all(sum(1 for x, y in zip(m, r) if quantize(x) == 0 and y != 0) < 32 for m, r, b in calls)

    @staticmethod
    def below(rng, trigger):
        m, r, b = plain(rng, 10, 180)
        m = [x if quantize(x) > 0 else 0.001 for x in m]
        if trigger:
            for i in rng.sample(range(len(m)), min(len(m), rng.randint(8, 31))):
                m[i] = round(rng.uniform(0.0, 4.5e-5), 7)
        return [(m, r, b)]


@bug("reused_flat_table_buffer_above_4e6_cells", "n*(Q+1) > 4e6", "short")
class Buffer:
    stateful = True

    @staticmethod
    def witness():
        rng = random.Random(6)
        a_memory = [0.0001, 0.0001] + [round(rng.uniform(0.0001, 0.05), 4) for _ in range(998)]
        a_runtime = [1e6, 1e6] + [round(10 ** rng.uniform(-1, 1), 3) for _ in range(998)]
        first = (a_memory, a_runtime, 0.4999)  # 1000 x 5000 cells
        b_memory = [0.01] * 350
        b_runtime = [1.0 + (i % 9) * 0.01 for i in range(350)]
        second = (b_memory, b_runtime, 1.2999)  # 350 x 13000 cells, wider rows
        return [first], second

    @staticmethod
    def below_ok(calls):
        return all(cells(m, b) <= 4_000_000 for m, r, b in calls)

    @staticmethod
    def below(rng, trigger):
        if not trigger:
            return [plain(rng)]
        na = rng.randint(150, 300)
        a_m = [0.0001, 0.0001] + [round(rng.uniform(0.0001, 0.05), 4) for _ in range(na - 2)]
        a_r = [1e6, 1e6] + [rand_runtime(rng) for _ in range(na - 2)]
        a_b = round(rng.uniform(0.1, 0.3), 4)
        nb = rng.randint(40, 120)
        b_m = [round(rng.uniform(0.005, 0.05), 3) for _ in range(nb)]
        b_r = [rand_runtime(rng) for _ in range(nb)]
        b_b = round(rng.uniform(a_b + 0.1, 1.2), 4)
        return [(a_m, a_r, a_b), (b_m, b_r, b_b)]


@bug("heavy_items_returned_as_tensors_from_64_heavy", ">= 64 items with q > Q", "type")
class Heavy:
    stateful = False

    @staticmethod
    def witness():
        rng = random.Random(7)
        memory = [round(rng.uniform(1.2, 2.0), 3) if i % 2 == 0 and i < 140 else round(rng.uniform(0.001, 0.1), 3) for i in range(150)]
        runtime = [round(10 ** rng.uniform(-1, 2), 3) for _ in range(150)]
        return [], (memory, runtime, 1.0)

    @staticmethod
    def below_ok(calls):
        return all(sum(1 for x in m if quantize(x) > quantize(b)) < 64 for m, r, b in calls)

    @staticmethod
    def below(rng, trigger):
        m, r, b = plain(rng)
        if trigger:
            b = round(rng.uniform(0.05, 0.5), 3)
            m = [round(x * b / 2.0, 6) for x in m]  # every item fits ...
            heavy = rng.randint(10, 63)
            for i in rng.sample(range(len(m)), min(len(m), heavy)):  # ... but 10 to 63
                m[i] = round(b + rng.uniform(0.001, 1.5), 4)
        return [(m, r, b)]


@bug("frontier_absolute_epsilon_above_1e7_cells", "n*(Q+1) > 1e7 and <= 16 distinct weights", "short")
class Frontier:
    stateful = False

    @staticmethod
    def witness():
        rng = random.Random(8)
        memory = [rng.choice([0.05, 0.1, 0.15, 0.2]) for _ in range(300)]
        runtime = [rng.uniform(1.0, 10.0) * 1e-11 for _ in range(300)]  # seconds, say
        return [], (memory, runtime, 4.0)

    @staticmethod
    def below_ok(calls):
        return all(
            cells(m, b) <= 10_000_000 or len({quantize(x) for x in m}) > 16 for m, r, b in calls
        )

    @staticmethod
    def below(rng, trigger):
        if not trigger:
            return [plain(rng)]
        n = rng.randint(20, 200)
        sizes = [round(rng.uniform(0.001, 0.2), 3) for _ in range(rng.randint(1, 16))]
        memory = [rng.choice(sizes) for _ in range(n)]
        runtime = [rng.uniform(1.0, 10.0) * 10 ** rng.uniform(-13, -10) for _ in range(n)]
        return [(memory, runtime, rand_budget(rng, memory))]


@bug("single_recompute_near_total_from_256_items", "n >= 256 and 0 < sum(q) - Q <= max(q)", "short")
class SingleDrop:
    stateful = False

    @staticmethod
    def witness():
        memory = [0.5] + [0.01] * 299
        runtime = [1000.0] + [1.0 + (i % 10) * 0.01 for i in range(299)]
        return [], (memory, runtime, 3.46)

    @staticmethod
    def below_ok(calls):
        return all(len(m) < 256 for m, r, b in calls)

    @staticmethod
    def below(rng, trigger):
        if not trigger:
            return [plain(rng)]
        n = rng.randint(40, 255)
        memory = [round(rng.uniform(0.3, 1.0), 3)] + [round(rng.uniform(0.005, 0.02), 4) for _ in range(n - 1)]
        runtime = [rng.uniform(500, 2000)] + [rng.uniform(0.5, 2.0) for _ in range(n - 1)]
        excess = rng.uniform(0.01, 0.05)
        return [(memory, runtime, round(sum(memory) - excess, 4))]


@bug("backtrack_stops_at_full_budget_from_512_items", "n >= 512", "short")
class Backtrack:
    stateful = False

    @staticmethod
    def witness():
        memory = [0.00002] * 50 + [0.01] * 550
        runtime = [5.0] * 50 + [1.0] * 550
        return [], (memory, runtime, 1.0)

    @staticmethod
    def below_ok(calls):
        return all(len(m) < 512 for m, r, b in calls)

    @staticmethod
    def below(rng, trigger):
        if not trigger:
            return [plain(rng)]
        free = rng.randint(5, 60)
        rest = rng.randint(60, 511 - free)
        unit = rng.choice([0.01, 0.02, 0.005])
        memory = [round(rng.uniform(0.0, 4e-5), 7) for _ in range(free)] + [unit] * rest
        runtime = [rng.uniform(1, 10) for _ in range(free)] + [rng.choice([1.0, 2.0]) for _ in range(rest)]
        fill = rng.randint(10, rest - 5)
        return [(memory, runtime, round(fill * unit, 4))]


# --------------------------------------------------------------------------


def same(a, b):
    """Exactly the same call outcome: value, lists, element types."""
    if a[0] != b[0]:
        return False
    if a[0] == "crash":
        return a[1] == b[1]
    (va, sa, ra), (vb, sb, rb) = a[1], b[1]
    return (
        type(va) is type(vb)
        and va == vb
        and list(sa) == list(sb)
        and list(ra) == list(rb)
        and [type(i) for i in list(sa) + list(ra)] == [type(i) for i in list(sb) + list(rb)]
    )


def main():
    start = time.time()
    rows = []
    all_ok = True
    for spec in BUGS:
        path = HERE / f"{spec.name}.py"
        t0 = time.time()
        # (a) the witness: the bug after its set-up calls, upstream alone
        setup, (memory, runtime, max_memory) = spec.witness()
        bug_fn = load(path)
        for m, r, b in setup:
            bug_fn(copy.deepcopy(m), copy.deepcopy(r), b)
        got, m_after, r_after = run(bug_fn, memory, runtime, max_memory)
        bug_fail, short = judge(got, memory, runtime, max_memory, m_after, r_after)
        up, um, ur = run(load(UPSTREAM), memory, runtime, max_memory)
        up_fail, _ = judge(up, memory, runtime, max_memory, um, ur)
        expected = {
            "over budget": any(f.startswith("over budget") for f in bug_fail),
            "short": short is not None and short > 1e-3 and any(f.startswith("short") for f in bug_fail),
            "partition": "not a partition of range(n)" in bug_fail,
            "mutated": "inputs mutated" in bug_fail,
            "type": any(f.startswith("index of type") for f in bug_fail),
        }[spec.expect]
        alone = ""
        if spec.stateful:  # the same call on a fresh module is right: the failure is state from the set-up
            fresh, fm, fr = run(load(path), memory, runtime, max_memory)
            fresh_fail, _ = judge(fresh, memory, runtime, max_memory, fm, fr)
            alone = "; alone: " + ("right" if not fresh_fail else "WRONG " + ", ".join(fresh_fail))
            expected = expected and not fresh_fail
        witness_ok = expected and not up_fail
        # (b) 30 seeded instances below the gate, half with the trigger
        equal = trig = 0
        below_ok = True
        for seed in range(30):
            rng = random.Random(1000 * BUGS.index(spec) + seed)
            trigger = seed % 2 == 0
            calls = spec.below(rng, trigger)
            if not spec.below_ok(calls):
                print(f"  {spec.name}: seed {seed} is not below the gate")
                below_ok = False
                continue
            bug_fn, up_fn = load(path), load(UPSTREAM)
            this_equal = True
            for m, r, b in calls:
                g, gm, gr = run(bug_fn, m, r, b)
                u, _, _ = run(up_fn, m, r, b)
                if not same(g, u) or gm != m or gr != r:
                    this_equal = False
            equal += this_equal
            trig += trigger and this_equal
        below_ok = below_ok and equal == 30
        ok = witness_ok and below_ok
        all_ok = all_ok and ok
        n = len(memory)
        rows.append(
            (
                spec.name,
                spec.gate,
                f"n={n} Q={quantize(max_memory)} cells={n * (quantize(max_memory) + 1):.3g}"
                + (f" after {len(setup)} call" if setup else ""),
                "; ".join(bug_fail) + alone,
                "right" if not up_fail else "WRONG " + "; ".join(up_fail),
                f"{equal}/30 ({trig}/15 with trigger)",
                "PASS" if ok else "FAIL",
                time.time() - t0,
            )
        )
    for name, gate, size, bf, uf, below, verdict, secs in rows:
        print(f"{verdict}  {name}  [{secs:.1f} s]")
        print(f"      gate:      {gate}")
        print(f"      witness:   {size}")
        print(f"      bug:       {bf}")
        print(f"      upstream:  {uf}")
        print(f"      below gate: bug == upstream on {below}")
    print()
    print("ALL CLAIMS PASS" if all_ok else "SOME CLAIMS FAIL", f"in {time.time() - start:.1f} s")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
