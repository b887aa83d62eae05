"""Scoring tables: a deal in game-file notation → the entries it writes (docs/rules.md §4, §9).

Entries are written compactly: "A pool 2", "A hill 8", "B>A 28" (B writes 28 whists on A).
"""

from __future__ import annotations

from typing import Any

import pytest

from ..helpers import allpass, contract, misere, sheet_of

P4 = ["A", "B", "C", "D"]


def written(deals: list[dict[str, Any]], **kw: Any) -> list[str]:
    """What the last deal wrote, summed per cell, in compact notation, sorted."""
    sheet = sheet_of(deals, **kw)
    cells: dict[str, Any] = {}
    for e in sheet.results[-1].entries:
        key = f"{e.player}>{e.on}" if e.column == "whists" else f"{e.player} {e.column}"
        cells[key] = cells.get(key, 0) + e.amount
    return sorted(f"{k} {v}" for k, v in cells.items() if v != 0)


W, P, H = "whist", "pass", "half-whist"


@pytest.mark.parametrize(
    ("name", "deal", "convention", "options", "expected"),
    [
        # §4.1 both pass
        (
            "sochi_both_pass_writes_pool_only",
            contract("A", "8H", {"B": P, "C": P}),
            "sochi",
            {},
            ["A pool 6"],
        ),
        # §4.2 half-whist
        (
            "sochi_half_whist_six",
            contract("A", "6S", {"B": P, "C": H}),
            "sochi",
            {},
            ["A pool 2", "C>A 4"],
        ),
        (
            "sochi_half_whist_seven",
            contract("A", "7D", {"B": P, "C": H}),
            "sochi",
            {},
            ["A pool 4", "C>A 4"],
        ),
        (
            "leningrad_half_whist_scaled",
            contract("A", "7D", {"B": P, "C": H}),
            "leningrad",
            {},
            ["A pool 4", "C>A 8"],
        ),
        # §4.3 made, two whisters, each for his own tricks
        (
            "sochi_made_two_whisters",
            contract("A", "6C", {"B": W, "C": W}, {"A": 6, "B": 2, "C": 2}),
            "sochi",
            {},
            ["A pool 2", "B>A 4", "C>A 4"],
        ),
        (
            "leningrad_made_two_whisters_scale_2",
            contract("A", "6C", {"B": W, "C": W}, {"A": 6, "B": 2, "C": 2}),
            "leningrad",
            {},
            ["A pool 2", "B>A 8", "C>A 8"],
        ),
        # greedy: the whister writes for the passer's tricks too
        (
            "sochi_greedy_made",
            contract("A", "6C", {"B": P, "C": W}, {"A": 6, "C": 3}),
            "sochi",
            {},
            ["A pool 2", "C>A 8"],
        ),
        # gentleman_on_remise is greedy on a made contract
        (
            "leningrad_gentleman_on_remise_made_is_greedy",
            contract("A", "6C", {"B": P, "C": W}, {"A": 6}),
            "leningrad",
            {},
            ["A pool 2", "C>A 16"],
        ),
        (
            "gentleman_always_splits",
            contract("A", "6C", {"B": P, "C": W}, {"A": 6}),
            "sochi",
            {"whist_split": "gentleman"},
            ["A pool 2", "B>A 4", "C>A 4"],
        ),
        # §4.3 failed, two whisters: consolation from each, trick whists each own
        (
            "sochi_remise_two_whisters",
            contract("A", "8S", {"B": W, "C": W}, {"A": 6, "B": 1, "C": 3}),
            "sochi",
            {},
            ["A hill 12", "B>A 18", "C>A 30"],
        ),
        (
            "remise_scale_and_flat_consolation",
            contract("A", "8S", {"B": W, "C": W}, {"A": 7, "B": 1, "C": 2}),
            "sochi",
            {"remise_scale": 2, "consolation": 5},
            ["A hill 12", "B>A 11", "C>A 17"],
        ),
        (
            "zero_consolation",
            contract("A", "6S", {"B": W, "C": P}, {"A": 5}),
            "sochi",
            {"consolation": 0},
            ["A hill 2", "B>A 10"],
        ),
        # §4.3 whister short of quota: one whister
        (
            "sochi_one_whister_short",
            contract("A", "6S", {"B": W, "C": P}, {"A": 8}),
            "sochi",
            {},
            ["A pool 2", "B hill 4", "B>A 4"],
        ),
        (
            "rostov_one_whister_short_half_rate",
            contract("A", "7S", {"B": W, "C": P}, {"A": 9}),
            "rostov",
            {},
            ["A pool 4", "B hill 2", "B>A 4"],
        ),
        (
            "sochi_ten_whister_takes_nothing",
            contract("A", "10NT", {"B": W, "C": P}, {"A": 10}),
            "sochi",
            {},
            ["A pool 10", "B hill 10"],
        ),
        (
            "ten_checked_no_penalty",
            contract("A", "10NT", {"B": W, "C": P}, {"A": 10}),
            "sochi",
            {"ten_checked": True},
            ["A pool 10"],
        ),
        # two whisters on a six: Parlett's three examples
        (
            "six_side_4_with_3_plus_1_nobody_pays",
            contract("A", "6S", {"B": W, "C": W}, {"A": 6, "B": 3, "C": 1}),
            "sochi",
            {},
            ["A pool 2", "B>A 6", "C>A 2"],
        ),
        (
            "six_side_3_with_3_plus_0_the_empty_one_pays",
            contract("A", "6S", {"B": W, "C": W}, {"A": 7, "B": 3, "C": 0}),
            "sochi",
            {},
            ["A pool 2", "B>A 6", "C hill 2"],
        ),
        (
            "six_side_2_with_1_plus_1_each_pays_one",
            contract("A", "6S", {"B": W, "C": W}, {"A": 8, "B": 1, "C": 1}),
            "sochi",
            {},
            ["A pool 2", "B hill 2", "B>A 2", "C hill 2", "C>A 2"],
        ),
        (
            "seven_side_1_with_0_plus_1",
            contract("A", "7S", {"B": W, "C": W}, {"A": 9, "B": 0, "C": 1}),
            "sochi",
            {},
            ["A pool 4", "B hill 4", "C>A 4"],
        ),
        # two whisters on 8+: the second defender pays when the side took nothing
        (
            "eight_side_nothing_second_defender_pays",
            contract("A", "8S", {"B": W, "C": W}, {"A": 10, "B": 0, "C": 0}),
            "sochi",
            {},
            ["A pool 6", "C hill 6"],
        ),
        (
            "eight_second_defender_is_next_after_first_from_declarer",
            contract("B", "8S", {"C": W, "A": W}, {"B": 10, "C": 0, "A": 0}),
            "sochi",
            {},
            ["A hill 6", "B pool 6"],
        ),
        # personal quota: each for his own shortfall whatever the side took
        (
            "personal_quota_six",
            contract("A", "6S", {"B": W, "C": W}, {"A": 6, "B": 4, "C": 0}),
            "sochi",
            {"two_whister_quota": "personal"},
            ["A pool 2", "B>A 8", "C hill 4"],
        ),
        (
            "personal_quota_not_on_remise",
            contract("A", "6S", {"B": W, "C": W}, {"A": 5, "B": 5, "C": 0}),
            "sochi",
            {"two_whister_quota": "personal"},
            ["A hill 2", "B>A 12", "C>A 2"],
        ),
        # §4.4 misère
        ("sochi_misere_made", misere("A", 0), "sochi", {}, ["A pool 10"]),
        ("sochi_misere_two_tricks", misere("A", 2), "sochi", {}, ["A hill 20"]),
        ("leningrad_misere_one_trick", misere("A", 1), "leningrad", {}, ["A hill 20"]),
        # §4.5 all-pass
        (
            "allpass_min_amnesty",
            allpass(A=1, B=3, C=6),
            "sochi",
            {"allpass_min_amnesty": True},
            ["B hill 2", "C hill 5"],
        ),
        (
            "allpass_min_amnesty_zero_still_gets_pool",
            allpass(A=0, B=3, C=7),
            "sochi",
            {"allpass_min_amnesty": True},
            ["A pool 1", "B hill 3", "C hill 7"],
        ),
        (
            "rostov_two_with_fewest_both_write",
            allpass(A=2, B=2, C=6),
            "rostov",
            {},
            ["A>C 30", "B>C 30"],
        ),
        (
            "allpass_mode_none_writes_nothing",
            allpass(A=2, B=2, C=6),
            "sochi",
            {"allpass_mode": "none"},
            [],
        ),
        (
            "leningrad_pool_bonus_converted",
            allpass(A=0, B=0, C=10),
            "leningrad",
            {},
            ["A pool 1", "B pool 1", "C hill 20"],
        ),
        (
            "hill_mode_pool_bonus_fraction",
            allpass(A=0, B=5, C=5),
            "sochi",
            {"pool_whists": 20},
            ["A pool 1/2", "B hill 5", "C hill 5"],
        ),
    ],
)
def test_three_players(name, deal, convention, options, expected):
    assert written([deal], convention=convention, options=options) == expected, name


def test_sochi_remise_dealer_consolation_off_four_players():
    deal = contract("A", "6S", {"B": W, "C": P}, {"A": 4, "B": 4, "C": 2})
    got = written([deal], players=P4, first_dealer="D", options={"dealer_consolation": False})
    assert got == ["A hill 4", "B>A 16", "C>A 4"]


def test_four_players_defenders_skip_the_dealer():
    # B deals: A declares, defenders are C (first) then D (second); C may not half-whist.
    deal = contract("A", "6S", {"C": P, "D": H})
    assert written([deal], players=P4, first_dealer="B") == ["A pool 2", "D>A 4"]


def test_four_players_allpass_dealer_writes_nothing():
    deal = allpass(A=2, B=3, C=5)
    assert written([deal], players=P4, first_dealer="D") == ["A hill 2", "B hill 3", "C hill 5"]


def test_allpass_progression_and_reset_by_contract():
    deals = [
        allpass(A=2, B=3, C=5),
        allpass(A=2, B=3, C=5),
        allpass(A=2, B=3, C=5),
        allpass(A=2, B=3, C=5),
    ]
    sheet = sheet_of(deals)
    assert [sheet.results[i].entries[0].amount for i in range(4)] == [2, 4, 6, 6]
    deals = deals[:2] + [contract("A", "6S", {"B": P, "C": P}), allpass(A=2, B=3, C=5)]
    sheet = sheet_of(deals)
    assert sheet.results[-1].entries[0].amount == 2


def test_correction_does_not_break_allpass_streak():
    correction = {"type": "correction", "reason": "x", "entries": [{"player": "A", "hill": 1}]}
    sheet = sheet_of([allpass(A=2, B=3, C=5), correction, allpass(A=2, B=3, C=5)])
    assert sheet.results[-1].entries[0].amount == 4


def test_leningrad_exit_after_allpass_refuses_a_six():
    from scorekeeper import gamefile
    from scorekeeper.rules import InvalidGame

    from ..helpers import game_file

    data = game_file(
        [allpass(A=2, B=3, C=5), contract("A", "6S", {"B": P, "C": P})], convention="leningrad"
    )
    with pytest.raises(InvalidGame) as caught:
        gamefile.load(data)
    assert "deal 2: after all-pass (1 in a row) the contract must be at least 7" in str(
        caught.value
    )
    data["deals"][1] = misere("A", 0)
    assert gamefile.load(data)


# §9 Hussar: no hill; remise and shortfall become whists at hill_whists per point.
@pytest.mark.parametrize(
    ("name", "deal", "expected"),
    [
        ("hussar_pass_writes_pool", contract("A", "6S", {"B": P}), ["A pool 2"]),
        (
            "hussar_made_alone_enough",
            contract("A", "6S", {"B": W}, {"A": 8}),
            ["A pool 2", "B>A 4"],
        ),
        (
            "hussar_made_alone_short",
            contract("A", "6S", {"B": W}, {"A": 9}),
            ["A pool 2", "A>B 20", "B>A 2"],
        ),
        (
            "hussar_with_talon_short",
            contract("A", "6S", {"B": "whist-talon"}, {"A": 7}),
            ["A pool 2", "A>B 20", "B>A 6"],
        ),
        (
            "hussar_seven_alone_quota_one",
            contract("A", "7S", {"B": W}, {"A": 10}),
            ["A pool 4", "A>B 40"],
        ),
        ("hussar_ten_checked", contract("A", "10S", {"B": W}, {"A": 10}), ["A pool 10"]),
        ("hussar_remise_goes_to_whister", contract("A", "7S", {"B": W}, {"A": 5}), ["B>A 100"]),
        ("hussar_misere_failed", misere("A", 1), ["B>A 100"]),
    ],
)
def test_hussar(name, deal, expected):
    assert written([deal], convention="hussar") == expected, name


def test_hussar_correction_hill_becomes_opponents_whists():
    correction = {
        "type": "correction",
        "reason": "renonce",
        "entries": [{"player": "A", "hill": 4}],
    }
    assert written([correction], convention="hussar") == ["B>A 40"]


def test_whists_mode_allpass_is_flat_whatever_the_progression():
    # §4.5 writes allpass_price × t_j for the whists mode, with no multiplier m.
    deals = [allpass(A=2, B=3, C=5), allpass(A=0, B=3, C=7)]
    sheet = sheet_of(deals, convention="rostov", options={"allpass_progression": [1, 2]})
    last = {(e.player, e.on): e.amount for e in sheet.results[-1].entries if e.column == "whists"}
    assert last == {("A", "B"): 15, ("A", "C"): 35}
    assert sheet.pool("A") == 1


def test_entries_are_numbered_among_their_kind_and_deals_dealt_counted():
    """People number a deal among the deals dealt at the table, a correction among the
    corrections: deal 3 comes after two deals and a correction, which is correction 1."""
    fix = {"type": "correction", "reason": "x", "entries": [{"player": "A", "hill": 1}]}
    sheet = sheet_of([allpass(A=4, B=3, C=3), fix, allpass(A=3, B=3, C=4), fix])
    assert [sheet.number_of(p) for p in range(4)] == [1, 1, 2, 2]
    assert (sheet.number_of(4), sheet.number_of(4, "correction")) == (3, 3)
    assert [sheet.dealt_by(n) for n in range(5)] == [0, 1, 1, 2, 2]
