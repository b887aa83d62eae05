"""The new-game page for five players and the newer options; the game page's round and seats."""

from __future__ import annotations

from scorekeeper import gamefile
from scorekeeper.games import create_from_game
from scorekeeper.rules import PRESETS
from scorekeeper.store import Store

from ..harness import Web
from ..helpers import allpass, contract, game_file, newest_game

FIVE = ["Anna", "Boris", "Vera", "Gleb", "Dasha"]


def test_a_five_player_game_with_the_new_options_is_created(web: Web, store: Store) -> None:
    token = web.new_game(
        FIVE,
        first_dealer=3,
        money_unit="5",
        round_limit="6",
        allpass_exit_on="made",
        stalingrad="y",
    )
    game = store.get_game(token)
    assert game.players == FIVE and game.first_dealer == "Gleb"
    assert game.options["money_unit"] == "5"
    assert game.options["round_limit"] == 6
    assert game.options["allpass_exit_on"] == "made"
    assert game.options["stalingrad"] is True
    text = web.get(f"/g/{token}").text()
    assert "Next deal: Gleb deals." in text
    assert "Sitting out: Gleb, Dasha." in text
    assert "Round 1 of 6, deal 1 of 5" in text


def test_no_round_limit_is_stored_as_null_and_shows_no_round(web: Web, store: Store) -> None:
    token = web.new_game(["Anna", "Boris", "Vera"], round_limit="")
    assert store.get_game(token).options["round_limit"] is None
    assert store.get_game(token).options == PRESETS["sochi"].to_json()
    assert "Round " not in web.get(f"/g/{token}").text()


def test_bad_money_unit_and_round_limit_are_refused_next_to_the_field(
    web: Web, store: Store
) -> None:
    page = web.get("/new")
    form = page.form("new-game")
    form.set(player_0="Anna", player_1="Boris", player_2="Vera", first_dealer="0")
    form.set(opt_money_unit="0.005", opt_round_limit="six")
    result = web.submit(page, form)
    assert result.status == 422
    money = result.html.split('id="opt_money_unit-errors"')[1].split("</ul>")[0]
    rounds = result.html.split('id="opt_round_limit-errors"')[1].split("</ul>")[0]
    assert "at most two decimals" in money
    assert "write a whole number, or leave it empty" in rounds
    assert newest_game(store) is None


def test_six_names_cannot_be_written(web: Web) -> None:
    form = web.get("/new").form("new-game")
    assert "player_4" in form.fields and "player_5" not in form.fields


def test_house_rule_sets_fill_the_options_in_one_tap(web: Web, store: Store) -> None:
    page = web.get("/new")
    form = page.form("new-game")
    form.set(player_0="Anna", player_1="Boris", player_2="Vera", first_dealer="0")
    shown = web.submit(page, form, button=("house_set", "sochi-003"))
    assert shown.status == 200 and newest_game(store) is None  # nothing created yet
    form = shown.form("new-game")
    assert form.value("convention") == "sochi"
    assert form.value("opt_allpass_progression") == "1"
    assert form.value("opt_hill_divisor") == "opponents"
    assert form.value("player_1") == "Boris"  # the names typed are kept
    result = web.submit(shown, form)
    assert result.status == 302
    stored = newest_game(store)
    assert stored is not None
    assert stored.options["allpass_progression"] == [1]
    assert stored.options["hill_divisor"] == "opponents"

    page = web.get("/new")
    shown = web.submit(page, page.form("new-game"), button=("house_set", "leningrad-002"))
    form = shown.form("new-game")
    assert form.value("convention") == "leningrad"
    assert form.value("opt_allpass_exit_on") == "made"
    assert form.value("opt_pool_whists") == "20"


def test_game_page_of_an_imported_five_player_game_with_a_penalty(web: Web, store: Store) -> None:
    data = game_file(
        [
            contract("Vera", "7S", {"Gleb": "whist", "Dasha": "pass"}, {"Vera": 5, "Gleb": 3}),
            {"type": "penalty", "player": "Gleb", "contract": "6S"},
            allpass(Gleb=3, Dasha=3, Anna=4),
        ],
        players=FIVE,
        first_dealer="Anna",
        options={"round_limit": 2},
    )
    record = create_from_game(store, gamefile.load(data))
    page = web.get(f"/g/{record.edit_token}")
    text = page.text()
    assert "Next deal: Vera deals." in text and "Sitting out: Vera, Gleb." in text
    assert "Round 1 of 2, deal 3 of 5" in text
    assert page.html.count('class="pulka-sector"') == 5
    # A penalty is neither a deal at the table nor a correction of the sheet.
    assert "2 deals · 1 penalty" in text and "correction" not in text
    log = web.get(f"/g/{record.edit_token}/log")
    assert "penalty: Gleb, 6♠" in log.text()
    assert "2 deals · 1 penalty" in log.text()
    russian = web.get(f"/g/{record.edit_token}?lang=ru").text()
    assert "2 раздачи · 1 штраф" in russian and "поправк" not in russian
    assert log.text().count("not a deal at the table") == 1
