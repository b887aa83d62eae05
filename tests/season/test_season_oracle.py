"""`scorekeeper season`'s numbers against an independent reading of season.md
(tests/oracle/season_independent.py: its own identities, rating, decay, standings, statistics
and head-to-head, each game scored by the independent game scorer) on random seasons."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.season import compute
from scorekeeper.season import file as sf
from scorekeeper.tournament.sample import random_tournament

from ..oracle.season_independent import key, season_report
from .build import net_game

FIRST = date(2026, 9, 1)
LAST = date(2027, 5, 31)
DIRECTORY = ["Anna", "Boris", "Vera", "Dmitri", "Olena", "Petro"]
SPELLINGS = [
    *DIRECTORY,
    "ANNA",
    "vera",
    "Ｐｅｔｒｏ",
    "Xena",
    "xena",
    "Yuri",
    "Zoya",
    "ZOYA",
    "Gleb",
]


def day(draw: st.DrawFn, low: date, high: date) -> date:
    return low + timedelta(days=draw(st.integers(0, (high - low).days)))


@st.composite
def seasons(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(DIRECTORY), unique=True, max_size=6))
    players = [{"id": i, "name": n} for i, n in enumerate(names, start=1)]
    ids = [p["id"] for p in players]
    merges = [
        {"from": i, "into": draw(st.sampled_from(ids[: i - 1]))}
        for i in ids[1:]
        if draw(st.integers(0, 4)) == 0
    ]
    merged = {m["from"] for m in merges}
    start = [
        {
            "player": i,
            "rating": f"{draw(st.integers(-30000, 40000)) / 100:.2f}",
            "games": draw(st.integers(0, 12)),
            "deals": draw(st.integers(0, 700)),
            **(
                {"last_played": day(draw, date(2026, 5, 1), date(2026, 8, 31)).isoformat()}
                if draw(st.booleans())
                else {}
            ),
        }  # fmt: skip
        for i in ids
        if i not in merged and draw(st.booleans())
    ]
    events = [draw(event(ids)) for _ in range(draw(st.integers(1, 9)))]
    latest = max(date.fromisoformat(e["played_on"]) for e in events)
    return {
        "format": "scorekeeper-season/1",
        "from": FIRST.isoformat(),
        "to": LAST.isoformat(),
        "as_of": day(draw, latest, LAST).isoformat(),
        "players": players,
        "merges": merges,
        "start": start,
        "events": events,
    }


@st.composite
def event(draw: st.DrawFn, ids: list[int]) -> dict[str, Any]:
    if draw(st.integers(0, 4)) == 0:
        return draw(cup(ids))
    size = draw(st.sampled_from([3, 3, 4, 5]))
    seats: list[str] = []
    for name in draw(st.permutations(SPELLINGS)):
        if len(seats) < size and all(key(name) != key(s) for s in seats):
            seats.append(name)
    xs = [draw(st.integers(-300, 300)) for _ in range(size - 1)]
    nets = dict(zip(seats, [*xs, -sum(xs)], strict=True))
    game = net_game(nets, draw(st.integers(0, 30)), finished=draw(st.integers(0, 5)) > 0)
    out: dict[str, Any] = {
        "played_on": day(draw, FIRST, LAST - timedelta(days=30)).isoformat(),
        "game": game,
    }
    if draw(st.integers(0, 5)) == 0:
        out["friendly"] = True
    if ids and draw(st.integers(0, 3)) == 0:
        out["seats"] = {draw(st.sampled_from(seats)): draw(st.sampled_from(ids))}
    return out


@st.composite
def cup(draw: st.DrawFn, ids: list[int]) -> dict[str, Any]:
    """A tournament event: a random valid tournament (its tables played to their end)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    size, tours, joins = draw(st.integers(6, 9)), draw(st.integers(1, 3)), draw(st.integers(0, 1))
    data = random_tournament(rng, players=size, tours=tours, joins=joins)
    out: dict[str, Any] = {"played_on": day(draw, FIRST, LAST - timedelta(days=30)).isoformat()}
    out["tournament"] = data
    if draw(st.integers(0, 5)) == 0:
        out["friendly"] = True
    if ids and draw(st.integers(0, 3)) == 0:
        out["seats"] = {draw(st.sampled_from(data["players"])): draw(st.sampled_from(ids))}
    return out


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(seasons())
def test_the_season_is_what_the_specification_says(data: dict[str, Any]):
    try:
        season = sf.parse(data)
    except sf.InvalidSeason as invalid:
        lines = [str(p) for p in invalid.problems]
        assert all("both sat at this table" in line for line in lines), lines
        assume(False)
        return
    got = compute.report(season)
    want = season_report(data)
    assert got["players"] == want["players"]
    assert got["rating_log"] == want["rating_log"]
    assert got["standings"] == want["standings"]
    assert got["statistics"]["club"] == want["statistics"]
    assert got["head_to_head"]["club"] == want["head_to_head"]
    for t in got["tournaments"]:
        assert "next_tour" not in t and data["events"][t["event"] - 1]["tournament"]
