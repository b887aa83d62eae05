"""Browser tier: a follower who joins after deal 5 confirms the deals it missed (issue 50,
item 5): every deal on the card that this player has not answered is asked, oldest first,
each with its own ✓ and ✗; a deal another player confirmed is still this player's to answer."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import SMALL_PHONE, new_game, shot

pytestmark = pytest.mark.browser

THREE = ["Anna", "Boris", "Vera"]


def test_a_follower_joining_after_deal_5_is_asked_every_deal_oldest_first(
    phone: tuple[Any, str, list[str]], store: Store, chromium: Any
) -> None:
    scorer, server, problems = phone
    token = new_game(scorer, server, THREE)
    for _ in range(5):
        game = store.get_game(token)
        tricks = {"Anna": 4, "Boris": 3, "Vera": 3}
        store.add_deal(token, {"type": "allpass", "tricks": tricks}, base_version=game.version)
    game = store.get_game(token)
    ids = [str(d.id) for d in game.deals]
    context = chromium.new_context(viewport=SMALL_PHONE)
    page = context.new_page()
    try:
        page.goto(f"{server}/v/{game.view_token}")
        page.wait_for_selector("#confirm [data-iam]", state="visible")
        page.locator('#confirm [data-iam="Boris"]').click()
        asked = page.locator("#confirm li[data-deal]:not([hidden])")
        asked.first.wait_for()
        assert [asked.nth(i).get_attribute("data-deal") for i in range(asked.count())] == ids
        for i in range(asked.count()):
            deal = asked.nth(i)
            assert deal.locator('[data-verdict="right"]').is_visible()
            assert deal.locator('[data-verdict="wrong"]:not([data-send])').is_visible()
        shot(page, "late-follower", full=False)
        # ✓ on the oldest: it goes, focus on the next one's ✓.
        page.locator(f'#confirm li[data-deal="{ids[0]}"] [data-verdict="right"]').click()
        page.wait_for_selector(f'#confirm li[data-deal="{ids[0]}"]', state="hidden")
        assert (
            page.evaluate(
                "document.activeElement.closest('li[data-deal]').getAttribute('data-deal')"
            )
            == ids[1]
        )
        assert asked.count() == 4
    finally:
        context.close()
    assert problems == []
