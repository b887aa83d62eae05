"""The club service (season.md §1, §2): every write to a club, checked first, and the club's
season built from the results it keeps.

Each write is check → one store write, or nothing is written and a `ClubRefused` says why
(its `field` names the form field the message goes next to). The season is computed from
per-table results kept by game and version (`season.py`), never by replaying every game on
each request.
"""

from __future__ import annotations

from scorekeeper.club.writes import (
    ClubRefused,
    add_player,
    add_season,
    attach_link,
    detach,
    link_seat,
    mark,
    merge,
    new_club,
    replace_link,
    set_public,
    started,
    unmerge,
)

__all__ = [
    "ClubRefused",
    "add_player",
    "add_season",
    "attach_link",
    "detach",
    "link_seat",
    "mark",
    "merge",
    "new_club",
    "replace_link",
    "set_public",
    "started",
    "unmerge",
]
