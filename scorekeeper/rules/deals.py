"""What happened at the table in one deal, as the scorer enters it (docs/rules.md §4)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction

from .contracts import Contract

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Answer(enum.Enum):
    """A defender's answer to a contract."""

    WHIST = "whist"
    """Plays against the declarer and writes whists for tricks (§4.3)."""
    PASS = "pass"
    """Does not whist; still writes consolation on a remise (§4.3)."""
    HALF_WHIST = "half-whist"
    """Second defender's half-whist after a pass: no play, fixed whists (§4.2)."""
    WHIST_TALON = "whist-talon"
    """Hussar: whists with his own talon, with the larger quota (§9)."""
    WHIST_RETURNED = "whist-returned"
    """The first defender whists after his pass and the second's half-whist: the half-whist
    is void and he plays as the lone whister (§4.8)."""


#: Answers that play the contract out (the dealer's whist is a WHIST by the dealer).
WHISTING = (Answer.WHIST, Answer.WHIST_TALON, Answer.WHIST_RETURNED)


@dataclass(frozen=True)
class ContractDeal:
    """A trick contract: declarer, contract, each defender's answer, tricks when played."""

    declarer: str
    contract: Contract
    answers: dict[str, Answer]
    tricks: dict[str, int] = field(default_factory=dict)
    dealer: str | None = None
    """The dealer as stated in the file (None when left to the rotation)."""
    talon_tricks: int | None = None
    """Quick tricks in the talon, 0 to 3, with the option `talon_bonus` (§4.9); None when
    the file does not say (then 0)."""
    _whisters: list[str] = field(init=False, repr=False, compare=False)

    kind = "contract"

    def __post_init__(self) -> None:
        whisters = [p for p, a in self.answers.items() if a in WHISTING]
        object.__setattr__(self, "_whisters", whisters)

    @property
    def whisters(self) -> list[str]:
        """Who whists (alone, with the talon, returned, or the dealer), in answer order."""
        return list(self._whisters)

    @property
    def lone_whister(self) -> bool:
        """True when a half-whist was overruled (§4.8): the first defender returned the whist,
        or the dealer whisted; that whister writes alone and shares with nobody."""
        answers = self.answers.values()
        return Answer.HALF_WHIST in answers and bool(self._whisters)

    @property
    def played(self) -> bool:
        """True when somebody whisted, so the cards were played out."""
        return bool(self._whisters)


@dataclass(frozen=True)
class MisereDeal:
    """Misère: the declarer plays alone to take no trick (§4.4)."""

    declarer: str
    tricks: dict[str, int]
    dealer: str | None = None

    kind = "misere"


@dataclass(frozen=True)
class AllPassDeal:
    """All-pass: everyone passed and played for the fewest tricks (§4.5)."""

    tricks: dict[str, int]
    dealer: str | None = None

    kind = "allpass"


@dataclass(frozen=True)
class CorrectionEntry:
    """One amount a correction writes: pool, hill, or whists on another player."""

    player: str
    pool: Fraction | None = None
    hill: Fraction | None = None
    whists_on: str | None = None
    amount: Fraction | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False)
    """The entry as written in the file, kept so that a dump loses nothing."""


@dataclass(frozen=True)
class Correction:
    """Amounts written by hand with a reason; not a deal at the table (§4.6)."""

    reason: str
    entries: tuple[CorrectionEntry, ...]

    kind = "correction"
    dealer = None


@dataclass(frozen=True)
class Penalty:
    """A fine (renonce and the like): written as a one-trick remise of `contract` by `player`
    (§4.7); like a correction it is not a deal at the table."""

    player: str
    """The offender."""
    contract: Contract
    """The contract of the deal the offence happened in; its value sets the fine."""

    kind = "penalty"
    dealer = None


@dataclass(frozen=True)
class Redeal:
    """Hussar: both passed and the cards are dealt again; writes nothing (§9)."""

    dealer: str | None = None

    kind = "redeal"


@dataclass(frozen=True)
class Unreadable:
    """A deal that could not be read: it keeps its place in the log so that the deals after
    it are still checked, and writes nothing."""

    kind: str
    """The type it claimed ("contract", ...), or "" when even that was unreadable."""
    dealer: str | None = None


Deal = ContractDeal | MisereDeal | AllPassDeal | Correction | Penalty | Redeal | Unreadable

#: Kinds that are not deals at the table: they do not pass the deal, count toward no round
#: and leave an all-pass streak as it is (§4.6, §4.7, §5). In the order the deal form offers
#: them, after the deals.
OFF_TABLE_KINDS = ("penalty", "correction")


def is_table_deal(deal: Deal) -> bool:
    """True for deals that pass the deal to the next dealer (all but corrections, penalties)."""
    return deal.kind not in OFF_TABLE_KINDS
