"""Browser tier: 60 players on a 1024 × 768 projector use the board's height (issue 50, item 9).

Before, their standings were in 12 px type over the top two thirds of the screen: the style
sheet sizes the type for the widest case. The board's script (static/board.js) tries one to
four columns, and a little of the cards' width, for the largest type at which every name is
whole and every row on the screen. Three rosters in en, ru and uk: the club's usual names
(16 px at least), names up to 30 characters (a third of them long) and every name 30
characters long: each at least 13 px, the largest that fits (one pixel more would not), the
columns reaching down the screen, no name cut, the table cards as whole as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import one_tab, shot
from .test_web_browser_board import MEASURE, _tournament
from .test_web_browser_board_names import CUT, _roster

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 1024, 768
THIRTY = ["Oleksandra Kovalenko-Zadnipro", "Констянтин Вишнегородський", "Анастасия Преображенская",
          "Volodymyrivna Khmelnytska"]  # fmt: skip
ONE_MORE = """() => {
  const box = document.querySelector('.board-standings');
  const tables = [...box.querySelectorAll('table')].filter((t) => !t.hidden);
  const size = parseFloat(getComputedStyle(tables[0]).fontSize);
  tables.forEach((t) => { t.style.fontSize = (size + 1) + 'px'; });
  const over = box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1
    || tables.some((t) => t.querySelector('td.name').clientWidth < 7 * (size + 1));
  tables.forEach((t) => { t.style.fontSize = size + 'px'; });
  const bottom = Math.max(...[...box.querySelectorAll('tr')].map((r) => r.getBoundingClientRect().bottom));
  return {over, used: (bottom - box.getBoundingClientRect().top) / box.clientHeight};
}"""


def _thirty(count: int) -> list[str]:
    names = [(THIRTY[i % len(THIRTY)] + " " * 30)[:27] + f"{i:03d}" for i in range(count)]
    assert all(len(n) == 30 for n in names)
    return names


@pytest.fixture(scope="module")
def boards(real_server: Any) -> Iterator[dict[str, tuple[str, list[str]]]]:
    with Store(real_server.db) as store:
        yield {
            "usual": _tournament(store, 60),
            "up to 30": _tournament(store, 60, _roster(60)),
            "all 30": _tournament(store, 60, _thirty(60)),
        }


@pytest.mark.parametrize("roster", ["usual", "up to 30", "all 30"])
def test_sixty_players_at_1024_by_768_use_the_height(real_server, chromium, boards, roster):
    token, names = boards[roster]
    with one_tab(chromium, viewport={"width": WIDTH, "height": HEIGHT}) as page:
        for lang in ("en", "ru", "uk"):
            where = f"60 players ({roster}), {lang}"
            cards_before = _cards_cut(page, f"{real_server.url}/tv/{token}/board?lang={lang}&")
            page.goto(f"{real_server.url}/tv/{token}/board?lang={lang}")
            page.wait_for_selector(".board-standings[data-fitted]")
            shot(page, f"board-fit-{roster.replace(' ', '')}-{lang}-1024x768", full=False)
            seen = page.evaluate(MEASURE)
            assert sorted(n["text"] for n in seen["names"]) == sorted(names), where
            assert page.evaluate(CUT) == [], where
            assert seen["scroll"] == [WIDTH, HEIGHT] and not any(seen["scrolls"]), where
            for row in seen["names"] + seen["points"]:
                left, top, right, bottom = row["box"]
                assert left >= 0 and top >= 0 and right <= WIDTH and bottom <= HEIGHT, (where, row)
            size = min(n["size"] for n in seen["names"] + seen["points"])
            print(f"{where}: {size:.0f} px")
            assert size >= (16 if roster == "usual" else 13), (where, size)
            more = page.evaluate(ONE_MORE)
            assert size >= 16 or more["over"], (where, size)  # else the largest that fits
            assert more["used"] >= 0.8, (where, more)
            assert _cards_cut(page, "") <= cards_before, where


def _cards_cut(page: Any, url: str) -> int:
    """Table cards whose title or progress is cut; with a url: on the board without its
    script's fitting (board.js kept out), as the style sheet alone draws it."""
    if url:
        page.route("**/static/board.js*", lambda route: route.abort())
        page.goto(url)
        page.unroute("**/static/board.js*")
    return int(
        page.evaluate(
            """() => [...document.querySelectorAll('.btable')].filter((c) =>
              [c.querySelector('h2'), c.querySelector('.bprogress')]
                .some((e) => e.scrollWidth > e.clientWidth + 1)).length"""
        )
    )
