"""A flashed message where it meets the language switch, the Balkan family and the server
password's lock-out: kept as its id and parameters (web/flashes.py), it is said in the
language of the page that shows it, once, whichever page that is; a text flashed by an
older server is shown as it was written."""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import Store
from scorekeeper.web import create_app
from scorekeeper.web.flashes import said, said_entry, shown

from ..balkan.helpers import petak_file
from ..harness import Web


def _flashes(page: str) -> list[str]:
    found = re.search(r'<div class="flashes" role="status">(.*?)</div>', page, re.S)
    if found is None:
        return []
    texts = re.findall(r"<p>(.*?)</p>", found.group(1), re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", t)).strip() for t in texts]


def _said_in(app: Flask, lang: str, message: object) -> str:
    with app.test_request_context(f"/?lang={lang}"):
        app.preprocess_request()
        return shown(message)


def _partija(web: Web, client: FlaskClient, deals: int) -> str:
    data = petak_file()
    data["deals"] = data["deals"][:deals]
    upload = web.get("/import").form("").data()
    body = io.BytesIO(json.dumps(data).encode())
    response = client.post("/import", data={**upload, "file": (body, "petak.json")})
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    assert client.get(response.headers["Location"]).status_code == 200  # its flash shown
    return response.headers["Location"].rsplit("/", 1)[-1]


def _undo_in(client: FlaskClient, token: str, lang: str) -> None:
    """Undo from the page in `lang`, not following the redirect to the page."""
    asked = client.get(f"/g/{token}/undo?lang={lang}")
    if asked.status_code == 302:  # nothing to undo: said on the page it leads to
        return
    fields = {
        k: v[0] for k, v in Web(client).get(f"/g/{token}/undo?lang={lang}").form("").data().items()
    }
    assert client.post(f"/g/{token}/undo", data=fields).status_code == 302


@pytest.mark.parametrize("deals", [2, 0])
def test_a_balkan_flash_made_in_serbian_is_said_in_russian_once_switched(
    app: Flask, web: Web, client: FlaskClient, deals: int
) -> None:
    """An undo on a Balkan partija's page in sr_Latn (an entry undone; or nothing to undo),
    then the page asked in ru: the message is Russian, shown once."""
    token = _partija(web, client, deals)
    _undo_in(client, token, "sr_Latn")
    page = client.get(f"/g/{token}?lang=ru").get_data(as_text=True)
    message = said_entry("deal", "undone", deals) if deals else said("There is no deal to undo.")
    russian, serbian = _said_in(app, "ru", message), _said_in(app, "sr_Latn", message)
    assert russian != serbian and russian != (message["said"] % {"number": deals})
    assert _flashes(page) == [russian]
    assert _flashes(client.get(f"/g/{token}?lang=ru").get_data(as_text=True)) == []


def test_an_old_text_flash_is_shown_as_it_was_written(client: FlaskClient) -> None:
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "Сдача 3 сохранена (старый сервер).")]
    page = client.get("/?lang=sr_Latn").get_data(as_text=True)
    assert _flashes(page) == ["Сдача 3 сохранена (старый сервер)."]


@pytest.fixture
def locked_app(db_path: Path, catalogues: None) -> Flask:
    return create_app(
        {"TESTING": True, "DATABASE": str(db_path), "SECRET_KEY": "s", "PASSWORD": "right one"}
    )


def test_a_flash_waits_through_wrong_passwords_and_the_lock_out_said_in_the_page_language(
    locked_app: Flask,
) -> None:
    """The new game form open in uk; a message is left for the next page meanwhile (a game
    taken off the home list in another tab); then the form is refused for a wrong password
    until the client is locked out: the message is said once, in Ukrainian, on the first
    page that shows it, and the refusals say theirs."""
    client = locked_app.test_client()
    form = Web(client).get("/new?lang=uk").form("new-game")
    message = said("The game is no longer listed on this phone; its links still work.")
    with client.session_transaction() as session:
        session["_flashes"] = [("message", message)]
    seen: list[str] = []
    said_why: list[str] = []
    for _ in range(7):
        refused = client.post("/new", data={**form.data(), "password": "wrong"})
        assert refused.status_code in (200, 422, 429), refused.status_code
        page = refused.get_data(as_text=True)
        seen += _flashes(page)
        said_why.append(html.unescape(page))
    assert seen == [_said_in(locked_app, "uk", message)]
    assert _said_in(locked_app, "uk", said("Wrong password")) in said_why[0]
    assert "Too many wrong passwords" not in said_why[-1]  # said in Ukrainian
    wait = said_why[-1]
    assert re.search(r"\d+ секунд", wait), wait[-2000:]


def test_a_balkan_save_that_came_too_late_says_so_in_the_pages_language(
    app: Flask, web: Web, client: FlaskClient, store: Store
) -> None:
    """Two forms of the same Balkan partija: the first saved, the second answered 409 with
    the form kept and why, in Serbian, at the partija as it now is."""
    token = _partija(web, client, 0)
    first = web.get(f"/g/{token}?lang=sr_Latn")
    second = web.get(f"/g/{token}")
    for page in (first, second):
        form = page.form("bk-next").set(dalje="1")
        answer = client.post(page.form("bk-next").action, data=form.data())
        assert answer.status_code == (302 if page is first else 409)
    told = _flashes(answer.get_data(as_text=True))
    assert told == [
        _said_in(app, "sr_Latn", said("Another phone changed this game in the meantime"))
    ]
    now = store.get_game(token)
    assert len(now.deals) == 1  # the first form's entry, once
    assert f'name="base_version" type="hidden" value="{now.version}"' in answer.get_data(
        as_text=True
    ) or f'name="base_version" value="{now.version}"' in answer.get_data(as_text=True)
