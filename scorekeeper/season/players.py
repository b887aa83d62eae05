"""Players as identities (season.md §2): the directory, the merges, and who a seat is.

A seat (a game's player, a tournament's roster name) is, in this order: the directory player
it is attached to; else the directory player whose name has the seat name's key (the
tournaments' folding rule: "Anna" = "ANNA" = "Ａｎｎａ"); else an unattached name, a player of
its own, one per key, shown as its smallest spelling by code points. A merge counts every
seat of the merged player for the kept one (chains followed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from scorekeeper.rules.text import name_key

Player = int | str
"""A player of the season: a directory id (the kept one, merges followed) or an unattached
name's key."""


class MergeCycle(ValueError):
    """Merges that lead back to where they started."""


@dataclass(frozen=True)
class Directory:
    """The club's players (id → name) and the merges in force (merged id → kept id)."""

    names: Mapping[int, str] = field(default_factory=dict)
    merges: Mapping[int, int] = field(default_factory=dict)

    @cached_property
    def by_key(self) -> dict[str, int]:
        """Each directory name's key → its id."""
        return {name_key(name): pid for pid, name in self.names.items()}

    def kept(self, pid: int) -> int:
        """The player an id counts for: its merges followed to the end."""
        seen = {pid}
        while pid in self.merges:
            pid = self.merges[pid]
            if pid in seen:
                raise MergeCycle(pid)
            seen.add(pid)
        return pid

    def resolve(self, seat: str, attachment: int | None = None) -> Player:
        """Who a seat is: its attachment, else the directory name with its key, else the
        unattached name's key."""
        if attachment is not None:
            return self.kept(attachment)
        key = name_key(seat)
        found = self.by_key.get(key)
        return key if found is None else self.kept(found)

    def merged_into(self, pid: int) -> list[str]:
        """The directory names merged into a kept player (chains followed), code-point order."""
        return sorted(self.names[m] for m in self.merges if self.kept(m) == pid)


def display_names(directory: Directory, seen: Iterable[tuple[Player, str]]) -> dict[Player, str]:
    """Each player's name as shown: a directory player's name; an unattached name's smallest
    spelling by code points among the seat names `seen` (player, seat name) for it."""
    out: dict[Player, str] = {}
    for player, spelling in seen:
        if isinstance(player, int):
            out[player] = directory.names[player]
        elif player not in out or spelling < out[player]:
            out[player] = spelling
    return out
