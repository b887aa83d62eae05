"""The tournament service's writes called directly (docs/tournament.md): reopening, leaving,
joining late, new scorer links, and what a table's own scorer may not do."""

from __future__ import annotations

import random

import pytest

from scorekeeper import games
from scorekeeper.games import writes
from scorekeeper.store import Store
from scorekeeper.store.tournaments import TournamentRecord
from scorekeeper.tournament import service

ROSTER = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"]
ALLPASS = {"type": "allpass", "tricks": {}}


def created(store: Store, roster: list[str] = ROSTER) -> TournamentRecord:
    """A new tournament of these players at tables of three, one round a tour."""
    return service.create(
        store,
        name="Cup",
        convention="sochi",
        options={"round_limit": 1},
        table_size=3,
        bands=[],
        roster=roster,
    )


def seated(store: Store) -> str:
    """A tournament of six at tables of three with tour 1 seated: its edit token."""
    record = created(store)
    with pytest.raises(service.CannotReopen):  # nothing is closed yet
        service.reopen(store, record.edit_token, record.version)
    return seat_and_close(store, record.edit_token, close=False).edit_token


def seat_and_close(
    store: Store, token: str, *, seat: bool = True, close: bool = True
) -> TournamentRecord:
    """The next tour seated (seat), then closed early (close): the tournament after."""
    record = service.tournaments(store).get(token)
    if seat:
        record = service.seat(
            store, token, record.version, table_name=lambda t, i: f"{t}.{i}", rng=random.Random(5)
        )
    return service.close_tour(store, token, record.version, early=True) if close else record


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
    record = seat_and_close(store, token, seat=False)
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


def test_a_table_of_a_tournament_does_not_change_the_tournament_by_itself(store: Store) -> None:
    """docs/tournament.md: only the director closes a tour early and seats the next one: a
    table cannot finish itself before its deals are played, nor start a rematch; once the
    tour is closed its tables take no deal (said before anything about the deal itself)."""
    token = seated(store)
    record = service.tournaments(store).get(token)
    loaded = games.current(store, record.tour(1)[0].game.edit_token)
    version = loaded.record.version
    with pytest.raises(writes.TournamentTable) as finishing:
        writes.set_finished(store, loaded, True, base_version=version, request_key="f" * 32)
    assert finishing.value.finishing and not finishing.value.rematch
    with pytest.raises(writes.TournamentTable) as rematch:
        writes.rematch(store, loaded, name="Again")
    assert rematch.value.rematch and not rematch.value.finishing
    service.close_tour(store, token, record.version, early=True)
    loaded = games.current(store, loaded.record.edit_token)
    with pytest.raises(writes.TourClosed):
        writes.add_deal(
            store, loaded, ALLPASS, base_version=loaded.record.version, request_key="a" * 32
        )


def test_a_player_joins_the_roster_before_tour_1_and_the_next_tour_after_it(
    store: Store,
) -> None:
    """docs/tournament.md (a late player, reading 12): before tour 1 a new name simply joins
    the roster; later he joins for the next tour, and leaving before it takes only his name
    off (another late player stays)."""
    record = created(store)
    token = record.edit_token
    record = service.join(store, token, record.version, "Zoya")
    assert "Zoya" in record.roster and record.joined == []
    record = seat_and_close(store, token)
    record = service.join(store, token, record.version, "Yuri")
    record = service.join(store, token, record.version, "Xenia")
    assert [(j["player"], j["before_tour"]) for j in record.joined] == [
        ("Yuri", 2),
        ("Xenia", 2),
    ]
    record = service.withdraw(store, token, record.version, "Yuri")
    assert "Yuri" not in record.roster and "Xenia" in record.roster
    assert [j["player"] for j in record.joined] == ["Xenia"]


def test_a_tournament_seats_three_players_and_no_fewer(store: Store) -> None:
    """docs/tournament.md: a tournament needs players for at least one table of three."""
    assert created(store, ROSTER[:3]).roster == ROSTER[:3]
    with pytest.raises(service.RosterRefused):
        created(store, ROSTER[:2])
