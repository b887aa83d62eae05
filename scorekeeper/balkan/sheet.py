"""A Balkan partija replayed into its sheet: each player's bule column with hats, the supe he
wrote on each other player, his refe, and the end. Pure and exact, like `rules.replay`."""

from __future__ import annotations

from scorekeeper.rules.problems import N_, InvalidGame, Problem

from .deals import Correction, Entry, Played, Refa, Unread, WriteOff
from .entries import correction_outcome, refa_outcome, scaled, writeoff_outcome
from .game import BalkanGame
from .played import check_played, score_played
from .state import Outcome, State
from .table import Table


class Sheet:
    """The paper after every entry of a partija (and, finished by hand, its final write-off).

    Read it by player: `bule`, `column`, `supe_on`, `left`, `right`, `refe`; the partija:
    `total`, `ended`, `ended_by`, `write_off`, `outcomes` (what each entry wrote and why);
    the next deal: `table` (who deals, is active, whether a refa writes refe). `plus` adds one
    entry without replaying the log (the state a service keeps per version)."""

    def __init__(self, game: BalkanGame, state: State) -> None:
        self.game = game
        self.players = game.players
        self.options = game.options
        self._state = state

    # -- by player ----------------------------------------------------------------------------

    def bule(self, player: str) -> int:
        return self._state.bule[player]

    def column(self, player: str) -> tuple[str, ...]:
        """The start value, then each new value, "hat" / "hat-crossed" before it when due."""
        return tuple(self._state.column[player])

    def supe_on(self, player: str, other: str) -> int:
        """The supe `player` wrote on `other`."""
        return self._state.supe[player][other]

    def left(self, player: str) -> int:
        """The supe the player wrote on his left neighbour (the previous in the list)."""
        return self.supe_on(player, self.game.left_of(player))

    def right(self, player: str) -> int:
        """The supe the player wrote on his right neighbour (the next in the list)."""
        return self.supe_on(player, self.game.right_of(player))

    def written(self, player: str) -> int:
        """W: all the supe the player wrote."""
        return sum(self._state.supe[player].values())

    def against(self, player: str) -> int:
        """A: all the supe written on the player."""
        return sum(self._state.supe[q][player] for q in self.players if q != player)

    def refe(self, player: str) -> tuple[str, ...]:
        """His refe in the order written: "open", "passed", "failed"."""
        return tuple(self._state.refe[player])

    # -- the partija --------------------------------------------------------------------------

    @property
    def total(self) -> int:
        """Σ bule."""
        return self._state.total

    @property
    def ended(self) -> bool:
        return self._state.ended_by is not None

    @property
    def finished(self) -> bool:
        return self.ended

    @property
    def ended_by(self) -> str | None:
        """ "zero" or "writeoff" once the partija is over, else None."""
        return self._state.ended_by

    @property
    def write_off(self) -> dict[str, int]:
        """What each player wrote off (all 0 unless the partija ended by a write-off)."""
        return {p: self._state.write_off.get(p, 0) for p in self.players}

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """What each entry wrote and why, in order."""
        return tuple(self._state.outcomes)

    @property
    def table(self) -> Table:
        """The table before the next entry."""
        return Table(self.game, self._state)

    def number_of(self, position: int, kind: str | None = None) -> int:
        """The number people give the entry at a 0-based position (a new one: the position
        after the last) among its kind, as `rules.Sheet.number_of`: a correction among the
        corrections, any other entry among the deals ("deal 4" after a correction)."""
        entries = self.game.deals
        if kind is None:
            kind = _kind(entries[position]) if position < len(entries) else "deal"
        return 1 + sum(1 for e in entries[:position] if _kind(e) == kind)

    @property
    def state(self) -> State:
        """A copy of the running state (to write on)."""
        return self._state.copy()

    def plus(self, entry: Entry) -> tuple[Sheet, list[Problem]]:
        """The sheet with one more entry, or every reason it cannot be written (with a sheet
        on which the refused entry only passed the deal, as a replay goes on)."""
        state = self._state.copy()
        problems = _write(self.game, state, entry)
        game = self.game if problems else self.game.with_deals((*self.game.deals, entry))
        return Sheet(game, state), problems

    def closed(self) -> Sheet:
        """The sheet of a partija finished by hand: a final write-off when it has not ended."""
        if self.ended or not self.game.finished:
            return self
        state = self._state.copy()
        state.write(writeoff_outcome(None, self.table, len(state.outcomes) + 1))
        return Sheet(self.game, state)


def _kind(entry: Entry) -> str:
    return "correction" if isinstance(entry, Correction) else "deal"


PASSING = (Played, Refa)


def _outcome(entry: Entry, table: Table, number: int) -> tuple[Outcome | None, list[Problem]]:
    if table.state.ended_by is not None:
        return None, [Problem(N_("the partija is over: no entry may follow"), {}, "type")]
    dealer = getattr(entry, "dealer", None)
    if dealer is not None and dealer != table.dealer:
        params = {"name": dealer, "expected": table.dealer}
        return None, [
            Problem(N_("dealer: {name} does not deal now; {expected} does"), params, "dealer")
        ]
    if isinstance(entry, Played):
        problems = check_played(entry, table)
        if problems:
            return None, problems
        return scaled(score_played(entry, table, number), table.state.total), []
    if isinstance(entry, Refa):
        return refa_outcome(table, number), []
    if isinstance(entry, Correction):
        outcome, problems = correction_outcome(entry, table, number)
        return (None if problems else outcome), problems
    if isinstance(entry, WriteOff):
        return writeoff_outcome(entry, table, number), []
    assert isinstance(entry, Unread)
    return None, []


def replay(game: BalkanGame) -> tuple[Sheet, list[Problem]]:
    """The sheet of the whole log, and every problem, each at its entry's number."""
    state = State.start(game)
    problems: list[Problem] = []
    for number, entry in enumerate(game.deals, start=1):
        problems.extend(p.at_deal(number) for p in _write(game, state, entry))
    return Sheet(game, state).closed(), problems


def _write(game: BalkanGame, state: State, entry: Entry) -> list[Problem]:
    """Write one entry on the state; a refused one still passes the deal (a played deal or a
    refa), so that the entries after it keep their dealer."""
    number = len(state.outcomes) + 1
    outcome, problems = _outcome(entry, Table(game, state), number)
    if problems or outcome is None:
        state.passes += isinstance(entry, PASSING) or (
            isinstance(entry, Unread) and entry.kind in ("played", "refa")
        )
        state.outcomes.append(Outcome(number, "refused", entry))
        return problems
    state.write(outcome)
    return []


def score(game: BalkanGame) -> Sheet:
    """The sheet of a partija; raises InvalidGame with every problem (never a partial sheet)."""
    sheet, problems = replay(game)
    if problems:
        raise InvalidGame(problems)
    return sheet


def preview(sheet: Sheet, entry: Entry) -> tuple[Outcome | None, list[Problem]]:
    """What the entry would write on this sheet and why (its `Outcome`, `why` included), or
    every reason it cannot be written; nothing is changed (the deal form's preview)."""
    after, problems = sheet.plus(entry)
    return (None, problems) if problems else (after.outcomes[-1], [])
