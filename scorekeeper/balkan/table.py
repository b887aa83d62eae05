"""Who deals, who sits out and plays, and whether a refa writes refe: the table before an entry."""

from __future__ import annotations

from dataclasses import dataclass

from .game import BalkanGame
from .options import RefeCount
from .state import State


@dataclass(frozen=True)
class Table:
    """The partija before its next entry, as the rules of an entry ask it."""

    game: BalkanGame
    state: State

    @property
    def dealer(self) -> str:
        players = self.game.players
        first = players.index(self.game.first_dealer)
        return players[(first + self.state.passes) % len(players)]

    @property
    def active(self) -> tuple[str, ...]:
        """Who plays the next deal, from the dealer's right (with 4 the dealer sits out)."""
        players = self.game.players
        at = players.index(self.dealer)
        order = players[at + 1 :] + players[: at + 1]
        return order[:3] if len(players) == 4 else order

    @property
    def sitting_out(self) -> tuple[str, ...]:
        return (self.dealer,) if len(self.game.players) == 4 else ()

    @property
    def refa_writes(self) -> bool:
        """A refa entry now writes refe: nobody is under the hat and the most is not reached."""
        state, options = self.state, self.game.options
        if state.under_hat():
            return False
        if options.refe_max is None:
            return True
        if options.refe_count == RefeCount.WRITTEN:
            return state.refe_entries < options.refe_max
        return all(state.open_refe(p) < options.refe_max for p in self.game.players)

    def refa_doubles(self, declarer: str) -> bool:
        """The declarer plays on his own open refa (R = 2)."""
        if not self.state.open_refe(declarer):
            return False
        return self.game.options.refa_doubles_under_hat or not self.state.under_hat()
