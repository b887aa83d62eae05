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


def test_a_wrong_value_is_shown_whole_up_to_forty_characters() -> None:
    """What was written is quoted back whole while it fits 40 characters (quotes included),
    then cut with "..." so a problem stays one short line."""
    from scorekeeper.rules import parse_deal

    players = ["Anna", "Boris", "Vera"]
    answers = {"Boris": "pass", "Vera": "pass"}

    def shown(code: str) -> str:
        raw = {"type": "contract", "declarer": "Anna", "contract": code, "answers": answers}
        _, problems = parse_deal(raw, players)
        return str(problems[0])

    assert f'"{"X" * 38}" is not a contract' in shown("X" * 38)
    assert f'"{"X" * 36}...' in shown("X" * 39)
    assert "X" * 37 not in shown("X" * 39)


def test_a_currency_must_be_text() -> None:
    from scorekeeper.rules import resolve_options

    _, problems = resolve_options("sochi", {"currency": 5})
    assert [p.field for p in problems] == ["options.currency"]
    assert "must be text" in str(problems[0])
    options, problems = resolve_options("sochi", {"currency": "грн"})
    assert problems == [] and options.currency == "грн"
