"""Shared test set-up: the Hypothesis profile (``HYPOTHESIS_PROFILE``, default ``ci``)."""

from knapsack_audit.profiles import load_from_environment

load_from_environment()
