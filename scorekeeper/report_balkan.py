"""What `scorekeeper score` prints for a Balkan partija: the JSON of docs/game-format.md
("Balkan games"), and the paper for people (`--format text`), worded by `scorekeeper.wording`."""

from __future__ import annotations

from scorekeeper.balkan import BalkanSettlement, Outcome, Sheet, Why, settle
from scorekeeper.report import money
from scorekeeper.rules.problems import N_, Problem
from scorekeeper.rules.scoring import entry_class
from scorekeeper.wording import ENGLISH, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: How the paper draws a refa by its state.
REFA_MARKS = {"open": "△", "passed": "△✓", "failed": "△✗"}


def score_report(sheet: Sheet, *, with_settlement: bool = False) -> dict[str, Any]:
    """The JSON object: the sheet, and the settlement when the partija is over or asked."""
    players = sheet.players
    out: dict[str, Any] = {
        "family": "balkan",
        "players": list(players),
        "sum_bule": str(sheet.total),
        "finished": sheet.ended,
        "sheet": {p: _player(sheet, p) for p in players},
    }
    if sheet.ended or with_settlement:
        out["settlement"] = settlement_report(settle(sheet))
    return out


def _player(sheet: Sheet, p: str) -> dict[str, Any]:
    return {
        "bule": str(sheet.bule(p)),
        "column": list(sheet.column(p)),
        "supe_on": {q: str(sheet.supe_on(p, q)) for q in sheet.players if q != p},
        "left": str(sheet.left(p)),
        "right": str(sheet.right(p)),
        "refe": list(sheet.refe(p)),
    }


def settlement_report(s: BalkanSettlement) -> dict[str, Any]:
    """The settlement part of the JSON."""

    def each(values: dict[str, int]) -> dict[str, str]:
        return {p: str(values[p]) for p in s.players}

    return {
        "ended_by": s.ended_by,
        "write_off": each(s.write_off),
        "bule": each(s.bule),
        "supe_written": each(s.supe_written),
        "supe_against": each(s.supe_against),
        "result": each(s.shown_result),
        "money": {p: money(s.money[p]) for p in s.players},
        "payments": [
            {"from": pay.payer, "to": pay.payee, "amount": money(pay.amount)} for pay in s.payments
        ],
    }


def say(words: Words, why: Why) -> str:
    """One line of an entry's explanation in the language of `words`."""
    return words.problem(Problem(why.template, why.params), with_deal=False)


def numbered_outcomes(sheet: Sheet) -> list[tuple[int, str, Outcome]]:
    """Each entry's outcome with the number people give it among its kind and that kind
    (Sheet.number_of: "deal", "correction"); the write-off of a partija finished by hand,
    no entry of the file, is the next deal's."""
    stored = len(sheet.game.deals)
    return [
        (
            sheet.number_of(min(at, stored), None if at < stored else "deal"),
            entry_class(outcome.kind),
            outcome,
        )
        for at, outcome in enumerate(sheet.outcomes)
    ]


def text_report(sheet: Sheet, *, with_settlement: bool = False, words: Words = ENGLISH) -> str:
    """The paper: each player's supe columns beside his bule column, his refe, then what
    each entry wrote and why, and the results and money when due."""
    lines: list[str] = []
    for p in sheet.players:
        lines += _paper(sheet, p, words)
        lines.append("")
    lines.append(words.gettext(N_("Entries:")))
    for number, _kind, outcome in numbered_outcomes(sheet):
        lines.append(f"{number:>3}. " + "; ".join(say(words, w) for w in outcome.why))
    lines.append("")
    lines.append(words.gettext(N_("Σ bule: %(total)s"), total=words.amount(sheet.total)))
    lines.append(
        words.gettext("The game is finished.") if sheet.ended else words.gettext("Not finished.")
    )
    if sheet.ended or with_settlement:
        lines += [""] + _settlement_lines(sheet, settle(sheet), words)
    return "\n".join(lines) + "\n"


def _paper(sheet: Sheet, p: str, words: Words) -> list[str]:
    """One player's part of the paper: supe on each other player, his bule column."""
    _ = words.gettext
    game = sheet.game
    others = [game.left_of(p), game.right_of(p)]
    others += [q for q in sheet.players if q != p and q not in others]
    supe = _running_supe(sheet, p, others)
    bule = [_bule_cell(cell, words) for cell in sheet.column(p)]
    heads = [_("on %(name)s", name=q) for q in others]
    width = max(10, *(len(h) for h in heads))
    refe = " ".join(REFA_MARKS[r] for r in sheet.refe(p))
    out = [p + ("   " + _("refe: %(marks)s", marks=refe) if refe else "")]
    head = [heads[0], _("bule"), *heads[1:]]
    out.append(" | ".join(f"{h:>{width}}" for h in head))
    for row in range(max(len(bule), *(len(c) for c in supe))):
        cells = [_cell(supe[0], row), _cell(bule, row), *(_cell(c, row) for c in supe[1:])]
        out.append(" | ".join(f"{c:>{width}}" for c in cells).rstrip())
    return out


def _cell(column: list[str], row: int) -> str:
    return column[row] if row < len(column) else ""


def _bule_cell(cell: str, words: Words) -> str:
    if cell == "hat":
        return words.gettext(N_("(hat)"))
    if cell == "hat-crossed":
        return words.gettext(N_("(hat crossed)"))
    return words.amount(int(cell))


def _running_supe(sheet: Sheet, p: str, others: list[str]) -> list[list[str]]:
    """The supe the player wrote on each other player, as running sums (0 at the top)."""
    columns = {q: [0] for q in others}
    for outcome in sheet.outcomes:
        for writer, on, amount in outcome.supe:
            if writer == p and amount:
                columns[on].append(columns[on][-1] + amount)
    return [[str(v) for v in columns[q]] for q in others]


def _settlement_lines(sheet: Sheet, s: BalkanSettlement, words: Words) -> list[str]:
    _ = words.gettext
    currency = sheet.options.currency
    lines = [_(ENDED_BY[s.ended_by])]
    width = max(len(p) for p in s.players) + 2
    heads = (
        _("written off"),
        _("bule"),
        _("supe written"),
        _("supe against"),
        _("result"),
        _("money"),
    )
    cell = max(14, max(len(h) for h in heads) + 2)  # a long head never runs into the next
    lines.append(f"{'':{width}}" + "".join(f"{h:>{cell}}" for h in heads))
    for p in s.players:
        cells = [s.write_off[p], s.bule[p], s.supe_written[p], s.supe_against[p], s.shown_result[p]]
        row = "".join(f"{words.amount(c):>{cell}}" for c in cells)
        lines.append(f"{p:{width}}{row}{words.money(s.money[p], currency, signed=True):>{cell}}")
    lines.append("")
    lines += [words.payment(pay.payer, pay.payee, pay.amount, currency) for pay in s.payments]
    if not s.payments:
        lines.append(_("Nobody pays anybody."))
    return lines


ENDED_BY = {
    "zero": N_("The bule came to 0: the partija is over."),
    "writeoff": N_("The partija ended by a write-off."),
    "now": N_("Not over: the settlement after a write-off now (not written on the sheet)."),
}
