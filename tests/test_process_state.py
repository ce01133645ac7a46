"""SPEC 8.6: the process-wide settings the worker reads around every call."""

from __future__ import annotations

import sys

import numpy as np
import torch

from knapsack_audit import process_state


def test_each_setting_changed_is_named_and_put_back() -> None:
    before = process_state.snapshot()
    assert process_state.changes(before) == []
    limit = sys.getrecursionlimit()
    torch.set_default_dtype(torch.float64)
    torch.set_num_threads(torch.get_num_threads() + 1)
    torch.set_flush_denormal(True)
    torch.rand(1)
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
    assert any(c.startswith("numpy's floating-point error handling") for c in changed)
    assert f"Python's recursion limit from {limit} to {limit + 7}" in changed
    assert len(changed) == 6
    assert process_state.changes(before) == []
    assert torch.get_default_dtype() == torch.float32
    assert np.geterr() == old_errors
    assert sys.getrecursionlimit() == limit
