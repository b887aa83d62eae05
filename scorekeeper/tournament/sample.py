"""Random valid tournament files: for property tests, benchmarks and demos.

Tour 1 is drawn at random, later tours are seated by the standings (§4), seats and first
dealers are drawn within each table, and every table plays random legal deals until its game
ends (or, when asked, stops early as a tour closed by the director).
"""

from __future__ import annotations

import random
from typing import Any

from scorekeeper import gamefile
from scorekeeper.rules import parse_deal, replay
from scorekeeper.rules.tournament import draw_seating, draw_seats
from scorekeeper.sample import random_deal, random_options
from scorekeeper.tournament.file import FORMAT, parse_tournament

NAMES = (
    "Anna", "Boris", "Vera", "Dmitri", "Olena", "Petro", "Gleb", "Dasha", "Ivan", "Zoya",
    "Taras", "Oksana", "Yuri", "Lena", "Marko", "Nina", "Oleg", "Polina", "Roman", "Sofia",
    "Timur", "Ulyana", "Vlad", "Yana", "Жора", "Алла", "Богдан", "Ірина", "Kim", "Lev",
)  # fmt: skip

#: The two published formats, and points = whists.
BANDS: tuple[list[list[Any]], ...] = (
    [[200, "1"], [650, "1/10"], [None, "0"]],
    [[50, "1"], [100, "1/2"], [None, "1/10"]],
    [],
)


def random_tournament(
    rng: random.Random,
    *,
    players: int = 9,
    tours: int = 3,
    table_size: int | None = None,
    convention: str | None = None,
    bands: list[list[Any]] | None = None,
    round_limit: int | None = None,
    withdrawals: int = 0,
    max_deals: int | None = None,
    early: float = 0.0,
    joins: int = 0,
) -> dict[str, Any]:
    """A valid tournament file: `players` players, up to `tours` tours (fewer when too few
    are left), `withdrawals` players withdrawn between tours, `joins` more players joining
    late between tours (reading 12; the last may wait for a tour not seated), each table
    playing until its game ends (at most `max_deals` deals; with probability `early` a
    table stops sooner)."""
    data = _head(rng, players, table_size, convention, bands, round_limit)
    left = withdrawals
    late = _late_names(players, joins)
    if late:
        data["joined"] = []
    for number in range(1, tours + 1):
        tournament = parse_tournament(data, max_deals=gamefile.FORMAT_MAX_DEALS)
        active = tournament.active()
        if len(active) < 3:
            break
        if number == 1:
            seating = draw_seating(active, data["table_size"], rng)
        else:
            seating = tournament.next_tour()
        tables = []
        for names in seating:
            seats, dealer = draw_seats(names, rng)
            tables.append(_table(rng, data, seats, dealer, max_deals, early))
        data["tours"].append({"tables": tables})
        if left and number < tours and len(active) > 3:
            data["withdrawn"].append({"player": rng.choice(active), "after_tour": number})
            left -= 1
        _join_late(rng, data, late, number)
    return data


def _head(
    rng: random.Random,
    players: int,
    table_size: int | None,
    convention: str | None,
    bands: list[list[Any]] | None,
    round_limit: int | None,
) -> dict[str, Any]:
    """A tournament file before its first tour: its name, rules, table size, scale and the
    players in a random order, what was not given drawn at random."""
    convention = convention or rng.choice(("sochi", "leningrad", "rostov"))
    options = random_options(rng, convention)
    options["round_limit"] = round_limit or rng.choice((1, 2))
    roster = list(NAMES[:players]) if players <= len(NAMES) else [f"P{i}" for i in range(players)]
    rng.shuffle(roster)
    return {
        "format": FORMAT,
        "name": f"Cup {rng.randint(1, 99)}",
        "convention": convention,
        "options": options,
        "table_size": table_size or rng.choice((3, 4)),
        "scale": {"bands": bands if bands is not None else rng.choice(BANDS)},
        "players": roster,
        "withdrawn": [],
        "tours": [],
    }


def _join_late(rng: random.Random, data: dict[str, Any], late: list[str], played: int) -> None:
    """Now and then, one of the `late` names joins before the tour after `played` (reading
    12); nothing is drawn when no one is left to join."""
    if late and rng.random() < 0.7:
        name = late.pop()
        data["players"].append(name)
        data["joined"].append({"player": name, "before_tour": played + 1})


def _late_names(players: int, joins: int) -> list[str]:
    """Names for the late players, none on the roster of `players` names."""
    if players + joins <= len(NAMES):
        return list(NAMES[players : players + joins])
    return [f"L{i}" for i in range(joins)]


def _table(
    rng: random.Random,
    data: dict[str, Any],
    seats: list[str],
    dealer: str,
    max_deals: int | None,
    early: float,
) -> dict[str, Any]:
    """One table's game, played by random legal deals."""
    table: dict[str, Any] = {"players": seats, "first_dealer": dealer, "finished": False}
    game = gamefile.load(
        {
            "format": gamefile.FORMAT,
            "convention": data["convention"],
            "options": data["options"],
            **table,
        }
    )
    sheet, _ = replay(game)
    deals: list[dict[str, Any]] = []
    stop = max_deals if max_deals is not None else gamefile.MAX_DEALS
    if early and rng.random() < early:
        stop = rng.randint(0, stop)
    while not sheet.finished and len(deals) < stop:
        raw = random_deal(rng, sheet, corrections=False)
        deal, problems = parse_deal(raw, game.players)
        assert deal is not None and not problems, problems
        sheet, problems = sheet.plus(deal)
        assert not problems, problems
        deals.append(raw)
    table["deals"] = deals
    return table
