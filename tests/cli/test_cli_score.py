"""The installed `scorekeeper score` command, run for real on files in a temp dir."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..helpers import allpass, contract, game_file, misere

SCOREKEEPER = shutil.which("scorekeeper", path=str(Path(sys.executable).parent)) or "scorekeeper"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SCOREKEEPER, *args], capture_output=True, text=True, input=stdin, timeout=60, check=False
    )


@pytest.fixture
def finished_game(tmp_path: Path) -> Path:
    deals = [
        contract("A", "7S", {"B": "whist", "C": "pass"}, {"A": 5, "B": 3, "C": 2}),
        contract("B", "6NT", {"C": "pass", "A": "pass"}),
        misere("C", 0),
        allpass(A=0, B=4, C=6),
    ]
    data = game_file(deals, options={"stake": "0.10", "currency": "EUR"}, finished=True)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_score_prints_the_sheet_and_settlement_as_json(finished_game: Path):
    done = run("score", str(finished_game))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["players"] == ["A", "B", "C"]
    assert out["sheet"]["A"] == {"pool": "1", "hill": "8", "whists": {"B": "0", "C": "0"}}
    assert out["sheet"]["B"]["whists"] == {"A": "28", "C": "0"}
    assert out["finished"] is True
    settlement = out["settlement"]
    assert set(settlement) == {"hill_after_amnesty", "net", "money", "payments"}
    assert sum(float(v) for v in settlement["money"].values()) == pytest.approx(0)
    for payment in settlement["payments"]:
        assert set(payment) == {"from", "to", "amount"}


def test_unfinished_game_has_no_settlement_unless_asked(tmp_path: Path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game_file([misere("A", 1)])), encoding="utf-8")
    out = json.loads(run("score", str(path)).stdout)
    assert out["finished"] is False and "settlement" not in out
    out = json.loads(run("score", "--settle", str(path)).stdout)
    assert out["settlement"]["net"] == {"A": "-200/3", "B": "100/3", "C": "100/3"}
    # −66.666… rounds down to −66.67, 33.333… to 33.33 twice: one hundredth is missing and
    # goes to the first of three equal remainders in seating order (docs/rules.md §6).
    assert out["settlement"]["money"] == {"A": "-66.66", "B": "33.33", "C": "33.33"}
    assert out["settlement"]["payments"] == [
        {"from": "A", "to": "B", "amount": "33.33"},
        {"from": "A", "to": "C", "amount": "33.33"},
    ]


def test_text_format_is_for_people(finished_game: Path):
    done = run("score", "--format", "text", str(finished_game))
    assert done.returncode == 0
    assert " → " in done.stdout and "Amnesty" in done.stdout
    assert "EUR" in done.stdout


def test_broken_file_exits_2_with_one_line_per_problem_and_no_sheet(tmp_path: Path):
    deals = [
        contract("A", "7S", {"B": "whist", "C": "whist"}, {"A": 7, "B": 3, "C": 1}),
        contract("B", "5NT", {"C": "pass", "A": "pass"}),
    ]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(game_file(deals)), encoding="utf-8")
    done = run("score", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert lines[0] == "deal 1: tricks add up to 11, not 10"
    assert lines[1].startswith('deal 2: "5NT" is not a contract')
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", '{"format": 1}', "\xff\xfe"])
def test_garbage_is_refused_without_a_traceback(tmp_path: Path, text: str):
    path = tmp_path / "junk.json"
    path.write_text(text, encoding="latin-1")
    done = run("score", str(path))
    assert done.returncode == 2
    assert done.stderr.strip() and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_missing_file(tmp_path: Path):
    done = run("score", str(tmp_path / "nope.json"))
    assert done.returncode == 2
    assert "cannot read" in done.stderr


def test_standard_input(finished_game: Path):
    done = run("score", "-", stdin=finished_game.read_text(encoding="utf-8"))
    assert done.returncode == 0
    assert json.loads(done.stdout)["finished"] is True


def test_score_five_players_penalty_money_unit_and_rounds(tmp_path: Path):
    deals = [
        contract("C", "7S", {"D": "whist", "E": "pass"}, {"C": 5, "D": 3, "E": 2}),
        {"type": "penalty", "player": "D", "contract": "6S"},
    ]
    options = {"stake": "0.1", "money_unit": "1", "round_limit": 3}
    data = game_file(deals, players=list("ABCDE"), first_dealer="A", options=options)
    path = tmp_path / "five.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run("score", "--settle", str(path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    # docs/game-format.md: the rules scored by come after "finished", before the settlement.
    assert list(out) == ["players", "sheet", "finished", "rules", "settlement"]
    assert out["rules"] == {"convention": "sochi", "options": options}
    assert out["players"] == list("ABCDE")
    assert out["sheet"]["C"] == {
        "pool": "0",
        "hill": "8",
        "whists": {"A": "0", "B": "0", "D": "2", "E": "0"},
    }
    assert out["sheet"]["D"]["hill"] == "2"
    assert {p: out["sheet"][p]["whists"]["C"] for p in "ABDE"} == {
        "A": "8",
        "B": "8",
        "D": "28",
        "E": "8",
    }
    money = out["settlement"]["money"]
    assert all(v.endswith(".00") for v in money.values())  # whole units of 1, two decimals
    assert sum(int(v.split(".")[0]) for v in money.values()) == 0
    text = run("score", "--format", "text", "--lang", "en", str(path))
    assert "Round 1 of 3, deal 2 of 5." in text.stdout


def test_score_refuses_a_sitting_out_declarer_at_five(tmp_path: Path):
    deals = [contract("B", "7S", {"C": "whist", "D": "pass"}, {"B": 7})]
    path = tmp_path / "bad.json"
    data = game_file(deals, players=list("ABCDE"), first_dealer="A")
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run("score", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "deal 1: B deals next and sits out this deal, so cannot declare"
