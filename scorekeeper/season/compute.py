"""A season from its parts to its report (season.md §4, §6.2): pure, exact, no I/O.

`Season` holds the directory (with its merges), the carried-over ratings and the events, each
event its tables' kept `TableResult`s; `compute(season)` resolves every seat to a player,
walks the tables in season order for the rating and counts the statistics; `report(season)`
is the JSON object `scorekeeper season` prints. A club page builds the same `Season` from
the results it keeps and calls the same functions.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from itertools import groupby
from typing import Any

from scorekeeper.season.players import Directory, Player, display_names
from scorekeeper.season.rating import Book, Decayed, Rated, Seated, standings
from scorekeeper.season.results import TableResult
from scorekeeper.season.statistics import (
    Counted,
    head_to_head,
    in_scope,
    statistics,
    stats_report,
)

REPORT_FORMAT = "scorekeeper-season-report/1"


@dataclass(frozen=True)
class Placed:
    """A table of an event: its tour and number in a tournament (None for a game)."""

    tour: int | None
    table: int | None
    result: TableResult


@dataclass(frozen=True)
class Event:
    """A game or a tournament of the season."""

    played_on: date
    tables: tuple[Placed, ...]
    """A game's one table, or a tournament's tables in tour and table order."""
    seats: Mapping[str, int] = field(default_factory=dict)
    """The attachments: seat name → directory id."""
    company: str | None = None
    friendly: bool = False
    tournament: Mapping[str, Any] | None = None
    """A tournament's report (standings, tours) as `scorekeeper tournament` gives it."""
    name: str = ""
    roster: tuple[str, ...] = ()
    """A tournament's roster: its seats, a late player's before he sits at a table too."""


@dataclass(frozen=True)
class Start:
    """A rating carried over from before the season."""

    player: int
    rating: Fraction
    games: int
    deals: int
    last_played: date


@dataclass(frozen=True)
class Season:
    """Everything a season's numbers are computed from."""

    first: date
    last: date
    as_of: date
    directory: Directory = field(default_factory=Directory)
    start: tuple[Start, ...] = ()
    events: tuple[Event, ...] = ()
    name: str = ""
    club: str = ""


@dataclass
class Computed:
    """A season computed: the tables counted, the players' names, the ratings and their log."""

    tables: list[Counted]
    names: dict[Player, str]
    book: Book

    def name(self, player: Player) -> str:
        """A player's name as shown."""
        return self.names[player]


def counted(season: Season) -> list[Counted]:
    """Every table of the season, its seats resolved, in season order (by date, then the
    events' order, a tournament's by tour and table)."""
    order = sorted(range(len(season.events)), key=lambda i: (season.events[i].played_on, i))
    who = functools.cache(season.directory.resolve)  # a club's names recur at every table
    out = []
    for index in order:
        event = season.events[index]
        for placed in event.tables:
            players = tuple(who(seat, event.seats.get(seat)) for seat in placed.result.seats)
            out.append(
                Counted(
                    event.played_on,
                    index + 1,
                    placed.tour,
                    placed.table,
                    event.company if event.tournament is None else None,
                    event.friendly,
                    players,
                    placed.result,
                )
            )
    return out


def compute(season: Season) -> Computed:
    """Resolve the seats, name the players and apply the ratings in season order."""
    tables = counted(season)
    seen: list[tuple[Player, str]] = [(season.directory.kept(s.player), "") for s in season.start]
    for t in tables:
        seen.extend(zip(t.players, t.result.seats, strict=True))
    for event in season.events:
        seen.extend((season.directory.resolve(s, event.seats.get(s)), s) for s in event.roster)
    names = display_names(season.directory, seen)
    done = Computed(tables, names, Book(season.first, names.__getitem__))
    for s in season.start:
        done.book.carry(season.directory.kept(s.player), s.rating, s.games, s.deals, s.last_played)
    rate(done.book, tables)
    done.book.decay_until(season.as_of)
    return done


def rate(book: Book, tables: list[Counted]) -> None:
    """Apply the rated tables in season order, a tour's tables together, each date's decays
    first."""
    for _, group in groupby(tables, key=lambda t: (t.event, t.tour)):
        together = [t for t in group if rated(t)]
        if together:
            book.decay_until(together[0].day)
            book.rate_together([seated(t) for t in together])


def rated(t: Counted) -> bool:
    """A rated table: over, not friendly, of a kind the rating counts, with a deal."""
    return t.result.over and not t.friendly and t.result.ratable and t.result.deals >= 1


def seated(t: Counted) -> Seated:
    """A table as the rating reads it."""
    xs = tuple(t.x(i) for i in range(len(t.players)))
    return Seated(t.day, t.event, t.tour, t.table, t.players, t.result.deals, xs)


# -- the report ------------------------------------------------------------------------------


def two_decimals(value: Fraction) -> str:
    """A rating as the report writes it: "225.84", "-20.00" (a multiple of 1/100)."""
    cents = value * 100
    assert cents.denominator == 1
    whole, part = divmod(abs(cents.numerator), 100)
    return f"{'-' if cents < 0 else ''}{whole}.{part:02d}"


def report(season: Season, done: Computed | None = None) -> dict[str, Any]:
    """The season report (season.md §6.2)."""
    done = done or compute(season)
    companies = sorted({t.company for t in done.tables if t.company is not None})
    return {
        "format": REPORT_FORMAT,
        "name": season.name,
        "from": season.first.isoformat(),
        "to": season.last.isoformat(),
        "as_of": season.as_of.isoformat(),
        "players": players_report(season, done),
        "standings": standings_report(season, done),
        "rating_log": [log_line(line, done) for line in done.book.log],
        "statistics": {
            "club": scope_statistics(done),
            "companies": {c: scope_statistics(done, c) for c in companies},
        },
        "head_to_head": {
            "club": pairs_report(done.tables, done),
            "companies": {c: pairs_report(in_scope(done.tables, c), done) for c in companies},
        },
        "tournaments": [
            {"event": n, "name": e.name, **dict(e.tournament)}
            for n, e in enumerate(season.events, start=1)
            if e.tournament is not None
        ],
    }


def scope_statistics(
    done: Computed, company: str | None = None, start: date | None = None, end: date | None = None
) -> dict[str, Any]:
    """The statistics of a scope (a company; None: the club) and a period (both ends
    included), keyed by player name: what a club page shows for "this month", "all time"."""
    return stats_report(statistics(in_scope(done.tables, company, start, end)), done.name)


def players_report(season: Season, done: Computed) -> list[dict[str, Any]]:
    """Every player of the seats and of the carried-over ratings, by name."""
    return [
        {
            "player": name,
            "id": p if isinstance(p, int) else None,
            "merged": season.directory.merged_into(p) if isinstance(p, int) else [],
        }
        for p, name in sorted(done.names.items(), key=lambda item: item[1])
    ]


def standings_report(season: Season, done: Computed) -> list[dict[str, Any]]:
    """The standings (§4.2)."""
    return [
        {
            "place": s.place,
            "player": done.name(s.player),
            "id": s.player if isinstance(s.player, int) else None,
            "rating": two_decimals(s.rating.shown),
            "provisional": not s.rating.established,
            "category": s.category,
            "games": s.rating.games,
            "season_games": s.rating.season_games,
            "deals": s.rating.deals,
            "last_played": None
            if s.rating.season_last is None
            else s.rating.season_last.isoformat(),
        }
        for s in standings(done.book.ratings, done.name)
    ]


def log_line(line: Decayed | Rated, done: Computed) -> dict[str, Any]:
    """A line of the rating log."""
    if isinstance(line, Decayed):
        return {
            "date": line.day.isoformat(),
            "player": done.name(line.player),
            "decay": "-10",
            "after": two_decimals(line.after),
        }
    return {
        "date": line.day.isoformat(),
        "event": line.event,
        "tour": line.tour,
        "table": line.table,
        "player": done.name(line.player),
        "deals": line.deals,
        "result": str(line.result),
        "performance": str(line.performance),
        "before": two_decimals(line.before),
        "after": two_decimals(line.after),
    }


def pairs_report(tables: list[Counted], done: Computed) -> list[dict[str, Any]]:
    """Head-to-head: every pair with a game together, names in code-point order."""
    pairs = head_to_head(tables, done.name)
    rows = [((done.name(a), done.name(b)), together) for (a, b), together in pairs.items()]
    return [
        {"players": list(names), "games": t.games, "balance": str(t.balance)}
        for names, t in sorted(rows, key=lambda r: r[0])
    ]
