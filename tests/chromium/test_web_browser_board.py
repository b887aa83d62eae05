"""Browser tier: the tournament board on every screen a club puts it on — a TV at 1920 × 1080
and 960 × 540, laptops at 1366 × 768 and 1280 × 720, a projector at 1024 × 768, and a
browser zoomed to 200 % — with 12, 24 and 60 players (and 200, in scrolling columns).

Every name and every table is within the screen (nothing cut off, nothing to scroll to, at
200 % zoom everything reachable by scrolling); up to 24 players the names and points are at
least 32 px at 1920 × 1080; points are decimals; "withdrew" is as large as the names. The
screenshots are in tests/artifacts/board-<players>-<size>.png.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.games import load
from scorekeeper.store import Store
from scorekeeper.tournament import service

from ..browser import low_contrast, one_tab, shot

pytestmark = pytest.mark.browser

SIZES = [(1920, 1080), (1366, 768), (1280, 720), (1024, 768), (960, 540)]
ZOOMED = [(1920, 1080), (1366, 768)]  # at 200 %: half the CSS pixels, twice the density
FIRST = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zoya", "Ivan", "Klara", "Lev",
         "Maria", "Nikita", "Olena", "Petro", "Raisa", "Semyon", "Taras", "Uliana", "Fedir",
         "Khrystyna", "Tsvetana", "Shamil", "Yulia", "Yaroslav"]  # fmt: skip
LAST = ["Kovalenko", "Shevchuk", "Bondar", "Melnyk", "Tkachenko", "Kravets", "Oliynyk"]


def _names(count: int) -> list[str]:
    names = [f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)][: 3 + i % 5]}" for i in range(count)]
    names[-1] = "Yaroslav Kovalenko-Zadniprovsky"  # the long one every club has
    return names


def _play(store: Store, record: Any, tour: int) -> None:
    """A few deals at each table of a tour (a different number at each)."""
    for table in record.tour(tour):
        game = store.get_game(table.game.edit_token)
        for i in range(table.table_no % 4):
            active = load(game).sheet.next_active
            deal = {"type": "contract", "declarer": active[0], "contract": ["6S", "7C"][i % 2],
                    "answers": {active[1]: "pass", active[2]: "pass"}}  # fmt: skip
            game = store.add_deal(game.edit_token, deal, base_version=game.version)[0]


def _tournament(store: Store, count: int, names: list[str] | None = None) -> tuple[str, list[str]]:
    """A tournament of `count` players (these names, or the club's usual ones): tour 1 played
    and closed early, one player gone, tour 2 seated and under way; its read-only token and
    the names."""
    rng = random.Random(count)
    names = names or _names(count)
    record = service.tournaments(store).create(  # the store: past the form's 100 players
        name=f"Kyiv club cup, December — {count} players",
        convention="sochi",
        options={"pool_target": 20, "round_limit": 3},
        table_size=3,
        bands=service.BAND_PRESETS["halves"],
        roster=names,
        tours_planned=5,
    )
    seat = {"table_name": lambda t, n: f"{t}.{n}", "rng": rng}
    record = service.seat(store, record.edit_token, record.version, **seat)  # type: ignore[arg-type]
    _play(store, record, 1)
    record = service.close_tour(store, record.edit_token, record.version, early=True)
    record = service.withdraw(store, record.edit_token, record.version, names[1])
    record = service.seat(store, record.edit_token, record.version, **seat)  # type: ignore[arg-type]
    _play(store, record, 2)
    return record.view_token, names


@pytest.fixture(scope="module")
def boards(real_server: Any) -> Iterator[dict[int, tuple[str, list[str]]]]:
    with Store(real_server.db) as store:
        yield {count: _tournament(store, count) for count in (12, 24, 60, 200)}


MEASURE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  const size = (el) => parseFloat(getComputedStyle(el).fontSize);
  const cut = (el) => el.scrollWidth > el.clientWidth + 1;
  const doc = document.documentElement;
  return {
    scroll: [doc.scrollWidth, doc.scrollHeight],
    scrolls: [".board-standings", ".board-tables"].map((q) => {
      const el = document.querySelector(q); return el.scrollHeight > el.clientHeight + 1; }),
    names: [...document.querySelectorAll(".board-standings td.name")].map((el) => ({
      text: el.querySelector("bdi").textContent, box: box(el), size: size(el), cut: cut(el)})),
    points: [...document.querySelectorAll(".board-standings td.pts")].map((el) => ({
      text: el.textContent.trim(), box: box(el), size: size(el)})),
    gone: [...document.querySelectorAll(".board-standings .gone")].map(size),
    tables: [...document.querySelectorAll(".btable")].map((el) => ({
      box: box(el), cut: [cut(el.querySelector(".bprogress")), cut(el.querySelector("h2")),
        el.scrollHeight > el.clientHeight + 1, el.scrollWidth > el.clientWidth + 1]
        .map((c, i) => c ? ["progress", "title", "height", "width"][i] : "").join(""),
      size: size(el.querySelector(".bprogress"))})),
  };
}"""


def _look(page: Any, server: Any, token: str, name: str, width: int, height: int) -> dict[str, Any]:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{server.url}/tv/{token}/board")
    zoomed = page.evaluate("devicePixelRatio") > 1
    shot(page, name, full=zoomed)
    seen: dict[str, Any] = page.evaluate(MEASURE)
    if width >= 1280 and not zoomed:
        assert low_contrast(page) == []
    return seen


@pytest.mark.parametrize("count", [12, 24, 60])
def test_the_board_fits_every_screen(real_server, chromium, boards, count: int) -> None:
    token, names = boards[count]
    with one_tab(chromium) as tab:
        looks = [
            (w, h, _look(tab, real_server, token, f"board-{count}-{w}x{h}", w, h)) for w, h in SIZES
        ]
    for width, height, seen in looks:
        where = f"{count} players at {width}×{height}"
        assert seen["scroll"][0] <= width and seen["scroll"][1] <= height, (where, seen["scroll"])
        assert sorted(n["text"] for n in seen["names"]) == sorted(names), where
        for row in seen["names"] + seen["points"]:
            left, top, right, bottom = row["box"]
            assert left >= 0 and top >= 0 and right <= width and bottom <= height, (where, row)
        assert len(seen["tables"]) == (count - 1) // 3
        for table in seen["tables"]:
            left, top, right, bottom = table["box"]
            assert left >= 0 and top >= 0 and right <= width and bottom <= height, (where, table)
            assert not table["cut"], (where, table)  # its title, progress and players all shown
        # names of an ordinary length are never cut; points are decimals, never fractions
        for row in seen["names"]:
            if len(row["text"]) <= (14 if count <= 24 else 12):
                assert not row["cut"], (where, row)
        for row in seen["points"]:
            assert re.fullmatch(r"[+−]?[0-9][0-9,. \u00a0]*", row["text"]), (where, row)
        assert any("." in p["text"] for p in seen["points"])  # the bands made tenths
        # "withdrew" as large as the names
        assert seen["gone"] and all(g == seen["names"][0]["size"] for g in seen["gone"]), where
        smallest = min(n["size"] for n in seen["names"] + seen["points"])
        print(f"{where}: names and points ≥ {smallest:.1f} px,"
              f" table progress {min(t['size'] for t in seen['tables']):.1f} px")  # fmt: skip
        if width == 1920 and count <= 24:
            assert smallest >= 32, (where, smallest)


@pytest.mark.parametrize("count", [12, 60])
def test_at_200_percent_zoom_everything_is_reachable(real_server, chromium, boards, count):
    token, names = boards[count]
    with one_tab(chromium, device_scale_factor=2) as tab:
        looks = [
            (w, h, _look(tab, real_server, token, f"board-{count}-{w}x{h}-zoom", w // 2, h // 2))
            for w, h in ZOOMED
        ]
    for width, height, seen in looks:
        w = width // 2
        where = f"{count} players at {width}×{height}, 200 %"
        assert seen["scroll"][0] <= w, (where, seen["scroll"])  # nothing off to the side
        tall = seen["scroll"][1]
        assert sorted(n["text"] for n in seen["names"]) == sorted(names)
        for row in seen["names"] + seen["points"] + seen["tables"]:
            left, top, right, bottom = row["box"]
            assert left >= 0 and top >= 0 and right <= w and bottom <= tall + 1, (where, row)
        for row in seen["names"]:
            if len(row["text"]) <= (14 if count <= 24 else 12):
                assert not row["cut"], (where, row)
        assert min(n["size"] for n in seen["names"]) >= 12


def test_two_hundred_players_in_scrolling_columns(real_server, chromium, boards) -> None:
    token, names = boards[200]
    with one_tab(chromium) as tab:
        seen = _look(tab, real_server, token, "board-200-1920x1080", 1920, 1080)
    assert seen["scroll"][0] <= 1920 and seen["scroll"][1] <= 1080
    assert sorted(n["text"] for n in seen["names"]) == sorted(names)
    assert min(n["size"] for n in seen["names"]) >= 16
    for row in seen["names"] + seen["points"] + seen["tables"]:  # nothing off to the side
        assert row["box"][0] >= 0 and row["box"][2] <= 1920, row
    assert not any(t["cut"] for t in seen["tables"])
    assert seen["scrolls"] == [True, True]  # the standings and the tables scroll in place
