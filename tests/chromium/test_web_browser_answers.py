"""A follower's page in Chromium, on the deploy's server (the long poll): another follower's
answer is swapped in alone (the parts that show the answers, riding with the held request's
answer: nothing fetched after it), not the whole page; a deal saved after it is the whole
page again, riding the same way."""

from __future__ import annotations

from typing import Any

import pytest

from ..browser import SMALL_PHONE, WAIT_MS, watch_console
from ..served import Server
from .test_web_browser_follow import answer, first_deal, save

pytestmark = pytest.mark.browser


def test_another_followers_answer_is_swapped_in_without_the_whole_page(
    deploy: Server,
    chromium: Any,
) -> None:
    scorer, token, view = first_deal(deploy.port)
    context = chromium.new_context(viewport=SMALL_PHONE)
    page = context.new_page()
    problems: list[str] = []
    watch_console(page, problems)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    try:
        page.goto(f"http://127.0.0.1:{deploy.port}/v/{view}")
        page.wait_for_function("() => performance.getEntriesByType('resource').length > 0")
        page.evaluate("() => { window.shownMain = document.querySelector('main'); }")
        before = page.get_attribute("#follow", "data-seen")
        opened = len(asked)
        answer(deploy.port, view, "Anna")
        page.wait_for_selector("#confirmations", timeout=WAIT_MS)
        assert "Anna" in page.inner_text("#confirmations")
        assert page.evaluate("() => window.shownMain === document.querySelector('main')")
        assert page.locator(".confirmations-none").count() == 0
        after = page.get_attribute("#follow", "data-seen")
        assert after != before and after is not None
        assert after.split(".")[0] == (before or "").split(".")[0]
        later = asked[opened:]
        assert [u for u in later if "/wait?" in u and "answers=" in u], later
        assert not [u for u in later if u.endswith(f"/v/{view}/answers")], later  # it rode
        assert not [u for u in later if u.endswith(f"/v/{view}")], later  # no whole page
        # The follower's ask card is there again, drawn by confirm.js, with the answer in it.
        assert page.locator("#confirm").count() == 1
        answered = page.get_attribute("#confirm li[data-deal]", "data-answered")
        assert answered is not None and "Anna" in answered

        # A deal saved: the whole page, with the new version.
        save(scorer, token, "the second deal")
        page.wait_for_function(
            "v => document.getElementById('follow').getAttribute('data-version') === v",
            arg=str(int((before or "0").split(".")[0]) + 1),
            timeout=WAIT_MS,
        )
        assert page.evaluate("() => window.shownMain !== document.querySelector('main')")
        assert "Anna" in page.inner_text("#confirmations")
        assert not [u for u in asked[opened:] if u.endswith(f"/v/{view}")]  # it rode too
        assert not problems, problems
    finally:
        context.close()
