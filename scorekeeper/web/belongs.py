"""What a page shows that lives in another service's records: the tournament a game is a
table of, the company it is an evening of, the table's answers, and the companies and
tournaments this browser knows. The views ask here and hand the answers to their templates:
no template reads the store."""

from __future__ import annotations

from flask import url_for

from scorekeeper.games import Loaded
from scorekeeper.store.companies import Companies, CompanyRecord
from scorekeeper.store.tournaments import TableOf, TournamentRecord
from scorekeeper.tournament import service as tournament_service

from . import recent
from .context import tour_table_of
from .storage import get_store

COMPANIES = "companies"
"""This browser's list of companies in its cookie (recent's key)."""
TOURNAMENTS = "tournaments"
"""This browser's list of tournaments in its cookie."""


def tournament_table(loaded: Loaded) -> TableOf | None:
    """The tournament the game is a table of (its tour, table and name), or None."""
    return tour_table_of(loaded.record.id)


def company_of(loaded: Loaded) -> tuple[str, str] | None:
    """The name and read-only link of the company the game is an evening of, for its
    scorer (a game's link never opens its company's edit page). Asked for each request: a
    game attached to a company later is the same state of the game."""
    if not loaded.editable:
        return None
    around = loaded.record.around  # read with the game when it was looked up
    found = around.company if around else Companies(get_store()).of_game(loaded.record.id)
    if found is None:
        return None
    name, view_token = found
    return name, url_for("company.show", mode="cv", token=view_token)


def known_companies() -> list[CompanyRecord]:
    """The companies this browser created or opened (the home page lists them)."""
    return Companies(get_store()).for_tokens(recent.known(COMPANIES))


def known_tournaments() -> list[TournamentRecord]:
    """The tournaments this browser created or opened (the home page lists them)."""
    return tournament_service.tournaments(get_store()).for_tokens(recent.known(TOURNAMENTS))
