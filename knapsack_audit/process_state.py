"""The process-wide settings a call must leave as it found them (SPEC 8.6).

The partitioner calls the solver inside the compiler's own process: a solver
that switches torch's default dtype to float64 "for a precise table" and does
not switch it back makes every later tensor of that process float64, its own
later tables included, so one call's answer depends on the calls before it
(SPEC 8.1). The audit's worker (:mod:`knapsack_audit.isolation`) reads these
settings before and after every call (:func:`snapshot`); a change is a
finding, and the worker puts the settings back (:func:`restore`), so the
calls after it run as the first one did.

Read, each in a microsecond or less but torch's default device and
flush-denormal mode (about 3 us each) and Python's generator (about 9 us;
about 45 us a call in all): torch's default dtype and device, grad mode,
deterministic algorithms (and warn-only), intra-op threads, float32 matmul
precision, flush-denormal mode (no getter: read by whether a float32
subnormal survives), the CPU random generator's state; Python's global
random generator (a solver that draws from it, ``random.sample`` say,
shifts the caller's random stream); numpy's floating-point error handling;
Python's recursion limit. torch's settings are read once torch is imported; a call that
imports torch itself is compared with torch's settings as ``import torch``
leaves them (:attr:`Setting.fresh`). numpy's global random generator is not
read (about 35 us a read).
"""

from __future__ import annotations

import contextlib
import functools
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Setting:
    """One process-wide setting: how to read it, and how to put it back."""

    name: str
    read: Callable[[], Any]
    write: Callable[[Any], None]
    same: Callable[[Any, Any], bool] = lambda a, b: bool(a == b)
    fresh: Callable[[], Any] | None = None
    """Its value as ``import torch`` leaves it, where it has one: what a call
    that imports torch itself is compared with."""
    shown: bool = True
    """Whether a finding prints its values (a generator's state is not)."""


def _torch_settings() -> list[Setting]:
    torch = sys.modules.get("torch")
    if torch is None:
        return []

    def flush_denormal() -> bool:
        return bool(torch.tensor(2.0**-140, dtype=torch.float32, device="cpu").item() == 0.0)

    def deterministic() -> tuple[bool, bool]:
        return (
            torch.are_deterministic_algorithms_enabled(),
            torch.is_deterministic_algorithms_warn_only_enabled(),
        )

    # Threads (set from the environment) and the generator (seeded at random
    # per process) have no value a fresh import is known to leave.
    return [
        Setting(
            "torch's default dtype",
            torch.get_default_dtype,
            torch.set_default_dtype,
            fresh=lambda: torch.float32,
        ),
        Setting(
            "torch's default device",
            torch.get_default_device,
            torch.set_default_device,
            fresh=lambda: torch.device("cpu"),
        ),
        Setting(
            "torch's grad mode", torch.is_grad_enabled, torch.set_grad_enabled, fresh=lambda: True
        ),
        Setting(
            "torch's deterministic algorithms (enabled, warn only)",
            deterministic,
            lambda value: torch.use_deterministic_algorithms(value[0], warn_only=value[1]),
            fresh=lambda: (False, False),
        ),
        Setting("torch's intra-op threads", torch.get_num_threads, torch.set_num_threads),
        Setting(
            "torch's float32 matmul precision",
            torch.get_float32_matmul_precision,
            torch.set_float32_matmul_precision,
            fresh=lambda: "highest",
        ),
        Setting(
            "torch's flush-denormal mode",
            flush_denormal,
            torch.set_flush_denormal,
            fresh=lambda: False,
        ),
        Setting(
            "torch's random generator state",
            torch.get_rng_state,
            torch.set_rng_state,
            same=lambda a, b: bool(torch.equal(a, b)),
            shown=False,
        ),
    ]


def _set_numpy_errors(value: Any) -> None:
    np.seterr(**value)


@functools.cache
def _settings(torch_loaded: bool) -> list[Setting]:
    """The settings to read; torch's once torch is imported."""
    return [
        *(_torch_settings() if torch_loaded else []),
        Setting("Python's random generator state", random.getstate, random.setstate, shown=False),
        Setting("numpy's floating-point error handling", np.geterr, _set_numpy_errors),
        Setting("Python's recursion limit", sys.getrecursionlimit, sys.setrecursionlimit),
    ]


Snapshot = list[tuple[Setting, Any]]


def snapshot() -> Snapshot:
    """Every setting's value now (one that cannot be read is left out)."""
    taken = []
    for setting in _settings("torch" in sys.modules):
        try:
            taken.append((setting, setting.read()))
        except Exception:  # the process is already broken; not this call's doing
            continue
    return taken


def _as_of(before: Snapshot) -> Snapshot:
    """``before``, and torch's settings as a fresh import leaves them when
    torch was imported by the call itself (a solver that imports it
    lazily and changes a setting on its first call)."""
    if "torch" not in sys.modules or any(setting.fresh for setting, _ in before):
        return before
    fresh = [(setting, setting.fresh()) for setting in _settings(True) if setting.fresh]
    return [*before, *fresh]


def changes(before: Snapshot) -> list[str]:
    """The settings of ``before`` that differ now, each said as
    ``"NAME from OLD to NEW"`` (a generator's state is not printed), or as
    unreadable."""
    changed = []
    for setting, old in _as_of(before):
        try:
            new = setting.read()
        except Exception as error:
            changed.append(f"{setting.name} (it cannot be read now: {type(error).__name__})")
            continue
        if not setting.same(old, new):
            if setting.shown:
                changed.append(f"{setting.name} from {old!r} to {new!r}")
            else:
                changed.append(f"{setting.name} (the call drew from it or reseeded it)")
    return changed


UNUSUAL_CALLER = {
    "torch's grad mode": False,
    "torch's float32 matmul precision": "high",
    "numpy's floating-point error handling": {
        "divide": "warn",
        "over": "warn",
        "under": "warn",
        "invalid": "warn",
    },
    "Python's recursion limit": 4000,
}
"""Settings of a caller other than the defaults, that change no correct
solver's answer: grad mode off (the partitioner runs under ``no_grad``),
TF32-class matmuls allowed, numpy's underflows warned of (the default
ignores them; the others keep their default, so that a call that silences
one is still seen), a deeper recursion limit. A solver that "puts a
setting back" to its default, not to the value it found, changes them
(SPEC 8.6); under the defaults it changes
nothing a caller could see (a blind bug reset the matmul precision to
``"highest"``, session 32)."""


def as_unusual_caller() -> Snapshot:
    """Set :data:`UNUSUAL_CALLER`'s values (torch's once torch is imported);
    return those settings as they were, for :func:`restore` (only those: a
    whole :func:`snapshot` reads the generators' states too, several times
    the cost)."""
    before = []
    for setting in _settings("torch" in sys.modules):
        if setting.name in UNUSUAL_CALLER:
            with contextlib.suppress(Exception):  # a setting a solver broke stays so
                before.append((setting, setting.read()))
                setting.write(UNUSUAL_CALLER[setting.name])
    return before


def restore(before: Snapshot) -> None:
    """Put every setting of ``before`` back (torch's as a fresh import left
    them, if the call imported it); one that cannot be written is left."""
    for setting, old in _as_of(before):
        try:
            if not setting.same(old, setting.read()):
                setting.write(old)
        except Exception:  # a setting the solver broke stays broken
            continue
