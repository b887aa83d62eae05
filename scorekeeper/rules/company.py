"""A company: the same people evening after evening — standings, play figures, who owes whom.

Every number here is a sum of the finished games' settlements (§6), never a new scoring of
their deals: an evening is worth exactly what its own settlement says. Players are named by
their stable roster ids (text), so a renamed player keeps his history; each game maps its
seat names to those ids.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Protocol

from .deals import AllPassDeal, Answer, ContractDeal, MisereDeal
from .payments import fewest
from .scoring import Sheet, _Totals
from .settlement import Payment, Settlement, in_whists, settle


@dataclass(frozen=True)
class Evening:
    """One finished game of the company, as its settlement ended it."""

    key: str
    """Names the game (e.g. its stored id), so a payment can refer to its settlement."""
    day: datetime.date
    players: tuple[str, ...]
    """Roster ids in seating order."""
    net: Mapping[str, Fraction]
    """Net whists of each roster id (they sum to zero)."""
    money: Mapping[str, Decimal]
    """Money of each roster id (it sums to zero)."""

    @property
    def winners(self) -> tuple[str, ...]:
        """Who won the evening: the largest net result, shared on a tie, if above zero."""
        best = max(self.net.values(), default=Fraction(0))
        if best <= 0:
            return ()
        return tuple(p for p in self.players if self.net[p] == best)


def evening(key: str, day: datetime.date, sheet: Sheet, roster: Mapping[str, str]) -> Evening:
    """The evening a finished sheet's settlement makes; roster maps seat names to ids."""
    return settled_evening(key, day, settle(sheet), roster)


class Settled(Protocol):
    """What an evening is made of: a settlement of either family of rules (its players, each
    one's net result, higher is better, and money)."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def net(self) -> Mapping[str, Fraction]: ...
    @property
    def money(self) -> Mapping[str, Decimal]: ...


def settled_evening(
    key: str, day: datetime.date, result: Settled, roster: Mapping[str, str]
) -> Evening:
    """The evening a game's settlement makes; roster maps its seat names to ids."""
    return Evening(
        key=key,
        day=day,
        players=tuple(roster[p] for p in result.players),
        net={roster[p]: result.net[p] for p in result.players},
        money={roster[p]: result.money[p] for p in result.players},
    )


def in_period(
    evenings: Iterable[Evening], start: datetime.date | None, end: datetime.date | None
) -> list[Evening]:
    """The evenings played from start to end, both included (None: unbounded)."""
    return [
        e for e in evenings if (start is None or e.day >= start) and (end is None or e.day <= end)
    ]


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings over a set of evenings."""

    player: str
    evenings: int = 0
    net: Fraction = Fraction(0)
    """Net whists, summed over the evenings."""
    money: Decimal = Decimal("0.00")
    wins: int = 0

    @property
    def average(self) -> Fraction:
        """Net whists per evening played (0 for no evening)."""
        return self.net / self.evenings if self.evenings else Fraction(0)

    @property
    def average_money(self) -> Fraction:
        """Money per evening played, exact (0 for no evening)."""
        return Fraction(self.money) / self.evenings if self.evenings else Fraction(0)


def standings(evenings: Iterable[Evening], players: Sequence[str]) -> list[Standing]:
    """Every roster player's standing, best money first (then net, then roster order)."""
    rows = {p: Standing(p) for p in players}
    for e in evenings:
        won = set(e.winners)
        for p in e.players:
            row = rows.get(p, Standing(p))
            rows[p] = Standing(
                p,
                evenings=row.evenings + 1,
                net=row.net + e.net[p],
                money=row.money + e.money[p],
                wins=row.wins + (p in won),
            )
    order = list(rows)
    return sorted(rows.values(), key=lambda s: (-s.money, -s.net, order.index(s.player)))


@dataclass(frozen=True)
class PaymentMade:
    """Money handed over between two players, kept with its date (a "paid" mark)."""

    payer: str
    payee: str
    amount: Decimal
    day: datetime.date
    evening: str | None = None
    """The key of the evening whose settlement it pays, if it was recorded against one."""


def balance(
    evenings: Iterable[Evening], payments: Iterable[PaymentMade], players: Sequence[str]
) -> dict[str, Decimal]:
    """Who is owed (positive) and who owes (negative) now: the evenings' money summed, each
    payment moving its amount from the payer's debt to the payee's credit. Sums to zero."""
    owed = {p: Decimal("0.00") for p in players}
    for e in evenings:
        for p in e.players:
            owed[p] = owed.get(p, Decimal("0.00")) + e.money[p]
    for pay in payments:
        owed[pay.payer] = owed.get(pay.payer, Decimal("0.00")) + pay.amount
        owed[pay.payee] = owed.get(pay.payee, Decimal("0.00")) - pay.amount
    return owed


def settle_up(owed: Mapping[str, Decimal], players: Sequence[str]) -> list[Payment]:
    """The fewest payments that square the whole company now (exact for up to sixteen people
    owed or owing: rules/payments.py)."""
    order = tuple(dict.fromkeys([*players, *owed]))
    return [Payment(*t) for t in fewest({p: owed.get(p, Decimal(0)) for p in order}, order)]


def running(evenings: Sequence[Evening], players: Sequence[str]) -> list[dict[str, Decimal]]:
    """Each player's money summed after each evening, in the order given (for a chart)."""
    total = {p: Decimal("0.00") for p in players}
    points: list[dict[str, Decimal]] = []
    for e in evenings:
        for p in e.players:
            total[p] = total.get(p, Decimal("0.00")) + e.money[p]
        points.append(dict(total))
    return points


@dataclass
class PlayFigures:
    """How one player played, counted from the deal logs (no amounts: those are the
    settlement's)."""

    player: str
    deals: int = 0
    """Deals the player was dealt into (not sitting out, not correcting)."""
    declared: int = 0
    """Trick contracts declared."""
    made: int = 0
    """Trick contracts made (including those nobody whisted)."""
    remises: int = 0
    """Trick contracts that went down."""
    miseres: int = 0
    miseres_made: int = 0
    whists: int = 0
    """Times the player whisted a contract."""
    allpass_tricks: int = 0
    """Tricks taken in all-passes."""

    @property
    def made_share(self) -> Fraction | None:
        """Made contracts as a share of declared ones (None when none was declared)."""
        return Fraction(self.made, self.declared) if self.declared else None


def play_figures(
    sheets: Iterable[tuple[Sheet, Mapping[str, str]]], players: Sequence[str]
) -> dict[str, PlayFigures]:
    """Every roster player's play figures over these sheets (each with its name → id map)."""
    figures = {p: PlayFigures(p) for p in players}

    def of(roster_id: str) -> PlayFigures:
        return figures.setdefault(roster_id, PlayFigures(roster_id))

    for sheet, roster in sheets:
        for result in sheet.results:
            deal = result.deal
            if not isinstance(deal, ContractDeal | MisereDeal | AllPassDeal):
                continue
            for name in sheet.players:
                if name != result.dealer or len(sheet.players) < 4:
                    of(roster[name]).deals += 1
            if isinstance(deal, ContractDeal):
                mine = of(roster[deal.declarer])
                mine.declared += 1
                if not deal.played or deal.tricks.get(deal.declarer, 0) >= deal.contract.level:
                    mine.made += 1
                else:
                    mine.remises += 1
                for name, answer in deal.answers.items():
                    if answer in (Answer.WHIST, Answer.WHIST_TALON) and deal.played:
                        of(roster[name]).whists += 1
            elif isinstance(deal, MisereDeal):
                mine = of(roster[deal.declarer])
                mine.miseres += 1
                if deal.tricks.get(deal.declarer, 0) == 0:
                    mine.miseres_made += 1
            else:
                for name, tricks in deal.tricks.items():
                    of(roster[name]).allpass_tricks += tricks
    return figures


def merge_figures(
    parts: Iterable[tuple[Mapping[str, PlayFigures], Mapping[str, str]]], players: Sequence[str]
) -> dict[str, PlayFigures]:
    """Sum each game's figures (by seat name) into figures by roster id."""
    total = {p: PlayFigures(p) for p in players}
    for figures, roster in parts:
        for name, part in figures.items():
            into = total.setdefault(roster[name], PlayFigures(roster[name]))
            for counter in _COUNTERS:
                setattr(into, counter, getattr(into, counter) + getattr(part, counter))
    return total


_COUNTERS = (
    "deals",
    "declared",
    "made",
    "remises",
    "miseres",
    "miseres_made",
    "whists",
    "allpass_tricks",
)


def net_after_each_deal(
    sheet: Sheet,
    known: Sequence[Mapping[str, Fraction]] = (),
    settled: Settlement | None = None,
) -> list[dict[str, Fraction]]:
    """Each player's "if it ended now" net after deal 0 (nothing played), 1, 2, … (§6).

    Deal k's entries never depend on later deals, so the sheet after deal k is the sheet
    of the first k results; each point is that sheet's own settlement. The totals run on
    from one point to the next (one pass over the entries, not one per point). `known`
    may give the points of this log without its last deal (a sheet kept from before it
    was added): then only the last point is worked out, the sheet's own settlement
    (`settled`, if it was settled already).
    """
    game = sheet.game
    if known and len(known) == len(sheet.results):
        last = settled if settled is not None else settle(sheet)
        return [*(dict(point) for point in known), dict(last.net)]
    totals = _Totals.empty(game)
    totals.dealer_index = game.players.index(sheet.next_dealer)
    points: list[dict[str, Fraction]] = []
    for k in range(len(sheet.results) + 1):
        if k:
            result = sheet.results[k - 1]
            totals = totals.copy()
            for entry in result.entries:
                totals.add(entry)
            if result.dealer is not None:
                totals.table_deals += 1
        part = Sheet(game, sheet.results[:k], sheet.next_dealer, 0, None, _totals=totals)
        points.append(in_whists(part).net)
    return points
