"""Statistics and head-to-head over the tables of a scope and a period (season.md §3).

Each table counts once for every player at it, in season order (by date, then the order of
the events, a tournament's tables by tour): games, evenings, deals, the net and the runs of
plus and minus games, and what he did in the deal log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from datetime import date
from fractions import Fraction
from typing import Any

from scorekeeper.season.players import Player
from scorekeeper.season.results import LEVELS, DealCounts, TableResult


@dataclass(frozen=True)
class Counted:
    """A game or tournament table of the season, its seats resolved to players."""

    day: date
    event: int
    """The event's position in the season (1-based)."""
    tour: int | None
    table: int | None
    company: str | None
    friendly: bool
    players: tuple[Player, ...]
    """The players in seat order (result.seats resolved)."""
    result: TableResult

    def x(self, i: int) -> Fraction:
        """The result of the i-th seat."""
        return self.result.result[self.result.seats[i]]


_COUNTS = tuple(f.name for f in fields(DealCounts) if f.name not in ("declared", "made"))
"""The deal-log counts that are one number each (declared and made are per level)."""


@dataclass
class Stats:
    """One player's statistics over the tables counted so far."""

    games: int = 0
    days: set[date] = field(default_factory=set)
    deals: int = 0
    net: Fraction = Fraction(0)
    wins: int = 0
    plus: int = 0
    minus: int = 0
    even: int = 0
    largest_win: Fraction = Fraction(0)
    largest_loss: Fraction = Fraction(0)
    longest_plus_streak: int = 0
    longest_minus_streak: int = 0
    current_streak: int = 0
    longest_game: int = 0
    log: DealCounts = field(default_factory=DealCounts)

    def add(self, day: date, x: Fraction, deals: int, won: bool) -> None:
        """One more table: his result `x` of `deals` deals; `won` when x is the largest."""
        self.games += 1
        self.days.add(day)
        self.deals += deals
        self.net += x
        self.wins += won
        self.largest_win = max(self.largest_win, x)
        self.largest_loss = min(self.largest_loss, x)
        self.longest_game = max(self.longest_game, deals)
        if x > 0:
            self.plus += 1
            self.current_streak = self.current_streak + 1 if self.current_streak > 0 else 1
            self.longest_plus_streak = max(self.longest_plus_streak, self.current_streak)
        elif x < 0:
            self.minus += 1
            self.current_streak = self.current_streak - 1 if self.current_streak < 0 else -1
            self.longest_minus_streak = max(self.longest_minus_streak, -self.current_streak)
        else:
            self.even += 1

    def add_log(self, counts: DealCounts) -> None:
        """What he did in one more game's deal log."""
        mine = self.log
        for name in _COUNTS:
            setattr(mine, name, getattr(mine, name) + getattr(counts, name))
        for level in LEVELS:
            mine.declared[level] += counts.declared[level]
            mine.made[level] += counts.made[level]

    def as_dict(self) -> dict[str, Any]:
        """The keys of season.md §3 (exact numbers as strings)."""
        log = self.log
        per_deal = self.net / self.deals if self.deals else Fraction(0)
        return {
            "games": self.games,
            "evenings": len(self.days),
            "deals": self.deals,
            "deals_played": log.deals_played,
            "net": str(self.net),
            "net_per_deal": str(per_deal),
            "wins": self.wins,
            "plus": self.plus,
            "minus": self.minus,
            "even": self.even,
            "largest_win": str(self.largest_win),
            "largest_loss": str(self.largest_loss),
            "longest_plus_streak": self.longest_plus_streak,
            "longest_minus_streak": self.longest_minus_streak,
            "current_streak": self.current_streak,
            "declared": {str(lv): log.declared[lv] for lv in LEVELS},
            "made": {str(lv): log.made[lv] for lv in LEVELS},
            "misere_declared": log.misere_declared,
            "misere_caught": log.misere_caught,
            "whisted": log.whisted,
            "passed": log.passed,
            "half_whisted": log.half_whisted,
            "allpass_played": log.allpass_played,
            "allpass_tricks": log.allpass_tricks,
            "allpass_zero": log.allpass_zero,
            "penalties": log.penalties,
            "longest_game": self.longest_game,
        }


@dataclass
class Together:
    """Two players' head-to-head: games together and the balance from the first's side."""

    games: int = 0
    balance: Fraction = Fraction(0)


def statistics(tables: Iterable[Counted]) -> dict[Player, Stats]:
    """Every player's statistics over the tables (in season order; those over only)."""
    out: dict[Player, Stats] = {}
    for t in tables:
        if not t.result.over:
            continue
        xs = [t.x(i) for i in range(len(t.players))]
        best = max(xs)
        for i, player in enumerate(t.players):
            mine = out.setdefault(player, Stats())
            mine.add(t.day, xs[i], t.result.deals, xs[i] == best and xs[i] > 0)
            counts = t.result.counts.get(t.result.seats[i])
            if counts is not None:
                mine.add_log(counts)
    return out


def head_to_head(
    tables: Iterable[Counted], name: Callable[[Player], str]
) -> dict[tuple[Player, Player], Together]:
    """Every pair that sat together at a table that is over: (first, second) in code-point
    order of their names; the balance is the settlement's pair balance from the first's
    side, summed."""
    out: dict[tuple[Player, Player], Together] = {}
    for t in tables:
        if not t.result.over:
            continue
        seats, balance = t.result.seats, t.result.balance
        for i, a in enumerate(t.players):
            for j, b in enumerate(t.players):
                if name(a) >= name(b):
                    continue
                pair = out.setdefault((a, b), Together())
                pair.games += 1
                if balance:
                    pair.balance += balance[seats[i]][seats[j]]
    return out


def in_scope(
    tables: Iterable[Counted],
    company: str | None = None,
    start: date | None = None,
    end: date | None = None,
) -> list[Counted]:
    """The tables of a scope (a company's evenings; None: the whole club) and a period (by
    date, both ends included; None: open)."""
    return [
        t
        for t in tables
        if (company is None or t.company == company)
        and (start is None or t.day >= start)
        and (end is None or t.day <= end)
    ]


def stats_report(stats: Mapping[Player, Stats], name: Callable[[Player], str]) -> dict[str, Any]:
    """Statistics keyed by player name, in code-point order."""
    return {name(p): s.as_dict() for p, s in sorted(stats.items(), key=lambda i: name(i[0]))}
