"""Builders of season files for the tests: games with the deals and results asked for."""

from __future__ import annotations

from typing import Any


def net_game(
    nets: dict[str, int],
    deals: int,
    *,
    finished: bool = True,
    convention: str = "sochi",
    extra: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A game of `deals` deals (6♠ passed by both defenders, declared in turn) whose players
    (the keys of `nets`, clockwise) end with exactly those nets: a correction evens the pools
    and writes the whists. Played to the end by hand."""
    players = list(nets)
    n = len(players)
    log: list[dict[str, Any]] = []
    pools = dict.fromkeys(players, 0)
    for k in range(deals):
        dealer = k % n
        declarer = players[(dealer + (2 if n == 5 else 1 if n == 4 else 0)) % n]
        out = [players[dealer]] if n == 4 else [players[dealer], players[(dealer + 1) % n]]
        defenders = [p for p in players if p != declarer and (n == 3 or p not in out)]
        log.append(
            {
                "type": "contract",
                "declarer": declarer,
                "contract": "6S",
                "answers": {d: "pass" for d in defenders},
            }
        )
        pools[declarer] += 2
    log.extend(extra or [])
    top = max(pools.values())
    entries: list[dict[str, Any]] = [
        {"player": p, "pool": top - v} for p, v in pools.items() if top != v
    ]
    hub = players[0]
    for p in players[1:]:
        if nets[p] < 0:
            entries.append({"player": hub, "whists_on": p, "amount": -nets[p]})
        elif nets[p] > 0:
            entries.append({"player": p, "whists_on": hub, "amount": nets[p]})
    if entries:
        log.append({"type": "correction", "reason": "result", "entries": entries})
    return {
        "format": "scorekeeper-game/1",
        "convention": convention,
        "options": {"pool_target": 10000},
        "players": players,
        "first_dealer": players[0],
        "finished": finished,
        "deals": log,
    }


def season(events: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    """A season file of 2026/27 holding the events."""
    return {
        "format": "scorekeeper-season/1",
        "name": "Test season",
        "from": "2026-09-01",
        "to": "2027-05-31",
        **top,
        "events": events,
    }


def game_event(day: str, nets: dict[str, int], deals: int, **more: Any) -> dict[str, Any]:
    """An event: a finished game played on `day` with those nets."""
    return {"played_on": day, "game": net_game(nets, deals), **more}
