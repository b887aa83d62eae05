"""Issue 32, items 7, 9 and 10, against the real `scorekeeper serve`:

7. an evening named with an invisible character is refused next to the name, nothing
   written; an evening stored with one (by an older release) opens, its company's pages,
   file and CSV answer 200 and show it escaped;
9. the fuzz's 500s: bands `200 1/0`, a convention not in the list (with a 1 MB value), a
   deeply nested tournament file, ids of 19+ digits, a tour length in other digits;
10. tokens under /tournament/of/, /g//, /G/ are masked in the log, and a 1 MB form value is
    never echoed into it.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator

import pytest

from ..harness import Form
from ..served import PLAYERS, Phone, Server, fill_new_game, new_game

INVISIBLE = ["A\u200eB", "\ufeffEve", "Ni\x00ght", "\u202eevening", "zero\u200bwidth", "two\nlines"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("guests")
    running = Server(where / "games.sqlite", where / "server.log")
    try:
        yield running.start()
    finally:
        running.stop()


def company(phone: Phone) -> str:
    form = phone.get("/company/new").form("new-company")
    reply = phone.post("/company/new", form.set(name="Club", roster="Anna\nBoris\nVera").data())
    assert reply.status == 302, reply.html[:500]
    return reply.location.rsplit("/", 1)[-1]


def evening_form(phone: Phone, token: str) -> Form:
    """The evening form with the company's first three players picked."""
    ids = re.findall(r'name="player" value="([0-9]+)"', phone.get(f"/c/{token}").html)[:3]
    assert len(ids) == 3
    query = "&".join(f"player={i}" for i in ids)
    return phone.get(f"/c/{token}/evening?{query}").form("evening-form")


def errors_of(html: str, field: str) -> str:
    found = re.search(rf'<ul class="errors" id="{field}-errors">(.*?)</ul>', html, re.S)
    return re.sub(r"<[^>]+>", " ", found.group(1)).strip() if found else ""


def count(served: Server, table: str) -> int:
    conn = sqlite3.connect(served.db)
    try:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        conn.close()


# -- 7: invisible characters in an evening's name ----------------------------------------------


def test_an_evening_named_with_an_invisible_character_is_refused(served: Server) -> None:
    phone = Phone(served.port)
    token = company(phone)
    form = evening_form(phone, token)
    before = count(served, "games")
    for name in INVISIBLE:
        reply = phone.post(f"/c/{token}/evening", form.set(name=name).data())
        assert reply.status == 422, (name, reply.status)
        assert "cannot hold" in errors_of(reply.html, "name"), name
    assert count(served, "games") == before
    for path in (f"/c/{token}", f"/c/{token}/company.json", f"/c/{token}/standings.csv"):
        assert phone.get(path).status == 200


def test_an_evening_stored_with_an_invisible_name_is_shown_escaped(served: Server) -> None:
    phone = Phone(served.port)
    token = company(phone)
    form = evening_form(phone, token)
    reply = phone.post(f"/c/{token}/evening", form.set(name="Friday").data())
    assert reply.status == 302
    game = reply.location.rsplit("/", 1)[-1]
    conn = sqlite3.connect(served.db)  # as an older release let it in
    with conn:
        conn.execute("UPDATE games SET name = ? WHERE edit_token = ?", ("Fri\u200eday\x00", game))
    conn.close()
    for path in (f"/c/{token}", f"/c/{token}/standings.csv", f"/g/{game}", f"/g/{game}.json"):
        reply = phone.get(path)
        assert reply.status == 200, path
        assert "\u200e" not in reply.html and "\x00" not in reply.html, path
    page = phone.get(f"/c/{token}").html
    assert "Fri\\u200eday\\u0000" in page
    exported = phone.get(f"/c/{token}/company.json")
    assert exported.status == 200
    assert "\u200e" not in exported.html
    assert "Fri\\\\u200eday\\\\u0000" in exported.html  # JSON writes the backslash as \\
    # The file it exports is opened again as a new company.
    upload = phone.get("/company/import").form("import-company").data()
    again = phone.upload("/company/import", upload, "file", exported.body)
    assert again.status == 302, again.html[:800]


# -- 9: the fuzz's 500s -------------------------------------------------------------------------


def tournament_form(phone: Phone, **values: str) -> dict[str, list[str]]:
    form = phone.get("/tournament/new").form("new-tournament")
    roster = "\n".join(["Anna", "Boris", "Vera", "Gleb", "Dana", "Egor"])
    return form.set(name="Cup", roster=roster, **values).data()


def test_bands_dividing_by_zero_and_a_tour_length_in_other_digits_are_refused(
    served: Server,
) -> None:
    phone = Phone(served.port)
    before = count(served, "tournaments")
    reply = phone.post(
        "/tournament/new", tournament_form(phone, bands_preset="custom", bands_text="200 1/0")
    )
    assert reply.status in (200, 400, 422), reply.status  # the form again, not a 500
    assert "e.g. 200 1/10" in errors_of(reply.html, "bands_text")
    for digits in ("٣", "³", "３"):
        reply = phone.post("/tournament/new", tournament_form(phone, rounds=digits))
        assert reply.status in (200, 400, 422), (digits, reply.status)
        assert errors_of(reply.html, "rounds"), digits
    assert count(served, "tournaments") == before


def test_a_convention_not_in_the_list_is_refused_next_to_it(served: Server) -> None:
    phone = Phone(served.port)
    huge = "x" * 1_000_000
    forms = {
        "/new": fill_new_game(phone.get("/new").form("new-game"), PLAYERS).data(),
        "/company/new": phone.get("/company/new")
        .form("new-company")
        .set(roster="Anna\nBoris\nVera")
        .data(),
        "/tournament/new": tournament_form(phone),
    }
    token = company(phone)
    forms[f"/c/{token}/rules"] = phone.get(f"/c/{token}/rules").form("company-rules").data()
    for path, data in forms.items():
        for value in ("bridge", huge, ""):
            reply = phone.post(path, {**data, "convention": [value]})
            assert reply.status in (200, 400, 422), (path, value[:10], reply.status)
            assert errors_of(reply.html, "convention"), (path, value[:10])
    log = served.logged()
    assert "x" * 5000 not in log
    assert "KeyError" not in log and "Traceback" not in log


def test_a_deeply_nested_tournament_file_is_a_400(served: Server) -> None:
    phone = Phone(served.port)
    form = phone.get("/tournament/import").form("import-tournament").data()
    for depth in (100_000, 5_000, 900):
        nested = b'{"format": "pulka-tournament/1", "x": ' + b"[" * depth + b"]" * depth + b"}"
        reply = phone.upload("/tournament/import", form, "file", nested)
        assert reply.status == 400, (depth, reply.status)


def test_ids_of_many_digits_are_404s(served: Server) -> None:
    phone = Phone(served.port)
    game = new_game(phone)
    token = company(phone)
    big = "9" * 19
    assert phone.get(f"/v/{game}/deal/{big}/history").status == 404
    assert phone.get(f"/g/{game}/deal/{big}/history").status == 404
    assert phone.get(f"/v/{game}/deal/%D9%A3/history").status == 404  # ٣, Arabic-Indic 3
    pay = phone.get(f"/c/{token}").form("/pay").data()
    for path in (f"/c/{token}/payments/{big}/delete", f"/c/{token}/players/{big}"):
        reply = phone.post(path, pay)
        assert reply.status == 404, (path, reply.status)
    assert phone.get(f"/c/{token}/players/{big}").status in (404, 405)
    log = served.logged()
    assert "OverflowError" not in log and "database not available" not in log


# -- 10: tokens and huge values in the log -----------------------------------------------------


def test_every_spelling_of_a_link_is_masked_in_the_log(served: Server) -> None:
    phone = Phone(served.port)
    game = new_game(phone)
    view = phone.get(f"/g/{game}/links").html
    secret = "Zz9SecretToken0123456789abcdefXY"
    paths = [
        f"/tournament/of/{secret}",
        f"/tournament//of/{secret}",
        f"/g//{secret}",
        f"/G/{secret}",
        f"/TV/{secret}",
        f"//v/{secret}",
        f"/g//{game}",
    ]
    for path in paths:
        phone.get(path)
    phone.get("/no/such/page")
    assert view  # the links page answered
    text = served.logged()
    assert secret not in text and game not in text
    assert "/tournament/of/***" in text and "/G/***" in text
