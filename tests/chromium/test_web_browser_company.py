"""Browser tier: a company at a phone's size, on the real server — a second evening started
in two taps, played, finished, and the standings updated; nothing of it on another phone."""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

from scorekeeper import gamefile, sample
from scorekeeper.games import create_from_game
from scorekeeper.rules import resolve_options
from scorekeeper.store import Store
from scorekeeper.store.companies import Companies, CompanyRecord

from ..browser import (
    SMALL_PHONE,
    WAIT_MS,
    enter_deal,
    no_overflow,
    save_deal,
    shot,
    small_targets,
    sticking_out,
    unnamed_controls,
)
from ..helpers import money_of

pytestmark = pytest.mark.browser

ROSTER = ["Anna", "Boris", "Vera", "Gleb"]


def served_company(server: Any) -> CompanyRecord:
    """A company with one finished evening, put straight into the served database."""
    data = sample.random_game(
        random.Random(5), 15, convention="sochi", players=3, options={"pool_target": 500}
    )
    data["finished"] = True  # sample players are Anna, Boris and Vera
    with Store(server.db) as store:
        companies = Companies(store)
        company = companies.create(
            name="Fridays",
            convention="sochi",
            options=resolve_options("sochi", {"stake": "0.5"})[0].to_json(),
            roster=ROSTER,
        )
        game = create_from_game(store, gamefile.load(data))
        ids = {p.name: p.id for p in company.roster}
        day = datetime.date.today().isoformat()
        companies.attach(
            company.edit_token, game.id, {n: ids[n] for n in data["players"]}, played_on=day
        )
        return companies.get(company.edit_token)


def money_now(server: Any, token: str) -> dict[str, Decimal]:
    """Each roster player's money over the finished games, summed from their settlements."""
    with Store(server.db) as store:
        return money_of(store, token)


@pytest.fixture
def phone(chromium: Any) -> Iterator[Any]:
    """A fresh phone at 375 × 667."""
    ctx = chromium.new_context(viewport=SMALL_PHONE)
    ctx.set_default_timeout(WAIT_MS)
    try:
        yield ctx.new_page()
    finally:
        ctx.close()


def row(page: Any, player: str) -> Any:
    return page.locator(f'table.standings tr[data-player="{player}"]')


def test_second_evening_in_two_taps_and_the_standings_follow(real_server, phone, chromium):
    company = served_company(real_server)
    url = f"{real_server.url}/c/{company.edit_token}"
    the_company_page_fits_the_phone(phone, url)
    game = start_the_second_evening_in_two_taps(phone, real_server)
    play_a_deal_and_finish(phone, game)
    the_standings_follow(phone, url, real_server, company.edit_token)
    the_chart_follows_the_dark_theme(chromium, url)
    a_fresh_phone_sees_nothing_of_the_company(chromium, real_server, company)


def the_company_page_fits_the_phone(phone: Any, url: str) -> None:
    """The company's page at a phone's size, one evening played."""
    phone.goto(url)
    shot(phone, "company-light")
    no_overflow(phone)
    assert sticking_out(phone) == []
    assert small_targets(phone) == []
    assert unnamed_controls(phone) == []
    shot(phone, "company-light")
    assert row(phone, "Anna").get_attribute("data-evenings") == "1"


def start_the_second_evening_in_two_taps(phone: Any, server: Any) -> Any:
    """New evening (the last evening's players are ticked), Start: the game it made."""
    taps = 0
    with phone.expect_navigation():
        phone.locator("#new-evening").click()  # the last evening's players are ticked
    taps += 1
    no_overflow(phone)
    shot(phone, "company-evening")
    with phone.expect_navigation():
        phone.locator("#start-evening").click()
    taps += 1
    assert taps == 2 and "/g/" in phone.url
    game_token = phone.url.rsplit("/", 1)[-1]
    with Store(server.db) as store:
        game = store.get_game(game_token)
    assert sorted(game.players) == ["Anna", "Boris", "Vera"]
    assert game.options["stake"] == "0.5"  # the company's stake, not a default
    return game


def play_a_deal_and_finish(phone: Any, game: Any) -> None:
    """One contract played and saved (the chart draws it), then the evening finished."""
    phone.locator("#next-deal").click()
    phone.wait_for_selector("#deal-form")
    others = [p for p in game.players if p != "Anna"]
    enter_deal(
        phone,
        list(game.players),
        "contract",
        declarer="Anna",
        contract="6S",
        answers={p: "pass" for p in others},
    )
    save_deal(phone)
    shot(phone, "company-game-chart")
    assert phone.locator(".chart-box svg polyline").count() >= 3
    with phone.expect_navigation():
        phone.locator(".finish-now button").click()
    with phone.expect_navigation():  # Finish asks first
        phone.locator("#finish-confirm button[type=submit]").click()


def the_standings_follow(phone: Any, url: str, server: Any, token: str) -> None:
    """Back on the company's page: two evenings each, and Anna's money as settled."""
    phone.goto(url)
    expected = money_now(server, token)
    assert row(phone, "Anna").get_attribute("data-evenings") == "2"
    assert row(phone, "Boris").get_attribute("data-evenings") == "2"
    money = row(phone, "Anna").locator("td").nth(1).inner_text()
    shown = money.replace("−", "-").replace("+", "").replace(",", "")
    assert Decimal(shown) == expected["Anna"]
    shot(phone, "company-after")
    phone.goto(url + "?lang=ru")
    no_overflow(phone)  # the longer Russian words still fit a phone
    assert sticking_out(phone) == []
    shot(phone, "company-ru")


def the_chart_follows_the_dark_theme(chromium: Any, url: str) -> None:
    dark = chromium.new_context(viewport=SMALL_PHONE, color_scheme="dark")
    try:
        page = dark.new_page()
        page.goto(url)
        shot(page, "company-dark")
        stroke = page.evaluate(
            "getComputedStyle(document.querySelector('.chart-box .chart text')).fill"
        )
        assert stroke != "rgb(34, 34, 34)"  # the chart's text follows the dark theme
    finally:
        dark.close()


def a_fresh_phone_sees_nothing_of_the_company(
    chromium: Any, server: Any, company: CompanyRecord
) -> None:
    fresh = chromium.new_context(viewport=SMALL_PHONE)
    try:
        page = fresh.new_page()
        page.goto(f"{server.url}/")
        html = page.content()
        assert "Fridays" not in html and company.edit_token not in html
        assert company.view_token not in html
        page.goto(f"{server.url}/new")
        assert "Anna" not in page.content()
    finally:
        fresh.close()
