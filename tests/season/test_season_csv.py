"""The season's standings and statistics as CSV (season.md §6.3): the company CSV's rules."""

from __future__ import annotations

import csv
import io

from scorekeeper.season import compute
from scorekeeper.season import file as season_file
from scorekeeper.season.csv import STATISTICS_KEYS, standings_csv, statistics_csv

from .build import game_event, season


def report() -> dict:
    data = season(
        [
            game_event("2026-10-01", {"=Anna": 100, "Boris": -50, "Vera": -50}, 3),
            game_event("2026-10-02", {"=Anna": -10, "Boris": 20, "Vera": -10}, 3),
        ],
        players=[{"id": 1, "name": "Boris"}],
        start=[{"player": 1, "rating": "-12.50", "games": 9, "deals": 200}],
    )
    return compute.report(season_file.parse(data))


def rows(data: bytes, separator: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=separator))


def test_standings_in_russian_have_a_bom_semicolons_and_a_decimal_comma():
    out = report()
    data = standings_csv(out["standings"], "ru")
    assert data.startswith("\ufeff".encode())
    got = rows(data, ";")
    assert got[0] == ["place", "player", "rating", "category", "provisional", "games", "deals",
                      "last played"]  # fmt: skip
    boris = next(r for r in got if r[1] == "Boris")
    standing = next(s for s in out["standings"] if s["player"] == "Boris")
    assert boris == ["1", "Boris", standing["rating"].replace(".", ","), str(standing["category"]),
                     "0", "11", "206", "2026-10-02"]  # fmt: skip
    anna = next(r for r in got if r[1] == "'=Anna")  # never a formula
    assert anna[0] == "" and anna[3] == "" and anna[4] == "1"


def test_statistics_in_english_have_commas_and_points_and_every_key():
    out = report()
    got = rows(statistics_csv(out["statistics"]["club"], "en"), ",")
    assert got[0] == ["player", *STATISTICS_KEYS]
    vera = dict(zip(got[0], next(r for r in got if r[0] == "Vera"), strict=True))
    assert vera["net"] == "-60" and vera["net_per_deal"] == "-10" and vera["declared_6"] == "2"
    anna = dict(zip(got[0], next(r for r in got if r[0] == "'=Anna"), strict=True))
    assert anna["net_per_deal"] == "15" and anna["largest_loss"] == "-10" and anna["made_6"] == "2"
    header = ["игрок", *("x" for _ in STATISTICS_KEYS)]
    russian = rows(statistics_csv(out["statistics"]["club"], "ru", header), ";")
    assert russian[0][0] == "игрок" and len(russian) == 4
