"""Browser tier: changing an early deal of a long game by keyboard alone (issue 30: deal 1 of
a 20-deal game took 62 keys, a Tab for each Edit, Delete and History of every later deal).

The keys are counted the way a keyboard user presses them, from the game page's first Tab to
the change form of deal 1, on the real server at phone size.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import new_game, shot

pytestmark = pytest.mark.browser

THREE = ["Anna", "Boris", "Vera"]
ACTIVE = (
    "(() => { const a = document.activeElement;"
    " return [a.tagName, (a.innerText || '').trim(), a.getAttribute('href') || '']; })()"
)


def _tab_to(page: Any, wanted: Any, limit: int) -> int:
    """Press Tab until the focused element is `wanted`; return the number of presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if wanted(page.evaluate(ACTIVE)):
            return presses
    raise AssertionError(f"not reached in {limit} Tabs, at {page.evaluate(ACTIVE)}")


def _long_game(store: Store, token: str, deals: int) -> int:
    """Add `deals` all-passes; return the id of the first."""
    for _ in range(deals):
        game = store.get_game(token)
        tricks = dict(zip(THREE, (4, 3, 3), strict=True))
        store.add_deal(token, {"type": "allpass", "tricks": tricks}, base_version=game.version)
    return store.get_game(token).deals[0].id


def test_deal_1_of_a_long_game_is_changed_in_a_few_keys(
    phone: tuple[Any, str, list[str]], store: Store
) -> None:
    page, server, problems = phone
    token = new_game(page, server, THREE)
    first = _long_game(store, token, 20)
    page.goto(f"{server}/g/{token}")
    keys = _tab_to(page, lambda a: a[2].endswith(f"/g/{token}/log"), 40)
    page.keyboard.press("Enter")
    keys += 1
    page.wait_for_url(f"{server}/g/{token}/log")
    edit = f"/g/{token}/deal/{first}/edit"
    keys += _tab_to(page, lambda a: a[2] == f"#d{first}", 1)  # the page's first Tab stop
    assert page.is_visible(".skip-link"), "shown when the keyboard reaches it"
    shot(page, "log-skip-link", full=False)
    page.keyboard.press("Enter")
    keys += 1
    keys += _tab_to(page, lambda a: a[2].endswith(edit), 1)
    assert "1." in page.evaluate("document.activeElement.closest('li').innerText")
    page.keyboard.press("Enter")
    keys += 1
    page.wait_for_url(f"{server}{edit}")
    assert page.is_visible("form"), "the change form of deal 1"
    assert keys <= 16, keys
    assert problems == []
