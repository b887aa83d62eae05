"""The club page (season.md §1): a game, a company and a tournament started from it belong to
the club (the existing forms, the club carried along in their link); its latest events and
its companies; and the refusals of issue 48's "Bad input" not tested elsewhere, each with its
message next to the field and nothing written."""

from __future__ import annotations

import datetime
import random
import re

from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs
from scorekeeper.store.companies import Companies

from ..club_sample import stored_game
from ..flows import new_club, post
from ..harness import Page, Web

ROSTER = "Анна\nБорис\nВера\nГлеб\nДима\nЕфим"


def started(web: Web, link: str, form_id: str, **values: str) -> Page:
    """Follow a start link of the director's page and send its form as filled."""
    page = web.get(link)
    assert "It will belong to the club Пуля." in page.text()
    return web.submit(page, page.form(form_id).set(**values))


def links(web: Web, token: str) -> dict[str, str]:
    """The director's start links, by the page they open."""
    html = web.get(f"/k/{token}").html
    block = re.search(r'<p class="actions club-start">(.*?)</p>', html, flags=re.S)
    assert block
    found = re.findall(r'href="([^"]+)"', block.group(1))
    return {href.split("?")[0]: href.replace("&amp;", "&") for href in found}


def count(store: Store, table: str) -> int:
    return int(store.engine.value(f"SELECT count(*) FROM {table}"))  # noqa: S608 - fixed names


def test_a_game_a_company_and_a_tournament_started_from_the_club_are_its(
    web: Web, store: Store
) -> None:
    token = new_club(web)
    start = links(web, token)
    assert sorted(start) == ["/company/new", "/new", "/tournament/new"]
    assert all(href.endswith(f"?club={token}") for href in start.values())
    game = started(
        web, start["/new"], "new-game", player_0="Анна", player_1="Борис", player_2="Вера"
    )
    company = started(web, start["/company/new"], "new-company", name="Пятницы", roster=ROSTER)
    cup = started(web, start["/tournament/new"], "new-tournament", name="Кубок", roster=ROSTER)
    assert [p.status for p in (game, company, cup)] == [302, 302, 302]
    things = Clubs(store).get(token).things
    assert [t.kind for t in things] == ["game", "company", "tournament"]
    made = [p.response.headers["Location"].rsplit("/", 1)[-1] for p in (game, company, cup)]
    kinds = [Clubs(store).thing_by_token(tok) for tok in made]
    assert [(k[0], k[1]) for k in kinds if k] == [(t.kind, t.thing_id) for t in things]
    page = web.get(f"/kv/{Clubs(store).get(token).view_token}")
    assert re.search(r'<section class="club-companies".*?Пятницы</a>', page.html, flags=re.S)


def test_a_link_that_cannot_write_to_the_club_starts_nothing(web: Web, store: Store) -> None:
    token = new_club(web)
    view = Clubs(store).get(token).view_token
    page = web.get(f"/company/new?club={view}")
    assert "It will belong to the club" not in page.text()
    before = count(store, "companies")
    sent = web.submit(page, page.form("new-company").set(name="Пятницы", roster=ROSTER))
    assert sent.status == 403
    page = web.get("/company/new?club=no-such-club")
    sent = web.submit(page, page.form("new-company").set(name="Пятницы", roster=ROSTER))
    assert sent.status == 404
    assert count(store, "companies") == before and Clubs(store).get(token).things == []


def test_the_latest_events_name_the_players_results_and_a_tournaments_winners(
    web: Web, store: Store
) -> None:
    from .test_club_season_file import a_club

    token = a_club(web, store)
    page = web.get(f"/kv/{Clubs(store).get(token).view_token}")
    block = re.search(r'<section class="club-latest".*?</section>', page.html, flags=re.S)
    assert block
    items = re.findall(r"<li>(.*?)</li>", block.group(0), flags=re.S)
    assert len(items) == 5  # two games, a friendly one, an evening, a tournament
    assert sum("Winners:" in i for i in items) == 1 and sum("Friendly" in i for i in items) == 1
    results = [re.findall(r'<b class="num">([^<]+)</b>', i) for i in items if "Winners" not in i]
    for shown in results:
        values = [float(v.replace("−", "-").replace(",", "")) for v in shown]
        assert len(values) == 3 and values == sorted(values, reverse=True)
        assert abs(sum(values)) < 0.02  # a game's results sum to zero


def test_the_bad_input_of_issue_48_not_tested_elsewhere(web: Web, store: Store) -> None:
    rng = random.Random(50)
    token = new_club(web)
    game = stored_game(store, rng, ["Анна", "Борис", "Вера"])
    assert post(web, token, "attach", link="https://x/g/nothing-has-this-link") == (
        400,
        ["No game, company or tournament has this link."],
    )
    assert post(web, token, "attach", link=game.edit_token)[0] == 302
    assert post(web, token, "attach", link=game.edit_token) == (400, ["This is already in a club."])
    thing = Clubs(store).get(token).things[0].id
    tomorrow = (datetime.date.today() + datetime.timedelta(days=1)).isoformat()
    status, problems = post(web, token, "mark", thing=str(thing), played_on=tomorrow)
    assert (status, problems) == (400, ["This date is in the future."])
    page = Page(
        web.client.post(
            f"/k/{token}/mark",
            data={"thing": str(thing), "played_on": tomorrow, **csrf(web, token)},
        ),
        "",
    )
    assert f'id="played_on-{thing}-errors"' in page.html  # next to the thing's date field
    assert post(web, token, "player", player=" ") == (400, ["Write a name of 1 to 60 characters."])
    assert post(web, token, "season", season="A", first="2025-03-01", last="2025-02-01") == (
        400,
        ["The season ends before it starts."],
    )
    club = Clubs(store).get(token)
    assert (club.things[0].played_on, club.players, club.seasons) == (None, [], [])
    company = Companies(store).create(name="Пятницы", convention="sochi", options={}, roster=[])
    other = new_club(web, "Другой")
    assert post(web, other, "attach", link=company.edit_token)[0] == 302
    assert post(web, token, "attach", link=company.view_token) == (
        400,
        ["This is a read-only link: paste the edit link."],
    )
    assert post(web, token, "attach", link=company.edit_token) == (
        400,
        ["This is already in a club."],
    )
    assert [t.kind for t in Clubs(store).get(token).things] == ["game"]


def csrf(web: Web, token: str) -> dict[str, str]:
    """The director's page's form token."""
    value = web.get(f"/k/{token}").form(f"/k/{token}/mark").value("csrf_token")
    return {"csrf_token": value or ""}
