"""A knapsack instance in the solver contract's own terms, printable as a call.

A :class:`Case` holds the three arguments of ``solver(memory, runtime,
max_memory)`` exactly as they are passed, so a counterexample can be pasted
into a pull-request review or an upstream issue and replayed verbatim.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Case:
    """One call's arguments. Tuples, so a case is hashable and cannot be mutated."""

    memory: tuple[float, ...]
    runtime: tuple[float, ...]
    max_memory: float

    @classmethod
    def of(cls, memory: Any, runtime: Any, max_memory: Any) -> Case:
        """Build a case from any sequences (values kept as given)."""
        return cls(tuple(memory), tuple(runtime), max_memory)

    @property
    def n(self) -> int:
        """Number of items."""
        return len(self.memory)

    def arguments(self) -> tuple[list[float], list[float], float]:
        """Fresh argument lists, as the partitioner passes them (SPEC 7), each
        run of equal neighbours one object (:func:`shared_runs`, SPEC 4.6)."""
        return list(shared_runs(self.memory)), list(shared_runs(self.runtime)), self.max_memory

    def as_call(self, function: str = "solver") -> str:
        """Copy-pasteable Python call, runs of equal values grouped.

        A real partitioner call is mostly copies of a few item types, so each
        argument list is written as runs: ``[v] * k`` for ``k >= 3`` equal
        neighbours, literal lists between them. Floats print with ``repr``,
        which round-trips exactly, and the expression evaluates to exactly
        the lists passed (``tests/test_cases.py`` evaluates it back).

        >>> Case.of([1e-4] * 3, [1.0] * 3, 1e-4).as_call()
        'solver([0.0001] * 3, [1.0] * 3, 0.0001)'
        >>> Case.of([0.5, 0.25], [2.0, 1.0], 0.5).as_call("dp_knapsack")
        'dp_knapsack([0.5, 0.25], [2.0, 1.0], 0.5)'
        """
        memory, runtime = grouped_list(self.memory), grouped_list(self.runtime)
        return f"{function}({memory}, {runtime}, {self.max_memory!r})"

    def as_flat_call(self, function: str = "solver") -> str:
        """The same call with every value written out (the length shrinking compares)."""
        return f"{function}({list(self.memory)!r}, {list(self.runtime)!r}, {self.max_memory!r})"

    @classmethod
    def from_call(cls, call: str) -> tuple[str, Case]:
        """The function name and case of a printed call, without running any code.

        Reads what :meth:`as_call` and :meth:`as_flat_call` write: literals,
        ``[v] * k`` and ``+`` between lists (``ast.literal_eval`` refuses the
        last two), and numpy scalars as they print (``np.int32(3)``).

        >>> Case.from_call("f([0.0001] * 3, [1.0, 1.0] + [2.0], 0.0001)")
        ('f', Case(memory=(0.0001, 0.0001, 0.0001), runtime=(1.0, 1.0, 2.0), max_memory=0.0001))
        >>> Case.from_call("f([np.float32(0.5)], [np.int32(3)], np.float64(0.5))")[1].runtime
        (np.int32(3),)
        """
        expression = ast.parse(call.strip(), mode="eval").body
        if not (
            isinstance(expression, ast.Call)
            and isinstance(expression.func, ast.Name)
            and len(expression.args) == 3
            and not expression.keywords
        ):
            raise ValueError(f"call: expected name(memory, runtime, max_memory), got {call!r}")
        memory, runtime, max_memory = (_literal(argument) for argument in expression.args)
        return expression.func.id, cls.of(memory, runtime, max_memory)

    def distinct_items(self) -> int:
        """Number of distinct ``(memory, runtime)`` pairs: the call's item types."""
        return len(set(zip(self.memory, self.runtime, strict=False)))


@dataclass(frozen=True, repr=False)
class Oversized(Sequence[Any]):
    """A list or tuple in an answer longer than the instance allows: only its length.

    It is a sequence of that length (``len`` works, so the partition check
    can refuse it, SPEC 7.2(b)) whose entries were not sent: reading one
    raises :class:`TypeError`. The worker's conversion
    (:func:`knapsack_audit.isolation.portable`) makes it; the properties
    refuse it unread (:func:`knapsack_audit.properties.partition`), so it lives
    here, below both.
    """

    type_name: str
    length: int

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: object) -> Any:
        raise TypeError(f"the {self.length} entries of this {self.type_name} were not sent")

    def __repr__(self) -> str:
        return f"<{self.type_name} of {self.length} entries, not sent>"


def describe_size(items: int, types: int, found: int) -> str:
    """A counterexample's size in words.

    >>> describe_size(126, 9, 276)
    '126 items of 9 types (shrunk from 276)'
    >>> describe_size(1, 1, 1)
    '1 item of 1 type'
    """
    text = f"{items} item{'s' * (items != 1)} of {types} type{'s' * (types != 1)}"
    return text if found <= items else f"{text} (shrunk from {found})"


MIN_RUN = 3
"""Shortest run of equal values written as ``[v] * k`` (two copies read better literally)."""


def grouped_list(values: Sequence[Any]) -> str:
    """A Python expression equal to ``list(values)``, runs of equal values grouped.

    >>> grouped_list([0.5, 0.5, 0.5, 0.5, 0.25, 0.125, 0.5])
    '[0.5] * 4 + [0.25, 0.125, 0.5]'
    >>> grouped_list([])
    '[]'
    """
    parts: list[str] = []
    literal: list[Any] = []
    for value, run in _runs(values):
        if run >= MIN_RUN:
            if literal:
                parts.append(repr(literal))
                literal = []
            parts.append(f"[{value!r}] * {run}")
        else:
            literal.extend([value] * run)
    if literal or not parts:
        parts.append(repr(literal))
    return " + ".join(parts)


def _runs(values: Sequence[Any]) -> list[tuple[Any, int]]:
    """Maximal runs of equal neighbours, as ``(value, length)``.

    Equality is by ``repr`` as well as ``==``, so ``0.0`` and ``-0.0`` (equal,
    printed apart) and two NaNs (printed alike, never equal) stay exact.
    """
    runs: list[tuple[Any, int]] = []
    for value in values:
        if runs and _same(runs[-1][0], value):
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((value, 1))
    return runs


NUMPY_SCALARS = frozenset(
    {"bool"}
    | {f"float{bits}" for bits in (16, 32, 64)}
    | {f"{kind}{bits}" for kind in ("int", "uint") for bits in (8, 16, 32, 64)}
)
"""The numpy scalar types a printed call may name (``np.float64(0.1)``: their
``repr``; SPEC 1.2 accepts numpy numbers, and the call evaluates to them
with ``import numpy as np``)."""


def _literal(node: ast.expr) -> Any:
    """A literal, ``list * int``, ``list + list`` or ``np.TYPE(literal)``: the
    grouped form, nothing else."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "np"
        and node.func.attr in NUMPY_SCALARS
        and len(node.args) == 1
        and not node.keywords
    ):
        return getattr(np, node.func.attr)(ast.literal_eval(node.args[0]))
    if isinstance(node, ast.List):
        return [_literal(element) for element in node.elts]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mult):
        left, right = _literal(node.left), _literal(node.right)
        if isinstance(node.op, ast.Add) and isinstance(left, list) and isinstance(right, list):
            return left + right
        if isinstance(node.op, ast.Mult) and isinstance(left, list) and type(right) is int:
            return left * right
        raise ValueError(f"call: unsupported expression {ast.unparse(node)!r}")
    return ast.literal_eval(node)


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and repr(a) == repr(b)


def same_values(after: Sequence[Any], before: Sequence[Any]) -> bool:
    """Whether a caller could tell ``after`` from ``before``: the same length,
    and each entry of the same type and ``repr`` (SPEC 8.2). ``==`` alone
    misses a ``-0.0`` made ``0.0`` or an ``int`` made a ``float``.

    >>> same_values([0.5, -0.0, 1], [0.5, -0.0, 1]), same_values((0.5,), [0.5])
    (True, True)
    >>> same_values([0.5, 0.0], [0.5, -0.0]), same_values([1.0], [1])
    (False, False)
    """
    if len(after) != len(before) or any(a != b for a, b in zip(after, before, strict=True)):
        return False
    return all(a is b or _same(a, b) for a, b in zip(after, before, strict=True))


def shared_runs(values: Sequence[Any]) -> Any:
    """``values`` (a list or a tuple, returned as such) with each run of
    neighbouring entries of the same type and ``repr`` made one object, as
    ``[v] * k`` builds it (SPEC 4.6). Pickling a call to the audit's worker
    gives every float an object of its own: a solver that folded runs of
    the very same object (``memory[k] is memory[k - 1]``) into one
    all-or-nothing item passed default ``verify`` (session 23,
    docs/blind-corpus-17). ``-0.0`` and ``0.0``, or ``1`` and ``1.0``, stay
    apart.

    >>> a, b, c, d = shared_runs([0.5, 0.5, -0.0, 0.0])
    >>> a is b, b is c, c is d, (a, b, c, d)
    (True, False, False, (0.5, 0.5, -0.0, 0.0))
    >>> type(shared_runs((1.0, 1.0)))
    <class 'tuple'>
    """
    shared: list[Any] = []
    for value in values:
        shared.append(shared[-1] if shared and _repeats(value, shared[-1]) else value)
    return tuple(shared) if isinstance(values, tuple) else shared


def _repeats(value: Any, previous: Any) -> bool:
    """:func:`_same`, with ``!=`` first: two numbers that differ (NaN aside)
    never share a ``repr``, and a ``repr`` costs about a microsecond on
    every call the audit makes (``Case.arguments``, the worker)."""
    if value is previous:
        return True
    if value != previous and value == value:
        return False
    return _same(value, previous)
