"""Clubs in the same database: the things attached, the directory, merges and seasons.

A club has an edit, a view (read-only) and a public token; the public one opens nothing until
the director turns the public page on. Every write bumps the club's version, so what is
computed from a club is kept per version. It uses the Store's connection and transactions::

    clubs = Clubs(store)
    club = clubs.create(name="Пуля")
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from .errors import GameNotFound, ReadOnlyAccess, StoreError
from .store import Row, Store, new_token

ClubAccess = Literal["edit", "view", "public"]
Kind = Literal["game", "company", "tournament"]
KINDS: tuple[Kind, ...] = ("game", "company", "tournament")
_TABLES = {"game": "games", "company": "companies", "tournament": "tournaments"}


class ClubNotFound(GameNotFound):
    """No club has this token (a GameNotFound, so one 404 handler covers it)."""


class InOtherClub(StoreError):
    """The thing is already attached to another club."""


class NotInClub(StoreError):
    """The club holds no such thing, player, merge or season."""


@dataclass(frozen=True)
class ClubThing:
    """A game, company or tournament attached: friendly mark and played_on override."""

    id: int
    kind: Kind
    thing_id: int
    friendly: bool
    played_on: str | None


@dataclass(frozen=True)
class ClubPlayer:
    id: int
    name: str


@dataclass(frozen=True)
class SeatLink:
    """A seat attached to a directory player ("Дима К." is player 7)."""

    kind: Kind
    thing_id: int
    seat: str
    player_id: int


@dataclass(frozen=True)
class Merge:
    id: int
    from_id: int
    into_id: int


@dataclass(frozen=True)
class ClubSeason:
    id: int
    name: str
    first: str
    last: str
    carry: bool = False
    """Its ratings start from the last ones of the season before (season.md §6 `start`),
    not at 0."""


@dataclass(frozen=True)
class ClubRecord:
    """A club as seen through one of its tokens (tokens it does not open are "")."""

    id: int
    name: str
    version: int
    access: ClubAccess
    edit_token: str
    view_token: str
    public_token: str
    public_on: bool
    things: list[ClubThing] = field(default_factory=list)
    players: list[ClubPlayer] = field(default_factory=list)
    seats: list[SeatLink] = field(default_factory=list)
    merges: list[Merge] = field(default_factory=list)
    seasons: list[ClubSeason] = field(default_factory=list)


class Clubs:
    """Reads and writes clubs through an open Store (same connection, same thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # -- reading ------------------------------------------------------------------------

    def get(self, token: str) -> ClubRecord:
        """The club this edit, view or (turned on) public token opens; raises ClubNotFound."""
        with self.engine.reading():
            row, access = self._find(token)
            return self._record(row, access)

    def club_of(self, kind: Kind, thing_id: int) -> int | None:
        """The id of the club holding this thing, if any."""
        rows = self.engine.rows(
            "SELECT club_id FROM club_things WHERE kind = ? AND thing_id = ?", [kind, thing_id]
        )
        return int(rows[0]["club_id"]) if rows else None

    def thing_by_token(self, token: str) -> tuple[Kind, int, bool] | None:
        """Which game, company or tournament a token opens: (kind, id, is the edit token)."""
        for kind in KINDS:
            extra = " AND deleted_at IS NULL" if kind == "game" else ""
            rows = self.engine.rows(
                f"SELECT id, edit_token FROM {_TABLES[kind]}"  # noqa: S608 - a fixed name
                f" WHERE (edit_token = ? OR view_token = ?){extra} LIMIT 1",
                [token, token],
            )
            if rows:
                return kind, int(rows[0]["id"]), rows[0]["edit_token"] == token
        return None

    # -- writing ------------------------------------------------------------------------

    def create(self, *, name: str) -> ClubRecord:
        """A new club with new tokens, its public page off."""

        def write() -> ClubRecord:
            with self.engine.writing():
                now = self.engine.now()
                club_id = self.engine.insert(
                    "clubs",
                    {
                        "name": name,
                        "edit_token": new_token(),
                        "view_token": new_token(),
                        "public_token": new_token(),
                        "public_on": 0,
                        "version": 1,
                        "created_at": now,
                        "updated_at": now,
                    },
                )
                return self._record(self._row(club_id), "edit")

        return self.store.retrying(write)

    def attach(self, token: str, kind: Kind, thing_id: int) -> ClubRecord:
        """Attach a thing; raises InOtherClub if a club (this one too) holds it."""

        def change(row: Row, now: str) -> None:
            if self.club_of(kind, thing_id) is not None:
                raise InOtherClub("this is already in a club")
            self.engine.insert(
                "club_things",
                {
                    "club_id": row["id"],
                    "kind": kind,
                    "thing_id": thing_id,
                    "friendly": 0,
                    "played_on": None,
                    "attached_at": now,
                },
            )

        return self._write(token, change)

    def detach(self, token: str, thing: int) -> ClubRecord:
        """Take a thing out of the club (the thing itself is kept)."""
        return self._write(token, lambda row, now: self._delete("club_things", row, thing))

    def mark(self, token: str, thing: int, *, friendly: bool, played_on: str | None) -> ClubRecord:
        """Set a thing's friendly mark and its played_on override (None: its own date)."""

        def change(row: Row, now: str) -> None:
            self._own("club_things", row, thing)
            values = {"friendly": int(friendly), "played_on": played_on}
            self.engine.update("club_things", thing, values)

        return self._write(token, change)

    def add_player(self, token: str, name: str) -> ClubRecord:
        """Add a directory player."""

        def change(row: Row, now: str) -> None:
            self.engine.insert(
                "club_players", {"club_id": row["id"], "name": name, "created_at": now}
            )

        return self._write(token, change)

    def link_seat(
        self, token: str, kind: Kind, thing_id: int, seat: str, player: int
    ) -> ClubRecord:
        """Attach a seat to a directory player, replacing its earlier attachment."""

        def change(row: Row, now: str) -> None:
            self._own("club_players", row, player)
            self.engine.execute(
                "DELETE FROM club_seats WHERE club_id = ? AND kind = ? AND thing_id = ?"
                " AND seat = ?",
                [row["id"], kind, thing_id, seat],
            )
            self.engine.insert(
                "club_seats",
                {
                    "club_id": row["id"],
                    "kind": kind,
                    "thing_id": thing_id,
                    "seat": seat,
                    "player_id": player,
                },
            )

        return self._write(token, change)

    def merge(self, token: str, from_id: int, into_id: int) -> ClubRecord:
        """Record that one directory player is another (the service checks cycles first)."""

        def change(row: Row, now: str) -> None:
            self._own("club_players", row, from_id)
            self._own("club_players", row, into_id)
            self.engine.insert(
                "club_merges",
                {"club_id": row["id"], "from_id": from_id, "into_id": into_id, "created_at": now},
            )

        return self._write(token, change)

    def unmerge(self, token: str, merge: int) -> ClubRecord:
        """Undo a merge: its record is deleted."""
        return self._write(token, lambda row, now: self._delete("club_merges", row, merge))

    def add_season(
        self, token: str, name: str, first: str, last: str, *, carry: bool = False
    ) -> ClubRecord:
        """A named date range (the service refuses overlaps first); `carry`: its ratings
        start from the season before's."""

        def change(row: Row, now: str) -> None:
            self.engine.insert(
                "club_seasons",
                {
                    "club_id": row["id"],
                    "name": name,
                    "first": first,
                    "last": last,
                    "carry": int(carry),
                    "created_at": now,
                },
            )

        return self._write(token, change)

    def set_public(self, token: str, on: bool) -> ClubRecord:
        """Turn the public page on or off."""
        return self._write(
            token, lambda row, now: self.engine.update("clubs", row["id"], {"public_on": int(on)})
        )

    def replace_token(self, token: str, which: ClubAccess) -> ClubRecord:
        """A new link of this kind; the old one stops at once."""
        return self._write(
            token,
            lambda row, now: self.engine.update(
                "clubs", row["id"], {f"{which}_token": new_token()}
            ),
        )

    # -- inside -------------------------------------------------------------------------

    def _write(self, token: str, change: Callable[[Row, str], object]) -> ClubRecord:
        """One change to a club, its row locked first; the club's version goes up by one."""

        def write() -> ClubRecord:
            with self.engine.writing():
                row, access = self._find(token, lock=True)
                if access != "edit":
                    raise ReadOnlyAccess("this link only shows the club; use the edit link")
                now = self.engine.now()
                change(row, now)
                values = {"updated_at": now, "version": int(row["version"]) + 1}
                self.engine.update("clubs", row["id"], values)
                return self._record(self._row(row["id"]), "edit")

        return self.store.retrying(write)

    def _own(self, table: str, row: Row, item: int) -> None:
        found = self.engine.rows(
            f"SELECT id FROM {table} WHERE id = ? AND club_id = ?",  # noqa: S608 - fixed names
            [item, row["id"]],
        )
        if not found:
            raise NotInClub(f"the club has no {table} row {item}")

    def _delete(self, table: str, row: Row, item: int) -> None:
        self._own(table, row, item)
        self.engine.execute(f"DELETE FROM {table} WHERE id = ?", [item])  # noqa: S608

    def _find(self, token: str, *, lock: bool = False) -> tuple[Row, ClubAccess]:
        if isinstance(token, str) and token:
            rows = self.engine.rows(
                "SELECT * FROM clubs WHERE edit_token = ? OR view_token = ?"
                " OR (public_token = ? AND public_on = 1) LIMIT 1"
                + (self.engine.for_update if lock else ""),
                [token, token, token],
            )
            if rows:
                row = rows[0]
                access: ClubAccess = (
                    "edit"
                    if row["edit_token"] == token
                    else "view"
                    if row["view_token"] == token
                    else "public"
                )
                return row, access
        raise ClubNotFound("no club has this link")

    def _row(self, club_id: int) -> Row:
        return self.engine.rows("SELECT * FROM clubs WHERE id = ?", [club_id])[0]

    def _record(self, row: Row, access: ClubAccess) -> ClubRecord:
        club_id = row["id"]
        return ClubRecord(
            id=club_id,
            name=str(row["name"]),
            version=int(row["version"]),
            access=access,
            edit_token=str(row["edit_token"]) if access == "edit" else "",
            view_token=str(row["view_token"]) if access != "public" else "",
            public_token=str(row["public_token"]),
            public_on=bool(row["public_on"]),
            things=[
                ClubThing(r["id"], r["kind"], r["thing_id"], bool(r["friendly"]), r["played_on"])
                for r in self._rows("club_things", club_id)
            ],
            players=[ClubPlayer(r["id"], r["name"]) for r in self._rows("club_players", club_id)],
            seats=[
                SeatLink(r["kind"], r["thing_id"], r["seat"], r["player_id"])
                for r in self._rows("club_seats", club_id)
            ],
            merges=[
                Merge(r["id"], r["from_id"], r["into_id"])
                for r in self._rows("club_merges", club_id)
            ],
            seasons=[
                ClubSeason(r["id"], r["name"], r["first"], r["last"], bool(r["carry"]))
                for r in self._rows("club_seasons", club_id)
            ],
        )

    def _rows(self, table: str, club_id: int) -> list[Row]:
        return self.engine.rows(
            f"SELECT * FROM {table} WHERE club_id = ? ORDER BY id",  # noqa: S608 - fixed names
            [club_id],
        )
