"""The club page's rating standings show each established player's category beside his
rating (docs/season.md "The rating": "**Categories**, for established players"; the
"Standings": the provisional players "without place nor category"), as the report and the
standings CSV have it, in the page's language."""

from __future__ import annotations

import html
import random
import re

import pytest

from scorekeeper.club.season import build
from scorekeeper.season.compute import report
from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs

from ..club_sample import stored_game
from ..flows import new_club, post
from ..harness import Web
from .helpers import page_rating

HEADERS = [  # the language, the column's heading, its title (the word in full)
    ("en", "Cat.", "Category"),
    ("ru", "Кат.", "Категория"),
    ("uk", "Кат.", "Категорія"),
    ("sr_Latn", "Kat.", "Kategorija"),
    ("sr_Cyrl", "Кат.", "Категорија"),
    ("hr", "Kat.", "Kategorija"),
]


def rows(page_html: str) -> list[list[str]]:
    """The cells of the standings' rows (the provisional heading row left out)."""
    table = re.search(r'<table class="standings">(.*?)</table>', page_html, re.S)
    assert table is not None
    out = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        out.append([html.unescape(re.sub(r"<[^>]+>", " ", c)).split() for c in cells])
    return [[" ".join(words) for words in row] for row in out if len(row) > 1]


@pytest.mark.parametrize(("lang", "short", "full"), HEADERS)
def test_established_players_show_their_category_the_provisional_none(
    web: Web, store: Store, lang: str, short: str, full: str
) -> None:
    """docs/season.md "The rating": eight games of Анна, Борис and Вера make them
    established, each with the category of his shown rating; Глеб, one game, is provisional:
    no place and no category."""
    rng = random.Random(11)
    token = new_club(web)
    for _ in range(8):
        game = stored_game(store, rng, ["Анна", "Борис", "Вера"], deals=12)
        assert post(web, token, "attach", link=game.edit_token)[0] == 302
    game = stored_game(store, rng, ["Глеб", "Анна", "Борис"], deals=12)
    assert post(web, token, "attach", link=game.edit_token)[0] == 302
    club = Clubs(store).get(token)
    standings = report(build(store, club).season)["standings"]
    page = web.get(f"/kv/{club.view_token}?lang={lang}").html
    shown = rows(page)
    assert shown[0][:5] == ["#", shown[0][1], shown[0][2], short, shown[0][4]]
    assert f'<abbr title="{full}">{short}</abbr>' in page  # the heading's word in full
    by_player = {row[1].split(" ")[0]: row for row in shown[1:]}
    established = [s for s in standings if not s["provisional"]]
    assert {s["player"] for s in established} == {"Анна", "Борис", "Вера"}
    for s in established:
        assert s["category"] is not None and 1 <= s["category"] <= 10
        assert by_player[s["player"]][2:4] == [page_rating(s["rating"], lang), str(s["category"])]
    assert by_player["Глеб"][0] == "" and by_player["Глеб"][3] == ""
