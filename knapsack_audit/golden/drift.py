"""``golden check``: do the fixtures still describe the installed torch?

The fixtures record the partitioner's knapsack inputs under the torch version
that captured them. A new torch can change the graphs (decompositions,
banned-node heuristics, size or flop estimates), so :func:`check` re-captures
a small subset (:data:`SUBSET`: small models and one real-scale model) with
:func:`knapsack_audit.golden.capture.capture_sweep` and compares each call
with the stored ones:

* a re-captured call identical to a stored call of the same model and
  estimator is ``same`` (stored calls are deduplicated, so any budget counts);
* otherwise it is ``changed`` and is compared with the stored call of the
  same model, estimator and ``max_memory``: item counts, how many quantized
  weights are not matched in the stored multiset, the largest move of a
  sorted weight (units, when the counts agree) and how many runtimes differ;
  with no such stored call it is ``new``;
* a stored call of a checked setting that no re-captured call matches is
  ``missing``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from knapsack_audit.cases import Case
from knapsack_audit.golden import capture, models
from knapsack_audit.golden.fixtures import Fixture
from knapsack_audit.reference import quantize

SUBSET: tuple[tuple[str, float, str], ...] = (
    ("mlp", 0.5, "flops"),
    ("transformer", 0.3, "testing"),
    ("convnet", 0.3, "flops"),
    ("vit_24", 0.3, "flops"),
    ("vit_24", 0.1, "testing"),
)
"""``(model, budget, estimator)`` re-captured by ``golden check``: four compilations."""


@dataclass(frozen=True)
class DriftRow:
    """One re-captured (or missing) call and how it compares with the fixtures."""

    model: str
    budget: float
    estimator: str
    status: str
    stored_items: int | None
    captured_items: int | None
    unmatched_weights: int = 0
    largest_move: int | None = None
    runtimes_changed: int = 0

    def describe(self) -> str:
        """One line for the terminal."""
        where = f"{self.model} at budget {self.budget:g} ({self.estimator})"
        if self.status == "same":
            return f"{where}: same inputs ({self.captured_items} items)"
        if self.status == "new":
            return f"{where}: new call with {self.captured_items} items, none stored"
        if self.status == "missing":
            return f"{where}: stored call with {self.stored_items} items no longer made"
        move = "" if self.largest_move is None else f", sorted weights moved <= {self.largest_move}"
        return (
            f"{where}: CHANGED, {self.stored_items} -> {self.captured_items} items, "
            f"{self.unmatched_weights} weights unmatched{move} units, "
            f"{self.runtimes_changed} runtimes changed"
        )


def stored_versions(fixtures: Sequence[Fixture]) -> set[str]:
    """The torch versions the fixtures were captured with."""
    return {str(fixture.provenance.get("torch_version")) for fixture in fixtures}


def needs_check(fixtures: Sequence[Fixture]) -> bool:
    """Whether any fixture was captured with another torch than the installed one."""
    return stored_versions(fixtures) != {torch.__version__}


def _weights(case: Case) -> list[int]:
    return [quantize(float(m)) for m in case.memory]


def compare(
    model: str, budget: float, estimator: str, captured: Case, stored: Sequence[Fixture]
) -> DriftRow:
    """How ``captured`` compares with the stored calls of ``model`` and ``estimator``."""
    if any(fixture.case == captured for fixture in stored):
        return DriftRow(model, budget, estimator, "same", captured.n, captured.n)
    closest = [f for f in stored if f.case.max_memory == captured.max_memory]
    if not closest:
        return DriftRow(model, budget, estimator, "new", None, captured.n)
    old = closest[0].case
    old_weights, new_weights = _weights(old), _weights(captured)
    unmatched = sum((Counter(new_weights) - Counter(old_weights)).values())
    largest = None
    if old.n == captured.n:
        pairs = zip(sorted(old_weights), sorted(new_weights), strict=True)
        largest = max((abs(a - b) for a, b in pairs), default=0)
    runtimes = sum((Counter(captured.runtime) - Counter(old.runtime)).values())
    return DriftRow(
        model, budget, estimator, "changed", old.n, captured.n, unmatched, largest, runtimes
    )


def check(
    fixtures: Sequence[Fixture], subset: Sequence[tuple[str, float, str]] = SUBSET
) -> list[DriftRow]:
    """Re-capture ``subset`` and compare every call with ``fixtures``."""
    rows: list[DriftRow] = []
    for model in dict.fromkeys(name for name, _, _ in subset):
        settings = [(budget, estimator) for name, budget, estimator in subset if name == model]
        recorded = capture.capture_sweep(models.by_name(model), settings)
        for (budget, estimator), calls in recorded.items():
            stored = [
                f
                for f in fixtures
                if f.provenance.get("model") == model
                and f.provenance.get("runtime_estimator") == estimator
            ]
            cases = [Case(call.memory, call.runtime, call.max_memory) for call in calls]
            rows += [compare(model, budget, estimator, case, stored) for case in cases]
            rows += [
                DriftRow(model, budget, estimator, "missing", f.case.n, None)
                for f in stored
                if f.provenance.get("budget") == budget and f.case not in cases
            ]
    return rows


def drifted(rows: Sequence[DriftRow]) -> bool:
    """Whether any checked call differs from the fixtures."""
    return any(row.status != "same" for row in rows)
