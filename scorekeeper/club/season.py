"""A club's season from the results it keeps (season.md §1, §4, §6).

Each table's `TableResult` is kept by its game and version (`_RESULTS`), so a club page reads
only the games' versions (one bounded query per kind of thing) and replays nothing it has
already seen; the computed season is kept by the club's version and those game versions
(`_SEASONS`). A tournament's tables count as its table games on the tournament's date.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, cast

from scorekeeper import games
from scorekeeper.kept import Kept
from scorekeeper.season.compute import (
    Computed,
    Event,
    Placed,
    Season,
    compute,
    report,
    scope_statistics,
    standings_report,
)
from scorekeeper.season.players import Directory
from scorekeeper.season.results import TableResult, from_sheet
from scorekeeper.store import Store
from scorekeeper.store.clubs import ClubRecord

_RESULTS: Kept[tuple[str, int, str], tuple[tuple[TableResult, str] | None]] = Kept(20_000)
"""Each game's table result and first day by its state (view token, version, updated_at:
unique in any database, as the games service keys its states); (None,): a game that counts
nothing (another family)."""
_SEASONS: Kept[tuple[Any, ...], Built] = Kept(32)

_SELECT = (
    "SELECT t.id AS thing, t.kind, t.thing_id, t.friendly, t.played_on AS moved,"
    " g.id AS game_id, g.view_token, g.version, g.updated_at,"
)
_DIRECT = (
    _SELECT + " cg.played_on AS day, c.name AS company"
    " FROM club_things AS t JOIN games AS g ON g.id = t.thing_id"
    " LEFT JOIN company_games AS cg ON cg.game_id = g.id"
    " LEFT JOIN companies AS c ON c.id = cg.company_id"
    " WHERE t.club_id = ? AND t.kind = 'game' AND g.deleted_at IS NULL"
)
_COMPANY = (
    _SELECT + " cg.played_on AS day, c.name AS company"
    " FROM club_things AS t JOIN companies AS c ON c.id = t.thing_id"
    " JOIN company_games AS cg ON cg.company_id = c.id JOIN games AS g ON g.id = cg.game_id"
    " WHERE t.club_id = ? AND t.kind = 'company' AND g.deleted_at IS NULL"
)
_TOURNAMENT = (
    _SELECT + " NULL AS day, NULL AS company"
    " FROM club_things AS t JOIN tournament_tables AS tt ON tt.tournament_id = t.thing_id"
    " JOIN games AS g ON g.id = tt.game_id"
    " WHERE t.club_id = ? AND t.kind = 'tournament' AND g.deleted_at IS NULL"
    " ORDER BY tt.tour, tt.table_no"
)


@dataclass(frozen=True)
class Table:
    """A game of the club with its kept result and where it counts."""

    thing: int
    kind: str
    thing_id: int
    game_id: int
    played_on: datetime.date
    company: str | None
    friendly: bool
    result: TableResult


@dataclass(frozen=True)
class Built:
    """A club's season computed: what it was built from, and the numbers; `memo` keeps
    what the pages asked of it (the standings, a scope's statistics, the whole report), so
    a page opened again computes nothing."""

    season: Season
    tables: tuple[Table, ...]
    done: Computed
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)

    def _kept(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]

    def report(self) -> dict[str, Any]:
        """The whole season report (season.md §6.2)."""
        return cast(dict[str, Any], self._kept(("report",), lambda: report(self.season, self.done)))

    def standings(self) -> list[dict[str, Any]]:
        """The rating standings (§4.2)."""
        return cast(
            list[dict[str, Any]],
            self._kept(("standings",), lambda: standings_report(self.season, self.done)),
        )

    def statistics(
        self, company: str | None, start: datetime.date | None, end: datetime.date | None
    ) -> dict[str, Any]:
        """The statistics of a scope and a period, by player name."""
        return cast(
            dict[str, Any],
            self._kept(
                ("statistics", company, start, end),
                lambda: scope_statistics(self.done, company, start, end),
            ),
        )


def _result(store: Store, game_id: int, row: Any) -> tuple[TableResult, str] | None:
    """A game's table result and the day of its first deal, kept by game and version."""
    key = (str(row["view_token"]), int(row["version"]), str(row["updated_at"]))
    kept = _RESULTS.get(key)
    if kept is not None:
        return kept[0]
    record = store.game_record(game_id, "view")
    found = None
    if "family" not in record.options:  # the Balkan family has no §4 results here
        loaded = games.load(record)
        first = record.deals[0].created_at if record.deals else record.created_at
        found = (from_sheet(loaded.sheet), first[:10])
    _RESULTS.put(key, (found,))
    return found


def club_tables(store: Store, club: ClubRecord) -> list[Table]:
    """Every game the club holds, with its kept result (games of another family left out)."""
    out = []
    for sql in (_DIRECT, _COMPANY, _TOURNAMENT):
        for row in store.engine.rows(sql, [club.id]):
            kept = _result(store, row["game_id"], row)
            if kept is None:
                continue
            day = row["moved"] or row["day"] or kept[1]
            out.append(
                Table(
                    row["thing"],
                    row["kind"],
                    row["thing_id"],
                    row["game_id"],
                    datetime.date.fromisoformat(day),
                    row["company"],
                    bool(row["friendly"]),
                    kept[0],
                )
            )
    return _tournament_days(out)


def _tournament_days(tables: list[Table]) -> list[Table]:
    """A tournament's tables all on its day (season.md §1: the day its first tour began,
    read as the earliest first deal of its tables), unless the director wrote a date."""
    first: dict[int, datetime.date] = {}
    for t in tables:
        if t.kind == "tournament":
            first[t.thing] = min(first.get(t.thing, t.played_on), t.played_on)
    return [replace(t, played_on=first[t.thing]) if t.kind == "tournament" else t for t in tables]


def directory(club: ClubRecord) -> Directory:
    """The club's directory with its merges in force."""
    return Directory(
        {p.id: p.name for p in club.players}, {m.from_id: m.into_id for m in club.merges}
    )


def attachments(club: ClubRecord) -> dict[tuple[str, int], dict[str, int]]:
    """The seat attachments by thing: (kind, thing id) → seat name → directory id."""
    out: dict[tuple[str, int], dict[str, int]] = {}
    for s in club.seats:
        out.setdefault((s.kind, s.thing_id), {})[s.seat] = s.player_id
    return out


def doubled_seat(
    store: Store, club: ClubRecord, dirs: Directory, extra: Any = None
) -> dict[str, str] | None:
    """Two seats of one table that would be one player: their names and the game's id."""
    seats = attachments(club)
    for (kind, thing_id, seat), player in (extra or {}).items():
        seats.setdefault((kind, thing_id), {})[seat] = player
    for t in club_tables(store, club):
        linked = seats.get((t.kind, t.thing_id), {})
        seen: dict[object, str] = {}
        for name in t.result.seats:
            who = dirs.resolve(name, linked.get(name))
            if who in seen:
                return {"first": seen[who], "second": name, "table": str(t.game_id)}
            seen[who] = name
    return None


ALL_TIME = 0
"""The season id that asks for every game the club holds (its statistics for all time)."""


def period(club: ClubRecord, tables: list[Table], season_id: int | None) -> tuple[Any, ...]:
    """The season shown: (name, first, last); the one asked for, else the one holding today,
    else the latest; with no season (or ALL_TIME asked for), all time."""
    today = datetime.date.today()
    chosen = (
        []
        if season_id == ALL_TIME
        else (
            [s for s in club.seasons if s.id == season_id]
            or [s for s in club.seasons if s.first <= today.isoformat() <= s.last]
            or club.seasons[-1:]
        )
    )
    if chosen:
        s = chosen[0]
        return s.name, datetime.date.fromisoformat(s.first), datetime.date.fromisoformat(s.last)
    days = [t.played_on for t in tables] or [today]
    return "", min(days), max(max(days), today)


def build(store: Store, club: ClubRecord, season_id: int | None = None) -> Built:
    """The club's season, computed once per club version and game versions."""
    tables = club_tables(store, club)
    name, first, last = period(club, tables, season_id)
    key = (
        club.public_token,
        club.version,
        first,
        last,
        tuple((t.game_id, id(t.result), t.played_on, t.company, t.friendly) for t in tables),
    )
    kept = _SEASONS.get(key)
    if kept is not None:
        return kept
    inside = tuple(t for t in tables if first <= t.played_on <= last)
    seats = attachments(club)
    events = tuple(
        Event(
            t.played_on,
            (Placed(None, None, t.result),),
            seats.get((t.kind, t.thing_id), {}),
            t.company,
            t.friendly,
        )
        for t in inside
    )
    as_of = min(last, max([datetime.date.today(), *(t.played_on for t in inside)]))
    season = Season(first, last, as_of, directory(club), (), events, name, club.name)
    built = Built(season, inside, compute(season))
    _SEASONS.put(key, built)
    return built


def season_file(store: Store, club: ClubRecord, built: Built) -> dict[str, Any]:
    """The season file (`scorekeeper-season/1`) of what the page shows."""
    s = built.season
    data: dict[str, Any] = {
        "format": "scorekeeper-season/1",
        "club": club.name,
        "name": s.name,
        "from": s.first.isoformat(),
        "to": s.last.isoformat(),
        "as_of": s.as_of.isoformat(),
        "players": [{"id": p.id, "name": p.name} for p in club.players],
        "merges": [{"from": m.from_id, "into": m.into_id} for m in club.merges],
        "events": [],
    }
    for t, event in zip(built.tables, s.events, strict=True):
        entry: dict[str, Any] = {"played_on": t.played_on.isoformat()}
        if t.company is not None:
            entry["company"] = t.company
        if t.friendly:
            entry["friendly"] = True
        if event.seats:
            entry["seats"] = {k: v for k, v in event.seats.items() if k in t.result.seats}
        entry["game"] = games.file_data(store.game_record(t.game_id, "view"))
        data["events"].append(entry)
    return data


_NAMES = {
    "game": "SELECT t.id, g.name AS name, g.players AS players FROM club_things AS t"
    " JOIN games AS g ON g.id = t.thing_id WHERE t.club_id = ? AND t.kind = 'game'",
    "company": "SELECT t.id, c.name AS name, NULL AS players FROM club_things AS t"
    " JOIN companies AS c ON c.id = t.thing_id WHERE t.club_id = ? AND t.kind = 'company'",
    "tournament": "SELECT t.id, n.name AS name, NULL AS players FROM club_things AS t"
    " JOIN tournaments AS n ON n.id = t.thing_id WHERE t.club_id = ? AND t.kind = 'tournament'",
}


def thing_names(store: Store, club: ClubRecord) -> dict[int, str]:
    """Each attached thing's name (a game without one: its players)."""
    out = {}
    for sql in _NAMES.values():
        for row in store.engine.rows(sql, [club.id]):
            players = " · ".join(json.loads(row["players"])) if row["players"] else ""
            out[int(row["id"])] = str(row["name"] or players)
    return out


@dataclass(frozen=True)
class Unattached:
    """A seat whose player is not in the directory, where it sat."""

    kind: str
    thing_id: int
    seat: str


def unattached(built: Built, most: int = 30) -> list[Unattached]:
    """The seats not in the directory (each once by thing and name), at most `most`."""
    out: dict[tuple[str, int, str], Unattached] = {}
    for counted in built.done.tables:
        t = built.tables[counted.event - 1]  # one game an event, in the order built
        for seat, player in zip(t.result.seats, counted.players, strict=True):
            if isinstance(player, str) and len(out) < most:
                out.setdefault((t.kind, t.thing_id, seat), Unattached(t.kind, t.thing_id, seat))
    return list(out.values())
