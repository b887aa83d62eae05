"""Every write to a game: check → write under the version it was read at → the new state.

The web, the CLI and the tests call these; a view only reads the request, calls one of them
and shows what it returns (a `Written`) or why nothing was written (a `GameRefused`, of the
one family `scorekeeper.refusals.Refused`):

- `Invalid`: the change does not check (its problems; nothing written);
- `Unconfirmed`: the deal is not the one the scorer saw checked (its check, to show);
- `Conflict`: another phone changed the game since the form was read;
- `AlreadySaved`: the form's one-time key already wrote something else (Back after Save,
  then a change): the scorer is told, nothing is written twice;
- `TournamentTable`: a tournament table's game cannot be deleted from its scorer link;
- `TourClosed`: the game is a table of a tournament tour the director has closed: its
  result counts in the standings, so the game no longer changes (its links still can).

A form older than the game (its version is not the game's) is not checked again: the store
either knows its one-time key (the same tap sent again: nothing is written, the answer is as
the first time) or refuses it as a conflict. Checking first would refuse a resent deal that
the sheet, changed by that very deal, now contradicts.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from scorekeeper.refusals import Refused
from scorekeeper.rules import Deal, Problem
from scorekeeper.rules.problems import N_
from scorekeeper.rules.text import bad_character, name_key, normalize
from scorekeeper.store import (
    DealNotFound,
    DealRecord,
    GameNotFound,
    GameRecord,
    RevisionNotFound,
    Store,
    VersionConflict,
)
from scorekeeper.store.companies import Companies
from scorekeeper.store.store import Guard
from scorekeeper.store.tournaments import TableClosed, Tournaments, refuse_closed_table

from . import (
    Check,
    Loaded,
    check_deal,
    check_delete,
    check_restore,
    current,
    finished_report,
    load,
    over_with_pool,
    remember,
)
from .family import FAMILIES, RUSSIAN, Family, counts, family_named

Kind = Literal["deal", "correction", "penalty"]


class GameRefused(Refused):
    """A write to a game that was not made; the subclass says why."""


class Invalid(GameRefused):
    """The change does not check: its problems, for the form (nothing written)."""

    def __init__(self, check: Check) -> None:
        super().__init__("the change does not check")
        self.check = check


class Unconfirmed(GameRefused):
    """The deal is not the one the scorer saw checked (a page without its script shows the
    check before Save writes): nothing written; `entered` is the deal read and checked, to
    show."""

    def __init__(self, entered: Entered) -> None:
        super().__init__("the deal is not the one that was checked")
        self.entered = entered


class Conflict(GameRefused):
    """Another phone changed the game since the form was read (nothing written). From
    save_entered, `now` is the game as it is and `entered` the deal read again there."""

    now: Loaded | None = None
    entered: Entered | None = None

    def __init__(self, version: int) -> None:
        super().__init__("another phone changed the game first")
        self.version = version


class AlreadySaved(GameRefused):
    """The form's one-time key already wrote another deal: `number` (among its kind, as
    Sheet.number_of counts) is that deal. From save_entered, `now` and `entered` as for a
    Conflict."""

    now: Loaded | None = None
    entered: Entered | None = None

    def __init__(self, deal_id: int, number: int, *, new: bool) -> None:
        super().__init__("the form was already saved")
        self.deal_id, self.number, self.new = deal_id, number, new


class TourClosed(GameRefused):
    """The game is a table of a closed tournament tour: it no longer changes."""

    def __init__(self, tour: int, table: int) -> None:
        super().__init__("the game is a table of a closed tour")
        self.tour, self.table = tour, table


class TournamentTable(GameRefused):
    """Delete, a rematch, or Finish now before the tour's deals are played, asked for a
    tournament table's game: only the director changes the tables, seats the next tour and
    closes a tour early."""

    def __init__(
        self, tour: int, table: int, *, finishing: bool = False, rematch: bool = False
    ) -> None:
        super().__init__("the game is a tournament table")
        self.tour, self.table, self.finishing, self.rematch = tour, table, finishing, rematch


class NothingToUndo(GameRefused):
    """Undo on a game without deals."""


class PoolRefused(GameRefused):
    """Play on with a pool that is not larger, or with which the game would still be over."""

    def __init__(self, target: int, current: int, *, still_over: bool) -> None:
        super().__init__("the pool cannot be raised so")
        self.target, self.current, self.still_over = target, current, still_over


@dataclass
class Entered:
    """A deal as the scorer entered it (rules.read_entered), read at its place in a state of
    the game: the deal, with its check there when it was checked; or the problems of its
    reading, each at its field."""

    deal: Deal | None
    problems: list[Problem] = field(default_factory=list)
    check: Check | None = None

    family: Family = FAMILIES[RUSSIAN]

    @property
    def data(self) -> dict[str, Any] | None:
        """The deal in game-file notation (as the store keeps it), or None."""
        return None if self.deal is None else self.family.deal_to_dict(self.deal)

    @property
    def fingerprint(self) -> str:
        """A short digest of the deal, so that a Save writes exactly what was checked."""
        text = json.dumps(self.data, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    @property
    def ok(self) -> bool:
        """It reads, and its check found nothing wrong."""
        return self.check is not None and self.check.ok


def read_at(loaded: Loaded, raw: Mapping[str, Any], position: int | None) -> Entered:
    """Read a deal as entered for a new deal (position None) or for the deal at a 0-based
    position, at its seat; not checked yet."""
    deal, problems = loaded.family.read_entered(raw, loaded.sheet, position)
    return Entered(deal, problems, family=loaded.family)


def check_entered(loaded: Loaded, raw: Mapping[str, Any], position: int | None = None) -> Entered:
    """Read a deal as entered (read_at) and check it against the game; nothing is written."""
    entered = read_at(loaded, raw, position)
    if entered.deal is not None:
        entered.check = check_deal(loaded, entered.deal, position)
    return entered


@dataclass(frozen=True)
class Written:
    """The game after a write, and what the write was about."""

    state: Loaded
    deal_id: int | None = None
    number: int | None = None
    """The number of the entry written (added, changed or taken off) among its kind, as people
    count (Sheet.number_of): deal 11 after ten deals and a correction, correction 1."""
    kind: Kind = "deal"
    changed: bool = True
    """False when nothing needed writing (an edit that changes nothing, a resent form)."""


def kind_of(data: dict[str, Any] | None) -> Kind:
    """What a deal's data is, in the words the messages use."""
    kind = (data or {}).get("type")
    return kind if kind in ("correction", "penalty") else "deal"


def live_deal(loaded: Loaded, deal_id: int) -> DealRecord:
    """The deal of this id on the sheet; raises DealNotFound if it is not (any more)."""
    for deal in loaded.record.deals:
        if deal.id == deal_id:
            return deal
    raise DealNotFound(f"the game has no deal {deal_id} on its sheet")


def check_open(store: Store, loaded: Loaded, request_key: str | None = None) -> Guard | None:
    """Raise TourClosed if the game is a table of a closed tournament tour (one indexed
    look-up), and return the guard its store write runs inside the write's transaction (the
    same check again, where a "Close tour" cannot slip in between), or None for an ordinary
    game. A tap sent again (its one-time key already wrote) passes both: the store answers
    it as the first time and writes nothing."""
    around = loaded.record.around  # read with the game when it was looked up
    table = around.table if around else Tournaments(store).of_game(loaded.record.id)
    if table is None:
        return None
    if table.closed and not (
        request_key and store.used_key(loaded.record.edit_token, request_key) is not None
    ):
        raise TourClosed(table.tour, table.table_no)
    return _tour_open


def _resent(store: Store, loaded: Loaded, request_key: str | None) -> bool:
    return (
        bool(request_key)
        and store.used_key(loaded.record.edit_token, request_key or "") is not None
    )


def _tour_open(store: Store, game_id: int) -> None:
    """The guard of a tournament table's writes (store.tournaments.refuse_closed_table)."""
    try:
        refuse_closed_table(store, game_id)
    except TableClosed as closed:
        raise TourClosed(closed.tour, closed.table_no) from None


def _stale(loaded: Loaded, base_version: int) -> bool:
    return base_version != loaded.record.version


# -- deals ------------------------------------------------------------------------------------


def save_entered(
    store: Store,
    loaded: Loaded,
    deal_id: int | None,
    raw: Mapping[str, Any],
    *,
    base_version: int,
    request_key: str,
    shown: str | None = None,
) -> Written:
    """Save a deal as the scorer entered it (rules.read_entered reads it at its place): a
    new deal (deal_id None, add_deal) or a change of one (change_deal). `shown` is the
    fingerprint of the deal the scorer saw checked, when the page asks for that: another
    deal is checked, not written.

    Raises Invalid (the problems of its reading, or of its check), Unconfirmed, and as
    add_deal and change_deal do; a Conflict or an AlreadySaved comes with the game as it is
    now and the deal read again there (the form shows it so), DealNotFound if the deal being
    changed is no longer on the sheet.
    """
    position = None if deal_id is None else live_deal(loaded, deal_id).position
    entered = read_at(loaded, raw, position)
    if entered.deal is None:
        raise Invalid(Check(entered.problems))
    if shown is not None and not _stale(loaded, base_version) and shown != entered.fingerprint:
        entered.check = check_deal(loaded, entered.deal, position)
        raise Unconfirmed(entered)
    try:
        if deal_id is None:
            return add_deal(
                store, loaded, entered.deal, base_version=base_version, request_key=request_key
            )
        return change_deal(
            store,
            loaded,
            deal_id,
            entered.deal,
            base_version=base_version,
            request_key=request_key,
        )
    except (Conflict, AlreadySaved) as refused:
        refused.now = now = current(store, loaded.record.edit_token)
        position = None if deal_id is None else live_deal(now, deal_id).position
        refused.entered = check_entered(now, raw, position)
        raise


def add_deal(
    store: Store,
    loaded: Loaded,
    deal: Deal | dict[str, Any],
    *,
    base_version: int,
    request_key: str,
) -> Written:
    """Add a deal (a rules Deal, or one in game-file notation) at the end of the sheet.
    Raises Invalid, Conflict, AlreadySaved."""
    guard = check_open(store, loaded, request_key)
    data = deal if isinstance(deal, dict) else loaded.family.deal_to_dict(deal)
    check = None
    if not _stale(loaded, base_version):
        check = check_deal(loaded, deal)
        if not check.ok:
            raise Invalid(check)
    try:
        record, written, created = store.add_deal(
            loaded.record.edit_token,
            data,
            base_version=base_version,
            request_key=request_key,
            guard=guard,
        )
    except VersionConflict as error:
        raise Conflict(error.current_version) from error
    if created and check is not None:
        remember(record, check)  # before load: the new state is the checked sheet, no replay
    state = load(record)
    number = state.family.number_of(state.sheet, written.position, kind_of(written.data))
    if not created and written.data != data:
        raise AlreadySaved(written.id, number, new=True)
    return Written(state, written.id, number, kind_of(data), created)


def change_deal(
    store: Store,
    loaded: Loaded,
    deal_id: int,
    new: Deal | dict[str, Any],
    *,
    base_version: int,
    request_key: str,
) -> Written:
    """Replace a deal of the sheet with another (a rules Deal, or one in game-file
    notation). Raises DealNotFound (also for a form sent again whose deal was taken off
    since), Invalid, Conflict, AlreadySaved (sent again, and the deal changed since)."""
    guard = check_open(store, loaded, request_key)
    data = new if isinstance(new, dict) else loaded.family.deal_to_dict(new)
    deal = live_deal(loaded, deal_id)
    number = loaded.family.number_of(loaded.sheet, deal.position, kind_of(data))
    if deal.data == data and not _stale(loaded, base_version):
        return Written(loaded, deal.id, number, kind_of(data), changed=False)
    check = None
    if not _stale(loaded, base_version):
        check = check_deal(loaded, new, deal.position)
        if not check.ok:
            raise Invalid(check)
    try:
        record = store.update_deal(
            loaded.record.edit_token,
            deal.id,
            data,
            base_version=base_version,
            request_key=request_key,
            guard=guard,
        )
    except VersionConflict as error:
        raise Conflict(error.current_version) from error
    now = next((d for d in record.deals if d.id == deal.id), None)
    if now is None:  # the form's key wrote this change once; the deal was taken off since
        raise DealNotFound(f"the game has no deal {deal.id} on its sheet any more")
    if now.data != data:  # written once, then changed again by another phone
        raise AlreadySaved(deal.id, number, new=False)
    if check is not None and record.version == base_version + 1:
        remember(record, check)
    return Written(load(record), deal.id, number, kind_of(data))


def delete_deal(
    store: Store, loaded: Loaded, deal_id: int, *, base_version: int, request_key: str
) -> Written:
    """Take a deal off the sheet (restorable from the history). Raises DealNotFound,
    Invalid (later deals would break), Conflict."""
    guard = check_open(store, loaded, request_key)
    number, kind = None, kind_of(None)
    if not _stale(loaded, base_version):
        deal = live_deal(loaded, deal_id)
        number = loaded.family.number_of(loaded.sheet, deal.position)
        kind = kind_of(deal.data)
        check = check_delete(loaded, deal.position)
        if not check.ok:
            raise Invalid(check)
    record = _versioned(
        lambda: store.delete_deal(
            loaded.record.edit_token,
            deal_id,
            base_version=base_version,
            request_key=request_key,
            guard=guard,
        )
    )
    return Written(load(record), deal_id, number, kind)


def undo_last(store: Store, loaded: Loaded, *, base_version: int, request_key: str) -> Written:
    """Take the last deal off the sheet. Raises NothingToUndo, Conflict."""
    guard = check_open(store, loaded, request_key)
    deal = None
    if not _stale(loaded, base_version):
        if not loaded.record.deals:
            raise NothingToUndo("there is no deal to undo")
        deal = loaded.record.deals[-1]
    record = _versioned(
        lambda: store.undo_last(
            loaded.record.edit_token,
            base_version=base_version,
            request_key=request_key,
            guard=guard,
        )
    )
    if deal is None:
        return Written(load(record))
    number = loaded.family.number_of(loaded.sheet, deal.position)
    return Written(load(record), deal.id, number, kind_of(deal.data))


def restore_revision(
    store: Store, loaded: Loaded, revision_id: int, *, base_version: int, request_key: str
) -> Written:
    """Put a deal back as one of its revisions had it. Raises RevisionNotFound, Invalid,
    Conflict."""
    guard = check_open(store, loaded, request_key)
    deal_id = None
    if not _stale(loaded, base_version):
        token = loaded.record.edit_token
        revision = next((r for r in store.revisions(token) if r.id == revision_id), None)
        if revision is None:
            raise RevisionNotFound(f"the game has no revision {revision_id}")
        data = revision.previous if revision.action == "delete" else revision.data
        if data is None:
            raise RevisionNotFound(f"revision {revision_id} holds no deal")
        check = check_restore(loaded, revision.deal_id, data)
        if not check.ok:
            raise Invalid(check)
        deal_id = revision.deal_id
    record = _versioned(
        lambda: store.restore_revision(
            loaded.record.edit_token,
            revision_id,
            base_version=base_version,
            request_key=request_key,
            guard=guard,
        )
    )
    return Written(load(record), deal_id)


def used_form(store: Store, loaded: Loaded, request_key: str) -> tuple[bool, DealRecord | None]:
    """Whether a new-deal form with this one-time key was saved already (its address opened
    again by Back after its Save), and the deal it added if that is still on the sheet."""
    used = store.used_key(loaded.record.edit_token, request_key)
    if used is None:
        return False, None
    deal_id = used[1] if used[0] == "add_deal" else None
    return True, next((d for d in loaded.record.deals if d.id == deal_id), None)


# -- the game -----------------------------------------------------------------------------------


class NotCreated(GameRefused):
    """A new game that cannot be created as the form has it: its problems, each at its field
    ("players.2" for the third seat, "first_dealer", "options.stake"); none when the form
    has problems of its own."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("the game cannot be created so")
        self.problems = problems


class NotSeated(NotCreated):
    """The seats of a new game are not a table: a name that cannot be one, two seats of one
    name, a number of players the convention does not seat, a first dealer at no seat."""


def seat_problems(
    convention: str, seats: Sequence[str], first_dealer: str, family: str = RUSSIAN
) -> list[Problem]:
    """What is wrong with the seats of a new game of this family: the names as typed, in
    seating order, empty seats too; the first dealer's seat as its number in text."""
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, name in enumerate(_names(seats)):
        if not name:
            continue
        if (char := bad_character(name)) is not None:
            problems.append(
                Problem(N_("The name cannot hold {char}"), {"char": char}, f"players.{i}")
            )
        elif name_key(name) in seen:
            problems.append(
                Problem(N_("Two players cannot have the same name"), field=f"players.{i}")
            )
        seen.add(name_key(name))
    seated = counts(family_named(family), convention)
    if len([n for n in _names(seats) if n]) not in seated:
        message = _SEATS_MESSAGES.get(seated, N_("Write three, four or five names"))
        problems.append(Problem(message, field="players.0"))
    filled = [i for i, name in enumerate(seats) if (name or "").strip()]
    if not problems and _seat(first_dealer) not in filled:
        problems.append(
            Problem(N_("Choose who deals first among the players"), field="first_dealer")
        )
    return problems


#: What to write when a convention seats another number of players than typed.
_SEATS_MESSAGES = {
    (2,): N_("Hussar is played by two: write two names"),
    (3, 4): N_("Write three or four names"),
}


def new_game(
    store: Store,
    *,
    name: str,
    convention: str,
    family: str = RUSSIAN,
    overrides: Mapping[str, Any] | None,
    seats: Sequence[str],
    first_dealer: str,
    ready: bool = True,
) -> GameRecord:
    """A new game as the new-game form has it: the seats checked (seat_problems), the names
    read (trimmed, NFC), the first dealer found at his seat, the house rules resolved
    against the convention's preset of the family (RUSSIAN, or BALKAN: a preset club,
    iklub or savez). `overrides` None: the form has problems of its own
    (nothing is created; the seats are checked all the same); `ready` False: some house
    rules could not be read (nothing is created; those read are resolved all the same).
    Raises NotSeated, or NotCreated with the problems of the house rules."""
    problems = seat_problems(convention, seats, first_dealer, family)
    if problems:
        raise NotSeated(problems)
    if overrides is None:
        raise NotCreated([])
    options, problems = family_named(family).resolve_options(convention, overrides)
    if problems or not ready:
        raise NotCreated(problems)
    names = _names(seats)
    return create_game(
        store,
        name=name,
        convention=convention,
        options=options,
        players=[n for n in names if n],
        first_dealer=names[_seat(first_dealer)],
    )


def _names(seats: Sequence[str]) -> list[str]:
    """The names typed in the seats, trimmed and NFC-normalised (one name typed two ways is
    one), an empty seat as ""."""
    return [normalize((name or "").strip()) for name in seats]


def _seat(text: str) -> int:
    """A seat's number as the form sends it ("0" when none), or -1."""
    try:
        return int(text or 0)
    except ValueError:
        return -1


def create_game(
    store: Store,
    *,
    name: str,
    convention: str,
    options: dict[str, Any],
    players: list[str],
    first_dealer: str,
) -> GameRecord:
    """A new game with its options resolved (a game file goes through create_from_game)."""
    return store.create_game(
        name=name,
        convention=convention,
        options=options,
        players=players,
        first_dealer=first_dealer,
    )


def rematch(store: Store, loaded: Loaded, *, name: str) -> GameRecord:
    """A new game for the same table: same players and rules, the next player deals first.
    Refused (TournamentTable) for a tournament's table: its next game is the next tour."""
    record = loaded.record
    table = Tournaments(store).of_game(record.id)
    if table is not None:
        raise TournamentTable(table.tour, table.table_no, rematch=True)
    players = list(record.players)
    first = players[(players.index(record.first_dealer) + 1) % len(players)]
    fresh = create_game(
        store,
        name=name,
        convention=record.convention,
        options=dict(record.options),
        players=players,
        first_dealer=first,
    )
    # A company's evening: the rematch is the company's next evening, the same people.
    Companies(store).attach_rematch(record.id, fresh.id, datetime.date.today().isoformat())
    return fresh


def set_finished(
    store: Store, loaded: Loaded, finished: bool, *, base_version: int, request_key: str
) -> Written:
    """Finish the game (keeping its settlement as it stands) or reopen it. Raises Conflict."""
    guard = check_open(store, loaded, request_key)
    if (
        guard is not None
        and finished
        and not loaded.sheet.finished
        and not _resent(store, loaded, request_key)
    ):
        table = Tournaments(store).of_game(loaded.record.id)
        assert table is not None
        raise TournamentTable(table.tour, table.table_no, finishing=True)
    snapshot = finished_report(loaded) if finished else None
    record = _versioned(
        lambda: store.set_finished(
            loaded.record.edit_token,
            finished,
            base_version=base_version,
            snapshot=snapshot,
            request_key=request_key,
            guard=guard,
        )
    )
    return Written(load(record))


def play_on(
    store: Store, loaded: Loaded, target: int, *, base_version: int, request_key: str
) -> Written:
    """Raise the pool of a game whose end rule was met, and reopen it: refused (PoolRefused)
    if the pool is not larger or the log would still end the game. Raises Conflict."""
    guard = check_open(store, loaded, request_key)
    current = loaded.game.options.pool_target
    if target == current and not loaded.record.finished:
        return Written(loaded, changed=False)  # sent again: already done
    if target <= current:
        raise PoolRefused(target, current, still_over=False)
    if over_with_pool(loaded, target):
        raise PoolRefused(target, current, still_over=True)
    options = dict(loaded.record.options) | {"pool_target": target}
    record = _versioned(
        lambda: store.play_on(
            loaded.record.edit_token,
            base_version=base_version,
            options=options,
            request_key=request_key,
            guard=guard,
        )
    )
    return Written(load(record))


def replace_link(store: Store, loaded: Loaded, which: Literal["edit", "view"]) -> GameRecord:
    """A new edit or read-only link for the game: the old one stops working at once."""
    return store.replace_token(loaded.record.edit_token, which)


def delete_game(store: Store, loaded: Loaded) -> str:
    """Take the game off (restorable by its edit link for a while); when it was deleted.
    Raises TournamentTable for a tournament table's game (see check_deletable)."""
    check_deletable(store, loaded)
    return store.delete_game(loaded.record.edit_token)


def check_deletable(store: Store, loaded: Loaded) -> None:
    """Raise TournamentTable if the game is a table of a tournament: its scorer link cannot
    delete it (the tour would be left with a table nobody can close); the director gives
    the table a new scorer link instead."""
    table = Tournaments(store).of_game(loaded.record.id)
    if table is not None:
        raise TournamentTable(table.tour, table.table_no)


def restore_game(store: Store, edit_token: str) -> GameRecord | None:
    """Bring a deleted game back by its edit link; None when no deleted game has that link
    (a live game, a read-only link, or one purged already)."""
    try:
        return store.restore_game(edit_token)
    except GameNotFound:
        return None


def _versioned(write: Any) -> GameRecord:
    try:
        record: GameRecord = write()
    except VersionConflict as error:
        raise Conflict(error.current_version) from error
    return record
