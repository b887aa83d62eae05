"""What `scorekeeper score` prints: the sheet and the settlement as JSON or as text.

The JSON is the public format of docs/game-format.md (exact strings, "55.80"); the text is for
people and is worded by `scorekeeper.wording`.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from scorekeeper.rules import Settlement, Sheet, settle
from scorekeeper.rules.options import changed_options
from scorekeeper.wording import ENGLISH, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def exact(value: Fraction) -> str:
    """An exact amount as a string: "558", "-268/3"."""
    return str(value)


def money(value: Decimal) -> str:
    """Money with two decimals: "55.80", "-8.30"."""
    return f"{value:.2f}"


def score_report(sheet: Sheet, *, with_settlement: bool = False) -> dict[str, Any]:
    """The JSON object of docs/game-format.md: sheet, finished, and the settlement when due."""
    players = sheet.players
    out: dict[str, Any] = {
        "players": list(players),
        "sheet": {
            p: {
                "pool": exact(sheet.pool(p)),
                "hill": exact(sheet.hill(p)),
                "whists": {q: exact(sheet.whists(p, q)) for q in players if q != p},
            }
            for p in players
        },
        "finished": sheet.finished,
        "rules": rules_report(sheet),
    }
    if sheet.finished or with_settlement:
        out["settlement"] = settlement_report(settle(sheet))
    return out


def rules_report(sheet: Sheet) -> dict[str, Any]:
    """The rules the sheet was scored by: the preset and every option that differs from it."""
    game = sheet.game
    return {
        "convention": game.convention,
        "options": changed_options(game.convention, game.options),
    }


def _rules_lines(sheet: Sheet, words: Words) -> list[str]:
    """The preset, and each house rule over it, in words."""
    _ = words.gettext
    game = sheet.game
    lines = [_("Rules: %(convention)s.", convention=words.convention(game.convention))]
    for key in changed_options(game.convention, game.options):
        shown = words.option_value(getattr(game.options, key), key)
        lines.append(f"  {words.option_label(key)}: {shown}")
    return lines


def settlement_report(s: Settlement) -> dict[str, Any]:
    """The settlement part of the JSON output."""
    return {
        "hill_after_amnesty": {p: exact(s.hill_after_amnesty[p]) for p in s.players},
        "net": {p: exact(s.net[p]) for p in s.players},
        "money": {p: money(s.money[p]) for p in s.players},
        "payments": [
            {"from": pay.payer, "to": pay.payee, "amount": money(pay.amount)} for pay in s.payments
        ],
    }


def text_report(sheet: Sheet, *, with_settlement: bool = False, words: Words = ENGLISH) -> str:
    """The same for a person, in the language of `words`: the sheet, then the settlement.

    Numbers and money are written the language's way (decimal comma, true minus sign);
    Hussar has no hill, so no hill column and no amnesty.
    """
    words = words.at_table(sheet.game)
    _ = words.gettext
    width = max(len(p) for p in sheet.players) + 2
    lines = _sheet_lines(sheet, words, width)
    lines.append("")
    lines.extend(_rules_lines(sheet, words))
    limit = sheet.round_limit
    if limit is not None and not sheet.finished:
        number, within = sheet.next_round
        lines.append(
            _(
                "Round %(round)s of %(rounds)s, deal %(deal)s of %(deals)s.",
                round=number,
                rounds=limit,
                deal=within,
                deals=len(sheet.players),
            )
        )
    lines.append(_("The game is finished.") if sheet.finished else _("Not finished."))
    if sheet.finished or with_settlement:
        lines.extend(_settlement_lines(sheet, words, width))
    return "\n".join(lines) + "\n"


def _sheet_lines(sheet: Sheet, words: Words, width: int) -> list[str]:
    """The sheet's table: a row a player of pool, hill (none in Hussar) and whists on each
    other player, names padded to `width`."""
    _ = words.gettext
    hussar = sheet.game.hussar
    players = sheet.players
    pool, hill = _("pool"), _("hill")
    head = f"{'':{width}}{pool:>8}" + ("" if hussar else f"{hill:>8}")
    lines = [f"{head}  {_('whists on')}"]
    for p in players:
        on = ", ".join(f"{q} {words.amount(sheet.whists(p, q))}" for q in players if q != p)
        row = f"{p:{width}}{words.amount(sheet.pool(p)):>8}"
        if not hussar:
            row += f"{words.amount(sheet.hill(p)):>8}"
        lines.append(f"{row}  {on}")
    return lines


def _settlement_lines(sheet: Sheet, words: Words, width: int) -> list[str]:
    """The settlement after a blank line: the amnesty (none in Hussar), each player's hill
    after it, net and money, then who pays whom."""
    _ = words.gettext
    hussar = sheet.game.hussar
    hill, net, cash = _("hill"), _("net"), _("money")
    s = settle(sheet)
    currency = sheet.options.currency
    lines = [""]
    if not hussar:
        lines.append(_("Amnesty: %(amount)s off every hill.", amount=words.amount(s.amnesty)))
    head = f"{'':{width}}" + ("" if hussar else f"{hill:>8}")
    lines.append(f"{head}{net:>10}{cash:>14}")
    for p in sheet.players:
        row = f"{p:{width}}"
        if not hussar:
            row += f"{words.amount(s.hill_after_amnesty[p]):>8}"
        lines.append(
            f"{row}{words.signed(s.net[p]):>10}{words.money(s.money[p], currency, signed=True):>14}"
        )
    lines.append("")
    for pay in s.payments:
        lines.append(words.payment(pay.payer, pay.payee, pay.amount, currency))
    if not s.payments:
        lines.append(_("Nobody pays anybody."))
    return lines
