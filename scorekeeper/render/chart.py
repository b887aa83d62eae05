"""Small static line charts as SVG: the evening deal by deal, the company evening by evening.

Built with ElementTree (all text escaped), no script, a viewBox only. Colours are plain
presentation attributes for the PDF, with classes for the page's CSS (dark mode):
`chart` (the svg), `chart-axis`, `chart-grid`, `chart-zero`, `chart-line chart-sN` (one
polyline per player, its exact values in `data-values`), `chart-key` (the legend).
Every line also has its own dash pattern, so the lines differ without colour too.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scorekeeper.rules import Sheet
from scorekeeper.rules.company import net_after_each_deal
from scorekeeper.wording import ENGLISH, Words

SVG_NS = "http://www.w3.org/2000/svg"
FONT_FAMILY = "DejaVu Sans, sans-serif"
WIDTH = 360.0
PLOT_TOP, PLOT_HEIGHT = 12.0, 150.0
LEFT, RIGHT = 44.0, 12.0
PLOT_WIDTH = WIDTH - LEFT - RIGHT
FONT = 11.0
INK, GRID = "#222222", "#bbbbbb"
#: Colours readable on white and on a dark card, and dash patterns for the colour-blind.
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#e08a00", "#9467bd", "#8c564b")
DASHES = ("none", "6 3", "2 3", "8 3 2 3", "1 2", "4 4")

Number = Fraction | Decimal


def line_chart(
    series: Sequence[tuple[str, Sequence[Number]]],
    *,
    title: str,
    x_label: str,
    x_start: int = 0,
    x_names: Sequence[str] = (),
    css_class: str = "chart",
    words: Words = ENGLISH,
) -> str:
    """One line per (name, values); value i is drawn at x = x_start + i, its tick named
    x_names[i] when given (else x_start + i). An SVG string."""
    count = max((len(values) for _, values in series), default=0)
    every = [float(v) for _, values in series for v in values] or [0.0]
    plot = _Plot(count, *_scale(min(every + [0.0]), max(every + [0.0])))
    key_rows = math.ceil(len(series) / 2)
    height = PLOT_TOP + PLOT_HEIGHT + 30 + key_rows * 16 + 4
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "viewBox": f"0 0 {WIDTH:g} {height:g}",
            "class": css_class,
            "role": "img",
            "font-family": FONT_FAMILY,
            "font-size": f"{FONT:g}",
        },
    )
    ET.SubElement(root, "title").text = title
    ET.SubElement(root, "desc").text = _describe(series, words)
    _value_axis(root, plot, words)
    _x_axis(root, plot, x_names or [str(x_start + i) for i in range(count)], x_label)
    for n, (name, values) in enumerate(series):
        _line(root, plot, n, name, values)
        _key(root, n, name, values, words)
    return ET.tostring(root, encoding="unicode")


@dataclass(frozen=True)
class _Plot:
    """The plot's scale: `count` values across, from `low` to `high` up, a grid line every
    `step`."""

    count: int
    low: float
    high: float
    step: float

    def x(self, i: int) -> float:
        return LEFT + (PLOT_WIDTH * i / (self.count - 1) if self.count > 1 else PLOT_WIDTH / 2)

    def y(self, v: float) -> float:
        return PLOT_TOP + PLOT_HEIGHT * (self.high - v) / (self.high - self.low)


def _value_axis(root: ET.Element, plot: _Plot, words: Words) -> None:
    """A grid line and its amount at every step, the zero line darker."""
    tick = plot.low
    while tick <= plot.high + plot.step / 2:
        zero = abs(tick) < plot.step / 1000
        ET.SubElement(
            root,
            "line",
            {
                "class": "chart-zero" if zero else "chart-grid",
                "x1": _f(LEFT),
                "x2": _f(WIDTH - RIGHT),
                "y1": _f(plot.y(tick)),
                "y2": _f(plot.y(tick)),
                "stroke": INK if zero else GRID,
                "stroke-width": "1" if zero else "0.5",
            },
        )
        amount = words.amount(Fraction(round(tick * 1000), 1000))
        _axis_text(root, LEFT - 4, plot.y(tick) + FONT / 3, "end", amount)
        tick += plot.step


def _x_axis(root: ET.Element, plot: _Plot, names: Sequence[str], x_label: str) -> None:
    """Numbers under a few of the values, and what they count at the right."""
    for i in _x_ticks(plot.count):
        _axis_text(root, plot.x(i), PLOT_TOP + PLOT_HEIGHT + 14, "middle", names[i])
    _axis_text(root, WIDTH - RIGHT, PLOT_TOP + PLOT_HEIGHT + 26, "end", x_label)


def _axis_text(root: ET.Element, x: float, y: float, anchor: str, text: str) -> None:
    label = ET.SubElement(
        root,
        "text",
        {"class": "chart-axis", "x": _f(x), "y": _f(y), "text-anchor": anchor, "fill": INK},
    )
    label.text = text


def _line(root: ET.Element, plot: _Plot, n: int, name: str, values: Sequence[Number]) -> None:
    """Player n's line, its exact values kept in data-values."""
    points = " ".join(f"{_f(plot.x(i))},{_f(plot.y(float(v)))}" for i, v in enumerate(values))
    attrs = {
        "class": f"chart-line chart-s{n % len(COLOURS)}",
        "points": points,
        "fill": "none",
        "stroke": COLOURS[n % len(COLOURS)],
        "stroke-width": "2.2",
        "stroke-linejoin": "round",
        "data-player": name,
        "data-values": " ".join(str(v) for v in values),
    }
    _dash(attrs, n)
    ET.SubElement(root, "polyline", attrs)


def _key(root: ET.Element, n: int, name: str, values: Sequence[Number], words: Words) -> None:
    """Player n in the legend, two names a row under the plot: a piece of his line, his
    name and where he ends."""
    kx = LEFT + (n % 2) * (PLOT_WIDTH / 2)
    ky = PLOT_TOP + PLOT_HEIGHT + 34 + (n // 2) * 16
    key = ET.SubElement(root, "g", {"class": "chart-key"})
    attrs = {
        "class": f"chart-line chart-s{n % len(COLOURS)}",
        "x1": _f(kx),
        "x2": _f(kx + 22),
        "y1": _f(ky + 6),
        "y2": _f(ky + 6),
        "stroke": COLOURS[n % len(COLOURS)],
        "stroke-width": "2.2",
    }
    _dash(attrs, n)
    ET.SubElement(key, "line", attrs)
    last: Number = values[-1] if values else Fraction(0)
    text = ET.SubElement(
        key, "text", {"x": _f(kx + 27), "y": _f(ky + 10), "fill": INK, "class": "chart-axis"}
    )
    text.text = f"{_short(name)} {_signed(last, words)}"


def _dash(attrs: dict[str, str], n: int) -> None:
    """Player n's dash pattern (the first player's line is solid)."""
    dash = DASHES[n % len(DASHES)]
    if dash != "none":
        attrs["stroke-dasharray"] = dash


def evening_chart(
    sheet: Sheet, words: Words = ENGLISH, points: Sequence[Mapping[str, Fraction]] | None = None
) -> str:
    """The evening as a chart: each player's "if it ended now" net after every deal
    (points: those already computed, as net_after_each_deal gives them)."""
    if points is None:
        points = net_after_each_deal(sheet)
    series = [(p, [point[p] for point in points]) for p in sheet.players]
    _ = words.gettext
    title, x_label = _("The result after each deal"), _("deal")
    return line_chart(
        series, title=title, x_label=x_label, x_names=_deals_dealt(sheet), words=words
    )


def _deals_dealt(sheet: Sheet) -> list[str]:
    """The axis's numbers: the deals dealt at the table by each point (a correction or a
    penalty is an entry, not a deal: the count stays), so the last is sheet.deal_count()."""
    names, dealt = ["0"], 0
    for result in sheet.results:
        dealt += result.deal.kind not in ("correction", "penalty")
        names.append(str(dealt))
    return names


def standings_chart(
    names: Mapping[str, str],
    running: Sequence[Mapping[str, Decimal]],
    words: Words = ENGLISH,
) -> str:
    """The company's money summed evening after evening, one line per player (id → name)."""
    series = [
        (name, [Decimal(0), *(point.get(pid, Decimal(0)) for point in running)])
        for pid, name in names.items()
    ]
    _ = words.gettext
    title, x_label = _("Money, evening by evening"), _("evening")
    return line_chart(series, title=title, x_label=x_label, words=words)


def _scale(low: float, high: float) -> tuple[float, float, float]:
    """Round bounds and a tick step giving 3 to 6 grid lines."""
    if high - low < 1e-9:
        high, low = low + 1, low - 1
    raw = (high - low) / 4
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _x_ticks(count: int) -> list[int]:
    if count <= 1:
        return list(range(count))
    every = max(1, math.ceil((count - 1) / 8))
    ticks = list(range(0, count, every))
    if ticks[-1] != count - 1 and count - 1 - ticks[-1] >= every / 2:
        ticks.append(count - 1)
    return ticks


def _describe(series: Sequence[tuple[str, Sequence[Number]]], words: Words) -> str:
    return "; ".join(
        f"{name}: {_signed(values[-1], words) if values else '0'}" for name, values in series
    )


def _signed(value: Number, words: Words) -> str:
    """+12⅓ for whists, +26.66 for money (a true minus sign), in the words' language."""
    if isinstance(value, Decimal):
        text = words.money(abs(value))
    else:
        text = words.amount(abs(Fraction(value)))
    return ("+" if value > 0 else "−" if value < 0 else "") + text


def _short(name: str) -> str:
    return name if len(name) <= 14 else name[:13] + "…"


def _f(value: float) -> str:
    return f"{value:.1f}"
