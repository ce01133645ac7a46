"""Claims for the ten bugs of this corpus, checked against the exact oracle.

For each bug NAME (bugs/NAME.py):

(a) a witness above the gate: the bug's answer fails the claimed properties
    (judged against ``reference.exact_optimum``; optimality claims also need
    a shortfall of more than 1e-3 relative), while upstream's answer
    (upstream_dp_knapsack.py) passes every property within SPEC 5.4's float32
    tolerance. For the two stateful bugs the witness is the last call of a
    sequence, and the same call on a fresh module (alone) is right.
(b) 30 seeded random instances below the gate (15 of them carrying the
    bug's trigger pattern): the bug returns exactly upstream's tuple (values,
    lists, element types) and leaves its inputs untouched. For the stateful
    bugs an instance is a sequence of two calls, and both are compared.

Run from anywhere: ``/work/main/.venv/bin/python bugs/witnesses.py``.
Prints ``ALL CLAIMS PASS`` when every claim holds.
"""

from __future__ import annotations

import copy
import importlib.util
import itertools
import math
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, "/work/main")

from reference import exact_optimum, validate

_counter = itertools.count()


def load(path: Path):
    """A fresh module object (fresh module-level state) for ``path``."""
    spec = importlib.util.spec_from_file_location(f"_b7_{next(_counter)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


UPSTREAM = load(ROOT / "upstream_dp_knapsack.py").dp_knapsack


def fresh_bug(name: str):
    return load(HERE / f"{name}.py").dp_knapsack


# --------------------------------------------------------------------------
# The judge (SPEC 3, 5.4, 7.2, 8.2)
# --------------------------------------------------------------------------

U = Fraction(1, 2**24)


def tolerance(weights, runtimes, capacity) -> Fraction:
    n = len(weights)
    k = n + 1
    gamma = k * U / (1 - k * U)
    total = sum(
        (abs(Fraction(v)) for w, v in zip(weights, runtimes) if w <= capacity),
        Fraction(0),
    )
    return 2 * gamma * total + 2 * k * Fraction(1, 2**149)


def judge(memory, runtime, budget, result, opt=None):
    """Failed properties of ``result`` (a dict name -> detail)."""
    inst = validate(memory, runtime, budget)
    n, q, cap = inst.n, inst.weights, inst.capacity
    fails = {}
    if isinstance(result, Exception):
        return {"no-crash": f"{type(result).__name__}: {result}"}
    if not (isinstance(result, (tuple, list)) and len(result) == 3):
        return {"shape": repr(type(result))}
    value, saved, rec = result
    if not all(type(i) is int for i in list(saved) + list(rec)):
        fails["plain-int"] = "non-int index"
    try:
        ok_partition = sorted(list(saved) + list(rec)) == list(range(n))
    except TypeError:
        ok_partition = False
    if not ok_partition:
        fails["partition"] = f"{len(saved)} saved + {len(rec)} recomputable for n={n}"
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        fails["value-finite"] = repr(value)
    chosen = {int(i) for i in saved if 0 <= int(i) < n}
    weight = sum(q[i] for i in chosen)
    if weight > cap:
        fails["feasibility"] = f"weight {weight} > Q = {cap}"
    sel_value = sum((Fraction(inst.runtimes[i]) for i in chosen), Fraction(0))
    tol = tolerance(q, inst.runtimes, cap)
    if opt is None:
        opt = exact_optimum(memory, runtime, budget).value
    short = opt - sel_value
    if weight <= cap and short > tol:
        rel = float(short / opt) if opt else math.inf
        fails["optimality"] = f"short by {float(short):.6g} ({rel:.3%} of OPT {float(opt):.6g})"
    if "value-finite" not in fails and abs(Fraction(value) - sel_value) > tol:
        fails["value-consistency"] = f"returns {value!r}, selection worth {float(sel_value):.6g}"
    return fails


def relative_shortfall(memory, runtime, budget, result, opt) -> float:
    if isinstance(result, Exception):
        return 0.0
    inst = validate(memory, runtime, budget)
    chosen = set(result[1])
    sel = sum((Fraction(inst.runtimes[i]) for i in chosen), Fraction(0))
    return float((opt - sel) / opt) if opt else 0.0


def call_checked(solver, memory, runtime, budget):
    """Call ``solver``; return (result, mutated?, arguments as passed)."""
    snapshot = (copy.deepcopy(memory), copy.deepcopy(runtime), budget)
    try:
        result = solver(memory, runtime, budget)
    except Exception as exc:  # noqa: BLE001 (a crash is a finding: no-crash)
        result = exc
    mutated = any(
        type(a) is not type(b) or list(a) != list(b)
        for a, b in zip(snapshot[:2], (memory, runtime))
    )
    return result, mutated, snapshot


def same_tuple(a, b) -> bool:
    if isinstance(a, Exception) or isinstance(b, Exception):
        return False
    if type(a) is not type(b) or len(a) != len(b):
        return False
    va, vb = a[0], b[0]
    if type(va) is not type(vb):
        return False
    if not (va == vb or (isinstance(va, float) and math.isnan(va) and math.isnan(vb))):
        return False
    for x, y in zip(a[1:], b[1:]):
        if type(x) is not type(y) or list(x) != list(y):
            return False
        if any(type(i) is not type(j) for i, j in zip(x, y)):
            return False
    return True


# --------------------------------------------------------------------------
# Instance helpers
# --------------------------------------------------------------------------


def cells(memory, budget) -> int:
    return len(memory) * (round(budget * 10000) + 1)


def plain(rng: random.Random, n: int, Q: int):
    """Memories log-uniform up to the budget (5 decimals), runtimes log-uniform."""
    top = math.log10(max(Q, 2) / 1e4)
    memory = [round(10 ** rng.uniform(-4, top), 5) for _ in range(n)]
    runtime = [10 ** rng.uniform(-1, 3) for _ in range(n)]
    return memory, runtime, Q / 1e4


# Each bug: gate(memory, runtime, budget) -> bool; witness() -> list of calls
# (the last one is judged; earlier ones are set-up calls on the same module);
# claims: properties the witness must fail; below(rng, trigger) -> list of
# calls, all below the gate.
BUGS: dict[str, dict] = {}


def bug(name, gate, claims):
    def register(cls):
        BUGS[name] = {
            "gate": gate,
            # (calls, claimed properties): the witness, then any variants
            "witnesses": [(cls.witness, claims)] + list(getattr(cls, "variants", [])),
            "below": cls.below,
        }
        return cls

    return register


# 1 ------------------------------------------------------------------------
@bug(
    "flush_denormal_fill_above_6e6_cells",
    lambda m, r, b: cells(m, b) > 6_000_000,
    {"optimality"},
)
class FlushDenormal:
    @staticmethod
    def witness():
        rng = random.Random(1)
        n = 1000
        # Runtimes below float32's smallest normal (1.18e-38): kernels of a few
        # ns on a slow timer, or flop counts rescaled into an f32 scale.
        memory = [0.005 * rng.randint(1, 40) for _ in range(n)]
        runtime = [10 ** rng.uniform(-41, -38.2) for _ in range(n)]
        return [(memory, runtime, 0.9999)]

    @staticmethod
    def below(rng, trigger):
        if rng.random() < 0.1:
            n, Q = 600, 9998  # 5,999,400 cells: just under the gate
        else:
            n = rng.randint(30, 300)
            Q = rng.randint(100, 1_500_000 // n)
        memory, runtime, budget = plain(rng, n, Q)
        if trigger:
            runtime = [10 ** rng.uniform(-44, -38.1) for _ in range(n)]
        return [(memory, runtime, budget)]


# 2 ------------------------------------------------------------------------
@bug(
    "integer_gap_greedy_exit_from_256_items",
    lambda m, r, b: len(m) >= 256,
    {"optimality"},
)
class IntegerGap:
    @staticmethod
    def witness():
        rng = random.Random(2)
        # Runtimes in seconds. The densest item (0.6 GB, 6.1 ms) blocks the
        # two 0.5 GB items (5 ms each) that fill the 1 GB budget exactly.
        memory = [0.6, 0.5, 0.5]
        runtime = [0.0061, 0.005, 0.005]
        for _ in range(297):
            m = 0.01 * rng.randint(1, 30)
            memory.append(m)
            runtime.append(m * 1e-2 * rng.uniform(0.3, 0.8))
        return [(memory, runtime, 1.0)]

    @staticmethod
    def below(rng, trigger):
        n = rng.choice([255, rng.randint(20, 255)])
        Q = rng.randint(200, 20000)
        memory, runtime, budget = plain(rng, n, Q)
        if trigger:
            # the witness's pattern, in seconds
            runtime = [m * 1e-2 * rng.uniform(0.3, 0.8) for m in memory]
            memory[:3] = [0.6 * budget, 0.5 * budget, 0.5 * budget]
            runtime[:3] = [0.0061 * budget, 0.005 * budget, 0.005 * budget]
        return [(memory, runtime, budget)]


# 3 ------------------------------------------------------------------------
@bug(
    "blocked_inplace_row_above_8e6_cells",
    lambda m, r, b: cells(m, b) > 8_000_000,
    {"optimality", "value-consistency"},
)
class BlockedRow:
    @staticmethod
    def witness():
        rng = random.Random(3)
        # Q = 20,000 units: two column blocks of 16,384. 500 items of 0.1 GB
        # (1,000 units); the first is worth 100 ms, the rest 1 to 2 ms.
        n = 500
        memory = [0.1] * n
        runtime = [100.0] + [rng.uniform(1, 2) for _ in range(n - 1)]
        return [(memory, runtime, 2.0)]

    @staticmethod
    def below(rng, trigger):
        Q = rng.randint(16500, 30000)
        top = 8_000_000 // (Q + 1)
        n = rng.choice([top, rng.randint(20, top)])
        memory, runtime, budget = plain(rng, n, Q)
        if trigger:
            memory = [0.01 * rng.randint(1, 20) for _ in range(n)]
            runtime = [rng.uniform(1, 2) for _ in range(n)]
            runtime[0] = 100.0
        return [(memory, runtime, budget)]


# 4 ------------------------------------------------------------------------
@bug(
    "checkpoint_rows_tail_chunk_dropped_above_1e7_cells",
    lambda m, r, b: cells(m, b) > 10_000_000,
    {"optimality", "value-consistency"},
)
class CheckpointTail:
    @staticmethod
    def witness():
        rng = random.Random(4)
        # 1,100 items: 4 full chunks of 256 and a tail of 76. The tail holds
        # the valuable items.
        memory = [0.01 * rng.randint(1, 10) for _ in range(1024)] + [0.01] * 76
        runtime = [rng.uniform(1, 10) for _ in range(1024)] + [1000.0] * 76
        return [(memory, runtime, 0.9999)]

    @staticmethod
    def below(rng, trigger):
        while True:
            n = rng.randint(257, 1500)
            if n % 256:
                break
        Q = rng.choice([10_000_000 // n - 1, rng.randint(100, 10_000_000 // n - 1)])
        memory, runtime, budget = plain(rng, n, Q)
        if trigger:
            tail = n % 256
            for k in range(n - tail, n):
                runtime[k] *= 100
        return [(memory, runtime, budget)]


# 5 ------------------------------------------------------------------------
@bug(
    "weights_cache_by_list_id_from_1024_items",
    lambda m, r, b: len(m) >= 1024,
    {"feasibility"},
)
class IdCache:
    @staticmethod
    def witness():
        rng = random.Random(5)
        n = 1200
        memory = [0.001] * n  # 10 units each
        runtime = [rng.uniform(1, 10) for _ in range(n)]
        first = (memory, runtime, 0.1)
        # The caller reuses its list: same object, new contents (100 units each).
        second_memory = memory  # same object
        return [first, ("mutate", second_memory, [0.01] * n), (second_memory, runtime, 0.1)]

    @staticmethod
    def below(rng, trigger):
        n = rng.choice([1023, rng.randint(50, 1023)])
        Q = rng.randint(100, 2_000_000 // n)
        memory, runtime, budget = plain(rng, n, Q)
        if trigger:
            return [
                (memory, runtime, budget),
                ("mutate", memory, [m * 10 for m in memory]),
                (memory, runtime, budget),
            ]
        memory2, runtime2, _ = plain(rng, n, Q)
        return [(memory, runtime, budget), (memory2, runtime2, budget)]


# 6 ------------------------------------------------------------------------
@bug(
    "reversed_in_place_all_fit_leak_from_128_items",
    lambda m, r, b: len(m) >= 128 and type(m) is list and type(r) is list,
    {"no-mutation"},
)
class ReverseLeak:
    @staticmethod
    def witness():
        rng = random.Random(6)
        n = 200
        memory = [0.001 * rng.randint(1, 20) for _ in range(n)]
        runtime = [rng.uniform(1, 10) for _ in range(n)]
        assert sum(round(m * 10000) for m in memory) <= 30000
        return [(memory, runtime, 3.0)]  # 30,000 units: everything fits

    @staticmethod
    def below(rng, trigger):
        n = rng.choice([127, rng.randint(10, 127)])
        Q = rng.randint(100, 20000)
        memory, runtime, budget = plain(rng, n, Q)
        if trigger:
            memory, runtime, _ = plain(rng, n, max(100, Q // 8))
            budget = round(sum(memory) + 0.01, 4)  # everything fits
        return [(memory, runtime, budget)]


# 7 ------------------------------------------------------------------------
@bug(
    "two_sizes_unimodal_stop_from_64_items",
    lambda m, r, b: len(m) >= 64
    and len({round(x * 10000) for x in m}) == 2
    and 0 not in {round(x * 10000) for x in m},
    {"optimality"},
)
class TwoSizes:
    @staticmethod
    def witness():
        # 34 activations of 0.1 GB (6 ms) and 30 of 0.15 GB (10 ms), 3 GB.
        # f(0) = 30 small = 180, f(1) = 10 + 28 small = 178: the walk stops;
        # f(20) = 20 large = 200.
        memory = [0.1] * 34 + [0.15] * 30
        runtime = [6.0] * 34 + [10.0] * 30
        return [(memory, runtime, 3.0)]

    @staticmethod
    def below(rng, trigger):
        n = rng.choice([63, rng.randint(10, 63)])
        if trigger:
            # the witness's shape: sizes s and 1.5 s, runtimes about 6 and 10,
            # a budget of k small items (k even), so f(1) < f(0) < f(2k/3)
            small = 2 * rng.randint(25, 250)
            large = small * 3 // 2
            k = 2 * rng.randint(2, max(2, 3 * n // 10 - 1))
            n_small = rng.randint(k, n - (2 * k + 2) // 3)
            memory = [small / 1e4] * n_small + [large / 1e4] * (n - n_small)
            runtime = [rng.uniform(5.95, 6.05) for _ in range(n_small)] + [
                rng.uniform(9.95, 10.05) for _ in range(n - n_small)
            ]
            order = list(range(n))
            rng.shuffle(order)
            memory = [memory[j] for j in order]
            runtime = [runtime[j] for j in order]
            return [(memory, runtime, k * small / 1e4)]
        Q = rng.randint(100, 20000)
        return [plain(rng, n, Q)]


# 8 ------------------------------------------------------------------------
@bug(
    "greedy_swap_local_search_above_12e6_cells",
    lambda m, r, b: cells(m, b) > 12_000_000,
    {"optimality"},
)
class LocalSearch:
    @staticmethod
    def witness():
        rng = random.Random(8)
        # 1.2 GB budget: X (0.7 GB, 7.7 ms) is densest; the optimum is the two
        # 0.6 GB items (6.3 ms each). Greedy takes X and five 0.1 GB fillers,
        # which fill the budget; no single add or swap improves on it.
        memory = [0.7, 0.6, 0.6] + [0.1] * 5
        runtime = [7.7, 6.3, 6.3] + [0.9] * 5
        # 992 activations larger than the budget (recomputed in any answer).
        for _ in range(992):
            memory.append(round(rng.uniform(1.3, 3.0), 4))
            runtime.append(rng.uniform(1, 50))
        order = list(range(len(memory)))
        rng.shuffle(order)
        return [([memory[k] for k in order], [runtime[k] for k in order], 1.2)]

    @staticmethod
    def below(rng, trigger):
        Q = rng.randint(2000, 20000)
        top = 12_000_000 // (Q + 1)
        n = rng.choice([top, rng.randint(20, top)])
        memory, runtime, budget = plain(rng, n, Q)
        if trigger:
            memory[:8] = [b * budget for b in (7 / 12, 0.5, 0.5) + (1 / 12,) * 5]
            runtime[:8] = [7.7, 6.3, 6.3] + [0.9] * 5
            for k in range(8, n):
                memory[k] = budget * rng.uniform(1.1, 2.5)
        return [(memory, runtime, budget)]


# 9 ------------------------------------------------------------------------
def _uniform_zero_runtimes():
    # 200 nodes of 0.01 GB whose runtime is 0: the backtrack stays in range,
    # saves 50 items (feasible, worth 0 = OPT), and the value is NaN.
    return [([0.01] * 200, [0.0] * 200, 0.5)]


def _overshoot_zero_runtimes():
    # Constructed so that the backtrack's column goes negative (wrapping to
    # the end of the row) and the rows run out before it leaves the row:
    # every item is saved, 10,001 units under 5,030.
    memory = [0.0001] + [0.005] * 98 + [0.01] + [0.005] * 100
    return [(memory, [0.0] * 200, 0.503)]


def _dominant_heavy_runtime():
    # A second region: the largest runtime (1e30) is on an item that cannot
    # be saved, so every other runtime divided by it is under float32's
    # smallest subnormal and becomes 0; nothing is saved.
    rng = random.Random(99)
    memory = [2.0] + [0.01 * rng.randint(1, 20) for _ in range(199)]
    runtime = [1e30] + [rng.uniform(1, 2) * 1e-16 for _ in range(199)]
    return [(memory, runtime, 0.5)]


@bug(
    "runtime_max_normalized_from_128_items",
    lambda m, r, b: len(r) >= 128,
    {"no-crash"},
)
class MaxNormalized:
    variants = (
        (_uniform_zero_runtimes, {"value-finite"}),
        (_overshoot_zero_runtimes, {"value-finite", "feasibility"}),
        (_dominant_heavy_runtime, {"optimality"}),
    )

    @staticmethod
    def witness():
        rng = random.Random(9)
        # 200 nodes whose profiled runtime rounds to 0 ms, of 0.01 to 0.2 GB:
        # the NaN table sends the backtrack's column out of the row.
        n = 200
        memory = [0.01 * rng.randint(1, 20) for _ in range(n)]
        runtime = [0.0] * n
        return [(memory, runtime, 0.5)]

    @staticmethod
    def below(rng, trigger):
        n = rng.choice([127, rng.randint(10, 127)])
        Q = rng.randint(100, 20000)
        memory, runtime, budget = plain(rng, n, Q)
        if trigger:
            runtime = [0.0] * n
        return [(memory, runtime, budget)]


# 10 -----------------------------------------------------------------------
@bug(
    "saved_mask_prefix_clear_from_512_items",
    lambda m, r, b: len(m) >= 512,
    {"feasibility", "value-consistency"},
)
class MaskPrefix:
    @staticmethod
    def witness():
        # Call 1: 500 activations of 2 GB (too big), then 100 of 0.01 GB under
        # 1 GB: items 500-599 saved; the clear resets mask[0:100] only.
        first = ([2.0] * 500 + [0.01] * 100, [5.0] * 500 + [1.0] * 100, 1.0)
        # Call 2: 600 activations of 0.1 GB, 10 fit.
        rng = random.Random(10)
        second = ([0.1] * 600, [rng.uniform(1, 2) for _ in range(600)], 1.0)
        return [first, second]

    @staticmethod
    def below(rng, trigger):
        n = rng.choice([511, rng.randint(50, 511)])
        Q = rng.randint(100, 10000)
        if trigger:
            light = rng.randint(1, n // 4)
            budget = Q / 1e4
            first = (
                [2 * budget] * (n - light) + [budget / light] * light,
                [5.0] * (n - light) + [1.0] * light,
                budget,
            )
            second = ([budget / 10] * n, [rng.uniform(1, 2) for _ in range(n)], budget)
            return [first, second]
        return [plain(rng, n, Q), plain(rng, n, Q)]


# --------------------------------------------------------------------------
# Running the claims
# --------------------------------------------------------------------------


def run_sequence(solver, calls):
    """Run ``calls`` on one solver, in order ("mutate" steps edit a list in
    place between calls); return (result, mutated?, arguments) per call."""
    results = []
    for call in calls:
        if call[0] == "mutate":
            _, target, contents = call
            target[:] = contents
            continue
        results.append(call_checked(solver, *call))
    return results


def summary(result) -> str:
    if isinstance(result, Exception):
        return f"raises {type(result).__name__}"
    return f"value={result[0]!r}, {len(result[1])} saved"


def check_witness(name, spec, make_calls, claims) -> bool:
    calls = make_calls()
    t0 = time.perf_counter()
    bug_result, bug_mutated, args = run_sequence(fresh_bug(name), calls)[-1]
    memory, runtime, budget = args
    gate_ok = spec["gate"](*args)
    opt = exact_optimum(memory, runtime, budget).value
    bug_fails = judge(memory, runtime, budget, bug_result, opt)
    if bug_mutated:
        bug_fails["no-mutation"] = "the call changed its memory/runtime lists"
    # upstream on the same call, alone
    up_result, up_mutated, _ = call_checked(UPSTREAM, *copy.deepcopy(args))
    up_fails = judge(memory, runtime, budget, up_result, opt)
    if up_mutated:
        up_fails["no-mutation"] = "the call changed its inputs"
    ok = gate_ok and claims <= set(bug_fails) and not up_fails
    if "optimality" in claims:
        rel = relative_shortfall(memory, runtime, budget, bug_result, opt)
        ok = ok and rel > 1e-3
    alone_note = ""
    if sum(c[0] != "mutate" for c in calls) > 1:
        alone_result, alone_mut, _ = call_checked(fresh_bug(name), *copy.deepcopy(args))
        alone_fails = judge(memory, runtime, budget, alone_result, opt)
        alone_ok = not alone_fails and not alone_mut
        ok = ok and alone_ok
        alone_note = (
            "; the bug on the judged call alone (fresh module): "
            + ("right" if alone_ok else str(alone_fails))
        )
    n, Q = len(memory), round(budget * 10000)
    print(f"  witness: n={n}, Q={Q}, cells={n * (Q + 1):,}, above the gate: {gate_ok}"
          + (f" (call {sum(c[0] != 'mutate' for c in calls)} of a sequence)" if alone_note else ""))
    print(f"    OPT = {float(opt):.9g}")
    print(f"    bug:      {summary(bug_result)} -> fails {sorted(bug_fails)}")
    for key, detail in sorted(bug_fails.items()):
        print(f"      {key}: {detail}")
    print(f"    upstream: {summary(up_result)} -> "
          f"{'right' if not up_fails else up_fails}{alone_note}")
    print(f"    claimed {sorted(claims)}: {'HOLDS' if ok else 'FAILS'} ({time.perf_counter() - t0:.2f} s)")
    return ok


def check_below(name, spec) -> bool:
    t0 = time.perf_counter()
    ok = True
    trigger_count = 0
    largest = 0
    for seed in range(30):
        trigger = seed % 2 == 0
        trigger_count += trigger
        rng = random.Random(1000 * (list(BUGS).index(name) + 1) + seed)
        calls = spec["below"](rng, trigger)
        calls_up = copy.deepcopy(calls)
        for call in calls:
            if call[0] == "mutate":
                continue
            largest = max(largest, cells(call[0], call[2]))
            if spec["gate"](*call) or cells(call[0], call[2]) > 30_000_000:
                print(f"    seed {seed}: instance is not below the gate (or too big)")
                ok = False
        bug_results = run_sequence(fresh_bug(name), calls)
        up_results = run_sequence(UPSTREAM, calls_up)
        for (b, bm, _), (u, um, _) in zip(bug_results, up_results):
            if bm or not same_tuple(b, u):
                print(f"    seed {seed}: differs from upstream (mutated={bm})")
                ok = False
    print(f"  below the gate: 30 instances ({trigger_count} with the trigger pattern): "
          f"{'identical to upstream, inputs untouched' if ok else 'DIFFERENCES'} "
          f"(largest table {largest:,} cells; {time.perf_counter() - t0:.2f} s)")
    return ok


def main() -> int:
    start = time.perf_counter()
    all_ok = True
    for name, spec in BUGS.items():
        print(name)
        for make_calls, claims in spec["witnesses"]:
            all_ok &= check_witness(name, spec, make_calls, claims)
        all_ok &= check_below(name, spec)
    print(f"total {time.perf_counter() - start:.1f} s")
    print("ALL CLAIMS PASS" if all_ok else "SOME CLAIMS FAIL")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
