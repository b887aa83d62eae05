"""The tournament file (the tournament specification §5): every refusal, one line each naming
tour and table; the report's numbers; the round trip; random tournaments."""

from __future__ import annotations

import json
import random
import unicodedata
from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.tournament import file as tf
from scorekeeper.tournament.sample import random_tournament

from .helpers import TOUR_1, TOUR_2, base, oracle, problems, seat

#: After tour 1: Vera 52, Boris 140/3, Olena 128/3, Anna 20, Petro -72, Dmitri -268/3.


# -- a valid file ----------------------------------------------------------------------------


def test_the_report_has_the_shape_and_exact_numbers_of_the_specification():
    out = tf.report(tf.parse_tournament(base()))
    assert out["standings"] == [
        {"place": 1, "player": "Vera", "points": "52", "whists": "52", "tours": 2, "table_wins": 1},
        {"place": 2, "player": "Boris", "points": "140/3", "whists": "140/3", "tours": 2,
         "table_wins": 1},
        {"place": 3, "player": "Olena", "points": "128/3", "whists": "128/3", "tours": 2,
         "table_wins": 0},
        {"place": 4, "player": "Anna", "points": "20", "whists": "20", "tours": 2, "table_wins": 0},
        {"place": 5, "player": "Petro", "points": "-72", "whists": "-72", "tours": 2,
         "table_wins": 0},
        {"place": 6, "player": "Dmitri", "points": "-268/3", "whists": "-268/3", "tours": 2,
         "table_wins": 0},
    ]  # fmt: skip
    first = out["tours"][0]["tables"]
    assert first[0] == {
        "players": ["Vera", "Anna", "Petro"],
        "finished": True,  # every player has dealt once: the round limit is met
        "results": {"Vera": "52", "Anna": "20", "Petro": "-72"},
        "points": {"Vera": "52", "Anna": "20", "Petro": "-72"},
    }
    assert first[1]["finished"] is False  # settled now: one deal of three
    assert out["tours"][1]["tables"][0]["results"] == {"Olena": "0", "Vera": "0", "Boris": "0"}
    # Tour 2 played no deal yet: the order is the same, and all tables are zeros (no wins).
    assert out["next_tour"] == [["Vera", "Boris", "Olena"], ["Anna", "Petro", "Dmitri"]]
    assert set(out) == {"standings", "tours", "next_tour"}


def test_bands_turn_big_results_into_fewer_points():
    data = base(options={"round_limit": 1, "pool_whists": 1000, "hill_whists": 1000})
    t = tf.parse_tournament(data)
    results = tf.table_results(t.tours[0][0])
    assert sum(results.values()) == 0
    out = tf.report(t)["tours"][0]["tables"][0]
    for player, result in results.items():
        size = abs(result)
        expected = min(size, 200) + max(min(size, 650) - 200, 0) / 10
        assert F(out["points"][player]) == (expected if result >= 0 else -expected)
        assert F(out["results"][player]) == result


def test_a_file_round_trips_through_to_file():
    t = tf.parse_tournament(base(withdrawn=[{"player": "Petro", "after_tour": 2}]))
    again = tf.parse_tournament(json.loads(tf.dumps(t)))
    assert again == t
    assert tf.report(again) == tf.report(t)
    assert tf.to_file(again)["tours"][0]["tables"][1]["name"] == "by the window"


def test_no_tour_yet_seats_in_name_order_and_scale_may_be_left_out():
    data = base(tours=[])
    del data["scale"]
    del data["withdrawn"]
    t = tf.parse_tournament(data)
    assert t.bands == []
    out = tf.report(t)
    assert out["tours"] == []
    assert [s["place"] for s in out["standings"]] == [1] * 6
    assert out["next_tour"] == [["Anna", "Boris", "Dmitri"], ["Olena", "Petro", "Vera"]]


def test_withdrawn_players_keep_their_points_and_are_not_seated_again():
    data = base(withdrawn=[{"player": "Dmitri", "after_tour": 2}])
    out = tf.report(tf.parse_tournament(data))
    assert out["standings"][-1]["player"] == "Dmitri"
    assert out["standings"][-1]["points"] == "-268/3"
    assert out["next_tour"] == [["Vera", "Boris", "Olena", "Anna", "Petro"]]
    # Withdrawn after tour 1: tour 2 is seated without him, five at one table.
    data = base(withdrawn=[{"player": "Dmitri", "after_tour": 1}])
    data["tours"][1] = {
        "tables": [{"players": ["Vera", "Boris", "Olena", "Anna", "Petro"], "deals": []}]
    }
    t = tf.parse_tournament(data)
    assert [s.tours for s in t.standings() if s.player == "Dmitri"] == [1]
    assert tf.report(t)["next_tour"] == [["Vera", "Boris", "Olena", "Anna", "Petro"]]


def test_names_are_read_in_one_unicode_form_and_factors_in_every_written_form():
    decomposed = unicodedata.normalize("NFD", "Олёна")
    data = base(
        players=["Anna", "Boris", "Vera", "Dmitri", "Олёна", "Petro"],
        scale={"bands": [[50, 1], [100.5, "0.5"], [None, "1/10"]]},
    )
    data["tours"][0]["tables"][1]["players"] = ["Boris", decomposed, "Dmitri"]
    data["tours"][0]["tables"][1]["first_dealer"] = decomposed
    data["tours"][0]["tables"][1]["deals"][0]["answers"] = {"Boris": "whist", decomposed: "whist"}
    data["tours"][0]["tables"][1]["deals"][0]["tricks"] = {"Dmitri": 5, "Boris": 3, decomposed: 2}
    data["tours"][1]["tables"][0]["players"] = ["Vera", "Boris", "Олёна"]
    t = tf.parse_tournament(data)
    assert t.standings()[0].points == 51  # Vera's 52: 50 + 2/2
    assert t.bands == [(F(50), F(1)), (F(201, 2), F(1, 2)), (None, F(1, 10))]
    assert tf.to_file(t)["scale"]["bands"] == [[50, "1"], [100.5, "1/2"], [None, "1/10"]]
    assert t.tours[0][1].players == ("Boris", "Олёна", "Dmitri")


# -- every refusal, one line each ------------------------------------------------------------

LIMIT = "options.round_limit is required: the tour's length in rounds (every player deals that many times)"  # noqa: E501


def _no_options_limit() -> dict[str, Any]:
    return base(options={"stake": "0.10"})


def _swap(data: dict[str, Any]) -> dict[str, Any]:
    """Tour 2 seated against the standings: Olena and Anna swap tables."""
    data["tours"][1]["tables"][0]["players"] = ["Anna", "Vera", "Boris"]
    data["tours"][1]["tables"][1]["players"] = ["Dmitri", "Olena", "Petro"]
    data["tours"][1]["tables"][1]["first_dealer"] = "Olena"
    return data


REFUSALS: list[tuple[str, Any, list[str]]] = [
    ("not an object", [1, 2], ["a tournament file must be a JSON object"]),
    ("unknown key", base(colour="red"), ['unknown key "colour"']),
    ("missing table_size", {k: v for k, v in base().items() if k != "table_size"},
     ['missing key "table_size"']),
    ("wrong format", base(format="scorekeeper-company/1"),
     ['unknown format "scorekeeper-company/1" (this reader knows scorekeeper-tournament/1)']),
    ("a game file", {**base(), "format": "scorekeeper-game/1"},
     ["this is a game file, not a tournament file"]),
    ("table size 5", base(table_size=5), ["table_size must be 3 or 4, not 5"]),
    ("table size text", base(table_size="3"), ['table_size must be 3 or 4, not "3"']),
    ("hussar", base(convention="hussar"),
     ["hussar is not a tournament convention (sochi, leningrad, rostov or fspr)"]),
    ("unknown convention", base(convention="moscow"),
     ['unknown convention "moscow" (sochi, leningrad, rostov or fspr)']),
    ("no round limit", _no_options_limit(), [LIMIT]),
    ("round limit null", base(options={"round_limit": None}), [LIMIT]),
    ("a bad option", base(options={"round_limit": 1, "pool_target": 0}),
     ["Pool target: must be a whole number from 1 to 100000, not 0"]),
    ("bands not increasing", base(scale={"bands": [[200, "1"], [100, "1/2"]]}),
     ["scale.bands: band 2: upto 100 is not above the band before"]),
    ("bands equal", base(scale={"bands": [[200, "1"], [200, "1/2"]]}),
     ["scale.bands: band 2: upto 200 is not above the band before"]),
    ("upto zero", base(scale={"bands": [[0, "1"]]}),
     ["scale.bands: band 1: upto must be more than 0, not 0"]),
    ("upto negative", base(scale={"bands": [[-5, "1"]]}),
     ["scale.bands: band 1: upto must be more than 0, not -5"]),
    ("upto text", base(scale={"bands": [["200", "1"]]}),
     ['scale.bands: band 1: upto must be a number or null, not "200"']),
    ("null not last", base(scale={"bands": [[None, "1"], [200, "1"]]}),
     ["scale.bands: band 1: only the last band may have no upper limit (null)"]),
    ("negative factor", base(scale={"bands": [[200, "-1"]]}),
     ['scale.bands: band 1: a factor may not be negative, not "-1"']),
    ("negative whole factor", base(scale={"bands": [[200, -2]]}),
     ["scale.bands: band 1: a factor may not be negative, not -2"]),
    ("factor a float", base(scale={"bands": [[200, 0.5]]}),
     ['scale.bands: band 1: a factor is a whole number or a text like "1/10" or "0.5", not 0.5']),
    ("factor with exponent", base(scale={"bands": [[200, "1e9"]]}),
     ['scale.bands: band 1: a factor is a whole number or a text like "1/10" or "0.5", not "1e9"']),
    ("band not a pair", base(scale={"bands": [[200]]}),
     ["scale.bands: band 1 must be [upto, factor]"]),
    ("unknown key in scale", base(scale={"bands": [], "kind": "x"}),
     ['unknown key "scale.kind"']),
    ("too few players", base(players=["Anna", "Boris"], tours=[]),
     ["a tournament needs at least 3 players, not 2"]),
    ("a name twice", base(players=["Anna", "Boris", "Anna"], tours=[]),
     ['player "Anna" appears twice']),
    ("a name in other capitals", base(players=["Anna", "Boris", "anna"], tours=[]),
     ['player "anna" is the same name as "Anna" (names that differ only in capitals or width'
      ' are one player)']),
    ("a name in capitals", base(players=["Anna", "Boris", "ANNA"], tours=[]),
     ['player "ANNA" is the same name as "Anna" (names that differ only in capitals or width'
      ' are one player)']),
    ("a name in full width", base(players=["Anna", "Boris", "Ａｎｎａ"], tours=[]),
     ['player "Ａｎｎａ" is the same name as "Anna" (names that differ only in capitals or'
      ' width are one player)']),
    ("sharp s", base(players=["Straße", "Boris", "Vera", "STRASSE"], tours=[]),
     ['player "STRASSE" is the same name as "Straße" (names that differ only in capitals or'
      ' width are one player)']),
    ("an empty name", base(players=["Anna", "Boris", " ", "Vera"], tours=[]),
     ["player 3: a name must be non-empty text"]),
    ("withdrawn before any tour", base(tours=[], withdrawn=[{"player": "Anna", "after_tour": 1}]),
     ['withdrawal 1: no tour has been played; take "Anna" off the roster instead']),
    ("withdrawn after a tour not played", base(withdrawn=[{"player": "Anna", "after_tour": 3}]),
     ["withdrawal 1: after_tour must be from 1 to 2 (the tours played), not 3"]),
    ("withdrawn after tour 0", base(withdrawn=[{"player": "Anna", "after_tour": 0}]),
     ["withdrawal 1: after_tour must be from 1 to 2 (the tours played), not 0"]),
    ("withdrawn off the roster", base(withdrawn=[{"player": "Zed", "after_tour": 2}]),
     ['withdrawal 1: "Zed" is not on the roster']),
    ("withdrawn twice", base(withdrawn=[{"player": "Anna", "after_tour": 2}] * 2),
     ['withdrawal 2: "Anna" has withdrawn already']),
    ("withdrawal with a reason", base(withdrawn=[{"player": "Anna", "after_tour": 2, "why": 1}]),
     ['withdrawal 1 must be {"player": …, "after_tour": …} and nothing else']),
    ("a table with a format", seat(1, 2, base(), format="scorekeeper-game/1"),
     ['tour 1, table 2: unknown key "format"']),
    ("a table with options", seat(1, 2, base(), options={"round_limit": 3}),
     ['tour 1, table 2: unknown key "options"']),
    ("a tour with a date", base(tours=[dict(TOUR_1, date="2026-12-01"), TOUR_2]),
     ['tour 1: unknown key "date"']),
    ("a tour that is a list", base(tours=[TOUR_1, []]),
     ['tour 2: a tour must be an object {"tables": [...]}']),
    ("a tour of no tables", base(tours=[TOUR_1, {"tables": []}]),
     ["tour 2: tables must be a list of at least one table"]),
    ("a deal that is wrong", seat(1, 1, base(), deals=[
        {"type": "allpass", "tricks": {"Vera": 2, "Anna": 4, "Petro": 5}}]),
     ["tour 1, table 1: deal 1: tricks add up to 11, not 10"]),
    ("a deal after the tour's rounds", seat(2, 1, base(), deals=[
        {"type": "allpass", "tricks": {"Vera": 2, "Olena": 4, "Boris": 4}}] * 4),
     ["tour 2, table 1: deal 4: the game ended after deal 3: the round limit (1) is reached, "
      "no deal can follow"]),
    ("a first dealer from elsewhere", seat(2, 2, base(), first_dealer="Vera"),
     ['tour 2, table 2: first_dealer "Vera" is not a player of this game']),
    ("a name off the roster", seat(2, 2, base(), players=["Dmitri", "Anna", "Zed"]),
     ['tour 2: "Petro" sits at no table', 'tour 2, table 2: "Zed" is not on the roster']),
    ("a player at two tables", seat(2, 2, base(), players=["Dmitri", "Anna", "Vera"]),
     ['tour 2: "Vera" sits at more than one table: 1, 2', 'tour 2: "Petro" sits at no table']),
    ("a player twice at one table", seat(2, 2, base(), players=["Dmitri", "Anna", "Anna"],
                                         first_dealer="Dmitri"),
     ['tour 2: "Petro" sits at no table', 'tour 2, table 2: player "Anna" appears twice']),
    ("a withdrawn player seated", base(withdrawn=[{"player": "Petro", "after_tour": 1}]),
     ["tour 2: the tables seat 3, 3 players; 5 players at tables of 3 sit 5 (largest first)",
      'tour 2, table 2: "Petro" withdrew after tour 1 and sits in no later tour']),
    ("sizes against §4", base(tours=[{"tables": [
        {"players": ["Vera", "Anna", "Petro", "Boris"]},
        {"players": ["Olena", "Dmitri"]}]}]),
     ["tour 1: the tables seat 4, 2 players; 6 players at tables of 3 sit 3, 3 (largest first)",
      "tour 1, table 2: sochi is played by 3, 4 or 5 players, not 2"]),
    ("smaller table first", base(players=[*base()["players"], "Gleb"], tours=[{"tables": [
        {"players": ["Vera", "Anna", "Petro"]},
        {"players": ["Olena", "Dmitri", "Boris", "Gleb"]}]}]),
     ["tour 1: the tables seat 3, 4 players; 7 players at tables of 3 sit 4, 3 (largest first)"]),
    ("seating against the standings", _swap(base()),
     ["tour 2, table 1: by the standings after tour 1 this table seats Vera, Boris, Olena, "
      "not Anna, Boris, Vera",
      "tour 2, table 2: by the standings after tour 1 this table seats Anna, Petro, Dmitri, "
      "not Dmitri, Olena, Petro"]),
    ("a tour with two left", {
        **base(players=["Anna", "Boris", "Vera"], tours=[
            {"tables": [{"players": ["Anna", "Boris", "Vera"]}]},
            {"tables": [{"players": ["Anna", "Boris"]}]}],
            withdrawn=[{"player": "Vera", "after_tour": 1}])},
     ["tour 2: only 2 players are left: a tour needs at least 3",
      "tour 2, table 1: sochi is played by 3, 4 or 5 players, not 2"]),
    ("a lone surrogate", base(name="\ud800"),
     ["a text holds U+D800 (a lone surrogate): remove it"]),
    ("a lone surrogate at a table", seat(2, 1, base(), name="x\udfff"),
     ["tour 2, table 1: a text holds U+DFFF (a lone surrogate): remove it"]),
    ("tours not a list", base(tours={}), ["tours must be a list"]),
]  # fmt: skip


@pytest.mark.parametrize(("data", "expected"), [(d, e) for _, d, e in REFUSALS],
                         ids=[r[0] for r in REFUSALS])  # fmt: skip
def test_every_broken_file_is_refused_with_one_line_per_problem(data, expected):
    assert problems(data) == expected


def test_problems_are_collected_not_stopped_at_the_first():
    data = base(colour="red", table_size=7, scale={"bands": [[100, "-1"]]})
    seat(1, 1, data, deals=[{"type": "allpass", "tricks": {"Vera": 9, "Anna": 4, "Petro": 4}}])
    seat(2, 2, data, players=["Dmitri", "Anna", "Zed"])
    got = problems(data)
    assert got[:3] == [
        'unknown key "colour"',
        "table_size must be 3 or 4, not 7",
        'scale.bands: band 1: a factor may not be negative, not "-1"',
    ]
    assert "tour 1, table 1: deal 1: tricks add up to 17, not 10" in got
    assert 'tour 2, table 2: "Zed" is not on the roster' in got
    assert all(line.startswith(("tour ", "unknown", "table_size", "scale")) for line in got)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        b"\xff\xfe",
        "[" * 5000 + "]" * 5000,
        '{"table_size": ' + "9" * 5000 + "}",
        '{"players": ["\\ud800"]}',
    ],
)
def test_unreadable_text_is_refused_as_problems_never_an_exception(text):
    with pytest.raises(tf.InvalidTournament) as caught:
        tf.loads(text)
    assert caught.value.problems and all("\n" not in p for p in caught.value.problems)


# -- random tournaments ----------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(5, 24),
    st.integers(1, 4),
    st.integers(0, 2),
)
def test_random_tournaments_are_valid_and_keep_every_rule(seed, players, tours, withdrawals):
    rng = random.Random(seed)
    data = random_tournament(
        rng, players=players, tours=tours, withdrawals=withdrawals, max_deals=6, early=0.3
    )
    t = tf.parse_tournament(data)
    assert tf.parse_tournament(tf.to_file(t)) == t
    out = tf.report(t)
    for number, tour in enumerate(t.tours, start=1):
        seated = [p for table in tour for p in table.players]
        assert sorted(seated) == sorted(t.active(number))  # each active player exactly once
        for table in tour:
            assert sum(tf.table_results(table).values()) == 0  # nets per table sum to zero
    assert sorted(p for table in out["next_tour"] for p in table) == sorted(t.active())
    assert sum(F(s["whists"]) for s in out["standings"]) == 0


# -- an independent reading of the specification, compared on random tournaments --------------


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(5, 24),
    st.integers(1, 5),
    st.integers(0, 3),
    st.sampled_from([0, 1, 2, 3]),
)
def test_the_report_agrees_with_an_independent_reading(seed, players, tours, withdrawals, band):
    rng = random.Random(seed)
    bands = [
        [[200, "1"], [650, "1/10"], [None, "0"]],
        [[50, 1], [100, "0.5"], [None, "1/10"]],
        [[30, "2"], [90.5, "1/3"]],
        [],
    ][band]
    data = random_tournament(
        rng, players=players, tours=tours, withdrawals=withdrawals, bands=bands, max_deals=5,
        early=0.3,
    )  # fmt: skip
    assert tf.report(tf.parse_tournament(data)) == oracle(data)
