"""Building Balkan game files for the tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scorekeeper import gamefile_balkan
from scorekeeper.balkan import Sheet, score

ABC = ("Ana", "Boža", "Ceca")

#: The worked partija of docs/balkan.md, as a game file.
PETAK = Path(__file__).with_name("petak.json")


def petak_file() -> dict[str, Any]:
    """The worked partija's game file, read afresh (a test may change its copy)."""
    data: dict[str, Any] = json.loads(PETAK.read_text(encoding="utf-8"))
    return data


def partija(
    deals: list[dict[str, Any]],
    *,
    players: tuple[str, ...] = ABC,
    options: dict[str, Any] | None = None,
    convention: str = "club",
    **top: Any,
) -> dict[str, Any]:
    """A Balkan game file (Ana deals first unless told otherwise)."""
    return {
        "format": "scorekeeper-game/1",
        "family": "balkan",
        "convention": convention,
        "options": options or {},
        "players": list(players),
        "deals": deals,
        **top,
    }


def sheet_of(deals: list[dict[str, Any]], **kwargs: Any) -> Sheet:
    """The sheet of a valid partija."""
    return score(gamefile_balkan.load(partija(deals, **kwargs)))


def played(
    declarer: str, contract: str, tricks: dict[str, int] | None = None, **more: Any
) -> dict[str, Any]:
    """A played deal in game-file notation."""
    out: dict[str, Any] = {"type": "played", "declarer": declarer, "contract": contract, **more}
    if tricks is not None:
        out["tricks"] = tricks
    return out


def bule(sheet: Sheet) -> list[int]:
    return [sheet.bule(p) for p in sheet.players]


def correction(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"type": "correction", "entries": list(entries)}


def set_bule(start: int, *target: int, players: tuple[str, ...] = ABC) -> dict[str, Any]:
    """A correction that takes every player from `start` to his target bule."""
    return correction(
        *({"player": p, "bule": t - start} for p, t in zip(players, target, strict=True))
    )
