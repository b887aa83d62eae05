"""Companies in the same database: roster, house rules, attached games, payments (facts).

A company has an edit and a view token like a game; a game's tokens never open a company.
It uses the Store's connection and transactions::

    companies = Companies(store)
    company = companies.create(name="Fridays", convention="sochi", options={...},
                               roster=["Anna", "Boris", "Vera"])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .errors import (
    GameInAClub,
    GameInOtherCompany,
    GameNotFound,
    ReadOnlyAccess,
    RequestKeyReused,
    StoreError,
)
from .records import Access, GameRecord
from .store import Row, Store, _dump, new_token

#: A game in a club on its own beside a company in a club: both rows (then the game as an
#: evening of that company would be held by a club twice, or by two clubs).
_CLUBS_OF = (
    "SELECT 1 FROM club_things AS g JOIN club_things AS c ON c.kind = 'company'"
    " WHERE g.kind = 'game' AND g.thing_id = ? AND c.thing_id = ?"
)


class CompanyNotFound(GameNotFound):
    """No company has this token (a GameNotFound, so one 404 handler covers both)."""


class PlayerNotFound(StoreError):
    """The company has no such roster player."""


@dataclass(frozen=True)
class RosterPlayer:
    """A player of the company: a stable id and the name shown today."""

    id: int
    name: str


@dataclass(frozen=True)
class CompanyGame:
    """A game of the company, seen through the company's access, with its name → id map."""

    game: GameRecord
    players: dict[str, int]
    played_on: str
    """ISO date of the evening."""
    attached_at: str


@dataclass(frozen=True)
class PaymentRecord:
    """Money handed over, kept with its date and, if given, the game whose settlement it pays."""

    id: int
    payer: int
    payee: int
    amount: Decimal
    paid_on: str
    game_id: int | None
    created_at: str


@dataclass(frozen=True)
class CompanyRecord:
    """A company as seen through one of its tokens."""

    id: int
    name: str
    convention: str
    options: dict[str, Any]
    created_at: str
    updated_at: str
    edit_token: str  # "" through the view token
    view_token: str
    access: Access
    roster: list[RosterPlayer] = field(default_factory=list)
    games: list[CompanyGame] = field(default_factory=list)
    payments: list[PaymentRecord] = field(default_factory=list)

    def player(self, player_id: int) -> RosterPlayer:
        """The roster player with this id; raises PlayerNotFound."""
        for p in self.roster:
            if p.id == player_id:
                return p
        raise PlayerNotFound(f"the company has no player {player_id}")


class Companies:
    """Reads and writes companies through an open Store (same connection, same thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # -- reading ------------------------------------------------------------------------

    def get(self, token: str) -> CompanyRecord:
        """The company with this edit or view token; raises CompanyNotFound."""
        with self.engine.reading():
            row, access = self._find(token)
            return self._record(row, access)

    def for_tokens(self, tokens: Iterable[str]) -> list[CompanyRecord]:
        """The companies these tokens open (edit wins), newest first; unknown ones ignored."""
        found: dict[int, tuple[Row, Access]] = {}
        wanted = list(dict.fromkeys(t for t in tokens if isinstance(t, str) and t))
        if not wanted:
            return []  # none known: no transaction (on PostgreSQL two round trips)
        with self.engine.reading():
            for token in wanted:
                try:
                    row, access = self._find(token)
                except CompanyNotFound:
                    continue
                if row["id"] not in found or access == "edit":
                    found[row["id"]] = (row, access)
            records = [self._record(row, access) for row, access in found.values()]
        return sorted(records, key=lambda c: (c.created_at, c.id), reverse=True)

    def of_game(self, game_id: int) -> tuple[str, str] | None:
        """The name and view token of the company a game belongs to, if any (never the edit
        token: a game's link must not open its company's edit page)."""
        rows = self.engine.rows(
            "SELECT c.name, c.view_token FROM company_games AS l"
            " JOIN companies AS c ON c.id = l.company_id WHERE l.game_id = ?",
            [game_id],
        )
        return (str(rows[0]["name"]), str(rows[0]["view_token"])) if rows else None

    # -- writing ------------------------------------------------------------------------

    def create(
        self, *, name: str, convention: str, options: dict[str, Any], roster: Iterable[str]
    ) -> CompanyRecord:
        """A new company with new tokens and its roster."""
        options_text = _dump(options, "options")
        names = list(roster)

        def write() -> CompanyRecord:
            with self.engine.writing():
                now = self.engine.now()
                company_id = self.engine.insert(
                    "companies",
                    {
                        "name": name,
                        "convention": convention,
                        "options": options_text,
                        "created_at": now,
                        "updated_at": now,
                        "edit_token": new_token(),
                        "view_token": new_token(),
                    },
                )
                for player in names:
                    self._add_player(company_id, player, now)
                row = self._row(company_id)
                return self._record(row, "edit")

        return self.store.retrying(write)

    def update_rules(
        self, token: str, *, name: str, convention: str, options: dict[str, Any]
    ) -> CompanyRecord:
        """Rename the company and replace the house rules new evenings start from."""
        options_text = _dump(options, "options")

        def change(row: Row, now: str) -> None:
            self.engine.update(
                "companies",
                row["id"],
                {"name": name, "convention": convention, "options": options_text},
            )

        return self._write(token, change)

    def add_player(self, token: str, name: str) -> CompanyRecord:
        """Add a player to the roster."""
        return self._write(token, lambda row, now: self._add_player(row["id"], name, now))

    def rename_player(self, token: str, player_id: int, name: str) -> CompanyRecord:
        """Give a roster player another name (his history stays his)."""

        def change(row: Row, now: str) -> None:
            self._player_row(row["id"], player_id)
            self.engine.update("company_players", player_id, {"name": name})

        return self._write(token, change)

    def attach(
        self,
        token: str,
        game_id: int,
        players: Mapping[str, int | str],
        *,
        played_on: str | None = None,
        request_key: str | None = None,
    ) -> CompanyRecord:
        """Attach a game: each seat name maps to a roster id, or to a name for a new player.

        Attaching a game again to the same company replaces its map; raises GameInOtherCompany
        if it belongs to another company, PlayerNotFound for an id not on the roster.
        """

        def change(row: Row, now: str) -> None:
            held = self.engine.rows("SELECT * FROM company_games WHERE game_id = ?", [game_id])
            if held and held[0]["company_id"] != row["id"]:
                raise GameInOtherCompany("this game already belongs to another company")
            if self.engine.rows(_CLUBS_OF, [game_id, row["id"]]):
                raise GameInAClub("the game is in a club on its own, the company in a club")
            ids = self._seat_ids(row["id"], players, now)
            game_rows = self.engine.rows("SELECT created_at FROM games WHERE id = ?", [game_id])
            if not game_rows:
                raise GameNotFound("no game has this link")
            day = played_on or (held[0]["played_on"] if held else game_rows[0]["created_at"][:10])
            if len(set(ids.values())) != len(ids):
                raise StoreError("two seats of a game cannot be the same player")
            self.engine.execute(
                "INSERT INTO company_games"
                " (game_id, company_id, players, played_on, attached_at, request_key)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
                " company_id = excluded.company_id, players = excluded.players,"
                " played_on = excluded.played_on, attached_at = excluded.attached_at,"
                " request_key = excluded.request_key",
                [
                    game_id,
                    row["id"],
                    json.dumps(ids, ensure_ascii=False),
                    day,
                    held[0]["attached_at"] if held else now,
                    held[0]["request_key"] if held else request_key,
                ],
            )

        return self._write(token, change)

    def _seat_ids(
        self, company_id: int, players: Mapping[str, int | str], now: str
    ) -> dict[str, int]:
        """Each seat's roster id: an id checked to be on the roster, a name added as a new
        player; raises PlayerNotFound."""
        ids: dict[str, int] = {}
        for name, who in players.items():
            if isinstance(who, str):
                ids[name] = self._add_player(company_id, who, now)
            else:
                self._player_row(company_id, who)
                ids[name] = who
        return ids

    def attach_rematch(self, game_id: int, rematch_id: int, played_on: str) -> bool:
        """Attach a rematch to the company of the game it follows, with the same players
        (its seats carry the same names); False if that game belongs to no company."""
        with self.engine.writing():
            rows = self.engine.rows("SELECT * FROM company_games WHERE game_id = ?", [game_id])
            if not rows:
                return False
            link, now = rows[0], self.engine.now()
            self.engine.lock_row("companies", link["company_id"])
            self.engine.execute(
                "INSERT INTO company_games"
                " (game_id, company_id, players, played_on, attached_at, request_key)"
                " VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT DO NOTHING",
                [rematch_id, link["company_id"], link["players"], played_on, now],
            )
            self.engine.update("companies", link["company_id"], {"updated_at": now})
        return True

    def fill(
        self,
        token: str,
        games: Iterable[tuple[int, Mapping[str, int], str]],
        payments: Iterable[tuple[int, int, str, str, int | None]],
    ) -> CompanyRecord:
        """Attach many games (game id, seat name → roster id, date) and record many payments
        (payer, payee, amount, date, game id) in one write, for a company file being opened:
        the company is read once at the end, so the work grows with the file, not with its
        square. The ids must be this company's (the file was checked)."""

        def change(row: Row, now: str) -> None:
            self.engine.executemany(
                "INSERT INTO company_games"
                " (game_id, company_id, players, played_on, attached_at, request_key)"
                " VALUES (?, ?, ?, ?, ?, NULL)",
                [
                    (game_id, row["id"], json.dumps(dict(seats), ensure_ascii=False), day, now)
                    for game_id, seats, day in games
                ],
            )
            self.engine.executemany(
                "INSERT INTO company_payments"
                " (company_id, payer, payee, amount, paid_on, game_id, created_at, request_key)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                [
                    (row["id"], payer, payee, amount, day, game_id, now)
                    for payer, payee, amount, day, game_id in payments
                ],
            )

        return self._write(token, change)

    def game_for_key(self, token: str, request_key: str) -> int | None:
        """The game an evening form with this key already started, if it did."""
        with self.engine.reading():
            row, _ = self._find(token)
            rows = self.engine.rows(
                "SELECT game_id FROM company_games WHERE company_id = ? AND request_key = ?",
                [row["id"], request_key],
            )
        return rows[0]["game_id"] if rows else None

    def add_payment(
        self,
        token: str,
        *,
        payer: int,
        payee: int,
        amount: str,
        paid_on: str,
        game_id: int | None = None,
        request_key: str | None = None,
    ) -> CompanyRecord:
        """Record money handed over (a resent form with the same key writes nothing)."""

        def change(row: Row, now: str) -> None:
            sent = (
                self.engine.rows(
                    "SELECT * FROM company_payments WHERE company_id = ? AND request_key = ?",
                    [row["id"], request_key],
                )
                if request_key is not None
                else []
            )
            if sent:
                first = sent[0]
                same = (first["payer"], first["payee"], first["amount"], first["paid_on"])
                if same != (payer, payee, amount, paid_on) or first["game_id"] != game_id:
                    # The form sent again with other values (Back, a change, Send): the
                    # payment stays as first recorded, and the sender is told.
                    raise RequestKeyReused("this payment form was already sent with other values")
                return
            self._player_row(row["id"], payer)
            self._player_row(row["id"], payee)
            if payer == payee:
                raise StoreError("a player cannot pay himself")
            self.engine.insert(
                "company_payments",
                {
                    "company_id": row["id"],
                    "payer": payer,
                    "payee": payee,
                    "amount": amount,
                    "paid_on": paid_on,
                    "game_id": game_id,
                    "created_at": now,
                    "request_key": request_key,
                },
            )

        return self._write(token, change)

    def delete_payment(self, token: str, payment_id: int) -> CompanyRecord:
        """Take back a payment recorded by mistake (deleting it twice is harmless)."""

        def change(row: Row, now: str) -> None:
            self.engine.execute(
                "DELETE FROM company_payments WHERE id = ? AND company_id = ?",
                [payment_id, row["id"]],
            )

        return self._write(token, change)

    # -- internals ----------------------------------------------------------------------

    def _write(self, token: str, change: Callable[[Row, str], object]) -> CompanyRecord:
        """One change to a company, its row locked first (two hosts' changes queue)."""

        def write() -> CompanyRecord:
            with self.engine.writing():
                row, access = self._find(token, lock=True)
                if access != "edit":
                    raise ReadOnlyAccess("this link only shows the company; use the edit link")
                now = self.engine.now()
                change(row, now)
                self.engine.update("companies", row["id"], {"updated_at": now})
                return self._record(self._row(row["id"]), "edit")

        return self.store.retrying(write)

    def _find(self, token: str, *, lock: bool = False) -> tuple[Row, Access]:
        if isinstance(token, str) and token:
            rows = self.engine.rows(
                "SELECT * FROM companies WHERE edit_token = ? OR view_token = ? LIMIT 1"
                + (self.engine.for_update if lock else ""),
                [token, token],
            )
            if rows:
                return rows[0], "edit" if rows[0]["edit_token"] == token else "view"
        raise CompanyNotFound("no company has this link")

    def _row(self, company_id: int) -> Row:
        return self.engine.rows("SELECT * FROM companies WHERE id = ?", [company_id])[0]

    def _player_row(self, company_id: int, player_id: int) -> Row:
        rows = self.engine.rows(
            "SELECT * FROM company_players WHERE id = ? AND company_id = ?",
            [player_id, company_id],
        )
        if not rows:
            raise PlayerNotFound(f"the company has no player {player_id}")
        return rows[0]

    def _add_player(self, company_id: int, name: str, now: str) -> int:
        return self.engine.insert(
            "company_players", {"company_id": company_id, "name": name, "created_at": now}
        )

    def _record(self, row: Row, access: Access) -> CompanyRecord:
        company_id = row["id"]
        roster = [
            RosterPlayer(r["id"], r["name"])
            for r in self.engine.rows(
                "SELECT id, name FROM company_players WHERE company_id = ? ORDER BY id",
                [company_id],
            )
        ]
        games = self._evenings(company_id, access)
        payments = self._payments(company_id)
        return CompanyRecord(
            id=company_id,
            name=row["name"],
            convention=row["convention"],
            options=json.loads(row["options"]),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            edit_token=row["edit_token"] if access == "edit" else "",
            view_token=row["view_token"],
            access=access,
            roster=roster,
            games=games,
            payments=payments,
        )

    def _evenings(self, company_id: int, access: Access) -> list[CompanyGame]:
        """The company's games with their seats' roster ids, by the day played (then made)."""
        games = []
        # A deleted game leaves the company's evenings (and comes back if it is restored).
        for link in self.engine.rows(
            "SELECT l.* FROM company_games AS l JOIN games AS g ON g.id = l.game_id"
            " WHERE l.company_id = ? AND g.deleted_at IS NULL ORDER BY l.game_id",
            [company_id],
        ):
            game = self.store.game_record(link["game_id"], access)
            games.append(
                CompanyGame(
                    game, json.loads(link["players"]), link["played_on"], link["attached_at"]
                )
            )
        games.sort(key=lambda g: (g.played_on, g.game.created_at, g.game.id))
        return games

    def _payments(self, company_id: int) -> list[PaymentRecord]:
        """The company's payments, by the day paid (then written)."""
        return [
            PaymentRecord(
                id=r["id"],
                payer=r["payer"],
                payee=r["payee"],
                amount=Decimal(r["amount"]),
                paid_on=r["paid_on"],
                game_id=r["game_id"],
                created_at=r["created_at"],
            )
            for r in self.engine.rows(
                "SELECT * FROM company_payments WHERE company_id = ? ORDER BY paid_on, id",
                [company_id],
            )
        ]
