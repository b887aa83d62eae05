"""A new season starts its ratings at 0 or carries the last ones over (season.md §1
"Seasons", §6.1 `start`): chosen on the director's page, used by the club page's standings,
written as `start` entries in the downloaded season file and read back by `scorekeeper
season`'s computation to the same numbers."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from typing import Any

from scorekeeper.club.season import build
from scorekeeper.season import file as season_file
from scorekeeper.season.compute import report
from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs

from ..club_sample import stored_game
from ..flows import new_club, post
from ..harness import Web
from .helpers import as_rows
from .test_club_season_file import rows

DAYS = ("2025-03-02", "2025-03-09", "2025-04-06", "2025-10-05", "2026-02-01")


def a_club(web: Web, store: Store) -> str:
    """Games in three seasons: 2025 spring, autumn 2025 (carried over), 2026 (from 0)."""
    rng = random.Random(49)
    token = new_club(web)
    for day in DAYS:
        game = stored_game(store, rng, ["Анна", "Борис", "Вера"], deals=12)
        assert post(web, token, "attach", link=game.edit_token)[0] == 302
        thing = Clubs(store).get(token).things[-1].id
        assert post(web, token, "mark", thing=str(thing), played_on=day)[0] == 302
    for name in ("Анна", "Борис"):
        assert post(web, token, "player", player=name)[0] == 302
    for name, first, last, carry in (
        ("Весна", "2025-01-01", "2025-06-30", "0"),
        ("Осень", "2025-09-01", "2025-12-31", "1"),
        ("2026", "2026-01-01", "2026-12-31", "0"),
    ):
        assert (
            post(web, token, "season", season=name, first=first, last=last, carry=carry)[0] == 302
        )
    return token


def season_of(web: Web, store: Store, token: str, name: str) -> tuple[str, dict[str, Any]]:
    """A season's page (the read-only link) and its downloaded file."""
    club = Clubs(store).get(token)
    sid = next(s.id for s in club.seasons if s.name == name)
    page = web.get(f"/kv/{club.view_token}?season={sid}").html
    file = web.get(f"/kv/{club.view_token}/season.json?season={sid}").response.get_data()
    return page, json.loads(file)


def shown_standings(page: str) -> list[list[str]]:
    return rows(page, "club-standings")


def test_the_form_offers_both_choices(web: Web, store: Store) -> None:
    token = new_club(web)
    form = web.get(f"/k/{token}").form(f"/k/{token}/season")
    assert form.radios["carry"] == ["0", "1"] and form.value("carry") == "0"


def test_a_carried_season_starts_from_the_last_ratings(web: Web, store: Store) -> None:
    token = a_club(web, store)
    _, spring = season_of(web, store, token, "Весна")
    before = report(season_file.parse(spring))
    page, autumn = season_of(web, store, token, "Осень")
    ids = {p["name"]: p["id"] for p in autumn["players"]}
    last_after = {line["player"]: line["after"] for line in before["rating_log"]}
    spring_rows = {s["player"]: s for s in before["standings"]}
    assert autumn["start"] == [
        {
            "player": ids[name],
            "rating": last_after[name],
            "games": spring_rows[name]["games"],
            "deals": spring_rows[name]["deals"],
            "last_played": "2025-04-06",
        }
        for name in ("Анна", "Борис")  # Вера is not in the directory: no id to carry under
    ]
    read = report(season_file.parse(autumn))
    assert shown_standings(page) == as_rows(read["standings"])
    club = Clubs(store).get(token)
    sid = next(s.id for s in club.seasons if s.name == "Осень")
    assert read == build(store, club, sid).report()
    games = {s["player"]: s["games"] for s in read["standings"]}
    assert games == {"Анна": 4, "Борис": 4, "Вера": 1}  # three carried over, one this season
    first = next(line for line in read["rating_log"] if line["player"] == "Анна")
    carried = first.get("before", first["after"])  # a decay on 1 October comes first when > 10
    assert carried in (last_after["Анна"], str(Decimal(last_after["Анна"]) - 10))


def test_a_season_from_zero_carries_nothing(web: Web, store: Store) -> None:
    token = a_club(web, store)
    page, file = season_of(web, store, token, "2026")
    assert file["start"] == []
    read = report(season_file.parse(file))
    assert shown_standings(page) == as_rows(read["standings"])
    assert {s["player"]: s["games"] for s in read["standings"]} == dict.fromkeys(
        ("Анна", "Борис", "Вера"), 1
    )
    assert all(line["before"] == "0.00" for line in read["rating_log"] if "before" in line)


def test_carrying_over_with_no_season_before_is_refused(web: Web, store: Store) -> None:
    token = a_club(web, store)
    status, problems = post(
        web, token, "season", season="Старый", first="2024-01-01", last="2024-06-30", carry="1"
    )
    assert (status, problems) == (
        400,
        ["No season ends before this one: there is no rating to carry over."],
    )
    assert [s.name for s in Clubs(store).get(token).seasons] == ["Весна", "Осень", "2026"]


def test_a_carried_season_on_both_engines(store_location: str, catalogues: None) -> None:
    """The choice is kept and read back alike on SQLite and PostgreSQL."""
    from scorekeeper.web import create_app

    app = create_app({"TESTING": True, "DATABASE": store_location, "SECRET_KEY": "s"})
    web = Web(app.test_client())
    with Store(store_location) as store:
        token = a_club(web, store)
        assert [s.carry for s in Clubs(store).get(token).seasons] == [False, True, False]
        page, autumn = season_of(web, store, token, "Осень")
    assert [s["player"] for s in autumn["start"]] == [p["id"] for p in autumn["players"]]
    assert shown_standings(page) == as_rows(report(season_file.parse(autumn))["standings"])
