"""SPEC 8.6: the process-wide settings the worker reads around every call."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from knapsack_audit import process_state
from knapsack_audit.isolation import ChangedSettings, IsolatedSolver
from knapsack_audit.targets import parse_target


def test_each_setting_changed_is_named_and_put_back() -> None:
    """SPEC 8.6: each setting a call changes is named, with its old and new
    value (a generator's state only as drawn from), and put back."""
    before = process_state.snapshot()
    assert process_state.changes(before) == []
    limit = sys.getrecursionlimit()
    torch.set_default_dtype(torch.float64)
    torch.set_num_threads(torch.get_num_threads() + 1)
    torch.set_flush_denormal(True)
    torch.rand(1)
    random.random()
    old_errors = np.seterr(all="raise")
    sys.setrecursionlimit(limit + 7)
    try:
        changed = process_state.changes(before)
    finally:
        process_state.restore(before)
    assert "torch's default dtype from torch.float32 to torch.float64" in changed
    assert any(c.startswith("torch's intra-op threads") for c in changed)
    assert "torch's flush-denormal mode from False to True" in changed
    assert any(c.startswith("torch's random generator state") for c in changed)
    assert any(c.startswith("Python's random generator state") for c in changed)
    assert any(c.startswith("numpy's floating-point error handling") for c in changed)
    assert f"Python's recursion limit from {limit} to {limit + 7}" in changed
    assert len(changed) == 7
    assert process_state.changes(before) == []
    assert torch.get_default_dtype() == torch.float32
    assert np.geterr() == old_errors
    assert sys.getrecursionlimit() == limit


LAZY_IMPORT = """
import sys
from knapsack_audit import process_state
assert "torch" not in sys.modules
before = process_state.snapshot()
import torch  # what a solver that imports torch on its first call does
torch.set_flush_denormal(True)
torch.set_default_dtype(torch.float64)
print(process_state.changes(before))
process_state.restore(before)
print(process_state.changes(before), torch.get_default_dtype())
"""


def test_a_call_that_imports_torch_is_compared_with_a_fresh_import() -> None:
    """SPEC 8.6: a solver that imports torch on its first call and leaves a
    setting changed is seen on that call (its before-state had no torch);
    the planted twin ``flush_denormal_left_on_from_512_items`` was found
    only in a later fresh worker until this (50.6 s, session 24)."""
    run = subprocess.run(
        [sys.executable, "-c", LAZY_IMPORT], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    first, second = run.stdout.splitlines()
    assert "torch's flush-denormal mode from False to True" in first
    assert "torch's default dtype from torch.float32 to torch.float64" in first
    assert second == "[] torch.float32"


RESETS = Path(__file__).parent / "fixtures" / "hostile_solvers" / "resets_settings_to_defaults.py"


def test_a_call_of_odd_items_is_made_by_a_caller_of_other_settings() -> None:
    """SPEC 8.6: a call leaves the settings as it found them, not as their
    defaults. The worker makes each call of an odd number of items under
    ``process_state.UNUSUAL_CALLER`` (and puts its own settings back after):
    a solver that sets torch's matmul precision and numpy's error handling
    to their defaults changes them there, and is named; under the defaults
    (an even number of items) it changes nothing. A correct solver answers
    both alike."""
    (resets,) = parse_target(f"{RESETS}:solver")
    with IsolatedSolver(resets) as solver:
        assert solver([1e-4, 2e-4], [1.0, 3.0], 2e-4) == (3.0, [1], [0])
        with pytest.raises(ChangedSettings) as raised:
            solver([1e-4, 2e-4, 1e-4], [1.0, 3.0, 1.0], 2e-4)
        assert "torch's float32 matmul precision from 'high' to 'highest'" in str(raised.value)
        assert (
            "numpy's floating-point error handling from "
            "{'divide': 'warn', 'over': 'warn', 'under': 'warn', 'invalid': 'warn'} "
            "to {'divide': 'warn', 'over': 'warn', 'under': 'ignore', 'invalid': 'warn'}"
        ) in str(raised.value)
        assert solver([1e-4, 2e-4], [1.0, 3.0], 2e-4) == (3.0, [1], [0])
    (ours,) = parse_target("knapsack_audit.reference:dp_knapsack")
    with IsolatedSolver(ours) as solver:
        assert solver([1e-4, 2e-4, 1e-4], [1.0, 3.0, 1.0], 2e-4) == (3.0, [1], [2, 0])
