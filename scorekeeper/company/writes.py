"""Every write to a company: check → write → the company as it stands after it.

The web and the tests call these; a view reads the form, calls one of them and shows the
result, or the refusal (a `CompanyRefused` with what to tell the person; the store's
RequestKeyReused when a form is sent again with other values: nothing is written twice).
"""

from __future__ import annotations

import datetime
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorekeeper.company.currency import currency_problem
from scorekeeper.company.table import family_of
from scorekeeper.games.family import KEY as FAMILY_KEY
from scorekeeper.games.family import RUSSIAN, counts, family_of_options
from scorekeeper.refusals import Refused
from scorekeeper.rules.numbers import whole_text
from scorekeeper.rules.text import name_key
from scorekeeper.store import GameInAClub, GameInOtherCompany, GameNotFound, GameRecord, Store
from scorekeeper.store.companies import Companies, CompanyRecord


class CompanyRefused(Refused):
    """A write to a company that was not made; the subclass says why."""


class NameTaken(CompanyRefused):
    """Another roster player already has this name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is already a player of the company")
        self.name = name


class NoGameAtLink(CompanyRefused):
    """No game has the link given to attach."""


class ReadOnlyLink(CompanyRefused):
    """The link given to attach is a game's read-only link, not its edit link."""


class OtherCurrency(CompanyRefused):
    """The game counts its money in another currency than the company: not added up. `game`
    and `company` are the two currencies as written ("—" for none)."""

    def __init__(self, game: str, company: str) -> None:
        super().__init__(f"the game counts in {game} and the company in {company}")
        self.game, self.company = game, company


class OtherFamily(CompanyRefused):
    """The game is played by another family of rules than the company's evenings (a Balkan
    partija in a company of Russian evenings, or the other way round): its results do not add
    up with theirs. `game` and `company` name the two families."""

    def __init__(self, game: str, company: str) -> None:
        super().__init__(f"the game is played by the {game} rules, the company by the {company}")
        self.game, self.company = game, company


class FamilyKept(CompanyRefused):
    """New house rules of another family of rules than the company's evenings were played by:
    a company with evenings keeps its family (`company` names it)."""

    def __init__(self, company: str) -> None:
        super().__init__(f"the company's evenings are played by the {company} rules")
        self.company = company


class InOtherCompany(CompanyRefused):
    """The game is an evening of another company already."""


class InAClub(CompanyRefused):
    """The game is in a club on its own and the company in a club: detach the game first."""


class PlayersToPick(CompanyRefused):
    """An evening of a number of players the company does not play: `counts` are those it
    does."""

    def __init__(self, counts: tuple[int, ...]) -> None:
        super().__init__(f"an evening seats {counts} players")
        self.counts = counts


class SeatsRefused(CompanyRefused):
    """A seat that is empty of the company's players, or one player in two seats."""


class DealerRefused(CompanyRefused):
    """The first dealer is none of the players seated."""


class PaymentRefused(CompanyRefused):
    """A payment not recorded: `problems` by field as payment_problems says them (empty when
    only the form's own fields, the amount or the day, were wrong)."""

    def __init__(self, problems: dict[str, str]) -> None:
        super().__init__("the payment was not recorded: " + (", ".join(problems) or "the form"))
        self.problems = problems


def create(
    store: Store, *, name: str, convention: str, options: dict[str, Any], roster: Iterable[str]
) -> CompanyRecord:
    """A new company with its house rules and roster."""
    return Companies(store).create(name=name, convention=convention, options=options, roster=roster)


def update_rules(
    store: Store, company: CompanyRecord, *, name: str, convention: str, options: dict[str, Any]
) -> CompanyRecord:
    """Rename the company and replace the house rules new evenings start from. A company with
    evenings keeps its family of rules (FamilyKept: a company never mixes families)."""
    if company.games and family_of_options(options).name != family_of(company).name:
        raise FamilyKept(family_of(company).name)
    return Companies(store).update_rules(
        company.edit_token, name=name, convention=convention, options=options
    )


def add_player(store: Store, company: CompanyRecord, name: str) -> CompanyRecord:
    """Add a player to the roster; NameTaken if one has the name already."""
    if any(name_key(p.name) == name_key(name) for p in company.roster):
        raise NameTaken(name)
    return Companies(store).add_player(company.edit_token, name)


def rename_player(store: Store, company: CompanyRecord, player_id: int, name: str) -> CompanyRecord:
    """Give a roster player another name (his history stays his); NameTaken if another has it."""
    player = company.player(player_id)
    key = name_key(name)
    if any(name_key(p.name) == key and p.id != player.id for p in company.roster):
        raise NameTaken(name)
    return Companies(store).rename_player(company.edit_token, player_id, name)


def evening_counts(company: CompanyRecord) -> tuple[int, ...]:
    """How many players an evening of the company may seat: its convention's counts, and
    two for a Hussar evening of a company of Russian evenings."""
    family = family_of(company)
    found = counts(family, company.convention)
    return found if 2 in found or family.name != RUSSIAN else (2, *found)


def draw_evening(
    company: CompanyRecord, picked: Iterable[str], rng: random.Random | None = None
) -> tuple[list[str], int]:
    """The seats of an evening of the players picked (roster ids as text; others are left
    aside) drawn at random, and the first dealer's seat drawn among them. Raises
    PlayersToPick when the company plays no evening of that many players."""
    rng = rng or random.SystemRandom()
    roster = {str(p.id) for p in company.roster}
    seats = [pid for pid in picked if pid in roster]
    counts = evening_counts(company)
    if len(seats) not in counts:
        raise PlayersToPick(counts)
    rng.shuffle(seats)
    return seats, rng.randrange(len(seats))


def start_evening_at(
    store: Store,
    company: CompanyRecord,
    *,
    seats: Sequence[str],
    first_dealer: str,
    name: str,
    request_key: str,
    played_on: datetime.date,
) -> GameRecord:
    """Start an evening of the players in these seats (roster ids as the form sends them)
    with the first dealer at this seat (its number as text): start_evening once they are
    read. Raises SeatsRefused, PlayersToPick or DealerRefused."""
    roster = {str(p.id) for p in company.roster}
    if any(s not in roster for s in seats) or len(set(seats)) != len(seats):
        raise SeatsRefused("each seat needs a different player of the company")
    counts = evening_counts(company)
    if len(seats) not in counts:
        raise PlayersToPick(counts)
    dealer = whole_text(first_dealer or "0")
    if dealer is None or not 0 <= dealer < len(seats):
        raise DealerRefused("the first dealer is none of the players")
    return start_evening(
        store,
        company,
        seats=[int(pid) for pid in seats],
        first_dealer=dealer,
        name=name,
        request_key=request_key,
        played_on=played_on,
    )


def evening_convention(convention: str, players: int) -> str:
    """The convention of an evening: the company's, or Hussar when two play."""
    return "hussar" if players == 2 else convention


def evening_options(company: CompanyRecord, convention: str) -> dict[str, Any]:
    """The game's options, as its family keeps them: the company's house rules, or for a
    Hussar evening of a preferans company Hussar's preset with the company's money (stake,
    currency, unit)."""
    kept = {k: v for k, v in company.options.items() if k != FAMILY_KEY}
    if convention != company.convention:
        kept = {k: v for k, v in kept.items() if k in ("stake", "currency", "money_unit")}
    return family_of(company).resolve_options(convention, kept)[0]


def start_evening(
    store: Store,
    company: CompanyRecord,
    *,
    seats: list[int],
    first_dealer: int,
    name: str,
    request_key: str,
    played_on: datetime.date,
) -> GameRecord:
    """A new game of the company's players in these seats (roster ids), with its house rules,
    attached as an evening. The same form sent again (its key) starts nothing new: the game
    it started is returned."""
    companies = Companies(store)
    started = companies.game_for_key(company.edit_token, request_key)
    if started is not None:
        return next(g.game for g in company.games if g.game.id == started)
    by_id = {p.id: p.name for p in company.roster}
    names = [by_id[pid] for pid in seats]
    convention = evening_convention(company.convention, len(names))
    record = store.create_game(
        name=name,
        convention=convention,
        options=evening_options(company, convention),
        players=names,
        first_dealer=names[first_dealer],
    )
    companies.attach(
        company.edit_token,
        record.id,
        dict(zip(names, seats, strict=True)),
        played_on=played_on.isoformat(),
        request_key=request_key,
    )
    return record


#: A game's edit link as pasted: its address, or the token alone.
_LINK_TOKEN = re.compile(r"(?:/g/)?([A-Za-z0-9_-]{8,100})/?$")


def attach_link(
    store: Store, company: CompanyRecord, link: str, *, played_on: datetime.date | None = None
) -> GameRecord:
    """Attach the game of an edit link (its address, or the token alone) as an evening: its
    names join the roster players of the same name (by the name rule), or become new players.
    Raises NoGameAtLink, ReadOnlyLink, OtherFamily, OtherCurrency or InOtherCompany; returns
    the game."""
    match = _LINK_TOKEN.search(link.strip())
    if match is None:
        raise NoGameAtLink("no game has this link")
    try:
        game = store.get_game(match.group(1))
    except GameNotFound:
        raise NoGameAtLink("no game has this link") from None
    if game.access != "edit":
        raise ReadOnlyLink("this is the game's read-only link")
    family = family_of_options(game.options).name
    if family != family_of(company).name:  # a company never mixes families
        raise OtherFamily(family, family_of(company).name)
    other = currency_problem(company.options, game.options)
    if other is not None:
        raise OtherCurrency(other["game"], other["company"])
    by_name = {name_key(p.name): p.id for p in company.roster}
    mapping: dict[str, int | str] = {
        name: by_name.get(name_key(name), name) for name in game.players
    }
    try:
        attach_game(store, company, game, mapping, played_on=played_on)
    except GameInAClub:
        raise InAClub("the game is in a club on its own") from None
    except GameInOtherCompany:  # (a busy database is the "try again" page, as everywhere)
        raise InOtherCompany("the game belongs to another company") from None
    return game


def attach_game(
    store: Store,
    company: CompanyRecord,
    game: GameRecord,
    players: Mapping[str, int | str],
    *,
    played_on: datetime.date | None = None,
) -> CompanyRecord:
    """Attach a game as an evening: each seat name to a roster id, or a name for a new player
    (StoreError if it belongs to another company); played on that day, or the day it began."""
    day = played_on.isoformat() if played_on else None
    return Companies(store).attach(company.edit_token, game.id, players, played_on=day)


def payment_problems(
    company: CompanyRecord, payer: str | None, payee: str | None, game: str | None
) -> dict[str, str]:
    """What is wrong with a payment as the form names it, by field: "players" (the payer
    or the payee is no player of the company), "same" (one player pays himself) or
    "evening" (the game named is no evening of the company); empty when nothing is."""
    ids = {str(p.id) for p in company.roster}
    problems: dict[str, str] = {}
    if payer not in ids or payee not in ids:
        problems["payer"] = "players"
    elif payer == payee:
        problems["payee"] = "same"
    if evening_of(company, game) is None and (game or "").strip():
        problems["game"] = "evening"
    return problems


def evening_of(company: CompanyRecord, game: str | None) -> int | None:
    """The id of the company's evening a payment names (typed as its number), or None."""
    text = (game or "").strip()
    game_id = whole_text(text) if text else None
    return game_id if game_id in {g.game.id for g in company.games} else None


def add_payment(
    store: Store,
    company: CompanyRecord,
    *,
    payer: int,
    payee: int,
    amount: str,
    paid_on: datetime.date,
    game_id: int | None,
    request_key: str,
) -> CompanyRecord:
    """Record money handed over. The same form sent again writes nothing; sent again with
    other values it is refused (RequestKeyReused) and the first payment stays."""
    if game_id is not None and game_id not in {g.game.id for g in company.games}:
        game_id = None
    return Companies(store).add_payment(
        company.edit_token,
        payer=payer,
        payee=payee,
        amount=amount,
        paid_on=paid_on.isoformat(),
        game_id=game_id,
        request_key=request_key,
    )


def pay(
    store: Store,
    company: CompanyRecord,
    *,
    payer: str | None,
    payee: str | None,
    evening: str | None,
    amount: str | None,
    paid_on: datetime.date | None,
    request_key: str,
) -> CompanyRecord:
    """Record a payment as the form names it (the players' roster ids and the evening's
    number as typed; the amount and the day as the form read them, None when unreadable):
    add_payment once every problem is known. Raises PaymentRefused with them all, nothing
    written."""
    problems = payment_problems(company, payer, payee, evening)
    if problems or amount is None or paid_on is None or payer is None or payee is None:
        raise PaymentRefused(problems)
    return add_payment(
        store,
        company,
        payer=int(payer),
        payee=int(payee),
        amount=amount,
        paid_on=paid_on,
        game_id=evening_of(company, evening),
        request_key=request_key,
    )


def delete_payment(store: Store, company: CompanyRecord, payment_id: int) -> CompanyRecord:
    """Take back a payment recorded by mistake (deleting it twice is harmless)."""
    return Companies(store).delete_payment(company.edit_token, payment_id)
