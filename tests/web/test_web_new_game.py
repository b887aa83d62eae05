"""The new game form: players, first dealer, preset and every house rule, checked."""

from __future__ import annotations

import html

from scorekeeper.rules import PRESETS
from scorekeeper.store import Store
from scorekeeper.web.options import ALL, preset_values

from ..harness import Page, Web
from ..helpers import newest_game


def new_form(web: Web, convention: str = "sochi") -> tuple[Page, object]:
    page = web.get("/new")
    form = page.form("new-game")
    form.set(convention=convention, rendered_preset=convention)
    form.set(player_0="Anna", player_1="Boris", player_2="Vera", player_3="", first_dealer="0")
    return page, form


def games(store: Store) -> int:
    return newest_game(store) is not None


def test_every_option_of_the_rules_is_on_the_form_with_the_preset_value(web: Web) -> None:
    form = web.get("/new").form("new-game")
    names = {spec.name for spec in ALL}
    assert names == set(PRESETS["sochi"].to_json())
    for field, value in preset_values("sochi").items():
        if isinstance(value, bool):
            assert (form.value(field) == "y") is value, field
        elif isinstance(value, list):
            assert form.fields.get(field, []) == value, field
        else:
            assert form.value(field) == str(value), field


def test_the_name_defaults_to_today(web: Web) -> None:
    import datetime

    form = web.get("/new").form("new-game")
    assert str(datetime.date.today().year) in (form.value("name") or "")


def test_a_new_game_stores_the_fully_resolved_options(web: Web, store: Store) -> None:
    token = web.new_game(["Anna", "Boris", "Vera"], convention="leningrad", first_dealer=1)
    game = store.get_game(token)
    assert game.players == ["Anna", "Boris", "Vera"]
    assert game.first_dealer == "Boris"
    assert game.convention == "leningrad"
    assert game.options == PRESETS["leningrad"].to_json()
    assert game.name == "Friday"


def test_house_rules_are_kept(web: Web, store: Store) -> None:
    token = web.new_game(
        pool_target=20,
        stake="0.25",
        currency="UAH",
        whist_split="gentleman",
        allpass_exit="7, 8",
        shortfall_rate="1/2",
        consolation="10",
        ten_checked="y",
    )
    options = store.get_game(token).options
    assert options["pool_target"] == 20
    assert options["stake"] == "0.25"
    assert options["currency"] == "UAH"
    assert options["whist_split"] == "gentleman"
    assert options["allpass_exit"] == [7, 8]
    assert options["shortfall_rate"] == "1/2"
    assert options["consolation"] == 10
    assert options["ten_checked"] is True


def test_switching_the_preset_without_javascript_uses_its_values(web: Web, store: Store) -> None:
    page, form = new_form(web)
    # Shown for Sochi, switched to Rostov before submitting; the pool target changed by hand.
    form.set(convention="rostov", rendered_preset="sochi", opt_pool_target="30")
    for field, value in preset_values("sochi").items():
        if field != "opt_pool_target":
            form.set(**{field: ("y" if value else None) if isinstance(value, bool) else value})
    done = web.submit(page, form)
    assert done.status == 302
    token = done.response.headers["Location"].rsplit("/", 1)[-1]
    options = store.get_game(token).options
    expected = PRESETS["rostov"].to_json() | {"pool_target": 30}
    assert options == expected


def test_the_last_games_settings_are_offered_again(web: Web) -> None:
    web.new_game(
        ["Gleb", "Dasha", "Ira", "Oleg"], convention="rostov", first_dealer=2, pool_target=15
    )
    form = web.get("/new").form("new-game")
    assert [form.value(f"player_{i}") for i in range(4)] == ["Gleb", "Dasha", "Ira", "Oleg"]
    assert form.value("convention") == "rostov"
    assert form.value("first_dealer") == "2"
    assert form.value("opt_pool_target") == "15"


BAD_PLAYERS = [
    (["Anna", "Anna", "Vera"], "player_1", "Two players cannot have the same name"),
    (["Anna", "Boris", ""], "player_0", "Write three, four or five names"),
    (["Anna", "B" * 41, "Vera"], "player_1", "At most 40 characters"),
    (["Anna", "Bo\x07ris", "Vera"], "player_1", "The name cannot hold U+0007 control character"),
]


def test_bad_players_are_refused_next_to_the_field(web: Web, store: Store) -> None:
    for players, field, message in BAD_PLAYERS:
        page, form = new_form(web)
        for i, name in enumerate(players):
            form.set(**{f"player_{i}": name})
        result = web.submit(page, form)
        assert result.status == 422, players
        assert message in result.errors(), (players, result.errors())
        assert message in result.html.split(f'id="{field}-errors"')[1].split("</ul>")[0]
        assert not games(store)


def test_hussar_needs_two_players(web: Web, store: Store) -> None:
    page, form = new_form(web, "hussar")
    result = web.submit(page, form)
    assert "Hussar is played by two: write two names" in result.errors()
    assert not games(store)
    token = web.new_game(["Anna", "Boris"], convention="hussar")
    assert store.get_game(token).options["end"] == "first_closed"


def test_the_first_dealer_must_be_a_player(web: Web, store: Store) -> None:
    page, form = new_form(web)
    form.set(first_dealer="3")
    result = web.submit(page, form)
    assert "Choose who deals first among the players" in result.errors()
    assert not games(store)


def test_bad_options_are_refused_next_to_the_field(web: Web, store: Store) -> None:
    cases = {
        "opt_allpass_progression": ("1, x", "write whole numbers separated by commas"),
        "opt_stake": ("ten", "Stake per whist: must be money from 0 to 1,000,000"),
        "opt_allpass_exit": (
            "5",
            "Lowest contract after all-passes: 5 is not allowed here",
        ),
        "opt_whist_split": ("stingy", "Choose one of the values offered"),
        "opt_pool_target": ("0", "Write a whole number from 1 to 100,000"),
        "opt_currency": ("X" * 21, "At most 20 characters"),
    }
    for field, (value, message) in cases.items():
        page, form = new_form(web)
        for f, v in preset_values("sochi").items():
            form.set(**{f: ("y" if v else None) if isinstance(v, bool) else v})
        form.set(**{field: value})
        result = web.submit(page, form)
        assert result.status == 422, field
        shown = html.unescape(result.html.split(f'id="{field}-errors"')[1].split("</ul>")[0])
        assert message in shown, (
            field,
            result.errors(),
        )
        assert not games(store)


def test_password_is_required_when_set(app, web: Web, store: Store) -> None:  # type: ignore[no-untyped-def]
    app.config["PASSWORD"] = "1234"
    page, form = new_form(web)
    for f, v in preset_values("sochi").items():
        form.set(**{f: ("y" if v else None) if isinstance(v, bool) else v})
    assert "password" in form.names
    result = web.submit(page, form.set(password="wrong"))
    assert "Wrong password" in result.errors()
    assert not games(store)
    result = web.submit(page, form.set(password="1234"))
    assert result.status == 302
    assert games(store)


def test_home_lists_only_the_games_this_browser_knows(web: Web, app) -> None:  # type: ignore[no-untyped-def]
    mine = web.new_game(["Anna", "Boris", "Vera"], name="Mine")
    other = app.test_client()  # another browser
    page = Page(other.get("/new"), "/new")
    form = page.form("new-game")
    for f, v in preset_values("sochi").items():
        form.set(**{f: ("y" if v else None) if isinstance(v, bool) else v})
    form.set(
        name="Theirs",
        player_0="X",
        player_1="Y",
        player_2="Z",
        convention="sochi",
        rendered_preset="sochi",
        first_dealer="0",
    )
    assert other.post("/new", data=form.data()).status_code == 302
    home = web.get("/")
    assert "Mine" in home.text() and "Theirs" not in home.text()
    assert f"/g/{mine}" in home.html
    assert "Theirs" in Page(other.get("/"), "/").text()


def test_a_fresh_browser_sees_no_other_tables_names_or_rules(web: Web, app) -> None:  # type: ignore[no-untyped-def]
    web.new_game(["Pyotr", "Semyon", "Zoya"], convention="leningrad", pool_target="30")
    stranger = Web(app.test_client())
    form = stranger.get("/new").form("new-game")
    assert {form.value(f"player_{i}") for i in range(4)} <= {None, ""}
    assert form.value("convention") == "sochi"
    assert form.value("opt_pool_target") == str(PRESETS["sochi"].pool_target)
    assert "Pyotr" not in stranger.get("/new").html


def test_this_browsers_own_last_game_is_offered_and_said_so(web: Web) -> None:
    web.new_game(["Pyotr", "Semyon", "Zoya"], convention="leningrad", pool_target="30")
    page = web.get("/new")
    form = page.form("new-game")
    assert [form.value(f"player_{i}") for i in range(3)] == ["Pyotr", "Semyon", "Zoya"]
    assert form.value("convention") == "leningrad" and form.value("opt_pool_target") == "30"
    assert "(as in your last game)" in page.text()


def test_hussar_options_that_cannot_apply_are_marked_for_hiding(web: Web) -> None:
    page = web.get("/new")
    for field in ("opt_dealer_consolation", "opt_half_whist", "opt_two_whister_quota"):
        block = page.html.split(f'name="{field}"')[0].rsplit('class="opt"', 1)[1]
        assert 'data-not-for="hussar"' in block, field
    assert "Hussar is played by two: write two names." in page.text()


def test_rematch_same_players_and_rules_next_first_dealer(web: Web, store: Store) -> None:
    token = web.new_game(["Anna", "Boris", "Vera"], convention="rostov", first_dealer=1)
    page = web.get(f"/g/{token}")
    asked = web.submit(page, page.form("/finish"))
    web.submit(asked, asked.form("finish-confirm"))
    page = web.get(f"/g/{token}")
    done = web.submit(page, page.form("/rematch"))
    assert done.status == 302
    fresh = done.response.headers["Location"].rsplit("/", 1)[-1]
    old, new = store.get_game(token), store.get_game(fresh)
    assert new.players == old.players and new.convention == "rostov"
    assert new.options == old.options
    assert (old.first_dealer, new.first_dealer) == ("Boris", "Vera")
    assert new.deals == [] and not new.finished
