"""Web hygiene: headers, the read-only link, hostile input, cookies, storage failures."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.store import Store

from ..harness import Page, Web
from ..helpers import STYLE_SOURCE, STYLESHEET, newest_game

PLAYERS = ["Anna", "Boris", "Vera"]
#: The only inline content allowed: the app's own stylesheet, by its hash.
CSP = (
    f"default-src 'self'; img-src 'self' data:; style-src 'self' {STYLE_SOURCE}; "
    "script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


@pytest.fixture
def game(web: Web) -> tuple[str, str]:
    """A game with one deal: (edit token, view token)."""
    token = web.new_game(PLAYERS, first_dealer=2)
    web.play(token, PLAYERS, "misere", declarer="Anna", tricks={"Anna": 0})
    html = web.get(f"/g/{token}").html
    view = re.search(r"/v/([A-Za-z0-9_-]+)", html)
    assert view
    return token, view.group(1)


def pages(token: str, mode: str, deal_id: int) -> list[str]:
    base = f"/{mode}/{token}"
    return [
        base,
        f"{base}.json",
        f"{base}/log",
        f"{base}/settlement",
        f"{base}/history",
        f"{base}/deal/{deal_id}/history",
        f"{base}/game.json",
        f"{base}/version",
    ]


def test_security_headers_on_every_response(web: Web, game: tuple[str, str], store: Store) -> None:
    token, view = game
    deal_id = store.get_game(token).deals[0].id
    urls = ["/", "/new", "/import", "/manifest.webmanifest", "/static/app.css", "/nowhere"]
    urls += pages(token, "g", deal_id) + pages(view, "v", deal_id)
    urls += [f"/g/{token}/deal/new", f"/g/{token}/undo", f"/g/{token}/deal/{deal_id}/edit"]
    for url in urls:
        with web.client.get(url) as response:
            assert response.status_code in (200, 404), url
            assert response.headers["Content-Security-Policy"] == CSP, url
            assert response.headers["Referrer-Policy"] == "no-referrer", url
            assert response.headers["X-Content-Type-Options"] == "nosniff", url


def test_nothing_inline_but_the_stylesheet_anywhere(
    web: Web, game: tuple[str, str], store: Store
) -> None:
    token, view = game
    deal_id = store.get_game(token).deals[0].id
    for url in ["/", "/new", "/import", f"/g/{token}/deal/new", f"/g/{token}/undo"] + [
        u for u in pages(token, "g", deal_id) + pages(view, "v", deal_id) if "json" not in u
    ]:
        html = web.client.get(url).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        # A <style> only ever holds the stylesheet itself, which the CSP allows by its hash.
        for style in re.findall(r"<style[^>]*>(.*?)</style>", html, re.S):
            assert style == STYLESHEET.read_text(encoding="utf-8"), url
        assert html.count("<style") <= 1, url
        assert not re.search(r"\sstyle=", html), url
        assert not re.search(r"\son[a-z]+=", html), url
        assert not re.search(r'src="(https?:)?//', html), url  # nothing from elsewhere
        assert not re.search(r'<link[^>]*href="(https?:)?//', html), url


def test_the_read_only_link_refuses_every_write(
    web: Web, store: Store, game: tuple[str, str]
) -> None:
    token, view = game
    deal = store.get_game(token).deals[0]
    edit_page = web.get(f"/g/{token}")
    valid = edit_page.form("/finish").data()  # a genuine CSRF token, key and version
    writes = [
        f"/g/{view}/deal/new",
        f"/g/{view}/deal/check",
        f"/g/{view}/deal/{deal.id}/edit",
        f"/g/{view}/deal/{deal.id}/check",
        f"/g/{view}/deal/{deal.id}/delete",
        f"/g/{view}/undo",
        f"/g/{view}/finish",
        f"/g/{view}/reopen",
        f"/g/{view}/rescore",
        f"/g/{view}/restore/1",
    ]
    for url in writes:
        response = web.client.post(url, data=valid)
        assert response.status_code == 403, url
        assert "only shows the game" in response.get_data(as_text=True)
    for url in writes:
        if "check" in url or url.endswith(("/finish", "/reopen", "/rescore", "/restore/1")):
            continue
        assert web.client.get(url).status_code == 403, url
    assert store.get_game(token).version == 2
    assert len(store.get_game(token).deals) == 1


def test_the_read_only_pages_show_no_edit_controls(
    web: Web, store: Store, game: tuple[str, str]
) -> None:
    token, view = game
    deal_id = store.get_game(token).deals[0].id
    for url in pages(view, "v", deal_id):
        html = web.client.get(url).get_data(as_text=True)
        assert token not in html, url
        assert "<form" not in html, url
        assert "/g/" not in html, url
    page = web.get(f"/v/{view}")
    assert "read-only" in page.text()
    assert "Next deal</a>" not in page.html and "Undo" not in page.text()
    # The view token under /g/ is sent to the read-only page.
    response = web.client.get(f"/g/{view}")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/v/{view}")


def test_the_edit_token_under_v_is_read_only_too(
    web: Web, store: Store, game: tuple[str, str]
) -> None:
    token, _ = game
    html = web.get(f"/v/{token}").html
    assert "<form" not in html
    assert f"/g/{token}" not in html


HOSTILE = [
    '<script>alert("x")</script>',
    '"><img src=x onerror=alert(1)>',
    'O\'Brien & "Sons"',
    "🂡 Ace ♠",
    "evil ✓",  # a bidi override ("\u202eevil") is refused at entry: tests/input/test_text_input.py
    "שרה",
]


def test_hostile_names_are_escaped_everywhere(web: Web, store: Store) -> None:
    players = HOSTILE[:3]
    token = web.new_game(players, name=HOSTILE[1])
    web.play(
        token,
        players,
        "contract",
        declarer=players[0],
        contract="6S",
        answers={players[1]: "pass", players[2]: "pass"},
    )
    web.play(
        token,
        players,
        "correction",
        reason='<b>bold</b> "renonce"',
        entries=[(players[1], "hill", None, "2")],
    )
    for url in [
        "/",
        f"/g/{token}",
        f"/g/{token}/log",
        f"/g/{token}/settlement",
        f"/g/{token}/history",
        f"/g/{token}/deal/new",
        f"/g/{token}/undo",
    ]:
        html = web.client.get(url).get_data(as_text=True)
        assert "<script>alert" not in html, url
        assert "<img src=x" not in html, url
        assert "<b>bold</b>" not in html, url
    assert store.get_game(token).players == players
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in web.get(f"/g/{token}").html


def test_emoji_and_right_to_left_names_work(web: Web, store: Store) -> None:
    players = HOSTILE[3:]
    token = web.new_game(players)
    page = web.play(token, players, "misere", declarer=players[2], tricks={players[2]: 0})
    assert "<bdi>שרה</bdi>" in page.html
    assert "🂡 Ace ♠" in page.text()
    assert store.get_game(token).players == players


def test_oversized_input_is_refused_with_a_message(web: Web, store: Store, app: Flask) -> None:
    page = web.get("/new")
    form = page.form("new-game").set(player_0="A" * 10_000, player_1="B", player_2="C")
    result = web.submit(page, form)
    assert result.status == 422
    assert "At most 40 characters" in result.errors()
    assert newest_game(store) is None
    huge = web.client.post("/new", data={"name": "x" * (3 * 1024 * 1024)})
    assert huge.status_code == 413
    assert "too large" in huge.get_data(as_text=True)
    token = web.new_game(PLAYERS)
    deal_page = web.get(f"/g/{token}/deal/new")
    form = deal_page.form("deal-form").set(
        kind="correction", reason="r" * 501, corr_player_0="0", corr_amount_0="1"
    )
    result = web.check(deal_page, form)
    assert result.status == 422
    assert "At most 500 characters" in result.errors()
    assert store.get_game(token).deals == []


def test_cookies_are_http_only_and_same_site(web: Web) -> None:
    response = web.client.get("/?lang=ru")
    cookies = response.headers.getlist("Set-Cookie")
    assert cookies
    for cookie in cookies:
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
        assert "Secure" not in cookie


def test_cookies_are_secure_under_https(app: Flask) -> None:
    app.config["HTTPS"] = True
    cookies = app.test_client().get("/?lang=uk").headers.getlist("Set-Cookie")
    assert cookies and all("Secure" in c for c in cookies)


def test_behind_a_proxy_the_forwarded_scheme_is_trusted(db_path) -> None:  # type: ignore[no-untyped-def]
    from scorekeeper.web import create_app

    app = create_app({"DATABASE": str(db_path), "SECRET_KEY": "s", "PROXY": True})
    response = app.test_client().get(
        "/?lang=ru", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.0.0.1"}
    )
    assert all("Secure" in c for c in response.headers.getlist("Set-Cookie"))


def test_an_unknown_game_is_a_clear_404(web: Web) -> None:
    page = web.get("/g/" + "x" * 32, status=404)
    assert "This link opens no game" in page.text()
    web.get("/v/" + "x" * 32 + ".json", status=404)
    web.get("/g/short", status=404)


def test_an_unusable_database_is_a_503_page_not_a_traceback(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from scorekeeper.web import create_app

    not_a_db = tmp_path / "junk.sqlite"
    not_a_db.write_bytes(b"this is not a database" * 100)
    app = create_app({"DATABASE": str(not_a_db), "SECRET_KEY": "s"})
    page = Page(app.test_client().get("/"), "/")
    assert page.status == 503
    assert "The score sheet cannot be reached" in page.text()
    assert "Traceback" not in page.html
