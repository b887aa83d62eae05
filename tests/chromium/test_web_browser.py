"""Browser tier: the pages in headless Chromium at phone size, with their JavaScript.

They check what only a browser can: tap-by-tap entry, the live preview, the preset switch,
no horizontal overflow at 375 px, no blocked script or style (CSP) and no console error.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.serving import make_server

from scorekeeper.store import Store

from ..browser import PHONE, no_overflow, watch_console

pytestmark = pytest.mark.browser


@pytest.fixture
def server(app: Flask) -> Iterator[str]:
    """The app served on a free local port for the browser."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        thread.join()
        httpd.server_close()


@pytest.fixture
def store(db_path: Path, app: Flask) -> Iterator[Store]:
    """The app's own database: this file serves the app in a thread, not `scorekeeper serve`
    (whose database is the `store` of this folder's conftest.py)."""
    with Store(db_path) as s:
        yield s


@pytest.fixture
def phone(server: str, chromium) -> Iterator[tuple]:  # type: ignore[no-untyped-def, type-arg]
    """A 375 × 812 page in Chromium, collecting console errors."""
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    problems: list[str] = []
    watch_console(page, problems)
    try:
        yield page, server, problems
    finally:
        context.close()


def new_game(page, server: str, players: list[str], convention: str = "Sochi") -> str:  # type: ignore[no-untyped-def]
    page.goto(f"{server}/new")
    no_overflow(page)
    page.click(f".taps >> text={convention}")
    for i, name in enumerate(players + [""] * (4 - len(players))):
        if page.is_visible(f"#player_{i}"):
            page.fill(f"#player_{i}", name)
    page.click("text=Start the game")
    page.wait_for_url(f"{server}/g/**")
    return page.url.rsplit("/", 1)[-1]


def test_a_deal_tap_by_tap_with_live_preview(phone, store: Store) -> None:  # type: ignore[no-untyped-def]
    page, server, problems = phone
    token = new_game(page, server, ["Anna", "Boris", "Vera"])
    no_overflow(page)
    page.click("text=Next deal")
    page.wait_for_url("**/deal/new?k=*")
    # Nothing but the type and the declarer before a declarer is chosen.
    assert not page.is_visible(".answers")
    assert not page.is_visible(".tricks")
    page.click("#declarer >> text=Anna")
    page.click('#contract .tap[data-value="7S"]')  # one tap for the contract
    # Only Boris and Vera answer, in that order; the first one cannot half-whist.
    answers = page.eval_on_selector_all(
        ".answers > fieldset:not([hidden])", "els => els.map(e => e.id)"
    )
    assert answers == ["answer_1", "answer_2"]
    assert not page.is_visible('#answer_1 .tap[data-value="half-whist"]')
    # Both defenders are preset to whist; the first one passes here.
    assert page.is_checked('#answer_1 input[value="whist"]')
    page.click("#answer_1 >> text=pass")
    assert page.is_visible('#answer_2 .tap[data-value="half-whist"]')
    assert page.is_checked('#answer_2 input[value="whist"]')
    # One whister: only the declarer's tricks are asked, pre-filled as made exactly.
    chips = page.eval_on_selector_all(
        "#trickpad .chip:not([hidden])", "els => els.map(e => e.dataset.seat)"
    )
    assert chips == ["0"]
    assert page.is_checked('#tricks_0 input[value="7"]')
    page.click('#trickpad .num[data-n="8"]')
    page.wait_for_selector("#save-button:not([disabled])")
    assert "Anna: pool +4 (7♠ made)" in page.inner_text("#preview")
    assert "Vera: hill +" not in page.inner_text("#preview")
    no_overflow(page)
    page.click("#save-button")
    page.wait_for_url(f"{server}/g/{token}")
    assert "Deal 1 saved." in page.inner_text("main")
    deals = store.get_game(token).deals
    assert [d.data for d in deals] == [
        {
            "type": "contract",
            "declarer": "Anna",
            "contract": "7S",
            "answers": {"Boris": "pass", "Vera": "whist"},
            "tricks": {"Anna": 8},
        }
    ]
    assert problems == []


def test_all_pass_and_correction_with_the_script(phone, store: Store) -> None:  # type: ignore[no-untyped-def]
    page, server, problems = phone
    token = new_game(page, server, ["Anna", "Boris", "Vera", "Gleb"])
    page.goto(f"{server}/g/{token}/deal/new")
    page.click("#kind >> text=All-pass")
    assert not page.is_visible('#trickpad .chip[data-seat="0"]')  # Anna deals and sits out
    page.click('#trickpad .num[data-n="3"]')  # Boris, the first asked
    page.click('#trickpad .num[data-n="3"]')  # then Vera
    assert page.is_checked('#tricks_3 input[value="4"]')  # Gleb's: they add up to 10
    # A second thought on Boris: the count that was filled in follows.
    page.click('#trickpad .chip[data-seat="1"]')
    page.click('#trickpad .num[data-n="2"]')
    assert page.is_checked('#tricks_3 input[value="5"]')
    page.wait_for_selector("#save-button:not([disabled])")
    page.click("#save-button")
    page.wait_for_url(f"{server}/g/{token}")
    page.goto(f"{server}/g/{token}/deal/new")
    page.click("#kind >> text=Correction")
    assert page.is_visible("#reason")
    assert page.is_visible('[data-row="0"]') and not page.is_visible('[data-row="1"]')
    page.fill("#reason", "renonce")
    assert not page.is_visible("#corr_on_0")
    page.click("#corr_player_0 >> text=Gleb")
    page.click("#corr_column_0 .tap[data-value=whists]")
    assert page.is_visible("#corr_on_0")
    page.click("#corr_on_0 >> text=Anna")
    # The minus key on the page, then the digits on the number keypad.
    assert page.get_attribute("#corr_amount_0", "inputmode") == "decimal"
    page.click('[data-minus="corr_amount_0"]')
    page.keyboard.type("5")
    assert page.input_value("#corr_amount_0") == "-5"
    assert not page.is_visible('[data-row="1"]')  # one more row when asked for
    page.click("#more-rows")
    assert page.is_visible('[data-row="1"]')
    page.wait_for_selector("#save-button:not([hidden])")
    page.wait_for_selector("#save-button:not([disabled])")
    assert "Gleb writes −5 whists on Anna" in page.inner_text("#preview")
    page.click("#save-button")
    page.wait_for_url(f"{server}/g/{token}")
    types = [d.data["type"] for d in store.get_game(token).deals]
    assert types == ["allpass", "correction"]
    assert problems == []


def test_switching_the_preset_updates_the_shown_options(phone, store: Store) -> None:  # type: ignore[no-untyped-def]
    page, server, problems = phone
    page.goto(f"{server}/new")
    page.click("summary")
    page.fill("#opt_pool_target", "20")
    assert page.is_visible("#changed") and "Pool target: 20 (10)" in page.inner_text("#changed")
    assert page.input_value("#opt_pool_whists") == "10"
    page.click(".taps >> text=Leningrad")
    # A new convention: every option is its preset's, the house rule typed before included.
    assert page.input_value("#opt_pool_whists") == "20"
    assert page.input_value("#opt_allpass_exit") == "7"
    assert page.input_value("#opt_pool_target") == "10"
    assert not page.is_visible("#changed")
    page.click(".taps >> text=Hussar")
    assert not page.is_visible("#player_2")
    # Options that cannot apply to Hussar are not shown.
    for hidden in ("#opt_half_whist-0", "#opt_dealer_consolation", "#opt_allpass_price"):
        assert not page.is_visible(hidden), hidden
    assert page.is_visible("#opt_whist_scale")
    page.fill("#opt_pool_target", "20")
    page.fill("#player_0", "Anna")
    page.fill("#player_1", "Boris")
    assert page.is_visible(".dealer >> text=Boris")
    page.click("text=Start the game")
    page.wait_for_url(f"{server}/g/**")
    game = store.get_game(page.url.rsplit("/", 1)[-1])
    assert game.convention == "hussar" and game.players == ["Anna", "Boris"]
    assert game.options["pool_target"] == 20 and game.options["end"] == "first_closed"
    assert problems == []


def test_pages_fit_a_phone_and_break_no_rule(phone) -> None:  # type: ignore[no-untyped-def]
    page, server, problems = phone
    players = ["Anna-Maria Konstantinopolskaya", "Boris", "Vera", "Gleb"]
    token = new_game(page, server, players)
    page.goto(f"{server}/g/{token}/deal/new")
    page.click("#kind >> text=Misère")
    page.click("#declarer >> text=Boris")
    assert page.is_checked('#tricks_1 input[value="0"]')  # a misère made, pre-filled
    page.wait_for_selector("#save-button:not([disabled])")
    page.click("#save-button")
    page.wait_for_url(f"{server}/g/{token}")
    for path in ["", "/log", "/settlement", "/history", "/deal/new", "/undo"]:
        page.goto(f"{server}/g/{token}{path}")
        no_overflow(page)
    page.goto(f"{server}/")
    no_overflow(page)
    assert problems == []  # a CSP violation is reported as a console error


def test_five_players_and_a_house_rule_set_by_taps(phone, store: Store) -> None:  # type: ignore[no-untyped-def]
    page, server, problems = phone
    page.goto(f"{server}/new")
    for i, name in enumerate(["Anna", "Boris", "Vera", "Gleb", "Dasha"]):
        page.fill(f"#player_{i}", name)
    assert page.is_visible(".dealer >> text=Dasha")
    page.click("text=Sochi, no all-pass progression")
    page.wait_for_load_state()
    assert page.input_value("#player_4") == "Dasha"  # the names typed are kept
    page.click("summary")
    assert page.input_value("#opt_allpass_progression") == "1"
    assert page.input_value("#opt_hill_divisor") == "opponents"
    page.fill("#opt_round_limit", "2")
    page.fill("#opt_money_unit", "1")
    no_overflow(page)
    page.press("#opt_money_unit", "Enter")  # Enter starts the game, not a house-rule set
    page.wait_for_url(f"{server}/g/**")
    game = store.get_game(page.url.rsplit("/", 1)[-1])
    assert game.players == ["Anna", "Boris", "Vera", "Gleb", "Dasha"]
    assert game.options["hill_divisor"] == "opponents"
    assert game.options["round_limit"] == 2 and game.options["money_unit"] == "1"
    text = page.inner_text("main")
    assert "Sitting out: Anna, Boris." in text
    assert "Round 1 of 2, deal 1 of 5" in text
    assert page.locator(".pulka-sector").count() == 5
    no_overflow(page)
    assert problems == []


def test_the_first_page_brings_its_stylesheet_and_the_next_ones_link_it(phone) -> None:  # type: ignore[no-untyped-def]
    page, server, problems = phone
    page.goto(f"{server}/new", wait_until="load")
    # The first page carried the stylesheet (no round trip for it), allowed by the CSP.
    assert page.locator("style[data-keep]").count() == 1
    assert page.locator("link[rel=stylesheet]").count() == 0
    styled = page.eval_on_selector(".bar", "el => getComputedStyle(el).backgroundColor")
    assert styled not in ("rgba(0, 0, 0, 0)", "transparent")  # the sheet applied
    # Once loaded, the script fetched the file into the cache and said so in a cookie...
    page.wait_for_function("() => document.cookie.includes('sk_style=')")
    version = page.get_attribute("style[data-keep]", "data-version")
    assert f"sk_style={version}" in page.evaluate("document.cookie")
    # ...so the next page links it, from the cache, and looks the same.
    page.goto(f"{server}/", wait_until="load")
    assert page.locator("style[data-keep]").count() == 0
    assert page.locator("link[rel=stylesheet]").count() == 1
    assert page.eval_on_selector(".bar", "el => getComputedStyle(el).backgroundColor") == styled
    cached = page.evaluate(
        "() => performance.getEntriesByType('resource')"
        ".filter(e => e.name.includes('/static/app.css')).map(e => e.transferSize)"
    )
    assert cached == [0]  # served from the browser's cache, not the network
    assert problems == []  # no CSP violation, no script error
