"""A redeal where it meets the rest (docs/game-format.md's Sochi example ends in one,
imported through the web page): the game's page, the deal's history and the PDF (read back
by pdftotext) name it in each language; a company holds the game and a club's season counts
the redeal among the game's deals (docs/season.md: D counts redeals). A file with a key
written twice is refused on the import page next to the field, nothing written."""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.season import file as season_file
from scorekeeper.season.compute import report
from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs
from scorekeeper.store.companies import Companies

from ..flows import new_club, new_company, post
from ..harness import Page, Web
from ..helpers import the_format_example

WORD = {
    "ru": "пересдача",
    "uk": "перероздача",
    "en": "redeal",
    "sr_Latn": "ponovno deljenje",
    "hr": "ponovno dijeljenje",
}


def _imported(web: Web, client: FlaskClient, data: dict[str, Any]) -> str:
    upload = web.get("/import").form("").data()
    body = io.BytesIO(json.dumps(data).encode())
    response = client.post("/import", data={**upload, "file": (body, "game.json")})
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    return response.headers["Location"].rsplit("/", 1)[-1]


def _text(page: str) -> str:
    page = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("lang", WORD)
def test_the_redeal_is_named_on_the_page_the_history_and_the_pdf(
    web: Web, client: FlaskClient, store: Store, lang: str, tmp_path: Path
) -> None:
    token = _imported(web, client, the_format_example())
    redeal = store.get_game(token).deals[-1].id
    word = WORD[lang]
    page = _text(client.get(f"/g/{token}?lang={lang}").get_data(as_text=True))
    assert re.search(rf"\(\w+ 6\): {word} ", page, re.I), page[:1500]
    history = client.get(f"/g/{token}/deal/{redeal}/history?lang={lang}")
    assert history.status_code == 200 and f" {word} " in _text(history.get_data(as_text=True))
    pdf = client.get(f"/g/{token}/pulka.pdf?lang={lang}")
    assert pdf.status_code == 200
    (tmp_path / "pulka.pdf").write_bytes(pdf.data)
    text = subprocess.run(
        ["pdftotext", "-layout", str(tmp_path / "pulka.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"6. Boris · {word}" in text, text[-1500:]


def test_a_company_holds_the_imported_game_and_a_club_season_counts_its_redeal(
    web: Web, client: FlaskClient, store: Store
) -> None:
    token = _imported(web, client, the_format_example() | {"finished": True})
    company = new_company(web, roster=("Anna", "Boris", "Vera"), opt_currency="EUR")
    page = web.get(f"/c/{company}")
    attached = web.submit(page, page.form("/attach").set(link=token))
    assert attached.status == 302, attached.errors()
    held = Companies(store).get(company).games
    assert [g.game.edit_token for g in held] == [token]
    assert len(held[0].game.deals) == 8  # the redeal too
    club = new_club(web)
    refused = (
        400,
        ["This game belongs to a company or a tournament: attach that by its edit link."],
    )
    assert post(web, club, "attach", link=token) == refused
    assert post(web, club, "attach", link=company) == (302, [])
    view = Clubs(store).get(club).view_token
    file = json.loads(client.get(f"/kv/{view}/season.json").get_data())
    games = [event["game"] for event in file["events"]]
    assert [g["deals"][-1] for g in games] == [{"type": "redeal"}]
    assert file["events"][0]["company"] == "Fridays"
    counted = report(season_file.parse(file))
    deals = {line["player"]: line["deals"] for line in counted["standings"]}
    assert deals == {"Anna": 6, "Boris": 6, "Vera": 6}  # 3 contracts, misère, all-pass, redeal


def test_a_file_with_a_key_written_twice_is_refused_next_to_the_field(
    web: Web, client: FlaskClient, store: Store
) -> None:
    text = json.dumps(the_format_example())
    twice = text.replace('{"type": "redeal"}', '{"type": "redeal", "type": "redeal"}')
    assert twice != text
    upload = web.get("/import").form("").data()
    body = io.BytesIO(twice.encode())
    response = client.post("/import", data={**upload, "file": (body, "game.json")})
    assert response.status_code in (400, 422), response.status_code
    shown = Page(response, "/import")
    said = " ".join(shown.errors())
    assert "type" in said and "twice" in said, said or shown.text()[:1500]
    assert store.engine.rows("SELECT id FROM games", []) == []
