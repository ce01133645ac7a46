"""Claims for the eleventh blind corpus: each bug is wrong above its gate and
exactly upstream below it.

Run from anywhere: /work/main/.venv/bin/python /work/blind11/bugs/witnesses.py

For every bug:
(a) a witness above the gate on which the bug violates a SPEC clause while
    upstream (torch 2.13.0's dp_knapsack, ../upstream_dp_knapsack.py) passes
    every one-call property, both judged against reference.exact_optimum
    (exact rationals), upstream within SPEC 5.4's float32 tolerance. An
    optimality claim also needs a shortfall above 1e-3 of the optimum.
    Witness tables stay under 1.5e7 cells (asserted). For a stateful bug
    the witness is a sequence of calls, and its last call alone on a freshly
    loaded module passes.
(b) 30 seeded instances below the gate (the first 15 carry the bug's
    trigger pattern) on which the bug returns exactly upstream's tuple: the
    value's type and bits, the lists' types, contents and element types.
    The inputs are left untouched (compared with their types and reprs).
    For a stateful bug an instance is a sequence of two calls on one module
    and both calls are compared.
"""

from __future__ import annotations

import copy
import importlib.util
import math
import random
import struct
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, "/work/main")

from reference import exact_optimum, validate  # noqa: E402

MAX_WITNESS_CELLS = 15_000_000
_loaded = [0]


def load(path: Path):
    """A freshly loaded module (its own module-level state)."""
    _loaded[0] += 1
    spec = importlib.util.spec_from_file_location(f"_blind11_{_loaded[0]}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def upstream():
    return load(ROOT / "upstream_dp_knapsack.py").dp_knapsack


def bug(name: str):
    return load(HERE / f"{name}.py").dp_knapsack


# --------------------------------------------------------------------------
# Judging (SPEC 3, 5.4, 7.2, 8.2)


def snapshot(x):
    if isinstance(x, (list, tuple)):
        return (type(x), tuple((type(e), repr(e)) for e in x))
    return (type(x), repr(x))


def tolerance(weights, runtimes, capacity):
    n = len(weights)
    u = Fraction(1, 2**24)
    k = n + 1
    gamma = k * u / (1 - k * u)
    fit = sum(abs(Fraction(runtimes[i])) for i in range(n) if weights[i] <= capacity)
    return 2 * gamma * fit + 2 * (n + 1) * Fraction(1, 2**149)


def judge(memory, runtime, max_memory, result, opt=None):
    """One-call properties of SPEC 7.2 on ``result``; returns (failed, info)."""
    inst = validate(memory, runtime, max_memory)
    n, weights, capacity = inst.n, inst.weights, inst.capacity
    failed = []
    info = {}
    if not (isinstance(result, (tuple, list)) and len(result) == 3):
        return ["return-shape"], info
    value, saved, recomputable = result
    if not all(isinstance(s, list) for s in (saved, recomputable)):
        failed.append("lists")
    items = list(saved) + list(recomputable)
    if not all(type(i) is int for i in items):
        failed.append("plain-int")
    if sorted(i for i in items if type(i) is int) != list(range(n)) or len(items) != n:
        failed.append("partition")
    chosen = [i for i in saved if type(i) is int and 0 <= i < n]
    weight = sum(weights[i] for i in set(chosen))
    info["weight"], info["Q"] = weight, capacity
    if weight > capacity:
        failed.append("feasibility")
    if opt is None:
        opt = exact_optimum(memory, runtime, max_memory).value
    worth = sum((Fraction(inst.runtimes[i]) for i in set(chosen)), Fraction(0))
    tol = tolerance(weights, inst.runtimes, capacity)
    info.update(opt=opt, worth=worth, tol=tol, value=value)
    if opt - worth > tol:
        failed.append("optimality")
    info["shortfall"] = (opt - worth) / opt if opt else Fraction(0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        failed.append("value-finite-real")
    elif abs(Fraction(value) - worth) > tol:
        failed.append("value-consistency")
    return failed, info


def same_tuple(a, b) -> bool:
    """Exactly the same answer: value type and bits, list types, contents, element types."""
    if type(a) is not type(b) or len(a) != 3 or len(b) != 3:
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
        if type(la) is not type(lb) or la != lb:
            return False
        if any(type(x) is not int for x in la) or any(type(x) is not int for x in lb):
            return False
    return True


def cells(memory, max_memory) -> int:
    return len(memory) * (round(max_memory * 10000) + 1)


def qs(memory):
    return [round(m * 10000) for m in memory]


# --------------------------------------------------------------------------
# Claims

RESULTS: list[tuple[str, bool]] = []


def claim(label: str, ok: bool, detail: str = "") -> None:
    RESULTS.append((label, ok))
    print(f"  [{'PASS' if ok else 'FAIL'}] {label}" + (f": {detail}" if detail else ""))


def fmt(info) -> str:
    return (
        f"value {float(info['value']):.6g}, selection worth {float(info['worth']):.6g}, "
        f"OPT {float(info['opt']):.6g}, weight {info['weight']} of Q={info['Q']}, "
        f"shortfall {float(info['shortfall']):.2%}"
    )


def check_witness(name, memory, runtime, max_memory, expect, bug_result=None, bug_fn=None):
    """Witness claim: the bug fails ``expect`` (one of the properties), upstream passes all."""
    size = cells(memory, max_memory)
    assert size < MAX_WITNESS_CELLS, size
    up_in = copy.deepcopy((memory, runtime, max_memory))
    snap = (snapshot(memory), snapshot(runtime), snapshot(max_memory))
    up_result = upstream()(*up_in)
    opt = exact_optimum(memory, runtime, max_memory).value
    up_failed, up_info = judge(memory, runtime, max_memory, up_result, opt)
    claim(
        f"{name}: upstream passes every one-call property on the witness ({len(memory)} items, {size:,} cells)",
        not up_failed and snapshot(up_in[0]) == snap[0] and snapshot(up_in[1]) == snap[1],
        fmt(up_info) if not up_failed else f"failed {up_failed}",
    )
    if bug_result is None:
        args = copy.deepcopy((memory, runtime, max_memory))
        bug_result = (bug_fn or bug(name))(*args)
    failed, info = judge(memory, runtime, max_memory, bug_result, opt)
    ok = expect in failed
    if expect == "optimality":
        ok = ok and info["shortfall"] > Fraction(1, 1000) and info["opt"] - info["worth"] > info["tol"]
    claim(f"{name}: the bug fails {expect} on the witness", ok, f"fails {failed}; " + fmt(info))
    return failed, info


def check_below_gate(name, gate, instances, stateful=False, threads=None):
    """30 instances (sequences of calls for a stateful bug), all below the gate."""
    assert len(instances) == 30
    previous = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    mismatches = []
    triggered = 0
    try:
        for k, (trigger, calls) in enumerate(instances):
            triggered += trigger
            bug_fn, up_fn = bug(name), upstream()
            for call in calls:
                memory, runtime, max_memory, after = call
                assert not gate(memory, runtime, max_memory), (name, k)
                snap = (snapshot(memory), snapshot(runtime), snapshot(max_memory))
                args_b = copy.deepcopy((memory, runtime, max_memory))
                args_u = copy.deepcopy((memory, runtime, max_memory))
                rb = bug_fn(*args_b)
                ru = up_fn(*args_u)
                untouched = (
                    snapshot(args_b[0]), snapshot(args_b[1]), snapshot(args_b[2])
                ) == snap
                if not same_tuple(rb, ru) or not untouched:
                    mismatches.append(k)
                if after is not None:
                    after(rb)
                    after(ru)
    finally:
        torch.set_num_threads(previous)
    assert triggered == 15
    claim(
        f"{name}: exactly upstream's tuple, inputs untouched, on 30 seeded instances below the gate "
        f"(15 with the trigger{', two calls each' if stateful else ''})",
        not mismatches,
        f"mismatches at {mismatches}" if mismatches else "",
    )


def single(memory, runtime, max_memory):
    return [(memory, runtime, max_memory, None)]


def rmem(rng, lo, hi, digits=4):
    return round(rng.uniform(lo, hi), digits)


def plain(rng, n, max_memory, lo=0.0005, hi=0.08):
    memory = [rmem(rng, lo, hi) for _ in range(n)]
    runtime = [rng.uniform(0.05, 10.0) for _ in range(n)]
    return memory, runtime, max_memory


# --------------------------------------------------------------------------
# 1. tiled_fill_tail_merge_drops_last_column_above_4e6_cells


def instances1():
    gate = lambda m, r, b: cells(m, b) > 4_000_000  # noqa: E731
    rng = random.Random(102)
    instances = []
    for k in range(30):
        if k < 15:
            # Q + 1 one to 63 columns past a multiple of 4096 (the merge case).
            Q = rng.choice([4096, 8192, 12288, 16384]) + rng.randrange(0, 63)
            n = rng.randint(20, min(150, 4_000_000 // (Q + 1)))
            memory, runtime, _ = plain(rng, n, 0, 0.0, 0.2)
            for i in rng.sample(range(n), n // 10):
                memory[i] = 0.0
            instances.append((True, single(memory, runtime, Q / 10000)))
        else:
            Q = rng.randint(500, 30000)
            n = rng.randint(20, min(150, 4_000_000 // (Q + 1)))
            instances.append((False, single(*plain(rng, n, Q / 10000, 0.0005, 0.2))))
    return gate, instances


def bug1():
    name = "tiled_fill_tail_merge_drops_last_column_above_4e6_cells"
    print(f"\n{name}")
    rng = random.Random(101)
    n = 600
    memory = [0.01] * n
    runtime = [round(rng.uniform(1.0, 2.0), 3) for _ in range(n)]
    max_memory = 0.8192  # Q = 8192 = 2 * 4096: the last tile is one column wide
    assert cells(memory, max_memory) > 4_000_000 and round(max_memory * 1e4) == 8192
    check_witness(name, memory, runtime, max_memory, "optimality")

    gate, instances = instances1()
    check_below_gate(name, gate, instances)


# --------------------------------------------------------------------------
# 2. runtime_sorted_rows_desc_map_swaps_ties_from_128_items


def instances2():
    gate = lambda m, r, b: len(m) >= 128  # noqa: E731
    rng = random.Random(203)
    instances = []
    for k in range(30):
        n = rng.randint(30, 127)
        memory, runtime, max_memory = plain(rng, n, rmem(rng, 0.05, 0.6, 3), 0.001, 0.05)
        if k < 15:
            choices = rng.choice([[1.0], [1.0, 2.0, 3.0], [2.0**20, 3.0 * 2**20]])
            runtime = [rng.choice(choices) for _ in range(n)]
        instances.append((k < 15, single(memory, runtime, max_memory)))
    return gate, instances


def bug2():
    name = "runtime_sorted_rows_desc_map_swaps_ties_from_128_items"
    print(f"\n{name}")
    rng = random.Random(201)
    n = 200
    # The "testing" estimator: every runtime 1.0; random sizes.
    memory = [rmem(rng, 0.001, 0.05) for _ in range(n)]
    runtime = [1.0] * n
    max_memory = 0.1
    check_witness(name, memory, runtime, max_memory, "feasibility")
    # A second shape: flop counts of a few distinct values, ties between
    # different sizes.
    rng = random.Random(202)
    memory = [rmem(rng, 0.002, 0.04) for _ in range(n)]
    runtime = [float(rng.choice([2**20, 3 * 2**20, 5 * 2**20])) for _ in range(n)]
    check_witness(name, memory, runtime, 0.3, "feasibility")

    gate, instances = instances2()
    check_below_gate(name, gate, instances)


# --------------------------------------------------------------------------
# 3. copies_shuffled_by_module_generator_from_64_copies (stateful)


def copy_items(memory, runtime):
    keys = Counter((round(m * 10000), float(r)) for m, r in zip(memory, runtime))
    return sum(c for c in keys.values() if c > 1)


def layers(rng, num_types, num_layers, extra=0):
    types = [(rmem(rng, 0.005, 0.05), round(rng.uniform(1.0, 10.0), 2)) for _ in range(num_types)]
    memory, runtime = [], []
    for _ in range(num_layers):
        for m, r in types:
            memory.append(m)
            runtime.append(r)
    for _ in range(extra):
        memory.append(rmem(rng, 0.001, 0.05))
        runtime.append(rng.uniform(0.1, 10.0))
    return memory, runtime


def instances3():
    gate = lambda m, r, b: copy_items(m, r) >= 64  # noqa: E731
    rng = random.Random(302)
    instances = []
    for k in range(30):
        if k < 15:
            num_types = rng.randint(3, 7)
            num_layers = rng.randint(3, max(3, 63 // num_types))
            memory, runtime = layers(rng, num_types, num_layers, extra=rng.randint(0, 40))
            while copy_items(memory, runtime) >= 64:
                memory, runtime = memory[:-1], runtime[:-1]
        else:
            memory, runtime, _ = plain(rng, rng.randint(30, 120), 0, 0.001, 0.05)
        max_memory = round(sum(memory) * rng.uniform(0.2, 0.7), 3)
        call = (memory, runtime, max_memory, None)
        instances.append((k < 15, [call, call]))
    return gate, instances


def bug3():
    name = "copies_shuffled_by_module_generator_from_64_copies"
    print(f"\n{name} (stateful)")
    rng = random.Random(301)
    memory, runtime = layers(rng, 10, 20)  # 20 identical layers of 10 nodes
    max_memory = 2.0
    assert copy_items(memory, runtime) >= 64
    assert cells(memory, max_memory) < MAX_WITNESS_CELLS
    fn = bug(name)
    first = fn(*copy.deepcopy((memory, runtime, max_memory)))
    second = fn(*copy.deepcopy((memory, runtime, max_memory)))
    up_fn = upstream()
    u1 = up_fn(*copy.deepcopy((memory, runtime, max_memory)))
    u2 = up_fn(*copy.deepcopy((memory, runtime, max_memory)))
    opt = exact_optimum(memory, runtime, max_memory).value
    f1, i1 = judge(memory, runtime, max_memory, first, opt)
    f2, i2 = judge(memory, runtime, max_memory, second, opt)
    fu, iu = judge(memory, runtime, max_memory, u1, opt)
    claim(
        f"{name}: upstream gives the same answer on both calls and passes every one-call property",
        same_tuple(u1, u2) and not fu,
        fmt(iu),
    )
    diff = sorted(set(first[1]) ^ set(second[1]))
    claim(
        f"{name}: the same call made twice in one process returns two different selections (SPEC 8.1)",
        not same_tuple(first, second) and first[1] != second[1],
        f"saved sets differ at {len(diff)} indices, e.g. {diff[:6]}; both calls value {first[0]:.6g}",
    )
    claim(
        f"{name}: each of the two answers alone passes every one-call property (only 8.1 fails)",
        not f1 and not f2,
        fmt(i2),
    )
    fresh = bug(name)(*copy.deepcopy((memory, runtime, max_memory)))
    ff, _ = judge(memory, runtime, max_memory, fresh, opt)
    claim(
        f"{name}: the last call alone on a freshly loaded module is right, and equals the first call's answer",
        not ff and same_tuple(fresh, first),
    )

    gate, instances = instances3()
    check_below_gate(name, gate, instances, stateful=True)


# --------------------------------------------------------------------------
# 4. meet_in_middle_first_subset_per_weight_above_3e6_cells


def instances4():
    gate = lambda m, r, b: len(m) <= 32 and cells(m, b) > 3_000_000  # noqa: E731
    rng = random.Random(402)
    instances = []
    for k in range(30):
        if k < 15:
            # Equal sizes with different runtimes: equal-weight subsets.
            if k < 10:
                n = rng.randint(8, 32)
                Q_max = 3_000_000 // (n + 1) - 1
            else:
                n = rng.randint(33, 40)  # above the item cap, big budget
                Q_max = 150_000
            max_memory = rng.randint(Q_max // 2, Q_max) / 10000
            sizes = [rmem(rng, 0.05, max_memory / 3, 1) for _ in range(4)]
            memory = [rng.choice(sizes) for _ in range(n)]
            runtime = [round(rng.uniform(1.0, 10.0), 2) for _ in range(n)]
            instances.append((True, single(memory, runtime, max_memory)))
        else:
            n = rng.randint(8, 60)
            instances.append((False, single(*plain(rng, n, rmem(rng, 0.1, 2.0, 3), 0.001, 0.3))))
    return gate, instances


def bug4():
    name = "meet_in_middle_first_subset_per_weight_above_3e6_cells"
    print(f"\n{name}")
    rng = random.Random(401)
    # 30 activations of a small graph on a large device, under 15 GB.
    memory = [rmem(rng, 0.5, 2.0, 1) for _ in range(15)]
    runtime = [round(rng.uniform(1.0, 10.0), 2) for _ in range(15)]
    memory += [10.0, 10.0] + [20.0] * 5 + [rmem(rng, 0.5, 2.0, 1) for _ in range(8)]
    runtime += [1.0, 100.0] + [500.0] * 5 + [round(rng.uniform(1.0, 10.0), 2) for _ in range(8)]
    max_memory = 15.0
    assert len(memory) <= 32 and cells(memory, max_memory) > 3_000_000
    check_witness(name, memory, runtime, max_memory, "optimality")

    gate, instances = instances4()
    check_below_gate(name, gate, instances)


# --------------------------------------------------------------------------
# 5. value_as_total_minus_recomputed_from_96_items


def instances5():
    gate = lambda m, r, b: len(m) >= 96  # noqa: E731
    rng = random.Random(502)
    instances = []
    for k in range(30):
        n = rng.randint(20, 95)
        memory, runtime, max_memory = plain(rng, n, rmem(rng, 0.1, 1.0, 3), 0.001, 0.05)
        if k < 15:
            for i in rng.sample(range(n), rng.randint(1, 3)):
                memory[i] = rmem(rng, 1.5, 4.0, 2)
                runtime[i] = 10.0 ** rng.uniform(10, 13)
        instances.append((k < 15, single(memory, runtime, max_memory)))
    return gate, instances


def bug5():
    name = "value_as_total_minus_recomputed_from_96_items"
    print(f"\n{name}")
    rng = random.Random(501)
    n = 200
    # One 2 GB matmul output (1e12 flops) that no 1 GB budget can hold.
    memory = [2.0] + [rmem(rng, 0.01, 0.05, 3) for _ in range(n - 1)]
    runtime = [1e12] + [round(rng.uniform(1.0, 10.0), 3) for _ in range(n - 1)]
    check_witness(name, memory, runtime, 1.0, "value-consistency")

    gate, instances = instances5()
    check_below_gate(name, gate, instances)


# --------------------------------------------------------------------------
# 6. free_items_assumed_leading_from_32_free


def instances6():
    gate = lambda m, r, b: sum(q == 0 for q in qs(m)) >= 32  # noqa: E731
    rng = random.Random(602)
    instances = []
    for k in range(30):
        n = rng.randint(40, 150)
        memory, runtime, max_memory = plain(rng, n, rmem(rng, 0.1, 1.0, 3), 0.001, 0.08)
        if k < 15:
            # 5-31 zero-size items, not at the front.
            for i in rng.sample(range(3, n), rng.randint(5, 31)):
                memory[i] = rng.choice([0.0, 0.0, 2e-5])
        instances.append((k < 15, single(memory, runtime, max_memory)))
    return gate, instances


def bug6():
    name = "free_items_assumed_leading_from_32_free"
    print(f"\n{name}")
    rng = random.Random(601)
    # Ten 0.3 GB activations, then 40 views (0 GB), then 150 small ones.
    memory = [0.3] * 10 + [0.0] * 40 + [0.01] * 150
    runtime = [50.0] * 10 + [0.5] * 40 + [round(rng.uniform(1.0, 2.0), 3) for _ in range(150)]
    assert sum(q == 0 for q in qs(memory)) >= 32
    check_witness(name, memory, runtime, 1.0, "feasibility")

    gate, instances = instances6()
    check_below_gate(name, gate, instances)


# --------------------------------------------------------------------------
# 7. flop_counts_scaled_per_item_above_2p24_from_64_items


def instances7():
    gate = lambda m, r, b: len(m) >= 64  # noqa: E731
    rng = random.Random(702)
    instances = []
    for k in range(30):
        n = rng.randint(20, 63)
        memory, runtime, max_memory = plain(rng, n, rmem(rng, 0.1, 1.0, 3), 0.001, 0.08)
        if k < 15:
            # Flop counts on both sides of 2**24: matmuls and pointwise ops.
            for i in range(n):
                if rng.random() < 0.4:
                    memory[i] = rmem(rng, 0.04, 0.12)
                    runtime[i] = float(rng.randint(10**8, 4 * 10**9))
                else:
                    memory[i] = rmem(rng, 0.002, 0.02)
                    runtime[i] = float(rng.randint(10**6, 2**24))
            max_memory = round(sum(memory) * rng.uniform(0.2, 0.6), 3)
        instances.append((k < 15, single(memory, runtime, max_memory)))
    return gate, instances


def bug7():
    name = "flop_counts_scaled_per_item_above_2p24_from_64_items"
    print(f"\n{name}")
    rng = random.Random(701)
    # Flop counts: 50 matmuls (1e9-2e9) and 150 pointwise ops (5e6-1.6e7).
    memory = [0.1] * 50 + [0.01] * 150
    runtime = [float(rng.randint(10**9, 2 * 10**9)) for _ in range(50)]
    runtime += [float(rng.randint(5 * 10**6, 16 * 10**6)) for _ in range(150)]
    check_witness(name, memory, runtime, 1.0, "optimality")

    gate, instances = instances7()
    check_below_gate(name, gate, instances)


# --------------------------------------------------------------------------
# 8. answer_cache_hands_out_its_lists_above_5e6_cells (stateful)


def drain(result):
    """A caller that consumes the recomputable list as a work stack."""
    recomputable = result[2]
    while recomputable:
        recomputable.pop()


def instances8():
    gate = lambda m, r, b: cells(m, b) > 5_000_000  # noqa: E731
    rng = random.Random(802)
    instances = []
    for k in range(30):
        Q = rng.randint(2000, 12000)
        n = rng.randint(50, min(400, 5_000_000 // (Q + 1)))
        memory, runtime, max_memory = plain(rng, n, Q / 10000, 0.001, 0.08)
        if k < 15:
            call = (memory, runtime, max_memory, drain)
            instances.append((True, [call, (memory, runtime, max_memory, None)]))
        else:
            other = plain(rng, n, Q / 10000, 0.001, 0.08)
            instances.append((False, [(memory, runtime, max_memory, None), (*other, None)]))
    return gate, instances


def bug8():
    name = "answer_cache_hands_out_its_lists_above_5e6_cells"
    print(f"\n{name} (stateful)")
    rng = random.Random(801)
    n = 600
    memory = [rmem(rng, 0.01, 0.1, 2) for _ in range(n)]
    runtime = [round(rng.uniform(0.5, 5.0), 3) for _ in range(n)]
    max_memory = 0.9999
    assert cells(memory, max_memory) > 5_000_000
    fn = bug(name)
    first = fn(*copy.deepcopy((memory, runtime, max_memory)))
    drain(first)  # the caller's own list, emptied
    second = fn(*copy.deepcopy((memory, runtime, max_memory)))
    failed, _ = check_witness(name, memory, runtime, max_memory, "partition", bug_result=second)
    claim(
        f"{name}: the second call's recomputable list is the first answer's list object, emptied by the caller",
        second[2] is first[2] and second[2] == [],
        f"{len(second[1])} saved + {len(second[2])} recomputable of {n}",
    )
    fresh = bug(name)(*copy.deepcopy((memory, runtime, max_memory)))
    ff, _ = judge(memory, runtime, max_memory, fresh)
    up_fn = upstream()
    u1 = up_fn(*copy.deepcopy((memory, runtime, max_memory)))
    drain(u1)
    u2 = up_fn(*copy.deepcopy((memory, runtime, max_memory)))
    fu, _ = judge(memory, runtime, max_memory, u2)
    claim(
        f"{name}: the last call alone on a freshly loaded module is right; upstream's second call after the same drain is right",
        not ff and not fu,
    )

    gate, instances = instances8()
    check_below_gate(name, gate, instances, stateful=True)


# --------------------------------------------------------------------------
# 9. thread_bands_skip_item_at_band_start_above_6e6_cells


def instances9():
    gate = lambda m, r, b: cells(m, b) > 6_000_000 and torch.get_num_threads() > 1  # noqa: E731
    rng = random.Random(902)
    instances = []
    for k in range(30):
        Q = rng.randint(3000, 12000)
        n = rng.randint(60, min(500, 6_000_000 // (Q + 1)))
        memory, runtime, max_memory = plain(rng, n, Q / 10000, 0.001, 0.08)
        if k < 15:
            # Items whose weight is the first column of the second band.
            band = -(-(Q + 1) // 2)
            for i in rng.sample(range(n), 3):
                memory[i] = band / 10000
                runtime[i] = rng.uniform(300.0, 600.0)
            assert band in qs(memory)
        instances.append((k < 15, single(memory, runtime, max_memory)))
    return gate, instances


def bug9():
    name = "thread_bands_skip_item_at_band_start_above_6e6_cells"
    print(f"\n{name}")
    rng = random.Random(901)
    n = 700
    # Two 0.5 GB activations (5,000 units: the first column of the second
    # band when torch uses 2 threads and Q + 1 = 10,000), and 698 small ones.
    memory = [0.5, 0.5] + [0.01] * (n - 2)
    runtime = [100.0, 100.0] + [round(rng.uniform(1.0, 1.9), 3) for _ in range(n - 2)]
    max_memory = 0.9999
    assert cells(memory, max_memory) > 6_000_000
    previous = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        check_witness(name, memory, runtime, max_memory, "optimality")
        torch.set_num_threads(1)
        one = bug(name)(*copy.deepcopy((memory, runtime, max_memory)))
        ref = upstream()(*copy.deepcopy((memory, runtime, max_memory)))
        claim(
            f"{name}: with one torch thread the bug returns exactly upstream's tuple on the witness (the answer depends on the thread count: SPEC 8.1)",
            same_tuple(one, ref),
        )
    finally:
        torch.set_num_threads(previous)

    gate, instances = instances9()
    check_below_gate(name, gate, instances, threads=2)


# --------------------------------------------------------------------------
# 10. tuple_memory_concatenated_with_list_from_256_items


def instances10():
    gate = lambda m, r, b: len(m) >= 256  # noqa: E731
    rng = random.Random(1002)
    instances = []
    for k in range(30):
        n = rng.randint(20, 255)
        memory, runtime, max_memory = plain(rng, n, rmem(rng, 0.1, 1.0, 3), 0.001, 0.08)
        if k < 15:
            memory, runtime = tuple(memory), tuple(runtime)
        instances.append((k < 15, single(memory, runtime, max_memory)))
    return gate, instances


def bug10():
    name = "tuple_memory_concatenated_with_list_from_256_items"
    print(f"\n{name}")
    rng = random.Random(1001)
    n = 300
    memory = tuple(rmem(rng, 0.001, 0.05) for _ in range(n))
    runtime = tuple(round(rng.uniform(0.1, 5.0), 3) for _ in range(n))
    max_memory = 0.5
    up_result = upstream()(memory, runtime, max_memory)
    fu, iu = judge(memory, runtime, max_memory, up_result)
    claim(
        f"{name}: upstream passes every one-call property on the witness (tuples, {n} items, {cells(memory, max_memory):,} cells)",
        not fu,
        fmt(iu),
    )
    try:
        bug(name)(memory, runtime, max_memory)
        raised = None
    except Exception as error:  # noqa: BLE001
        raised = f"{type(error).__name__}: {error}"
    claim(f"{name}: the bug fails no-crash on the witness (SPEC 1.1 accepts tuples)", raised is not None, str(raised))
    same = same_tuple(
        bug(name)(list(memory), list(runtime), max_memory),
        upstream()(list(memory), list(runtime), max_memory),
    )
    claim(f"{name}: the same call with lists returns exactly upstream's tuple (the region is the container type)", same)

    gate, instances = instances10()
    check_below_gate(name, gate, instances)


def main() -> int:
    start = time.time()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} torch threads by default")
    for step in (bug1, bug2, bug3, bug4, bug5, bug6, bug7, bug8, bug9, bug10):
        step()
    failed = [label for label, ok in RESULTS if not ok]
    print(
        f"\n{len(RESULTS) - len(failed)} of {len(RESULTS)} claims hold in {time.time() - start:.1f} s: "
        + ("ALL CLAIMS PASS" if not failed else f"{len(failed)} FAIL")
    )
    for label in failed:
        print(f"  FAILED: {label}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
