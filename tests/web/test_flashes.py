"""A message a write leaves for the next page is said in that page's language, not in the
language of the request that wrote it: the table may switch languages in between
(web/flashes.py keeps the message's id and parameters and translates when it is shown).
Through the Flask test client on an SQLite file."""

from __future__ import annotations

import html
import json
import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.problems import Label, Problem
from scorekeeper.web import flashes
from scorekeeper.wording import words_for

from ..harness import Web

PLAYERS = ["Anna", "Boris", "Vera"]


def _flashed(page: str) -> list[str]:
    found = re.search(r'<div class="flashes" role="status">(.*?)</div>', page, re.S)
    if found is None:
        return []
    texts = re.findall(r"<p>(.*?)</p>", found.group(1), re.S)
    return [html.unescape(" ".join(t.split())) for t in texts]


def test_a_message_flashed_in_russian_shows_in_english_after_the_switch(
    web: Web, client: FlaskClient
) -> None:
    token = web.new_game(PLAYERS)
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 2, "Boris": 4, "Vera": 4})
    undo = web.get(f"/g/{token}/undo?lang=ru")
    assert '<html lang="ru"' in undo.html
    done = web.submit(undo, undo.form(""))
    assert done.status == 302
    shown = _flashed(client.get(f"/g/{token}?lang=en").get_data(as_text=True))
    assert shown == ["Deal 1 undone. It can be restored from the history."], shown


def test_a_message_flashed_in_english_shows_in_ukrainian_and_in_russian_unswitched(
    web: Web, client: FlaskClient
) -> None:
    token = web.new_game(PLAYERS)
    assert web.get(f"/g/{token}/undo?lang=en", status=302)
    shown = _flashed(client.get(f"/g/{token}?lang=uk").get_data(as_text=True))
    assert shown == ["Скасовувати нічого."], shown
    assert web.get(f"/g/{token}/undo?lang=ru", status=302)
    assert _flashed(client.get(f"/g/{token}").get_data(as_text=True)) == ["Отменять нечего."]


def test_a_message_kept_as_text_by_an_older_server_shows_as_it_was(
    web: Web, client: FlaskClient
) -> None:
    token = web.new_game(PLAYERS)
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "Раздача 3 сохранена.")]
    assert _flashed(client.get(f"/g/{token}?lang=en").get_data(as_text=True)) == [
        "Раздача 3 сохранена."
    ]


def test_plural_and_translated_parameters_are_said_when_shown(app: Flask) -> None:
    unfinished = flashes.ngettext(
        "%(num)d table has not finished: tick the box to close the tour now.",
        "%(num)d tables have not finished: tick the box to close the tour now.",
        5,
    )
    evening = flashes.said(
        "The game %(name)s is now an evening of the company.", name=flashes.said("Game")
    )
    with app.test_request_context("/?lang=ru"):
        app.preprocess_request()
        assert flashes.shown(unfinished).startswith("5 столов не доиграли")
        assert "Game" not in flashes.shown(evening)
    with app.test_request_context("/?lang=en"):
        app.preprocess_request()
        assert flashes.shown(unfinished).startswith("5 tables have not finished")
        assert flashes.shown(evening) == "The game Game is now an evening of the company."


def test_a_problem_is_kept_as_its_template_and_said_in_the_showing_pages_language(
    app: Flask,
) -> None:
    problem = Problem(
        "{option}: must be an even number, not {value}",
        {"option": Label("Bule at the start"), "value": "3"},
        "options.bule",
        4,
    )
    kept = flashes.said_problem(problem)
    assert json.loads(json.dumps(kept)) == kept  # the session keeps it as it is
    with app.test_request_context("/?lang=ru"):
        app.preprocess_request()
        said = flashes.shown(kept)
    assert said == words_for("ru").problem(problem) and "Бул" in said, said
    with app.test_request_context("/?lang=en"):
        app.preprocess_request()
        assert flashes.shown(kept) == "deal 4: Bule at the start: must be an even number, not 3"
