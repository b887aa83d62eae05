"""Browser tier: any entry by its number from the sheet (issue 50, item 7). On a 24-entry
game, deal 1 (and deal 17, and the last) is reached from the sheet in three taps, each on
something already on the screen (no scroll), and lands in the log on that entry with its
Edit in view, at 320 × 568, 375 × 667 (1.5× text) and 1024 × 768; a 12-entry game in two."""

from __future__ import annotations

from typing import Any

import pytest

from ..browser import shot, text_scale
from .test_web_browser_phone import stored_game

pytestmark = pytest.mark.browser

SIZES = [(320, 568, 1.0), (375, 667, 1.5), (1024, 768, 1.0)]
IN_VIEW = """(e) => { const r = e.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""

TOP = "(e) => Math.round(e.getBoundingClientRect().top)"


def _tap(page: Any, target: Any, where: str) -> None:
    """A tap on what is on the screen now: no scroll before it."""
    assert target.evaluate(IN_VIEW), f"{where}: off the screen"
    target.click()


def _jump(page: Any, position: int, deal_id: int, where: str) -> int:
    """From the sheet to the entry at `position` (0-based) in the log; the taps it took."""
    page.evaluate("window.scrollTo(0, 0)")
    summary = page.locator("details.jump > summary")
    summary.scroll_into_view_if_needed()  # the sheet is read first: where the button is
    top = summary.evaluate(TOP)
    _tap(page, summary, where)
    # Nothing above the button is drawn late: it stays where the thumb found it.
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert summary.evaluate(TOP) == top, f"{where}: the button moved under the tap"
    taps = 1
    tens = page.locator("details.jump-ten > summary")
    if tens.count():
        _tap(page, tens.nth(position // 10), where)
        taps += 1
    with page.expect_navigation():
        _tap(page, page.locator(f'details.jump a[href$="#d{deal_id}"]'), where)
    return taps + 1


@pytest.mark.parametrize(("width", "height", "scale"), SIZES, ids=[f"{w}x{h}" for w, h, _ in SIZES])
def test_any_entry_by_its_number_in_three_taps(
    chromium: Any, real_server: Any, width: int, height: int, scale: float
) -> None:
    context = chromium.new_context(viewport={"width": width, "height": height})
    text_scale(context, scale)
    page = context.new_page()
    try:
        game = stored_game(real_server, deals=24)
        ids = [d.id for d in game.deals]
        token = game.edit_token
        for position in (0, 16, len(ids) - 1):
            page.goto(f"{real_server.url}/g/{token}")
            assert _jump(page, position, ids[position], f"{width}x{height} #{position}") == 3
            assert page.url.endswith(f"/log#d{ids[position]}")
            edit = page.locator(f'#d{ids[position]} a[href$="/deal/{ids[position]}/edit"]')
            page.wait_for_function(IN_VIEW, arg=edit.element_handle())
        shot(page, f"jump-log-{width}x{height}", full=False)
        page.goto(f"{real_server.url}/g/{token}")
        page.locator("details.jump > summary").click()
        page.locator("details.jump-ten > summary").first.click()
        shot(page, f"jump-open-{width}x{height}", full=False)

        short = stored_game(real_server, deals=12)
        page.goto(f"{real_server.url}/g/{short.edit_token}")
        assert _jump(page, 2, short.deals[2].id, f"{width}x{height} short") == 2
        assert page.url.endswith(f"/log#d{short.deals[2].id}")
    finally:
        context.close()
