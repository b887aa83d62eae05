"""The rules' problems in English, as `scorekeeper score` prints them: the choices of an
"either" read as a person writes them."""

from __future__ import annotations

import pytest

from scorekeeper.rules.problems import Either, Problem


@pytest.mark.parametrize(
    ("choices", "shown"),
    [
        ((3,), "3"),
        ((3, 4), "3 or 4"),
        ((3, 4, 5), "3, 4 or 5"),
        (("misère", "6♠"), "misère or 6♠"),
    ],
)
def test_either_lists_its_choices_with_or_before_the_last(choices: tuple, shown: str) -> None:
    assert str(Either(choices)) == shown
    assert f"{Either(choices)}" == shown


def test_a_problem_of_a_deal_names_the_deal() -> None:
    problem = Problem("tricks must add up to {total}", {"total": Either((10,))}, "tricks", 7)
    assert str(problem) == "deal 7: tricks must add up to 10"
    assert str(Problem("no players", {})) == "no players"
