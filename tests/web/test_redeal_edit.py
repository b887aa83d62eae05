"""An imported Sochi game ending in a `{"type": "redeal"}` (docs/game-format.md "The deals":
"`redeal` — nothing else", accepted in every convention; its first example is such a game):
the deal's edit page offers the redeal, checked, so a Save keeps it one, though a new deal of
a Sochi game is never offered a redeal (there everyone passing is an all-pass); the log and
the history say "redeal" in words, in every language."""

from __future__ import annotations

import html
import io
import json
import re

import pytest
from flask.testing import FlaskClient

from scorekeeper.store import Store

from ..harness import Web
from ..helpers import the_format_example
from ..rules.test_rules_redeal import REDEAL

#: "redeal" in every language of the interface (as the deal form's kind, as the log's title).
SAID = {
    "en": ("Redeal", "redeal"),
    "ru": ("Пересдача", "пересдача"),
    "uk": ("Перероздача", "перероздача"),
    "sr_Latn": ("Ponovno deljenje", "ponovno deljenje"),
    "sr_Cyrl": ("Поновно дељење", "поновно дељење"),
    "hr": ("Ponovno dijeljenje", "ponovno dijeljenje"),
}


def imported(web: Web, client: FlaskClient) -> str:
    """The format example imported through the web: its edit token."""
    upload = web.get("/import").form("").data()
    body = json.dumps(the_format_example()).encode()
    response = client.post("/import", data={**upload, "file": (io.BytesIO(body), "g.json")})
    assert response.status_code == 302
    return str(response.headers["Location"]).rsplit("/", 1)[-1]


def kinds(page_html: str) -> list[str]:
    """The kinds the deal form offers."""
    return re.findall(r'name="kind"[^>]*value="([a-z]+)"', page_html) or re.findall(
        r'value="([a-z]+)"[^>]*name="kind"', page_html
    )


def test_an_imported_redeal_is_edited_as_a_redeal_and_saved_as_one(
    web: Web, client: FlaskClient, store: Store
) -> None:
    """docs/game-format.md "The deals": the redeal written in a Sochi file stays a redeal when its
    edit page is saved as it stands; the form for a new deal offers none."""
    token = imported(web, client)
    last = store.get_game(token).deals[-1]
    page = web.get(f"/g/{token}/deal/{last.id}/edit?lang=en")
    assert "redeal" in kinds(page.html)
    form = page.form("deal-form")
    assert form.data()["kind"] == ["redeal"]
    checked = web.check(page, form)
    assert "redeal" in kinds(checked.html) and not checked.errors()
    saved = web.save(checked, checked.form("deal-form"))
    assert saved.status == 302, saved.errors() or saved.text()[:1500]
    after = store.get_game(token).deals[-1]
    assert (after.id, after.data) == (last.id, REDEAL)
    new = web.get(f"/g/{token}/deal/new")
    assert "contract" in kinds(new.html) and "redeal" not in kinds(new.html)


@pytest.mark.parametrize("lang", SAID)
def test_the_redeal_is_said_in_words_in_every_language(
    web: Web, client: FlaskClient, store: Store, lang: str
) -> None:
    """docs/game-format.md "The deals": the edit page's kind, the log's title and the history's
    line of the redeal are words of the page's language, never the file's "redeal" code."""
    token = imported(web, client)
    last = store.get_game(token).deals[-1].id
    label, title = SAID[lang]
    edit = web.get(f"/g/{token}/deal/{last}/edit?lang={lang}")
    assert label in edit.text()
    log = html.unescape(web.get(f"/g/{token}/log").html)
    assert re.search(rf"\.</span> {re.escape(title)}</h2>", log), log[-2000:]
    history = web.get(f"/g/{token}/deal/{last}/history").text()
    assert title in history
