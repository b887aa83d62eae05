"""Broken game files are refused with one clear line per problem, naming the deal."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from scorekeeper import gamefile
from scorekeeper.rules import InvalidGame

from .helpers import allpass, contract, game_file, misere

W, P, H = "whist", "pass", "half-whist"
GOOD = contract("A", "7S", {"B": W, "C": P}, {"A": 5, "B": 3, "C": 2})


def problems(data: Any) -> str:
    with pytest.raises(InvalidGame) as caught:
        gamefile.load(data)
    return str(caught.value)


def with_deal(deal: Any, **kw: Any) -> dict[str, Any]:
    return game_file([GOOD, deal], **kw)


@pytest.mark.parametrize(
    ("case", "data", "message"),
    [
        ("not_an_object", [], "a game file must be a JSON object"),
        ("unknown_top_key", {**game_file([]), "colour": "red"}, 'unknown key "colour"'),
        (
            "missing_players",
            {k: v for k, v in game_file([]).items() if k != "players"},
            'missing key "players"',
        ),
        ("unknown_format", {**game_file([]), "format": "other/9"}, "unknown format"),
        ("unknown_convention", game_file([], convention="moscow"), "unknown convention"),
        ("unknown_option", game_file([], options={"pool_size": 20}), 'unknown option "pool_size"'),
        (
            "bad_option_type",
            game_file([], options={"pool_target": "ten"}),
            "Pool target: must be a whole",
        ),
        (
            "bad_option_choice",
            game_file([], options={"overflow": "give"}),
            "Points above the pool target: “give” is not one of its values",
        ),
        (
            "half_whist_on_eight",
            game_file([], options={"half_whist": [8]}),
            "Half-whist: 8 is not allowed",
        ),
        ("bad_stake", game_file([], options={"stake": "a lot"}), "Stake per whist: must be money"),
        (
            "two_players_in_sochi",
            game_file([], players=["A", "B"]),
            "sochi is played by 3, 4 or 5 players, not 2",
        ),
        (
            "three_players_in_hussar",
            game_file([], convention="hussar", players=["A", "B", "C"]),
            "hussar is played by 2 players, not 3",
        ),
        ("six_players", game_file([], players=list("ABCDEF")), "not 6"),
        ("empty_name", game_file([], players=["A", "", "C"]), "player 2: a name must be non-empty"),
        ("duplicate_name", game_file([], players=["A", "B", "A"]), 'player "A" appears twice'),
        ("name_not_text", game_file([], players=["A", 7, "C"]), "player 2"),
        ("first_dealer_unknown", game_file([], first_dealer="Z"), 'first_dealer "Z"'),
        (
            "finished_not_bool",
            {**game_file([]), "finished": "yes"},
            "finished must be true or false",
        ),
        ("deals_not_list", {**game_file([]), "deals": {}}, "deals must be a list"),
        ("deal_not_object", with_deal("7S"), "deal 2: a deal must be an object"),
        ("unknown_deal_type", with_deal({"type": "raspasy"}), "deal 2: unknown deal type"),
        ("deal_without_type", with_deal({"declarer": "A"}), "deal 2: the deal has no type"),
        ("unknown_deal_key", with_deal({**GOOD, "note": "x"}), 'deal 2: unknown key "note"'),
        (
            "contract_level_5",
            with_deal(contract("A", "5NT", {"B": P, "C": P})),
            'deal 2: "5NT" is not a contract',
        ),
        (
            "contract_level_11",
            with_deal(contract("A", "11S", {"B": P, "C": P})),
            'deal 2: "11S" is not a contract',
        ),
        (
            "contract_suit_x",
            with_deal(contract("A", "7X", {"B": P, "C": P})),
            'deal 2: "7X" is not a contract',
        ),
        ("contract_not_text", with_deal(contract("A", 7, {"B": P, "C": P})), "is not a contract"),
        (
            "declarer_unknown",
            with_deal(contract("Z", "7S", {"B": P, "C": P})),
            'deal 2: declarer: "Z" is not a player',
        ),
        (
            "declarer_sits_out",
            game_file(
                [contract("D", "7S", {"A": P, "B": P})], players=list("ABCD"), first_dealer="D"
            ),
            "deal 1: D deals and sits out this deal, so cannot declare",
        ),
        (
            "declarer_answers",
            with_deal(contract("A", "7S", {"A": P, "B": P})),
            "deal 2: A is the declarer and does not answer",
        ),
        ("missing_answer", with_deal(contract("A", "7S", {"B": P})), "deal 2: C has not answered"),
        (
            "dealer_answers",
            game_file(
                [contract("A", "7S", {"B": P, "C": P, "D": P})],
                players=list("ABCD"),
                first_dealer="D",
            ),
            "deal 1: D deals and sits out this deal, so does not answer",
        ),
        (
            "bad_answer",
            with_deal(contract("A", "7S", {"B": "maybe", "C": P})),
            'deal 2: answers: "maybe" is not an answer',
        ),
        (
            "half_whist_by_first_defender",
            with_deal(contract("A", "6S", {"B": H, "C": P})),
            "deal 2: B: only the second defender, after the first passed, may half-whist",
        ),
        (
            "half_whist_after_whist",
            with_deal(contract("A", "6S", {"B": W, "C": H}, {"A": 6})),
            "only the second defender, after the first passed",
        ),
        (
            "half_whist_on_eight",
            with_deal(contract("A", "8S", {"B": P, "C": H})),
            "deal 2: C: no half-whist on 8 in this game",
        ),
        (
            "half_whist_not_allowed_by_options",
            game_file([contract("A", "7S", {"B": P, "C": H})], options={"half_whist": [6]}),
            "no half-whist on 7",
        ),
        (
            "whist_talon_outside_hussar",
            with_deal(contract("A", "6S", {"B": "whist-talon", "C": P}, {"A": 6})),
            "whist-talon is not an answer in this game",
        ),
        (
            "half_whist_in_hussar",
            game_file([contract("A", "6S", {"B": H})], convention="hussar"),
            "half-whist is not an answer in this game",
        ),
        (
            "missing_declarer_tricks",
            with_deal(contract("A", "7S", {"B": W, "C": P}, {"B": 3})),
            "deal 2: tricks missing: A",
        ),
        (
            "missing_tricks_when_played",
            with_deal(contract("A", "7S", {"B": W, "C": P})),
            "deal 2: tricks missing: A",
        ),
        (
            "missing_second_whister_tricks",
            with_deal(contract("A", "7S", {"B": W, "C": W}, {"A": 7, "B": 3})),
            "deal 2: tricks missing: C",
        ),
        (
            "tricks_when_nobody_whists",
            with_deal(contract("A", "7S", {"B": P, "C": P}, {"A": 7})),
            "no tricks are written when nobody whists",
        ),
        (
            "tricks_negative",
            with_deal(contract("A", "7S", {"B": W, "C": P}, {"A": -1})),
            "deal 2: tricks of A must be 0 to 10, not -1",
        ),
        (
            "tricks_above_ten",
            with_deal(contract("A", "7S", {"B": W, "C": P}, {"A": 11})),
            "tricks of A must be 0 to 10, not 11",
        ),
        (
            "tricks_not_integer",
            with_deal(contract("A", "7S", {"B": W, "C": P}, {"A": 6.5})),
            "tricks of A must be a whole number, not 6.5",
        ),
        (
            "tricks_boolean",
            with_deal(contract("A", "7S", {"B": W, "C": P}, {"A": True})),
            "tricks of A must be a whole number",
        ),
        (
            "tricks_as_string",
            with_deal(contract("A", "7S", {"B": W, "C": P}, {"A": "7"})),
            "tricks of A must be a whole number",
        ),
        (
            "tricks_add_to_eleven",
            with_deal(contract("A", "7S", {"B": W, "C": W}, {"A": 7, "B": 3, "C": 1})),
            "deal 2: tricks add up to 11, not 10",
        ),
        (
            "tricks_add_to_nine",
            with_deal(contract("A", "7S", {"B": W, "C": W}, {"A": 7, "B": 1, "C": 1})),
            "deal 2: tricks add up to 9, not 10",
        ),
        (
            "tricks_partial_over_ten",
            with_deal(contract("A", "7S", {"B": W, "C": P}, {"A": 7, "B": 4})),
            "tricks add up to 11, more than 10",
        ),
        (
            "tricks_unknown_player",
            with_deal(contract("A", "7S", {"B": W, "C": P}, {"A": 7, "Z": 3})),
            'tricks: "Z" is not a player',
        ),
        (
            "tricks_of_dealer",
            game_file(
                [contract("A", "7S", {"B": W, "C": P}, {"A": 7, "B": 3, "D": 0})],
                players=list("ABCD"),
                first_dealer="D",
            ),
            "D deals and sits out this deal, so takes no tricks",
        ),
        (
            "allpass_missing_player",
            with_deal(allpass(A=4, B=6)),
            "deal 2: tricks missing: C",
        ),
        ("allpass_sum", with_deal(allpass(A=4, B=6, C=1)), "deal 2: tricks add up to 11, not 10"),
        (
            "misere_without_tricks",
            with_deal({"type": "misere", "declarer": "A", "tricks": {}}),
            "deal 2: tricks missing: A",
        ),
        (
            "misere_with_answers",
            with_deal({**misere("A", 0), "answers": {}}),
            'unknown key "answers" in a misere deal',
        ),
        (
            "allpass_in_hussar",
            game_file([allpass(A=5, B=5)], convention="hussar"),
            "deal 1: there is no all-pass in Hussar",
        ),
        (
            "contract_below_exit",
            game_file(
                [allpass(A=2, B=3, C=5), contract("A", "6S", {"B": P, "C": P})],
                convention="leningrad",
            ),
            "deal 2: after all-pass (1 in a row) the contract must be at least 7",
        ),
        (
            "wrong_dealer",
            with_deal({**contract("A", "6S", {"B": P, "C": P}), "dealer": "C"}),
            "deal 2: it is A's deal, not C's",
        ),
        (
            "dealer_unknown",
            with_deal({**contract("A", "6S", {"B": P, "C": P}), "dealer": "Q"}),
            'dealer: "Q" is not a player',
        ),
        (
            "correction_unknown_player",
            with_deal(
                {"type": "correction", "reason": "x", "entries": [{"player": "Z", "hill": 1}]}
            ),
            'deal 2: correction entry 1: "Z" is not a player',
        ),
        (
            "correction_whists_on_self",
            with_deal(
                {
                    "type": "correction",
                    "reason": "x",
                    "entries": [{"player": "A", "whists_on": "A", "amount": 5}],
                }
            ),
            "A cannot write whists on their own name",
        ),
        (
            "correction_whists_on_unknown",
            with_deal(
                {
                    "type": "correction",
                    "reason": "x",
                    "entries": [{"player": "A", "whists_on": "Q", "amount": 5}],
                }
            ),
            'whists_on "Q" is not a player',
        ),
        (
            "correction_empty",
            with_deal({"type": "correction", "reason": "x", "entries": []}),
            "a correction needs a non-empty list of entries",
        ),
        (
            "correction_amount_not_number",
            with_deal(
                {"type": "correction", "reason": "x", "entries": [{"player": "A", "pool": "two"}]}
            ),
            "pool must be a number",
        ),
        (
            "correction_writes_nothing",
            with_deal({"type": "correction", "reason": "x", "entries": [{"player": "A"}]}),
            "correction entry 1 writes nothing",
        ),
        (
            "correction_unknown_key",
            with_deal(
                {"type": "correction", "reason": "x", "entries": [{"player": "A", "pul": 2}]}
            ),
            'correction entry 1: unknown key "pul"',
        ),
        (
            "deal_after_game_ended",
            game_file(
                [
                    {
                        "type": "correction",
                        "reason": "x",
                        "entries": [{"player": p, "pool": 10} for p in "ABC"],
                    },
                    contract("A", "6S", {"B": P, "C": P}),
                ]
            ),
            "deal 2: the game ended after deal 1",
        ),
    ],
)
def test_invalid_file_is_refused(case, data, message):
    assert message in problems(data), case


def test_every_problem_is_reported_not_just_the_first():
    data = game_file(
        [
            contract("A", "7S", {"B": W, "C": W}, {"A": 7, "B": 3, "C": 1}),
            contract("B", "12S", {"C": P, "A": P}),
            allpass(A=1, B=1, C=1),
        ]
    )
    text = problems(data)
    assert "deal 1: tricks add up to 11" in text
    assert "deal 2:" in text
    assert "deal 3: tricks add up to 3" in text


def test_malformed_json_text():
    with pytest.raises(InvalidGame) as caught:
        gamefile.loads('{"format": "scorekeeper-game/1", ')
    assert "not valid JSON" in str(caught.value)


def test_suit_symbols_are_accepted_and_written_back_as_letters():
    game = gamefile.load(game_file([contract("A", "7♠", {"B": P, "C": P})]))
    assert gamefile.dump(game)["deals"][0]["contract"] == "7S"


def test_a_valid_file_stays_valid_after_a_deep_copy_roundtrip():
    data = game_file([GOOD, misere("B", 0), allpass(A=3, B=3, C=4)])
    game = gamefile.load(copy.deepcopy(data))
    again = json.loads(gamefile.dumps(game))
    assert gamefile.dump(gamefile.load(again)) == again
