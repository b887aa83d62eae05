"""Issue 22: a company form sent with something wrong (a player's name, a payment, a game to
attach) is answered 422 with the company page again: the message next to the field that is
wrong, what was typed kept, and nothing written. A write that goes through still redirects."""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

import pytest

from scorekeeper.store import Store
from scorekeeper.store.companies import Companies
from scorekeeper.web.storage import close_kept

from ..faults import assert_unavailable_page, locked
from ..flows import new_company
from ..harness import Page, Web


def next_to(page: Page, field_id: str) -> str:
    """The messages shown right after the field with this id (its errors list)."""
    found = re.search(rf'<ul class="errors" id="{field_id}-errors">(.*?)</ul>', page.html, re.S)
    assert found, f"no message next to #{field_id}"
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(1)))


def value_of(page: Page, field_id: str) -> str:
    found = re.search(rf'<input[^>]*\bid="{field_id}"[^>]*>', page.html)
    assert found, f"no #{field_id}"
    value = re.search(r'\bvalue="([^"]*)"', found.group(0))
    return html.unescape(value.group(1)) if value else ""


def stored(web: Web, token: str) -> bytes:
    """Everything the company holds (its file)."""
    return web.client.get(f"/c/{token}/company.json").data


def test_a_refused_player_name_is_422_next_to_its_field_and_adds_nothing(web: Web, store: Store):
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    before = stored(web, token)
    for typed, said in (("anna", "already a player"), ("An\u00adna", "cannot hold"), (" ", "")):
        page = web.get(f"/c/{token}")
        refused = web.submit(page, page.form("add-player").set(name=typed))
        assert refused.status == 422, refused.text()[:500]
        assert said in next_to(refused, "new-player")
        assert 'aria-invalid="true"' in refused.html
        if typed.strip():
            assert value_of(refused, "new-player") == typed, "what was typed is lost"
    assert stored(web, token) == before
    # The page it answers works as the first one: the name fixed, the player is added.
    added = web.submit(refused, refused.form("add-player").set(name="Dima"))
    assert added.status == 302
    assert [p.name for p in Companies(store).get(token).roster][-1] == "Dima"


def test_a_refused_rename_is_422_next_to_that_player_and_renames_nothing(web: Web, store: Store):
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    boris = next(p for p in Companies(store).get(token).roster if p.name == "Boris")
    before = stored(web, token)
    page = web.get(f"/c/{token}")
    refused = web.submit(page, page.form(f"/players/{boris.id}").set(name="ANNA"))
    assert refused.status == 422
    assert "already a player" in next_to(refused, f"rename-{boris.id}")
    assert value_of(refused, f"rename-{boris.id}") == "ANNA"
    assert refused.errors() == ["ANNA is already a player of the company."]
    assert stored(web, token) == before


def test_a_refused_payment_is_422_next_to_the_wrong_field_and_records_nothing(
    web: Web, store: Store
):
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    ids = {p.name: str(p.id) for p in Companies(store).get(token).roster}
    before = stored(web, token)
    good = {"payer": ids["Anna"], "payee": ids["Boris"], "amount": "12.50"}
    wrong = [
        ({"payee": ids["Anna"]}, "payee", "must be two different players"),
        ({"amount": "0"}, "amount", "above zero"),
        ({"amount": "1٢"}, "amount", "above zero"),
        ({"paid_on": "2026-11-2٩"}, "paid_on", "digits 0-9"),
        ({"game": "99"}, "payment", "names no evening of the company"),
        ({"game": "٩"}, "payment", "names no evening of the company"),
    ]
    for change, field, said in wrong:
        page = web.get(f"/c/{token}")
        form = page.form("payment-form").set(**{**good, **change})
        refused = web.submit(page, form)
        assert refused.status == 422, (change, refused.status)
        assert said in next_to(refused, field), change
        assert '<details class="house" open>' in refused.html, "the refused form is folded"
        if "amount" in change:
            assert value_of(refused, "amount") == change["amount"]
    assert stored(web, token) == before
    # Corrected on the page that refused it, the payment is recorded (and redirects).
    page = web.get(f"/c/{token}")
    refused = web.submit(page, page.form("payment-form").set(**{**good, "amount": "0"}))
    done = web.submit(refused, refused.form("payment-form").set(amount="12.50"))
    assert done.status == 302 and done.response.headers["Location"].endswith("#balance")
    assert [str(p.amount) for p in Companies(store).get(token).payments] == ["12.50"]


def test_a_refused_attach_is_422_next_to_the_link_and_attaches_nothing(web: Web, store: Store):
    token = new_company(web, roster=("Anna", "Boris", "Vera"), opt_currency="₽")
    game = web.new_game(["Anna", "Boris", "Vera"], currency="₽")
    view = store.get_game(game).view_token
    other_money = web.new_game(["Anna", "Boris", "Vera"], currency="грн")
    before = stored(web, token)
    for link, said in (
        ("http://table.local/g/nothing-here-at-all", "No game has this link"),
        (f"http://table.local/v/{view}", "read-only link"),
        (other_money, "in грн"),
    ):
        page = web.get(f"/c/{token}")
        refused = web.submit(page, page.form("/attach").set(link=link))
        assert refused.status == 422, (link, refused.status)
        assert said in next_to(refused, "link"), link
        assert value_of(refused, "link") == link
    assert stored(web, token) == before
    # A game of another company is refused the same way.
    other = new_company(web, roster=("Anna", "Boris", "Vera"), opt_currency="₽")
    page = web.get(f"/c/{other}")
    assert web.submit(page, page.form("/attach").set(link=game)).status == 302
    page = web.get(f"/c/{token}")
    refused = web.submit(page, page.form("/attach").set(link=game))
    assert refused.status == 422
    assert "another company" in next_to(refused, "link")
    assert stored(web, token) == before


def test_an_attach_while_the_database_is_busy_says_busy_not_another_company(
    web: Web, store: Store, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only "the game is another company's" is answered so: a database another program holds
    locked is the busy page every write gets (it was 422 "another company" after the wait)."""
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    game = web.new_game(["Anna", "Boris", "Vera"])
    before = stored(web, token)
    page = web.get(f"/c/{token}")
    form = page.form("/attach").set(link=game)
    monkeypatch.setattr(  # wait 0.2 s for the lock, not a phone's 5 s
        "scorekeeper.web.storage.Store", functools.partial(Store, busy_timeout_ms=200)
    )
    close_kept()
    with locked(db_path):
        busy = web.submit(page, form)
    assert_unavailable_page(busy, "busy")
    assert "another company" not in busy.text()
    assert stored(web, token) == before
    again = web.get(f"/c/{token}")
    assert web.submit(again, again.form("/attach").set(link=game)).status == 302
