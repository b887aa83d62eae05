"""Every write to a club: checked, then one store write; or a `ClubRefused` and nothing."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit

from scorekeeper.club.season import doubled_seat
from scorekeeper.refusals import Refused
from scorekeeper.rules.problems import N_
from scorekeeper.rules.text import name_key
from scorekeeper.season.players import Directory, MergeCycle
from scorekeeper.store import Store
from scorekeeper.store.clubs import ClubAccess, ClubRecord, Clubs, InOtherClub, Kind
from scorekeeper.store.errors import ReadOnlyAccess

MAX_NAME = 60
MOST_THINGS = 5000
"""Games, companies and tournaments attached to one club at most (every query stays bounded)."""
MOST_PLAYERS = 2000
"""Directory players of one club at most."""
MOST_SEASONS = 100


class ClubRefused(Refused):
    """A club write that was not made: `field` is the form field, `text` the message (an
    English msgid) and `params` its values."""

    def __init__(self, field: str, text: str, **params: Any) -> None:
        super().__init__(text % params if params else text)
        self.field, self.text, self.params = field, text, params


def _name(raw: str, field: str) -> str:
    name = " ".join((raw or "").split())
    if not name or len(name) > MAX_NAME:
        raise ClubRefused(field, N_("Write a name of 1 to 60 characters."))
    return name


def _room(count: int, most: int, field: str) -> None:
    if count >= most:
        raise ClubRefused(field, N_("A club holds at most %(most)d of these."), most=most)


def new_club(store: Store, name: str) -> ClubRecord:
    """A new club: its links, its public page off."""
    return Clubs(store).create(name=_name(name, "name"))


def link_token(link: str) -> str:
    """The token of a pasted link (its last path part) or of a bare token."""
    path = urlsplit((link or "").strip()).path
    parts = [p for p in path.split("/") if p]
    return parts[-1] if parts else ""


def attach_link(store: Store, token: str, link: str) -> ClubRecord:
    """Attach a game, company or tournament by its edit link."""
    clubs = Clubs(store)
    found = clubs.thing_by_token(link_token(link))
    if found is None:
        raise ClubRefused("link", N_("No game, company or tournament has this link."))
    kind, thing_id, edit = found
    if not edit:
        raise ClubRefused("link", N_("This is a read-only link: paste the edit link."))
    _room(len(clubs.get(token).things), MOST_THINGS, "link")
    _not_twice(store, kind, thing_id)
    try:
        return clubs.attach(token, kind, thing_id)
    except InOtherClub:
        raise ClubRefused("link", N_("This is already in a club.")) from None


#: A game brought by its company or its tournament (season.md §1: a company brings its
#: evenings, a tournament its table games).
_BROUGHT = (
    "SELECT 1 FROM company_games WHERE game_id = ?"
    " UNION ALL SELECT 1 FROM tournament_tables WHERE game_id = ?"
)
#: A company's or a tournament's games already in a club on their own.
_GAMES_IN_A_CLUB = {
    "company": "SELECT 1 FROM company_games AS x JOIN club_things AS t"
    " ON t.kind = 'game' AND t.thing_id = x.game_id WHERE x.company_id = ? LIMIT 1",
    "tournament": "SELECT 1 FROM tournament_tables AS x JOIN club_things AS t"
    " ON t.kind = 'game' AND t.thing_id = x.game_id WHERE x.tournament_id = ? LIMIT 1",
}


def _not_twice(store: Store, kind: Kind, thing_id: int) -> None:
    """A game is in a club once: an evening of a company or a table of a tournament comes
    with it, and a company or tournament does not bring a game some club holds already."""
    if kind == "game" and store.engine.rows(_BROUGHT, [thing_id, thing_id]):
        raise ClubRefused(
            "link",
            N_("This game belongs to a company or a tournament: attach that by its edit link."),
        )
    if kind in _GAMES_IN_A_CLUB and store.engine.rows(_GAMES_IN_A_CLUB[kind], [thing_id]):
        raise ClubRefused(
            "link", N_("One of its games is already in a club: detach it there first.")
        )


class Made(Protocol):
    """A game, company or tournament just made (its record: its id)."""

    @property
    def id(self) -> int: ...


M = TypeVar("M", bound=Made)


def started(store: Store, club_token: str, kind: Kind, make: Callable[[], M]) -> M:
    """Make a game, company or tournament (`make`: its own service's creation) that, started
    from a club's page (its edit token), belongs to the club. The club is checked first: an
    unknown link (ClubNotFound), one that only shows the club (ReadOnlyAccess) or a full club
    makes nothing."""
    if not club_token:
        return make()
    clubs = Clubs(store)
    club = clubs.get(club_token)
    if club.access != "edit":
        raise ReadOnlyAccess("this link only shows the club")
    _room(len(club.things), MOST_THINGS, "link")
    made = make()
    clubs.attach(club_token, kind, made.id)
    return made


def detach(store: Store, token: str, thing: int) -> ClubRecord:
    """Take a thing out of the club; the thing is kept."""
    return Clubs(store).detach(token, thing)


def _day(raw: str, field: str, *, future: bool = False) -> str:
    try:
        day = datetime.date.fromisoformat((raw or "").strip())
    except ValueError:
        raise ClubRefused(field, N_("Write a date as YYYY-MM-DD.")) from None
    if not future and day > datetime.date.today():
        raise ClubRefused(field, N_("This date is in the future."))
    return day.isoformat()


def mark(store: Store, token: str, thing: int, friendly: bool, played_on: str) -> ClubRecord:
    """A thing's friendly mark and its date (empty: its own date)."""
    day = _day(played_on, f"played_on-{thing}") if played_on.strip() else None
    return Clubs(store).mark(token, thing, friendly=friendly, played_on=day)


def add_player(store: Store, token: str, name: str) -> ClubRecord:
    """Add a directory player; names are unique by key."""
    clubs = Clubs(store)
    name = _name(name, "player")
    club = clubs.get(token)
    _room(len(club.players), MOST_PLAYERS, "player")
    if any(name_key(p.name) == name_key(name) for p in club.players):
        raise ClubRefused("player", N_("%(name)s is already in the directory."), name=name)
    return clubs.add_player(token, name)


def _directory(club: ClubRecord, extra: dict[int, int] | None = None) -> Directory:
    merges = {m.from_id: m.into_id for m in club.merges}
    return Directory({p.id: p.name for p in club.players}, {**merges, **(extra or {})})


def _no_double(
    store: Store, club: ClubRecord, directory: Directory, field: str, seats: Any = None
) -> None:
    twice = doubled_seat(store, club, directory, seats)
    if twice is not None:
        raise ClubRefused(
            field, N_("%(first)s and %(second)s both sat at one table: %(table)s."), **twice
        )


def link_seat(
    store: Store, token: str, kind: Kind, thing_id: int, seat: str, player: int
) -> ClubRecord:
    """ "This is …": a seat of a thing is a directory player."""
    club = Clubs(store).get(token)
    _no_double(store, club, _directory(club), "seat", {(kind, thing_id, seat): player})
    return Clubs(store).link_seat(token, kind, thing_id, seat, player)


def merge(store: Store, token: str, from_id: int, into_id: int) -> ClubRecord:
    """Merge a directory player into another; a cycle or two seats of a table refused."""
    club = Clubs(store).get(token)
    if any(m.from_id == from_id for m in club.merges):
        # season.md §2, §6.1: an id is merged at most once; undoing the merge frees it.
        name = next((p.name for p in club.players if p.id == from_id), str(from_id))
        raise ClubRefused(
            "merge", N_("%(name)s is merged already: undo that merge first."), name=name
        )
    if from_id == into_id:
        raise ClubRefused("merge", N_("This merge would make a cycle."))
    directory = _directory(club, {from_id: into_id})
    try:
        directory.kept(from_id)
    except MergeCycle:
        raise ClubRefused("merge", N_("This merge would make a cycle.")) from None
    _no_double(store, club, directory, "merge")
    return Clubs(store).merge(token, from_id, into_id)


def unmerge(store: Store, token: str, merge_id: int) -> ClubRecord:
    """Undo a merge: the merged player gets exactly his seats back."""
    return Clubs(store).unmerge(token, merge_id)


def add_season(
    store: Store, token: str, name: str, first: str, last: str, *, carry: bool = False
) -> ClubRecord:
    """A named season; an overlap with another refused. `carry`: its ratings start from the
    last ones of the season before it (refused when no season ends before it)."""
    name = _name(name, "season")
    start, end = _day(first, "first"), _day(last, "last", future=True)
    if end < start:
        raise ClubRefused("last", N_("The season ends before it starts."))
    club = Clubs(store).get(token)
    _room(len(club.seasons), MOST_SEASONS, "season")
    for other in club.seasons:
        if other.first <= end and start <= other.last:
            raise ClubRefused("first", N_("This season overlaps %(name)s."), name=other.name)
    if carry and not any(other.last < start for other in club.seasons):
        raise ClubRefused(
            "carry", N_("No season ends before this one: there is no rating to carry over.")
        )
    return Clubs(store).add_season(token, name, start, end, carry=carry)


def set_public(store: Store, token: str, on: bool) -> ClubRecord:
    """Turn the public page on or off."""
    return Clubs(store).set_public(token, on)


def replace_link(store: Store, token: str, which: ClubAccess) -> ClubRecord:
    """A new link of this kind; the old one stops at once."""
    return Clubs(store).replace_token(token, which)
