"""Who sits where for the next deal, and what the deal form may offer (docs/rules.md §2–§5, §7).

One pure value, `Seat`, answers every question a deal form asks before the scorer taps:
who deals, who sits out, who plays, which contracts and answers are allowed, whose tricks
must be written. It is computed from the sheet (the replayed log), never from the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from .contracts import Contract
from .deals import Answer
from .options import AllpassMode
from .scoring import Sheet, active_players, defenders, is_stalingrad, min_level, sitting_out

#: Deal kinds in the order a form offers them.
TABLE_KINDS = ("contract", "misere", "allpass", "redeal")
OFF_TABLE_KINDS = ("penalty", "correction")


@dataclass(frozen=True)
class Seat:
    """The table before the next deal: seating, limits, and what each defender may answer."""

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
    "redeal" (Hussar only), "penalty", "correction"; empty when the game is over."""
    half_whist_levels: tuple[int, ...]
    stalingrad: bool
    """A 6♠ must be whisted by both defenders (§7)."""
    round: int
    """The round of the next deal, from 1 (a round is one deal by every player, §5)."""
    deal_in_round: int
    """The next deal's place within its round, from 1 to the number of players."""
    round_limit: int | None
    finished: bool
    """No deal can be added (the end rule or the round limit was met, or finished by hand)."""

    def defenders(self, declarer: str) -> tuple[str, ...]:
        """The declarer's defenders in answer order: first, then second (§2)."""
        if declarer not in self.active:
            raise ValueError(f"{declarer} does not play this deal")
        return tuple(defenders(self.players, self.dealer, declarer))

    def contract_allowed(self, contract: Contract) -> bool:
        """True when the all-pass exit allows this contract now (§4.5)."""
        return self.min_level is None or contract.level >= self.min_level

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

    def tricks_needed(self, declarer: str | None, answers: dict[str, Answer]) -> tuple[str, ...]:
        """Whose tricks must be written: for a contract the declarer, plus both whisters when
        two whist, nobody when it is not played; for misère (`answers` empty, a declarer) the
        declarer; for an all-pass (no declarer) every active player."""
        if declarer is None:
            return self.active
        if not answers:
            return (declarer,)
        whisters = [p for p, a in answers.items() if a in (Answer.WHIST, Answer.WHIST_TALON)]
        if not whisters:
            return ()
        if len(whisters) == 2:
            return (declarer, *(p for p in self.defenders(declarer) if p in whisters))
        return (declarer,)


def seat(sheet: Sheet, position: int | None = None) -> Seat:
    """The seat questions for the next deal of this sheet, answered (a pure value).

    With `position` (1-based place in the log), the same for the deal at that place, as it
    stood before that deal was played (for editing it): its dealer, the all-pass streak and the
    lowest contract then, its round. A correction or penalty at that place is given the dealer
    of the next deal at the table."""
    game = sheet.game
    opts = game.options
    players = game.players
    results = sheet.results
    editing = position is not None and 1 <= position <= len(results)
    if editing:
        assert position is not None
        before = results[: position - 1]
        dealt = sum(1 for r in before if r.dealer is not None)
        dealer = players[(players.index(game.first_dealer) + dealt) % len(players)]
        streak = results[position - 1].allpass_streak
        finished = False
    else:
        dealt = sheet.deal_count()
        dealer = sheet.next_dealer
        streak = sheet.allpass_streak
        finished = sheet.finished
    if finished:
        kinds: tuple[str, ...] = ()
    elif game.hussar:
        kinds = ("contract", "misere", "redeal", *OFF_TABLE_KINDS)
    elif opts.allpass_mode == AllpassMode.NONE:
        kinds = ("contract", "misere", *OFF_TABLE_KINDS)
    else:
        kinds = ("contract", "misere", "allpass", *OFF_TABLE_KINDS)
    progression = opts.allpass_progression
    multiplier: int | None = None
    if not game.hussar and opts.allpass_mode != AllpassMode.NONE and progression:
        multiplier = progression[min(streak + 1, len(progression)) - 1]
    n = len(players)
    return Seat(
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
    )
