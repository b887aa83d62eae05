"""Issue 22, rows 1, 2 and 8: the database file under attack, through the real CLI and the
real `scorekeeper serve`.

1. `scorekeeper backup` aimed at a file SQLite uses for the live database (-wal, -shm,
   -journal; by path, symlink or hard link) is refused, and no acknowledged deal is lost.
2. A deleted game that was a company evening is purged with its company rows (foreign keys
   on); a purge that fails makes `backup` fail loudly.
3. A 0-byte file put at the database path is a 503 with a log line, never a new database;
   `--db` into a folder that does not exist is refused.
"""

from __future__ import annotations

import datetime
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.company import file as company_file
from scorekeeper.store import Store

from ..harness import CLI
from ..served import PLAYERS, Phone, Server, checked, correction, new_game, save, version_of


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CLI, *args], capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})}
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "games.sqlite", tmp_path / "server.log")
    try:
        yield running.start()
    finally:
        running.stop()


def saved_deals(phone: Phone, token: str, count: int, start: int = 0) -> None:
    for n in range(start, start + count):
        save(phone, token, checked(phone, token, **correction(f"deal {n}")))


# -- row 1: a backup aimed at the live database's own files ------------------------------------


def test_backup_onto_any_file_sqlite_uses_is_refused_and_no_deal_is_lost(
    served: Server, tmp_path: Path
) -> None:
    phone = Phone(served.port)
    token = new_game(phone)
    saved_deals(phone, token, 3)
    db = served.db
    wal = Path(f"{db}-wal")
    assert wal.exists(), "the server keeps its write-ahead log beside the database"
    links = tmp_path / "links"
    links.mkdir()
    (links / "to-wal").symlink_to(wal)
    (links / "to-shm").symlink_to(Path(f"{db}-shm"))
    (links / "to-journal").symlink_to(Path(f"{db}-journal"))  # need not exist yet
    os.link(wal, links / "hard-wal")
    targets = [
        f"{db}-wal",
        f"{db}-shm",
        f"{db}-journal",
        str(tmp_path / "." / f"{db.name}-wal"),
        str(links / "to-wal"),
        str(links / "to-shm"),
        str(links / "to-journal"),
        str(links / "hard-wal"),
    ]
    for target in targets:
        before = wal.stat().st_ino
        done = run("backup", target, "--db", str(db))
        assert done.returncode == 2, (target, done.stdout, done.stderr)
        assert "a file SQLite keeps beside the database" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
        assert wal.stat().st_ino == before, f"{target}: the live log was replaced"
    assert not Path(f"{db}-journal").exists()
    # The server goes on, and every acknowledged deal survives a restart.
    saved_deals(phone, token, 3, start=3)
    assert version_of(phone, token) == 7
    served.stop()
    served.start()
    assert version_of(Phone(served.port), token) == 7
    done = run("backup", str(tmp_path / "good.sqlite"), "--db", str(db))
    assert done.returncode == 0, done.stderr


# -- row 2: purging a deleted company evening --------------------------------------------------


def company_with_evening(db: Path) -> tuple[str, str]:
    """A company file of one evening (and a payment for it) opened into the database:
    (the company's edit token, the evening's edit token)."""
    game = {
        "format": "scorekeeper-game/1",
        "convention": "sochi",
        "players": PLAYERS,
        "deals": [{"type": "allpass", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}],
    }
    data = {
        "format": company_file.FORMAT,
        "name": "Fridays",
        "players": [{"id": i + 1, "name": n} for i, n in enumerate(PLAYERS)],
        "games": [
            {"played_on": "2026-11-20", "players": {"Anna": 1, "Boris": 2, "Vera": 3}, "game": game}
        ],
        "payments": [
            {"payer": 2, "payee": 1, "amount": "5.00", "paid_on": "2026-11-21", "game": 0}
        ],
    }
    with Store(db) as store:
        record = company_file.create(store, company_file.load_file(data))
        evening = record.games[0].game.edit_token
        store.delete_game(evening)
    long_ago = (datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=30)).isoformat()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET deleted_at = ?", [long_ago])
    return record.edit_token, evening


def count(db: Path, sql: str) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


def test_backup_purges_a_deleted_company_evening_with_its_company_rows(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    company, _evening = company_with_evening(db)
    copy = tmp_path / "backup.sqlite"
    done = run("backup", str(copy), "--db", str(db))
    assert done.returncode == 0, done.stderr
    for where in (db, copy):
        assert count(where, "SELECT count(*) FROM games") == 0, where
        assert count(where, "SELECT count(*) FROM deals") == 0, where
        assert count(where, "SELECT count(*) FROM company_games") == 0, where
        # The money handed over stays: only its link to the purged evening goes.
        assert count(where, "SELECT count(*) FROM company_payments WHERE game_id IS NULL") == 1
        conn = sqlite3.connect(where)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        conn.close()
    with Store(db) as store:
        from scorekeeper.store.companies import Companies

        assert Companies(store).get(company).payments[0].game_id is None


def test_a_purge_that_fails_makes_the_backup_fail_loudly(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    company_with_evening(db)
    with sqlite3.connect(db) as conn:  # something refuses the purge (here: a trigger)
        conn.execute(
            "CREATE TRIGGER keep BEFORE DELETE ON games BEGIN"
            " SELECT RAISE(ABORT, 'games are kept'); END"
        )
    copy = tmp_path / "backup.sqlite"
    done = run("backup", str(copy), "--db", str(db))
    assert done.returncode == 1, done.stdout
    assert "deleted games could not be purged, so no backup was made" in done.stderr
    assert "Traceback" not in done.stderr
    assert not copy.exists()


# -- row 8: an empty file at the database path; --db into a missing folder ---------------------


def test_an_empty_file_at_the_database_path_is_a_503_and_a_log_line(served: Server) -> None:
    phone = Phone(served.port)
    token = new_game(phone)
    db = served.db
    db.rename(db.with_name("moved.sqlite"))
    db.touch()  # 0 bytes where the database was
    for path in ("/", f"/g/{token}", "/healthz", "/new"):
        reply = phone.get(path)
        assert reply.status == 503, (path, reply.status)
    assert db.stat().st_size == 0, "the empty file was made into a new database"
    log = served.logged()
    assert "is empty (0 bytes)" in log, log[-2000:]
    # Put the real file back: the game is there again.
    db.unlink()
    db.with_name("moved.sqlite").rename(db)
    assert phone.get(f"/g/{token}").status == 200


def test_serve_and_import_refuse_an_empty_database_file(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    db.touch()
    game = tmp_path / "game.json"
    game.write_text(
        '{"format": "scorekeeper-game/1", "convention": "sochi",'
        ' "players": ["Anna", "Boris", "Vera"]}'
    )
    done = run("import", str(game), "--db", str(db))
    assert done.returncode == 2 and "is empty (0 bytes)" in done.stderr, done.stderr
    assert db.stat().st_size == 0


def test_db_in_a_folder_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "folder"
    game = tmp_path / "game.json"
    game.write_text(
        '{"format": "scorekeeper-game/1", "convention": "sochi",'
        ' "players": ["Anna", "Boris", "Vera"]}'
    )
    done = run("import", str(game), "--db", str(missing / "games.sqlite"))
    assert done.returncode == 2, done.stdout
    assert "does not exist" in done.stderr and "Traceback" not in done.stderr
    served = subprocess.run(
        [CLI, "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(missing / "g.sqlite")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert served.returncode == 2, served.stdout
    assert "does not exist" in served.stderr
    assert not (tmp_path / "no").exists(), "the folder was made"
    # The instance folder is still made when it is the default home of the database.
    instance = tmp_path / "instance"
    done = run("import", str(game), env={"SCOREKEEPER_INSTANCE": str(instance)})
    assert done.returncode == 0, done.stderr
    assert (instance / "scorekeeper.sqlite").stat().st_size > 0
