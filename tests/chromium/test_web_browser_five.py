"""Browser tier: a five-player evening, a penalty and Stalingrad by taps at 375 × 667.

The deal form offers only the three active players of each deal (the dealer and the next
dealer sit out), every kind fits one screen with Save and the preview in view, the taps stay
within issue 9's bars, and the settlement the page shows is what `scorekeeper score --settle`
says of the downloaded game file. Screenshots (light and dark, English and Russian) go to
tests/artifacts/.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import enter_deal, new_game, no_overflow, save_deal, shot, small_targets
from .test_web_browser_evening import download, settlement_from_the_cli, settlement_on_the_page
from .test_web_browser_table import everything_in_view, open_form

pytestmark = pytest.mark.browser

FIVE = ["Anna", "Boris", "Vera", "Gleb", "Dasha"]


def active_of(deal_index: int) -> list[str]:
    """The three who play deal `deal_index` (0-based, passing deals only) of FIVE, Anna first
    to deal: everybody but the dealer and the next dealer."""
    out = {deal_index % 5, (deal_index + 1) % 5}
    return [p for i, p in enumerate(FIVE) if i not in out]


def offered_declarers(page: Any) -> list[str]:
    """The names the declarer row offers, as the scorer sees them."""
    taps = page.locator("#declarer .tap")
    return [
        FIVE[int(str(taps.nth(i).get_attribute("data-value")))]
        for i in range(taps.count())
        if taps.nth(i).is_visible()
    ]


def fits(page: Any, name: str) -> None:
    """One screen, nothing sideways, every control big enough; screenshots light and dark."""
    no_overflow(page)
    everything_in_view(page)
    assert small_targets(page) == [], name
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(page, f"five-{name}-{scheme}", full=False)
    page.emulate_media(color_scheme="light")


def kinds_fit_one_row(page: Any) -> None:
    """The kinds row: every kind's label on one line inside its button, the row in view."""
    broken = page.evaluate(
        """() => Array.from(document.querySelectorAll('#kind .tap')).filter(t => t.offsetParent)
             .filter(t => t.scrollWidth > t.clientWidth + 1
                          || t.getBoundingClientRect().right > innerWidth)
             .map(t => t.textContent.trim())"""
    )
    assert broken == [], f"kind labels cut off: {broken}"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_five_player_evening_by_taps(phone: Any, store: Store, tmp_path: Path, lang: str) -> None:
    page, server, problems = phone
    token = new_game(page, server, FIVE, lang=lang)
    taps: dict[str, int] = {}
    three_deals(page, server, token, lang, taps)
    a_penalty(page, server, token, lang, taps)
    the_penalty_opens_as_entered(page, server, store, token, lang)
    a_misere_and_the_game_page(page, server, token, lang, taps)
    the_settlement_is_the_clis(page, server, token, lang, tmp_path)
    assert problems == []


def three_deals(page: Any, server: str, token: str, lang: str, taps: dict[str, int]) -> None:
    """Each deal offers its three active players only; each kind fits one screen."""
    # Deal 1: Anna deals, Anna and Boris sit out. Vera 7♠, Gleb whists, Dasha passes.
    open_form(page, server, token)
    assert offered_declarers(page) == active_of(0)
    kinds = page.locator("#kind .tap").evaluate_all(
        "ts => ts.filter(t => t.offsetParent).map(t => t.dataset.value)"
    )
    assert kinds == ["contract", "misere", "allpass", "penalty", "correction"]
    kinds_fit_one_row(page)
    enter_deal(
        page,
        FIVE,
        "contract",
        declarer="Vera",
        contract="7S",
        answers={"Dasha": "pass"},
        tricks={"Vera": 7},
    )
    fits(page, f"{lang}-one-whister")
    taps["contract, one whister"] = page.taps + 1
    save_deal(page)

    # Deal 2: Boris deals, Boris and Vera sit out. Gleb 6♦, both whist.
    open_form(page, server, token)
    assert offered_declarers(page) == active_of(1)
    enter_deal(
        page,
        FIVE,
        "contract",
        declarer="Gleb",
        contract="6D",
        tricks={"Gleb": 6, "Dasha": 2, "Anna": 2},
    )
    fits(page, f"{lang}-two-whisters")
    taps["contract, two whisters"] = page.taps + 1
    save_deal(page)

    # Deal 3: Vera deals, Vera and Gleb sit out. All pass among Dasha, Anna and Boris.
    open_form(page, server, token)
    assert offered_declarers(page) == active_of(2)
    enter_deal(page, FIVE, "allpass", tricks={"Dasha": 4, "Anna": 3, "Boris": 3})
    chips = page.locator("#trickpad .chip").evaluate_all(
        "cs => cs.filter(c => !c.hidden).map(c => Number(c.dataset.seat))"
    )
    assert sorted(chips) == sorted(FIVE.index(p) for p in active_of(2))
    fits(page, f"{lang}-allpass")
    taps["all-pass"] = page.taps + 1
    save_deal(page)


def a_penalty(page: Any, server: str, token: str, lang: str, taps: dict[str, int]) -> None:
    # A penalty: Anna fined the size of a 7♥. It does not pass the deal.
    open_form(page, server, token)
    page.locator('#kind .tap[data-value="penalty"]').click()
    assert page.inner_text("#deal-title") == {"en": "Penalty 1", "ru": "Штраф 1"}[lang]
    page.locator('#offender .tap[data-value="0"]').click()
    page.locator('#contract .tap[data-value="7H"]').click()
    page.wait_for_selector("#save-button:not([disabled])")
    assert page.is_visible("#contract-chip")
    fits(page, f"{lang}-penalty")
    taps["penalty"] = 1 + 3 + 1  # Next deal, kind, offender, contract, Save
    save_deal(page)
    assert {"en": "Penalty 1 saved.", "ru": "Штраф 1 записан."}[lang] in page.inner_text(".flashes")


def the_penalty_opens_as_entered(
    page: Any, server: str, store: Store, token: str, lang: str
) -> None:
    # The penalty opens again for an edit as it was entered.
    record = store.get_game(token)
    assert record.deals[-1].data == {"type": "penalty", "player": "Anna", "contract": "7H"}
    page.goto(f"{server}/g/{token}/deal/{record.deals[-1].id}/edit")
    assert page.is_checked('#kind input[value="penalty"]')
    assert page.is_checked('#offender input[value="0"]')
    assert page.is_checked('#contract input[value="7H"]')
    assert page.is_visible("#contract-chip") and "7" in page.inner_text("#contract-chip")
    assert page.is_hidden("#declarer")
    assert (
        page.inner_text("#deal-title") == {"en": "Edit penalty 1", "ru": "Изменить штраф 1"}[lang]
    )
    # Its preview comes by itself and Save is ready: nothing to re-tap to keep it as it is.
    page.wait_for_selector("#save-button:not([disabled])")
    assert "Anna" in page.inner_text("#preview")
    fits(page, f"{lang}-penalty-edit")
    # Turned into a deal on the edit page, the title follows; back to the penalty, it follows.
    page.locator('#kind .tap[data-value="contract"]').click()
    assert page.inner_text("#deal-title") == {"en": "Edit deal 4", "ru": "Изменить раздачу 4"}[lang]
    page.locator('#kind .tap[data-value="penalty"]').click()
    assert (
        page.inner_text("#deal-title") == {"en": "Edit penalty 1", "ru": "Изменить штраф 1"}[lang]
    )


def a_misere_and_the_game_page(
    page: Any, server: str, token: str, lang: str, taps: dict[str, int]
) -> None:
    # Deal 4: Gleb deals still (the penalty passed nothing): Anna, Boris, Vera. Anna's misère.
    open_form(page, server, token)
    assert offered_declarers(page) == active_of(3)
    enter_deal(page, FIVE, "misere", declarer="Anna", tricks={"Anna": 0})
    fits(page, f"{lang}-misere")
    taps["misère"] = page.taps + 1
    save_deal(page)

    # The game page of a five-player game.
    page.goto(f"{server}/g/{token}")
    no_overflow(page)
    assert small_targets(page) == []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(page, f"five-{lang}-game-{scheme}", full=True)
    page.emulate_media(color_scheme="light")

    print(f"five players ({lang}): " + ", ".join(f"{k} {v} taps" for k, v in taps.items()))
    assert taps["contract, one whister"] <= 6 and taps["contract, two whisters"] <= 6
    assert taps["all-pass"] <= 5 and taps["misère"] <= 6 and taps["penalty"] <= 6


def the_settlement_is_the_clis(page: Any, server: str, token: str, lang: str, where: Path) -> None:
    # Finish; the settlement on the page is the CLI's of the downloaded game file.
    with page.expect_navigation():
        page.locator(".finish-now button").click()
    with page.expect_navigation():
        page.locator("#finish-confirm button.primary").click()
    with page.expect_navigation():
        page.locator(".finished a[href$='/settlement']").click()
    no_overflow(page)
    on_page = settlement_on_the_page(page, lang)
    page.goto(f"{server}/g/{token}")
    game_file = download(page, ".links a[href$='/game.json']", where)
    data = json.loads(game_file.read_text())
    assert [d["type"] for d in data["deals"]] == [
        "contract",
        "contract",
        "allpass",
        "penalty",
        "misere",
    ]
    assert on_page == settlement_from_the_cli(game_file)
    assert sum(on_page["net"].values()) == 0


def stalingrad_game(page: Any, server: str, lang: str) -> str:
    """A three-player Sochi game with Stalingrad on, started by taps."""
    page.goto(f"{server}/new?lang={lang}")
    page.locator('#convention .tap[data-value="sochi"]').click()
    for i, name in enumerate(FIVE[:3]):
        page.fill(f"#player_{i}", name)
    page.locator("details.house summary").click()
    page.locator("#opt_stalingrad").check()
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_url(f"{server}/g/**")
    return str(page.url.rsplit("/", 1)[-1].split("?")[0])


def offered_answers(page: Any, player: str) -> list[str]:
    box = page.locator(f"#answer_{FIVE.index(player)} .tap")
    return [
        str(box.nth(i).get_attribute("data-value"))
        for i in range(box.count())
        if box.nth(i).is_visible()
    ]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_stalingrad_six_of_spades_is_whisted_by_both(phone: Any, store: Store, lang: str) -> None:
    page, server, problems = phone
    token = stalingrad_game(page, server, lang)
    open_form(page, server, token)
    enter_deal(
        page,
        FIVE[:3],
        "contract",
        declarer="Anna",
        contract="6S",
        tricks={"Anna": 6, "Boris": 2, "Vera": 2},
    )
    assert offered_answers(page, "Boris") == ["whist"]
    assert offered_answers(page, "Vera") == ["whist"]
    assert page.is_checked('#answer_1 input[value="whist"]')
    assert page.is_checked('#answer_2 input[value="whist"]')
    fits(page, f"{lang}-stalingrad-6S")
    # 6♣ is an ordinary six: a defender may pass.
    page.locator("#contract-chip").click()
    page.locator('#contract .tap[data-value="6C"]').click()
    assert "pass" in offered_answers(page, "Boris")
    assert "pass" in offered_answers(page, "Vera")
    page.locator('#answer_2 .tap[data-value="pass"]').click()
    page.wait_for_selector("#save-button:not([disabled])")
    save_deal(page)
    assert store.get_game(token).deals[0].data["answers"] == {"Boris": "whist", "Vera": "pass"}
    assert problems == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_hussar_deal_form_in_one_screen(phone: Any, lang: str) -> None:
    page, server, problems = phone
    token = new_game(page, server, FIVE[:2], convention="hussar", lang=lang)
    open_form(page, server, token)
    enter_deal(page, FIVE[:2], "contract", declarer="Anna", contract="7H", tricks={"Anna": 7})
    fits(page, f"{lang}-hussar")
    taps = page.taps + 1
    print(f"Hussar contract ({lang}): {taps} taps")
    assert taps <= 6
    save_deal(page)
    assert problems == []
