"""Who sits where for a deal, and what the deal form may offer (docs/rules.md §2–§5, §7).

One pure value, `Seat`, answers every question a deal form (and its script) asks before the
scorer taps: who deals, who sits out, who plays, which kinds, contracts and answers are
allowed, whose tricks must be written. It is computed from the sheet (the replayed log),
never from the page; the form and the script only ask it, and neither re-derives a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from .contracts import LEVELS, Contract, Suit
from .deals import OFF_TABLE_KINDS, WHISTING, Answer, Redeal
from .game import Game
from .options import AllpassMode
from .scoring import Sheet, active_players, defenders, is_stalingrad, min_level, sitting_out

TRICKS_IN_A_DEAL = 10

#: The order the form shows the answers in (whists first, half-whist last).
_SHOWN_ORDER = (Answer.WHIST, Answer.WHIST_TALON, Answer.PASS, Answer.HALF_WHIST)


@dataclass(frozen=True)
class Seat:
    """The table before a deal: seating, limits, and what each defender may answer."""

    number: int
    """The deal's 1-based place in the log."""
    players: tuple[str, ...]
    """Everybody at the table, clockwise."""
    dealer: str
    """Who deals the next deal."""
    sitting_out: tuple[str, ...]
    """Who sits out the next deal: at four the dealer, at five the dealer and the next dealer
    (dealer first); nobody at two or three (§2)."""
    active: tuple[str, ...]
    """Who plays the next deal, in seating order (the declarer is one of them)."""
    hussar: bool
    min_level: int | None
    """The lowest contract level allowed by the all-pass exit (§4.5), or None; misère is
    always allowed."""
    allpass_streak: int
    """All-passes in a row so far (as the exit and the progression count them)."""
    next_allpass_multiplier: int | None
    """The progression step an all-pass now would be played at, or None if there is none."""
    kinds: tuple[str, ...]
    """Deal kinds that may be recorded now: "contract", "misere", "allpass" (not in Hussar),
    "redeal" (Hussar; elsewhere only when the deal edited is a redeal), "penalty",
    "correction"; empty when the game is over."""
    half_whist_levels: tuple[int, ...]
    stalingrad: bool
    """A 6♠ must be whisted by both defenders (§7)."""
    round: int
    """The round of the next deal, from 1 (a round is one deal by every player, §5)."""
    deal_in_round: int
    """The next deal's place within its round, from 1 to the number of players."""
    round_limit: int | None
    finished: bool
    """No deal can be added (the end rule, the round or deal limit was met, or finished by
    hand)."""
    talon_tricks_asked: bool = False
    """A contract deal asks the talon's quick tricks, 0 to 3 (`talon_bonus`, §4.9)."""
    dealer_may_whist: bool = False
    """The dealer, sitting out, may whist after pass – half-whist – pass (`dealer_whist` at
    four or five, §4.8): see `dealer_whists`."""
    allpass_dealer_tricks: bool = False
    """An all-pass asks the dealer's tricks too, 0 to 2 (`allpass_dealer_talon` at four or
    five, §4.5): `tricks_asked("allpass")` then names him."""
    deal_limit: int | None = None
    """The most deals at the table (§5 deal_limit), or None."""

    def defenders(self, declarer: str) -> tuple[str, ...]:
        """The declarer's defenders in answer order: first, then second (§2)."""
        if declarer not in self.active:
            raise ValueError(f"{declarer} does not play this deal")
        return tuple(defenders(self.players, self.dealer, declarer))

    def answers(
        self, declarer: str, contract: Contract, first: Answer | None = None
    ) -> dict[str, tuple[Answer, ...]]:
        """Each defender's allowed answers, in answer order.

        The second defender's choices depend on the first's answer (half-whist only after a
        pass); with `first` None, the second gets every answer any first answer would allow.
        Under Stalingrad a 6♠ leaves both defenders only "whist".
        """
        first_def, *rest = self.defenders(declarer)
        if self.hussar:
            return {first_def: (Answer.WHIST, Answer.WHIST_TALON, Answer.PASS)}
        if self.stalingrad and is_stalingrad(contract):
            return {name: (Answer.WHIST,) for name in (first_def, *rest)}
        out: dict[str, tuple[Answer, ...]] = {first_def: (Answer.WHIST, Answer.PASS)}
        second = rest[0]
        if contract.level in self.half_whist_levels and first in (None, Answer.PASS):
            out[second] = (Answer.WHIST, Answer.PASS, Answer.HALF_WHIST)
        else:
            out[second] = (Answer.WHIST, Answer.PASS)
        return out

    def returns_whist(
        self, contract: Contract, first: Answer | None, second: Answer | None
    ) -> bool:
        """May the first defender return the whist («пас — полвиста — вист», §4.8): he passed
        and the second half-whisted on a half-whist level. The answer is then `WHIST_RETURNED`
        in place of his pass."""
        return (
            not self.hussar
            and contract.level in self.half_whist_levels
            and first in (Answer.PASS, Answer.WHIST_RETURNED)
            and second is Answer.HALF_WHIST
        )

    def dealer_whists(
        self, contract: Contract, first: Answer | None, second: Answer | None
    ) -> bool:
        """May the dealer whist (§4.8): `dealer_may_whist`, and the first defender passed (did
        not return the whist) and the second half-whisted. His answer is WHIST, by his name."""
        return (
            self.dealer_may_whist
            and first is Answer.PASS
            and self.returns_whist(contract, first, second)
        )

    def allpass_takers(self) -> tuple[str, ...]:
        """Who takes tricks in an all-pass, in seating order: the active players, and the
        dealer with `allpass_dealer_tricks`."""
        if not self.allpass_dealer_tricks:
            return self.active
        return tuple(p for p in self.players if p in self.active or p == self.dealer)

    def tricks_needed(self, declarer: str | None, answers: dict[str, Answer]) -> tuple[str, ...]:
        """Whose tricks must be written: for a contract the declarer, plus both whisters when
        two whist, nobody when it is not played (a returned whist and the dealer's whist: the
        declarer's only); for misère (`answers` empty, a declarer) the declarer; for an
        all-pass (no declarer) every active player, and the dealer who plays the talon."""
        if declarer is None:
            return self.allpass_takers()
        if not answers:
            return (declarer,)
        whisters = [p for p, a in answers.items() if a in WHISTING]
        if not whisters:
            return ()
        if len(whisters) == 2:
            return (declarer, *(p for p in self.defenders(declarer) if p in whisters))
        return (declarer,)

    # -- the same questions as the deal form asks them: by name and answer text ----------

    def levels(self) -> list[int]:
        """The contract levels allowed here (the all-pass exit, §4.5)."""
        return [lv for lv in LEVELS if self.min_level is None or lv >= self.min_level]

    def contracts(self) -> list[Contract]:
        """Every contract allowed here, lowest first."""
        return [Contract(lv, suit) for lv in self.levels() for suit in Suit]

    def all_answers(self) -> list[str]:
        """Every answer a defender may give in this game, whatever the contract: what the
        seat allows any defender on any contract (in the order the form shows them)."""
        declarer = self.active[0]
        allowed = {
            answer
            for contract in self.contracts()
            for answers in self.answers(declarer, contract).values()
            for answer in answers
        }
        return [a.value for a in _SHOWN_ORDER if a in allowed]

    def defenders_of(self, declarer: str) -> list[str]:
        """The defenders of a declarer, in the order they answer (§2). For a player who does
        not play this deal, every player who does: a form read against a later seat (a Save
        sent again) then reads the same answers, and the rules say what is wrong."""
        if declarer not in self.active:
            return [p for p in self.active if p != declarer]
        return list(self.defenders(declarer))

    def answers_of(self, declarer: str, contract: Contract, first: str | None) -> list[str]:
        """A defender's allowed answers: the first one's (first None) or the second's after
        the first answered `first` (half-whist only after a pass, §4.2; Stalingrad, §7)."""
        defs = self.defenders_of(declarer)
        if first is None or len(defs) < 2:
            allowed = self.answers(declarer, contract)[defs[0]]
        else:
            allowed = self.answers(declarer, contract, Answer(first))[defs[1]]
        return [a.value for a in allowed]

    def tricks_asked(
        self,
        kind: str,
        declarer: str | None = None,
        answers: tuple[str, ...] = (),
        dealer_answer: str | None = None,
    ) -> list[str]:
        """Whose tricks the form asks for a deal of this kind (answers in answer order, and
        the dealer's whist, §4.8, apart).

        All-pass: every active player (and the dealer who plays the talon, §4.5); misère: the
        declarer; a contract with one whister (a returned whist, the dealer's whist): the
        declarer; with two whisters: the declarer and both; nobody whisting: nobody.
        """
        if kind == "allpass":
            return list(self.allpass_takers())
        if declarer is None or declarer not in self.active or kind not in ("misere", "contract"):
            return []
        if kind == "misere":
            return list(self.tricks_needed(declarer, {}))
        defs = self.defenders_of(declarer)
        given = {d: Answer(a) for d, a in zip(defs, answers, strict=False) if a}
        if len(given) < len(defs):
            return []
        if dealer_answer:
            given[self.dealer] = Answer(dealer_answer)
        return list(self.tricks_needed(declarer, given))


def seat(sheet: Sheet, position: int | None = None) -> Seat:
    """The seat questions for the next deal of this sheet, answered (a pure value).

    With `position` (1-based place in the log), the same for the deal at that place, as it
    stood before that deal was played (for editing it): its dealer, the all-pass streak and the
    lowest contract then, its round. A correction or penalty at that place is given the dealer
    of the next deal at the table. A position past the log is the next deal's."""
    game = sheet.game
    opts = game.options
    players = game.players
    results = sheet.results
    editing = position is not None and 1 <= position <= len(results)
    dealt, dealer, streak, finished = _as_it_stood(sheet, position if editing else None)
    kinds = _kinds(game, finished)
    if editing and position is not None and isinstance(game.deals[position - 1], Redeal):
        kinds = _with_redeal(kinds)
    progression = opts.allpass_progression
    multiplier: int | None = None
    if not game.hussar and opts.allpass_mode != AllpassMode.NONE and progression:
        multiplier = progression[min(streak + 1, len(progression)) - 1]
    n = len(players)
    sits_out = len(players) >= 4 and not game.hussar
    return Seat(
        number=position if editing and position is not None else len(results) + 1,
        players=players,
        dealer=dealer,
        sitting_out=tuple(sitting_out(players, dealer)),
        active=tuple(active_players(players, dealer)),
        hussar=game.hussar,
        min_level=min_level(opts, streak),
        allpass_streak=streak,
        next_allpass_multiplier=multiplier,
        kinds=kinds,
        half_whist_levels=() if game.hussar else opts.half_whist,
        stalingrad=opts.stalingrad and not game.hussar,
        round=dealt // n + 1,
        deal_in_round=dealt % n + 1,
        round_limit=opts.round_limit,
        finished=finished,
        talon_tricks_asked=opts.talon_bonus,
        dealer_may_whist=sits_out and opts.dealer_whist,
        allpass_dealer_tricks=sits_out and opts.allpass_dealer_talon,
        deal_limit=opts.deal_limit,
    )


def _as_it_stood(sheet: Sheet, position: int | None) -> tuple[int, str, int, bool]:
    """The table before the deal at `position` (1-based, in the log) was played, or before
    the next deal when None: the deals dealt, the dealer, the all-pass streak, and whether
    the game is finished (never, for a deal being edited)."""
    if position is None:
        return sheet.deal_count(), sheet.next_dealer, sheet.allpass_streak, sheet.finished
    game = sheet.game
    players = game.players
    before = sheet.results[: position - 1]
    dealt = sum(1 for r in before if r.dealer is not None)
    dealer = players[(players.index(game.first_dealer) + dealt) % len(players)]
    return dealt, dealer, sheet.results[position - 1].allpass_streak, False


def _with_redeal(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds, a redeal among the deals at the table: a redeal written in the file (of any
    convention, docs/game-format.md) stays one when it is edited."""
    if "redeal" in kinds:
        return kinds
    at_table = tuple(k for k in kinds if k not in OFF_TABLE_KINDS)
    return (*at_table, "redeal", *(k for k in kinds if k in OFF_TABLE_KINDS))


def _kinds(game: Game, finished: bool) -> tuple[str, ...]:
    """The kinds of deal the table may enter next: none once the game is finished; Hussar
    redeals instead of all-passes, and a game without all-passes has none."""
    if finished:
        return ()
    if game.hussar:
        return ("contract", "misere", "redeal", *OFF_TABLE_KINDS)
    if game.options.allpass_mode == AllpassMode.NONE:
        return ("contract", "misere", *OFF_TABLE_KINDS)
    return ("contract", "misere", "allpass", *OFF_TABLE_KINDS)
