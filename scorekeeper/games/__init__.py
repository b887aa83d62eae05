"""The game service, between the store and the rules: a stored game as a rules Game, its
sheet, and checks of a change to its log before anything is written. The web and the CLI
both use it; no Flask here."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, TypeVar, cast

from scorekeeper import gamefile
from scorekeeper.balkan import BalkanGame
from scorekeeper.kept import Kept
from scorekeeper.rules import (
    DealResult,
    Game,
    Problem,
    Settlement,
    Sheet,
    replay,
)
from scorekeeper.rules.company import net_after_each_deal
from scorekeeper.rules.deals import Deal
from scorekeeper.rules.text import escaped
from scorekeeper.store import GameRecord, Store
from scorekeeper.wording import ENGLISH, Words, translations

from .family import KEY, Family, Told, family_named, family_of_game, family_of_options

_T = TypeVar("_T")


def file_data(record: GameRecord) -> dict[str, Any]:
    """The stored game in game-file notation: its resolved options and its live deals."""
    data: dict[str, Any] = {"format": gamefile.FORMAT}
    options = dict(record.options)
    if KEY in options:  # a game of another family than the Russian one
        data[KEY] = options.pop(KEY)
    if record.name:
        data["name"] = record.name
    data.update(
        convention=record.convention,
        options=options,
        players=list(record.players),
        first_dealer=record.first_dealer,
        finished=record.finished,
        deals=[deal.data for deal in record.deals],
    )
    return data


@dataclass
class Loaded:
    """A stored game with its rules Game and the sheet its log replays into."""

    record: GameRecord
    game: Game
    sheet: Sheet
    problems: list[Problem]
    """Deals of the stored log that cannot be scored (should not happen; shown if it does)."""
    _memo: dict[Hashable, object] = field(default_factory=dict, repr=False)
    """What was computed from this state of the game (its settlement, drawings): kept with
    it in the cache, shared by every page that opens the same state."""

    def kept(self, key: Hashable, make: Callable[[], _T]) -> _T:
        """A value computed from this state once (make()), then kept with it."""
        try:
            return cast(_T, self._memo[key])
        except KeyError:
            pass
        value = make()
        self._memo[key] = value
        return value

    def kept_parts(self) -> dict[Hashable, object]:
        """What is kept with this state so far, by key (a copy: to look at, not to change)."""
        return dict(self._memo)

    @property
    def family(self) -> Family:
        """The rules family the game is played by (chosen when it was made)."""
        return family_of_options(self.record.options)

    def told(self, position: int, words: Words) -> Told:
        """The entry at a 0-based position in words, as a player confirms it: kept with this
        state by language (the followers' cards tell the last deals again after each answer,
        and the words of a deal do not change while the state does not)."""
        if words.translator is not translations(words.locale):  # words of their own: drawn
            return self.family.told(self.sheet, position, words)
        key = ("told", position, words.locale, words.hussar)
        return self.kept(key, lambda: self.family.told(self.sheet, position, words))

    @property
    def editable(self) -> bool:
        """True when opened with the edit token."""
        return self.record.access == "edit"

    @property
    def token(self) -> str:
        """The token this game was opened with."""
        return self.record.edit_token if self.editable else self.record.view_token

    @property
    def settlement(self) -> Settlement:
        """The settlement of the sheet as it stands."""
        return self.kept("settlement", lambda: cast(Settlement, self.family.settle(self.sheet)))

    @property
    def over_limit(self) -> bool:
        """More deals than a game may hold now (stored before the limit): read-only."""
        return len(self.record.deals) > gamefile.MAX_DEALS

    @property
    def can_add_deal(self) -> bool:
        """A deal may be added: not finished by hand nor by the end rule."""
        return not self.sheet.finished

    def report(self) -> dict[str, Any]:
        """What `scorekeeper score --settle` prints for this game's file."""
        return self.family.report(self.sheet)

    def snapshot_differs(self) -> bool:
        """A finished game whose stored settlement is not what the log computes now."""
        snapshot = self.record.finished_snapshot
        return self.record.finished and snapshot is not None and snapshot != self.report()


#: The states of the games being played (the latest of each, and the one before while a
#: page of it is still open): enough for fifty tables at once.
_KEPT: Kept[tuple[object, ...], Loaded] = Kept(128)


def _key(record: GameRecord) -> tuple[object, ...]:
    # The view token is random and unique, so it names the game on any server and in any
    # database file; its version names one state of it (and the time of the last write,
    # should a database file be swapped for a backup that went on to the same version).
    # The same state opened by its edit or its view link is one entry.
    return (record.view_token, record.version, record.updated_at)


def load(record: GameRecord) -> Loaded:
    """Read a stored game and replay it; raises InvalidGame if a stored deal is unreadable.

    A phone asks for the same state of a game several times in a row (the form, the check,
    the save; every follower's page), so the replayed sheet of recent states is kept, with
    what was computed from it (Loaded.kept). The sheet is a value: nothing on it changes
    once it is computed. This is the one cache of game states.
    """
    if escaped(record.name) != record.name:  # stored by an older release: shown escaped
        record = replace(record, name=escaped(record.name))
    kept = _KEPT.get(_key(record))
    if kept is not None:
        return Loaded(record, kept.game, kept.sheet, kept.problems, kept._memo)
    # A game stored before the deal limit (or by an older version, or edited by hand) may
    # hold more deals than a game may now, even more than a file may: it still opens,
    # read-only (over_limit), with every deal it holds.
    most = max(gamefile.FORMAT_MAX_DEALS, len(record.deals))
    family = family_of_options(record.options)
    game = family.load(file_data(record), max_deals=most)
    sheet, problems = family.replay(game)
    loaded = Loaded(record, game, sheet, problems)
    _keep(loaded)
    return loaded


def file_text(loaded: Loaded) -> str:
    """The game's file as its family writes it (a Balkan one with `"family": "balkan"`)."""
    data = loaded.family.dump(loaded.game)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def current(store: Store, token: str) -> Loaded:
    """The game of a token as stored now (e.g. after a write was refused)."""
    return load(store.get_game(token))


def _keep(loaded: Loaded) -> None:
    _KEPT.put(_key(loaded.record), loaded)


def kept_states() -> list[tuple[str, int]]:
    """The game states kept now, each as (the game's view token, its version)."""
    return [(str(key[0]), int(key[1])) for key in _KEPT]  # type: ignore[call-overload]


def kept_loaded() -> list[Loaded]:
    """The game states kept now, least recently used first."""
    return _KEPT.values()


def forget_kept() -> None:
    """Drop every kept game state, as a server that has just started has none."""
    _KEPT.clear()


def finished_report(loaded: Loaded) -> dict[str, Any]:
    """The settlement snapshot to keep when the game is finished now."""
    family = loaded.family
    sheet, _ = family.replay(family.finished(loaded.game))
    return family.report(sheet)


def over_with_pool(loaded: Loaded, pool_target: int) -> bool:
    """The game would still be over (or could not be scored) if reopened with this pool
    target: its log replayed under the new target."""
    options = replace(loaded.game.options, pool_target=pool_target)
    sheet, problems = replay(replace(loaded.game, options=options, finished=False))
    return bool(problems) or sheet.ended_after is not None


# -- checking a change before it is written ------------------------------------------------


@dataclass
class Check:
    """What a change to the log would do: the new sheet, or why it cannot be written."""

    problems: list[Problem]
    """Problems of the deal itself (their field names the input)."""
    later: list[Problem] = field(default_factory=list)
    """Problems the change causes elsewhere in the log (e.g. a later deal becomes invalid)."""
    sheet: Sheet | None = None
    result: DealResult | None = None
    """The changed deal's replayed result, when there is one."""
    all_problems: list[Problem] = field(default_factory=list)
    """Every problem of the changed log, as a replay of it reports them."""
    points_before: list[dict[str, Fraction]] | None = None
    """For a deal added at the end: the chart points of the log before it, if computed."""

    @property
    def ok(self) -> bool:
        """Nothing is wrong: the change may be written."""
        return not self.problems and not self.later


def _replayed(loaded: Loaded, deals: list[Deal], focus: int | None) -> Check:
    """Replay a changed log; focus is the 1-based number of the changed deal, if any."""
    sheet, problems = loaded.family.replay(loaded.game.with_deals(tuple(deals)))
    return _checked(loaded, sheet, problems, focus)


def _appended(loaded: Loaded, deal: Deal) -> Check:
    """A deal added at the end: the kept sheet plus that one deal, no replay of the log.

    The deals before it are scored as they were (a deal never changes an earlier one), so
    the problems of the longer log are the kept ones and the new deal's own.
    """
    sheet, own = loaded.sheet.plus(deal)
    check = _checked(loaded, sheet, [*loaded.problems, *own], len(loaded.game.deals) + 1)
    check.points_before = cast(list[dict[str, Fraction]] | None, loaded._memo.get(_POINTS))
    return check


def _checked(loaded: Loaded, sheet: Sheet, problems: list[Problem], focus: int | None) -> Check:
    """The check of a changed log from its sheet and problems; focus as in _replayed."""
    before = {(p.template, tuple(sorted(p.params.items()))) for p in loaded.problems}
    own = [p for p in problems if focus is not None and p.deal == focus]
    later = [
        p
        for p in problems
        if p.deal != focus and (p.template, tuple(sorted(p.params.items()))) not in before
    ]
    result = loaded.family.result_at(sheet, focus) if focus is not None and not own else None
    return Check(own, later, sheet, result, problems)


def remember(record: GameRecord, check: Check) -> None:
    """Keep a checked change's sheet as the sheet of the state it was written as.

    The store wrote exactly the deal that was checked, on exactly the version it was
    checked against (or it would have refused), so the next page needs no replay.
    """
    if check.sheet is None:
        return
    loaded = Loaded(record, check.sheet.game, check.sheet, check.all_problems)
    if check.points_before is not None:
        loaded._memo[_POINTS_BEFORE] = check.points_before
    _keep(loaded)


_POINTS, _POINTS_BEFORE = "net points", "net points before"


def net_points(loaded: Loaded) -> list[dict[str, Fraction]]:
    """Each player's "if it ended now" net after every deal (the evening chart), kept with
    the state; a state saved as the one before plus a deal adds one point to its points."""
    known = cast(list[dict[str, Fraction]], loaded._memo.pop(_POINTS_BEFORE, []))
    return loaded.kept(_POINTS, lambda: net_after_each_deal(loaded.sheet, known, loaded.settlement))


def check_deal(loaded: Loaded, deal: Deal | dict[str, Any], position: int | None = None) -> Check:
    """Check a new deal (position None) or a replacement for the deal at a 0-based position:
    a rules Deal, or a deal in game-file notation (read here)."""
    if isinstance(deal, dict):
        read: Deal | None
        read, problems = loaded.family.parse_deal(deal, loaded.game.players)
        if read is None or problems:
            return Check(problems)
        deal = read
    if position is None:
        return _appended(loaded, deal)
    deals = list(loaded.game.deals)
    deals[position] = deal
    return _replayed(loaded, deals, position + 1)


def check_delete(loaded: Loaded, position: int) -> Check:
    """Check taking the deal at a 0-based position off the sheet."""
    deals = list(loaded.game.deals)
    del deals[position]
    return _replayed(loaded, deals, None)


def check_restore(loaded: Loaded, deal_id: int, data: dict[str, Any]) -> Check:
    """Check putting a deal back with this data: in place if live, else where it stood.

    The store keeps a deleted deal's place; we find it by deal id, which orders the deals
    as long as they are only ever appended (the web and import never insert in the middle).
    """
    deal, problems = loaded.family.parse_deal(data, loaded.game.players)
    if deal is None or problems:
        return Check(problems)
    deals = list(loaded.game.deals)
    ids = [d.id for d in loaded.record.deals]
    if deal_id in ids:
        position = ids.index(deal_id)
        deals[position] = deal
    else:
        position = sum(1 for i in ids if i < deal_id)
        deals.insert(position, deal)
    return _replayed(loaded, deals, position + 1)


# -- creating games ------------------------------------------------------------------------


def finished_snapshot(game: Game | BalkanGame) -> dict[str, Any]:
    """The settlement snapshot a finished game read from a file is stored with (as
    finished_report), computed before any write: an import replays its games outside the
    database's write lock."""
    family = family_of_game(game)
    sheet, _ = family.replay(family.finished(game))
    return family.report(sheet)


def create_from_game(
    store: Store, game: Game | BalkanGame, *, snapshot: dict[str, Any] | None = None
) -> GameRecord:
    """Store a game read from a game file, with its options fully resolved (a finished one
    with its settlement snapshot: the one given, else computed here)."""
    options, deals = family_of_game(game).stored(game)
    record = store.create_game(
        name=game.name,
        convention=game.convention,
        options=options,
        players=list(game.players),
        first_dealer=game.first_dealer,
        deals=deals,
        finished=game.finished,
    )
    if game.finished:
        if snapshot is None:
            snapshot = finished_report(load(record))
        record = store.set_finished(
            record.edit_token, True, base_version=record.version, snapshot=snapshot
        )
    return record


# -- words for people --------------------------------------------------------------------


def describe(
    data: dict[str, Any] | None,
    players: tuple[str, ...],
    words: Words = ENGLISH,
    family: Family | None = None,
) -> str:
    """A stored deal's data in words, for the history: "Anna 7♠ — Boris: whist, …"; a Balkan
    entry "Ana: tref; follow: Boža, Ceca; tricks: Ana 6, Boža 2, Ceca 2" (its family's)."""
    if data is None:
        return ""
    return (family or family_named(None)).describe(data, players, words)
