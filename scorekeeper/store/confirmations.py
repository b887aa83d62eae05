"""Deal confirmations in the same SQLite file: who at the table said a deal is right, or not.

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
from dataclasses import dataclass
from typing import Literal

from .errors import GameNotFound, ReadOnlyAccess, StoreError
from .store import Store, _now

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


#: The tries refused because another phone holds the seat (seat_claims), as a column of a
#: query over games g: added to the stamp, so the scorer's page learns of a seat claimed twice.
_REFUSED_TRIES = "(SELECT sum(s.others) FROM seat_claims s WHERE s.game_id = g.id)"


class Confirmations:
    """The confirmations of games, through a Store's connection."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def stamp(self, token: str) -> int:
        """The newest confirmation's id of the game with this token (0 if none), plus the
        tries refused for a seat another phone holds: it changes with every answer and every
        such try, so the phones following the game (the scorer's too) know to look again."""
        with self.store._reading():
            row = self.store._conn.execute(
                "SELECT (SELECT max(c.id) FROM deal_confirmations c WHERE c.game_id = g.id),"
                f" {_REFUSED_TRIES} FROM games g WHERE g.edit_token = ? OR g.view_token = ?"
                " LIMIT 1",
                [token, token],
            ).fetchone()
        return 0 if row is None else int(row[0] or 0) + int(row[1] or 0)

    def version_seen(self, token: str) -> tuple[int, str, int]:
        """(version, updated_at, stamp) of the game with this token in one query: what each
        following phone asks for every second. Raises GameNotFound."""
        if isinstance(token, str) and token:
            with self.store._reading():
                row = self.store._conn.execute(
                    "SELECT g.version, g.updated_at, (SELECT max(c.id) FROM deal_confirmations c"
                    f" WHERE c.game_id = g.id), {_REFUSED_TRIES} FROM games g"
                    " WHERE (g.edit_token = ? OR g.view_token = ?) AND g.deleted_at IS NULL"
                    " LIMIT 1",
                    [token, token],
                ).fetchone()
            if row is not None:
                return int(row[0]), str(row[1]), int(row[2] or 0) + int(row[3] or 0)
        raise GameNotFound("no game has this link")

    def revisions(self, game_id: int) -> dict[int, int]:
        """Each deal's current revision (the id of its latest change)."""
        with self.store._reading():
            rows = self.store._conn.execute(
                "SELECT deal_id, max(id) FROM deal_revisions WHERE game_id = ? GROUP BY deal_id",
                [game_id],
            ).fetchall()
        return {int(deal): int(revision) for deal, revision in rows}

    def latest(self, game_id: int) -> list[Confirmation]:
        """Each player's latest answer on each deal of the game (of any revision), oldest
        first."""
        with self.store._reading():
            rows = self.store._rows(
                "SELECT * FROM deal_confirmations WHERE id IN (SELECT max(id)"
                " FROM deal_confirmations WHERE game_id = ? GROUP BY deal_id, player) ORDER BY id",
                [game_id],
            )
        return [_confirmation(row) for row in rows]

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
        """
        store = self.store
        # Committed without waiting for the disk (synchronous NORMAL, in WAL): the write turn
        # is held for microseconds, not an fsync, so a Save queued behind an answer does not
        # wait for it. The answer is on disk with the next Save's commit or checkpoint; a
        # power cut before that loses a tap, which the phone asks for again.
        before = int(store._conn.execute("PRAGMA synchronous").fetchone()[0])
        store._conn.execute("PRAGMA synchronous = NORMAL")
        try:
            return self._add(token, deal_id, revision, player, verdict, note, request_key, phone)
        finally:
            store._conn.execute(f"PRAGMA synchronous = {before}")

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
        store = self.store
        with store._writing():
            game, _ = store._find(token)
            game_id = int(game["id"])
            used = store._rows(
                "SELECT * FROM deal_confirmations WHERE game_id = ? AND request_key = ?",
                [game_id, request_key],
            )
            if used:
                answer = _confirmation(used[0])
                same = (answer.deal_id, answer.revision, answer.player, answer.verdict)
                if same == (deal_id, revision, player, verdict) and answer.note == note:
                    return answer, False
                raise ConfirmationRefused("key", "this request key was used for another answer")
            if player not in json.loads(game["players"]):
                raise ConfirmationRefused("player", f"{player!r} does not play this game")
            live = store._conn.execute(
                "SELECT deleted FROM deals WHERE id = ? AND game_id = ?", [deal_id, game_id]
            ).fetchone()
            if live is None or live[0]:
                raise ConfirmationRefused("deal", "the deal is not on the sheet")
            current = store._conn.execute(
                "SELECT max(id) FROM deal_revisions WHERE deal_id = ?", [deal_id]
            ).fetchone()[0]
            if current != revision:
                raise ConfirmationRefused("changed", "the deal was changed since it was shown")
            given = store._conn.execute(
                "SELECT count(*) FROM deal_confirmations WHERE deal_id = ? AND player = ?",
                [deal_id, player],
            ).fetchone()[0]
            if given >= ANSWERS_PER_DEAL:
                raise ConfirmationRefused("many", "too many answers on this deal")
            now = _now()
            claimed = not phone or claim_seat(store, game_id, player, phone, now)
            if claimed:
                cursor = store._conn.execute(
                    "INSERT INTO deal_confirmations"
                    " (game_id, deal_id, revision, player, verdict, note, at, request_key)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [game_id, deal_id, revision, player, verdict, note, now, request_key],
                )
        if not claimed:  # refused after the commit: the other phone's try is counted
            raise ConfirmationRefused("claimed", "another phone answers for this seat")
        answer = Confirmation(
            id=int(cursor.lastrowid or 0),
            deal_id=deal_id,
            revision=revision,
            player=player,
            verdict=verdict,
            note=note,
            at=now,
        )
        return answer, True


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
# Plain SQL with ? placeholders, through the connection given: each runs inside the caller's
# transaction (claim_seat inside an answer's) or opens a short one of its own.


@dataclass(frozen=True)
class SeatClaim:
    """Which phone answers for a seat, and how often another phone tried to."""

    player: str
    claimed_at: str
    others: int
    other_at: str | None


def claim_seat(store: Store, game_id: int, player: str, phone: str, now: str) -> bool:
    """Inside a write transaction: the seat is this phone's (claimed now if nobody holds it),
    True; or another phone holds it, False, and the try is counted on the claim."""
    row = store._conn.execute(
        "SELECT phone FROM seat_claims WHERE game_id = ? AND player = ?", [game_id, player]
    ).fetchone()
    if row is None:
        store._conn.execute(
            "INSERT INTO seat_claims (game_id, player, phone, claimed_at, others)"
            " VALUES (?, ?, ?, ?, 0)",
            [game_id, player, phone, now],
        )
        return True
    if row[0] == phone:
        return True
    store._conn.execute(
        "UPDATE seat_claims SET others = others + 1, other_at = ? WHERE game_id = ? AND player = ?",
        [now, game_id, player],
    )
    return False


def seat_claims(store: Store, game_id: int) -> list[SeatClaim]:
    """The claimed seats of a game, in the order they were claimed."""
    with store._reading():
        rows = store._conn.execute(
            "SELECT player, claimed_at, others, other_at FROM seat_claims"
            " WHERE game_id = ? ORDER BY id",
            [game_id],
        ).fetchall()
    return [SeatClaim(str(r[0]), str(r[1]), int(r[2]), r[3]) for r in rows]


def release_seat(store: Store, edit_token: str, player: str) -> bool:
    """The scorer lets a seat go (by the game's edit token): the next phone to answer for it
    claims it. False if nobody held it. Raises GameNotFound, ReadOnlyAccess."""
    with store._writing():
        game, access = store._find(edit_token)
        if access != "edit":
            raise ReadOnlyAccess("only the edit link can release a seat")
        cursor = store._conn.execute(
            "DELETE FROM seat_claims WHERE game_id = ? AND player = ?", [game["id"], player]
        )
    return cursor.rowcount > 0
