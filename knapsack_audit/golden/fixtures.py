"""Golden fixtures: knapsack calls captured from real compilations, stored exactly.

One file per (model, runtime estimator), ``<model>-<estimator>.json`` (or
``.json.gz`` when large), in the package data folder ``knapsack_audit/golden/data``
(read through :mod:`importlib.resources`, so the same files are found in a
source checkout and in an installed wheel). A file holds
``{"format": 1, "calls": [...]}``; each call (one *fixture*) is::

    {
      "provenance": {"torch_version", "model", "input_shapes", "budget",
                     "runtime_estimator", "captured_at", "command", "backend"},
      "memory": [...], "runtime": [...], "max_memory": ...,
      "quantized_budget": Q,              # round(max_memory * 10000), SPEC 2.1
      "optimum": "p/q",                   # exact oracle optimum, SPEC 3.2
      "upstream": {"value", "saved", "recomputable"},   # what dp_knapsack returned
      "occurrences": k                    # identical calls merged into this one
    }

Floats are written by :mod:`json`, which uses ``repr`` and therefore
round-trips every float64 exactly; the ``flops`` and ``testing`` estimators
give integer runtimes, and they stay integers. Identical calls (same
``memory``, ``runtime`` and ``max_memory``) are stored once.
"""

from __future__ import annotations

import gzip
import importlib.resources
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from knapsack_audit.cases import Case
from knapsack_audit.reference import exact_optimum, quantize

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:
    from importlib.abc import Traversable

FORMAT = 1
PROVENANCE_FIELDS: tuple[str, ...] = (
    "torch_version",
    "model",
    "input_shapes",
    "budget",
    "runtime_estimator",
    "captured_at",
    "command",
    "backend",
)
"""Every fixture records all of these (tests/golden/README.md explains each)."""

GZIP_THRESHOLD_BYTES = 256 * 1024
"""Files whose JSON exceeds this size are written gzip-compressed."""


DATA_PACKAGE = "knapsack_audit.golden"
DATA_FOLDER = "data"


def default_directory() -> Traversable:
    """The fixtures shipped with the package: ``knapsack_audit/golden/data``.

    Found through :func:`importlib.resources.files`, so it works from a source
    checkout (an editable install maps the package to the checkout) and from
    an installed wheel alike.
    """
    return importlib.resources.files(DATA_PACKAGE) / DATA_FOLDER


def writable_directory() -> Path:
    """:func:`default_directory` as a file-system path, for the commands that write fixtures.

    Raises ``RuntimeError`` when the package is not on the file system (a
    zipped install), where fixtures can only be read.
    """
    directory = default_directory()
    if not isinstance(directory, Path):
        raise RuntimeError(f"the fixture folder {directory} is not on the file system; use --out")
    return directory


@dataclass(frozen=True)
class Fixture:
    """One distinct solver call, its provenance and its recorded answers."""

    case: Case
    provenance: dict[str, Any]
    quantized_budget: int
    optimum: Fraction
    upstream_value: float
    upstream_saved: tuple[int, ...]
    upstream_recomputable: tuple[int, ...]
    occurrences: int
    source: str

    @property
    def name(self) -> str:
        """A short test id: ``<file>[<budget>]#<n>``."""
        return f"{self.source}[b={self.provenance.get('budget')}]#n={self.case.n}"


def format_fraction(value: Fraction) -> str:
    """``"p/q"`` always (``"3/1"``, not ``"3"``), so the field has one shape."""
    return f"{value.numerator}/{value.denominator}"


def parse_fraction(text: str) -> Fraction:
    """Inverse of :func:`format_fraction`; rejects anything but ``"p/q"``."""
    numerator, slash, denominator = text.partition("/")
    if not slash:
        raise ValueError(f"optimum must be written 'p/q', got {text!r}")
    return Fraction(int(numerator), int(denominator))


def call_record(
    case: Case,
    provenance: dict[str, Any],
    upstream: tuple[float, Sequence[int], Sequence[int]],
    occurrences: int = 1,
) -> dict[str, Any]:
    """The JSON record of one call; computes the exact optimum with the oracle."""
    value, saved, recomputable = upstream
    return {
        "provenance": provenance,
        "memory": list(case.memory),
        "runtime": list(case.runtime),
        "max_memory": case.max_memory,
        "quantized_budget": quantize(float(case.max_memory)),
        "optimum": format_fraction(exact_optimum(*case.arguments()).value),
        "upstream": {"value": value, "saved": list(saved), "recomputable": list(recomputable)},
        "occurrences": occurrences,
    }


def write_file(path_stem: Path, records: Sequence[dict[str, Any]]) -> Path:
    """Write ``records`` to ``<stem>.json``, or ``<stem>.json.gz`` when large.

    One call per line, so a re-capture shows as a per-call diff. Any stale
    file under the other name is removed. Gzip output sets mtime 0, so the
    same records always give the same bytes.
    """
    lines = ",\n".join(json.dumps(record, separators=(",", ":")) for record in records)
    text = f'{{"format": {FORMAT}, "calls": [\n{lines}\n]}}\n'
    plain, compressed = path_stem.with_suffix(".json"), path_stem.with_suffix(".json.gz")
    if len(text) > GZIP_THRESHOLD_BYTES:
        compressed.write_bytes(gzip.compress(text.encode(), mtime=0))
        plain.unlink(missing_ok=True)
        return compressed
    plain.write_text(text)
    compressed.unlink(missing_ok=True)
    return plain


def fixture_files(directory: Traversable) -> list[Traversable]:
    """Every fixture file in ``directory``, sorted by name."""
    return sorted(
        (
            path
            for path in directory.iterdir()
            if path.name.endswith((".json", ".json.gz")) and not path.name.startswith("expected")
        ),
        key=lambda path: path.name,
    )


def read_file(path: Traversable) -> list[dict[str, Any]]:
    """The raw call records of one fixture file."""
    raw = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
    document = json.loads(raw)
    if document.get("format") != FORMAT:
        raise ValueError(f"{path}: unknown fixture format {document.get('format')!r}")
    calls: list[dict[str, Any]] = document["calls"]
    return calls


def from_record(record: dict[str, Any], source: str) -> Fixture:
    """A :class:`Fixture` from its JSON record (missing provenance stays missing)."""
    upstream = record["upstream"]
    return Fixture(
        case=Case.of(record["memory"], record["runtime"], record["max_memory"]),
        provenance=dict(record.get("provenance", {})),
        quantized_budget=record["quantized_budget"],
        optimum=parse_fraction(record["optimum"]),
        upstream_value=upstream["value"],
        upstream_saved=tuple(upstream["saved"]),
        upstream_recomputable=tuple(upstream["recomputable"]),
        occurrences=record.get("occurrences", 1),
        source=source,
    )


def load(directory: Traversable | None = None) -> list[Fixture]:
    """Every fixture in ``directory`` (default :func:`default_directory`)."""
    directory = default_directory() if directory is None else directory
    return [
        from_record(record, path.name.split(".")[0])
        for path in fixture_files(directory)
        for record in read_file(path)
    ]


def missing_provenance(fixture: Fixture) -> list[str]:
    """Provenance fields that are absent, ``None`` or empty."""
    return [
        name for name in PROVENANCE_FIELDS if fixture.provenance.get(name) in (None, "", [], {})
    ]


def deduplicate(
    records: Iterable[tuple[Case, dict[str, Any], tuple[float, list[int], list[int]]]],
) -> list[tuple[Case, dict[str, Any], tuple[float, list[int], list[int]], int]]:
    """Merge identical calls, keeping the first one's provenance and answer.

    Returns ``(case, provenance, upstream answer, occurrences)`` in first-seen order.
    """
    seen: dict[Case, int] = {}
    merged: list[tuple[Case, dict[str, Any], tuple[float, list[int], list[int]], int]] = []
    for case, provenance, answer in records:
        if case in seen:
            index = seen[case]
            first = merged[index]
            merged[index] = (first[0], first[1], first[2], first[3] + 1)
            continue
        seen[case] = len(merged)
        merged.append((case, provenance, answer, 1))
    return merged
