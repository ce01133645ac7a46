"""The printed call is the case: grouped runs evaluate back to the same lists."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from knapsack_audit.cases import Case, grouped_list

FEW_VALUES = st.sampled_from(
    [
        *(0.0, -0.0, 1e-4, 0.00015, 0.5, 1.0, 1e8, 3, True),
        *(np.float64(1e-4), np.float32(0.1), np.float64(-0.0), np.int32(3), np.int64(2**40)),
    ]
)
"""Values of SPEC 1.2's types, numpy scalars included (they print as
``np.float64(0.0001)``, which evaluates with ``import numpy as np``)."""


@given(st.lists(FEW_VALUES, max_size=40))
@example([0.0, -0.0, -0.0, -0.0])
@example([1, 1.0, 1.0, 1.0])
def test_grouped_list_evaluates_to_the_same_values_and_types(values: list[object]) -> None:
    """SPEC 9.4: the grouped list evaluates to exactly the values, types included."""
    back = eval(grouped_list(values))
    assert len(back) == len(values)
    for got, want in zip(back, values, strict=True):
        assert type(got) is type(want)
        assert repr(got) == repr(want)


def test_a_real_call_of_copies_prints_short() -> None:
    """SPEC 9.4: a call of copies prints as a few runs, much shorter than flat."""
    memory = [0.0016926354242642761] * 26 + [0.0008463177121321381] * 5
    case = Case.of(memory, [7.0] * 31, 0.01)
    assert case.as_call("f") == (
        "f([0.0016926354242642761] * 26 + [0.0008463177121321381] * 5, [7.0] * 31, 0.01)"
    )
    assert case.distinct_items() == 2
    assert len(case.as_flat_call()) > 10 * len(case.as_call())


def test_nan_runs_are_grouped_by_how_they_print() -> None:
    """SPEC 9.4: NaNs (never equal) are grouped by how they print."""
    nan = math.nan
    assert grouped_list([nan, nan, nan]) == "[nan] * 3"


@given(st.lists(st.tuples(FEW_VALUES, FEW_VALUES), max_size=30), FEW_VALUES)
def test_from_call_reads_back_what_as_call_writes(
    items: list[tuple[object, object]], b: object
) -> None:
    """SPEC 9.4: from_call reads back both printed forms exactly."""
    case = Case.of([m for m, _ in items], [r for _, r in items], b)
    for text in (case.as_call("f"), case.as_flat_call("f")):
        name, back = Case.from_call(text)
        assert name == "f"
        assert back.as_flat_call() == case.as_flat_call()


def test_from_call_runs_no_code() -> None:
    """SPEC 9.4: anything but literals, ``list * int`` and ``+`` is refused, not run."""
    import pytest

    for call in ("f([1.0] * len('x'), [1.0], 1.0)", "f([1.0] * 2.0, [1.0], 1.0)", "f(1, 2)"):
        with pytest.raises(ValueError):
            Case.from_call(call)
