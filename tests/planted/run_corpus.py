"""Run every solver of the planted corpus through ``knapsack-audit verify`` at
default effort, one process per target, and print a Markdown table.

    python tests/planted/run_corpus.py > docs/planted.md

Per target: the status and exit code of its own ``verify`` run, the failing
properties, the size of the smallest counterexample, the seconds into the
audit of its first finding, the audit's seconds, the process's wall time
(worker start and imports included), the run's seed (``--seed`` replays
it) and how the findings' calls did alone in a fresh worker (SPEC 8.1).
Extra arguments go to every ``verify`` call (e.g. ``--seed 1``), but
``--only NAME,NAME``, which runs those targets only:

    python tests/planted/run_corpus.py --only fits_all_by_float_sum_from_64,pareto_frontier
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import corpus  # type: ignore[import-not-found]

from knapsack_audit.cases import Case

CORPUS = Path(__file__).with_name("corpus.py")


def run(name: str, extra: list[str]) -> str:
    """One ``verify`` run; its table row."""
    with tempfile.TemporaryDirectory() as folder:
        report_path = Path(folder) / "report.json"
        started = time.perf_counter()
        done = subprocess.run(
            [
                *("knapsack-audit", "verify", f"{CORPUS}:{name}", "--quiet"),
                *("--report", str(report_path), *extra),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - started
        (target,) = json.loads(report_path.read_text())["targets"]
    failed = [row for row in target["verdicts"] if row["verdict"] == "fail"]
    first = f"{min(row['seconds'] for row in failed):.2f}" if failed else "-"
    sizes = [size for f in target["findings"] if (size := items(f["call"])) is not None]
    kind = "correct" if name in corpus.CORRECT else f"bug (must fail {corpus.EXPECTED[name]})"
    wanted = name in corpus.CORRECT or corpus.EXPECTED[name] in {row["property"] for row in failed}
    return (
        f"| `{name}` | {kind} | {target['status']} | {done.returncode} | "
        f"{', '.join(row['property'] for row in failed) or '-'} | {min(sizes, default='-')} | "
        f"{first} | {target['seconds']:.1f} | {wall:.1f} | {target['seed']} | "
        f"{alone(target['findings'])} | {'yes' if wanted else '**NO**'} |"
    )


def alone(findings: list[dict[str, object]]) -> str:
    """How the findings' calls did alone in a fresh worker: ``3 fail, 1 not
    re-checked``, and for those that passed, with how many set-up calls."""
    counts: dict[str, int] = {}
    for finding in findings:
        verdict = str(finding.get("alone") or "not re-checked")
        if verdict == "passes":
            after = finding.get("after") or []
            verdict = f"pass (fail after {len(after)} call(s))" if after else "pass (no set-up)"
        counts[verdict] = counts.get(verdict, 0) + 1
    return ", ".join(f"{count} {verdict}" for verdict, count in sorted(counts.items())) or "-"


def items(call: str) -> int | None:
    """The number of items of a copy-pasteable call ``f([...], [...], budget)``,
    runs written ``[v] * k`` included."""
    try:
        return Case.from_call(call)[1].n
    except (ValueError, SyntaxError):  # inf or nan in the call: not a literal
        return None


def main(extra: list[str]) -> None:
    names = [*corpus.EXPECTED, *corpus.CORRECT]
    if "--only" in extra:
        at = extra.index("--only")
        names = extra[at + 1].split(",")
        extra = extra[:at] + extra[at + 2 :]
    print(
        "| target | kind | status | exit | failing properties | items in the smallest "
        "counterexample | first finding (s) | audit (s) | wall (s) | seed | "
        "alone in a fresh worker | as expected |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        print(run(name, extra), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
