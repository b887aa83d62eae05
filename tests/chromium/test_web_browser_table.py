"""Browser tier: the deal at the table at 375 × 667 — taps, one screen, one round trip,
never lost.

Measured here and printed (the numbers go into the closing note): taps per deal kind,
keystrokes, whether the preview and Save are in view without scrolling, and the time from
Save to the new sheet. The bars themselves (≤ 6 taps for a contract, …) are asserted on
counts, never on time.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import WAIT_MS, enter_deal, new_game, save_deal, shot
from ..harness import DealWords

pytestmark = pytest.mark.browser

THREE = ["Anna", "Boris", "Vera"]
#: The deal these tests tap in: Anna plays 6♠, Vera passes, Anna takes six.
ANNA_SIX: DealWords = {
    "declarer": "Anna",
    "contract": "6S",
    "answers": {"Vera": "pass"},
    "tricks": {"Anna": 6},
}
FOUR = ["Anna", "Boris", "Vera", "Gleb"]


def in_view(page: Any, selector: str) -> bool:
    """The element is fully inside the viewport as it stands (nothing scrolled)."""
    return bool(
        page.evaluate(
            """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
               return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; }""",
            selector,
        )
    )


def open_form(page: Any, server: str, token: str) -> None:
    page.goto(f"{server}/g/{token}")
    page.locator("#next-deal").click()
    page.wait_for_url("**/deal/new?k=*")
    page.taps = 1  # the "Next deal" tap


def everything_in_view(page: Any) -> None:
    assert page.evaluate("scrollY") == 0
    # Every visible control of the form is on screen: nothing to scroll to.
    below = page.evaluate(
        """() => Array.from(document.querySelectorAll('#deal-form label.tap, #deal-form button,'
             + ' #deal-form select, #deal-form textarea, #deal-form input:not([type=hidden]):not([type=radio])'))
             .filter(e => !e.closest('[hidden]') && e.offsetParent !== null)
             // A second correction row is asked for below the first, scrolled to when needed.
             .filter(e => e.id !== 'more-rows')
             .filter(e => { const r = e.getBoundingClientRect();
                            // Under the sticky bar counts as off screen: a thumb cannot reach it.
                            const bar = document.querySelector('#deal-bar').getBoundingClientRect();
                            const limit = e.closest('#deal-bar') ? innerHeight : bar.top;
                            return r.height > 0 && (r.bottom > limit + 1 || r.top < 0); })
             .map(e => (e.id || e.name || e.textContent).trim().slice(0, 20))"""
    )
    assert below == [], f"off screen: {below}"
    assert in_view(page, "#preview")
    assert in_view(page, "#save-button")


KINDS: list[tuple[str, list[str], str, dict[str, Any]]] = [
    (
        "contract-one-whister-3",
        THREE,
        "contract",
        {"declarer": "Anna", "contract": "7S", "answers": {"Vera": "pass"}, "tricks": {"Anna": 7}},
    ),
    (
        "contract-remise-3",
        THREE,
        "contract",
        {
            "declarer": "Boris",
            "contract": "8H",
            "answers": {"Anna": "pass"},
            "tricks": {"Boris": 6},
        },
    ),
    (
        "contract-two-whisters-3",
        THREE,
        "contract",
        {"declarer": "Vera", "contract": "6D", "tricks": {"Vera": 6, "Anna": 3, "Boris": 1}},
    ),
    (
        "both-pass-3",
        THREE,
        "contract",
        {"declarer": "Anna", "contract": "6C", "answers": {"Boris": "pass", "Vera": "pass"}},
    ),
    ("misere-3", THREE, "misere", {"declarer": "Boris", "tricks": {"Boris": 0}}),
    ("allpass-3", THREE, "allpass", {"tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}),
]


def test_every_kind_in_one_screen_with_few_taps(phone: Any, store: Store) -> None:
    page, server, problems = phone
    counts: dict[str, list[int]] = {}
    times: list[float] = []
    token = new_game(page, server, THREE)
    for name, _players, kind, deal in KINDS:
        open_form(page, server, token)
        preview = enter_deal(page, THREE, kind, **deal)
        assert preview.strip()
        everything_in_view(page)
        if name in ("contract-two-whisters-3", "allpass-3"):
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                shot(page, f"table-{name}-{scheme}", full=False)
            page.emulate_media(color_scheme="light")
        start = time.perf_counter()
        save_deal(page)
        page.wait_for_selector("#next-deal")
        times.append((time.perf_counter() - start) * 1000)
        taps = page.taps + 1  # Save
        counts.setdefault(kind, []).append(taps)
        print(f"{name}: {taps} taps, 0 keystrokes")
    assert problems == []
    contract = statistics.median(counts["contract"])
    print(
        f"contract median taps {contract}; all-pass {counts['allpass']}; misère {counts['misere']}"
    )
    print(f"Save → new sheet: median {statistics.median(times):.0f} ms, max {max(times):.0f} ms")
    assert contract <= 6
    assert max(counts["allpass"]) <= 5
    record = store.get_game(token)
    assert [d.data["type"] for d in record.deals] == [k[2] for k in KINDS]
    assert record.deals[2].data["tricks"] == {"Vera": 6, "Anna": 3, "Boris": 1}


def test_four_players_and_a_correction_in_one_screen(phone: Any, store: Store) -> None:
    page, server, problems = phone
    token = new_game(page, server, FOUR, lang="ru")
    # Anna deals and sits out: Boris declares, Vera and Gleb whist.
    open_form(page, server, token)
    assert page.locator('#declarer .tap[data-value="0"]').count() == 0
    enter_deal(
        page,
        FOUR,
        "contract",
        declarer="Boris",
        contract="7NT",
        tricks={"Boris": 7, "Vera": 2, "Gleb": 1},
    )
    everything_in_view(page)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(page, f"table-ru-four-two-whisters-{scheme}", full=False)
    page.emulate_media(color_scheme="light")
    taps = page.taps + 1
    save_deal(page)
    print(f"4 players, two whisters: {taps} taps")
    assert taps <= 6
    # A correction: the kind, a ready reason, the player's chip, the minus key (which opens
    # the number keypad), the digits, Save.
    open_form(page, server, token)
    page.locator('#kind .tap[data-value="correction"]').click()
    page.locator("[data-reason]").first.click()
    page.locator('#corr_player_0 .tap[data-value="2"]').click()
    page.locator('[data-minus="corr_amount_0"]').click()
    page.keyboard.type("4")
    page.wait_for_selector("#save-button:not([disabled])")
    everything_in_view(page)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(page, f"table-ru-correction-{scheme}", full=False)
    page.emulate_media(color_scheme="light")
    # Next deal, kind, reason, player, the minus key, Save: the digits aside.
    taps = 1 + 1 + 1 + 1 + 1 + 1
    save_deal(page)
    print(f"correction: {taps} taps + the digits")
    assert taps <= 6
    assert store.get_game(token).deals[-1].data["entries"] == [{"player": "Vera", "pool": -4}]
    assert problems == []


def test_network_cut_during_save_lands_the_deal_once(phone: Any, store: Store) -> None:
    page, server, problems = phone
    token = new_game(page, server, THREE)
    open_form(page, server, token)
    enter_deal(page, THREE, "contract", **ANNA_SIX)
    # The first Save reaches the server, but its answer is lost on the way back.
    state = {"cut": True}

    def drop_answer(route: Any) -> None:
        if state["cut"]:
            route.fetch()  # the server writes the deal
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/deal/new", drop_answer)
    page.locator("#save-button").click()
    page.wait_for_selector("#preview .pending")
    assert "Not saved yet" in page.inner_text("#preview")
    shot(page, "table-not-saved-yet", full=False)
    assert page.evaluate("JSON.parse(localStorage.getItem('scorekeeper.pending')).length") == 1
    page.context.set_offline(True)
    page.wait_for_selector("#netstate:not([hidden])")
    assert "Offline" in page.inner_text("#netstate")
    state["cut"] = False
    page.context.set_offline(False)
    page.wait_for_url(f"{server}/g/{token}", timeout=WAIT_MS)
    assert (
        page.evaluate("JSON.parse(localStorage.getItem('scorekeeper.pending') || '[]').length") == 0
    )
    assert len(store.get_game(token).deals) == 1
    assert problems == [] or all("net::" in p for p in problems)


def test_back_after_save_leads_to_the_sheet_and_a_change_lands_on_that_deal(
    phone: Any, store: Store
) -> None:
    page, server, problems = phone
    token = new_game(page, server, THREE)
    open_form(page, server, token)
    enter_deal(page, THREE, "contract", **ANNA_SIX)
    save_deal(page)
    page.go_back()
    page.wait_for_load_state("domcontentloaded")
    # The sheet (the Save's page replaced the form in the history), never a blank form
    # that would silently become deal 2.
    assert page.url == f"{server}/g/{token}" and page.locator("#deal-form").count() == 0
    # The scorer changes the deal from the sheet and saves: the change is on deal 1.
    page.locator("section.last a[href$='/edit']").click()
    page.wait_for_selector("#deal-form")
    enter_deal(
        page,
        THREE,
        "contract",
        declarer="Anna",
        contract="7S",
        answers={"Vera": "pass"},
        tricks={"Anna": 7},
    )
    save_deal(page)
    assert [d.data["contract"] for d in store.get_game(token).deals] == ["7S"]
    assert page.url == f"{server}/g/{token}" and page.locator("#next-deal").is_visible()
    # The form's address opened again (Back without the script does that) leads to the
    # saved deal's change form, not to a new deal.
    page.goto(f"{server}/g/{token}")
    page.locator("#next-deal").click()
    page.wait_for_url("**/deal/new?k=*")
    used = page.url
    enter_deal(page, THREE, "allpass", tricks={"Anna": 4, "Boris": 3, "Vera": 3})
    save_deal(page)
    page.goto(used)
    page.wait_for_selector("#deal-form")
    second = store.get_game(token).deals[1]
    assert page.url == f"{server}/g/{token}/deal/{second.id}/edit"
    assert len(store.get_game(token).deals) == 2
    assert problems == []
