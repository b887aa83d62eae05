"""The paper's totals, settled (games.paper, /paper): a played game's final sheet typed in as
its totals gives that game's settlement, for every convention, 3-5 players, Hussar and house
rules; nothing is written unless the table saves it as a game."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from scorekeeper import gamefile, sample
from scorekeeper.games import paper
from scorekeeper.rules import replay
from scorekeeper.rules.settlement import settle
from scorekeeper.store import Store

from ..harness import Web

HIDDEN = [
    ("sochi", 3, {}),
    ("sochi", 4, {"stake": "0.25", "hill_divisor": "opponents"}),
    ("leningrad", 3, {}),
    ("leningrad", 5, {}),
    ("rostov", 4, {}),
    ("hussar", 2, {}),
]


def _typed(value: Fraction) -> str:
    """An amount as a table types it: 12, -4, 2.5, or 1/3."""
    return str(value) if value.denominator != 1 else str(value.numerator)


@pytest.mark.parametrize(("convention", "players", "house"), HIDDEN)
@pytest.mark.parametrize("seed", [3, 11])
def test_a_games_final_sheet_typed_in_settles_as_the_game(
    convention: str, players: int, house: dict[str, str], seed: int
) -> None:
    data = sample.random_game(
        random.Random(seed), 40, convention=convention, players=players, options=house
    )
    game = gamefile.load(data)
    sheet = replay(game)[0]
    totals: dict[str, str] = {}
    for i, p in enumerate(sheet.players):
        totals[f"pool_{i}"] = _typed(sheet.pool(p))
        totals[f"hill_{i}"] = _typed(sheet.hill(p))
        for j, q in enumerate(sheet.players):
            if q != p:
                totals[f"whists_{i}_{j}"] = _typed(sheet.whists(p, q))
    typed = paper.totals_game(
        name="paper",
        reason="The paper's totals",
        convention=convention,
        overrides=game.options.to_json(),
        seats=list(sheet.players),
        totals=totals,
    )
    got, expected = paper.settled(typed), settle(sheet)
    assert got.amnesty == expected.amnesty
    assert got.net == expected.net and sum(got.net.values()) == 0
    assert got.money == expected.money
    assert got.payments == expected.payments


def test_a_bad_amount_is_said_at_its_field_and_nothing_is_read() -> None:
    with pytest.raises(paper.NotCreated) as refused:
        paper.totals_game(
            name="x",
            reason="paper",
            convention="sochi",
            overrides={},
            seats=["Anna", "Boris", "Vera"],
            totals={"pool_0": "ten", "whists_1_2": "1e5", "hill_2": "4"},
        )
    assert sorted(p.field for p in refused.value.problems) == ["pool_0", "whists_1_2"]


def test_the_page_settles_writes_nothing_and_saves_only_when_asked(web: Web, store: Store) -> None:
    home = web.get("/")
    assert 'href="/paper"' in home.html
    page = web.get("/paper")
    form = page.form("new-game")
    fields = {"player_0": "Anna", "player_1": "Boris", "player_2": "Vera"}
    fields |= {"pool_0": "10", "hill_1": "12", "whists_0_1": "30", "whists_2_0": "4"}
    settled = web.submit(page, form.set(**fields), button=("action", "settle"))
    assert settled.status == 200, settled.text()[:600]
    said = settled.text()
    assert "Who pays whom" in said and "Amnesty" in said
    assert store.engine.value("SELECT COUNT(*) FROM games") == 0  # written nowhere
    again = settled.form("new-game")
    saved = web.client.post("/paper", data={**again.data(), "action": ["save"]})
    assert saved.status_code == 302 and saved.location.startswith("/g/")
    game = store.get_game(saved.location.rsplit("/", 1)[-1])
    assert [d.data["type"] for d in game.deals] == ["correction"]
    bad = web.submit(page, page.form("new-game").set(**{**fields, "pool_0": "lots"}))
    assert bad.status == 422 and "Write an amount" in bad.text()
