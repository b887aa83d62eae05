"""Browser tier: a Balkan partija by taps at 375 × 667 — a refa in one tap from the sheet
("dalje"), a followed contract in six taps from the sheet with its preview in words — and the
sheet the page draws is the one `gamefile_balkan` scores from what was saved."""

from __future__ import annotations

from typing import Any

from scorekeeper import balkan, gamefile_balkan, games, report_balkan
from scorekeeper.store import Store

from ..browser import no_overflow, shot

PLAYERS = ["Ana", "Boža", "Ceca"]


def _new_balkan_game(page: Any, server: str) -> str:
    page.goto(f"{server}/new")
    page.locator('#family .tap[data-value="balkan"]').click()
    for i, name in enumerate(PLAYERS + ["", ""]):
        if page.is_visible(f"#player_{i}"):
            page.fill(f"#player_{i}", name)
    page.locator("#new-game button[type=submit]").first.click()
    page.wait_for_url(f"{server}/g/**")
    return str(page.url.rsplit("/", 1)[-1].split("?")[0])


def test_a_refa_and_a_followed_contract_by_taps(phone: Any, store: Store) -> None:
    page, server, problems = phone
    token = _new_balkan_game(page, server)
    taps = 0

    page.locator("#dalje").click()  # a refa: one tap on the sheet
    taps += 1
    page.wait_for_selector(".bk-lines li")
    assert taps == 1 and len(store.get_game(token).deals) == 1

    taps = 0
    page.locator("#next-deal").click()
    page.wait_for_selector("#deal-form[data-draft]")
    no_overflow(page)
    dealer_right = page.locator("#declarer .tap").first.get_attribute("data-value")
    declarer = str(dealer_right)
    for group, value in (("declarer", declarer), ("contract", "herc")):
        page.locator(f'#{group} .tap[data-value="{value}"]').click()
    pads = page.locator(".bk-pad")
    mine = pads.filter(has=page.locator(f'xpath=self::*[@data-player="{declarer}"]'))
    mine.locator('.tap[data-value="6"]').click()
    other = pads.filter(has_not=page.locator(f'xpath=self::*[@data-player="{declarer}"]')).first
    other.locator('.tap[data-value="3"]').click()
    taps += 5
    page.wait_for_selector("#preview strong")
    page.reload()  # the deal is kept on the phone until Save: a reload puts it back
    page.wait_for_selector("#deal-form[data-draft]")
    for group, value in (("declarer", declarer), ("contract", "herc")):
        assert page.is_checked(f'#{group} input[value="{value}"]'), group
    page.wait_for_selector("#preview strong")
    said = page.inner_text("#preview")
    assert "2 × 4" in said, said  # the unit 2·V·M, in words
    shot(page, "balkan-deal-375x667")
    page.locator("#save-button").click()
    taps += 1
    page.wait_for_url(f"{server}/g/{token}")
    assert taps == 6
    shot(page, "balkan-sheet-375x667")
    no_overflow(page)

    record = store.get_game(token)
    game = gamefile_balkan.load(games.file_data(record))
    want = report_balkan.score_report(balkan.replay(game)[0], with_settlement=True)
    assert [d.data["type"] for d in record.deals] == ["refa", "played"]
    text = page.inner_text("main").replace("−", "-")
    for name in PLAYERS:
        assert want["sheet"][name]["bule"] in text
    for pay in want["settlement"]["payments"]:
        assert f"{pay['from']} → {pay['to']}" in text
    assert not problems, problems


def test_the_paper_and_the_deal_form_fit_small_phones(chromium: Any, real_server: Any) -> None:
    from ..browser import text_scale

    for width, height, scale in ((320, 568, 1.0), (360, 640, 1.5)):
        context = chromium.new_context(viewport={"width": width, "height": height})
        text_scale(context, scale)
        page = context.new_page()
        try:
            token = _new_balkan_game(page, real_server.url)
            page.locator("#dalje").click()
            page.wait_for_selector(".bk-lines li")
            no_overflow(page)
            shot(page, f"balkan-sheet-{width}x{height}")
            page.locator("#next-deal").click()
            page.wait_for_selector("#deal-form[data-draft]")
            no_overflow(page)
            shot(page, f"balkan-deal-{width}x{height}", full=False)
            assert token
        finally:
            context.close()
