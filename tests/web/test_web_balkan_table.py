"""A Balkan partija at the table, as a Russian game is (issues 47 and 50): each phone that
follows it confirms each entry ✓/✗ through the same path (confirm.js, web/confirm/,
confirmations.py, _confirmations.html), the entry said by the game's family; a follower who
joins late is asked about every entry nobody confirmed, oldest first; the scorer sees who
said what; a Save from the script answers JSON, a refusal included. On both engines."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import balkan, gamefile_balkan, games
from scorekeeper.games.family import BALKAN, FAMILIES
from scorekeeper.store import Store
from scorekeeper.wording import ENGLISH

from ..balkan.helpers import petak_file
from ..harness import Web


def _app(location: str) -> Flask:
    from scorekeeper.web import create_app

    return create_app({"TESTING": True, "DATABASE": location, "SECRET_KEY": "s"})


def _imported(web: Web, deals: int) -> str:
    """A Balkan partija with the first entries of petak.json (refa, then played deals)."""
    data = petak_file()
    data["deals"] = data["deals"][:deals]
    upload = web.get("/import").form("").data()
    body = io.BytesIO(json.dumps(data).encode())
    response = web.client.post("/import", data={**upload, "file": (body, "petak.json")})
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    return str(response.headers["Location"].rsplit("/", 1)[-1])


def _asked(html: str) -> list[tuple[int, int]]:
    return [
        (int(d), int(r)) for d, r in re.findall(r'data-deal="(\d+)" data-revision="(\d+)"', html)
    ]


def _answer(client: FlaskClient, view: str, deal: int, revision: int, **kw: str) -> Any:
    ticket = client.get(f"/v/{view}/confirm/key").get_json()
    data = {
        "csrf_token": ticket["csrf_token"],
        "request_key": ticket["request_key"],
        "deal": str(deal),
        "revision": str(revision),
        "verdict": "right",
        "note": "",
        **kw,
    }
    return client.post(f"/v/{view}/confirm", data=data)


def test_followers_confirm_a_balkan_partija(store_location: str, catalogues: None) -> None:
    app = _app(store_location)
    web = Web(app.test_client())
    token = _imported(web, 4)
    with Store(store_location) as store:
        record = store.get_game(token)
    view = record.view_token
    scorer = web.get(f"/g/{token}").html
    assert "confirm.js" not in scorer and 'id="confirm"' not in scorer
    assert f"/g/{token}/answers" in scorer  # the follow may swap in only the answers

    # A follower who joins after four entries is asked about each, oldest first, each
    # said by the Balkan family (what it wrote and why), with the players to say who he is.
    ana = app.test_client()
    page = ana.get(f"/v/{view}").get_data(as_text=True)
    assert "confirm.js" in page and 'data-iam="Ana"' in page
    asked = _asked(page)
    assert [d for d, _ in asked] == [d.id for d in record.deals]
    sheet = balkan.replay(gamefile_balkan.load(games.file_data(record)))[0]
    told = FAMILIES[BALKAN].told(sheet, 1, ENGLISH)
    assert told.kind == "deal" and told.number == 2 and told.wrote
    assert told.title.startswith(record.deals[1].data["declarer"] + ": ")
    assert f"Deal 2: {told.title}" in page and told.wrote[0] in page

    assert _answer(ana, view, *asked[0], player="Ana").get_json()["ok"] is True
    boza = app.test_client()
    boza.get(f"/v/{view}")
    wrong = _answer(boza, view, *asked[1], player="Boža", verdict="wrong", note="7 tricks")
    assert wrong.status_code == 200, wrong.get_data(as_text=True)

    # The scorer's page: who confirmed, the disputed entry with its note and an Edit.
    scorer = web.get(f"/g/{token}").html
    assert 'id="confirmations"' in scorer and "Deal 2, disputed:" in scorer
    assert f"/g/{token}/deal/{asked[1][0]}/edit" in scorer
    assert "7 tricks" in scorer
    # The follower's answers part: the same card, at the game's version.
    part = ana.get(f"/v/{view}/answers").get_data(as_text=True)
    assert f'data-version="{record.version}"' in part and "Deal 2, disputed:" in part
    with Store(store_location) as store:
        assert store.get_game(token).version == record.version  # answers leave the sheet


def test_a_balkan_save_from_the_script_answers_json(store_location: str, catalogues: None) -> None:
    """The offline queue sends a Save with X-Save: json and keeps it until the answer: a
    saved entry names the sheet; a refusal says its problems by field (nothing written)."""
    app = _app(store_location)
    web = Web(app.test_client())
    token = _imported(web, 1)  # a refa: Boža deals next, Ceca declares
    page = web.get(f"/g/{token}/deal/new")
    form = page.form("deal-form")
    bad = {"declarer": "Ceca", "contract": "karo", "tricks.Ceca": "7", "tricks.Ana": "7"}
    form.set(**bad, action="save")
    headers = {"X-Save": "json"}
    refused = web.client.post(page.url, data=form.data(), headers=headers)
    assert refused.status_code == 422 and refused.get_json()["saved"] is False
    assert refused.get_json()["errors"]["tricks"]
    with Store(store_location) as store:
        assert len(store.get_game(token).deals) == 1
    form.set(**{"tricks.Ana": "3"})
    saved = web.client.post(page.url, data=form.data(), headers=headers)
    assert saved.status_code == 200, saved.get_data(as_text=True)[:800]
    assert saved.get_json() == {"saved": True, "deal": 2, "next": f"/g/{token}"}
    again = web.client.post(page.url, data=form.data(), headers=headers)  # the same key
    assert again.get_json()["saved"] is True
    with Store(store_location) as store:
        assert len(store.get_game(token).deals) == 2
