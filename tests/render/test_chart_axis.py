"""The evening chart's axis counts deals, not entries (issue 50, item 8): on a game of 19
deals and 4 corrections and penalties its last number is 19, not 23 (the PDF's chart and the
page's are the one drawing)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from scorekeeper import gamefile, sample
from scorekeeper.render.chart import _x_ticks, evening_chart
from scorekeeper.rules import replay

SVG = "{http://www.w3.org/2000/svg}"


def _x_numbers(svg: str) -> list[str]:
    """The x axis's numbers (its ticks are the texts drawn centred under the plot)."""
    root = ET.fromstring(svg)
    return [
        t.text or ""
        for t in root.iter(f"{SVG}text")
        if t.get("text-anchor") == "middle" and (t.text or "").isdigit()
    ]


def test_the_axis_counts_the_deals_dealt_not_the_entries() -> None:
    for seed in range(40):
        data = sample.random_game(
            random.Random(seed), 30, players=3, corrections=True, penalties=True
        )
        sheet = replay(gamefile.load(data))[0]
        extra = len(sheet.results) - sheet.deal_count()
        if extra >= 2:
            break
    assert extra >= 2, "a game with corrections or penalties among its deals"
    dealt = [0]
    for result in sheet.results:
        dealt.append(dealt[-1] + (result.deal.kind not in ("correction", "penalty")))
    numbers = _x_numbers(evening_chart(sheet))
    assert numbers == [str(dealt[i]) for i in _x_ticks(len(dealt))]
    assert dealt[-1] == sheet.deal_count() < len(sheet.results)
    assert int(numbers[-1]) <= sheet.deal_count()
