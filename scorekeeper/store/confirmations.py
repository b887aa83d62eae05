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
from dataclasses import dataclass
from typing import Any, Literal

from .errors import GameNotFound, StoreError
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
        """The newest confirmation's id of the game with this token (0 if none): it changes
        with every answer, so the phones following the game know to look again."""
        found = self.engine.value(
            "SELECT max(c.id) FROM deal_confirmations c WHERE c.game_id ="
            " (SELECT id FROM games WHERE edit_token = ? OR view_token = ? LIMIT 1)",
            [token, token],
        )
        return int(found or 0)

    def version_seen(self, token: str) -> tuple[int, str, int]:
        """(version, updated_at, stamp) of the game with this token in one query: what each
        following phone asks for every second. Raises GameNotFound."""
        if isinstance(token, str) and token:
            rows = self.engine.rows(
                "SELECT g.version AS version, g.updated_at AS updated_at,"
                " (SELECT max(c.id) FROM deal_confirmations c WHERE c.game_id = g.id) AS stamp"
                " FROM games g WHERE (g.edit_token = ? OR g.view_token = ?)"
                " AND g.deleted_at IS NULL LIMIT 1",
                [token, token],
            )
            if rows:
                row = rows[0]
                return int(row["version"]), str(row["updated_at"]), int(row["stamp"] or 0)
        raise GameNotFound("no game has this link")

    def revisions(self, game_id: int) -> dict[int, int]:
        """Each deal's current revision (the id of its latest change)."""
        rows = self.engine.rows(
            "SELECT deal_id, max(id) AS revision FROM deal_revisions WHERE game_id = ?"
            " GROUP BY deal_id",
            [game_id],
        )
        return {int(row["deal_id"]): int(row["revision"]) for row in rows}

    def latest(self, game_id: int) -> list[Confirmation]:
        """Each player's latest answer on each deal of the game (of any revision), oldest
        first."""
        rows = self.engine.rows(
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

        Committed without waiting for the disk (engine.writing(lazy_commit=True)): the write
        turn is held for microseconds, not an fsync, so a Save queued behind an answer does
        not wait for it. A power cut right after loses a tap, which the phone asks for again.
        """
        return self.store.retrying(
            lambda: self._add(token, deal_id, revision, player, verdict, note, request_key)
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
    ) -> tuple[Confirmation, bool]:
        engine = self.engine
        with engine.writing(lazy_commit=True):
            game = self._game(token)
            game_id = int(game["id"])
            used = engine.rows(
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
            self._check_deal(game_id, deal_id, revision, player)
            now = engine.now()
            answer_id = engine.insert(
                "deal_confirmations",
                {
                    "game_id": game_id,
                    "deal_id": deal_id,
                    "revision": revision,
                    "player": player,
                    "verdict": verdict,
                    "note": note,
                    "at": now,
                    "request_key": request_key,
                },
            )
            answer = Confirmation(
                id=answer_id,
                deal_id=deal_id,
                revision=revision,
                player=player,
                verdict=verdict,
                note=note,
                at=now,
            )
        return answer, True

    def _game(self, token: str) -> dict[str, Any]:
        """The game's row, locked (PostgreSQL) so that a change to the deal and an answer
        on it are one after the other; raises GameNotFound."""
        if isinstance(token, str) and token:
            rows = self.engine.rows(
                "SELECT id, players FROM games WHERE (edit_token = ? OR view_token = ?)"
                " AND deleted_at IS NULL LIMIT 1" + self.engine.for_update,
                [token, token],
            )
            if rows:
                return rows[0]
        raise GameNotFound("no game has this link")

    def _check_deal(self, game_id: int, deal_id: int, revision: int, player: str) -> None:
        engine = self.engine
        live = engine.value(
            "SELECT deleted FROM deals WHERE id = ? AND game_id = ?", [deal_id, game_id]
        )
        if live is None or live:
            raise ConfirmationRefused("deal", "the deal is not on the sheet")
        current = engine.value("SELECT max(id) FROM deal_revisions WHERE deal_id = ?", [deal_id])
        if current != revision:
            raise ConfirmationRefused("changed", "the deal was changed since it was shown")
        given = engine.value(
            "SELECT count(*) FROM deal_confirmations WHERE deal_id = ? AND player = ?",
            [deal_id, player],
        )
        if int(given) >= ANSWERS_PER_DEAL:
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
