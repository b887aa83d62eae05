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
