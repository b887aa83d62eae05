"""Finishing a game (by the end rule or by hand), reopening it, re-scoring it; the settlement."""

from __future__ import annotations

import pytest

from scorekeeper import gamefile, report
from scorekeeper.games import file_data
from scorekeeper.rules import score
from scorekeeper.store import Store

from ..harness import SEVEN_DOWN_TWO, Web

PLAYERS = ["Anna", "Boris", "Vera"]


def unwhisted_six(web: Web, token: str, declarer: str) -> None:
    others = [p for p in PLAYERS if p != declarer]
    web.play(
        token,
        PLAYERS,
        "contract",
        declarer=declarer,
        contract="6S",
        answers={others[0]: "pass", others[1]: "pass"},
    )


@pytest.fixture
def ended(web: Web) -> str:
    """A game to 2 whose end rule is met after three unwhisted sixes."""
    token = web.new_game(PLAYERS, pool_target=2, stake="0.10", currency="EUR")
    for declarer in ("Anna", "Boris", "Vera"):
        unwhisted_six(web, token, declarer)
    return token


def test_the_end_rule_shows_the_game_as_over(web: Web, store: Store, ended: str) -> None:
    page = web.get(f"/g/{ended}")
    assert "The game is over" in page.text()
    assert "Every pool is closed after deal 3." in page.text()
    assert "Next deal</a>" not in page.html
    assert page.has_form("/finish")
    assert web.client.get(f"/g/{ended}/deal/new").status_code == 302
    assert not store.get_game(ended).finished


def test_recording_the_settlement_keeps_the_snapshot(web: Web, store: Store, ended: str) -> None:
    page = web.get(f"/g/{ended}")
    done = web.submit(page, page.form("/finish"))
    assert done.status == 302
    game = store.get_game(ended)
    assert game.finished
    sheet = score(gamefile.load(file_data(game)))
    assert game.finished_snapshot == report.score_report(sheet, with_settlement=True)
    assert game.finished_snapshot["finished"] is True


def test_finish_by_hand_then_reopen(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    unwhisted_six(web, token, "Anna")
    page = web.get(f"/g/{token}")
    assert "Finish now" in page.text()
    asked = web.submit(page, page.form("/finish"))
    # One tap does not end the evening: the page asks first, and nothing is written yet.
    assert asked.status == 200 and "Finish the game now?" in asked.text()
    assert not store.get_game(token).finished
    web.submit(asked, asked.form("finish-confirm"))
    page = web.get(f"/g/{token}")
    assert "It was finished by hand." in page.text()
    assert "Next deal</a>" not in page.html
    assert store.get_game(token).finished_snapshot is not None
    web.submit(page, page.form("/reopen"))
    game = store.get_game(token)
    assert not game.finished and game.finished_snapshot is None
    unwhisted_six(web, token, "Boris")
    assert len(store.get_game(token).deals) == 2


def test_a_changed_finished_game_shows_both_and_can_be_rescored(
    web: Web, store: Store, ended: str
) -> None:
    page = web.get(f"/g/{ended}")
    web.submit(page, page.form("/finish"))
    kept = store.get_game(ended).finished_snapshot
    # The first six was in fact whisted: Anna took 6, Boris writes whists for his 4 tricks.
    deal = store.get_game(ended).deals[0]
    edit, form = web.deal_form(ended, deal.id)
    form.set(answer_1="whist", tricks_0="6", tricks_1="3", tricks_2="1")
    checked = web.check(edit, form)
    assert web.save(checked, checked.form("deal-form")).status == 302
    page = web.get(f"/g/{ended}")
    assert "the kept settlement differs" in page.text()
    assert page.has_form("/rescore")
    assert store.get_game(ended).finished_snapshot == kept
    web.submit(page, page.form("/rescore"))
    game = store.get_game(ended)
    assert game.finished_snapshot != kept
    sheet = score(gamefile.load(file_data(game)))
    assert game.finished_snapshot == report.score_report(sheet, with_settlement=True)
    assert "the kept settlement differs" not in web.get(f"/g/{ended}").text()


def test_finish_with_a_stale_version_says_so(web: Web, store: Store) -> None:
    token = web.new_game(PLAYERS)
    page = web.get(f"/g/{token}")
    unwhisted_six(web, token, "Anna")  # another phone
    web.submit(page, page.form("/finish"))
    assert not store.get_game(token).finished
    assert "Another phone changed this game" in web.get(f"/g/{token}").text()


def test_settlement_page(web: Web, ended: str) -> None:
    text = web.get(f"/g/{ended}/settlement").text()
    assert "Nobody pays anybody." in text  # equal pools, no hill, no whists
    token = web.new_game(PLAYERS, stake="0.10", currency="EUR", first_dealer=2)
    web.play(token, PLAYERS, "contract", **SEVEN_DOWN_TWO)
    page = web.get(f"/g/{token}/settlement")
    text = page.text()
    # §8 example 1 (Sochi): net A −89⅓, B +54⅔, C +34⅔.
    assert "−89⅓" in text and "+54⅔" in text and "+34⅔" in text
    assert "Anna → Boris: 5.47 EUR" in text
    assert "Anna → Vera: 3.46 EUR" in text
    assert "Amnesty: 0 off every hill." in text
    assert "Hill (Anna): the others write 26⅔ whists each" in text
    assert "<textarea readonly" in page.html
    assert "Anna → Boris: 5.47 EUR" in page.html.split("<textarea")[1]
    assert 'data-copy="settlement-text"' in page.html


def test_an_ended_game_offers_one_finish_button(web: Web, ended: str) -> None:
    page = web.get(f"/g/{ended}")
    assert page.html.count(f'action="/g/{ended}/finish"') == 1
    assert "Record the settlement" in page.text() and "Finish now" not in page.text()


def test_play_on_raises_the_pool_and_reopens_the_game(web: Web, store: Store, ended: str) -> None:
    page = web.get(f"/g/{ended}")
    web.submit(page, page.form("/finish"))  # the settlement was recorded first
    page = web.get(f"/g/{ended}")
    form = page.form("/extend")
    assert form.value("pool_target") == "12"  # the usual step: ten more
    before = store.get_game(ended).version
    done = web.submit(page, form.set(pool_target="4"), follow=True)
    assert "The pool is now 4: play on." in done.text()
    game = store.get_game(ended)
    assert game.options["pool_target"] == 4 and not game.finished
    assert game.version == before + 1  # reopened with the new options: one write
    sheet = score(gamefile.load(file_data(game)))
    assert not sheet.finished
    assert "Next deal</a>" in web.get(f"/g/{ended}").html
    again = web.submit(page, form.set(pool_target="4"))  # the same tap sent twice
    assert again.status == 302 and store.get_game(ended).version == before + 1


def test_play_on_refuses_a_pool_the_game_has_passed_already(web: Web, store: Store) -> None:
    # Anna's 10♠ writes 10 into the pools: to 3 (the rest helps the others) all are closed.
    token = web.new_game(PLAYERS, pool_target=2)
    both_pass = {"Boris": "pass", "Vera": "pass"}
    web.play(token, PLAYERS, "contract", declarer="Anna", contract="10S", answers=both_pass)
    page = web.get(f"/g/{token}")
    assert "The game is over" in page.text()
    version = store.get_game(token).version
    done = web.submit(page, page.form("/extend").set(pool_target="3"), follow=True)
    assert "With a pool of 3 the game would still be over." in done.text()
    assert store.get_game(token).version == version
    assert store.get_game(token).options["pool_target"] == 2


def test_play_on_refuses_a_pool_that_would_still_be_over(
    web: Web, store: Store, ended: str
) -> None:
    page = web.get(f"/g/{ended}")
    version = store.get_game(ended).version
    done = web.submit(page, page.form("/extend").set(pool_target="1"), follow=True)
    assert "The new pool must be larger than 2." in done.text()
    assert store.get_game(ended).version == version
    assert store.get_game(ended).options["pool_target"] == 2


def _primaries_of_the_card(html: str) -> list[str]:
    import re

    card = html[html.index('class="card finished"') :]
    card = card[: card.index("</section>")]
    return re.findall(r'class="button primary[^"]*"[^>]*>([^<]*)<', card)


def test_the_game_over_card_has_one_primary_action(web: Web, ended: str) -> None:
    page = web.get(f"/g/{ended}")
    assert _primaries_of_the_card(page.html) == ["Record the settlement"]
    html = page.html
    # Rematch comes after what ends the evening, not on top of it.
    assert html.index("Record the settlement") < html.index('id="rematch"')
    web.submit(page, page.form("/finish"))
    assert _primaries_of_the_card(web.get(f"/g/{ended}").html) == [
        "Rematch: same players and rules"
    ]


def test_play_on_out_of_bounds_is_said_in_the_language_of_the_page_that_shows_it(
    web: Web, store: Store, ended: str
) -> None:
    """A refused "Play on" (a pool out of its bounds, a page older than the form) leaves its
    reason for the next page, which says it in its own language, numbers written its way."""
    page = web.get(f"/g/{ended}", headers={"Accept-Language": "ru"})
    version = store.get_game(ended).version
    form = page.form("/extend").set(pool_target="100001")
    web.client.post(form.action, data=form.data(), headers={"Accept-Language": "ru"})
    shown = web.get(f"/g/{ended}", headers={"Accept-Language": "en"}).text()
    assert "Write a whole number from 1 to 100,000" in shown
    assert "Напишите" not in shown and store.get_game(ended).version == version
    stale = page.form("/extend").set(pool_target="12", request_key="")
    web.client.post(stale.action, data=stale.data(), headers={"Accept-Language": "en"})
    shown = web.get(f"/g/{ended}", headers={"Accept-Language": "ru"}).text()
    assert "Страница устарела" in shown and store.get_game(ended).version == version
