"""A Balkan partija's paper as its players draw it, for the game page and the PDF: each
player's supe on his left neighbour | his bule column (hats over it) | supe on his right
neighbour (with four players a column on the fourth too), his refe as triangles; and what
each entry wrote and why, in words."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from scorekeeper import balkan
from scorekeeper.report_balkan import numbered_outcomes, say
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


def paper(sheet: balkan.Sheet, w: Words) -> list[PlayerPaper]:
    """Each player's part of the paper as the sheet stands, its numbers as the reader's
    language writes them (one minus sign, −, as the money's and the Russian sheet's)."""
    game = sheet.game
    out = []
    for p in sheet.players:
        others = [game.left_of(p), game.right_of(p)]
        others += [q for q in sheet.players if q not in others and q != p]
        out.append(
            PlayerPaper(
                p,
                tuple((q, _running(sheet, p, q, w)) for q in others),
                _cells(sheet.column(p), w),
                sheet.refe(p),
                sheet.bule(p),
            )
        )
    return out


def _running(sheet: balkan.Sheet, writer: str, on: str, w: Words) -> tuple[str, ...]:
    """The supe `writer` wrote on `on`, as running sums the way the paper adds them up."""
    sums = [0]
    for outcome in sheet.outcomes:
        for by, o, amount in outcome.supe:
            if by == writer and o == on and amount:
                sums.append(sums[-1] + amount)
    return tuple(w.amount(s) for s in sums)


def _cells(column: tuple[str, ...], w: Words) -> tuple[Cell, ...]:
    cells: list[Cell] = []
    hat = ""
    for item in column:
        if item in ("hat", "hat-crossed"):
            hat = item
            continue
        cells.append(Cell(w.amount(int(item)), hat))
        hat = ""
    return tuple(cells)


def outcome_lines(sheet: balkan.Sheet, w: Words) -> list[tuple[int, str, str]]:
    """Each entry: its number among its kind (as the history and the deal form count: deal 4
    after three deals and a correction, which is correction 1), what it is counted among
    ("deal", "correction"), and what it wrote and why: one line that opens with its kind where
    it is no deal played ("correction: renonce; …"), so the kind is said once."""
    return [
        (number, kind, "; ".join(say(w, y) for y in o.why))
        for number, kind, o in numbered_outcomes(sheet)
    ]


def settlement_rows(settlement: balkan.BalkanSettlement, w: Words) -> list[tuple[str, list[str]]]:
    """Each player's row of the results: bule, supe written, supe against and the result, as
    the reader's language writes numbers, with the minus sign the money has (−)."""
    columns = (
        settlement.bule,
        settlement.supe_written,
        settlement.supe_against,
        settlement.shown_result,
    )
    return [(p, [w.amount(column[p]) for column in columns]) for p in settlement.players]


#: Options the header names on their own (the bule) or that every amount shows (the currency).
_SHOWN_APART = ("bule", "currency")


def changed_options(game: balkan.BalkanGame, w: Words) -> list[tuple[str, str]]:
    """Every option that differs from the partija's preset, as (label, value) in the reader's
    language: what the page and the PDF name beside the preset, as a Russian game's do."""
    preset = balkan.PRESETS.get(game.convention)
    if preset is None:
        return []
    changed = []
    for option in dataclasses.fields(game.options):
        value = getattr(game.options, option.name)
        if option.name in _SHOWN_APART or value == getattr(preset, option.name):
            continue
        label = w.gettext(balkan.OPTION_LABELS[option.name])
        changed.append((label, _shown(option.name, value, w)))
    return changed


def _shown(name: str, value: Any, w: Words) -> str:
    """An option's value in words: its label when it is a word, "no limit" for no most refe."""
    label = balkan.VALUE_LABELS.get((name, value)) if isinstance(value, str) else None
    if label is not None:
        return w.gettext(label)
    if value is None:
        return w.gettext("no limit")
    return w.option_value(value)
