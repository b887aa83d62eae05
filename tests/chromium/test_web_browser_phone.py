"""Browser tier: made for one thumb, readable, accessible, awake and live, on the real server.

Measured in Chromium as a phone shows the pages: every control at least 44 × 44 px and named,
the next deal reachable without scrolling on a 375 × 667 screen, text contrast at WCAG AA in
the light and the dark theme, a visible focus ring, the screen kept on, a form never swapped
under the scorer's thumb, and the language switched in one tap and remembered.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper import gamefile, sample
from scorekeeper.games import create_from_game
from scorekeeper.store import GameRecord, Store

from ..browser import (
    PHONE,
    SMALL_PHONE,
    TAP,
    WAIT_MS,
    console_error,
    enter_deal,
    low_contrast,
    no_overflow,
    save_deal,
    shot,
    small_targets,
    sticking_out,
    tap_choice,
    unnamed_controls,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Boris", "Vera"]
LIVE = 2000


def stored_game(server: Any, *, deals: int = 24, players: int = 3, seed: int = 7) -> GameRecord:
    """A game with a long random log, put straight into the served database."""
    rng = random.Random(seed)
    data = sample.random_game(
        rng, deals, convention="sochi", players=players, options={"pool_target": 500}
    )
    data["name"] = "Evening at the dacha"
    with Store(server.db) as store:
        return create_from_game(store, gamefile.load(data))


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    """A fresh phone (its own cookies) at 375 × 812, whose console must stay clean."""
    ctx = chromium.new_context(viewport=PHONE)
    ctx.set_default_timeout(WAIT_MS)
    ctx.problems = []  # type: ignore[attr-defined]
    ctx.on("console", console_error(ctx.problems))  # type: ignore[attr-defined]
    try:
        yield ctx
    finally:
        ctx.close()


def screens(server: str, record: GameRecord) -> list[tuple[str, str]]:
    """The main screens of a game: (name, address)."""
    g = f"{server}/g/{record.edit_token}"
    first = record.deals[0].id
    return [
        ("home", f"{server}/"),
        ("new-game", f"{server}/new"),
        ("import", f"{server}/import"),
        ("sheet", g),
        ("deal-form", f"{g}/deal/new"),
        ("edit-deal", f"{g}/deal/{first}/edit"),
        ("log", f"{g}/log"),
        ("settlement", f"{g}/settlement"),
        ("history", f"{g}/history"),
        ("undo", f"{g}/undo"),
        ("follower", f"{server}/v/{record.view_token}"),
        ("not-found", f"{server}/g/{'x' * 32}"),
    ]


def clean_misere(page: Any, record: GameRecord) -> None:
    """On the open deal form: a misère made by the first player offered as declarer."""
    seat = page.locator("#declarer .tap").first.get_attribute("data-value")
    declarer = record.players[int(seat or 0)]
    enter_deal(page, list(record.players), "misere", declarer=declarer, tricks={declarer: 0})


def open_everything(page: Any) -> None:
    """Unfold what a thumb would unfold: the house rules, every part of the deal form."""
    if page.locator("details.house").count():
        page.locator("details.house summary").click()
    if page.locator("#deal-form").count():
        tap_choice(page, "kind", "correction")
        page.locator("#corr_player_0 .tap").nth(1).click()
        page.locator("#corr_column_0 .tap[data-value=whists]").click()
        tap_choice(page, "kind", "contract")
        tap_choice(
            page, "declarer", page.locator("#declarer .tap").first.get_attribute("data-value")
        )
        first = page.locator(".answers > fieldset:not([hidden])").first
        first.locator('.tap[data-value="pass"]').click()


def test_every_control_is_a_thumb_wide_and_named(context: Any, real_server: Any) -> None:
    record = stored_game(real_server, players=4)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    for name, url in screens(real_server.url, record):
        page.goto(url)
        open_everything(page)
        no_overflow(page)
        problems = (
            [f"small: {t}" for t in small_targets(page)]
            + [f"unnamed: {c}" for c in unnamed_controls(page)]
            + [f"sticks out: {t}" for t in sticking_out(page)]
        )
        if problems:
            found[name] = problems
        shot(page, f"phone-{name}")
    assert found == {}
    # The console's only complaint is the 404 of the page that is not there.
    assert [p for p in context.problems if "status of 404" not in p] == []


def test_the_next_deal_is_a_thumb_away_on_a_small_phone(chromium: Any, real_server: Any) -> None:
    """375 × 667: "Next deal" above the fold on the sheet, the deal's choices on the form."""
    ctx = chromium.new_context(viewport=SMALL_PHONE)
    try:
        page = ctx.new_page()
        record = stored_game(real_server, deals=40, seed=11)
        page.goto(f"{real_server.url}/g/{record.edit_token}")
        enter = page.locator("#next-deal")
        box = enter.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= SMALL_PHONE["height"], box
        assert box["height"] >= TAP
        with page.expect_navigation():
            enter.click()
        # Right after a save the flash message sits above it: still above the fold.
        clean_misere(page, record)
        save_deal(page)
        assert page.locator(".flashes").is_visible()
        box = page.locator("#next-deal").bounding_box()
        assert box and box["y"] + box["height"] <= SMALL_PHONE["height"], box
        shot(page, "small-sheet", full=False)
        # The deal form: what was played, the declarer, the level and the suit without a scroll.
        page.locator("#next-deal").click()
        page.wait_for_selector("#deal-form")
        shot(page, "small-deal-form", full=False)
        # The contract is one tap in a grid that fits too.
        for group in ("kind", "declarer", "contract"):
            box = page.locator(f"#{group} .options").bounding_box()
            assert box and box["y"] + box["height"] <= SMALL_PHONE["height"], (group, box)
    finally:
        ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_is_wcag_aa(chromium: Any, real_server: Any, scheme: str) -> None:
    ctx = chromium.new_context(viewport=PHONE, color_scheme=scheme)
    ctx.set_default_timeout(WAIT_MS)
    try:
        page = ctx.new_page()
        record = stored_game(real_server, seed=3)
        found = {}
        for name, url in screens(real_server.url, record):
            page.goto(url)
            open_everything(page)
            bad = low_contrast(page)
            if bad:
                found[name] = bad
        page.goto(f"{real_server.url}/g/{record.edit_token}")
        shot(page, f"{scheme}-sheet")
        page.goto(f"{real_server.url}/g/{record.edit_token}/deal/new")
        open_everything(page)
        shot(page, f"{scheme}-deal-form")
        assert found == {}
    finally:
        ctx.close()


def test_every_choice_can_be_tapped_in_any_order(context: Any, real_server: Any) -> None:
    """A scorer taps the answers before the contract, or changes the kind of deal midway."""
    record = stored_game(real_server, deals=1, seed=12)
    page = context.new_page()
    page.goto(f"{real_server.url}/g/{record.edit_token}/deal/new")
    tap_choice(page, "kind", "correction")
    tap_choice(page, "kind", "contract")
    declarer = page.locator("#declarer .tap").first.get_attribute("data-value")
    tap_choice(page, "declarer", declarer or "0")
    boxes = page.locator(".answers > fieldset:not([hidden])")
    first, second = boxes.nth(0), boxes.nth(1)
    first.locator('.tap[data-value="pass"]').click()
    assert first.locator('input[value="pass"]').is_checked()
    tap_choice(page, "contract", "7NT")
    second.locator('.tap[data-value="half-whist"]').click()
    assert second.locator('input[value="half-whist"]').is_checked()
    page.wait_for_selector("#save-button:not([disabled])")
    assert "half-whist" in (page.inner_text("#preview") + page.inner_text(".answers"))
    assert context.problems == []


def test_focus_is_always_visible(context: Any, real_server: Any) -> None:
    """Tabbing through the sheet and the deal form, the focused control shows a ring."""
    record = stored_game(real_server, seed=5)
    page = context.new_page()
    for url in (
        f"{real_server.url}/g/{record.edit_token}",
        f"{real_server.url}/g/{record.edit_token}/deal/new",
    ):
        page.goto(url)
        unringed = []
        for _ in range(25):
            page.keyboard.press("Tab")
            ring = page.evaluate(
                """() => {
                  const el = document.activeElement;
                  if (!el || el === document.body) return null;
                  // A radio drawn as a tap target shows its ring on the label's face.
                  const face = el.matches('.tap input') ? el.nextElementSibling : el;
                  const s = getComputedStyle(face);
                  const width = s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth);
                  return [el.id || el.name || el.textContent.trim().slice(0, 20), width];
                }"""
            )
            if ring is not None and ring[1] < 2:
                unringed.append(ring)
        assert unringed == [], url


def test_the_pulka_drawing_has_a_text_alternative(context: Any, real_server: Any) -> None:
    record = stored_game(real_server, seed=9)
    page = context.new_page()
    page.goto(f"{real_server.url}/v/{record.view_token}")
    svg = page.locator(".pulka svg")
    assert svg.get_attribute("role") == "img"
    # The name once (the title), the summary once (the description): each read one time.
    title = page.locator(f'[id="{svg.get_attribute("aria-labelledby")}"]')
    desc = page.locator(f'[id="{svg.get_attribute("aria-describedby")}"]')
    assert title.evaluate("e => e.tagName") == "title"
    assert desc.evaluate("e => e.tagName") == "desc"
    assert title.text_content() == "Evening at the dacha"
    described = desc.text_content() or ""
    assert all(p in described for p in record.players), described
    cdp = context.new_cdp_session(page)
    try:
        node = cdp.send(
            "Accessibility.queryAXTree",
            {"backendNodeId": _backend_id(cdp, ".pulka svg"), "role": "image"},
        )["nodes"][0]
    finally:
        cdp.detach()
    assert node["name"]["value"] == "Evening at the dacha"
    assert node["description"]["value"] == described.strip()


def _backend_id(cdp: Any, selector: str) -> int:
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    return int(cdp.send("DOM.describeNode", {"nodeId": node})["node"]["backendNodeId"])


# -- the screen stays on -------------------------------------------------------------------------

FAKE_WAKE_LOCK = """
window.__locks = 0;
window.__sentinels = [];
Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: {
  request(type) {
    window.__locks += 1;
    const sentinel = new EventTarget();
    sentinel.type = type;
    sentinel.released = false;
    sentinel.release = () => { sentinel.released = true; sentinel.dispatchEvent(new Event('release')); return Promise.resolve(); };
    window.__sentinels.push(sentinel);
    return Promise.resolve(sentinel);
  } } });
"""


def test_the_screen_stays_on_while_a_game_is_open(context: Any, real_server: Any) -> None:
    record = stored_game(real_server, deals=3, seed=2)
    page = context.new_page()
    page.add_init_script(FAKE_WAKE_LOCK)
    page.goto(f"{real_server.url}/")
    assert page.evaluate("window.__locks") == 0  # no game open: the screen may sleep
    page.goto(f"{real_server.url}/v/{record.view_token}")
    page.wait_for_function("window.__locks === 1")
    # Hidden, the browser releases the lock; visible again, the page takes it back.
    page.evaluate(
        """() => {
          Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
          window.__sentinels[0].release();
          document.dispatchEvent(new Event('visibilitychange'));
          Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
          document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    page.wait_for_function("window.__locks === 2")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__locks") == 2  # taken once, not again while held
    assert context.problems == []


@pytest.mark.parametrize(
    "where",
    [
        "delete navigator.wakeLock; delete Navigator.prototype.wakeLock;",
        "Object.defineProperty(navigator, 'wakeLock', { value: { request() {"
        " return Promise.reject(new DOMException('no', 'NotAllowedError')); } } });",
        "Object.defineProperty(navigator, 'wakeLock', { value: { request() {"
        " throw new TypeError('no'); } } });",
    ],
    ids=["unsupported", "refused", "throws"],
)
def test_no_wake_lock_is_no_error(context: Any, real_server: Any, where: str) -> None:
    record = stored_game(real_server, deals=2, seed=4)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(where)
    page.goto(f"{real_server.url}/g/{record.edit_token}")
    page.wait_for_timeout(300)
    assert errors == [] and context.problems == []


# -- live, but never under a thumb --------------------------------------------------------------


def test_a_form_being_filled_is_never_swapped_under_the_thumb(
    chromium: Any, real_server: Any
) -> None:
    """Another phone saves: the sheet follows in place, the deal form keeps what was typed."""
    from playwright.sync_api import expect

    record = stored_game(real_server, deals=30, seed=8)
    contexts = [chromium.new_context(viewport=PHONE) for _ in range(3)]
    try:
        other, typing, watching = (c.new_page() for c in contexts)
        g = f"{real_server.url}/g/{record.edit_token}"
        typing.goto(f"{g}/deal/new")
        tap_choice(typing, "kind", "allpass")
        active = [
            s for s in ("0", "1", "2") if typing.is_visible(f'#trickpad .chip[data-seat="{s}"]')
        ]
        typing.click('#trickpad .num[data-n="3"]')
        watching.goto(g)
        watching.evaluate("window.scrollTo(0, 600)")
        watching.evaluate("window.__same = document.querySelector('main')")
        before = watching.inner_text(".game-head .muted")

        other.goto(f"{g}/deal/new")
        clean_misere(other, record)
        save_deal(other)

        # The sheet that only shows the game swaps in the new deal, scrolled where it was.
        expect(watching.locator(".game-head .muted")).not_to_have_text(before, timeout=LIVE)
        assert "30 deals" in watching.inner_text(".game-head .muted")  # and 1 correction
        assert watching.evaluate("window.__same !== document.querySelector('main')")
        assert abs(watching.evaluate("scrollY") - 600) < 2
        # The form says so, keeps every tap and digit, and a save meets the new sheet.
        expect(typing.locator("#follow-banner")).to_be_visible(timeout=LIVE)
        assert typing.is_checked('#kind input[value="allpass"]')
        assert typing.is_checked(f'#tricks_{active[0]} input[value="3"]')
        shot(typing, "live-banner", full=False)
    finally:
        for c in contexts:
            c.close()


def test_the_language_is_one_tap_away_and_remembered(chromium: Any, real_server: Any) -> None:
    record = stored_game(real_server, deals=5, seed=6)
    ctx = chromium.new_context(
        viewport=PHONE, extra_http_headers={"Accept-Language": "uk-UA,uk;q=0.9"}
    )
    try:
        page = ctx.new_page()
        page.goto(f"{real_server.url}/g/{record.edit_token}")
        assert page.get_attribute("html", "lang") == "uk"  # the phone's language first
        assert page.inner_text("#next-deal") == "Наступна роздача"
        with page.expect_navigation():
            page.locator('.langs a[lang="ru"]').click()
        assert page.url.startswith(f"{real_server.url}/g/{record.edit_token}")
        assert page.inner_text("#next-deal") == "Следующая раздача"
        page.goto(f"{real_server.url}/g/{record.edit_token}/log")
        assert page.get_attribute("html", "lang") == "ru"
        assert page.inner_text("h1") == "Журнал раздач"
        with page.expect_navigation():
            page.locator('.langs a[lang="en"]').click()
        page.goto(f"{real_server.url}/")
        assert page.get_attribute("html", "lang") == "en"
        assert page.locator('.langs a[aria-current="true"]').inner_text() == "EN"
    finally:
        ctx.close()
