"""The installed `scorekeeper tournament` command, run for real on files in a temp dir."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.tournament import file as tf
from scorekeeper.tournament.sample import random_tournament

from ..tournament.helpers import base, seat
from ..tournament.test_tournament_late import late

SCOREKEEPER = shutil.which("scorekeeper", path=str(Path(sys.executable).parent)) or "scorekeeper"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [SCOREKEEPER, "tournament", *args],
        capture_output=True,
        input=stdin,
        timeout=60,
        check=False,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


def write(tmp_path: Path, data: object, name: str = "cup.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_prints_the_json_of_the_specification(tmp_path: Path):
    done = run(write(tmp_path, base()))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == tf.report(tf.parse_tournament(base()))
    assert out["standings"][0] == {
        "place": 1,
        "player": "Vera",
        "points": "52",
        "whists": "52",
        "tours": 2,
        "table_wins": 1,
    }
    assert out["next_tour"] == [["Vera", "Boris", "Olena"], ["Anna", "Petro", "Dmitri"]]
    assert done.stderr == ""


def test_a_random_tournament_from_standard_input(tmp_path: Path):
    data = random_tournament(random.Random(25), players=13, tours=3, withdrawals=1)
    done = run("-", stdin=json.dumps(data).encode())
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert len(out["standings"]) == 13
    assert [len(t["tables"]) for t in out["tours"]] == [len(t["tables"]) for t in data["tours"]]
    assert out == tf.report(tf.parse_tournament(data))


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Standings after 2 tours", "Tour 1", "Table 2 (by the window): deal 2 of 3",
                "Vera: +52 whists, +52 points", "Tour 3, seated by the standings:",
                "Table 1: Vera, Boris, Olena", "−89⅓", "up to 650: × 1/10"]),
        ("ru", ["Тур 1", "Стол 2 (by the window): раздача 2 из 3", "место", "очки",
                "Тур 3, рассадка по турнирной таблице:", "Стол 1: Vera, Boris, Olena"]),
        ("uk", ["Тур 1", "Стіл 2 (by the window): роздача 2 з 3", "місце",
                "Тур 3, розсадка за турнірною таблицею:"]),
    ],
)  # fmt: skip
def test_text_for_people_in_three_languages(tmp_path: Path, lang: str, words: list[str]):
    done = run(write(tmp_path, base()), "--format", "text", "--lang", lang)
    assert done.returncode == 0, done.stderr
    for word in words:
        assert word in done.stdout, (word, done.stdout)
    if lang != "en":
        assert "Standings" not in done.stdout and "Table " not in done.stdout


def test_a_broken_file_exits_2_with_one_line_per_problem(tmp_path: Path):
    data = seat(2, 2, base(table_size=5), players=["Dmitri", "Anna", "Zed"])
    seat(1, 1, data, deals=[{"type": "allpass", "tricks": {"Vera": 9, "Anna": 4, "Petro": 4}}])
    done = run(write(tmp_path, data))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "table_size must be 3 or 4, not 5",
        "tour 1, table 1: deal 1: tricks add up to 17, not 10",
        'tour 2, table 2: "Zed" is not on the roster',
    ]
    done = run(write(tmp_path, data), "--lang", "ru")
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 3
    assert lines[1].startswith("тур 1, стол 1: раздача 1: ")
    assert lines[2].startswith("тур 2, стол 2: ")


@pytest.mark.parametrize(
    "content",
    [
        b"not json at all",
        b"\xff\xfe\x00",
        b"[" * 100_000,
        b'{"format": "scorekeeper-tournament/1", "players": ["\\ud800", "B", "C"]}',
        b'{"table_size": ' + b"9" * 5000 + b"}",
        b'{"table_size": 1e999, "players": "Anna", "options": [], "tours": {"a": 1}}',
        b'{"format": "scorekeeper-tournament/1", "convention": "sochi", "options": '
        b'{"round_limit": 1}, "table_size": 3, "players": ["A", "B", "C"], "tours": '
        b'[{"tables": [{"players": ["A", "B", "C"], "deals": [{"type": "allpass", "tricks": '
        b'{"A": 1e400, "B": 10000000000000000000000000000000, "C": "\\ud800"}}]}]}]}',
        json.dumps(base(scale={"bands": [[10**300, "1"], [1e308, str(10**30)]]})).encode(),
    ],
)
def test_hostile_files_exit_2_without_a_traceback(tmp_path: Path, content: bytes):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    done = run(str(path))
    assert done.returncode in (0, 2), done.stderr
    assert "Traceback" not in done.stderr
    if done.returncode == 2:
        assert done.stdout == "" and done.stderr.strip()


def test_a_missing_file_is_said_plainly(tmp_path: Path):
    done = run(str(tmp_path / "nothing.json"))
    assert done.returncode == 2
    assert "there is no such file" in done.stderr and "Traceback" not in done.stderr


def test_a_file_with_a_late_player_is_scored_in_json_and_text(tmp_path: Path):
    data = late(tours=1)  # Zoya joins before tour 2 (reading 12), tour 2 not seated yet
    done = run(write(tmp_path, data))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == tf.report(tf.parse_tournament(data))
    zoya = next(s for s in out["standings"] if s["player"] == "Zoya")
    assert (zoya["points"], zoya["whists"], zoya["tours"], zoya["table_wins"]) == ("0", "0", 0, 0)
    assert any("Zoya" in table for table in out["next_tour"])
    text = run(write(tmp_path, data), "--format", "text", "--lang", "en")
    assert text.returncode == 0, text.stderr
    assert any(
        line.split()[1] == "Zoya" and line.endswith("joined before tour 2")
        for line in text.stdout.splitlines()
        if len(line.split()) > 1
    )


def test_a_late_player_joining_before_tour_1_is_refused_with_exit_2(tmp_path: Path):
    done = run(write(tmp_path, late(before=1)))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        'late player 1: "Zoya" joins before tour 1, which is the same as being on the roster: '
        "leave the entry out"
    ]
