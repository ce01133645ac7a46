"""Input validation, quantization and result formatting shared by our solvers.

This module is the executable form of SPEC.md sections 1 to 3 and 7. Every
solver of ours calls :func:`validate` first and :func:`format_result` last, so
that all of them accept the same domain, raise the same errors and return the
same types. It depends on the standard library only, so that an upstream patch
can inline it.

Quantization (SPEC 2.1) is upstream's, to the bit::

    q_i = round(float(m_i) * 10000)     # float64 product, round-half-to-even
    Q   = round(float(max_memory) * 10000)

Runtimes (SPEC 3.1) are the float64 values ``float(r_i)``; their exact rational
values define the optimum. :func:`integer_runtimes` scales them by one power of
two into Python integers, so that exact arithmetic is plain integer arithmetic.
"""

from __future__ import annotations

import math
import numbers
import operator
import os
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import compress

SCALE = 10000
"""Quantization units per unit of memory (upstream's ``S``)."""


ALWAYS_FITS_BYTES = 64 * 2**20
"""Allocations up to this size are not checked against the memory available."""


class BudgetTooLargeError(ValueError):
    """The budget needs buffers larger than this machine can hold (SPEC 1.6).

    Raised before any buffer is allocated.
    """


@dataclass(frozen=True)
class Instance:
    """A validated, quantized knapsack instance (SPEC 2).

    Attributes:
        weights: quantized weights ``q_i`` (non-negative Python ints).
        runtimes: the runtimes as float64 values ``float(r_i)``.
        capacity: the quantized budget ``Q`` (a non-negative Python int).
    """

    weights: tuple[int, ...]
    runtimes: tuple[float, ...]
    capacity: int

    @property
    def n(self) -> int:
        """Number of items."""
        return len(self.weights)


def _as_sequence(name: str, value: object) -> Sequence[object]:
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Sequence):
        raise TypeError(
            f"{name} must be a list or tuple of real numbers, got {type(value).__name__}"
        )
    return value


def as_finite_float(value: object, name: str = "runtime", index: int | None = None) -> float:
    """Return ``float(value)`` for a real, non-bool, finite ``value`` (SPEC 1.2-1.3).

    Errors name the argument as ``name[index]`` (or ``name``); the label is
    only built on error, as this runs once per item.
    """
    if type(value) is float and math.isfinite(value):
        return value
    label = name if index is None else f"{name}[{index}]"
    if type(value) is float:
        raise ValueError(f"{label} must be finite, got {value!r}")
    # Exactly ``int`` (flop counts) is Real and not bool; skip the slow ABC check.
    if type(value) is not int and (isinstance(value, bool) or not isinstance(value, numbers.Real)):
        raise TypeError(f"{label} must be a real number, got {type(value).__name__}")
    try:
        as_float = float(value)
    except OverflowError:
        raise ValueError(f"{label} must be finite, got {value!r}") from None
    if not math.isfinite(as_float):
        raise ValueError(f"{label} must be finite, got {as_float!r}")
    return as_float


def quantize(value: float) -> int:
    """Quantize a non-negative float64 memory amount to integer units (SPEC 2.1).

    ``round(value * 10000)`` with the float64 product and round-half-to-even,
    exactly as upstream. When the product overflows (``value > 1.79e304``) the
    value is an integer-valued float and the exact product is returned.

    >>> quantize(1e-4), quantize(4.9e-5), quantize(0.00015), quantize(2.5e-4)
    (1, 0, 1, 2)
    """
    product = value * SCALE
    if math.isinf(product):
        return int(value) * SCALE
    return round(product)


def _as_floats(values: Sequence[object]) -> tuple[float, ...] | None:
    """``values`` as floats when every entry is exactly a ``float`` or an ``int``
    (the partitioner's lists), else ``None``. Whole-list C loops (``map``)."""
    kinds = set(map(type, values))
    if kinds <= {float}:
        return tuple(values)  # type: ignore[arg-type]
    if kinds <= {float, int}:
        try:
            return tuple(map(float, values))  # type: ignore[arg-type]
        except OverflowError:
            return None
    return None


def _quantized_fast(memory: Sequence[object]) -> list[int] | None:
    """The quantized weights when every memory is a float or int, finite, >= 0
    and ``10000 * sum(memory)`` is finite (so no product overflows); ``None``
    leaves the input to the per-item checks, which name the offending entry.
    Equal to ``[quantize(m) ...]`` there: same products, same rounding."""
    floats = _as_floats(memory)
    if floats is None or (floats and min(floats) < 0):
        return None
    if not math.isfinite(sum(floats) * SCALE):  # NaN and inf propagate to the sum
        return None
    distinct = set(floats)
    if 2 * len(distinct) < len(floats):
        # Repeated blocks (a real call has a few distinct sizes): round each once.
        # -0.0 and 0.0 share an entry, and both quantize to 0.
        table = {m: round(m * SCALE) for m in distinct}
        return list(map(table.__getitem__, floats))
    return list(map(round, map(float(SCALE).__mul__, floats)))


def _finite_floats_fast(runtime: Sequence[object]) -> tuple[float, ...] | None:
    """The runtimes when every entry is a float or int and the exact sum of
    their absolute values is a finite float64 (so each is finite); else ``None``
    for the per-item checks (SPEC 1.3)."""
    floats = _as_floats(runtime)
    if floats is None:
        return None
    try:
        total = math.fsum(map(abs, floats))
    except (OverflowError, ValueError):
        return None
    return floats if math.isfinite(total) else None


def validate(memory: object, runtime: object, max_memory: object) -> Instance:
    """Check the arguments against SPEC 1 and quantize them (SPEC 2).

    Raises:
        TypeError: an argument, or an entry, is not of an accepted type
            (SPEC 1.1, 1.2); the message names the argument and the index.
        ValueError: lengths differ (1.4), a value is NaN or infinite (1.3),
            a memory or the budget is negative (1.5).
    """
    memory_seq = _as_sequence("memory", memory)
    runtime_seq = _as_sequence("runtime", runtime)
    if len(memory_seq) != len(runtime_seq):
        raise ValueError(
            "memory and runtime must have the same length, got "
            f"len(memory)={len(memory_seq)} and len(runtime)={len(runtime_seq)}"
        )
    weights = _quantized_fast(memory_seq)
    if weights is None:
        weights = []
        for i, entry in enumerate(memory_seq):
            m = as_finite_float(entry, "memory", i)
            if m < 0:
                raise ValueError(f"memory[{i}] must be >= 0, got {m!r}")
            weights.append(quantize(m))
    runtimes = _finite_floats_fast(runtime_seq)
    if runtimes is None:
        runtimes = tuple(
            as_finite_float(entry, "runtime", i) for i, entry in enumerate(runtime_seq)
        )
        try:
            math.fsum(abs(r) for r in runtimes)
        except OverflowError:
            raise ValueError(
                "runtime: the sum of the absolute runtimes overflows float64"
            ) from None
    return Instance(tuple(weights), runtimes, quantized_budget(max_memory))


def quantized_budget(max_memory: object) -> int:
    """SPEC 1.2, 1.3, 1.5 and 2.1 for the budget alone: ``Q``, or the error
    :func:`validate` raises for it (for a frontier's per-budget calls)."""
    budget = as_finite_float(max_memory, "max_memory")
    if budget < 0:
        raise ValueError(f"max_memory must be >= 0, got {budget!r}")
    return quantize(budget)


def _status_bytes(field: str) -> int | None:
    """A ``kB`` field of ``/proc/self/status`` (``VmSize``, ``VmData``) in bytes."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _physical_available() -> int:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def memory_headroom() -> tuple[int, str]:
    """Bytes this process may still allocate, and which limit says so (SPEC 1.10).

    The least of: ``MemAvailable`` (else physical RAM); the soft
    ``RLIMIT_AS`` less the address space in use (``VmSize``); the soft
    ``RLIMIT_DATA`` less the data segment in use (``VmData``). Without the
    ``resource`` module (Windows) only the first applies.
    """
    candidates = [(_physical_available(), "MemAvailable")]
    try:
        import resource
    except ImportError:
        return candidates[0]
    for limit_name, field in (("RLIMIT_AS", "VmSize"), ("RLIMIT_DATA", "VmData")):
        soft, _ = resource.getrlimit(getattr(resource, limit_name))
        used = _status_bytes(field)
        if soft != resource.RLIM_INFINITY and used is not None:
            candidates.append(
                (max(0, soft - used), f"{limit_name} {soft} bytes less {used} in use ({field})")
            )
    return min(candidates)


def require_buffer_fits(instance: Instance, needed_bytes: int, layout: str) -> None:
    """Refuse, before allocating, buffers that cannot fit in memory (SPEC 1.6, 1.10).

    Args:
        instance: the validated instance (its budget is named in the message).
        needed_bytes: the solver's planned allocation, computed from ``n`` and ``Q``.
        layout: a short description of the buffers, e.g. ``"2 x (Q+1) float64"``.
    """
    if needed_bytes <= ALWAYS_FITS_BYTES:
        return
    limit, source = memory_headroom()
    if needed_bytes > limit:
        raise BudgetTooLargeError(
            f"max_memory quantizes to Q={instance.capacity} units; the solver's "
            f"buffers ({layout}) need {needed_bytes} bytes, more than the "
            f"{limit} bytes available ({source})"
        )


def exact_sum(runtimes: Sequence[float], indices: Sequence[int]) -> Fraction:
    """Exact rational sum of ``runtimes[i]`` over ``indices`` (SPEC 3.2)."""
    return sum((Fraction(runtimes[i]) for i in indices), Fraction(0))


def integer_runtimes(runtimes: Sequence[float]) -> tuple[list[int], int]:
    """Scale float64 runtimes into exact integers (SPEC 3.1).

    Every finite float64 is ``k * 2**e`` with integer ``k``; multiplying all
    runtimes by ``2**-min(e)`` makes each one an integer and keeps every sum
    and comparison exact.

    Returns:
        ``(scaled, shift)`` with ``scaled[i] == runtimes[i] * 2**shift`` exactly.

    >>> integer_runtimes([0.5, 3.0, 0.0])
    ([1, 6, 0], 1)
    """
    # C loops only (``map``, ``zip``, ``max``): every denominator is a power of
    # two, so ``largest // d`` is ``2**(shift - e)``. Not a dict per distinct
    # value: flop counts are multiples of large powers of two, whose float
    # hashes share their low bits and collide (measured 4x slower at n = 5000
    # distinct runtimes).
    if all(map(float.is_integer, runtimes)):  # flop counts: no fraction to scale
        return list(map(int, runtimes)), 0
    numerators, denominators = zip(*map(float.as_integer_ratio, runtimes), strict=True)
    largest = max(denominators)
    shift = largest.bit_length() - 1
    return list(map(operator.mul, numerators, map(largest.__floordiv__, denominators))), shift


def format_result(
    runtimes: Sequence[float], saved: Sequence[int]
) -> tuple[float, list[int], list[int]]:
    """Build the return triple of SPEC 7 from a selection.

    The value is the exact sum of the saved runtimes rounded once to the
    nearest float (SPEC 7.1): :func:`math.fsum` is correctly rounded, and
    :func:`validate` guarantees it cannot overflow (SPEC 1.3).
    ``saved`` is ascending, ``recomputable`` descending.
    """
    saved_sorted = sorted(saved)
    is_recomputable = bytearray(b"\x01") * len(runtimes)
    for i in saved_sorted:
        is_recomputable[i] = 0
    recomputable = list(compress(range(len(runtimes) - 1, -1, -1), reversed(is_recomputable)))
    return math.fsum(map(runtimes.__getitem__, saved_sorted)), saved_sorted, recomputable
