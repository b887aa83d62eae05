"""A bad value of a Russian game file is shown in its problem as the file writes it
(docs/game-format.md "The deals"; the options of docs/rules.md §7): null, true and false,
never Python's None, True and False, where a name, a contract, an answer or a number belongs."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import parse_deal, resolve_options

PLAYERS = ("Anna", "Boris", "Vera")


@pytest.mark.parametrize(
    ("deal", "line"),
    [
        ({"type": "redeal", "dealer": None}, "dealer: null is not a player of this game"),
        (
            {"type": "allpass", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}, "dealer": None},
            "dealer: null is not a player of this game",
        ),
        (
            {"type": "misere", "declarer": True, "tricks": {"Anna": 0}},
            "declarer: true is not a player of this game",
        ),
        (
            {"type": "contract", "declarer": "Anna", "contract": None, "answers": {}},
            "null is not a contract: write a level 6 to 10 and S, C, D, H or NT (e.g. 7S)",
        ),
        (
            {"type": "contract", "declarer": "Anna", "contract": "6S", "answers": {"Boris": False}},
            "answers: false is not an answer (whist, pass, half-whist, whist-returned, whist-talon)",
        ),
        (
            {"type": "allpass", "tricks": {"Anna": True, "Boris": 5, "Vera": 4}},
            "tricks of Anna must be a whole number, not true",
        ),
        (
            {"type": "contract", "declarer": "Anna", "contract": "6S", "answers": {},
             "talon_tricks": None},
            "talon_tricks must be 0, 1, 2 or 3 (quick tricks in the talon), not null",
        ),
        ({"type": None}, "unknown deal type null (contract, misere, allpass, correction, "
         "penalty, redeal)"),
        (
            {"type": "penalty", "player": None, "contract": "6S"},
            "player: null is not a player of this game",
        ),
    ],
)  # fmt: skip
def test_a_null_or_true_where_a_value_belongs_is_shown_as_the_file_writes_it(
    deal: dict[str, Any], line: str
) -> None:
    """docs/game-format.md "The deals": the problem names the value as written; a plain
    deal read by the quick path refuses a null dealer or talon_tricks as the full reading."""
    _, problems = parse_deal(deal, PLAYERS)
    assert line in [p.message() for p in problems]
    assert not any("None" in p.message() or "True" in p.message() for p in problems)


@pytest.mark.parametrize(
    ("options", "line"),
    [
        ({"pool_target": None}, "must be a whole number from"),
        ({"stake": True}, "with at most four decimals"),
        ({"pool_size": 20}, 'unknown option "pool_size"'),
    ],
)
def test_an_option_is_shown_as_the_file_writes_it(options: dict[str, Any], line: str) -> None:
    """docs/rules.md §7: a bad option's value (or an unknown option's name) as written."""
    _, problems = resolve_options("sochi", options)
    [message] = [p.message() for p in problems]
    assert line in message
    if options != {"pool_size": 20}:
        assert message.endswith(("not null", "not true")), message
