"""The deal log: every deal with why each number; edit, delete, undo, history and restore."""

from __future__ import annotations

import pytest

from scorekeeper.store import Store

from ..harness import SEVEN_DOWN_TWO, Web

PLAYERS = ["Anna", "Boris", "Vera"]


@pytest.fixture
def token(web: Web) -> str:
    token = web.new_game(PLAYERS, first_dealer=2)
    web.play(token, PLAYERS, "contract", **SEVEN_DOWN_TWO)
    web.play(token, PLAYERS, "misere", declarer="Boris", tricks={"Boris": 0})
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 0, "Boris": 4, "Vera": 6})
    return token


def types(store: Store, token: str) -> list[str]:
    return [d.data["type"] for d in store.get_game(token).deals]


def test_the_log_numbers_every_deal_with_dealer_and_entries(web: Web, token: str) -> None:
    text = web.get(f"/g/{token}/log").text()
    assert "1. Anna 7♠" in text and "dealer: Vera" in text
    assert "2. Boris misère" in text and "dealer: Anna" in text
    assert "3. all-pass" in text and "dealer: Boris" in text
    assert "Boris: pool +10 (misère made)" in text
    assert "Vera: hill +6 (all-pass: 6 tricks × 1)" in text
    assert "Boris: whist, Vera: pass; tricks: Anna 5 · Boris 3 · Vera 2" in text


def test_editing_a_deal_is_checked_against_the_whole_game(
    web: Web, store: Store, token: str
) -> None:
    deal = store.get_game(token).deals[0]
    page, form = web.deal_form(token, deal.id)
    assert form.value("declarer") == "0" and form.value("contract") == "7S"
    assert form.value("tricks_0") == "5"
    form.set(tricks_0="7", tricks_1="2", tricks_2="1")
    checked = web.check(page, form)
    assert "Anna: pool +4 (7♠ made)" in checked.text()
    saved = web.save(checked, checked.form("deal-form"))
    # Back to the sheet, where "Next deal" is (the change is on the log, marked edited).
    assert saved.status == 302 and saved.response.headers["Location"] == f"/g/{token}"
    game = store.get_game(token)
    assert game.deals[0].data["tricks"] == {"Anna": 7, "Boris": 2, "Vera": 1}
    assert types(store, token) == ["contract", "misere", "allpass"]
    assert "edited" in web.get(f"/g/{token}/log").text()


def test_an_edit_that_breaks_a_later_deal_is_refused(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS, convention="leningrad", first_dealer=2)
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 2, "Boris": 4, "Vera": 4})
    web.play(token, PLAYERS, "misere", declarer="Boris", tricks={"Boris": 0})
    web.play(
        token,
        PLAYERS,
        "contract",
        declarer="Vera",
        contract="6S",
        answers={"Anna": "pass", "Boris": "pass"},
    )
    # Turning the misère into another all-pass makes the six after it too low.
    game = store.get_game(token)
    page, form = web.deal_form(token, game.deals[1].id)
    web.fill_deal(form, PLAYERS, "allpass", tricks={"Anna": 3, "Boris": 3, "Vera": 4})
    checked = web.check(page, form)
    assert checked.status == 422
    assert "This change would break later deals" in checked.text()
    assert "deal 3: after all-pass (2 in a row) the contract must be at least 7, or misère" in (
        checked.text()
    )
    forced = web.save(checked, checked.form("deal-form").set(checked="0" * 32))
    assert forced.status == 422
    assert store.get_game(token).deals[1].data["type"] == "misere"
    assert store.get_game(token).version == game.version


def test_delete_asks_first_then_takes_the_deal_off(web: Web, store: Store, token: str) -> None:
    deal = store.get_game(token).deals[1]
    confirm = web.get(f"/g/{token}/deal/{deal.id}/delete")
    assert "Delete deal 2?" in confirm.text()
    assert "Boris: pool +10 (misère made)" in confirm.text()
    assert types(store, token) == ["contract", "misere", "allpass"]
    done = web.submit(confirm, confirm.form())
    assert done.status == 302
    assert types(store, token) == ["contract", "allpass"]
    assert "Deal 2 deleted" in web.get(f"/g/{token}/log").text()


def test_delete_that_breaks_a_later_deal_is_refused(web: Web, store: Store) -> None:
    players = ["Anna", "Boris", "Vera", "Gleb"]
    token = web.new_game(players, first_dealer=3)  # Gleb deals first and sits out
    web.play(token, players, "misere", declarer="Vera", tricks={"Vera": 0})
    web.play(token, players, "misere", declarer="Gleb", tricks={"Gleb": 0})  # Anna deals
    # Without the first deal, Gleb would deal the second one, which he declared.
    first = store.get_game(token).deals[0]
    confirm = web.get(f"/g/{token}/deal/{first.id}/delete")
    assert "This cannot be done" in confirm.text()
    assert "deal 1: Gleb deals and sits out this deal, so cannot declare" in confirm.text()
    assert "Delete deal 1</button>" not in confirm.html
    # Posting the delete anyway (with a valid token from another form) changes nothing.
    forged = web.get(f"/g/{token}").form("/finish")
    response = web.client.post(f"/g/{token}/deal/{first.id}/delete", data=forged.data())
    assert response.status_code == 200
    assert len(store.get_game(token).deals) == 2


def test_undo_the_last_deal_with_confirmation(web: Web, store: Store, token: str) -> None:
    game = web.get(f"/g/{token}")
    assert "/undo" in game.html
    confirm = web.get(f"/g/{token}/undo")
    assert "Undo the last entry?" in confirm.text()
    assert "Vera: hill +6 (all-pass: 6 tricks × 1)" in confirm.text()
    assert types(store, token) == ["contract", "misere", "allpass"]
    done = web.submit(confirm, confirm.form())
    assert done.status == 302
    assert types(store, token) == ["contract", "misere"]
    # The same confirmation sent again (a double tap) undoes nothing more.
    again = web.submit(confirm, confirm.form())
    assert again.status == 302
    assert types(store, token) == ["contract", "misere"]


def test_history_and_restore_put_a_deleted_deal_back(web: Web, store: Store, token: str) -> None:
    confirm = web.get(f"/g/{token}/undo")
    web.submit(confirm, confirm.form())
    history = web.get(f"/g/{token}/history")
    assert "deleted" in history.text()
    assert "all-pass — tricks: Anna 0 · Boris 4 · Vera 6" in history.text()
    restore = history.form("/restore/")
    assert "Put it back" in history.text()
    done = web.submit(history, restore)
    assert done.status == 302
    assert types(store, token) == ["contract", "misere", "allpass"]
    assert "The deal was put back." in web.get(f"/g/{token}/log").text()


def test_restore_an_older_version_of_an_edited_deal(web: Web, store: Store, token: str) -> None:
    deal = store.get_game(token).deals[0]
    page, form = web.deal_form(token, deal.id)
    form.set(tricks_0="7", tricks_1="2", tricks_2="1")
    checked = web.check(page, form)
    web.save(checked, checked.form("deal-form"))
    history = web.get(f"/g/{token}/deal/{deal.id}/history")
    assert history.text().count("Restore this version") == 1  # the original "add"
    web.submit(history, history.form("/restore/"))
    assert store.get_game(token).deals[0].data["tricks"] == {"Anna": 5, "Boris": 3, "Vera": 2}
    # Nothing is destroyed: add, edit, restore are all kept.
    actions = [r.action for r in store.revisions(token, deal.id)]
    assert actions == ["restore", "edit", "add"]


def test_restore_that_would_break_the_game_is_refused(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS, convention="leningrad", first_dealer=2)
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 2, "Boris": 4, "Vera": 4})
    confirm = web.get(f"/g/{token}/undo")
    web.submit(confirm, confirm.form())
    web.play(
        token,
        PLAYERS,
        "contract",
        declarer="Anna",
        contract="6S",
        answers={"Boris": "pass", "Vera": "pass"},
    )
    history = web.get(f"/g/{token}/history")
    refused = web.submit(history, history.form("/restore/"), follow=True)
    assert "This version cannot be put back" in refused.text()
    assert "at least 7" in refused.text()
    assert types(store, token) == ["contract"]


def test_unknown_deal_is_a_clear_404(web: Web, token: str) -> None:
    page = web.get(f"/g/{token}/deal/9999/edit", status=404)
    assert "not on the sheet" in page.text()
    web.get(f"/g/{token}/deal/9999/delete", status=404)
