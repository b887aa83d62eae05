"""A small season computed by hand from season.md (§2 identities, §3 statistics, §4.2 rating
step by step, §6.1 the file's fields) and the file's refusals that name their entry."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.season import compute
from scorekeeper.season import file as sf
from scorekeeper.season.text import text_report
from scorekeeper.wording import words_for

from .build import net_game, season

SCOREKEEPER = str(Path(sys.executable).with_name("scorekeeper"))


def by_hand() -> dict[str, Any]:
    """Anna carries 50.00 over (10 games, 300 deals, last 15 July: established); Boris −250
    (3 games, 60 deals: provisional, shown −200). 10 Sep: Anna, Boris, Vera, 20 deals, +60, 0,
    −60. 20 Nov, company Fridays: Vera, Gleb, "Дима" (merged into Дмитрий) and "ANNA" (Anna by
    key), 8 deals, +30, −10, −20, 0. As of 31 Dec."""
    return season(
        [
            {
                "played_on": "2026-09-10",
                "game": net_game({"Anna": 60, "Boris": 0, "Vera": -60}, 20),
            },
            {
                "played_on": "2026-11-20",
                "company": "Fridays",
                "game": net_game({"Vera": 30, "Gleb": -10, "Дима": -20, "ANNA": 0}, 8),
            },
        ],
        as_of="2026-12-31",
        players=[
            {"id": 1, "name": "Anna"},
            {"id": 2, "name": "Boris"},
            {"id": 5, "name": "Дмитрий"},
            {"id": 6, "name": "Дима"},
        ],
        merges=[{"from": 6, "into": 5}],
        start=[
            {
                "player": 1,
                "rating": "50.00",
                "games": 10,
                "deals": 300,
                "last_played": "2026-07-15",
            },
            {"player": 2, "rating": "-250", "games": 3, "deals": 60},
        ],
    )


def test_the_rating_step_by_step():
    """season.md §4.2, by hand.

    10 Sep (no 1st of a month after 1 Sep yet). Shown before: Anna 50, Boris −200 (cap),
    Vera 0.
    - Anna: p = 60·20/20 + 2·(−200 + 0)/2 = −140; c = 320, w = 20/320;
      R = 50 + (−190)/16 = 38.125 → 38.13 (halves up).
    - Boris: p = 0 + 2·(50 + 0)/2 = 50; c = 80, w = 1/4; R = −250 + 300/4 = −175.00.
    - Vera: p = −60 + 2·(50 − 200)/2 = −210; w = 1; R = −210.00.
    1 Oct: the month before is September; everyone played on 10 Sep: no decay. 1 Nov: the
    month before starts 1 Oct, 10 Sep is before it: Anna 38.13 > 10 → 28.13; Boris and Vera
    are below 10.
    20 Nov, shown before: Vera −200 (provisional), Gleb 0, Дмитрий 0, Anna 28.13.
    - Vera: p = 30·20/8 + 2·(0 + 0 + 28.13)/3 = 75 + 56.26/3 = 14063/150; c = 28, w = 8/28;
      R = −210 + (2/7)·(14063/150 + 210) = −123.2133… → −123.21.
    - Gleb: p = −25 + 2·(−200 + 0 + 28.13)/3 = −25 − 114.58 = −139.58; w = 1.
    - Дмитрий: p = −50 − 114.58 = −164.58; w = 1.
    - Anna: p = 0 + 2·(−200 + 0 + 0)/3 = −400/3; c = 328, w = 8/328 = 1/41;
      R = 28.13 + (−400/3 − 28.13)/41 = 24.1918… → 24.19.
    1 Dec: Anna played 20 Nov (not before 1 Nov), the rest are below 10: no decay.
    """
    out = compute.report(sf.parse(by_hand()))
    log = [
        (x["date"], x["player"], x.get("performance", x.get("decay")), x["after"])
        for x in out["rating_log"]
    ]
    assert log == [
        ("2026-09-10", "Anna", "-140", "38.13"),
        ("2026-09-10", "Boris", "50", "-175.00"),
        ("2026-09-10", "Vera", "-210", "-210.00"),
        ("2026-11-01", "Anna", "-10", "28.13"),
        ("2026-11-20", "Vera", "14063/150", "-123.21"),
        ("2026-11-20", "Gleb", "-6979/50", "-139.58"),
        ("2026-11-20", "Дмитрий", "-8229/50", "-164.58"),
        ("2026-11-20", "Anna", "-400/3", "24.19"),
    ]


def test_the_standings_by_hand():
    """§4.2 standings: Anna alone is established (12 games): place 1, category
    ⌊(24.19 + 360)/72⌋ + 1 = 6; then the provisional ones by S, high first, with no place:
    Vera −123.21, Gleb −139.58, Дмитрий −164.58, Boris −175.00. `games` and `deals` include the
    carried-over ones; `last_played` is this season's."""
    out = compute.report(sf.parse(by_hand()))
    rows = [
        (s["place"], s["player"], s["rating"], s["category"], s["games"], s["season_games"])
        + (s["deals"], s["last_played"])
        for s in out["standings"]
    ]
    assert rows == [
        (1, "Anna", "24.19", 6, 12, 2, 328, "2026-11-20"),
        (None, "Vera", "-123.21", None, 2, 2, 28, "2026-11-20"),
        (None, "Gleb", "-139.58", None, 1, 1, 8, "2026-11-20"),
        (None, "Дмитрий", "-164.58", None, 1, 1, 8, "2026-11-20"),
        (None, "Boris", "-175.00", None, 4, 1, 80, "2026-09-10"),
    ]
    assert out["players"] == [
        {"player": "Anna", "id": 1, "merged": []},
        {"player": "Boris", "id": 2, "merged": []},
        {"player": "Gleb", "id": None, "merged": []},
        {"player": "Vera", "id": None, "merged": []},
        {"player": "Дмитрий", "id": 5, "merged": ["Дима"]},
    ]


def test_annas_statistics_by_hand():
    """§3 for Anna: 2 games on 2 evenings, 20 + 8 deals; she played all 20 at three and 6 of
    the 8 at four (she dealt twice and sat out); net 60, 60/28 = 15/7 a deal; one win (+60
    the table's largest), one plus, one even game that neither breaks nor extends the run."""
    out = compute.report(sf.parse(by_hand()))
    anna = out["statistics"]["club"]["Anna"]
    assert {k: anna[k] for k in ("games", "evenings", "deals", "deals_played", "net")} == {
        "games": 2,
        "evenings": 2,
        "deals": 28,
        "deals_played": 26,
        "net": "60",
    }
    assert (anna["net_per_deal"], anna["wins"], anna["plus"], anna["even"]) == ("15/7", 1, 1, 1)
    assert (anna["longest_plus_streak"], anna["current_streak"], anna["longest_game"]) == (1, 1, 20)
    assert list(out["statistics"]["companies"]) == ["Fridays"]
    assert set(out["statistics"]["companies"]["Fridays"]) == {"Anna", "Gleb", "Vera", "Дмитрий"}
    pairs = {tuple(p["players"]): (p["games"], p["balance"]) for p in out["head_to_head"]["club"]}
    assert pairs[("Anna", "Vera")] == (2, "60")
    assert pairs[("Vera", "Дмитрий")] == (1, "20")


def problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(sf.InvalidSeason) as raised:
        sf.parse(data)
    return [str(p) for p in raised.value.problems]


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"x": 2}, 'start 1: unknown key "x"'),
        ({"deals": None}, 'start 1: missing key "deals"'),
    ],
)
def test_a_start_entrys_keys_are_said_with_its_number(change: dict[str, Any], line: str):
    """§6.1: one line per problem naming the entry (`start 2: …` as `event 3: …`)."""
    data = by_hand()
    entry = data["start"][1]
    entry.update(change)
    for key, value in change.items():
        if value is None:
            del entry[key]
    assert problems(data) == [line.replace("start 1", "start 2")]


@pytest.mark.parametrize(("key", "value"), [("name", 5), ("club", ["Пуля"]), ("name", "x" * 201)])
def test_the_name_and_club_must_be_text(key: str, value: Any):
    """§6.1 `club`, `name`: optional texts; anything else is refused, not dropped."""
    data = by_hand()
    data[key] = value
    assert problems(data) == [f"{key} must be text of at most 200 characters"]


def test_the_command_refuses_a_bad_name_with_exit_2(tmp_path: Path):
    data = copy.deepcopy(by_hand())
    data["club"] = 7
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [SCOREKEEPER, "season", str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == ["club must be text of at most 200 characters"]


def test_the_text_report_writes_ratings_with_two_decimals():
    """§6.2 "ratings with two decimals", for people too: −175.00, not −175."""
    out = compute.report(sf.parse(by_hand()))
    lines = text_report(out).splitlines()
    assert any(line.split()[:3] == ["1", "Anna", "+24.19"] for line in lines), lines
    assert any(line.split()[:2] == ["Boris", "−175.00"] for line in lines), lines
    ru = text_report(out, words=words_for("ru")).splitlines()
    assert any(line.split()[:2] == ["Boris", "−175,00"] for line in ru), ru
