"""`scorekeeper backup` never writes onto the database it copies (same file, any path)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.store import Store
from scorekeeper.store.errors import BackupOntoItself

from ..harness import CLI
from ..helpers import newest_game

GAME = {
    "format": "scorekeeper-game/1",
    "convention": "sochi",
    "players": ["Anna", "Boris", "Vera"],
    "deals": [{"type": "misere", "declarer": "Anna", "tricks": {"Anna": 0}}],
}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    file = tmp_path / "game.json"
    file.write_text(json.dumps(GAME))
    path = tmp_path / "data" / "games.sqlite"
    path.parent.mkdir()  # only the instance folder is made for the database
    assert main(["import", str(file), "--db", str(path)]) == 0
    return path


def _targets(db: Path) -> list[Path]:
    link = db.parent.parent / "link.sqlite"
    link.symlink_to(db)
    hard = db.parent.parent / "hard.sqlite"
    os.link(db, hard)
    return [db, db.parent / ".." / "data" / db.name, link, hard]


def test_backup_onto_the_database_itself_is_refused(db: Path) -> None:
    before = db.read_bytes()
    for target in _targets(db):
        result = subprocess.run(
            [CLI, "backup", str(target), "--db", str(db)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 2, (target, result.stdout, result.stderr)
        assert "is the database itself" in result.stderr
        assert "Traceback" not in result.stderr
    assert db.read_bytes() == before
    with Store(db) as store:
        assert store.integrity_check() == "ok"
        assert newest_game(store) is not None


def test_the_store_refuses_it_too(db: Path) -> None:
    with Store(db) as store, pytest.raises(BackupOntoItself):
        store.backup(db.parent / "." / db.name)


def test_a_backup_leaves_no_statement_bound_behind_in_the_process(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole table is one statement: backup runs with an hour's bound, for itself only.
    Left in the environment, every server the same process started afterwards inherited it
    (a frozen database then held their requests for an hour, not 7 s)."""
    monkeypatch.delenv("SCOREKEEPER_DB_STATEMENT_TIMEOUT", raising=False)
    assert main(["backup", str(tmp_path / "copy.sqlite"), "--db", str(db)]) == 0
    assert "SCOREKEEPER_DB_STATEMENT_TIMEOUT" not in os.environ
    monkeypatch.setenv("SCOREKEEPER_DB_STATEMENT_TIMEOUT", "9")  # the setting rules, and stays
    assert main(["backup", str(tmp_path / "again.sqlite"), "--db", str(db)]) == 0
    assert os.environ["SCOREKEEPER_DB_STATEMENT_TIMEOUT"] == "9"
