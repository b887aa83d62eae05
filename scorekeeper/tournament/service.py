"""The tournament service, between the store and the rules: a stored tournament as the
tournament file of tournament.md §5, its standings now, and every write the club makes
(create, seat a tour, close it, withdraw a player, import, replace or revoke links).

No Flask here: the web pages parse a form, call one function, and draw what it returns.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scorekeeper import gamefile
from scorekeeper.csvout import csv_bytes
from scorekeeper.games import create_from_game, file_data, finished_report, load
from scorekeeper.kept import Kept
from scorekeeper.refusals import Refused
from scorekeeper.rules import Problem, resolve_options
from scorekeeper.rules.problems import N_
from scorekeeper.rules.text import name_key
from scorekeeper.rules.tournament import (
    TournamentError,
    deals_in_tour,
    draw_seating,
    draw_seats,
    table_sizes,
)
from scorekeeper.store import GameRecord, Store, VersionConflict
from scorekeeper.store.tournaments import (
    NewTable,
    TableOf,
    TableRecord,
    TournamentRecord,
    Tournaments,
)
from scorekeeper.tournament import file as tfile

FORMAT = "scorekeeper-tournament/1"
MIN_PLAYERS = 3
MAX_PLAYERS = 100

#: The band presets the director picks from (tournament.md §2): whists 1:1 (no bands) and the
#: two published club formats.
BAND_PRESETS: dict[str, list[list[Any]]] = {
    "plain": [],
    "cup": [[200, "1"], [650, "1/10"], [None, "0"]],
    "halves": [[50, "1"], [100, "1/2"], [None, "1/10"]],
}


class TournamentRefused(Refused):
    """A write the tournament's state does not allow now; the subclass says which."""


class RosterRefused(TournamentRefused):
    """A roster of fewer than three or more than a hundred players, or one player twice."""


class TourPlaying(TournamentRefused):
    """A tour is being played: it is closed first."""


class NoTourPlaying(TournamentRefused):
    """No tour is being played (to close, or to unseat)."""


class TablesUnfinished(TournamentRefused):
    """Some tables of the tour have not finished (and the close is not early)."""

    def __init__(self, count: int) -> None:
        super().__init__(f"{count} tables have not finished")
        self.count = count


class TableHasDeals(TournamentRefused):
    """A table of the tour has saved a deal: its seating can no longer be undone."""


class CannotReopen(TournamentRefused):
    """Only the last closed tour reopens, while no later tour is seated."""


class WithdrawnAfter(TournamentRefused):
    """A player withdrew after the tour: it cannot be reopened."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} withdrew after the tour")
        self.name = name


class JoinedAfter(TournamentRefused):
    """A player joined before the tour after this one: the tour cannot be reopened until his
    name is taken off (reading 13)."""

    def __init__(self, name: str, tour: int) -> None:
        super().__init__(f"{name} joined before tour {tour}")
        self.name, self.tour = name, tour


class OnRoster(TournamentRefused):
    """The name is on the roster already (in any capitals)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is on the roster already")
        self.name = name


class TournamentOver(TournamentRefused):
    """The last planned tour is played: no tour after it."""


class TooFewPlayers(TournamentRefused):
    """Fewer than three players are left."""


class Unscorable(TournamentRefused):
    """The tournament cannot be scored as it stands (its problems are on its page)."""


class TypedLater(TournamentRefused):
    """Only tour 1 can be typed: later tours follow the standings."""


class TypedSeating(TournamentRefused):
    """A typed seating of tour 1 that does not seat every player once: each problem a code
    ("not_on_roster", "twice", "missing", "sizes") and its values."""

    def __init__(self, problems: list[tuple[str, dict[str, Any]]]) -> None:
        super().__init__("the typed seating does not seat every player once")
        self.problems = problems


class NoSuchPlayer(TournamentRefused):
    """No such player (still) in the tournament."""


class NoSuchTable(TournamentRefused):
    """No such table in the tournament."""


class ReadOnlyTournament(TournamentRefused):
    """A write through the tournament's read-only link."""


# -- reading ---------------------------------------------------------------------------------


def tournaments(store: Store) -> Tournaments:
    """The tournament store of this Store."""
    return Tournaments(store)


def table_of(store: Store, game_id: int) -> TableOf | None:
    """The tournament a game is a table of (its name, read-only token, tour and table, and
    whether that tour is closed), or None for an ordinary game: one indexed look-up."""
    return tournaments(store).of_game(game_id)


def tournament_of_game(store: Store, game_view_token: str) -> str | None:
    """The read-only token of the tournament of the game with this read-only token."""
    return tournaments(store).view_token_of_game(game_view_token)


def table_data(game: GameRecord) -> dict[str, Any]:
    """A table's game in the tournament file: the game file without format, convention and
    options (the tournament's apply)."""
    data = file_data(game)
    for key in ("format", "convention", "options"):
        data.pop(key, None)
    return data


def file_dict(record: TournamentRecord) -> dict[str, Any]:
    """The tournament file (§5) of the stored tournament, every table as it stands."""
    named = {"name": record.name} if record.name else {}
    # No late player, no key: the file stays exactly as before reading 12.
    joined = {"joined": [dict(j) for j in record.joined]} if record.joined else {}
    return {
        "format": FORMAT,
        **named,
        "convention": record.convention,
        "options": dict(record.options),
        "table_size": record.table_size,
        "scale": {"bands": [list(b) for b in record.bands]},
        "players": list(record.roster),
        "withdrawn": [dict(w) for w in record.withdrawals],
        **joined,
        "tours": [
            {"tables": [table_data(t.game) for t in record.tour(number)]}
            for number in range(1, record.tours_seated + 1)
        ],
    }


def file_text(record: TournamentRecord) -> str:
    """The tournament file as the download carries it."""
    return json.dumps(file_dict(record), ensure_ascii=False, indent=2) + "\n"


@dataclass
class TableView:
    """One table of a tour as the director's page and the board show it."""

    tour: int
    number: int
    game: GameRecord
    players: list[str]
    deals: int
    """Deals played so far."""
    planned: int
    """Deals the tour has at this table at most (tour length × players)."""
    finished: bool
    """Over: by its end rule, its tour length, or by hand."""
    results: dict[str, str] = field(default_factory=dict)
    points: dict[str, str] = field(default_factory=dict)
    early: bool = False
    """Finished before its deals were played or its end rule met: the director closed the
    tour early (the file marks it finished, as docs/tournament.md's reading 2 says)."""


@dataclass
class Overview:
    """Everything the tournament's pages show, computed once per state of the tournament."""

    record: TournamentRecord
    report: dict[str, Any] | None
    """The §5 report (standings, tours, next tour), unfinished tables settled now; None
    when the stored tournament is not a valid file (problems says why)."""
    problems: list[str]
    tours: list[list[TableView]]

    @property
    def pool_target(self) -> int:
        """The pool every table plays to: the tournament's, or its convention's when the
        file leaves it out (the tables' games are created with the same)."""
        return resolve_options(self.record.convention, self.record.options)[0].pool_target

    @property
    def seated(self) -> int:
        """Tours seated so far."""
        return self.record.tours_seated

    @property
    def playing(self) -> bool:
        """A tour is seated and not closed."""
        return self.record.tours_seated > self.record.tours_closed

    @property
    def current(self) -> list[TableView]:
        """The tables of the tour being played (or the last one played)."""
        return self.tours[-1] if self.tours else []

    @property
    def dealt(self) -> bool:
        """A table of the tour being played has saved a deal (its seating stays)."""
        return any(t.game.deals for t in self.current) if self.playing else True

    @property
    def unfinished(self) -> int:
        """Tables of the tour being played that have not finished."""
        return sum(1 for t in self.current if not t.finished) if self.playing else 0

    @property
    def over(self) -> bool:
        """The tournament is over: its last planned tour is closed (see TournamentRecord)."""
        return self.record.over

    @property
    def standings(self) -> list[dict[str, Any]]:
        """The standings rows of the report (empty without a report)."""
        return list(self.report["standings"]) if self.report else []

    @property
    def active(self) -> list[str]:
        """Players not withdrawn, in roster order."""
        gone = {w["player"] for w in self.record.withdrawals}
        return [p for p in self.record.roster if p not in gone]

    @property
    def next_number(self) -> int:
        """The number of the next tour to seat."""
        return self.record.tours_seated + 1

    @property
    def can_seat(self) -> bool:
        """The next tour may be seated now."""
        return (
            not self.playing
            and not self.over
            and len(self.active) >= MIN_PLAYERS
            and self.report is not None
        )


_OVERVIEWS: Kept[tuple[object, ...], Overview] = Kept(64)


def _state(record: TournamentRecord) -> tuple[object, ...]:
    return (
        record.view_token,
        record.version,
        record.updated_at,
        tuple((t.game.view_token, t.game.version, t.game.updated_at) for t in record.tables),
    )


def overview(record: TournamentRecord) -> Overview:
    """The tournament's standings now (unfinished tables settled now) and each table's
    progress, kept per state of the tournament and its tables."""
    key = _state(record)
    kept = _OVERVIEWS.get(key)
    if kept is not None:
        return Overview(record, kept.report, kept.problems, _with_games(kept.tours, record))
    view = _overview(record)
    _OVERVIEWS.put(key, view)
    return view


def _with_games(tours: list[list[TableView]], record: TournamentRecord) -> list[list[TableView]]:
    """The kept tables with the games as opened now (the edit links differ by access)."""
    games = {(t.tour, t.table_no): t.game for t in record.tables}
    return [
        [
            TableView(
                t.tour,
                t.number,
                games[(t.tour, t.number)],
                t.players,
                t.deals,
                t.planned,
                t.finished,
                t.results,
                t.points,
                t.early,
            )
            for t in tour
        ]
        for tour in tours
    ]


def _overview(record: TournamentRecord) -> Overview:
    problems: list[str] = []
    report: dict[str, Any] | None = None
    try:
        report = tfile.report(tfile.parse_tournament(file_dict(record)))
    except tfile.InvalidTournament as bad:
        problems = [str(p) for p in bad.problems]
    rounds = int(record.options.get("round_limit") or 0)
    tours: list[list[TableView]] = []
    for number in range(1, record.tours_seated + 1):
        reported = report["tours"][number - 1]["tables"] if report else []
        tables = []
        for index, table in enumerate(record.tour(number)):
            tables.append(_table_view(table, rounds, reported[index] if report else None))
        tours.append(tables)
    return Overview(record, report, problems, tours)


def _table_view(table: TableRecord, rounds: int, reported: dict[str, Any] | None) -> TableView:
    game = table.game
    loaded = load(game)
    players = list(game.players)
    return TableView(
        tour=table.tour,
        number=table.table_no,
        game=game,
        players=players,
        deals=loaded.sheet.deal_count(),  # dealt at the table: no corrections or penalties
        planned=deals_in_tour(rounds, len(players), loaded.sheet.options.deal_limit),
        finished=bool(loaded.sheet.finished or game.finished),
        results=dict(reported.get("results", {})) if reported else {},
        points=dict(reported.get("points", {})) if reported else {},
        early=bool(game.finished) and loaded.sheet.ended_after is None,
    )


# -- writing ---------------------------------------------------------------------------------


def create(
    store: Store,
    *,
    name: str,
    convention: str,
    options: dict[str, Any],
    table_size: int,
    bands: Sequence[Sequence[Any]],
    roster: Sequence[str],
    tours_planned: int = 0,
) -> TournamentRecord:
    """A new tournament, no tour seated yet; `tours_planned` tours (0: not said)."""
    if not MIN_PLAYERS <= len(roster) <= MAX_PLAYERS:
        raise RosterRefused()
    if len({name_key(p) for p in roster}) != len(roster):
        raise RosterRefused()  # two names of one player (the form says which)
    return tournaments(store).create(
        name=name,
        convention=convention,
        options=options,
        table_size=table_size,
        bands=bands,
        roster=roster,
        tours_planned=tours_planned,
    )


def seat(
    store: Store,
    token: str,
    base_version: int,
    *,
    table_name: Callable[[int, int], str],
    rng: random.Random | None = None,
    typed: Sequence[Sequence[str]] | None = None,
) -> TournamentRecord:
    """Seat the next tour: tour 1 drawn at random (or as the director typed it: each table's
    players clockwise), later tours by the standings (§4); the seats (unless typed) and the
    first dealer drawn within each table; one new game per table."""
    rng = rng or random.SystemRandom()
    record = tournaments(store).get(token)
    view = overview(record)
    report = _seatable(record, view)
    active = view.active
    number = view.next_number
    if typed is not None:
        if number != 1:
            raise TypedLater()
        typed = as_on_roster(typed, active)
        check_typed(typed, active, record.table_size)
    try:
        if typed is not None:
            tables = [list(t) for t in typed]
        elif number == 1:
            tables = draw_seating(active, record.table_size, rng)
        else:
            tables = [list(t) for t in report["next_tour"]]
    except TournamentError as error:
        raise TooFewPlayers() from error
    new = []
    for index, table in enumerate(tables, start=1):
        seats, dealer = draw_seats(table, rng)
        if typed is not None:
            seats = list(table)  # as typed, clockwise
        new.append(NewTable(table_name(number, index), seats, dealer))
    options = resolve_options(record.convention, record.options)[0].to_json()
    return tournaments(store).seat(
        token, base_version, number, new, convention=record.convention, options=options
    )


def _seatable(record: TournamentRecord, view: Overview) -> dict[str, Any]:
    """The standings' report the next tour is seated by; refuses to seat a tour while one is
    playing, after the last planned one, while the standings cannot be scored, or with too
    few players still playing."""
    if view.playing:
        raise TourPlaying()
    if record.over:
        raise TournamentOver()  # the last planned tour is played: no tour after it
    if view.report is None:
        raise Unscorable()
    if len(view.active) < MIN_PLAYERS:
        raise TooFewPlayers()
    return view.report


def as_on_roster(typed: Sequence[Sequence[str]], active: Sequence[str]) -> list[list[str]]:
    """A typed seating with each name written as on the roster ("anna" typed is the
    roster's "Anna": one player by the name rule); names not on it are left as typed."""
    spelled = {name_key(p): p for p in active}
    return [[spelled.get(name_key(n), n) for n in table] for table in typed]


def check_typed(typed: Sequence[Sequence[str]], active: Sequence[str], table_size: int) -> None:
    """A typed seating of tour 1: every active player at exactly one table, nobody else, the
    tables of the §4 sizes in order (largest first); raises TypedSeating."""
    problems: list[tuple[str, dict[str, Any]]] = []
    seen: dict[str, int] = {}
    for number, table in enumerate(typed, start=1):
        for name in table:
            if name not in active:
                problems.append(("not_on_roster", {"name": name}))
            elif name in seen:
                problems.append(("twice", {"name": name}))
            seen[name] = number
    for name in active:
        if name not in seen:
            problems.append(("missing", {"name": name}))
    sizes = table_sizes(len(active), table_size)
    if [len(t) for t in typed] != sizes:
        problems.append(("sizes", {"sizes": ", ".join(map(str, sizes))}))
    if problems:
        raise TypedSeating(problems)


def close_tour(store: Store, token: str, base_version: int, *, early: bool) -> TournamentRecord:
    """Close the tour being played: every table finished, or (early) the unfinished ones
    count as settled now. Every table's game is marked finished with its settlement.

    One transaction, the tour's state read again inside it: a Save at a table commits
    either before it (and is in the settlement) or after it (and is refused by the table's
    guard, games.writes); a table whose game its scorer deleted (older releases allowed it)
    is brought back, never left to block the close. On PostgreSQL the tour's games and
    the tournament are locked first (Tournaments.held): a Save racing the close waits for
    it, or it for the Save, and neither is refused as "changed meanwhile"."""
    with store.batch():
        record = tournaments(store).held(token)
        view = overview(record)
        if not view.playing:
            raise NoTourPlaying()
        if base_version != record.version:
            raise VersionConflict(
                "the tournament was changed elsewhere", current_version=record.version
            )
        if view.unfinished and not early:
            raise TablesUnfinished(view.unfinished)
        for table in record.tour(record.tours_seated):
            _finish(store, table.game)
        return tournaments(store).update(token, record.version, tours_closed=record.tours_seated)


def _finish(store: Store, game: GameRecord) -> None:
    """Mark a table's game finished with its settlement now (inside the close's
    transaction: nothing else writes in between)."""
    if store.deleted_game(game.edit_token) is not None:
        game = store.restore_game(game.edit_token)
    if game.finished:
        return
    store.set_finished(
        game.edit_token, True, base_version=game.version, snapshot=finished_report(load(game))
    )


def unseat(store: Store, token: str, base_version: int) -> TournamentRecord:
    """Undo the seating of the tour being played while none of its tables has a deal: its
    games are deleted (their scorer links stop opening them) and the tour can be seated
    again. One transaction."""
    with store.batch():
        record = tournaments(store).get(token)
        if record.tours_seated <= record.tours_closed:
            raise NoTourPlaying()
        if base_version != record.version:
            raise VersionConflict(
                "the tournament was changed elsewhere", current_version=record.version
            )
        tour = record.tour(record.tours_seated)
        if any(t.game.deals for t in tour):
            raise TableHasDeals()
        done = tournaments(store).unseat(token, record.version, record.tours_seated)
        for table in tour:
            store.delete_game(table.game.edit_token)
        return done


def reopen(store: Store, token: str, base_version: int) -> TournamentRecord:
    """Reopen the last closed tour (the director closed it by mistake, or too early) while
    no later tour is seated: its tables finished by the close are open again and can go on
    scoring. One transaction."""
    with store.batch():
        record = tournaments(store).get(token)
        if record.tours_closed == 0 or record.tours_seated > record.tours_closed:
            raise CannotReopen()
        if base_version != record.version:
            raise VersionConflict(
                "the tournament was changed elsewhere", current_version=record.version
            )
        gone = [w for w in record.withdrawals if w["after_tour"] >= record.tours_closed]
        if gone:
            raise WithdrawnAfter(gone[0]["player"])
        # Reading 13: a player waiting to join the next tour would have joined after a tour
        # played on; he comes off the roster first.
        late = [j for j in record.joined if j["before_tour"] > record.tours_closed]
        if late:
            raise JoinedAfter(late[0]["player"], late[0]["before_tour"])
        for table in record.tour(record.tours_closed):
            game = table.game
            if game.finished and load(game).sheet.ended_after is None:
                store.set_finished(game.edit_token, False, base_version=game.version)
        return tournaments(store).update(
            token, record.version, tours_closed=record.tours_closed - 1
        )


def join(store: Store, token: str, base_version: int, name: str) -> TournamentRecord:
    """A player joins: before tour 1 is seated he is on the roster; between tours (a tour
    closed, the next not seated) he is a late player, seated from the next tour on with 0
    for the tours he missed (docs/tournament.md reading 12). The name is checked by the
    caller's name rule; one already on the roster (in any capitals) is refused."""
    record = tournaments(store).get(token)
    if record.tours_seated > record.tours_closed:
        raise TourPlaying()
    if record.over:
        raise TournamentOver()
    if any(name_key(p) == name_key(name) for p in record.roster):
        raise OnRoster(name)
    if len(record.roster) >= MAX_PLAYERS:
        raise RosterRefused()
    roster = [*record.roster, name]
    if not record.tours_seated:
        return tournaments(store).update(token, base_version, roster=roster)
    joined = [*record.joined, {"player": name, "before_tour": record.tours_seated + 1}]
    return tournaments(store).update(token, base_version, roster=roster, joined=joined)


def withdraw(store: Store, token: str, base_version: int, player: str) -> TournamentRecord:
    """A player leaves: before tour 1 (or, a late player, before his first tour) the name
    comes off the roster; between tours they keep their points and sit in no later tour."""
    record = tournaments(store).get(token)
    if player not in record.roster or any(w["player"] == player for w in record.withdrawals):
        raise NoSuchPlayer()
    waiting = [j for j in record.joined if j["player"] == player]
    if waiting and waiting[0]["before_tour"] > record.tours_seated:
        # A late player whose first tour is not seated: nothing to keep, off the roster.
        roster = [p for p in record.roster if p != player]
        joined = [j for j in record.joined if j["player"] != player]
        return tournaments(store).update(token, base_version, roster=roster, joined=joined)
    if record.tours_seated == 0:
        roster = [p for p in record.roster if p != player]
        if len(roster) < MIN_PLAYERS:
            raise TooFewPlayers()
        return tournaments(store).update(token, base_version, roster=roster)
    if record.tours_seated > record.tours_closed:
        raise TourPlaying()
    withdrawals = [*record.withdrawals, {"player": player, "after_tour": record.tours_closed}]
    return tournaments(store).update(token, base_version, withdrawals=withdrawals)


def revoke_table(store: Store, token: str, game_id: int) -> GameRecord:
    """A new scorer link for one table (the old one stops working at once)."""
    record = tournaments(store).get(token)
    if record.access != "edit":
        raise ReadOnlyTournament()
    for table in record.tables:
        if table.game.id == game_id:
            return store.replace_token(table.game.edit_token, "edit")
    raise NoSuchTable()


def replace_link(store: Store, token: str, which: str) -> TournamentRecord:
    """A new edit or read-only link for the tournament."""
    return tournaments(store).replace_token(token, "edit" if which == "edit" else "view")


#: A tournament scored by place points (season.md §5.3) is read by `scorekeeper tournament`
#: and in a season file; the server keeps bands only, so it does not open one.
PLACE_POINTS_NOT_KEPT = N_(
    "this tournament scores by place points, which the server does not keep yet: "
    "read it with the command scorekeeper tournament"
)


def import_file(store: Store, data: Any) -> TournamentRecord:
    """A tournament file opened as a new tournament, exactly as it was (raises
    tfile.InvalidTournament with its problems)."""
    if tfile.parse_tournament(data).place_points is not None:  # refuses a bad file first
        raise tfile.InvalidTournament([tfile.Located(Problem(PLACE_POINTS_NOT_KEPT))])
    links = []
    open_tour = False
    for number, tour in enumerate(data["tours"], start=1):
        for index, table in enumerate(tour["tables"], start=1):
            game = gamefile.load(
                {
                    **table,
                    "format": gamefile.FORMAT,
                    "convention": data["convention"],
                    "options": data.get("options", {}),
                },
                check=True,
            )
            record = create_from_game(store, game)
            if number == len(data["tours"]) and not load(record).sheet.finished:
                open_tour = True
            links.append((number, index, record.id))
    played = len(data["tours"])
    return tournaments(store).create(
        name=str(data.get("name", "")),
        convention=data["convention"],
        options=dict(data.get("options", {})),
        table_size=int(data["table_size"]),
        bands=(data.get("scale") or {}).get("bands", []),
        roster=list(data["players"]),
        withdrawals=list(data.get("withdrawn", [])),
        joined=list(data.get("joined", [])),
        tours_closed=played - 1 if open_tour else played,
        tables=links,
    )


# -- the standings as a spreadsheet ---------------------------------------------------------


def standings_csv(view: Overview, locale: str, header: Sequence[str]) -> bytes:
    """The standings as CSV, by the spreadsheet rules of the company CSV (csvout): for ru
    and uk `;` between cells, a decimal comma and a byte order mark; for en `,` and `.`;
    numbers rounded to hundredths (the exact values stay in the tournament file); no text
    cell runs as a formula."""
    rows: list[Sequence[object]] = [list(header)]
    rows.extend(
        [
            int(row["place"]),
            str(row["player"]),
            Fraction(str(row["points"])),
            Fraction(str(row["whists"])),
            int(row["tours"]),
            int(row["table_wins"]),
        ]
        for row in view.standings
    )
    return csv_bytes(rows, locale)


def pdf(html: str, base_url: str) -> bytes:
    """A page laid out as PDF (WeasyPrint, imported only when a PDF is made)."""
    from weasyprint import HTML

    made = HTML(string=html, base_url=base_url).write_pdf()
    assert made is not None
    return bytes(made)
