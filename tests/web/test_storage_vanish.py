"""The database is made once, at start-up: a file or folder that vanishes later is a 503.

Before, a moved-away folder made every link a 404 and the next new game a brand-new
database in its place: the games were split across two files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from scorekeeper.web import create_app

from ..harness import Page, Web

PLAYERS = ["Anna", "Boris", "Vera"]


def _app(db: Path):  # type: ignore[no-untyped-def]
    return create_app({"TESTING": True, "DATABASE": str(db), "SECRET_KEY": "vanish"})


def _assert_unavailable(page: Page, where: Path) -> None:
    assert page.status == 503, (page.status, page.text()[:300])
    assert "The games database is not available" in page.text()
    assert page.response.headers["Retry-After"]
    assert str(where) not in page.html and "sqlite" not in page.html


def test_the_database_is_made_at_start_up(tmp_path: Path) -> None:
    db = tmp_path / "x" / "games.sqlite"
    db.parent.mkdir()
    _app(db)
    assert db.is_file()


def test_a_vanished_folder_is_a_503_and_no_new_database(tmp_path: Path) -> None:
    folder = tmp_path / "x"
    folder.mkdir()
    db = folder / "games.sqlite"
    web = Web(_app(db).test_client())
    token = web.new_game(PLAYERS)
    new_page = web.get("/new")
    shutil.move(folder, tmp_path / "moved")
    for url in ("/", f"/g/{token}", f"/g/{token}/game.json", "/new", "/import"):
        _assert_unavailable(web.get(url, status=None), folder)
    form = new_page.form("new-game")
    _assert_unavailable(web.submit(new_page, form), folder)
    assert not folder.exists()
    shutil.move(tmp_path / "moved", folder)
    assert web.get(f"/g/{token}").status == 200  # back in place: served again


def test_a_deleted_file_is_a_503_and_not_made_again(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    web = Web(_app(db).test_client())
    token = web.new_game(PLAYERS)
    db.unlink()
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    _assert_unavailable(web.get(f"/g/{token}", status=None), db)
    _assert_unavailable(web.get("/", status=None), db)
    assert not db.exists()
