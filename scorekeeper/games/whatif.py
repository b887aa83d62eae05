""" "What if": the deals of a game re-scored under another preset, side by side with the real
result, written nowhere (how a table settles "by which rules did we play?").

The same log is replayed by the rules under the other convention; the table's own amounts
(the pool, the stake, the money's unit and currency) stay as they were agreed. Deals the
other rules do not accept (a six after an all-pass where they require a seven) are reported
by number and nothing is compared."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scorekeeper.rules import (
    PLAYER_COUNTS,
    PRESETS,
    Game,
    Problem,
    Settlement,
    find_convention,
    replay,
    settle,
)
from scorekeeper.rules.options import AllpassZeroBonus, HalfWhistTricks, resolve_options
from scorekeeper.rules.problems import N_, Either

if TYPE_CHECKING:
    from . import Loaded

#: The table's own amounts, kept from the real game: they are agreed, not rules.
KEPT_AMOUNTS = ("pool_target", "stake", "money_unit", "currency")

#: The conventions a game of three to five may be re-scored under (Hussar seats two).
WHAT_IF_CONVENTIONS = tuple(c for c in PRESETS if c != "hussar")

#: The readings Leningrad tables split on, offered beside the preset (each with its values).
WHAT_IF_OPTIONS: dict[str, tuple[str, ...]] = {
    "allpass_zero_bonus": tuple(v.value for v in AllpassZeroBonus),
    "half_whist_tricks": tuple(v.value for v in HalfWhistTricks),
}


@dataclass(frozen=True)
class WhatIf:
    """The real settlement and the other one (None when the other rules refuse a deal)."""

    convention: str
    game: Game | None
    """The same game under the other convention (None when it cannot be played by it)."""
    players: tuple[str, ...]
    real: Settlement
    other: Settlement | None
    problems: list[Problem]
    """Why the other rules cannot score the deals: each names its deal (Problem.deal)."""


def other_game(
    game: Game, convention: str, changes: Mapping[str, str] | None = None
) -> tuple[Game | None, list[Problem]]:
    """The same game under another convention's preset (and the few `changes` offered,
    WHAT_IF_OPTIONS), with the table's amounts."""
    name = find_convention(convention)
    if name is None or name not in WHAT_IF_CONVENTIONS:
        template = N_("unknown convention {name} (sochi, leningrad, rostov, hussar, fspr)")
        return None, [Problem(template, {"name": convention[:40]}, "convention")]
    counts = PLAYER_COUNTS[name]
    if len(game.players) not in counts:
        template = N_("{convention} is played by {counts} players, not {count}")
        params = {"convention": name, "counts": Either(counts), "count": len(game.players)}
        return None, [Problem(template, params, "convention")]
    asked = {k: v for k, v in (changes or {}).items() if k in WHAT_IF_OPTIONS}
    options, problems = resolve_options(name, asked)
    if problems:
        return None, problems
    kept = {key: getattr(game.options, key) for key in KEPT_AMOUNTS}
    options = dataclasses.replace(options, **kept)
    return dataclasses.replace(game, convention=name, options=options), []


def what_if(
    loaded: Loaded, convention: str, changes: Mapping[str, str] | None = None
) -> WhatIf | None:
    """A stored game's deals re-scored under `convention`, beside its real settlement; None
    for a game of another family of rules (a Balkan game has no such presets)."""
    game = loaded.game
    if not isinstance(game, Game):
        return None
    other, problems = other_game(game, convention, changes)
    settled = None
    if other is not None:
        sheet, problems = replay(other)
        settled = None if problems else settle(sheet)
    return WhatIf(convention, other, game.players, loaded.settlement, settled, problems)
