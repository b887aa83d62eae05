"""The season's standings and statistics as CSV (season.md §6.3), by the spreadsheet rules
of every CSV here (`csvout`): for ru and uk `;` between cells, a decimal comma and a byte
order mark; for en `,` and `.`; exact numbers to hundredths; no text cell runs as a formula.

Both take the parts of the report (`compute.report`) and the header row in the reader's
language (the English words are the default)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from scorekeeper.csvout import csv_bytes
from scorekeeper.season.results import LEVELS

STANDINGS_HEADER = (
    "place", "player", "rating", "category", "provisional", "games", "deals", "last played",
)  # fmt: skip
#: The statistics' columns after the player: season.md §3's keys, declared and made per level.
STATISTICS_KEYS = (
    "games", "evenings", "deals", "deals_played", "net", "net_per_deal", "wins", "plus",
    "minus", "even", "largest_win", "largest_loss", "longest_plus_streak",
    "longest_minus_streak", "current_streak",
    *(f"declared_{level}" for level in LEVELS), *(f"made_{level}" for level in LEVELS),
    "misere_declared", "misere_caught", "whisted", "passed", "half_whisted", "allpass_played",
    "allpass_tricks", "allpass_zero", "penalties", "longest_game",
)  # fmt: skip
_EXACT = {"net", "net_per_deal", "largest_win", "largest_loss"}


def standings_csv(
    standings: Sequence[Mapping[str, Any]],
    language: str,
    header: Sequence[str] = STANDINGS_HEADER,
) -> bytes:
    """The standings: place, player, rating, category, provisional (1/0), games, deals, last
    played (blank cells where there is none)."""
    rows: list[Sequence[object]] = [list(header)]
    rows.extend(
        [
            s["place"],
            s["player"],
            Decimal(s["rating"]),
            s["category"],
            1 if s["provisional"] else 0,
            s["games"],
            s["deals"],
            s["last_played"],
        ]
        for s in standings
    )
    return csv_bytes(rows, language)


def statistics_csv(
    statistics: Mapping[str, Mapping[str, Any]],
    language: str,
    header: Sequence[str] | None = None,
) -> bytes:
    """A scope's statistics, one player a row (the player, then STATISTICS_KEYS)."""
    rows: list[Sequence[object]] = [list(header or ("player", *STATISTICS_KEYS))]
    rows.extend(
        [name, *(_value(stats, key) for key in STATISTICS_KEYS)]
        for name, stats in statistics.items()
    )
    return csv_bytes(rows, language)


def _value(stats: Mapping[str, Any], key: str) -> object:
    if key in _EXACT:
        return Fraction(stats[key])
    if key.startswith(("declared_", "made_")):
        kind, level = key.split("_")
        return stats[kind][level]
    return stats[key]
