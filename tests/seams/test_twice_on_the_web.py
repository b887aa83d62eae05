"""A JSON key written twice (gamefile.written_twice) where it meets the web's import pages
of each kind of file, and a redeal read from a file where it meets the edit page, undo and
the history's restore on each engine (PostgreSQL's Save is a pipeline): refused next to the
field with nothing written; the redeal stays one."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import Store
from scorekeeper.tournament.sample import random_tournament
from scorekeeper.web import create_app

from ..flows import new_company
from ..harness import Page, Web, forms_of
from ..helpers import the_format_example


def _twice(text: str, key: str) -> str:
    """The file with its first `key` written twice (the same value again)."""
    at = text.index(f'"{key}": ')
    end = text.index(",", at)
    twice = text[:end] + ", " + text[at:end] + text[end:]
    assert json.loads(twice) == json.loads(text)  # Python keeps the last: no other change
    return twice


def _upload(web: Web, client: FlaskClient, url: str, text: str) -> Page:
    fields = web.get(url).form("").data()
    body = io.BytesIO(text.encode())
    return Page(client.post(url, data={**fields, "file": (body, "file.json")}), url)


def _count(store: Store, table: str) -> int:
    return len(store.engine.rows(f"SELECT id FROM {table}", []))


def test_a_tournament_file_with_a_key_twice_is_refused_on_its_import_page(
    web: Web, client: FlaskClient, store: Store
) -> None:
    data = random_tournament(
        random.Random(5), players=6, tours=1, table_size=3, round_limit=1, convention="sochi"
    )
    refused = _upload(web, client, "/tournament/import", _twice(json.dumps(data), "name"))
    assert refused.status == 400
    assert "name" in refused.text() and "twice" in refused.text(), refused.text()[:1500]
    assert _count(store, "tournaments") == 0 and _count(store, "games") == 0


def test_a_company_file_with_a_key_twice_is_refused_on_its_import_page(
    web: Web, client: FlaskClient, store: Store
) -> None:
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    exported = client.get(f"/c/{token}/company.json").get_data(as_text=True)
    before = _count(store, "companies")
    refused = _upload(web, client, "/company/import", _twice(exported, "name"))
    assert refused.status in (400, 422), refused.status
    assert "name" in refused.text() and "twice" in refused.text(), refused.text()[:1500]
    assert _count(store, "companies") == before


@pytest.fixture
def engine_app(store_location: str, catalogues: None) -> Iterator[Flask]:
    yield create_app({"TESTING": True, "DATABASE": store_location, "SECRET_KEY": "test secret"})


def _deals(client: FlaskClient, token: str) -> list[dict[str, Any]]:
    return list(json.loads(client.get(f"/g/{token}/game.json").data)["deals"])


def test_a_redeal_read_from_a_file_stays_one_through_edit_undo_and_restore(
    engine_app: Flask, store_location: str
) -> None:
    client = engine_app.test_client()
    web = Web(client)
    fields = web.get("/import").form("").data()
    body = io.BytesIO(json.dumps(the_format_example()).encode())
    made = client.post("/import", data={**fields, "file": (body, "game.json")})
    assert made.status_code == 302
    token = made.headers["Location"].rsplit("/", 1)[-1]
    with Store(store_location, create=False) as store:
        redeal = store.get_game(token).deals[-1].id
    page, form = web.deal_form(token, redeal)
    assert form.value("kind") == "redeal"
    checked = web.check(page, form)
    assert checked.status == 200, checked.errors()
    assert web.save(checked, checked.form("deal-form")).status == 302
    assert _deals(client, token)[-1] == {"type": "redeal"}
    undo = web.get(f"/g/{token}/undo")
    assert web.submit(undo, undo.form("")).status == 302
    assert {"type": "redeal"} not in _deals(client, token)
    history = web.get(f"/g/{token}/history")
    restore = next(f for f in forms_of(history.html) if "/restore/" in f.action)
    assert web.submit(history, restore).status == 302
    assert _deals(client, token)[-1] == {"type": "redeal"}
