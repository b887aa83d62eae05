"""The game file (docs/game-format.md): read and check a JSON game, write it back losslessly."""

from __future__ import annotations

import json
import unicodedata

from scorekeeper.rules import (
    PLAYER_COUNTS,
    Deal,
    Game,
    InvalidGame,
    Problem,
    Unreadable,
    deal_to_dict,
    find_convention,
    parse_deal,
    replay,
    resolve_options,
)
from scorekeeper.rules.problems import N_, Either
from scorekeeper.rules.text import (
    bad_character,
    escaped,
    first_surrogate,
    name_key,
    normalize_all,
    plain_json,
    plain_value,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol, TypeVar

    _Read = TypeVar("_Read")

FORMAT = "scorekeeper-game/1"
KNOWN_FORMATS = (FORMAT,)
TOP_KEYS = {
    "format",
    "family",
    "name",
    "convention",
    "options",
    "players",
    "first_dealer",
    "finished",
    "deals",
}
REQUIRED_KEYS = {"format", "convention", "players"}
RUSSIAN = "russian"
"""The family of every game file without a "family" key (docs/rules.md)."""
MAX_NAME = 200
MAX_PLAYER_NAME = 50
MAX_DEALS = 300
"""The most deals one game may hold on the server (docs/limits.md): the web and CLI import
refuse more, and the deal form stops there. Measured with bench/bench_limits.py."""
FORMAT_MAX_DEALS = 5000
"""The most deals a game file may hold at all: `scorekeeper score` reads files up to this
(a file made elsewhere stays readable), and games stored before the limit still open."""


def loads(text: str | bytes, *, max_deals: int = MAX_DEALS) -> Game:
    """Read a game file's text; raises InvalidGame naming every problem."""
    data = parsed(text)
    return once_each(text, lambda: load(data, max_deals=max_deals))


def once_each(
    text: str | bytes,
    read: Callable[[], _Read],
    entries: str = "deals",
    place: Callable[[Problem], Problem] | None = None,
) -> _Read:
    """What `read` reads from the file's text, which must write each key of an object once:
    a key written twice is refused at its entry of `entries` (said there by `place`), with
    read's problems, in entry order."""
    twice = written_twice(text, entries)
    if place is not None:
        twice = [place(p) for p in twice]
    try:
        game = read()
    except InvalidGame as invalid:
        raise InvalidGame(sorted(twice + invalid.problems, key=lambda p: p.deal or 0)) from None
    if twice:
        raise InvalidGame(twice)
    return game


class _Keys(dict[str, "Any"]):
    """A JSON object that remembers the keys its text wrote more than once."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        seen: set[str] = set()
        self.twice: list[str] = []
        for key, _ in pairs:
            folded = unicodedata.normalize("NFC", key)
            if folded in seen and folded not in self.twice:
                self.twice.append(folded)
            seen.add(folded)


def written_twice(text: str | bytes, entries: str | None = "deals") -> list[Problem]:
    """Every key an object of a JSON file writes twice (JSON keeps the last one only: the file
    would quietly mean less than it says, docs/game-format.md), at its entry: an item of the
    top object's `entries` list is numbered as the problem's deal, and a key inside it named
    by its path from there ("tricks"); elsewhere by its path from the top ("options")."""
    out: list[Problem] = []
    _twice_in(json.loads(text, object_pairs_hook=_Keys), "", None, entries, out)
    return out


def _twice_in(
    value: Any, where: str, deal: int | None, entries: str | None, out: list[Problem]
) -> None:
    if isinstance(value, _Keys):
        for key in value.twice:
            shown = json.dumps(key, ensure_ascii=False)
            if where:
                template = N_("{where}: the key {key} is written twice")
                out.append(Problem(template, {"where": where, "key": shown}, where, deal))
            else:
                template = N_("the key {key} is written twice")
                out.append(Problem(template, {"key": shown}, None, deal))
        for key, item in value.items():
            _twice_in(item, f"{where}.{key}" if where else key, deal, entries, out)
    elif isinstance(value, list):
        for n, item in enumerate(value, start=1):
            if where == entries and deal is None:
                _twice_in(item, "", n, entries, out)
            else:
                _twice_in(item, f"{where}.{n}", deal, entries, out)


def parsed(text: str | bytes) -> Any:
    """A game file's JSON (of either family), every text in it readable and NFC; raises
    InvalidGame. A file whose strings are all so already (plain_json, plain_value: nearly
    every file) is not walked through."""
    try:
        data = json.loads(text)
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, a 5000-digit number
        raise InvalidGame([Problem(N_("not valid JSON: {error}"), {"error": str(error)})]) from None
    except RecursionError:
        raise InvalidGame([Problem(N_("not valid JSON: nested too deeply"))]) from None
    if plain_json(text) or plain_value(data):
        return data
    return normalize_all(readable(data))


def readable(data: Any) -> Any:
    """Parsed JSON whose every text can be stored and shown: a lone surrogate ("\\ud800",
    which JSON allows but UTF-8 cannot hold) refuses the whole file in one problem."""
    char = first_surrogate(data)
    if char is not None:
        raise InvalidGame([Problem(N_("the file holds {char}: not valid text"), {"char": char})])
    return data


def load(
    data: Any, *, check: bool = True, max_deals: int = MAX_DEALS, stored: bool = False
) -> Game:
    """Read a parsed game file; raises InvalidGame naming every problem (deals are replayed).
    A stored game (stored=True) whose name holds a character refused now (an older release
    let it in) opens with that character escaped, not refused."""
    problems, bad = problem_notes()
    _check_keys(data, bad)
    if problems:
        raise InvalidGame(problems)
    _check_format(data["format"], bad)
    _check_family(data.get("family", RUSSIAN), bad)
    name = _name(data.get("name", ""), bad, stored=stored)
    convention = _convention(data["convention"], bad)
    players = _players(data["players"], convention, bad)
    overrides = _overrides(data.get("options", {}), bad)
    options = None
    if convention is not None:
        options, option_problems = resolve_options(convention, overrides)
        problems.extend(option_problems)
    first_dealer, finished = dealer_and_finished(data, players, bad)
    raw_deals = data.get("deals", [])
    deals = _deals(raw_deals, players, max_deals, problems, bad)

    if options is None or convention is None or not players:
        raise InvalidGame(problems or [Problem(N_("the game cannot be read"))])
    if problems and (first_dealer not in players or not isinstance(raw_deals, list)):
        raise InvalidGame(problems)
    assert isinstance(first_dealer, str)
    game = Game(
        players=tuple(players),
        convention=convention,
        options=options,
        first_dealer=first_dealer,
        deals=tuple(deals),
        finished=bool(finished),
        name=name,
        overrides=dict(overrides),
    )
    if check or problems:
        _refuse_unless_replayed(game, problems)
    return game


def _refuse_unless_replayed(game: Game, problems: list[Problem]) -> None:
    """Replay the game; raise InvalidGame with the file's problems and the replay's, in deal
    order, if there are any."""
    _, replay_problems = replay(game)
    problems = sorted(problems + replay_problems, key=lambda p: p.deal or 0)
    if problems:
        raise InvalidGame(problems)


if TYPE_CHECKING:

    class _Bad(Protocol):
        """Notes one problem of the file: its message template, the field, the values named."""

        def __call__(self, template: str, field: str | None = None, **params: Any) -> None: ...


def problem_notes() -> tuple[list[Problem], _Bad]:
    """A reader's problems, empty, and `bad`, which notes one in them (its message template,
    the field, the values named)."""
    problems: list[Problem] = []

    def bad(template: str, field: str | None = None, **params: Any) -> None:
        problems.append(Problem(template, params, field))

    return problems, bad


def dealer_and_finished(data: Any, players: list[str], bad: _Bad) -> tuple[Any, Any]:
    """A game file's first dealer (the first player when it names none) and its "finished"
    flag (false when absent), each as the file has it, a problem noted for either that is
    wrong."""
    first_dealer = data.get("first_dealer", players[0] if players else None)
    _check_first_dealer(first_dealer, players, bad)
    finished = data.get("finished", False)
    if not isinstance(finished, bool):
        bad(N_("finished must be true or false"), "finished")
    return first_dealer, finished


def _check_keys(data: Any, bad: _Bad) -> None:
    """A JSON object with the required keys and no unknown one (the file is not read further
    when it is not one)."""
    if not isinstance(data, dict):
        raise InvalidGame([Problem(N_("a game file must be a JSON object"))])
    for key in data:
        if key not in TOP_KEYS:
            bad(N_("unknown key {key}"), str(key), key=json.dumps(key, ensure_ascii=False))
    for key in sorted(REQUIRED_KEYS - set(data)):
        bad(N_("missing key {key}"), key, key=json.dumps(key))


def _check_format(fmt: Any, bad: _Bad) -> None:
    if fmt not in KNOWN_FORMATS:
        bad(
            N_("unknown format {format} (this reader knows {known})"),
            "format",
            format=json.dumps(fmt, ensure_ascii=False),
            known=", ".join(KNOWN_FORMATS),
        )


def _check_family(family: Any, bad: _Bad) -> None:
    """A Russian-family file: no family, or "russian" (a Balkan file is read by
    gamefile_balkan; this reader says so rather than read its preset as a convention)."""
    if family == "balkan":
        bad(N_("a Balkan game: this reads only Russian-family games"), "family")
    elif family != RUSSIAN:
        bad(
            N_("unknown family {name} (russian, balkan)"),
            "family",
            name=json.dumps(family, ensure_ascii=False),
        )


def _name(name: Any, bad: _Bad, *, stored: bool = False) -> str:
    """The game's name ("" when it is not text)."""
    if not isinstance(name, str):
        bad(N_("name must be text"), "name")
        return ""
    if stored:
        return escaped(name)  # stored: shown as it is (escaped), never refused on read
    if len(name) > MAX_NAME:
        bad(N_("name is too long (at most {limit} characters)"), "name", limit=MAX_NAME)
    elif (char := bad_character(name)) is not None:
        bad(N_("the game's name holds {char}: remove it"), "name", char=char)
    return name


def _convention(raw: Any, bad: _Bad) -> str | None:
    convention = find_convention(raw)
    if convention is None:
        bad(
            N_("unknown convention {name} (sochi, leningrad, rostov, hussar, fspr)"),
            "convention",
            name=json.dumps(raw, ensure_ascii=False),
        )
    return convention


def _overrides(raw: Any, bad: _Bad) -> dict[str, Any]:
    """The house rules changed from the convention's preset."""
    if not isinstance(raw, dict):
        bad(N_("options must be an object"), "options")
        return {}
    return raw


def _check_first_dealer(first_dealer: Any, players: list[str], bad: _Bad) -> None:
    if players and (not isinstance(first_dealer, str) or first_dealer not in players):
        bad(
            N_("first_dealer {name} is not a player of this game"),
            "first_dealer",
            name=json.dumps(first_dealer, ensure_ascii=False),
        )


def _deals(
    raw_deals: Any, players: list[str], max_deals: int, problems: list[Problem], bad: _Bad
) -> list[Deal]:
    """The deals of the log, each numbered problem noted (a deal that cannot be read at all
    stays in the log as Unreadable, so the numbers hold)."""
    deals: list[Deal] = []
    if not isinstance(raw_deals, list):
        bad(N_("deals must be a list"), "deals")
    elif len(raw_deals) > max_deals:
        bad(
            N_("too many deals: {count} (a game holds at most {limit})"),
            "deals",
            count=len(raw_deals),
            limit=max_deals,
        )
    elif players:
        for number, raw in enumerate(raw_deals, start=1):
            deal, deal_problems = parse_deal(raw, players)
            problems.extend(p.at_deal(number) for p in deal_problems)
            if deal is None:
                kind = raw.get("type") if isinstance(raw, dict) else None  # may be junk
                deal = Unreadable(kind if isinstance(kind, str) else "")
            deals.append(deal)
    return deals


def _players(raw: Any, convention: str | None, bad: _Bad) -> list[str]:
    if not isinstance(raw, list):
        bad(N_("players must be a list of names"), "players")
        return []
    names: list[str] = []
    ok = True
    for n, name in enumerate(raw, start=1):
        if not isinstance(name, str) or not name.strip():
            bad(N_("player {n}: a name must be non-empty text"), "players", n=n)
            ok = False
        elif len(name) > MAX_PLAYER_NAME:
            bad(
                N_("player {n}: the name is too long (at most {limit} characters)"),
                "players",
                n=n,
                limit=MAX_PLAYER_NAME,
            )
            ok = False
        elif (char := bad_character(name)) is not None:
            bad(N_("player {n}: the name holds {char}: remove it"), "players", n=n, char=char)
            ok = False
        elif name_key(name) in {name_key(other) for other in names}:
            bad(
                N_("player {name} appears twice"),
                "players",
                name=json.dumps(name, ensure_ascii=False),
            )
            ok = False
        else:
            names.append(name)
    if convention is not None:
        counts = PLAYER_COUNTS[convention]
        if len(raw) not in counts:
            bad(
                N_("{convention} is played by {counts} players, not {count}"),
                "players",
                convention=convention,
                counts=Either(counts),
                count=len(raw),
            )
            ok = False
    return names if ok else []


def dump(game: Game) -> dict[str, Any]:
    """The game as a game-file object; load(dump(g)) gives back the same game."""
    out = header(game)
    out["deals"] = [deal_to_dict(d) for d in game.deals]
    return out


def header(game: Any) -> dict[str, Any]:
    """Everything of a game file but its deals, for a game of either family (its name,
    convention, options as written, players, first dealer and whether it is finished)."""
    out: dict[str, Any] = {"format": FORMAT}
    if game.name:
        out["name"] = game.name
    out["convention"] = game.convention
    if game.overrides:
        out["options"] = dict(game.overrides)
    out["players"] = list(game.players)
    out["first_dealer"] = game.first_dealer
    out["finished"] = game.finished
    return out


def dumps(game: Game) -> str:
    """The game file's text (UTF-8 JSON, indented)."""
    return json.dumps(dump(game), ensure_ascii=False, indent=2) + "\n"
