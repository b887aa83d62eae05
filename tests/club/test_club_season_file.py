"""The club's downloaded season file (season.md §6.1) read back by `scorekeeper season`'s
computation gives exactly what the club page shows: the standings, the rating log, the
statistics and the tournaments, a tournament written as one tournament event."""

from __future__ import annotations

import html as html_module
import json
import random
import re
from fractions import Fraction
from typing import Any

from scorekeeper.club.season import build
from scorekeeper.season import file as season_file
from scorekeeper.season.compute import report
from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs
from scorekeeper.store.companies import Companies
from scorekeeper.tournament import service as tournaments
from scorekeeper.tournament.sample import random_tournament

from ..club_sample import stored_game
from ..flows import new_club, post
from ..harness import Web
from .helpers import as_rows

CUP = ["Анна", "Борис", "Вера", "Глеб", "Дима", "Ефим"]


def rows(html: str, section: str) -> list[list[str]]:
    """The text of each body row's cells in a section of the page (by its class)."""
    found = re.search(rf'<section class="{section}".*?</section>', html, flags=re.S)
    assert found, section
    out = []
    for body in re.findall(r"<tbody>(.*?)</tbody>", found.group(0), flags=re.S):
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S):
            cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
            text = [re.sub(r"<br>.*", "", c, flags=re.S) for c in cells]
            out.append([html_module.unescape(re.sub(r"<[^>]+>", "", t)).strip() for t in text])
    return [r for r in out if r]


def hundredths(value: str) -> str:
    """A number of the season file as an English page writes it: to hundredths, its minus
    the typographic one (−)."""
    exact = Fraction(value)
    shown = str(exact.numerator) if exact.denominator == 1 else f"{float(exact):.2f}"
    return shown.replace("-", "−")


def a_cup(store: Store) -> Any:
    """A finished tournament of two tours, its roster the club's names."""
    data = random_tournament(
        random.Random(21), players=6, tours=2, table_size=3, round_limit=1, convention="sochi"
    )
    text = json.dumps(data, ensure_ascii=False)
    for n, name in enumerate(CUP):
        text = text.replace(f'"P{n}"', json.dumps(name, ensure_ascii=False))
    return tournaments.import_file(store, json.loads(text))


def a_club(web: Web, store: Store) -> str:
    """A club holding two games, a friendly one, a company's evening and a tournament."""
    rng = random.Random(48)
    token = new_club(web)
    plain = [stored_game(store, rng, names, deals=10) for names in (CUP[:3], CUP[1:4])]
    friendly = stored_game(store, rng, ["Анна", "Глеб", "Дима"], deals=10)
    evening = stored_game(store, rng, ["Вера", "Дима", "Ефим"], deals=10)
    fridays = Companies(store).create(
        name="Пятницы", convention="sochi", options={}, roster=["Вера", "Дима", "Ефим"]
    )
    ids = {p.name: p.id for p in fridays.roster}
    Companies(store).attach(fridays.edit_token, evening.id, ids)
    cup = a_cup(store)
    for link in [g.edit_token for g in (*plain, friendly)] + [fridays.edit_token, cup.edit_token]:
        assert post(web, token, "attach", link=link)[0] == 302
    thing = Clubs(store).get(token).things[2].id
    assert post(web, token, "mark", thing=str(thing), friendly="1", played_on="")[0] == 302
    for name in ("Анна", "Глеб"):
        assert post(web, token, "player", player=name)[0] == 302
    return token


def test_the_season_file_holds_the_tournament_and_gives_the_page_back(
    web: Web, store: Store
) -> None:
    token = a_club(web, store)
    club = Clubs(store).get(token)
    file = json.loads(web.get(f"/kv/{club.view_token}/season.json").response.get_data())
    kinds = [
        ("tournament" in e, e.get("friendly", False), e.get("company")) for e in file["events"]
    ]
    assert sorted(kinds, key=str) == sorted(
        [(False, False, None)] * 2
        + [(False, True, None), (False, False, "Пятницы"), (True, False, None)],
        key=str,
    )
    cup = next(e["tournament"] for e in file["events"] if "tournament" in e)
    assert cup["format"] == "scorekeeper-tournament/1" and len(cup["tours"]) == 2
    read = report(season_file.parse(file))
    shown = build(store, club).report()
    for key in ("players", "standings", "rating_log", "statistics", "head_to_head", "tournaments"):
        assert read[key] == shown[key], key
    assert read == shown
    tours = {line["tour"] for line in read["rating_log"] if "event" in line}
    assert tours == {None, 1, 2}  # the games' lines, and the tournament's by tour
    page = web.get(f"/kv/{club.view_token}?period=season&sort=games").html
    assert rows(page, "club-standings") == as_rows(read["standings"])
    stats = read["statistics"]["club"]
    assert {r[0]: r[1:] for r in rows(page, "club-statistics")} == {
        name: [
            hundredths(str(s[c]))
            for c in ("games", "evenings", "deals", "net", "net_per_deal", "wins", "plus", "minus")
        ]
        for name, s in stats.items()
    }
    (t,) = read["tournaments"]
    assert rows(page, "club-tournaments") == [
        [
            str(s["place"]),
            s["player"],
            hundredths(s["points"]),
            hundredths(s["whists"]),
            str(s["tours"]),
        ]
        for s in t["standings"]
    ]
