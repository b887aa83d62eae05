"""When the database cannot be used, people are told, and nothing is half written.

Each fault is made for real on the file the app or the command uses: another program
holding the write lock, an immutable (read-only) file, a full disk (a small tmpfs filled
up), a directory that cannot be written. The web app answers a plain 503 page saying so;
`scorekeeper import` and `backup` exit non-zero with one line; and once the fault is gone,
the very same form goes through, exactly once.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.store import Store
from scorekeeper.web.storage import close_kept

from ..faults import assert_unavailable_page, locked, new_app
from ..harness import CLI, Page, Web

PLAYERS = ["Anna", "Boris", "Vera"]
GAME = {
    "format": "scorekeeper-game/1",
    "name": "Friday",
    "convention": "sochi",
    "players": PLAYERS,
    "first_dealer": "Vera",
    "deals": [{"type": "misere", "declarer": "Anna", "tricks": {"Anna": 0}}],
}


# -- making faults -------------------------------------------------------------------------------


def chattr(flag: str, path: Path) -> None:
    """Set or clear the immutable flag (what makes a file read-only even for root)."""
    done = subprocess.run(["chattr", flag, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, f"chattr {flag} {path}: {done.stderr} (needs root and chattr)"


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[Path]:
    chattr("+i", path)
    try:
        yield path
    finally:
        chattr("-i", path)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB disk of its own (tmpfs), to be filled up."""
    disk = tmp_path / "disk"
    disk.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, f"a small disk needs root and mount: {made.stderr}"
    try:
        yield disk
    finally:
        close_kept()  # the test's thread keeps its Store open between requests, as a server's
        subprocess.run(["umount", str(disk)], check=True)


@contextlib.contextmanager
def full(db: Path) -> Iterator[Path]:
    """The disk holding db is full until the end. A connection stays open meanwhile, as a
    running server's would, so the file's WAL and shared memory are already there."""
    keeper = sqlite3.connect(db, isolation_level=None)
    filler = db.parent / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        keeper.execute("SELECT count(*) FROM games").fetchone()
        chunk = b"\xff" * 65536
        with pytest.raises(OSError) as no_room:
            while True:
                os.write(fd, chunk)
        assert no_room.value.errno == errno.ENOSPC
        os.close(fd)
        fd = -1
        yield db
    finally:
        if fd >= 0:
            os.close(fd)
        filler.unlink()
        keeper.close()


def snapshot(db: Path) -> tuple[str, list[tuple[object, ...]]]:
    """Integrity and every row of every table: equal snapshots, nothing was written."""
    with Store(db) as store:
        check = store.integrity_check()
        rows: list[tuple[object, ...]] = []
        for table in ("games", "deals", "deal_revisions", "request_keys"):
            rows += [(table, *row.values()) for row in store.engine.rows(f"SELECT * FROM {table}")]
    return check, rows


def one_line_failure(result: subprocess.CompletedProcess[str], why: str) -> None:
    """Exit status 2 and one line saying why: no traceback."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("scorekeeper: ") and why in lines[0], lines[0]
    assert result.stdout == ""


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)


# -- the web app -----------------------------------------------------------------------------------


def _game_and_a_checked_deal(web: Web) -> tuple[str, dict[str, list[str]]]:
    """A game, and a deal form checked and ready to save (what the phone holds)."""
    token = web.new_game(PLAYERS, first_dealer=2)
    page, form = web.deal_form(token)
    web.fill_deal(
        form, PLAYERS, "correction", reason="counted twice", entries=[("Boris", "hill", None, "2")]
    )
    checked = web.check(page, form)
    assert checked.status == 200
    return token, checked.form("deal-form").set(action="save").data()


def _new_game(web: Web) -> Page:
    """Post the new game form, filled in."""
    from scorekeeper.web.options import preset_values

    page = web.get("/new")
    form = page.form("new-game")
    for field, value in preset_values("sochi").items():
        form.set(**{field: ("y" if value else None) if isinstance(value, bool) else value})
    form.set(player_0="X", player_1="Y", player_2="Z", first_dealer="0")
    return web.submit(page, form)


def _saved_once_after(web: Web, db: Path, token: str, fields: dict[str, list[str]]) -> None:
    """With the fault gone, the form the phone still holds saves, once."""
    for _ in range(2):  # sent again after its answer: still once
        response = web.client.post(f"/g/{token}/deal/new", data=fields)
        assert response.status_code == 302, response.get_data(as_text=True)[:400]
    with Store(db) as store:
        game = store.get_game(token)
        assert [d.data["reason"] for d in game.deals] == ["counted twice"]
        assert store.integrity_check() == "ok"


@pytest.mark.parametrize(
    ("fault", "why"),
    [
        ("locked", "the database is busy"),
        ("read-only file", "the database is read-only"),
        ("full disk", "the disk is full"),
    ],
)
def test_a_deal_saved_into_an_unusable_database_is_a_503_and_nothing_is_written(
    tmp_path: Path,
    small_disk: Path,
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
    why: str,
) -> None:
    db = (small_disk if fault == "full disk" else tmp_path) / "games.sqlite"
    app = new_app(db)
    web = Web(app.test_client())
    token, fields = _game_and_a_checked_deal(web)
    before = snapshot(db)
    # Wait 0.2 s for a lock, not the 5 s a phone is given, so this test is quick.
    monkeypatch.setattr(
        "scorekeeper.web.storage.Store", functools.partial(Store, busy_timeout_ms=200)
    )
    making = {"locked": locked, "read-only file": immutable, "full disk": full}[fault]
    with making(db):
        assert web.get(f"/g/{token}").status == 200  # the sheet can still be read
        refused = Page(web.client.post(f"/g/{token}/deal/new", data=fields), "save")
        assert_unavailable_page(refused, why)
        assert_unavailable_page(_new_game(web), why)
    assert snapshot(db) == before
    _saved_once_after(web, db, token, fields)


def test_a_directory_that_cannot_be_written_is_a_503_on_every_page(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "games.sqlite"
    web = Web(new_app(db).test_client())
    token, fields = _game_and_a_checked_deal(web)
    close_kept()  # the thread's kept Store closed: no WAL file is left
    before = snapshot(db)
    assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite"]
    with immutable(folder):
        for url in ["/", f"/g/{token}", "/new"]:
            assert_unavailable_page(web.get(url, status=None), "could not be opened")
        refused = web.client.post(f"/g/{token}/deal/new", data=fields)
        assert_unavailable_page(Page(refused, "save"), "could not be opened")
    assert snapshot(db) == before
    _saved_once_after(web, db, token, fields)


def test_a_missing_directory_that_cannot_be_made_is_a_503_and_nothing_is_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = tmp_path / "locked-away"
    parent.mkdir()
    db = parent / "instance" / "games.sqlite"
    # The instance folder is the one folder made for the database (docs/limits.md).
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(parent / "instance"))
    with immutable(parent):
        app = new_app(db)  # the start-up cannot make it either
        client = app.test_client()
        assert_unavailable_page(Page(client.get("/"), "/"), "not available")
        assert_unavailable_page(Page(client.get("/new"), "/new"), "not available")
    assert list(parent.iterdir()) == []
    # A request never makes a database, even once it could: only a (re)start does.
    assert_unavailable_page(Page(client.get("/"), "/"), "not available")
    assert list(parent.iterdir()) == []
    assert Web(new_app(db).test_client()).get("/").status == 200


# -- the command line -----------------------------------------------------------------------------


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GAME))
    return path


def _one_game_in(db: Path, game_file: Path) -> None:
    done = cli("import", str(game_file), "--db", str(db))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("fault", "why"),
    [
        ("locked", "the database is busy"),  # waits out the 5 s busy timeout first
        ("read-only file", "the database is read-only"),
        ("full disk", "the disk is full"),
        ("unwritable directory", "could not be opened"),
    ],
)
def test_import_into_an_unusable_database_fails_in_one_line_writing_nothing(
    tmp_path: Path, small_disk: Path, game_file: Path, fault: str, why: str
) -> None:
    folder = small_disk if fault == "full disk" else tmp_path / "data"
    folder.mkdir(exist_ok=True)
    db = folder / "games.sqlite"
    _one_game_in(db, game_file)
    before = snapshot(db)
    making = {
        "locked": locked,
        "read-only file": immutable,
        "full disk": full,
        "unwritable directory": lambda db: immutable(db.parent),
    }[fault]
    with making(db):
        one_line_failure(cli("import", str(game_file), "--db", str(db)), why)
    assert snapshot(db) == before
    _one_game_in(db, game_file)  # the fault gone, the same command works
    assert len(snapshot(db)[1]) > len(before[1])


def test_import_where_no_directory_can_be_made_fails_in_one_line(
    tmp_path: Path, game_file: Path
) -> None:
    parent = tmp_path / "locked-away"
    parent.mkdir()
    with immutable(parent):
        result = cli("import", str(game_file), "--db", str(parent / "sub" / "games.sqlite"))
        one_line_failure(result, "does not exist")
    assert list(parent.iterdir()) == []


def _too_big_for(disk: Path, db: Path, game_file: Path) -> Path:
    """A database with a game, an old backup of it on the small disk, then grown past what
    that disk can take; returns the old backup."""
    _one_game_in(db, game_file)
    old = disk / "backup.sqlite"
    assert cli("backup", str(old), "--db", str(db)).returncode == 0
    with Store(db) as store:
        store.create_game(
            name="Big",
            convention="sochi",
            options={},
            players=PLAYERS,
            first_dealer="Anna",
            deals=[{"type": "correction", "reason": "x" * 400, "n": n} for n in range(6000)],
        )
    assert db.stat().st_size > 2 * 1024 * 1024
    return old


def test_backup_onto_a_full_disk_fails_in_one_line_and_keeps_the_old_copy(
    tmp_path: Path, small_disk: Path, game_file: Path
) -> None:
    old = _too_big_for(small_disk, tmp_path / "games.sqlite", game_file)
    kept = old.read_bytes()
    result = cli("backup", str(old), "--db", str(tmp_path / "games.sqlite"))
    one_line_failure(result, "the disk is full")
    assert old.read_bytes() == kept
    assert sorted(p.name for p in small_disk.iterdir()) == ["backup.sqlite"]  # no partial


def test_backup_into_a_directory_that_cannot_be_written_fails_in_one_line(
    tmp_path: Path, game_file: Path
) -> None:
    db = tmp_path / "games.sqlite"
    _one_game_in(db, game_file)
    folder = tmp_path / "backups"
    folder.mkdir()
    with immutable(folder):
        result = cli("backup", str(folder / "copy.sqlite"), "--db", str(db))
        one_line_failure(result, "could not be opened")
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("fault", ["locked", "read-only file"])
def test_backup_of_a_locked_or_read_only_database_still_works(
    tmp_path: Path, game_file: Path, fault: str
) -> None:
    db = tmp_path / "games.sqlite"
    _one_game_in(db, game_file)
    copy = tmp_path / "copy.sqlite"
    making = {"locked": locked, "read-only file": immutable}[fault]
    with making(db):
        result = cli("backup", str(copy), "--db", str(db))
    assert result.returncode == 0, result.stderr
    assert snapshot(copy) == snapshot(db)
