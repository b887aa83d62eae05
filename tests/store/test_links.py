"""A leaked link is not forever: replace either link, delete (and restore) a game, forget it."""

from __future__ import annotations

import datetime
import sqlite3
from pathlib import Path

from scorekeeper.store import Store
from scorekeeper.store.store import DELETED_KEEP_DAYS

from ..harness import Web

PLAYERS = ["Anna", "Boris", "Vera"]


def _view_token(web: Web, token: str) -> str:
    return web.get(f"/g/{token}").html.split("/v/")[1].split('"')[0].split("/")[0]


def test_replacing_the_edit_link(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    view = _view_token(web, token)
    page = web.get(f"/g/{token}/links")
    assert "Replace the edit link" in page.text()
    result = web.submit(page, page.form(f"/g/{token}/links/edit"), follow=True)
    assert result.status == 200
    assert "the old one no longer opens the game" in result.text()
    web.get(f"/g/{token}", status=404)  # the old edit link is dead at once
    web.get(f"/g/{token}/links", status=404)
    assert store.get_game(view).view_token == view  # the read-only link is kept
    new_token = result.html.split('class="edit-link" href="')[1].split('"')[0].rsplit("/", 1)[-1]
    assert new_token != token
    assert store.get_game(new_token).access == "edit"
    assert "<svg" in result.html  # the new link's QR code
    assert web.get(f"/g/{new_token}").status == 200
    home = web.get("/").html
    assert token not in home and new_token in home


def test_replacing_the_read_only_link(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    view = _view_token(web, token)
    page = web.get(f"/g/{token}/links")
    result = web.submit(page, page.form(f"/g/{token}/links/view"), follow=True)
    assert "the old one no longer opens the game" in result.text()
    web.get(f"/v/{view}", status=404)
    web.get(f"/v/{view}/version", status=404)
    new_view = store.get_game(token).view_token
    assert new_view != view and new_view in result.html
    assert web.get(f"/v/{new_view}").status == 200
    assert web.get(f"/g/{token}").status == 200


def test_a_read_only_link_cannot_replace_links(web: Web) -> None:
    token = web.new_game(PLAYERS)
    view = _view_token(web, token)
    web.get(f"/g/{view}/links", status=403)
    page = web.get(f"/g/{token}/links")
    form = page.form(f"/g/{token}/links/edit")
    response = web.client.post(f"/g/{view}/links/edit", data=form.data())
    assert response.status_code == 403


def test_deleting_asks_first_then_keeps_the_game_restorable(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    view = _view_token(web, token)
    confirm = web.get(f"/g/{token}/delete")
    assert "Delete this game?" in confirm.text()
    assert f"for {DELETED_KEEP_DAYS} days" in confirm.text()
    assert web.get(f"/g/{token}").status == 200  # nothing happens on the GET
    deleted = web.submit(confirm, confirm.form(""), follow=False)
    assert deleted.status == 302
    gone = web.get(f"/g/{token}", status=410)
    assert "This game was deleted" in gone.text() and "Restore the game" in gone.text()
    for url in (f"/v/{view}", f"/g/{token}/game.json", f"/v/{view}/pulka.pdf", f"/g/{token}/log"):
        assert web.get(url, status=None).status in (404, 410), url
    # The read-only link says the game was deleted, and nothing of it (nor how to restore).
    said = web.get(f"/v/{view}", status=410).text()
    assert "This game was deleted" in said and "Restore the game" not in said
    assert all(p not in said for p in PLAYERS)
    assert token not in web.get("/").html
    restored = web.submit(gone, gone.form(f"/g/{token}/restore-game"), follow=True)
    assert restored.status == 200 and "The game is back" in restored.text()
    assert web.get(f"/v/{view}").status == 200


def test_a_deleted_game_is_purged_after_the_stated_time_and_not_backed_up(
    web: Web, store: Store, tmp_path: Path
) -> None:
    token = web.new_game(PLAYERS, name="Secret Friday")
    web.play(token, PLAYERS, "misere", declarer="Anna", tricks={"Anna": 0})
    kept = web.new_game(PLAYERS, name="Kept game")
    store.delete_game(token)
    now = datetime.datetime.now(datetime.UTC)
    assert store.purge_deleted(now=now + datetime.timedelta(days=DELETED_KEEP_DAYS - 1)) == 0
    assert store.deleted_game(token) is not None
    assert store.purge_deleted(now=now + datetime.timedelta(days=DELETED_KEEP_DAYS, hours=1)) == 1
    assert store.deleted_game(token) is None
    web.get(f"/g/{token}", status=404)
    assert web.get(f"/g/{kept}").status == 200
    copy = tmp_path / "after.sqlite"
    store.backup(copy)
    data = copy.read_bytes()
    assert b"Secret Friday" not in data and token.encode() not in data
    assert b"Kept game" in data
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM deals").fetchone()[0] == 0


def test_forget_on_this_phone(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS, name="Forget me")
    home = web.get("/")
    assert "Forget me" in home.text()
    form = [f for f in home.html.split("<form") if "/forget" in f]
    assert form, "no Forget button on the home list"
    page = web.get("/")
    result = web.submit(page, page.form("/forget"), follow=True)
    assert "Forget me" not in result.text().split("Your games")[1].split("Open a game file")[0]
    assert web.get(f"/g/{token}").status == 200  # the game itself is still there


def test_a_file_made_before_deleting_existed_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with Store(path) as store:
        store.create_game(
            name="Old", convention="sochi", options={}, players=PLAYERS, first_dealer="Anna"
        )
    with sqlite3.connect(path) as conn:  # as a file written by the first release was
        conn.execute("ALTER TABLE games DROP COLUMN deleted_at")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm002_games_deleted_at'")
    with Store(path) as store:
        game = store.games_for_tokens([_edit_token(path)])[0]
        assert game.name == "Old"
        store.delete_game(game.edit_token)
        assert store.deleted_game(game.edit_token) is not None


def _edit_token(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        return str(conn.execute("SELECT edit_token FROM games").fetchone()[0])
