"""The game service keeps one state per game version: a Save computes the new state from the
kept one plus the deal, and the page shows exactly what a cold replay would."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper import gamefile, games
from scorekeeper.games import writes
from scorekeeper.rules import Game, replay, scoring
from scorekeeper.store import DealNotFound, Store

from ..harness import Web

PLAYERS = ["Anna", "Boris", "Vera"]


def _page_body(html: str) -> str:
    # The one-time form keys and CSRF tokens differ between two renderings of one state,
    # and "Deal 3 saved." shows once.
    html = re.sub(r'<div class="flashes".*?</div>', "", html, flags=re.S)
    html = re.sub(r'value="[0-9a-zA-Z_.-]{20,}"', 'value=""', html)
    html = re.sub(r"\?k=[0-9a-f]{32}", "?k=", html)  # the next deal form's one-time key
    return re.sub(r"\s+", " ", html)


def test_a_save_is_the_kept_sheet_plus_the_deal(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    web.play(
        token,
        PLAYERS,
        "contract",
        declarer="Anna",
        contract="6S",
        answers={"Boris": "whist", "Vera": "pass"},
        tricks={"Anna": 6, "Boris": 4},
    )
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 3, "Boris": 3, "Vera": 4})
    web.get(f"/g/{token}")  # the state before the save is kept, with its chart and pulka
    page = web.play(token, PLAYERS, "misere", declarer="Boris", tricks={"Boris": 0})
    record = store.get_game(token)
    kept = games.load(record)
    assert len(kept.sheet.results) == 3
    # What the save kept is what a replay of the stored log computes.
    cold, problems = replay(gamefile.load(games.file_data(record), check=False))
    assert problems == kept.problems == []
    for p in PLAYERS:
        assert cold.pool(p) == kept.sheet.pool(p)
        assert cold.hill(p) == kept.sheet.hill(p)
        for q in PLAYERS:
            if q != p:
                assert cold.whists(p, q) == kept.sheet.whists(p, q)
    assert cold.next_dealer == kept.sheet.next_dealer
    # The page after the save (kept state, chart run on from the kept points) is the page
    # a server that just started would draw.
    assert "<svg" in page.html and "The result after each deal" in page.html
    games.forget_kept()
    assert _page_body(web.get(f"/g/{token}").html) == _page_body(page.html)


def test_a_game_state_is_one_entry_for_its_edit_and_view_links(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 3, "Boris": 3, "Vera": 4})
    games.forget_kept()
    record = store.get_game(token)
    web.get(f"/g/{token}")
    web.get(f"/v/{record.view_token}")
    assert games.kept_states() == [(record.view_token, record.version)]


def _entered(**given: object) -> dict[str, object]:
    blank: dict[str, object] = {"type": "contract", "declarer": None, "contract": None}
    return blank | given


def test_a_deal_as_entered_is_read_once_and_stored_in_its_notation(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    loaded = games.load(store.get_game(token))
    raw = _entered(declarer="Anna", contract="6S", answers={"Boris": "pass", "Vera": "pass"})
    done = writes.save_entered(
        store, loaded, None, raw, base_version=loaded.record.version, request_key="a" * 32
    )
    assert done.number == 1
    assert store.get_game(token).deals[0].data == {
        "type": "contract",
        "declarer": "Anna",
        "contract": "6S",
        "answers": {"Boris": "pass", "Vera": "pass"},
    }


def test_a_deal_as_entered_that_does_not_read_writes_nothing_and_says_where(
    web: Web, store: Store
) -> None:
    token = web.new_game(PLAYERS)
    loaded = games.load(store.get_game(token))
    with pytest.raises(writes.Invalid) as invalid:
        writes.save_entered(
            store,
            loaded,
            None,
            _entered(declarer="Anna", contract="5S"),
            base_version=loaded.record.version,
            request_key="b" * 32,
        )
    assert [(p.field, p.message()) for p in invalid.value.check.problems] == [
        ("contract", "Choose the contract")
    ]
    assert store.get_game(token).deals == []


def test_a_deal_other_than_the_one_shown_checked_is_checked_not_written(
    web: Web, store: Store
) -> None:
    token = web.new_game(PLAYERS)
    loaded = games.load(store.get_game(token))
    raw = _entered(declarer="Anna", contract="6S", answers={"Boris": "pass", "Vera": "pass"})
    shown = writes.check_entered(loaded, raw)
    assert shown.ok
    with pytest.raises(writes.Unconfirmed) as unconfirmed:
        writes.save_entered(
            store,
            loaded,
            None,
            raw | {"contract": "7S"},
            base_version=loaded.record.version,
            request_key="c" * 32,
            shown=shown.fingerprint,
        )
    assert unconfirmed.value.entered.ok
    assert unconfirmed.value.entered.fingerprint != shown.fingerprint
    assert store.get_game(token).deals == []
    done = writes.save_entered(
        store,
        loaded,
        None,
        raw,
        base_version=loaded.record.version,
        request_key="c" * 32,
        shown=shown.fingerprint,
    )
    assert done.number == 1


@pytest.mark.parametrize(
    ("convention", "seats", "dealer", "said"),
    [
        ("sochi", ["Anna", "Boris", "Vera", "", ""], "2", []),
        ("sochi", ["Anna", " anna ", "Vera", "", ""], "0", [("players.1", "same name")]),
        ("sochi", ["Anna", "Bo\u200bris", "Vera", "", ""], "0", [("players.1", "cannot hold")]),
        ("sochi", ["Anna", "Boris", "", "", ""], "0", [("players.0", "three, four or five")]),
        ("hussar", ["Anna", "Boris", "Vera", "", ""], "0", [("players.0", "played by two")]),
        ("sochi", ["Anna", "Boris", "Vera", "", ""], "3", [("first_dealer", "deals first")]),
        ("sochi", ["Anna", "Boris", "Vera", "", ""], "x", [("first_dealer", "deals first")]),
    ],
)
def test_the_seats_of_a_new_game_are_checked_by_the_service(
    convention: str, seats: list[str], dealer: str, said: list[tuple[str, str]]
) -> None:
    problems = writes.seat_problems(convention, seats, dealer)
    assert len(problems) == len(said)
    for problem, (field, words) in zip(problems, said, strict=True):
        assert problem.field == field and words in problem.message()


def test_a_new_game_takes_its_names_trimmed_and_its_dealer_by_seat(store: Store) -> None:
    record = writes.new_game(
        store,
        name="Friday",
        convention="sochi",
        overrides={},
        seats=[" Anna ", "", "Boris", "Vera", ""],
        first_dealer="3",
    )
    assert (list(record.players), record.first_dealer) == (["Anna", "Boris", "Vera"], "Vera")
    with pytest.raises(writes.NotCreated) as refused:
        writes.new_game(
            store,
            name="Friday",
            convention="sochi",
            overrides={"pool_target": 0},
            seats=["Anna", "Boris", "Vera"],
            first_dealer="0",
        )
    assert [p.field for p in refused.value.problems] == ["options.pool_target"]


def _scored_deals(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts, from now on, the deals the rules score (one a deal of every replay, one for
    a deal added to a kept sheet): [deals scored, full replays]."""
    counted = [0, 0]
    step, init = scoring._Scorer.step, scoring._Scorer.__init__

    def counting_step(self: scoring._Scorer, *args: Any) -> None:
        counted[0] += 1
        step(self, *args)

    def counting_init(self: scoring._Scorer, game: Game, *base: Any) -> None:
        counted[1] += not base  # a scorer started from nothing: a replay of the whole log
        init(self, game, *base)

    monkeypatch.setattr(scoring._Scorer, "step", counting_step)
    monkeypatch.setattr(scoring._Scorer, "__init__", counting_init)
    return counted


def test_a_save_replays_nothing_it_already_has(
    web: Web, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game of 40 deals, its page open (its state kept): Save on the deal form, then the
    page after it, score the one new deal and replay nothing (they replayed all 41)."""
    token = web.new_game(PLAYERS)
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 3, "Boris": 3, "Vera": 4})
    record = store.get_game(token)
    for _ in range(39):
        record = store.add_deal(token, record.deals[0].data, base_version=record.version)[0]
    assert len(record.deals) == 40
    web.get(f"/g/{token}")  # the state as the scorer's page shows it, kept
    counted = _scored_deals(monkeypatch)
    page = web.play(token, PLAYERS, "misere", declarer="Boris", tricks={"Boris": 0})
    assert counted == [2, 0]  # the deal checked, then checked again at Save: no replay
    assert "41" in page.html and store.get_game(token).version == record.version + 1
    games.forget_kept()  # a server that has just started: one replay, of all 41 deals
    web.get(f"/g/{token}")
    assert counted == [2 + 41, 1]


ALLPASS = {"type": "allpass", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}


def _changed_once(web: Web, store: Store) -> tuple[str, int, games.Loaded]:
    """A game of two deals whose first was changed by a form with the key "k"·32: (its
    token, that deal's id, the game as the form read it)."""
    token = web.new_game(PLAYERS)
    for tricks in ({"Anna": 3, "Boris": 3, "Vera": 4}, {"Anna": 2, "Boris": 4, "Vera": 4}):
        web.play(token, PLAYERS, "allpass", tricks=tricks)
    read = games.current(store, token)
    deal_id = read.record.deals[0].id
    version = read.record.version
    writes.change_deal(store, read, deal_id, ALLPASS, base_version=version, request_key="k" * 32)
    return token, deal_id, read


def test_a_change_sent_again_is_answered_by_what_its_deal_holds_now(web: Web, store: Store) -> None:
    """A form's change sent again (its key already wrote it): answered as the first time
    while the deal holds what it wrote; "already saved" once another phone changed the deal
    since; "not on the sheet" once it was taken off. Nothing is written again."""
    token, deal_id, read = _changed_once(web, store)
    version = read.record.version

    def again() -> writes.Written:
        now = games.current(store, token)
        return writes.change_deal(
            store, now, deal_id, ALLPASS, base_version=version, request_key="k" * 32
        )

    assert again().state.record.version == version + 1  # as the first time: nothing new
    other = {"type": "allpass", "tricks": {"Anna": 5, "Boris": 3, "Vera": 2}}
    now = games.current(store, token)
    writes.change_deal(store, now, deal_id, other, base_version=version + 1, request_key="j" * 32)
    with pytest.raises(writes.AlreadySaved) as saved:
        again()
    assert (saved.value.deal_id, saved.value.number, saved.value.new) == (deal_id, 1, False)
    now = games.current(store, token)
    writes.delete_deal(store, now, deal_id, base_version=version + 2, request_key="d" * 32)
    with pytest.raises(DealNotFound):
        writes.change_deal(
            store, read, deal_id, ALLPASS, base_version=version, request_key="k" * 32
        )
    assert store.get_game(token).version == version + 3
    assert [d.data for d in store.get_game(token).deals] == [
        {"type": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}}
    ]


def test_play_on_with_the_same_pool_is_done_once_and_refused_for_a_finished_game(
    web: Web, store: Store
) -> None:
    """Play on sent again after it reopened the game (the pool already that large): nothing
    to do, nothing written. Asked of a game finished by hand without a larger pool: refused,
    the pool being no larger (not "still over": the log did not end it)."""
    token = web.new_game(PLAYERS)
    loaded = games.current(store, token)
    pool, version = loaded.game.options.pool_target, loaded.record.version
    same = writes.play_on(store, loaded, pool, base_version=version, request_key="p" * 32)
    assert not same.changed and store.get_game(token).version == version
    writes.set_finished(store, loaded, True, base_version=version, request_key="f" * 32)
    finished = games.current(store, token)
    with pytest.raises(writes.PoolRefused) as refused:
        writes.play_on(store, finished, pool, base_version=version + 1, request_key="q" * 32)
    assert (refused.value.target, refused.value.still_over) == (pool, False)
    assert store.get_game(token).finished


def test_undo_names_the_deal_it_took_off_and_a_resent_undo_takes_nothing(
    web: Web, store: Store
) -> None:
    """Undo takes the last deal off the sheet and says which ("Deal 2 undone"); the same
    tap sent again (its form older than the game) takes nothing more off."""
    token, _, _ = _changed_once(web, store)
    now = games.current(store, token)
    last = now.record.deals[-1]
    done = writes.undo_last(store, now, base_version=now.record.version, request_key="u" * 32)
    assert (done.deal_id, done.number) == (last.id, 2)
    again = writes.undo_last(
        store, done.state, base_version=now.record.version, request_key="u" * 32
    )
    assert (again.deal_id, again.number) == (None, None)
    assert len(store.get_game(token).deals) == 1


def test_a_new_deal_form_sent_again_with_another_deal_is_already_saved(
    web: Web, store: Store
) -> None:
    """A new-deal form's one-time key writes one deal: sent again with the same deal it is
    answered as the first time, with another deal it is "already saved" (nothing
    written twice)."""
    token = web.new_game(PLAYERS)
    now = games.current(store, token)
    version = now.record.version
    first = writes.add_deal(store, now, ALLPASS, base_version=version, request_key="n" * 32)
    assert first.changed and first.number == 1
    now = games.current(store, token)
    same = writes.add_deal(store, now, ALLPASS, base_version=version, request_key="n" * 32)
    assert not same.changed and same.deal_id == first.deal_id
    other = {"type": "allpass", "tricks": {"Anna": 5, "Boris": 3, "Vera": 2}}
    with pytest.raises(writes.AlreadySaved) as saved:
        writes.add_deal(store, now, other, base_version=version, request_key="n" * 32)
    assert (saved.value.deal_id, saved.value.number, saved.value.new) == (first.deal_id, 1, True)
    assert [d.data for d in store.get_game(token).deals] == [ALLPASS]
