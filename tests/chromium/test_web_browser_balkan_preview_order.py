"""Browser tier: the Balkan deal form's live preview never shows an answer about the form as it
was before the last tap (balkan.js: a Check goes out 150 ms after a tap). A Check on its way
when the scorer taps again is stale at once: its answer, coming back before the newer Check
goes out, is not shown; its failure, coming after the newer answer, does not cover that
answer with "no connection".

Playwright's clock holds the page's timers and routing holds the first Check, so the order is
forced as the test says.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ..browser import SMALL_PHONE, check_given_up, clocked_form, held_requests, pumped
from ..harness import until
from .test_web_browser_balkan import _new_balkan_game
from .test_web_browser_balkan_table import _declarer

pytestmark = pytest.mark.browser

#: Every text the preview shows, in order, with the marks the test writes between them.
_SHOWN = """window.__shown = [];
document.addEventListener("DOMContentLoaded", () => {
  const preview = document.getElementById("preview");
  if (!preview) return;
  new MutationObserver(() => window.__shown.push(preview.innerText)).observe(
    preview, { childList: true, subtree: true, characterData: true });
});"""


@pytest.fixture
def form(chromium: Any, real_server: Any) -> Iterator[tuple[Any, list[Any], str]]:
    """A Balkan partija's deal form with a contract tapped and its Check held: the page, the
    held Checks (later ones go through) and the declarer."""
    context = chromium.new_context(viewport=SMALL_PHONE)
    try:
        page = context.new_page()
        token = _new_balkan_game(page, real_server.url)
        held = held_requests(page, "**/deal/check", first=True)
        page.add_init_script(_SHOWN)
        # Paused: on a loaded machine the two taps are more than 150 ms apart, and the
        # declarer's own Check would go out (and be the one held) before the contract's.
        clocked_form(page, real_server.url, token, paused=True)
        declarer = _declarer(page)
        page.locator(f'#declarer .tap[data-value="{declarer}"]').click()
        page.locator('#contract .tap[data-value="sans"]').click()
        page.clock.run_for(500)  # the first Check goes out: held
        until(pumped(page, lambda: bool(held)), "the first Check sent")
        page.evaluate("window.__shown.push('-- the second tap --')")
        page.locator(f'.bk-pad[data-player="{declarer}"] .tap[data-value="6"]').click()
        yield page, held, declarer
    finally:
        context.close()


def _shown_after(page: Any, mark: str) -> None:
    """Wait for the preview to show something after the mark."""
    page.wait_for_function("(m) => window.__shown.length > window.__shown.indexOf(m) + 1", arg=mark)


def _after(page: Any, mark: str) -> list[str]:
    shown: list[str] = page.evaluate("window.__shown")
    return shown[shown.index(mark) + 1 :]


def test_an_answer_about_the_form_before_the_last_tap_is_not_shown(form: Any) -> None:
    page, held, declarer = form
    with page.expect_event("requestfinished", lambda r: "/deal/check" in r.url):
        held[0].continue_()  # answered while the newer Check waits its 150 ms
    page.evaluate("window.__shown.push('-- the first answer read --')")
    stale = _after(page, "-- the second tap --")
    assert stale[: stale.index("-- the first answer read --")] == []
    assert page.get_attribute("#preview", "aria-busy") == "true"  # the newer one is awaited
    page.clock.run_for(500)  # the newer Check goes out and is answered
    _shown_after(page, "-- the first answer read --")
    assert page.get_attribute("#preview", "aria-busy") is None
    assert page.get_attribute("#preview", "data-offline") not in page.inner_text("#preview")


def test_a_stale_check_that_fails_does_not_cover_the_newer_answer(form: Any) -> None:
    page, held, _ = form
    page.clock.run_for(500)  # the newer Check goes out and is answered
    _shown_after(page, "-- the second tap --")
    shown = page.inner_text("#preview")
    offline = page.get_attribute("#preview", "data-offline")
    assert offline
    with page.expect_event("requestfailed", lambda r: "/deal/check" in r.url):
        held[0].abort()  # the stale one fails after: no connection, as it were
    page.evaluate("window.__shown.push('-- the first failed --')")
    assert page.inner_text("#preview") == shown
    assert offline not in page.inner_text("#preview")


def test_a_check_with_no_answer_is_given_up(chromium: Any, real_server: Any) -> None:
    """A Check whose answer never comes is given up after 20 s: the preview says it cannot
    be checked now instead of staying busy."""
    context = chromium.new_context(viewport=SMALL_PHONE)
    try:
        page = context.new_page()
        token = _new_balkan_game(page, real_server.url)
        held = held_requests(page, "**/deal/check")
        clocked_form(page, real_server.url, token)
        page.locator(f'#declarer .tap[data-value="{_declarer(page)}"]').click()
        check_given_up(page, held)
    finally:
        context.close()
