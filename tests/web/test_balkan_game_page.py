"""A Balkan partija's game page (templates/balkan/game.html): its header names the options
changed from the preset, as a Russian game's does, and it has the Russian page's "Finish now"
under the paper, which asks first with the write-off it would make and then writes exactly
that write-off, nothing else (docs/balkan.md, "The end": finished is a final write-off). Through
the Flask test client on an SQLite file."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient

from scorekeeper import games
from scorekeeper.store import Store

from ..balkan.helpers import petak_file
from ..harness import Web
from .test_web_balkan_end import _imported

OPTIONS = {"refe_max": 5, "double_fall": True}


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _head(page: str) -> str:
    found = re.search(r'<header class="game-head bk-head">.*?</header>', page, re.S)
    assert found, page[:500]
    return _text(found.group(0))


def test_the_header_names_the_options_changed_from_the_preset(
    web: Web, client: FlaskClient
) -> None:
    deals = petak_file()["deals"][:2]
    plain = _head(web.get(f"/g/{_imported(web, client, deals=deals, options={})}").html)
    assert "House rules" not in plain
    petak = _head(web.get(f"/g/{_imported(web, client, deals=deals)}").html)
    assert "House rules — Stake per supa: 0.1" in petak, petak  # its only change
    token = _imported(web, client, deals=deals, options=OPTIONS)
    head = _head(web.get(f"/g/{token}").html)
    assert "House rules — Most refe: 5 · Double fall: yes" in head, head
    ru = _head(client.get(f"/g/{token}?lang=ru").get_data(as_text=True))
    assert "Договорённости — Наибольшее число реф: 5 · Двойное падение: да" in ru, ru


def test_finish_now_is_under_the_paper_asks_first_and_writes_exactly_the_write_off(
    web: Web, client: FlaskClient, store: Store
) -> None:
    token = _imported(web, client, deals=petak_file()["deals"][:2])
    before = store.get_game(token)
    loaded = games.load(before)
    now = loaded.family.settle(loaded.sheet)
    assert now.ended_by == "now" and sum(now.write_off.values()) == loaded.sheet.total > 0
    page = web.get(f"/g/{token}")
    assert page.html.index('id="finish-now"') > page.html.index("bk-files")  # under the paper
    assert page.html.index('id="finish-now"') < page.html.index('class="card share"')
    assert re.search(r'id="finish-now".*?>Finish now</button>', page.html, re.S)
    asked = web.submit(page, page.form("finish-now"))
    assert asked.status == 200 and asked.has_form("finish-confirm")
    said = _text(asked.html)
    assert "If it were written off now" in said
    for pay in now.payments:
        assert f"{pay.payer} → {pay.payee}: {pay.amount}" in said
    assert not store.get_game(token).finished  # asking wrote nothing
    done = web.submit(asked, asked.form("finish-confirm"))
    assert done.status == 302
    after = store.get_game(token)
    assert after.finished and after.deals == before.deals  # no entry added: the end is by hand
    kept = after.finished_snapshot["settlement"]
    assert kept["write_off"] == {p: str(n) for p, n in now.write_off.items()}
    finished = games.load(after)
    assert finished.sheet.ended and finished.settlement.money == now.money
    assert finished.settlement.write_off == now.write_off
    assert 'id="finish-now"' not in web.get(f"/g/{token}").html  # once ended, no second end
