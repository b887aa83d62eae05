"""Browser tier: a deal in the form survives anything short of Save (issue 50, item 1).

A half-entered deal (a contract, its declarer, a defender's pass) is kept on the phone as it
is tapped, and is back in the form after a reload, a language switch, Back and Forward and a
tab closed and opened again, at 375 × 667 and 320 × 568 with the text 1.5× larger. One tap
throws it away; it is never put onto another game, nor onto a form drawn after the game
changed (then it is said, and kept aside); a Save ends it.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import new_game, save_deal, shot, tap_choice, text_scale

pytestmark = pytest.mark.browser

THREE = ["Anna", "Boris", "Vera"]
SIZES = [(375, 667), (320, 568)]
DRAFTS = "Object.keys(localStorage).filter(k => k.startsWith('scorekeeper.draft.')).sort()"


def _half_entered(page: Any) -> None:
    """Anna declares 7♠, the first defender passes: 4 taps, nothing saved."""
    tap_choice(page, "kind", "contract")
    tap_choice(page, "declarer", "0")
    tap_choice(page, "contract", "7S")
    page.locator('.answers > fieldset:not([hidden]) .tap[data-value="pass"]').first.click()
    page.wait_for_function(f"{DRAFTS}.length > 0")


def _is_back(page: Any, where: str) -> None:
    """The half-entered deal is in the form again, and the page says so."""
    page.wait_for_selector("#deal-form")
    for group, value in (("kind", "contract"), ("declarer", "0"), ("contract", "7S")):
        assert page.is_checked(f'#{group} input[value="{value}"]'), (where, group)
    passed = page.locator('.answers > fieldset:not([hidden]) input[value="pass"]:checked')
    assert passed.count() == 1, where
    assert page.is_visible("#draft #draft-drop"), where
    page.wait_for_selector("#preview strong")  # the preview of the deal put back


def _blank(page: Any) -> bool:
    return not page.locator("#declarer input:checked, #contract input:checked").count()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_half_entered_deal_survives_reload_language_history_and_a_closed_tab(
    chromium: Any, real_server: Any, width: int, height: int
) -> None:
    context = chromium.new_context(viewport={"width": width, "height": height})
    text_scale(context, 1.5)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    server = real_server.url
    try:
        token = new_game(page, server, THREE)
        page.locator("#next-deal").click()
        page.wait_for_selector("#deal-form")
        form = page.url
        assert _blank(page) and not page.is_visible("#draft")
        _half_entered(page)
        assert page.evaluate(DRAFTS) == [f"scorekeeper.draft.{token}/new"]

        page.reload()
        _is_back(page, "reload")
        page.evaluate("window.scrollTo(0, 0)")  # the card above the form, and the form
        shot(page, f"draft-back-{width}x{height}", full=False)
        # The language links (folded away at the smallest size: opened by their address).
        russian = page.locator('nav.langs a[lang="ru"]')
        if russian.is_visible():
            russian.click()
        else:
            page.goto(server + (russian.get_attribute("href") or ""))
        page.wait_for_url("**lang=ru**")
        _is_back(page, "language")
        page.locator(".deal-head a.back").click()
        page.wait_for_url(f"{server}/g/{token}")
        page.go_back()
        _is_back(page, "back")
        page.go_forward()
        page.wait_for_url(f"{server}/g/{token}")
        page.go_back()
        _is_back(page, "back after forward")

        page.close()  # the browser dropped the tab
        page = context.new_page()
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(form)
        _is_back(page, "a tab opened again")

        # Another game's form: nothing of this one's.
        other = new_game(page, server, ["Gleb", "Dasha", "Egor"])
        page.goto(f"{server}/g/{other}/deal/new")
        assert _blank(page) and not page.is_visible("#draft")

        # One tap throws it away: the form as drawn, nothing kept.
        page.goto(form)
        _is_back(page, "before throwing it away")
        with page.expect_navigation():
            page.locator("#draft-drop").click()
        page.wait_for_selector("#deal-form")
        assert _blank(page) and not page.is_visible("#draft")
        assert page.evaluate(DRAFTS) == []
    finally:
        context.close()
    assert problems == []


def test_never_put_onto_a_game_changed_meanwhile_and_ended_by_save(
    phone: tuple[Any, str, list[str]], store: Store
) -> None:
    page, server, problems = phone
    token = new_game(page, server, THREE)
    page.goto(f"{server}/g/{token}/deal/new")
    _half_entered(page)
    # Another phone saves deal 1 meanwhile: this phone's deal 1 is not put onto deal 2.
    game = store.get_game(token)
    tricks = {"Anna": 4, "Boris": 3, "Vera": 3}
    store.add_deal(token, {"type": "allpass", "tricks": tricks}, base_version=game.version)
    page.reload()
    page.wait_for_selector("#draft")
    assert _blank(page), "not put onto a game that changed"
    said = page.inner_text("#draft")
    assert "7♠" in said and "Anna" in said, said
    assert page.evaluate(DRAFTS) == [f"scorekeeper.draft.{token}/new~"], "kept aside"
    shot(page, "draft-stale", full=False)
    page.locator("#draft-drop").click()
    assert not page.is_visible("#draft") and page.evaluate(DRAFTS) == []

    # A deal entered and saved leaves nothing behind; an edit keeps its own draft.
    _half_entered(page)
    page.wait_for_selector("#save-button:not([disabled])")
    save_deal(page)
    assert page.evaluate(DRAFTS) == []
    first = store.get_game(token).deals[0].id
    page.goto(f"{server}/g/{token}/deal/{first}/edit")
    page.locator("#trickpad .chip:not([hidden])").first.click()
    page.locator('#trickpad .num[data-n="5"]').click()
    page.wait_for_function(f"{DRAFTS}.length > 0")
    assert page.evaluate(DRAFTS) == [f"scorekeeper.draft.{token}/{first}"]
    page.reload()
    page.wait_for_selector("#draft")
    chips = page.locator("#trickpad .chip:not([hidden]) b").all_inner_texts()
    assert "5" in chips, chips
    assert problems == []
