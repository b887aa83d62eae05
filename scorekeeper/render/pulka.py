"""The classic paper pulka as SVG: one sector per player, whists, pool and hill as running sums.

The sheet is a rectangle cut into sectors by lines from the centre, where the pool target is
written in a circle. Each sector holds nested bands, from the edge inwards: the whists the
player wrote on each opponent (on the side facing that opponent), his pool, his hill and
his name. The band boundaries are copies of the outer rectangle scaled about the centre, so
every corner of every band lies on the line from the centre to a corner, as on paper.

The drawing is built with ElementTree (all text escaped), has no fixed size (a viewBox only),
and carries classes for the page's CSS plus plain presentation attributes for the PDF (a CSS
rule wins over an attribute, so a page can theme it, e.g. for a dark mode):

- `pulka-paper` (background rect), `pulka-frame` (outer rect), `pulka-divider` (lines);
- `pulka-sector` (one `g` per player, `data-player`), inside it the bands as polygons
  `pulka-band pulka-whists|pulka-pool|pulka-hill|pulka-name`, the pool band also `closed`
  once the pool reaches the target, with a `pulka-closed-line`;
- `pulka-chain` groups (`pulka-whists-on` with `data-on`, `pulka-pool-sum`, `pulka-hill-sum`)
  of `pulka-sum` texts, the last value in a `pulka-total` tspan, the check in `pulka-check`;
- `pulka-name` texts; `pulka-target-circle` and `pulka-target` in the centre.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scorekeeper.rules import Sheet
from scorekeeper.wording import ENGLISH, Words

SVG_NS = "http://www.w3.org/2000/svg"
FONT_FAMILY = "DejaVu Sans, sans-serif"

#: The drawing's size in user units (the viewBox); the page scales it.
WIDTH, HEIGHT = 520.0, 420.0
CENTRE = (WIDTH / 2, HEIGHT / 2)
TARGET_RADIUS = 26.0

#: Band boundaries as scales of the outer rectangle about the centre: whists, pool, hill, name.
SCALES = (1.0, 0.838, 0.648, 0.476, 0.17)
BANDS = ("whists", "pool", "hill", "name")

CHAIN_FONT, CHAIN_MIN_FONT = 15.0, 11.0
NAME_FONT, NAME_MIN_FONT = 15.0, 11.0
MAX_LINES = 2
LINE_HEIGHT = 1.2
PAD = 5.0

INK = "#222222"
PAPER = "#ffffff"
RULE = "#555555"
CLOSED_FILL = "#e6f2e6"
CLOSED_STROKE = "#2e7d32"

Point = tuple[float, float]


@dataclass(frozen=True)
class _SectorLayout:
    """Where one seat's sector lies: its outer edge, the side for pool/hill/name, the whists."""

    edge: tuple[Point, ...]
    """The sector's part of the outer rectangle, clockwise, in units of (WIDTH, HEIGHT)."""
    main: int
    """The side (segment of `edge`) that holds pool, hill and name."""
    whists: tuple[tuple[int, tuple[int, ...]], ...]
    """(side, opponents as seat offsets clockwise, in reading order along that side)."""


#: Seats go clockwise from the top sector.
LAYOUTS: dict[int, tuple[_SectorLayout, ...]] = {
    2: (
        _SectorLayout(((0, 0.5), (0, 0), (1, 0), (1, 0.5)), 1, ((1, (1,)),)),
        _SectorLayout(((1, 0.5), (1, 1), (0, 1), (0, 0.5)), 1, ((1, (1,)),)),
    ),
    3: (
        _SectorLayout(((0, 0), (1, 0)), 0, ((0, (2, 1)),)),
        _SectorLayout(((1, 0), (1, 1), (0.5, 1)), 1, ((0, (2,)), (1, (1,)))),
        _SectorLayout(((0.5, 1), (0, 1), (0, 0)), 0, ((0, (2,)), (1, (1,)))),
    ),
    4: (
        _SectorLayout(((0, 0), (1, 0)), 0, ((0, (3, 2, 1)),)),
        _SectorLayout(((1, 0), (1, 1)), 0, ((0, (3, 2, 1)),)),
        _SectorLayout(((1, 1), (0, 1)), 0, ((0, (1, 2, 3)),)),
        _SectorLayout(((0, 1), (0, 0)), 0, ((0, (3, 2, 1)),)),
    ),
    # Five: the top middle, then the right with the top-right corner, the right half of the
    # bottom, its left half, and the left with the top-left corner (about equal edges).
    5: (
        _SectorLayout(((0.15, 0), (0.85, 0)), 0, ((0, (4, 3, 2, 1)),)),
        _SectorLayout(((0.85, 0), (1, 0), (1, 0.75)), 1, ((0, (4,)), (1, (3, 2, 1)))),
        _SectorLayout(((1, 0.75), (1, 1), (0.5, 1)), 1, ((0, (4,)), (1, (1, 2, 3)))),
        _SectorLayout(((0.5, 1), (0, 1), (0, 0.75)), 0, ((0, (2, 3, 4)), (1, (1,)))),
        _SectorLayout(((0, 0.75), (0, 0), (0.15, 0)), 0, ((0, (4, 3, 2)), (1, (1,)))),
    ),
}


def pulka_svg(
    sheet: Sheet, *, title: str | None = None, css_class: str = "pulka", words: Words = ENGLISH
) -> str:
    """The sheet drawn as a paper pulka, as an SVG document string (no XML declaration).

    In Hussar (no hill: §9) the hill band is left out and the name takes its place.
    """
    words = words.at_table(sheet.game)
    players = sheet.players
    layouts = LAYOUTS[len(players)]
    root = _paper(sheet, title, css_class, words)
    ET.SubElement(root, _SECTORS)
    _draw_frame(root)
    _draw_target(root, sheet.options.pool_target)
    sectors = "".join(
        _sector_svg(players, seat, layout, sheet.closed(player), sheet.game.hussar, chains)
        for seat, (player, layout) in enumerate(zip(players, layouts, strict=True))
        for chains in [_chains(sheet, player, words)]
    )
    return ET.tostring(root, encoding="unicode").replace(f"<{_SECTORS} />", sectors, 1)


def _paper(sheet: Sheet, title: str | None, css_class: str, words: Words) -> ET.Element:
    """The SVG document with its title and description (each read once by a screen reader)
    and the blank paper, nothing drawn on it yet."""
    uid = _uid(sheet, title)
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "viewBox": f"0 0 {WIDTH:g} {HEIGHT:g}",
            "class": css_class,
            "role": "img",
            # The name once (the title), the summary once (the description): a screen reader
            # reads each one time.
            "aria-labelledby": f"{uid}-title",
            "aria-describedby": f"{uid}-desc",
            "font-family": FONT_FAMILY,
            "preserveAspectRatio": "xMidYMid meet",
        },
    )
    heading = title if title is not None else words.gettext("Pulka")
    ET.SubElement(root, "title", {"id": f"{uid}-title"}).text = _clean(heading)
    ET.SubElement(root, "desc", {"id": f"{uid}-desc"}).text = _clean(describe(sheet, words))
    ET.SubElement(
        root,
        "rect",
        {
            "class": "pulka-paper",
            "x": "0",
            "y": "0",
            "width": f"{WIDTH:g}",
            "height": f"{HEIGHT:g}",
            "fill": PAPER,
            "stroke": "none",
        },
    )
    return root


_SECTORS = "pulka-sectors-go-here"
"""Where the sectors, drawn on their own (_sector_svg), are put into the drawing."""

_Chains = tuple[tuple[tuple[str, tuple[str, ...]], ...], tuple[str, ...], tuple[str, ...]]
"""A player's running sums as written: (whists on each other player, pool, hill)."""


def _chains(sheet: Sheet, player: str, words: Words) -> _Chains:
    whists = tuple(
        (other, tuple(_chain(sheet.running(player, "whists", other), words)))
        for other in sheet.players
        if other != player
    )
    pool = tuple(_chain(sheet.running(player, "pool"), words))
    hill = tuple(_chain(sheet.running(player, "hill"), words))
    return whists, pool, hill


def describe(sheet: Sheet, words: Words = ENGLISH) -> str:
    """The drawing in words: the pool target and each player's pool, hill and whists."""
    gettext, amount = words.gettext, words.amount
    parts = [gettext("Pool target %(target)s.", target=sheet.options.pool_target)]
    for player in sheet.players:
        whists = ", ".join(
            gettext(
                "on %(name)s: %(amount)s", name=other, amount=amount(sheet.whists(player, other))
            )
            for other in sheet.players
            if other != player
        )
        closed = sheet.closed(player)
        if sheet.game.hussar:
            parts.append(
                gettext(
                    "%(name)s: pool %(pool)s%(closed)s, whists %(whists)s.",
                    name=player,
                    pool=amount(sheet.pool(player)),
                    closed=gettext(" (closed)") if closed else "",
                    whists=whists,
                )
            )
            continue
        parts.append(
            gettext(
                "%(name)s: pool %(pool)s%(closed)s, hill %(hill)s, whists %(whists)s.",
                name=player,
                pool=amount(sheet.pool(player)),
                closed=gettext(" (closed)") if closed else "",
                hill=amount(sheet.hill(player)),
                whists=whists,
            )
        )
    return " ".join(parts)


# -- geometry ------------------------------------------------------------------------------------


def _at(unit: Point) -> Point:
    return (unit[0] * WIDTH, unit[1] * HEIGHT)


def _scaled(point: Point, scale: float) -> Point:
    cx, cy = CENTRE
    return (cx + scale * (point[0] - cx), cy + scale * (point[1] - cy))


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


@dataclass(frozen=True)
class _Side:
    """One straight side of a sector's edge and how text is written along it."""

    start: Point
    end: Point

    @property
    def horizontal(self) -> bool:
        return self.start[1] == self.end[1]

    @property
    def outward(self) -> Point:
        """The unit normal pointing away from the centre."""
        if self.horizontal:
            return (0.0, -1.0 if self.start[1] < CENTRE[1] else 1.0)
        return (-1.0 if self.start[0] < CENTRE[0] else 1.0, 0.0)

    @property
    def depth(self) -> float:
        """Distance from the centre to this side of the outer rectangle."""
        return HEIGHT / 2 if self.horizontal else WIDTH / 2

    @property
    def angle(self) -> int:
        """Rotation of the text: upright on top and bottom, facing outwards on the sides."""
        if self.horizontal:
            return 0
        return 90 if self.outward[0] > 0 else -90

    @property
    def reading(self) -> tuple[Point, Point]:
        """The side's end points in reading order (left to right, or along the rotation)."""
        a, b = self.start, self.end
        if self.horizontal:
            return (a, b) if a[0] <= b[0] else (b, a)
        if self.angle == 90:
            return (a, b) if a[1] <= b[1] else (b, a)
        return (a, b) if a[1] >= b[1] else (b, a)

    @property
    def first_line_outside(self) -> bool:
        """Whether the first line of a block is the outermost (text 'up' points outwards)."""
        return not (self.horizontal and self.outward[1] > 0)

    def span(self, scale: float, part: tuple[float, float]) -> tuple[Point, Point]:
        """The part (fractions in reading order) of this side scaled about the centre."""
        a, b = self.reading
        a, b = _scaled(a, scale), _scaled(b, scale)
        return _lerp(a, b, part[0]), _lerp(a, b, part[1])


def _sides(layout: _SectorLayout) -> list[_Side]:
    edge = [_at(p) for p in layout.edge]
    return [_Side(edge[i], edge[i + 1]) for i in range(len(edge) - 1)]


# -- drawing -------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _sector_svg(
    players: tuple[str, ...],
    seat: int,
    layout: _SectorLayout,
    closed: bool,
    no_hill: bool,
    chains: _Chains,
) -> str:
    """One player's sector as SVG: its bands, the whists on each opponent, pool, hill and
    name. Kept, so that a deal redraws only the sectors it wrote in."""
    player = players[seat]
    group = ET.Element("g", {"class": "pulka-sector", "data-player": _clean(player)})
    edge = [_at(p) for p in layout.edge]
    _draw_bands(group, edge, closed, no_hill)
    sides = _sides(layout)
    whists_on = dict(chains[0])
    for side_index, opponents in layout.whists:
        others = [players[(seat + offset) % len(players)] for offset in opponents]
        _draw_whists(group, sides[side_index], [(o, whists_on[o]) for o in others])
    main, whole = sides[layout.main], (0.0, 1.0)
    _, pool, hill = chains
    pool_band, hill_band = (SCALES[1], SCALES[2]), (SCALES[2], SCALES[3])
    _write_chain(group, main, pool_band, whole, list(pool), "pulka-pool-sum", None, check=closed)
    if not no_hill:
        _write_chain(group, main, hill_band, whole, list(hill), "pulka-hill-sum", None)
    _write_name(group, main, player, SCALES[2] if no_hill else SCALES[3])
    return ET.tostring(group, encoding="unicode")


def _draw_bands(group: ET.Element, edge: list[Point], closed: bool, no_hill: bool) -> None:
    """The sector's bands from the edge inwards (whists, pool, hill, name), the pool green
    once closed, and the rules where the sector turns a corner."""
    for band, (outer, inner) in enumerate(itertools.pairwise(SCALES)):
        name = BANDS[band]
        if no_hill and name == "hill":
            continue
        if no_hill and name == "name":
            outer = SCALES[2]
        classes = f"pulka-band pulka-{name}" + (" closed" if name == "pool" and closed else "")
        shape = [_scaled(p, outer) for p in edge] + [_scaled(p, inner) for p in reversed(edge)]
        if band == len(BANDS) - 1:
            shape = [_scaled(p, outer) for p in edge] + [CENTRE]
        ET.SubElement(
            group,
            "polygon",
            {
                "class": classes,
                "points": _points(shape),
                "fill": CLOSED_FILL if "closed" in classes else PAPER,
                "stroke": RULE,
                "stroke-width": "1",
                "stroke-linejoin": "round",
            },
        )
    if closed:
        ET.SubElement(
            group,
            "polyline",
            {
                "class": "pulka-closed-line",
                "points": _points([_scaled(p, SCALES[2]) for p in edge]),
                "fill": "none",
                "stroke": CLOSED_STROKE,
                "stroke-width": "2.5",
            },
        )
    # Where a sector turns a corner, its whists are cut at the corner (one area per side).
    for corner in edge[1:-1]:
        _rule(group, _scaled(corner, SCALES[0]), _scaled(corner, SCALES[1]), "pulka-divider")


def _draw_whists(group: ET.Element, side: _Side, chains: list[tuple[str, tuple[str, ...]]]) -> None:
    """The whists written on each opponent along one side, in reading order, ruled apart."""
    count = len(chains)
    band = (SCALES[0], SCALES[1])
    for i, (other, values) in enumerate(chains):
        part = (i / count, (i + 1) / count)
        if i:
            a, _ = side.span(SCALES[0], part)
            b, _ = side.span(SCALES[1], part)
            _rule(group, a, b, "pulka-divider")
        _write_chain(group, side, band, part, list(values), "pulka-whists-on", other)


def _rule(parent: ET.Element, a: Point, b: Point, css: str) -> None:
    ET.SubElement(
        parent,
        "line",
        {
            "class": css,
            "x1": f"{a[0]:.1f}",
            "y1": f"{a[1]:.1f}",
            "x2": f"{b[0]:.1f}",
            "y2": f"{b[1]:.1f}",
            "stroke": RULE,
            "stroke-width": "1",
        },
    )


def _draw_frame(root: ET.Element) -> None:
    ET.SubElement(
        root,
        "rect",
        {
            "class": "pulka-frame",
            "x": "1",
            "y": "1",
            "width": f"{WIDTH - 2:g}",
            "height": f"{HEIGHT - 2:g}",
            "fill": "none",
            "stroke": INK,
            "stroke-width": "2",
        },
    )


def _draw_target(root: ET.Element, target: int) -> None:
    cx, cy = CENTRE
    ET.SubElement(
        root,
        "circle",
        {
            "class": "pulka-target-circle",
            "cx": f"{cx:g}",
            "cy": f"{cy:g}",
            "r": f"{TARGET_RADIUS:g}",
            "fill": PAPER,
            "stroke": INK,
            "stroke-width": "1.5",
        },
    )
    label = str(target)
    size = min(18.0, 1.6 * TARGET_RADIUS / (0.7 * len(label)))
    text = ET.SubElement(
        root,
        "text",
        {
            "class": "pulka-target",
            "x": f"{cx:g}",
            "y": f"{cy + 0.36 * size:.1f}",
            "text-anchor": "middle",
            "font-size": f"{size:.1f}",
            "font-weight": "bold",
            "fill": INK,
        },
    )
    text.text = label


# -- text ----------------------------------------------------------------------------------------


def _chain(sums: Sequence[Fraction], words: Words) -> list[str]:
    return [words.amount(s) for s in sums]


def _write_chain(
    parent: ET.Element,
    side: _Side,
    scales: tuple[float, float],
    part: tuple[float, float],
    values: list[str],
    css: str,
    on: str | None,
    *,
    check: bool = False,
) -> None:
    """Write a running sum in its band: wrapped, shrunk, or cut from the front to fit."""
    if not values:
        return
    tail = " ✓" if check else ""
    size, lines = _chain_layout(side, scales, part, tuple(values), tail)
    attrs = {"class": f"pulka-chain {css}"}
    if on is not None:
        attrs["data-on"] = _clean(on)
    group = ET.SubElement(parent, "g", attrs)
    for i, (line, last) in enumerate(lines):
        text = _text(group, side, scales, part, size, i, len(lines), "pulka-sum")
        if last:
            head, _, final = line.rpartition(".")
            final_value = final[: len(final) - len(tail)] if tail else final
            text.text = head + "." if head else None
            span = ET.SubElement(text, "tspan", {"class": "pulka-total", "font-weight": "bold"})
            span.text = final_value
            if tail:
                mark = ET.SubElement(text, "tspan", {"class": "pulka-check", "fill": CLOSED_STROKE})
                mark.text = tail
        else:
            text.text = line


@functools.lru_cache(maxsize=1024)
def _chain_layout(
    side: _Side,
    scales: tuple[float, float],
    part: tuple[float, float],
    values: tuple[str, ...],
    tail: str,
) -> tuple[float, list[tuple[str, bool]]]:
    """The font size and the lines of a running sum in its band (kept: after a deal only
    the chains it wrote on are laid out again)."""
    thickness = (scales[0] - scales[1]) * side.depth
    for size in _sizes(CHAIN_FONT, CHAIN_MIN_FONT):
        max_lines = max(1, min(MAX_LINES, int((thickness - 2) // (size * LINE_HEIGHT))))
        widths = _line_widths(side, scales, part, size, max_lines)
        lines = _wrap(list(values), tail, size, widths)
        if lines is not None:
            return size, lines
    size = CHAIN_MIN_FONT
    max_lines = max(1, min(MAX_LINES, int((thickness - 2) // (size * LINE_HEIGHT))))
    widths = _line_widths(side, scales, part, size, max_lines)
    return size, _wrap_tail(list(values), tail, size, widths)


def _write_name(parent: ET.Element, side: _Side, player: str, outer: float) -> None:
    scales = (outer, SCALES[4])
    for size in _sizes(NAME_FONT, NAME_MIN_FONT):
        (width,) = _line_widths(side, scales, (0.0, 1.0), size, 1, outermost=True)
        shown = _shorten(_clean(player), width, size, bold=True)
        if shown == _clean(player) or size == NAME_MIN_FONT:
            break
    text = _text(parent, side, scales, (0.0, 1.0), size, 0, 1, "pulka-name", outermost=True)
    text.set("font-weight", "bold")
    text.text = shown


def _sizes(largest: float, smallest: float) -> list[float]:
    return [largest - i for i in range(int(largest - smallest) + 1)]


def _line_box(
    side: _Side, scales: tuple[float, float], size: float, index: int, count: int, outermost: bool
) -> tuple[float, float]:
    """Distances from the centre (outer, inner) of one line of a block in a band."""
    outer, inner = scales[0] * side.depth, scales[1] * side.depth
    height = size * LINE_HEIGHT
    block = height * count
    top = outer - 3 if outermost else outer - (outer - inner - block) / 2
    slot = index if side.first_line_outside else count - 1 - index
    return top - slot * height, top - (slot + 1) * height


def _line_widths(
    side: _Side,
    scales: tuple[float, float],
    part: tuple[float, float],
    size: float,
    count: int,
    *,
    outermost: bool = False,
) -> list[float]:
    """The usable length of each line (what `_line_span` leaves of it)."""
    widths = []
    for index in range(count):
        box = _line_box(side, scales, size, index, count, outermost)
        widths.append(math.dist(*_line_span(side, part, box)) - 2 * PAD)
    return widths


def _line_span(
    side: _Side, part: tuple[float, float], box: tuple[float, float]
) -> tuple[Point, Point]:
    """Where one line may run, on its middle: the part of the band between its two rules at
    both the line's outer and inner edge. The rules are rays from the centre, so an area
    off the centre (a five-player sheet's corners) leans: measured at one edge and centred
    on the middle, its text ran into a rule."""
    outer, inner = box
    middle = (outer + inner) / 2
    a, b = side.span(middle / side.depth, part)
    length = math.dist(a, b) or 1.0
    along = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)

    def at(point: Point) -> float:  # the distance along the line from a
        return (point[0] - a[0]) * along[0] + (point[1] - a[1]) * along[1]

    ends = [side.span(edge / side.depth, part) for edge in (outer, inner)]
    start = max(at(end[0]) for end in ends)
    stop = max(start, min(at(end[1]) for end in ends))
    return (
        (a[0] + along[0] * start, a[1] + along[1] * start),
        (a[0] + along[0] * stop, a[1] + along[1] * stop),
    )


def _text(
    parent: ET.Element,
    side: _Side,
    scales: tuple[float, float],
    part: tuple[float, float],
    size: float,
    index: int,
    count: int,
    css: str,
    *,
    outermost: bool = False,
) -> ET.Element:
    box = _line_box(side, scales, size, index, count, outermost)
    x, y = _lerp(*_line_span(side, part, box), 0.5)
    attrs = {
        "class": css,
        "x": f"{x:.1f}",
        "y": f"{y + 0.36 * size:.1f}",
        "font-size": f"{size:g}",
        "text-anchor": "middle",
        "fill": INK,
    }
    if side.angle:
        attrs["transform"] = f"rotate({side.angle} {x:.1f} {y:.1f})"
    return ET.SubElement(parent, "text", attrs)


def _wrap(
    values: list[str], tail: str, size: float, widths: list[float]
) -> list[tuple[str, bool]] | None:
    """Break "2.6.10" after dots into at most len(widths) lines, or None if it does not fit."""
    lines: list[str] = []
    current, current_em = "", 0.0
    limits = [width / size for width in widths]  # in em, as the pieces are measured
    last = len(values) - 1
    for i, value in enumerate(values):
        piece = value + (tail if i == last else ".")
        piece_em = _text_em(piece) * (BOLD if i == last else 1.0)  # the total is bold
        if current and current_em + piece_em > limits[len(lines)]:
            lines.append(current)
            current, current_em = "", 0.0
            if len(lines) == len(limits):
                return None
        current += piece
        current_em += piece_em
    if current_em > limits[len(lines)]:
        return None
    lines.append(current)
    return [(line, i == len(lines) - 1) for i, line in enumerate(lines)]


def _wrap_tail(
    values: list[str], tail: str, size: float, widths: list[float]
) -> list[tuple[str, bool]]:
    """The last values that fit, after a leading "…"; the final total is always kept."""

    def attempt(start: int) -> list[tuple[str, bool]] | None:
        return _wrap(["…" + values[start]] + values[start + 1 :], tail, size, widths)

    # Fewer values always fit if more do: binary search for the earliest start that fits.
    low, high, best = 1, len(values) - 1, None
    while low <= high:
        middle = (low + high) // 2
        lines = attempt(middle)
        if lines is not None:
            best, high = lines, middle - 1
        else:
            low = middle + 1
    return best if best is not None else [("…" + values[-1] + tail, True)]


#: How much wider DejaVu Sans Bold runs than the regular face (a little generous).
BOLD = 1.1

#: Advance widths in em of DejaVu Sans, a little generous; enough to keep text in its band.
_NARROW = set(".,:;!|'ilIj ")


def _width(text: str, size: float, *, bold: bool = False) -> float:
    """An estimate of the text's rendered width in user units."""
    return _text_em(text) * size * (BOLD if bold else 1.0)


@functools.lru_cache(maxsize=16384)
def _text_em(text: str) -> float:
    """The advance width of a text in em (a chain's values come back on every drawing)."""
    return sum(map(_em, text))


@functools.lru_cache(maxsize=4096)
def _em(char: str) -> float:
    """The advance width of one character in em (marks take none)."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0.0
    if char in _NARROW:
        return 0.33
    if char.isdigit():
        return 0.64
    if unicodedata.east_asian_width(char) in ("W", "F") or ord(char) > 0x2FFF:
        return 1.25
    if char in "…−✓" or char.isupper():
        return 0.85
    return 0.66


def _shorten(text: str, width: float, size: float, *, bold: bool = False) -> str:
    """The text, or its beginning with "…", so that it fits the width."""
    if _width(text, size, bold=bold) <= width:
        return text
    for end in range(len(text) - 1, 0, -1):
        candidate = text[:end].rstrip() + "…"
        if _width(candidate, size, bold=bold) <= width:
            return candidate
    return "…"


def _clean(text: str) -> str:
    """Text that XML can carry: characters XML 1.0 forbids are dropped."""
    return "".join(
        c
        for c in text
        if c in "\t\n\r"
        or (ord(c) >= 0x20 and not 0xD800 <= ord(c) <= 0xDFFF and c not in "\ufffe\uffff")
    )


def _uid(sheet: Sheet, title: str | None) -> str:
    """A stable id prefix, distinct for different sheets drawn on one page."""
    players = sheet.players
    key = repr(
        (
            title,
            players,
            len(sheet.entries),
            [(sheet.pool(p), sheet.hill(p)) for p in players],
            [sheet.whists(p, q) for p in players for q in players if p != q],
        )
    ).encode()
    return "pulka-" + hashlib.sha1(key, usedforsecurity=False).hexdigest()[:8]


def forget_drawn() -> None:
    """Drop the sectors and chain layouts kept between drawings: the next drawing makes
    them anew."""
    _sector_svg.cache_clear()
    _chain_layout.cache_clear()
