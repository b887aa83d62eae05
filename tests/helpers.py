"""Small builders shared by the tests: a game file dict in game-file notation, scored."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sqlite3
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from scorekeeper import gamefile
from scorekeeper.games import load
from scorekeeper.rules import Sheet, score, settle
from scorekeeper.store import GameRecord, Store
from scorekeeper.store.companies import Companies
from scorekeeper.store.engine import SqliteEngine

#: The app's stylesheet, and the CSP source that allows it inside a page (by its hash).
STYLESHEET = Path(__file__).resolve().parent.parent / "static" / "app.css"
STYLE_SOURCE = (
    "'sha256-" + base64.b64encode(hashlib.sha256(STYLESHEET.read_bytes()).digest()).decode() + "'"
)


def game_file(
    deals: list[dict[str, Any]],
    *,
    convention: str = "sochi",
    players: list[str] | None = None,
    options: dict[str, Any] | None = None,
    first_dealer: str | None = None,
    finished: bool = False,
    name: str = "",
) -> dict[str, Any]:
    """A game-file dict; by default Sochi with A, B, C and C dealing first."""
    if players is None:
        players = ["A", "B"] if convention == "hussar" else ["A", "B", "C"]
    data: dict[str, Any] = {
        "format": "scorekeeper-game/1",
        **({"name": name} if name else {}),
        "convention": convention,
        "players": players,
        "deals": deals,
        "finished": finished,
    }
    if options:
        data["options"] = options
    data["first_dealer"] = first_dealer or players[-1]
    return data


def sheet_of(deals: list[dict[str, Any]], **kw: Any) -> Sheet:
    """Score a game built by game_file."""
    return score(gamefile.load(game_file(deals, **kw)))


def totals(sheet: Sheet) -> dict[str, Any]:
    """Pool, hill and whists of every player, as plain numbers (Fractions)."""
    return {
        p: (sheet.pool(p), sheet.hill(p), {q: sheet.whists(p, q) for q in sheet.players if q != p})
        for p in sheet.players
    }


def F(text: str | int) -> Fraction:
    """Shorthand for an exact amount."""
    return Fraction(text)


def contract(
    declarer: str,
    code: str,
    answers: dict[str, str],
    tricks: dict[str, int] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A contract deal in game-file notation."""
    deal: dict[str, Any] = {
        "type": "contract",
        "declarer": declarer,
        "contract": code,
        "answers": answers,
    }
    if tricks is not None:
        deal["tricks"] = tricks
    deal.update(extra)
    return deal


def allpass(**tricks: int) -> dict[str, Any]:
    """An all-pass deal."""
    return {"type": "allpass", "tricks": tricks}


def misere(declarer: str, tricks: int) -> dict[str, Any]:
    """A misère deal."""
    return {"type": "misere", "declarer": declarer, "tricks": {declarer: tricks}}


def count(store: Store, table: str) -> int:
    """How many rows one table holds, asked through the store's engine (either engine)."""
    return int(store.engine.value(f"SELECT count(*) FROM {table}"))


def sqlite_connection(store: Store) -> sqlite3.Connection:
    """The SQLite connection of a store on a file (its engine's): for the tests of the
    connection's own settings (pragmas) and of what the schema itself refuses."""
    engine = store.engine
    assert isinstance(engine, SqliteEngine), "an SQLite store only"
    return engine.connection


def newest_game(store: Store) -> GameRecord | None:
    """The game created last and not deleted, or None: what a form has just created, if it
    created anything."""
    token = store.engine.value(
        "SELECT edit_token FROM games WHERE deleted_at IS NULL ORDER BY id DESC LIMIT 1"
    )
    return None if token is None else store.get_game(token)


def game(
    convention: str,
    deals: list[dict[str, Any]],
    *,
    players: tuple[str, ...] = ("A", "B", "C"),
    options: dict[str, Any] | None = None,
    first_dealer: str | None = None,
) -> dict[str, Any]:
    """`game_file` with the convention first, as the rules tier writes it: the last player
    deals first unless told otherwise."""
    data = game_file(deals, convention=convention, players=list(players), first_dealer=first_dealer)
    return {**data, "options": options or {}}


def money_of(store: Store, token: str) -> dict[str, Decimal]:
    """Each roster name's money summed over the company's finished games (settle each)."""
    company = Companies(store).get(token)
    names = {p.id: p.name for p in company.roster}
    total = {name: Decimal(0) for name in names.values()}
    for g in company.games:
        loaded = load(g.game)
        if loaded.sheet.finished:
            result = settle(loaded.sheet)
            for seat, pid in g.players.items():
                total[names[pid]] += result.money[seat]
    return total


#: The game file format's document, whose examples the tests read.
FORMAT_DOC = Path(__file__).resolve().parent.parent / "docs/game-format.md"


def said(store: Store, token: str, deal_index: int, player: str, verdict: str, **kw: Any) -> Any:
    """A player's answer on a deal of the game (by its place in the sheet), on the deal's
    current revision unless `revision` is given, as a phone's tap writes it (confirm)."""
    from scorekeeper.confirmations import answers, confirm

    record = store.get_game(token)
    deal = record.deals[deal_index]
    revision = answers(store, record).of(deal.id).revision
    return confirm(
        store,
        token,
        deal_id=deal.id,
        revision=kw.pop("revision", revision),
        player=player,
        verdict=verdict,
        note=kw.pop("note", ""),
        request_key=kw.pop("key", f"{player}-{deal_index}-{verdict}-{revision}"),
    )


def the_format_example() -> dict[str, Any]:
    """The first game file of docs/game-format.md, as written there."""
    text = FORMAT_DOC.read_text(encoding="utf-8")
    return json.loads(re.findall(r"```json\n(.*?)```", text, re.S)[0])
