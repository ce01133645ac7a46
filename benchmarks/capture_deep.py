"""Capture knapsack calls of deep transformer stacks as benchmark input data.

The golden zoo's models are small; real partitioner calls on deep models have
hundreds of items of a few units each, from repeated blocks. This
compiles the zoo's ``Transformer`` (``Block`` stacks, width 32, 4 heads) at
depths 48 and 96 under the ``flops`` estimator and records every knapsack
call, with the golden fixtures' provenance and exact optimum, into
``benchmarks/data/deep_transformer-flops.json.gz`` (the format of
:mod:`knapsack_audit.golden.fixtures`, so :func:`~knapsack_audit.golden.fixtures.load`
reads it)::

    python -m benchmarks.capture_deep
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from knapsack_audit.golden import fixtures
from knapsack_audit.golden.capture import capture_sweep, file_records
from knapsack_audit.golden.models import ModelSpec, Transformer

DATA_DIRECTORY = Path(__file__).resolve().parent / "data"
DEPTH_BUDGETS = {48: (0.1, 0.3, 0.5), 96: (0.1, 0.5)}
"""Depths and budgets captured (each depth compiles once per budget)."""


def main() -> None:
    command = "python -m benchmarks.capture_deep " + " ".join(sys.argv[1:])
    records = []
    for depth, budgets in DEPTH_BUDGETS.items():
        spec = ModelSpec(
            f"deep_transformer_{depth}", partial(Transformer, 32, 4, depth), ((4, 16, 32),)
        )
        recorded = capture_sweep(spec, [(budget, "flops") for budget in budgets])
        records += file_records(spec, "flops", recorded, command.strip())
        print(f"depth {depth}: {len(records)} calls so far", flush=True)
    DATA_DIRECTORY.mkdir(exist_ok=True)
    path = fixtures.write_file(DATA_DIRECTORY / "deep_transformer-flops", records)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
