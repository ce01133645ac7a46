"""SPEC 4.2 and 6 for the reference solver: the canonical selection on hand-derived ties.

Everything the reference shares with our other solvers (SPEC 1, 2, 3, 7, 8
and the exhaustive scope, where it must also be canonical) is in the
contract suite, tests/test_contract.py.
"""

from __future__ import annotations

import pytest

from knapsack_audit.reference import dp_knapsack


@pytest.mark.parametrize(
    ("memory", "runtime", "budget", "saved"),
    [
        # Equal items: leave out the highest indices (SPEC 6.1).
        ([1e-4] * 3, [1.0] * 3, 1e-4, [0]),
        ([1e-4] * 3, [1.0] * 3, 2e-4, [0, 1]),
        # Item 2 alone ties with items 0 + 1: keep the lower indices.
        ([1e-4, 1e-4, 2e-4], [1.0, 1.0, 2.0], 2e-4, [0, 1]),
        # Zero runtime never saved, even when it fits (SPEC 4.2).
        ([0.0, 1e-4], [0.0, 0.0], 1.0, []),
        # Zero weight, positive runtime: always saved (SPEC 4.2).
        ([0.0, 5e-4], [0.5, 1.0], 0.0, [0]),
        # Negative runtime never saved, even at zero weight (SPEC 4.2).
        ([0.0, 0.0, 1e-4], [-1.0, 2.0, -3.0], 1.0, [1]),
    ],
)
def test_tie_rule_and_nonpositive_runtimes(memory, runtime, budget, saved):
    """SPEC 4.2 and 6.1 on hand-derived cases."""
    assert dp_knapsack(memory, runtime, budget)[1] == saved
