"""`scorekeeper score` of a Balkan file: the JSON of the specification's example exactly, the
paper as text, --settle, and a broken file refused whole (exit 2, one line per problem)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import main

from .helpers import PETAK, partija, played, set_bule

NAMES = ["Ana", "Boža", "Ceca"]


def each(*values: str) -> dict[str, str]:
    return dict(zip(NAMES, values, strict=True))


EXPECTED = {
    "family": "balkan",
    "players": NAMES,
    "sum_bule": "0",
    "finished": True,
    "sheet": {
        "Ana": {
            "bule": "-77",
            "column": ["60", "hat", "-20", "-10", "-77"],
            "supe_on": {"Boža": "0", "Ceca": "0"},
            "left": "0",
            "right": "0",
            "refe": ["passed"],
        },
        "Boža": {
            "bule": "45",
            "column": ["60", "140", "112", "45"],
            "supe_on": {"Ana": "260", "Ceca": "0"},
            "left": "260",
            "right": "0",
            "refe": ["passed"],
        },
        "Ceca": {
            "bule": "32",
            "column": ["60", "32"],
            "supe_on": {"Ana": "0", "Boža": "0"},
            "left": "0",
            "right": "0",
            "refe": ["passed"],
        },
    },
    "settlement": {
        "ended_by": "writeoff",
        "write_off": each("67", "67", "0"),
        "bule": each("-77", "45", "32"),
        "supe_written": each("0", "260", "0"),
        "supe_against": each("260", "0", "0"),
        "result": each("-510", "190", "320"),
        "money": each("51.00", "-19.00", "-32.00"),
        "payments": [
            {"from": "Ceca", "to": "Ana", "amount": "32.00"},
            {"from": "Boža", "to": "Ana", "amount": "19.00"},
        ],
    },
}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_the_specification_file_prints_its_json_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(PETAK))
    assert code == 0 and err == ""
    assert json.loads(out) == EXPECTED
    assert list(json.loads(out)) == [
        "family",
        "players",
        "sum_bule",
        "finished",
        "sheet",
        "settlement",
    ]


def test_the_paper_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(PETAK), "--format", "text", "--lang", "en")
    assert code == 0
    assert "Ana   refe: △✓" in out
    assert "(hat)" in out and "−77" in out
    assert "on Ceca |       bule |    on Boža" in out
    assert "Ceca → Ana: 32.00" in out and "Boža → Ana: 19.00" in out
    assert "u = 2 × 5 × 8 = 80" in out


def test_settle_on_an_unfinished_partija_writes_off_now(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, partija([set_bule(100, 24, 34, 28)], options={"stake": "0.1"}))
    _, out, _ = run(capsys, path)
    assert "settlement" not in json.loads(out) and json.loads(out)["finished"] is False
    _, out, _ = run(capsys, path, "--settle")
    report = json.loads(out)
    assert report["sheet"]["Ana"]["column"] == ["100", "24"]  # not written on the sheet
    assert report["settlement"]["ended_by"] == "now"
    assert report["settlement"]["write_off"] == each("28", "29", "29")
    assert report["settlement"]["bule"] == each("-4", "5", "-1")


def test_finished_by_hand_is_a_final_write_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, write(tmp_path, partija([set_bule(100, 8, 2, 0)], finished=True)))
    report = json.loads(out)
    assert report["finished"] is True and report["sum_bule"] == "0"
    assert report["settlement"]["ended_by"] == "writeoff"
    assert report["sheet"]["Boža"]["column"] == ["100", "2", "hat", "-1"]


def test_higher_better_prints_minus_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = partija(
        [set_bule(100, 8, 2, 0), {"type": "writeoff"}], options={"result_sign": "higher_better"}
    )
    _, out, _ = run(capsys, write(tmp_path, data))
    settlement = json.loads(out)["settlement"]
    assert settlement["result"] == each("-40", "10", "30")
    assert settlement["money"] == each("-40.00", "10.00", "30.00")


def test_a_broken_file_exits_2_with_a_line_per_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deals = [
        played("Ana", "herc", {"Ana": 4, "Boža": 3, "Ceca": 3}, followers=["Boža", "Ceca"]),
        {"type": "refa"},
        {"type": "played", "declarer": "Ceca", "contract": "tref", "followers": [], "bogus": 1},
        played(
            "Ana",
            "karo",
            followers=["Boža"],
            kontra=1,
            kontra_by="Ceca",
            tricks={"Ana": 6, "Boža": 2, "Ceca": 2},
        ),
    ]
    code, out, err = run(capsys, write(tmp_path, partija(deals)), "--lang", "en")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "deal 1: the defence took 6 tricks; a failed hand stops at 5",
        'deal 3: unknown key "bogus" in a played deal',
        "deal 4: who gave kontra: Ceca did not follow; only a follower gives kontra",
    ]


def test_old_files_mean_what_they_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    russian = {
        "format": "scorekeeper-game/1",
        "convention": "sochi",
        "players": ["A", "B", "C"],
        "deals": [
            {
                "type": "contract",
                "declarer": "A",
                "contract": "6S",
                "answers": {"B": "pass", "C": "pass"},
            }
        ],
    }
    _, plain, _ = run(capsys, write(tmp_path, russian))
    _, named, _ = run(capsys, write(tmp_path, {**russian, "family": "russian"}))
    assert plain == named and json.loads(plain)["sheet"]["A"]["pool"] == "2"
    code, _, err = run(capsys, write(tmp_path, {**russian, "family": "wien"}), "--lang", "en")
    assert code == 2 and 'unknown family "wien" (russian, balkan)' in err
