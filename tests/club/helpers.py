"""What the club's tests read from its pages, written as the page writes it."""

from __future__ import annotations

from typing import Any


def page_rating(rating: str, language: str = "en") -> str:
    """A rating of the season file ("-102.13") as a page writes it: a true minus sign, and the
    decimal comma in every language of the app but English ("−102,13")."""
    shown = rating.replace("-", "\u2212")
    return shown if language == "en" else shown.replace(".", ",")


def as_rows(standings: list[dict[str, Any]]) -> list[list[str]]:
    """The season file's standings as the English club page's rows (place, player, rating,
    category, games)."""
    return [
        [
            str(s["place"] or ""),
            s["player"],
            page_rating(s["rating"]),
            str(s["category"] or ""),
            str(s["games"]),
        ]
        for s in standings
    ]
