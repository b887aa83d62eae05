"""Browser tier: "What if…" at 375 px — from the settlement, one tap on a preset shows the
same deals by its rules beside the real result, with nothing sticking out and nothing written
(issue 46 item 5). The screenshot is tests/artifacts/whatif-375.png."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import enter_deal, new_game, no_overflow, save_deal, shot
from ..harness import SEVEN_DOWN_TWO, DealWords

pytestmark = pytest.mark.browser

THREE = ["Anna", "Boris", "Vera"]
ALLPASS: DealWords = {"tricks": {"Anna": 2, "Boris": 4, "Vera": 4}}


def test_what_if_by_taps_at_375(phone: tuple[Any, str, list[str]], store: Store) -> None:
    page, server, problems = phone
    token = new_game(page, server, THREE, convention="sochi")
    for kind, deal in (("contract", SEVEN_DOWN_TWO), ("allpass", ALLPASS)):
        page.goto(f"{server}/g/{token}")
        page.locator("#next-deal").click()
        page.wait_for_url("**/deal/new?k=*")
        enter_deal(page, THREE, kind, **deal)
        save_deal(page)
    version = store.get_game(token).version
    page.goto(f"{server}/g/{token}/settlement")
    page.locator(f"a[href$='/g/{token}/what-if']").click()
    page.locator("a[href$='convention=rostov']").click()
    page.wait_for_selector("table.whatif-table")
    rows = page.locator("table.whatif-table tbody tr")
    assert rows.count() == 3
    assert page.locator("a[aria-current=page]").get_attribute("href", timeout=50_000)
    no_overflow(page)
    table = page.locator("table.whatif-table").bounding_box()
    assert table is not None and table["x"] + table["width"] <= 375
    shot(page, "whatif-375")
    assert store.get_game(token).version == version  # written nowhere
    assert not problems, problems
