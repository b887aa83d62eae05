"""Browser tier: a club's page on a 375 × 667 phone — its rating standings (the provisional
players below, "1 of 7 games") and its statistics fit the screen, wide tables scroll in their
own box; the director's page too."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper import club as service
from scorekeeper.store import Store
from scorekeeper.store.companies import Companies
from scorekeeper.tournament.sample import random_tournament
from scorekeeper.tournament.service import import_file

from ..browser import no_overflow, shot, sticking_out
from ..club_sample import stored_game

pytestmark = pytest.mark.browser

ROSTER = ["Анна", "Борис", "Вера", "Глеб", "Дмитрий Константинович"]


def served_club(server: Any) -> tuple[str, str]:
    """A club of five players and six finished games, a company with an evening and a
    finished tournament, put straight into the served database; its read-only and edit
    tokens."""
    rng = random.Random(9)
    with Store(server.db) as store:
        club = service.new_club(store, "Клуб «Пуля»")
        for n in range(6):
            game = stored_game(store, rng, [ROSTER[(n + k) % 5] for k in range(3)], deals=12)
            service.attach_link(store, club.edit_token, game.edit_token)
        evening = stored_game(store, rng, ROSTER[:3], deals=12)
        company = Companies(store).create(
            name="Пятничная компания", convention="sochi", options={}, roster=ROSTER[:3]
        )
        Companies(store).attach(
            company.edit_token, evening.id, {p.name: p.id for p in company.roster}
        )
        service.attach_link(store, club.edit_token, company.edit_token)
        cup = random_tournament(rng, players=6, tours=2, table_size=3, round_limit=1)
        cup["name"] = "Кубок осени имени Дмитрия Константиновича"
        service.attach_link(store, club.edit_token, import_file(store, cup).edit_token)
        for name in ("Анна", "Дима"):
            service.add_player(store, club.edit_token, name)
        service.add_season(store, club.edit_token, "Сезон 2026/27", "2026-01-01", "2027-05-31")
        return club.view_token, club.edit_token


def test_the_club_page_fits_a_phone(real_server: Any, phone: Any) -> None:
    page, url, problems = phone
    token, edit = served_club(real_server)
    page.goto(f"{url}/kv/{token}")
    page.wait_for_selector("table.standings")
    shot(page, "club-page")
    no_overflow(page)
    assert sticking_out(page) == []
    rows = page.locator("table.standings tbody tr").all_inner_texts()
    assert any("Дмитрий Константинович" in row for row in rows)
    assert any("of 7 games" in row for row in rows)
    assert page.locator("table.statistics tbody tr").count() == 11  # the cup's six too
    assert page.locator(".club-latest li").count() == 8  # six games, an evening, a cup
    assert page.locator(".club-tournaments table.standings tbody tr").count() == 6
    page.goto(f"{url}/k/{edit}")
    page.wait_for_selector("#director")
    shot(page, "club-director")
    no_overflow(page)
    assert sticking_out(page) == []
    assert problems == []


def test_the_standings_with_categories_fit_a_phone_without_scrolling(
    real_server: Any, phone: Any
) -> None:
    """docs/season.md "The rating": established players show their category beside their
    rating; the standings, a long name and the Russian "Категория" heading included, still fit
    a 375 px phone without scrolling sideways in their box."""
    page, url, problems = phone
    rng = random.Random(12)
    names = ["Дмитрий Константинович", "Анна", "Борис"]
    with Store(real_server.db) as store:
        club = service.new_club(store, "Клуб «Пуля»")
        for _ in range(8):
            game = stored_game(store, rng, names, deals=12)
            service.attach_link(store, club.edit_token, game.edit_token)
        game = stored_game(store, rng, ["Глеб", "Анна", "Борис"], deals=12)
        service.attach_link(store, club.edit_token, game.edit_token)
    page.goto(f"{url}/kv/{club.view_token}?lang=ru")
    page.wait_for_selector("table.standings")
    shot(page, "club-standings-categories")
    no_overflow(page)
    assert page.locator("table.standings thead abbr").get_attribute("title") == "Категория"
    cells = page.locator("table.standings tbody tr:first-child td").all_inner_texts()
    assert cells[0] == "1" and cells[3].strip().isdigit()
    wide = page.evaluate(
        """() => { const box = document.querySelector('.club-standings .scroll');
                   return [box.scrollWidth, box.clientWidth]; }"""
    )
    assert wide[0] <= wide[1], wide
    assert problems == []
