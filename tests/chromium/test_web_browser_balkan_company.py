"""Browser tier at 375 × 667: a company of Balkan evenings made by its form (the Balkan preset
and options shown once Balkan is tapped, the Russian ones hidden), two finished partije
attached by their links, its standings and who owes whom drawn without overflow; and the
finished partija's card (how it ended, who pays whom, undo, rematch). Screenshots in
tests/artifacts/."""

from __future__ import annotations

import json
from typing import Any

from scorekeeper import gamefile_balkan, games
from scorekeeper.store import Store

from ..balkan.helpers import petak_file
from ..browser import no_overflow, shot


def _finished_partija(store: Store, deals: list[dict[str, Any]]) -> str:
    data = petak_file() | {"deals": deals}
    record = games.create_from_game(store, gamefile_balkan.loads_any(json.dumps(data)))
    return record.edit_token


def _new_company(page: Any, server: str) -> None:
    page.goto(f"{server}/company/new")
    page.fill("#name", "Petak")
    page.fill("#roster", "Ana\nBoža\nCeca")
    assert page.is_visible("#convention") and not page.is_visible("#balkan-rules")
    page.locator('#family .tap[data-value="balkan"]').click()
    assert page.is_visible("#balkan-rules") and not page.is_visible("#convention")
    page.fill("#bk_stake", "0.1")
    no_overflow(page)
    shot(page, "balkan-company-new-375x667")
    page.locator("#new-company button[type=submit]").click()
    page.wait_for_url(f"{server}/c/**")


def test_a_balkan_company_and_its_finished_partija_at_375(phone: Any, store: Store) -> None:
    page, server, problems = phone
    petak = petak_file()["deals"]
    links = [_finished_partija(store, petak), _finished_partija(store, petak[:3] + petak[5:])]
    _new_company(page, server)
    for link in links:
        page.fill("#link", f"{server}/g/{link}")
        page.locator("#attach button[type=submit]").click()
        page.wait_for_selector(".flashes, #standings")
    page.wait_for_selector("#standings table.standings")
    said = page.inner_text("#standings")
    assert "Result" in said and "Ana" in said
    no_overflow(page)
    shot(page, "balkan-company-375x667")
    page.goto(f"{server}/g/{links[0]}")
    page.wait_for_selector("#finished")
    card = page.inner_text("#finished")
    assert "The partija is over" in card and "Ceca → Ana" in card
    assert page.is_visible("#undo-end") and page.is_visible("#rematch")
    no_overflow(page)
    shot(page, "balkan-finished-375x667")
    assert not problems, problems
