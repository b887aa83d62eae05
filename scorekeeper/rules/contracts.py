"""Contracts, their value and the defenders' quota (docs/rules.md §3)."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

LEVELS: tuple[int, ...] = (6, 7, 8, 9, 10)

#: Pool points a made contract is worth, by level (§3).
VALUE: dict[int, int] = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}

#: Tricks the defending side must take, by level (§3, Codex 3.8.2).
QUOTA: dict[int, int] = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}

#: Each of two whisters' share of the quota on a six or a seven; also the half-whist basis.
HALF_QUOTA: dict[int, int] = {6: 2, 7: 1}

#: A whister's own quota under `two_whister_quota = personal` (seed 002).
PERSONAL_QUOTA: dict[int, int] = {6: 2, 7: 1, 8: 1, 9: 1, 10: 1}


class Suit(enum.Enum):
    """A trump suit, or no trumps; declared lowest to highest."""

    SPADES = "S"
    """Spades ♠, the lowest suit."""
    CLUBS = "C"
    """Clubs ♣."""
    DIAMONDS = "D"
    """Diamonds ♦."""
    HEARTS = "H"
    """Hearts ♥, the highest suit."""
    NO_TRUMP = "NT"
    """No trumps, above every suit."""

    @property
    def symbol(self) -> str:
        """The suit's card symbol, or "NT"."""
        return _SYMBOLS[self]


_SYMBOLS = {
    Suit.SPADES: "♠",
    Suit.CLUBS: "♣",
    Suit.DIAMONDS: "♦",
    Suit.HEARTS: "♥",
    Suit.NO_TRUMP: "NT",
}
_FROM_TEXT = {s.value: s for s in Suit} | {
    "♠": Suit.SPADES,
    "♣": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♤": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "BK": Suit.NO_TRUMP,
}
_CONTRACT_RE = re.compile(r"^\s*([0-9]{1,2})\s*(\S+?)\s*$")


class ContractError(ValueError):
    """A contract written in a form that does not name a real contract."""


@dataclass(frozen=True, order=False)
class Contract:
    """A trick contract: a level from 6 to 10 and a suit or no trumps."""

    level: int
    suit: Suit

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ContractError(f"level must be 6 to 10, not {self.level}")

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Read "7S", "6NT", "8♥"; raises ContractError for anything else."""
        match = _CONTRACT_RE.match(text) if isinstance(text, str) else None
        if match is None:
            raise ContractError(f"{text!r} is not a contract (write e.g. 7S, 6NT, 8♥)")
        level_text, suit_text = match.groups()
        level = int(level_text)
        if level not in LEVELS:
            raise ContractError(f"{text!r}: the level must be 6 to 10")
        suit = _FROM_TEXT.get(suit_text.upper()) or _FROM_TEXT.get(suit_text)
        if suit is None:
            raise ContractError(f"{text!r}: the suit must be S, C, D, H or NT")
        return cls(level, suit)

    def code(self) -> str:
        """The game-file form, e.g. "7S"."""
        return f"{self.level}{self.suit.value}"

    def __str__(self) -> str:
        return f"{self.level}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Contract.parse({self.code()!r})"

    @property
    def value(self) -> int:
        """Pool points the contract is worth (§3)."""
        return VALUE[self.level]
