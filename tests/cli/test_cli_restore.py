"""`scorekeeper backup` and `scorekeeper restore` through the real command line (SQLite).

A backup is written 0600 (it holds every edit link); restore checks the file first (SQLite's
integrity check, a scorekeeper database, a schema this release knows), refuses a database
that holds games unless --force, gives a new file the owner of the folder it lands in, and
a server running on the database shows the restored games on its next request.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from scorekeeper import gamefile
from scorekeeper.games import file_data
from scorekeeper.store import GameNotFound, Store

from ..served import Phone, Server, run_cli


def _game(name: str) -> dict[str, object]:
    return {
        "format": "scorekeeper-game/1",
        "name": name,
        "convention": "sochi",
        "players": ["Anna", "Boris", "Vera"],
        "deals": [{"type": "misere", "declarer": "Anna", "tricks": {"Anna": 0}}],
    }


def imported(tmp: Path, db: Path, name: str) -> str:
    """Import a game into db through the CLI; its edit token."""
    file = tmp / f"{name}.json"
    file.write_text(json.dumps(_game(name)))
    result = run_cli("import", str(file), "--db", str(db))
    assert result.returncode == 0, result.stderr
    return next(line.rsplit("/", 1)[-1] for line in result.stdout.splitlines() if "/g/" in line)


def files_of(db: Path) -> dict[str, str]:
    """Every game's file (as the app exports it), by edit token."""
    conn = sqlite3.connect(db)
    try:
        tokens = [row[0] for row in conn.execute("SELECT edit_token FROM games")]
    finally:
        conn.close()
    with Store(db, create=False) as store:
        return {
            t: json.dumps(file_data(store.get_game(t)), sort_keys=True, ensure_ascii=False)
            for t in tokens
        }


@pytest.fixture
def backed_up(tmp_path: Path) -> tuple[Path, Path, str]:
    """A database with one game, and its backup; (database, backup, the game's token)."""
    (tmp_path / "live").mkdir()
    db = tmp_path / "live" / "games.sqlite"
    token = imported(tmp_path, db, "Friday")
    backup = tmp_path / "backups" / "friday.sqlite"
    result = run_cli("backup", str(backup), "--db", str(db))
    assert result.returncode == 0, result.stderr
    return db, backup, token


def test_a_backup_is_for_its_owner_only(backed_up: tuple[Path, Path, str]) -> None:
    _, backup, _ = backed_up
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600


def test_restore_onto_a_missing_file_gives_back_every_game(
    backed_up: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, backup, token = backed_up
    folder = tmp_path / "service"
    folder.mkdir()
    if os.geteuid() == 0:  # root restoring for the service's user
        os.chown(folder, 10001, 10001)
    target = folder / "games.sqlite"
    result = run_cli("restore", str(backup), "--db", str(target))
    assert result.returncode == 0, result.stderr
    assert f"restored {backup} into {target}" in result.stdout
    assert files_of(target) == files_of(db)
    info = target.stat()
    assert (info.st_uid, info.st_gid) == (folder.stat().st_uid, folder.stat().st_gid)
    assert stat.S_IMODE(info.st_mode) == 0o600
    assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite"]  # nothing left over
    gamefile.load(json.loads(next(iter(files_of(target).values()))))  # a valid game file
    assert token in files_of(target)


def test_restore_refuses_a_database_with_games_unless_forced(
    backed_up: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, backup, token = backed_up
    later = imported(tmp_path, db, "Saturday")  # written after the backup
    before = files_of(db)
    result = run_cli("restore", str(backup), "--db", str(db))
    assert result.returncode == 2
    assert "already holds games: nothing was restored" in result.stderr
    assert "--force" in result.stderr
    assert files_of(db) == before
    mode = stat.S_IMODE(db.stat().st_mode)
    result = run_cli("restore", str(backup), "--db", str(db), "--force")
    assert result.returncode == 0, result.stderr
    restored = files_of(db)
    assert list(restored) == [token] and later not in restored
    assert stat.S_IMODE(db.stat().st_mode) == mode  # the database's own mode kept
    with Store(db, create=False) as store:
        assert store.integrity_check() == "ok"


def _damaged(path: Path, backup: Path) -> None:
    data = bytearray(backup.read_bytes())
    for offset in range(4096, len(data), 4096):  # every page after the first: its head garbage
        data[offset : offset + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))


def _newer(path: Path, backup: Path) -> None:
    path.write_bytes(backup.read_bytes())
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
        "VALUES ('scorekeeper', 'm999_from_the_future', '2027-01-01')"
    )
    conn.commit()
    conn.close()


def _other_sqlite(path: Path, backup: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda p, b: p.write_text('{"format": "scorekeeper-game/1"}'), "is not a SQLite"),
        (_damaged, "failed its integrity check, nothing was restored"),
        (_other_sqlite, "is not a scorekeeper database"),
        (_newer, "was written by a newer release of scorekeeper (m999"),
        (lambda p, b: None, "there is no such file"),
    ],
    ids=["json", "damaged", "other-sqlite", "newer", "missing"],
)
def test_restore_refuses_a_file_that_is_not_a_sound_backup_and_writes_nothing(
    backed_up: tuple[Path, Path, str], tmp_path: Path, make: object, said: str
) -> None:
    db, backup, _ = backed_up
    bad = tmp_path / "bad.sqlite"
    make(bad, backup)  # type: ignore[operator]
    before = db.read_bytes()
    for target, forced in ((db, ("--force",)), (tmp_path / "live" / "new.sqlite", ())):
        result = run_cli("restore", str(bad), "--db", str(target), *forced)
        assert result.returncode == 2, result.stdout + result.stderr
        assert said in result.stderr
        assert "Traceback" not in result.stderr
    assert db.read_bytes() == before
    assert not (tmp_path / "live" / "new.sqlite").exists()


def test_a_running_server_shows_the_restored_games_on_its_next_request(
    backed_up: tuple[Path, Path, str], tmp_path: Path
) -> None:
    db, backup, token = backed_up
    server = Server(db, tmp_path / "server.log").start()
    try:
        phone = Phone(server.port)
        later = imported(tmp_path, db, "Saturday")
        assert phone.get(f"/g/{later}").status == 200
        result = run_cli("restore", str(backup), "--db", str(db), "--force")
        assert result.returncode == 0, result.stderr
        assert phone.get(f"/g/{later}").status == 404
        assert phone.get(f"/g/{token}").status == 200
        assert phone.get("/healthz").status == 200
    finally:
        server.stop()
    with Store(db, create=False) as store, pytest.raises(GameNotFound):
        store.get_game(later)
