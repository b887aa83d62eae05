"""Deal confirmations in the same database: who at the table said a deal is right, or not.

A confirmation names the revision of the deal it was given for: a later change to the deal
(an edit, a restore) makes it a past answer, with nothing to clear at the Save. Every answer
is kept (a player may change his mind); the latest per deal and player is the one that
counts. The game's version is never touched: a confirmation is not a change to the sheet.
It uses the Store's connection and transactions::

    confirmations = Confirmations(store)
    confirmations.add(view_token, deal_id=7, revision=31, player="Anna", verdict="right",
                      note="", request_key=key)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Literal

from .around import STAMP_COLUMNS, stamp_of
from .engine import SqliteEngine
from .errors import GameNotFound, ReadOnlyAccess, StoreError
from .store import Store

Verdict = Literal["right", "wrong"]


class ConfirmationRefused(StoreError):
    """The confirmation was not written; `reason` says why (for the caller's message)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Confirmation:
    """One player's answer on one revision of one deal."""

    id: int
    deal_id: int
    revision: int
    player: str
    verdict: Verdict
    note: str
    at: str


ANSWERS_PER_DEAL = 20
"""Answers one player may give on one deal (a change of mind, a few times over): a read-only
link may write only this, so what it can write is bounded."""


class Confirmations:
    """The confirmations of games, through a Store's engine (its connection)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def stamp(self, token: str) -> int:
        """The newest confirmation's id of the game with this token (0 if none), plus the
        tries refused for a seat another phone holds: it changes with every answer and every
        such try, so the phones following the game (the scorer's too) know to look again."""
        rows = self.engine.rows(
            f"SELECT {STAMP_COLUMNS} FROM games g"
            " WHERE g.edit_token = ? OR g.view_token = ? LIMIT 1",
            [token, token],
        )
        return stamp_of(rows[0]) if rows else 0

    def version_seen(self, token: str) -> tuple[int, str, int]:
        """(version, updated_at, stamp) of the game with this token in one query: what the
        version endpoint answers (tools; a following page holds its request instead,
        `versions_seen`). Raises GameNotFound."""
        if isinstance(token, str) and token:
            rows = self.engine.rows(
                "SELECT g.version AS version, g.updated_at AS updated_at,"
                f" {STAMP_COLUMNS} FROM games g"
                " WHERE (g.edit_token = ? OR g.view_token = ?) AND g.deleted_at IS NULL LIMIT 1",
                [token, token],
            )
            if rows:
                row = rows[0]
                return int(row["version"]), str(row["updated_at"]), stamp_of(row)
        raise GameNotFound("no game has this link")

    def versions_seen(self, view_tokens: list[str]) -> dict[str, tuple[int, int]]:
        """(version, stamp) of each live game among these read-only tokens: what the
        server's watch of the waiting phones reads after each commit. A token missing from
        the answer names no live game.

        One statement that answers in one row: each token, version and stamp as words of
        one text (a link's token is letters, digits, "-" and "_"). A thread gives the GIL
        up at each step of a statement, one per row on SQLite, and waits to take it back
        at each: with three other threads busy, a thousand rows took 2.8 s, one row 49 ms;
        on PostgreSQL it is one round trip, where it was a transaction and one query per
        400 games."""
        if isinstance(self.engine, SqliteEngine):
            with self.engine.translated():
                (words,) = self.engine.connection.execute(
                    _SEEN.format(agg="group_concat", listed="IN (SELECT value FROM json_each(?))"),
                    [json.dumps(view_tokens)],
                ).fetchone()
        else:
            words = self.engine.value(
                _SEEN.format(agg="string_agg", listed="= ANY(?)"), [view_tokens]
            )
        w = (words or "").split()
        return {w[i]: (int(w[i + 1]), int(w[i + 2])) for i in range(0, len(w), 3)}

    def table(self, game_id: int) -> tuple[dict[int, int], list[Confirmation], list[SeatClaim]]:
        """What the pages show of a game's answers, in one statement (one snapshot, and on
        PostgreSQL one round trip, where it was three): each deal's current revision
        (`revisions`), each player's latest answer on each deal (`latest`), and the claimed
        seats in the order they were claimed (`seat_claims`)."""
        rows = self.engine.rows(_TABLE, [game_id, game_id, game_id])
        revisions: dict[int, int] = {}
        latest: list[Confirmation] = []
        claims: list[SeatClaim] = []
        for row in rows:
            if row["kind"] == "r":
                revisions[int(row["deal_id"])] = int(row["id"])
            elif row["kind"] == "c":
                latest.append(_confirmation(row))
            else:
                claims.append(
                    SeatClaim(
                        str(row["player"]), str(row["at"]), int(row["others"]), row["other_at"]
                    )
                )
        return revisions, latest, claims

    def add(
        self,
        token: str,
        *,
        deal_id: int,
        revision: int,
        player: str,
        verdict: Verdict,
        note: str,
        request_key: str,
        phone: str = "",
    ) -> tuple[Confirmation, bool]:
        """Write one answer, in one short transaction; (the answer, written). A request key
        already used for the same answer writes nothing and returns it again. With a phone
        (a hash of its id), the seat is that phone's from its first answer on (claim_seat).

        Raises GameNotFound, or ConfirmationRefused: "player" (not a player of the game),
        "deal" (no such live deal), "changed" (the deal has a newer revision), "key" (the key
        was used for another answer), "many" (ANSWERS_PER_DEAL reached), "claimed" (another
        phone holds the seat).

        Committed without waiting for the disk (engine.writing(lazy_commit=True)): the write
        turn is held for microseconds, not an fsync, so a Save queued behind an answer does
        not wait for it. A power cut right after loses a tap, which the phone asks for again.
        """
        return self.store.retrying(
            lambda: self._add(token, deal_id, revision, player, verdict, note, request_key, phone)
        )

    def _add(
        self,
        token: str,
        deal_id: int,
        revision: int,
        player: str,
        verdict: Verdict,
        note: str,
        request_key: str,
        phone: str,
    ) -> tuple[Confirmation, bool]:
        with self.engine.writing(lazy_commit=True):
            game, found = self._locked_and_looked_up(token, deal_id, player, request_key)
            if found["id"] is not None:  # the key's answer, sent again: written before
                return _same_answer(found, deal_id, revision, player, verdict, note), False
            if player not in json.loads(game["players"]):
                raise ConfirmationRefused("player", f"{player!r} does not play this game")
            _check_deal(found, revision)
            now, game_id = str(found["now"]), int(game["id"])
            claimed = not phone or claim_seat(
                self.store, game_id, player, phone, now, found["held"]
            )
            if claimed:
                given = Confirmation(0, deal_id, revision, player, verdict, note, now)
                answer = self._insert(game_id, given, request_key)
                self.engine.changed(str(game["view_token"]))  # the hosts read this game alone
        if not claimed:  # refused after the commit: the other phone's try is counted
            raise ConfirmationRefused("claimed", "another phone answers for this seat")
        return answer, True

    def _insert(self, game_id: int, answer: Confirmation, request_key: str) -> Confirmation:
        """Write one answer; the answer with its id."""
        answer_id = self.engine.insert(
            "deal_confirmations",
            {
                "game_id": game_id,
                "deal_id": answer.deal_id,
                "revision": answer.revision,
                "player": answer.player,
                "verdict": answer.verdict,
                "note": answer.note,
                "at": answer.at,
                "request_key": request_key,
            },
        )
        return replace(answer, id=answer_id)

    def _locked_and_looked_up(
        self, token: str, deal_id: int, player: str, request_key: str
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The game's row (id, players), locked (PostgreSQL) so that a change to the deal
        and an answer on it are one after the other, and what the answer is checked against
        (_LOOKED_UP), asked by the server once the lock is held: one round trip on
        PostgreSQL (engine.rows_each). Raises GameNotFound."""
        if isinstance(token, str) and token:
            column, params = self.engine.now_column()
            lock = self.engine.for_update
            game, (found,) = self.engine.rows_each(
                [
                    (f"SELECT id, players, view_token{_GAME}{lock}", [token, token]),
                    (
                        _LOOKED_UP.format(now=column),
                        [token, token, *params, deal_id, deal_id, deal_id, player, player]
                        + [request_key],
                    ),
                ]
            )
            if game:
                return game[0], found
        raise GameNotFound("no game has this link")


_GAME = " FROM games WHERE (edit_token = ? OR view_token = ?) AND deleted_at IS NULL LIMIT 1"

_LOOKED_UP = (
    f"WITH g AS (SELECT id{_GAME})"
    " SELECT k.*, {now} AS now,"
    " (SELECT deleted FROM deals WHERE id = ? AND game_id = (SELECT id FROM g)) AS deleted,"
    " (SELECT max(id) FROM deal_revisions WHERE deal_id = ?) AS current,"
    " (SELECT count(*) FROM deal_confirmations WHERE deal_id = ? AND player = ?) AS given,"
    " (SELECT phone FROM seat_claims WHERE game_id = (SELECT id FROM g) AND player = ?) AS held"
    " FROM (SELECT 1 AS one) AS o"
    " LEFT JOIN deal_confirmations AS k ON k.game_id = (SELECT id FROM g) AND k.request_key = ?"
)
"""What an answer is checked against, in one statement (one round trip, not six): the answer
its key already wrote (its columns, id None if none), whether the deal is deleted (None: no
such deal), its latest revision, the player's answers on it, the phone holding the seat, and
now."""


def _same_answer(
    found: dict[str, Any], deal_id: int, revision: int, player: str, verdict: str, note: str
) -> Confirmation:
    """The answer a one-time key already wrote, when it is this very answer sent again;
    refused ("key") when the key wrote another."""
    answer = _confirmation(found)
    if (answer.deal_id, answer.revision, answer.player, answer.verdict, answer.note) == (
        deal_id,
        revision,
        player,
        verdict,
        note,
    ):
        return answer
    raise ConfirmationRefused("key", "this request key was used for another answer")


_TABLE = (
    "SELECT 'r' AS kind, max(id) AS id, deal_id, CAST(NULL AS BIGINT) AS revision,"
    " CAST(NULL AS TEXT) AS player, CAST(NULL AS TEXT) AS verdict, CAST(NULL AS TEXT) AS note,"
    " CAST(NULL AS TEXT) AS at, CAST(NULL AS INTEGER) AS others, CAST(NULL AS TEXT) AS other_at"
    " FROM deal_revisions WHERE game_id = ? GROUP BY deal_id"
    " UNION ALL SELECT 'c', id, deal_id, revision, player, verdict, note, at, NULL, NULL"
    " FROM deal_confirmations WHERE id IN (SELECT max(id) FROM deal_confirmations"
    " WHERE game_id = ? GROUP BY deal_id, player)"
    " UNION ALL SELECT 's', id, NULL, NULL, player, NULL, NULL, claimed_at, others, other_at"
    " FROM seat_claims WHERE game_id = ?"
    " ORDER BY 1, 2"
)
"""Confirmations.table's statement: kind r (a deal's revision), c (an answer, oldest first),
s (a seat claim, first claimed first), each with the columns it needs."""


def _check_deal(found: dict[str, Any], revision: int) -> None:
    """Refuse an answer on a deal not on the sheet, changed since it was shown, or answered
    too often (found: _LOOKED_UP's row)."""
    if found["deleted"] is None or found["deleted"]:
        raise ConfirmationRefused("deal", "the deal is not on the sheet")
    if found["current"] != revision:
        raise ConfirmationRefused("changed", "the deal was changed since it was shown")
    if int(found["given"]) >= ANSWERS_PER_DEAL:
        raise ConfirmationRefused("many", "too many answers on this deal")


def _confirmation(row: dict[str, object]) -> Confirmation:
    verdict: Verdict = "wrong" if row["verdict"] == "wrong" else "right"
    return Confirmation(
        id=int(str(row["id"])),
        deal_id=int(str(row["deal_id"])),
        revision=int(str(row["revision"])),
        player=str(row["player"]),
        verdict=verdict,
        note=str(row["note"]),
        at=str(row["at"]),
    )


# -- seat claims (issue 32, item 12) ---------------------------------------------------------
# Plain SQL with ? placeholders, through the store's engine: each runs inside the caller's
# transaction (claim_seat inside an answer's) or opens a short one of its own.


@dataclass(frozen=True)
class SeatClaim:
    """Which phone answers for a seat, and how often another phone tried to."""

    player: str
    claimed_at: str
    others: int
    other_at: str | None


def claim_seat(
    store: Store, game_id: int, player: str, phone: str, now: str, held: str | None
) -> bool:
    """Inside a write transaction: the seat is this phone's (claimed now if nobody holds it:
    `held`, the phone that holds it, read in the transaction), True; or another phone holds
    it, False, and the try is counted on the claim."""
    engine = store.engine
    if held is None:  # sent with the answer's INSERT (engine.send)
        engine.send(
            "INSERT INTO seat_claims (game_id, player, phone, claimed_at, others)"
            " VALUES (?, ?, ?, ?, 0)",
            [game_id, player, phone, now],
        )
        return True
    if held == phone:
        return True
    engine.send(  # with the COMMIT
        "UPDATE seat_claims SET others = others + 1, other_at = ? WHERE game_id = ? AND player = ?",
        [now, game_id, player],
    )
    return False


def release_seat(store: Store, edit_token: str, player: str) -> bool:
    """The scorer lets a seat go (by the game's edit token): the next phone to answer for it
    claims it. False if nobody held it. Raises GameNotFound, ReadOnlyAccess."""
    engine = store.engine
    with engine.writing():
        rows = (
            engine.rows(
                "SELECT id, edit_token FROM games WHERE (edit_token = ? OR view_token = ?)"
                " AND deleted_at IS NULL LIMIT 1" + engine.for_update,
                [edit_token, edit_token],
            )
            if isinstance(edit_token, str) and edit_token
            else []
        )
        if not rows:
            raise GameNotFound("no game has this link")
        if rows[0]["edit_token"] != edit_token:
            raise ReadOnlyAccess("only the edit link can release a seat")
        gone = engine.execute(
            "DELETE FROM seat_claims WHERE game_id = ? AND player = ?", [rows[0]["id"], player]
        )
    return gone > 0


_SEEN = (
    "SELECT {agg}(g.view_token || ' ' || g.version || ' ' || coalesce((SELECT max(c.id)"
    " FROM deal_confirmations c WHERE c.game_id = g.id), 0), ' ')"
    " FROM games g WHERE g.view_token {listed} AND g.deleted_at IS NULL"
)
