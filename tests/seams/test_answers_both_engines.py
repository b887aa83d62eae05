"""A follower's answer where it meets the other writes, on each engine (PostgreSQL: three
round trips, its checks run with the game's lock): the same answers on both: saved, sent
again (answered as the first time), a seat another phone holds, a revision the scorer
changed meanwhile, a deal undone meanwhile, a game deleted, a table of a closed tour."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.web import create_app

from ..flows import new_tournament
from ..harness import Web
from ..store.test_store import SEVEN_SPADES, SIX_NT, new_game
from ..web.test_web_confirm import _answer, _asked, _follower


@pytest.fixture
def engine_app(store_location: str, catalogues: None) -> Iterator[Flask]:
    yield create_app({"TESTING": True, "DATABASE": store_location, "SECRET_KEY": "s"})


def _said(reply: Any) -> tuple[int, str]:
    body = reply.get_json(silent=True) or {}
    return reply.status_code, str(body.get("reason") or ("ok" if body.get("ok") else ""))


def test_a_followers_answers_meet_the_scorers_writes_alike_on_each_engine(
    engine_app: Flask, store_location: str
) -> None:
    with Store(store_location, create=False) as store:
        game = new_game(store, [SEVEN_SPADES, SIX_NT])
    view, edit = game.view_token, game.edit_token
    phone, ticket, page = _follower(engine_app, view)
    (first, rev1), (second, rev2) = _asked(page)
    said = [_said(_answer(phone, view, ticket, second, rev2, player="Boris"))]
    said.append(_said(_answer(phone, view, ticket, second, rev2, player="Boris")))  # again
    other, other_ticket, _ = _follower(engine_app, view)
    said.append(_said(_answer(other, view, other_ticket, second, rev2, player="Boris")))
    with Store(store_location, create=False) as store:
        store.update_deal(
            edit,
            first,
            SEVEN_SPADES | {"tricks": {"Anna": 7, "Boris": 2, "Vera": 1}},
            base_version=store.get_game(edit).version,
        )
        fresh = phone.get(f"/v/{view}/confirm/key").get_json()
        said.append(_said(_answer(phone, view, fresh, first, rev1, player="Boris")))
        store.delete_deal(edit, second, base_version=store.get_game(edit).version)
        fresh = phone.get(f"/v/{view}/confirm/key").get_json()
        said.append(_said(_answer(phone, view, fresh, second, rev2, player="Boris")))
        store.delete_game(edit)
    said.append(_said(_answer(phone, view, fresh, first, rev1 + 1, player="Boris")))
    assert said == [
        (200, "ok"),
        (200, "ok"),
        (403, "claimed"),
        (409, "changed"),
        (409, "deal"),
        (404, "game"),
    ]


def test_an_answer_at_a_table_of_a_closed_tour_is_answered_alike_on_each_engine(
    engine_app: Flask, store_location: str
) -> None:
    """The close finishes the table's game with its deals as they are: an answer on a deal
    of it is still taken (it changes no score), on either engine."""
    web = Web(engine_app.test_client())
    cup = new_tournament(web)
    page = web.get(f"/t/{cup}")
    assert web.submit(page, page.form("/seat")).status == 302
    with Store(store_location, create=False) as store:
        table = Tournaments(store).get(cup).tour(1)[0].game
        store.add_deal(table.edit_token, _passed(table.players), base_version=table.version)
    page = web.get(f"/t/{cup}")
    assert web.submit(page, page.form("/close").set(early="y")).status == 302
    phone, ticket, shown = _follower(engine_app, table.view_token)
    (deal, revision), *_ = _asked(shown)
    said = _said(_answer(phone, table.view_token, ticket, deal, revision, player=table.players[1]))
    assert said == (200, "ok")


def _passed(players: list[str]) -> dict[str, Any]:
    """A 6♠ by the first player that both others pass (10 tricks to him)."""
    first, second, third = players[:3]
    return {
        "type": "contract",
        "declarer": first,
        "contract": "6S",
        "answers": {second: "pass", third: "pass"},
    }
