"""The PDF's whists columns on one line (issue 50, item 9): five players with long names and
five-digit whists, in English, Russian and Ukrainian, on A4 and A5.

Read from WeasyPrint's own layout (the boxes it puts on the page): every cell of a whists
column, its heading (the name it is written on) and each row's net whists holds exactly one
line, and the totals table is no wider than the page's printable width.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from weasyprint import HTML

from scorekeeper.gamefile import load
from scorekeeper.render.pdf import TEMPLATES, sheet_html

from ..helpers import game_file

NAMES = [
    "Anastasia Konstantinopolskaya",
    "Bartholomew Featherstonehaugh",
    "Валентина Владимировна Петрова",
    "Геннадій Олександрович Кузьмін",
    "Daria Svyatoslavovna Orlova",
]
AMOUNTS = [98765, 43210, 12345, 99900, 55555]


def _boxes(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", None) or []:
        yield from _boxes(child)


def _lines(cell: Any) -> list[str]:
    """The text of each line WeasyPrint laid out in a table cell."""
    return [
        "".join(t.text for t in _boxes(line) if type(t).__name__ == "TextBox")
        for line in _boxes(cell)
        if type(line).__name__ == "LineBox"
    ]


def _game(count: int) -> Any:
    """`count` players, each writing five-digit whists on every other (corrections)."""
    players = NAMES[:count]
    deals = [
        {
            "type": "correction",
            "reason": "carried over from paper",
            "entries": [{"player": a, "whists_on": b, "amount": AMOUNTS[(i + j) % 5] - 20 * j}],
        }
        for i, a in enumerate(players)
        for j, b in enumerate(players)
        if a != b
    ]
    options = {"stake": "1", "currency": "EUR"}
    return load(game_file(deals, players=players, first_dealer=players[0], options=options))


@pytest.mark.parametrize(
    ("count", "locale", "size"),
    [(5, "en", "A4"), (5, "ru", "A4"), (5, "uk", "A4"), (5, "uk", "A5"), (5, "ru", "A5"),
     (4, "en", "A5"), (3, "uk", "A5")],
)  # fmt: skip
def test_every_whists_cell_holds_one_line(count: int, locale: str, size: str) -> None:
    document = HTML(
        string=sheet_html(_game(count), locale=locale, page_size=size), base_url=str(TEMPLATES)
    ).render()
    printable = document.pages[0]._page_box.width
    # A cell is its element: a table carried over to the next page repeats its headings and
    # may split a row; its lines are the lines of all its pieces.
    lines: dict[int, list[str]] = {}
    tables = []
    for box in (b for page in document.pages for b in _boxes(page._page_box)):
        kind = type(box).__name__
        classes = (box.element.get("class") or "").split() if box.element is not None else []
        if kind == "TableBox" and "totals" in classes:
            tables.append(box.margin_width())
        if kind == "TableCellBox" and ("whists" in classes or "whists-on" in classes):
            if box.element_tag == "th" and id(box.element) in lines:
                continue  # the headings repeated over the rest of the table
            lines.setdefault(id(box.element), []).extend(_lines(box))
    assert len(lines) == count * count + 2 * count  # the headings, the amounts, the net
    assert [cell for cell in lines.values() if len(cell) != 1] == []
    assert tables and max(tables) <= printable + 0.5, (tables, printable)
