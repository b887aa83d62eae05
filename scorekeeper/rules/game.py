"""A game: its settings and its deal log, the one thing every number is computed from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .deals import Deal
from .options import Convention, Options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class Game:
    """Players in clockwise order, the convention with its options, and the deals."""

    players: tuple[str, ...]
    convention: str
    options: Options
    first_dealer: str
    deals: tuple[Deal, ...] = ()
    finished: bool = False
    name: str = ""
    overrides: Mapping[str, Any] = field(default_factory=dict)
    """The options as written in the file (house rules over the preset), kept for a dump."""

    @property
    def hussar(self) -> bool:
        """True for two-handed Hussar preferans (§9)."""
        return self.convention == Convention.HUSSAR

    def with_deals(self, deals: tuple[Deal, ...]) -> Game:
        """The same game with another deal log."""
        return replace(self, deals=deals)
