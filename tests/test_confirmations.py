"""The table confirms: the service on a real SQLite file (answers, revisions, refusals)."""

from __future__ import annotations

import datetime

import pytest

from scorekeeper import confirmations
from scorekeeper.confirmations import AnswerRefused, answers, confirm, stamp
from scorekeeper.store import GameNotFound, Store
from scorekeeper.store.confirmations import ANSWERS_PER_DEAL, Confirmations

from .helpers import said

PLAYERS = ["Anna", "Boris", "Vera", "Dmitri"]
ALLPASS = {"type": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}}


@pytest.fixture
def db(store_location: str):
    """A store on each engine: an SQLite file, then a PostgreSQL database."""
    with Store(store_location) as store:
        yield store


def _game(store: Store, deals: int = 2):
    record = store.create_game(
        name="Friday",
        convention="sochi",
        options={},
        players=PLAYERS,
        first_dealer="Anna",
        deals=[ALLPASS] * deals,
    )
    return record


def test_nothing_is_shown_before_anybody_answers(db: Store) -> None:
    record = _game(db)
    table = answers(db, record)
    assert not table.used and not table.answered and not table.disputed
    assert table.confirmed == [(p, 0) for p in PLAYERS]
    assert stamp(db, record.view_token) == 0


def test_answers_count_per_player_and_a_dispute_keeps_its_note(db: Store) -> None:
    record = _game(db)
    view = record.view_token
    for player in ("Boris", "Vera"):
        said(db, view, 0, player, "right")
        said(db, view, 1, player, "right")
    given, written = said(db, view, 1, "Dmitri", "wrong", note="  Vera had\n5 tricks ")
    assert written and given.note == "Vera had 5 tricks"
    table = answers(db, record)
    assert table.used
    assert dict(table.confirmed) == {"Anna": 0, "Boris": 2, "Vera": 2, "Dmitri": 0}
    [disputed] = table.disputed
    assert disputed.number == 2 and disputed.wrong == (("Dmitri", "Vera had 5 tricks"),)
    assert disputed.right == ("Boris", "Vera")
    # The version of the game is untouched: a Save is never refused because of an answer.
    assert db.get_game(record.edit_token).version == record.version
    assert stamp(db, view) == stamp(db, record.edit_token) > 0


def test_a_player_may_change_his_mind_the_latest_answer_counts(db: Store) -> None:
    record = _game(db)
    said(db, record.view_token, 0, "Anna", "wrong", note="no", key="k1")
    said(db, record.view_token, 0, "Anna", "right", key="k2")
    table = answers(db, record)
    assert table.of(record.deals[0].id).right == ("Anna",) and not table.disputed


def test_changing_a_deal_clears_its_confirmations(db: Store) -> None:
    record = _game(db)
    said(db, record.view_token, 1, "Boris", "right")
    said(db, record.view_token, 0, "Boris", "right")
    deal = record.deals[1]
    old = answers(db, record).of(deal.id).revision
    db.update_deal(
        record.edit_token,
        deal.id,
        {"type": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}},
        base_version=record.version,
    )
    after = answers(db, db.get_game(record.edit_token))
    assert after.of(deal.id).revision > old
    assert after.of(deal.id).right == ()
    assert dict(after.confirmed)["Boris"] == 1  # the first deal still counts
    # An answer on the old revision is refused: the phone must look at the change first.
    with pytest.raises(AnswerRefused) as refused:
        said(db, record.view_token, 1, "Boris", "right", revision=old, key="late")
    assert refused.value.reason == "changed"


def test_refusals_write_nothing(db: Store) -> None:
    record = _game(db)
    view, deal = record.view_token, record.deals[0]
    revision = answers(db, record).of(deal.id).revision
    base = {"deal_id": deal.id, "revision": revision, "note": "", "request_key": "key-1"}

    def reason(**kw: object) -> str:
        with pytest.raises(AnswerRefused) as refused:
            confirm(
                db, kw.pop("token", view), **{**base, "player": "Anna", "verdict": "right", **kw}
            )
        return refused.value.reason

    assert reason(player="Zoe") == "player"
    assert reason(verdict="maybe") == "verdict"
    assert reason(note="a\u202eb") == "note"
    assert reason(note="x" * (confirmations.NOTE_MAX + 1)) == "long"
    assert reason(request_key="") == "key"
    assert reason(deal_id=deal.id + 1000) == "deal"
    with pytest.raises(GameNotFound):
        confirm(db, "x" * 30, **{**base, "player": "Anna", "verdict": "right"})
    assert not answers(db, record).used
    # The same key again: the same answer is not written twice; another answer is refused.
    confirm(db, view, **{**base, "player": "Anna", "verdict": "right"})
    _, written = confirm(db, view, **{**base, "player": "Anna", "verdict": "right"})
    assert not written
    assert reason(verdict="wrong") == "key"
    # A deleted deal takes no answers.
    db.delete_deal(record.edit_token, deal.id, base_version=record.version)
    assert reason(request_key="key-2") == "deal"


def test_answers_per_deal_are_bounded(db: Store) -> None:
    record = _game(db, deals=1)
    for i in range(ANSWERS_PER_DEAL):
        said(db, record.view_token, 0, "Vera", "right" if i % 2 else "wrong", key=f"k{i}")
    with pytest.raises(AnswerRefused) as refused:
        said(db, record.view_token, 0, "Vera", "right", key="one-more")
    assert refused.value.reason == "many"


def test_a_purged_game_takes_its_confirmations_with_it(db: Store) -> None:
    record = _game(db, deals=1)
    said(db, record.view_token, 0, "Vera", "right")
    db.delete_game(record.edit_token)
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=30)
    assert db.purge_deleted(now=later) == 1
    assert db.engine.value("SELECT count(*) FROM deal_confirmations") == 0


def test_an_answer_leaves_the_store_writing_as_safely_as_before(db: Store) -> None:
    # An answer is committed without waiting for the disk; the Saves after it still are.
    def durable() -> bool:
        if db.engine.kind == "sqlite":
            return bool(db.engine.value("PRAGMA synchronous") == 2)  # FULL
        return bool(db.engine.value("SHOW synchronous_commit") == "on")

    record = _game(db, deals=1)
    assert durable()
    said(db, record.view_token, 0, "Vera", "right")
    assert durable()
    with pytest.raises(AnswerRefused):
        said(db, record.view_token, 0, "Zoe", "right")
    assert durable()


def test_the_watch_reads_each_live_games_version_and_answers_in_one_go(db: Store) -> None:
    first, second, gone = _game(db), _game(db), _game(db)
    said(db, second.view_token, 0, "Vera", "right")
    db.delete_game(gone.edit_token)
    tokens = [first.view_token, second.view_token, gone.view_token, "no-such-token"]
    seen = Confirmations(db).versions_seen(tokens)
    assert seen == {
        first.view_token: (db.get_game(first.edit_token).version, 0),
        second.view_token: (db.get_game(second.edit_token).version, stamp(db, second.view_token)),
    }
    assert seen[second.view_token][1] > 0


def test_what_a_page_shows_of_the_answers_is_read_in_one_statement(
    db: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each deal's revision, each player's latest answer and the claimed seats come in one
    statement (one snapshot; on PostgreSQL one round trip, not three), and say what the
    answers given, the deals' histories and the seats claimed say."""
    record = _game(db, deals=3)
    said(db, record.view_token, 0, "Anna", "right")
    said(db, record.view_token, 0, "Anna", "wrong", note="6 not 5")  # a change of mind
    said(db, record.view_token, 2, "Vera", "right")
    record = db.get_game(record.edit_token)
    db.update_deal(
        record.edit_token, record.deals[2].id, ALLPASS, base_version=record.version
    )  # Vera's answer is on a past revision now
    confirm(
        db,
        record.view_token,
        deal_id=record.deals[1].id,
        revision=answers(db, record).of(record.deals[1].id).revision,
        player="Boris",
        verdict="right",
        note="",
        request_key="boris-phone",
        phone="a phone",
    )
    kept = Confirmations(db)
    statements: list[str] = []
    rows = db.engine.rows

    def counted(sql: str, params: object = ()) -> list[dict[str, object]]:
        statements.append(sql)
        return rows(sql, params)  # type: ignore[arg-type]

    monkeypatch.setattr(db.engine, "rows", counted)
    revisions, latest, claims = kept.table(record.id)
    assert len(statements) == 1
    monkeypatch.undo()
    history = db.revisions(record.edit_token)
    assert revisions == {
        deal.id: max(r.id for r in history if r.deal_id == deal.id) for deal in record.deals
    }
    assert [(a.player, a.verdict, a.note) for a in latest] == [
        ("Anna", "wrong", "6 not 5"),  # her latest, not her first
        ("Vera", "right", ""),
        ("Boris", "right", ""),
    ]
    assert latest[1].revision < revisions[record.deals[2].id]  # on a past revision
    assert [(c.player, c.others) for c in claims] == [("Boris", 0)]
    table = answers(db, record)
    assert table.confirmed == [("Anna", 0), ("Boris", 1), ("Vera", 0), ("Dmitri", 0)]
    assert table.of(record.deals[0].id).wrong == (("Anna", "6 not 5"),)
