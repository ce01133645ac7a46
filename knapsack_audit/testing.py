"""Assertions for a test suite, PyTorch's included (``unittest`` or pytest style).

Both call the solver in the test's own process (no worker) and raise
:class:`AssertionError` with the minimal, copy-pasteable counterexample::

    from knapsack_audit.testing import assert_no_regression, assert_solver_correct

    assert_solver_correct(dp_knapsack)                      # SPEC, property by property
    assert_no_regression(dp_knapsack, my_new_dp_knapsack)   # SPEC 9.1, on compare's cases

docs/TESTING.md has a ten-line module PyTorch could add beside
``test/functorch/test_ac_knapsack.py``; tests/test_testing.py runs it.

Effort (``quick`` by default, for a CI job):

=========  =============================================  ===================
effort     ``assert_solver_correct``                      ``assert_no_regression``
=========  =============================================  ===================
quick      25 examples per round, rounds for 10 s         compare's ``quick`` cases
default    60 examples per round, rounds for 36 s         compare's ``default`` cases
long       300 examples per round, rounds for 300 s       compare's ``long`` cases
=========  =============================================  ===================
"""

from __future__ import annotations

from hypothesis import settings

from knapsack_audit.compare import JUDGED_PROPERTIES, minimal_regression, regressed
from knapsack_audit.exhaustive import scope_for
from knapsack_audit.families import EFFORTS, families
from knapsack_audit.properties import PROPERTIES, Finding, Judge, Solver, check_call
from knapsack_audit.search import audit
from knapsack_audit.verify import PINNED_CASES

SEARCH_EFFORT = {"quick": (25, 10.0), "default": (60, 36.0), "long": (300, 300.0)}
"""Effort name -> (Hypothesis examples per round, seconds after which no round starts)."""


def _effort(effort: str) -> str:
    if effort not in SEARCH_EFFORT:
        raise ValueError(f"effort must be one of {', '.join(SEARCH_EFFORT)}, got {effort!r}")
    return effort


def _name(solver: Solver) -> str:
    return getattr(solver, "__name__", "solver")


def assert_solver_correct(solver: Solver, effort: str = "quick", exact: bool = False) -> None:
    """Search for inputs on which ``solver`` breaks a property of docs/SPEC.md.

    Args:
        solver: a callable with upstream's signature.
        effort: ``quick``, ``default`` or ``long`` (module docstring).
        exact: no tolerance (SPEC 5.1) and the extended domain (SPEC 4.4), as
            for our solvers; default: the float32 tolerance on the
            partitioner domain (SPEC 5.2), as for upstream's.

    Raises:
        AssertionError: one paragraph per failing property, each with its
            minimal call, what was expected and what happened.
    """
    examples, seconds = SEARCH_EFFORT[_effort(effort)]
    result = audit(
        solver,
        Judge(exact=exact),
        hypothesis_settings=settings(max_examples=examples, derandomize=True),
        domain="extended" if exact else "partitioner",
        pinned=PINNED_CASES,
        scope=scope_for("extended" if exact else "partitioner"),
        time_budget=seconds,
    )
    if not result.findings:
        return
    name = _name(solver)
    paragraphs = [
        f"{prop} fails ({finding.clause}): {finding.case.as_call(name)}\n"
        f"  expected: {PROPERTIES[prop].expectation}\n  actual: {finding.message}"
        for prop in result.failed()
        for finding in [result.findings[prop]]
    ]
    count = "1 property fails" if len(paragraphs) == 1 else f"{len(paragraphs)} properties fail"
    raise AssertionError(f"{name}: {count}\n" + "\n".join(paragraphs))


def assert_no_regression(
    base: Solver, new: Solver, effort: str = "quick", exact: bool = False
) -> None:
    """``new`` passes every one-call property that ``base`` passes, case by case.

    The cases are ``knapsack-audit compare``'s families at ``effort``; both
    solvers are judged alike (SPEC 9.1; ``exact`` as in
    :func:`assert_solver_correct`). No timing: use ``knapsack-audit compare``
    for ratios.

    Raises:
        AssertionError: per family and property, the count of regressed cases
            and the smallest one, minimized while ``base`` still passes it.
    """
    judge = Judge(exact=exact, oracle_max_items=10**6)
    name = _name(new)
    paragraphs = []
    for family in families(EFFORTS[_effort(effort)]):
        counts: dict[str, int] = {}
        smallest: dict[str, Finding] = {}
        for case in family.cases:
            worse = regressed(
                check_call(base, case, judge, JUDGED_PROPERTIES),
                check_call(new, case, judge, JUDGED_PROPERTIES),
            )
            for finding in worse:
                counts[finding.property] = counts.get(finding.property, 0) + 1
                kept = smallest.get(finding.property)
                if kept is None or case.n < kept.case.n:
                    smallest[finding.property] = finding
        for prop, finding in smallest.items():
            example = minimal_regression(family.name, finding, base, new, judge, name)
            paragraphs.append(
                f"{family.name}: {prop} regresses on {counts[prop]} case(s) ({example.clause}); "
                f"smallest: {example.call}\n  {name}: {example.new}\n  base: {example.base}"
            )
    if paragraphs:
        raise AssertionError(f"{name} regresses against {_name(base)}:\n" + "\n".join(paragraphs))
