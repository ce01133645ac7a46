"""The property engine: every check of docs/SPEC.md, written once, for any solver.

A solver is any callable with upstream's signature
``solver(memory, runtime, max_memory) -> (value, saved, recomputable)``.
Each property takes a solver and a :class:`~knapsack_audit.cases.Case` and
returns a list of :class:`Finding` (empty when the property holds). The pytest
suite, the ``knapsack-audit`` command and the golden replays all call these
functions; none re-implements a check.

Properties on one call (SPEC 7.2, 8):
    ``return-shape``, ``partition``, ``feasibility``, ``optimality``,
    ``value-consistency`` (for ours also the order of SPEC 7.1), ``no-crash``,
    ``no-mutation``, ``determinism``.
Metamorphic relations (need no oracle, so they also scale to large n):
    ``budget-monotone``, ``permutation-invariant``, ``append-heavy-item``,
    ``append-nonpositive-item``, ``runtime-scaling``, ``zero-weight-gain``.

Judging is exact: selections are valued in :class:`fractions.Fraction` and
compared with the exact oracle (SPEC 3); a floating-point solver is allowed
the tolerance of SPEC 5.2, ours none (SPEC 5.1).
"""

from __future__ import annotations

import copy
import functools
import math
import numbers
import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from knapsack_audit.cases import Case, Oversized, same_values
from knapsack_audit.integer_oracle import int64_optimum, integer_optimum
from knapsack_audit.reference.oracle import exact_optimum
from knapsack_audit.reference.validation import quantize
from knapsack_audit.scaling import table_cells

Solver = Callable[[list[float], list[float], float], Any]

FLOAT32_UNIT_ROUNDOFF = Fraction(1, 2**24)
SMALLEST_FLOAT32_SUBNORMAL = Fraction(1, 2**149)


@dataclass(frozen=True)
class Finding:
    """A property that failed on one case, said in words (SPEC clause cited)."""

    property: str
    clause: str
    message: str
    case: Case


@dataclass(frozen=True)
class Judge:
    """How strictly to judge a solver.

    Attributes:
        exact: ``True`` for our solvers: optimal with no tolerance and value
            ``== float(exact sum)`` (SPEC 5.1, 7.1); ``False`` allows SPEC 5.2.
        oracle_max_items: skip oracle-based checks above this ``n`` (the
            metamorphic relations still run). 4096 covers the partitioner's
            real sizes (``verify``'s scale tier, up to 1100 items) and the
            breadth phase's calls past the largest real call (2,114 items,
            2,145 in the tuple sample), judged above 200 items by
            :mod:`knapsack_audit.integer_oracle` in at most about 0.5 s each:
            with 200, a fast path that is wrong only above 256 items
            (greedy, say) was never judged on optimality, and with 2000, a
            fast path from 1,536 items was judged at 2,114 on feasibility
            alone.
    """

    exact: bool = False
    oracle_max_items: int = 4096
    oracle: Callable[[Case], Fraction] | None = field(default=None, compare=False)
    """The exact optimum of a case when the caller has it already (the
    exhaustive scope's brute force, from the definition); default
    :func:`exact_value`."""

    def optimum(self, case: Case) -> Fraction:
        """The exact optimum of ``case`` (SPEC 3.3) this judge holds answers to."""
        return exact_value(case) if self.oracle is None else self.oracle(case)


@dataclass
class Outcome:
    """A solver's answer to one case, or the exception it raised."""

    result: Any = None
    error: BaseException | None = None
    extras: dict[str, Any] = field(default_factory=dict)


@functools.lru_cache(maxsize=4096)
def tolerance(case: Case) -> Fraction:
    """SPEC 5.2 as amended by 5.4: ``2*gamma(n+1)*sum|v_i| + 2*(n+1)*2**-149``
    for float32 sums, the sum over the items that fit alone (``q_i <= Q``): no
    feasible selection, and so no path through a table, holds another.

    Float32 drops the ``1.0`` beside ``1e8`` (its spacing there is 8), and
    the tolerance allows it; an item heavier than the budget widens nothing;
    with no runtimes only the subnormal term is left:

    >>> 1.0 <= tolerance(Case((1e-4, 1e-4), (1e8, 1.0), 2e-4)) < 36
    True
    >>> tolerance(Case((1.0, 1e-4), (1e8, 1.0), 1e-4)) < 1e-5
    True
    >>> tolerance(Case((), (), 0.0)) == 2 * SMALLEST_FLOAT32_SUBNORMAL
    True
    """
    weights = [quantize(float(m)) for m in case.memory]
    return units_tolerance(weights, case.runtime, quantize(float(case.max_memory)))


def units_tolerance(weights: Sequence[int], runtime: Sequence[float], capacity: int) -> Fraction:
    """:func:`tolerance` of items of quantized ``weights`` under ``capacity`` units."""
    k = len(runtime) + 1
    gamma = k * FLOAT32_UNIT_ROUNDOFF / (1 - k * FLOAT32_UNIT_ROUNDOFF)
    magnitude = sum(
        (abs(Fraction(float(r))) for w, r in zip(weights, runtime, strict=True) if w <= capacity),
        Fraction(0),
    )
    return 2 * gamma * magnitude + 2 * k * SMALLEST_FLOAT32_SUBNORMAL


def _units(count: int) -> str:
    return f"{count} unit" if count == 1 else f"{count} units"


def call(solver: Solver, case: Case, as_tuples: bool = False) -> Outcome:
    """Call ``solver`` on fresh copies of the case's arguments, as lists or,
    with ``as_tuples``, as tuples (SPEC 1.1); never raises.

    Records whether the solver mutated its arguments (SPEC 8.2).
    """
    memory, runtime, max_memory = case.arguments()
    if as_tuples:
        memory, runtime = tuple(memory), tuple(runtime)  # type: ignore[assignment]
    before = (copy.copy(memory), copy.copy(runtime))
    return _answered(lambda: solver(memory, runtime, max_memory), memory, runtime, before)


def _answered(
    answer: Callable[[], Any], memory: list[Any], runtime: list[Any], before: tuple[Any, Any]
) -> Outcome:
    """The outcome of a call whose answer ``answer`` gives (or raises)."""
    try:
        result = answer()
    except Exception as error:  # a third-party crash is a finding, not fatal
        return Outcome(error=error)
    return Outcome(result=result, extras={"mutated": _changed(memory, runtime, before)})


Submit = Callable[[list[Any], list[Any], Any], Callable[[], Any]]
"""Begins a solver's call and returns the function that gives its answer (or raises)."""


class PendingCall:
    """A call begun by :func:`start_call`; :meth:`outcome` waits for its answer
    (the first time; later it returns the same outcome)."""

    def __init__(self, finish: Callable[[], Outcome]) -> None:
        self._finish = finish
        self._outcome: Outcome | None = None

    def outcome(self) -> Outcome:
        if self._outcome is None:
            self._outcome = self._finish()
        return self._outcome


def start_call(submit: Submit, case: Case) -> PendingCall:
    """:func:`call`, begun now by ``submit`` and finished by
    :meth:`PendingCall.outcome` (``search.Stoppable.submit``: a worker process
    computes while the caller judges the call before; any other solver is
    called at once)."""
    memory, runtime, max_memory = case.arguments()
    before = (copy.copy(memory), copy.copy(runtime))
    try:
        collect = submit(memory, runtime, max_memory)
    except Exception as error:  # a crash, or a worker that could not start: a finding
        failed = Outcome(error=error)
        return PendingCall(lambda: failed)
    return PendingCall(lambda: _answered(collect, memory, runtime, before))


BatchSolver = Callable[[list[tuple[list[Any], list[Any], Any]]], list[Any]]
"""Calls a solver on many argument triples at once (one message to a worker).

Returns, per triple, the answer or the exception the call raised (not
raised), and writes any mutation back into the triple's lists."""


def call_many(batch: BatchSolver, cases: Sequence[Case]) -> list[Outcome]:
    """:func:`call` for many cases in one batch; never raises for the solver's faults."""
    arguments = [case.arguments() for case in cases]
    before = [(copy.copy(memory), copy.copy(runtime)) for memory, runtime, _ in arguments]
    outcomes = []
    for (memory, runtime, _), copied, answer in zip(
        arguments, before, batch(arguments), strict=True
    ):
        if isinstance(answer, Exception):
            outcomes.append(Outcome(error=answer))
        else:
            outcomes.append(
                Outcome(result=answer, extras={"mutated": _changed(memory, runtime, copied)})
            )
    return outcomes


def _changed(memory: Sequence[Any], runtime: Sequence[Any], before: tuple[Any, Any]) -> bool:
    """Whether the call changed its argument lists, as a caller could tell (SPEC 8.2)."""
    return not (same_values(memory, before[0]) and same_values(runtime, before[1]))


def _changed_settings(error: BaseException | None) -> bool:
    """Whether ``error`` is the worker's report of a call that answered but
    changed a process-wide setting (:class:`knapsack_audit.isolation.ChangedSettings`,
    SPEC 8.6). The engine does not import the
    audit layer (docs/ARCHITECTURE.md), so it reads the class's marker
    (a solver's own exception of that name, which the proxy re-raises as a
    class of the same name, has none)."""
    return getattr(type(error), "settings_changed", False) is True


def no_crash(outcome: Outcome, case: Case) -> list[Finding]:
    """SPEC 1 and 7.2: a valid input returns an answer, it does not raise
    (a call that answered but changed a process-wide setting did not crash:
    :func:`no_mutation` reports it)."""
    if outcome.error is None or _changed_settings(outcome.error):
        return []
    error = outcome.error
    return [
        Finding(
            "no-crash",
            "SPEC 7.2",
            f"raised {type(error).__name__}: {error} on a valid input",
            case,
        )
    ]


def is_call_timeout(actual: str) -> bool:
    """Whether a finding's ``actual`` (as :func:`no_crash` writes it) is a call
    that ran out of the call timeout (:class:`~knapsack_audit.isolation.SolverTimeout`):
    the machine's verdict as much as the solver's, so callers that judge a
    correct solver on a loaded machine may set it apart."""
    return "raised SolverTimeout" in actual


def no_mutation(outcome: Outcome, case: Case) -> list[Finding]:
    """SPEC 8.2: the solver leaves its argument lists unchanged; SPEC 8.6:
    and the process-wide settings (the isolated worker reads them:
    :mod:`knapsack_audit.process_state`)."""
    if _changed_settings(outcome.error):
        return [Finding("no-mutation", "SPEC 8.6", str(outcome.error), case)]
    if outcome.extras.get("mutated"):
        return [Finding("no-mutation", "SPEC 8.2", "the solver changed its input lists", case)]
    return []


def _index_lists(outcome: Outcome) -> tuple[Sequence[Any], Sequence[Any]] | None:
    """The (saved, recomputable) sequences if the answer has the contract's shape
    (SPEC 7.2(a)); nothing inside them is read."""
    result = outcome.result
    if not isinstance(result, Sequence) or isinstance(result, str) or len(result) != 3:
        return None
    _, saved, recomputable = result
    if not isinstance(saved, Sequence) or not isinstance(recomputable, Sequence):
        return None
    return saved, recomputable


def _selection(outcome: Outcome, case: Case) -> tuple[list[int], list[int]] | None:
    """The (saved, recomputable) lists if the answer has the contract's shape,
    at most ``n`` entries in all, and both lists were sent in full; any other
    answer is refused unread (the partition check reports it), so every check
    on it stays O(n)."""
    lists = _index_lists(outcome)
    if lists is None or len(lists[0]) + len(lists[1]) > case.n or _unsent(lists):
        return None
    return list(lists[0]), list(lists[1])


def _unsent(lists: tuple[Sequence[Any], Sequence[Any]]) -> list[str]:
    """Which of (saved, recomputable) arrived as an :class:`Oversized`: the
    worker sends about ``n`` list entries of an answer in all, so lists nested
    in the answer (or a long value) can use them up before a list of the right
    length is reached."""
    names = ("saved", "recomputable")
    return [name for name, part in zip(names, lists, strict=True) if isinstance(part, Oversized)]


def return_shape(outcome: Outcome, case: Case) -> list[Finding]:
    """SPEC 7.2(a): a 3-sequence (value, saved, recomputable) of sequences."""
    if outcome.error is not None or _index_lists(outcome) is not None:
        return []
    return [
        Finding(
            "return-shape",
            "SPEC 7.2(a)",
            "expected (value, saved, recomputable) with two index lists, got "
            f"{type(outcome.result).__name__}: {_bounded_repr(outcome.result, 200)}",
            case,
        )
    ]


SHOWN_INDICES = 10
"""Indices a partition finding lists before it says how many more there are."""


def _some(indices: Collection[int]) -> str:
    shown = sorted(indices)[:SHOWN_INDICES]
    more = len(indices) - len(shown)
    return f"{shown}" + (f" (and {more} more)" if more else "")


def partition(outcome: Outcome, case: Case) -> list[Finding]:
    """SPEC 7.2(b): plain ints, each index of 0..n-1 exactly once in total.

    A partition of ``n`` indices has ``n`` entries: a longer answer is refused
    from its lengths alone, before any entry is read; otherwise every step is
    O(n) (one pass with a counter, never ``list.count`` per entry).
    """
    lists = _index_lists(outcome)
    if lists is None:
        return []
    total = len(lists[0]) + len(lists[1])
    if total > case.n:
        message = (
            f"saved and recomputable hold {len(lists[0])} + {len(lists[1])} = {total} entries; "
            f"a partition of n={case.n} indices has {case.n} (entries not read)"
        )
        return [Finding("partition", "SPEC 7.2(b)", message, case)]
    unsent = _unsent(lists)
    if unsent:
        message = (
            f"{' and '.join(unsent)} not sent: the answer holds more list entries in all "
            f"than n={case.n} indices and its tuple, so lists inside it (or in its value) "
            "took the rest; a partition is n plain int indices (entries not read)"
        )
        return [Finding("partition", "SPEC 7.2(b)", message, case)]
    saved, recomputable = list(lists[0]), list(lists[1])
    problems = []
    everything = saved + recomputable
    wrong_type = [x for x in everything if type(x) is not int]
    if wrong_type:
        problems.append(
            f"indices must be plain int, got {type(wrong_type[0]).__module__}."
            f"{type(wrong_type[0]).__name__} ({_bounded_repr(wrong_type[0], 80)})"
        )
    else:
        out_of_range = {x for x in everything if not 0 <= x < case.n}
        if out_of_range:
            problems.append(f"indices {_some(out_of_range)} outside 0..{case.n - 1}")
        repeated = {x for x, count in Counter(everything).items() if count > 1}
        if repeated:
            problems.append(f"indices {_some(repeated)} appear more than once")
        missing = set(range(case.n)) - set(everything)
        if missing:
            problems.append(f"indices {_some(missing)} are neither saved nor recomputable")
    return [Finding("partition", "SPEC 7.2(b)", "; ".join(problems), case)] if problems else []


def _valid_saved(outcome: Outcome, case: Case) -> list[int] | None:
    """The saved indices, if they are plain in-range ints (else partition reports)."""
    lists = _selection(outcome, case)
    if lists is None:
        return None
    saved = lists[0]
    if all(type(x) is int and 0 <= x < case.n for x in saved):
        return sorted(set(saved))
    return None


def saved_weight(case: Case, saved: Sequence[int]) -> int:
    """Exact quantized weight of a selection (SPEC 2.1, 3.2)."""
    return sum(quantize(float(case.memory[i])) for i in saved)


def exact_number(value: Any) -> Fraction:
    """A returned value as an exact fraction of Python ints: a numpy integer
    (SPEC 1.2 inputs summed by a solver give one) through ``int``, so that
    no fixed-width arithmetic runs inside the fraction, another rational as
    it is, anything else through ``float``.

    >>> import numpy as np
    >>> exact_number(np.int64(2**62)) * 4 == 2**64
    True
    """
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    if isinstance(value, numbers.Rational):
        return Fraction(value)
    return Fraction(float(value))


def saved_value(case: Case, saved: Sequence[int]) -> Fraction:
    """Exact value of a selection (SPEC 3.1)."""
    return sum((Fraction(float(case.runtime[i])) for i in saved), Fraction(0))


PARETO_MAX_ITEMS = 200
"""Above this ``n`` the optimum comes from :mod:`knapsack_audit.integer_oracle`
(where its row fits), not from the Pareto oracle."""
PARETO_MAX_CELLS = 1 << 17
"""Above this ``n * Q`` the optimum comes from
:func:`~knapsack_audit.integer_oracle.int64_optimum` wherever int64 holds it,
at any ``n``: the Pareto oracle keeps up to ``Q + 1`` pairs per item, and
strongly correlated items (a distinct value at every weight) fill them, 1.7
to 4 s per case of 70 to 200 items at 16,383 to 65,535 units (the region
``strongly correlated items`` or ``split by a Hirschberg solver`` at the
threshold sizes), against 7 to 22 ms in int64."""


KNOWN_OPTIMA_KEPT = 4096
"""Known optima :func:`know_optimum` keeps (the oldest are forgotten first)."""
_known_optima: dict[Case, Fraction] = {}


def know_optimum(case: Case, optimum: Fraction) -> None:
    """Record the exact optimum of ``case`` known otherwise (a golden call's
    stored optimum, a scaled case's, :mod:`knapsack_audit.scaling`), so that
    judging it runs no oracle, whatever its size."""
    if len(_known_optima) >= KNOWN_OPTIMA_KEPT:
        del _known_optima[next(iter(_known_optima))]
    _known_optima[case] = optimum


def _judged_optimum(case: Case, judge: Judge) -> Fraction | None:
    """The exact optimum if known or within the judge's oracle size, else ``None``."""
    known = _known_optima.get(case)
    if known is not None:
        return known
    return None if case.n > judge.oracle_max_items else judge.optimum(case)


def exact_value(case: Case) -> Fraction:
    """The exact optimum of ``case`` (SPEC 3.3): known (:func:`know_optimum`) or
    computed and remembered for repeated judging."""
    known = _known_optima.get(case)
    return known if known is not None else _computed_value(case)


@functools.lru_cache(maxsize=1024)
def _computed_value(case: Case) -> Fraction:
    optimum = _every_paying_item_fits(case)
    if optimum is not None:
        return optimum
    if case.n > PARETO_MAX_ITEMS:
        optimum = integer_optimum(*case.arguments())
    elif table_cells(case) > PARETO_MAX_CELLS:
        optimum = int64_optimum(*case.arguments())
    return optimum if optimum is not None else exact_optimum(*case.arguments()).value


def _every_paying_item_fits(case: Case) -> Fraction | None:
    """The optimum when the items of positive runtime fit the budget together
    (SPEC 3.3): their runtimes' exact sum, since a negative runtime lowers any
    selection and a zero one changes nothing; else ``None``. A table oracle
    would take seconds on such a call of a few thousand fractional runtimes.

    >>> _every_paying_item_fits(Case((1e-4, 2e-4, 5.0), (0.1, 0.2, 9.0), 3e-4))
    >>> _every_paying_item_fits(Case((1e-4, 2e-4, 5.0), (0.1, 0.2, -9.0), 3e-4))
    Fraction(10808639105689191, 36028797018963968)
    """
    budget = quantize(float(case.max_memory))
    paying = [i for i, r in enumerate(case.runtime) if float(r) > 0]
    if sum(quantize(float(case.memory[i])) for i in paying) > budget:
        return None
    return saved_value(case, paying)


def shortfall(outcome: Outcome, case: Case, judge: Judge) -> tuple[float, int]:
    """How far a usable answer is from right: (optimality gap relative to the
    optimum, units over budget); ``(0.0, 0)`` when unusable or not judged.

    The search maximizes both (``hypothesis.target``), steering towards
    larger failures that then shrink.
    """
    saved = _valid_saved(outcome, case)
    if saved is None:
        return 0.0, 0
    overrun = max(saved_weight(case, saved) - quantize(float(case.max_memory)), 0)
    optimum = _judged_optimum(case, judge)
    if optimum is None:
        return 0.0, overrun
    gap = optimum - saved_value(case, saved)
    return (float(gap / abs(optimum)) if optimum else float(gap)), overrun


def feasibility(outcome: Outcome, case: Case) -> list[Finding]:
    """SPEC 3.2: the saved weight does not exceed the budget, in integers."""
    saved = _valid_saved(outcome, case)
    if saved is None:
        return []
    weight = saved_weight(case, saved)
    budget = quantize(float(case.max_memory))
    if weight <= budget:
        return []
    return [
        Finding(
            "feasibility",
            "SPEC 3.2",
            f"saved weight {_units(weight)} > budget {_units(budget)} "
            f"(saved {saved}, weights {[quantize(float(m)) for m in case.memory]})",
            case,
        )
    ]


def optimality(outcome: Outcome, case: Case, judge: Judge) -> list[Finding]:
    """SPEC 3.3 and 5: the selection's exact value reaches the exact optimum."""
    saved = _valid_saved(outcome, case)
    optimum = None if saved is None else _judged_optimum(case, judge)
    if saved is None or optimum is None:
        return []
    achieved = saved_value(case, saved)
    allowed = Fraction(0) if judge.exact else tolerance(case)
    if optimum - achieved <= allowed:
        return []
    return [
        Finding(
            "optimality",
            "SPEC 3.3" if judge.exact else "SPEC 5.2",
            f"saved runtime {float(achieved)!r} < optimum {float(optimum)!r} "
            f"by {float(optimum - achieved)!r} (allowed {float(allowed)!r}; saved {saved})",
            case,
        )
    ]


def value_consistency(outcome: Outcome, case: Case, judge: Judge) -> list[Finding]:
    """SPEC 7.1 and 7.2(e): the returned value is the saved runtimes' sum."""
    saved = _valid_saved(outcome, case)
    if saved is None:
        return []
    value: object = outcome.result[0]
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return [
            Finding(
                "value-consistency",
                "SPEC 7.2(e)",
                f"value must be a real number, got {type(value).__name__}",
                case,
            )
        ]
    try:
        finite = math.isfinite(float(value))
    except OverflowError:  # an int or Fraction beyond float64: judged, not fatal
        finite = False
    if not finite:
        return [
            Finding(
                "value-consistency",
                "SPEC 7.2(e)",
                f"value is {_bounded_repr(value, 80)}, not a finite float64",
                case,
            )
        ]
    exact = saved_value(case, saved)
    returned = exact_number(value)
    if judge.exact:
        if isinstance(outcome.result[0], float) and returned == Fraction(float(exact)):
            return _order(outcome, case)
        expected = f"float(exact sum) = {float(exact)!r}"
    else:
        if abs(returned - exact) <= tolerance(case):
            return []
        expected = f"{float(exact)!r} within {float(tolerance(case))!r}"
    return [
        Finding(
            "value-consistency",
            "SPEC 7.1" if judge.exact else "SPEC 5.2",
            f"returned value {value!r}, but the saved runtimes sum to {expected}",
            case,
        )
    ]


def _order(outcome: Outcome, case: Case) -> list[Finding]:
    """SPEC 7.1 for ours: ``saved`` ascending, ``recomputable`` descending
    (never asked of other solvers, SPEC 7.3)."""
    lists = _selection(outcome, case)
    if lists is None:
        return []
    saved, recomputable = lists
    if saved == sorted(saved) and recomputable == sorted(recomputable, reverse=True):
        return []
    return [
        Finding(
            "value-consistency",
            "SPEC 7.1",
            f"saved {_some(saved)} not ascending or recomputable {_some(recomputable)} "
            "not descending",
            case,
        )
    ]


def determinism(solver: Solver, case: Case, first: Outcome) -> list[Finding]:
    """SPEC 8.1: a second call returns the same answer (or the same error).

    Answers are compared by ``repr`` with memory addresses masked: a returned
    object without a value ``repr`` (a generator) is "the same" if its type
    and text are, whatever address it got.
    """
    second = call(solver, case)
    if same_answer(first, second, case):
        return []
    return [
        Finding(
            "determinism",
            "SPEC 8.1",
            f"first call {said(first)}, second {said(second)}",
            case,
        )
    ]


_ADDRESS = re.compile(r"\bat 0x[0-9a-fA-F]+")


def _comparable(outcome: Outcome, case: Case) -> tuple[str, str, str]:
    """What determinism compares: the answer's repr (addresses masked; for an answer
    longer than the instance, only its lengths), the error's type and message."""
    error = outcome.error
    lists = _index_lists(outcome)
    if lists is not None and _selection(outcome, case) is None:
        answer = f"{len(lists[0])} saved and {len(lists[1])} recomputable entries"
    else:
        answer = _ADDRESS.sub("at 0x...", _bounded_repr(outcome.result, 1 << 20))
    return answer, type(error).__name__, str(error)


def same_answer(first: Outcome, second: Outcome, case: Case) -> bool:
    """Whether two outcomes of ``case`` are the same answer (or the same error),
    as :func:`determinism` compares them."""
    return _comparable(first, case) == _comparable(second, case)


def said(outcome: Outcome) -> str:
    """``gave (1.0, [0], [])`` or ``raised RuntimeError: boom``, cut to 120 characters."""
    if outcome.error is not None:
        return f"raised {type(outcome.error).__name__}: {str(outcome.error)[:120]}"
    return f"gave {_bounded_repr(outcome.result, 120)}"


def _bounded_repr(value: object, limit: int) -> str:
    """``repr(value)`` cut to ``limit`` characters; a failing ``repr`` is described."""
    try:
        return repr(value)[:limit]
    except Exception as error:
        return f"<repr failed: {type(error).__name__}>"


def check_call(
    solver: Solver, case: Case, judge: Judge, wanted: Collection[str] | None = None
) -> list[Finding]:
    """Run the one-call properties (SPEC 3, 7, 8) named in ``wanted`` on ``case``.

    ``wanted``: default every one-call property of :data:`TABLE`.
    """
    return judge_outcome(solver, case, judge, call(solver, case), wanted)


def judge_outcome(
    solver: Solver,
    case: Case,
    judge: Judge,
    outcome: Outcome,
    wanted: Collection[str] | None = None,
) -> list[Finding]:
    """The one-call properties on an outcome already obtained (a batched call).

    Only ``determinism`` calls ``solver`` again.
    """
    names = CALL_PROPERTIES if wanted is None else wanted
    findings: list[Finding] = []
    for prop in TABLE:
        if prop.name in names and prop.on_outcome is not None:
            findings += prop.on_outcome(solver, case, judge, outcome)
    return findings


def _value_of(solver: Solver, case: Case) -> Fraction | None:
    """Exact value of the solver's selection; ``None`` if the answer is unusable.

    Unusable: an error, a malformed answer or an infeasible selection. Those
    are the one-call properties' findings; a relation between values of
    infeasible selections would only repeat them.
    """
    outcome = call(solver, case)
    saved = _valid_saved(outcome, case) if outcome.error is None else None
    if saved is None or saved_weight(case, saved) > quantize(float(case.max_memory)):
        return None
    return saved_value(case, saved)


def _relation(
    name: str,
    solver: Solver,
    case: Case,
    other: Case,
    expected: Callable[[Fraction], Fraction],
    judge: Judge,
    describe: str,
    at_least: bool = False,
) -> list[Finding]:
    """Compare the solver's value on ``other`` with ``expected(value on case)``."""
    base, changed = _value_of(solver, case), _value_of(solver, other)
    if base is None or changed is None:
        return []
    allowed = Fraction(0) if judge.exact else tolerance(case) + tolerance(other)
    target = expected(base)
    holds = changed >= target - allowed if at_least else abs(changed - target) <= allowed
    if holds:
        return []
    return [
        Finding(
            name,
            "SPEC 3.2",
            f"{describe}: value {float(base)!r} became {float(changed)!r}, expected "
            f"{'at least ' if at_least else ''}{float(target)!r}; second call "
            f"{other.as_call()}",
            case,
        )
    ]


def budget_monotone(solver: Solver, case: Case, judge: Judge, extra_units: int) -> list[Finding]:
    """A larger budget never lowers the optimum (every feasible set stays feasible)."""
    budget = quantize(float(case.max_memory)) + extra_units
    larger = Case(case.memory, case.runtime, budget / 10000)
    return _relation(
        "budget-monotone",
        solver,
        case,
        larger,
        lambda v: v,
        judge,
        f"raising the budget by {_units(extra_units)}",
        at_least=True,
    )


def permutation_invariant(
    solver: Solver, case: Case, judge: Judge, order: Sequence[int]
) -> list[Finding]:
    """Reordering items leaves the optimum unchanged (SPEC 3.2 is over sets)."""
    permuted = Case(
        tuple(case.memory[i] for i in order), tuple(case.runtime[i] for i in order), case.max_memory
    )
    return _relation(
        "permutation-invariant",
        solver,
        case,
        permuted,
        lambda v: v,
        judge,
        f"reordering the items as {list(order)}",
    )


def append_heavy_item(solver: Solver, case: Case, judge: Judge, runtime: float) -> list[Finding]:
    """An item heavier than the budget never fits, so the optimum is unchanged."""
    heavy = (quantize(float(case.max_memory)) + 1) / 10000
    extended = Case((*case.memory, heavy), (*case.runtime, runtime), case.max_memory)
    return _relation(
        "append-heavy-item",
        solver,
        case,
        extended,
        lambda v: v,
        judge,
        f"appending an item of memory {heavy!r} (over the budget)",
    )


def append_nonpositive_item(
    solver: Solver, case: Case, judge: Judge, memory: float, runtime: float
) -> list[Finding]:
    """An item with runtime <= 0 never improves a selection: optimum unchanged."""
    extended = Case((*case.memory, memory), (*case.runtime, runtime), case.max_memory)
    return _relation(
        "append-nonpositive-item",
        solver,
        case,
        extended,
        lambda v: v,
        judge,
        f"appending an item with runtime {runtime!r}",
    )


def runtime_scaling(solver: Solver, case: Case, judge: Judge, exponent: int) -> list[Finding]:
    """Scaling every runtime by ``2**k`` scales the optimum, when the scaling is
    exact in float64. It is not for subnormal results (bits are lost) or on
    overflow; the relation then does not apply and reports nothing, since the
    scaled instance's optimum is no longer ``2**k`` times the original's
    (a nightly run flagged ``2.225073858507e-311 * 2**-2`` on a correct solver).
    """
    factor = 2.0**exponent
    scaled = Case(case.memory, tuple(float(r) * factor for r in case.runtime), case.max_memory)
    exact_factor = Fraction(factor)
    if any(
        not math.isfinite(s) or Fraction(s) != Fraction(float(r)) * exact_factor
        for r, s in zip(case.runtime, scaled.runtime, strict=True)
    ):
        return []
    return _relation(
        "runtime-scaling",
        solver,
        case,
        scaled,
        lambda v: v * Fraction(factor),
        judge,
        f"multiplying every runtime by 2**{exponent}",
    )


def zero_weight_gain(solver: Solver, case: Case, judge: Judge, runtime: float) -> list[Finding]:
    """A zero-weight item with runtime r > 0 raises the optimum by exactly r."""
    extended = Case((*case.memory, 0.0), (*case.runtime, runtime), case.max_memory)
    return _relation(
        "zero-weight-gain",
        solver,
        case,
        extended,
        lambda v: v + Fraction(runtime),
        judge,
        f"appending a zero-weight item with runtime {runtime!r}",
    )


OutcomeCheck = Callable[[Solver, Case, Judge, Outcome], list[Finding]]
RelationCheck = Callable[[Solver, Case, Judge, Any], list[Finding]]
ParameterDraw = Callable[[Case, Judge], st.SearchStrategy[Any]]


@dataclass(frozen=True)
class Property:
    """One property, declared once; :data:`TABLE` holds them all.

    Attributes:
        name: how findings, reports and ``--properties`` name it.
        clause: the SPEC clause it checks.
        expectation: the expected outcome in words (reports print it next
            to the finding's actual outcome).
        on_outcome: a one-call property: judges one call's outcome (only
            ``determinism`` calls the solver again).
        relation: a metamorphic relation: compares two calls; it needs a
            parameter drawn from ``parameter(case, judge)``.
    """

    name: str
    clause: str
    expectation: str
    on_outcome: OutcomeCheck | None = None
    relation: RelationCheck | None = None
    parameter: ParameterDraw | None = None

    @property
    def is_relation(self) -> bool:
        """Metamorphic (two calls, a drawn parameter) rather than one-call."""
        return self.relation is not None


def _on_outcome(check: Callable[[Outcome, Case], list[Finding]]) -> OutcomeCheck:
    return lambda solver, case, judge, outcome: check(outcome, case)


def _judged(check: Callable[[Outcome, Case, Judge], list[Finding]]) -> OutcomeCheck:
    return lambda solver, case, judge, outcome: check(outcome, case, judge)


def _nonpositive_items(case: Case, judge: Judge) -> st.SearchStrategy[tuple[float, float]]:
    """Negative runtimes only for the exact judge (ours, extended domain, SPEC 4.4)."""
    runtimes = (0.0, -1.0) if judge.exact else (0.0,)
    return st.tuples(st.sampled_from((0.0, 1e-4, 3e-4)), st.sampled_from(runtimes))


TABLE: tuple[Property, ...] = (
    Property(
        "no-crash",
        "SPEC 7.2",
        "returns an answer for every valid input (SPEC 7.2)",
        on_outcome=_on_outcome(no_crash),
    ),
    Property(
        "return-shape",
        "SPEC 7.2(a)",
        "returns (value, saved, recomputable) (SPEC 7.2(a))",
        on_outcome=_on_outcome(return_shape),
    ),
    Property(
        "partition",
        "SPEC 7.2(b)",
        "saved and recomputable hold plain ints, each index once (SPEC 7.2(b))",
        on_outcome=_on_outcome(partition),
    ),
    Property(
        "feasibility",
        "SPEC 3.2",
        "the saved items fit the quantized budget (SPEC 3.2)",
        on_outcome=_on_outcome(feasibility),
    ),
    Property(
        "optimality",
        "SPEC 3.3, 5",
        "the saved runtime reaches the exact optimum (SPEC 3.3, 5)",
        on_outcome=_judged(optimality),
    ),
    Property(
        "value-consistency",
        "SPEC 7.1, 7.2(e)",
        "the value equals the saved runtimes' sum (SPEC 7.1, 7.2(e))",
        on_outcome=_judged(value_consistency),
    ),
    Property(
        "no-mutation",
        "SPEC 8.2, 8.6",
        "the input lists and the process-wide settings are left unchanged (SPEC 8.2, 8.6)",
        on_outcome=_on_outcome(no_mutation),
    ),
    Property(
        "determinism",
        "SPEC 8.1",
        "the same input gives the same answer (SPEC 8.1)",
        on_outcome=lambda solver, case, judge, outcome: determinism(solver, case, outcome),
    ),
    Property(
        "budget-monotone",
        "SPEC 3.2",
        "a larger budget never lowers the saved runtime",
        relation=budget_monotone,
        parameter=lambda case, judge: st.integers(1, 3),
    ),
    Property(
        "permutation-invariant",
        "SPEC 3.2",
        "reordering the items keeps the saved runtime",
        relation=permutation_invariant,
        parameter=lambda case, judge: st.permutations(range(case.n)),
    ),
    Property(
        "append-heavy-item",
        "SPEC 3.2",
        "an item over the budget changes nothing",
        relation=append_heavy_item,
        parameter=lambda case, judge: st.sampled_from((1.0, 1e12)),
    ),
    Property(
        "append-nonpositive-item",
        "SPEC 3.2",
        "an item with runtime <= 0 changes nothing",
        relation=lambda solver, case, judge, item: append_nonpositive_item(
            solver, case, judge, *item
        ),
        parameter=_nonpositive_items,
    ),
    Property(
        "runtime-scaling",
        "SPEC 3.2",
        "scaling the runtimes by 2**k scales the saved runtime",
        relation=runtime_scaling,
        parameter=lambda case, judge: st.integers(-4, 4),
    ),
    Property(
        "zero-weight-gain",
        "SPEC 3.2",
        "a free item with runtime r adds exactly r",
        relation=zero_weight_gain,
        parameter=lambda case, judge: st.sampled_from((1.0, 0.5, 1e6)),
    ),
)
"""Every property, in report order: the one place a property is registered."""

PROPERTIES: dict[str, Property] = {prop.name: prop for prop in TABLE}
CALL_PROPERTIES = tuple(prop.name for prop in TABLE if not prop.is_relation)
RELATIONS = tuple(prop.name for prop in TABLE if prop.is_relation)
