"""Browser tier: a Save that no resend can fix reaches the phone as a refusal, leaves the
queue and keeps what was typed (issue 30 item 2, issue 31 item 3).

Three ways a real evening gets there, each as the table does it: the game ended on another
phone while this one had a deal form open; the tour closed while this phone's deal waited
offline; the game's edit link replaced under an open form. Each time: one request, no
resend loop, nothing stored, the reason said on the phone with the deal as entered.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper.store import Store
from scorekeeper.tournament import service

from ..browser import SMALL_PHONE, WAIT_MS, enter_deal, new_game, shot
from ..harness import DealWords

pytestmark = pytest.mark.browser

THREE = ["Anna", "Boris", "Vera"]
ANNA_SEVEN: DealWords = {
    "declarer": "Anna",
    "contract": "7S",
    "answers": {"Boris": "whist", "Vera": "pass"},
    "tricks": {"Anna": 7, "Boris": 3},
}


def _open_form(page: Any, server: str, token: str) -> None:
    page.goto(f"{server}/g/{token}")
    page.locator("#next-deal").click()
    page.wait_for_url("**/deal/new?k=*")


def _count_saves(page: Any) -> list[int]:
    """Each Save request the page sends, by its answer's status."""
    statuses: list[int] = []

    def seen(response: Any) -> None:
        if response.request.method == "POST" and "/check" not in response.url:
            statuses.append(response.status)

    page.on("response", seen)
    return statuses


def _refused_for_good(page: Any, statuses: list[int], reason: str) -> str:
    """The card says why, the deal is listed, the queue is empty, and no resend follows."""
    page.wait_for_selector(f'.refusal[data-reason="{reason}"]')
    page.wait_for_timeout(4000)  # longer than the queue's 3 s between resends
    assert len(statuses) == 1, statuses
    assert page.evaluate("JSON.parse(localStorage.getItem('scorekeeper.pending') || '[]')") == []
    card = page.inner_text(".refusal")
    # The deal in the page's words: the declarer, the contract, an answer.
    assert "Anna" in card and "7♠" in card and "whist" in card, card
    # What was typed is still in the form, and the form does not pretend to be sending.
    assert page.is_checked('#contract input[value="7S"]')
    assert page.is_checked('#declarer input[value="0"]')
    assert "Not saved yet" not in page.inner_text("#preview")
    assert page.is_disabled("#save-button")
    return str(card)


def test_a_game_ended_on_another_phone_refuses_the_save_once(
    phone: tuple[Any, str, list[str]], store: Store, chromium: Any
) -> None:
    page, server, problems = phone
    token = new_game(page, server, THREE)
    _open_form(page, server, token)
    enter_deal(page, THREE, "contract", **ANNA_SEVEN)
    # Phone A ends the game meanwhile.
    other = chromium.new_context(viewport=SMALL_PHONE)
    try:
        a = other.new_page()
        a.goto(f"{server}/g/{token}")
        a.locator(".finish-now button[type=submit]").click()
        a.locator("#finish-confirm button[type=submit]").click()
        a.wait_for_url(f"{server}/g/{token}")
    finally:
        other.close()
    assert store.get_game(token).finished
    statuses = _count_saves(page)
    page.locator("#save-button").click()
    card = _refused_for_good(page, statuses, "game_over")
    assert statuses == [409]
    assert "The game is finished" in card
    shot(page, "refusal-game-over", full=False)
    assert store.get_game(token).deals == []
    # The card stays on the phone's next page until it is read, then goes.
    page.goto(f"{server}/g/{token}")
    page.wait_for_selector('.refusal[data-reason="game_over"]')
    page.locator(".refusal button").click()
    assert page.locator(".refusal").count() == 0
    page.reload()
    assert page.locator(".refusal").count() == 0
    assert problems == [] or all("409" in p for p in problems), problems


def test_a_deal_waiting_offline_when_the_tour_closes_is_said_not_recorded(
    phone: tuple[Any, str, list[str]], store: Store
) -> None:
    page, server, problems = phone
    record = service.create(
        store,
        name="Club night",
        convention="sochi",
        options={"pool_target": 20, "round_limit": 3},
        table_size=3,
        bands=service.BAND_PRESETS["cup"],
        roster=THREE,
    )
    record = service.seat(
        store, record.edit_token, record.version, table_name=lambda t, n: f"{t}.{n}",
        rng=random.Random(3),
    )  # fmt: skip
    table = record.tour(1)[0]
    token = table.game.edit_token
    players = list(store.get_game(token).players)
    _open_form(page, server, token)
    deal: DealWords = {
        "declarer": players[0],
        "contract": "7S",
        "answers": {players[1]: "whist", players[2]: "pass"},
        "tricks": {players[0]: 7, players[1]: 3},
    }
    enter_deal(page, players, "contract", **deal)
    page.context.set_offline(True)
    page.locator("#save-button").click()
    page.wait_for_selector("#preview .pending")
    assert page.evaluate("JSON.parse(localStorage.getItem('scorekeeper.pending')).length") == 1
    # The director closes the tour early while the deal waits on the phone.
    record = service.close_tour(store, record.edit_token, record.version, early=True)
    statuses = _count_saves(page)
    page.context.set_offline(False)
    page.wait_for_selector('.refusal[data-reason="tour_closed"]', timeout=WAIT_MS)
    page.wait_for_timeout(4000)
    assert statuses == [403], statuses
    assert page.evaluate("JSON.parse(localStorage.getItem('scorekeeper.pending') || '[]')") == []
    card = page.inner_text(".refusal")
    assert "Tour 1 is closed" in card, card
    assert players[0] in card and "7♠" in card and "whist" in card, card
    assert "Not saved yet" not in page.inner_text("#preview")
    assert page.is_checked('#contract input[value="7S"]')
    shot(page, "refusal-tour-closed", full=False)
    assert store.get_game(token).deals == []
    assert problems == [] or all("net::" in p or "403" in p for p in problems), problems


def test_a_link_replaced_under_an_open_form_refuses_the_save(
    phone: tuple[Any, str, list[str]], store: Store
) -> None:
    page, server, problems = phone
    token = new_game(page, server, THREE)
    _open_form(page, server, token)
    enter_deal(page, THREE, "contract", **ANNA_SEVEN)
    new = store.replace_token(token, "edit").edit_token
    statuses = _count_saves(page)
    page.locator("#save-button").click()
    card = _refused_for_good(page, statuses, "link_gone")
    assert statuses == [404]
    assert "replaced" in card
    assert store.get_game(new).deals == []
    assert problems == [] or all("404" in p for p in problems), problems
