"""The company's numbers are sums of its games' settlements, exactly (docs/rules.md §6)."""

from __future__ import annotations

import dataclasses
import datetime
import random
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import gamefile
from scorekeeper.rules import score, settle
from scorekeeper.rules.company import (
    Evening,
    PaymentMade,
    Standing,
    balance,
    evening,
    in_period,
    merge_figures,
    net_after_each_deal,
    play_figures,
    running,
    settle_up,
    standings,
)
from scorekeeper.sample import random_game, random_options

from ..helpers import allpass, contract, misere, sheet_of

ROSTER = ("p1", "p2", "p3", "p4", "p5")
DAY0 = datetime.date(2026, 1, 1)


def a_company(seed: int, games: int) -> list[tuple[dict, dict[str, str], datetime.date]]:
    """Random finished games, each seated from the roster under (possibly) other names."""
    rng = random.Random(seed)
    out = []
    for i in range(games):
        data = random_game(rng, rng.randint(0, 25))
        data["finished"] = True
        ids = rng.sample(ROSTER, len(data["players"]))
        out.append(
            (data, dict(zip(data["players"], ids, strict=True)), DAY0 + datetime.timedelta(i * 9))
        )
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 8))
def test_standings_and_balance_are_the_sums_of_the_settlements(seed, count):
    company = a_company(seed, count)
    expected_net = {p: Fraction(0) for p in ROSTER}
    expected_money = {p: Decimal(0) for p in ROSTER}
    expected_evenings = dict.fromkeys(ROSTER, 0)
    evenings = []
    for i, (data, roster, day) in enumerate(company):
        sheet = score(gamefile.load(data))
        result = settle(sheet)
        for name, pid in roster.items():
            expected_net[pid] += result.net[name]
            expected_money[pid] += result.money[name]
            expected_evenings[pid] += 1
        evenings.append(evening(str(i), day, sheet, roster))
    table = {s.player: s for s in standings(evenings, ROSTER)}
    assert {p: table[p].net for p in ROSTER} == expected_net
    assert {p: table[p].money for p in ROSTER} == expected_money
    assert {p: table[p].evenings for p in ROSTER} == expected_evenings
    assert sum(s.net for s in table.values()) == 0
    owed = balance(evenings, [], ROSTER)
    assert owed == expected_money
    assert sum(owed.values()) == 0
    transfers = settle_up(owed, ROSTER)
    assert len(transfers) <= len(ROSTER) - 1
    paid = [PaymentMade(t.payer, t.payee, t.amount, DAY0) for t in transfers]
    assert all(v == 0 for v in balance(evenings, paid, ROSTER).values())
    if evenings:
        assert running(evenings, ROSTER)[-1] == expected_money


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(1, 5000))
def test_a_payment_moves_its_amount_and_nothing_else(seed, count, cents):
    company = a_company(seed, count)
    evenings = [
        evening(str(i), day, score(gamefile.load(data)), roster)
        for i, (data, roster, day) in enumerate(company)
    ]
    before_table = standings(evenings, ROSTER)
    before = balance(evenings, [], ROSTER)
    amount = Decimal(cents).scaleb(-2)
    after = balance(evenings, [PaymentMade("p2", "p4", amount, DAY0, "0")], ROSTER)
    assert after["p2"] == before["p2"] + amount
    assert after["p4"] == before["p4"] - amount
    assert {p: after[p] for p in ("p1", "p3", "p5")} == {p: before[p] for p in ("p1", "p3", "p5")}
    assert standings(evenings, ROSTER) == before_table  # the standings do not move


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 30), st.sampled_from((3, 4, 5)))
def test_chart_points_are_the_settlements_after_each_deal(seed, length, players):
    # Every house rule varied (newer ones too), three to five players or Hussar's two.
    rng = random.Random(seed)
    convention = rng.choice(("sochi", "leningrad", "rostov", "hussar"))
    options = random_options(rng, convention, newer=True)
    data = random_game(rng, length, convention=convention, players=players, options=options)
    game = gamefile.load(data)
    sheet = score(game)
    points = net_after_each_deal(sheet)
    assert len(points) == len(game.deals) + 1
    for k, point in enumerate(points):
        shorter = score(dataclasses.replace(game, deals=game.deals[:k], finished=False))
        assert point == settle(shorter).net
    assert points[0] == dict.fromkeys(game.players, 0)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30))
def test_chart_points_run_on_from_the_points_before_the_last_deal(seed, length):
    game = gamefile.load(random_game(random.Random(seed), length))
    assert game.deals
    before = net_after_each_deal(score(dataclasses.replace(game, deals=game.deals[:-1])))
    sheet = score(game)
    assert net_after_each_deal(sheet, before) == net_after_each_deal(sheet)


def test_a_period_keeps_the_evenings_on_its_days():
    sheet = sheet_of([contract("A", "6S", {"B": "pass", "C": "pass"})])
    ids = {"A": "p1", "B": "p2", "C": "p3"}
    days = [datetime.date(2026, 1, 31), datetime.date(2026, 2, 1), datetime.date(2026, 3, 1)]
    evenings = [evening(str(i), d, sheet, ids) for i, d in enumerate(days)]
    feb = in_period(evenings, datetime.date(2026, 2, 1), datetime.date(2026, 2, 28))
    assert [e.key for e in feb] == ["1"]
    assert [e.key for e in in_period(evenings, None, None)] == ["0", "1", "2"]
    # both ends included: an evening on the first or the last day of the period is in it
    both = in_period(evenings, datetime.date(2026, 1, 31), datetime.date(2026, 2, 1))
    assert [e.key for e in both] == ["0", "1"]


def test_winner_of_an_evening_is_the_largest_net_above_zero():
    sheet = sheet_of([contract("A", "6S", {"B": "pass", "C": "pass"})])
    e = evening("1", DAY0, sheet, {"A": "p1", "B": "p2", "C": "p3"})
    assert e.winners == ("p1",)
    empty = evening("2", DAY0, sheet_of([]), {"A": "p1", "B": "p2", "C": "p3"})
    assert empty.winners == ()
    rows = {s.player: s for s in standings([e, empty], ("p1", "p2", "p3"))}
    assert (rows["p1"].wins, rows["p1"].evenings) == (1, 2)
    assert rows["p1"].average == rows["p1"].net / 2


def test_play_figures_count_contracts_remises_miseres_whists_and_allpass_tricks():
    sheet = sheet_of(
        [
            contract("A", "7S", {"B": "whist", "C": "pass"}, {"A": 5, "B": 3, "C": 2}),
            contract("B", "6H", {"C": "pass", "A": "pass"}),
            misere("C", 0),
            allpass(A=2, B=3, C=5),
            contract("A", "6C", {"B": "whist", "C": "whist"}, {"A": 6, "B": 2, "C": 2}),
        ]
    )
    ids = {"A": "a", "B": "b", "C": "c"}
    figures = play_figures([(sheet, ids), (sheet, ids)], ("a", "b", "c"))
    a, b, c = figures["a"], figures["b"], figures["c"]
    assert (a.declared, a.made, a.remises) == (4, 2, 2)
    assert a.made_share == Fraction(1, 2)
    assert (b.declared, b.made, b.remises, b.whists) == (2, 2, 0, 4)
    assert (c.miseres, c.miseres_made, c.whists) == (2, 2, 2)
    assert (a.allpass_tricks, b.allpass_tricks, c.allpass_tricks) == (4, 6, 10)
    assert a.deals == 10


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5))
def test_figures_summed_game_by_game_are_the_figures_of_all_games(seed, count):
    company = a_company(seed, count)
    sheets = [(score(gamefile.load(data)), roster) for data, roster, _ in company]
    whole = play_figures(sheets, ROSTER)
    parts = [
        (play_figures([(sheet, {n: n for n in sheet.players})], sheet.players), roster)
        for sheet, roster in sheets
    ]
    assert merge_figures(parts, ROSTER) == whole


def test_a_winner_ahead_by_a_fraction_of_a_whist_is_a_winner():
    """Nets are exact: an evening won by 2/3 of a whist still has its winner, and a tie at
    the top shares the win."""
    money = {"p1": Decimal("0.02"), "p2": Decimal("-0.01"), "p3": Decimal("-0.01")}
    thin = Evening(
        "t", DAY0, ("p1", "p2", "p3"),
        {"p1": Fraction(2, 3), "p2": Fraction(-1, 3), "p3": Fraction(-1, 3)}, money,
    )  # fmt: skip
    assert thin.winners == ("p1",)
    tie = Evening(
        "u", DAY0, ("p1", "p2", "p3"),
        {"p1": Fraction(1, 2), "p2": Fraction(1, 2), "p3": Fraction(-1)}, money,
    )  # fmt: skip
    assert tie.winners == ("p1", "p2")


def test_averages_are_per_evening_played_and_zero_without_one():
    """The standings' averages divide what a player won by the evenings he played, exactly;
    a player who has played none averages 0, not a division by zero."""
    three = Standing("p1", evenings=3, net=Fraction(10), money=Decimal("7.50"))
    assert (three.average, three.average_money) == (Fraction(10, 3), Fraction(5, 2))
    none = Standing("p2")
    assert (none.average, none.average_money) == (0, 0)
