"""torch's knee-point search with its per-budget overhead hoisted out of the loop.

``activation_memory_budget_solver="dynamic_memory_budget_dp"`` runs
``KnapsackEvaluator.get_knee_point_memory_budget``
(``torch/_functorch/_activation_checkpointing/knapsack_evaluator.py``): for
each of 100 budgets ``b_j`` it solves the knapsack and, per answer, sums the
runtimes of the recomputed items, the memories of the saved ones, and (twice
per budget) the memories and runtimes of *all* items for the normalisation.
With one :class:`~knapsack_audit.optimized.integration.FrontierSolver` the
solves are cheap, and those O(n) sums and the output checks are most of the
search's time.

:class:`FrontierKnapsackEvaluator` is torch's class with one method replaced:
:meth:`~FrontierKnapsackEvaluator.evaluate_distribution_of_results_for_knapsack_algo`
computes the whole-graph totals once per search, reads the per-node memories
and runtimes from lists instead of two dictionary look-ups per item, and sums
in the same order from the same start (``sum`` of the items in the order the
solver returned them), so every result dict is equal, float for float, to
torch's (``tests/test_multi_budget.py`` checks it on golden calls); the knee
itself is still torch's own code. When the solver is a ``FrontierSolver``
the frontier is built once for the largest budget of the search.

Equivalent to, but faster than, ``KnapsackEvaluator`` (the only override is
that method; ``evaluate_knapsack_output`` with the backward-pass simulation is
untouched).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from torch._functorch._activation_checkpointing.graph_info_provider import GraphInfoProvider
from torch._functorch._activation_checkpointing.knapsack_evaluator import KnapsackEvaluator

Solver = Callable[[list[float], list[float], float], tuple[float, list[int], list[int]]]


def knee_budgets(
    max_mem_budget: float, min_mem_budget: float = 0.001, iterations: int = 100
) -> list[float]:
    """The budgets ``KnapsackEvaluator.get_knee_point_memory_budget`` evaluates,
    by its formula and with its defaults (torch 2.13)."""
    return [
        min_mem_budget + i * (max_mem_budget - min_mem_budget) / (iterations - 1)
        for i in range(iterations)
    ]


def evaluator_for_call(
    memory: list[float],
    runtime: list[float],
    evaluator_class: type[KnapsackEvaluator] = KnapsackEvaluator,
) -> KnapsackEvaluator:
    """torch's evaluator for one recorded knapsack call, built as the partitioner
    builds it (``recorded_knapsack_input_*``, one graph node per item, no
    edges): what benchmarks and tests run the knee search on."""
    names = [f"n{i}" for i in range(len(memory))]
    provider = GraphInfoProvider(
        graph_nodes_in_order=names,
        graph_edges=[],
        all_recomputable_banned_nodes=names,
        recorded_knapsack_input_memories=memory,
        recorded_knapsack_input_runtimes=runtime,
    )
    return evaluator_class(graph_info_provider=provider)


class FrontierKnapsackEvaluator(KnapsackEvaluator):
    """``KnapsackEvaluator`` whose per-budget evaluation does O(answer) work."""

    def evaluate_distribution_of_results_for_knapsack_algo(
        self, knapsack_algo: Solver, memory_budget_values: list[float]
    ) -> list[dict[str, float]]:
        """The list torch's method returns, entry for entry.

        torch computes, per budget, ``sum`` over the recomputed indices of
        ``all_node_runtimes[node]`` and over the saved ones of
        ``all_node_memories[node]``, and calls ``get_non_ac_peak_memory()`` and
        ``get_theoretical_max_runtime()`` (sums over a set, the same set every
        time, so the same value). Here those two totals are taken once and
        the per-item values come from lists in node order.
        """
        provider = self._graph_info_provider
        memory = provider.get_knapsack_memory_input()
        runtime = provider.get_knapsack_runtime_input()
        prepare = getattr(knapsack_algo, "prepare", None)
        if prepare is not None and memory_budget_values:
            prepare(memory, runtime, max(memory_budget_values))
        names = provider.all_recomputable_banned_nodes
        node_runtimes = [provider.all_node_runtimes[name] for name in names]
        node_memories = [provider.all_node_memories[name] for name in names]
        non_ac_peak_memory = provider.get_non_ac_peak_memory()
        theoretical_max_runtime = provider.get_theoretical_max_runtime()
        results: list[dict[str, Any]] = []
        for memory_budget in memory_budget_values:
            _, saved, recomputed = knapsack_algo(memory, runtime, memory_budget)
            self._validate_all_indexes_accounted_for_in_provided_output(saved, recomputed)
            recomputation_runtime = sum(_values_at(node_runtimes, recomputed))
            peak_memory = sum(_values_at(node_memories, saved))
            results.append(
                {
                    "peak_memory": peak_memory,
                    "recomputation_runtime": recomputation_runtime,
                    "non_ac_peak_memory": non_ac_peak_memory,
                    "theoretical_max_runtime": theoretical_max_runtime,
                    "percentage_of_theoretical_peak_memory": peak_memory / non_ac_peak_memory,
                    "percentage_of_theoretical_peak_runtime": recomputation_runtime
                    / theoretical_max_runtime,
                    "memory_budget": memory_budget,
                }
            )
        return results


def _values_at(values: list[float], indices: Sequence[int]) -> list[float]:
    return list(map(values.__getitem__, indices))
