"""A company's money is in one currency: a game in another cannot join it (issue 24).

Money in different currencies is never added up, nor converted: a company sums its evenings
in its own currency only. The company's options and a game's options name their currency as
the table wrote it ("₽", "грн", "EUR"); two currencies are the same when they read the same
(spaces and letter case aside).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.problems import N_

#: Said when a game in another currency is attached to a company.
OTHER_CURRENCY = N_(
    "This game counts its money in %(game)s and the company in %(company)s: "
    "money in different currencies is not added up, so the game was not added."
)


def currency_of(options: Mapping[str, Any] | None) -> str:
    """The currency a company's or a game's options name ("" when none is named)."""
    value = (options or {}).get("currency") or ""
    return " ".join(str(value).split())


def same_currency(first: str, second: str) -> bool:
    """Whether two currencies as written are the same one."""
    return first.casefold() == second.casefold()


def currency_problem(
    company_options: Mapping[str, Any] | None, game_options: Mapping[str, Any] | None
) -> dict[str, str] | None:
    """None when a game's money can be summed with the company's; else the message's values
    (for OTHER_CURRENCY): the game's currency and the company's, each as written."""
    company, game = currency_of(company_options), currency_of(game_options)
    if same_currency(company, game):
        return None
    return {"game": game or "—", "company": company or "—"}
