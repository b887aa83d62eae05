"""`scorekeeper export`: the PDF sheet of a game file or a stored game, via the real command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from scorekeeper import gamefile
from scorekeeper.games import create_from_game
from scorekeeper.store import Store

from ..helpers import allpass, contract, game_file, misere

SCOREKEEPER = shutil.which("scorekeeper", path=str(Path(sys.executable).parent)) or "scorekeeper"
DEALS = [
    contract("Анна", "7S", {"Борис": "whist", "Вера": "pass"}, {"Анна": 5, "Борис": 3, "Вера": 2}),
    misere("Борис", 0),
    allpass(Анна=2, Борис=3, Вера=5),
]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SCOREKEEPER, *args], capture_output=True, text=True, timeout=120, check=False, cwd=cwd
    )


def pdf_text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def test_export_a_game_file_in_russian(tmp_path: Path):
    source = tmp_path / "game.json"
    data = game_file(DEALS, players=["Анна", "Борис", "Вера"])
    data["name"] = "Пятница у Бориса"
    source.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "sheet.pdf"
    done = run("export", str(source), "--out", str(out), "--lang", "ru")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out)
    text = pdf_text(out)
    assert "Пятница у Бориса" in text and "Анна" in text
    assert "Сочи" in text  # the convention named in Russian
    assert "пуля" in text.lower()


def test_export_a_stored_game_by_token_into_exports(tmp_path: Path):
    db = tmp_path / "games.sqlite"
    game = gamefile.load(game_file(DEALS, players=["Анна", "Борис", "Вера"]))
    with Store(db) as store:
        record = create_from_game(store, game)
    exports = tmp_path / "exports"
    out = exports / "x.pdf"
    done = run("export", "--db", str(db), "--out", str(out), "--lang", "en", record.view_token)
    assert done.returncode == 0, done.stderr
    assert "Анна" in pdf_text(out)
    assert not record.edit_token.startswith(("-", "_"))


def test_export_refuses_an_unknown_token_and_a_broken_file(tmp_path: Path):
    db = tmp_path / "games.sqlite"
    with Store(db):
        pass
    done = run("export", "--db", str(db), "nosuchtoken")
    assert done.returncode == 2 and "no game has the token" in done.stderr
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(game_file([allpass(A=1, B=1, C=1)])), encoding="utf-8")
    done = run("export", str(broken), "--out", str(tmp_path / "b.pdf"))
    assert done.returncode == 2 and "deal 1: tricks add up to 3, not 10" in done.stderr
    assert not (tmp_path / "b.pdf").exists()


def test_score_text_in_ukrainian(tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_file([misere("A", 1)], finished=True)), encoding="utf-8")
    done = run("score", "--format", "text", "--lang", "uk", str(path))
    assert done.returncode == 0
    assert "Амністія" in done.stdout
