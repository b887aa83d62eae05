"""Browser tier: what a real evening still tripped on (issue 30 items 3, 7 and 8), each done
the way the table does it on the real server.

- Hussar started on a phone whose last game was of four: the seats the page hides are not
  sent (before, the last game's names in them were, and the game was refused).
- Counting: deals are deals; a penalty and a correction are named as such, with numbers of
  their own, on the form, the sheet's messages, the game-over card and the delete page.
- Two phones adding the same deal: the second is shown the deal just saved beside its own
  and chooses "it is the same deal" (nothing written) or "save as the next deal".
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import SMALL_PHONE, enter_deal, new_game, save_deal, shot

pytestmark = pytest.mark.browser

FOUR = ["Anna", "Boris", "Vera", "Gleb"]


def test_hussar_after_a_game_of_four_sends_only_the_two_seats_shown(
    phone: tuple[Any, str, list[str]], store: Store
) -> None:
    page, server, problems = phone
    four = new_game(page, server, FOUR)
    assert list(store.get_game(four).players) == FOUR
    # The same phone, the next game: the form offers the last game's four names again.
    page.goto(f"{server}/new")
    assert page.input_value("#player_3") == "Gleb"
    page.locator('#convention .tap[data-value="hussar"]').click()
    assert page.is_visible("#player_0") and page.is_visible("#player_1")
    assert not page.is_visible("#player_2") and not page.is_visible("#player_3")
    # The hidden seats can be reached by neither Tab nor a screen reader, and are not sent.
    assert page.is_disabled("#player_2") and page.is_disabled("#player_3")
    page.fill("#player_0", "Anna")
    page.fill("#player_1", "Boris")
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_url(f"{server}/g/**")
    token = page.url.rsplit("/", 1)[-1].split("?")[0]
    game = store.get_game(token)
    assert list(game.players) == ["Anna", "Boris"]
    assert game.convention == "hussar"
    assert problems == []


THREE = ["Anna", "Boris", "Vera"]


def _six(declarer: str, others: list[str]) -> dict[str, Any]:
    """A 6♠ both defenders pass (the declarer writes 2 in the pool)."""
    return {"type": "contract", "declarer": declarer, "contract": "6S",
            "answers": {others[0]: "pass", others[1]: "pass"}}  # fmt: skip


def _add(store: Store, token: str, deal: dict[str, Any]) -> None:
    game = store.get_game(token)
    store.add_deal(token, deal, base_version=game.version)


def test_deals_are_counted_as_deals_and_a_correction_as_a_correction(
    phone: tuple[Any, str, list[str]], store: Store, chromium: Any
) -> None:
    page, server, problems = phone
    token = new_game(page, server, THREE, house={"pool_target": "2"})
    view = store.get_game(token).view_token
    _add(store, token, _six("Anna", ["Boris", "Vera"]))  # deal 1
    # A correction by taps: the form calls it correction 1, and the next deal is deal 2.
    page.goto(f"{server}/g/{token}")
    page.locator("#next-deal").click()
    page.wait_for_url("**/deal/new?k=*")
    assert page.inner_text("#deal-title") == "Deal 2"
    page.locator('#kind .tap[data-value="correction"]').click()
    assert page.inner_text("#deal-title") == "Correction 1"
    enter_deal(page, THREE, "correction", reason="Agreed at the table",
               entries=[("Vera", "whists", "Anna", "4")])  # fmt: skip
    save_deal(page)
    assert "Correction 1 saved" in page.inner_text("main")
    page.locator("#next-deal").click()
    page.wait_for_url("**/deal/new?k=*")
    assert page.inner_text("#deal-title") == "Deal 2"  # not "Deal 3"
    # A follower disputes the correction: the sheet names it as a correction.
    follower_ctx = chromium.new_context(viewport=SMALL_PHONE)
    try:
        follower = follower_ctx.new_page()
        follower.goto(f"{server}/v/{view}")
        follower.locator('[data-iam="Boris"]').click()
        listed = follower.locator("#confirm li[data-deal] strong").all_text_contents()
        assert [t.split(":")[0] for t in listed] == ["Deal 1", "Correction 1"], listed
        # Every entry the follower has not answered is asked, oldest first.
        asked = follower.locator("#confirm li[data-deal]:not([hidden])")
        assert asked.count() == 2
        correction = asked.nth(1)
        assert correction.inner_text().startswith("Correction 1:")
        correction.locator('[data-verdict="wrong"]').first.click()
        correction.locator(".confirm-note input").fill("it was 2")
        correction.locator("[data-send]").click()
        follower.wait_for_function("() => document.querySelector('.confirm-status').textContent")
        page.goto(f"{server}/g/{token}")
        page.wait_for_selector("#confirmations .disputed")
        assert page.inner_text("#confirmations .disputed").startswith("Correction 1, disputed:")
    finally:
        follower_ctx.close()
    # Deals 2 and 3 close every pool: the end is said after deal 3 (the fourth entry).
    _add(store, token, _six("Boris", ["Vera", "Anna"]))
    _add(store, token, _six("Vera", ["Anna", "Boris"]))
    page.goto(f"{server}/g/{token}")
    main = page.inner_text("main")
    assert "Every pool is closed after deal 3." in main, main[:600]
    head = page.inner_text(".game-head")
    assert "3 deals · 1 correction" in head, head
    # Who pays whom, right on the card, as the settlement page says it.
    card = page.locator(".card.finished")
    assert "Who pays whom" in card.inner_text()
    here = card.locator(".payments-now li").all_inner_texts()
    shot(page, "counting-game-over", full=False)
    page.goto(f"{server}/g/{token}/settlement")
    assert here and here == page.locator(".payments li").all_inner_texts(), here
    page.goto(f"{server}/g/{token}/delete")
    assert "3 deals · 1 correction" in page.inner_text("main")
    page.goto(f"{server}/g/{token}/log")
    log = page.inner_text("ol.log")
    assert "3." in log and "4." not in log, log
    assert problems == []


def test_two_phones_adding_the_same_deal_choose_same_or_next(
    phone: tuple[Any, str, list[str]], store: Store, chromium: Any
) -> None:
    """Issue 30 item 8: A and B both enter deal 1; A saves first. B is shown A's deal beside
    its own, its heading says deal 2 now, and B chooses: the same deal (nothing written) —
    then, on the next deal, the next deal (written once, as deal 2)."""
    b, server, problems = phone
    token = new_game(b, server, THREE)
    deal = {"declarer": "Anna", "contract": "7S", "answers": {"Boris": "whist", "Vera": "pass"},
            "tricks": {"Anna": 7, "Boris": 3}}  # fmt: skip
    other = chromium.new_context(viewport=SMALL_PHONE)
    try:
        a = other.new_page()
        for round_ in ("same", "next"):
            for page in (b, a):
                page.goto(f"{server}/g/{token}")
                page.locator("#next-deal").click()
                page.wait_for_url("**/deal/new?k=*")
                enter_deal(page, THREE, "contract", **deal)  # type: ignore[arg-type]
            saved = len(store.get_game(token).deals)
            save_deal(a)
            assert len(store.get_game(token).deals) == saved + 1
            b.locator("#save-button").click()
            b.wait_for_selector("#same-deal")
            card = b.inner_text("#same-deal")
            assert f"Deal {saved + 1}: Anna 7♠" in card, card
            assert "Yours" in card and "Anna" in card
            assert b.inner_text("#deal-title") == f"Deal {saved + 2}"
            # The dealer moved on with the deal (Anna dealt deal 1, Boris deals deal 2…).
            dealer = THREE[(saved + 1) % 3]
            assert b.inner_text("#deal-note").strip() == f"{dealer} deals"
            assert b.evaluate("scrollY") == 0
            # Both choices are on the screen, neither under the bar.
            for button in ("#same-deal-discard", "#same-deal-save"):
                box = b.locator(button).bounding_box()
                bar = b.locator("#deal-bar").bounding_box()
                assert box and bar and box["y"] + box["height"] <= bar["y"], (button, box, bar)
            assert len(store.get_game(token).deals) == saved + 1  # B wrote nothing yet
            if round_ == "same":
                shot(b, "same-deal-card", full=False)
                with b.expect_navigation():
                    b.locator("#same-deal-discard").click()
                assert b.url == f"{server}/g/{token}"
                assert len(store.get_game(token).deals) == saved + 1
            else:
                with b.expect_navigation(wait_until="domcontentloaded"):
                    b.locator("#same-deal-save").click()
                deals = store.get_game(token).deals
                assert len(deals) == saved + 2
                assert deals[-1].data == deals[-2].data
                assert "Deal 3 saved" in b.inner_text("main")
    finally:
        other.close()
    assert problems == [] or all("409" in p for p in problems), problems


def test_a_choice_shows_in_forced_colours(phone: tuple[Any, str, list[str]]) -> None:
    """Issue 30 item 6: in forced colours (Chromium's emulation of Windows High Contrast) a
    chosen kind, declarer, contract, answer and trick key look unlike the others."""
    page, server, problems = phone
    token = new_game(page, server, THREE)
    page.emulate_media(forced_colors="active")
    page.goto(f"{server}/g/{token}/deal/new")
    enter_deal(page, THREE, "contract", declarer="Anna", contract="7S",
               answers={"Boris": "whist", "Vera": "pass"}, tricks={"Anna": 7})  # fmt: skip
    look = """(sel) => { const e = document.querySelector(sel); const s = getComputedStyle(e);
                         return [s.backgroundColor, s.color]; }"""
    pairs = {
        "kind": ('#kind input[value="contract"] + span', '#kind input[value="misere"] + span'),
        "declarer": ('#declarer input[value="0"] + span', '#declarer input[value="1"] + span'),
        "answer": ('#answer_1 input[value="whist"] + span', '#answer_1 input[value="pass"] + span'),
    }
    page.locator("#contract-chip").click()  # the grid open, its choice shown
    pairs["contract"] = ('#contract input[value="7S"] + span', '#contract input[value="7C"] + span')
    pairs["suit red"] = ('#contract input[value="7S"] + span', '#contract input[value="7H"] + span')
    for what, (chosen, other) in pairs.items():
        assert page.evaluate(look, chosen) != page.evaluate(look, other), what
    shot(page, "forced-colours-deal", full=False)
    page.locator('#contract .tap[data-value="7S"]').click()
    keys = ('#trickpad .num[aria-pressed="true"]', '#trickpad .num[aria-pressed="false"]')
    assert page.evaluate(look, keys[0]) != page.evaluate(look, keys[1]), "tricks"
    # The colours are the system's (forced), not the page's green.
    assert page.evaluate("matchMedia('(forced-colors: active)').matches")
    assert page.evaluate(look, keys[0])[0] != "rgb(29, 92, 58)"
    shot(page, "forced-colours-tricks", full=False)
    assert problems == []


@pytest.mark.parametrize(
    ("width", "height", "scale"), [(360, 640, 1.5), (375, 667, 1.5), (320, 568, 1.3)]
)
def test_the_deal_head_wraps_rather_than_widening_the_page(
    chromium: Any, real_server: Any, width: int, height: int, scale: float
) -> None:
    """Issue 30 item 5: a ten-letter dealer's name at large text keeps the page its width."""
    from ..browser import text_scale

    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=True)
    text_scale(context, scale)
    page = context.new_page()
    try:
        players = ["Konstantin", "Maximilian", "Alexandra"]
        token = new_game(page, real_server.url, players)
        page.goto(f"{real_server.url}/g/{token}/deal/new")
        page.locator('#kind .tap[data-value="correction"]').click()
        wide = page.evaluate("document.documentElement.scrollWidth")
        head = page.evaluate("document.querySelector('.deal-head').getBoundingClientRect().right")
        shot(page, f"deal-head-{width}-{scale}x", full=False)
        assert wide <= width and head <= width, (wide, head)
    finally:
        context.close()


def test_the_tricks_pad_by_arrow_keys(phone: tuple[Any, str, list[str]], store: Store) -> None:
    """Issue 30 (keyboard): the pad is one Tab stop for its keys and one for its names, the
    arrows move within them, Enter presses (two whisters took 28 Tabs before)."""
    page, server, problems = phone
    token = new_game(page, server, THREE)
    page.goto(f"{server}/g/{token}/deal/new")
    page.locator('#declarer .tap[data-value="2"]').click()
    page.locator('#contract .tap[data-value="6D"]').click()  # both defenders whist: 3 counts
    page.wait_for_selector("#trickpad:not([hidden]) .num")
    stops = page.evaluate(
        "Array.from(document.querySelectorAll('#trickpad button')).filter(b => b.tabIndex >= 0"
        " && b.getClientRects().length).length"
    )
    assert stops == 2, stops
    keys = 0
    page.locator('#trickpad .num[tabindex="0"]').focus()
    # The declarer's 6 is preset (made exactly); the pad asks a whister next.
    whose = page.get_attribute('#trickpad .chip[aria-pressed="true"]', "data-seat")
    start = int(page.evaluate("document.activeElement.dataset.n"))
    for _ in range(3 - start):
        page.keyboard.press("ArrowRight")
        keys += 1
    page.keyboard.press("ArrowDown")  # a row down and back up: the pad as drawn
    page.keyboard.press("ArrowUp")
    keys += 2
    assert page.evaluate("document.activeElement.dataset.n") == "3"
    page.keyboard.press("Enter")
    keys += 1
    assert page.is_checked(f'#tricks_{whose} input[value="3"]')
    page.wait_for_selector("#save-button:not([disabled])")
    counts = sorted(page.locator("#trickpad .chip:not([hidden]) b").all_inner_texts())
    assert counts == ["1", "3", "6"], counts  # the other whister's count follows
    assert keys <= 7, keys
    page.keyboard.press("Tab")  # out of the pad in one step
    assert not page.evaluate("document.activeElement.closest('#trickpad')")
    assert problems == []
