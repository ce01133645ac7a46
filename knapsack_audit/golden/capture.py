"""Capture every knapsack call the min-cut partitioner makes while compiling the zoo.

The partitioner (``torch/_functorch/partitioners.py``,
``_optimize_runtime_with_given_memory``) calls the solver through the module
global it imported by name, ``dp_knapsack`` for the default solver ``"dp"``.
:func:`record_solver_calls` replaces that global with a recorder that copies
the three arguments, calls the original and records its answer, so the
compilation proceeds exactly as it would without us.

:func:`capture_model` compiles one zoo model with
``torch.compile(model, backend="aot_eager_decomp_partition")`` under
``torch._functorch.config.patch(activation_memory_budget=b,
activation_memory_budget_runtime_estimator=est)`` and runs forward and
backward. The AOT autograd cache is disabled, and ``torch._dynamo.reset()``
runs before every compilation, so every compilation partitions afresh.

:func:`capture_sweep` gets the same calls for many budgets and estimators from
one compilation: the partitioner's choice of saved values is made once per
setting on each joint graph (:func:`sweep_partitions`). Only that choice
reads ``activation_memory_budget`` and the runtime estimator, so the calls
are those of separate compilations (``tests/test_golden.py`` checks this
against :func:`capture_model`); a 48-block model is traced once instead of
fourteen times.
"""

from __future__ import annotations

import contextlib
import datetime
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import Any

import torch
import torch._dynamo
from torch._functorch import config as functorch_config
from torch._functorch import partitioners
from torch.utils._ordered_set import OrderedSet

from knapsack_audit.cases import Case
from knapsack_audit.golden import fixtures
from knapsack_audit.golden.models import ZOO, ModelSpec
from knapsack_audit.optimized.integration import patch_partitioner

BUDGETS: tuple[float, ...] = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9)
"""The activation memory budgets every model is compiled with."""

ESTIMATORS: tuple[str, ...] = ("flops", "testing")
"""The runtime estimators (``activation_memory_budget_runtime_estimator``)."""

BACKEND = "aot_eager_decomp_partition"
"""The torch.compile backend: AOT autograd with decompositions and the min-cut partitioner."""


@dataclass(frozen=True)
class RecordedCall:
    """One solver call as the partitioner made it, and upstream's answer.

    ``memory`` and ``runtime`` are the values exactly as passed (floats, and
    ints for the ``flops`` and ``testing`` estimators).
    """

    memory: tuple[float, ...]
    runtime: tuple[float, ...]
    max_memory: float
    value: float
    saved: tuple[int, ...]
    recomputable: tuple[int, ...]


SolverFunction = Callable[[list[float], list[float], float], tuple[float, list[int], list[int]]]


@contextlib.contextmanager
def record_solver_calls(name: str = "dp_knapsack") -> Iterator[list[RecordedCall]]:
    """Record every call the partitioner makes to its solver global ``name``.

    Yields the list the calls are appended to, in call order. The original
    global is restored on exit, even after an error.
    """
    original: SolverFunction = getattr(partitioners, name)
    calls: list[RecordedCall] = []

    def recorder(
        memory: list[float], runtime: list[float], max_memory: float
    ) -> tuple[float, list[int], list[int]]:
        arguments = (tuple(memory), tuple(runtime), max_memory)
        value, saved, recomputable = original(memory, runtime, max_memory)
        calls.append(RecordedCall(*arguments, float(value), tuple(saved), tuple(recomputable)))
        return value, saved, recomputable

    with patch_partitioner(**{name: recorder}):
        yield calls


def compile_and_step(spec: ModelSpec, backend: str = BACKEND) -> tuple[torch.Tensor, ...]:
    """Compile the model afresh, run forward and backward; return the gradients.

    Gradients are returned in parameter order, then input order, so callers
    can compare them with an eager run (:func:`eager_step`).
    """
    torch._dynamo.reset()
    module, inputs = spec.instantiate()
    inputs = tuple(x.requires_grad_() for x in inputs)
    compiled = torch.compile(module, backend=backend)
    torch.manual_seed(1)
    compiled(*inputs).sum().backward()
    return _gradients(module, inputs)


def eager_step(spec: ModelSpec) -> tuple[torch.Tensor, ...]:
    """The same step as :func:`compile_and_step`, without compilation."""
    module, inputs = spec.instantiate()
    inputs = tuple(x.requires_grad_() for x in inputs)
    torch.manual_seed(1)
    module(*inputs).sum().backward()
    return _gradients(module, inputs)


def _gradients(
    module: torch.nn.Module, inputs: tuple[torch.Tensor, ...]
) -> tuple[torch.Tensor, ...]:
    tensors = [*module.parameters(), *inputs]
    return tuple(
        torch.zeros_like(t) if t.grad is None else t.grad.detach().clone() for t in tensors
    )


def budget_config(budget: float, estimator: str) -> contextlib.AbstractContextManager[Any]:
    """The functorch config under which the partitioner solves the knapsack."""
    return functorch_config.patch(  # type: ignore[no-any-return]
        activation_memory_budget=budget,
        activation_memory_budget_runtime_estimator=estimator,
        activation_memory_budget_solver="dp",
        enable_autograd_cache=False,
    )


def capture_model(spec: ModelSpec, budget: float, estimator: str) -> list[RecordedCall]:
    """Every knapsack call made while compiling ``spec`` at one budget and estimator."""
    with budget_config(budget, estimator), record_solver_calls() as calls:
        compile_and_step(spec)
    torch._dynamo.reset()
    return calls


def provenance(spec: ModelSpec, budget: float, estimator: str, command: str) -> dict[str, Any]:
    """The provenance fields of one captured call (fixtures.PROVENANCE_FIELDS)."""
    return {
        "torch_version": torch.__version__,
        "model": spec.name,
        "input_shapes": [list(shape) for shape in spec.input_shapes],
        "budget": budget,
        "runtime_estimator": estimator,
        "captured_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": command,
        "backend": BACKEND,
    }


Setting = tuple[float, str]
"""``(activation_memory_budget, runtime estimator)``."""


@contextlib.contextmanager
def sweep_partitions(settings: Sequence[Setting]) -> Iterator[dict[Setting, list[RecordedCall]]]:
    """Also choose the saved values of every joint graph compiled meanwhile under each setting.

    Wraps the partitioner's module global ``choose_saved_values_set`` (the
    function that calls the knapsack). For each setting it runs the original
    under :func:`budget_config` with that budget on the same joint graph and
    appends the solver calls to that setting's list; then it makes the
    compilation's own choice, so the compilation proceeds unchanged.

    The three min cuts that do not depend on the knapsack's answer
    (``solve_min_cut`` without ``dont_ban``; they read neither the budget nor
    the estimator) are computed once per graph and reused across settings:
    they are most of the partitioner's time on a deep model.
    """
    original_choose = partitioners.choose_saved_values_set
    original_min_cut = partitioners.solve_min_cut
    recorded: dict[Setting, list[RecordedCall]] = {setting: [] for setting in settings}

    def sweeping(joint_graph: Any, node_info: Any, memory_budget: float = 1) -> Any:
        cuts: dict[tuple[Any, ...], tuple[list[torch.fx.Node], OrderedSet[torch.fx.Node]]] = {}

        def reused_min_cut(
            joint_graph: torch.fx.Graph,
            node_info: partitioners.NodeInfo,
            min_cut_options: partitioners.MinCutOptions,
            dont_ban: OrderedSet[torch.fx.Node] | None = None,
        ) -> tuple[list[torch.fx.Node], OrderedSet[torch.fx.Node]]:
            if dont_ban:
                return original_min_cut(joint_graph, node_info, min_cut_options, dont_ban)
            key = astuple(min_cut_options)
            if key not in cuts:
                cuts[key] = original_min_cut(joint_graph, node_info, min_cut_options)
            return cuts[key]

        with patch_partitioner(solve_min_cut=reused_min_cut):
            for budget, estimator in settings:
                with budget_config(budget, estimator), record_solver_calls() as calls:
                    original_choose(joint_graph, node_info, memory_budget=budget)
                recorded[(budget, estimator)] += calls
        return original_choose(joint_graph, node_info, memory_budget)

    with patch_partitioner(choose_saved_values_set=sweeping):
        yield recorded


def capture_sweep(
    spec: ModelSpec, settings: Sequence[Setting]
) -> dict[Setting, list[RecordedCall]]:
    """Every knapsack call of ``spec`` under each setting, from one compilation."""
    with (
        functorch_config.patch(enable_autograd_cache=False),
        sweep_partitions(settings) as recorded,
    ):
        compile_and_step(spec)
    torch._dynamo.reset()
    return recorded


def file_records(
    spec: ModelSpec,
    estimator: str,
    recorded: dict[Setting, list[RecordedCall]],
    command: str,
) -> list[dict[str, Any]]:
    """The deduplicated fixture records of one model and estimator, budgets in sweep order."""
    captured: list[tuple[Case, dict[str, Any], tuple[float, list[int], list[int]]]] = []
    for (budget, setting_estimator), calls in recorded.items():
        if setting_estimator != estimator:
            continue
        origin = provenance(spec, budget, estimator, command)
        for call in calls:
            captured.append(
                (
                    Case(call.memory, call.runtime, call.max_memory),
                    origin,
                    (call.value, list(call.saved), list(call.recomputable)),
                )
            )
    return [
        fixtures.call_record(case, origin, answer, occurrences)
        for case, origin, answer, occurrences in fixtures.deduplicate(captured)
    ]


def capture_all(
    directory: Path,
    command: str,
    models: Sequence[ModelSpec] = ZOO,
    estimators: Sequence[str] = ESTIMATORS,
    log: Callable[[str], None] = print,
) -> list[Path]:
    """Capture every model at every budget and estimator; one fixture file per (model, estimator).

    Each model is compiled once (:func:`capture_sweep`); ``log`` gets the
    capture time per model (tests/golden/README.md records them).
    """
    directory.mkdir(parents=True, exist_ok=True)
    settings = [(budget, estimator) for estimator in estimators for budget in BUDGETS]
    written = []
    for spec in models:
        started = time.perf_counter()
        recorded = capture_sweep(spec, settings)
        elapsed = time.perf_counter() - started
        for estimator in estimators:
            records = file_records(spec, estimator, recorded, command)
            path = fixtures.write_file(directory / f"{spec.name}-{estimator}", records)
            sizes = sorted({len(record["memory"]) for record in records})
            log(f"{path.name}: {len(records)} calls, items {sizes}")
            written.append(path)
        log(f"{spec.name}: captured in {elapsed:.1f} s")
    return written


@dataclass
class Decision:
    """One partitioner decision: the knapsack calls it made and the values it saved.

    ``calls`` are ``(case, saved, recomputable)`` per knapsack call made while
    choosing; ``saved_values`` are the names of the forward outputs saved for
    backward (the partitioner's decision), in the partitioner's order.
    """

    calls: list[tuple[Case, tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    saved_values: list[str] = field(default_factory=list)


@contextlib.contextmanager
def record_decisions() -> Iterator[list[Decision]]:
    """Record every ``choose_saved_values_set`` decision and its knapsack calls.

    Wraps the partitioner's module globals ``choose_saved_values_set`` and
    ``_optimize_runtime_with_given_memory`` (whatever they are on entry, so a
    solver installed by another context manager entered first is recorded
    too), whichever solver the configuration selects.
    """
    decisions: list[Decision] = []
    original_choose = partitioners.choose_saved_values_set
    original_optimize = partitioners._optimize_runtime_with_given_memory

    def choose(*arguments: Any, **keywords: Any) -> Any:
        decision = Decision()
        decisions.append(decision)
        saved = original_choose(*arguments, **keywords)
        decision.saved_values = [node.name for node in saved]
        return saved

    def optimize(
        joint_graph: Any, memory: list[float], runtimes: list[float], max_memory: float, *rest: Any
    ) -> tuple[float, list[int], list[int]]:
        case = Case.of(memory, runtimes, max_memory)
        value, saved, recomputable = original_optimize(
            joint_graph, memory, runtimes, max_memory, *rest
        )
        decisions[-1].calls.append((case, tuple(saved), tuple(recomputable)))
        return value, saved, recomputable

    with patch_partitioner(
        choose_saved_values_set=choose, _optimize_runtime_with_given_memory=optimize
    ):
        yield decisions
