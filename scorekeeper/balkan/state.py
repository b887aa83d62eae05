"""What one entry does to the sheet (`Outcome`), and the sheet's running state."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from .deals import Entry
from .game import BalkanGame
from .why import Why

HAT = "hat"
HAT_CROSSED = "hat-crossed"
OPEN, PASSED, FAILED = "open", "passed", "failed"


@dataclass(frozen=True)
class Outcome:
    """What one entry wrote and why (after a last deal's scaling)."""

    number: int
    """The entry's 1-based place in the log (a final write-off: one after the last)."""
    kind: str
    """"played", "refa", "correction" or "writeoff"."""
    entry: Entry | None
    dealer: str | None = None
    bule: Mapping[str, int] = field(default_factory=dict)
    """Each player's change of bule (only those changed)."""
    supe: tuple[tuple[str, str, int], ...] = ()
    """(writer, on whom, amount)."""
    unit: int | None = None
    """u = 2 × V × M, before any last-deal scaling."""
    value: int | None = None
    multiplier: int | None = None
    refa_doubles: bool = False
    made: bool | None = None
    falls: tuple[str, ...] = ()
    scale: Fraction | None = None
    """r of a last deal that would take Σ bule below 0."""
    refe_written: bool = False
    refa_marked: tuple[str, str] | None = None
    """(declarer, "passed" or "failed") when the deal played his open refa."""
    write_off: Mapping[str, int] = field(default_factory=dict)
    ends: bool = False
    why: tuple[Why, ...] = ()


@dataclass
class State:
    """The sheet as it stands: bule, columns, supe, refe, whose deal it is, the end."""

    players: tuple[str, ...]
    bule: dict[str, int]
    column: dict[str, list[str]]
    supe: dict[str, dict[str, int]]
    refe: dict[str, list[str]]
    refe_entries: int = 0
    """Refa entries that wrote refe."""
    passes: int = 0
    """Entries that passed the deal."""
    ended_by: str | None = None
    write_off: dict[str, int] = field(default_factory=dict)
    outcomes: list[Outcome] = field(default_factory=list)

    @classmethod
    def start(cls, game: BalkanGame) -> State:
        players = game.players
        start = game.options.bule
        return cls(
            players=players,
            bule={p: start for p in players},
            column={p: [str(start)] for p in players},
            supe={p: {q: 0 for q in players if q != p} for p in players},
            refe={p: [] for p in players},
        )

    def copy(self) -> State:
        """A copy to write the next entry on (the outcomes are shared, never changed)."""
        out = copy.copy(self)
        out.bule = dict(self.bule)
        out.column = {p: list(c) for p, c in self.column.items()}
        out.supe = {p: dict(s) for p, s in self.supe.items()}
        out.refe = {p: list(r) for p, r in self.refe.items()}
        out.write_off = dict(self.write_off)
        out.outcomes = list(self.outcomes)
        return out

    @property
    def total(self) -> int:
        """Σ bule of all players."""
        return sum(self.bule.values())

    def under_hat(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if self.bule[p] < 0)

    def open_refe(self, player: str) -> int:
        return self.refe[player].count(OPEN)

    def write(self, outcome: Outcome) -> None:
        """Write an outcome on the sheet: bule with hats, supe, refe, the end."""
        for p, change in outcome.bule.items():
            if change:
                self._bule(p, change)
        for writer, on, amount in outcome.supe:
            self.supe[writer][on] += amount
        if outcome.refe_written:
            self.refe_entries += 1
            for p in self.players:
                self.refe[p].append(OPEN)
        if outcome.refa_marked is not None:
            who, how = outcome.refa_marked
            self.refe[who][self.refe[who].index(OPEN)] = how
        if outcome.kind in ("played", "refa"):
            self.passes += 1
        if outcome.write_off:
            self.write_off = dict(outcome.write_off)
        if outcome.ends:
            self.ended_by = "writeoff" if outcome.kind == "writeoff" else "zero"
        self.outcomes.append(outcome)

    def _bule(self, player: str, change: int) -> None:
        before = self.bule[player]
        after = before + change
        if before >= 0 > after:
            self.column[player].append(HAT)
        elif before < 0 <= after:
            self.column[player].append(HAT_CROSSED)
        self.column[player].append(str(after))
        self.bule[player] = after
