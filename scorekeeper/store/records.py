"""The read-only records the store hands out: games, deals and deal revisions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Access = Literal["edit", "view"]
Action = Literal["add", "edit", "delete", "restore"]


@dataclass(frozen=True)
class DealRecord:
    """One deal as entered, with its 0-based place among the game's live deals."""

    id: int
    position: int
    data: dict[str, Any]
    created_at: str
    updated_at: str
    # Only ever True for the deal add_deal hands back on a replayed request key after that
    # deal was deleted; its position is then where it would come back if restored.
    deleted: bool = False


@dataclass(frozen=True)
class Revision:
    """One change to one deal: the deal as it was before and after the action."""

    id: int
    deal_id: int
    action: Action
    data: dict[str, Any] | None  # after the action; None for a delete
    previous: dict[str, Any] | None  # before the action; None for an add or an un-delete
    at: str
    game_version: int


@dataclass(frozen=True)
class TableOf:
    """The tournament a game is a table of, as the game's pages name it."""

    name: str
    view_token: str
    tour: int
    table_no: int
    closed: bool
    """Its tour is closed: the game may no longer change."""


@dataclass(frozen=True)
class Around:
    """What a game's pages show beside the game, read in the same statement as its row (on
    PostgreSQL one round trip where it was four): the tournament it is a table of, the
    company it is an evening of (name, view token), and its answers' stamp."""

    table: TableOf | None
    company: tuple[str, str] | None
    stamp: int


@dataclass(frozen=True)
class GameRecord:
    """A game's settings and its live deals in order, as seen through one of its tokens."""

    id: int
    name: str
    convention: str
    options: dict[str, Any]
    players: list[str]
    first_dealer: str
    finished: bool
    finished_snapshot: dict[str, Any] | None
    created_at: str
    updated_at: str
    version: int
    edit_token: str  # "" when fetched with the view token, so a page can never leak it
    view_token: str
    access: Access
    deals: list[DealRecord] = field(default_factory=list)
    # Read with the game (Store.get_game), None when the record was made otherwise (after a
    # write): then each is asked on its own. Not part of the game's equality.
    around: Around | None = field(default=None, compare=False, repr=False)
