"""Browser tier: every name on the tournament board whole (issue 50, item 9). Names up to 30
characters (a space in some, none in others) on boards of 6, 24 and 60 players, in en, ru and
uk, at 320 × 568, 375 × 667, 1024 × 768, 1366 × 768 and 1920 × 1080: no name ends in "…" or
is cut, "withdrew" is whole, nothing runs off the right edge (the whists column at 320 px
neither), and the landscape screens still need no scrolling."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import one_tab, shot
from .test_web_browser_board import MEASURE, _tournament

pytestmark = pytest.mark.browser

SIZES = [(320, 568), (375, 667), (1024, 768), (1366, 768), (1920, 1080)]
LONG = ["Oleksandra Kovalenko-Zadnipro", "Констянтин Вишнегородський", "Maximilianus-Hieronymus",
        "Анастасия Преображенская", "Volodymyrivna Khmelnytska", "Святославович-Запорожский"]  # fmt: skip
SHORT = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zoya", "Ivan", "Klara", "Lev"]
CUT = """() => [...document.querySelectorAll('.board-standings td.name, .board-standings .gone')]
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === 'ellipsis')
  .map((el) => el.textContent.trim())"""


def _roster(count: int) -> list[str]:
    """Long names and short ones, each unique, the long ones up to 30 characters."""
    names = [f"{LONG[i % len(LONG)][: 24 + i % 7]} {i}" if i % 3 == 0 else
             f"{SHORT[i % len(SHORT)]} {i}" for i in range(count)]  # fmt: skip
    assert max(len(n) for n in names) <= 33 and len(set(names)) == count
    return names


@pytest.fixture(scope="module")
def boards(real_server: Any) -> Iterator[dict[int, tuple[str, list[str]]]]:
    with Store(real_server.db) as store:
        yield {count: _tournament(store, count, _roster(count)) for count in (6, 24, 60)}


@pytest.mark.parametrize("count", [6, 24, 60])
def test_every_name_whole_on_every_screen_and_language(real_server, chromium, boards, count):
    token, names = boards[count]
    with one_tab(chromium) as page:  # the board opened at each size in turn
        _every_screen(page, real_server.url, token, names, count)


def _every_screen(page: Any, server: str, token: str, names: list[str], count: int) -> None:
    for lang in ("en", "ru", "uk"):
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{server}/tv/{token}/board?lang={lang}")
            where = f"{count} players, {lang}, {width}×{height}"
            if lang == "uk" or width == 320:
                shot(page, f"board-names-{count}-{lang}-{width}x{height}", full=width < 800)
            seen = page.evaluate(MEASURE)
            assert sorted(n["text"] for n in seen["names"]) == sorted(names), where
            assert page.evaluate(CUT) == [], where
            assert seen["scroll"][0] <= width, (where, seen["scroll"])
            for row in seen["names"] + seen["points"]:
                assert row["box"][0] >= 0 and row["box"][2] <= width, (where, row)
            whists = page.locator(".board-standings td.minor:visible")
            for i in range(min(whists.count(), 5)):
                box = whists.nth(i).bounding_box()
                assert box is not None and box["x"] + box["width"] <= width, where
            if lang == "en":
                print(f"{where}: names ≥ {min(n['size'] for n in seen['names']):.1f} px")
            if width >= 1024:  # a screen on the wall: all of it at once
                assert seen["scroll"][1] <= height, (where, seen["scroll"])
                assert not any(seen["scrolls"]), where
