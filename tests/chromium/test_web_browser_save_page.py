"""Browser tier: one Save flow, and Back never doubles a deal.

Save sends one urlencoded request; its small JSON answer names the sheet, which the phone
loads in the form's place in the history. Back after a Save leads to the sheet before it,
never to a blank form that would silently become the next deal. (Without the script the
form's address, opened again, leads to the saved deal's change form: test_web_save_page.)
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import SMALL_PHONE, enter_deal, new_game

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Boris", "Vera"]
SEVEN = dict(
    declarer="Anna",
    contract="7S",
    answers={"Boris": "whist", "Vera": "pass"},
    tricks={"Anna": 7, "Boris": 2, "Vera": 1},
)
EIGHT = {**SEVEN, "contract": "8S", "tricks": {"Anna": 8, "Boris": 1, "Vera": 1}}


def _save(page: Any) -> None:
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.locator("#save-button").click()


def test_save_loads_the_sheet_it_names_and_back_never_doubles_a_deal(
    phone: tuple[Any, str, list[str]], store: Store
) -> None:
    page, server, problems = phone
    token = new_game(page, server, PLAYERS)
    page.locator("#next-deal").click()
    page.wait_for_selector("#deal-form")
    assert "/deal/new?k=" in page.url
    enter_deal(page, PLAYERS, "allpass", tricks={"Anna": 4, "Boris": 3, "Vera": 3})
    posts: list[Any] = []
    answers: list[Any] = []

    def saving(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        posts.append(route.request)
        response = route.fetch()
        answers.append(response.json())
        route.fulfill(response=response)

    page.route("**/deal/new*", saving)
    _save(page)
    page.wait_for_url(f"{server}/g/{token}")
    answer = answers[0]
    # One request, urlencoded (a slow phone uploads a quarter of multipart's bytes); its
    # answer a small JSON naming the page to load.
    assert len(posts) == 1
    assert posts[0].headers["content-type"].startswith("application/x-www-form-urlencoded")
    assert answer == {"saved": True, "deal": 1, "next": f"/g/{token}"}
    version = store.get_game(token).version
    assert page.get_attribute("#follow", "data-version") == str(version)
    # "Deal 1 saved" with Change and Undo, and Next deal in view.
    assert "1" in page.inner_text("#saved-message")
    assert page.locator("#saved-change").is_visible() and page.locator("#saved-undo").is_visible()
    box = page.locator("#next-deal").bounding_box()
    assert box is not None and box["y"] + box["height"] <= SMALL_PHONE["height"]
    # The chart came after, in its own request, and is drawn in the page.
    page.wait_for_selector(".chart-box svg polyline", state="attached")
    # Back: the sheet before the deal, not the form (which would become deal 2).
    page.go_back()
    page.wait_for_load_state("domcontentloaded")
    assert page.locator("#deal-form").count() == 0
    assert page.url == f"{server}/g/{token}"
    # Change from the message: the same deal, changed; one deal stored.
    page.goto(f"{server}/g/{token}")
    page.locator("#next-deal").wait_for()
    deal = store.get_game(token).deals[0]
    page.goto(f"{server}/g/{token}/deal/{deal.id}/edit")
    enter_deal(page, PLAYERS, "contract", **SEVEN)
    _save(page)
    page.wait_for_url(f"{server}/g/{token}")
    assert [d.data.get("contract") for d in store.get_game(token).deals] == ["7S"]
    assert page.locator("#next-deal").is_visible()
    assert problems == []
