"""The settlement: amnesty, hills and pools turned into whists, net, money, payments (§6)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from .options import HillDivisor
from .payments import largest_first
from .scoring import Sheet


@dataclass(frozen=True)
class Payment:
    """One transfer that settles the evening: `payer` pays `payee` `amount` (in money)."""

    payer: str
    payee: str
    amount: Decimal

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount}"


@dataclass(frozen=True)
class InWhists:
    """The rospis up to each player's net in whists: amnesty, hills and pools turned into
    whists, netted pair by pair (all the evening chart needs after every deal)."""

    players: tuple[str, ...]
    pools: dict[str, Fraction]
    hills: dict[str, Fraction]
    amnesty: Fraction
    """The smallest hill, subtracted from every hill."""
    hill_after_amnesty: dict[str, Fraction]
    divisor: int
    """N players, or N - 1 with hill_divisor = opponents."""
    hill_whists: dict[str, dict[str, Fraction]]
    """hill_whists[i][j]: whists j writes on i for i's remaining hill."""
    pool_whists: dict[str, dict[str, Fraction]]
    """pool_whists[i][j]: whists i writes on j for i's pool above the lowest pool."""
    pair_balance: dict[str, dict[str, Fraction]]
    """pair_balance[i][j]: what j owes i after netting the pair (negative: i owes j)."""
    net: dict[str, Fraction]


@dataclass(frozen=True)
class Settlement(InWhists):
    """Every step of the rospis, kept so that the page and the PDF can show each one."""

    money: dict[str, Decimal]
    payments: tuple[Payment, ...]


def settle(sheet: Sheet) -> Settlement:
    """Settle the sheet as it stands (§6); exact, and the net results sum to zero."""
    steps = in_whists(sheet)
    opts = sheet.options
    money = split_money(steps.net, steps.players, Fraction(opts.stake), Fraction(opts.money_unit))
    payments = tuple(fewest_payments(money, steps.players))
    return Settlement(**vars(steps), money=money, payments=payments)


def in_whists(sheet: Sheet) -> InWhists:
    """The settlement in whists (§6), without the money and the payments."""
    opts = sheet.options
    players = sheet.players
    n = len(players)
    divisor = n - 1 if opts.hill_divisor == HillDivisor.OPPONENTS else n
    pools = {p: sheet.pool(p) for p in players}
    hills = {p: sheet.hill(p) for p in players}
    amnesty = min(hills.values())
    hill_after = {p: hills[p] - amnesty for p in players}
    lowest_pool = min(pools.values())
    hill_w = {
        p: {q: hill_after[p] * opts.hill_whists / divisor for q in players if q != p}
        for p in players
    }
    pool_w = {
        p: {q: (pools[p] - lowest_pool) * opts.pool_whists / divisor for q in players if q != p}
        for p in players
    }

    def credit(i: str, j: str) -> Fraction:
        """Everything i writes on j: whists, i's pool surplus, j's hill."""
        return sheet.whists(i, j) + pool_w[i][j] + hill_w[j][i]

    balance = {i: {j: credit(i, j) - credit(j, i) for j in players if j != i} for i in players}
    net = {i: sum(balance[i].values(), Fraction(0)) for i in players}
    assert sum(net.values()) == 0
    return InWhists(
        players=players,
        pools=pools,
        hills=hills,
        amnesty=amnesty,
        hill_after_amnesty=hill_after,
        divisor=divisor,
        hill_whists=hill_w,
        pool_whists=pool_w,
        pair_balance=balance,
        net=net,
    )


def split_money(
    net: dict[str, Fraction],
    players: tuple[str, ...],
    stake: Fraction,
    unit: Fraction = Fraction(1, 100),
) -> dict[str, Decimal]:
    """Net × stake in multiples of `unit` (money_unit) that still sum to exactly zero (§6).

    Every amount is first rounded down to a multiple of the unit; the units still missing go
    one each to the largest remainders, ties in seating order. The unit has at most two
    decimals, so the result is a whole number of hundredths, written with two decimals.
    """
    exact = {p: net[p] * stake / unit for p in players}
    units = {p: exact[p].numerator // exact[p].denominator for p in players}
    missing = -sum(units.values())
    by_remainder = sorted(players, key=lambda p: (-(exact[p] - units[p]), players.index(p)))
    for p in by_remainder[:missing]:
        units[p] += 1
    cents = {p: units[p] * unit * 100 for p in players}
    assert all(c.denominator == 1 for c in cents.values())
    return {p: Decimal(int(cents[p])).scaleb(-2) for p in players}


def fewest_payments(money: dict[str, Decimal], players: tuple[str, ...]) -> list[Payment]:
    """The evening's payments (rules §6): the largest debtor pays the largest creditor as much
    as settles one of them, repeated (ties: seating order) — at most N − 1 transfers. The
    company's "square everybody now" uses the exact fewest instead (rules/payments.py)."""
    return [Payment(*t) for t in largest_first(money, players)]
