"""The club on the web (season.md §1, §2): created, things attached by their edit links, the
directory with merges and undo, seasons, the public page, and the season file it downloads
giving back the page's numbers."""

from __future__ import annotations

import datetime
import json
import random
import re
from fractions import Fraction

import pytest
from flask.testing import FlaskClient

from scorekeeper.club import writes
from scorekeeper.club.season import build
from scorekeeper.season import file as season_file
from scorekeeper.season.compute import report
from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs

from ..club_sample import stored_game
from ..flows import new_club, post
from ..harness import Page, Web, forms_of
from .helpers import page_rating


def test_a_club_attaches_by_edit_links_and_refuses_the_rest(web: Web, store: Store) -> None:
    rng = random.Random(4)
    token = new_club(web)
    game = stored_game(store, rng, ["Анна", "Борис", "Вера"])
    assert post(web, token, "attach", link=f"http://x/g/{game.view_token}") == (
        400,
        ["This is a read-only link: paste the edit link."],
    )
    assert post(web, token, "attach", link=f"http://x/g/{game.edit_token}")[0] == 302
    other = new_club(web, "Другой")
    status, problems = post(web, other, "attach", link=game.edit_token)
    assert (status, problems) == (400, ["This is already in a club."])
    assert [t.thing_id for t in Clubs(store).get(token).things] == [game.id]
    assert Clubs(store).get(other).things == []
    page = web.get(f"/k/{token}")
    assert "Анна" in page.text() and "Борис" in page.text()


def test_merge_undo_and_two_seats_at_one_table(web: Web, store: Store) -> None:
    rng = random.Random(5)
    token = new_club(web)
    for names in (["Дима", "Анна", "Вера"], ["Дмитрий", "Анна", "Глеб"]):
        game = stored_game(store, rng, names)
        assert post(web, token, "attach", link=game.edit_token)[0] == 302
    for name in ("Дмитрий", "Дима", "Анна"):
        assert post(web, token, "player", player=name)[0] == 302
    assert post(web, token, "player", player="АННА") == (
        400,
        ["АННА is already in the directory."],
    )
    ids = {p.name: p.id for p in Clubs(store).get(token).players}
    club = Clubs(store).get(token)
    before = set(build(store, club).done.names.values())
    assert {"Дима", "Дмитрий"} <= before
    status, _ = post(web, token, "merge", from_id=str(ids["Дима"]), into_id=str(ids["Дмитрий"]))
    assert status == 302
    merged = set(build(store, Clubs(store).get(token)).done.names.values())
    assert "Дима" not in merged and "Дмитрий" in merged
    # a cycle, and a merge putting one player twice at a table, are refused; nothing written
    status, problems = post(
        web, token, "merge", from_id=str(ids["Дмитрий"]), into_id=str(ids["Дима"])
    )
    assert (status, problems) == (400, ["This merge would make a cycle."])
    status, problems = post(
        web, token, "merge", from_id=str(ids["Анна"]), into_id=str(ids["Дмитрий"])
    )
    assert status == 400 and re.match(r"^\S+ and \S+ both sat at one table: \d+\.$", problems[0])
    assert len(Clubs(store).get(token).merges) == 1
    merge = Clubs(store).get(token).merges[0]
    assert post(web, token, "unmerge", merge=str(merge.id))[0] == 302
    assert set(build(store, Clubs(store).get(token)).done.names.values()) == before


def test_seasons_refuse_overlaps_and_bad_dates(
    web: Web, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = new_club(web)
    assert (
        post(web, token, "season", season="2025", first="2025-01-01", last="2025-12-31")[0] == 302
    )
    assert post(web, token, "season", season="B", first="2025-06-01", last="2026-01-31") == (
        400,
        ["This season overlaps 2025."],
    )
    assert post(web, token, "season", season="C", first="3000-01-01", last="3000-02-01") == (
        400,
        ["This date is in the future."],
    )
    assert post(web, token, "season", season="D", first="1.2.2026", last="2026-03-01") == (
        400,
        ["Write a date as YYYY-MM-DD."],
    )
    assert [s.name for s in Clubs(store).get(token).seasons] == ["2025"]
    monkeypatch.setattr(writes, "MOST_SEASONS", 1)  # a club's rows are bounded
    assert post(web, token, "season", season="E", first="2024-01-01", last="2024-02-01") == (
        400,
        ["A club holds at most 1 of these."],
    )


def test_the_season_being_played_ends_ahead(web: Web, store: Store) -> None:
    """season.md §1: seasons are named date ranges, and the club page shows "this season":
    the season being played started on a past day and ends on one ahead (only its first
    day cannot lie ahead)."""
    token = new_club(web)
    today = datetime.date.today()
    first, last = today - datetime.timedelta(days=30), today + datetime.timedelta(days=300)
    done = post(web, token, "season", season="Now", first=first.isoformat(), last=last.isoformat())
    assert done == (302, [])
    assert [(s.first, s.last) for s in Clubs(store).get(token).seasons] == [
        (first.isoformat(), last.isoformat())
    ]


def test_the_season_file_gives_back_the_pages_numbers(web: Web, store: Store) -> None:
    rng = random.Random(6)
    token = new_club(web)
    roster = ["Анна", "Борис", "Вера", "Глеб", "Дима"]
    for n in range(6):
        names = [roster[(n + k) % 5] for k in range(3)]
        game = stored_game(store, rng, names, deals=12)
        assert post(web, token, "attach", link=game.edit_token)[0] == 302
    assert post(web, token, "player", player="Анна")[0] == 302
    club = Clubs(store).get(token)
    shown = report(build(store, club).season)
    file = web.get(f"/kv/{club.view_token}/season.json").response.get_data()
    read_back = season_file.loads(file)
    assert report(read_back) == shown
    assert json.loads(file)["format"] == "scorekeeper-season/1"
    page = web.get(f"/kv/{club.view_token}")
    for s in shown["standings"]:
        assert page_rating(s["rating"]) in page.text()
    assert "Анна" in web.get(f"/kv/{club.view_token}/standings.csv").response.get_data(as_text=True)


def test_the_public_page_is_off_until_turned_on_and_shows_no_links(
    web: Web, store: Store, client: FlaskClient
) -> None:
    rng = random.Random(7)
    token = new_club(web)
    game = stored_game(store, rng, ["Анна", "Борис", "Вера"])
    post(web, token, "attach", link=game.edit_token)
    public = Clubs(store).get(token).public_token
    web.get(f"/kp/{public}", status=404)
    assert post(web, token, "public", on="1")[0] == 302
    page = web.get(f"/kp/{public}")
    assert "Анна" in page.text()
    assert game.view_token not in page.html and game.edit_token not in page.html
    assert token not in page.html and "/kv/" not in page.html
    web.get(f"/k/{public}", status=404)


def test_the_club_on_both_engines(store_location: str, catalogues: None) -> None:
    """The same links and refusals on SQLite and PostgreSQL; the page's numbers come back
    from its season file; a player's page shows his rating history."""
    from scorekeeper.web import create_app

    app = create_app({"TESTING": True, "DATABASE": store_location, "SECRET_KEY": "s"})
    web = Web(app.test_client())
    rng = random.Random(8)
    token = new_club(web)
    with Store(store_location) as store:
        first = stored_game(store, rng, ["Анна", "Борис", "Вера"], deals=10)
        second = stored_game(store, rng, ["Анна", "Глеб", "Вера"], deals=10)
    assert post(web, token, "attach", link=first.view_token)[0] == 400
    for game in (first, second):
        assert post(web, token, "attach", link=game.edit_token)[0] == 302
    assert post(web, token, "attach", link=second.edit_token)[1] == ["This is already in a club."]
    assert post(web, token, "player", player="Анна")[0] == 302
    with Store(store_location) as store:
        club = Clubs(store).get(token)
        shown = report(build(store, club).season)
    file = web.get(f"/kv/{club.view_token}/season.json").response.get_data()
    assert report(season_file.loads(file)) == shown
    anna = club.players[0].id
    page = web.get(f"/kv/{club.view_token}/player/{anna}")
    afters = [line["after"] for line in shown["rating_log"] if line["player"] == "Анна"]
    assert len(afters) == 2 and all(a in page.text() for a in afters)
    assert page.html.count("<svg") == 1  # the rating chart


def test_friendly_dates_seats_sorting_and_links(web: Web, store: Store) -> None:
    """A friendly game counts in the statistics only; a date moves a game; "… is" attaches a
    seat (two seats of a table as one player refused); columns sort; a replaced link stops."""
    rng = random.Random(10)
    token = new_club(web)
    first = stored_game(store, rng, ["Анна", "Борис", "Вера"])
    second = stored_game(store, rng, ["Аня", "Борис", "Глеб"])
    for game in (first, second):
        post(web, token, "attach", link=game.edit_token)
    thing = Clubs(store).get(token).things[0].id
    assert (
        post(web, token, "mark", thing=str(thing), friendly="1", played_on="2026-01-05")[0] == 302
    )
    built = build(store, Clubs(store).get(token))
    assert [(t.played_on.isoformat(), t.friendly) for t in built.tables if t.thing == thing] == [
        ("2026-01-05", True)
    ]
    standings = {s["player"]: s["games"] for s in built.standings()}
    assert "Вера" not in standings and standings["Глеб"] == 1
    assert built.statistics(None, None, None)["Вера"]["games"] == 1
    assert post(web, token, "mark", thing=str(thing), played_on="05.01.2026")[1] == [
        "Write a date as YYYY-MM-DD."
    ]
    post(web, token, "player", player="Анна")
    anna = Clubs(store).get(token).players[0].id
    page = web.get(f"/k/{token}")
    form = next(f for f in forms_of(page.html) if f.value("seat") == "Аня")
    assert web.submit(page, form.set(player=str(anna))).status == 302
    names = build(store, Clubs(store).get(token)).done.names.values()
    assert "Аня" not in names and "Анна" in names
    form = next(f for f in forms_of(web.get(f"/k/{token}").html) if f.value("seat") == "Вера")
    shown = web.submit(web.get(f"/k/{token}"), form.set(player=str(anna)))
    assert shown.status == 400 and "both sat at one table" in Page(shown.response, "").errors()[0]
    view = Clubs(store).get(token).view_token
    stats = build(store, Clubs(store).get(token)).statistics(None, None, None)
    for column in ("games", "deals", "net"):
        html = web.get(f"/kv/{view}?period=all&sort={column}").html
        rows = re.findall(r"<tr><td>([^<]+)</td>", html)
        assert rows == sorted(stats, key=lambda name: -Fraction(stats[name][column]))

    # the period: the moved friendly game is in January, the other today
    def games(query: str) -> dict[str, str]:
        html = web.get(f"/kv/{view}?sort=games&{query}").html
        return dict(re.findall(r'<tr><td>([^<]+)</td><td class="num">(\d+)</td>', html))

    assert games("period=all")["Вера"] == "1" and "Вера" not in games("period=month")
    assert games("period=range&from=2026-01-01&to=2026-01-31") == {
        "Анна": "1",
        "Борис": "1",
        "Вера": "1",
    }
    page = web.get(f"/k/{token}")
    form = page.form(f"/k/{token}/player").set(player="Ольга")
    form.action = form.action.replace(token, view)  # a write through the read-only link
    assert web.submit(page, form).status == 403
    assert [p.name for p in Clubs(store).get(token).players] == ["Анна"]
    assert post(web, token, "link", which="view")[0] == 302
    web.get(f"/kv/{view}", status=404)


def test_a_tournament_brings_its_tables(web: Web, store: Store) -> None:
    """A tournament attached by its edit link counts its table games, on one day, as one
    event (its tables by tour), and its season file gives the page's numbers back."""
    from scorekeeper.tournament import service as tournaments
    from scorekeeper.tournament.sample import random_tournament

    token = new_club(web)
    data = random_tournament(random.Random(11), players=6, tours=1, table_size=3, round_limit=1)
    cup = tournaments.import_file(store, data)
    assert post(web, token, "attach", link=cup.view_token)[1] == [
        "This is a read-only link: paste the edit link."
    ]
    assert post(web, token, "attach", link=cup.edit_token)[0] == 302
    club = Clubs(store).get(token)
    built = build(store, club)
    assert sorted(t.game_id for t in built.tables) == sorted(t.game.id for t in cup.tables)
    assert len(built.held) == 1 and len({t.played_on for t in built.tables}) == 1
    assert len(built.standings()) == 6
    file = web.get(f"/kv/{club.view_token}/season.json").response.get_data()
    assert report(season_file.loads(file)) == report(built.season)


def test_a_company_brings_its_evenings(web: Web, store: Store) -> None:
    """A company attached by its edit link counts its evenings on their dates, as its scope;
    the season file names the company and gives the page's numbers back."""
    from scorekeeper.store.companies import Companies

    rng = random.Random(12)
    token = new_club(web)
    game = stored_game(store, rng, ["Анна", "Борис", "Вера"])
    companies = Companies(store)
    fridays = companies.create(
        name="Пятницы", convention="sochi", options={}, roster=["Анна", "Борис", "Вера"]
    )
    ids = {p.name: p.id for p in fridays.roster}
    companies.attach(fridays.edit_token, game.id, ids, played_on="2026-03-06")
    assert post(web, token, "attach", link=f"https://x/c/{fridays.edit_token}")[0] == 302
    club = Clubs(store).get(token)
    built = build(store, club)
    assert [(t.company, t.played_on.isoformat()) for t in built.tables] == [
        ("Пятницы", "2026-03-06")
    ]
    view = club.view_token
    for scope, rows in (("Пятницы", 3), ("Субботы", 0)):
        html = web.get(f"/kv/{view}?period=all&company={scope}").html
        assert len(re.findall(r'<tr><td>[^<]+</td><td class="num">', html)) == rows
    file = web.get(f"/kv/{view}/season.json").response.get_data()
    assert json.loads(file)["events"][0]["company"] == "Пятницы"
    assert report(season_file.loads(file)) == report(built.season)


def test_a_game_in_a_club_on_its_own_is_no_evening_of_a_company_in_a_club(
    web: Web, store: Store
) -> None:
    """season.md §1: a game is in one club, once. A game attached to one club on its own
    cannot become an evening of a company that is in a club (it would be held twice, or by
    two clubs): refused next to the link, nothing written; detached first, it may."""
    from scorekeeper.company import writes
    from scorekeeper.store.companies import Companies

    from ..flows import new_company

    rng = random.Random(48)
    first, second = new_club(web), new_club(web, "Вторая")
    game = stored_game(store, rng, ["Анна", "Борис", "Вера"])
    companies = Companies(store)
    fridays = companies.get(new_company(web, roster=("Анна", "Борис", "Вера")))
    assert post(web, first, "attach", link=f"https://x/g/{game.edit_token}")[0] == 302
    assert post(web, second, "attach", link=f"https://x/c/{fridays.edit_token}")[0] == 302
    with pytest.raises(writes.InAClub):
        writes.attach_link(store, fridays, game.edit_token)
    page = web.get(f"/c/{fridays.edit_token}")
    result = web.submit(page, page.form("/attach").set(link=game.edit_token))
    assert result.status == 422 and "detach the game" in " ".join(result.errors())
    assert companies.get(fridays.edit_token).games == []
    club = Clubs(store).get(first)
    thing = next(t for t in club.things if t.kind == "game")
    assert post(web, first, "detach", thing=str(thing.id))[0] == 302
    writes.attach_link(store, fridays, game.edit_token)
    assert [g.game.id for g in companies.get(fridays.edit_token).games] == [game.id]
