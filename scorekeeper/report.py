"""What `scorekeeper score` prints: the sheet and the settlement as JSON or as text."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from scorekeeper.rules import Settlement, Sheet, settle


def exact(value: Fraction) -> str:
    """An exact amount as a string: "558", "-268/3"."""
    return str(value)


def money(value: Decimal) -> str:
    """Money with two decimals: "55.80", "-8.30"."""
    return f"{value:.2f}"


def score_report(sheet: Sheet, *, with_settlement: bool = False) -> dict[str, Any]:
    """The JSON object of game-format.md: sheet, finished, and the settlement when due."""
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
    }
    if sheet.finished or with_settlement:
        out["settlement"] = settlement_report(settle(sheet))
    return out


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


def text_report(sheet: Sheet, *, with_settlement: bool = False) -> str:
    """The same for a person, in the chosen language: the sheet, then the settlement."""
    from scorekeeper.present import gettext

    players = sheet.players
    pool, hill, net, cash = (gettext("pool"), gettext("hill"), gettext("net"), gettext("money"))
    width = max(len(p) for p in players) + 2
    lines = [f"{'':{width}}{pool:>8}{hill:>8}  {gettext('whists on')}"]
    for p in players:
        on = ", ".join(f"{q} {exact(sheet.whists(p, q))}" for q in players if q != p)
        lines.append(f"{p:{width}}{exact(sheet.pool(p)):>8}{exact(sheet.hill(p)):>8}  {on}")
    lines.append("")
    limit = sheet.round_limit
    if limit is not None and not sheet.finished:
        number, within = sheet.next_round
        lines.append(
            gettext(
                "Round %(round)s of %(rounds)s, deal %(deal)s of %(deals)s.",
                round=number,
                rounds=limit,
                deal=within,
                deals=len(players),
            )
        )
    lines.append(gettext("The game is finished.") if sheet.finished else gettext("Not finished."))
    if sheet.finished or with_settlement:
        s = settle(sheet)
        currency = sheet.options.currency
        lines.append("")
        lines.append(gettext("Amnesty: %(amount)s off every hill.", amount=exact(s.amnesty)))
        lines.append(f"{'':{width}}{hill:>8}{net:>10}{cash:>12}")
        for p in players:
            lines.append(
                f"{p:{width}}{exact(s.hill_after_amnesty[p]):>8}{exact(s.net[p]):>10}"
                f"{money(s.money[p]):>12}"
            )
        lines.append("")
        for pay in s.payments:
            amount = f"{money(pay.amount)} {currency}".strip()
            lines.append(
                gettext(
                    "%(payer)s pays %(payee)s %(amount)s",
                    payer=pay.payer,
                    payee=pay.payee,
                    amount=amount,
                )
            )
        if not s.payments:
            lines.append(gettext("Nobody pays anybody."))
    return "\n".join(lines) + "\n"
