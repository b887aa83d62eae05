"""Scoring: replay the deal log into the sheet of pool, hill and whists (docs/rules.md §4, §5).

Every amount is an `Entry` that remembers the deal that wrote it and why, so that any number
on the sheet can be traced; the sheet's totals are sums of its entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from .contracts import HALF_QUOTA, PERSONAL_QUOTA, QUOTA, VALUE, Contract, Suit
from .deals import (
    AllPassDeal,
    Answer,
    ContractDeal,
    Correction,
    Deal,
    MisereDeal,
    Penalty,
    Redeal,
    Unreadable,
    is_table_deal,
)
from .game import Game
from .options import (
    AllpassExitOn,
    AllpassMode,
    AllpassZeroBonus,
    AllpassZeroForm,
    EndRule,
    HalfWhistTricks,
    Options,
    Overflow,
    TwoWhisterQuota,
    WhistSplit,
)
from .problems import N_, InvalidGame, Problem
from .reasons import Reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Column(StrEnum):
    """A column of the sheet (§1): a player's pool, his hill, his whists on another player."""

    POOL = "pool"
    HILL = "hill"
    WHISTS = "whists"


POOL, HILL, WHISTS = Column.POOL, Column.HILL, Column.WHISTS

#: An exact amount while the log is replayed: a whole number is kept as an int (much faster
#: than a Fraction), anything else as a Fraction. Entries and the sheet always hold Fractions.
Num = Fraction | int


#: Fractions of the whole amounts a sheet holds, each made once (a Fraction is immutable;
#: bounded, since a file may hold any amount).
_whole = lru_cache(maxsize=4096)(Fraction)


def _num(value: Fraction) -> Num:
    """A Fraction as an int when it is whole."""
    return value.numerator if value.denominator == 1 else value


#: The answers a defender may give, and in Hussar (§9).
_ANSWERS = (Answer.WHIST, Answer.PASS, Answer.HALF_WHIST, Answer.WHIST_RETURNED)
_HUSSAR_ANSWERS = (Answer.WHIST, Answer.WHIST_TALON, Answer.PASS)

#: Hussar quotas (§9): alone, and with the talon; a ten is only checked.
HUSSAR_QUOTA: dict[Answer, dict[int, int]] = {
    Answer.WHIST: {6: 2, 7: 1, 8: 1, 9: 1, 10: 0},
    Answer.WHIST_TALON: {6: 4, 7: 2, 8: 1, 9: 1, 10: 0},
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One amount on the sheet: who, which column, how much, written by which deal and why."""

    deal: int
    """1-based position in the deal log."""
    player: str
    column: Column
    amount: Fraction
    reason: Reason
    on: str | None = None
    """For whists: the player they are written on (the debtor)."""

    def __str__(self) -> str:
        target = f" on {self.on}" if self.on else ""
        amount = _signed(self.amount)
        return f"deal {self.deal}: {self.player} {self.column}{target} {amount} ({self.reason})"


def entry_class(kind: str) -> str:
    """What an entry of the log is counted among: "correction", "penalty", or "deal" (every
    deal dealt at the table, whatever was played)."""
    return kind if kind in ("correction", "penalty") else "deal"


@dataclass(frozen=True, slots=True)
class DealResult:
    """A deal of the log with its place at the table and the entries it wrote."""

    number: int
    deal: Deal
    dealer: str | None
    """Who dealt (None for a correction, which is not a deal at the table)."""
    entries: tuple[Entry, ...]
    allpass_streak: int
    """All-passes in a row before this deal."""
    min_level: int | None
    """The lowest contract allowed in this deal by the all-pass exit, if any."""
    ended: bool
    """The game's end rule was met after this deal."""


@dataclass
class _Totals:
    """Running totals of the sheet, kept while the log is replayed (never changed after)."""

    pool: dict[str, Num]
    hill: dict[str, Num]
    whists: dict[str, dict[str, Num]]
    dealer_index: int
    table_deals: int

    @classmethod
    def empty(cls, game: Game) -> _Totals:
        players = game.players
        return cls(
            dict.fromkeys(players, 0),
            dict.fromkeys(players, 0),
            {p: {q: 0 for q in players if q != p} for p in players},
            players.index(game.first_dealer),
            0,
        )

    def add(self, entry: Entry) -> None:
        """Write one entry of the sheet into the totals."""
        if entry.column == POOL:
            self.pool[entry.player] += entry.amount
        elif entry.column == HILL:
            self.hill[entry.player] += entry.amount
        else:
            assert entry.on is not None
            self.whists[entry.player][entry.on] += entry.amount

    def copy(self) -> _Totals:
        return _Totals(
            dict(self.pool),
            dict(self.hill),
            {p: dict(on) for p, on in self.whists.items()},
            self.dealer_index,
            self.table_deals,
        )


class Sheet:
    """The pulka after a replay of the log: totals, entries, and whose deal is next."""

    def __init__(
        self,
        game: Game,
        results: Sequence[DealResult],
        next_dealer: str,
        allpass_streak: int,
        ended_after: int | None,
        *,
        problems: Sequence[Problem] = (),
        _totals: _Totals,
    ) -> None:
        self.game = game
        self.results = tuple(results)
        self.next_dealer = next_dealer
        self.allpass_streak = allpass_streak
        self.ended_after = ended_after
        self.problems: tuple[Problem, ...] = tuple(problems)
        """Every problem of the log (deals with problems write nothing)."""
        self._running: _Running | None = None
        self._totals = _totals
        self._pool = {p: Fraction(v) for p, v in _totals.pool.items()}
        self._hill = {p: Fraction(v) for p, v in _totals.hill.items()}
        self._whists = {
            p: {q: Fraction(v) for q, v in on.items()} for p, on in _totals.whists.items()
        }

    def plus(self, deal: Deal) -> tuple[Sheet, list[Problem]]:
        """This sheet with one more deal at the end of the log, without replaying the log.

        Returns the new sheet (its game's log is this one's plus the deal) and the problems of
        that deal (empty when it can be written). The result is the same as replaying the
        longer log from the start."""
        game = self.game.with_deals((*self.game.deals, deal))
        scorer = _Scorer(game, self)
        scorer.step(len(game.deals), deal)
        sheet = scorer.sheet()
        if self._running is not None:
            sheet._running = _run_on(self._running, sheet.results[len(self.results) :])
        return sheet, scorer.problems[len(self.problems) :]

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seating (clockwise) order."""
        return self.game.players

    @property
    def options(self) -> Options:
        """The game's resolved options."""
        return self.game.options

    @property
    def entries(self) -> list[Entry]:
        """Every entry of every deal, in the order written."""
        return [e for r in self.results for e in r.entries]

    def pool(self, player: str) -> Fraction:
        """The player's pool."""
        return self._pool[player]

    def hill(self, player: str) -> Fraction:
        """The player's hill."""
        return self._hill[player]

    def whists(self, player: str, on: str) -> Fraction:
        """Whists the player has written on another player (his credit, the other's debt)."""
        return self._whists[player][on]

    def closed(self, player: str) -> bool:
        """True when the player's pool has reached the pool target (§5)."""
        return self._pool[player] >= self.options.pool_target

    def running(self, player: str, column: str, on: str | None = None) -> list[Fraction]:
        """The running sums of one column as written on paper, e.g. [2, 6, 10]."""
        if self._running is None:
            # One pass over the entries for every column of every player (the drawing asks
            # for all of them).
            self._running = _run_on({}, self.results)
        return list(self._running.get((player, column, on), ()))

    @property
    def finished(self) -> bool:
        """True when finished by hand or when the end rule was met."""
        return self.game.finished or self.ended_after is not None

    @property
    def next_min_level(self) -> int | None:
        """The lowest contract the next deal may be (all-pass exit), if any restriction."""
        return min_level(self.game.options, self.allpass_streak)

    @property
    def next_active(self) -> list[str]:
        """Who plays the next deal (all but those sitting out at a table of four or five)."""
        return active_players(self.players, self.next_dealer)

    def deal_count(self) -> int:
        """How many deals were dealt at the table (corrections and penalties not counted)."""
        return self._totals.table_deals

    def count_of(self, kind: str) -> int:
        """How many entries of the log are of one kind ("correction", "penalty", …)."""
        return sum(1 for result in self.results if result.deal.kind == kind)

    def number_of(self, position: int, kind: str | None = None) -> int:
        """The number people give the entry at a 0-based position (a new one: the position
        after the last), counted among its own kind: deals among the deals dealt at the
        table, penalties among penalties, corrections among corrections ("deal 11" after
        ten deals and a correction, which is "correction 1"). `kind` names the entry's kind
        when it is not (yet) the one stored there (a form about to save a correction)."""
        if kind is None:
            kind = self.results[position].deal.kind if position < len(self.results) else "deal"
        wanted = entry_class(kind)
        before = self.results[:position]
        return 1 + sum(1 for r in before if entry_class(r.deal.kind) == wanted)

    def dealt_by(self, number: int) -> int:
        """How many deals were dealt at the table among the first `number` entries."""
        return sum(1 for r in self.results[:number] if entry_class(r.deal.kind) == "deal")

    @property
    def round_limit(self) -> int | None:
        """The agreed number of rounds (§5 round_limit), or None."""
        return self.options.round_limit

    @property
    def rounds_over(self) -> bool:
        """True when the round limit or the deal limit (if any) has been reached (§5): a
        tournament table's tour is played."""
        limit = self.options.round_limit
        dealt = self.deal_count()
        if limit is not None and dealt >= limit * len(self.players):
            return True
        return self.options.deal_limit is not None and dealt >= self.options.deal_limit

    @property
    def next_round(self) -> tuple[int, int]:
        """(round, deal within the round), both from 1, of the next deal at the table (§5).

        A round is one deal by every player at the table (N deals); corrections and penalties
        do not count. After the last deal of a limited game this names the round after it."""
        dealt = self.deal_count()
        n = len(self.players)
        return dealt // n + 1, dealt % n + 1


def sitting_out(players: Sequence[str], dealer: str | None) -> list[str]:
    """Who sits out a deal (§2): at four the dealer; at five the dealer and the next dealer
    (the player on the dealer's left); nobody at two or three. Dealer first."""
    if dealer is None or len(players) < 4:
        return []
    if len(players) == 4:
        return [dealer]
    i = players.index(dealer)
    return [dealer, players[(i + 1) % len(players)]]


def active_players(players: Sequence[str], dealer: str | None) -> list[str]:
    """Players in a deal, in seating order: all but those sitting out (§2)."""
    out = sitting_out(players, dealer)
    return [p for p in players if p not in out]


def defenders(players: Sequence[str], dealer: str | None, declarer: str) -> list[str]:
    """First and second defender: active players clockwise from the declarer's left (§2)."""
    active = active_players(players, dealer)
    start = players.index(declarer)
    ordered = [players[(start + i) % len(players)] for i in range(1, len(players))]
    return [p for p in ordered if p in active]


def min_level(options: Options, streak: int) -> int | None:
    """Lowest contract allowed after `streak` all-passes in a row (§4.5 allpass_exit)."""
    if streak <= 0 or not options.allpass_exit:
        return None
    return options.allpass_exit[min(streak, len(options.allpass_exit)) - 1]


def score(game: Game) -> Sheet:
    """Replay the game's log into its sheet; raises InvalidGame listing every problem."""
    sheet, problems = replay(game)
    if problems:
        raise InvalidGame(problems)
    return sheet


def replay(game: Game) -> tuple[Sheet, list[Problem]]:
    """Replay the log; deals with problems write nothing and are reported, never raised.

    A game is immutable, so its replay is computed once and kept with it: loading a file
    (which checks it by replaying) and scoring it afterwards cost one replay, not two."""
    kept: tuple[Sheet, list[Problem]] | None = game.__dict__.get("_replayed")
    if kept is not None:
        return kept[0], list(kept[1])
    scorer = _Scorer(game)
    for number, deal in enumerate(game.deals, start=1):
        scorer.step(number, deal)
    sheet = scorer.sheet()
    object.__setattr__(game, "_replayed", (sheet, scorer.problems))
    return sheet, list(scorer.problems)


_Running = dict[tuple[str, str, str | None], list[Fraction]]


def _run_on(running: _Running, results: Sequence[DealResult]) -> _Running:
    """The running sums of every column after `results`, from those before them (kept as
    they are: a column the results do not write on is shared, not copied)."""
    index = dict(running)
    grown: set[tuple[str, str, str | None]] = set()
    for result in results:
        for entry in result.entries:
            key = (entry.player, entry.column, entry.on)
            sums = index.get(key)
            if sums is None:
                index[key] = [entry.amount]
                grown.add(key)
            else:
                if key not in grown:
                    sums = index[key] = list(sums)
                    grown.add(key)
                sums.append(sums[-1] + entry.amount)
    return index


class _Scorer:
    """The scorer at the table: keeps the running totals while the log is replayed."""

    # Slots: a replay reads these thousands of times, and a slot is the quickest attribute.
    __slots__ = (
        "game",
        "opts",
        "players",
        "hussar",
        "totals",
        "streak",
        "ended_after",
        "results",
        "problems",
        "pools",
        "number",
        "written",
        "_dealer",
        "_pool_written",
        "_target",
        "_round_deals",
        "_deal_limit",
        "_exit_whisted_made",
        "_dealer_whists",
        "_dealer_talon",
        "_value",
        "_per_trick",
        "_remise_per",
        "_console_per",
        "_short_per",
        "_overflow_per",
        "_any_exits_allpass",
        "_keep_overflow",
        "_split_always",
        "_split_on_remise",
        "_personal_quota",
        "_allpass_hill",
        "_allpass_whists",
        "_end_all_closed",
        "_end_pool_sum",
        "_stalingrad",
        "_active",
        "_defenders",
    )

    def __init__(self, game: Game, start: Sheet | None = None) -> None:
        self.game = game
        opts = self.opts = game.options
        self.players = game.players
        self.hussar = game.hussar
        self._start_from(start)
        self.pools = self.totals.pool
        self.number = 0
        self.written: list[Entry] = []
        self._dealer: str | None = None
        self._pool_written = False
        self._target = opts.pool_target
        self._round_deals = (
            None if opts.round_limit is None else opts.round_limit * len(self.players)
        )
        self._deal_limit = opts.deal_limit
        self._exit_whisted_made = opts.allpass_exit_on == AllpassExitOn.WHISTED_MADE
        # The dealer's part (§4.5, §4.8): only where he sits out, at four or five.
        sits_out = len(self.players) >= 4 and not self.hussar
        self._dealer_whists = sits_out and opts.dealer_whist
        self._dealer_talon = sits_out and opts.allpass_dealer_talon
        self._ask_once(opts)
        self._active: dict[str | None, list[str]] = {}
        self._defenders: dict[tuple[str | None, str], list[str]] = {}

    def _start_from(self, start: Sheet | None) -> None:
        """The totals, all-pass streak, end, results and problems the replay starts from: a
        blank sheet's, or a copy of `start`'s (to score deals after it)."""
        if start is None:
            self.totals = _Totals.empty(self.game)
            self.streak = 0
            self.ended_after: int | None = None
            self.results: list[DealResult] = []
            self.problems: list[Problem] = []
        else:
            self.totals = start._totals.copy()
            self.streak = start.allpass_streak
            self.ended_after = start.ended_after
            self.results = list(start.results)
            self.problems = list(start.problems)

    def _ask_once(self, opts: Options) -> None:
        """What the options decide, worked out once per game: the amounts that depend only on
        the contract's level, and each choice (an enum member is slow to look up)."""
        self._value: dict[int, Num] = dict(VALUE)
        self._per_trick = {lv: _num(v * opts.whist_scale) for lv, v in VALUE.items()}
        self._remise_per = {lv: _num(v * opts.remise_scale) for lv, v in VALUE.items()}
        self._console_per = {
            lv: _num(opts.consolation_per_undertrick(v)) for lv, v in VALUE.items()
        }
        self._short_per = {lv: _num(v * opts.shortfall_rate) for lv, v in VALUE.items()}
        self._overflow_per = _num(Fraction(opts.pool_whists, opts.hill_whists))
        self._any_exits_allpass = opts.allpass_exit_on == AllpassExitOn.ANY
        self._keep_overflow = opts.overflow == Overflow.KEEP
        self._split_always = opts.whist_split == WhistSplit.GENTLEMAN
        self._split_on_remise = opts.whist_split == WhistSplit.GENTLEMAN_ON_REMISE
        self._personal_quota = opts.two_whister_quota == TwoWhisterQuota.PERSONAL
        self._allpass_hill = opts.allpass_mode == AllpassMode.HILL
        self._allpass_whists = opts.allpass_mode == AllpassMode.WHISTS
        self._end_all_closed = opts.end == EndRule.ALL_CLOSED
        self._end_pool_sum = opts.end == EndRule.POOL_SUM
        self._stalingrad = opts.stalingrad and not self.hussar  # no Stalingrad at two (§9)

    @property
    def dealer_index(self) -> int:
        return self.totals.dealer_index

    @property
    def table_deals(self) -> int:
        return self.totals.table_deals

    def active(self, dealer: str | None) -> list[str]:
        found = self._active.get(dealer)
        if found is None:
            found = self._active[dealer] = active_players(self.players, dealer)
        return found

    def defenders(self, dealer: str | None, declarer: str) -> list[str]:
        found = self._defenders.get((dealer, declarer))
        if found is None:
            found = self._defenders[dealer, declarer] = defenders(self.players, dealer, declarer)
        return found

    def sheet(self) -> Sheet:
        return Sheet(
            self.game,
            self.results,
            self.players[self.dealer_index % len(self.players)],
            self.streak,
            self.ended_after,
            problems=self.problems,
            _totals=self.totals,
        )

    # -- one deal ---------------------------------------------------------------------------

    def step(self, number: int, deal: Deal) -> None:
        self.number = number
        self.written = []
        self._pool_written = False
        if self.ended_after is not None:
            self._refuse_after_the_end()
            return
        table = is_table_deal(deal)
        dealer = self.players[self.totals.dealer_index % len(self.players)] if table else None
        level_floor = min_level(self.opts, self.streak) if table and self.streak else None
        before = len(self.problems)
        if table and deal.dealer is not None and deal.dealer != dealer:
            self._problem(
                N_("it is {expected}'s deal, not {given}'s"),
                "dealer",
                expected=dealer,
                given=deal.dealer,
            )
        self._dealer = dealer
        self._check(deal, dealer, level_floor)
        if len(self.problems) == before:
            self._apply(deal, dealer)
        else:
            self.written = []
        streak_before = self.streak
        if table:
            self.totals.dealer_index += 1
            self.totals.table_deals += 1
            if isinstance(deal, AllPassDeal) or deal.kind == "allpass":
                self.streak += 1
            elif isinstance(deal, ContractDeal | MisereDeal) and self._exits_allpass(deal):
                self.streak = 0
        # The end rule can only become true when a pool was written or a deal was dealt.
        ended = (
            len(self.problems) == before
            and (self._pool_written or (table and self._limited))
            and self._end_met()
        )
        if ended:
            self.ended_after = number
        self.results.append(
            DealResult(number, deal, dealer, tuple(self.written), streak_before, level_floor, ended)
        )

    def _refuse_after_the_end(self) -> None:
        """Nothing follows the end of the game (§5): said with the limit that ended it."""
        ended = self.ended_after
        if self._round_deals is not None and self.table_deals >= self._round_deals:
            template = N_(
                "the game ended after deal {ended}: the round limit ({rounds}) is reached, "
                "no deal can follow"
            )
        elif self._deal_limit is not None and self.table_deals >= self._deal_limit:
            template = N_(
                "the game ended after deal {ended}: the deal limit ({deals}) is reached, "
                "nothing can follow"
            )
        else:
            template = N_("the game ended after deal {ended}: no deal can follow (reopen it first)")
        self._problem(template, ended=ended, rounds=self.opts.round_limit, deals=self._deal_limit)

    @property
    def _limited(self) -> bool:
        """A round or deal limit is set: dealing alone may end the game (§5)."""
        return self._round_deals is not None or self._deal_limit is not None

    def _exits_allpass(self, deal: ContractDeal | MisereDeal) -> bool:
        """Does this contract or misère end an all-pass streak (§4.5 allpass_exit_on)?

        With "any" every one does; with "made" only one that writes into the declarer's pool:
        a made contract, both defenders passing or a half-whist, a made misère; with
        "whisted_made" only a made contract somebody whisted. A deal that could not be scored
        (it has problems) is judged as written, if it can be."""
        if self._any_exits_allpass:
            return True
        if isinstance(deal, MisereDeal):
            return not self._exit_whisted_made and deal.tricks.get(deal.declarer, 0) == 0
        if not deal.played:
            return not self._exit_whisted_made
        taken = deal.tricks.get(deal.declarer)
        return taken is not None and taken >= deal.contract.level

    def _problem(self, template: str, field: str | None = None, **params: Any) -> None:
        self.problems.append(Problem(template, params, field, self.number))

    # -- checks that need the state of the table --------------------------------------------

    def _check(self, deal: Deal, dealer: str | None, level_floor: int | None) -> None:
        if isinstance(deal, Correction | Unreadable | Penalty):
            return
        if isinstance(deal, Redeal):
            # docs/game-format.md: a redeal (a misdeal dealt again; Hussar's both passing) writes
            # nothing and passes the deal, in every convention (the format's own example is
            # a Sochi game ending in one); it leaves an all-pass streak as it was.
            return
        active = self.active(dealer)
        if isinstance(deal, AllPassDeal):
            self._check_allpass(deal, active)
            return
        if deal.declarer not in active:
            if deal.declarer == dealer:
                self._problem(
                    N_("{name} deals and sits out this deal, so cannot declare"),
                    "declarer",
                    name=deal.declarer,
                )
            else:
                self._problem(
                    N_("{name} deals next and sits out this deal, so cannot declare"),
                    "declarer",
                    name=deal.declarer,
                )
            return
        if isinstance(deal, MisereDeal):
            self._check_tricks(deal.tricks, active, required=[deal.declarer])
            return
        self._check_contract(deal, dealer, active, level_floor)

    def _check_allpass(self, deal: AllPassDeal, active: list[str]) -> None:
        if self.hussar:
            self._problem(
                N_("there is no all-pass in Hussar: when both pass, record a redeal"), "type"
            )
            return
        takers = self.allpass_takers(self._dealer)
        self._check_tricks(deal.tricks, takers, required=takers)
        dealer = self._dealer
        if len(takers) > len(active) and dealer is not None and deal.tricks.get(dealer, 0) > 2:
            self._problem(
                N_("{name} deals and plays the talon: 0, 1 or 2 tricks, not {count}"),
                f"tricks.{dealer}",
                name=dealer,
                count=deal.tricks[dealer],
            )

    def allpass_takers(self, dealer: str | None) -> list[str]:
        """Who takes tricks in an all-pass, in seating order: the active players, and the
        dealer when he plays the talon (`allpass_dealer_talon`, 4 or 5 players, §4.5)."""
        active = self.active(dealer)
        if not self._dealer_talon or dealer is None:
            return active
        return [p for p in self.players if p in active or p == dealer]

    def _check_contract(
        self, deal: ContractDeal, dealer: str | None, active: list[str], level_floor: int | None
    ) -> None:
        defs = self.defenders(dealer, deal.declarer)
        if not self._answered_by_defenders(deal, dealer, defs):
            return
        ok = self._answers_allowed(deal, defs)
        if ok and self._stalingrad and is_stalingrad(deal.contract):
            ok = self._stalingrad_whisted(deal, defs)
        if deal.talon_tricks is not None and not self.opts.talon_bonus:
            self._problem(
                N_(
                    "talon_tricks are written only when the talon bonus is played "
                    "(the rule “Whists for quick tricks in the talon”)"
                ),
                "talon_tricks",
            )
        if level_floor is not None and deal.contract.level < level_floor:
            self._problem(
                N_(
                    "after all-pass ({streak} in a row) the contract must be at least {level}, "
                    "or misère"
                ),
                "contract",
                streak=self.streak,
                level=level_floor,
            )
        if not ok:
            return
        if not deal.played:
            if deal.tricks:
                self._problem(
                    N_("no tricks are written when nobody whists: the contract is not played"),
                    "tricks",
                )
            return
        whisters = deal.whisters
        required = [deal.declarer] + (whisters if len(whisters) == 2 else [])
        self._check_tricks(deal.tricks, active, required)

    def _answered_by_defenders(
        self, deal: ContractDeal, dealer: str | None, defs: list[str]
    ) -> bool:
        """Each defender answers, and nobody else (§2)."""
        answers = deal.answers
        stray = False
        for name in answers:
            if name not in defs and not (name == dealer and self._dealer_whists):
                stray = True
                if name == dealer and answers[name] is Answer.WHIST:
                    what = N_("{name} deals: the dealer's whist is not played in this game")
                elif name == deal.declarer:
                    what = N_("{name} is the declarer and does not answer")
                elif name == dealer:
                    what = N_("{name} deals and sits out this deal, so does not answer")
                else:
                    what = N_("{name} deals next and sits out this deal, so does not answer")
                self._problem(what, f"answers.{name}", name=name)
        for name in defs:
            if name not in answers:
                self._problem(
                    N_("{name} has not answered (whist or pass)"), f"answers.{name}", name=name
                )
        return not stray and all(name in answers for name in defs)

    def _answers_allowed(self, deal: ContractDeal, defs: list[str]) -> bool:
        """Every answer is one this game knows (a half-whist only where it may be, §4.2; a
        returned whist and the dealer's whist only after pass – half-whist, §4.8)."""
        allowed = _HUSSAR_ANSWERS if self.hussar else _ANSWERS
        ok = True
        for name in defs:
            answer = deal.answers[name]
            if answer not in allowed:
                ok = False
                self._problem(
                    N_("{name}: {answer} is not an answer in this game"),
                    f"answers.{name}",
                    name=name,
                    answer=answer.value,
                )
            elif answer is Answer.HALF_WHIST and not self._half_whist_allowed(deal, defs, name):
                ok = False
            elif answer is Answer.WHIST_RETURNED and not self._overrules_half_whist(
                deal, defs, name, returned=True
            ):
                ok = False
        dealer = self._dealer
        if dealer in deal.answers and dealer not in defs:
            ok = self._overrules_half_whist(deal, defs, dealer, returned=False) and ok
        return ok

    def _overrules_half_whist(
        self, deal: ContractDeal, defs: list[str], name: str, *, returned: bool
    ) -> bool:
        """A returned whist (the first defender) or the dealer's whist: only after the first
        defender passed and the second half-whisted (§4.8)."""
        answers = deal.answers
        half = answers[defs[-1]] is Answer.HALF_WHIST
        if returned:
            sound = half and len(defs) == 2 and name == defs[0]
            if not sound:
                self._problem(
                    N_(
                        "{name}: the whist is returned only by the first defender, after the "
                        "second half-whisted"
                    ),
                    f"answers.{name}",
                    name=name,
                )
            return sound
        if answers[name] is not Answer.WHIST or not half or answers[defs[0]] is not Answer.PASS:
            self._problem(
                N_("{name} deals and may only whist, after pass – half-whist – pass"),
                f"answers.{name}",
                name=name,
            )
            return False
        return True

    def _half_whist_allowed(self, deal: ContractDeal, defs: list[str], name: str) -> bool:
        """Only the second defender half-whists, after the first passed, on a level the
        half_whist option names (§4.2)."""
        level = deal.contract.level
        first = deal.answers[defs[0]]
        if name != defs[-1] or first not in (Answer.PASS, Answer.WHIST_RETURNED):
            self._problem(
                N_("{name}: only the second defender, after the first passed, may half-whist"),
                f"answers.{name}",
                name=name,
            )
            return False
        if level not in self.opts.half_whist:
            self._problem(
                N_("{name}: no half-whist on {level} in this game"),
                f"answers.{name}",
                name=name,
                level=level,
            )
            return False
        return True

    def _stalingrad_whisted(self, deal: ContractDeal, defs: list[str]) -> bool:
        """A 6♠ under `stalingrad`: both defenders whist it (§7)."""
        if any(deal.answers[name] is not Answer.WHIST for name in defs):
            self._problem(N_("Stalingrad: on 6♠ both defenders must whist"), "answers")
            return False
        return True

    def _check_tricks(self, tricks: dict[str, int], active: list[str], required: list[str]) -> None:
        """The tricks name only those who take tricks (`active`), every one `required`, and
        add up to 10 when all are given."""
        sound = True
        for name in tricks:
            if name not in active:
                sound = False
                self._problem(
                    N_("{name} deals and sits out this deal, so takes no tricks")
                    if name == self._dealer
                    else N_("{name} deals next and sits out this deal, so takes no tricks"),
                    f"tricks.{name}",
                    name=name,
                )
        for name in required:
            if name not in tricks:
                sound = False
                self._problem(N_("tricks missing: {name}"), f"tricks.{name}", name=name)
        if not sound:
            return
        total = sum(tricks.values())
        if all(name in tricks for name in active):
            if total != 10:
                self._problem(N_("tricks add up to {total}, not 10"), "tricks", total=total)
        elif total > 10:
            self._problem(N_("tricks add up to {total}, more than 10"), "tricks", total=total)

    # -- writing ----------------------------------------------------------------------------

    def _apply(self, deal: Deal, dealer: str | None) -> None:
        if isinstance(deal, ContractDeal):
            self._apply_contract(deal, dealer)
        elif isinstance(deal, MisereDeal):
            self._apply_misere(deal)
        elif isinstance(deal, AllPassDeal):
            self._apply_allpass(deal, dealer)
        elif isinstance(deal, Correction):
            self._apply_correction(deal)
        elif isinstance(deal, Penalty):
            self._apply_penalty(deal)
        # A redeal writes nothing.

    def _write(
        self, player: str, column: Column, amount: Num, reason: Reason, on: str | None = None
    ) -> None:
        if not amount:
            return
        if type(amount) is int:
            exact = _whole(amount)
        else:
            assert isinstance(amount, Fraction)  # never a float
            exact = amount
            if amount.denominator == 1:
                amount = amount.numerator  # keep the running totals in whole numbers
        self.written.append(Entry(self.number, player, column, exact, reason, on))
        if column is POOL:
            self.pools[player] += amount
            self._pool_written = True
        elif column is HILL:
            self.totals.hill[player] += amount
        else:
            assert on is not None
            self.totals.whists[player][on] += amount

    def _whists(self, writer: str, on: str, amount: Num, reason: Reason) -> None:
        self._write(writer, WHISTS, amount, reason, on)

    def _hill(self, player: str, amount: Num, reason: Reason) -> None:
        """Hill, or in Hussar the opponent's whists instead, hill_whists per point (§9)."""
        if not self.hussar:
            self._write(player, HILL, amount, reason)
            return
        rate = self.opts.hill_whists
        for other in self.players:
            if other != player:
                self._whists(
                    other,
                    player,
                    amount * rate,
                    Reason("hussar_hill", {"what": reason, "points": amount, "per": rate}),
                )

    def _pool(self, player: str, amount: Num, reason: Reason) -> None:
        """Pool points, with the overflow helping open pools when the option says so (§5)."""
        target = self._target
        if self._keep_overflow or amount <= 0:
            self._write(player, POOL, amount, reason)
            return
        room = target - self.pools[player]
        own = amount if amount <= room else max(room, 0)
        self._write(player, POOL, own, reason)
        rest = amount - own
        while rest > 0:
            helped = self._most_open_pool(player, target)
            if helped is None:
                break
            given = min(rest, target - self.pools[helped])
            self._write(helped, POOL, given, Reason("help_pool", {"giver": player}))
            self._whists(
                player,
                helped,
                given * self.opts.pool_whists,
                Reason("help_whists", {"points": given, "per": self.opts.pool_whists}),
            )
            rest -= given
        if rest > 0:
            per = self._overflow_per
            self._hill(player, -rest * per, Reason("overflow_hill", {"points": rest * per}))

    def _most_open_pool(self, giver: str, target: int) -> str | None:
        """The open pool to help first: the highest, ties going clockwise from the giver."""
        start = self.players.index(giver)
        best: str | None = None
        for i in range(1, len(self.players)):
            name = self.players[(start + i) % len(self.players)]
            if self.pools[name] < target and (best is None or self.pools[name] > self.pools[best]):
                best = name
        return best

    def _apply_contract(self, deal: ContractDeal, dealer: str | None) -> None:
        defs = self.defenders(dealer, deal.declarer)
        if not deal.played:
            self._apply_unplayed(deal, defs)
        elif deal.lone_whister:
            self._apply_lone_whister(deal, dealer, defs)
        else:
            self._apply_played(deal, dealer, defs)
        if deal.talon_tricks and self.opts.talon_bonus:
            self._talon_bonus(deal, dealer)

    def _apply_played(self, deal: ContractDeal, dealer: str | None, defs: list[str]) -> None:
        """One or two whisters (§4.3)."""
        contract = deal.contract
        level = contract.level
        declarer = deal.declarer
        declarer_tricks = deal.tricks[declarer]
        side = 10 - declarer_tricks
        made = declarer_tricks >= level
        if made:
            self._pool(declarer, self._value[level], Reason("made", _c(contract)))
        else:
            self._remise(deal, dealer, defs, level - declarer_tricks)
        whisters = deal.whisters
        if len(whisters) == 2:
            self._trick_whists_of_two(deal, whisters)
        else:
            self._trick_whists_of_one(deal, whisters[0], defs, side, made)
        if made:
            self._shortfall(deal, defs, side)

    def _apply_lone_whister(self, deal: ContractDeal, dealer: str | None, defs: list[str]) -> None:
        """A half-whist overruled (§4.8): the first defender returned the whist, or the dealer
        whisted. That one whister writes the side's tricks and his own consolation, shares
        with nobody; the half-whister and the passer write nothing. The returner answers for
        the quota as a single whister does; the dealer never does."""
        contract = deal.contract
        level = contract.level
        whister = deal.whisters[0]
        taken = deal.tricks[deal.declarer]
        side = 10 - taken
        if taken >= level:
            self._pool(deal.declarer, self._value[level], Reason("made", _c(contract)))
        else:
            self._remise(deal, dealer, [whister], level - taken)
        self._trick_whists_of_one(deal, whister, [whister], side, taken >= level)
        if taken >= level and whister in defs:
            self._shortfall(deal, defs, side)

    def _talon_bonus(self, deal: ContractDeal, dealer: str | None) -> None:
        """Whists for the talon's quick tricks (§4.9): at four or five all by the dealer, at
        three half by each of the two others, whoever dealt; apart from the trick whists."""
        tricks = deal.talon_tricks or 0
        per = self._per_trick[deal.contract.level]
        out = sitting_out(self.players, dealer)
        writers = out[:1] or [p for p in self.players if p != deal.declarer]
        params = {"tricks": tricks, "per": per}
        code = "talon_bonus" if len(writers) == 1 else "talon_bonus_shared"
        share = _num(Fraction(tricks * per, len(writers)))
        for name in writers:
            self._whists(name, deal.declarer, share, Reason(code, params))

    def _apply_unplayed(self, deal: ContractDeal, defs: list[str]) -> None:
        """Both defenders passed (§4.1), or the second half-whisted (§4.2)."""
        contract = deal.contract
        level = contract.level
        value = self._value[level]
        half = [p for p in defs if deal.answers[p] is Answer.HALF_WHIST]
        if not half:
            self._pool(deal.declarer, value, Reason("passed", _c(contract)))
            return
        self._pool(deal.declarer, value, Reason("half_whist_pool", _c(contract)))
        quota: Num = HALF_QUOTA[level]
        if self.opts.half_whist_tricks == HalfWhistTricks.REST:
            quota = _num(Fraction(10 - level, 2))  # §4.2: half the tricks not contracted
        per_trick = self._per_trick[level]
        self._whists(
            half[0],
            deal.declarer,
            quota * per_trick,
            Reason("half_whist", {"quota": quota, "per": per_trick}),
        )

    def _remise(
        self, deal: ContractDeal, dealer: str | None, defs: list[str], undertricks: int
    ) -> None:
        """The declarer's hill for each undertrick, and the consolation of `defs` (the
        defenders, or the lone whister of §4.8) and of those sitting out (§4.3)."""
        level = deal.contract.level
        declarer = deal.declarer
        remise_per = self._remise_per[level]
        self._hill(
            declarer,
            undertricks * remise_per,
            Reason("remise", {"undertricks": undertricks, "down": undertricks, "per": remise_per}),
        )
        per = self._console_per[level]
        consolers = list(defs)
        if self.opts.dealer_consolation:
            # Codex 3.8.1.2: the dealer (and at five the next dealer) writes it too; the
            # dealer who whisted (§4.8) writes it once, as the whister.
            consolers.extend(p for p in sitting_out(self.players, dealer) if p not in defs)
        for name in consolers:
            self._whists(
                name,
                declarer,
                undertricks * per,
                Reason(
                    "consolation", {"undertricks": undertricks, "down": undertricks, "per": per}
                ),
            )

    def _trick_whists_of_two(self, deal: ContractDeal, whisters: list[str]) -> None:
        """Two whisters: each writes whists for his own tricks (§4.3)."""
        per_trick = self._per_trick[deal.contract.level]
        for name in whisters:
            own = deal.tricks[name]
            self._whists(
                name,
                deal.declarer,
                own * per_trick,
                Reason("trick_whists", {"tricks": own, "per": per_trick}),
            )

    def _trick_whists_of_one(
        self, deal: ContractDeal, whister: str, defs: list[str], side: int, made: bool
    ) -> None:
        """One whister: he writes the whists for the defenders' tricks, or shares them with
        the passer by the gentleman's rule (§4.3 whist_split)."""
        per_trick = self._per_trick[deal.contract.level]
        passers = [p for p in defs if p != whister]
        split = self._split_always or (self._split_on_remise and not made)
        if not (passers and split):
            self._whists(
                whister,
                deal.declarer,
                side * per_trick,
                Reason("trick_whists", {"tricks": side, "per": per_trick}),
            )
            return
        total = side * per_trick
        for name, partner in ((whister, passers[0]), (passers[0], whister)):
            self._whists(
                name,
                deal.declarer,
                _num(Fraction(total) / 2),
                Reason("split_whists", {"partner": partner, "total": total}),
            )

    def _shortfall(self, deal: ContractDeal, defs: list[str], side: int) -> None:
        """Whisters short of their quota on a made contract go to the hill (§4.3)."""
        opts = self.opts
        level = deal.contract.level
        whisters = deal.whisters
        owed: dict[str, int] = {}
        named: dict[str, Any] = {}
        if self.hussar:
            whister = whisters[0]
            answer = deal.answers[whister]
            quota = HUSSAR_QUOTA[answer][level]
            if side < quota:
                owed[whister] = quota - side
            # The reason names the quota: 4 with the talon on a six, 2 alone (§9).
            named = {
                "quota": quota,
                "variant": "talon" if answer is Answer.WHIST_TALON else "alone",
            }
        elif opts.ten_checked and level == 10:
            return
        elif len(whisters) == 1:
            if side < QUOTA[level]:
                owed[whisters[0]] = QUOTA[level] - side
        elif self._personal_quota:
            for name in whisters:
                owed[name] = max(0, PERSONAL_QUOTA[level] - deal.tricks[name])
        elif side < QUOTA[level]:
            short = QUOTA[level] - side
            if level in HALF_QUOTA:
                for name in whisters:
                    own_short = max(0, HALF_QUOTA[level] - deal.tricks[name])
                    owed[name] = min(own_short, short)
            elif opts.two_whister_quota == TwoWhisterQuota.SIDE_BOTH:
                owed = dict.fromkeys(whisters, short)  # ФСПР 6.6: on 8, 9, 10 both answer
            else:
                # Parlett: on 8, 9, 10 it is the second to whist who is penalised.
                second = [p for p in defs if p in whisters][-1]
                owed[second] = short
        per = self._short_per[level]
        for name in whisters:
            tricks = owed.get(name, 0)
            if tricks:
                params = {"tricks": tricks, "per": per, **named}
                self._hill(name, tricks * per, Reason("shortfall", params))

    def _apply_misere(self, deal: MisereDeal) -> None:
        tricks = deal.tricks[deal.declarer]
        if tricks == 0:
            self._pool(deal.declarer, self.opts.misere_value, Reason("misere_made"))
        else:
            per = self.opts.misere_hill
            self._hill(
                deal.declarer,
                tricks * per,
                Reason("misere_failed", {"tricks": tricks, "per": per}),
            )

    def _apply_allpass(self, deal: AllPassDeal, dealer: str | None) -> None:
        opts = self.opts
        progression = opts.allpass_progression
        k = self.streak + 1
        multiplier = progression[min(k, len(progression)) - 1]
        per = opts.allpass_price * multiplier
        takers = self.allpass_takers(dealer)
        tricks = deal.tricks
        fewest = min(tricks[p] for p in takers)
        # §4.5: the dealer who plays the talon gets the zero bonus only by allpass_zero_dealer.
        no_bonus = dealer if len(takers) > len(self.active(dealer)) else None
        if opts.allpass_zero_dealer:
            no_bonus = None
        if self._allpass_hill:
            free = fewest if opts.allpass_min_amnesty else 0
            for name in takers:
                if tricks[name] == 0:
                    if name != no_bonus:
                        self._zero_bonus_to(name, per, multiplier)
                elif tricks[name] > free:
                    over = tricks[name] - free
                    said = {"tricks": over, "per": per}
                    if free:
                        said |= {"taken": tricks[name], "free": free}
                    code = "allpass_hill_free" if free else "allpass_hill"
                    self._hill(name, over * per, Reason(code, said))
        elif self._allpass_whists:
            # §4.5 as written: allpass_price × t_j, with no progression multiplier (Codex
            # 3.7.2.2 plays the whist all-pass flat), and a flat pool bonus of 1.
            price = opts.allpass_price
            for name in takers:
                if tricks[name] != fewest:
                    continue
                for other in takers:
                    if tricks[other] > fewest:
                        self._whists(
                            name,
                            other,
                            price * tricks[other],
                            Reason("allpass_whists", {"tricks": tricks[other], "per": price}),
                        )
                if tricks[name] == 0 and name != no_bonus:
                    self._pool(name, 1, Reason("allpass_pool"))

    def _zero_bonus_to(self, name: str, per: int, multiplier: int) -> None:
        """The zero-trick bonus B (§4.5 allpass_zero_bonus) into the pool, or the same whists
        off the hill (allpass_zero_form = hill)."""
        opts = self.opts
        choice = opts.allpass_zero_bonus
        if choice == AllpassZeroBonus.TRICK:
            bonus: Num = _num(Fraction(per * opts.hill_whists, opts.pool_whists))
        elif choice == AllpassZeroBonus.TRICK_POINTS:
            bonus = per
        elif choice == AllpassZeroBonus.STAGE:
            bonus = multiplier
        elif choice == AllpassZeroBonus.POINT:
            bonus = 1
        else:
            return
        if opts.allpass_zero_form == AllpassZeroForm.POOL:
            self._pool(name, bonus, Reason("allpass_pool"))
            return
        off = _num(bonus * Fraction(opts.pool_whists, opts.hill_whists))
        self._hill(name, -off, Reason("allpass_zero_hill", {"points": off}))

    def _apply_correction(self, deal: Correction) -> None:
        reason = Reason("correction", {"reason": deal.reason})
        for entry in deal.entries:
            if entry.pool is not None:
                self._write(entry.player, POOL, entry.pool, reason)  # as given: no overflow help
            if entry.hill is not None:
                self._hill(entry.player, entry.hill, reason)
            if entry.whists_on is not None and entry.amount is not None:
                self._whists(entry.player, entry.whists_on, entry.amount, reason)

    def _apply_penalty(self, deal: Penalty) -> None:
        """§4.7: a one-trick remise of the contract by the offender; everybody else at the
        table writes one undertrick's consolation on him."""
        level = deal.contract.level
        offender = deal.player
        remise_per = self._remise_per[level]
        self._hill(
            offender,
            remise_per,
            Reason("penalty", {"contract": str(deal.contract), "per": remise_per}),
        )
        per = self._console_per[level]
        for name in self.players:
            if name != offender:
                self._whists(
                    name,
                    offender,
                    per,
                    Reason("penalty_consolation", {"contract": str(deal.contract), "per": per}),
                )

    def _end_met(self) -> bool:
        if self._round_deals is not None and self.table_deals >= self._round_deals:
            return True
        if self._deal_limit is not None and self.table_deals >= self._deal_limit:
            return True
        target = self._target
        pools = self.pools.values()
        if self._end_all_closed:
            return all(p >= target for p in pools)
        if self._end_pool_sum:
            return sum(pools) >= len(self.players) * target
        if self.opts.end == EndRule.BY_HAND:
            return False  # §5: played by time, finished by hand
        return any(p >= target for p in pools)


def is_stalingrad(contract: Contract) -> bool:
    """6♠, the contract both defenders must whist when `stalingrad` is on (§7)."""
    return contract.level == 6 and contract.suit is Suit.SPADES


def _c(contract: Contract) -> dict[str, Any]:
    return {"contract": str(contract)}


def _signed(amount: Fraction) -> str:
    return f"+{amount}" if amount > 0 else str(amount)
