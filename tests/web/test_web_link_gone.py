"""The 404 of a replaced link and of one that never was, told apart (issue 50, item 2).

A link the scorer replaced says so, and whom to ask; a link that never opened a game says
only that it opens none. Neither shows anything of the game, and only whoever held the old
link can reach its page: the database keeps a replaced link as a digest, never the link. A
deleted game's links say it was deleted (the edit link with Restore). The deal form's script
is told the same in its JSON.
"""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

import pytest

from scorekeeper.store import Store

from ..harness import Web

PLAYERS = ["Anna", "Boris", "Vera"]
REPLACED = "This link was replaced"
NO_GAME = "This link opens no game"


def _never() -> str:
    return secrets.token_urlsafe(24).replace("-", "a").replace("_", "b")


@pytest.mark.parametrize("which", ["edit", "view"])
def test_a_replaced_link_says_so_and_one_never_given_does_not(
    web: Web, store: Store, db_path: Path, which: str
) -> None:
    token = web.new_game(PLAYERS, name="Friday at Boris's")
    game = store.get_game(token)
    old = game.edit_token if which == "edit" else game.view_token
    store.replace_token(token, which)
    mode = "g" if which == "edit" else "v"

    replaced = web.get(f"/{mode}/{old}", status=404)
    assert replaced.html.split("<h1>")[1].startswith(REPLACED)
    assert "Ask the scorer for the new link" in replaced.text()
    never = web.get(f"/{mode}/{_never()}", status=404)
    assert never.html.split("<h1>")[1].startswith(NO_GAME)
    assert "replaced" not in never.text() and "deleted" not in never.text()
    for page in (replaced, never):  # nothing of the game, whoever asks
        assert not any(w in page.text() for w in ["Friday", "Anna", "Boris", "Vera"])
    # The database holds what the old link was only as a digest.
    with sqlite3.connect(db_path) as db:
        rows = [tuple(map(str, r)) for r in db.execute("SELECT * FROM retired_links")]
    assert len(rows) == 1 and not any(old in cell for cell in rows[0]), rows


def test_the_script_is_told_a_replaced_link_and_in_russian(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    sent = web.get(f"/g/{token}/deal/new").form("deal-form").data()  # open before the change
    store.replace_token(token, "edit")
    sent.update(kind="allpass", action="save")
    answer = web.client.post(f"/g/{token}/deal/new", data=sent, headers={"X-Save": "json"})
    assert answer.status_code == 404
    assert answer.json is not None and answer.json["final"] == "link_gone"
    assert "the scorer replaced it" in answer.json["refused"]
    page = web.get(f"/g/{token}?lang=ru", status=404)
    assert "Эта ссылка заменена" in page.text()
    assert "По этой ссылке нет игры" in web.get(f"/g/{_never()}?lang=ru", status=404).text()


def test_a_deleted_games_links_say_it_was_deleted(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    view = store.get_game(token).view_token
    store.delete_game(token)
    shown = web.get(f"/v/{view}", status=410)
    assert shown.html.split("<h1>")[1].startswith("This game was deleted")
    assert REPLACED not in shown.text() and "Anna" not in shown.text()
    assert "Restore the game" in web.get(f"/g/{token}", status=410).text()
