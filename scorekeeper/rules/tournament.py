"""Club tournaments (the tournament specification): points, standings, table sizes, seating.

Pure and exact like the scoring: a tour result is a player's net in his table's settlement
(whists, a Fraction); bands turn it into tournament points; the standings order and place the
players; the sizes of a tour's tables follow from the number of players and the preferred
table size; from the second tour on the tables are filled in standings order (a Swiss system).
Nothing here reads a file or a clock; the random draws take the generator they use.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

Band = tuple[Fraction | None, Fraction]
"""(upto, factor): the part of |x| from the previous `upto` (0 at first) up to this one counts
`factor` times; `upto` None is no limit (only the last band may have it)."""

TABLE_SIZES = (3, 4)
"""The preferred table sizes a tournament may ask for."""
MIN_PLAYERS = 3
"""A tour needs at least this many players (one table of three)."""
PLACE_POINTS = ("sign",)
"""The place-points rules a tournament may score by instead of bands (season.md §5.3)."""


class TournamentError(ValueError):
    """Something the tournament rules cannot do (too few players, an unknown table size...)."""


def table_sizes(players: int, table_size: int) -> list[int]:
    """The sizes of a tour's tables for `players` players, largest first (§4).

    Tables: ceil(N / 4) for a preferred size of 4, floor(N / 3) for 3; one table fewer while
    that would leave a table of fewer than three; the sizes as equal as possible.
    """
    if table_size not in TABLE_SIZES:
        raise TournamentError(f"the table size must be 3 or 4, not {table_size}")
    if players < MIN_PLAYERS:
        raise TournamentError(f"a tour needs at least {MIN_PLAYERS} players, not {players}")
    count = -(-players // 4) if table_size == 4 else players // 3
    while count > 1 and players // count < MIN_PLAYERS:
        count -= 1
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def deals_in_tour(round_limit: int, players: int, deal_limit: int | None = None) -> int:
    """§1 tour length: a table's game lasts until every player at it has dealt `round_limit`
    times (earlier if its pools close); the deals that takes at a table of `players`, or
    `deal_limit` when that comes first (season.md §5.2: "at most 18 deals")."""
    rounds = round_limit * players
    return rounds if deal_limit is None else min(rounds, deal_limit)


def points(result: Fraction, bands: Sequence[Band]) -> Fraction:
    """A tour result converted by the bands (§2); no bands: the result itself.

    Each band counts the part of |result| between the previous `upto` and its own `factor`
    times; beyond a last `upto` that is not None nothing counts; the sign is kept.
    """
    if not bands:
        return Fraction(result)
    return _points(Fraction(result), tuple(bands))


@functools.lru_cache(maxsize=4096)
def _points(result: Fraction, bands: tuple[Band, ...]) -> Fraction:
    """points(), kept: the standings convert the same results again after every tour."""
    size = abs(result)
    total = Fraction(0)
    below = Fraction(0)
    for upto, factor in bands:
        top = size if upto is None else min(size, upto)
        if top > below:
            total += (top - below) * factor
        if upto is None or size <= upto:
            break
        below = upto
    return total if result >= 0 else -total


def place_points(results: Mapping[str, Fraction]) -> dict[str, Fraction]:
    """The Serbian league's place points of one table (season.md §5.3, rule "sign"): with
    `m` players and `place` = 1 + the players with a larger result,
    (m - place) + [x >= 0] + [x >= 0 and every other player's x < 0]."""
    m = len(results)
    out: dict[str, Fraction] = {}
    for player, x in results.items():
        place = 1 + sum(1 for y in results.values() if y > x)
        alone = x >= 0 and all(y < 0 for q, y in results.items() if q != player)
        out[player] = Fraction(m - place + (x >= 0) + alone)
    return out


def table_points(
    results: Mapping[str, Fraction], bands: Sequence[Band], rule: str | None = None
) -> dict[str, Fraction]:
    """Each player's tournament points at one table: place points when `rule` is "sign",
    else each result converted by the bands (§2)."""
    if rule == "sign":
        return place_points(results)
    return {player: points(x, bands) for player, x in results.items()}


@dataclass(frozen=True)
class Standing:
    """One line of the standings (§3)."""

    place: int
    player: str
    points: Fraction
    """The sum of the converted tour results."""
    whists: Fraction
    """The sum of the raw tour results."""
    tours: int
    """Tours played (tables sat at)."""
    table_wins: int
    """Tours in which the result was the highest at the table (tied highest all count)."""


def winners(results: Mapping[str, Fraction]) -> set[str]:
    """Who won a table: the highest result, ties all win; nobody when every result is 0."""
    if not results or all(r == 0 for r in results.values()):
        return set()
    best = max(results.values())
    return {p for p, r in results.items() if r == best}


def standings(
    roster: Sequence[str],
    tables: Iterable[Mapping[str, Fraction]],
    bands: Sequence[Band],
    rule: str | None = None,
) -> list[Standing]:
    """The standings of the roster over every table played (§3): ordered by points, whists,
    table wins (high first), then name (code points); equal on the first three share a place.
    `rule` "sign" scores each table by place points (season.md §5.3) instead of the bands.

    `tables` is each table's results (player → net whists) over all the tours played; a
    roster player who sat at no table yet has zeros. A name not on the roster is an error.
    """
    total_points, total_whists, tours, wins = _tally(roster, tables, bands, rule)

    def key(p: str) -> tuple[Fraction, Fraction, int]:
        return (total_points[p], total_whists[p], wins[p])

    order = sorted(roster, key=lambda p: (-total_points[p], -total_whists[p], -wins[p], p))
    out: list[Standing] = []
    for index, player in enumerate(order):
        if index and key(order[index - 1]) == key(player):
            place = out[-1].place
        else:
            place = index + 1
        out.append(
            Standing(
                place,
                player,
                total_points[player],
                total_whists[player],
                tours[player],
                wins[player],
            )
        )
    return out


def _tally(
    roster: Sequence[str],
    tables: Iterable[Mapping[str, Fraction]],
    bands: Sequence[Band],
    rule: str | None,
) -> tuple[dict[str, Fraction], dict[str, Fraction], dict[str, int], dict[str, int]]:
    """Each roster player's points, whists, tables played and table wins over every table;
    raises TournamentError for a name twice on the roster or one not on it."""
    known = set(roster)
    if len(known) != len(roster):
        raise TournamentError("a name appears twice in the roster")
    total_points = {p: Fraction(0) for p in roster}
    total_whists = {p: Fraction(0) for p in roster}
    tours = dict.fromkeys(roster, 0)
    wins = dict.fromkeys(roster, 0)
    for results in tables:
        for player in results:
            if player not in known:
                raise TournamentError(f"{player!r} is not on the roster")
        scored = table_points(results, bands, rule)
        for player, result in results.items():
            total_points[player] += scored[player]
            total_whists[player] += result
            tours[player] += 1
        for player in winners(results):
            wins[player] += 1
    return total_points, total_whists, tours, wins


def swiss_tables(ordered: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Fill the tables in order: table 1 takes the first sizes[0] players, and so on (§4)."""
    if sum(sizes) != len(ordered):
        raise TournamentError(f"{len(ordered)} players do not fill tables of {list(sizes)}")
    out: list[list[str]] = []
    start = 0
    for size in sizes:
        out.append(list(ordered[start : start + size]))
        start += size
    return out


def next_tour(
    standings: Sequence[Standing], active: Collection[str], table_size: int
) -> list[list[str]]:
    """The tables of the next tour by the standings (§4), for the active players only (those
    not withdrawn), each table in standings order; [] when fewer than three are left."""
    ordered = [s.player for s in standings if s.player in active]
    if len(ordered) < MIN_PLAYERS:
        return []
    return swiss_tables(ordered, table_sizes(len(ordered), table_size))


def draw_seating(players: Sequence[str], table_size: int, rng: random.Random) -> list[list[str]]:
    """Tour 1 at random: the players shuffled into tables of the §4 sizes, largest first."""
    shuffled = list(players)
    rng.shuffle(shuffled)
    return swiss_tables(shuffled, table_sizes(len(shuffled), table_size))


def draw_seats(table: Sequence[str], rng: random.Random) -> tuple[list[str], str]:
    """Within a table: the seats (clockwise order) and the first dealer, drawn at random."""
    if not table:
        raise TournamentError("a table needs players")
    seats = list(table)
    rng.shuffle(seats)
    return seats, rng.choice(seats)
