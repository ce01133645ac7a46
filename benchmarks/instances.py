"""Seeded benchmark instances in the torch solver contract.

Every instance is the triple the solvers take, ``(memory, runtime, max_memory)``
(docs/SPEC.md, "The contract"), plus its quantized weights (SPEC 2.1).

Pisinger's families
-------------------
Pisinger, "Where are the hard knapsack problems?", Computers & Operations
Research 32(9), 2271-2284, 2005, defines the classical test families by how
the profit ``p_j`` of item ``j`` relates to its weight ``w_j``, for a data
range ``R`` (``U[a, b]`` is a uniform random integer in ``a..b``):

=============================  ==============================================
family                         definition
=============================  ==============================================
``uncorrelated``               ``w_j ~ U[1, R]``, ``p_j ~ U[1, R]``
``weakly_correlated``          ``w_j ~ U[1, R]``,
                               ``p_j ~ U[w_j - R/10, w_j + R/10]``, ``p_j >= 1``
``strongly_correlated``        ``w_j ~ U[1, R]``, ``p_j = w_j + R/10``
``inverse_strongly_correlated``  ``p_j ~ U[1, R]``, ``w_j = p_j + R/10``
``subset_sum``                 ``w_j ~ U[1, R]``, ``p_j = w_j``
=============================  ==============================================

(``R/10`` is the integer ``R // 10``.) Pisinger sets the capacity to a fraction
``h / (H + 1)`` of the total weight. Here the benchmark cell fixes the
quantized budget ``Q`` instead, so the data range is derived from it:
``R = max(2, round(2 * Q / (FILL * n)) - 1)``, which makes the expected total
weight of the uniform-weight families ``n * (R + 1) / 2 ~= Q / FILL``; with
``FILL = 0.5`` the budget holds about half of the total weight (Pisinger's
middle instance, ``h = H / 2``), so the budget binds and the table is as wide
as the cell says. (The inverse family's weights are ``R/10`` heavier, so its
budget holds about 42 % of the total weight.)

In the torch contract, item ``j`` has ``memory[j] = w_j / 10000``: the float64
nearest to it, whose quantization ``round(memory[j] * 10000)`` is ``w_j``
again (checked for every item by :func:`make_instance`). The budget is
``max_memory = Q / 10000``, which quantizes to ``Q``. Runtimes are the profits
as floats, ``runtime[j] = float(p_j * runtime_scale)``: integer "flop counts".
``runtime_scale = 1`` keeps Pisinger's profits; a large scale (e.g. ``10**6``)
makes them flops-sized without changing the optimal selections, which exposes
float32 rounding in upstream's tables.

Partitioner-like instances
--------------------------
``partitioner_like`` imitates what the min-cut partitioner passes
(``torch/_functorch/partitioners.py`` with ``activation_memory_budget``):
memories normalized to sum to 1 over the whole choice, flop-count runtimes,
and a budget in ``[0, 1]`` (so ``Q <= 10000``). Item sizes are log-uniform
over four decades, ``s_j = 10 ** U(0, 4)`` (continuous), and
``memory[j] = s_j / sum(s)``, so the memories are arbitrary floats (small ones
quantize to 0, as in real graphs). Runtimes are integers in ``[1e6, 1e12]``:
``log10(runtime[j]) = 6 + 6 * (log10(s_j) / 8 + u_j / 2)`` with
``u_j ~ U(0, 1)``, i.e. half determined by the item's size (bigger activations
tend to cost more to recompute) and half noise. The budget is
``max_memory = Q / 10000``; because the memories sum to 1, ``Q = 10000``
would let every item fit, so benchmark grids use ``Q < 10000``.

Determinism: every instance is a pure function of ``(family, n, Q, seed,
runtime_scale)``. The generator is :class:`random.Random` seeded with a string,
whose stream Python keeps stable across versions and platforms.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from knapsack_audit.reference import quantize

SCALE = 10000
"""Quantization units per unit of memory (SPEC 2.1)."""

FILL = 0.5
"""Target ratio of the budget ``Q`` to the expected total weight (Pisinger families)."""

PISINGER_FAMILIES = (
    "uncorrelated",
    "weakly_correlated",
    "strongly_correlated",
    "inverse_strongly_correlated",
    "subset_sum",
)
PARTITIONER_FAMILY = "partitioner_like"
FAMILIES = (*PISINGER_FAMILIES, PARTITIONER_FAMILY)


@dataclass(frozen=True)
class BenchInstance:
    """One benchmark instance in the solver contract.

    Attributes:
        family: one of :data:`FAMILIES`.
        n: number of items.
        capacity: the quantized budget ``Q`` (``quantize(max_memory)``).
        seed: the base seed the instance was drawn with.
        memory: item memories (floats), as passed to a solver.
        runtime: item runtimes (integer-valued floats), as passed to a solver.
        max_memory: the budget, as passed to a solver.
        weights: quantized weights ``quantize(memory[j])`` (SPEC 2.1).
    """

    family: str
    n: int
    capacity: int
    seed: int
    memory: list[float]
    runtime: list[float]
    max_memory: float
    weights: list[int]


def data_range(n: int, capacity: int) -> int:
    """Pisinger's data range ``R`` for a cell: the total weight is about ``Q / FILL``.

    >>> data_range(100, 100_000)
    3999
    """
    return max(2, round(2 * capacity / (FILL * n)) - 1)


def _pisinger_items(family: str, n: int, r: int, rng: random.Random) -> list[tuple[int, int]]:
    """Return ``(w_j, p_j)`` pairs of a Pisinger family with data range ``r``."""
    tenth = r // 10
    items = []
    for _ in range(n):
        if family == "uncorrelated":
            w, p = rng.randint(1, r), rng.randint(1, r)
        elif family == "weakly_correlated":
            w = rng.randint(1, r)
            p = max(1, rng.randint(w - tenth, w + tenth))
        elif family == "strongly_correlated":
            w = rng.randint(1, r)
            p = w + tenth
        elif family == "inverse_strongly_correlated":
            p = rng.randint(1, r)
            w = p + tenth
        elif family == "subset_sum":
            w = rng.randint(1, r)
            p = w
        else:
            raise ValueError(f"unknown Pisinger family {family!r}")
        items.append((w, p))
    return items


def _partitioner_items(n: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """Return ``(memory, runtime)`` of a partitioner-like instance."""
    log_sizes = [rng.uniform(0.0, 4.0) for _ in range(n)]
    sizes = [10.0**x for x in log_sizes]
    total = math.fsum(sizes)
    memory = [s / total for s in sizes]
    runtime = []
    for x in log_sizes:
        exponent = 6.0 + 6.0 * (x / 8.0 + rng.random() / 2.0)
        runtime.append(float(min(10**12, max(10**6, round(10.0**exponent)))))
    return memory, runtime


def make_instance(
    family: str, n: int, capacity: int, seed: int = 0, runtime_scale: int = 1
) -> BenchInstance:
    """Draw the instance of one benchmark cell.

    Args:
        family: one of :data:`FAMILIES`.
        n: number of items (>= 1).
        capacity: the quantized budget ``Q`` (``max_memory = Q / 10000``); for
            ``partitioner_like`` at most 10000.
        seed: base seed; the instance depends on ``(family, n, Q, seed,
            runtime_scale)`` only.
        runtime_scale: integer factor applied to Pisinger profits (ignored by
            ``partitioner_like``, whose runtimes are already flop-sized).

    Raises:
        ValueError: unknown family, ``n < 1``, a budget out of range, or a
            quantization that does not round-trip (never expected).

    Time and memory O(n).
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; expected one of {FAMILIES}")
    if n < 1 or capacity < 0:
        raise ValueError(f"need n >= 1 and Q >= 0, got n={n}, Q={capacity}")
    rng = random.Random(f"knapsack-audit-bench:{family}:{n}:{capacity}:{seed}:{runtime_scale}")
    max_memory = capacity / SCALE
    if family == PARTITIONER_FAMILY:
        if capacity > SCALE:
            raise ValueError(f"partitioner_like needs Q <= {SCALE}, got {capacity}")
        memory, runtime = _partitioner_items(n, rng)
        weights = [quantize(m) for m in memory]
    else:
        pairs = _pisinger_items(family, n, data_range(n, capacity), rng)
        weights = [w for w, _ in pairs]
        memory = [w / SCALE for w in weights]
        runtime = [float(p * runtime_scale) for _, p in pairs]
        for j, (w, m) in enumerate(zip(weights, memory, strict=True)):
            if quantize(m) != w:
                raise ValueError(f"memory[{j}]={m!r} does not quantize back to {w}")
    if quantize(max_memory) != capacity:
        raise ValueError(f"max_memory={max_memory!r} does not quantize back to Q={capacity}")
    return BenchInstance(family, n, capacity, seed, memory, runtime, max_memory, weights)
