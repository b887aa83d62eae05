"""Browser tier: the paper's totals, settled (issue 50, item 9). From the home page a table
types three players' pool, hill and whists on the others by the phone's number pad and gets
the amnesty, the settlement, the money and who pays whom, at 375 × 667 and 320 × 568 (1.5×
text); nothing is written. The same totals through games.paper give the same payments."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.games import paper

from ..browser import shot, text_scale

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Boris", "Vera"]
TOTALS = {"pool_0": "10", "hill_0": "4", "pool_1": "6", "hill_1": "22", "pool_2": "10",
          "hill_2": "8", "whists_0_1": "64", "whists_0_2": "12", "whists_1_0": "8",
          "whists_1_2": "20", "whists_2_0": "16", "whists_2_1": "40"}  # fmt: skip
SIZES = [(375, 667, 1.0), (320, 568, 1.5)]


@pytest.mark.parametrize(("width", "height", "scale"), SIZES, ids=["375x667", "320x568-1.5x"])
def test_the_papers_totals_are_settled_from_the_home_page(
    chromium: Any, real_server: Any, width: int, height: int, scale: float
) -> None:
    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=True)
    text_scale(context, scale)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        page.goto(real_server.url + "/")
        taps = keys = 0
        with page.expect_navigation():
            page.locator("#paper-totals").click()
        taps += 1
        for i, name in enumerate(NAMES):
            page.locator(f"#player_{i}").click()
            page.keyboard.type(name)
            taps, keys = taps + 1, keys + len(name)
        assert not page.is_visible("#pool_3"), "no amounts for an empty seat"
        assert page.inner_text('[data-totals="0"] legend') == "Anna"
        assert page.is_visible('label[for="whists_0_1"] >> text=Boris')
        for field, value in TOTALS.items():
            box = page.locator(f"#{field}")
            assert box.get_attribute("inputmode") == "decimal"  # the number pad
            box.click()
            page.keyboard.type(value)
            taps, keys = taps + 1, keys + len(value)
        with page.expect_navigation():
            page.locator("#paper-settle").click()
        taps += 1
        wide = page.evaluate(
            "Array.from(document.querySelectorAll('main *'))"
            ".filter(e => !e.closest('.scroll') && e.getBoundingClientRect().right > innerWidth + 0.5)"
            ".map(e => e.tagName + '.' + e.className)"
        )
        assert wide == [], (
            "the settlement fits the screen's width (a wide table scrolls in its box)"
        )
        shot(page, f"paper-settled-{width}x{height}", full=False)
        shot(page, f"paper-settled-{width}x{height}-whole")
        said = page.locator("#settled .payments li").all_inner_texts()
        expected = paper.settled(
            paper.totals_game(
                name="x", reason="x", convention="sochi", overrides={}, seats=NAMES, totals=TOTALS
            )
        )
        assert len(said) == len(expected.payments) >= 1
        for line, pay in zip(said, expected.payments, strict=True):
            assert pay.payer in line and pay.payee in line and f"{pay.amount:.2f}" in line, line
        assert "Amnesty: 4" in page.inner_text("#settled")
        assert page.is_visible("#paper-save")
        print(f"paper totals at {width}x{height}: {taps} taps, {keys} keys")
        assert taps <= 20
    finally:
        context.close()
    assert problems == []
