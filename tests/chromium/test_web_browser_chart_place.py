"""Browser tier: the evening's chart comes after the sheet (its own request), and the page
does not move when it comes. Its place is kept at the chart's own height from the first
paint until the chart is in it, for two to five players (a key row for every two), so the
jump-to-entry button under it stays where the scorer's thumb is going (a full run once found
it pushed off a 1024 × 768 screen between the scroll and the tap: the place collapsed while
the chart was on its way).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper import gamefile, sample
from scorekeeper.games import create_from_game
from scorekeeper.store import Store

from ..browser import held_requests, pumped
from ..harness import until

pytestmark = pytest.mark.browser

TOP = "(s) => document.querySelector(s).getBoundingClientRect().top"
HEIGHT = "(s) => document.querySelector(s).getBoundingClientRect().height"


def _game(server: Any, convention: str, players: int) -> str:
    data = sample.random_game(
        random.Random(players), 12, convention=convention, players=players, corrections=False
    )
    with Store(server.db) as store:
        return create_from_game(store, gamefile.load(data)).edit_token


@pytest.mark.parametrize("width", [375, 1024])
def test_the_sheet_stays_put_while_the_chart_comes(
    chromium: Any, real_server: Any, width: int
) -> None:
    context = chromium.new_context(viewport={"width": width, "height": 768})
    try:
        page = context.new_page()
        held = held_requests(page, "**/chart.svg")
        for convention, players in (("hussar", 2), ("sochi", 3), ("sochi", 4), ("leningrad", 5)):
            where = f"{width} px, {players} players"
            held.clear()
            page.goto(f"{real_server.url}/g/{_game(real_server, convention, players)}")
            until(pumped(page, lambda: bool(held)), f"{where}: the chart asked for")
            box = page.evaluate(HEIGHT, ".chart-box")
            jump = page.evaluate(TOP, "details.jump > summary")
            assert box > 100, where  # its place is kept while it is on its way
            held[0].continue_()
            page.wait_for_selector(".chart-box svg")
            page.wait_for_selector(".chart-box:not([data-chart]):not([data-loading])")
            drawn = page.evaluate(HEIGHT, ".chart-box")
            assert abs(drawn - box) <= 2, f"{where}: kept {box:.1f} px, drawn {drawn:.1f} px"
            moved = page.evaluate(TOP, "details.jump > summary") - jump
            assert abs(moved) <= 2, f"{where}: the jump button moved {moved:.1f} px"
    finally:
        context.close()
