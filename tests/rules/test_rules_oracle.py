"""Differential test: the engine against an independent scorer written from docs/rules.md alone.

`tests/oracle/independent.py` was written from docs/rules.md and docs/game-format.md without
reading the engine; its docstring lists the readings it chose where docs/rules.md leaves room.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import gamefile, report, rules
from scorekeeper.sample import random_game, random_options

from ..helpers import game
from ..oracle.independent import score_file

CONVENTIONS = ("sochi", "leningrad", "rostov", "hussar")


def engine(data: dict[str, Any]) -> dict[str, Any]:
    """What `scorekeeper score --settle` prints for this game file (but the rules it names,
    which the oracle does not repeat)."""
    out = report.score_report(rules.score(gamefile.load(data)), with_settlement=True)
    del out["rules"]
    return out


def contract(
    declarer: str, name: str, answers: dict[str, str], tricks: dict[str, int] | None = None
):
    deal: dict[str, Any] = {
        "type": "contract",
        "declarer": declarer,
        "contract": name,
        "answers": answers,
    }
    if tricks is not None:
        deal["tricks"] = tricks
    return deal


def allpass(**tricks: int) -> dict[str, Any]:
    return {"type": "allpass", "tricks": tricks}


def correction(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"type": "correction", "reason": "test", "entries": list(entries)}


def sheet_numbers(out: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, str]]]:
    return {p: (s["pool"], s["hill"], s["whists"]) for p, s in out["sheet"].items()}


# --- docs/rules.md §8, worked examples: the oracle against the numbers in the text ----------------

EXAMPLE_1 = [contract("A", "7S", {"B": "whist", "C": "pass"}, {"A": 5, "B": 3, "C": 2})]


@pytest.mark.parametrize(
    ("convention", "hill", "b_on_a", "c_on_a", "net"),
    [
        ("sochi", "8", "28", "8", {"A": "-268/3", "B": "164/3", "C": "104/3"}),
        ("leningrad", "16", "36", "36", {"A": "-536/3", "B": "268/3", "C": "268/3"}),
        ("rostov", "8", "30", "30", {"A": "-340/3", "B": "170/3", "C": "170/3"}),
    ],
)
def test_example_1_failed_seven(convention, hill, b_on_a, c_on_a, net):
    out = score_file(game(convention, EXAMPLE_1))
    assert out["sheet"]["A"]["hill"] == hill
    assert out["sheet"]["B"]["whists"]["A"] == b_on_a
    assert out["sheet"]["C"]["whists"]["A"] == c_on_a
    assert out["settlement"]["net"] == net


def test_example_2_leningrad_unwhisted_six():
    out = score_file(game("leningrad", [contract("A", "6S", {"B": "pass", "C": "pass"})]))
    assert out["sheet"]["A"]["pool"] == "2"
    assert out["settlement"]["net"] == {"A": "80/3", "B": "-40/3", "C": "-40/3"}


@pytest.mark.parametrize(
    ("convention", "expected"),
    [
        ("sochi", {"A": ("1", "0", {}), "B": ("0", "4", {}), "C": ("0", "6", {})}),
        ("leningrad", {"A": ("1", "0", {}), "B": ("0", "8", {}), "C": ("0", "12", {})}),
        (
            "rostov",
            {"A": ("1", "0", {"B": "20", "C": "30"}), "B": ("0", "0", {}), "C": ("0", "0", {})},
        ),
    ],
)
def test_example_3_first_allpass(convention, expected):
    out = score_file(game(convention, [allpass(A=0, B=4, C=6)]))
    for player, (pool, hill, whists) in expected.items():
        sheet = out["sheet"][player]
        assert (sheet["pool"], sheet["hill"]) == (pool, hill)
        assert {q: a for q, a in sheet["whists"].items() if a != "0"} == whists


def test_example_4_four_players_gentleman_on_remise():
    out = score_file(
        game(
            "sochi",
            [contract("A", "7S", {"B": "whist", "C": "pass"}, {"A": 5, "B": 3, "C": 2})],
            players=("A", "B", "C", "D"),
            options={"whist_split": "gentleman_on_remise"},
        )
    )
    assert out["sheet"]["A"]["hill"] == "8"
    assert [out["sheet"][p]["whists"]["A"] for p in "BCD"] == ["18", "18", "8"]
    assert out["settlement"]["net"] == {"A": "-104", "B": "38", "C": "38", "D": "28"}


def test_example_5_overflow_help():
    deals = [
        correction(
            {"player": "A", "pool": 8}, {"player": "B", "pool": 4}, {"player": "C", "pool": 6}
        ),
        contract("A", "9S", {"B": "pass", "C": "pass"}),
    ]
    out = score_file(game("sochi", deals))
    assert [out["sheet"][p]["pool"] for p in "ABC"] == ["10", "6", "10"]
    assert out["sheet"]["A"]["whists"] == {"B": "20", "C": "40"}


def test_example_6_hills_only():
    deals = [
        correction(
            *({"player": p, "pool": 10} for p in "ABC"),
            *({"player": p, "hill": h} for p, h in zip("ABC", (2, 5, 8), strict=True)),
        )
    ]
    out = score_file(game("sochi", deals))
    assert out["finished"] is True
    assert out["settlement"]["net"] == {"A": "30", "B": "0", "C": "-30"}
    assert out["settlement"]["payments"] == [{"from": "C", "to": "A", "amount": "30.00"}]


# --- the engine against the oracle -----------------------------------------------------------

FIXED_GAMES = {
    "example 1 sochi": game("sochi", EXAMPLE_1),
    "example 1 leningrad": game("leningrad", EXAMPLE_1),
    "example 1 rostov": game("rostov", EXAMPLE_1),
    "example 2": game("leningrad", [contract("A", "6S", {"B": "pass", "C": "pass"})]),
    "example 3 sochi": game("sochi", [allpass(A=0, B=4, C=6)]),
    "example 3 leningrad": game("leningrad", [allpass(A=0, B=4, C=6)]),
    "example 3 rostov": game("rostov", [allpass(A=0, B=4, C=6)]),
    "example 4": game(
        "sochi",
        EXAMPLE_1,
        players=("A", "B", "C", "D"),
        options={"whist_split": "gentleman_on_remise"},
    ),
    "example 5": game(
        "sochi",
        [
            correction(
                {"player": "A", "pool": 8}, {"player": "B", "pool": 4}, {"player": "C", "pool": 6}
            ),
            contract("A", "9S", {"B": "pass", "C": "pass"}),
        ],
    ),
    # §4.5 whists mode: "writes allpass_price × t_j whists" (no progression multiplier).
    "4.5 second all-pass in whists mode": game(
        "sochi",
        [allpass(A=2, B=3, C=5), allpass(A=0, B=3, C=7)],
        options={"allpass_mode": "whists"},
    ),
    # §4.3 two_whister_quota = personal: "pays for his own shortfall whatever the side took".
    "4.3 personal quota, side made its quota": game(
        "sochi",
        [contract("A", "6S", {"B": "whist", "C": "whist"}, {"A": 6, "B": 4, "C": 0})],
        options={"two_whister_quota": "personal"},
    ),
    # §9: a ten is only checked; a remainder of overflow comes off the (converted) hill.
    "9 Hussar ten and overflow": game(
        "hussar",
        [
            contract("A", "10S", {"B": "whist"}, {"A": 10}),
            correction({"player": "B", "pool": 9}),
            contract("B", "8S", {"A": "pass"}),
        ],
        players=("A", "B"),
        options={"overflow": "help", "end": "all_closed"},
    ),
}


@pytest.mark.parametrize("name", sorted(FIXED_GAMES))
def test_engine_matches_oracle_on_fixed_games(name):
    data = FIXED_GAMES[name]
    assert engine(data) == score_file(data)


WIDE_OPTIONS: dict[str, list[Any]] = {
    "whist_scale": [1, 2, 3],
    "remise_scale": [1, 2],
    "hill_whists": [5, 10, 20],
    "allpass_price": [1, 2, 5],
    "allpass_progression": [[1, 2, 3], [2, 4, 6], [1, 3]],
    "misere_value": [8, 10],
    "misere_hill": [10, 20],
    "pool_target": [5, 10, 15],
    "shortfall_rate": [1, "1/2", 2],
    "consolation": ["value", 0, 3, 10],
    "stake": ["1", "0.10", "0.03", "0.07", "2.5"],
}


def wide_options(rng: random.Random, convention: str) -> dict[str, Any]:
    """The sample's random house rules plus a few numeric options it never varies."""
    options = random_options(rng, convention)
    choices = dict(WIDE_OPTIONS)
    if convention == "hussar":
        del choices["allpass_price"], choices["allpass_progression"]
    for key in rng.sample(sorted(choices), rng.randint(0, 4)):
        options[key] = rng.choice(choices[key])
    return options


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 40),
    st.sampled_from(CONVENTIONS),
    st.sampled_from((3, 4)),
    st.booleans(),
)
def test_engine_matches_oracle_on_random_games(seed, deals, convention, players, wide):
    rng = random.Random(seed)
    options = wide_options(rng, convention) if wide else None
    data = random_game(rng, deals, convention=convention, players=players, options=options)
    assert engine(data) == score_file(data)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_engine_matches_oracle_on_random_games_any_convention(seed, deals):
    data = random_game(random.Random(seed), deals)
    data["finished"] = seed % 5 == 0
    assert engine(data) == score_file(data)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 60),
    st.sampled_from(CONVENTIONS),
    st.sampled_from((3, 4, 5)),
)
def test_engine_matches_oracle_on_five_players_penalties_and_newer_options(
    seed, deals, convention, players
):
    rng = random.Random(seed)
    options = random_options(rng, convention, newer=True)
    data = random_game(
        rng, deals, convention=convention, players=players, options=options, penalties=True
    )
    data["finished"] = seed % 7 == 0
    assert engine(data) == score_file(data)


NEW_FIXED_GAMES = {
    "8 example 7 made": game(
        "leningrad",
        [
            allpass(A=0, B=4, C=6),
            contract("B", "7S", {"C": "whist", "A": "pass"}, {"B": 6, "C": 3, "A": 1}),
            allpass(A=2, B=4, C=4),
        ],
        options={"allpass_exit_on": "made"},
    ),
    "8 example 8 penalty": game("sochi", [{"type": "penalty", "player": "A", "contract": "7H"}]),
    "8 example 9 five players": game(
        "sochi",
        [contract("C", "7S", {"D": "whist", "E": "pass"}, {"C": 5, "D": 3, "E": 2})],
        players=("A", "B", "C", "D", "E"),
        first_dealer="A",
    ),
    "8 example 10 money unit": game(
        "sochi", EXAMPLE_1, options={"stake": "0.1", "money_unit": "1"}
    ),
}


@pytest.mark.parametrize("name", sorted(NEW_FIXED_GAMES))
def test_engine_matches_oracle_on_the_new_worked_examples(name):
    data = NEW_FIXED_GAMES[name]
    assert engine(data) == score_file(data)


def test_oracle_reads_the_new_worked_examples_as_rules_md_says():
    out = score_file(NEW_FIXED_GAMES["8 example 7 made"])
    assert [out["sheet"][p]["hill"] for p in "ABC"] == ["8", "32", "28"]
    out = score_file(NEW_FIXED_GAMES["8 example 8 penalty"])
    assert out["settlement"]["net"] == {"A": "-104/3", "B": "52/3", "C": "52/3"}
    out = score_file(NEW_FIXED_GAMES["8 example 9 five players"])
    assert [out["sheet"][p]["whists"]["C"] for p in "DEAB"] == ["28", "8", "8", "8"]
    out = score_file(NEW_FIXED_GAMES["8 example 10 money unit"])
    assert out["settlement"]["money"] == {"A": "-9.00", "B": "6.00", "C": "3.00"}
