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

from .errors import GameNotFound, StoreError
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


class Confirmations:
    """The confirmations of games, through a Store's connection."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def stamp(self, token: str) -> int:
        """The newest confirmation's id of the game with this token (0 if none): it changes
        with every answer, so the phones following the game know to look again."""
        with self.store._reading():
            row = self.store._conn.execute(
                "SELECT max(c.id) FROM deal_confirmations c WHERE c.game_id ="
                " (SELECT id FROM games WHERE edit_token = ? OR view_token = ? LIMIT 1)",
                [token, token],
            ).fetchone()
        return int(row[0] or 0)

    def version_seen(self, token: str) -> tuple[int, str, int]:
        """(version, updated_at, stamp) of the game with this token in one query: what each
        following phone asks for every second. Raises GameNotFound."""
        if isinstance(token, str) and token:
            with self.store._reading():
                row = self.store._conn.execute(
                    "SELECT g.version, g.updated_at, (SELECT max(c.id) FROM deal_confirmations c"
                    " WHERE c.game_id = g.id) FROM games g WHERE (g.edit_token = ?"
                    " OR g.view_token = ?) AND g.deleted_at IS NULL LIMIT 1",
                    [token, token],
                ).fetchone()
            if row is not None:
                return int(row[0]), str(row[1]), int(row[2] or 0)
        raise GameNotFound("no game has this link")

    def versions_seen(self, view_tokens: list[str]) -> dict[str, tuple[int, int]]:
        """(version, stamp) of each live game among these read-only tokens, in one query
        per 400: what the server's watch of the waiting phones reads a few times a second.
        A token missing from the answer names no live game."""
        found: dict[str, tuple[int, int]] = {}
        for start in range(0, len(view_tokens), 400):
            chunk = view_tokens[start : start + 400]
            marks = ", ".join("?" * len(chunk))
            with self.store._reading():
                rows = self.store._conn.execute(
                    "SELECT g.view_token, g.version, (SELECT max(c.id) FROM deal_confirmations c"
                    f" WHERE c.game_id = g.id) FROM games g WHERE g.view_token IN ({marks})"
                    " AND g.deleted_at IS NULL",
                    chunk,
                ).fetchall()
            found |= {str(t): (int(v), int(s or 0)) for t, v, s in rows}
        return found

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
    ) -> tuple[Confirmation, bool]:
        """Write one answer, in one short transaction; (the answer, written). A request key
        already used for the same answer writes nothing and returns it again.

        Raises GameNotFound, or ConfirmationRefused: "player" (not a player of the game),
        "deal" (no such live deal), "changed" (the deal has a newer revision), "key" (the key
        was used for another answer), "many" (ANSWERS_PER_DEAL reached).
        """
        store = self.store
        # Committed without waiting for the disk (synchronous NORMAL, in WAL): the write turn
        # is held for microseconds, not an fsync, so a Save queued behind an answer does not
        # wait for it. The answer is on disk with the next Save's commit or checkpoint; a
        # power cut before that loses a tap, which the phone asks for again.
        before = int(store._conn.execute("PRAGMA synchronous").fetchone()[0])
        store._conn.execute("PRAGMA synchronous = NORMAL")
        try:
            return self._add(token, deal_id, revision, player, verdict, note, request_key)
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
            cursor = store._conn.execute(
                "INSERT INTO deal_confirmations"
                " (game_id, deal_id, revision, player, verdict, note, at, request_key)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [game_id, deal_id, revision, player, verdict, note, now, request_key],
            )
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
