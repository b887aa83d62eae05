"""A restore refused for its problems (d25d665: each problem flashed as its template and
values) where it meets the language switch: refused on the history page in Serbian, said on
the next page in Russian, naming the deal and the rule; nothing written."""

from __future__ import annotations

import html
import io
import json
import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import Store
from scorekeeper.wording import words_for

from ..harness import Web, forms_of
from ..helpers import allpass, contract, game


def _flashes(page: str) -> list[str]:
    found = re.search(r'<div class="flashes" role="status">(.*?)</div>', page, re.S)
    texts = re.findall(r"<p>(.*?)</p>", found.group(1), re.S) if found else []
    return [html.unescape(re.sub(r"<[^>]+>", "", t)).strip() for t in texts]


def test_a_refused_restore_flashed_in_serbian_is_said_in_russian(
    app: Flask, web: Web, client: FlaskClient, store: Store
) -> None:
    """Leningrad: deal 1 entered as an all-pass, changed to B's 6♠; deal 2 C's 6♠. Putting
    deal 1's all-pass back would leave deal 2 a 6 after an all-pass (at least 7): refused."""
    data = game("leningrad", [allpass(A=0, B=4, C=6)])
    fields = web.get("/import").form("").data()
    body = io.BytesIO(json.dumps(data).encode())
    made = client.post("/import", data={**fields, "file": (body, "game.json")})
    token = made.headers["Location"].rsplit("/", 1)[-1]
    client.get(made.headers["Location"])  # the import's own message is shown
    record = store.get_game(token)
    first = record.deals[0].id
    six = contract("B", "6S", {"C": "pass", "A": "pass"})
    store.update_deal(token, first, six, base_version=record.version)
    later = contract("C", "6S", {"A": "pass", "B": "pass"})
    store.add_deal(token, later, base_version=store.get_game(token).version)
    before = store.get_game(token)
    history = web.get(f"/g/{token}/deal/{first}/history?lang=sr_Latn")
    restores = [f for f in forms_of(history.html) if "/restore/" in f.action]
    assert restores, "no version to put back"
    refused = client.post(restores[-1].action, data=restores[-1].data())
    assert refused.status_code == 302
    shown = _flashes(client.get(f"/g/{token}/history?lang=ru").get_data(as_text=True))
    ru = words_for("ru")
    assert shown[0] == ru.gettext("This version cannot be put back:"), shown
    assert len(shown) >= 2 and "2" in shown[1] and "7" in shown[1], shown
    assert not re.search(r"[A-Za-z]{4,}", shown[1].replace("Leningrad", "")), shown[1]
    after = store.get_game(token)
    assert (after.version, [d.data for d in after.deals]) == (
        before.version,
        [d.data for d in before.deals],
    )
