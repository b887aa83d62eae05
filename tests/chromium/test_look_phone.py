"""Browser tier: the pages a person reaches, looked at on a small phone with large text.

At 320 × 568 and 360 × 640 with the text 1.5× larger (the root font size, as a phone's text
setting does) and at 375 × 667, in Russian, Ukrainian, Serbian (Latin) and English: no page
scrolls sideways (a club's latest results with a long name, a company's periods), a number is never written down a
column digit by digit (the settlement's totals), a table keeps inside its card or scrolls in
its own box, the Balkan deal form's contract words stand whole, and every link is a 44 px tap
(the Balkan game's files, a club's sort, player, company and season links).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from scorekeeper import club as service
from scorekeeper import gamefile, gamefile_balkan, games
from scorekeeper.rules.options import PRESETS
from scorekeeper.sample import NAMES, random_game
from scorekeeper.store import Store
from scorekeeper.store.companies import Companies
from scorekeeper.tournament.sample import random_tournament
from scorekeeper.tournament.service import import_file

from ..balkan.helpers import petak_file
from ..browser import one_tab, small_targets, sticking_out
from .test_web_browser_club import served_club
from .test_web_browser_screens import _CUT_JS

pytestmark = pytest.mark.browser

LONG = ["Александра", "Константин", "Владислава"]
SMALL = (320, 568, 1.5)
MIDDLE = (360, 640, 1.5)
USUAL = (375, 667, 1.0)


def _sochi_game(store: Store, *, deals: int = 40, finished: bool = True) -> str:
    """A finished Sochi game of three long names, its totals in thirds (the settlement's);
    or one going on, its deal form open."""
    data = random_game(random.Random(7), deals, convention="sochi", players=3, corrections=False)
    data["finished"] = finished
    text = json.dumps(data, ensure_ascii=False)
    for old, new in zip(NAMES, LONG, strict=False):
        text = text.replace(json.dumps(old), json.dumps(new, ensure_ascii=False))
    return games.create_from_game(store, gamefile.loads(text)).edit_token


@pytest.fixture(scope="module")
def pages(real_server: Any) -> dict[str, str]:
    """The addresses looked at, their things put straight into the served database."""
    view, edit = served_club(real_server)
    with Store(real_server.db) as store:
        petak = petak_file()
        petak["deals"] = petak["deals"][:-1]  # the partija goes on: its deal form opens
        balkan = games.create_from_game(store, gamefile_balkan.loads_any(json.dumps(petak)))
        finished = _sochi_game(store)
        going_on = _sochi_game(store, deals=2, finished=False)
        service.add_player(store, edit, "Дмитрий Константинович")
        cup = import_file(store, random_tournament(random.Random(3), players=6, tours=2))
        company = Companies(store).create(
            name="Пятницы",
            convention="sochi",
            options=PRESETS["sochi"].to_json(),
            roster=LONG,
        )
        evening = _sochi_game(store)
        Companies(store).attach(
            company.edit_token,
            store.get_game(evening).id,
            {p.name: p.id for p in company.roster},
        )
    return {
        "club": f"/kv/{view}",
        "director": f"/k/{edit}",
        "settlement": f"/g/{finished}/settlement",
        "finished": f"/g/{finished}",
        "balkan": f"/g/{balkan.edit_token}",
        "balkan-deal": f"/g/{balkan.edit_token}/deal/new",
        "russian-deal": f"/g/{going_on}/deal/new",
        "tournament": f"/tv/{cup.view_token}",
        "company": f"/cv/{company.view_token}",
    }


@pytest.fixture
def looking(real_server: Any, chromium: Any) -> Iterator[Any]:
    """Open a page of the served instance at a size, a text scale and a language: one phone
    per size and scale, whose one tab goes from page to page (browser.one_tab)."""
    tabs: dict[tuple[int, int, float], Any] = {}
    with ExitStack() as phones:

        def open_page(path: str, lang: str, size: tuple[int, int, float]) -> Any:
            width, height, scale = size
            if size not in tabs:
                viewport = {"width": width, "height": height}
                tabs[size] = phones.enter_context(one_tab(chromium, scale=scale, viewport=viewport))
            page = tabs[size]
            page.goto(f"{real_server.url}{path}?lang={lang}", wait_until="load")
            page.wait_for_function("document.readyState === 'complete'")
            return page

        yield open_page


@pytest.mark.parametrize("lang", ["ru", "sr_Latn", "hr"])
def test_no_page_scrolls_sideways_on_a_small_phone_with_large_text(
    pages: dict[str, str], looking: Any, lang: str
) -> None:
    wide = {}
    for name, path in pages.items():
        for size in (SMALL, MIDDLE):
            page = looking(path, lang, size)
            width = page.evaluate("document.scrollingElement.scrollWidth")
            if width > size[0]:
                wide[f"{name} {size[0]}"] = width
    assert wide == {}


_BROKEN_NUMBERS_JS = """() => Array.from(document.querySelectorAll('main td.num'))
  .filter(td => td.getClientRects().length && !td.closest('[hidden]'))
  .filter(td => {
    // each line of the cell (a <br> starts one of its own) is drawn on one line
    const lines = td.innerText.split('\\n').filter(s => s.trim()).length;
    const range = document.createRange();
    range.selectNodeContents(td);
    const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0)
      .map(r => Math.round(r.top)));
    return tops.size > lines;
  })
  .map(td => td.innerText.replace(/\\s+/g, ' '))"""


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_a_number_is_never_broken_and_no_table_sticks_out_of_its_card(
    pages: dict[str, str], looking: Any, lang: str
) -> None:
    for name in ("settlement", "finished"):
        for size in (SMALL, (375, 667, 1.5)):
            page = looking(pages[name], lang, size)
            where = f"{name} {size}"
            assert page.evaluate(_BROKEN_NUMBERS_JS) == [], where
            assert sticking_out(page) == [], where


@pytest.mark.parametrize("lang", ["ru", "uk", "sr_Latn", "en"])
def test_the_balkan_contract_words_stand_whole(
    pages: dict[str, str], looking: Any, lang: str
) -> None:
    for size in (SMALL, MIDDLE, USUAL):
        page = looking(pages["balkan-deal"], lang, size)
        words = page.locator("#contract .tap span")
        assert words.count() == 6
        assert page.evaluate(_CUT_JS) == [], f"{lang} {size}"
        tops = {round(box["y"]) for box in (w.bounding_box() for w in words.all()) if box}
        assert len(tops) == 2, f"six contracts in two rows of three at {size}: {tops}"


@pytest.mark.parametrize("lang", ["sr_Latn", "hr", "en", "uk"])
def test_every_contract_key_holds_its_label(pages: dict[str, str], looking: Any, lang: str) -> None:
    """10♠, 10NT, "6 sans" (Serbian, Croatian) inside their key at 320–375 px with large text."""
    for size in (SMALL, MIDDLE, (375, 667, 1.5), USUAL):
        page = looking(pages["russian-deal"], lang, size)
        assert page.locator("#contract .tap").count() == 25
        cut = page.evaluate(
            """() => Array.from(document.querySelectorAll('#contract .tap span'))
              .filter(s => s.scrollWidth > s.clientWidth + 1 || s.scrollHeight > s.clientHeight + 1)
              .map(s => s.textContent.trim())"""
        )
        assert cut == [], f"{lang} {size}"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_link_is_a_thumbs_tap(pages: dict[str, str], looking: Any, lang: str) -> None:
    for name in ("club", "director", "balkan"):
        for size in (SMALL, USUAL):
            page = looking(pages[name], lang, size)
            assert small_targets(page) == [], f"{name} {size}"


@pytest.mark.parametrize("lang", ["ru", "uk", "hr"])
def test_the_deal_kinds_are_thumb_wide_in_one_row_at_320(
    pages: dict[str, str], looking: Any, lang: str
) -> None:
    """Игра, Гра, Igra: 44 px wide like every key, the five kinds still in one row."""
    page = looking(pages["russian-deal"], lang, (320, 568, 1.0))
    assert small_targets(page) == []
    tops = {
        round(b["y"]) for b in (k.bounding_box() for k in page.locator("#kind .tap").all()) if b
    }
    assert len(tops) == 1, tops


_WORD_IN_TWO_JS = """() => {
  // each word of a table's heading or name, drawn on more than one line ("Мест" / "о")
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const cell = n.parentElement.closest('thead th, tbody th');
    if (!cell || !cell.getClientRects().length || cell.closest('[hidden], .sr-only')) continue;
    for (const m of n.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0)
        .map(r => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["ru", "uk", "hr"])
def test_headings_and_names_stay_whole_in_standings(
    pages: dict[str, str], looking: Any, lang: str
) -> None:
    for name in ("tournament", "company", "club"):
        for size in (USUAL, SMALL):
            page = looking(pages[name], lang, size)
            where = f"{name} {size}"
            assert page.evaluate(_WORD_IN_TWO_JS) == [], where
            assert page.evaluate(_CUT_JS) == [], where


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_corrections_names_stand_whole_in_their_keys(
    pages: dict[str, str], looking: Any, lang: str
) -> None:
    """Large text puts a correction row's word above its keys, which then take the whole row:
    "Александра" never spills out of its key."""
    for size in (SMALL, MIDDLE):
        page = looking(pages["russian-deal"], lang, size)
        page.locator('#kind .tap[data-value="correction"]').click()
        page.wait_for_selector("#corr_player_0 .tap")
        assert page.evaluate(_CUT_JS) == [], f"{lang} {size}"
        key = page.locator("#corr_player_0 .tap").first.bounding_box()
        assert key and key["width"] > size[0] / 2, "the keys take the row under their word"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_trick_keys_are_thumb_wide_at_large_text(
    pages: dict[str, str], looking: Any, lang: str
) -> None:
    """All-pass at 320 px with 1.5× text: the eleven trick keys, six a row, each 44 px."""
    page = looking(pages["russian-deal"], lang, SMALL)
    page.locator('#kind .tap[data-value="allpass"]').click()
    page.wait_for_selector("#trickpad .num")
    assert small_targets(page) == []
