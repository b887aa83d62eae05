"""Browser tier: Save shows the new sheet from its own answer, and the page goes on living.

On a slow phone every request costs a round trip, so the game page comes in the Save's answer
and replaces the form in place (bench/bench_phone.py measures it). Here: it is the real game
page under its own address, it follows the game afterwards, and Back still works.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from .browser import (  # noqa: F401 (the store and phone fixtures)
    enter_deal,
    new_game,
    served_store,
    table_phone,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Boris", "Vera"]


def test_save_swaps_in_the_game_page_which_then_follows_the_game(
    phone: tuple[Any, str, list[str]], store: Store
) -> None:
    page, server, problems = phone
    token = new_game(page, server, PLAYERS)
    page.goto(f"{server}/g/{token}/deal/new")
    enter_deal(page, PLAYERS, "allpass", tricks={"Anna": 4, "Boris": 3, "Vera": 3})
    page.evaluate("() => { window.sameDocument = true; }")
    posts: list[Any] = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
    page.locator("#save-button").click()
    page.wait_for_url(f"{server}/g/{token}")
    page.wait_for_selector("#deal-form", state="detached")
    # One request, urlencoded (a slow phone uploads a quarter of multipart's bytes).
    assert [r.headers.get("x-save-page") for r in posts] == ["1"]
    assert posts[0].headers["content-type"].startswith("application/x-www-form-urlencoded")
    # The page was swapped in, not loaded: what this document held is still there.
    assert page.evaluate("() => window.sameDocument") is True
    version = store.get_game(token).version
    assert page.get_attribute("#follow", "data-version") == str(version)
    assert page.get_attribute("#follow", "data-follow") in (None, "swap")
    assert "1" in page.inner_text(".flashes")  # "Deal 1 saved."
    assert page.title() != "" and "deal/new" not in page.get_attribute("[lang=ru]", "href")
    # The chart came after, in its own request, and is drawn in the page.
    page.wait_for_selector(".chart-box svg polyline", state="attached")
    assert page.locator(".chart-box[data-chart]").count() == 0
    # It follows the game from here: a deal saved by another phone appears by itself.
    store.add_deal(token, {"type": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}},
                   base_version=version)
    page.wait_for_selector(f'#follow[data-version="{version + 1}"]', state="attached",
                           timeout=10_000)
    assert page.locator("#follow-banner").count() == 0
    # The refreshed page's chart came in its own request once near the screen.
    page.locator(".chart-box").scroll_into_view_if_needed()
    page.wait_for_selector(".chart-box svg polyline", state="attached")
    # Back leads to the form's address, loaded afresh.
    page.go_back()
    page.wait_for_selector("#deal-form")
    assert page.url == f"{server}/g/{token}/deal/new"
    assert page.evaluate("() => window.sameDocument") is None
    assert problems == []
