"""Browser tier: the deal form never moves under a finger. The scorer's thumb is already on the
next button when the Check of the tap before is answered; the answer makes the bar taller and
the page keeps the next question clear of it by scrolling. That scroll waits for the finger to
lift and its tap to land (app.js, whenLifted), so the tap chooses the button pressed — in both
families, on a small phone with large text. Before, the page moved some 58 px under the thumb:
6♠ pressed, 7♠ chosen (a touch's tap lands where the finger lifts); with a mouse, nothing.
A follower's page is not swapped for a newer one under a finger either.

The touch is Chromium's own (DevTools' Input.dispatchTouchEvent): pressed, held while the held
Checks are let through and answered, then lifted."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ..browser import WAIT_MS, held_requests, new_game, pumped, text_scale
from ..harness import until
from .test_web_browser_balkan import _new_balkan_game
from .test_web_browser_balkan_table import _declarer
from .test_web_browser_follow import first_deal, save

pytestmark = pytest.mark.browser

SIZES = [(360, 640, 1.5), (320, 568, 1.5)]


@pytest.fixture(params=SIZES, ids=[f"{w}x{h}-{s}x" for w, h, s in SIZES])
def page(chromium: Any, request: Any) -> Iterator[Any]:
    """A touch phone with large text."""
    width, height, scale = request.param
    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=True)
    text_scale(context, scale)
    try:
        yield context.new_page()
    finally:
        context.close()


def _finger_on(page: Any, selector: str) -> Callable[[], None]:
    """A finger put on the middle of what `selector` finds; returns what lifts it."""
    box = page.locator(selector).first.bounding_box()
    finger = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [finger]})
    return lambda: touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def _press_while_answered(page: Any, held: list[Any], button: str) -> None:
    """Put a finger on `button`, let the held Checks through and wait for the preview's
    answer to reach the page, then lift the finger. Under the finger, nothing changed: the
    page not scrolled, the bar no taller, the preview still waiting (the answer held back)."""
    pressed = page.evaluate(_LAYOUT)
    lift = _finger_on(page, button)
    for route in held:
        route.continue_()
    page.unroute("**/deal/check")
    page.wait_for_selector("html[data-under-finger]", state="attached", timeout=WAIT_MS)
    assert page.evaluate(_LAYOUT) == pressed
    assert page.get_attribute("#preview", "aria-busy") == "true"
    lift()


#: What a finger on the screen would feel move: the page's scroll and the bar's height.
_LAYOUT = "[scrollY, document.querySelector('#deal-bar').getBoundingClientRect().height]"


def _answered_clear(page: Any, answered: str) -> None:
    """Once the finger lifted, the held answer shows and the question after the one
    `answered` stands clear of the bar that answer made taller."""
    until(pumped(page, lambda: page.get_attribute("#preview", "aria-busy") is None), "shown")
    page.wait_for_selector("html:not([data-under-finger])", state="attached", timeout=WAIT_MS)
    question, bottom, bar = page.evaluate(_NEXT, answered)
    assert bottom <= bar + 0.5, f"{question} ends at {bottom}, the bar starts at {bar}"


#: The next question shown after a group: its name, its bottom and the bar's top.
_NEXT = """(answered) => {
  const after = document.querySelector(answered);
  const next = Array.from(document.querySelectorAll('#deal-form .taps')).find((el) =>
    el.getClientRects().length && !el.closest('[hidden]') && !after.contains(el)
    && (after.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
  return [next.id || next.className, next.getBoundingClientRect().bottom,
          document.querySelector('#deal-bar').getBoundingClientRect().top];
}"""


def _chosen(page: Any, group: str) -> str:
    """The value chosen in the group, or ""."""
    return str(
        page.evaluate(f"(document.querySelector('{group} input:checked') || {{}}).value || ''")
    )


def test_the_contract_pressed_as_the_preview_answers_is_the_one_chosen(
    page: Any, real_server: Any
) -> None:
    token = new_game(page, real_server.url, ["Anna", "Boris", "Vera", "Gleb"])
    page.goto(f"{real_server.url}/g/{token}")
    page.locator("#next-deal").click()
    page.wait_for_selector("#deal-form[data-draft]")
    held = held_requests(page, "**/deal/check")
    page.locator('#kind .tap[data-value="contract"]').click()
    page.locator('#declarer .tap[data-value="1"]').click()
    until(pumped(page, lambda: bool(held)), "the declarer's Check sent")
    bar = page.locator("#deal-bar").bounding_box()["height"]
    _press_while_answered(page, held, '#contract .tap[data-value="6S"]')
    until(pumped(page, lambda: _chosen(page, "#contract") != ""), "a contract chosen")
    assert _chosen(page, "#contract") == "6S"
    _answered_clear(page, "#contract")
    assert page.locator("#deal-bar").bounding_box()["height"] > bar  # why it would have moved


def test_the_tricks_pressed_as_the_balkan_preview_answers_are_the_ones_chosen(
    page: Any, real_server: Any
) -> None:
    token = _new_balkan_game(page, real_server.url)
    page.goto(f"{real_server.url}/g/{token}")
    page.locator("#next-deal").click()
    page.wait_for_selector("#deal-form[data-draft]")
    declarer = _declarer(page)
    held = held_requests(page, "**/deal/check")
    page.locator(f'#declarer .tap[data-value="{declarer}"]').click()
    page.locator('#contract .tap[data-value="sans"]').click()
    until(pumped(page, lambda: bool(held)), "the contract's Check sent")
    pad = f'.bk-pad[data-player="{declarer}"]'
    bar = page.locator("#deal-bar").bounding_box()["height"]
    _press_while_answered(page, held, f'{pad} .tap[data-value="6"]')
    until(pumped(page, lambda: _chosen(page, pad) != ""), "the declarer's tricks chosen")
    assert _chosen(page, pad) == "6"
    _answered_clear(page, pad)
    assert page.locator("#deal-bar").bounding_box()["height"] > bar


def test_a_followers_page_is_not_swapped_under_a_finger(page: Any, real_server: Any) -> None:
    """A deal saved on the scorer's phone while a follower's thumb is on the sheet: the newer
    page waits until the finger lifts, then shows."""
    scorer, token, view = first_deal(real_server.port)
    page.goto(f"{real_server.url}/v/{view}")
    shown = page.get_attribute("#follow", "data-version")
    page.evaluate("window.__main = document.querySelector('main')")
    lift = _finger_on(page, "main h1, main h2")
    save(scorer, token, "saved while a thumb was on the sheet")
    page.wait_for_selector("html[data-under-finger]", state="attached", timeout=WAIT_MS)
    assert page.evaluate("document.querySelector('main') === window.__main")
    assert page.get_attribute("#follow", "data-version") == shown
    lift()
    page.wait_for_function(
        "(v) => document.querySelector('#follow').getAttribute('data-version') !== v",
        arg=shown,
        timeout=WAIT_MS,
    )
    assert page.evaluate("document.querySelector('main') !== window.__main")
    assert "saved while a thumb was on the sheet" in page.inner_text("main")
