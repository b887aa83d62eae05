"""The paper's totals, settled: a table that kept its pulka on paper types each player's pool,
hill and whists on the others, and gets the settlement the rules give a game (§6).

The totals become what they are on a sheet: one correction that writes them (§4.6), in a game
of these seats, this convention and these house rules. That game is settled by rules.settle,
the one formula; nothing is written unless the table saves it (games.create_from_game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from scorekeeper import gamefile
from scorekeeper.rules import Game, resolve_options
from scorekeeper.rules.numbers import AMOUNT, NumberError, read_number
from scorekeeper.rules.problems import N_, Problem
from scorekeeper.rules.scoring import replay
from scorekeeper.rules.settlement import Settlement, settle

from .writes import NotCreated, NotSeated, _names, seat_problems


def totals_game(
    *,
    name: str,
    reason: str,
    convention: str,
    overrides: Mapping[str, Any] | None,
    seats: Sequence[str],
    totals: Mapping[str, str],
) -> Game:
    """The game whose sheet holds these totals, as the form has them: `totals` by field,
    "pool_0", "hill_0" and "whists_0_1" (seat 0's whists on seat 1), each as typed (empty is
    0); `reason` is the correction's, in the table's words. Raises NotSeated, or NotCreated
    with the problems of the totals and house rules."""
    problems = seat_problems(convention, seats, "0")
    if problems:
        raise NotSeated(problems)
    if overrides is None:
        raise NotCreated([])
    options, problems = resolve_options(convention, dict(overrides))
    players = [n for n in _names(seats) if n]
    entries = _entries(players, totals, problems, hill=convention != "hussar")
    if problems:
        raise NotCreated(problems)
    deals = [{"type": "correction", "reason": reason, "entries": entries}] if entries else []
    data = {
        "format": gamefile.FORMAT,
        "name": name,
        "convention": convention,
        "options": options.to_json(),
        "players": players,
        "first_dealer": players[0],
        "deals": deals,
    }
    return gamefile.load(data)


def settled(game: Game) -> Settlement:
    """The game's settlement, as every game is settled."""
    return settle(replay(game)[0])


def _entries(
    players: list[str], totals: Mapping[str, str], problems: list[Problem], *, hill: bool
) -> list[dict[str, Any]]:
    """The correction's entries: each amount typed and not 0, in the game file's notation."""
    out: list[dict[str, Any]] = []
    for i, player in enumerate(players):
        columns = [("pool", f"pool_{i}")] + ([("hill", f"hill_{i}")] if hill else [])
        for column, field in columns:
            amount = _amount(totals.get(field, ""), field, problems)
            if amount:
                out.append({"player": player, column: _written(amount)})
        for j, other in enumerate(players):
            field = f"whists_{i}_{j}"
            amount = _amount(totals.get(field, ""), field, problems) if j != i else None
            if amount:
                out.append({"player": player, "whists_on": other, "amount": _written(amount)})
    return out


def _amount(text: str, field: str, problems: list[Problem]) -> Fraction | None:
    if not (text or "").strip():
        return None
    try:
        return read_number(text, AMOUNT)
    except NumberError:
        problems.append(
            Problem(
                N_("Write an amount from −1,000,000 to 1,000,000, e.g. 10, −4 or 2.5"),
                field=field,
            )
        )
        return None


def _written(amount: Fraction) -> int | str:
    return int(amount) if amount.denominator == 1 else str(amount)
