"""The season file (season.md §6.1): every refusal, one line per problem naming the entry,
and `scorekeeper season` run for real (exit 2 on a bad file, the report on a good one)."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from scorekeeper.season import compute
from scorekeeper.season import file as sf

from ..fuzzing import FUZZ_EXAMPLES, hostile_file, to_json
from ..tournament.helpers import base
from .build import game_event, net_game, season

SCOREKEEPER = shutil.which("scorekeeper", path=str(Path(sys.executable).parent)) or "scorekeeper"
DIRECTORY = [{"id": 1, "name": "Дмитрий"}, {"id": 2, "name": "Дима"}, {"id": 3, "name": "Anna"}]


def good(**top: Any) -> dict[str, Any]:
    """A valid season: a directory with a merge, a start, a game and a tournament."""
    data = season(
        [
            game_event(
                "2026-11-20",
                {"Дима К.": 30, "Boris": -10, "Vera": -20},
                6,
                company="Fridays",
                seats={"Дима К.": 1},
            ),
            {"played_on": "2026-12-05", "friendly": True, "tournament": base()},
        ],
        players=copy.deepcopy(DIRECTORY),
        merges=[{"from": 2, "into": 1}],
        start=[
            {"player": 3, "rating": "35.50", "games": 14, "deals": 300, "last_played": "2026-08-20"}
        ],
    )
    data.update(top)
    return data


def problems(data: Any) -> list[str]:
    with pytest.raises(sf.InvalidSeason) as caught:
        sf.parse(data)
    return [str(p) for p in caught.value.problems]


def test_a_good_file_reads():
    out = compute.report(sf.parse(good()))
    assert out["format"] == "scorekeeper-season-report/1"
    dmitry = next(p for p in out["players"] if p["player"] == "Дмитрий")
    assert dmitry == {"player": "Дмитрий", "id": 1, "merged": ["Дима"]}
    assert out["tournaments"][0]["event"] == 2 and "next_tour" not in out["tournaments"][0]
    assert out["tournaments"][0]["name"] == "December cup"
    assert set(out["tournaments"][0]) == {"event", "name", "standings", "tours"}
    assert "Anna" in out["statistics"]["club"]  # tournament table 1 of tour 1 is over
    assert all(line.get("event") != 2 for line in out["rating_log"])  # friendly


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"colour": "red"}, 'unknown key "colour"'),
        ({"format": "season/2"}, 'unknown format "season/2"'),
        ({"from": "2026-13-01"}, 'from must be a date like 2026-09-01, not "2026-13-01"'),
        ({"to": "2026-08-01"}, "the season ends (2026-08-01) before it starts (2026-09-01)"),
        ({"as_of": "2027-06-01"}, "as_of must be from 2026-09-01 to 2027-05-31, not 2027-06-01"),
        ({"as_of": "2026-12-01"}, "event 2: played_on 2026-12-05 is after as_of 2026-12-01"),
    ],
)
def test_bad_top_level(change: dict[str, Any], line: str):
    found = problems(good(**change))
    assert any(line in p for p in found), found


def test_directory_refusals():
    assert problems(good(players=[*DIRECTORY, {"id": 1, "name": "Olga"}])) == [
        "player 4: id 1 appears twice"
    ]
    found = problems(good(players=[*DIRECTORY, {"id": 4, "name": "ANNA"}]))
    assert found == [
        'player "ANNA" is the same name as "Anna" (names that differ only in '
        "capitals or width are one player)"
    ]
    found = problems(good(players=[*DIRECTORY, {"id": 4, "name": "Olga", "age": 3}]))
    assert found == ['player 4 must be {"id": …, "name": …} and nothing else']


@pytest.mark.parametrize(
    ("merges", "line"),
    [
        ([{"from": 9, "into": 1}], "merge 1: 9 is not a player of the directory"),
        ([{"from": 2, "into": 1}, {"from": 2, "into": 3}], "merge 2: player 2 is merged already"),
        (
            [{"from": 2, "into": 1}, {"from": 1, "into": 2}],
            "merge 1: merging 2 into 1 makes a cycle",
        ),
        ([{"from": 3, "into": 3}], "merge 1: merging 3 into 3 makes a cycle"),
    ],
)
def test_merge_refusals(merges: list[dict[str, int]], line: str):
    assert line in problems(good(merges=merges))


@pytest.mark.parametrize(
    ("entry", "line"),
    [
        ({"player": 7}, "start 1: 7 is not a player of the directory"),
        ({"player": 2}, "start 1: player 2 is merged into 1"),
        (
            {"rating": "35.505"},
            'start 1: rating must be a decimal text with at most 2 decimals ("35.50"), not "35.505"',
        ),
        ({"rating": 35}, "start 1: rating must be a decimal text"),
        ({"games": -1}, "start 1: games must be a whole number from 0, not -1"),
        (
            {"last_played": "2026-09-01"},
            "start 1: last_played must be before the season's first day 2026-09-01, not 2026-09-01",
        ),
        ({"kind": 1}, 'start 1: unknown key "kind"'),
    ],
)
def test_start_refusals(entry: dict[str, Any], line: str):
    data = good()
    data["start"][0].update(entry)
    found = problems(data)
    assert any(p.startswith(line) for p in found), found


def test_a_start_twice():
    data = good()
    data["start"].append(dict(data["start"][0]))
    assert problems(data) == ["start 2: player 3 has a start already"]


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (
            {"played_on": "2026-08-31"},
            "event 1: played_on 2026-08-31 is outside the season (2026-09-01 to 2027-05-31)",
        ),
        (
            {"played_on": "31.08.2026"},
            'event 1: played_on must be a date like 2026-09-01, not "31.08.2026"',
        ),
        ({"tournament": base()}, "event 1: an event holds exactly one of game and tournament"),
        ({"seats": {"Gleb": 1}}, 'event 1: seats: "Gleb" is not a seat of this event'),
        ({"seats": {"Boris": 8}}, 'event 1: seats: "Boris": 8 is not a player of the directory'),
        ({"friendly": "yes"}, "event 1: friendly must be true or false"),
        ({"where": "club"}, 'event 1: unknown key "where"'),
        (
            {"seats": {"Дима К.": 1, "Boris": 2}},
            'event 1: "Дима К." and "Boris" both sat at this table: both are "Дмитрий"',
        ),
    ],
)
def test_event_refusals(change: dict[str, Any], line: str):
    data = good()
    data["events"][0].update(change)
    assert line in problems(data)


def test_an_event_with_neither_and_a_company_on_a_tournament():
    data = good()
    del data["events"][0]["game"]
    data["events"][1]["company"] = "Fridays"
    assert problems(data) == [
        "event 1: an event holds exactly one of game and tournament",
        "event 2: company is for games only, not for a tournament",
    ]


def test_a_game_its_own_format_refuses_is_named_by_event_and_deal():
    data = good()
    data["events"][0]["game"]["deals"][1]["contract"] = "11S"
    found = problems(data)
    assert len(found) == 1 and found[0].startswith("event 1: deal 2: "), found


def test_a_name_and_its_merged_name_at_one_table():
    game = net_game({"Дмитрий": 10, "Дима": -10, "Vera": 0}, 3)
    data = good(events=[{"played_on": "2026-10-01", "game": game}])
    assert problems(data) == [
        'event 1: "Дмитрий" and "Дима" both sat at this table: both are "Дмитрий"'
    ]


def test_a_tournament_its_own_format_refuses_is_named_by_tour_and_table():
    data = good()
    data["events"][1]["tournament"]["tours"][0]["tables"][0]["deals"][0]["tricks"]["Vera"] = 9
    found = problems(data)
    assert found and all(p.startswith("event 2: tournament: tour 1, table 1: ") for p in found)


def test_a_tour_not_seated_by_the_standings_is_refused():
    data = good()
    tour_2 = data["events"][1]["tournament"]["tours"][1]["tables"]
    tour_2[0]["players"], tour_2[1]["players"] = (
        ["Dmitri", "Vera", "Boris"],
        ["Olena", "Anna", "Petro"],
    )
    tour_2[0]["first_dealer"], tour_2[1]["first_dealer"] = "Boris", "Anna"
    found = problems(data)
    assert any(
        p.startswith("event 2: tournament: tour 2, table 1: by the standings") for p in found
    )


def test_one_player_twice_at_a_tournament_table():
    data = good()
    data["events"][1]["seats"] = {"Vera": 3}  # Anna (3 by her name) and Vera at one table
    assert problems(data) == [
        'event 2: tournament: tour 1, table 1: "Vera" and "Anna" both sat at this table: '
        'both are "Anna"'
    ]


def test_not_json_and_not_an_object():
    with pytest.raises(sf.InvalidSeason) as caught:
        sf.loads(b"{")
    assert str(caught.value).startswith("not valid JSON")
    assert problems([1]) == ["a season file must be a JSON object"]


# -- the command -----------------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [SCOREKEEPER, "season", *args],
        capture_output=True,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_the_command_prints_the_report(tmp_path: Path):
    done = run(write(tmp_path, good()))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == compute.report(sf.parse(good()))
    text = run(write(tmp_path, good()), "--format", "text")
    assert text.returncode == 0 and "Дмитрий" in text.stdout and "Statistics" in text.stdout
    ru = run(write(tmp_path, good()), "--format", "text", "--lang", "ru")
    assert ru.returncode == 0 and "Сезон 1 сентября 2026 – 31 мая 2027" in ru.stdout
    assert "Рейтинг" in ru.stdout and "Статистика" in ru.stdout and "Statistics" not in ru.stdout


def test_the_command_says_every_problem_on_its_line_and_exits_2(tmp_path: Path):
    data = good()
    data["events"][0]["played_on"] = "2028-01-01"
    data["merges"].append({"from": 2, "into": 3})
    done = run(write(tmp_path, data))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "merge 2: player 2 is merged already",
        "event 1: played_on 2028-01-01 is outside the season (2026-09-01 to 2027-05-31)",
    ]
    ru = run(write(tmp_path, data), "--lang", "ru")
    assert ru.returncode == 2 and len(ru.stderr.splitlines()) == 2


@settings(max_examples=max(60, FUZZ_EXAMPLES // 3), deadline=None, phases=[Phase.generate])
@given(
    hostile_file(good()).flatmap(lambda d: st.booleans().map(lambda a: to_json(d, ensure_ascii=a)))
)
def test_hostile_values_anywhere_are_refused_in_lines_never_a_crash(text: bytes):
    try:
        compute.report(sf.loads(text))
    except sf.InvalidSeason as invalid:
        assert invalid.problems and all(str(p) for p in invalid.problems)
