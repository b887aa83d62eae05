"""Statistics and head-to-head (season.md §3) on a small season made by hand: every key."""

from __future__ import annotations

import copy
from typing import Any

from scorekeeper.season import compute
from scorekeeper.season import file as season_file

from .build import game_event, net_game, season

#: Every kind of deal: a played and made 6♠ (B whists), a half-whisted 7♥, a caught misère,
#: an all-pass, a failed 8NT against two whisters, a penalty, a passed 6♣. Nets 138, 38, -176.
VARIETY: dict[str, Any] = {
    "format": "scorekeeper-game/1",
    "convention": "sochi",
    "options": {"pool_target": 10000},
    "players": ["A", "B", "C"],
    "first_dealer": "A",
    "finished": True,
    "deals": [
        {
            "type": "contract",
            "declarer": "A",
            "contract": "6S",
            "answers": {"B": "whist", "C": "pass"},
            "tricks": {"A": 6, "B": 4},
        },
        {
            "type": "contract",
            "declarer": "B",
            "contract": "7H",
            "answers": {"C": "pass", "A": "half-whist"},
        },
        {"type": "misere", "declarer": "C", "tricks": {"C": 1}},
        {"type": "allpass", "tricks": {"A": 0, "B": 4, "C": 6}},
        {
            "type": "contract",
            "declarer": "C",
            "contract": "8NT",
            "answers": {"A": "whist", "B": "whist"},
            "tricks": {"C": 7, "A": 2, "B": 1},
        },
        {"type": "penalty", "player": "B", "contract": "7H"},
        {
            "type": "contract",
            "declarer": "A",
            "contract": "6C",
            "answers": {"B": "pass", "C": "pass"},
        },
    ],
}


def the_season() -> dict[str, Any]:
    unfinished = net_game({"A": 500, "B": -500, "C": 0}, 4, finished=False)
    return season(
        [
            {"played_on": "2026-10-01", "game": copy.deepcopy(VARIETY)},
            game_event("2026-10-01", {"A": 30, "B": -10, "C": -20, "D": 0}, 8, company="Fridays"),
            game_event("2026-10-08", {"A": -50, "B": 25, "C": 25}, 5, company="Fridays"),
            {"played_on": "2026-10-09", "game": unfinished},
            game_event("2026-09-20", {"A": 10, "B": -10, "C": 0}, 3),
        ]
    )


def report() -> dict[str, Any]:
    return compute.report(season_file.parse(the_season()))


def levels(**given: int) -> dict[str, int]:
    return {str(level): given.get(f"l{level}", 0) for level in range(6, 11)}


def test_every_key_of_every_player():
    stats = report()["statistics"]["club"]
    assert list(stats) == ["A", "B", "C", "D"]
    assert stats["A"] == {
        "games": 4,
        "evenings": 3,
        "deals": 22,
        "deals_played": 20,
        "net": "128",
        "net_per_deal": "64/11",
        "wins": 3,
        "plus": 3,
        "minus": 1,
        "even": 0,
        "largest_win": "138",
        "largest_loss": "-50",
        "longest_plus_streak": 3,
        "longest_minus_streak": 1,
        "current_streak": -1,
        "declared": levels(l6=7),
        "made": levels(l6=7),
        "misere_declared": 0,
        "misere_caught": 0,
        "whisted": 1,
        "passed": 9,
        "half_whisted": 1,
        "allpass_played": 1,
        "allpass_tricks": 0,
        "allpass_zero": 1,
        "penalties": 0,
        "longest_game": 8,
    }
    b, c, d = stats["B"], stats["C"], stats["D"]
    assert (b["net"], b["wins"], b["plus"], b["minus"], b["current_streak"]) == ("43", 1, 2, 2, 1)
    assert (b["longest_plus_streak"], b["longest_minus_streak"]) == (1, 1)
    assert (b["declared"], b["made"]) == (levels(l6=5, l7=1), levels(l6=5, l7=1))
    assert (b["whisted"], b["passed"], b["penalties"]) == (2, 10, 1)
    assert (b["allpass_played"], b["allpass_tricks"], b["allpass_zero"]) == (1, 4, 0)
    assert (c["net"], c["even"], c["minus"], c["longest_minus_streak"]) == ("-171", 1, 2, 2)
    assert (c["largest_win"], c["largest_loss"], c["wins"]) == ("25", "-176", 1)
    assert (c["declared"], c["made"]) == (levels(l6=4, l8=1), levels(l6=4))
    assert (c["misere_declared"], c["misere_caught"], c["passed"]) == (1, 1, 13)
    assert d == {
        **d,
        "games": 1,
        "evenings": 1,
        "deals": 8,
        "deals_played": 6,
        "net": "0",
        "net_per_deal": "0",
        "wins": 0,
        "even": 1,
        "current_streak": 0,
        "largest_win": "0",
        "largest_loss": "0",
        "declared": levels(l6=2),
        "passed": 4,
    }


def test_a_company_counts_its_evenings_only():
    fridays = report()["statistics"]["companies"]["Fridays"]
    assert list(fridays) == ["A", "B", "C", "D"]
    assert (fridays["A"]["games"], fridays["A"]["net"], fridays["A"]["evenings"]) == (2, "-20", 2)
    assert fridays["A"]["current_streak"] == -1 and fridays["A"]["longest_plus_streak"] == 1


def test_head_to_head_sums_the_pair_balances():
    pairs = report()["head_to_head"]["club"]
    got = {tuple(p["players"]): (p["games"], p["balance"]) for p in pairs}
    assert got[("A", "B")] == (4, "25")
    assert got[("A", "D")] == (1, "0") and got[("C", "D")] == (1, "0")
    assert list(got) == sorted(got)
    assert len(got) == 6
    fridays = {
        tuple(p["players"]): p["games"] for p in report()["head_to_head"]["companies"]["Fridays"]
    }
    assert fridays[("A", "B")] == 2


def test_a_players_balances_sum_to_his_net():
    out = report()
    for name, stats in out["statistics"]["club"].items():
        total = 0
        for pair in out["head_to_head"]["club"]:
            a, b = pair["players"]
            sign = 1 if a == name else -1 if b == name else 0
            total += sign * compute.Fraction(pair["balance"])
        assert total == compute.Fraction(stats["net"])


def test_unfinished_games_count_nowhere_but_their_players_are_listed():
    out = report()
    assert all(s["games"] <= 4 for s in out["statistics"]["club"].values())
    assert all(line.get("event") != 4 for line in out["rating_log"])
    assert [p["player"] for p in out["players"]] == ["A", "B", "C", "D"]


def test_a_period_counts_its_dates_ends_included():
    done = compute.compute(season_file.parse(the_season()))
    october = compute.scope_statistics(
        done, None, compute.date(2026, 10, 1), compute.date(2026, 10, 1)
    )
    assert (october["A"]["games"], october["A"]["net"], october["A"]["evenings"]) == (2, "168", 1)
    assert compute.scope_statistics(done, "Fridays", compute.date(2026, 10, 2))["A"]["games"] == 1
    assert compute.scope_statistics(done, None, None, compute.date(2026, 9, 19)) == {}
