"""Every page of a game where the game's look-up meets what it belongs to, on each engine
(PostgreSQL reads the game's tournament place, company and answers' stamp in the game's own
statement): a company's game, a tournament table before and after its tour is closed, a
Balkan partija and the format's Sochi example with its redeal; each page in a language of
each script answers, and a table's name is said in the page's language, its tournament's state with it."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.web import create_app

from ..balkan.helpers import petak_file
from ..flows import new_company, new_tournament, start_evening
from ..harness import Web
from ..helpers import the_format_example

LANGUAGES = ("en", "ru", "sr_Cyrl")
PAGES = ("", "/what-if", "/settlement", "/history", "/pulka.pdf", "/links", "/game.json")


@pytest.fixture
def engine_app(store_location: str, catalogues: None) -> Iterator[Flask]:
    yield create_app({"TESTING": True, "DATABASE": store_location, "SECRET_KEY": "s"})


def _imported(web: Web, client: FlaskClient, data: object) -> str:
    fields = web.get("/import").form("").data()
    body = io.BytesIO(json.dumps(data).encode())
    made = client.post("/import", data={**fields, "file": (body, "game.json")})
    assert made.status_code == 302, made.get_data(as_text=True)[:800]
    return made.headers["Location"].rsplit("/", 1)[-1]


def _answered(client: FlaskClient, store: Store, token: str, refused: tuple[str, ...] = ()) -> None:
    record = store.get_game(token)
    urls = [f"/g/{token}{page}" for page in PAGES] + [f"/v/{record.view_token}/answers"]
    urls += [f"/v/{record.view_token}", f"/g/{token}/deal/new"]
    for lang in LANGUAGES:
        for url in urls:
            status = client.get(f"{url}?lang={lang}").status_code
            want = (403,) if refused and url.endswith(refused) else (200, 302)
            assert status in want, (url, lang, status)  # 302: a page kept on another


def test_every_page_of_every_kind_of_game_answers_on_each_engine(
    engine_app: Flask, store_location: str
) -> None:
    client = engine_app.test_client()
    web = Web(client)
    with Store(store_location, create=False) as store:
        company = new_company(web, roster=("Anna", "Boris", "Vera"))
        _answered(client, store, start_evening(web, store, company, ["Anna", "Boris", "Vera"]))
        _answered(client, store, _imported(web, client, the_format_example()))
        _answered(client, store, _imported(web, client, petak_file()))
        web.get("/?lang=ru")
        cup = new_tournament(web, name="Зимний кубок")
        page = web.get(f"/t/{cup}")
        assert web.submit(page, page.form("/seat")).status == 302
        table = Tournaments(store).get(cup).tour(1)[0].game.edit_token
        _answered(client, store, table)
        page = web.get(f"/t/{cup}")
        assert web.submit(page, page.form("/close").set(early="y")).status == 302
        _answered(client, store, table, refused=("/deal/new",))
        english = client.get(f"/g/{table}?lang=en").get_data(as_text=True)
        assert "Зимний кубок — tour 1, table 1" in english
        assert "Tour 1 is closed" in english or "tour 1 is closed" in english.lower()
