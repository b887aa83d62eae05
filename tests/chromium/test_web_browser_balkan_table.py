"""Browser tier: a Balkan partija at the table as a Russian game is (issues 47 and 50) — a
half-entered entry survives a reload (app.js's keptDraft), a Save with no connection waits on
the phone and lands once (queuedSaves), a follower confirms the entries with ✓ (confirm.js),
and each kind of entry is entered by taps at 375 × 667, 360 × 640 with 1.5× text and
320 × 568 with every tapped target in view when tapped: the scorer never scrolls."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from scorekeeper.store import Store

from ..browser import SETTLED, WAIT_MS, no_overflow, shot, text_scale
from .test_web_browser_balkan import _new_balkan_game

SIZES = ((375, 667, 1.0), (360, 640, 1.5), (320, 568, 1.0))

#: Whether an element is in the viewport, clear of the deal form's bar at the bottom (which
#: covers what is under it), without scrolling: [in view, its top, its bottom, the limit].
_IN_VIEW = """(sel) => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  const bar = document.getElementById('deal-bar');
  const limit = bar && !bar.contains(el) ? bar.getBoundingClientRect().top : innerHeight;
  return [r.top >= 0 && r.bottom <= limit + 0.5 && r.height > 0, r.top, r.bottom, limit];
}"""

#: The pad open for the next tricks to tap (the one not given yet).
_OPEN_PAD = """() => Array.from(document.querySelectorAll('.bk-pad'))
  .filter(p => !p.hidden && !p.closest('[hidden]') && !p.querySelector('input:checked'))
  .map(p => p.getAttribute('data-player'))[0] || ''"""


class Thumb:
    """Taps, counted, each on a target the scorer sees without scrolling."""

    def __init__(self, page: Any, where: str) -> None:
        self.page, self.where, self.taps = page, where, 0

    def tap(self, selector: str) -> None:
        self.page.wait_for_function(SETTLED)  # the last tap's preview is back
        self.page.wait_for_selector(selector, state="visible")
        with contextlib.suppress(PlaywrightTimeout):  # the page brings it up itself, or not
            self.page.wait_for_function(f"(sel) => ({_IN_VIEW})(sel)[0]", arg=selector)
        seen = self.page.evaluate(_IN_VIEW, selector)
        assert seen[0], f"{self.where}: {selector} is out of view: {seen}"
        self.page.locator(selector).click()
        self.taps += 1

    def pad(self, tricks: int) -> None:
        """Tap a count on the pad open now (the declarer's first, then the next player's)."""
        self.page.wait_for_function(f"({_OPEN_PAD})() !== ''")
        who = self.page.evaluate(_OPEN_PAD)
        self.tap(f'.bk-pad[data-player="{who}"] .tap[data-value="{tricks}"]')
        self.page.wait_for_function(
            f"document.querySelector('.bk-pad[data-player=\"{who}\"] input:checked')"
        )

    def save(self) -> None:
        self.page.wait_for_selector("#preview strong")  # the preview says what it writes
        with self.page.expect_navigation(wait_until="domcontentloaded"):
            self.tap("#save-button")


def _declarer(page: Any) -> str:
    return str(page.locator("#declarer .tap:not([hidden])").first.get_attribute("data-value"))


def _contract(thumb: Thumb, contract: str) -> None:
    thumb.tap("#next-deal")
    thumb.page.wait_for_selector("#deal-form[data-draft]")
    thumb.tap(f'#declarer .tap[data-value="{_declarer(thumb.page)}"]')
    thumb.tap(f'#contract .tap[data-value="{contract}"]')


def _refa(thumb: Thumb) -> None:
    with thumb.page.expect_navigation(wait_until="domcontentloaded"):
        thumb.tap("#dalje")


def _followed(thumb: Thumb) -> None:
    _contract(thumb, "herc")
    thumb.pad(6)
    thumb.pad(3)
    thumb.save()


def _kontra(thumb: Thumb) -> None:
    _contract(thumb, "tref")
    thumb.tap('#kontra .tap[data-value="1"]')
    giver = thumb.page.locator("#kontra_by .tap:not([hidden])").first.get_attribute("data-value")
    thumb.tap(f'#kontra_by .tap[data-value="{giver}"]')
    thumb.pad(7)
    thumb.pad(2)
    thumb.save()


def _failed(thumb: Thumb) -> None:
    _contract(thumb, "karo")
    thumb.pad(4)
    thumb.pad(3)  # the defence stops at its fifth trick: the other follower took 2
    thumb.save()


def _betl(thumb: Thumb) -> None:
    _contract(thumb, "betl")
    thumb.pad(0)
    thumb.save()


KINDS: dict[str, tuple[Callable[[Thumb], None], int]] = {
    "refa": (_refa, 2),
    "followed contract": (_followed, 6),
    "with kontra": (_kontra, 8),
    "failed": (_failed, 6),
    "betl": (_betl, 5),
}
"""Each kind of entry, from the sheet to the sheet again, and the most taps it may take."""


def test_each_kind_of_entry_by_taps_with_nothing_scrolled(
    chromium: Any, real_server: Any, store: Store
) -> None:
    counted: dict[str, dict[str, int]] = {}
    for width, height, scale in SIZES:
        size = f"{width}x{height}" + (f"@{scale}" if scale != 1 else "")
        context = chromium.new_context(viewport={"width": width, "height": height})
        text_scale(context, scale)
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda e, seen=problems: seen.append(str(e)))
        try:
            token = _new_balkan_game(page, real_server.url)
            for name, (enter, most) in KINDS.items():
                thumb = Thumb(page, f"{name} at {size}")
                page.evaluate("window.scrollTo(0, 0)")  # the sheet as it opens
                enter(thumb)
                page.wait_for_url(f"{real_server.url}/g/{token}")
                no_overflow(page)
                counted.setdefault(name, {})[size] = thumb.taps
                assert thumb.taps <= most, (name, size, thumb.taps)
            kinds = [d.data["type"] for d in store.get_game(token).deals]
            assert kinds == ["refa"] + ["played"] * 4, kinds
            betl = store.get_game(token).deals[-1].data
            assert betl["contract"] == "betl" and betl["tricks"] == {betl["declarer"]: 0}
            assert not problems, problems
        finally:
            context.close()
    for name, sizes in counted.items():
        print(f"taps, {name}: " + ", ".join(f"{s} {n}" for s, n in sizes.items()))
    assert all(n == 6 for n in counted["followed contract"].values()), counted


def _half_entered(page: Any, server: str) -> tuple[str, str]:
    token = _new_balkan_game(page, server)
    page.locator("#next-deal").click()
    page.wait_for_selector("#deal-form[data-draft]")
    declarer = _declarer(page)
    thumb = Thumb(page, "half")
    thumb.tap(f'#declarer .tap[data-value="{declarer}"]')
    thumb.tap('#contract .tap[data-value="sans"]')
    thumb.pad(6)
    return token, declarer


def _is_back(page: Any, declarer: str, after: str) -> None:
    page.wait_for_selector("#draft")  # "The deal entered on this phone before is back"
    for box, value in (("#declarer", declarer), ("#contract", "sans")):
        assert page.is_checked(f'{box} input[value="{value}"]'), (after, box)
    assert page.is_checked(f'.bk-pad[data-player="{declarer}"] input[value="6"]'), after
    assert page.locator("#contract .bk-chip").is_visible(), after  # folded, as it was


def test_a_half_entered_balkan_entry_survives_a_reload(phone: Any, store: Store) -> None:
    """Back after a reload, a language switch, Back and Forward and a tab opened again."""
    page, server, problems = phone
    token, declarer = _half_entered(page, server)
    form = page.url
    page.reload()
    _is_back(page, declarer, "reload")
    shot(page, "balkan-draft-back", full=False)
    page.goto(server + (page.locator('nav.langs a[lang="ru"]').get_attribute("href") or ""))
    page.wait_for_url("**lang=ru**")
    _is_back(page, declarer, "language")
    page.locator(".deal-head a.back").click()
    page.wait_for_url(f"{server}/g/{token}")
    page.go_back()
    _is_back(page, declarer, "back")
    page.close()  # the browser dropped the tab
    page = phone[0].context.new_page()
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(form.split("?")[0] + "?lang=en")
    _is_back(page, declarer, "a tab opened again")
    thumb = Thumb(page, "after the reload")
    thumb.pad(4)
    thumb.save()
    assert store.get_game(token).deals[-1].data["contract"] == "sans"
    # Saved: the draft is gone, the next form opens blank.
    page.locator("#next-deal").click()
    page.wait_for_selector("#deal-form[data-draft]")
    assert page.locator("#draft").count() == 0
    assert not page.is_checked('#contract input[value="sans"]')
    assert not problems, problems


def test_a_balkan_save_with_no_connection_waits_and_lands_once(phone: Any, store: Store) -> None:
    page, server, problems = phone
    token, _ = _half_entered(page, server)
    Thumb(page, "offline").pad(4)
    page.wait_for_selector("#preview strong")
    page.context.set_offline(True)
    page.locator("#save-button").click()
    page.wait_for_selector("#preview .pending")
    shot(page, "balkan-not-saved-yet", full=False)
    waiting = "JSON.parse(localStorage.getItem('scorekeeper.pending') || '[]').length"
    assert page.evaluate(waiting) == 1
    assert len(store.get_game(token).deals) == 0
    page.context.set_offline(False)
    page.wait_for_url(f"{server}/g/{token}", timeout=WAIT_MS)
    assert page.evaluate(waiting) == 0
    deals = store.get_game(token).deals
    assert [d.data["contract"] for d in deals] == ["sans"]  # exactly one written
    page.reload()
    assert len(store.get_game(token).deals) == 1
    assert all("net::" in p or "Failed to fetch" in p for p in problems), problems


def test_a_follower_confirms_a_balkan_entry(phone: Any, chromium: Any, store: Store) -> None:
    page, server, _ = phone
    token = _new_balkan_game(page, server)
    with page.expect_navigation():
        page.locator("#dalje").click()
    view = store.get_game(token).view_token
    other = chromium.new_context(viewport={"width": 375, "height": 667})
    try:
        follower = other.new_page()
        follower.goto(f"{server}/v/{view}")
        follower.locator('#confirm [data-iam="Boža"]').click()
        asked = follower.locator("#confirm li[data-deal]:not([hidden])")
        assert asked.count() == 1 and "Refa" in asked.inner_text()
        asked.locator("[data-verdict=right]").click()
        follower.wait_for_selector("#confirm .confirm-status:has-text('Thank you')")
        # The scorer's page learns of it by the follow (only the answers swapped in).
        page.wait_for_selector("#confirmations", timeout=WAIT_MS)
        assert "Boža 1" in page.inner_text("#confirmations")
    finally:
        other.close()


def test_a_waiting_save_refused_on_its_resend_comes_back_into_the_form(
    phone: Any, store: Store
) -> None:
    """A Save that waited on the phone and was refused when sent again (another phone wrote
    meanwhile) is opened again in its form (app.js's Pending), nothing of it dropped."""
    page, server, problems = phone
    token = _new_balkan_game(page, server)
    page.locator("#next-deal").click()
    page.wait_for_selector("#deal-form[data-draft]")
    declarer = _declarer(page)
    item = {
        "key": "k",
        "back": f"/g/{token}/deal/new",
        "body": [["declarer", declarer], ["contract", "tref"], [f"tricks.{declarer}", "8"]],
    }
    page.evaluate("(i) => sessionStorage.setItem('scorekeeper.refused', JSON.stringify(i))", item)
    page.goto(f"{server}/g/{token}/deal/new")
    page.wait_for_selector("section.card.problems[role=alert]")
    assert page.is_checked(f'#declarer input[value="{declarer}"]')
    assert page.is_checked('#contract input[value="tref"]')
    assert page.is_checked(f'.bk-pad[data-player="{declarer}"] input[value="8"]')
    assert page.evaluate("sessionStorage.getItem('scorekeeper.refused')") is None
    assert not store.get_game(token).deals and not problems, problems


def test_the_sheets_refa_with_no_connection_waits_and_lands_once(phone: Any, store: Store) -> None:
    page, server, problems = phone
    token = _new_balkan_game(page, server)
    page.context.set_offline(True)
    page.locator("#dalje").click()  # "Refa (dalje)": one tap on the sheet
    page.wait_for_selector("#bk-next-said:not([hidden])")
    assert "Not saved yet" in page.inner_text("#bk-next-said")
    assert page.is_disabled("#dalje")  # a second tap cannot write a second refa
    waiting = "JSON.parse(localStorage.getItem('scorekeeper.pending') || '[]').length"
    assert page.evaluate(waiting) == 1 and not store.get_game(token).deals
    page.context.set_offline(False)
    page.wait_for_selector(".bk-lines li", timeout=WAIT_MS)  # the sheet again, with the refa
    assert page.evaluate(waiting) == 0
    assert [d.data["type"] for d in store.get_game(token).deals] == ["refa"]
    assert all("net::" in p or "Failed to fetch" in p for p in problems), problems


def test_a_balkan_follower_is_told_the_game_was_deleted(
    phone: Any, chromium: Any, store: Store
) -> None:
    """The follow's 'gone' (issue 50, item 2) on a Balkan partija's page, as on a Russian one."""
    from .test_web_browser_gone import _told

    page, server, _ = phone
    token = _new_balkan_game(page, server)
    with page.expect_navigation():
        page.locator("#dalje").click()
    other = chromium.new_context(viewport={"width": 375, "height": 667})
    try:
        follower = other.new_page()
        follower.goto(f"{server}/v/{store.get_game(token).view_token}")
        follower.locator('#confirm [data-iam="Ceca"]').click()
        follower.wait_for_selector("#confirm [data-verdict]:visible")
        store.delete_game(token)
        assert "restore" in _told(follower, "This game was deleted")
        page.wait_for_selector("main form[action$='/restore-game'] button", timeout=WAIT_MS)
        assert page.locator("#dalje, #next-deal").count() == 0
    finally:
        other.close()
