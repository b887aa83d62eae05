"""Result and money (docs/balkan.md, "Result and money"): result = 10 × b − W + A, money
−result × stake rounded and paid as the Russian settlement does (rules.settlement)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scorekeeper.rules.settlement import Payment, fewest_payments, split_money

from .entries import write_off
from .options import ResultSign
from .sheet import Sheet

SUPE_PER_BULA = 10


@dataclass(frozen=True)
class BalkanSettlement:
    """Every step from the final bule to who pays whom."""

    players: tuple[str, ...]
    ended_by: str
    """"zero", "writeoff", or "now" (a write-off done now, not written on the sheet)."""
    write_off: dict[str, int]
    bule: dict[str, int]
    supe_written: dict[str, int]
    supe_against: dict[str, int]
    result: dict[str, int]
    """10 × b − W + A: lower is better, Σ = 0."""
    shown_result: dict[str, int]
    """The result as printed: negated with result_sign higher_better."""
    money: dict[str, Decimal]
    payments: tuple[Payment, ...]

    @property
    def net(self) -> dict[str, Fraction]:
        """−result: higher is better, as money is (a company sums it over its evenings)."""
        return {p: Fraction(-self.result[p]) for p in self.players}


def settle(sheet: Sheet) -> BalkanSettlement:
    """The settlement of an ended partija, or of a write-off done now."""
    players = sheet.players
    if sheet.ended_by is not None:  # a write-off is on the sheet already
        ended_by, off = sheet.ended_by, sheet.write_off
        bule = {p: sheet.bule(p) for p in players}
    else:
        ended_by, off = "now", write_off(sheet.state, None)
        bule = {p: sheet.bule(p) - off[p] for p in players}
    written = {p: sheet.written(p) for p in players}
    against = {p: sheet.against(p) for p in players}
    result = {p: SUPE_PER_BULA * bule[p] - written[p] + against[p] for p in players}
    assert sum(result.values()) == 0
    sign = -1 if sheet.options.result_sign == ResultSign.HIGHER_BETTER else 1
    opts = sheet.options
    net = {p: Fraction(-result[p]) for p in players}
    money = split_money(net, players, Fraction(opts.stake), Fraction(opts.money_unit))
    return BalkanSettlement(
        players=players,
        ended_by=ended_by,
        write_off=off,
        bule=bule,
        supe_written=written,
        supe_against=against,
        result=result,
        shown_result={p: sign * result[p] for p in players},
        money=money,
        payments=tuple(fewest_payments(money, players)),
    )
