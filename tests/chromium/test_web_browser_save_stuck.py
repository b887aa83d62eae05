"""Browser tier: a Save whose answer never comes (a connection stuck between two networks, a
frozen host) is given up after 20 s: the deal waits on the phone as "not saved yet" and is
sent again by itself; the first arriving late writes nothing more (its one-time key).

Playwright's clock holds the page's timers, so the 20 s pass at once; routing holds the first
Save's request unanswered.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import (
    SMALL_PHONE,
    _Thumb,
    check_given_up,
    clocked_form,
    enter_deal,
    held_requests,
    new_game,
    pumped,
    shot,
)
from ..harness import seats, until
from .test_web_browser_refusals import ANNA_SEVEN, THREE

pytestmark = pytest.mark.browser


def test_a_save_with_no_answer_waits_on_the_phone_and_lands_once(
    chromium: Any, real_server: Any
) -> None:
    context = chromium.new_context(viewport=SMALL_PHONE)
    try:
        page = context.new_page()
        token = new_game(page, real_server.url, THREE)
        held = held_requests(page, "**/deal/new*", first=True, method="POST")
        clocked_form(page, real_server.url, token)
        enter_deal(page, THREE, "contract", **ANNA_SEVEN)
        page.clock.run_for(1000)  # the preview's Check
        page.locator("#save-button").click()
        until(pumped(page, lambda: bool(held)), "the Save sent")
        page.clock.run_for(19_000)
        assert page.locator("#preview .pending").count() == 0  # still waiting for its answer
        page.clock.run_for(2_000)  # 20 s: given up
        page.wait_for_selector("#preview .pending")
        shot(page, "save-stuck-not-saved-yet", full=False)
        waiting = "JSON.parse(localStorage.getItem('scorekeeper.pending') || '[]').length"
        assert page.evaluate(waiting) == 1
        with page.expect_navigation(url=f"{real_server.url}/g/{token}"):
            page.clock.run_for(4_000)  # the queue sends it again: it lands
        assert page.evaluate(waiting) == 0
        with Store(real_server.db) as store:
            assert len(store.get_game(token).deals) == 1
        # The first Save arrives after all (its request as the phone sent it, the same
        # one-time key): it is answered "saved", and nothing is written again.
        first = held[0].request
        late = context.request.post(
            first.url,
            data=first.post_data,
            headers={
                k: v for k, v in first.headers.items() if k.lower() in ("content-type", "x-save")
            },
        )
        assert late.status == 200 and late.json()["saved"], late.text()
        with Store(real_server.db) as store:
            assert len(store.get_game(token).deals) == 1
    finally:
        context.close()


def test_a_check_with_no_answer_lets_the_scorer_save(chromium: Any, real_server: Any) -> None:
    """The preview's Check given up after 20 s the same way: the preview says it cannot be
    checked now, and Save is not held back by it (the deal then waits on the phone if it
    must)."""
    context = chromium.new_context(viewport=SMALL_PHONE)
    try:
        page = context.new_page()
        token = new_game(page, real_server.url, THREE)
        held = held_requests(page, "**/deal/check")
        clocked_form(page, real_server.url, token)
        thumb, seat = _Thumb(page), seats(THREE)
        thumb.choice("kind", "misere")
        thumb.choice("declarer", seat["Anna"])
        assert page.is_disabled("#save-button")
        check_given_up(page, held)
        assert page.is_enabled("#save-button")
    finally:
        context.close()
