"""A Balkan partija's paper as its players draw it, for the game page and the PDF: each
player's supe on his left neighbour | his bule column (hats over it) | supe on his right
neighbour (with four players a column on the fourth too), his refe as triangles; and what
each entry wrote and why, in words."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper import balkan
from scorekeeper.balkan import KIND_LABELS
from scorekeeper.report_balkan import say
from scorekeeper.wording import Words

#: How the paper draws a refa, by its state.
REFA_MARKS = {"open": "△", "passed": "▲", "failed": "⊿"}


@dataclass(frozen=True)
class Cell:
    """One value of a bule column, and the hat drawn before it ("", "hat", "hat-crossed")."""

    value: str
    hat: str = ""


@dataclass(frozen=True)
class PlayerPaper:
    """One player's part of the paper."""

    name: str
    supe: tuple[tuple[str, tuple[str, ...]], ...]
    """(on whom, running sums) — the left neighbour first, then the right, then a fourth."""
    bule: tuple[Cell, ...]
    refe: tuple[str, ...]
    now: int

    @property
    def left(self) -> tuple[str, tuple[str, ...]]:
        return self.supe[0]

    @property
    def right(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return self.supe[1:]


def paper(sheet: balkan.Sheet) -> list[PlayerPaper]:
    """Each player's part of the paper as the sheet stands."""
    game = sheet.game
    out = []
    for p in sheet.players:
        others = [game.left_of(p), game.right_of(p)]
        others += [q for q in sheet.players if q not in others and q != p]
        out.append(
            PlayerPaper(
                p,
                tuple((q, _running(sheet, p, q)) for q in others),
                _cells(sheet.column(p)),
                sheet.refe(p),
                sheet.bule(p),
            )
        )
    return out


def _running(sheet: balkan.Sheet, writer: str, on: str) -> tuple[str, ...]:
    """The supe `writer` wrote on `on`, as running sums the way the paper adds them up."""
    sums = [0]
    for outcome in sheet.outcomes:
        for w, o, amount in outcome.supe:
            if w == writer and o == on and amount:
                sums.append(sums[-1] + amount)
    return tuple(str(s) for s in sums)


def _cells(column: tuple[str, ...]) -> tuple[Cell, ...]:
    cells: list[Cell] = []
    hat = ""
    for item in column:
        if item in ("hat", "hat-crossed"):
            hat = item
            continue
        cells.append(Cell(item, hat))
        hat = ""
    return tuple(cells)


def outcome_lines(sheet: balkan.Sheet, w: Words) -> list[tuple[int, str, str]]:
    """Each entry: its number, its kind in words, what it wrote and why."""
    return [
        (o.number, w.gettext(KIND_LABELS.get(o.kind, o.kind)), "; ".join(say(w, y) for y in o.why))
        for o in sheet.outcomes
    ]
