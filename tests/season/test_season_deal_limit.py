"""`deal_limit` (season.md §5.2) where the season meets it: a tournament's options may carry
it, its tables end at it, and a season file refuses an entry after it."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.tournament import deals_in_tour
from scorekeeper.season import file as sf
from scorekeeper.tournament import file as tf
from scorekeeper.tournament import text as tt

from .build import net_game, season


def passed(declarer: str, players: list[str]) -> dict[str, Any]:
    """6♠ both defenders pass (four players: the defenders are named by the caller's seat)."""
    return {
        "type": "contract",
        "declarer": declarer,
        "contract": "6S",
        "answers": {p: "pass" for p in players},
    }


def deals_of(players: list[str], count: int) -> list[dict[str, Any]]:
    """`count` deals, each declared by the player after the dealer (the first dealer first)."""
    n = len(players)
    out = []
    for k in range(count):
        dealer = k % n
        declarer = players[(dealer + 1) % n]
        out_of_deal = {players[dealer]} if n == 4 else set()
        defenders = [p for p in players if p != declarer and p not in out_of_deal]
        out.append(passed(declarer, defenders))
    return out


def cup(tables: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": "scorekeeper-tournament/1",
        "convention": "sochi",
        "options": {"round_limit": 2, "deal_limit": 7, "pool_target": 1000},
        "table_size": 4,
        "players": ["A", "B", "C", "D", "E", "F", "G"],
        "tours": [{"tables": tables}],
    }


FOUR = ["A", "B", "C", "D"]
THREE = ["E", "F", "G"]


def test_round_limit_2_deal_limit_7_ends_three_after_6_deals_and_four_after_7():
    t = tf.parse_tournament(
        cup(
            [
                {"players": FOUR, "first_dealer": "A", "deals": deals_of(FOUR, 7)},
                {"players": THREE, "first_dealer": "E", "deals": deals_of(THREE, 6)},
            ]
        )
    )
    assert [table.over for table in t.tours[0]] == [True, True]
    assert tf.report(t)["tours"][0]["tables"][0]["finished"] is True


@pytest.mark.parametrize(("table", "count"), [(0, 8), (1, 7)])
def test_a_deal_after_the_limit_is_refused_at_its_table(table: int, count: int):
    seats = [FOUR, THREE]
    tables = [
        {"players": s, "first_dealer": s[0], "deals": deals_of(s, 7 if len(s) == 4 else 6)}
        for s in seats
    ]
    tables[table]["deals"] = deals_of(seats[table], count)
    with pytest.raises(tf.InvalidTournament) as caught:
        tf.parse_tournament(cup(tables))
    assert all(
        p.startswith(f"tour 1, table {table + 1}: deal {count}: ") for p in caught.value.problems
    )


def test_a_season_refuses_an_entry_after_a_deal_limit():
    game = net_game({"A": 10, "B": -10, "C": 0}, 3, finished=False)
    game["options"]["deal_limit"] = 3  # the correction comes after the third deal
    data = season([{"played_on": "2026-10-01", "game": game}])
    with pytest.raises(sf.InvalidSeason) as caught:
        sf.parse(data)
    lines = [str(p) for p in caught.value.problems]
    assert len(lines) == 1 and lines[0].startswith("event 1: deal 4: the game ended after deal 3")
    game["options"]["deal_limit"] = 4
    assert sf.parse(data).events[0].tables[0].result.over is False  # 3 deals of 4: not over


def test_a_tables_progress_counts_to_the_first_limit():
    assert deals_in_tour(2, 4, 7) == 7 and deals_in_tour(2, 3, 7) == 6 and deals_in_tour(2, 4) == 8
    t = tf.parse_tournament(
        cup(
            [
                {"players": FOUR, "first_dealer": "A", "deals": deals_of(FOUR, 3)},
                {"players": THREE, "first_dealer": "E", "deals": deals_of(THREE, 2)},
            ]
        )
    )
    out = tt.text_report(t)
    assert "Table 1: deal 4 of 7" in out and "Table 2: deal 3 of 6" in out
