"""League options for tournaments (season.md §5): place points `sign` (§5.3) with its
examples, and the compression clubs publish written as bands (§5.1), mapped exactly."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from scorekeeper.rules.tournament import place_points, points, standings
from scorekeeper.store import Store
from scorekeeper.tournament import file as tf
from scorekeeper.tournament import service
from scorekeeper.tournament import text as tt

from ..helpers import count

GAMBLER = [[200, "1"], [650, "1/10"], [None, "0"]]
ELEPHANT = [[50, "1"], [100, "1/2"], [None, "1/10"]]


def results(*xs: int) -> dict[str, Fraction]:
    return {chr(ord("A") + i): Fraction(x) for i, x in enumerate(xs)}


@pytest.mark.parametrize(
    ("xs", "want"),
    [
        ((150, -30, -120), (4, 1, 0)),
        ((120, 30, -150), (3, 2, 0)),
        ((0, 0, 0), (3, 3, 3)),
        ((50, 50, -40, -60), (4, 4, 1, 0)),
        ((-10, -20, 30), (1, 0, 4)),  # seated order, not place order
        ((10, 0, -10), (3, 2, 0)),  # «Bula od 0 se smatra pozitivnom»
        ((40, 30, 20, -40, -50), (5, 4, 3, 1, 0)),
    ],
)
def test_the_examples_of_place_points(xs: tuple[int, ...], want: tuple[int, ...]):
    got = place_points(results(*xs))
    assert tuple(got.values()) == tuple(Fraction(w) for w in want)


def test_at_three_players_place_points_are_4_or_3_then_2_or_1_then_0():
    for x1 in range(-5, 6):
        for x2 in range(-5, 6):
            xs = sorted((x1, x2, -x1 - x2), reverse=True)
            if len(set(xs)) < 3:
                continue
            got = list(place_points(results(*xs)).values())
            assert got[0] in (3, 4) and got[1] in (1, 2) and got[2] == 0


def test_the_gambler_compression_maps_exactly():
    bands = tf.parse_tournament(table_file(scale={"bands": GAMBLER})).bands
    assert points(Fraction(300), bands) == 210
    assert points(Fraction(900), bands) == 245
    assert points(Fraction(-700), bands) == -245


def test_the_elephant_compression_maps_exactly():
    bands = tf.parse_tournament(table_file(scale={"bands": ELEPHANT})).bands
    assert points(Fraction(80), bands) == 65
    assert points(Fraction(150), bands) == 50 + 25 + 5


# -- a tournament by place points ------------------------------------------------------------


def table(nets: dict[str, int]) -> dict[str, Any]:
    """A finished table of three with those results: a correction, then one round of passed
    6♠ (equal pools)."""
    players = list(nets)
    hub = players[0]
    entries = []
    for p in players[1:]:
        if nets[p] < 0:
            entries.append({"player": hub, "whists_on": p, "amount": -nets[p]})
        elif nets[p] > 0:
            entries.append({"player": p, "whists_on": hub, "amount": nets[p]})
    deals: list[dict[str, Any]] = [{"type": "correction", "reason": "result", "entries": entries}]
    for declarer in players:
        others = [p for p in players if p != declarer]
        deals.append(
            {
                "type": "contract",
                "declarer": declarer,
                "contract": "6S",
                "answers": {p: "pass" for p in others},
            }
        )
    return {"players": players, "first_dealer": players[0], "deals": deals}


TOUR_1 = [
    {"A": 100, "B": 90, "C": -190},
    {"D": 5, "E": 4, "F": -9},
    {"G": 3, "H": 2, "I": -5},
]
#: By place points after tour 1: A, D, G (3 each, by whists), B, E, H (2), I, F, C (0).
BY_POINTS = [["A", "D", "G"], ["B", "E", "H"], ["I", "F", "C"]]
#: By whists: A 100, B 90, D 5, E 4, G 3, H 2, I -5, F -9, C -190.
BY_WHISTS = [["A", "B", "D"], ["E", "G", "H"], ["I", "F", "C"]]


def table_file(tour_2: list[list[str]] | None = None, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "scorekeeper-tournament/1",
        "convention": "sochi",
        "options": {"round_limit": 1},
        "table_size": 3,
        "scale": {"bands": [], "place_points": "sign"},
        "players": list("ABCDEFGHI"),
        "tours": [{"tables": [table(nets) for nets in TOUR_1]}],
    }
    if tour_2 is not None:
        data["tours"].append(
            {"tables": [{"players": t, "first_dealer": t[0], "deals": []} for t in tour_2]}
        )
    data.update(changes)
    return data


def test_the_report_gives_place_points_per_table_and_standings_by_them():
    t = tf.parse_tournament(table_file())
    out = tf.report(t)
    assert out["tours"][0]["tables"][0]["points"] == {"A": "3", "B": "2", "C": "0"}
    assert out["tours"][0]["tables"][0]["results"] == {"A": "100", "B": "90", "C": "-190"}
    assert [s["player"] for s in out["standings"]] == [p for t in BY_POINTS for p in t]
    assert [s["place"] for s in out["standings"]] == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert out["next_tour"] == BY_POINTS
    assert tf.parse_tournament(tf.to_file(t)).place_points == "sign"
    assert "place points" in tt.text_report(t)


def test_tour_2_is_seated_by_the_place_points_standings():
    assert len(tf.parse_tournament(table_file(BY_POINTS)).tours) == 2
    with pytest.raises(tf.InvalidTournament) as caught:
        tf.parse_tournament(table_file(BY_WHISTS))
    assert caught.value.problems[0].startswith("tour 2, table 1: by the standings after tour 1")
    plain = table_file(BY_WHISTS, scale={"bands": []})
    assert len(tf.parse_tournament(plain).tours) == 2  # by whists, the other seating


def test_equal_points_are_ordered_by_whists_then_table_wins_then_name():
    tables = [results(10, 5, -15), {"D": Fraction(10), "E": Fraction(5), "F": Fraction(-15)}]
    order = standings(list("ABCDEF"), tables, [], "sign")
    assert [(s.place, s.player, s.points) for s in order] == [
        (1, "A", 3),
        (1, "D", 3),
        (3, "B", 2),
        (3, "E", 2),
        (5, "C", 0),
        (5, "F", 0),
    ]
    with_wins = standings(list("AB"), [{"A": Fraction(0), "B": Fraction(0)}], [], "sign")
    assert [s.points for s in with_wins] == [2, 2]


@pytest.mark.parametrize(
    ("scale", "line"),
    [
        (
            {"bands": GAMBLER, "place_points": "sign"},
            "scale: place points and bands do not go together: leave the bands empty",
        ),
        (
            {"place_points": "serbian"},
            'scale.place_points must be "sign" or left out, not "serbian"',
        ),
        ({"bands": [], "points": "sign"}, 'unknown key "scale.points"'),
    ],
)
def test_a_bad_place_points_scale_is_refused(scale: dict[str, Any], line: str):
    with pytest.raises(tf.InvalidTournament) as caught:
        tf.parse_tournament(table_file(scale=copy.deepcopy(scale)))
    assert line in caught.value.problems


def test_the_server_does_not_open_a_tournament_by_place_points(store: Store):
    before = count(store, "games")
    with pytest.raises(tf.InvalidTournament) as caught:
        service.import_file(store, table_file())
    assert caught.value.problems == [service.PLACE_POINTS_NOT_KEPT]
    assert count(store, "games") == before  # nothing written
