"""Browser tier: every phone is told what happened to its game (issue 50, item 2).

A follower watching while the scorer deletes the game, and while the scorer replaces the
read-only link; the scorer's own page while another phone deletes the game. Each is told at
its next check (the page asks each second: waited for with a few seconds' bound), with what
to do and no ✓/✗ left that could no longer work; the address opened again says the same. A
replaced link says it was replaced; one that never was says only that it opens no game;
neither shows anything of the game.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import SMALL_PHONE, new_game, shot

pytestmark = pytest.mark.browser

THREE = ["Anna", "Boris", "Vera"]
TOLD = 5000  # ms: the page asks each second; one check, with room for a slow machine


def _played(store: Store, token: str) -> str:
    """One all-pass on the sheet; the game's read-only token."""
    game = store.get_game(token)
    tricks = {"Anna": 4, "Boris": 3, "Vera": 3}
    store.add_deal(token, {"type": "allpass", "tricks": tricks}, base_version=game.version)
    return store.get_game(token).view_token


def _follower(chromium: Any, url: str) -> tuple[Any, Any]:
    context = chromium.new_context(viewport=SMALL_PHONE)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#confirm [data-iam]", state="visible")
    page.locator('#confirm [data-iam="Boris"]').click()
    page.wait_for_selector("#confirm [data-verdict]:visible")
    return context, page


def _told(page: Any, title: str) -> str:
    """The page says `title` in place of the sheet, with focus on it and nothing dead."""
    page.wait_for_function(
        "t => (document.querySelector('main h1') || {}).textContent === t", arg=title, timeout=TOLD
    )
    assert page.locator("[data-verdict], #follow, #next-deal").count() == 0
    assert page.evaluate("document.activeElement.tagName") == "H1"
    assert page.locator("main a[href='/']").count() == 1  # where to go from here
    return str(page.inner_text("main"))


def test_a_follower_is_told_the_game_was_deleted_or_its_link_replaced(
    phone: tuple[Any, str, list[str]], store: Store, chromium: Any
) -> None:
    scorer, server, problems = phone
    token = new_game(scorer, server, THREE)
    view = _played(store, token)
    context, follower = _follower(chromium, f"{server}/v/{view}")
    scorer.goto(f"{server}/g/{token}")
    try:
        store.delete_game(token)
        said = _told(follower, "This game was deleted")
        assert "restore" in said, said
        shot(follower, "gone-deleted-follower", full=False)
        # The scorer's page too: the game is deleted, Restore is there.
        scorer.wait_for_selector("main form[action$='/restore-game'] button", timeout=TOLD)
        assert scorer.locator("#next-deal").count() == 0
        with scorer.expect_navigation():
            scorer.locator("main form[action$='/restore-game'] button").click()

        # The read-only link replaced: the old one says so (a link that never was does not).
        follower.goto(f"{server}/v/{view}")
        follower.wait_for_selector("#confirm [data-verdict]:visible")
        store.replace_token(token, "view")
        said = _told(follower, "This link was replaced")
        assert "Ask the scorer for the new link" in said, said
        shot(follower, "gone-replaced-follower", full=False)
        follower.reload()
        assert follower.inner_text("main h1") == "This link was replaced"
        follower.goto(f"{server}/v/{'x' * 32}")
        assert follower.inner_text("main h1") == "This link opens no game"
        assert "replaced" not in follower.inner_text("main")
        assert "Anna" not in said and "Anna" not in follower.inner_text("main")

        # Opened again after a delete: the read-only link says it was deleted.
        new_view = store.get_game(token).view_token
        store.delete_game(token)
        answer = follower.goto(f"{server}/v/{new_view}")
        assert answer is not None and answer.status == 410
        assert follower.inner_text("main h1") == "This game was deleted"
        assert "Anna" not in follower.inner_text("main")  # nothing of the game itself
    finally:
        context.close()
    # The browser logs each 404 and 410 it was answered (the links gone): nothing else.
    assert [p for p in problems if not p.startswith("Failed to load resource")] == []


def test_a_deal_form_keeps_its_deal_when_the_game_is_deleted_meanwhile(
    phone: tuple[Any, str, list[str]], store: Store
) -> None:
    """The scorer half way through a deal when another phone deletes the game: the form says
    so above the deal (with Restore), keeps what was tapped, and its Save is gone."""
    page, server, problems = phone
    token = new_game(page, server, THREE)
    page.goto(f"{server}/g/{token}/deal/new")
    page.locator('#kind .tap[data-value="contract"]').click()
    page.locator('#declarer .tap[data-value="0"]').click()
    store.delete_game(token)
    page.wait_for_selector("main form[action$='/restore-game'] button", timeout=TOLD)
    assert page.evaluate("document.activeElement.tagName") == "H1"
    assert page.is_checked('#declarer input[value="0"]'), "the deal is still in the form"
    assert not page.is_visible("#save-button")
    drafts = "Object.keys(localStorage).filter(k => k.startsWith('scorekeeper.draft.'))"
    assert page.evaluate(drafts) == [f"scorekeeper.draft.{token}/new"]
    shot(page, "gone-deal-form", full=False)
    assert [p for p in problems if not p.startswith("Failed to load resource")] == []
