"""Claims for the twelfth blind corpus.

For each bug:
(a) a witness above its gate on which the bug violates a SPEC clause while
    upstream passes every one-call property, both judged against
    reference.exact_optimum (exact rationals; upstream within SPEC 5.4's
    float32 tolerance; an optimality claim needs a shortfall above the
    tolerance and above 1e-3 of the optimum);
(b) 30 seeded instances below its gate (the first 15 carrying the bug's
    trigger pattern) on which the bug returns exactly upstream's tuple
    (value type and bits, list types, contents and element types) and
    leaves its inputs untouched.

Run: /work/main/.venv/bin/python bugs/witnesses.py
Prints ALL CLAIMS PASS at the end only if every claim holds.
"""

from __future__ import annotations

import importlib.util
import math
import numbers
import os
import random
import struct
import sys
import time
import warnings
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, "/work/main")

import numpy as np  # noqa: E402
import torch  # noqa: E402

import reference  # noqa: E402
from reference.validation import exact_sum, validate  # noqa: E402

MAX_CELLS = 15_000_000
_loaded = 0


def load(path: str):
    """A freshly loaded module from a file."""
    global _loaded
    _loaded += 1
    spec = importlib.util.spec_from_file_location(f"_w12_mod_{_loaded}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def upstream():
    return load(os.path.join(ROOT, "upstream_dp_knapsack.py")).dp_knapsack


def bug(name: str):
    return load(os.path.join(HERE, f"{name}.py")).dp_knapsack


# ---------------------------------------------------------------------------
# judging
# ---------------------------------------------------------------------------


def snapshot(memory, runtime, max_memory):
    def seq(xs):
        return (type(xs).__name__, tuple((type(x).__name__, repr(x)) for x in xs))

    return seq(memory), seq(runtime), (type(max_memory).__name__, repr(max_memory))


def copy_args(memory, runtime, max_memory):
    return type(memory)(memory), type(runtime)(runtime), max_memory


def tolerance(inst) -> Fraction:
    n = inst.n
    ku = Fraction(n + 1, 2**24)
    gamma = ku / (1 - ku)
    total = sum(
        (abs(Fraction(v)) for w, v in zip(inst.weights, inst.runtimes) if w <= inst.capacity),
        Fraction(0),
    )
    return 2 * gamma * total + 2 * (n + 1) * Fraction(1, 2**149)


def cells(memory, runtime, max_memory) -> int:
    inst = validate(memory, runtime, max_memory)
    return inst.n * (inst.capacity + 1)


def judge(fn, memory, runtime, max_memory, opt=None):
    """Every one-call property, judged exactly. Returns a dict."""
    args = copy_args(memory, runtime, max_memory)
    before = snapshot(*args)
    inst = validate(memory, runtime, max_memory)
    if opt is None:
        opt = reference.exact_optimum(memory, runtime, max_memory).value
    tol = tolerance(inst)
    out = {"opt": opt, "tol": tol}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = fn(*args)
    except Exception as exc:  # noqa: BLE001
        out["crash"] = f"{type(exc).__name__}: {exc}"
        out["ok"] = False
        out["failed"] = ["no-crash"]
        return out
    failed = []
    if snapshot(*args) != before:
        failed.append("no-mutation")
    if not (isinstance(res, (tuple, list)) and len(res) == 3):
        failed.append("return-shape")
        out.update(ok=False, failed=failed, result=res)
        return out
    value, saved, rec = res
    out["value"], out["saved"], out["rec"] = value, saved, rec
    try:
        saved_l, rec_l = list(saved), list(rec)
    except TypeError:
        failed.append("return-shape")
        out.update(ok=False, failed=failed)
        return out
    if not all(type(i) is int for i in saved_l + rec_l):
        failed.append("plain-int")
    if sorted(saved_l + rec_l) != list(range(inst.n)):
        failed.append("partition")
    valid = [i for i in saved_l if type(i) is int and 0 <= i < inst.n]
    weight = sum(inst.weights[i] for i in set(valid))
    out["weight"], out["capacity"] = weight, inst.capacity
    if weight > inst.capacity:
        failed.append("feasibility")
    worth = exact_sum(inst.runtimes, sorted(set(valid)))
    out["worth"] = worth
    if opt - worth > tol:
        failed.append("optimality")
    out["shortfall"] = opt - worth
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, bool)
        or not math.isfinite(value)
    ):
        failed.append("value-real")
    elif abs(Fraction(value) - worth) > tol:
        failed.append("value-consistency")
    out["failed"] = failed
    out["ok"] = not failed
    return out


def same_answer(a, b) -> bool:
    """Exactly the same tuple: value type and bits, list types, contents, element types."""
    if type(a) is not type(b) or len(a) != len(b) or len(a) != 3:
        return False
    va, vb = a[0], b[0]
    if type(va) is not type(vb):
        return False
    if isinstance(va, float):
        if struct.pack("<d", va) != struct.pack("<d", vb):
            return False
    elif va != vb:
        return False
    for la, lb in ((a[1], b[1]), (a[2], b[2])):
        if type(la) is not type(lb) or list(la) != list(lb):
            return False
        if [type(x) for x in la] != [type(x) for x in lb]:
            return False
    return True


# ---------------------------------------------------------------------------
# claims
# ---------------------------------------------------------------------------

RESULTS: list[tuple[str, bool, str]] = []
# Set by tools/gate_checks.py: define and register the generators, run nothing.
DRY = False
GENS: dict = {}


def claim(name: str, ok: bool, detail: str) -> None:
    RESULTS.append((name, ok, detail))
    print(f"[{'PASS' if ok else 'FAIL'}] {name}: {detail}", flush=True)


def fmt(j) -> str:
    if "crash" in j:
        return f"crash {j['crash']}"
    return (
        f"value={float(j['value']) if isinstance(j['value'], numbers.Real) else j['value']!r} "
        f"worth={float(j['worth']):.6g} OPT={float(j['opt']):.6g} "
        f"weight={j['weight']}/{j['capacity']} saved={len(j['saved'])} "
        f"failed={j['failed'] or 'none'}"
    )


def witness(name: str, memory, runtime, max_memory, expect: list[str], note: str = "") -> None:
    if DRY:
        return
    c = cells(memory, runtime, max_memory)
    assert c < MAX_CELLS, (name, c)
    t0 = time.time()
    opt = reference.exact_optimum(memory, runtime, max_memory).value
    up = judge(upstream(), memory, runtime, max_memory, opt)
    bg = judge(bug(name), memory, runtime, max_memory, opt)
    ok = up["ok"] and all(p in bg["failed"] for p in expect)
    if "optimality" in expect and ok:
        ok = bg["shortfall"] > bg["tol"] and bg["shortfall"] > Fraction(1, 1000) * opt
    short = ""
    if "optimality" in expect and opt > 0:
        short = f", short by {float(bg['shortfall'] / opt):.2%} of OPT"
    claim(
        f"{name} (a) witness",
        ok,
        f"n={len(memory)}, cells={c:,}{note}; upstream: {fmt(up)}; bug: {fmt(bg)}{short}; "
        f"expected {expect} ({time.time() - t0:.1f} s)",
    )


def below_gate(name: str, gen, gate_ok) -> None:
    GENS[name] = (gen, gate_ok)
    if DRY:
        return
    t0 = time.time()
    bad = []
    up_fn, bug_fn = upstream(), bug(name)
    for seed in range(30):
        rng = random.Random(f"{name}:{seed}")
        memory, runtime, max_memory = gen(rng, seed < 15)
        assert gate_ok(memory, runtime, max_memory), (name, seed)
        assert cells(memory, runtime, max_memory) < MAX_CELLS
        a_args = copy_args(memory, runtime, max_memory)
        b_args = copy_args(memory, runtime, max_memory)
        before = snapshot(*b_args)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = up_fn(*a_args)
            b = bug_fn(*b_args)
        if not same_answer(a, b) or snapshot(*b_args) != before:
            bad.append(seed)
    claim(
        f"{name} (b) below gate",
        not bad,
        f"30 instances (15 with the trigger), bug == upstream exactly and inputs untouched"
        f"{'' if not bad else f'; differ at seeds {bad}'} ({time.time() - t0:.1f} s)",
    )


def mem4(rng, lo, hi):
    return round(rng.uniform(lo, hi), 4)


def plain(rng, n, mlo=0.001, mhi=0.05, rlo=0.1, rhi=5.0):
    return [mem4(rng, mlo, mhi) for _ in range(n)], [rng.uniform(rlo, rhi) for _ in range(n)]


def q_of(max_memory) -> int:
    return round(float(max_memory) * 10000)


# 1 ---------------------------------------------------------------------------
def bug1():
    name = "budget_repr_decimal_half_up_from_200_items"
    memory = [0.0247] * 5 + [0.01] * 250
    runtime = [10.0] * 5 + [1.0] * 250
    witness(name, memory, runtime, 0.12345, ["feasibility"], note=", budget 0.12345 GB (Q=1234)")

    def gen(rng, trig):
        n = rng.randint(20, 199)
        memory, runtime = plain(rng, n, 0.0005, 0.02)
        if trig:
            # A budget written with a fifth decimal 5, and two valuable items
            # that together weigh the budget rounded half up, as written.
            budget = float(f"{rng.randint(20, 3000) / 10000:.4f}5")
            units = round(budget * 10000 + 0.25)
            half = units // 2
            memory[0], runtime[0] = half / 10000, 1000.0
            memory[1], runtime[1] = (units - half) / 10000, 1000.0
            order = list(range(n))
            rng.shuffle(order)
            memory, runtime = [memory[i] for i in order], [runtime[i] for i in order]
        else:
            budget = round(rng.uniform(0.002, 0.3), 4)
        return memory, runtime, budget

    below_gate(name, gen, lambda m, r, b: len(m) < 200)


# 2 ---------------------------------------------------------------------------
def _bug2_witness(name, memory, runtime):
    args = (memory, runtime, 0.3)
    opt = reference.exact_optimum(*args).value
    up = judge(upstream(), *args, opt=opt)
    bg = judge(bug(name), *args, opt=opt)
    a = upstream()(*copy_args(*args))
    mem_copy = list(memory)
    b = bug(name)(mem_copy, list(runtime), 0.3)
    flipped = sum(1 for x, y in zip(memory, mem_copy) if repr(x) != repr(y))
    ok = up["ok"] and bg["failed"] == ["no-mutation"] and flipped == 40 and same_answer(a, b)
    claim(
        f"{name} (a) witness",
        ok,
        f"n=400 with 40 memories of -0.0, cells={cells(*args):,}; upstream: {fmt(up)}; "
        f"bug: {fmt(bg)}; the bug rewrote {flipped} entries of the caller's memory list "
        f"(-0.0 -> 0.0, equal under ==, different sign bit and repr); its answer is "
        f"{'exactly' if same_answer(a, b) else 'NOT'} upstream's",
    )


def bug2():
    name = "negative_zero_memory_normalized_in_place_from_384_items"
    rng = random.Random(2)
    memory, runtime = plain(rng, 400)
    for k in rng.sample(range(400), 40):
        memory[k] = -0.0
    if not DRY:
        _bug2_witness(name, memory, runtime)

    def gen(rng, trig):
        n = rng.randint(50, 383)
        memory, runtime = plain(rng, n)
        if trig:
            for k in rng.sample(range(n), rng.randint(5, 30)):
                memory[k] = -0.0
        return memory, runtime, round(rng.uniform(0.05, 0.4), 4)

    below_gate(name, gen, lambda m, r, b: len(m) < 384)


# 3 ---------------------------------------------------------------------------
def bug3():
    name = "heavy_weights_clamped_to_budget_with_sentinel_from_48_items"
    rng = random.Random(3)
    memory = [1e12, 1.5] + [rng.choice([0.05, 0.1, 0.15, 0.2]) for _ in range(58)]
    runtime = [1.0, 500.0] + [round(rng.uniform(1, 5), 3) for _ in range(58)]
    witness(
        name, memory, runtime, 1.0, ["feasibility"],
        note=", a 1e12 GB sentinel and a 1.5 GB item worth 500 under 1.0 GB",
    )

    def gen(rng, trig):
        n = rng.randint(10, 47)
        budget = round(rng.uniform(0.05, 0.5), 4)
        memory, runtime = plain(rng, n)
        if trig:
            sentinel, k = rng.sample(range(n), 2)
            memory[sentinel] = 1e12
            memory[k], runtime[k] = round(budget * rng.uniform(1.2, 3), 4), 1000.0
        return memory, runtime, budget

    below_gate(name, gen, lambda m, r, b: len(m) < 48)


# 4 ---------------------------------------------------------------------------
HALF_UNIT = [0.00125, 0.00325, 0.00525, 0.00725, 0.00925]  # m * 1e4 == k + 0.5, k even


def bug4():
    name = "backtrack_weight_half_up_from_1000_items"
    for m in HALF_UNIT:
        assert m * 10000 == math.floor(m * 10000) + 0.5 and round(m * 10000) % 2 == 0
    rng = random.Random(4)
    memory = [rng.choice(HALF_UNIT) for _ in range(1000)]
    runtime = [round(rng.uniform(1, 2), 6) for _ in range(1000)]
    witness(
        name, memory, runtime, 0.05, ["optimality", "value-consistency"],
        note=", every memory half a unit over an even weight (0.00125 GB = 12.5 units)",
    )

    def gen(rng, trig):
        n = rng.randint(50, 999)
        if trig:
            memory = [rng.choice(HALF_UNIT) for _ in range(n)]
            runtime = [rng.uniform(0.1, 5) for _ in range(n)]
        else:
            memory, runtime = plain(rng, n, 0.0005, 0.01)
        return memory, runtime, round(rng.uniform(0.005, 0.08), 4)

    below_gate(name, gen, lambda m, r, b: len(m) < 1000)


# 5 ---------------------------------------------------------------------------
def bug5():
    name = "numpy_int_runtime_total_wraps_from_64_items"
    rng = random.Random(5)
    memory = [mem4(rng, 0.01, 0.1) for _ in range(64)]
    runtime = [np.int32(rng.randint(40_000_000, 60_000_000)) for _ in range(64)]
    total = sum(int(r) for r in runtime)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped = sum(map(abs, runtime))
    assert total > 2**31 and wrapped <= 0
    witness(
        name, memory, runtime, 0.5, ["optimality"],
        note=(
            f", runtimes np.int32 flop counts 4e7-6e7 (total {total:,}; "
            f"sum(map(abs, runtime)) wraps to {int(wrapped):,})"
        ),
    )

    # The same with np.int64 counts of 1.4e17-1.6e17 (total past 2**63).
    runtime64 = [np.int64(rng.randint(140, 160) * 10**15) for _ in range(64)]
    total64 = sum(int(r) for r in runtime64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped64 = sum(map(abs, runtime64))
    assert total64 > 2**63 and wrapped64 <= 0
    witness(
        name, memory, runtime64, 0.5, ["optimality"],
        note=f", runtimes np.int64 1.4e17-1.6e17 (total {total64:.3e} wraps to {float(wrapped64):.3e})",
    )

    def gen(rng, trig):
        n = rng.randint(10, 63)
        memory = [mem4(rng, 0.01, 0.1) for _ in range(n)]
        if trig:
            each = int(3.2e9 / n)
            runtime = [np.int32(min(2**31 - 1, int(each * rng.uniform(0.9, 1.1)))) for _ in range(n)]
        else:
            runtime = [np.int32(rng.randint(1, 10**6)) for _ in range(n)]
        return memory, runtime, round(rng.uniform(0.1, 0.6), 4)

    below_gate(name, gen, lambda m, r, b: len(m) < 64)


# 6 ---------------------------------------------------------------------------
def bug6():
    name = "oversized_skip_on_float_memory_above_8e6_cells"
    rng = random.Random(6)
    memory = [1.00004] + [rng.choice([0.05, 0.1, 0.2, 0.25]) for _ in range(849)]
    runtime = [1000.0] + [round(rng.uniform(1, 5), 3) for _ in range(849)]
    assert q_of(1.00004) == q_of(1.0) == 10000 and 1.00004 > 1.0
    witness(
        name, memory, runtime, 1.0, ["optimality"],
        note=", a 1.00004 GB item (10,000 units, exactly the budget's) worth 1000 under 1.0 GB",
    )

    def gen(rng, trig):
        n = rng.randint(100, 700)
        qmax = min(10_000, 8_000_000 // n - 1)
        budget = round(rng.uniform(0.05, qmax / 10000), 4)
        memory, runtime = plain(rng, n, 0.005, 0.1)
        if trig:
            k = rng.randrange(n)
            memory[k], runtime[k] = budget + 0.00004, 1000.0
        return memory, runtime, budget

    below_gate(name, gen, lambda m, r, b: cells(m, r, b) <= 8_000_000)


# 7 ---------------------------------------------------------------------------
def bug7():
    name = "unit_items_top_k_column_wraps_from_64_unit_items"
    rng = random.Random(7)
    memory = [0.0001] * 100 + [mem4(rng, 0.001, 0.003) for _ in range(50)]
    runtime = [round(rng.uniform(0.5, 1.0), 3) for _ in range(100)] + [
        round(rng.uniform(1, 5), 3) for _ in range(50)
    ]
    witness(
        name, memory, runtime, 0.005, ["feasibility"],
        note=", 100 one-unit items under a 50-unit budget (0.005 GB)",
    )

    def gen(rng, trig):
        if trig:
            units = rng.randint(20, 63)
            others = rng.randint(5, 60)
            budget = round(rng.uniform(0.0005, units / 10000 * 0.9), 4)
        else:
            units, others = 0, rng.randint(20, 150)
            budget = round(rng.uniform(0.005, 0.1), 4)
        memory = [0.0001] * units + [mem4(rng, 0.0005, 0.003) for _ in range(others)]
        runtime = [rng.uniform(0.1, 5) for _ in range(units + others)]
        order = list(range(units + others))
        rng.shuffle(order)
        return [memory[i] for i in order], [runtime[i] for i in order], budget

    below_gate(name, gen, lambda m, r, b: sum(q_of(x) == 1 for x in m) < 64)


# 8 ---------------------------------------------------------------------------
def bug8():
    name = "value_rounded_to_timer_resolution_above_2p5e6_cells"
    rng = random.Random(8)
    memory = [rng.choice([0.01, 0.02, 0.05, 0.1]) for _ in range(300)]
    runtime = [round(rng.uniform(1e-5, 9e-5), 9) for _ in range(300)]
    witness(
        name, memory, runtime, 0.9999, ["value-consistency"],
        note=", runtimes of 1e-5 to 9e-5 (seconds)",
    )

    def gen(rng, trig):
        n = rng.randint(50, 400)
        qmax = min(9999, 2_500_000 // n - 1)
        budget = round(rng.uniform(0.05, qmax / 10000), 4)
        memory, runtime = plain(rng, n, 0.005, 0.1)
        if trig:
            runtime = [rng.uniform(1e-6, 1e-4) for _ in range(n)]
        return memory, runtime, budget

    below_gate(name, gen, lambda m, r, b: cells(m, r, b) <= 2_500_000)


# 9 ---------------------------------------------------------------------------
def bug9():
    name = "int_budget_read_as_units_from_512_items"
    rng = random.Random(9)
    memory = [rng.choice([0.01, 0.02, 0.05, 0.1]) for _ in range(600)]
    runtime = [round(rng.uniform(1, 5), 3) for _ in range(600)]
    witness(name, memory, runtime, 1, ["optimality"], note=", budget the int 1 (1 GB, Q=10,000)")

    def gen(rng, trig):
        n = rng.randint(20, 511)
        memory, runtime = plain(rng, n, 0.005, 0.1)
        budget = 1 if trig else round(rng.uniform(0.05, 1.0), 4)
        return memory, runtime, budget

    below_gate(name, gen, lambda m, r, b: len(m) < 512)


# 10 --------------------------------------------------------------------------
def bug10():
    name = "budget_plus_one_unit_snapped_above_1e7_cells"
    rng = random.Random(10)
    memory = [1.0] + [rng.choice([0.05, 0.1, 0.2, 0.25]) for _ in range(1099)]
    runtime = [1000.0] + [round(rng.uniform(1, 5), 3) for _ in range(1099)]
    witness(
        name, memory, runtime, 0.9999, ["feasibility"],
        note=", a 1.0 GB item (10,000 units) worth 1000 under 0.9999 GB (Q=9,999)",
    )

    def gen(rng, trig):
        n = rng.randint(100, 900)
        qmax = min(10_000, 10_000_000 // n - 1)
        budget = round(rng.uniform(0.05, qmax / 10000), 4)
        memory, runtime = plain(rng, n, 0.005, 0.1)
        if trig:
            k = rng.randrange(n)
            memory[k], runtime[k] = (q_of(budget) + 1) / 10000, 1000.0
        return memory, runtime, budget

    below_gate(name, gen, lambda m, r, b: cells(m, r, b) <= 10_000_000)


def main() -> int:
    t0 = time.time()
    torch.set_num_threads(torch.get_num_threads())
    print(f"torch {torch.__version__}, numpy {np.__version__}, threads {torch.get_num_threads()}")
    for step in (bug1, bug2, bug3, bug4, bug5, bug6, bug7, bug8, bug9, bug10):
        step()
    failed = [r for r in RESULTS if not r[1]]
    print(f"{len(RESULTS) - len(failed)} of {len(RESULTS)} claims hold ({time.time() - t0:.1f} s)")
    print("ALL CLAIMS PASS" if not failed else "SOME CLAIMS FAIL")
    return 0 if not failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
