"""The entries of a Balkan sheet: a played deal, a refa, a correction, a write-off."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules.problems import N_

#: Each contract's value V (docs/balkan.md, "Contracts and values"); igra adds 1.
VALUES: dict[str, int] = {"pik": 2, "karo": 3, "herc": 4, "tref": 5, "betl": 6, "sans": 7}
CONTRACTS: tuple[str, ...] = tuple(VALUES)
KONTRA_LEVELS: tuple[int, ...] = (0, 1, 2, 3, 4)
TRICKS = 10
"""Tricks in a hand."""
TO_MAKE = 6
"""Tricks the declarer needs (betl: none)."""


@dataclass(frozen=True)
class Played:
    """A deal played (or passed without play when nobody follows)."""

    declarer: str
    contract: str
    igra: bool = False
    followers: tuple[str, ...] = ()
    invited: str | None = None
    kontra: int = 0
    kontra_by: str | None = None
    tricks: tuple[tuple[str, int], ...] = ()
    """(player, tricks) of everyone who played, in the order given."""
    dealer: str | None = None

    @property
    def value(self) -> int:
        """V: the contract's value, one more with igra."""
        return VALUES[self.contract] + (1 if self.igra else 0)

    @property
    def betl(self) -> bool:
        return self.contract == "betl"

    def tricks_of(self, player: str) -> int:
        return dict(self.tricks).get(player, 0)


@dataclass(frozen=True)
class Refa:
    """Everyone said "dalje": a refa for every player, when one may be written."""

    dealer: str | None = None


@dataclass(frozen=True)
class BuleChange:
    """A correction's change of one player's bule (either sign)."""

    player: str
    bule: int


@dataclass(frozen=True)
class SupeChange:
    """A correction's supe written by `player` on `supe_on` (either sign)."""

    player: str
    supe_on: str
    amount: int


@dataclass(frozen=True)
class Correction:
    """Changes agreed at the table, written as given."""

    entries: tuple[BuleChange | SupeChange, ...]
    reason: str = ""


@dataclass(frozen=True)
class WriteOff:
    """The partija ended early: the bule left are written off (the one who `left` keeps his)."""

    left: str | None = None


@dataclass(frozen=True)
class Unread:
    """An entry that could not be read (kept so that the entries keep their numbers)."""

    kind: str = ""


Entry = Played | Refa | Correction | WriteOff | Unread
PASSES_DEAL = (Played, Refa)
"""The entries after which the next player deals."""


#: Each contract as players say it, without and with igra.
CONTRACT_WORDS: dict[tuple[str, bool], str] = {
    ("pik", False): N_("pik"),
    ("karo", False): N_("karo"),
    ("herc", False): N_("herc"),
    ("tref", False): N_("tref"),
    ("betl", False): N_("betl"),
    ("sans", False): N_("sans"),
    ("pik", True): N_("igra pik"),
    ("karo", True): N_("igra karo"),
    ("herc", True): N_("igra herc"),
    ("tref", True): N_("igra tref"),
    ("betl", True): N_("igra betl"),
    ("sans", True): N_("igra sans"),
}

#: Each kind of entry as the deal form offers it.
KIND_LABELS: dict[str, str] = {
    "played": N_("Played"),
    "refa": N_("Refa (dalje)"),
    "correction": N_("Correction"),
    "writeoff": N_("Write-off"),
}

#: A refa's state in words.
REFA_STATES: dict[str, str] = {
    "open": N_("refa open"),
    "passed": N_("refa passed"),
    "failed": N_("refa failed"),
}
