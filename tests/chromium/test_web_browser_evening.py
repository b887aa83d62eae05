"""Browser tier: a whole evening at the table, by taps only, on the real server.

`scorekeeper serve` (uvicorn) runs in its own process; Chromium at 375 × 812 plays the
scorer's phone, and a second browser context follows the read-only link the way the other
players' phones do. Every deal must appear on the follower's screen within two seconds, the
settlement on the page must be what `scorekeeper score --settle` says of the exported game
file, and the same evening goes through the Russian and the Ukrainian interface.
Screenshots of every main screen land in tests/artifacts/.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from ..browser import (
    PHONE,
    WAIT_MS,
    enter_deal,
    new_game,
    no_overflow,
    save_deal,
    shot,
    sticking_out,
    tap_choice,
    watch_console,
)

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Boris", "Vera"]
SCOREKEEPER = Path(sys.executable).with_name("scorekeeper")
LIVE = 2000
"""How long a follower may wait to see a change, in milliseconds."""

_GLYPHS = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4"}


def amount_of(text: str) -> Fraction:
    """An amount as the page shows it ("−89⅓", "+5 2/7", "1 234") → its exact value."""
    text = text.strip().replace("−", "-").replace("+", "").replace("\u00a0", "").replace(",", "")
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("-")
    for glyph, frac in _GLYPHS.items():
        if glyph in text:
            whole = text.replace(glyph, "").strip() or "0"
            return sign * (Fraction(whole) + Fraction(frac))
    parts = text.split()
    return sign * sum((Fraction(p) for p in parts), Fraction(0))


def money_of(text: str, lang: str) -> Decimal:
    """Money as the page shows it ("−8.30 EUR", "−8,30") → a Decimal."""
    text = text.split()[0] if " " in text.strip() and lang == "en" else text
    text = re.sub(r"[^\d.,−+-]", "", text.replace("\u00a0", "")).replace("−", "-")
    text = text.replace(",", ".") if lang != "en" else text.replace(",", "")
    return Decimal(text)


# -- the phones --------------------------------------------------------------------------------


class Phones:
    """The scorer's phone and one follower's phone, with what went wrong in their consoles."""

    def __init__(self, chromium: Any, server: str, lang: str) -> None:
        self.server = server
        self.lang = lang
        headers = {"Accept-Language": {"en": "en-GB,en", "ru": "ru-RU,ru", "uk": "uk-UA,uk"}[lang]}
        self.contexts = [
            chromium.new_context(viewport=PHONE, extra_http_headers=headers, accept_downloads=True)
            for _ in range(2)
        ]
        for context in self.contexts:
            context.set_default_timeout(WAIT_MS)
        self.scorer = self.contexts[0].new_page()
        self.follower = self.contexts[1].new_page()
        self.problems: list[str] = []
        for page in (self.scorer, self.follower):
            watch_console(page, self.problems)
        self.waits: list[float] = []

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def next_deal(self) -> None:
        """Tap "Next deal" on the sheet."""
        with self.scorer.expect_navigation():
            self.scorer.locator("#next-deal").click()
        self.scorer.wait_for_selector("#deal-form")

    def play(self, kind: str, **deal: Any) -> str:
        """Enter and save one deal from the sheet; returns what the preview said."""
        self.next_deal()
        preview = enter_deal(self.scorer, PLAYERS, kind, **deal)
        save_deal(self.scorer)
        return preview

    def follower_sees_the_sheet(self) -> None:
        """Within two seconds the follower's sheet shows what the scorer's shows now."""
        from playwright.sync_api import expect

        scorer_sheet = self.scorer
        if "/log" in scorer_sheet.url or "/deal/" in scorer_sheet.url:
            scorer_sheet.goto(re.sub(r"/(log|deal).*$", "", scorer_sheet.url))
        totals = " ".join((scorer_sheet.text_content(".totals") or "").split())
        heading = scorer_sheet.inner_text(".game-head .muted")
        start = time.monotonic()
        expect(self.follower.locator(".game-head .muted")).to_contain_text(heading, timeout=LIVE)
        expect(self.follower.locator(".totals")).to_have_text(totals, timeout=LIVE)
        self.waits.append(time.monotonic() - start)


@pytest.fixture
def phones(chromium: Any, real_server: Any, request: pytest.FixtureRequest) -> Iterator[Phones]:
    lang = getattr(request, "param", "en")
    phones = Phones(chromium, real_server.url, lang)
    try:
        yield phones
    finally:
        phones.close()


def settlement_on_the_page(page: Any, lang: str) -> dict[str, Any]:
    """The settlement page read back into numbers: net whists, money and the payments."""
    rows = page.locator(".result tbody tr")
    net, money = {}, {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("th, td").all_inner_texts()
        net[cells[0].strip()] = amount_of(cells[1])
        money[cells[0].strip()] = money_of(cells[2], lang)
    payments = []
    for item in page.locator(".payments li").all():
        payments.append(
            {
                "from": item.get_attribute("data-from"),
                "to": item.get_attribute("data-to"),
                "amount": money_of(item.locator(".amount").inner_text(), lang),
            }
        )
    return {"net": net, "money": money, "payments": payments}


def settlement_from_the_cli(game_file: Path) -> dict[str, Any]:
    """What `scorekeeper score --settle` says of the exported game file."""
    done = subprocess.run(
        [str(SCOREKEEPER), "score", "--settle", str(game_file)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    s = json.loads(done.stdout)["settlement"]
    return {
        "net": {p: Fraction(v) for p, v in s["net"].items()},
        "money": {p: Decimal(v) for p, v in s["money"].items()},
        "payments": [
            {"from": p["from"], "to": p["to"], "amount": Decimal(p["amount"])}
            for p in s["payments"]
        ],
    }


def download(page: Any, selector: str, where: Path) -> Path:
    """Tap a download link; returns the saved file."""
    with page.expect_download() as info:
        page.locator(selector).click()
    path = where / info.value.suggested_filename
    info.value.save_as(path)
    return path


def refused(context: Any, server: str, view_token: str) -> list[int]:
    """Writes forced with the read-only link (a valid CSRF token and all): their statuses."""
    form_page = context.request.get(f"{server}/new").text()
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form_page)
    assert csrf, "no CSRF token on the new game form"
    token = csrf.group(1)
    statuses = []
    for path, data in [
        ("/deal/new", {"kind": "misere", "declarer": "0", "tricks_0": "0", "action": "save"}),
        ("/undo", {}),
        ("/finish", {}),
        ("/reopen", {}),
    ]:
        response = context.request.post(
            f"{server}/g/{view_token}{path}",
            form={"csrf_token": token, "base_version": "0", "request_key": "k" * 20, **data},
            max_redirects=0,
        )
        statuses.append(response.status)
    return statuses


# -- the evening -------------------------------------------------------------------------------


def test_a_whole_evening_by_taps_with_a_follower(phones: Phones, tmp_path: Path) -> None:
    token, view_url = start_the_evening(phones)
    play_thirteen_deals(phones)
    the_follower_changes_nothing(phones, token, view_url)
    edit_a_deal_and_undo_the_last(phones, token)
    on_page = finish_and_read_the_settlement(phones)
    the_files_agree_with_the_page(phones, token, tmp_path, on_page)
    waits = sorted(phones.waits)
    print(
        f"follower saw each change after {waits[0]:.2f}..{waits[-1]:.2f} s ({len(waits)} changes)"
    )
    assert waits[-1] < LIVE / 1000
    assert phones.problems == []


def start_the_evening(phones: Phones) -> tuple[str, str]:
    """A new Leningrad game by taps; the follower opens its read-only link: (token, link)."""
    scorer, follower, server = phones.scorer, phones.follower, phones.server
    scorer.goto(server + "/")
    shot(scorer, "en-01-home")
    token = new_game(
        scorer,
        server,
        PLAYERS,
        convention="leningrad",
        name="Friday at Oleg's",
        house={"pool_target": "50", "stake": "0.5", "currency": "EUR"},
    )
    shot(scorer, "en-02-new-game-sheet")
    view_url = scorer.locator(".view-link").get_attribute("href")
    assert view_url and "/v/" in view_url
    follower.goto(view_url)
    return token, view_url


def play_thirteen_deals(phones: Phones) -> None:
    """Every kind of deal, the follower's sheet keeping up after each."""
    four_contracts(phones)
    misere_and_allpass(phones)
    a_correction_and_three_contracts(phones)


def four_contracts(phones: Phones) -> None:
    scorer = phones.scorer
    # 1 both whist, 2 one whist and a pass, 3 both pass, 4 half-whist.
    phones.play(
        "contract",
        declarer="Anna",
        contract="6S",
        answers={"Boris": "whist", "Vera": "whist"},
        tricks={"Anna": 6, "Boris": 2, "Vera": 2},
    )
    assert "Deal 1 saved." in scorer.inner_text(".flashes")
    phones.follower_sees_the_sheet()
    phones.play(
        "contract",
        declarer="Boris",
        contract="7C",
        answers={"Vera": "whist", "Anna": "pass"},
        tricks={"Boris": 7, "Vera": 3},
    )
    phones.follower_sees_the_sheet()
    phones.play(
        "contract", declarer="Vera", contract="8D", answers={"Anna": "pass", "Boris": "pass"}
    )
    phones.follower_sees_the_sheet()
    phones.next_deal()
    tap_choice(scorer, "declarer", "0")
    tap_choice(scorer, "contract", "6H")
    # Half-whist only for the second defender, after the first passed.
    assert not scorer.is_visible('#answer_2 .tap[data-value="half-whist"]')
    tap_choice(scorer, "answer_1", "pass")
    tap_choice(scorer, "answer_2", "half-whist")
    scorer.wait_for_selector("#save-button:not([disabled])")
    assert "Vera writes 8 whists on Anna" in scorer.inner_text("#preview")
    shot(scorer, "en-03-deal-form-half-whist")
    save_deal(scorer)
    phones.follower_sees_the_sheet()


def misere_and_allpass(phones: Phones) -> None:
    scorer, follower = phones.scorer, phones.follower
    # 5 misère made, 6 misère failed.
    preview = phones.play("misere", declarer="Boris", tricks={"Boris": 0})
    assert "Boris: pool +10" in preview
    phones.follower_sees_the_sheet()
    preview = phones.play("misere", declarer="Vera", tricks={"Vera": 2})
    assert "Vera: hill +40" in preview
    phones.follower_sees_the_sheet()

    # 7, 8 all-pass twice in a row; 9 a contract that respects the exit (Leningrad: a seven).
    phones.play("allpass", tricks={"Anna": 2, "Boris": 3, "Vera": 5})
    phones.follower_sees_the_sheet()
    phones.play("allpass", tricks={"Anna": 0, "Boris": 4, "Vera": 6})
    phones.follower_sees_the_sheet()
    assert "All-passes in a row: 2." in scorer.inner_text(".next")
    assert "at least 7" in follower.inner_text(".next")
    phones.next_deal()
    assert "at least 7 after the all-pass" in scorer.inner_text(".deal-head p.muted")
    cells = scorer.locator("#contract .tap").evaluate_all("els => els.map(e => e.dataset.value)")
    assert cells[0] == "7S" and cells[-1] == "10NT" and len(cells) == 20
    enter_deal(
        scorer,
        PLAYERS,
        "contract",
        declarer="Anna",
        contract="7NT",
        answers={"Boris": "whist", "Vera": "pass"},
        tricks={"Anna": 6, "Boris": 4},
    )
    shot(scorer, "en-04-deal-form-remise")
    save_deal(scorer)
    phones.follower_sees_the_sheet()


def a_correction_and_three_contracts(phones: Phones) -> None:
    from playwright.sync_api import expect

    scorer, follower = phones.scorer, phones.follower
    # 10 a correction, 11 both whist on an eight, 12 both pass on a nine, 13 a failed six.
    phones.play("correction", reason="renonce", entries=[("Vera", "whists", "Boris", "5")])
    phones.follower_sees_the_sheet()
    phones.play(
        "contract",
        declarer="Boris",
        contract="8S",
        answers={"Vera": "whist", "Anna": "whist"},
        tricks={"Boris": 8, "Vera": 1, "Anna": 1},
    )
    phones.follower_sees_the_sheet()
    phones.play(
        "contract", declarer="Vera", contract="9H", answers={"Anna": "pass", "Boris": "pass"}
    )
    phones.follower_sees_the_sheet()
    phones.play(
        "contract",
        declarer="Anna",
        contract="6C",
        answers={"Boris": "whist", "Vera": "whist"},
        tricks={"Anna": 5, "Boris": 3, "Vera": 2},
    )
    phones.follower_sees_the_sheet()
    expect(follower.locator(".game-head .muted")).to_contain_text("12 deals · 1 correction")
    shot(scorer, "en-05-sheet-13-deals")
    shot(follower, "en-06-follower-13-deals")


def the_follower_changes_nothing(phones: Phones, token: str, view_url: str) -> None:
    """The read-only link offers no way to change anything, and refuses a forced write."""
    follower, server = phones.follower, phones.server
    view_token = view_url.rsplit("/", 1)[-1]
    # The follower has no way to change anything.
    assert follower.locator("form").count() == 0
    assert follower.locator("#next-deal").count() == 0
    assert follower.locator(f'a[href*="/g/{token}"]').count() == 0
    assert follower.locator('a[href*="/deal/"], a[href*="/undo"]').count() == 0
    version = follower.locator("#follow").get_attribute("data-version")
    assert refused(phones.contexts[1], server, view_token) == [403, 403, 403, 403]
    follower.goto(view_url + "/log")
    assert follower.locator("form, a[href*='/edit'], a[href*='/delete']").count() == 0
    shot(follower, "en-07-follower-log")
    follower.goto(view_url)
    assert follower.locator("#follow").get_attribute("data-version") == version


def edit_a_deal_and_undo_the_last(phones: Phones, token: str) -> None:
    """Edit deal 3 from the log (an eight of diamonds was a nine), then undo the last (deal 12, the 13th entry)."""
    from playwright.sync_api import expect

    scorer, follower, server = phones.scorer, phones.follower, phones.server
    scorer.goto(f"{server}/g/{token}/log")
    shot(scorer, "en-08-log")
    with scorer.expect_navigation():
        scorer.locator('.log li:has(.n:text-is("3.")) a[href$="/edit"]').click()
    assert scorer.inner_text("h1") == "Edit deal 3"
    scorer.locator("#contract-chip").click()  # the contract chosen is shown folded
    tap_choice(scorer, "contract", "9D")
    expect(scorer.locator("#preview")).to_contain_text("Vera: pool +8 (9♦, both defenders passed)")
    expect(scorer.locator("#save-button")).to_be_visible()
    save_deal(scorer)
    assert "Deal 3 changed." in scorer.inner_text(".flashes")
    phones.follower_sees_the_sheet()
    with scorer.expect_navigation():
        scorer.locator(".last a[href$='/undo']").click()
    shot(scorer, "en-09-undo")
    with scorer.expect_navigation():
        scorer.locator("form button.danger").click()
    assert "Deal 12 undone." in scorer.inner_text(".flashes")
    phones.follower_sees_the_sheet()
    expect(follower.locator(".game-head .muted")).to_contain_text("11 deals · 1 correction")


def finish_and_read_the_settlement(phones: Phones) -> dict[str, Any]:
    """Finish, read the settlement; both phones see the end."""
    from playwright.sync_api import expect

    scorer, follower = phones.scorer, phones.follower
    with scorer.expect_navigation():
        scorer.locator(".finish-now button").click()
    # One stray tap does not end the evening: the page asks first.
    with scorer.expect_navigation():
        scorer.locator("#finish-confirm button.primary").click()
    assert "The game is over" in scorer.inner_text(".finished")
    expect(follower.locator(".finished")).to_contain_text("The game is over", timeout=LIVE)
    shot(follower, "en-10-follower-finished")
    with scorer.expect_navigation():
        scorer.locator(".finished a[href$='/settlement']").click()
    no_overflow(scorer)
    shot(scorer, "en-11-settlement")
    return settlement_on_the_page(scorer, "en")


def the_files_agree_with_the_page(
    phones: Phones, token: str, where: Path, on_page: dict[str, Any]
) -> None:
    """A real PDF with the names in it, and the game file the CLI agrees with."""
    scorer, server = phones.scorer, phones.server
    scorer.goto(f"{server}/g/{token}")
    pdf = download(scorer, ".links a[href$='/pulka.pdf']", where)
    assert pdf.read_bytes().startswith(b"%PDF-")
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for word in ["Friday at Oleg", "Anna", "Boris", "Vera", "Settlement"]:
        assert word in text, word
    game_file = download(scorer, ".links a[href$='/game.json']", where)
    data = json.loads(game_file.read_text())
    assert len(data["deals"]) == 12 and data["finished"] is True
    assert data["deals"][2]["contract"] == "9D"
    assert on_page == settlement_from_the_cli(game_file)
    assert sum(on_page["net"].values()) == 0


@pytest.mark.parametrize(
    ("phones", "words"),
    [
        (
            "ru",
            {
                "new": "Новая игра",
                "start": "Начать игру",
                "next": "Следующая раздача",
                "misere": "Мизер",
                "allpass": "Распасы",
                "whist": "вист",
                "pass": "пас",
                "half": "полвиста",
                "pool": "Пуля",
                "hill": "Гора",
                "whists": "Висты",
                "settlement": "Расчёт",
                "pays": "Кто кому платит",
                "one": "1 раздача",
                "two": "2 раздачи",
                "five": "4 раздачи · 1 поправка",
                "saved": "Раздача 1 записана.",
            },
        ),
        (
            "uk",
            {
                "new": "Нова гра",
                "start": "Почати гру",
                "next": "Наступна роздача",
                "misere": "Мізер",
                "allpass": "Розпаси",
                "whist": "віст",
                "pass": "пас",
                "half": "піввіста",
                "pool": "Пуля",
                "hill": "Гора",
                "whists": "Вісти",
                "settlement": "Розрахунок",
                "pays": "Хто кому платить",
                "one": "1 роздача",
                "two": "2 роздачі",
                "five": "4 роздачі · 1 поправка",
                "saved": "Роздачу 1 записано.",
            },
        ),
    ],
    indirect=["phones"],
)
def test_the_evening_in_the_phone_language(
    phones: Phones, words: dict[str, str], tmp_path: Path
) -> None:
    """The phone asks for Russian or Ukrainian: every screen of the evening is in it."""
    from playwright.sync_api import expect

    scorer, follower, server = phones.scorer, phones.follower, phones.server
    token = start_the_evening_in_the_language(phones, words)
    the_first_deal_in_the_language(phones, words)
    four_more_deals_counted_in_the_language(phones, words)
    on_page = finish_and_settle_in_the_language(phones, words)
    scorer.goto(f"{server}/g/{token}")
    game_file = download(scorer, ".links a[href$='/game.json']", tmp_path)
    assert on_page == settlement_from_the_cli(game_file)
    expect(follower.locator(".finished")).to_be_visible(timeout=LIVE)
    assert phones.problems == []


def start_the_evening_in_the_language(phones: Phones, words: dict[str, str]) -> str:
    """Home, the new game form and the sheet in the phone's language; the follower joins."""
    scorer, follower, server, lang = phones.scorer, phones.follower, phones.server, phones.lang
    scorer.goto(server + "/")
    assert scorer.get_attribute("html", "lang") == lang
    assert words["new"] in scorer.inner_text("main")
    scorer.goto(server + "/new")
    assert scorer.inner_text("#new-game button[type=submit]") == words["start"]
    token = new_game(scorer, server, PLAYERS, name="Пятница", house={"stake": "0.1"})
    assert scorer.inner_text("#next-deal") == words["next"]
    assert [scorer.inner_text(f".totals thead th:nth-child({i})") for i in (2, 3, 4)] == [
        words["pool"],
        words["hill"],
        words["whists"],
    ]
    follower.goto(scorer.locator(".view-link").get_attribute("href") or "")
    return token


def the_first_deal_in_the_language(phones: Phones, words: dict[str, str]) -> None:
    """The deal form's taps, a half-whist, and the saved deal counted on both phones."""
    scorer, follower, lang = phones.scorer, phones.follower, phones.lang
    phones.next_deal()
    assert scorer.inner_text('#kind .tap[data-value="misere"]') == words["misere"]
    assert scorer.inner_text('#kind .tap[data-value="allpass"]') == words["allpass"]
    for group, value in [("declarer", "1"), ("contract", "6S"), ("answer_2", "pass")]:
        tap_choice(scorer, group, value)
    assert scorer.inner_text('#answer_2 .tap[data-value="whist"]') == words["whist"]
    assert scorer.inner_text('#answer_2 .tap[data-value="pass"]') == words["pass"]
    assert scorer.inner_text('#answer_0 .tap[data-value="half-whist"]') == words["half"]
    tap_choice(scorer, "answer_0", "half-whist")
    scorer.wait_for_selector("#save-button:not([disabled])")
    shot(scorer, f"{lang}-01-deal-form")
    save_deal(scorer)
    assert words["saved"] in scorer.inner_text(".flashes")
    assert words["one"] in scorer.inner_text(".game-head")
    phones.follower_sees_the_sheet()
    assert words["one"] in follower.inner_text(".game-head")


def four_more_deals_counted_in_the_language(phones: Phones, words: dict[str, str]) -> None:
    """An all-pass, a misère, a contract and a correction; the sheet still fits the phone."""
    scorer, follower, lang = phones.scorer, phones.follower, phones.lang
    phones.play("allpass", tricks={"Anna": 1, "Boris": 4, "Vera": 5})
    assert words["two"] in scorer.inner_text(".game-head")
    phones.follower_sees_the_sheet()
    phones.play("misere", declarer="Anna", tricks={"Anna": 1})
    phones.play(
        "contract",
        declarer="Vera",
        contract="7H",
        answers={"Anna": "whist", "Boris": "whist"},
        tricks={"Vera": 7, "Anna": 2, "Boris": 1},
    )
    phones.play("correction", reason="штраф", entries=[("Boris", "hill", None, "2")])
    # Deals at the table and corrections are counted apart, as in the log and the PDF.
    assert words["five"] in scorer.inner_text(".game-head")
    phones.follower_sees_the_sheet()
    assert sticking_out(scorer) == []
    shot(scorer, f"{lang}-02-sheet")
    shot(follower, f"{lang}-03-follower")


def finish_and_settle_in_the_language(phones: Phones, words: dict[str, str]) -> dict[str, Any]:
    """Finish, confirm, open the settlement: the settlement as the page shows it."""
    scorer, lang = phones.scorer, phones.lang
    with scorer.expect_navigation():
        scorer.locator(".finish-now button").click()
    with scorer.expect_navigation():
        scorer.locator("#finish-confirm button.primary").click()
    with scorer.expect_navigation():
        scorer.locator(".finished a[href$='/settlement']").click()
    assert scorer.inner_text("h1") == words["settlement"]
    assert words["pays"] in scorer.inner_text(".payments")
    no_overflow(scorer)
    assert sticking_out(scorer) == []
    shot(scorer, f"{lang}-04-settlement")
    on_page = settlement_on_the_page(scorer, lang)
    # Money in the locale's own form: a decimal comma.
    assert re.search(r"\d,\d\d", scorer.inner_text(".result")), scorer.inner_text(".result")
    return on_page
