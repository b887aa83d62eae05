"""Browser tier: the server's clock proposes the dates (issue 50, item 3). A phone whose
clock is three days ahead, and one a year behind, open a company's new evening: the date
proposed is the server's today in the table's time zone (the browser's), Start is not
refused over a date nobody typed and the evening is recorded on that day; the phone is told
once that its clock is not right."""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from scorekeeper.store import Store
from scorekeeper.store.companies import Companies

from ..browser import SMALL_PHONE, shot
from .test_web_browser_company import served_company

pytestmark = pytest.mark.browser

ZONE = "Asia/Tokyo"  # far from the server's UTC: its today is the table's, not the machine's
SKEWS = {"3 days ahead": datetime.timedelta(days=3), "a year behind": -datetime.timedelta(days=365)}


@pytest.mark.parametrize("skew", list(SKEWS), ids=["ahead", "behind"])
def test_a_phone_clock_set_wrong_never_decides_an_evenings_date(
    chromium: Any, real_server: Any, skew: str
) -> None:
    company = served_company(real_server)
    context = chromium.new_context(viewport=SMALL_PHONE, timezone_id=ZONE)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.clock.install(time=datetime.datetime.now(datetime.UTC) + SKEWS[skew])
    try:
        page.goto(f"{real_server.url}/c/{company.edit_token}")  # tz.js keeps the zone
        before = datetime.datetime.now(ZoneInfo(ZONE)).date().isoformat()
        with page.expect_navigation():
            page.locator("#new-evening").click()
        today = page.input_value("#played_on")
        assert today in (before, datetime.datetime.now(ZoneInfo(ZONE)).date().isoformat())
        page.wait_for_selector("#clock-note")
        said = page.inner_text("#clock-note")
        assert "clock is not right" in said, said
        shot(page, f"clock-{skew.replace(' ', '-')}", full=False)
        # Told once: the next page says nothing more.
        page.reload()
        page.wait_for_load_state("networkidle")
        assert page.locator("#clock-note").count() == 0
        with page.expect_navigation():
            page.locator("#start-evening").click()
        assert "/g/" in page.url, page.inner_text("main")[:400]
        with Store(real_server.db) as store:
            games = Companies(store).get(company.edit_token).games
        assert max(g.played_on for g in games) == today
    finally:
        context.close()
    assert problems == []
