"""Downloads are never stale: a PDF, game file or JSON twin saved after a new deal has it."""

from __future__ import annotations

import json

import pytest

from scorekeeper import gamefile

from ..harness import Web

PLAYERS = ["Anna", "Boris", "Vera"]
SUFFIXES = ["/game.json", ".json", "/pulka.pdf"]


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_download_after_a_new_deal_has_the_deal(web: Web, suffix: str) -> None:
    token = web.new_game(PLAYERS)
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 2, "Boris": 4, "Vera": 4})
    first = web.client.get(f"/g/{token}{suffix}")
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "no-cache"
    assert "max-age=3600" not in first.headers["Cache-Control"]
    tag = first.headers["ETag"]
    # The phone asks again with its copy's tag: unchanged game, nothing to send.
    again = web.client.get(f"/g/{token}{suffix}", headers={"If-None-Match": tag})
    assert again.status_code == 304
    # Another phone adds a deal: the same question now gets the new file.
    web.play(token, PLAYERS, "misere", declarer="Boris", tricks={"Boris": 0})
    second = web.client.get(f"/g/{token}{suffix}", headers={"If-None-Match": tag})
    assert second.status_code == 200
    assert second.headers["ETag"] != tag
    assert second.data != first.data
    if suffix == "/game.json":
        deals = gamefile.loads(second.data).deals
        assert [d.kind for d in deals] == ["allpass", "misere"]
    elif suffix == ".json":
        assert json.loads(second.data)["sheet"]["Boris"]["pool"] == "10"
    else:
        assert second.data.startswith(b"%PDF")


def test_the_view_link_gets_its_own_tag(web: Web) -> None:
    token = web.new_game(PLAYERS)
    edit = web.client.get(f"/g/{token}/game.json")
    page = web.get(f"/g/{token}")
    view_token = page.html.split("/v/")[1].split('"')[0].split("/")[0]
    view = web.client.get(f"/v/{view_token}/game.json")
    assert view.headers["Cache-Control"] == "no-cache"
    assert view.headers["ETag"] != edit.headers["ETag"]
