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
