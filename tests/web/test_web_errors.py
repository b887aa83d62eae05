"""Every refusal said in words in one place (web/errors.py): each kind of a tournament's and
a company's refusals has its own sentence, in the page's language."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper.company import writes as company
from scorekeeper.refusals import Refused
from scorekeeper.tournament import service as tournament
from scorekeeper.web.errors import said, said_company

TOURNAMENT = [
    (tournament.TourPlaying(), "A tour is being played: close it first."),
    (tournament.NoTourPlaying(), "No tour is being played."),
    (
        tournament.TablesUnfinished(2),
        "2 tables have not finished: tick the box to close the tour now.",
    ),
    (
        tournament.TableHasDeals(),
        "A table has saved a deal: the seating can no longer be undone.",
    ),
    (
        tournament.WithdrawnAfter("Anna"),
        "Anna left after this tour: a tour with a withdrawal after it cannot be reopened.",
    ),
    (
        tournament.JoinedAfter("Lev", 3),
        "Lev joined before tour 3: take the name off first, then reopen.",
    ),
    (tournament.TournamentOver(), "The tournament is over: its last tour is played."),
    (tournament.NoSuchPlayer(), "There is no such player in the tournament."),
    (tournament.NoSuchTable(), "There is no such table in the tournament."),
]


@pytest.mark.parametrize(("refused", "words"), TOURNAMENT, ids=lambda v: type(v).__name__)
def test_a_refused_tournament_write_is_said_by_its_kind(
    app: Flask, refused: tournament.TournamentRefused, words: str
) -> None:
    assert isinstance(refused, Refused)
    with app.test_request_context("/?lang=en"):
        assert said(refused) == words


COMPANY = [
    (company.NameTaken("Anna"), "Anna is already a player of the company."),
    (company.NoGameAtLink(), "No game has this link."),
    (company.ReadOnlyLink(), "This is the game's read-only link: paste its edit link."),
    (
        company.OtherCurrency("$", "€"),
        "This game counts its money in $ and the company in €: money in different "
        "currencies is not added up, so the game was not added.",
    ),
    (company.PlayersToPick((2,)), "Hussar is played by two: pick two players"),
    (company.PlayersToPick((2, 3, 4, 5)), "Pick two players (Hussar), or three, four or five"),
    (company.DealerRefused(), "Choose who deals first among the players"),
]


@pytest.mark.parametrize(("refused", "words"), COMPANY, ids=lambda v: type(v).__name__)
def test_a_refused_company_write_is_said_by_its_kind(
    app: Flask, refused: company.CompanyRefused, words: str
) -> None:
    assert isinstance(refused, Refused)
    with app.test_request_context("/?lang=en"):
        assert said_company(refused) == words
