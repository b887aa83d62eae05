"""Every page opens, for a game of each convention, and shows what the table needs."""

from __future__ import annotations

import re

import pytest

from scorekeeper.store import Store

from ..harness import Web


@pytest.mark.parametrize(
    ("convention", "players"),
    [
        ("sochi", ["Anna", "Boris", "Vera"]),
        ("leningrad", ["Anna", "Boris", "Vera", "Gleb"]),
        ("rostov", ["Anna", "Boris", "Vera"]),
        ("hussar", ["Anna", "Boris"]),
    ],
)
def test_every_page_of_a_game(web: Web, store: Store, convention: str, players: list[str]) -> None:
    token = web.new_game(players, convention=convention)
    web.play(token, players, "misere", declarer=players[1], tricks={players[1]: 1})
    web.play(
        token,
        players,
        "correction",
        reason="carried over",
        entries=[(players[0], "pool", None, "2")],
    )
    game = store.get_game(token)
    deal_id = game.deals[0].id
    view = game.view_token
    for url in [
        "/",
        "/new",
        "/import",
        f"/g/{token}",
        f"/g/{token}/log",
        f"/g/{token}/settlement",
        f"/g/{token}/history",
        f"/g/{token}/deal/{deal_id}/history",
        f"/g/{token}/deal/new",
        f"/g/{token}/deal/{deal_id}/edit",
        f"/g/{token}/deal/{deal_id}/delete",
        f"/g/{token}/undo",
        f"/v/{view}",
        f"/v/{view}/log",
        f"/v/{view}/settlement",
        f"/v/{view}/history",
    ]:
        page = web.get(url)
        assert "<title>" in page.html
        assert "Traceback" not in page.html
    for url in [
        f"/g/{token}.json",
        f"/v/{view}.json",
        f"/g/{token}/game.json",
        f"/v/{view}/version",
        "/manifest.webmanifest",
    ]:
        response = web.client.get(url)
        assert response.status_code == 200, url
        assert response.is_json or response.mimetype.endswith("json"), url


def test_the_game_page_at_a_glance(web: Web, store: Store) -> None:
    players = ["Anna", "Boris", "Vera", "Gleb"]
    token = web.new_game(
        players, convention="leningrad", first_dealer=0, stake="0.10", currency="EUR"
    )
    web.play(token, players, "allpass", tricks={"Boris": 2, "Vera": 4, "Gleb": 4})
    page = web.get(f"/g/{token}")
    text = page.text()
    assert "Leningrad · pool to 10 · 1 deal" in text
    assert "Next deal: Boris deals." in text and "Boris sits out." in text
    assert "All-passes in a row: 1." in text
    assert "The next contract must be at least 7, or misère." in text
    assert re.search(
        r'class="button primary big"[^>]* href="/g/[^"]+/deal/new\?k=[0-9a-f]{32}">Next deal',
        page.html,
    )
    # Totals and where each would stand: Boris's hill 2 × 2 (Leningrad all-pass price 2).
    assert "If it ended now" in text
    totals = page.html.split('<section class="totals">')[1].split("</section>")[0]
    assert "<bdi>Boris</bdi>" in totals and "EUR" in totals
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page.html  # the pulka drawing
    assert 'class="segno"' in page.html  # the QR code of the read-only link
    assert f"/v/{store.get_game(token).view_token}" in page.html
    for link in ("/log", "/settlement", "/game.json", "/pulka.pdf", ".json", "/history"):
        assert f'/g/{token}{link}"' in page.html, link


def test_the_min_level_is_not_shown_when_it_is_six(web: Web) -> None:
    players = ["Anna", "Boris", "Vera"]
    token = web.new_game(players)
    web.play(token, players, "allpass", tricks={"Anna": 2, "Boris": 4, "Vera": 4})
    text = web.get(f"/g/{token}").text()
    assert "All-passes in a row: 1." in text
    assert "must be at least" not in text


def test_manifest_and_static_files(web: Web) -> None:
    manifest = web.client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    data = manifest.get_json()
    assert data["display"] == "standalone"
    for icon in data["icons"]:
        with web.client.get(icon["src"]) as response:
            assert response.status_code == 200, icon
    for name in ("app.css", "app.js"):
        with web.client.get(f"/static/{name}") as response:
            assert response.status_code == 200


def test_home_page_offers_new_game_and_upload(web: Web) -> None:
    page = web.get("/")
    assert 'href="/new"' in page.html
    form = page.form("/import")
    assert 'enctype="multipart/form-data"' in page.html
    assert "csrf_token" in form.names
    assert "Games you start or open on this phone will be listed here." in page.text()


def test_the_pulka_drawing_follows_every_change(web: Web) -> None:
    players = ["Anna", "Boris", "Vera"]
    token = web.new_game(players)

    def drawing() -> str:
        html = web.get(f"/g/{token}").html
        return html.split('<section class="pulka"')[1].split("</section>")[0]

    empty = drawing()
    assert drawing() == empty  # drawn once, shown again
    web.play(token, players, "misere", declarer="Boris", tricks={"Boris": 0})
    after = drawing()
    assert after != empty
    assert "Boris: pool 10" in after  # the drawing's description
