"""Browser tier: a four-player evening, three following phones confirm, one disputes.

Each phone is its own browser context (its own cookies and storage). The scorer does nothing
more than enter deals; the dispute reaches the scorer's sheet by itself (no reload, no tap).
How fast it comes is bench/'s to measure; the wait here only bounds a test whose change
never comes, long enough for a busy machine.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import SMALL_PHONE, WAIT_MS, enter_deal, new_game, pumped, shot, watch_console
from ..harness import until

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Boris", "Vera", "Dmitri"]
ANSWERS = {"Boris": ("right", ""), "Vera": ("right", ""), "Dmitri": ("wrong", "Vera took 4")}


def _follower(chromium: Any, server: str, view: str) -> tuple[Any, Any, list[str]]:
    context = chromium.new_context(viewport=SMALL_PHONE)
    page = context.new_page()
    problems: list[str] = []
    watch_console(page, problems)
    page.goto(f"{server}/v/{view}")
    return context, page, problems


def test_three_phones_confirm_and_the_dispute_reaches_the_scorer(
    phone: tuple[Any, str, list[str]], store: Store, chromium: Any
) -> None:
    scorer, server, problems = phone
    token = new_game(scorer, server, PLAYERS)
    view = store.get_game(token).view_token
    charts: list[str] = []
    scorer.on("request", lambda r: charts.append(r.url) if "/chart.svg" in r.url else None)
    # Deal 1: Anna deals and sits out; an all-pass.
    scorer.goto(f"{server}/g/{token}/deal/new")
    enter_deal(scorer, PLAYERS, "allpass", tricks={"Boris": 4, "Vera": 3, "Dmitri": 3})
    scorer.locator("#save-button").click()
    scorer.wait_for_url(f"{server}/g/{token}")
    scorer.wait_for_selector(".chart-box svg polyline", state="attached")
    scorer.wait_for_timeout(300)
    assert len(charts) == 1, charts  # the chart is fetched once, not again as an <img>
    assert scorer.locator("#confirmations").count() == 0  # nobody answered: nothing shown

    phones = {}
    try:
        for name in ANSWERS:
            context, page, trouble = _follower(chromium, server, view)
            phones[name] = (context, page, trouble)
            page.wait_for_selector("#confirm .confirm-who", state="visible")
            page.locator(f'#confirm [data-iam="{name}"]').click()
            page.wait_for_selector("#confirm li[data-deal]:not([hidden])")
        shot(phones["Dmitri"][1], "confirm-follower", full=False)
        for name, (verdict, note) in ANSWERS.items():
            page = phones[name][1]
            deal = page.locator("#confirm li[data-deal]:not([hidden])")
            assert deal.count() == 1
            deal.locator(f'[data-verdict="{verdict}"]').first.click()
            if verdict == "wrong":
                deal.locator(".confirm-note input").fill(note)
                deal.locator("[data-send]").click()
            page.wait_for_selector("#confirm .confirm-status:not(:empty)")
            status = page.inner_text("#confirm .confirm-status")
            assert "Thank you" in status, status
            assert page.locator("#confirm li[data-deal]:not([hidden])").count() == 0
        # The dispute appears on the scorer's sheet by itself, note and all.
        scorer.wait_for_selector("#confirmations .disputed", timeout=WAIT_MS)
        disputed = scorer.inner_text("#confirmations .disputed")
        assert "Dmitri" in disputed and "Vera took 4" in disputed
        scorer.wait_for_function(
            "() => /Boris\\s*1/.test(document.querySelector('#confirmations').innerText)"
            " && /Vera\\s*1/.test(document.querySelector('#confirmations').innerText)",
            timeout=WAIT_MS,
        )
        shot(scorer, "confirm-scorer", full=False)
        # The answers changed the page three times, not the game: its chart was kept.
        assert scorer.locator(".chart-box svg polyline").count() > 0
        assert len(charts) == 1, charts

        # "I am" is said once: reloaded, the page knows who this phone is, and with nothing
        # to ask it shows the sheet alone.
        page = phones["Vera"][1]
        page.reload()
        page.wait_for_load_state()
        assert page.locator("#confirm").is_hidden()
        # Deal 2 is saved: each phone is asked about it, and only about it.
        scorer.goto(f"{server}/g/{token}/deal/new")
        enter_deal(scorer, PLAYERS, "allpass", tricks={"Anna": 2, "Vera": 4, "Dmitri": 4})
        scorer.locator("#save-button").click()
        scorer.wait_for_url(f"{server}/g/{token}")
        for name in ANSWERS:
            page = phones[name][1]
            page.wait_for_selector("#confirm li[data-deal]:not([hidden])", timeout=WAIT_MS)
            assert page.locator("#confirm li[data-deal]:not([hidden])").count() == 1
            assert page.locator("#confirm .confirm-who").is_hidden()
            assert page.inner_text("#confirm .confirm-name") == name
            page.locator("#confirm li[data-deal]:not([hidden]) [data-verdict=right]").click()
            page.wait_for_selector("#confirm li[data-deal]:not([hidden])", state="detached")
        scorer.wait_for_function(
            "() => /Vera\\s*2/.test(document.querySelector('#confirmations').innerText)",
            timeout=WAIT_MS,
        )
        for name, (_, _, trouble) in phones.items():
            assert trouble == [], (name, trouble)
    finally:
        for context, _, _ in phones.values():
            context.close()
    assert problems == []


def test_a_follower_who_opened_the_page_before_the_first_deal_is_asked(
    phone: tuple[Any, str, list[str]], store: Store, chromium: Any
) -> None:
    """Issue 30 item 1: the QR code is scanned when the game starts, before any deal; the
    sheet swaps in deal after deal, and each one is asked ✓/✗ without a reload."""
    scorer, server, problems = phone
    three = ["Anna", "Boris", "Vera"]
    token = new_game(scorer, server, three)
    view = store.get_game(token).view_token
    context, follower, theirs = _follower(chromium, server, view)
    loads: list[str] = []
    follower.on(
        "framenavigated", lambda f: loads.append(f.url) if f == follower.main_frame else None
    )
    try:
        assert follower.locator("#confirm").count() == 0  # nothing to confirm yet
        deals = [
            ("allpass", {"tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}),
            ("contract", {"declarer": "Boris", "contract": "6S", "answers": {"Vera": "pass", "Anna": "pass"}}),
            ("contract", {"declarer": "Vera", "contract": "7H", "answers": {"Anna": "pass", "Boris": "pass"}}),
        ]  # fmt: skip
        for number, (kind, deal) in enumerate(deals, start=1):
            scorer.goto(f"{server}/g/{token}/deal/new")
            enter_deal(scorer, three, kind, **deal)  # type: ignore[arg-type]
            scorer.locator("#save-button").click()
            scorer.wait_for_url(f"{server}/g/{token}")
            # The follower's sheet takes the deal by itself and asks about it.
            follower.wait_for_selector("#confirm li[data-deal]:nth-last-child(1)", state="attached")
            if number == 1:
                follower.wait_for_selector("#confirm .confirm-who:not([hidden])", timeout=WAIT_MS)
                assert follower.locator("#confirm .confirm-who h2").is_visible()
                follower.locator('[data-iam="Anna"]').click()
            asked = follower.locator("#confirm li[data-deal]:not([hidden])")
            asked.first.wait_for(state="visible", timeout=WAIT_MS)
            assert asked.count() == 1
            assert str(number) in asked.first.inner_text()
            asked.first.locator('[data-verdict="right"]').first.click()
            follower.wait_for_function(
                "() => !document.querySelector('#confirm li[data-deal]:not([hidden])')"
            )
        assert loads == [], loads  # never reloaded: swapped in, asked, answered
        answers = store.get_game(token)
        assert len(answers.deals) == 3
        shot(follower, "confirm-early-follower", full=False)
        assert theirs == [] and problems == [], (theirs, problems)
    finally:
        context.close()


def test_the_follower_keeps_its_place_and_sees_send_above_the_keyboard(
    phone: tuple[Any, str, list[str]], store: Store, chromium: Any
) -> None:
    """Issue 30: after "I am …" the focus is on the deal's ✓ (it was dropped to the page with
    the hidden buttons), after ✗ on the note with its Send in the upper part of the screen
    (a phone's keyboard opens over the lower half), and after Send on the line saying it
    was sent."""
    scorer, server, problems = phone
    token = new_game(scorer, server, PLAYERS)
    view = store.get_game(token).view_token
    for tricks in ({"Boris": 4, "Vera": 3, "Dmitri": 3}, {"Anna": 2, "Vera": 4, "Dmitri": 4}):
        scorer.goto(f"{server}/g/{token}/deal/new")
        enter_deal(scorer, PLAYERS, "allpass", tricks=tricks)
        scorer.locator("#save-button").click()
        scorer.wait_for_url(f"{server}/g/{token}")
    context, follower, theirs = _follower(chromium, server, view)
    try:
        follower.wait_for_selector("#confirm .confirm-who", state="visible")
        follower.locator('#confirm [data-iam="Boris"]').focus()
        follower.keyboard.press("Enter")
        follower.wait_for_selector("#confirm li[data-deal]:not([hidden])")
        assert follower.evaluate(
            "() => document.activeElement.matches('#confirm li[data-deal]:not([hidden]) [data-verdict=right]')"
        )
        follower.keyboard.press("Tab")  # the ✗ beside it
        follower.keyboard.press("Enter")
        # Both deals are asked (a phone joining late confirms what it missed), the oldest first.
        note = follower.locator("#confirm li[data-deal]:not([hidden]) .confirm-note").first
        note.wait_for(state="visible")
        assert follower.evaluate("() => document.activeElement.matches('.confirm-note input')")
        send = note.locator("[data-send]").bounding_box()
        assert send is not None
        assert send["y"] >= 0 and send["y"] + send["height"] <= 667 * 0.45 + 1, send
        follower.keyboard.type("Vera took 5")
        follower.keyboard.press("Tab")  # Send
        follower.keyboard.press("Enter")
        follower.wait_for_selector("#confirm .confirm-status:not(:empty)")
        assert "Thank you" in follower.inner_text("#confirm .confirm-status")
        # On to the next deal's ✓; after the last, the line saying it was sent.
        assert follower.evaluate(
            "() => document.activeElement.matches('#confirm li[data-deal]:not([hidden]) [data-verdict=right]')"
        )
        follower.keyboard.press("Enter")
        follower.wait_for_selector("#confirm li[data-deal]:not([hidden])", state="detached")
        assert follower.evaluate("() => document.activeElement.matches('#confirm .confirm-status')")
        assert theirs == [] and problems == [], (theirs, problems)
    finally:
        context.close()


def test_the_last_answer_keeps_the_focus_when_the_card_is_swapped_before_it_returns(
    phone: tuple[Any, str, list[str]], store: Store, chromium: Any
) -> None:
    """The answer reaches the server, the game's follow swaps in the card that no longer asks
    about the deal (the swap puts focus where it can: the next link on the page), and only
    then the answer's own reply comes: it is shown, and focus goes to the line saying it was
    sent, not left where the swap put it."""
    scorer, server, problems = phone
    token = new_game(scorer, server, PLAYERS)
    view = store.get_game(token).view_token
    scorer.goto(f"{server}/g/{token}/deal/new")
    enter_deal(scorer, PLAYERS, "allpass", tricks={"Boris": 4, "Vera": 3, "Dmitri": 3})
    scorer.locator("#save-button").click()
    scorer.wait_for_url(f"{server}/g/{token}")
    context, follower, theirs = _follower(chromium, server, view)
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:  # the answer sent on to the server; its reply kept back
        if route.request.method != "POST":
            route.continue_()
            return
        held.append((route, route.fetch()))

    try:
        follower.wait_for_selector("#confirm .confirm-who", state="visible")
        follower.locator('#confirm [data-iam="Boris"]').focus()
        follower.keyboard.press("Enter")
        follower.wait_for_selector("#confirm li[data-deal]:not([hidden])")
        follower.evaluate("() => { document.getElementById('confirm').dataset.old = '1'; }")
        follower.route("**/confirm*", hold)
        follower.keyboard.press("Enter")  # ✓ on the only deal
        follower.wait_for_function(
            "() => { const c = document.getElementById('confirm');"
            " return c && !c.dataset.old && !c.querySelector('li[data-deal]:not([hidden])'); }"
        )
        until(pumped(follower, lambda: len(held) == 1), "the answer's reply held by the test")
        assert not follower.evaluate(
            "() => document.activeElement.matches('#confirm .confirm-status')"
        )
        route, reply = held[0]
        route.fulfill(response=reply)
        follower.wait_for_selector("#confirm .confirm-status:not(:empty)")
        assert "Thank you" in follower.inner_text("#confirm .confirm-status")
        assert follower.evaluate("() => document.activeElement.matches('#confirm .confirm-status')")
        assert theirs == [] and problems == [], (theirs, problems)
    finally:
        context.close()
