"""Following a game from other phones: the tiny version answer and the page's hooks for it.

The script (browser tier) holds one request open on the game (`/v/<token>/wait`, answered by
every server scorekeeper runs: tests/test_longpoll.py); here: the version answer (for tools)
is tiny, a 304 while nothing changed, new after every write; every page of a game carries
what the script needs, and a read-only page never carries the edit link.
"""

from __future__ import annotations

import json

from scorekeeper.store import Store

from ..harness import Web

PLAYERS = ["Anna", "Boris", "Vera"]


def misere(web: Web, token: str) -> None:
    web.play(token, PLAYERS, "misere", declarer="Anna", tricks={"Anna": 0})


def test_the_version_is_tiny_and_conditional(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    view = store.get_game(token).view_token
    url = f"/v/{view}/version"
    first = web.get(url)
    assert json.loads(first.html) == {"version": store.get_game(token).version, "seen": 0}
    assert len(first.response.get_data()) < 40
    assert first.response.headers["Cache-Control"] == "no-cache"
    etag = first.response.headers["ETag"]
    again = web.client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    misere(web, token)
    changed = web.client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert json.loads(changed.get_data()) == {"version": store.get_game(token).version, "seen": 0}
    # The edit link answers the same; a link that is no game's does not.
    assert web.get(f"/g/{token}/version").html == changed.get_data(as_text=True)
    web.get(f"/v/{'x' * 30}/version", status=404)


def test_every_page_of_a_game_follows_it(web: Web, store: Store) -> None:
    web.client.environ_base["scorekeeper.wait"] = True  # as every server's Router says
    token = web.new_game(PLAYERS)
    misere(web, token)
    record = store.get_game(token)
    view = record.view_token
    swap = ["", "/log", "/settlement", "/history"]
    for path in swap:
        for base in (f"/g/{token}", f"/v/{view}"):
            html = web.get(base + path).html
            assert f'data-wait="/v/{view}/wait"' in html, base + path
            assert "data-watch" not in html  # no second way: the version is not polled
            assert f'data-version="{record.version}"' in html
            assert 'data-follow="swap"' in html
    for path in ["/deal/new", f"/deal/{record.deals[0].id}/edit", "/undo"]:
        html = web.get(f"/g/{token}{path}").html
        assert 'data-follow="banner"' in html and f'data-wait="/v/{view}/wait"' in html, path
        assert "data-changed=" in html
    for page in ["/", "/new", "/import"]:
        assert 'id="follow"' not in web.get(page).html


def test_a_read_only_page_never_holds_the_edit_link(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    misere(web, token)
    view = store.get_game(token).view_token
    for path in ["", "/log", "/settlement", "/history"]:
        assert token not in web.get(f"/v/{view}{path}").html, path


def test_a_page_fetched_to_follow_leaves_the_messages_to_the_scorer(web: Web) -> None:
    """Another tab's refresh must not eat the "Deal 2 saved." meant for the page after Save."""
    token = web.new_game(PLAYERS)
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "misere", declarer="Anna", tricks={"Anna": 0})
    checked = web.check(page, form)
    saved = web.save(checked, checked.form("deal-form"))
    assert saved.status == 302
    follow = web.get(f"/g/{token}", headers={"X-Follow": "1"})
    assert "Deal 1 saved." not in follow.text()
    assert "Deal 1 saved." in web.get(f"/g/{token}").text()
