"""The Store: games and their deals as entered (facts, never scores), in an SQLite file or
on a PostgreSQL server (store/engine.py)."""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar, cast

from scorekeeper.kept import Kept

from .around import FIND_AROUND, around_of_row
from .engine import (
    Contention,
    Engine,
    PostgresEngine,
    SqliteEngine,
)
from .errors import (
    BackupOntoItself,
    DatabaseMissing,
    DealNotFound,
    EmptyDatabase,
    GameNotFound,
    ReadOnlyAccess,
    RequestKeyReused,
    RevisionNotFound,
    StoreError,
    VersionConflict,
    storage_error,
)
from .location import kind as location_kind
from .records import Access, Action, DealRecord, GameRecord, Revision
from .schema import PURGE_LOCK, migrate

Row = dict[str, Any]
T = TypeVar("T")
# A change to one game, run inside the write transaction: (game row, now, new version) ->
# the id of the deal it wrote, or None for a game-level change.
Change = Callable[[Row, str, int], int | None]
# A check run inside a game's write transaction, once its row is locked: (store, game id);
# it raises (a StoreError) to refuse the write (e.g. the table's tour is closed).
Guard = Callable[["Store", int], None]

_FIND = (
    "SELECT * FROM games WHERE (edit_token = ? OR view_token = ?) AND deleted_at IS NULL LIMIT 1"
)
"""The game's row by either of its tokens (a deleted game is not found)."""

DELETED_KEEP_DAYS = 7
"""A deleted game can be restored through its edit link this long, then it is purged."""
_TOKEN_BYTES = 24  # 192 bits: a game's links cannot be guessed
_IN_CHUNK = 400  # tokens per IN (...) query, well under SQLite's bound-parameter limit


def _dump(value: object, what: str) -> str:
    """Return a dict as JSON text; raises TypeError or ValueError if it is not JSON-able."""
    if not isinstance(value, dict):
        raise TypeError(f"{what} must be a dict, not {type(value).__name__}")
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _load(text: str | None) -> Any:
    """Return the value of a JSON text column (None stays None)."""
    return None if text is None else json.loads(text)


class _KeptDeals:
    """The live deals of recent states of games, shared by every Store of the process.

    A state of a game, named by (view token, version, time of the last write), never changes:
    every change to a deal is a versioned write. So a page that opens a state already read
    reads one row, not the whole log; and a new state reuses the deals it shares with the
    last one read (a save adds one deal: only that one is decoded).
    """

    def __init__(self, states: int = 128) -> None:
        self.states: Kept[tuple[str, int, str], list[DealRecord]] = Kept(states)
        self._latest: Kept[str, dict[int, DealRecord]] = Kept(states)

    def build(self, key: tuple[str, int, str], rows: list[Row]) -> list[DealRecord]:
        """The deals of the state `key` from its live rows (in order)."""
        known = self._latest.get(key[0]) or {}
        deals = []
        for position, row in enumerate(rows):
            deal = known.get(row["id"])
            if deal is None or deal.updated_at != row["updated_at"]:
                deal = DealRecord(
                    id=row["id"],
                    position=position,
                    data=_load(row["data"]),
                    created_at=row["created_at"],
                    updated_at=row["updated_at"],
                )
            elif deal.position != position:
                deal = replace(deal, position=position)
            deals.append(deal)
        self.put(key, deals)
        return deals

    def put(self, key: tuple[str, int, str], deals: list[DealRecord]) -> None:
        """Keep the live deals of the state `key`."""
        self.states.put(key, deals)
        self._latest.put(key[0], {deal.id: deal for deal in deals})

    def appended(self, before: Row, after: Row, deal: DealRecord) -> None:
        """Keep the state `after` (a game row) as the state `before` and a deal at its end,
        when `before`'s deals are kept: the Save that made it reads no deals back."""
        deals = self.states.get(_state(before))
        if deals is not None:
            self.put(_state(after), [*deals, replace(deal, position=len(deals))])


_KEPT_DEALS = _KeptDeals()


def _state(game: Row) -> tuple[str, int, str]:
    """The name of a game's state in _KEPT_DEALS: (view token, version, last write)."""
    return (str(game["view_token"]), int(game["version"]), str(game["updated_at"]))


_UNHURRIED: set[tuple[str, int]] = set()
"""The PostgreSQL databases this process has brought up to date with no statement timeout."""
_PG_MIGRATED: set[str] = set()
"""The PostgreSQL URLs this process has brought up to date (and checked)."""


def _migrate_postgresql(engine: PostgresEngine) -> None:
    """Bring the schema up to date, once per process: the first time with no statement
    timeout (a step on a large table may take long; the next times it only looks, at once)."""
    if engine.url in _PG_MIGRATED:
        return
    key = (engine.url, os.getpid())
    if key in _UNHURRIED:
        migrate(engine)
    else:
        with engine.unhurried():
            migrate(engine)
        _UNHURRIED.add(key)
    _PG_MIGRATED.add(engine.url)


class Store:
    """Games and their deals in one database: an SQLite file, or a PostgreSQL server.

    A Store owns one connection (SQLite) or borrows one from the process's pool for its URL
    (PostgreSQL), and may only be used by the thread that created it. It is cheap to create,
    so the web app opens one per request and closes it on teardown. `engine` is its
    database (store/engine.py): the sibling stores (companies, tournaments, confirmations)
    write through it, inside the same transactions.
    """

    def __init__(
        self, path: str | os.PathLike[str], *, busy_timeout_ms: int = 5000, create: bool = True
    ) -> None:
        """Open and migrate the database (a file's path, or a postgresql:// URL); with create
        (the default) make a missing file and its directory. With create=False a missing
        file is never made anew (a server whose database vanished must not start a second,
        empty one).

        Raises StorageUnavailable if the database cannot be opened, read or migrated, and
        SchemaTooNew if a newer release of scorekeeper has written it.
        """
        self.location = os.fspath(path)
        self.engine: Engine
        if location_kind(self.location) == "postgresql":
            self.engine = PostgresEngine(self.location, busy_timeout_ms=busy_timeout_ms)
            self.path = Path(self.engine.display)
            try:
                _migrate_postgresql(self.engine)
            except BaseException:
                self.engine.close()
                raise
            self._file: tuple[int, int] | None = None
            self._writable = False
            return
        self.path = Path(path)
        try:
            _check_not_empty(self.path)
            if create:
                _check_folder(self.path.parent)
            elif not self.path.is_file():
                raise DatabaseMissing(f"there is no database file at {self.path}")
        except OSError as exc:
            raise storage_error(exc, self.path) from exc
        engine = SqliteEngine(self.path, create=create, busy_timeout_ms=busy_timeout_ms)
        self.engine = engine
        try:
            with engine.translated():
                self._migrate()
        except BaseException:
            engine.close()
            raise
        self._file = self._file_now()
        # A connection opened while the file could not be written is never kept: it would
        # stay read-only once the file can be written again.
        self._writable = self._can_write()

    def _migrate(self) -> None:
        """Apply the steps the file lacks (schema.migrate), holding the write lock so two
        processes cannot race.

        A file this process already migrated (same device and inode) is not asked again:
        the web app opens a Store per request, and asking cost a dozen queries each time.
        """
        identity = self._identity()
        if identity is not None and identity in _MIGRATED:
            return
        migrate(self.engine)
        identity = self._identity()
        if identity is not None:
            _MIGRATED.add(identity)

    def _identity(self) -> tuple[int, int, int] | None:
        """The file's device, inode and schema version: a new or replaced file (or one
        whose schema changed) never matches a file migrated before."""
        try:
            info = self.path.stat()
        except OSError:
            return None
        schema = self.engine.value("PRAGMA schema_version")
        return info.st_dev, info.st_ino, int(schema)

    def close(self) -> None:
        """Close the connection, or give it back to the pool (closing twice is harmless)."""
        self.engine.close()

    def _file_now(self, info: os.stat_result | None = None) -> tuple[int, int] | None:
        if info is None:
            try:
                info = self.path.stat()
            except OSError:
                return None
        if info.st_size == 0:  # emptied in place: never a database this Store may go on with
            return None
        return info.st_dev, info.st_ino

    def keepable(self) -> bool:
        """Whether this Store may stay with its thread after a request, as far as it can
        tell without looking at its file: SQLite, no transaction left open. (A PostgreSQL
        Store is never kept: its connection goes back to the pool after each request.)"""
        return isinstance(self.engine, SqliteEngine) and not self.engine.in_transaction()

    def reusable(self, info: os.stat_result | None = None) -> bool:
        """Whether this Store may serve another request: keepable(), and its path still
        names the file it opened, still writable (not deleted, moved away, replaced or made
        read-only since: an open connection would go on writing the old file, or into the
        WAL of a file that can no longer take it). `info`: the path's stat() as the request
        found it already (so that a request looks at the file once)."""
        return (
            self.keepable()
            and self._writable
            and self._file is not None
            and self._file_now(info) == self._file
            and self._can_write()
        )

    def _can_write(self) -> bool:
        return os.access(self.path, os.W_OK) and os.access(
            self.path.parent,
            os.W_OK,  # where SQLite keeps its WAL
        )

    def ping(self) -> None:
        """Ask the database a trivial question: raises StorageUnavailable if it cannot be
        used right now."""
        if isinstance(self.engine, SqliteEngine):
            self.engine.value("SELECT count(*) FROM sqlite_master")
        else:
            self.engine.value("SELECT 1")

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- transactions ------------------------------------------------------------------

    def _writing(self) -> contextlib.AbstractContextManager[None]:
        """Run the block as one transaction: all of it is written, or none of it."""
        return self.engine.writing()

    def _retrying(self, write: Callable[[], T]) -> T:
        """Run a whole write; on a serialization failure or deadlock (PostgreSQL) run it once
        more, then refuse with the reason (inside batch() the outer write decides)."""
        try:
            return write()
        except Contention:
            if self.engine.in_transaction():
                raise
            return write()

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Make every write in the block one transaction (one commit, one fsync): all of
        it is written, or none of it. Used to import a company file of many games."""
        with self._writing():
            yield

    def _reading(self) -> contextlib.AbstractContextManager[None]:
        """Run the block's queries against one consistent snapshot of the database."""
        return self.engine.reading()

    # -- games -------------------------------------------------------------------------

    def create_game(
        self,
        *,
        name: str,
        convention: str,
        options: dict[str, Any],
        players: list[str],
        first_dealer: str,
        deals: Iterable[dict[str, Any]] = (),
        finished: bool = False,
    ) -> GameRecord:
        """Create a game with new edit and view tokens and its initial deals, at version 1."""
        options_text = _dump(options, "options")
        players_text = json.dumps(list(players), ensure_ascii=False)
        deal_texts = [_dump(deal, "a deal") for deal in deals]

        def write() -> GameRecord:
            with self._writing():
                now = self.engine.now()
                game_id = self.engine.insert(
                    "games",
                    {
                        "name": name,
                        "convention": convention,
                        "options": options_text,
                        "players": players_text,
                        "first_dealer": first_dealer,
                        "finished": int(finished),
                        "finished_snapshot": None,
                        "created_at": now,
                        "updated_at": now,
                        "version": 1,
                        "edit_token": new_token(),
                        "view_token": new_token(),
                    },
                )
                for seq, text in enumerate(deal_texts):
                    deal_id = self._insert_deal(game_id, seq, text, now)
                    self._add_revision(game_id, deal_id, "add", text, None, now, 1)
                return self._record(game_id, "edit")

        return self._retrying(write)

    def get_game(self, token: str) -> GameRecord:
        """Return the game with this edit or view token; raises GameNotFound.

        A state of the game whose deals are kept (_KEPT_DEALS) is read in one statement, its
        own snapshot, with no transaction around it (on PostgreSQL a BEGIN and a COMMIT are
        two more round trips); a state not kept is read whole in one snapshot."""
        if not self.engine.in_transaction():
            game, access = self._find(token, around=True)
            deals = _KEPT_DEALS.states.get(_state(game))
            if deals is not None:
                return self._record(game["id"], access, game, deals)
        with self._reading():
            game, access = self._find(token, around=True)
            return self._record(game["id"], access, game)

    def game_version(self, token: str) -> tuple[int, str]:
        """Return (version, updated_at) of the game with this token, without its deals: the
        cheap question every following phone asks each second. Raises GameNotFound."""
        game, _ = self._find(token)  # one statement: its own snapshot
        return int(game["version"]), str(game["updated_at"])

    def games_for_tokens(self, tokens: Iterable[str]) -> list[GameRecord]:
        """Return the games these tokens open, newest first; unknown tokens are ignored."""
        wanted = list(dict.fromkeys(t for t in tokens if isinstance(t, str) and t))
        if not wanted:
            return []
        found = None if self.engine.in_transaction() else self._games_of(wanted)
        kept = [_KEPT_DEALS.states.get(_state(row)) for row, _ in found or []]
        if found is not None and all(deals is not None for deals in kept):
            # every game's deals kept: the rows alone, in one statement (its own snapshot)
            records = [
                self._record(row["id"], how, row, deals)
                for (row, how), deals in zip(found, kept, strict=True)
            ]
        else:
            with self._reading():  # deals to read: the rows and the deals in one snapshot
                records = [self._record(r["id"], how, r) for r, how in self._games_of(wanted)]
        return sorted(records, key=lambda game: (game.created_at, game.id), reverse=True)

    def _games_of(self, tokens: list[str]) -> list[tuple[Row, Access]]:
        """The rows of the live games these tokens open, each once (the edit token wins)."""
        found: dict[int, tuple[Row, Access]] = {}
        for start in range(0, len(tokens), _IN_CHUNK):
            chunk = tokens[start : start + _IN_CHUNK]
            marks = ", ".join("?" * len(chunk))
            rows = self.engine.rows(
                f"SELECT * FROM games WHERE (edit_token IN ({marks})"
                f" OR view_token IN ({marks})) AND deleted_at IS NULL",
                [*chunk, *chunk],
            )
            for row in rows:
                if row["edit_token"] in chunk:
                    found[row["id"]] = (row, "edit")  # the edit token wins over the view token
                else:
                    found.setdefault(row["id"], (row, "view"))
        return list(found.values())

    def set_finished(
        self,
        token: str,
        finished: bool,
        *,
        base_version: int,
        snapshot: dict[str, Any] | None = None,
        request_key: str | None = None,
        guard: Guard | None = None,
    ) -> GameRecord:
        """Finish a game keeping its settlement snapshot, or reopen it (snapshot None)."""
        if not finished and snapshot is not None:
            raise ValueError("a reopened game keeps no settlement snapshot")
        snapshot_text = None if snapshot is None else _dump(snapshot, "the snapshot")

        def change(game: Row, now: str, version: int) -> None:
            self._update(
                "games", game["id"], {"finished": int(finished), "finished_snapshot": snapshot_text}
            )

        return self._write(token, base_version, request_key, "set_finished", change, guard)[0]

    def play_on(
        self,
        token: str,
        *,
        base_version: int,
        options: dict[str, Any],
        request_key: str | None = None,
        guard: Guard | None = None,
    ) -> GameRecord:
        """Replace a game's options and reopen it, in one write (the pool raised to play on):
        a finished game's settlement snapshot is dropped with its finish."""
        text = _dump(options, "options")

        def change(game: Row, now: str, version: int) -> None:
            self._update(
                "games", game["id"], {"options": text, "finished": 0, "finished_snapshot": None}
            )

        return self._write(token, base_version, request_key, "play_on", change, guard)[0]

    # -- deals -------------------------------------------------------------------------

    def add_deal(
        self,
        token: str,
        deal: dict[str, Any],
        *,
        base_version: int,
        request_key: str | None = None,
        guard: Guard | None = None,
    ) -> tuple[GameRecord, DealRecord, bool]:
        """Append a deal at the end of the sheet; return (game, deal, created).

        A request key seen before returns the deal it created and writes nothing, whatever
        base_version says. Raises VersionConflict.
        """
        text = _dump(deal, "a deal")

        def change(game: Row, now: str, version: int) -> int:
            deal_id = self._append_deal(game["id"], text, now)
            self._add_revision(game["id"], deal_id, "add", text, None, now, version)
            added = DealRecord(deal_id, 0, _load(text), now, now)
            _KEPT_DEALS.appended(game, {**game, "version": version, "updated_at": now}, added)
            return deal_id

        game, deal_id, created = self._write(
            token, base_version, request_key, "add_deal", change, guard
        )
        assert deal_id is not None
        return game, self._deal_record(game, deal_id), created

    def update_deal(
        self,
        token: str,
        deal_id: int,
        deal: dict[str, Any],
        *,
        base_version: int,
        request_key: str | None = None,
        guard: Guard | None = None,
    ) -> GameRecord:
        """Replace a live deal's data; raises DealNotFound, VersionConflict."""
        text = _dump(deal, "a deal")

        def change(game: Row, now: str, version: int) -> int:
            row = self._live_deal(game["id"], deal_id)
            self._update("deals", row["id"], {"data": text, "updated_at": now})
            self._add_revision(game["id"], row["id"], "edit", text, row["data"], now, version)
            return deal_id

        return self._write(token, base_version, request_key, "update_deal", change, guard)[0]

    def delete_deal(
        self,
        token: str,
        deal_id: int,
        *,
        base_version: int,
        request_key: str | None = None,
        guard: Guard | None = None,
    ) -> GameRecord:
        """Take a live deal off the sheet (the row and its history stay); raises DealNotFound."""

        def change(game: Row, now: str, version: int) -> int:
            return self._delete(game, self._live_deal(game["id"], deal_id), now, version)

        return self._write(token, base_version, request_key, "delete_deal", change, guard)[0]

    def undo_last(
        self,
        token: str,
        *,
        base_version: int,
        request_key: str | None = None,
        guard: Guard | None = None,
    ) -> GameRecord:
        """Delete the last live deal on the sheet; raises DealNotFound if there is none."""

        def change(game: Row, now: str, version: int) -> int:
            rows = self.engine.rows(
                "SELECT * FROM deals WHERE game_id = ? AND deleted = 0 ORDER BY seq DESC LIMIT 1",
                [game["id"]],
            )
            if not rows:
                raise DealNotFound("the game has no deal to undo")
            return self._delete(game, rows[0], now, version)

        return self._write(token, base_version, request_key, "undo_last", change, guard)[0]

    def restore_revision(
        self,
        token: str,
        revision_id: int,
        *,
        base_version: int,
        request_key: str | None = None,
        guard: Guard | None = None,
    ) -> GameRecord:
        """Put a deal back as it was in a revision (before it, for a delete), at its old place.

        Raises RevisionNotFound (a DealNotFound), VersionConflict.
        """

        def change(game: Row, now: str, version: int) -> int:
            revision = self._revision_row(game["id"], revision_id)
            data = revision["previous"] if revision["action"] == "delete" else revision["data"]
            row = self.engine.rows("SELECT * FROM deals WHERE id = ?", [revision["deal_id"]])[0]
            before = None if row["deleted"] else row["data"]
            self._update("deals", row["id"], {"data": data, "deleted": 0, "updated_at": now})
            self._add_revision(game["id"], row["id"], "restore", data, before, now, version)
            return cast(int, row["id"])

        return self._write(token, base_version, request_key, "restore_revision", change, guard)[0]

    def revisions(self, token: str, deal_id: int | None = None) -> list[Revision]:
        """Return a game's deal revisions (or one deal's), newest first; either token works."""
        with self._reading():
            game, _ = self._find(token)
            where, args = "game_id = ?", [game["id"]]
            if deal_id is not None:
                if not self._deal_rows(game["id"], deal_id):
                    raise DealNotFound(f"the game has no deal {deal_id}")
                where, args = where + " AND deal_id = ?", [*args, deal_id]
            rows = self.engine.rows(
                f"SELECT * FROM deal_revisions WHERE {where} ORDER BY id DESC", args
            )
        return [
            Revision(
                id=row["id"],
                deal_id=row["deal_id"],
                action=cast(Action, row["action"]),
                data=_load(row["data"]),
                previous=_load(row["previous"]),
                at=row["at"],
                game_version=row["game_version"],
            )
            for row in rows
        ]

    # -- links and deleting -------------------------------------------------------------

    def replace_token(self, token: str, which: Access) -> GameRecord:
        """Give a game a new edit or view token (from its edit token); the old one stops
        working at once. Returns the game as seen through its (possibly new) edit token."""
        column = "edit_token" if which == "edit" else "view_token"
        with self._writing():
            game, access = self._find(token, lock=True)
            if access != "edit":
                raise ReadOnlyAccess("only the edit link can replace a link")
            self._update("games", game["id"], {column: new_token()})
            retired = {"digest": link_digest(game[column]), "kind": which}
            self.engine.insert("retired_links", {**retired, "retired_at": self.engine.now()})
            return self._record(game["id"], "edit")

    def replaced_link(self, token: str) -> bool:
        """Whether this was a game's link until it was replaced by a new one (replace_token):
        known by its digest only, so it says so to whoever holds it and to nobody else."""
        if not isinstance(token, str) or not token:
            return False
        found = self.engine.rows(
            "SELECT 1 FROM retired_links WHERE digest = ?", [link_digest(token)]
        )
        return bool(found)

    def delete_game(self, token: str) -> str:
        """Take a game off (from its edit token): every link answers "not found" except the
        edit link's page that offers to restore it, for DELETED_KEEP_DAYS days; then
        purge_deleted removes it for good. Returns when it was deleted."""
        with self._writing():
            game, access = self._find(token, lock=True)
            if access != "edit":
                raise ReadOnlyAccess("only the edit link can delete a game")
            now = self.engine.now()
            self._update("games", game["id"], {"deleted_at": now})
        return now

    def deleted_game(self, token: str, *, view: bool = False) -> tuple[str, str] | None:
        """(name, deleted_at) of a deleted game whose *edit* token this is (its *view* token
        with view=True), else None."""
        if not isinstance(token, str) or not token:
            return None
        column = "view_token" if view else "edit_token"
        rows = self.engine.rows(
            f"SELECT name, deleted_at FROM games WHERE {column} = ? AND deleted_at IS NOT NULL",
            [token],
        )
        return (rows[0]["name"], rows[0]["deleted_at"]) if rows else None

    def restore_game(self, token: str) -> GameRecord:
        """Bring back a deleted game by its edit token; raises GameNotFound once purged."""
        with self._writing():
            rows = self.engine.rows(
                "SELECT id FROM games WHERE edit_token = ? AND deleted_at IS NOT NULL"
                + self.engine.for_update,
                [token],
            )
            if not rows:
                raise GameNotFound("no deleted game has this link")
            self._update("games", rows[0]["id"], {"deleted_at": None})
            return self._record(rows[0]["id"], "edit")

    def purge_deleted(self, *, now: datetime.datetime | None = None) -> int:
        """Remove for good every game deleted more than DELETED_KEEP_DAYS days ago, with its
        deals, history and request keys. Returns how many games went (0 also when another
        host is purging right now, on PostgreSQL).

        SQLite: the freed pages are zeroed (secure_delete), so no backup made afterwards holds
        any of it. PostgreSQL: the rows are deleted; see docs/limits.md for what stays in
        the server's files, its write-ahead log and backups until they are recycled."""
        cutoff_at = now or datetime.datetime.fromisoformat(self.engine.now())
        cutoff = (cutoff_at - datetime.timedelta(days=DELETED_KEEP_DAYS)).isoformat(
            timespec="microseconds"
        )
        due = "SELECT id FROM games WHERE deleted_at IS NOT NULL AND deleted_at < ?"
        if not self.engine.rows(due, [cutoff]):
            return 0  # nothing to write (a read-only file is still read and backed up)
        if not isinstance(self.engine, SqliteEngine):
            with self._writing():
                if not self.engine.value("SELECT pg_try_advisory_xact_lock(?)", [PURGE_LOCK]):
                    return 0  # another host is purging: it does this work
                ids = [row["id"] for row in self.engine.rows(due + " FOR UPDATE", [cutoff])]
                for game_id in ids:
                    self._purge_rows("games", "id", game_id, frozenset())
            return len(ids)
        self.engine.execute("PRAGMA secure_delete = ON")
        try:
            with self._writing():
                ids = [row["id"] for row in self.engine.rows(due, [cutoff])]
                for game_id in ids:
                    self._purge_rows("games", "id", game_id, frozenset())
            if ids:
                # Copy the zeroed pages from the write-ahead log into the file itself.
                self.engine.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            self.engine.execute("PRAGMA secure_delete = OFF")
        return len(ids)

    def _purge_rows(self, table: str, column: str, value: Any, seen: frozenset[str]) -> None:
        """Delete the rows of `table` whose `column` is `value`, after every row that points
        at them through a foreign key (found in the schema, so a table added later, such as
        a company's evenings or a deal's confirmations, is purged too). A reference that may
        be empty (a payment's game) is emptied instead: the payment stays."""
        seen = seen | {table}
        for child_table, child_column, parent_column, required in self.engine.references(table):
            if child_table in seen:
                continue
            targets = [
                r["target"]
                for r in self.engine.rows(
                    f"SELECT {parent_column} AS target FROM {table} WHERE {column} = ?", [value]
                )
            ]
            for target in targets:
                if required:
                    self._purge_rows(child_table, child_column, target, seen)
                else:
                    self.engine.execute(
                        f"UPDATE {child_table} SET {child_column} = NULL WHERE {child_column} = ?",
                        [target],
                    )
        self.engine.execute(f"DELETE FROM {table} WHERE {column} = ?", [value])

    # -- maintenance -------------------------------------------------------------------

    def backup(self, dest: str | os.PathLike[str]) -> None:
        """Write a consistent copy of the database to dest, even while others write.

        The copy is built next to dest and renamed into place, so dest is never half
        written. Raises StorageUnavailable (and StoreError on PostgreSQL, not done here).
        """
        if not isinstance(self.engine, SqliteEngine):
            raise StoreError("backup of a PostgreSQL database is not supported yet")
        dest = Path(dest)
        used = database_file_of(dest, self.path)
        if used is not None:
            raise BackupOntoItself(f"the backup target {dest} is {used}: choose another file")
        partial = dest.with_name(f".{dest.name}.{secrets.token_hex(4)}.partial")
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            copy = sqlite3.connect(partial, isolation_level=None)
            try:
                copy.execute("PRAGMA synchronous = FULL")  # the copy is on disk when we return
                self.engine.connection.backup(copy)  # one step: a single read snapshot
                # The copied header says WAL; make the backup one self-contained file.
                copy.execute("PRAGMA journal_mode = DELETE")
            finally:
                copy.close()
            os.replace(partial, dest)
            if os.name == "posix":  # make the rename itself survive a power cut
                directory = os.open(dest.parent, os.O_RDONLY)
                try:
                    os.fsync(directory)
                finally:
                    os.close(directory)
        except (OSError, sqlite3.DatabaseError) as exc:
            # SQLite may leave its own side files (-journal, -wal, -shm) beside the copy.
            for leftover in (
                partial,
                *(Path(f"{partial}{s}") for s in ("-journal", "-wal", "-shm")),
            ):
                with contextlib.suppress(OSError):
                    leftover.unlink()
            raise storage_error(exc, dest) from exc

    def integrity_check(self) -> str:
        """Return the result of PRAGMA integrity_check: "ok" for a sound file (PostgreSQL
        checks its own pages: "ok" once it answers)."""
        if not isinstance(self.engine, SqliteEngine):
            self.ping()
            return "ok"
        rows = self.engine.rows("PRAGMA integrity_check")
        return "\n".join(str(next(iter(row.values()))) for row in rows)

    # -- internals ---------------------------------------------------------------------

    def _find(self, token: str, *, lock: bool = False, around: bool = False) -> tuple[Row, Access]:
        """Return the game row for an edit or view token and which one it is (a deleted
        game is not found); with lock, inside a write, the row is held until it ends; with
        around, the row also says what the game's pages show beside it (store/around.py)."""
        if isinstance(token, str) and token:
            lock_clause = self.engine.for_update if lock else ""
            sql = FIND_AROUND if around and not lock else _FIND + lock_clause
            rows = self.engine.rows(sql, [token, token])
            if rows:
                return rows[0], "edit" if rows[0]["edit_token"] == token else "view"
        raise GameNotFound("no game has this link")

    def _update(self, table: str, row_id: int, values: Row) -> None:
        """Set some columns of one row, by its id."""
        self.engine.update(table, row_id, values)

    def game_record(self, game_id: int, access: Access) -> GameRecord:
        """The GameRecord of a game by its id (for the sibling stores, inside their reads)."""
        return self._record(game_id, access)

    def retrying(self, write: Callable[[], T]) -> T:
        """Run a whole write (one transaction) once more after a serialization failure or a
        deadlock (PostgreSQL), then refuse (StorageUnavailable with the reason)."""
        return self._retrying(write)

    def _write(
        self,
        token: str,
        base_version: int,
        request_key: str | None,
        action: str,
        change: Change,
        guard: Guard | None = None,
    ) -> tuple[GameRecord, int | None, bool]:
        """Run one versioned, keyed change in one transaction: (game after, deal id, written).

        The game's row is locked first (PostgreSQL: SELECT ... FOR UPDATE; SQLite's BEGIN
        IMMEDIATE already lets one writer in at a time), so of two writers that read the
        same version the second sees the first one's and gets VersionConflict.
        Raises GameNotFound, ReadOnlyAccess, RequestKeyReused, what guard raises, then
        VersionConflict.
        """

        def write() -> tuple[GameRecord, int | None, bool]:
            with self._writing():
                game, access, used, now = self._locked_with_key(token, request_key)
                if access != "edit":
                    raise ReadOnlyAccess("this link only shows the game; use the edit link")
                if used is not None:
                    if used["action"] != action:
                        raise RequestKeyReused(
                            f"request key {request_key!r} was already used for {used['action']}"
                        )
                    return self._record(game["id"], "edit", game), used["deal_id"], False
                if guard is not None:
                    guard(self, int(game["id"]))
                if base_version != game["version"]:
                    raise VersionConflict(
                        f"the game was changed elsewhere (it is at version {game['version']}, "
                        f"not {base_version}); reload it and try again",
                        current_version=game["version"],
                    )
                return self._written(game, request_key, action, change, now)

        return self._retrying(write)

    def _written(
        self, game: Row, request_key: str | None, action: str, change: Change, now: str
    ) -> tuple[GameRecord, int | None, bool]:
        version = game["version"] + 1
        deal_id = change(game, now, version)
        self.engine.changed(game["view_token"])  # the hosts read this game alone
        # Plain SQL on the write path: the write lock is held for as short as can be; sent
        # with the COMMIT (one round trip on PostgreSQL: engine.send).
        self.engine.send(
            "UPDATE games SET version = ?, updated_at = ? WHERE id = ?",
            [version, now, game["id"]],
        )
        if request_key is not None:
            self.engine.send(
                "INSERT INTO request_keys (game_id, request_key, action, deal_id, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [game["id"], request_key, action, deal_id, now],
            )
        changed: Row | None = {**game, "version": version, "updated_at": now}
        if action in ("set_finished", "play_on"):
            changed = None  # columns beyond the version changed: read the row again
        return self._record(game["id"], "edit", changed), deal_id, True

    def used_key(self, token: str, request_key: str) -> tuple[str, int | None] | None:
        """(action, deal id) a one-time key already wrote on this game, or None if unused."""
        with self._reading():
            game, _ = self._find(token)
            used = self._used_key(game["id"], request_key)
        return None if used is None else (str(used["action"]), used["deal_id"])

    def _locked_with_key(
        self, token: str, request_key: str | None
    ) -> tuple[Row, Access, Row | None, str]:
        """The game's row locked for the write (as _find), which token opened it, what its
        one-time key already wrote (_used_key's row, or None) and the time (engine.now()).

        Two statements in one round trip on PostgreSQL (engine.rows_each): the key's is run
        by the server once the lock is held, so it sees what the writer before committed."""
        if not (isinstance(token, str) and token):
            raise GameNotFound("no game has this link")
        column, params = self.engine.now_column()
        found, (key,) = self.engine.rows_each(
            [
                (_FIND + self.engine.for_update, [token, token]),
                (
                    f"SELECT {column} AS now, k.action AS action, k.deal_id AS deal_id"
                    " FROM (SELECT 1 AS one) AS o"
                    " LEFT JOIN request_keys AS k ON k.request_key = ? AND k.game_id ="
                    f" ({_FIND.replace('*', 'id', 1)})",
                    [*params, request_key, token, token],
                ),
            ]
        )
        if not found:
            raise GameNotFound("no game has this link")
        access: Access = "edit" if found[0]["edit_token"] == token else "view"
        return found[0], access, (key if key["action"] is not None else None), str(key["now"])

    def _used_key(self, game_id: int, request_key: str | None) -> Row | None:
        """Return the request_keys row for a key already used on this game, if any."""
        if request_key is None:
            return None
        rows = self.engine.rows(
            "SELECT * FROM request_keys WHERE game_id = ? AND request_key = ?",
            [game_id, request_key],
        )
        return rows[0] if rows else None

    def _record(
        self,
        game_id: int,
        access: Access,
        row: Row | None = None,
        deals: list[DealRecord] | None = None,
    ) -> GameRecord:
        """Return the GameRecord of a game with its live deals in order (`row`: the game's
        row as just read in this transaction, if the caller has it; `deals`: its state's
        kept deals, if the caller found them)."""
        if row is None:
            row = self.engine.rows("SELECT * FROM games WHERE id = ?", [game_id])[0]
        state = _state(row)
        if deals is None:
            deals = _KEPT_DEALS.states.get(state)
        if deals is None:
            live = self.engine.rows(
                "SELECT * FROM deals WHERE game_id = ? AND deleted = 0 ORDER BY seq", [game_id]
            )
            deals = _KEPT_DEALS.build(state, live)
        return GameRecord(
            id=row["id"],
            name=row["name"],
            convention=row["convention"],
            options=_load(row["options"]),
            players=_load(row["players"]),
            first_dealer=row["first_dealer"],
            finished=bool(row["finished"]),
            finished_snapshot=_load(row["finished_snapshot"]),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            version=row["version"],
            edit_token=row["edit_token"] if access == "edit" else "",
            view_token=row["view_token"],
            access=access,
            deals=list(deals),
            around=around_of_row(row),
        )

    def _deal_record(self, game: GameRecord, deal_id: int) -> DealRecord:
        """Return a deal of this game: the live one, or (after a delete) the deleted row."""
        for deal in game.deals:
            if deal.id == deal_id:
                return deal
        with self._reading():
            row = self._deal_rows(game.id, deal_id)[0]
            before = self.engine.value(
                "SELECT count(*) FROM deals WHERE game_id = ? AND deleted = 0 AND seq < ?",
                [game.id, row["seq"]],
            )
        return DealRecord(
            id=row["id"],
            position=int(before),
            data=_load(row["data"]),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            deleted=True,
        )

    def _deal_rows(self, game_id: int, deal_id: int) -> list[Row]:
        """Return the row of this game's deal (live or deleted) in a list, or []."""
        return self.engine.rows(
            "SELECT * FROM deals WHERE id = ? AND game_id = ?", [deal_id, game_id]
        )

    def _live_deal(self, game_id: int, deal_id: int) -> Row:
        """Return the row of a live deal of this game; raises DealNotFound."""
        rows = self._deal_rows(game_id, deal_id)
        if not rows or rows[0]["deleted"]:
            raise DealNotFound(f"the game has no deal {deal_id} on its sheet")
        return rows[0]

    def _revision_row(self, game_id: int, revision_id: int) -> Row:
        """Return the row of a revision of this game; raises RevisionNotFound."""
        rows = self.engine.rows(
            "SELECT * FROM deal_revisions WHERE id = ? AND game_id = ?", [revision_id, game_id]
        )
        if not rows:
            raise RevisionNotFound(f"the game has no revision {revision_id}")
        return rows[0]

    def _append_deal(self, game_id: int, text: str, now: str) -> int:
        """Insert a live deal at the end of the sheet (after the deleted ones too) and
        return its id: one statement (the game's row is locked: no other seq is taken)."""
        found = self.engine.rows(
            "INSERT INTO deals (game_id, seq, data, deleted, created_at, updated_at)"
            " SELECT ?, coalesce(max(seq) + 1, 0), ?, 0, ?, ? FROM deals WHERE game_id = ?"
            " RETURNING id",
            [game_id, text, now, now, game_id],
        )
        return int(found[0]["id"])

    def _insert_deal(self, game_id: int, seq: int, text: str, now: str) -> int:
        """Insert a live deal row and return its id."""
        return self.engine.insert(
            "deals",
            {
                "game_id": game_id,
                "seq": seq,
                "data": text,
                "deleted": 0,
                "created_at": now,
                "updated_at": now,
            },
        )

    def _delete(self, game: Row, row: Row, now: str, version: int) -> int:
        """Flag a live deal row deleted, record the revision, and return its id."""
        self._update("deals", row["id"], {"deleted": 1, "updated_at": now})
        self._add_revision(game["id"], row["id"], "delete", None, row["data"], now, version)
        return cast(int, row["id"])

    def _add_revision(
        self,
        game_id: int,
        deal_id: int,
        action: Action,
        data: str | None,
        previous: str | None,
        at: str,
        game_version: int,
    ) -> None:
        """Record one change to one deal (data and previous are JSON text or None): sent
        with the write's next statement or its COMMIT (engine.send)."""
        self.engine.send(
            "INSERT INTO deal_revisions"
            " (game_id, deal_id, action, data, previous, at, game_version)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [game_id, deal_id, action, data, previous, at, game_version],
        )


def _check_not_empty(path: Path) -> None:
    """Raise EmptyDatabase for an existing file of 0 bytes: SQLite would take it for a new,
    empty database and the server would go on with no games, as if they were lost. A
    database this program made always has its header written (it is never 0 bytes)."""
    try:
        size = path.stat().st_size
    except OSError:
        return
    if size == 0 and path.is_file():
        raise EmptyDatabase(
            f"the database file {path} is empty (0 bytes): it is not a games database;"
            " put the real file back (or a backup), or remove the empty file to start anew",
            "the database file is empty",
        )


def _check_folder(folder: Path) -> None:
    """Make the instance folder if it is missing (the default home of the database); any
    other folder must exist: a mistyped --db is refused, not made into a new database."""
    if folder.is_dir():
        return
    from scorekeeper import config

    try:
        default = config.instance_path().resolve()
        if folder.resolve() == default:
            folder.mkdir(parents=True, exist_ok=True)
            return
    except OSError:
        pass
    raise DatabaseMissing(
        f"the folder {folder} does not exist: create it first, or give another --db",
        "the database folder does not exist",
    )


_MIGRATED: set[tuple[int, int, int]] = set()
"""(device, inode, schema version) of the files this process has brought up to date."""


def forget_migrated() -> None:
    """Check every database's schema again at its next open, as a process just started does
    (a process remembers the databases it has brought up to date, and asks them no more)."""
    _MIGRATED.clear()
    _PG_MIGRATED.clear()


#: The files SQLite keeps beside a database while it is in use.
SIDE_FILES = ("-wal", "-shm", "-journal")


def database_file_of(target: Path, database: Path) -> str | None:
    """Which file of the database a path names, in words ("the database itself", "the
    database's write-ahead log -wal"), or None. Compared by resolved path (symlinks, "..")
    and by device and inode (hard links), for the database and each file SQLite keeps
    beside it, whether that file exists now or not."""
    if same_file(target, database):
        return "the database itself"
    try:
        resolved = target.resolve()
        base = database.resolve()
    except OSError:
        return None
    for suffix in SIDE_FILES:
        side = Path(f"{base}{suffix}")
        if resolved == side or same_file(target, side):
            return f"a file SQLite uses for the database ({side.name})"
    return None


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name the same file (symlinks, "..", hard links included)."""
    try:
        if a.resolve() == b.resolve():
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def new_token() -> str:
    """An unguessable URL-safe token (192 bits) that never starts with "-" or "_", so that it
    can be typed on a command line and double-clicked whole."""
    while True:
        token = secrets.token_urlsafe(_TOKEN_BYTES)
        if token[0].isalnum():
            return token


def link_digest(token: str) -> str:
    """What the database keeps of a replaced link (retired_links): its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
