"""Claims for the ten planted bugs of /work/blind8.

For each bug:
(a) a witness above its gate on which the bug fails a named property and
    upstream (torch 2.13.0's dp_knapsack) passes every property, judged
    against reference.exact_optimum with SPEC 5.4's float32 tolerance; an
    optimality claim also needs a shortfall of more than 1e-3 of OPT. For the
    two stateful bugs the witness is the second call of a sequence, and that
    call alone, on a freshly loaded module, passes.
(b) 30 seeded instances below the gate (15 carrying the trigger pattern) on
    which the bug returns exactly upstream's tuple (values, lists, element
    types) and leaves its inputs untouched. For the stateful bugs an instance
    is a sequence of two calls on one module, and both calls are compared.

Prints ALL CLAIMS PASS when every claim holds.
"""

import copy
import importlib.util
import math
import numbers
import pathlib
import random
import sys
import time
from fractions import Fraction

sys.path.insert(0, "/work/main")

from reference import exact_optimum, validate
from reference.validation import exact_sum

HERE = pathlib.Path(__file__).resolve().parent
UPSTREAM_PATH = HERE.parent / "upstream_dp_knapsack.py"
_loaded = 0


def load(path):
    global _loaded
    _loaded += 1
    spec = importlib.util.spec_from_file_location(f"_mod{_loaded}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.dp_knapsack


def bug(name):
    return load(HERE / f"{name}.py")


UPSTREAM = load(UPSTREAM_PATH)
FAILURES = []


def claim(ok, text):
    print(("  ok   " if ok else "  FAIL ") + text)
    if not ok:
        FAILURES.append(text)


# ---------------------------------------------------------------- the judge
def tolerance(weights, runtimes, capacity):
    n = len(weights)
    u = Fraction(1, 2**24)
    gamma = (n + 1) * u / (1 - (n + 1) * u)
    total = sum(
        (abs(Fraction(r)) for w, r in zip(weights, runtimes) if w <= capacity),
        Fraction(0),
    )
    return 2 * gamma * total + 2 * (n + 1) * Fraction(1, 2**149)


def judge(memory, runtime, max_memory, solver):
    """Return (failed properties, details) for one call."""
    inst = validate(memory, runtime, max_memory)
    n, weights, cap = inst.n, inst.weights, inst.capacity
    try:
        result = solver(list(memory), list(runtime), max_memory)
    except Exception as exc:  # noqa: BLE001
        return {"no-crash"}, f"raised {type(exc).__name__}: {str(exc)[:90]}"
    fails = set()
    if not (isinstance(result, (tuple, list)) and len(result) == 3):
        return {"shape"}, repr(result)[:100]
    value, saved, recomputable = result
    indices = list(saved) + list(recomputable)
    if any(type(i) is not int for i in indices) or sorted(indices) != list(range(n)):
        missing = sorted(set(range(n)) - {i for i in indices if type(i) is int})
        extra = sorted(i for i in indices if type(i) is not int or not 0 <= i < n)
        return {"partition"}, f"missing {missing[:5]}, out of range {extra[:5]}"
    tol = tolerance(weights, inst.runtimes, cap)
    used = sum(weights[i] for i in saved)
    if used > cap:
        fails.add("feasibility")
    got = exact_sum(inst.runtimes, saved)
    opt = exact_optimum(memory, runtime, max_memory).value
    if used <= cap and opt - got > tol:
        fails.add("optimality")
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
    ):
        fails.add("value-finite-real")
    elif abs(Fraction(value) - got) > tol:
        fails.add("value-consistency")
    short = float((opt - got) / opt) if opt else 0.0
    detail = (
        f"value {float(value):.6g}, selection {len(saved)} items worth "
        f"{float(got):.6g}, weight {used} / Q {cap}, OPT {float(opt):.6g} "
        f"(short {short:.2%})"
    )
    return fails, detail


def check_witness(name, solver, memory, runtime, max_memory, expected, prelude=()):
    """Bug fails `expected` (all of them) on the call; upstream passes it.

    `prelude` is a list of earlier calls made on the same bug module first.
    """
    inst = validate(memory, runtime, max_memory)
    cells = inst.n * (inst.capacity + 1)
    for call in prelude:
        solver(*copy.deepcopy(call))
    fails, detail = judge(memory, runtime, max_memory, solver)
    ok = set(expected) <= fails
    if "optimality" in expected:
        got_opt = exact_optimum(memory, runtime, max_memory).value
        res = solver(*copy.deepcopy((memory, runtime, max_memory)))
        got = exact_sum(inst.runtimes, res[1])
        ok = ok and (got_opt - got) > Fraction(1, 1000) * got_opt
    claim(ok, f"{name}: witness (n={inst.n}, Q={inst.capacity}, cells={cells:.3g}) "
          f"bug fails {sorted(fails)} [{detail}]")
    claim(cells < 3e7, f"{name}: witness table under 3e7 cells")
    up_fails, up_detail = judge(memory, runtime, max_memory, UPSTREAM)
    claim(not up_fails, f"{name}: upstream passes the witness [{up_detail}]")


def same_tuple(a, b):
    if type(a) is not type(b) or len(a) != 3 or len(b) != 3:
        return False
    if type(a[0]) is not type(b[0]) or not (
        a[0] == b[0] or (a[0] != a[0] and b[0] != b[0])
    ):
        return False
    for x, y in ((a[1], b[1]), (a[2], b[2])):
        if type(x) is not type(y) or list(x) != list(y):
            return False
        if any(type(i) is not type(j) for i, j in zip(x, y)):
            return False
    return True


def fingerprint(values):
    return [(type(v).__name__, v.hex() if isinstance(v, float) else repr(v)) for v in values]


def below_gate(name, solver, instances, stateful=False):
    """instances: list of (is_trigger, calls); calls is a list of argument triples."""
    assert len(instances) == 30 and sum(t for t, _ in instances) == 15
    bad = []
    for k, (_, calls) in enumerate(instances):
        assert stateful or len(calls) == 1
        for memory, runtime, max_memory in calls:
            before = (fingerprint(memory), fingerprint(runtime))
            got = solver(memory, runtime, max_memory)
            after = (fingerprint(memory), fingerprint(runtime))
            want = UPSTREAM(list(memory), list(runtime), max_memory)
            if not same_tuple(got, want) or before != after:
                bad.append(k)
    claim(not bad, f"{name}: equal to upstream, inputs untouched, on 30 below-gate "
          f"instances (15 with the trigger){'; differs on ' + str(bad) if bad else ''}")


def rand_instance(rng, n, budget_frac=0.3):
    memory = [round(rng.uniform(0.0005, 0.05), 4) for _ in range(n)]
    runtime = [round(rng.uniform(0.1, 10.0), 3) for _ in range(n)]
    return memory, runtime, round(sum(memory) * budget_frac, 4)


def mixed(trigger, plain):
    """15 trigger instances and 15 plain ones, seeded."""
    out = []
    for seed in range(15):
        out.append((True, trigger(random.Random(1000 + seed))))
        out.append((False, plain(random.Random(2000 + seed))))
    return out


def single(gen):
    return lambda rng: [gen(rng)]


def plain_small(rng):
    return [rand_instance(rng, rng.randint(5, 60))]


# ---------------------------------------------------------------- the bugs
def bug1():
    name = "odd_item_block_slots_from_128_items"
    f = bug(name)
    rng = random.Random(1)
    memory = [0.03] * 200
    runtime = [round(rng.uniform(10.0, 20.0), 3) for _ in range(200)]
    memory[57], runtime[57] = 0.01, 50.0
    check_witness(name, f, memory, runtime, 0.31, {"optimality"})

    def trig(rng):
        n = rng.randint(40, 127)
        bq = rng.randint(50, 500)
        memory = [bq / 1e4] * n
        runtime = [round(rng.uniform(1.0, 20.0), 3) for _ in range(n)]
        o = rng.randrange(n)
        memory[o], runtime[o] = rng.randint(1, 1000) / 1e4, round(rng.uniform(10, 60), 3)
        q_budget = rng.randint(bq, bq * n // 2)
        return memory, runtime, q_budget / 1e4

    below_gate(name, f, mixed(single(trig), plain_small))


def bug2():
    name = "exact_budget_item_alone_from_128_items"
    f = bug(name)
    memory = [0.01] * 150 + [0.0] * 49
    runtime = [4.0] * 150 + [2.0] * 49
    memory.insert(10, 0.5)
    runtime.insert(10, 1000.0)
    check_witness(name, f, memory, runtime, 0.5, {"optimality"})

    def trig(rng):
        n = rng.randint(40, 127)
        memory, runtime, _ = rand_instance(rng, n)
        for i in rng.sample(range(n), 8):
            memory[i] = 0.0
        big = rng.randrange(n)
        memory[big], runtime[big] = 0.5, 10000.0
        return memory, runtime, 0.5

    below_gate(name, f, mixed(single(trig), plain_small))


def bug3():
    name = "tiny_item_pair_bundling_above_5e6_cells"
    f = bug(name)
    memory = [0.001] * 1500
    runtime = [1.0 if i % 2 == 0 else 0.01 for i in range(1500)]
    check_witness(name, f, memory, runtime, 1.0, {"optimality"})

    def trig(rng):
        n = rng.randint(700, 900)  # cells <= 900 * 5001 < 5e6
        memory = [0.0005] * n
        hi, lo = round(rng.uniform(1, 2), 3), round(rng.uniform(0.001, 0.1), 3)
        runtime = [hi if i % 2 == 0 else lo for i in range(n)]
        return memory, runtime, 0.5

    below_gate(name, f, mixed(single(trig), plain_small))


def swap_saved_runtimes(memory, runtime, max_memory, pairs):
    """The runtimes with the `pairs` most valuable saved items' runtimes swapped
    with the least valuable recomputed items' (both sums unchanged)."""
    _, saved, recomputable = UPSTREAM(list(memory), list(runtime), max_memory)
    saved = sorted(saved, key=lambda i: -runtime[i])[:pairs]
    recomputable = sorted(recomputable, key=lambda i: runtime[i])[:pairs]
    out = list(runtime)
    for i, j in zip(saved, recomputable):
        out[i], out[j] = out[j], out[i]
    return out


def bug4():
    name = "prefix_rows_reused_by_checksum_from_512_items"
    rng = random.Random(4)
    memory, runtime, _ = rand_instance(rng, 600)
    first = (memory, runtime, 0.5)
    second = (memory, swap_saved_runtimes(memory, runtime, 0.5, 20), 0.5)
    f = bug(name)
    check_witness(name, f, *second, {"optimality", "value-consistency"}, prelude=[first])
    fails, detail = judge(*second, bug(name))
    claim(not fails, f"{name}: the witness call alone (fresh module) passes [{detail}]")

    def trig(rng):
        memory, runtime, _ = rand_instance(rng, rng.randint(100, 511))
        swapped = swap_saved_runtimes(memory, runtime, 0.5, 20)
        return [(memory, runtime, 0.5), (memory, swapped, 0.5)]

    def plain(rng):
        return [rand_instance(rng, rng.randint(5, 200)), rand_instance(rng, rng.randint(5, 200))]

    below_gate(name, bug(name), mixed(trig, plain), stateful=True)


def bug5():
    name = "weight_sorted_rows_wrong_inverse_from_256_items"
    f = bug(name)
    rng = random.Random(5)
    memory, runtime, _ = rand_instance(rng, 300)
    check_witness(name, f, memory, runtime, 0.5, {"feasibility"})

    def trig(rng):
        return rand_instance(rng, rng.randint(100, 255))

    below_gate(name, f, mixed(single(trig), plain_small))


def bug6():
    name = "uniform_size_bincount_from_512_items"
    f = bug(name)
    rng = random.Random(6)
    memory, runtime, _ = rand_instance(rng, 600)
    memory[300] = 1e11  # an activation far beyond any budget
    check_witness(name, f, memory, runtime, 0.5, {"no-crash"})

    def trig(rng):
        n = rng.randint(100, 511)
        if rng.random() < 0.5:
            memory, runtime, mm = rand_instance(rng, n)
        else:
            memory = [0.01] * n
            runtime = [round(rng.uniform(1, 5), 3) for _ in range(n)]
            mm = 0.3
        memory[rng.randrange(n)] = 1e11
        return memory, runtime, mm

    below_gate(name, f, mixed(single(trig), plain_small))


def bug7():
    name = "min_runtime_integer_units_from_256_items"
    f = bug(name)
    memory = [2.0] + [0.01] * 299
    runtime = [float(2**26)] + [1.0] * 150 + [1.49] * 149
    check_witness(name, f, memory, runtime, 1.0, {"optimality"})

    def trig(rng):
        n = rng.randint(100, 255)
        memory, runtime, mm = rand_instance(rng, n)
        memory[0], runtime[0] = 10.0, float(2**30)
        return memory, runtime, mm

    below_gate(name, f, mixed(single(trig), plain_small))


def bug8():
    name = "dominated_items_remembered_from_512_items"
    rng = random.Random(8)
    memory = [0.02] * 300 + [0.3] * 300
    runtime = [round(rng.uniform(1, 2), 3) for _ in range(300)] + [
        round(rng.uniform(100, 200), 3) for _ in range(300)
    ]
    first = (memory, runtime, 0.1)
    second = (memory, runtime, 1.0)
    check_witness(name, bug(name), *second, {"optimality"}, prelude=[first])
    fails, detail = judge(*second, bug(name))
    claim(not fails, f"{name}: the witness call alone (fresh module) passes [{detail}]")

    def trig(rng):
        memory, runtime, _ = rand_instance(rng, rng.randint(100, 511))
        return [(memory, runtime, 0.02), (memory, runtime, 0.6)]

    def plain(rng):
        return [rand_instance(rng, rng.randint(5, 200)), rand_instance(rng, rng.randint(5, 200))]

    below_gate(name, bug(name), mixed(trig, plain), stateful=True)


def bug9():
    name = "row_width_aligned_to_64_above_8e6_cells"
    f = bug(name)
    rng = random.Random(9)
    memory = [0.01] * 1000
    runtime = [round(rng.uniform(1, 2), 3) for _ in range(1000)]
    check_witness(name, f, memory, runtime, 1.0, {"optimality"})

    def trig(rng):
        n = rng.randint(300, 790)  # cells <= 790 * 10001 < 8e6
        return [0.01] * n, [round(rng.uniform(1, 2), 3) for _ in range(n)], 1.0

    below_gate(name, f, mixed(single(trig), plain_small))


def bug10():
    name = "nothing_fits_range_off_by_one_from_64_items"
    f = bug(name)
    rng = random.Random(10)
    memory = [round(rng.uniform(0.2, 1.0), 4) for _ in range(100)]
    runtime = [round(rng.uniform(1, 10), 3) for _ in range(100)]
    check_witness(name, f, memory, runtime, 0.1, {"partition"})

    def trig(rng):
        n = rng.randint(10, 63)
        memory = [round(rng.uniform(0.2, 1.0), 4) for _ in range(n)]
        runtime = [round(rng.uniform(1, 10), 3) for _ in range(n)]
        return memory, runtime, rng.choice([0.0, -0.0, 0.1, 0.1999])

    below_gate(name, f, mixed(single(trig), plain_small))


if __name__ == "__main__":
    start = time.time()
    for fn in (bug1, bug2, bug3, bug4, bug5, bug6, bug7, bug8, bug9, bug10):
        print(fn.__name__)
        fn()
    print(f"{time.time() - start:.1f} s")
    if FAILURES:
        print(f"{len(FAILURES)} CLAIMS FAILED")
        sys.exit(1)
    print("ALL CLAIMS PASS")
