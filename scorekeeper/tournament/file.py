"""The tournament file (docs/tournament.md): read and check it, score it, write it back.

A tournament file holds the roster, the rules every table plays by (convention, options,
table size, bands), the withdrawals and every tour's tables; each table is a game (the game
file's object without `format`, `convention` and `options`). Reading it checks everything the
specification lists and names each problem with its tour and table ("tour 2, table 1: deal 3:
tricks add up to 11, not 10"); each table's game is checked exactly as a game file is.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from scorekeeper import gamefile
from scorekeeper.rules import (
    Game,
    InvalidGame,
    Options,
    Problem,
    Sheet,
    deal_to_dict,
    find_convention,
    replay,
    resolve_options,
    score,
    settle,
)
from scorekeeper.rules.deals import Deal
from scorekeeper.rules.options import Convention
from scorekeeper.rules.problems import N_, as_written
from scorekeeper.rules.text import bad_character, name_key, normalize_all
from scorekeeper.rules.tournament import (
    MIN_PLAYERS,
    PLACE_POINTS,
    TABLE_SIZES,
    Band,
    Standing,
    next_tour,
    standings,
    swiss_tables,
    table_points,
    table_sizes,
)

FORMAT = "scorekeeper-tournament/1"
TOP_KEYS = (
    "format",
    "name",
    "convention",
    "options",
    "table_size",
    "scale",
    "players",
    "withdrawn",
    "joined",
    "tours",
)
REQUIRED_KEYS = ("format", "convention", "options", "table_size", "players")
TABLE_KEYS = ("name", "players", "first_dealer", "finished", "deals")
MAX_PLAYERS = 200
"""The most players one tournament may hold (clubs play with 9 to 60)."""
MAX_TOURS = 50
MAX_BANDS = 20
_FACTOR_DECIMAL = re.compile(r"\+?([0-9]{1,12})(?:[.,]([0-9]{1,12}))?")
_SURROGATE = re.compile("[\ud800-\udfff]")
_FACTOR_RATIO = re.compile(r"\+?([0-9]{1,12})/([0-9]{1,12})")


# -- the tournament --------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One table of a tour: its game (players clockwise, first dealer, deals, finished, name),
    played by the tournament's convention and options."""

    game: Game

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seating (clockwise) order."""
        return self.game.players

    @property
    def first_dealer(self) -> str:
        """Who dealt first."""
        return self.game.first_dealer

    @property
    def finished(self) -> bool:
        """The table's `finished` flag as kept in the file (finished by hand)."""
        return self.game.finished

    @property
    def name(self) -> str:
        """The table's name, if it has one."""
        return self.game.name

    @property
    def deals(self) -> tuple[Deal, ...]:
        """The table's deal log."""
        return self.game.deals

    @cached_property
    def sheet(self) -> Sheet:
        """The table's pulka, replayed."""
        return score(self.game)

    @property
    def over(self) -> bool:
        """True when the table has finished: by hand, by its end rule or its rounds."""
        return self.sheet.finished

    @cached_property
    def results(self) -> dict[str, Fraction]:
        """Each player's tour result: his net in the table's settlement (settled now if the
        table has not finished), in seating order; they sum to zero."""
        return dict(settle(self.sheet).net)


@dataclass
class Tournament:
    """A tournament as its file says: rules, roster, withdrawals and the tours played."""

    name: str
    convention: str
    options: dict[str, Any]
    """The options as the file writes them (house rules over the convention's preset)."""
    table_size: int
    bands: list[Band]
    players: list[str]
    withdrawn: dict[str, int] = field(default_factory=dict)
    """player → the tour after which he withdrew."""
    joined: dict[str, int] = field(default_factory=dict)
    """player → the tour before which he joined (a late player; reading 12)."""
    tours: list[list[Table]] = field(default_factory=list)
    """Every tour played (the last may be in play), each its tables in table order."""
    place_points: str | None = None
    """`scale.place_points`: "sign" scores each table by place points (season.md §5.3)
    instead of the bands (then empty); None: by the bands."""

    @property
    def resolved(self) -> Options:
        """Every option of the tables' games, resolved."""
        options, problems = resolve_options(self.convention, self.options)
        if problems:
            raise ValueError("; ".join(str(p) for p in problems))
        return options

    def active(self, tour: int | None = None) -> list[str]:
        """The roster players who sit in tour `tour` (1-based; None: the next tour), in roster
        order: everyone but those who withdrew before it or join after it."""
        number = len(self.tours) + 1 if tour is None else tour
        return [p for p in self.players if _sits(p, number, self.withdrawn, self.joined)]

    def standings(self, after: int | None = None) -> list[Standing]:
        """The standings after the first `after` tours (None: every tour in the file)."""
        tours = self.tours if after is None else self.tours[:after]
        return standings(
            self.players,
            (table.results for tour in tours for table in tour),
            self.bands,
            self.place_points,
        )

    def points(self, table: Table) -> dict[str, Fraction]:
        """Each player's tournament points at one table (bands or place points)."""
        return table_points(table.results, self.bands, self.place_points)

    def next_tour(self) -> list[list[str]]:
        """The next tour's tables by the standings, players sorted by standings at each;
        [] when fewer than three players are left."""
        return next_tour(self.standings(), set(self.active()), self.table_size)


def _sits(player: str, tour: int, withdrawn: dict[str, int], joined: dict[str, int]) -> bool:
    """Whether a roster player sits in tour `tour`: joined by then, not withdrawn before."""
    return joined.get(player, 1) <= tour <= withdrawn.get(player, tour)


def table_results(table: Table) -> dict[str, Fraction]:
    """The nets of a table's settlement (settled now if unfinished), as `score --settle`."""
    return table.results


# -- problems --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Located:
    """One problem of a tournament file and where it is: a tour, a table of it, or neither."""

    problem: Problem
    tour: int | None = None
    table: int | None = None

    def __str__(self) -> str:
        if self.tour is None:
            return str(self.problem)
        if self.table is None:
            return f"tour {self.tour}: {self.problem}"
        return f"tour {self.tour}, table {self.table}: {self.problem}"


class InvalidTournament(ValueError):
    """A tournament file that cannot be read or scored: `problems` says every reason, one
    line each ("tour 2, table 1: …", "tour 2: …" or a problem of the whole file)."""

    def __init__(self, located: list[Located]) -> None:
        self.located = located
        self.problems: list[str] = [str(p) for p in located]
        super().__init__("\n".join(self.problems))


def _nested_too_deeply() -> InvalidTournament:
    return InvalidTournament([Located(Problem(N_("not valid JSON: nested too deeply")))])


NESTED_TOO_DEEPLY = _nested_too_deeply()
"""What a file nested deeper than Python can read is told (its problems, in words)."""


class _Notes:
    """The problems found so far: `bad(template, tour=, table=, **values)` notes one."""

    def __init__(self) -> None:
        self.found: list[Located] = []

    def __call__(
        self,
        template: str,
        *,
        tour: int | None = None,
        table: int | None = None,
        where: str | None = None,
        **params: Any,
    ) -> None:
        self.found.append(Located(Problem(template, params, where), tour, table))

    def add(self, located: Located) -> None:
        """Note a problem found elsewhere (a table game's), placed."""
        self.found.append(located)


# -- reading ---------------------------------------------------------------------------------


def loads(text: str | bytes, *, max_deals: int = gamefile.MAX_DEALS) -> Tournament:
    """Read a tournament file's text; raises InvalidTournament naming every problem."""
    try:
        data = json.loads(text)
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, a 5000-digit number
        raise InvalidTournament(
            [Located(Problem(N_("not valid JSON: {error}"), {"error": str(error)}))]
        ) from None
    except RecursionError:
        raise InvalidTournament(
            [Located(Problem(N_("not valid JSON: nested too deeply")))]
        ) from None
    twice = written_twice(text)
    try:
        tournament = parse_tournament(data, max_deals=max_deals)
    except InvalidTournament as invalid:
        raise InvalidTournament(twice + invalid.located) from None
    if twice:
        raise InvalidTournament(twice)
    return tournament


def written_twice(text: str | bytes) -> list[Located]:
    """Every key the file's text writes twice in one object, at its tour (JSON would keep
    the last one only); the text is known to be JSON."""
    return [
        Located(Problem(p.template, p.params, p.field), p.deal)
        for p in gamefile.written_twice(text, "tours")
    ]


def refuse_twice(text: str | bytes) -> None:
    """Raise InvalidTournament if the file's text writes a key twice in one object."""
    twice = written_twice(text)
    if twice:
        raise InvalidTournament(twice)


def parse_tournament(data: object, *, max_deals: int = gamefile.MAX_DEALS) -> Tournament:
    """Check a parsed tournament file; raises InvalidTournament naming every problem."""
    bad = _Notes()
    found = bad.found
    if isinstance(data, dict) and data.get("format") == gamefile.FORMAT:
        bad(N_("this is a game file, not a tournament file"))  # not six missing keys
        raise InvalidTournament(found)
    data = _normalized(data, bad)
    _check_keys(data, bad)
    name = _name(data.get("name", ""), bad)
    convention = _convention(data.get("convention"), bad) if "convention" in data else None
    options = _options(data.get("options"), convention, bad) if "options" in data else None
    table_size = _table_size(data["table_size"], bad) if "table_size" in data else None
    bands = _scale(data.get("scale", {}), bad)
    rule = _place_points(data.get("scale", {}), bands, bad)
    roster = _roster(data["players"], bad) if "players" in data else None
    raw_tours = _raw_tours(data.get("tours", []), bad)
    played = None if raw_tours is None else len(raw_tours)
    withdrawn = _withdrawn(data.get("withdrawn", []), roster, played, bad)
    joined = _joined(data.get("joined", []), roster, played, withdrawn, bad)
    presence = None if withdrawn is None or joined is None else _Presence(withdrawn, joined)
    tours: list[_Tour] = []
    if raw_tours is not None:
        rules = None if convention is None or options is None else (convention, options)
        for number, raw in enumerate(raw_tours, start=1):
            tours.append(_tour(number, raw, rules, roster, presence, max_deals, bad))
    if roster is not None and table_size is not None and presence is not None:
        scoring = None if bands is None else (bands, rule)
        _check_seating(tours, roster, presence, table_size, scoring, bad)
    if found or roster is None or convention is None or options is None or table_size is None:
        if not found:  # pragma: no cover - every None above noted its problem
            bad(N_("the tournament cannot be read"))
        raise InvalidTournament(sorted(found, key=lambda p: (p.tour or 0, p.table or 0)))
    assert bands is not None and presence is not None
    return Tournament(
        name=name,
        convention=convention,
        options=options,
        table_size=table_size,
        bands=bands,
        players=roster,
        withdrawn=presence.withdrawn,
        joined=presence.joined,
        tours=[[t for t in tour.tables if t is not None] for tour in tours],
        place_points=rule,
    )


def _normalized(data: object, bad: _Notes) -> dict[str, Any]:
    """The file's object with every text in NFC; raises InvalidTournament when it is not an
    object, holds a lone surrogate or is nested too deeply."""
    if not isinstance(data, dict):
        raise InvalidTournament([Located(Problem(N_("a tournament file must be a JSON object")))])
    _check_text(data, bad)
    if bad.found:
        raise InvalidTournament(bad.found)
    try:
        data = normalize_all(data)
    except RecursionError:
        raise InvalidTournament(
            [Located(Problem(N_("not valid JSON: nested too deeply")))]
        ) from None
    assert isinstance(data, dict)
    return data


def _check_keys(data: dict[str, Any], bad: _Notes) -> None:
    """No unknown top-level key, every required one, and this reader's format."""
    for key in data:
        if key not in TOP_KEYS:
            bad(N_("unknown key {key}"), key=json.dumps(key, ensure_ascii=False))
    for key in REQUIRED_KEYS:
        if key not in data:
            bad(N_("missing key {key}"), key=json.dumps(key))
    if "format" in data and data["format"] != FORMAT:
        bad(
            N_("unknown format {format} (this reader knows {known})"),
            format=_show(data["format"]),
            known=FORMAT,
        )


def _raw_tours(raw: Any, bad: _Notes) -> list[Any] | None:
    """`tours` as written: a list of at most MAX_TOURS (None when it is not)."""
    if not isinstance(raw, list):
        bad(N_("tours must be a list"))
        return None
    if len(raw) > MAX_TOURS:
        bad(
            N_("too many tours: {count} (a tournament holds at most {limit})"),
            count=len(raw),
            limit=MAX_TOURS,
        )
        return None
    return raw


def _show(value: Any) -> str:
    """A value for a message (rules/problems.as_written)."""
    return as_written(value)


def _check_text(data: dict[Any, Any], bad: _Notes) -> None:
    """Refuse a text holding a lone surrogate (a "\\ud800" escape): no name or message could
    ever be written out with it. Named by tour and table when it is inside one."""
    places: list[tuple[Any, int | None, int | None]] = []
    for key, value in data.items():
        places.append((key, None, None))
        tours = value if key == "tours" and isinstance(value, list) else None
        for t, tour in enumerate(tours or (), start=1):
            tables = tour.get("tables") if isinstance(tour, dict) else None
            if not isinstance(tables, list):
                places.append((tour, t, None))
                continue
            places.extend(((k, item), t, None) for k, item in tour.items() if k != "tables")
            places.extend((table, t, n) for n, table in enumerate(tables, start=1))
        if tours is None:
            places.append((value, None, None))
    for value, tour, table in places:
        char = _surrogate(value)
        if char is not None:
            bad(N_("a text holds {char}: remove it"), tour=tour, table=table, char=char)


def _surrogate(value: Any) -> str | None:
    """The first lone surrogate in any text of a parsed JSON value, described, or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if (found := _SURROGATE.search(item)) is not None:
                return f"U+{ord(found.group()):04X} (a lone surrogate)"
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
    return None


def _name(raw: Any, bad: _Notes) -> str:
    if not isinstance(raw, str):
        bad(N_("name must be text"), where="name")
        return ""
    if len(raw) > gamefile.MAX_NAME:
        bad(
            N_("name is too long (at most {limit} characters)"),
            where="name",
            limit=gamefile.MAX_NAME,
        )
    elif (char := bad_character(raw)) is not None:
        bad(N_("the tournament's name holds {char}: remove it"), where="name", char=char)
    return raw


def _convention(raw: Any, bad: _Notes) -> str | None:
    convention = find_convention(raw)
    if convention == Convention.HUSSAR:
        bad(
            N_("hussar is not a tournament convention (sochi, leningrad, rostov or fspr)"),
            where="convention",
        )
        return None
    if convention is None:
        bad(
            N_("unknown convention {name} (sochi, leningrad, rostov or fspr)"),
            where="convention",
            name=_show(raw),
        )
    return convention


def _options(raw: Any, convention: str | None, bad: _Notes) -> dict[str, Any] | None:
    """The options as written; every one checked as a game's, and a round limit required."""
    if not isinstance(raw, dict):
        bad(N_("options must be an object"), where="options")
        return None
    ok = True
    if convention is not None:
        _, problems = resolve_options(convention, raw)
        for problem in problems:
            bad(problem.template, where=problem.field, **problem.params)
        ok = not problems
    if raw.get("round_limit") is None:
        bad(
            N_(
                "options.round_limit is required: the tour's length in rounds (every player "
                "deals that many times)"
            ),
            where="options.round_limit",
        )
        ok = False
    return dict(raw) if ok else None


def _table_size(raw: Any, bad: _Notes) -> int | None:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in TABLE_SIZES:
        bad(N_("table_size must be 3 or 4, not {value}"), where="table_size", value=_show(raw))
        return None
    return raw


def _scale(raw: Any, bad: _Notes) -> list[Band] | None:
    """The bands of `scale` (§2): [[upto, factor], ...], upto a number strictly increasing
    from above 0, only the last may be null; a factor a string or a whole number, not
    negative."""
    if not isinstance(raw, dict):
        bad(N_("scale must be an object"), where="scale")
        return None
    for key in raw:
        if key not in ("bands", "place_points"):
            bad(N_("unknown key {key}"), where="scale", key=_show(f"scale.{key}"))
    raw_bands = raw.get("bands", [])
    if not isinstance(raw_bands, list):
        bad(N_("scale.bands must be a list of [upto, factor]"), where="scale.bands")
        return None
    if len(raw_bands) > MAX_BANDS:
        bad(N_("scale.bands: at most {limit} bands"), where="scale.bands", limit=MAX_BANDS)
        return None
    return _bands(raw_bands, bad)


def _bands(raw_bands: list[Any], bad: _Notes) -> list[Band] | None:
    """Each band of `scale.bands` read as (upto, factor), every problem noted; None if any
    band is wrong."""
    bands: list[Band] = []
    ok = True
    previous: Fraction = Fraction(0)
    for n, band in enumerate(raw_bands, start=1):
        if not isinstance(band, list) or len(band) != 2:
            bad(N_("scale.bands: band {n} must be [upto, factor]"), where="scale.bands", n=n)
            ok = False
            continue
        upto = _upto(band[0], n, n == len(raw_bands), bad)
        if upto is None and (band[0] is not None or n < len(raw_bands)):
            ok = False  # not a number, or a null before the last band (noted)
        if upto is not None and upto <= previous:
            if previous == 0:
                bad(
                    N_("scale.bands: band {n}: upto must be more than 0, not {value}"),
                    where="scale.bands",
                    n=n,
                    value=_show(band[0]),
                )
            else:
                bad(
                    N_("scale.bands: band {n}: upto {value} is not above the band before"),
                    where="scale.bands",
                    n=n,
                    value=_show(band[0]),
                )
            ok = False
        if upto is not None:
            previous = max(previous, upto)
        factor = _factor(band[1], n, bad)
        if factor is None:
            ok = False
            continue
        bands.append((upto, factor))
    return bands if ok else None


def _place_points(raw: Any, bands: list[Band] | None, bad: _Notes) -> str | None:
    """`scale.place_points`: "sign" (season.md §5.3) or left out (null); the bands must be
    empty beside it."""
    rule = raw.get("place_points") if isinstance(raw, dict) else None
    if rule is None:
        return None
    if rule not in PLACE_POINTS:
        bad(
            N_('scale.place_points must be "sign" or left out, not {value}'),
            where="scale.place_points",
            value=_show(rule),
        )
        return None
    if bands:
        bad(
            N_("scale: place points and bands do not go together: leave the bands empty"),
            where="scale.place_points",
        )
    return str(rule)


def _upto(raw: Any, n: int, last: bool, bad: _Notes) -> Fraction | None:
    if raw is None:
        if not last:
            bad(
                N_("scale.bands: band {n}: only the last band may have no upper limit (null)"),
                where="scale.bands",
                n=n,
            )
        return None
    value: Fraction | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = Fraction(raw)
    elif isinstance(raw, float) and math.isfinite(raw):
        value = Fraction(repr(raw))
    if value is None:
        bad(
            N_("scale.bands: band {n}: upto must be a number or null, not {value}"),
            where="scale.bands",
            n=n,
            value=_show(raw),
        )
    return value


def _factor(raw: Any, n: int, bad: _Notes) -> Fraction | None:
    """A factor: a whole number or a string ("1/10", "0.5"), exact, not negative."""
    value: Fraction | None = None
    negative = False
    if isinstance(raw, int) and not isinstance(raw, bool):
        value, negative = Fraction(raw), raw < 0
    elif isinstance(raw, str) and len(raw) <= 40:
        text = raw.strip().replace("\u2212", "-")
        if text.startswith("-"):
            negative, text = True, text[1:]
        if (match := _FACTOR_DECIMAL.fullmatch(text)) is not None:
            whole, part = match.groups()
            value = Fraction(int(whole + (part or "")), 10 ** len(part or ""))
        elif (match := _FACTOR_RATIO.fullmatch(text)) is not None and int(match.group(2)):
            value = Fraction(int(match.group(1)), int(match.group(2)))
    if value is None:
        bad(
            N_(
                'scale.bands: band {n}: a factor is a whole number or a text like "1/10" or '
                '"0.5", not {value}'
            ),
            where="scale.bands",
            n=n,
            value=_show(raw),
        )
        return None
    if negative and value != 0:
        bad(
            N_("scale.bands: band {n}: a factor may not be negative, not {value}"),
            where="scale.bands",
            n=n,
            value=_show(raw),
        )
        return None
    return value


def _roster(raw: Any, bad: _Notes) -> list[str] | None:
    """The roster: unique names by a game's name rules, at least three."""
    if not isinstance(raw, list):
        bad(N_("players must be a list of names"), where="players")
        return None
    if len(raw) > MAX_PLAYERS:
        bad(
            N_("too many players: {count} (a tournament holds at most {limit})"),
            where="players",
            count=len(raw),
            limit=MAX_PLAYERS,
        )
        return None
    names: list[str] = []
    keys: dict[str, str] = {}  # name_key -> the name as first written
    ok = True
    for n, name in enumerate(raw, start=1):
        if _roster_name(n, name, keys, bad):
            names.append(name)
            keys[name_key(name)] = name
        else:
            ok = False
    if ok and len(names) < MIN_PLAYERS:
        bad(
            N_("a tournament needs at least {least} players, not {count}"),
            where="players",
            least=MIN_PLAYERS,
            count=len(names),
        )
        ok = False
    return names if ok else None


def _roster_name(n: int, name: Any, keys: dict[str, str], bad: _Notes) -> bool:
    """Whether the roster's `n`th name is a good name, unlike those before it (`keys`);
    notes why not."""
    if not isinstance(name, str) or not name.strip():
        bad(N_("player {n}: a name must be non-empty text"), where="players", n=n)
    elif len(name) > gamefile.MAX_PLAYER_NAME:
        bad(
            N_("player {n}: the name is too long (at most {limit} characters)"),
            where="players",
            n=n,
            limit=gamefile.MAX_PLAYER_NAME,
        )
    elif (char := bad_character(name)) is not None:
        bad(N_("player {n}: the name holds {char}: remove it"), where="players", n=n, char=char)
    elif keys.get(name_key(name)) == name:
        bad(
            N_("player {name} appears twice"),
            where="players",
            name=json.dumps(name, ensure_ascii=False),
        )
    elif name_key(name) in keys:
        bad(
            N_(
                "player {name} is the same name as {other} (names that differ only in "
                "capitals or width are one player)"
            ),
            where="players",
            name=json.dumps(name, ensure_ascii=False),
            other=json.dumps(keys[name_key(name)], ensure_ascii=False),
        )
    else:
        return True
    return False


def _withdrawn(
    raw: Any, roster: list[str] | None, played: int | None, bad: _Notes
) -> dict[str, int] | None:
    """`withdrawn`: [{"player": name, "after_tour": k}], k from 1 to the tours played."""
    if not isinstance(raw, list):
        bad(N_('withdrawn must be a list of {{"player": …, "after_tour": …}}'), where="withdrawn")
        return None
    out: dict[str, int] = {}
    ok = True
    for n, entry in enumerate(raw, start=1):
        if _withdrawal(n, entry, roster, played, out, bad):
            out[entry["player"]] = entry["after_tour"]
        else:
            ok = False
    return out if ok and roster is not None and played is not None else None


@dataclass(frozen=True)
class _Listed:
    """One of the roster's lists of changes (`withdrawn`, `joined`): its key, the key of its
    tour, and what is said of an entry that is not good."""

    where: str
    tour: str
    shape: str
    off_roster: str
    twice: str
    not_whole: str


_WITHDRAWN = _Listed(
    "withdrawn",
    "after_tour",
    N_('withdrawal {n} must be {{"player": …, "after_tour": …}} and nothing else'),
    N_("withdrawal {n}: {name} is not on the roster"),
    N_("withdrawal {n}: {name} has withdrawn already"),
    N_("withdrawal {n}: after_tour must be a whole number, not {value}"),
)
_JOINED = _Listed(
    "joined",
    "before_tour",
    N_('late player {n} must be {{"player": …, "before_tour": …}} and nothing else'),
    N_("late player {n}: {name} is not on the roster"),
    N_("late player {n}: {name} has joined already"),
    N_("late player {n}: before_tour must be a whole number, not {value}"),
)


def _listed(
    n: int, entry: Any, roster: list[str] | None, out: dict[str, int], kind: _Listed, bad: _Notes
) -> tuple[str, int] | None:
    """The `n`th entry of a roster's list as (player, tour), when it has its shape, names a
    roster player not listed already (`out`) and a whole tour; else None, noting why."""
    if not isinstance(entry, dict) or set(entry) != {"player", kind.tour}:
        bad(kind.shape, where=kind.where, n=n)
        return None
    player, tour = entry["player"], entry[kind.tour]
    if not isinstance(player, str) or (roster is not None and player not in roster):
        bad(kind.off_roster, where=kind.where, n=n, name=_show(player))
        return None
    if player in out:
        bad(kind.twice, where=kind.where, n=n, name=_show(player))
        return None
    if isinstance(tour, bool) or not isinstance(tour, int):
        bad(kind.not_whole, where=kind.where, n=n, value=_show(tour))
        return None
    return player, tour


def _withdrawal(
    n: int,
    entry: Any,
    roster: list[str] | None,
    played: int | None,
    out: dict[str, int],
    bad: _Notes,
) -> bool:
    """Whether the `n`th withdrawal is good: a roster player not withdrawn already (`out`),
    after a tour played; notes why not."""
    listed = _listed(n, entry, roster, out, _WITHDRAWN, bad)
    if listed is None:
        return False
    player, after = listed
    if played is not None and not 1 <= after <= played:
        _after_tour_unplayed(n, player, after, played, bad)
        return False
    return True


def _after_tour_unplayed(n: int, player: str, after: int, played: int, bad: _Notes) -> None:
    """Note a withdrawal after a tour not played (before the first: off the roster instead)."""
    if played == 0:
        bad(
            N_("withdrawal {n}: no tour has been played; take {name} off the roster instead"),
            where="withdrawn",
            n=n,
            name=_show(player),
        )
    else:
        bad(
            N_(
                "withdrawal {n}: after_tour must be from 1 to {played} (the tours "
                "played), not {value}"
            ),
            where="withdrawn",
            n=n,
            played=played,
            value=_show(after),
        )


def _joined(
    raw: Any,
    roster: list[str] | None,
    played: int | None,
    withdrawn: dict[str, int] | None,
    bad: _Notes,
) -> dict[str, int] | None:
    """`joined`: [{"player": name, "before_tour": k}], k from 2 to the tours played + 1 (a
    late player, reading 12); one who also withdrew leaves after joining."""
    if not isinstance(raw, list):
        bad(N_('joined must be a list of {{"player": …, "before_tour": …}}'), where="joined")
        return None
    out: dict[str, int] = {}
    ok = True
    for n, entry in enumerate(raw, start=1):
        if _joining(n, entry, roster, played, out, bad):
            player, before = entry["player"], entry["before_tour"]
            after = (withdrawn or {}).get(player)
            if after is not None and after < before:
                bad(
                    N_(
                        "late player {n}: {name} withdrew after tour {after}, before joining "
                        "before tour {before}"
                    ),
                    where="joined",
                    n=n,
                    name=_show(player),
                    after=after,
                    before=before,
                )
                ok = False
            out[player] = before
        else:
            ok = False
    return out if ok and roster is not None and played is not None else None


def _joining(
    n: int,
    entry: Any,
    roster: list[str] | None,
    played: int | None,
    out: dict[str, int],
    bad: _Notes,
) -> bool:
    """Whether the `n`th late player is good: a roster player not joined already (`out`),
    before a tour from 2 to the one after the last played; notes why not."""
    listed = _listed(n, entry, roster, out, _JOINED, bad)
    if listed is None:
        return False
    player, before = listed
    if played is not None and not 2 <= before <= played + 1:
        _before_tour_unplayed(n, player, before, played, bad)
        return False
    return True


def _before_tour_unplayed(n: int, player: str, before: int, played: int, bad: _Notes) -> None:
    """Note a late player joining before tour 1 (that is the roster) or after a tour that is
    not the next one."""
    if before == 1:
        bad(
            N_(
                "late player {n}: {name} joins before tour 1, which is the same as being on the"
                " roster: leave the entry out"
            ),
            where="joined",
            n=n,
            name=_show(player),
        )
    elif played == 0:
        bad(
            N_(
                "late player {n}: no tour has been played, so {name} is not late: leave the "
                "entry out"
            ),
            where="joined",
            n=n,
            name=_show(player),
        )
    else:
        bad(
            N_(
                "late player {n}: before_tour must be from 2 to {last} (the tour after the "
                "last played), not {value}"
            ),
            where="joined",
            n=n,
            last=played + 1,
            value=_show(before),
        )


@dataclass(frozen=True)
class _Presence:
    """Who sits in which tour: the withdrawals (player → the tour after which he left) and
    the late players (player → the tour before which he joined)."""

    withdrawn: dict[str, int]
    joined: dict[str, int]

    def sits(self, player: str, tour: int) -> bool:
        """Whether a roster player sits in tour `tour`."""
        return _sits(player, tour, self.withdrawn, self.joined)


@dataclass
class _Tour:
    """A tour as read: each table's names as written (None when not a list of names) and its
    game (None when it cannot be read; its problems are noted)."""

    seatings: list[list[str] | None]
    tables: list[Table | None]

    @property
    def readable(self) -> bool:
        """Every table's names could be read."""
        return bool(self.seatings) and all(s is not None for s in self.seatings)

    @property
    def scored(self) -> bool:
        """Every table's game could be read (so its results are known)."""
        return bool(self.tables) and all(t is not None for t in self.tables)


def _tour(
    number: int,
    raw: Any,
    rules: tuple[str, dict[str, Any]] | None,
    roster: list[str] | None,
    presence: _Presence | None,
    max_deals: int,
    bad: _Notes,
) -> _Tour:
    """One tour's tables."""
    tour = _Tour([], [])
    if not isinstance(raw, dict) or "tables" not in raw:
        bad(N_('a tour must be an object {{"tables": [...]}}'), tour=number)
        return tour
    for key in raw:
        if key != "tables":
            bad(N_("unknown key {key}"), tour=number, key=json.dumps(key, ensure_ascii=False))
    raw_tables = raw["tables"]
    if not isinstance(raw_tables, list) or not raw_tables:
        bad(N_("tables must be a list of at least one table"), tour=number)
        return tour
    if len(raw_tables) > MAX_PLAYERS // MIN_PLAYERS:
        bad(N_("too many tables: {count}"), tour=number, count=len(raw_tables))
        return tour
    for n, item in enumerate(raw_tables, start=1):
        seating, table = _table(number, n, item, rules, roster, presence, max_deals, bad)
        tour.seatings.append(seating)
        tour.tables.append(table)
    return tour


def _table(
    tour: int,
    number: int,
    raw: Any,
    rules: tuple[str, dict[str, Any]] | None,
    roster: list[str] | None,
    presence: _Presence | None,
    max_deals: int,
    bad: _Notes,
) -> tuple[list[str] | None, Table | None]:
    """One table: its names checked against the roster, its game checked as a game file."""
    if not isinstance(raw, dict):
        bad(N_("a table must be a game object"), tour=tour, table=number)
        return None, None
    ok = True
    for key in raw:
        if key not in TABLE_KEYS:
            bad(
                N_("unknown key {key}"),
                tour=tour,
                table=number,
                key=json.dumps(key, ensure_ascii=False),
            )
            ok = False
    if "players" not in raw:
        bad(N_("missing key {key}"), tour=tour, table=number, key=json.dumps("players"))
        return None, None
    raw_names = raw["players"]
    seating: list[str] | None = None
    if isinstance(raw_names, list) and all(isinstance(n, str) for n in raw_names):
        seating = list(raw_names)
        if roster is not None:
            ok = _seated(tour, number, seating, roster, presence, bad) and ok
    if rules is None:
        return seating, None
    table = _table_game(tour, number, raw, rules, max_deals, bad)
    return seating, table if ok else None


def _seated(
    tour: int,
    number: int,
    seating: list[str],
    roster: list[str],
    presence: _Presence | None,
    bad: _Notes,
) -> bool:
    """Whether everyone at a table may sit in this tour (on the roster, not withdrawn before
    it, not joining after it); notes who may not."""
    ok = True
    for name in seating:
        if name not in roster:
            bad(N_("{name} is not on the roster"), tour=tour, table=number, name=_show(name))
            ok = False
        elif presence and presence.withdrawn.get(name, tour) < tour:
            bad(
                N_("{name} withdrew after tour {after} and sits in no later tour"),
                tour=tour,
                table=number,
                name=_show(name),
                after=presence.withdrawn[name],
            )
            ok = False
        elif presence and presence.joined.get(name, 1) > tour:
            bad(
                N_("{name} joins before tour {before} and sits in no earlier tour"),
                tour=tour,
                table=number,
                name=_show(name),
                before=presence.joined[name],
            )
            ok = False
    return ok


def _table_game(
    tour: int,
    number: int,
    raw: dict[str, Any],
    rules: tuple[str, dict[str, Any]],
    max_deals: int,
    bad: _Notes,
) -> Table | None:
    """A table's game, read and replayed as a game file with the tournament's rules (None
    when it is invalid; its problems are noted, placed at the table)."""
    convention, options = rules
    game_data = {
        "format": gamefile.FORMAT,
        "convention": convention,
        "options": options,
        **{k: v for k, v in raw.items() if k in TABLE_KEYS},
    }
    try:
        # Read without replaying, then replay once here: the sheet is kept for the results.
        game = gamefile.load(game_data, check=False, max_deals=max_deals)
    except InvalidGame as invalid:
        for problem in invalid.problems:
            bad.add(Located(problem, tour, number))
        return None
    sheet, replay_problems = replay(game)
    for problem in sorted(replay_problems, key=lambda p: p.deal or 0):
        bad.add(Located(problem, tour, number))
    if replay_problems:
        return None
    table = Table(game)
    table.__dict__["sheet"] = sheet  # the cached_property, filled from the replay above
    return table


def _check_seating(
    tours: list[_Tour],
    roster: list[str],
    presence: _Presence,
    table_size: int,
    scoring: tuple[list[Band], str | None] | None,
    bad: _Notes,
) -> None:
    """Every tour seats each active player once, at tables of the §4 sizes; from tour 2 on,
    the tables' sets of players follow the standings after the tour before (§4), a late
    player's missed tours counting nothing (reading 12)."""
    for number, tour in enumerate(tours, start=1):
        if not tour.seatings:
            continue  # the tour could not be read at all (noted)
        active = [p for p in roster if presence.sits(p, number)]
        at = _places(number, tour, active, bad)
        if len(active) < MIN_PLAYERS:
            bad(
                N_("only {count} players are left: a tour needs at least {least}"),
                tour=number,
                count=len(active),
                least=MIN_PLAYERS,
            )
            continue
        if not tour.readable:
            continue
        expected = _check_sizes(number, tour, len(active), table_size, bad)
        if expected is None:
            continue
        exact_once = sorted(at) == sorted(active) and all(len(t) == 1 for t in at.values())
        earlier = tours[: number - 1]
        if number == 1 or scoring is None or not exact_once or not all(t.scored for t in earlier):
            continue
        results = [t.results for tour_before in earlier for t in tour_before.tables if t]
        table = standings(roster, results, *scoring)
        ordered = [s.player for s in table if s.player in active]
        _check_swiss(number, tour, swiss_tables(ordered, expected), bad)


def _places(number: int, tour: _Tour, active: list[str], bad: _Notes) -> dict[str, list[int]]:
    """Where each player sits in a tour (player → the tables); notes a player at more than
    one table and, when every table could be read, an active player at none."""
    at: dict[str, list[int]] = {}
    for n, seating in enumerate(tour.seatings, start=1):
        for p in dict.fromkeys(seating or ()):
            at.setdefault(p, []).append(n)
    for p, tables in at.items():
        if len(tables) > 1:
            bad(
                N_("{name} sits at more than one table: {tables}"),
                tour=number,
                name=_show(p),
                tables=", ".join(map(str, tables)),
            )
    if tour.readable:
        for p in active:
            if p not in at:
                bad(N_("{name} sits at no table"), tour=number, name=_show(p))
    return at


def _check_sizes(
    number: int, tour: _Tour, count: int, table_size: int, bad: _Notes
) -> list[int] | None:
    """The §4 sizes of a tour's tables for `count` players when its tables have them (None,
    noted, when they do not)."""
    expected = table_sizes(count, table_size)
    sizes = [len(s or ()) for s in tour.seatings]
    if sizes == expected:
        return expected
    bad(
        N_(
            "the tables seat {sizes} players; {count} players at tables of {size} sit "
            "{expected} (largest first)"
        ),
        tour=number,
        sizes=_sizes(sizes),
        count=count,
        size=table_size,
        expected=_sizes(expected),
    )
    return None


def _check_swiss(number: int, tour: _Tour, wanted: list[list[str]], bad: _Notes) -> None:
    """Each table of tour `number` seats the players the Swiss seating gives it (§4)."""
    for n, (seating, want) in enumerate(zip(tour.seatings, wanted, strict=True), start=1):
        if set(seating or ()) != set(want):
            bad(
                N_(
                    "by the standings after tour {before} this table seats {expected}, "
                    "not {players}"
                ),
                tour=number,
                table=n,
                before=number - 1,
                expected=", ".join(want),
                players=", ".join(sorted(seating or ())),
            )


def _sizes(sizes: list[int]) -> str:
    return ", ".join(map(str, sizes))


# -- writing ---------------------------------------------------------------------------------


def _number(value: Fraction) -> int | float:
    """An upto as a JSON number: whole numbers as integers, a decimal as a float."""
    if value.denominator == 1:
        return int(value)
    return float(value)


def exact(value: Fraction) -> str:
    """An exact number as the reports write it: "210", "-268/3"."""
    return str(value)


def report(t: Tournament) -> dict[str, Any]:
    """What `scorekeeper tournament` prints (the JSON of docs/tournament.md): the standings,
    every tour's tables with their results and points, and the next tour's tables."""
    table = t.standings()
    seating = next_tour(table, set(t.active()), t.table_size)
    return {
        "standings": [
            {
                "place": s.place,
                "player": s.player,
                "points": exact(s.points),
                "whists": exact(s.whists),
                "tours": s.tours,
                "table_wins": s.table_wins,
            }
            for s in table
        ],
        "tours": [
            {
                "tables": [
                    {
                        "players": list(table.players),
                        "finished": table.over,
                        "results": {p: exact(r) for p, r in table.results.items()},
                        "points": {p: exact(v) for p, v in t.points(table).items()},
                    }
                    for table in tour
                ]
            }
            for tour in t.tours
        ],
        "next_tour": seating,
    }


def to_file(t: Tournament) -> dict[str, Any]:
    """The tournament as a tournament file; parse_tournament(to_file(t)) gives it back."""
    out: dict[str, Any] = {"format": FORMAT}
    if t.name:
        out["name"] = t.name
    out["convention"] = t.convention
    out["options"] = dict(t.options)
    out["table_size"] = t.table_size
    out["scale"] = {"bands": [[None if u is None else _number(u), str(f)] for u, f in t.bands]}
    if t.place_points is not None:
        out["scale"]["place_points"] = t.place_points
    out["players"] = list(t.players)
    out["withdrawn"] = [{"player": p, "after_tour": k} for p, k in t.withdrawn.items()]
    if t.joined:  # a file without late players stays exactly as before reading 12
        out["joined"] = [{"player": p, "before_tour": k} for p, k in t.joined.items()]
    out["tours"] = [{"tables": [_table_dict(table) for table in tour]} for tour in t.tours]
    return out


def _table_dict(table: Table) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if table.name:
        out["name"] = table.name
    out["players"] = list(table.players)
    out["first_dealer"] = table.first_dealer
    out["finished"] = table.finished
    out["deals"] = [deal_to_dict(d) for d in table.deals]
    return out


def dumps(t: Tournament) -> str:
    """The tournament file's text (UTF-8 JSON, indented)."""
    return json.dumps(to_file(t), ensure_ascii=False, indent=2) + "\n"


__all__ = [
    "FORMAT",
    "InvalidTournament",
    "Located",
    "Table",
    "Tournament",
    "dumps",
    "loads",
    "parse_tournament",
    "report",
    "table_results",
    "to_file",
]
