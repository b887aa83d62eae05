"""The tournament service's writes called directly (docs/tournament.md, "Reopen"): only a
closed tour is reopened, and only while no later tour is seated."""

from __future__ import annotations

import random

import pytest

from scorekeeper.store import Store
from scorekeeper.tournament import service

ROSTER = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"]


def seated(store: Store) -> str:
    """A tournament of six at tables of three with tour 1 seated: its edit token."""
    record = service.create(
        store,
        name="Cup",
        convention="sochi",
        options={"round_limit": 1},
        table_size=3,
        bands=[],
        roster=ROSTER,
    )
    token = record.edit_token
    with pytest.raises(service.CannotReopen):  # nothing is closed yet
        service.reopen(store, token, record.version)
    service.seat(
        store, token, record.version, table_name=lambda t, i: f"{t}.{i}", rng=random.Random(5)
    )
    return token


def test_a_tour_being_played_is_not_reopened_and_a_closed_one_is(store: Store) -> None:
    """docs/tournament.md: a closed tour can be reopened while no later tour is seated: its
    tables, finished by the close, score again. A tour still being played has nothing to
    reopen."""
    token = seated(store)
    record = service.tournaments(store).get(token)
    with pytest.raises(service.CannotReopen):
        service.reopen(store, token, record.version)
    closed = service.close_tour(store, token, record.version, early=True)
    assert closed.tours_closed == 1
    assert all(table.game.finished for table in closed.tour(1))
    reopened = service.reopen(store, token, closed.version)
    assert reopened.tours_closed == 0 and reopened.tours_seated == 1
    assert not any(table.game.finished for table in reopened.tour(1))


def test_after_a_tour_each_player_withdraws_once(store: Store) -> None:
    """docs/tournament.md: between tours a player who leaves keeps his points and sits in no
    later tour; another may leave after him, and one who left cannot leave again."""
    token = seated(store)
    record = service.tournaments(store).get(token)
    record = service.close_tour(store, token, record.version, early=True)
    record = service.withdraw(store, token, record.version, "Anna")
    record = service.withdraw(store, token, record.version, "Boris")
    assert [(w["player"], w["after_tour"]) for w in record.withdrawals] == [
        ("Anna", 1),
        ("Boris", 1),
    ]
    with pytest.raises(service.NoSuchPlayer):
        service.withdraw(store, token, record.version, "Anna")


def test_a_tour_closed_early_marks_its_unfinished_tables_early(store: Store) -> None:
    """docs/tournament.md, reading 2: a table the director's early close finished (its game
    did not end by its own rule) is marked as closed early; once reopened it is not."""
    token = seated(store)
    record = service.tournaments(store).get(token)
    assert not any(table.early for table in service.overview(record).tours[0])
    closed = service.close_tour(store, token, record.version, early=True)
    assert [table.early for table in service.overview(closed).tours[0]] == [True, True]
    reopened = service.reopen(store, token, closed.version)
    assert not any(table.early for table in service.overview(reopened).tours[0])


def test_only_the_director_gives_a_table_a_new_scorer_link(store: Store) -> None:
    """docs/tournament.md: the director gives a table a new scorer link (the old one stops
    working at once); the tournament's read-only link cannot."""
    token = seated(store)
    record = service.tournaments(store).get(token)
    table = record.tour(1)[0].game
    with pytest.raises(service.ReadOnlyTournament):
        service.revoke_table(store, record.view_token, table.id)
    fresh = service.revoke_table(store, token, table.id)
    assert fresh.id == table.id and fresh.edit_token != table.edit_token
    with pytest.raises(service.NoSuchTable):
        service.revoke_table(store, token, -1)
