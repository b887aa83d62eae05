"""Browser tier: Hussar's answer "whist with the talon" in 3 to 5 taps (issue 50, item 8).

A Hussar evening at 375 × 667 where the defenders whist with the talon, entered by taps as
the scorer does it: Next deal, only what differs from what the page shows, Save. Each tap is
counted and looked at before it is made (test_web_browser_bars.Eye: off the screen is a
scroll). The form starts each defender at the way the game's latest whist was given, so a
table that whists with the talon taps it once, not on every deal (6 taps a failed contract
before).
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import SMALL_PHONE, new_game, shot
from .test_web_browser_bars import Eye, _enter

pytestmark = pytest.mark.browser

TWO = ["Anna", "Boris"]
#: (the deal by seat as test_web_browser_bars reads it, the answer stored).
EVENING: list[dict[str, Any]] = [
    {"declarer": 0, "contract": "6S", "answers": {1: "whist-talon"}, "tricks": {0: 6}},
    {"declarer": 1, "contract": "7H", "answers": {0: "whist-talon"}, "tricks": {1: 6}},
    {"declarer": 0, "contract": "8D", "answers": {1: "whist-talon"}, "tricks": {0: 7}},
    {"declarer": 1, "contract": "6C", "answers": {0: "whist"}, "tricks": {1: 6}},
    {"declarer": 0, "contract": "7NT", "answers": {1: "whist-talon"}, "tricks": {0: 7}},
]


def test_a_whist_with_the_talon_takes_at_most_five_taps(
    chromium: Any, real_server: Any, store: Store
) -> None:
    context = chromium.new_context(viewport=SMALL_PHONE, has_touch=True)
    page = context.new_page()
    try:
        token = new_game(page, real_server.url, TWO, convention="hussar")
        taps = []
        for n, deal in enumerate(EVENING, 1):
            page.goto(f"{real_server.url}/g/{token}")
            eye = Eye(page, f"hussar-{n}")
            eye.tap("#next-deal")
            page.wait_for_selector("#deal-form")
            _enter(eye, TWO, "contract", deal)
            if n == 3:
                shot(page, "hussar-whist-talon-375x667", full=False)
            with page.expect_navigation(wait_until="domcontentloaded"):
                eye.tap("#save-button")
            taps.append(eye.taps)
            assert eye.missed == [], eye.missed
        stored = [d.data["answers"] for d in store.get_game(token).deals]
        expected = [{TWO[s]: a for s, a in d["answers"].items()} for d in EVENING]
        assert stored == expected
        # Next deal, declarer, contract, the answer (once), the declarer's tricks when short, Save.
        assert max(taps) <= 5, taps
        assert taps == [5, 5, 5, 5, 5], taps  # before: [5, 6, 6, 5, 5]
    finally:
        context.close()
