"""A deal as the scorer enters it (scorekeeper.rules.entered): the deal form's one mapping of
texts → a Deal in game-file notation, or its problems, each at its field."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import PRESETS, Game, deal_to_dict, read_entered, replay
from scorekeeper.rules.seat import Seat
from scorekeeper.rules.seat import seat as seat_of

THREE = ("Anna", "Boris", "Vera")
FOUR = ("Anna", "Boris", "Vera", "Gleb")


def seat(players: tuple[str, ...] = THREE) -> Seat:
    game = Game(
        convention="sochi",
        options=PRESETS["sochi"],
        players=players,
        first_dealer="Anna",
        deals=(),
    )
    sheet, problems = replay(game)
    assert problems == []
    return seat_of(sheet)


def entered(**given: Any) -> dict[str, Any]:
    """The form's mapping: every key the form gathers, blank unless given."""
    blank: dict[str, Any] = {
        "type": "contract",
        "declarer": None,
        "player": None,
        "contract": None,
        "reason": "",
        "answers": {},
        "tricks": {},
        "entries": [],
    }
    return blank | given


# A deal that reads → the deal in game-file notation, as the store keeps it.
READ = [
    (
        entered(declarer="Anna", contract="7S", answers={"Boris": "pass", "Vera": "pass"}),
        {
            "type": "contract",
            "declarer": "Anna",
            "contract": "7S",
            "answers": {"Boris": "pass", "Vera": "pass"},
        },
    ),
    (
        # Tricks are read once somebody whists; the declarer's own answer field is left aside.
        entered(
            declarer="Anna",
            contract="10NT",
            answers={"Anna": "whist", "Boris": "whist", "Vera": "pass"},
            tricks={"Anna": "9", "Boris": "1", "Vera": ""},
        ),
        {
            "type": "contract",
            "declarer": "Anna",
            "contract": "10NT",
            "answers": {"Boris": "whist", "Vera": "pass"},
            "tricks": {"Anna": 9, "Boris": 1},
        },
    ),
    (
        # Nobody whists: tricks written by mistake are not part of the deal.
        entered(
            declarer="Boris",
            contract="6H",
            answers={"Vera": "pass", "Anna": "pass"},
            tricks={"Boris": "6"},
        ),
        {
            "type": "contract",
            "declarer": "Boris",
            "contract": "6H",
            "answers": {"Vera": "pass", "Anna": "pass"},
        },
    ),
    (
        entered(type="misere", declarer="Vera", tricks={"Vera": "0"}),
        {"type": "misere", "declarer": "Vera", "tricks": {"Vera": 0}},
    ),
    (
        entered(type="allpass", tricks={"Anna": "4", "Boris": "3", "Vera": "3"}),
        {"type": "allpass", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}},
    ),
    (
        entered(type="penalty", player="Boris", contract="8D"),
        {"type": "penalty", "player": "Boris", "contract": "8D"},
    ),
    (
        # The reason is trimmed, its line ends made \n and its letters composed (NFC);
        # an amount is exact: 2.5 is kept as 5/2, a whole amount as a number.
        entered(
            type="correction",
            reason="  e\u0301crit\r\nwrong  ",
            entries=[
                {"player": "Anna", "pool": " 2.5 "},
                {"player": "Boris", "hill": "-4"},
                {"player": "Vera", "whists_on": "Anna", "amount": "10"},
            ],
        ),
        {
            "type": "correction",
            "reason": "\u00e9crit\nwrong",
            "entries": [
                {"player": "Anna", "pool": "5/2"},
                {"player": "Boris", "hill": -4},
                {"player": "Vera", "whists_on": "Anna", "amount": 10},
            ],
        },
    ),
]


@pytest.mark.parametrize(("raw", "notation"), READ, ids=lambda v: str(v)[:40])
def test_an_entered_deal_reads_as_the_store_keeps_it(
    raw: dict[str, Any], notation: dict[str, Any]
) -> None:
    deal, problems = read_entered(raw, seat())
    assert problems == []
    assert deal is not None
    assert deal_to_dict(deal) == notation


# A deal that does not read → its problems, as (field, message), in the form's words.
REFUSED = [
    (entered(type=None), [("type", "Choose what to record")]),
    # Redeal is a kind of the Hussar game alone.
    (entered(type="redeal"), [("type", "Choose what to record")]),
    (entered(declarer=None, contract="7S"), [("declarer", "Choose the declarer")]),
    (entered(declarer="Nobody", contract="7S"), [("declarer", "Choose the declarer")]),
    (entered(declarer="Anna", contract="5S"), [("contract", "Choose the contract")]),
    (entered(declarer="Anna", contract=None), [("contract", "Choose the contract")]),
    (
        entered(type="misere", declarer="Anna", tricks={"Anna": "11", "Boris": "x"}),
        [("tricks.Anna", "Tricks are 0 to 10"), ("tricks.Boris", "Tricks are 0 to 10")],
    ),
    (
        entered(type="penalty", player=None, contract=""),
        [("player", "Choose who is fined"), ("contract", "Choose the contract")],
    ),
    (
        entered(type="correction", reason=" \r\n "),
        [("reason", "Say why the correction is made"), ("entries", "Write at least one amount")],
    ),
    (
        entered(
            type="correction",
            reason="r",
            entries=[
                {"player": None, "pool": "1"},
                {"player": "Anna", "pool": "1e3"},
                {"player": "Anna", "whists_on": None, "amount": "1"},
                {"player": "Anna", "amount": "1"},
            ],
        ),
        [
            ("entries.1", "Choose the player"),
            (
                "entries.2",
                "Write an amount from −1,000,000 to 1,000,000 whists, e.g. 10, −4 or 2.5 "
                "(no exponents)",
            ),
            ("entries.3", "Choose whom the whists are written on"),
            ("entries.4", "Choose pool, hill or whists"),
        ],
    ),
    # What the form's words let through, game-file notation still refuses, at its field.
    (
        entered(declarer="Anna", contract="7S", answers={"Boris": "maybe"}),
        [
            (
                "answers.Boris",
                'answers: "maybe" is not an answer (whist, pass, half-whist, whist-returned, whist-talon)',
            )
        ],
    ),
    (
        entered(type="correction", reason="a\x1bb", entries=[{"player": "Anna", "pool": "1"}]),
        [("reason", "the reason holds U+001B escape: remove it")],
    ),
]


@pytest.mark.parametrize(("raw", "said"), REFUSED, ids=lambda v: str(v)[:40])
def test_an_entered_deal_that_does_not_read_says_why_at_each_field(
    raw: dict[str, Any], said: list[tuple[str, str]]
) -> None:
    deal, problems = read_entered(raw, seat())
    assert deal is None
    assert [(p.field, p.message()) for p in problems] == said


def test_the_answers_read_are_the_defenders_of_the_declarer_at_this_seat() -> None:
    # At four Anna deals and sits out: Boris's defenders are Vera and Gleb.
    raw = entered(
        declarer="Boris",
        contract="7C",
        answers={"Anna": "whist", "Boris": "whist", "Vera": "pass", "Gleb": "pass"},
    )
    deal, problems = read_entered(raw, seat(FOUR))
    assert problems == [] and deal is not None
    assert deal_to_dict(deal)["answers"] == {"Vera": "pass", "Gleb": "pass"}
