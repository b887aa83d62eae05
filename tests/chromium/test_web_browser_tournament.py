"""Browser tier: a club tournament on the real server — nine players, three tours. The
director's phone creates it and seats each tour, three table phones score by taps from
their scorer links, the board on a big screen follows by itself; the final standings are
those of the downloaded tournament file."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.games import load
from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.tournament import service

from ..browser import (
    ARTIFACTS,
    SERVE,
    SMALL_PHONE,
    WAIT_MS,
    enter_deal,
    low_contrast,
    no_overflow,
    save_deal,
    shot,
    small_targets,
    sticking_out,
    unnamed_controls,
)
from ..harness import NINE

pytestmark = pytest.mark.browser

CONTRACTS = ["6S", "7S", "8S"]
TV = {"width": 1920, "height": 1080}


@pytest.fixture
def contexts(chromium: Any) -> Iterator[dict[str, Any]]:
    """The director's phone, three table phones (375 × 667) and the board (1920 × 1080)."""
    made = {
        "director": chromium.new_context(viewport=SMALL_PHONE, accept_downloads=True),
        "board": chromium.new_context(viewport=TV),
        **{f"table{i}": chromium.new_context(viewport=SMALL_PHONE) for i in (1, 2, 3)},
    }
    pages = {}
    problems: list[str] = []
    for name, ctx in made.items():
        ctx.set_default_timeout(WAIT_MS)
        page = ctx.new_page()
        page.on("pageerror", lambda e: problems.append(str(e)))
        pages[name] = page
    pages["problems"] = problems
    try:
        yield pages
    finally:
        for ctx in made.values():
            ctx.close()


def standings_on(page: Any) -> list[tuple[str, str, str]]:
    """(place, player, points) of each standings row on a page, top to bottom."""
    return [
        (
            r.get_attribute("data-place"),
            r.get_attribute("data-player"),
            r.get_attribute("data-points") or "",
        )
        for r in page.locator("tr[data-player]").all()
    ]


def report_of(data: dict[str, Any], tmp_path: Any) -> dict[str, Any]:
    """`scorekeeper tournament FILE` of a downloaded file."""
    path = tmp_path / "downloaded.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    done = subprocess.run([str(SERVE), "tournament", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def play_table(page: Any, server: str, store: Store, game_token: str, shift: int) -> None:
    """A table phone scores its game by taps: each deal the next active player declares a
    contract both others pass."""
    for i in range(3):
        record = store.get_game(game_token)
        active = load(record).sheet.next_active
        page.goto(f"{server}/g/{game_token}/deal/new")
        enter_deal(
            page,
            list(record.players),
            "contract",
            declarer=active[0],
            contract=CONTRACTS[(i + shift) % 3],
            answers={active[1]: "pass", active[2]: "pass"},
        )
        save_deal(page)


def test_nine_players_three_tours_director_tables_and_board(real_server, contexts, tmp_path):
    server = real_server.url
    director, board = contexts["director"], contexts["board"]

    # The director creates the tournament on a phone.
    director.goto(f"{server}/")
    director.locator("#new-tournament-link").click()
    director.wait_for_url("**/tournament/new")
    no_overflow(director)
    director.fill("#name", "December cup")
    director.fill("#roster", "\n".join(NINE))
    director.fill("#rounds", "1")
    director.locator('#bands_preset .tap[data-value="cup"]').click()
    director.locator("#new-tournament button[type=submit]").click()
    director.wait_for_url(f"{server}/t/**")
    token = director.url.rsplit("/", 1)[-1].split("#")[0]

    # The board goes up on the big screen (read-only link).
    board.goto(director.locator("#board-link").get_attribute("href"))
    assert "/tv/" in board.url

    with Store(real_server.db) as store:
        for tour in (1, 2, 3):
            record = Tournaments(store).get(token)
            expected = None
            if tour > 1:
                expected = service.overview(record).report["next_tour"]
            director.locator("#seat").click()
            director.wait_for_selector("a.scorer-link")
            no_overflow(director)
            assert sticking_out(director) == []
            if tour == 1:
                shot(director, "tournament-director")
                assert small_targets(director) == []
                assert unnamed_controls(director) == []
                assert low_contrast(director) == []
            links = [a.get_attribute("href") for a in director.locator("a.scorer-link").all()]
            assert len(links) == 3 and director.locator(".ttable .qr svg").count() == 3
            seated = Tournaments(store).get(token).tour(tour)
            if expected is not None:  # Swiss: tour k's tables follow the standings
                assert [sorted(t.game.players) for t in seated] == [sorted(t) for t in expected]
            board.wait_for_selector(f'.board-head[data-tour="{tour}"]')
            assert board.locator(".btable").count() == 3
            for i, link in enumerate(links, start=1):
                phone = contexts[f"table{i}"]
                phone.goto(link)  # the table's scorer scanned the code
                play_table(phone, server, store, link.rsplit("/", 1)[-1], shift=i + tour)
                if tour == 1 and i == 1:
                    # the board follows by itself: table 1 is over, the others not started
                    board.wait_for_selector('.btable.done[data-table="1"]')
            board.wait_for_selector(".board-tables:not(:has(.btable:not(.done)))")
            director.reload()
            director.locator("#close-tour").click()
            director.wait_for_selector("#seat" if tour < 3 else "#standings")

        director.reload()
        with director.expect_download() as download:
            director.locator('a[href$="/tournament.json"]').click()
        data = json.loads(Path(download.value.path()).read_text())
        report = report_of(data, tmp_path)
        final = [(str(s["place"]), s["player"], str(s["points"])) for s in report["standings"]]
        assert standings_on(director) == final
        board.wait_for_selector(".board-head")
        board.reload()
        assert [(p, n) for p, n, _ in standings_on(board)] == [(p, n) for p, n, _ in final]
        assert len(data["tours"]) == 3 and all(len(t["tables"]) == 3 for t in data["tours"])
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        board.screenshot(path=str(ARTIFACTS / "tournament-board-nine.png"))
    assert contexts["problems"] == []


def test_the_board_shows_24_players_and_8_tables_without_scrolling(real_server, chromium):
    """The big screen at 1920 × 1080: 24 players' standings and 8 tables' progress fit."""
    rng = random.Random(25)
    names = [
        "Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zoya", "Ivan", "Klara", "Lev",
        "Maria", "Nikita", "Olena", "Petro", "Raisa", "Semyon", "Taras", "Uliana", "Fedir",
        "Khrystyna", "Tsvetana", "Shamil", "Yulia", "Yaroslav Kovalenko-Zadniprovsky",
    ]  # fmt: skip
    with Store(real_server.db) as store:
        record = service.create(
            store,
            name="Kyiv club cup, December",
            convention="sochi",
            options={"pool_target": 20, "round_limit": 3},
            table_size=3,
            bands=service.BAND_PRESETS["cup"],
            roster=names,
        )
        record = service.seat(
            store, record.edit_token, record.version, table_name=lambda t, n: f"{t}.{n}", rng=rng
        )
        for table in record.tour(1):
            game = store.get_game(table.game.edit_token)
            for _ in range(table.table_no - 1):
                active = load(game).sheet.next_active
                deal = {"type": "contract", "declarer": active[0], "contract": "6S",
                        "answers": {active[1]: "pass", active[2]: "pass"}}  # fmt: skip
                game = store.add_deal(game.edit_token, deal, base_version=game.version)[0]
    ctx = chromium.new_context(viewport=TV)
    try:
        page = ctx.new_page()
        page.goto(f"{real_server.url}/tv/{record.view_token}/board")
        shot(page, "tournament-board", full=False)
        sizes = page.evaluate(
            "[document.documentElement.scrollHeight, document.documentElement.scrollWidth]"
        )
        assert sizes[0] <= TV["height"] and sizes[1] <= TV["width"], sizes
        rows = page.locator(".board-standings tbody tr")
        assert rows.count() == 24
        assert page.locator(".btable").count() == 8
        for locator in (rows.nth(23), page.locator(".btable").nth(7)):
            box = locator.bounding_box()
            assert box["y"] + box["height"] <= TV["height"], box
        size = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.board-standings td')).fontSize)"
        )
        assert size >= 26  # readable from across the room
        assert page.locator("form, button, input, select").count() == 0
        assert low_contrast(page) == []
        if (ARTIFACTS / "tournament-board.png").exists():
            shutil.copy(ARTIFACTS / "tournament-board.png", ARTIFACTS / "board-1920.png")
    finally:
        ctx.close()


def test_a_late_player_joins_by_taps_between_tours_and_sits_in_tour_two(real_server, chromium):
    """At phone size the director adds a player after tour 1 is closed (issue 31, reading
    12): the roster's name rule answers next to the field, the standings say when he
    joined, and "Seat tour 2" seats him by the standings with 0 for tour 1."""
    six = NINE[:6]
    with Store(real_server.db) as store:
        record = service.create(
            store, name="Late cup", convention="sochi", options={"round_limit": 1},
            table_size=3, bands=[], roster=six,
        )  # fmt: skip
        record = service.seat(
            store, record.edit_token, record.version, table_name=lambda t, n: f"{t}.{n}",
            rng=random.Random(31),
        )  # fmt: skip
        for table in record.tour(1):  # one deal a table, then the tour is closed early
            game = store.get_game(table.game.edit_token)
            active = load(game).sheet.next_active
            deal = {"type": "contract", "declarer": active[0], "contract": "6S",
                    "answers": {active[1]: "pass", active[2]: "pass"}}  # fmt: skip
            store.add_deal(game.edit_token, deal, base_version=game.version)
        record = Tournaments(store).get(record.edit_token)
        service.close_tour(store, record.edit_token, record.version, early=True)
    token = record.edit_token
    ctx = chromium.new_context(viewport=SMALL_PHONE)
    problems: list[str] = []
    try:
        director = ctx.new_page()
        director.on("pageerror", lambda e: problems.append(str(e)))
        director.goto(f"{real_server.url}/t/{token}")
        join = director.locator("#join")
        join.locator("input[name=name]").fill("ANNA")
        join.locator("button[type=submit]").click()
        director.wait_for_selector("#join")
        assert "ANNA is on the roster already" in director.locator("#join").inner_text()
        director.locator("#join input[name=name]").fill("Lev")
        director.locator("#join button[type=submit]").click()
        director.wait_for_selector("tr[data-player='Lev']")
        row = director.locator("tr[data-player='Lev']").inner_text()
        assert "joined before tour 2" in row
        shot(director, "tournament-late-player")
        # The mark under the name wraps there: unwrapped it widened the name's column until
        # the points broke mid-number ("+13.3" over "3") and the headings mid-word.
        broken = director.evaluate(
            "Array.from(document.querySelectorAll('.tstandings thead th, .tstandings td.num'))"
            ".filter(e => { const r = document.createRange(); r.selectNodeContents(e);"
            " const tops = new Set(Array.from(r.getClientRects()).map(x => Math.round(x.bottom)));"
            " return tops.size > 1; }).map(e => e.textContent.trim())"
        )
        assert broken == [], broken
        no_overflow(director)
        assert sticking_out(director) == []
        assert small_targets(director) == []
        director.locator("#seat").click()
        director.wait_for_selector("a.scorer-link")
        with Store(real_server.db) as store:
            record = Tournaments(store).get(token)
            seated = record.tour(2)
            expected = service.overview(record).report
        assert [len(t.game.players) for t in seated] == [4, 3]  # §4 for the seven present
        assert "Lev" in {p for t in seated for p in t.game.players}
        lev = next(s for s in expected["standings"] if s["player"] == "Lev")
        assert lev["tours"] == 1 and record.joined == [{"player": "Lev", "before_tour": 2}]
        no_overflow(director)
    finally:
        ctx.close()
    assert problems == []
