"""A late player in the tournament file (docs/tournament.md reading 12): the `joined` key,
who sits in which tour, zeros for the tours missed, the Swiss seating with them, every
refusal, and a file without late players written exactly as before."""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.tournament import standings, swiss_tables, table_sizes
from scorekeeper.tournament import file as tf
from scorekeeper.tournament import text as tt
from scorekeeper.tournament.sample import random_tournament

from .helpers import TOUR_1, base, oracle, problems

PLAYERS = ["Anna", "Boris", "Vera", "Dmitri", "Olena", "Petro"]


def tour_2_with(late: str) -> dict[str, Any]:
    """Tour 2 seated by §4 for the six of tour 1 and `late`, who has 0 from tour 1: the order
    is worked out here from the rules module, not typed by hand."""
    tour_1 = tf.parse_tournament(base(tours=[copy.deepcopy(TOUR_1)])).tours[0]
    table = standings([*PLAYERS, late], [t.results for t in tour_1], [])
    ordered = [s.player for s in table]
    tables = swiss_tables(ordered, table_sizes(len(ordered), 3))
    return {"tables": [{"players": t, "first_dealer": t[0], "deals": []} for t in tables]}


def late(before: int = 2, tours: int = 2, **changes: Any) -> dict[str, Any]:
    """Zoya joins before tour `before`; the file holds tour 1 and, with tours=2, tour 2 seated
    with her."""
    played = [copy.deepcopy(TOUR_1)] + ([tour_2_with("Zoya")] if tours == 2 else [])
    data = base(
        players=[*PLAYERS, "Zoya"],
        joined=[{"player": "Zoya", "before_tour": before}],
        tours=played,
    )
    data.update(changes)
    return data


# -- a valid file ----------------------------------------------------------------------------


def test_a_late_player_sits_from_the_tour_before_which_they_joined():
    t = tf.parse_tournament(late())
    assert t.joined == {"Zoya": 2}
    assert "Zoya" not in t.active(1)
    assert "Zoya" in t.active(2)
    assert [p for tab in t.tours[1] for p in tab.players if p == "Zoya"] == ["Zoya"]


def test_a_missed_tour_counts_nothing_not_a_tour_and_no_win():
    # Reading 12: 0 points, 0 whists, not in `tours`, no table win for a tour missed.
    t = tf.parse_tournament(late(tours=1))
    zoya = next(s for s in t.standings() if s.player == "Zoya")
    assert (zoya.points, zoya.whists, zoya.tours, zoya.table_wins) == (0, 0, 0, 0)
    others = [s for s in t.standings() if s.player != "Zoya"]
    assert all(s.tours == 1 for s in others)
    # The six of tour 1 keep exactly what the same file without her gives them.
    alone = tf.parse_tournament(base(tours=[copy.deepcopy(TOUR_1)])).standings()
    assert [(s.player, s.points, s.whists, s.table_wins) for s in alone] == [
        (s.player, s.points, s.whists, s.table_wins) for s in others
    ]


def test_next_tour_seats_the_late_player_by_the_standings_with_zeros():
    t = tf.parse_tournament(late(tours=1))
    seating = tf.report(t)["next_tour"]
    assert seating == [tab["players"] for tab in tour_2_with("Zoya")["tables"]]
    # 7 players at tables of 3 sit 4, 3 (§4); Zoya (0) sits between Anna (+20) and Petro
    # (−72) in the standings, so at the second table with the two below her.
    assert [len(tab) for tab in seating] == [4, 3]
    assert seating[1] == ["Zoya", "Petro", "Dmitri"]


def test_a_late_player_then_withdrawn_leaves_after_joining():
    data = late(withdrawn=[{"player": "Zoya", "after_tour": 2}])
    t = tf.parse_tournament(data)
    assert "Zoya" not in t.active()
    assert tf.report(t)["next_tour"] and all("Zoya" not in tab for tab in t.next_tour())


def test_the_text_report_says_when_a_player_joined():
    text = tt.text_report(
        tf.parse_tournament(late(withdrawn=[{"player": "Zoya", "after_tour": 2}]))
    )
    zoya = next(line for line in text.splitlines() if " Zoya " in line and "joined" in line)
    assert zoya.endswith("joined before tour 2  withdrew after tour 2")


def test_late_players_round_trip_and_a_file_without_them_has_no_joined_key():
    t = tf.parse_tournament(late())
    written = tf.to_file(t)
    assert written["joined"] == [{"player": "Zoya", "before_tour": 2}]
    again = tf.parse_tournament(json.loads(tf.dumps(t)))
    assert again == t
    assert tf.report(again) == tf.report(t)
    plain = tf.parse_tournament(base())
    assert "joined" not in tf.to_file(plain)
    assert "joined" not in json.loads(tf.dumps(plain))
    # An empty list read is the same tournament and is written without the key, as before.
    assert tf.dumps(tf.parse_tournament(base(joined=[]))) == tf.dumps(plain)


def test_without_the_joined_key_a_player_missing_from_tour_1_is_refused():
    data = late(tours=1)
    del data["joined"]
    assert problems(data) == [
        'tour 1: "Zoya" sits at no table',
        "tour 1: the tables seat 3, 3 players; 7 players at tables of 3 sit 4, 3 (largest first)",
    ]


# -- refusals --------------------------------------------------------------------------------


def _seated_in_tour_1() -> dict[str, Any]:
    data = late()
    data["tours"][0]["tables"][1]["players"].append("Zoya")
    data["tours"][0]["tables"][1]["deals"] = []
    return data


def _missing_from_tour_2() -> dict[str, Any]:
    data = late()
    for table in data["tours"][1]["tables"]:
        table["players"] = [p for p in table["players"] if p != "Zoya"]
    return data


def _against_the_standings() -> dict[str, Any]:
    """Zoya swapped with Anna: she sits at table 1 as if she had more than +20."""
    data = late()
    tables = data["tours"][1]["tables"]
    swap = {"Zoya": "Anna", "Anna": "Zoya"}
    for table in tables:
        table["players"] = [swap.get(p, p) for p in table["players"]]
        table["first_dealer"] = table["players"][0]
    return data


REFUSALS: list[tuple[str, Any, list[str]]] = [
    ("joined not a list", late(joined={}),
     ['joined must be a list of {"player": …, "before_tour": …}']),
    ("an entry of another shape", late(joined=[{"player": "Zoya", "after_tour": 2}]),
     ['late player 1 must be {"player": …, "before_tour": …} and nothing else']),
    ("not on the roster", late(joined=[{"player": "Zed", "before_tour": 2}]),
     ['late player 1: "Zed" is not on the roster']),
    ("joined twice", late(joined=[{"player": "Zoya", "before_tour": 2}] * 2),
     ['late player 2: "Zoya" has joined already']),
    ("before_tour not a whole number", late(joined=[{"player": "Zoya", "before_tour": "2"}]),
     ['late player 1: before_tour must be a whole number, not "2"']),
    ("before tour 1", late(joined=[{"player": "Zoya", "before_tour": 1}]),
     ['late player 1: "Zoya" joins before tour 1, which is the same as being on the roster: '
      "leave the entry out"]),
    ("after the next tour", late(joined=[{"player": "Zoya", "before_tour": 4}]),
     ["late player 1: before_tour must be from 2 to 3 (the tour after the last played), "
      "not 4"]),
    ("no tour played", {**late(tours=1), "tours": []},
     ['late player 1: no tour has been played, so "Zoya" is not late: leave the entry out']),
    ("withdrew before joining", late(withdrawn=[{"player": "Zoya", "after_tour": 1}]),
     ['late player 1: "Zoya" withdrew after tour 1, before joining before tour 2']),
    ("seated before joining", _seated_in_tour_1(),
     ["tour 1: the tables seat 3, 4 players; 6 players at tables of 3 sit 3, 3 (largest "
      "first)",
      'tour 1, table 2: "Zoya" joins before tour 2 and sits in no earlier tour']),
    ("missing after joining", _missing_from_tour_2(),
     ['tour 2: "Zoya" sits at no table',
      "tour 2: the tables seat 4, 2 players; 7 players at tables of 3 sit 4, 3 (largest "
      "first)",
      "tour 2, table 2: sochi is played by 3, 4 or 5 players, not 2"]),
    ("seated against the standings with zeros", _against_the_standings(),
     ["tour 2, table 1: by the standings after tour 1 this table seats Vera, Boris, Olena, "
      "Anna, not Boris, Olena, Vera, Zoya",
      "tour 2, table 2: by the standings after tour 1 this table seats Zoya, Petro, Dmitri, "
      "not Anna, Dmitri, Petro"]),
]  # fmt: skip


@pytest.mark.parametrize(("data", "expected"), [(d, e) for _, d, e in REFUSALS],
                         ids=[r[0] for r in REFUSALS])  # fmt: skip
def test_every_broken_late_player_is_refused_with_one_line_per_problem(data, expected):
    assert problems(data) == expected


def test_the_sizes_of_a_tour_are_those_of_the_players_present():
    # Tour 1: six players, 3 + 3; tour 2: seven with Zoya, 4 + 3 (§4 for those present).
    t = tf.parse_tournament(late())
    assert [len(tab.players) for tab in t.tours[0]] == table_sizes(6, 3)
    assert [len(tab.players) for tab in t.tours[1]] == table_sizes(7, 3)
    assert F(0) == next(s.points for s in t.standings(after=1) if s.player == "Zoya")


# -- random tournaments with late players -----------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(3, 20),
    st.integers(1, 4),
    st.integers(0, 2),
    st.integers(1, 3),
)
def test_random_tournaments_with_late_players_keep_every_rule(
    seed, players, tours, withdrawals, joins
):
    data = random_tournament(
        random.Random(seed), players=players, tours=tours, withdrawals=withdrawals,
        joins=joins, max_deals=5, early=0.3,
    )  # fmt: skip
    t = tf.parse_tournament(data)
    assert tf.parse_tournament(json.loads(tf.dumps(t))) == t
    # the independent reading of test_tournament_file, which knows nothing of `joined`:
    # a late player's missed tours are simply tables he did not sit at (reading 12)
    assert tf.report(t) == oracle(data)
    for s in t.standings():
        present = sum(1 for number in range(1, len(t.tours) + 1) if s.player in t.active(number))
        assert s.tours == present
        if t.joined.get(s.player, 1) > len(t.tours):
            assert (s.points, s.whists, s.table_wins) == (0, 0, 0)
    for number, tour in enumerate(t.tours, start=1):
        seated = sorted(p for table in tour for p in table.players)
        assert seated == sorted(t.active(number))
        assert [len(table.players) for table in tour] == table_sizes(len(seated), t.table_size)
