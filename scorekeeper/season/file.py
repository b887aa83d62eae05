"""The season file `scorekeeper-season/1` (season.md §6.1): read it, check everything, and
name each problem with its event ("event 3: deal 4: …", "event 4: tournament: tour 2,
table 1: …"). Each event's game is read as a game file and its tournament as a tournament
file; their results are computed once, here, and kept in the `Season`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

from scorekeeper import balkan, gamefile, gamefile_balkan
from scorekeeper.rules import InvalidGame, Problem, replay
from scorekeeper.rules.problems import N_, as_written
from scorekeeper.rules.text import bad_character, first_surrogate, name_key, normalize_all
from scorekeeper.season.compute import Event, Placed, Season, Start
from scorekeeper.season.players import Directory, MergeCycle
from scorekeeper.season.results import from_balkan, from_sheet
from scorekeeper.tournament import file as tournament_file

FORMAT = "scorekeeper-season/1"
TOP_KEYS = ("format", "club", "name", "from", "to", "as_of", "players", "merges", "start", "events")
EVENT_KEYS = ("played_on", "game", "tournament", "company", "friendly", "seats")
START_KEYS = ("player", "rating", "games", "deals", "last_played")
MAX_EVENTS = 5000
MAX_DIRECTORY = 5000
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_RATING = re.compile(r"-?[0-9]{1,9}(\.[0-9]{1,2})?")


@dataclass(frozen=True)
class SeasonProblem:
    """One problem of a season file: of the whole file, or of an event (a problem of its
    own, of its game, or of its tournament placed at a tour and table)."""

    problem: Problem | None = None
    event: int | None = None
    located: tournament_file.Located | None = None

    def __str__(self) -> str:
        inner = f"tournament: {self.located}" if self.located else str(self.problem)
        return inner if self.event is None else f"event {self.event}: {inner}"


class InvalidSeason(ValueError):
    """A season file that cannot be read: `problems`, one line each."""

    def __init__(self, problems: list[SeasonProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class _Notes:
    """The problems found so far."""

    found: list[SeasonProblem] = field(default_factory=list)

    def __call__(self, template: str, *, event: int | None = None, **params: Any) -> None:
        self.found.append(SeasonProblem(Problem(template, params), event))


def _show(value: Any) -> str:
    """A value for a message (rules/problems.as_written)."""
    return as_written(value)


# -- reading ---------------------------------------------------------------------------------


def loads(text: str | bytes) -> Season:
    """Read a season file's text; raises InvalidSeason naming every problem."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise InvalidSeason(
            [SeasonProblem(Problem(N_("not valid JSON: {error}"), {"error": str(error)}))]
        ) from None
    except RecursionError:
        raise InvalidSeason(
            [SeasonProblem(Problem(N_("not valid JSON: nested too deeply")))]
        ) from None
    twice = [_at_event(p) for p in gamefile.written_twice(text, "events")]
    try:
        season = parse(data)
    except InvalidSeason as invalid:
        raise InvalidSeason(twice + invalid.problems) from None
    if twice:
        raise InvalidSeason(twice)
    return season


def _at_event(problem: Problem) -> SeasonProblem:
    """A problem the game file's reader placed at an entry of `events`, placed at its event."""
    return SeasonProblem(Problem(problem.template, problem.params, problem.field), problem.deal)


def parse(data: Any) -> Season:
    """Check a parsed season file and compute its tables' results; raises InvalidSeason."""
    if not isinstance(data, dict):
        raise InvalidSeason([SeasonProblem(Problem(N_("a season file must be a JSON object")))])
    char = first_surrogate(data)
    if char is not None:
        raise InvalidSeason(
            [SeasonProblem(Problem(N_("the file holds {char}: not valid text"), {"char": char}))]
        )
    data = normalize_all(data)
    bad = _Notes()
    _keys(data, TOP_KEYS, ("format", "from", "to"), bad)
    if "format" in data and data["format"] != FORMAT:
        bad(
            N_("unknown format {format} (this reader knows {known})"),
            format=_show(data["format"]),
            known=FORMAT,
        )
    first, last, as_of = _dates(data, bad)
    names = _directory(data.get("players", []), bad)
    merges = _merges(data.get("merges", []), names, bad)
    directory = Directory(names or {}, merges or {})
    start = _starts(data.get("start", []), directory, first, bad) if merges is not None else ()
    events = _events(data.get("events", []), directory, (first, last, as_of), bad)
    name, club = _text(data, "name", bad), _text(data, "club", bad)
    if bad.found or first is None or last is None or as_of is None or names is None:
        raise InvalidSeason(bad.found)
    return Season(
        first=first,
        last=last,
        as_of=as_of,
        directory=directory,
        start=tuple(start),
        events=tuple(events),
        name=name,
        club=club,
    )


def _keys(
    data: dict[str, Any],
    known: tuple[str, ...],
    required: tuple[str, ...],
    bad: _Notes,
    unknown: str = N_("unknown key {key}"),
    missing: str = N_("missing key {key}"),
    **where: Any,
) -> None:
    """No unknown key, every required one (said by the templates, placed by `where`)."""
    for key in data:
        if key not in known:
            bad(unknown, key=_show(key), **where)
    for key in required:
        if key not in data:
            bad(missing, key=_show(key), **where)


def _text(data: dict[str, Any], key: str, bad: _Notes) -> str:
    raw = data.get(key, "")
    if not isinstance(raw, str) or len(raw) > gamefile.MAX_NAME or bad_character(raw):
        bad(
            N_("{key} must be text of at most {limit} characters"), key=key, limit=gamefile.MAX_NAME
        )
        return ""
    return raw


def _date(raw: Any, key: str, bad: _Notes, **where: Any) -> date | None:
    """A date written as 2026-09-01."""
    if isinstance(raw, str) and _DATE.fullmatch(raw):
        try:
            return date.fromisoformat(raw)
        except ValueError:
            pass
    bad(N_("{key} must be a date like 2026-09-01, not {value}"), key=key, value=_show(raw), **where)
    return None


def _dates(data: dict[str, Any], bad: _Notes) -> tuple[date | None, date | None, date | None]:
    """`from`, `to` and `as_of` (default `to`, from `from` to `to`)."""
    first = _date(data["from"], "from", bad) if "from" in data else None
    last = _date(data["to"], "to", bad) if "to" in data else None
    if first is not None and last is not None and last < first:
        bad(
            N_("the season ends ({end}) before it starts ({start})"),
            end=str(last),
            start=str(first),
        )
        return first, None, None
    as_of = last
    if "as_of" in data:
        as_of = _date(data["as_of"], "as_of", bad)
        if (
            as_of is not None
            and first is not None
            and last is not None
            and not first <= as_of <= last
        ):
            bad(
                N_("as_of must be from {start} to {end}, not {value}"),
                start=str(first),
                end=str(last),
                value=str(as_of),
            )
            as_of = None
    return first, last, as_of


def _known(pid: Any, names: Mapping[int, str]) -> bool:
    """Whether a value is the id of a directory player."""
    return isinstance(pid, int) and not isinstance(pid, bool) and pid in names


def _whole(raw: Any) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0


def _list(raw: Any, key: str, limit: int, bad: _Notes) -> list[Any] | None:
    if not isinstance(raw, list):
        bad(N_("{key} must be a list"), key=key)
        return None
    if len(raw) > limit:
        bad(N_("{key}: too many entries (at most {limit})"), key=key, limit=limit)
        return None
    return raw


def _directory(raw: Any, bad: _Notes) -> dict[int, str] | None:
    """`players`: unique ids, names by a game's name rules, unique by key (the good entries,
    so that what refers to them is still checked; None when it is not a list)."""
    entries = _list(raw, "players", MAX_DIRECTORY, bad)
    if entries is None:
        return None
    names: dict[int, str] = {}
    keys: dict[str, str] = {}
    for n, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or set(entry) != {"id", "name"}:
            bad(N_('player {n} must be {{"id": …, "name": …}} and nothing else'), n=n)
            continue
        pid, name = entry["id"], entry["name"]
        if not _whole(pid):
            bad(N_("player {n}: id must be a whole number, not {value}"), n=n, value=_show(pid))
        elif pid in names:
            bad(N_("player {n}: id {id} appears twice"), n=n, id=pid)
        elif _name_problem(n, name, keys, bad):
            names[pid] = name
            keys[name_key(name)] = name
    return names


def _name_problem(n: int, name: Any, keys: dict[str, str], bad: _Notes) -> bool:
    """Whether the `n`th directory name is good and unlike those before it (by key)."""
    if not isinstance(name, str) or not name.strip():
        bad(N_("player {n}: a name must be non-empty text"), n=n)
    elif len(name) > gamefile.MAX_PLAYER_NAME:
        bad(
            N_("player {n}: the name is too long (at most {limit} characters)"),
            n=n,
            limit=gamefile.MAX_PLAYER_NAME,
        )
    elif (char := bad_character(name)) is not None:
        bad(N_("player {n}: the name holds {char}: remove it"), n=n, char=char)
    elif name_key(name) in keys:
        bad(
            N_(
                "player {name} is the same name as {other} (names that differ only in "
                "capitals or width are one player)"
            ),
            name=_show(name),
            other=_show(keys[name_key(name)]),
        )
    else:
        return True
    return False


def _merges(raw: Any, names: dict[int, str] | None, bad: _Notes) -> dict[int, int] | None:
    """`merges`: {"from": id, "into": id} of directory ids, each merged once, no cycle."""
    entries = _list(raw, "merges", MAX_DIRECTORY, bad)
    if entries is None or names is None:
        return None
    merges: dict[int, int] = {}
    ok = True
    for n, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or set(entry) != {"from", "into"}:
            bad(N_('merge {n} must be {{"from": id, "into": id}} and nothing else'), n=n)
        elif not (_known(entry["from"], names) and _known(entry["into"], names)):
            unknown = entry["into"] if _known(entry["from"], names) else entry["from"]
            bad(N_("merge {n}: {id} is not a player of the directory"), n=n, id=_show(unknown))
        elif entry["from"] in merges:
            bad(N_("merge {n}: player {id} is merged already"), n=n, id=entry["from"])
        else:
            merges[entry["from"]] = entry["into"]
            continue
        ok = False
    for n, entry in enumerate(entries, start=1):
        if ok and _cycles(entry["from"], merges):
            bad(
                N_("merge {n}: merging {id} into {into} makes a cycle"),
                n=n,
                id=entry["from"],
                into=entry["into"],
            )
            ok = False
    return merges if ok else None


def _cycles(pid: int, merges: dict[int, int]) -> bool:
    try:
        Directory({}, merges).kept(pid)
    except MergeCycle:
        return True
    return False


def _starts(raw: Any, directory: Directory, first: date | None, bad: _Notes) -> list[Start]:
    """`start`: carried-over ratings of kept directory players."""
    entries = _list(raw, "start", MAX_DIRECTORY, bad)
    out: list[Start] = []
    seen: set[int] = set()
    for n, entry in enumerate(entries or (), start=1):
        start = _start(n, entry, directory, first, bad)
        if start is not None and start.player in seen:
            bad(N_("start {n}: player {id} has a start already"), n=n, id=start.player)
        elif start is not None:
            seen.add(start.player)
            out.append(start)
    return out


def _start(
    n: int, entry: Any, directory: Directory, first: date | None, bad: _Notes
) -> Start | None:
    if not isinstance(entry, dict):
        bad(N_("start {n} must be an object"), n=n)
        return None
    before = len(bad.found)
    _keys(
        entry,
        START_KEYS,
        ("player", "rating", "games", "deals"),
        bad,
        N_("start {n}: unknown key {key}"),
        N_("start {n}: missing key {key}"),
        n=n,
    )
    pid: Any = entry.get("player")
    if not _known(pid, directory.names):
        bad(N_("start {n}: {id} is not a player of the directory"), n=n, id=_show(pid))
    elif pid in directory.merges:
        bad(
            N_("start {n}: player {id} is merged into {into}"),
            n=n,
            id=pid,
            into=directory.kept(pid),
        )
    rating: Any = entry.get("rating")
    if not isinstance(rating, str) or not _RATING.fullmatch(rating):
        bad(
            N_(
                "start {n}: rating must be a decimal text with at most 2 decimals "
                '("35.50"), not {value}'
            ),
            n=n,
            value=_show(rating),
        )
    for key in ("games", "deals"):
        if key in entry and not _whole(entry[key]):
            bad(
                N_("start {n}: {key} must be a whole number from 0, not {value}"),
                n=n,
                key=key,
                value=_show(entry[key]),
            )
    last = first and _last_played(n, entry, first, bad)
    if len(bad.found) > before or first is None or last is None:
        return None
    return Start(pid, Fraction(rating), entry["games"], entry["deals"], last)


def _last_played(n: int, entry: dict[str, Any], first: date, bad: _Notes) -> date | None:
    """`last_played`, before the season's first day (default the day before it)."""
    if "last_played" not in entry:
        return date.fromordinal(first.toordinal() - 1)
    last = _date(entry["last_played"], "last_played", bad)
    if last is not None and last >= first:
        bad(
            N_("start {n}: last_played must be before the season's first day {start}, not {value}"),
            n=n,
            start=str(first),
            value=str(last),
        )
        return None
    return last


# -- the events ------------------------------------------------------------------------------

_Dates = tuple[date | None, date | None, date | None]


def _events(raw: Any, directory: Directory, dates: _Dates, bad: _Notes) -> list[Event]:
    """`events`: each a game or a tournament, checked, its tables' results computed."""
    entries = _list(raw, "events", MAX_EVENTS, bad)
    out = []
    for n, entry in enumerate(entries or (), start=1):
        event = _event(n, entry, directory, dates, bad)
        if event is not None:
            out.append(event)
    return out


def _event(n: int, entry: Any, directory: Directory, dates: _Dates, bad: _Notes) -> Event | None:
    if not isinstance(entry, dict):
        bad(N_("an event must be an object"), event=n)
        return None
    before = len(bad.found)
    _keys(entry, EVENT_KEYS, ("played_on",), bad, event=n)
    played_on = _played_on(n, entry.get("played_on"), dates, bad) if "played_on" in entry else None
    friendly = entry.get("friendly", False)
    if not isinstance(friendly, bool):
        bad(N_("friendly must be true or false"), event=n)
    company = _company(n, entry, bad)
    seats = _seats(n, entry.get("seats", {}), directory, bad)
    kinds = [k for k in ("game", "tournament") if k in entry]
    if len(kinds) != 1:
        bad(N_("an event holds exactly one of game and tournament"), event=n)
        return None
    read = (
        _game(n, entry["game"], bad)
        if kinds == ["game"]
        else _tournament(n, entry["tournament"], bad)
    )
    if read is None or seats is None:
        return None
    _check_seats(n, seats, read, bad)
    _check_doubles(n, directory, seats, read.tables, read.report is not None, bad)
    if len(bad.found) > before or played_on is None:
        return None
    return Event(
        played_on, tuple(read.tables), seats, company, friendly, read.report, read.name, read.roster
    )


@dataclass(frozen=True)
class _Read:
    """An event's game or tournament as read: its tables, a tournament's report and roster."""

    tables: list[Placed]
    report: dict[str, Any] | None = None
    name: str = ""
    roster: tuple[str, ...] = ()


def _played_on(n: int, raw: Any, dates: _Dates, bad: _Notes) -> date | None:
    """`played_on`: within the season and not after `as_of`."""
    day = _date(raw, "played_on", bad, event=n)
    first, last, as_of = dates
    if day is None or first is None or last is None:
        return day
    if not first <= day <= last:
        bad(
            N_("played_on {value} is outside the season ({start} to {end})"),
            event=n,
            value=str(day),
            start=str(first),
            end=str(last),
        )
        return None
    if as_of is not None and day > as_of:
        bad(
            N_("played_on {value} is after as_of {as_of}"),
            event=n,
            value=str(day),
            as_of=str(as_of),
        )
        return None
    return day


def _company(n: int, entry: dict[str, Any], bad: _Notes) -> str | None:
    """`company`: a name, for games only."""
    company = entry.get("company")
    if company is None:
        return None
    if (
        not isinstance(company, str)
        or not company.strip()
        or len(company) > gamefile.MAX_NAME
        or bad_character(company)
    ):
        bad(
            N_("company must be a name of at most {limit} characters"),
            event=n,
            limit=gamefile.MAX_NAME,
        )
        return None
    if "tournament" in entry:
        bad(N_("company is for games only, not for a tournament"), event=n)
        return None
    return company


def _seats(n: int, raw: Any, directory: Directory, bad: _Notes) -> dict[str, int] | None:
    """`seats`: seat name → directory id (the attachments)."""
    if not isinstance(raw, dict):
        bad(N_("seats must be an object: seat name → directory id"), event=n)
        return None
    ok = True
    for name, pid in raw.items():
        if not _known(pid, directory.names):
            bad(
                N_("seats: {name}: {id} is not a player of the directory"),
                event=n,
                name=_show(name),
                id=_show(pid),
            )
            ok = False
    return dict(raw) if ok else None


def _game(n: int, raw: Any, bad: _Notes) -> _Read | None:
    """A game event's one table, read as a game file (a Balkan one as its family's)."""
    if gamefile_balkan.is_balkan(raw):
        return _balkan(n, raw, bad)
    try:
        game = gamefile.load(raw, check=False, max_deals=gamefile.FORMAT_MAX_DEALS)
    except InvalidGame as invalid:
        bad.found.extend(SeasonProblem(p, n) for p in invalid.problems)
        return None
    sheet, problems = replay(game)
    if problems:
        bad.found.extend(SeasonProblem(p, n) for p in sorted(problems, key=lambda p: p.deal or 0))
        return None
    return _Read([Placed(None, None, from_sheet(sheet))], name=game.name)


def _balkan(n: int, raw: Any, bad: _Notes) -> _Read | None:
    """A Balkan partija, read (and replayed) as its game file."""
    try:
        game = gamefile_balkan.load(raw, max_deals=gamefile.FORMAT_MAX_DEALS)
    except InvalidGame as invalid:
        bad.found.extend(SeasonProblem(p, n) for p in invalid.problems)
        return None
    sheet, _ = balkan.replay(game)  # load replayed it: no problem is left
    return _Read([Placed(None, None, from_balkan(sheet))], name=game.name)


def _tournament(n: int, raw: Any, bad: _Notes) -> _Read | None:
    """A tournament event's tables, read as a tournament file, and its report."""
    try:
        t = tournament_file.parse_tournament(raw, max_deals=gamefile.FORMAT_MAX_DEALS)
    except tournament_file.InvalidTournament as invalid:
        bad.found.extend(SeasonProblem(None, n, located) for located in invalid.located)
        return None
    tables = [
        Placed(k, j, from_sheet(table.sheet))
        for k, tour in enumerate(t.tours, start=1)
        for j, table in enumerate(tour, start=1)
    ]
    report = tournament_file.report(t)
    del report["next_tour"]
    return _Read(tables, report, t.name, tuple(t.players))


def _check_seats(n: int, seats: dict[str, int], read: _Read, bad: _Notes) -> None:
    """Every attached seat is a seat of the event (a tournament's: a roster name)."""
    names = {seat for placed in read.tables for seat in placed.result.seats} | set(read.roster)
    for name in seats:
        if name not in names:
            bad(N_("seats: {name} is not a seat of this event"), event=n, name=_show(name))


def _check_doubles(
    n: int,
    directory: Directory,
    seats: dict[str, int],
    tables: list[Placed],
    tour: bool,
    bad: _Notes,
) -> None:
    """No two seats of one table resolve to one player (an attachment, a merge)."""
    for placed in tables:
        found: dict[Any, str] = {}
        for seat in placed.result.seats:
            player = directory.resolve(seat, seats.get(seat))
            if player not in found:
                found[player] = seat
                continue
            problem = Problem(
                N_("{first} and {second} both sat at this table: both are {player}"),
                {
                    "first": _show(found[player]),
                    "second": _show(seat),
                    "player": _show(_named(directory, player)),
                },
            )
            if tour:
                bad.found.append(
                    SeasonProblem(
                        None, n, tournament_file.Located(problem, placed.tour, placed.table)
                    )
                )
            else:
                bad.found.append(SeasonProblem(problem, n))


def _named(directory: Directory, player: int | str) -> str:
    return directory.names[player] if isinstance(player, int) else player
