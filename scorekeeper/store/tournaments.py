"""Tournaments in the same database: roster, rules, bands, tours and their table games.

A tournament has an edit and a view token like a game; a game's tokens never open a
tournament, and a tournament's never open a game. Each table of a tour is an ordinary
stored game (its own edit link is the table's scorer link). It uses the Store's connection
and transactions::

    tournaments = Tournaments(store)
    record = tournaments.create(name="December cup", convention="sochi", options={...},
                                table_size=3, bands=[], roster=["Anna", "Boris", "Vera"])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .around import table_of_row
from .errors import GameNotFound, ReadOnlyAccess, StoreError, VersionConflict
from .records import Access, GameRecord
from .records import TableOf as TableOf  # where the pages import it from
from .store import Row, Store, _dump, new_token


class TournamentNotFound(GameNotFound):
    """No tournament has this token (a GameNotFound, so one 404 handler covers both)."""


class TableClosed(StoreError):
    """A write to a game that is a table of a closed tournament tour (refused)."""

    def __init__(self, tour: int, table_no: int) -> None:
        super().__init__(f"the game is table {table_no} of tour {tour}, which is closed")
        self.tour, self.table_no = tour, table_no


def refuse_closed_table(store: Store, game_id: int) -> None:
    """The one check that a game may still change as a tournament table: raises TableClosed
    when it is a table of a closed tour. A game write passes it as its `guard`, so it runs
    inside the write's transaction (the tour's row read under the write lock: a "Close tour"
    commits either before it, and the write is refused, or after it, and the close sees
    the write), after a resent request key got its first answer. On PostgreSQL the
    tournament's row is locked first, so a Close waits for the write or the write for it."""
    if store.engine.for_update:
        store.engine.rows(
            "SELECT id FROM tournaments WHERE id IN"
            " (SELECT tournament_id FROM tournament_tables WHERE game_id = ?)"
            + store.engine.for_update,
            [game_id],
        )
    table = Tournaments(store).of_game(game_id)
    if table is not None and table.closed:
        raise TableClosed(table.tour, table.table_no)


@dataclass(frozen=True)
class TableRecord:
    """One table of one tour: its numbers and its game (seen through the edit token when
    the tournament was opened with its edit token, else through the view token)."""

    tour: int
    table_no: int
    game: GameRecord


@dataclass(frozen=True)
class NewTable:
    """A table about to be seated: its game's name, players clockwise and first dealer."""

    name: str
    players: list[str]
    first_dealer: str


@dataclass(frozen=True)
class TournamentRecord:
    """A tournament as seen through one of its tokens."""

    id: int
    name: str
    convention: str
    options: dict[str, Any]
    table_size: int
    bands: list[list[Any]]
    roster: list[str]
    withdrawals: list[dict[str, Any]]
    tours_closed: int
    tours_planned: int
    """The tours the director announced; 0 when not said (a file opened, an older one)."""
    created_at: str
    updated_at: str
    version: int
    edit_token: str  # "" through the view token
    view_token: str
    access: Access
    tables: list[TableRecord] = field(default_factory=list)
    joined: list[dict[str, Any]] = field(default_factory=list)
    """The late players: {"player": name, "before_tour": k} (docs/tournament.md reading 12)."""

    @property
    def over(self) -> bool:
        """Its last planned tour is closed: no further tour is seated."""
        return 0 < self.tours_planned <= self.tours_closed == self.tours_seated

    @property
    def tours_seated(self) -> int:
        """The number of tours seated so far."""
        return max((t.tour for t in self.tables), default=0)

    def tour(self, number: int) -> list[TableRecord]:
        """The tables of tour `number`, in table order."""
        return [t for t in self.tables if t.tour == number]


class Tournaments:
    """Reads and writes tournaments through an open Store (same connection, same thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # -- reading ------------------------------------------------------------------------

    def get(self, token: str) -> TournamentRecord:
        """The tournament with this edit or view token; raises TournamentNotFound."""
        with self.engine.reading():
            row, access = self._find(token)
            return self._record(row, access)

    def version_of(self, token: str) -> str:
        """The tournament's state as its pages show it (`states_of`, as "version.tables")."""
        with self.engine.reading():
            row, _ = self._find(token)
            version, tables = self.states_of([row["view_token"]])[row["view_token"]]
        return f"{version}.{tables}"

    def states_of(self, view_tokens: list[str]) -> dict[str, tuple[int, int]]:
        """(version, tables) of each of these tournaments, by read-only token, in one
        statement: what the server's watch of the waiting pages reads after each commit (a
        token missing from the answer names no tournament). `tables` grows whenever a deal is
        saved at any of its tables, or a table is added: their games' versions added up,
        plus their number."""
        if not view_tokens:
            return {}
        marks = ", ".join("?" for _ in view_tokens)
        rows = self.engine.rows(
            "SELECT t.view_token AS token, t.version AS version,"
            " count(g.id) + coalesce(sum(g.version), 0) AS tables"
            " FROM tournaments AS t"
            " LEFT JOIN tournament_tables AS l ON l.tournament_id = t.id"
            " LEFT JOIN games AS g ON g.id = l.game_id"
            f" WHERE t.view_token IN ({marks}) GROUP BY t.id, t.view_token, t.version",
            list(view_tokens),
        )
        return {r["token"]: (int(r["version"]), int(r["tables"])) for r in rows}

    def held(self, token: str) -> TournamentRecord:
        """The tournament read again once the games of its tour being played and then its
        own row are locked (PostgreSQL; inside a write transaction), in the order a table's
        Save takes them (its game, then the tournament, refuse_closed_table): a Save commits
        before this (and is read here) or waits until the caller's transaction ends (and
        then sees what it wrote). SQLite's BEGIN IMMEDIATE already lets one writer in."""
        record = self.get(token)
        if not self.engine.for_update:
            return record
        for game_id in sorted(t.game.id for t in record.tour(record.tours_seated)):
            self.engine.lock_row("games", game_id)
        self.engine.lock_row("tournaments", record.id)
        return self.get(token)

    def for_tokens(self, tokens: Iterable[str]) -> list[TournamentRecord]:
        """The tournaments these tokens open (edit wins), newest first; unknown ones ignored."""
        found: dict[int, tuple[Row, Access]] = {}
        wanted = list(dict.fromkeys(t for t in tokens if isinstance(t, str) and t))
        if not wanted:
            return []  # none known: no transaction (on PostgreSQL two round trips)
        with self.engine.reading():
            for token in wanted:
                try:
                    row, access = self._find(token)
                except TournamentNotFound:
                    continue
                if row["id"] not in found or access == "edit":
                    found[row["id"]] = (row, access)
            records = [self._record(row, access, tables=False) for row, access in found.values()]
        return sorted(records, key=lambda t: (t.created_at, t.id), reverse=True)

    def of_game(self, game_id: int) -> TableOf | None:
        """The tournament a game is a table of (one indexed look-up), or None."""
        rows = self.engine.rows(
            "SELECT t.name AS tour_name, t.view_token AS tour_view, l.tour AS tour,"
            " l.table_no AS table_no, l.tour <= t.tours_closed AS closed"
            " FROM tournament_tables AS l JOIN tournaments AS t ON t.id = l.tournament_id"
            " WHERE l.game_id = ?",
            [game_id],
        )
        return table_of_row(rows[0]) if rows else None

    def view_token_of_game(self, game_view_token: str) -> str | None:
        """The read-only token of the tournament whose table is the game of this read-only
        token, or None (a game's link leads to its tournament as the tournament is now)."""
        rows = self.engine.rows(
            "SELECT t.view_token FROM games AS g"
            " JOIN tournament_tables AS l ON l.game_id = g.id"
            " JOIN tournaments AS t ON t.id = l.tournament_id"
            " WHERE g.view_token = ? AND g.deleted_at IS NULL",
            [game_view_token],
        )
        return str(rows[0]["view_token"]) if rows else None

    # -- writing ------------------------------------------------------------------------

    def create(
        self,
        *,
        name: str,
        convention: str,
        options: dict[str, Any],
        table_size: int,
        bands: Sequence[Sequence[Any]],
        roster: Sequence[str],
        withdrawals: Sequence[dict[str, Any]] = (),
        joined: Sequence[dict[str, Any]] = (),
        tours_closed: int = 0,
        tours_planned: int = 0,
        tables: Sequence[tuple[int, int, int]] = (),
    ) -> TournamentRecord:
        """A new tournament with new tokens; `tables` links already stored games to it as
        (tour, table, game id) (an imported file)."""
        options_text = _dump(options, "options")

        def write() -> TournamentRecord:
            with self.engine.writing():
                now = self.engine.now()
                tournament_id = self.engine.insert(
                    "tournaments",
                    {
                        "name": name,
                        "convention": convention,
                        "options": options_text,
                        "table_size": int(table_size),
                        "bands": json.dumps([list(b) for b in bands], ensure_ascii=False),
                        "roster": json.dumps(list(roster), ensure_ascii=False),
                        "withdrawals": json.dumps(list(withdrawals), ensure_ascii=False),
                        "joined": json.dumps(list(joined), ensure_ascii=False),
                        "tours_closed": int(tours_closed),
                        "tours_planned": int(tours_planned),
                        "created_at": now,
                        "updated_at": now,
                        "version": 1,
                        "edit_token": new_token(),
                        "view_token": new_token(),
                    },
                )
                for tour, table_no, game_id in tables:
                    self._link(tournament_id, tour, table_no, game_id)
                return self._record(self._row(tournament_id), "edit")

        return self.store.retrying(write)

    def seat(
        self,
        token: str,
        base_version: int,
        tour: int,
        tables: Sequence[NewTable],
        *,
        convention: str,
        options: dict[str, Any],
    ) -> TournamentRecord:
        """Seat a tour: one new game per table, all in one transaction (a resent form finds
        the version moved on and writes nothing)."""
        options_text = _dump(options, "options")

        def change(row: Row, now: str) -> None:
            if self.engine.rows(
                "SELECT 1 FROM tournament_tables WHERE tournament_id = ? AND tour = ?",
                [row["id"], tour],
            ):
                raise StoreError(f"tour {tour} is already seated")
            for number, table in enumerate(tables, start=1):
                game_id = self._new_game(table, convention, options_text, now)
                self._link(row["id"], tour, number, game_id)

        return self._write(token, base_version, change)

    def unseat(self, token: str, base_version: int, tour: int) -> TournamentRecord:
        """Take a seated tour's tables out of the tournament (their games stay, unlinked:
        the caller deletes them in the same transaction)."""

        def change(row: Row, now: str) -> None:
            self.engine.execute(
                "DELETE FROM tournament_tables WHERE tournament_id = ? AND tour = ?",
                [row["id"], tour],
            )

        return self._write(token, base_version, change)

    def update(self, token: str, base_version: int, **values: Any) -> TournamentRecord:
        """Change the tournament's own columns (roster, withdrawals, tours_closed, ...)."""
        allowed = {"name", "roster", "withdrawals", "joined", "tours_closed", "tours_planned"}
        if set(values) - allowed:
            raise ValueError(f"cannot change {sorted(set(values) - allowed)}")
        data = {
            key: json.dumps(value, ensure_ascii=False)
            if key in ("roster", "withdrawals", "joined")
            else value
            for key, value in values.items()
        }

        def change(row: Row, now: str) -> None:
            self.engine.update("tournaments", row["id"], data)

        return self._write(token, base_version, change)

    def replace_token(self, token: str, which: Access) -> TournamentRecord:
        """A new edit or view token (from the edit token); the old one stops working."""
        column = "edit_token" if which == "edit" else "view_token"
        with self.engine.writing():
            row, access = self._find(token, lock=True)
            if access != "edit":
                raise ReadOnlyAccess("only the edit link can replace a link")
            self.engine.update("tournaments", row["id"], {column: new_token()})
            return self._record(self._row(row["id"]), "edit")

    # -- internals ----------------------------------------------------------------------

    def _write(
        self, token: str, base_version: int, change: Callable[[Row, str], None]
    ) -> TournamentRecord:
        """One versioned change: the tournament's row is locked first (PostgreSQL), so of
        two directors at one version the second gets VersionConflict."""

        def write() -> TournamentRecord:
            with self.engine.writing():
                row, access = self._find(token, lock=True)
                if access != "edit":
                    raise ReadOnlyAccess("this link only shows the tournament; use the edit link")
                if base_version != row["version"]:
                    raise VersionConflict(
                        f"the tournament was changed elsewhere (it is at version {row['version']},"
                        f" not {base_version}); reload it and try again",
                        current_version=row["version"],
                    )
                now = self.engine.now()
                change(row, now)
                self.engine.update(
                    "tournaments", row["id"], {"version": row["version"] + 1, "updated_at": now}
                )
                return self._record(self._row(row["id"]), "edit")

        return self.store.retrying(write)

    def _new_game(self, table: NewTable, convention: str, options_text: str, now: str) -> int:
        """A new game row, as Store.create_game writes one (inside our transaction)."""
        return self.engine.insert(
            "games",
            {
                "name": table.name,
                "convention": convention,
                "options": options_text,
                "players": json.dumps(list(table.players), ensure_ascii=False),
                "first_dealer": table.first_dealer,
                "finished": 0,
                "finished_snapshot": None,
                "created_at": now,
                "updated_at": now,
                "version": 1,
                "edit_token": new_token(),
                "view_token": new_token(),
            },
        )

    def _link(self, tournament_id: int, tour: int, table_no: int, game_id: int) -> None:
        self.engine.execute(
            "INSERT INTO tournament_tables (tournament_id, tour, table_no, game_id)"
            " VALUES (?, ?, ?, ?)",
            [tournament_id, tour, table_no, game_id],
        )

    def _find(self, token: str, *, lock: bool = False) -> tuple[Row, Access]:
        if isinstance(token, str) and token:
            rows = self.engine.rows(
                "SELECT * FROM tournaments WHERE edit_token = ? OR view_token = ? LIMIT 1"
                + (self.engine.for_update if lock else ""),
                [token, token],
            )
            if rows:
                return rows[0], "edit" if rows[0]["edit_token"] == token else "view"
        raise TournamentNotFound("no tournament has this link")

    def _row(self, tournament_id: int) -> Row:
        return self.engine.rows("SELECT * FROM tournaments WHERE id = ?", [tournament_id])[0]

    def _record(self, row: Row, access: Access, *, tables: bool = True) -> TournamentRecord:
        linked = []
        if tables:
            for link in self.engine.rows(
                "SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY tour, table_no",
                [row["id"]],
            ):
                game = self.store.game_record(link["game_id"], access)
                linked.append(TableRecord(link["tour"], link["table_no"], game))
        return TournamentRecord(
            id=row["id"],
            name=row["name"],
            convention=row["convention"],
            options=json.loads(row["options"]),
            table_size=row["table_size"],
            bands=json.loads(row["bands"]),
            roster=json.loads(row["roster"]),
            withdrawals=json.loads(row["withdrawals"]),
            tours_closed=row["tours_closed"],
            tours_planned=int(row.get("tours_planned") or 0),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            version=row["version"],
            edit_token=row["edit_token"] if access == "edit" else "",
            view_token=row["view_token"],
            access=access,
            tables=linked,
            joined=json.loads(row.get("joined") or "[]"),
        )
