"""Company evenings of every size: five players, two for Hussar, the evening's date, rematch."""

from __future__ import annotations

import datetime

from scorekeeper.store import Store
from scorekeeper.store.companies import Companies

from ..flows import finish, new_company, play_some
from ..harness import Web

ROSTER = ("Anna", "Boris", "Vera", "Gleb", "Dmitri")


def _ids(store: Store, token: str, players: list[str]) -> str:
    roster = Companies(store).get(token).roster
    return "&".join(f"player={p.id}" for p in roster if p.name in players)


def _start(web: Web, token: str, ids: str, **fields: str):
    page = web.get(f"/c/{token}/evening?{ids}")
    form = page.form("evening-form")
    form.set(**fields)
    return page, web.submit(page, form)


def test_five_players_ticked_make_a_five_player_evening(web: Web, store: Store) -> None:
    token = new_company(web, roster=ROSTER)
    page, started = _start(web, token, _ids(store, token, list(ROSTER)))
    assert 'name="seat_4"' in page.html
    assert started.status == 302, started.errors()
    game = store.get_game(started.response.headers["Location"].rsplit("/", 1)[-1])
    assert sorted(game.players) == sorted(ROSTER)
    [evening] = Companies(store).get(token).games
    assert evening.played_on == datetime.date.today().isoformat()
    assert sorted(evening.players) == sorted(ROSTER)


def test_the_pick_message_names_every_size(web: Web, store: Store) -> None:
    token = new_company(web, roster=ROSTER)
    answer = web.client.get(
        f"/c/{token}/evening?{_ids(store, token, ['Anna'])}", follow_redirects=True
    )
    assert "Pick two players (Hussar), or three, four or five" in answer.get_data(as_text=True)
    assert not Companies(store).get(token).games


def test_two_players_make_a_hussar_evening_at_the_company_stake(web: Web, store: Store) -> None:
    token = new_company(web, roster=ROSTER, opt_stake="0.25")
    page, started = _start(web, token, _ids(store, token, ["Anna", "Vera"]))
    assert "Hussar" in page.text()
    assert started.status == 302, started.errors()
    game = store.get_game(started.response.headers["Location"].rsplit("/", 1)[-1])
    assert game.convention == "hussar" and sorted(game.players) == ["Anna", "Vera"]
    assert str(game.options["stake"]) in ("0.25", "1/4")


def test_the_evening_date_is_asked_and_the_standings_use_it(web: Web, store: Store) -> None:
    token = new_company(web, roster=ROSTER)
    last_month = (datetime.date.today().replace(day=1) - datetime.timedelta(days=3)).isoformat()
    page, started = _start(
        web, token, _ids(store, token, ["Anna", "Boris", "Vera"]), played_on=last_month
    )
    assert f'data-today="{datetime.date.today().isoformat()}"' in page.html
    game_token = started.response.headers["Location"].rsplit("/", 1)[-1]
    play_some(web, store, game_token)
    finish(web, game_token)
    assert Companies(store).get(token).games[0].played_on == last_month
    month = web.get(f"/c/{token}?period=month").text()
    assert "No finished evening in this period yet." in month
    assert "No finished evening in this period yet." not in web.get(f"/c/{token}?period=all").text()
    # A year far off is a typo: said, nothing started.
    _, refused = _start(
        web, token, _ids(store, token, ["Anna", "Boris", "Vera"]), played_on="3026-01-01"
    )
    assert refused.status == 422 and "Give the day the evening was played." in refused.text()
    assert len(Companies(store).get(token).games) == 1


def test_a_game_attached_with_its_date_lands_in_that_month(web: Web, store: Store) -> None:
    token = new_company(web, roster=ROSTER)
    game_token = web.new_game(["Anna", "Boris", "Vera"])
    play_some(web, store, game_token)
    finish(web, game_token)
    last_month = (datetime.date.today().replace(day=1) - datetime.timedelta(days=3)).isoformat()
    page = web.get(f"/c/{token}")
    form = page.form(f"/c/{token}/attach")
    form.set(link=f"http://localhost/g/{game_token}", played_on=last_month)
    assert web.submit(page, form).status == 302
    assert Companies(store).get(token).games[0].played_on == last_month
    assert "No finished evening in this period yet." in web.get(f"/c/{token}?period=month").text()
    # Without a date, a game keeps the day it was started.
    other = web.new_game(["Anna", "Boris", "Gleb"])
    form = web.get(f"/c/{token}").form(f"/c/{token}/attach")
    form.set(link=f"http://localhost/g/{other}")
    assert web.submit(page, form).status == 302
    days = {g.game.edit_token: g.played_on for g in Companies(store).get(token).games}
    assert days[other] == store.get_game(other).created_at[:10]


def test_a_rematch_of_a_company_evening_stays_in_the_company(web: Web, store: Store) -> None:
    token = new_company(web, roster=ROSTER)
    _, started = _start(web, token, _ids(store, token, ["Anna", "Boris", "Vera", "Gleb"]))
    game_token = started.response.headers["Location"].rsplit("/", 1)[-1]
    finish(web, game_token)
    page = web.get(f"/g/{game_token}")
    again = web.submit(page, page.form("/rematch"))
    assert again.status == 302
    rematch = again.response.headers["Location"].rsplit("/", 1)[-1]
    evenings = {g.game.edit_token: g for g in Companies(store).get(token).games}
    assert set(evenings) == {game_token, rematch}
    assert evenings[rematch].players == evenings[game_token].players
    assert evenings[rematch].played_on == datetime.date.today().isoformat()
    # A game of no company stays of none.
    lone = web.new_game(["Anna", "Boris", "Vera"])
    finish(web, lone)
    page = web.get(f"/g/{lone}")
    assert web.submit(page, page.form("/rematch")).status == 302
    assert len(Companies(store).get(token).games) == 2
