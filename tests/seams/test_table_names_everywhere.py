"""A tournament table's name in the language of the page showing it (web/table_names.py),
where it meets the other pages of the table: the director seats the tour in Russian, the
table reads English; every page of the game names the table in English (its page, the
follower's page with its confirm card and answers part, the deal form, the 409 page of a
Save that came too late, the log, the history, the settlement, the PDF read back, and the
page of a closed tour), and none in Russian; the stored name stays the director's."""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

from flask.testing import FlaskClient

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments

from ..flows import new_tournament
from ..harness import Web

ENGLISH = "Зимний кубок — tour 1, table 1"
RUSSIAN = "Зимний кубок — тур 1, стол 1"


def _text(page: str) -> str:
    page = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def _seated_in_russian(web: Web, store: Store) -> tuple[str, str]:
    """The tournament's token and its first table's edit token."""
    web.get("/?lang=ru")
    token = new_tournament(web, name="Зимний кубок")
    page = web.get(f"/t/{token}")
    assert web.submit(page, page.form("/seat")).status == 302
    table = Tournaments(store).get(token).tour(1)[0].game
    assert table.name == RUSSIAN  # stored as the director's page worded it
    web.get("/?lang=en")
    return token, table.edit_token


def _named(text: str, where: str) -> None:
    assert ENGLISH in text, (where, text[:1200])
    assert "тур 1" not in text and "стол 1" not in text, where


def test_every_page_of_a_table_names_it_in_the_pages_language(
    web: Web, client: FlaskClient, store: Store, tmp_path: Path
) -> None:
    tournament, token = _seated_in_russian(web, store)
    view = store.get_game(token).view_token
    for url in (
        f"/g/{token}",
        f"/v/{view}",
        f"/g/{token}/deal/new",
        f"/g/{token}/log",
        f"/g/{token}/history",
        f"/g/{token}/settlement",
    ):
        answer = client.get(url)
        assert answer.status_code == 200, url
        _named(_text(answer.get_data(as_text=True)), url)
    pdf = client.get(f"/g/{token}/pulka.pdf")
    assert pdf.status_code == 200
    (tmp_path / "table.pdf").write_bytes(pdf.data)
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "table.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    _named(re.sub(r"\s+", " ", text), "the PDF")
    assert store.get_game(token).name == RUSSIAN


def test_a_late_save_a_confirm_card_and_a_closed_tour_name_the_table_in_english(
    web: Web, client: FlaskClient, store: Store
) -> None:
    tournament, token = _seated_in_russian(web, store)
    record = store.get_game(token)
    tricks = dict(zip(record.players, [4, 3, 3], strict=False))
    page, form = web.deal_form(token)
    late = web.check(page, web.fill_deal(form, record.players, "allpass", tricks=tricks))
    assert late.status == 200 and late.form("deal-form").value("checked")
    assert web.play(token, record.players, "allpass", tricks=tricks).status == 200
    too_late = web.save(late, late.form("deal-form"))
    assert too_late.status == 409, too_late.status
    _named(too_late.text(), "the page of a Save that came too late")
    view = record.view_token
    follower = _text(client.get(f"/v/{view}").get_data(as_text=True))
    _named(follower, "the follower's page")
    part = client.get(f"/v/{view}/answers")
    assert part.status_code == 200
    assert "тур 1" not in part.get_data(as_text=True)
    page = web.get(f"/t/{tournament}")
    closed = web.submit(page, page.form("/close").set(early="y"))
    assert closed.status == 302
    read_only = client.get(f"/g/{token}/deal/new")
    assert read_only.status_code == 403
    refusal = _text(read_only.get_data(as_text=True))
    assert "Tour 1 is closed" in refusal and "тур 1" not in refusal
    _named(_text(client.get(f"/g/{token}").get_data(as_text=True)), "the closed table")


def test_the_home_list_names_a_table_in_the_pages_language(
    web: Web, client: FlaskClient, store: Store
) -> None:
    """The phone's recent games on the home page name a table as its own pages do; a game
    of another name is listed as stored."""
    _tournament, token = _seated_in_russian(web, store)
    assert client.get(f"/g/{token}").status_code == 200  # now known to this phone
    other = web.new_game(["Anna", "Boris", "Vera"])
    home = _text(client.get("/?lang=en").get_data(as_text=True))
    _named(home, "the home page")
    assert store.get_game(other).name in home
    russian = _text(client.get("/?lang=ru").get_data(as_text=True))
    assert RUSSIAN in russian and ENGLISH not in russian
