"""Witnesses for the fifth blind corpus.

For each bug in this folder:
  (a) one witness instance above its gate on which the bug is wrong (a crash,
      a broken partition, over budget, or short of the exact optimum by more
      than 1e-3 relative) while upstream's dp_knapsack is right (feasible, a
      partition, within SPEC 5.4's float32 tolerance of the exact optimum);
  (b) 30 seeded random instances below its gate on which the bug returns
      exactly upstream's answer (value, saved list, recomputable list).

Run: cd /work/main && .venv/bin/python /work/blind5/bugs/witnesses.py
(or any interpreter with torch, PYTHONPATH=/work/main for the reference).
"""

from __future__ import annotations

import importlib.util
import pathlib
import random
import sys
import time
from fractions import Fraction

sys.path.insert(0, "/work/main")

import torch  # noqa: E402
from torch._functorch._activation_checkpointing.knapsack import (  # noqa: E402
    dp_knapsack as upstream,
)

from reference.oracle import exact_optimum  # noqa: E402
from reference.validation import quantize  # noqa: E402

torch.set_num_threads(1)
HERE = pathlib.Path(__file__).resolve().parent
SEEDS = range(30)


def load(name):
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.dp_knapsack


# ----------------------------------------------------------------------------- judging
def judge(solver, memory, runtime, max_memory, opt=None):
    """Return (verdict, detail); verdict 'ok' or the failed property."""
    n = len(memory)
    try:
        value, saved, recomputable = solver(memory, runtime, max_memory)
    except Exception as exc:  # noqa: BLE001
        return "crash", f"{type(exc).__name__}: {exc}"[:70]
    saved, recomputable = list(saved), list(recomputable)
    if sorted(saved + recomputable) != list(range(n)) or not all(
        type(i) is int for i in saved + recomputable
    ):
        missing = set(range(n)) - set(saved) - set(recomputable)
        return "partition", f"{len(missing)} missing, {len(saved) + len(recomputable) - n + len(missing)} extra"
    q = [quantize(m) for m in memory]
    Q = quantize(max_memory)
    weight = sum(q[i] for i in saved)
    if weight > Q:
        return "feasibility", f"weight {weight} > Q {Q}"
    if opt is None:
        opt = exact_optimum(memory, runtime, max_memory).value
    got = sum((Fraction(runtime[i]) for i in saved), Fraction(0))
    u = Fraction(1, 2**24)
    gamma = (n + 1) * u / (1 - (n + 1) * u)
    tol = 2 * gamma * sum(
        (abs(Fraction(runtime[i])) for i in range(n) if q[i] <= Q), Fraction(0)
    ) + 2 * (n + 1) * Fraction(1, 2**149)
    short = opt - got
    rel = float(short / opt) if opt else 0.0
    if short > tol:
        if rel > 1e-3:
            return "optimality", f"short {rel:.2%} of OPT"
        return "optimality(small)", f"short {rel:.2e} of OPT"
    return "ok", f"value {float(value):.6g}"


# ----------------------------------------------------------------------------- below-gate instances
def random_items(rng, n):
    """A partitioner-like item list: a repeated block (exact copies), some
    zero-weight items, half-way memories, runs of equal sizes, runtimes over
    orders of magnitude (ms floats or flop counts)."""
    kind = rng.choice(["ms", "flops", "mixed"])

    def new_runtime():
        if kind == "ms":
            return 10 ** rng.uniform(-3, 3)
        if kind == "flops":
            return float(rng.randint(10**5, 10**10))
        return rng.choice([1.0, 10 ** rng.uniform(-3, 3)])

    block = []
    for _ in range(rng.randint(1, 12)):
        style = rng.random()
        if style < 0.15:
            m = rng.choice([0.0, 1e-5, 3e-5, 4.9e-5])  # zero weight
        elif style < 0.35:
            m = (rng.randint(1, 400) + 0.5) / 10000  # half-way memory
        elif style < 0.5:
            m = block[-1][0] if block else 0.001  # same size as the previous
        else:
            m = round(10 ** rng.uniform(-4, 0.3), rng.choice([4, 5, 6, 8]))
        block.append((m, new_runtime()))
    items = []
    while len(items) < n:
        if rng.random() < 0.6:
            items.extend(block)  # another copy of the repeated block
        elif rng.random() < 0.5:
            items.append(rng.choice(block))
        else:
            items.append((round(10 ** rng.uniform(-4, 0.3), 5), new_runtime()))
    return items[:n]


# Each bug's trigger, applied to half of its below-gate instances, so that
# below the gate the bug meets the very pattern that breaks it above.
def p_round_up(rng, items):  # memories that quantize up; budget near the total
    return [((rng.randint(5, 40) + 0.6) / 10000, r) for _, r in items], 0.93


def p_halfway(rng, items):
    return [((rng.randint(1, 300) + 0.5) / 10000, r) for _, r in items], None


def p_runs(rng, items):
    out = []
    for m, r in items:
        out += [(m, r), (m, 10 ** rng.uniform(-3, 3))]
    return out[: len(items)], None


def p_copies(rng, items):
    m, r = rng.choice(items) if items else (0.001, 1.0)
    m = m or 0.001
    return [(m, r) if rng.random() < 0.7 else it for it in items], 0.8


def p_odd(rng, items):
    return [((2 * rng.randint(0, 400) + 1) / 10000, r) for _, r in items], None


def p_tail(rng, items):
    k = min(3, len(items))
    return items[: len(items) - k] + [(0.001, 10**4)] * k, None


def p_heavy_streak(rng, items):
    n = len(items)
    if n < 80:
        return items, None
    at = rng.randint(0, n - 70)
    return items[:at] + [(50.0, 10 ** rng.uniform(0, 3))] * 70 + items[at + 70:], None


def p_uniform(rng, items):  # the first 64 runtimes equal, the rest not
    return [(m, 1.0) if i < 64 else (m, r) for i, (m, r) in enumerate(items)], None


def p_proportional(rng, items):
    return [(m, 3.0 * m) for m, _ in items], None


def p_exact_left(rng, items):
    # every item of the first half is worth more than ten of the second;
    # the budget is the first half's weight
    half = len(items) // 2
    top = 10 * max((r for _, r in items), default=1.0)
    out = [(m, r + top) if i < half else (m, r) for i, (m, r) in enumerate(items)]
    return out, "first half"


def make_instance(rng, n, pattern, q_cap):
    items = random_items(rng, n)
    frac = None
    if pattern is not None and rng.random() < 0.5:
        items, frac = pattern(rng, items)
    memory = [m for m, _ in items]
    runtime = [r for _, r in items]
    weights = [quantize(m) for m in memory]
    total = sum(weights)
    if frac == "first half":
        Q = sum(weights[: n // 2])
    else:
        frac = frac or rng.choice([0.0, 0.1, 0.3, 0.6, 0.9, 1.2])
        Q = int(total * frac)
        if rng.random() < 0.2:
            Q = rng.randint(0, Q)
    return memory, runtime, min(Q, q_cap) / 10000


def below_count_gate(gate_n, pattern=None, max_cells=1_500_000):
    """Instances with n < gate_n (two of them at n = gate_n - 1)."""

    def gen(seed):
        rng = random.Random(seed)
        n = gate_n - 1 if seed >= 28 else rng.randint(0, gate_n - 1)
        return make_instance(rng, n, pattern, max(1, max_cells // max(n, 1)))

    return gen


def below_cell_gate(cells, pattern=None, n_max=300, small_cells=1_500_000):
    """Instances with n * (Q + 1) <= cells (two of them within 1% under it)."""

    def gen(seed):
        rng = random.Random(seed)
        n = rng.randint(1, n_max)
        if seed >= 28:
            memory, runtime, _ = make_instance(rng, n, pattern, 10**9)
            return memory, runtime, (cells // n - 1) / 10000
        memory, runtime, max_memory = make_instance(rng, n, pattern, small_cells // n - 1)
        assert n * (quantize(max_memory) + 1) <= cells
        return memory, runtime, max_memory

    return gen


# ----------------------------------------------------------------------------- witnesses
def w_complement():
    # 160 items of 0.02106 GB: 210.6 units each in float, 211 once quantized,
    # so the float deficit (1696 units) is 64 short of the true one (1760).
    rng = random.Random(1)
    memory = [0.02106] * 160 + [3e-5] * 8
    runtime = [round(10 ** rng.uniform(-1, 2), 4) for _ in range(168)]
    return memory, runtime, 3.204  # Q = 32040, cells 5.4e6


def w_half_up():
    # 600 items of 0.00125 GB = 12.5 units: 12 (half to even), 13 half-up.
    rng = random.Random(2)
    memory = [0.00125] * 600
    runtime = [round(rng.uniform(1, 2), 6) for _ in range(600)]
    return memory, runtime, 0.3


def w_runs():
    # 75 blocks of (0.03 GB, cheap), (0.03 GB, 5 ms), (0.03 GB, 4 ms),
    # (0.01 GB, 1 ms): each run of three same-size nodes is valued at its
    # first (cheap) node.
    memory, runtime = [], []
    for _ in range(75):
        memory += [0.03, 0.03, 0.03, 0.01]
        runtime += [0.002, 5.0, 4.0, 1.0]
    return memory, runtime, 0.3


def w_slots():
    # 200 exact copies of (0.001 GB, 1 ms), dense enough that all are saved,
    # plus 100 distinct heavier items.
    rng = random.Random(4)
    memory = [0.001] * 200 + [round(rng.uniform(0.01, 0.1), 4) for _ in range(100)]
    runtime = [1.0] * 200 + [round(rng.uniform(0.1, 5), 3) for _ in range(100)]
    return memory, runtime, 0.25


def w_shift():
    # 500 items of 0.1001 GB (1001 units) under 4.0 GB: n * (Q + 1) = 2.0e7
    # > 2**24, shift 1: 500 units each under 20000, so 40 are saved (40040).
    rng = random.Random(5)
    memory = [0.1001] * 500
    runtime = [round(10 ** rng.uniform(-1, 2), 4) for _ in range(500)]
    return memory, runtime, 4.0


def w_window():
    # 200 items, Q = 31000 (6.2e6 cells); the last two items are light and
    # worth the most, so the optimum saves both: at the row of the first of
    # them the answer's path reads a column the window left dead.
    rng = random.Random(6)
    memory = [rng.randint(1, 5) / 10 for _ in range(198)] + [0.1, 0.1]
    runtime = [round(10 ** rng.uniform(0, 1), 3) for _ in range(198)] + [1000.0, 1000.0]
    return memory, runtime, 3.1


def w_stagnant():
    # 100 useful items, then 80 activations too big for the budget, then 120
    # cheap-to-store, expensive-to-recompute items.
    rng = random.Random(7)
    memory = [rng.choice([0.01, 0.02, 0.05]) for _ in range(100)] + [1.5] * 80 + [0.01] * 120
    runtime = (
        [round(rng.uniform(1, 10), 3) for _ in range(100)]
        + [round(rng.uniform(100, 1000), 2) for _ in range(80)]
        + [round(rng.uniform(50, 100), 3) for _ in range(120)]
    )
    return memory, runtime, 1.0


def w_uniform():
    # the first 100 runtimes are all 1.0 (cheap elementwise nodes), the
    # last 100 are 50.0 and twice as heavy.
    memory = [0.01] * 100 + [0.02] * 100
    runtime = [1.0] * 100 + [50.0] * 100
    return memory, runtime, 0.2


def w_halves():
    # 250 items, Q = 41000 (1.03e7 cells). The first half holds 41 items of
    # 1000 units worth 100 each (exactly the budget); the rest are worth 1.
    memory = [0.1] * 125 + [0.1] * 125
    runtime = [100.0] * 41 + [1.0] * 84 + [1.0] * 125
    return memory, runtime, 4.1


def w_proportional():
    # runtime = 2.5 * memory for all; 0.00156 GB (15.6 units) and 0.00164 GB
    # (16.4 units) both quantize to 16.
    memory = [0.00156] * 100 + [0.00164] * 100
    runtime = [2.5 * m for m in memory]
    return memory, runtime, 0.008


BUGS = [
    # name, gate (text), witness, below-gate generator
    ("complement_cover_float_deficit_above_4e6_cells", "cells > 4e6, 0 < float deficit <= Q//8",
     w_complement, below_cell_gate(4_000_000, p_round_up, small_cells=4_000_000)),
    ("vectorized_half_up_quantize_from_512_items", "n >= 512",
     w_half_up, below_count_gate(512, p_halfway, 1_000_000)),
    ("same_size_runs_merged_from_256_items", "n >= 256",
     w_runs, below_count_gate(256, p_runs)),
    ("copy_type_slots_of_128_from_256_items", "n >= 256, types <= n/2",
     w_slots, below_count_gate(256, p_copies)),
    ("low_bits_dropped_above_2p24_cells", "cells > 2**24",
     w_shift, below_cell_gate(2**24, p_odd)),
    ("dead_column_window_above_6e6_cells", "cells > 6e6",
     w_window, below_cell_gate(6_000_000, p_tail)),
    ("stagnant_rows_early_exit_from_256_items", "n >= 256",
     w_stagnant, below_count_gate(256, p_heavy_streak)),
    ("uniform_runtime_sampled_check_from_128_items", "n >= 128, first 64 runtimes equal",
     w_uniform, below_count_gate(128, p_uniform)),
    ("split_halves_join_skips_full_left_above_1e7_cells", "cells > 1e7",
     w_halves, below_cell_gate(10_000_000, p_exact_left)),
    ("proportional_runtime_subset_sum_from_96_items", "n >= 96, runtime/memory constant",
     w_proportional, below_count_gate(96, p_proportional)),
]


def main():
    start = time.time()
    all_ok = True
    rows = []
    for name, gate, witness, gen in BUGS:
        t0 = time.time()
        bug = load(name)
        memory, runtime, max_memory = witness()
        n, Q = len(memory), quantize(max_memory)
        opt = exact_optimum(memory, runtime, max_memory).value
        b_verdict, b_detail = judge(bug, memory, runtime, max_memory, opt)
        u_verdict, _ = judge(upstream, memory, runtime, max_memory, opt)
        witness_ok = b_verdict in ("crash", "partition", "feasibility", "optimality") and u_verdict == "ok"
        equal = 0
        for seed in SEEDS:
            args = gen(seed)
            try:
                got = bug(*args)
            except Exception as exc:  # noqa: BLE001
                got = ("raised", type(exc).__name__)
            try:
                want = upstream(*args)
            except Exception as exc:  # noqa: BLE001
                want = ("raised", type(exc).__name__)
            equal += got == want
        ok = witness_ok and equal == len(SEEDS)
        all_ok &= ok
        rows.append((name, gate, f"n={n} Q={Q} cells={n * (Q + 1):.3g}",
                     f"{b_verdict}: {b_detail}", u_verdict, f"{equal}/{len(SEEDS)}",
                     "PASS" if ok else "FAIL", f"{time.time() - t0:.1f}s"))
    head = ("bug", "gate", "witness", "bug on witness", "upstream", "below gate == upstream", "claims", "time")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    print(f"\n{'ALL CLAIMS HOLD' if all_ok else 'SOME CLAIMS FAIL'} in {time.time() - start:.1f} s")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
