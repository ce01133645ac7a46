"""A knapsack instance in the solver contract's own terms, printable as a call.

A :class:`Case` holds the three arguments of ``solver(memory, runtime,
max_memory)`` exactly as they are passed, so a counterexample can be pasted
into a pull-request review or an upstream issue and replayed verbatim.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
        """Fresh argument lists, as the partitioner passes them (SPEC 7)."""
        return list(self.memory), list(self.runtime), self.max_memory

    def as_call(self, function: str = "solver") -> str:
        """Copy-pasteable Python call, e.g. ``solver([0.0001], [1.0], 0.0001)``.

        Floats print with ``repr``, which round-trips exactly.
        """
        return f"{function}({list(self.memory)!r}, {list(self.runtime)!r}, {self.max_memory!r})"
