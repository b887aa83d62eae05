"""A Balkan partija: its settings and its entries, the one thing every number comes from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .deals import Entry
from .options import BalkanOptions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FAMILY = "balkan"


@dataclass(frozen=True)
class BalkanGame:
    """Players in the order of the deal, the preset with its options, and the entries."""

    players: tuple[str, ...]
    convention: str
    options: BalkanOptions
    first_dealer: str
    deals: tuple[Entry, ...] = ()
    finished: bool = False
    """Finished by hand: a partija not ended by then is written off at its end."""
    name: str = ""
    overrides: Mapping[str, Any] = field(default_factory=dict)
    """The options as written in the file (the table's changes to the preset)."""

    family = FAMILY
    hussar = False

    def with_deals(self, deals: tuple[Entry, ...]) -> BalkanGame:
        """The same partija with another list of entries."""
        return replace(self, deals=deals)

    def right_of(self, player: str) -> str:
        """The next player in the list (the deal passes to him)."""
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def left_of(self, player: str) -> str:
        """The previous player in the list."""
        i = self.players.index(player)
        return self.players[i - 1]
