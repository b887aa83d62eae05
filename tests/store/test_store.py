"""The store's API: games, deals, revisions, versions, access and request keys."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from scorekeeper.store import (
    DealNotFound,
    GameNotFound,
    GameRecord,
    ReadOnlyAccess,
    RequestKeyReused,
    RevisionNotFound,
    Store,
    StoreError,
    VersionConflict,
)
from scorekeeper.store.store import _KEPT_DEALS

from ..helpers import said

PLAYERS = ["Anna", "Boris", "Vera"]
SEVEN_SPADES = {
    "type": "contract",
    "declarer": "Anna",
    "contract": "7S",
    "answers": {"Boris": "whist", "Vera": "pass"},
    "tricks": {"Anna": 5, "Boris": 3, "Vera": 2},
}
SIX_NT = {
    "type": "contract",
    "declarer": "Boris",
    "contract": "6NT",
    "answers": {"Vera": "pass", "Anna": "pass"},
}
MISERE = {"type": "misere", "declarer": "Vera", "tricks": {"Vera": 1}}
ALLPASS = {"type": "allpass", "tricks": {"Anna": 0, "Boris": 4, "Vera": 6}}
REDEAL = {"type": "redeal"}


@pytest.fixture
def store(store_location: str) -> Iterator[Store]:
    """A store on each engine: an SQLite file, then a PostgreSQL database."""
    with Store(store_location) as store:
        yield store


def new_game(
    store: Store, deals: Sequence[dict[str, Any]] = (), name: str = "Friday"
) -> GameRecord:
    return store.create_game(
        name=name,
        convention="sochi",
        options={"pool_target": 10, "stake": "0.10", "currency": "EUR"},
        players=PLAYERS,
        first_dealer="Vera",
        deals=list(deals),
    )


@pytest.fixture
def game(store: Store) -> GameRecord:
    return new_game(store, [SEVEN_SPADES, SIX_NT])


def datas(game: GameRecord) -> list[dict[str, Any]]:
    return [deal.data for deal in game.deals]


# -- games and tokens ----------------------------------------------------------------------


def test_create_game_keeps_settings_and_deals_as_given(store: Store) -> None:
    game = new_game(store, [SEVEN_SPADES, SIX_NT])
    assert (game.name, game.convention, game.players, game.first_dealer) == (
        "Friday",
        "sochi",
        PLAYERS,
        "Vera",
    )
    assert game.options == {"pool_target": 10, "stake": "0.10", "currency": "EUR"}
    assert (game.version, game.access, game.finished, game.finished_snapshot) == (
        1,
        "edit",
        False,
        None,
    )
    assert datas(game) == [SEVEN_SPADES, SIX_NT]
    assert [deal.position for deal in game.deals] == [0, 1]
    assert game.created_at == game.updated_at
    assert game.created_at.endswith("+00:00")


def test_tokens_are_long_random_and_distinct(store: Store) -> None:
    games = [new_game(store) for _ in range(3)]
    tokens = [g.edit_token for g in games] + [g.view_token for g in games]
    assert len(set(tokens)) == 6
    assert all(len(token) == 32 for token in tokens)  # 24 bytes, base64url


def test_get_game_by_edit_token_gives_edit_access(store: Store, game: GameRecord) -> None:
    assert store.get_game(game.edit_token) == game


def test_get_game_by_view_token_gives_view_access_and_hides_the_edit_token(
    store: Store, game: GameRecord
) -> None:
    seen = store.get_game(game.view_token)
    assert (seen.access, seen.edit_token, seen.view_token) == ("view", "", game.view_token)
    assert (seen.id, seen.version, seen.deals) == (game.id, game.version, game.deals)


def test_a_kept_state_is_read_in_one_statement_and_a_write_elsewhere_is_seen_at_once(
    store_location: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page of a game whose state this process already read costs one statement (the game's
    row, no transaction: on PostgreSQL a BEGIN and a COMMIT are two round trips more); a write
    through another connection is read at the next request, whole and in one snapshot."""
    game = new_game(store, [SEVEN_SPADES])
    with Store(store_location, create=False) as reader:
        first = reader.get_game(game.view_token)
        statements: list[str] = []
        snapshots: list[int] = []
        rows, reading = reader.engine.rows, reader.engine.reading

        def counted_rows(sql: str, params: Sequence[Any] = ()) -> list[Any]:
            statements.append(sql)
            return rows(sql, params)

        def counted_reading() -> Any:
            snapshots.append(1)
            return reading()

        monkeypatch.setattr(reader.engine, "rows", counted_rows)
        monkeypatch.setattr(reader.engine, "reading", counted_reading)
        again = reader.get_game(game.view_token)
        assert (len(statements), snapshots) == (1, [])
        assert again == first and again.access == "view" and datas(again) == [SEVEN_SPADES]

        store.add_deal(game.edit_token, SIX_NT, base_version=game.version)
        _KEPT_DEALS.states.clear()  # as on another host: the new state was never read here
        statements.clear()
        after = reader.get_game(game.edit_token)
        assert after.version == game.version + 1 and after.access == "edit"
        assert datas(after) == [SEVEN_SPADES, SIX_NT]
        assert snapshots == [1] and len(statements) == 3  # looked, then read in one snapshot
        statements.clear()
        assert reader.get_game(game.edit_token) == after and len(statements) == 1

        store.delete_game(game.edit_token)
        with pytest.raises(GameNotFound):
            reader.get_game(game.view_token)


@pytest.mark.parametrize("token", ["", "nope", None])
def test_unknown_token_raises_game_not_found(store: Store, game: GameRecord, token: Any) -> None:
    with pytest.raises(GameNotFound):
        store.get_game(token)


def test_token_with_one_character_changed_is_unknown(store: Store, game: GameRecord) -> None:
    other = ("A" if game.edit_token[0] != "A" else "B") + game.edit_token[1:]
    with pytest.raises(GameNotFound):
        store.get_game(other)


def test_games_for_tokens_newest_first_ignoring_unknown_ones(store: Store) -> None:
    old, mid, new = (new_game(store, name=name) for name in ("old", "mid", "new"))
    found = store.games_for_tokens([old.edit_token, "unknown", new.view_token, mid.edit_token])
    assert [(g.name, g.access) for g in found] == [
        ("new", "view"),
        ("mid", "edit"),
        ("old", "edit"),
    ]
    assert found[0].edit_token == ""


def test_games_for_tokens_prefers_edit_access_and_lists_a_game_once(store: Store) -> None:
    game = new_game(store)
    found = store.games_for_tokens([game.view_token, game.edit_token, game.view_token])
    assert [(g.id, g.access) for g in found] == [(game.id, "edit")]
    assert store.games_for_tokens([]) == []


def test_set_finished_keeps_the_snapshot_and_reopening_drops_it(
    store: Store, game: GameRecord
) -> None:
    snapshot = {"net": {"Anna": "558", "Boris": "-83", "Vera": "-475"}}
    done = store.set_finished(game.edit_token, True, base_version=1, snapshot=snapshot)
    assert (done.finished, done.finished_snapshot, done.version) == (True, snapshot, 2)
    reopened = store.set_finished(game.edit_token, False, base_version=2)
    assert (reopened.finished, reopened.finished_snapshot, reopened.version) == (False, None, 3)
    with pytest.raises(ValueError):
        store.set_finished(game.edit_token, False, base_version=3, snapshot=snapshot)


def test_play_on_replaces_the_options_and_reopens_in_one_write(
    store: Store, game: GameRecord
) -> None:
    store.set_finished(game.edit_token, True, base_version=1, snapshot={"net": {}})
    played_on = store.play_on(game.edit_token, base_version=2, options={"pool_target": 30})
    assert (played_on.options, played_on.finished) == ({"pool_target": 30}, False)
    assert (played_on.finished_snapshot, played_on.version) == (None, 3)


# -- every write: access, versions ---------------------------------------------------------

Write = Callable[[Store, str, GameRecord, int], object]
WRITES: dict[str, Write] = {
    "add_deal": lambda s, t, g, v: s.add_deal(t, REDEAL, base_version=v),
    "update_deal": lambda s, t, g, v: s.update_deal(t, g.deals[0].id, REDEAL, base_version=v),
    "delete_deal": lambda s, t, g, v: s.delete_deal(t, g.deals[0].id, base_version=v),
    "undo_last": lambda s, t, g, v: s.undo_last(t, base_version=v),
    "restore_revision": lambda s, t, g, v: s.restore_revision(
        t, s.revisions(g.edit_token)[-1].id, base_version=v
    ),
    "set_finished": lambda s, t, g, v: s.set_finished(t, True, base_version=v, snapshot={}),
    "play_on": lambda s, t, g, v: s.play_on(t, base_version=v, options={"pool_target": 9}),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_view_token_is_refused_for_every_write(
    store: Store, game: GameRecord, write: Write
) -> None:
    with pytest.raises(ReadOnlyAccess):
        write(store, game.view_token, game, game.version)
    assert store.get_game(game.edit_token) == game


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_unknown_token_is_refused_for_every_write(
    store: Store, game: GameRecord, write: Write
) -> None:
    with pytest.raises(GameNotFound):
        write(store, "not-a-token", game, game.version)
    assert store.get_game(game.edit_token) == game


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_write_bumps_the_version_once(store: Store, game: GameRecord, write: Write) -> None:
    write(store, game.edit_token, game, game.version)
    after = store.get_game(game.edit_token)
    assert after.version == game.version + 1
    assert after.updated_at > game.updated_at


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_stale_base_version_is_a_conflict_and_writes_nothing(
    store: Store, game: GameRecord, write: Write
) -> None:
    store.add_deal(game.edit_token, MISERE, base_version=1)  # someone else's write: now v2
    before = store.get_game(game.edit_token)
    with pytest.raises(VersionConflict) as caught:
        write(store, game.edit_token, game, 1)
    assert caught.value.current_version == 2
    assert store.get_game(game.edit_token) == before
    assert len(store.revisions(game.edit_token)) == 3


# -- deals and revisions -------------------------------------------------------------------


def test_add_deal_appends_and_records_an_add_revision(store: Store, game: GameRecord) -> None:
    after, deal, created = store.add_deal(game.edit_token, MISERE, base_version=1)
    assert created is True
    assert datas(after) == [SEVEN_SPADES, SIX_NT, MISERE]
    assert after.deals[2] == deal
    assert (deal.position, deal.data) == (2, MISERE)
    newest = store.revisions(game.edit_token)[0]
    assert (newest.deal_id, newest.action, newest.data, newest.previous) == (
        deal.id,
        "add",
        MISERE,
        None,
    )
    assert newest.game_version == after.version == 2


def test_update_deal_replaces_the_data_and_keeps_the_old_in_the_revision(
    store: Store, game: GameRecord
) -> None:
    target = game.deals[0]
    after = store.update_deal(game.edit_token, target.id, ALLPASS, base_version=1)
    assert datas(after) == [ALLPASS, SIX_NT]
    assert after.deals[0].id == target.id
    assert after.deals[0].created_at == target.created_at < after.deals[0].updated_at
    revision = store.revisions(game.edit_token, target.id)[0]
    assert (revision.action, revision.data, revision.previous) == ("edit", ALLPASS, SEVEN_SPADES)


def test_delete_deal_takes_it_off_the_sheet_but_keeps_its_history(
    store: Store, game: GameRecord
) -> None:
    target = game.deals[0]
    after = store.delete_deal(game.edit_token, target.id, base_version=1)
    assert datas(after) == [SIX_NT]
    assert after.deals[0].position == 0
    history = store.revisions(game.edit_token, target.id)
    assert [(r.action, r.data, r.previous) for r in history] == [
        ("delete", None, SEVEN_SPADES),
        ("add", SEVEN_SPADES, None),
    ]


def test_a_deleted_deal_can_be_neither_updated_nor_deleted_again(
    store: Store, game: GameRecord
) -> None:
    gone = game.deals[0].id
    store.delete_deal(game.edit_token, gone, base_version=1)
    with pytest.raises(DealNotFound):
        store.update_deal(game.edit_token, gone, MISERE, base_version=2)
    with pytest.raises(DealNotFound):
        store.delete_deal(game.edit_token, gone, base_version=2)
    assert store.get_game(game.edit_token).version == 2


def test_a_deal_of_another_game_is_not_found(store: Store, game: GameRecord) -> None:
    other = new_game(store, [MISERE])
    with pytest.raises(DealNotFound):
        store.update_deal(game.edit_token, other.deals[0].id, ALLPASS, base_version=1)
    with pytest.raises(DealNotFound):
        store.revisions(game.edit_token, other.deals[0].id)
    assert store.get_game(other.edit_token).deals == other.deals


def test_undo_last_deletes_the_last_deal_on_the_sheet(store: Store, game: GameRecord) -> None:
    first = store.undo_last(game.edit_token, base_version=1)
    assert datas(first) == [SEVEN_SPADES]
    second = store.undo_last(game.edit_token, base_version=2)
    assert datas(second) == []
    assert [r.action for r in store.revisions(game.edit_token)] == [
        "delete",
        "delete",
        "add",
        "add",
    ]
    with pytest.raises(DealNotFound):
        store.undo_last(game.edit_token, base_version=3)


def test_undo_last_follows_positions_not_entry_order(store: Store, game: GameRecord) -> None:
    token, first = game.edit_token, game.deals[0]
    store.delete_deal(token, first.id, base_version=1)  # [6NT]
    store.add_deal(token, MISERE, base_version=2)  # [6NT, misere]
    delete = store.revisions(token, first.id)[0]
    store.restore_revision(token, delete.id, base_version=3)  # [7S, 6NT, misere]
    after = store.undo_last(token, base_version=4)  # the last on the sheet, not the restored 7S
    assert datas(after) == [SEVEN_SPADES, SIX_NT]


def test_restoring_a_delete_puts_the_deal_back_at_its_old_position(
    store: Store, game: GameRecord
) -> None:
    token = game.edit_token
    store.add_deal(token, MISERE, base_version=1)  # [7S, 6NT, misere]
    middle = game.deals[1]
    store.delete_deal(token, middle.id, base_version=2)  # [7S, misere]
    store.add_deal(token, ALLPASS, base_version=3)  # [7S, misere, allpass]
    delete = store.revisions(token, middle.id)[0]
    after = store.restore_revision(token, delete.id, base_version=4)
    assert datas(after) == [SEVEN_SPADES, SIX_NT, MISERE, ALLPASS]
    assert after.deals[1].id == middle.id
    restore = store.revisions(token)[0]
    assert (restore.action, restore.deal_id, restore.data, restore.previous) == (
        "restore",
        middle.id,
        SIX_NT,
        None,
    )


def test_restoring_an_earlier_revision_undoes_a_mistaken_edit(
    store: Store, game: GameRecord
) -> None:
    token, target = game.edit_token, game.deals[0]
    store.update_deal(token, target.id, ALLPASS, base_version=1)
    added = store.revisions(token, target.id)[-1]
    after = store.restore_revision(token, added.id, base_version=2)
    assert datas(after) == [SEVEN_SPADES, SIX_NT]
    restore = store.revisions(token, target.id)[0]
    assert (restore.action, restore.data, restore.previous) == ("restore", SEVEN_SPADES, ALLPASS)


def test_restoring_a_revision_of_another_game_is_not_found(store: Store, game: GameRecord) -> None:
    other = new_game(store, [MISERE])
    foreign = store.revisions(other.edit_token)[0]
    with pytest.raises(RevisionNotFound) as caught:
        store.restore_revision(game.edit_token, foreign.id, base_version=1)
    assert isinstance(caught.value, DealNotFound)
    assert store.get_game(game.edit_token) == game


def test_revisions_are_newest_first_with_the_version_each_wrote(
    store: Store, game: GameRecord
) -> None:
    token = game.edit_token
    store.add_deal(token, MISERE, base_version=1)
    store.set_finished(token, True, base_version=2, snapshot={})  # not a deal revision
    store.undo_last(token, base_version=3)
    history = store.revisions(game.view_token)
    assert [(r.action, r.game_version) for r in history] == [
        ("delete", 4),
        ("add", 2),
        ("add", 1),
        ("add", 1),
    ]
    assert [r.id for r in history] == sorted((r.id for r in history), reverse=True)


def test_a_deal_that_is_not_a_json_object_is_refused_before_writing(
    store: Store, game: GameRecord
) -> None:
    with pytest.raises(TypeError):
        store.add_deal(game.edit_token, ["not", "a", "dict"], base_version=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        store.add_deal(game.edit_token, {"when": object()}, base_version=1)
    with pytest.raises(ValueError):
        store.add_deal(game.edit_token, {"tricks": float("nan")}, base_version=1)
    assert store.get_game(game.edit_token) == game


def test_a_write_failing_half_way_leaves_nothing_behind(
    store: Store, game: GameRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: object) -> None:
        raise RuntimeError("the power went out")

    # The deal row is written first, then the revision fails: the deal must vanish too.
    monkeypatch.setattr(store, "_add_revision", explode)
    with pytest.raises(RuntimeError):
        store.add_deal(game.edit_token, MISERE, base_version=1, request_key="k")
    monkeypatch.undo()
    assert store.get_game(game.edit_token) == game
    # The request key was not kept either, so the resend writes the deal.
    _, deal, created = store.add_deal(game.edit_token, MISERE, base_version=1, request_key="k")
    assert (created, deal.data) == (True, MISERE)


# -- request keys: exactly once --------------------------------------------------------------


def test_a_resent_add_lands_once_even_with_a_stale_version(store: Store, game: GameRecord) -> None:
    token = game.edit_token
    after, deal, created = store.add_deal(token, MISERE, base_version=1, request_key="tap-1")
    again, same, created_again = store.add_deal(token, MISERE, base_version=1, request_key="tap-1")
    assert (created, created_again) == (True, False)
    assert same == deal
    assert again == after
    assert datas(again) == [SEVEN_SPADES, SIX_NT, MISERE]


def test_a_resent_add_returns_the_original_deal_not_the_resent_one(
    store: Store, game: GameRecord
) -> None:
    token = game.edit_token
    _, deal, _ = store.add_deal(token, MISERE, base_version=1, request_key="tap-1")
    _, same, created = store.add_deal(token, ALLPASS, base_version=2, request_key="tap-1")
    assert (created, same.id, same.data) == (False, deal.id, MISERE)


def test_a_resent_add_of_a_since_deleted_deal_says_so(store: Store, game: GameRecord) -> None:
    token = game.edit_token
    _, deal, _ = store.add_deal(token, MISERE, base_version=1, request_key="tap-1")
    store.delete_deal(token, deal.id, base_version=2)
    after, same, created = store.add_deal(token, MISERE, base_version=1, request_key="tap-1")
    assert (created, same.id, same.deleted, same.position) == (False, deal.id, True, 2)
    assert datas(after) == [SEVEN_SPADES, SIX_NT]


KEYED_WRITES = (
    "update_deal",
    "delete_deal",
    "undo_last",
    "restore_revision",
    "set_finished",
)


@pytest.mark.parametrize("write", [WRITES[name] for name in KEYED_WRITES], ids=KEYED_WRITES)
def test_a_resent_change_is_a_no_op_returning_the_current_game(
    store: Store, game: GameRecord, write: Write, monkeypatch: pytest.MonkeyPatch
) -> None:
    keyed = _with_key(store, monkeypatch, "tap-1")
    write(keyed, game.edit_token, game, 1)
    first = store.get_game(game.edit_token)
    assert first.version == 2
    resent = write(keyed, game.edit_token, game, 1)  # stale version: still no error
    record = resent[0] if isinstance(resent, tuple) else resent
    assert record == first == store.get_game(game.edit_token)


def _with_key(store: Store, monkeypatch: pytest.MonkeyPatch, key: str) -> Store:
    """Make every write of this store pass request_key=key (for the WRITES table)."""
    for name in KEYED_WRITES:
        monkeypatch.setattr(store, name, _keyed(getattr(store, name), key))
    return store


def _keyed(method: Callable[..., Any], key: str) -> Callable[..., Any]:
    return lambda *args, **kwargs: method(*args, request_key=key, **kwargs)


def test_request_keys_belong_to_one_game(store: Store, game: GameRecord) -> None:
    other = new_game(store)
    _, first, created_first = store.add_deal(
        game.edit_token, MISERE, base_version=1, request_key="k"
    )
    _, second, created_second = store.add_deal(
        other.edit_token, MISERE, base_version=1, request_key="k"
    )
    assert (created_first, created_second) == (True, True)
    assert first.id != second.id


def test_a_request_key_reused_for_another_kind_of_change_is_refused(
    store: Store, game: GameRecord
) -> None:
    store.add_deal(game.edit_token, MISERE, base_version=1, request_key="k")
    with pytest.raises(RequestKeyReused):
        store.undo_last(game.edit_token, base_version=2, request_key="k")
    assert store.get_game(game.edit_token).version == 2


def test_every_store_error_is_a_store_error() -> None:
    for error in (GameNotFound, ReadOnlyAccess, VersionConflict, DealNotFound, RequestKeyReused):
        assert issubclass(error, StoreError)


def test_game_version_is_the_cheap_version_question(store_location):
    with Store(store_location) as store:
        game = store.create_game(
            name="v", convention="sochi", options={}, players=["A", "B", "C"], first_dealer="A"
        )
        assert store.game_version(game.view_token) == (game.version, game.updated_at)
        after, _, _ = store.add_deal(game.edit_token, {"type": "redeal"}, base_version=game.version)
        assert store.game_version(game.edit_token) == (after.version, after.updated_at)
        with pytest.raises(GameNotFound):
            store.game_version("nope")


def test_a_purge_takes_a_deleted_game_with_everything_that_points_at_it(
    store: Store,
) -> None:
    """On both engines the foreign keys are read from the schema: the evening, the answers
    and the request keys go with the game; a payment for it stays, without its game."""
    import datetime

    from scorekeeper.store.companies import Companies

    game = new_game(store, [SEVEN_SPADES])
    kept = new_game(store, [SIX_NT])
    store.add_deal(game.edit_token, MISERE, base_version=1, request_key="k")
    said(store, game.view_token, -1, "Anna", "right")
    companies = Companies(store)
    company = companies.create(name="Club", convention="sochi", options={}, roster=PLAYERS)
    ids = {p.name: p.id for p in company.roster}
    companies.attach(company.edit_token, game.id, ids)
    companies.add_payment(
        company.edit_token,
        payer=ids["Anna"],
        payee=ids["Boris"],
        amount="3.50",
        paid_on="2026-11-01",
        game_id=game.id,
    )
    deleted_at = datetime.datetime.fromisoformat(store.delete_game(game.edit_token))
    assert store.purge_deleted(now=deleted_at + datetime.timedelta(days=6)) == 0
    assert store.purge_deleted(now=deleted_at + datetime.timedelta(days=8)) == 1
    engine = store.engine
    for table in ("deals", "deal_revisions", "request_keys", "deal_confirmations"):
        assert engine.value(f"SELECT count(*) FROM {table} WHERE game_id = ?", [game.id]) == 0
    assert engine.value("SELECT count(*) FROM games WHERE id = ?", [game.id]) == 0
    assert engine.value("SELECT count(*) FROM company_games") == 0
    payment = engine.rows("SELECT amount, game_id FROM company_payments")
    assert payment == [{"amount": "3.50", "game_id": None}]
    assert [d.data for d in store.get_game(kept.edit_token).deals] == [SIX_NT]
    assert store.deleted_game(game.edit_token) is None


def test_a_tournament_seats_its_tables_and_names_them_from_their_games(store: Store) -> None:
    from scorekeeper.store.tournaments import NewTable, TableOf, Tournaments

    tournaments = Tournaments(store)
    cup = tournaments.create(
        name="Cup", convention="sochi", options={}, table_size=3, bands=[], roster=PLAYERS * 2
    )
    seated = tournaments.seat(
        cup.edit_token,
        1,
        1,
        [NewTable(f"Table {n}", PLAYERS, "Anna") for n in (1, 2)],
        convention="sochi",
        options={"pool_target": 10},
    )
    assert seated.version == 2 and [t.table_no for t in seated.tour(1)] == [1, 2]
    first = seated.tour(1)[0].game
    state = tournaments.version_of(cup.view_token)
    assert state == "2.4"  # version 2; its 2 tables, their versions summing to 2
    assert tournaments.states_of([cup.view_token, "no-such-tournament"]) == {cup.view_token: (2, 4)}
    store.add_deal(first.edit_token, SIX_NT, base_version=1)
    assert tournaments.version_of(cup.view_token) != state
    assert tournaments.of_game(first.id) == TableOf("Cup", cup.view_token, 1, 1, False)
    closed = tournaments.update(cup.edit_token, 2, tours_closed=1)
    assert tournaments.of_game(first.id) == TableOf("Cup", cup.view_token, 1, 1, True)
    assert tournaments.view_token_of_game(first.view_token) == cup.view_token
    with pytest.raises(VersionConflict):
        tournaments.update(cup.edit_token, 2, name="Late")
    with pytest.raises(StoreError, match="already seated"):
        tournaments.seat(cup.edit_token, closed.version, 1, [], convention="sochi", options={})
    renewed = tournaments.replace_token(cup.edit_token, "view")
    assert renewed.view_token != cup.view_token
    assert [t.id for t in tournaments.for_tokens([cup.edit_token])] == [cup.id]
