"""The Balkan game file (docs/game-format.md, "Balkan games"): `"family": "balkan"`, read and
checked into a `BalkanGame`, written back losslessly. `load_any` routes a file by its family:
a file with no family, or "russian", is read by `gamefile.load` exactly as before."""

from __future__ import annotations

import json

from scorekeeper import gamefile
from scorekeeper.balkan import (
    FAMILY,
    BalkanGame,
    Entry,
    entry_to_dict,
    find_preset,
    parse_entry,
    replay,
    resolve_options,
    unread,
)
from scorekeeper.rules import Game, InvalidGame, Problem
from scorekeeper.rules.problems import N_

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PLAYER_COUNTS = (3, 4)


def is_balkan(data: Any) -> bool:
    """The parsed file says it is a Balkan game."""
    return isinstance(data, dict) and data.get("family") == FAMILY


def loads_any(text: str | bytes, *, max_deals: int = gamefile.MAX_DEALS) -> Game | BalkanGame:
    """A game file's text of either family; raises InvalidGame naming every problem."""
    data = gamefile.parsed(text)
    if not is_balkan(data):
        _refuse_unknown_family(data)
        return gamefile.once_each(text, lambda: gamefile.load(data, max_deals=max_deals))
    return gamefile.once_each(text, lambda: load(data, max_deals=max_deals))


def _refuse_unknown_family(data: Any) -> None:
    """A family neither reader knows is the file's one problem: its convention and deals
    mean nothing to a reader of another family, so they are not judged by one."""
    family = data.get("family", gamefile.RUSSIAN) if isinstance(data, dict) else gamefile.RUSSIAN
    if family != gamefile.RUSSIAN:
        problems, bad = gamefile.problem_notes()
        gamefile._check_family(family, bad)
        raise InvalidGame(problems)


def load(
    data: Any, *, max_deals: int = gamefile.MAX_DEALS, check: bool = True, stored: bool = False
) -> BalkanGame:
    """Read a parsed Balkan game file, or a stored game of the same shape (its deals in
    game-file notation); raises InvalidGame naming every problem (the entries are replayed:
    a file that cannot be scored whole is refused whole). check=False skips the replay (a
    stored game, checked when written); stored=True opens a name as `gamefile.load` does."""
    problems, bad = gamefile.problem_notes()
    _keys(data, bad)
    if problems:
        raise InvalidGame(problems)
    gamefile._check_format(data["format"], bad)
    name = gamefile._name(data.get("name", ""), bad, stored=stored)
    convention = find_preset(data["convention"])
    overrides = gamefile._overrides(data.get("options", {}), bad)
    options, option_problems = resolve_options(convention or data["convention"], overrides)
    problems.extend(option_problems)
    players = _players(data["players"], bad)
    first_dealer, finished = gamefile.dealer_and_finished(data, players, bad)
    entries = _entries(data["deals"], players, max_deals, problems, bad)
    if (
        convention is None
        or not players
        or first_dealer not in players
        or problems
        and entries is None
    ):
        raise InvalidGame(problems or [Problem(N_("the game cannot be read"))])
    game = BalkanGame(
        players=tuple(players),
        convention=convention,
        options=options,
        first_dealer=str(first_dealer),
        deals=tuple(entries or ()),
        finished=finished is True,
        name=name,
        overrides=dict(overrides),
    )
    if check or problems:
        _refuse_unless_replayed(game, problems)
    return game


def _refuse_unless_replayed(game: BalkanGame, problems: list[Problem]) -> None:
    """Replay the game; raise InvalidGame with the file's problems and the replay's, in deal
    order, if there are any (an entry the file's problems name already is not named again)."""
    _, found = replay(game)
    numbered = {p.deal for p in problems if p.deal is not None}
    found = [p for p in found if p.deal not in numbered]  # an unread entry said it already
    problems = sorted(problems + found, key=lambda p: p.deal or 0)
    if problems:
        raise InvalidGame(problems)


def _keys(data: Any, bad: Any) -> None:
    """A JSON object with the keys of any game file, and the entries."""
    gamefile._check_keys(data, bad)
    if "deals" not in data:
        bad(N_("missing key {key}"), "deals", key=json.dumps("deals"))


def _players(raw: Any, bad: Any) -> list[str]:
    """3 or 4 names, unique after folding (NFKC, case folded), as a Russian game's."""
    names = gamefile._players(raw, None, bad)
    if isinstance(raw, list) and len(raw) not in PLAYER_COUNTS:
        bad(
            N_("a Balkan partija is played by 3 or 4 players, not {count}"),
            "players",
            count=len(raw),
        )
        return []
    return names


def _entries(
    raw: Any, players: list[str], max_deals: int, problems: list[Problem], bad: Any
) -> list[Entry] | None:
    if not isinstance(raw, list):
        bad(N_("deals must be a list"), "deals")
        return None
    if len(raw) > max_deals:
        bad(
            N_("too many deals: {count} (a game holds at most {limit})"),
            "deals",
            count=len(raw),
            limit=max_deals,
        )
        return None
    if not players:  # the players were refused: naming them in every entry would say it again
        return None
    entries: list[Entry] = []
    for number, item in enumerate(raw, start=1):
        entry, found = parse_entry(item, players)
        problems.extend(p.at_deal(number) for p in found)
        entries.append(entry if entry is not None else unread(item))
    return entries


def dump(game: BalkanGame) -> dict[str, Any]:
    """The partija as a game-file object; load(dump(g)) gives back the same partija."""
    top = gamefile.header(game)
    out = {"format": top.pop("format"), "family": FAMILY, **top}
    out["deals"] = [entry_to_dict(e) for e in game.deals]
    return out
