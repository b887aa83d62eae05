"""Every worked example of docs/rules.md §8, with the numbers written out."""

from __future__ import annotations

import pytest

from scorekeeper.rules import settle

from ..helpers import F, allpass, contract, sheet_of

EXAMPLE_1 = [contract("A", "7S", {"B": "whist", "C": "pass"}, {"A": 5, "B": 3, "C": 2})]


@pytest.mark.parametrize(
    ("convention", "hill", "b_on_a", "c_on_a", "net"),
    [
        ("sochi", 8, 28, 8, ("-268/3", "164/3", "104/3")),
        ("leningrad", 16, 36, 36, ("-536/3", "268/3", "268/3")),
        ("rostov", 8, 30, 30, ("-340/3", "170/3", "170/3")),
    ],
)
def test_example_1_remise_with_one_whister(convention, hill, b_on_a, c_on_a, net):
    sheet = sheet_of(EXAMPLE_1, convention=convention)
    assert sheet.hill("A") == hill
    assert sheet.whists("B", "A") == b_on_a
    assert sheet.whists("C", "A") == c_on_a
    assert sheet.whists("A", "B") == sheet.whists("A", "C") == 0
    assert [sheet.pool(p) for p in "ABC"] == [0, 0, 0]
    result = settle(sheet)
    assert [result.net[p] for p in "ABC"] == [F(n) for n in net]


def test_example_2_leningrad_unwhisted_six():
    sheet = sheet_of([contract("A", "6S", {"B": "pass", "C": "pass"})], convention="leningrad")
    assert sheet.pool("A") == 2
    result = settle(sheet)
    assert result.net == {"A": F("80/3"), "B": F("-40/3"), "C": F("-40/3")}


@pytest.mark.parametrize(
    ("convention", "pools", "hills", "whists"),
    [
        ("sochi", (1, 0, 0), (0, 4, 6), {}),
        ("leningrad", (1, 0, 0), (0, 8, 12), {}),
        ("rostov", (1, 0, 0), (0, 0, 0), {("A", "B"): 20, ("A", "C"): 30}),
    ],
)
def test_example_3_first_allpass(convention, pools, hills, whists):
    sheet = sheet_of([allpass(A=0, B=4, C=6)], convention=convention)
    assert tuple(sheet.pool(p) for p in "ABC") == pools
    assert tuple(sheet.hill(p) for p in "ABC") == hills
    for i in "ABC":
        for j in "ABC":
            if i != j:
                assert sheet.whists(i, j) == whists.get((i, j), 0)


def test_example_4_four_players_gentleman_on_remise_with_dealer_consolation():
    sheet = sheet_of(
        [contract("A", "7S", {"B": "whist", "C": "pass"}, {"A": 5, "B": 3, "C": 2})],
        players=["A", "B", "C", "D"],
        first_dealer="D",
        options={"whist_split": "gentleman_on_remise"},
    )
    assert sheet.hill("A") == 8
    assert sheet.whists("B", "A") == 18
    assert sheet.whists("C", "A") == 18
    assert sheet.whists("D", "A") == 8
    assert settle(sheet).net == {"A": -104, "B": 38, "C": 38, "D": 28}


def test_example_5_overflow_helps_the_highest_open_pool_then_the_next():
    setup = {
        "type": "correction",
        "reason": "carried over",
        "entries": [
            {"player": "A", "pool": 8},
            {"player": "B", "pool": 4},
            {"player": "C", "pool": 6},
        ],
    }
    sheet = sheet_of([setup, contract("A", "9S", {"B": "pass", "C": "pass"})])
    assert [sheet.pool(p) for p in "ABC"] == [10, 6, 10]
    assert sheet.whists("A", "C") == 40
    assert sheet.whists("A", "B") == 20
    assert sheet.hill("A") == 0


def test_example_5_variant_everyone_closed_the_rest_comes_off_the_hill():
    setup = {
        "type": "correction",
        "reason": "carried over",
        "entries": [
            {"player": "A", "pool": 8},
            {"player": "B", "pool": 10},
            {"player": "C", "pool": 10},
        ],
    }
    sheet = sheet_of([setup, contract("A", "9S", {"B": "pass", "C": "pass"})])
    assert sheet.pool("A") == 10
    assert sheet.hill("A") == -6
    assert sheet.whists("A", "B") == sheet.whists("A", "C") == 0


def test_example_6_final_hills_settle_to_thirty_each_way():
    setup = {
        "type": "correction",
        "reason": "final hills",
        "entries": [
            {"player": "A", "pool": 10, "hill": 2},
            {"player": "B", "pool": 10, "hill": 5},
            {"player": "C", "pool": 10, "hill": 8},
        ],
    }
    sheet = sheet_of([setup])
    assert sheet.finished  # all pools closed: the Sochi end rule is met
    result = settle(sheet)
    assert result.net == {"A": 30, "B": 0, "C": -30}
    assert result.hill_after_amnesty == {"A": 0, "B": 3, "C": 6}
