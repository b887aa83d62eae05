"""A Balkan partija attached to a club (docs/season.md, "A Balkan game"): the club page
opens, the partija counts in the statistics and the rating with x = −its result (supe, the
lower-is-better result negated) over its deals, the constants of §4 unchanged, and the season
file carries it as a Balkan game file that `scorekeeper season` reads back to the same
numbers."""

from __future__ import annotations

import json
import random
from fractions import Fraction

from scorekeeper import gamefile_balkan, games
from scorekeeper.club.season import build
from scorekeeper.season import file as season_file
from scorekeeper.season.compute import report
from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs

from ..balkan.helpers import PETAK
from ..club_sample import stored_game
from ..flows import new_club, post
from ..harness import Web

NAMES = {"Ana": "Анна", "Boža": "Борис", "Ceca": "Вера"}


def petak(store: Store) -> str:
    """The Balkan partija of docs/balkan.md (4 deals, ended by a write-off), stored with the
    club's names; its edit token."""
    text = PETAK.read_text(encoding="utf-8")
    for old, new in NAMES.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return games.create_from_game(store, gamefile_balkan.loads_any(text)).edit_token


def test_a_balkan_partija_counts_with_its_supe_and_its_file_reads_back(
    web: Web, store: Store
) -> None:
    token = new_club(web)
    russian = stored_game(store, random.Random(51), ["Анна", "Борис", "Вера"], deals=10)
    for link in (russian.edit_token, petak(store)):
        assert post(web, token, "attach", link=link)[0] == 302
    club = Clubs(store).get(token)
    page = web.get(f"/kv/{club.view_token}")
    assert "Анна" in page.text()
    built = build(store, club)
    balkan_table = built.held[1].first.result
    assert balkan_table.deals == 4 and balkan_table.over and balkan_table.ratable
    net = dict(balkan_table.result)
    assert sum(net.values()) == 0 and all(v.denominator == 1 for v in net.values())
    for i, row in balkan_table.balance.items():
        assert sum(row.values(), Fraction(0)) == net[i]  # the pair balances add up to x
    shown = built.report()
    lines = [line for line in shown["rating_log"] if line.get("event") == 2]
    assert len(lines) == 3
    by_player = {line["player"]: line for line in lines}
    for name, x in net.items():
        line = by_player[name]
        assert (line["deals"], Fraction(line["result"])) == (4, x)
        before = {n: Fraction(by_player[n]["before"]) for n in net}
        others = [min(Fraction(200), max(Fraction(-200), before[o])) for o in net if o != name]
        assert Fraction(line["performance"]) == x * 20 / 4 + 2 * sum(others) / 2
    stats = shown["statistics"]["club"]
    assert {stats[n]["games"] for n in net} == {2}
    file = json.loads(web.get(f"/kv/{club.view_token}/season.json").response.get_data())
    assert file["events"][1]["game"]["family"] == "balkan"
    assert report(season_file.parse(file)) == shown
