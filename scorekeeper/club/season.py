"""A club's season from the results it keeps (season.md §1, §4, §6).

Each table's `TableResult` is kept by its game and version (`_RESULTS`), so a club page reads
only the games' versions (one bounded query per kind of thing) and replays nothing it has
already seen; the computed season is kept by the club's version and those game versions
(`_SEASONS`). Each thing is one event of the season, as the season file writes it: a game,
a company's evening, or a tournament with its tables by tour on the tournament's date and its
report (`_TOURNAMENTS`, kept by the tournament's state).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import groupby
from typing import Any, cast

from scorekeeper import balkan, games
from scorekeeper.kept import Kept
from scorekeeper.season.compute import (
    Computed,
    Event,
    Placed,
    Season,
    Start,
    compute,
    report,
    scope_statistics,
    standings_report,
    two_decimals,
)
from scorekeeper.season.players import Directory
from scorekeeper.season.results import TableResult, from_balkan, from_sheet
from scorekeeper.store import Store
from scorekeeper.store.clubs import ClubRecord
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.tournament.service import file_dict, overview

_RESULTS: Kept[tuple[str, int, str], tuple[tuple[TableResult, str] | None]] = Kept(20_000)
"""Each game's table result and first day by its state (view token, version, updated_at:
unique in any database, as the games service keys its states); (None,): a game that counts
nothing (a stored game that no longer replays)."""
_TOURNAMENTS: Kept[tuple[Any, ...], Reported] = Kept(256)
_SEASONS: Kept[tuple[Any, ...], Built] = Kept(32)

_SELECT = (
    "SELECT t.id AS thing, t.kind, t.thing_id, t.friendly, t.played_on AS moved,"
    " g.id AS game_id, g.view_token, g.version, g.updated_at,"
)
_DIRECT = (
    _SELECT + " cg.played_on AS day, c.name AS company, NULL AS tour, NULL AS table_no"
    " FROM club_things AS t JOIN games AS g ON g.id = t.thing_id"
    " LEFT JOIN company_games AS cg ON cg.game_id = g.id"
    " LEFT JOIN companies AS c ON c.id = cg.company_id"
    " WHERE t.club_id = ? AND t.kind = 'game' AND g.deleted_at IS NULL ORDER BY t.id"
)
_COMPANY = (
    _SELECT + " cg.played_on AS day, c.name AS company, NULL AS tour, NULL AS table_no"
    " FROM club_things AS t JOIN companies AS c ON c.id = t.thing_id"
    " JOIN company_games AS cg ON cg.company_id = c.id JOIN games AS g ON g.id = cg.game_id"
    " WHERE t.club_id = ? AND t.kind = 'company' AND g.deleted_at IS NULL"
    " ORDER BY t.id, cg.played_on, g.id"
)
_TOURNAMENT = (
    _SELECT + " NULL AS day, NULL AS company, tt.tour, tt.table_no, g.created_at AS made,"
    " n.view_token AS tournament, n.version AS t_version, n.updated_at AS t_updated"
    " FROM club_things AS t JOIN tournaments AS n ON n.id = t.thing_id"
    " JOIN tournament_tables AS tt ON tt.tournament_id = n.id"
    " JOIN games AS g ON g.id = tt.game_id"
    " WHERE t.club_id = ? AND t.kind = 'tournament' AND g.deleted_at IS NULL"
    " ORDER BY t.id, tt.tour, tt.table_no"
)


@dataclass(frozen=True)
class Table:
    """A game of the club with its kept result and where it counts (a tournament's table:
    its tour and number)."""

    thing: int
    kind: str
    thing_id: int
    game_id: int
    played_on: datetime.date
    company: str | None
    friendly: bool
    result: TableResult
    tour: int | None = None
    table_no: int | None = None


@dataclass(frozen=True)
class Reported:
    """A tournament as the season file's reader sees it: its name, roster and report
    (standings and tours, no next tour; empty when the stored tournament is not a valid
    file)."""

    token: str
    name: str
    roster: tuple[str, ...]
    report: dict[str, Any]
    state: tuple[Any, ...] = ()
    """The tournament's state it was made from (its row's and its tables' versions)."""
    valid: bool = True
    """Its tournament file passes its checks (else no season file could carry it)."""


@dataclass(frozen=True)
class Held:
    """One event of the club: a game (one table) or a tournament (its tables by tour)."""

    tables: tuple[Table, ...]
    tournament: Reported | None = None

    @property
    def first(self) -> Table:
        return self.tables[0]

    @property
    def played_on(self) -> datetime.date:
        return self.first.played_on

    def event(self, seats: dict[str, int]) -> Event:
        """The event as the season computes it, with the thing's seat attachments."""
        t, n = self.first, self.tournament
        return Event(
            t.played_on,
            tuple(Placed(x.tour, x.table_no, x.result) for x in self.tables),
            seats,
            t.company,
            t.friendly,
            None if n is None else n.report,
            "" if n is None else n.name,
            () if n is None else n.roster,
        )

    def seat_names(self) -> set[str]:
        """Every seat of the event (a tournament's roster too)."""
        names = {s for t in self.tables for s in t.result.seats}
        return names | set(self.tournament.roster if self.tournament else ())


@dataclass(frozen=True)
class Built:
    """A club's season computed: what it was built from, and the numbers; `memo` keeps
    what the pages asked of it (the standings, a scope's statistics, the whole report), so
    a page opened again computes nothing."""

    season: Season
    held: tuple[Held, ...]
    done: Computed
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)

    @property
    def tables(self) -> tuple[Table, ...]:
        """Every table of the season's events, in the events' order."""
        return tuple(t for h in self.held for t in h.tables)

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
    loaded = games.load(record)
    first = record.deals[0].created_at if record.deals else record.created_at
    found = None
    if not loaded.problems:  # a stored game that no longer replays counts nowhere
        sheet = loaded.sheet
        result = from_balkan(sheet) if isinstance(sheet, balkan.Sheet) else from_sheet(sheet)
        found = (result, first[:10])
    _RESULTS.put(key, (found,))
    return found


def _table(row: Any, day: str, result: TableResult) -> Table:
    return Table(
        row["thing"],
        row["kind"],
        row["thing_id"],
        row["game_id"],
        datetime.date.fromisoformat(day),
        row["company"],
        bool(row["friendly"]),
        result,
        row["tour"],
        row["table_no"],
    )


def club_events(store: Store, club: ClubRecord) -> list[Held]:
    """Every event of the club in the order of attaching (a company's evenings by date):
    each game with its kept result (games of another family left out), each tournament with
    its tables on its day and its report."""
    out: list[tuple[int, Held]] = []
    rows = store.engine.rows(_TOURNAMENT, [club.id])
    seen = {row["game_id"] for row in rows}  # a game counts once, by what brought it
    for sql in (_COMPANY, _DIRECT):
        for row in store.engine.rows(sql, [club.id]):
            if row["game_id"] in seen:
                continue
            seen.add(row["game_id"])
            kept = _result(store, row["game_id"], row)
            if kept is not None:
                table = _table(row, row["moved"] or row["day"] or kept[1], kept[0])
                out.append((table.thing, Held((table,))))
    for thing, group in groupby(rows, key=lambda r: r["thing"]):
        held = _tournament(store, list(group))
        if held is not None:
            out.append((thing, held))
    return [held for _, held in sorted(out, key=lambda pair: pair[0])]


def _tournament(store: Store, rows: list[Any]) -> Held | None:
    """A tournament's tables on its day (docs/season.md: the day tour 1 was seated, when its
    tables' games were made) unless the director wrote one, and its report. A tournament
    whose file fails its checks counts nowhere (None), as a game that no longer replays:
    the season file could not carry it (`scorekeeper season` refuses a tournament its own
    format refuses), and the page shows what the file gives back."""
    reported = _reported(store, rows)
    if not reported.valid:
        return None
    tables = []
    for row in rows:
        kept = _result(store, row["game_id"], row)
        if kept is not None:
            tables.append(_table(row, kept[1], kept[0]))
    if not tables:
        return None
    seated = [r["made"] for r in rows if r["tour"] == 1] or [r["made"] for r in rows]
    on = datetime.date.fromisoformat(rows[0]["moved"] or str(min(seated))[:10])
    return Held(tuple(replace(t, played_on=on) for t in tables), reported)


def _reported(store: Store, rows: list[Any]) -> Reported:
    """The tournament's report as `scorekeeper tournament` gives it, kept by its state."""
    first = rows[0]
    key = (
        first["tournament"],
        first["t_version"],
        first["t_updated"],
        tuple((r["view_token"], r["version"], r["updated_at"]) for r in rows),
    )
    kept = _TOURNAMENTS.get(key)
    if kept is None:
        record = Tournaments(store).get(first["tournament"])
        checked = overview(record).report
        found = checked or {"standings": [], "tours": []}
        shown = {k: v for k, v in found.items() if k != "next_tour"}
        roster = tuple(record.roster)
        kept = Reported(record.view_token, record.name, roster, shown, key, checked is not None)
        _TOURNAMENTS.put(key, kept)
    return kept


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
    for held in club_events(store, club):
        for t in held.tables:
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


def period(club: ClubRecord, held: list[Held], season_id: int | None) -> tuple[Any, ...]:
    """The season shown: (name, first, last, whether it carries the ratings over); the one
    asked for, else the one holding today, else the latest; with no season (or ALL_TIME
    asked for), all time."""
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
        first, last = datetime.date.fromisoformat(s.first), datetime.date.fromisoformat(s.last)
        return s.name, first, last, s.carry
    days = [h.played_on for h in held] or [today]
    return "", min(days), max(max(days), today), False


def carried(store: Store, club: ClubRecord, first: datetime.date) -> tuple[Start, ...]:
    """The ratings a season starting on `first` carries over (season.md §1, §6 `start`): each
    directory player's at the end of the latest season before it (unattached names have no
    id to carry theirs under), by id."""
    before = [s for s in club.seasons if s.last < first.isoformat()]
    if not before:
        return ()
    done = build(store, club, max(before, key=lambda s: s.last).id).done
    kept = {p: r for p, r in done.book.ratings.items() if isinstance(p, int) and r.last}
    return tuple(
        Start(p, r.value, r.games, r.deals, r.last)
        for p, r in sorted(kept.items())
        if r.last is not None
    )


def build(store: Store, club: ClubRecord, season_id: int | None = None) -> Built:
    """The club's season, computed once per club version and game versions."""
    held = club_events(store, club)
    name, first, last, carry = period(club, held, season_id)
    start = carried(store, club, first) if carry else ()
    key = (
        club.public_token,
        club.version,
        first,
        last,
        start,
        tuple(
            (
                h.tournament.state if h.tournament else (),
                *((t.game_id, id(t.result), t.played_on, t.company, t.friendly) for t in h.tables),
            )
            for h in held
        ),
    )
    kept = _SEASONS.get(key)
    if kept is not None:
        return kept
    inside = tuple(h for h in held if first <= h.played_on <= last)
    seats = attachments(club)
    events = tuple(h.event(seats.get((h.first.kind, h.first.thing_id), {})) for h in inside)
    as_of = min(last, max([datetime.date.today(), *(h.played_on for h in inside)]))
    season = Season(first, last, as_of, directory(club), start, events, name, club.name)
    built = Built(season, inside, compute(season))
    _SEASONS.put(key, built)
    return built


def season_file(store: Store, club: ClubRecord, built: Built) -> dict[str, Any]:
    """The season file (`scorekeeper-season/1`) of what the page shows: each game as a game
    file, each tournament as its tournament file."""
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
        "start": [
            {
                "player": x.player,
                "rating": two_decimals(x.rating),
                "games": x.games,
                "deals": x.deals,
                "last_played": x.last_played.isoformat(),
            }
            for x in s.start
        ],
        "events": [_file_event(store, h, e) for h, e in zip(built.held, s.events, strict=True)],
    }
    return data


def _file_event(store: Store, held: Held, event: Event) -> dict[str, Any]:
    t = held.first
    entry: dict[str, Any] = {"played_on": t.played_on.isoformat()}
    if t.company is not None:
        entry["company"] = t.company
    if t.friendly:
        entry["friendly"] = True
    names = held.seat_names()
    if any(k in names for k in event.seats):
        entry["seats"] = {k: v for k, v in event.seats.items() if k in names}
    if held.tournament is None:
        entry["game"] = games.file_data(store.game_record(t.game_id, "view"))
    else:
        entry["tournament"] = file_dict(Tournaments(store).get(held.tournament.token))
    return entry


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


def left_out(store: Store, club: ClubRecord) -> frozenset[int]:
    """The attached tournaments (by their club thing's id) that count nowhere: their
    tournament file fails its checks (the director's page says so beside each)."""
    rows = store.engine.rows(_TOURNAMENT, [club.id])
    return frozenset(
        int(thing)
        for thing, group in groupby(rows, key=lambda r: r["thing"])
        if not _reported(store, list(group)).valid
    )


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
        t = built.held[counted.event - 1].first  # the events in the order built
        for seat, player in zip(counted.result.seats, counted.players, strict=True):
            if isinstance(player, str) and len(out) < most:
                out.setdefault((t.kind, t.thing_id, seat), Unattached(t.kind, t.thing_id, seat))
    return list(out.values())


@dataclass(frozen=True)
class Latest:
    """An event of the club as its page lists it: a game's players with their results (best
    first), a tournament's winners."""

    played_on: datetime.date
    title: str
    friendly: bool
    results: tuple[tuple[str, Fraction], ...] = ()
    winners: tuple[str, ...] = ()


def latest(built: Built, names: dict[int, str], most: int = 8) -> list[Latest]:
    """The season's latest events, newest first (`names`: each thing's, by thing id)."""
    games = {c.event: c for c in built.done.tables if c.tour is None}
    held = built.held
    order = sorted(range(len(held)), key=lambda i: (held[i].played_on, i), reverse=True)
    out = []
    for i in order[:most]:
        h, first = held[i], held[i].first
        title = names.get(first.thing, "")
        if h.tournament is not None:
            standings = h.tournament.report.get("standings", [])
            won = tuple(s["player"] for s in standings if s["place"] == 1)
            out.append(Latest(h.played_on, title, first.friendly, winners=won))
            continue
        c = games[i + 1]
        results = [(built.done.name(p), c.x(k)) for k, p in enumerate(c.players)]
        results.sort(key=lambda r: -r[1])
        out.append(Latest(h.played_on, title, first.friendly, tuple(results)))
    return out


_COMPANIES = (
    "SELECT c.name, c.view_token FROM club_things AS t JOIN companies AS c ON c.id = t.thing_id"
    " WHERE t.club_id = ? AND t.kind = 'company' ORDER BY t.id"
)


def companies(store: Store, club: ClubRecord) -> list[tuple[str, str]]:
    """The club's companies in the order of attaching: name and read-only token."""
    return [
        (str(r["name"]), str(r["view_token"])) for r in store.engine.rows(_COMPANIES, [club.id])
    ]
