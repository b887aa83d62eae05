"""A whole small evening entered through the forms, as the scorer at the table does it."""

from __future__ import annotations

from fractions import Fraction

from scorekeeper import gamefile
from scorekeeper.games import file_data
from scorekeeper.rules import score
from scorekeeper.store import Store

from ..harness import SEVEN_DOWN_TWO, Web

PLAYERS = ["Anna", "Boris", "Vera"]


def sheet_of(store: Store, token: str):  # type: ignore[no-untyped-def]
    return score(gamefile.load(file_data(store.get_game(token))))


def test_an_evening_of_every_kind_of_deal(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS, first_dealer=2)
    # Vera deals. Anna plays 7♠ with Boris whisting and Vera passing; Anna takes 5 (§8 ex. 1).
    page = web.play(token, PLAYERS, "contract", **SEVEN_DOWN_TWO)
    assert "Boris writes 20 whists on Anna (whists: 5 tricks × 4)" in page.text()
    assert "Anna: hill +8 (remise, two down: 2 × 4)" in page.text()
    # Anna deals. Boris 6♥, both whist, Boris makes 6: Vera 2, Anna 2.
    web.play(
        token,
        PLAYERS,
        "contract",
        declarer="Boris",
        contract="6H",
        answers={"Vera": "whist", "Anna": "whist"},
        tricks={"Boris": 6, "Vera": 2, "Anna": 2},
    )
    # Boris deals. Vera 6NT, both pass.
    web.play(
        token,
        PLAYERS,
        "contract",
        declarer="Vera",
        contract="6NT",
        answers={"Anna": "pass", "Boris": "pass"},
    )
    # Vera deals. Anna 7♦: Boris passes, Vera half-whists.
    web.play(
        token,
        PLAYERS,
        "contract",
        declarer="Anna",
        contract="7D",
        answers={"Boris": "pass", "Vera": "half-whist"},
    )
    # Anna deals. Boris misère, takes none.
    web.play(token, PLAYERS, "misere", declarer="Boris", tricks={"Boris": 0})
    # Two all-passes in a row.
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 0, "Boris": 4, "Vera": 6})
    page = web.play(token, PLAYERS, "allpass", tricks={"Anna": 3, "Boris": 3, "Vera": 4})
    assert "All-passes in a row: 2." in page.text()
    # A correction for a renonce.
    web.play(
        token,
        PLAYERS,
        "correction",
        reason="renonce",
        entries=[("Boris", "hill", None, "10"), ("Anna", "whists", "Boris", "-4")],
    )
    sheet = sheet_of(store, token)
    assert len(sheet.results) == 8
    assert sheet.hill("Boris") == 4 + 3 * 2 + 10
    assert sheet.whists("Anna", "Boris") == 2 * 2 - 4  # deal 2's whists, then the correction
    assert sheet.pool("Vera") == 2
    assert sheet.whists("Vera", "Anna") == 8 + 1 * 4  # consolation, then half-whist on a seven
    # 7♦ half-whisted 4; Boris's misère overflows his pool by 2 and helps Anna (§5); the
    # first all-pass without a trick 1.
    assert sheet.pool("Anna") == 4 + 2 + 1
    assert sheet.pool("Boris") == 10


def test_leningrad_all_pass_exit_is_enforced_on_the_form(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS, convention="leningrad")
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 2, "Boris": 4, "Vera": 4})
    page = web.get(f"/g/{token}")
    assert "The next contract must be at least 7, or misère." in page.text()
    page, form = web.deal_form(token)
    # Only the legal levels are offered...
    assert {c[:-2] if c.endswith("NT") else c[:-1] for c in form.radios["contract"]} == {
        "7",
        "8",
        "9",
        "10",
    }
    # ...and a six sent anyway is refused next to the level, with nothing written.
    web.fill_deal(
        form,
        PLAYERS,
        "contract",
        declarer="Boris",
        contract="6S",
        answers={"Vera": "pass", "Anna": "pass"},
    )
    checked = web.check(page, form)
    assert checked.status == 422
    assert (
        "after all-pass (1 in a row) the contract must be at least 7, or misère" in checked.errors()
    )
    assert 'id="contract-errors"' in checked.html
    saved = web.save(checked, checked.form("deal-form").set(checked="x"))
    assert saved.status == 422
    assert len(store.get_game(token).deals) == 1
    # A seven is fine; so is a misère.
    web.play(
        token,
        PLAYERS,
        "contract",
        declarer="Boris",
        contract="7S",
        answers={"Vera": "pass", "Anna": "pass"},
    )
    assert len(store.get_game(token).deals) == 2


def test_four_players_the_dealer_sits_out(web: Web, store: Store) -> None:
    players = ["Anna", "Boris", "Vera", "Gleb"]
    token = web.new_game(players, first_dealer=3)
    page = web.get(f"/g/{token}")
    assert "Gleb sits out." in page.text()
    _, form = web.deal_form(token)
    # Gleb deals: he can neither declare nor take tricks.
    assert form.radios["declarer"] == ["0", "1", "2"]
    assert "tricks_3" not in form.names
    page = web.play(token, players, "contract", **SEVEN_DOWN_TWO)
    # §8 example 4's deal under Sochi (greedy): the dealer writes consolation too.
    assert "Gleb writes 8 whists on Anna (consolation, two down: 2 × 4)" in page.text()
    assert "Anna sits out." in page.text()


def test_hussar_offers_redeal_and_whist_with_the_talon(web: Web, store: Store) -> None:
    players = ["Anna", "Boris"]
    token = web.new_game(players, convention="hussar")
    _, form = web.deal_form(token)
    assert form.radios["kind"] == ["contract", "misere", "redeal", "penalty", "correction"]
    assert form.radios["answer_1"] == ["whist", "whist-talon", "pass"]
    web.play(token, players, "redeal")
    page = web.play(
        token,
        players,
        "contract",
        declarer="Boris",
        contract="6S",
        answers={"Anna": "whist-talon"},
        tricks={"Boris": 6, "Anna": 4},
    )
    assert "Boris: pool +2 (6♠ made)" in page.text()
    assert [d.data["type"] for d in store.get_game(token).deals] == ["redeal", "contract"]


def test_correction_amounts_may_be_negative_and_fractional(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    page = web.play(
        token,
        PLAYERS,
        "correction",
        reason="paper sheet from last week",
        entries=[("Vera", "pool", None, "2"), ("Boris", "hill", None, "-3,5")],
    )
    assert "Boris: hill −3½ (correction: paper sheet from last week)" in page.text()
    assert store.get_game(token).deals[0].data["entries"] == [
        {"player": "Vera", "pool": 2},
        {"player": "Boris", "hill": "-7/2"},
    ]
    sheet = sheet_of(store, token)
    assert sheet.hill("Boris") == Fraction(-7, 2)
