"""The season rating (season.md §4.2): the club performance rating, exact until its rounding.

Per rated table each player's performance is `p = x·L/D + K·(Σ opponents' shown S)/(m − 1)`,
from the shown ratings before the table (before the tour, for a tournament's tables); then
`n += 1`, `c += D`, `w = min(D, M)/min(c, M)` and `R := ⌊100·(R + w·(p − R)) + ½⌋/100`. A
player is shown `R` once established (more than N₀ games), else `R` clamped to ±CAP. On each
1st of a month a player away since before the month before loses 10 when above 10.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from scorekeeper.season.players import Player

L = 20
"""Results are counted per L deals."""
K = 2
"""The weight of the opponents' mean rating."""
N0 = 6
"""A player is provisional up to N₀ games."""
CAP = 200
"""A provisional player's shown rating stays within ±CAP."""
M = 500
"""After M deals a table weighs D/M."""
DECAY = 10
"""What a month away costs a rating above DECAY."""
SPAN = 360
"""Categories 1-10 span −SPAN…+SPAN."""
_HALF = Fraction(1, 2)


@dataclass
class Rating:
    """One player's rating: `R` (a multiple of 1/100), games `n`, deals `c`, the date of
    his last rated table (or of his carried-over rating); what this season added."""

    value: Fraction = Fraction(0)
    games: int = 0
    deals: int = 0
    last: date | None = None
    season_games: int = 0
    season_last: date | None = None

    @property
    def established(self) -> bool:
        """More than N₀ games."""
        return self.games > N0

    @property
    def shown(self) -> Fraction:
        """`S`: `R` once established, else `R` within ±CAP."""
        if self.established:
            return self.value
        return max(Fraction(-CAP), min(Fraction(CAP), self.value))


def performance(x: Fraction, deals: int, opponents: Sequence[Fraction]) -> Fraction:
    """`p`: the result per L deals plus K times the opponents' mean shown rating.

    x·L/D + K·ΣS/(m − 1) in whole numbers over one denominator (ratings are hundredths):
    the same exact value, made as one Fraction (a season rates thousands of tables)."""
    x = Fraction(x)
    hundredths = [s * 100 for s in opponents]
    assert all(h.denominator == 1 for h in hundredths)
    cents = sum(h.numerator for h in hundredths)
    m1 = len(opponents)
    whole = x.numerator * L * 100 * m1 + K * cents * x.denominator * deals
    return Fraction(whole, x.denominator * deals * 100 * m1)


def rounded(value: Fraction) -> Fraction:
    """⌊100·value + ½⌋/100: to hundredths, halves up."""
    return Fraction(math.floor(100 * value + _HALF), 100)


def updated(before: Fraction, deals_after: int, deals: int, p: Fraction) -> Fraction:
    """The new `R` after a table of `deals` deals, `deals_after` his deals with it:
    ⌊100·(R + w·(p − R)) + ½⌋/100 with w = min(D, M)/min(c, M), in whole numbers (R is
    hundredths): 100·(R + w·(p − R)) = (r·pd·wd + wn·(100·pn − r·pd)) / (pd·wd), r = 100·R."""
    hundredths = before * 100
    assert hundredths.denominator == 1
    r = hundredths.numerator
    wn, wd = min(deals, M), min(deals_after, M)
    pn, pd = p.numerator, p.denominator
    top = r * pd * wd + wn * (100 * pn - r * pd)
    bottom = pd * wd
    return Fraction((2 * top + bottom) // (2 * bottom), 100)


def category(shown: Fraction) -> int:
    """An established player's category: 1…10 over −SPAN…+SPAN (0 → 6)."""
    return min(10, max(1, math.floor((shown + SPAN) / 72) + 1))


def month_starts(after: date, until: date) -> list[date]:
    """Every first day F of a month with after < F ≤ until."""
    out = []
    year, month = (after.year, after.month + 1) if after.month < 12 else (after.year + 1, 1)
    day = date(year, month, 1)
    while day <= until:
        out.append(day)
        year, month = (day.year, day.month + 1) if day.month < 12 else (day.year + 1, 1)
        day = date(year, month, 1)
    return out


def month_before(first: date) -> date:
    """The first day of the month before a month's first day."""
    if first.month == 1:
        return date(first.year - 1, 12, 1)
    return date(first.year, first.month - 1, 1)


@dataclass(frozen=True)
class Decayed:
    """A rating log line: a month's decay."""

    day: date
    player: Player
    after: Fraction


@dataclass(frozen=True)
class Rated:
    """A rating log line: one player's update at one rated table."""

    day: date
    event: int
    tour: int | None
    table: int | None
    player: Player
    deals: int
    result: Fraction
    performance: Fraction
    before: Fraction
    after: Fraction


@dataclass(frozen=True)
class Seated:
    """A rated table as the rating reads it: where and when, who sat (seat order), result."""

    day: date
    event: int
    tour: int | None
    table: int | None
    players: tuple[Player, ...]
    deals: int
    result: tuple[Fraction, ...]


@dataclass
class Book:
    """The season's ratings as they are applied, with every line of the log."""

    start: date
    """The season's first day: decays come on the 1st of each later month."""
    order: Callable[[Player], str]
    """Who decays first on a 1st: the players' names."""
    ratings: dict[Player, Rating] = field(default_factory=dict)
    log: list[Decayed | Rated] = field(default_factory=list)
    decayed_until: date | None = None

    def carry(self, player: Player, value: Fraction, games: int, deals: int, last: date) -> None:
        """A rating carried over from before the season."""
        self.ratings[player] = Rating(value, games, deals, last)

    def decay_until(self, day: date) -> None:
        """Every decay on a 1st of a month up to `day` not applied yet."""
        after = self.decayed_until or self.start
        for first in month_starts(after, day):
            self._decay(first)
        self.decayed_until = max(after, day)

    def _decay(self, first: date) -> None:
        away = month_before(first)
        for player in sorted(self.ratings, key=self.order):
            rating = self.ratings[player]
            if rating.last is not None and rating.last < away and rating.value > DECAY:
                rating.value -= DECAY
                self.log.append(Decayed(first, player, rating.value))

    def rate_together(self, tables: Sequence[Seated]) -> None:
        """Tables read from the same ratings (one table, or all tables of one tour)."""
        shown = {p: self.shown(p) for t in tables for p in t.players}
        for table in tables:
            for i, player in enumerate(table.players):
                opponents = [shown[q] for j, q in enumerate(table.players) if j != i]
                p = performance(table.result[i], table.deals, opponents)
                self._update(table, player, table.result[i], p)

    def shown(self, player: Player) -> Fraction:
        """`S` now (0 for a newcomer)."""
        rating = self.ratings.get(player)
        return Fraction(0) if rating is None else rating.shown

    def _update(self, table: Seated, player: Player, x: Fraction, p: Fraction) -> None:
        rating = self.ratings.setdefault(player, Rating())
        before = rating.value
        rating.games += 1
        rating.deals += table.deals
        rating.value = updated(before, rating.deals, table.deals, p)
        rating.last = rating.season_last = table.day
        rating.season_games += 1
        self.log.append(
            Rated(
                table.day,
                table.event,
                table.tour,
                table.table,
                player,
                table.deals,
                x,
                p,
                before,
                rating.value,
            )
        )


@dataclass(frozen=True)
class Standing:
    """One line of the season's standings (§4.2): a place and category once established."""

    place: int | None
    player: Player
    rating: Rating

    @property
    def category(self) -> int | None:
        """The category, established players only."""
        return category(self.rating.shown) if self.rating.established else None


def standings(ratings: Mapping[Player, Rating], name: Callable[[Player], str]) -> list[Standing]:
    """Established players by `S` (high first) then name, placed (1 + those with a higher
    `S`); then the provisional ones by `S` then name, with no place."""

    def order(p: Player) -> tuple[Fraction, str]:
        return (-ratings[p].shown, name(p))

    established = sorted((p for p in ratings if ratings[p].established), key=order)
    provisional = sorted((p for p in ratings if not ratings[p].established), key=order)
    out: list[Standing] = []
    for index, p in enumerate(established):
        tied = index and ratings[established[index - 1]].shown == ratings[p].shown
        out.append(Standing(out[-1].place if tied else index + 1, p, ratings[p]))
    out.extend(Standing(None, p, ratings[p]) for p in provisional)
    return out
