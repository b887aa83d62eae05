"""A deal in game-file notation as the rules read it (rules/notation.py): a value of the wrong
shape is a problem at its field, never an exception."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import parse_deal

PLAYERS = ("Anna", "Boris", "Vera")
PASS = {"Boris": "pass", "Vera": "pass"}


@pytest.mark.parametrize("code", [["7S"], {"level": 7}, 7, None, ("7S",)])
@pytest.mark.parametrize(
    "deal",
    [
        {"type": "contract", "declarer": "Anna", "answers": PASS, "tricks": {}},
        {"type": "penalty", "player": "Anna"},
    ],
    ids=["contract", "penalty"],
)
def test_a_contract_that_is_not_text_is_a_problem_at_its_field(
    deal: dict[str, Any], code: Any
) -> None:
    found, problems = parse_deal({**deal, "contract": code}, PLAYERS)
    assert found is None
    assert [p.field for p in problems] == ["contract"]
    assert "is not a contract" in problems[0].message()


def test_a_contract_as_text_is_read() -> None:
    found, problems = parse_deal(
        {"type": "contract", "declarer": "Anna", "contract": "6S", "answers": PASS, "tricks": {}},
        PLAYERS,
    )
    assert problems == [] and found is not None
    assert found.contract.code() == "6S"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("deal", "said"),
    [
        (
            {"type": "allpass", "tricks": {"Anna": 4, "Boris": 3, "Zed": 3}},
            ("tricks", 'tricks: "Zed" is not a player of this game'),
        ),
        (
            {
                "type": "correction",
                "reason": "x",
                "entries": [{"player": "Anna", "whists_on": "Zed", "amount": 2}],
            },
            ("entries.1", 'correction entry 1: whists_on "Zed" is not a player of this game'),
        ),
    ],
    ids=["tricks", "whists_on"],
)
def test_a_name_of_no_player_is_one_problem_at_its_field(
    deal: dict[str, Any], said: tuple[str, str]
) -> None:
    """A name that is not one of the game's players (a key of the tricks, whom whists are
    written on) is not read: one problem, at its field, and nothing more said of it."""
    found, problems = parse_deal(deal, PLAYERS)
    assert found is None
    assert [(p.field, p.message()) for p in problems] == [said]


@pytest.mark.parametrize("count", [11, -1, True, 5.0, "5"])
@pytest.mark.parametrize(
    "deal",
    [
        {"type": "misere", "declarer": "Anna"},
        {"type": "allpass"},
        {"type": "contract", "declarer": "Anna", "contract": "6S", "answers": PASS},
    ],
    ids=["misere", "allpass", "contract"],
)
def test_a_player_takes_0_to_10_tricks(deal: dict[str, Any], count: Any) -> None:
    """docs/rules.md §4 (the ten tricks are split among the active players) and
    docs/game-format.md `tricks`: a count that is not a whole number from 0 to 10 is a
    problem at its field."""
    found, problems = parse_deal({**deal, "tricks": {"Anna": count}}, PLAYERS)
    assert found is None
    assert [p.field for p in problems] == ["tricks.Anna"]


@pytest.mark.parametrize(
    ("deal", "template"),
    [
        ({"declarer": "Anna"}, "the deal has no type"),
        ({"type": None}, "unknown deal type {kind}"),
        ({"type": "bonus"}, "unknown deal type {kind}"),
    ],
)
def test_a_deal_without_a_type_is_told_apart_from_one_of_an_unknown_type(
    deal: dict[str, Any], template: str
) -> None:
    """docs/game-format.md: every deal has a `type` (contract, misere, allpass, correction,
    penalty, redeal); one missing is said so, one of another value is named."""
    found, problems = parse_deal(deal, PLAYERS)
    assert found is None
    assert [(p.field, p.template.split(" (")[0]) for p in problems] == [("type", template)]
