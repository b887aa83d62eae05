"""The evening and company charts: static SVG whose points are the settlements themselves."""

from __future__ import annotations

import random
import subprocess
import xml.etree.ElementTree as ET
from decimal import Decimal
from fractions import Fraction

from scorekeeper import gamefile
from scorekeeper.render.chart import evening_chart, line_chart, standings_chart
from scorekeeper.render.pdf import sheet_pdf
from scorekeeper.rules import score, settle
from scorekeeper.sample import random_game
from scorekeeper.wording import ENGLISH

NS = {"svg": "http://www.w3.org/2000/svg"}


def lines(svg: str) -> dict[str, list[str]]:
    root = ET.fromstring(svg)
    return {
        p.get("data-player"): p.get("data-values").split()
        for p in root.iterfind(".//svg:polyline", NS)
    }


def test_each_line_of_the_evening_is_the_settlement_after_every_deal():
    data = random_game(random.Random(7), 25, convention="sochi", players=4)
    game = gamefile.load(data)
    sheet = score(game)
    drawn = lines(evening_chart(sheet))
    assert set(drawn) == set(game.players)
    for k in range(len(game.deals) + 1):
        part = score(gamefile.load({**data, "deals": data["deals"][:k], "finished": False}))
        net = settle(part).net
        for player in game.players:
            assert Fraction(drawn[player][k]) == net[player]


def test_the_chart_is_static_and_scales_to_the_page():
    svg = evening_chart(score(gamefile.load(random_game(random.Random(3), 10))))
    root = ET.fromstring(svg)
    assert root.get("viewBox") and not root.get("width")  # the page sets the size
    assert "script" not in svg and "style=" not in svg and "<style" not in svg
    assert root.find("svg:title", NS).text


def test_a_flat_or_empty_chart_still_draws():
    svg = line_chart([("Anna", [Fraction(0)]), ("Boris", [])], title="t", x_label="deal")
    assert set(lines(svg)) == {"Anna", "Boris"}


def test_company_chart_starts_at_zero_and_ends_at_the_money_summed():
    running = [
        {"1": Decimal("5.00"), "2": Decimal("-5.00")},
        {"1": Decimal("2.50"), "2": Decimal("-2.50")},
    ]
    drawn = lines(standings_chart({"1": "Anna", "2": "Boris"}, running))
    assert drawn == {"Anna": ["0", "5.00", "2.50"], "Boris": ["0", "-5.00", "-2.50"]}


def test_the_pdf_shows_the_evening_chart(tmp_path):
    game = gamefile.load(random_game(random.Random(11), 12, convention="sochi", players=3))
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(sheet_pdf(game))
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    net = settle(score(game)).net
    before_totals = text.split("Totals")[0]
    for player in game.players:  # the chart's legend: each name with its last point
        assert f"{player} {ENGLISH.signed(net[player])}" in before_totals
