"""Browser tier: focus is never dropped when a part of a follower's page is drawn again
(issue 50, item 4). A follower answers by keyboard while the table's answers (swapped in
alone) and new deals (the whole page swapped in) arrive; after each swap the keyboard is on
the control it was on (a deal's ✓ has no id: it is found by its deal and its verdict), or on
the line it was reading, never on the page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ..browser import SMALL_PHONE, WAIT_MS
from ..served import Phone, Server
from .test_web_browser_follow import answer, first_deal, save

pytestmark = pytest.mark.browser

AT = """() => { const a = document.activeElement; const li = a.closest('li[data-deal]');
  return [a.tagName, a.getAttribute('data-verdict') || a.getAttribute('role') || '',
          li ? li.getAttribute('data-deal') : '']; }"""


def _deals(scorer: Phone, view: str) -> list[str]:
    return re.findall(r'data-deal="(\d+)"', scorer.get(f"/v/{view}").html)


def _swapped(page: Any, attribute: str, before: str | None) -> str:
    """Wait until #follow's attribute moved on from `before` (a swap happened)."""
    page.wait_for_function(
        "([a, v]) => document.getElementById('follow').getAttribute(a) !== v",
        arg=[attribute, before],
        timeout=WAIT_MS,
    )
    return str(page.get_attribute("#follow", attribute))


def test_focus_stays_on_its_control_after_each_swap(
    deploy: Server,
    chromium: Any,
) -> None:
    scorer, token, view = first_deal(deploy.port, ["Anna", "Boris", "Vera", "Gleb"])
    context = chromium.new_context(viewport=SMALL_PHONE)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        page.goto(f"http://127.0.0.1:{deploy.port}/v/{view}")
        page.wait_for_selector("#confirm [data-iam]", state="visible")
        page.focus('#confirm [data-iam="Boris"]')
        page.keyboard.press("Enter")
        first = _deals(scorer, view)[-1]
        assert page.evaluate(AT) == ["BUTTON", "right", first]

        # Another phone's answer: the answers' parts alone are drawn again.
        seen = page.get_attribute("#follow", "data-seen")
        answer(deploy.port, view, "Anna")
        _swapped(page, "data-seen", seen)
        assert page.evaluate(AT) == ["BUTTON", "right", first], "after the answers' swap"

        # A new deal: the whole page is drawn again.
        version = page.get_attribute("#follow", "data-version")
        save(scorer, token, "the second deal")
        _swapped(page, "data-version", version)
        page.wait_for_selector("#confirm li[data-deal]:not([hidden]) >> nth=1")
        assert page.evaluate(AT) == ["BUTTON", "right", first], "after the whole swap"

        # ✓ by keyboard: on to the next deal's ✓; then its answers' swap keeps it there.
        page.keyboard.press("Enter")
        second = _deals(scorer, view)[-1]
        page.wait_for_function(  # once the answer is sent (a request or two)
            "d => (document.activeElement.closest('li[data-deal]') || {}).dataset?.deal === d",
            arg=second,
        )
        assert page.evaluate(AT) == ["BUTTON", "right", second]
        seen = page.get_attribute("#follow", "data-seen")
        answer(deploy.port, view, "Vera")
        _swapped(page, "data-seen", seen)
        assert page.evaluate(AT) == ["BUTTON", "right", second], "after the answers' swap"

        # The last ✓: focus on the line that says what happened, kept after the next swap.
        page.keyboard.press("Enter")
        page.wait_for_selector("#confirm .confirm-status:not(:empty)")
        assert page.evaluate(AT) == ["P", "status", ""]
        seen = page.get_attribute("#follow", "data-seen")
        answer(deploy.port, view, "Gleb")
        _swapped(page, "data-seen", seen)
        assert page.evaluate(AT) == ["P", "status", ""], "after the answers' swap"
        assert problems == []
    finally:
        context.close()
