"""Browser tier: the drawn pulka's numbers stay off its rules, measured with the real font.

The running sums of a long five-player game (whists in the hundreds in every area, the
corner areas leaning with the diagonals) are drawn in headless Chromium, the same SVG the
page shows and the PDF prints; every line of figures must lie inside its area: no rule (a
divider, a diagonal, a band's edge) crosses a figure's box."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper.render.pulka import PAD, WIDTH, pulka_svg

from ..render.test_render_pulka import game

pytestmark = pytest.mark.browser

FIVE = ["Anna", "Boris", "Vera", "Dmitri", "Yelena"]

MEASURE = """() => {
  const svg = document.querySelector('svg'), m = svg.getScreenCTM();
  const at = (x, y) => { const p = new DOMPoint(x, y).matrixTransform(m); return [p.x, p.y]; };
  const rules = [];
  svg.querySelectorAll('line').forEach(l => rules.push([
    at(+l.getAttribute('x1'), +l.getAttribute('y1')), at(+l.getAttribute('x2'), +l.getAttribute('y2'))]));
  svg.querySelectorAll('polygon').forEach(p => {
    const pts = p.getAttribute('points').trim().split(/\\s+/).map(xy => at(...xy.split(',').map(Number)));
    pts.forEach((a, i) => rules.push([a, pts[(i + 1) % pts.length]]));
  });
  const texts = [...svg.querySelectorAll('g.pulka-chain text')].map(t => {
    const r = t.getBoundingClientRect();
    return [t.textContent, r.left, r.top, r.right, r.bottom];
  });
  return {rules, texts};
}"""


def _crosses(rule: list[list[float]], box: tuple[float, float, float, float]) -> bool:
    """Whether a segment passes through the inside of an axis-aligned box."""
    (x1, y1), (x2, y2) = rule
    left, top, right, bottom = box
    # Liang-Barsky clipping: some part of the segment strictly inside the box.
    t0, t1 = 0.0, 1.0
    dx, dy = x2 - x1, y2 - y1
    for p, q in ((-dx, x1 - left), (dx, right - x1), (-dy, y1 - top), (dy, bottom - y1)):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return False
    return True


def _long_five_player_game() -> Any:
    rng = random.Random(7)
    deals = []
    for i in range(70):
        declarer, first, second = (FIVE[(i + k) % 5] for k in range(2, 5))
        level = rng.choice([6, 7, 8, 9])
        tricks = max(0, min(10, rng.choice([level, level, level - 1, level + 1])))
        rest = 10 - tricks
        deals.append({
            "type": "contract", "declarer": declarer, "contract": f"{level}S",
            "answers": {first: "whist", second: "whist"},
            "tricks": {declarer: tricks, first: rest // 2, second: rest - rest // 2},
        })  # fmt: skip
    return game(FIVE, deals, first_dealer="Anna", options={"pool_target": 200})


def test_no_rule_crosses_a_figure_of_a_long_five_player_pulka(chromium: Any) -> None:
    svg = pulka_svg(_long_five_player_game())
    context = chromium.new_context(viewport={"width": 900, "height": 700})
    try:
        page = context.new_page()
        page.set_content(
            "<!doctype html><style>body{margin:0;font-family:'DejaVu Sans'}svg{width:900px}</style>"
            + svg
        )
        found = page.evaluate(MEASURE)
    finally:
        context.close()
    assert len(found["texts"]) > 40
    # At least half the drawing's padding clear of every rule on either side (before, the
    # corner areas' lines were centred as if they did not lean: 3 px at this size, touching
    # the diagonal in print), and the figures' height: digits have no descenders.
    clear = PAD / 2 * 900 / WIDTH
    crossed = []
    for text, left, top, right, bottom in found["texts"]:
        height = bottom - top
        box = (left - clear, top + 0.2 * height, right + clear, bottom - 0.2 * height)
        if any(_crosses(rule, box) for rule in found["rules"]):
            crossed.append(text)
    assert crossed == []
