"""Browser tier, 375 × 667: the new game form once Balkan is chosen shows only Balkan choices
(its presets and options, three or four seats) — no Russian convention, no «four or five
players», no «Sochi: pool, money…» fold, no list of changes from a Russian preset; and that
list, for a Russian game, writes numbers as the page's language does (0,1 in Russian)."""

from __future__ import annotations

from typing import Any

import pytest

from ..browser import no_overflow, shot

RUSSIAN_ONLY = ("#convention", "details.house", ".players > .help")


@pytest.mark.parametrize("lang", ["ru", "sr_Latn"])
def test_balkan_chosen_shows_only_balkan_choices(phone: Any, lang: str) -> None:
    page, server, problems = phone
    page.goto(f"{server}/new?lang={lang}")
    for selector in (*RUSSIAN_ONLY, "#player_4"):
        assert page.locator(selector).first.is_visible(), selector
    assert not page.locator("#balkan-rules").is_visible()
    page.locator('#family .tap[data-value="balkan"]').click()
    page.wait_for_selector("#balkan-rules", state="visible")
    for selector in (*RUSSIAN_ONLY, "#player_4", "#changed", ".house-sets"):
        assert not page.locator(selector).first.is_visible(), selector
    assert page.locator("#balkan_preset").is_visible()
    assert page.locator("#player_3").is_visible()
    assert page.locator("#player_4").is_disabled()  # a fifth name is not sent
    help_text = page.inner_text("#balkan-rules .help")
    assert help_text and "5" not in help_text
    no_overflow(page)
    shot(page, f"balkan-new-{lang}-375x667")
    page.locator('#family .tap[data-value="russian"]').click()
    assert page.locator("#player_4").is_visible() and page.locator("#convention").is_visible()
    assert problems == []


def test_the_changes_from_the_preset_write_numbers_in_the_language(phone: Any) -> None:
    page, server, problems = phone
    page.goto(f"{server}/new?lang=ru")
    page.locator("details.house summary").click()
    page.fill("#opt_stake", "0.1")
    page.wait_for_selector("#changed li")
    said = page.inner_text("#changed li")
    assert "0,1" in said and "0.1" not in said, said
    assert problems == []


def test_the_deal_form_heading_counts_a_correction_among_corrections(phone: Any) -> None:
    """After a refa, a new entry is deal 2; tapped as a correction it is correction 1 (as the
    history will name it), and back to deal 2."""
    page, server, problems = phone
    page.goto(f"{server}/new?lang=hr")
    page.locator('#family .tap[data-value="balkan"]').click()
    for i, name in enumerate(["Ana", "Boža", "Ceca"]):
        page.fill(f"#player_{i}", name)
    page.locator("#new-game button[type=submit]").first.click()
    page.wait_for_url(f"{server}/g/**")
    page.locator("#dalje").click()
    page.wait_for_selector(".bk-lines li")
    page.locator("#next-deal").click()
    page.wait_for_selector("#deal-form[data-draft]")
    assert page.inner_text("#deal-title").strip() == "Dijeljenje 2"
    page.locator('#type .tap[data-value="correction"]').click()
    assert page.inner_text("#deal-title").strip() == "Ispravak 1"
    page.locator('#type .tap[data-value="played"]').click()
    assert page.inner_text("#deal-title").strip() == "Dijeljenje 2"
    assert problems == []
