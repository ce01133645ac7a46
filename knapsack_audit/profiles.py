"""Hypothesis profiles, registered in one place and chosen by ``HYPOTHESIS_PROFILE``.

* ``ci``: deterministic (derandomized, no example database), bounded.
* ``dev``: random, keeps the example database, a little more effort.
* ``nightly``: a long fuzzing campaign.
* ``crosshair``: the hypothesis-crosshair backend (symbolic execution);
  only for the pure-Python properties that it can run.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILES = ("ci", "dev", "nightly", "crosshair")
_BASE = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def register() -> None:
    """Register every profile with Hypothesis."""
    settings.register_profile(
        "ci", _BASE, max_examples=100, derandomize=True, database=None, print_blob=True
    )
    settings.register_profile("dev", _BASE, max_examples=300)
    settings.register_profile("nightly", _BASE, max_examples=20000)
    settings.register_profile("crosshair", _BASE, backend="crosshair", max_examples=60)


def load_from_environment(default: str = "ci") -> str:
    """Register the profiles and load ``$HYPOTHESIS_PROFILE`` (else ``default``)."""
    register()
    name = os.environ.get("HYPOTHESIS_PROFILE", default)
    if name not in PROFILES:
        raise ValueError(f"HYPOTHESIS_PROFILE must be one of {PROFILES}, got {name!r}")
    settings.load_profile(name)
    return name
