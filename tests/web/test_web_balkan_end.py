"""The end of a Balkan partija on its page (docs/balkan.md, "The end", "Result and money"):
how it ended (Σ bule = 0, a write-off, finished by hand), who pays whom, that no deal follows,
and what can still be done (undo the last entry, reopen, a rematch); and its history, every
entry described in words in every language. Through the Flask test client on an SQLite file."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper import games
from scorekeeper.store import Store
from scorekeeper.wording import words_for

from ..balkan.helpers import petak_file
from ..harness import Page, Web

LANGUAGES = ("ru", "uk", "en", "sr_Latn", "sr_Cyrl", "hr")


def _imported(web: Web, client: FlaskClient, **changes: Any) -> str:
    data = petak_file() | changes
    upload = web.get("/import").form("").data()
    body = io.BytesIO(json.dumps(data).encode())
    response = client.post("/import", data={**upload, "file": (body, "petak.json")})
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    return response.headers["Location"].rsplit("/", 1)[-1]


def _card(page: str) -> str:
    """The text of the finished card ("" when there is none)."""
    found = re.search(r'<section class="card finished bk-finished".*?</section>', page, re.S)
    return (
        html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))) if found else ""
    )


def test_a_written_off_partija_says_so_who_pays_whom_and_undoes_its_end(
    web: Web, client: FlaskClient, store: Store
) -> None:
    token = _imported(web, client)
    page = web.get(f"/g/{token}")
    card = _card(page.html)
    assert "The partija is over" in card
    assert "The bule left were written off with deal 5." in card
    assert "Ceca → Ana: 32.00" in card and "Boža → Ana: 19.00" in card  # docs/balkan.md §B12
    assert "No deal can follow the end." in card
    assert 'id="next-deal"' not in page.html and 'id="dalje"' not in page.html
    refused = client.post(f"/g/{token}/deal/new", data={"dalje": "1"})
    assert refused.status_code in (302, 400, 403, 409, 422)
    assert len(store.get_game(token).deals) == 6  # nothing was written after the end
    undo = web.get(f"/g/{token}/undo")
    done = web.submit(undo, undo.form(""))
    assert done.status == 302
    again = web.get(f"/g/{token}")
    assert _card(again.html) == "" and 'id="next-deal"' in again.html
    assert not games.load(store.get_game(token)).sheet.ended


def test_a_partija_whose_bule_come_to_zero_names_the_entry_and_offers_a_rematch(
    web: Web, client: FlaskClient, store: Store
) -> None:
    sans = {"type": "played", "declarer": "Ceca", "contract": "sans", "followers": []}
    token = _imported(web, client, options={"bule": 2, "stake": "0.1"}, deals=[sans])
    page = web.get(f"/g/{token}")
    card = _card(page.html)
    assert "Σ bule came to 0 with deal 1." in card, card
    loaded = games.load(store.get_game(token))
    assert loaded.sheet.ended_by == "zero"
    for pay in loaded.settlement.payments:
        assert f"{pay.payer} → {pay.payee}: {pay.amount}" in card
    rematch = web.submit(page, page.form("/rematch"))
    assert rematch.status == 302
    fresh = store.get_game(rematch.response.headers["Location"].rsplit("/", 1)[-1])
    assert fresh.options["family"] == "balkan" and fresh.deals == []


def test_a_partija_finished_by_hand_is_reopened_from_its_card(
    web: Web, client: FlaskClient, store: Store
) -> None:
    deals = petak_file()["deals"][:2]
    token = _imported(web, client, deals=deals, finished=True)
    page = web.get(f"/g/{token}")
    assert "It was finished by hand: the bule left were written off." in _card(page.html)
    reopened = web.submit(page, page.form("/reopen"))
    assert reopened.status == 302
    assert _card(web.get(f"/g/{token}").html) == ""
    assert not store.get_game(token).finished


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_history_describes_every_balkan_entry_in_words(
    web: Web, client: FlaskClient, store: Store, lang: str
) -> None:
    token = _imported(web, client)
    record = store.get_game(token)
    words = words_for(lang)
    family = games.load(record).family
    described = [family.describe(d.data, record.players, words) for d in record.deals]
    assert all(described) and len(set(described)) == len(described)
    page = html.unescape(client.get(f"/g/{token}/history?lang={lang}").get_data(as_text=True))
    for text in described:
        assert f"<p>{text}</p>" in page, text
    if lang in ("ru", "uk"):  # names stay as typed; the Balkan words are the language's
        assert not re.search(r"\b(follow|tricks|refa|write-off|nobody)\b", "".join(described))


def test_finish_now_asks_first_shows_the_write_off_and_ends_the_partija(
    web: Web, client: FlaskClient, store: Store
) -> None:
    token = _imported(web, client, deals=petak_file()["deals"][:2])
    loaded = games.load(store.get_game(token))
    now = loaded.family.settle(loaded.sheet)
    assert now.ended_by == "now"
    page = web.get(f"/g/{token}")
    fields = page.form("bk-next").data()
    kept = {k: v for k, v in fields.items() if k in ("csrf_token", "request_key", "base_version")}
    asked = client.post(f"/g/{token}/finish", data=kept)
    assert asked.status_code == 200  # one stray tap never ends a partija: it asks first
    said = html.unescape(asked.get_data(as_text=True))
    assert "If it were written off now" in said
    for pay in now.payments:
        assert f"{pay.payer} → {pay.payee}: {pay.amount}" in said
    shown = Page(asked, f"/g/{token}/finish")
    confirm = web.submit(shown, shown.form("finish-confirm"))
    assert confirm.status == 302
    assert store.get_game(token).finished
    card = _card(web.get(f"/g/{token}").html)
    assert "It was finished by hand: the bule left were written off." in card
