"""The company file (docs/company-format.md): roster, house rules, games, payments, one JSON."""

from __future__ import annotations

import contextlib
import datetime
import json
import re
import time
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from scorekeeper import gamefile, gamefile_balkan
from scorekeeper.balkan import BalkanGame, find_preset
from scorekeeper.games import create_from_game, finished_snapshot, load
from scorekeeper.games.family import BALKAN, family_of_game, family_of_options
from scorekeeper.games.family import KEY as FAMILY_KEY
from scorekeeper.rules import Game, InvalidGame, Problem, find_convention
from scorekeeper.rules.options import Convention
from scorekeeper.rules.problems import N_
from scorekeeper.rules.text import bad_character, name_key, normalize
from scorekeeper.store import GameRecord, Store, StoreError
from scorekeeper.store.companies import Companies, CompanyRecord

FORMAT = "scorekeeper-company/1"
TOP_KEYS = {"format", "name", "convention", "options", "players", "games", "payments"}
MAX_PLAYERS = 200
MAX_GAMES = 2000
MAX_PAYMENTS = 20000
MAX_DEALS = 100_000
"""The most deals of all the file's games together (each game holds at most
gamefile.MAX_DEALS): 2,000 evenings of 50 deals."""
MAX_BYTES = 32 * 1024 * 1024
"""The largest company file the server opens (docs/company-format.md): a file of
MAX_DEALS deals as the server writes it is about 25 MB."""
AMOUNT_RE = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,2})?")


@dataclass(frozen=True)
class FileGame:
    """A game of the file: the day played, its seat names → file player ids, the game."""

    played_on: str
    players: dict[str, int]
    game: Game | BalkanGame


@dataclass(frozen=True)
class FilePayment:
    """A payment of the file; `game` is an index into the file's games, or None."""

    payer: int
    payee: int
    amount: str
    paid_on: str
    game: int | None


@dataclass(frozen=True)
class CompanyFile:
    """A company file as read, checked."""

    name: str
    convention: str
    options: dict[str, Any]
    players: dict[int, str]
    games: list[FileGame]
    payments: list[FilePayment]


def dump(company: CompanyRecord) -> dict[str, Any]:
    """The company as a file; players get file ids 1, 2, … in roster order."""
    ids = {p.id: n for n, p in enumerate(company.roster, start=1)}
    index = {g.game.id: n for n, g in enumerate(company.games)}
    return {
        "format": FORMAT,
        "name": company.name,
        "convention": company.convention,
        "options": dict(company.options),
        "players": [{"id": ids[p.id], "name": p.name} for p in company.roster],
        "games": [
            {
                "played_on": g.played_on,
                "players": {name: ids[pid] for name, pid in g.players.items()},
                "game": _dumped(g.game),
            }
            for g in company.games
        ],
        "payments": [
            {
                "payer": ids[p.payer],
                "payee": ids[p.payee],
                "amount": str(p.amount),
                "paid_on": p.paid_on,
                "game": index.get(p.game_id) if p.game_id is not None else None,
            }
            for p in company.payments
        ],
    }


def _dumped(record: GameRecord) -> dict[str, Any]:
    """A game of the company as its family's game file."""
    loaded = load(record)
    return loaded.family.dump(loaded.game)


def dumps(company: CompanyRecord) -> str:
    """The company file's text."""
    return json.dumps(dump(company), ensure_ascii=False, indent=2) + "\n"


def loads(text: str | bytes) -> CompanyFile:
    """Read a company file; raises InvalidGame naming every problem."""
    if len(text) > MAX_BYTES:
        raise InvalidGame(
            [Problem(N_("the file is too large (at most {limit} MB)"), {"limit": MAX_BYTES >> 20})]
        )
    try:
        data = json.loads(text)
    except ValueError as error:
        raise InvalidGame([Problem(N_("not valid JSON: {error}"), {"error": str(error)})]) from None
    except RecursionError:
        raise InvalidGame([Problem(N_("not valid JSON: nested too deeply"))]) from None
    return gamefile.once_each(text, lambda: load_file(gamefile.readable(data)), "games", _at_game)


def _at_game(problem: Problem) -> Problem:
    """A problem placed at an entry of `games`, said as the company file says a game's."""
    if problem.deal is None:
        return problem
    inner = Problem(problem.template, problem.params, problem.field)
    return Problem(N_("game {number}: {problem}"), {"number": problem.deal, "problem": inner})


class _Bad(Protocol):
    """Notes one problem of the file: its message template and the values it names."""

    def __call__(self, template: str, **params: Any) -> None: ...


def load_file(data: Any) -> CompanyFile:
    """Check a parsed company file; raises InvalidGame naming every problem."""
    problems: list[Problem] = []

    def bad(template: str, **params: Any) -> None:
        problems.append(Problem(template, params))

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidGame([Problem(N_("not a company file (format {format})"), {"format": FORMAT})])
    for key in data:
        if key not in TOP_KEYS:
            bad(N_("unknown key {key}"), key=json.dumps(key, ensure_ascii=False))
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > gamefile.MAX_NAME:
        bad(N_("the company's name must be a text of at most 200 characters"))
        name = ""
    elif (char := bad_character(name)) is not None:
        bad(N_("the company's name holds {char}: remove it"), char=char)
        name = ""
    name = normalize(name.strip())
    convention, options = _house_rules(data, bad)
    players = _players(data.get("players", []), bad)
    raw_games = _listed(
        data.get("games", []), MAX_GAMES, bad, N_("games must be a list of at most {limit}")
    )
    deal_count = sum(
        len(g["game"]["deals"])
        for g in raw_games
        if isinstance(g, dict)
        and isinstance(g.get("game"), dict)
        and isinstance(g["game"].get("deals"), list)
    )
    if deal_count > MAX_DEALS:
        bad(
            N_("too many deals: {count} (a company file holds at most {limit})"),
            count=deal_count,
            limit=MAX_DEALS,
        )
        raise InvalidGame(problems)
    games = _games(raw_games, players, bad, family_of_options(options).name)
    payments = _payments(data.get("payments", []), players, len(raw_games), bad)
    if problems:
        raise InvalidGame(problems)
    return CompanyFile(name, convention, options, players, games, payments)


def _house_rules(data: dict[str, Any], bad: _Bad) -> tuple[str, dict[str, Any]]:
    """The company's convention and house rules, resolved by their family (a Balkan company's
    options say `"family": "balkan"` and its convention is a Balkan preset)."""
    convention = data.get("convention", Convention.SOCHI)
    raw_options = data.get("options", {})
    if not isinstance(convention, str) or not isinstance(raw_options, dict):
        bad(N_("the house rules cannot be read"))
        return convention if isinstance(convention, str) else "", {}
    family = family_of_options(raw_options)
    found = find_preset(convention) if family.name == BALKAN else find_convention(convention)
    if found is None and family.name == BALKAN:
        bad(
            N_("unknown Balkan preset {preset} (club, iklub, savez)"), preset=json.dumps(convention)
        )
        return convention, {}
    if found is None:
        bad(
            N_("unknown convention {name} (sochi, leningrad, rostov, hussar)"),
            name=json.dumps(convention, ensure_ascii=False)[:60],
        )
        return convention, {}
    given = {k: v for k, v in raw_options.items() if k != FAMILY_KEY}
    options, option_problems = family.resolve_options(found, given)
    for problem in option_problems:
        bad(problem.template, **problem.params)
    return found, options


def _listed(raw: Any, limit: int, bad: _Bad, message: str) -> list[Any]:
    """A list of at most `limit` items (else the problem, and nothing)."""
    if not isinstance(raw, list) or len(raw) > limit:
        bad(message, limit=limit)
        return []
    return raw


def _players(raw: Any, bad: _Bad) -> dict[int, str]:
    """The roster: file id → name."""
    players: dict[int, str] = {}
    keys: set[str] = set()
    for entry in _listed(raw, MAX_PLAYERS, bad, N_("players must be a list of at most {limit}")):
        ok = isinstance(entry, dict) and set(entry) == {"id", "name"}
        pid, pname = (entry.get("id"), entry.get("name")) if ok else (None, None)
        if (
            not _is_id(pid)
            or not isinstance(pname, str)
            or not pname.strip()
            or len(pname) > gamefile.MAX_PLAYER_NAME
            or pid in players
        ):
            bad(N_("a player must have a new whole-number id and a name"))
            continue
        if (char := bad_character(pname)) is not None:
            bad(N_("player {n}: the name holds {char}: remove it"), n=pid, char=char)
            continue
        pname = normalize(pname.strip())
        if name_key(pname) in keys:
            bad(N_("player {name} appears twice"), name=json.dumps(pname, ensure_ascii=False))
            continue
        keys.add(name_key(pname))
        assert isinstance(pid, int)  # _is_id: a whole number
        players[pid] = pname
    return players


def _is_id(value: Any) -> bool:
    """A file id: a whole number (not true/false, not a list or an object)."""
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53


def _games(raw_games: list[Any], players: dict[int, str], bad: _Bad, family: str) -> list[FileGame]:
    """The games played, each a game file (of the company's family of rules) with its seats
    taken by players of the roster."""
    games: list[FileGame] = []
    for number, entry in enumerate(raw_games, start=1):
        if not isinstance(entry, dict) or set(entry) != {"played_on", "players", "game"}:
            bad(N_("game {number}: needs played_on, players and game"), number=number)
            continue
        try:
            game = _game(entry["game"])
        except InvalidGame as invalid:
            for p in invalid.problems:
                bad(N_("game {number}: {problem}"), number=number, problem=p)
            continue
        if family_of_game(game).name != family:
            bad(
                N_("game {number}: played by other rules than the company's evenings"),
                number=number,
            )
            continue
        seats = entry["players"]
        if (
            not isinstance(seats, dict)
            or set(seats) != set(game.players)
            or not all(_is_id(seats[s]) and seats[s] in players for s in seats)
            or len(set(seats.values())) != len(seats)
        ):
            bad(
                N_("game {number}: every seat must name a different player of the company"),
                number=number,
            )
            continue
        if not _is_date(entry["played_on"]):
            bad(N_("game {number}: played_on must be a date like 2026-11-20"), number=number)
            continue
        games.append(FileGame(entry["played_on"], dict(seats), game))
    return games


def _game(data: Any) -> Game | BalkanGame:
    """A game file of either family (its `family` says which)."""
    if gamefile_balkan.is_balkan(data):
        return gamefile_balkan.load(data, max_deals=gamefile.FORMAT_MAX_DEALS)
    return gamefile.load(data, max_deals=gamefile.FORMAT_MAX_DEALS)


def _payments(raw: Any, players: dict[int, str], game_count: int, bad: _Bad) -> list[FilePayment]:
    """Money paid between two players of the roster, perhaps for one of the games."""
    payments: list[FilePayment] = []
    keys = {"payer", "payee", "amount", "paid_on", "game"}
    items = _listed(raw, MAX_PAYMENTS, bad, N_("payments must be a list of at most {limit}"))
    for number, entry in enumerate(items, start=1):
        ok = isinstance(entry, dict) and set(entry) <= keys and keys - {"game"} <= set(entry)
        game_index = entry.get("game") if ok else None
        if (
            not ok
            or not _is_id(entry["payer"])
            or not _is_id(entry["payee"])
            or entry["payer"] not in players
            or entry["payee"] not in players
            or entry["payer"] == entry["payee"]
            or not isinstance(entry["amount"], str)
            or not AMOUNT_RE.fullmatch(entry["amount"])
            or Decimal(entry["amount"]) <= 0
            or not _is_date(entry["paid_on"])
            or not (game_index is None or (_is_id(game_index) and 0 <= game_index < game_count))
        ):
            bad(N_("payment {number} cannot be read"), number=number)
            continue
        payments.append(
            FilePayment(
                entry["payer"], entry["payee"], entry["amount"], entry["paid_on"], game_index
            )
        )
    return payments


#: Evenings stored per transaction by an import. Each few is written in a transaction of its
#: own and the table's writes are let in between, so a Save waits behind a few evenings, not
#: behind the whole file (bench/bench_import_yield.py: two 600-evening imports at once).
CHUNK = 8
#: The pause after each few, in which a writer that is waiting takes its turn.
YIELD_SECONDS = 0.005


def create(store: Store, company: CompanyFile) -> CompanyRecord:
    """Store a company read from a file as a new company (new links, new games): all of it,
    or nothing. The evenings' games go in a few at a time (CHUNK), each few in a transaction
    of its own with their settlements computed before it, and the table's writes are let in
    between; the company, its roster, evenings and payments go in one last transaction, so it
    appears whole or not at all. Games stored before a failure are deleted again (as a
    deleted game, purged later). The work grows in step with the file."""
    tokens: list[str] = []
    try:
        game_ids = _store_games(store, company, tokens)
        return _store_company(store, company, game_ids)
    except BaseException:
        _forget(store, tokens)
        raise


def _store_games(store: Store, company: CompanyFile, tokens: list[str]) -> list[int]:
    """Store the file's games, CHUNK to a transaction, their edit tokens noted as they go."""
    ids: list[int] = []
    for start in range(0, len(company.games), CHUNK):
        chunk = [entry.game for entry in company.games[start : start + CHUNK]]
        snapshots = [finished_snapshot(game) if game.finished else None for game in chunk]
        with store.batch():
            records = [
                create_from_game(store, game, snapshot=snapshot)
                for game, snapshot in zip(chunk, snapshots, strict=True)
            ]
        tokens.extend(r.edit_token for r in records)
        ids.extend(r.id for r in records)
        time.sleep(YIELD_SECONDS)  # a Save waiting for its turn goes now
    return ids


def _store_company(store: Store, company: CompanyFile, game_ids: list[int]) -> CompanyRecord:
    """The company with its roster, evenings (the games stored) and payments: one transaction."""
    companies = Companies(store)
    ids = list(company.players)
    with store.batch():
        record = companies.create(
            name=company.name,
            convention=company.convention,
            options=company.options,
            roster=[company.players[i] for i in ids],
        )
        roster_id = {fid: p.id for fid, p in zip(ids, record.roster, strict=True)}
        return companies.fill(
            record.edit_token,
            [
                (
                    game_id,
                    {name: roster_id[fid] for name, fid in entry.players.items()},
                    entry.played_on,
                )
                for game_id, entry in zip(game_ids, company.games, strict=True)
            ],
            [
                (
                    roster_id[pay.payer],
                    roster_id[pay.payee],
                    pay.amount,
                    pay.paid_on,
                    None if pay.game is None else game_ids[pay.game],
                )
                for pay in company.payments
            ],
        )


def _forget(store: Store, tokens: list[str]) -> None:
    """Delete the games an import stored before it failed (best effort: a database that
    fails now leaves them as games no one has a link to)."""
    with contextlib.suppress(StoreError):
        for start in range(0, len(tokens), CHUNK * 8):
            with store.batch():
                for token in tokens[start : start + CHUNK * 8]:
                    store.delete_game(token)


def _is_date(value: Any) -> bool:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True
