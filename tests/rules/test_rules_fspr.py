"""The ФСПР round (docs/rules.md §4.2, §4.3, §4.5, §4.8, §4.9, §5, §7; docs/game-format.md):
every worked example 11–19 with the numbers as written, the ФСПР evening of the game format,
bad input said at its field, the seat the deal form asks, and the engine against the
independent oracle on random deals with the new options."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import gamefile, report, rules
from scorekeeper.rules import Answer, Contract, InvalidGame, read_entered, seat
from scorekeeper.sample import NEWEST_OPTIONS, random_game

from ..helpers import allpass, contract, game
from ..oracle.independent import score_file

FOUR = ("A", "B", "C", "D")


def scored(data: dict[str, Any]) -> dict[str, Any]:
    """`scorekeeper score --settle`, checked against the oracle on the way."""
    out = report.score_report(rules.score(gamefile.load(data)), with_settlement=True)
    assert {k: v for k, v in out.items() if k != "rules"} == score_file(data)
    return out


def column(out: dict[str, Any], name: str) -> dict[str, str]:
    return {p: s[name] for p, s in out["sheet"].items()}


def on(out: dict[str, Any], debtor: str) -> dict[str, str]:
    """Whists written on `debtor` by each other player."""
    return {p: s["whists"][debtor] for p, s in out["sheet"].items() if p != debtor}


def net(out: dict[str, Any]) -> dict[str, str]:
    return out["settlement"]["net"]


# --- §8 example 11: the zero-trick all-pass bonus ------------------------------------------------

ZERO = [allpass(A=0, B=4, C=6)]


@pytest.mark.parametrize(
    ("options", "pool_a", "hill_a", "nets"),
    [
        ({}, "1", "0", ("80", "-20", "-60")),
        ({"allpass_zero_bonus": "trick_points"}, "2", "0", ("280/3", "-80/3", "-200/3")),
        (
            {"allpass_zero_bonus": "trick_points", "allpass_zero_form": "hill"},
            "0",
            "-4",
            ("280/3", "-80/3", "-200/3"),
        ),
        ({"allpass_zero_bonus": "stage"}, "1", "0", ("80", "-20", "-60")),
        ({"allpass_zero_bonus": "point"}, "1", "0", ("80", "-20", "-60")),
        ({"allpass_zero_bonus": "none"}, "0", "0", ("200/3", "-40/3", "-160/3")),
    ],
)
def test_example_11_zero_trick_bonus(options, pool_a, hill_a, nets):
    out = scored(game("leningrad", ZERO, options=options))
    assert column(out, "pool")["A"] == pool_a
    assert column(out, "hill") == {"A": hill_a, "B": "8", "C": "12"}
    assert tuple(net(out).values()) == nets


@pytest.mark.parametrize(
    ("options", "pool_a", "hill_a"),
    [
        ({"allpass_zero_bonus": "trick"}, "3", "0"),
        ({"allpass_zero_bonus": "stage"}, "3", "0"),
        ({"allpass_zero_bonus": "trick_points"}, "6", "0"),
        ({"allpass_zero_bonus": "trick_points", "allpass_zero_form": "hill"}, "0", "-12"),
        ({"allpass_zero_bonus": "point"}, "1", "0"),
    ],
)
def test_example_11_the_third_allpass_in_a_row(options, pool_a, hill_a):
    # Two all-passes where A takes tricks, then the third (×3) where he takes none.
    deals = [allpass(A=2, B=4, C=4), allpass(A=2, B=4, C=4), allpass(A=0, B=4, C=6)]
    out = scored(game("leningrad", deals, options=options))
    first_two = 2 * 2 + 2 * 4  # A's hill of the first two all-passes (2 and 4 per trick)
    assert column(out, "pool")["A"] == pool_a
    assert column(out, "hill")["A"] == str(first_two + int(hill_a))


# --- §8 example 12: half-whist on a seven ---------------------------------------------------------

SEVEN_HALF = [contract("A", "7H", {"B": "pass", "C": "half-whist"})]


@pytest.mark.parametrize(
    ("convention", "tricks", "written", "nets"),
    [
        ("sochi", "quota", "4", ("68/3", "-40/3", "-28/3")),
        ("sochi", "rest", "6", ("62/3", "-40/3", "-22/3")),
        ("leningrad", "quota", "8", None),
        ("leningrad", "rest", "12", None),
    ],
)
def test_example_12_half_whist_on_a_seven(convention, tricks, written, nets):
    out = scored(game(convention, SEVEN_HALF, options={"half_whist_tricks": tricks}))
    assert column(out, "pool")["A"] == "4"
    assert on(out, "A") == {"B": "0", "C": written}
    if nets:
        assert tuple(net(out).values()) == nets


@pytest.mark.parametrize("tricks", ["quota", "rest"])
def test_example_12_on_a_six_both_readings_give_two_tricks(tricks):
    out = scored(
        game(
            "sochi",
            [contract("A", "6H", {"B": "pass", "C": "half-whist"})],
            options={"half_whist_tricks": tricks},
        )
    )
    assert on(out, "A")["C"] == "4"  # 2 tricks × 2


# --- §8 example 13: two whisters on an eight, the side took nothing -------------------------------

EIGHT = [contract("A", "8S", {"B": "whist", "C": "whist"}, {"A": 10, "B": 0, "C": 0})]


@pytest.mark.parametrize(
    ("quota", "hills", "nets"),
    [
        ("side", {"A": "0", "B": "0", "C": "6"}, {"A": "100", "B": "-20", "C": "-80"}),
        ("side_both", {"A": "0", "B": "6", "C": "6"}, {"A": "120", "B": "-60", "C": "-60"}),
    ],
)
def test_example_13_side_both(quota, hills, nets):
    out = scored(game("leningrad", EIGHT, options={"two_whister_quota": quota}))
    assert column(out, "pool")["A"] == "6"
    assert column(out, "hill") == hills
    assert net(out) == nets


# --- §8 examples 14 and 15: the returned whist, the dealer's whist --------------------------------


def fspr(deals: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    return game("fspr", deals, players=kw.pop("players", FOUR), **kw)


def test_example_14_returned_whist():
    out = scored(fspr([contract("A", "6S", {"B": "whist-returned", "C": "half-whist"}, {"A": 5})]))
    assert column(out, "hill") == {"A": "4", "B": "0", "C": "0", "D": "0"}
    assert on(out, "A") == {"B": "24", "C": "0", "D": "4"}
    assert net(out) == {"A": "-58", "B": "34", "C": "10", "D": "14"}


def test_example_14_had_b_simply_whisted():
    out = scored(fspr([contract("A", "6S", {"B": "whist", "C": "pass"}, {"A": 5})]))
    assert on(out, "A") == {"B": "14", "C": "14", "D": "4"}
    assert net(out) == {"A": "-62", "B": "24", "C": "24", "D": "14"}


def test_example_14_a_made_six_after_the_returned_whist():
    out = scored(fspr([contract("A", "6S", {"B": "whist-returned", "C": "half-whist"}, {"A": 7})]))
    assert column(out, "pool")["A"] == "2"
    assert on(out, "A") == {"B": "12", "C": "0", "D": "0"}
    assert column(out, "hill") == {"A": "0", "B": "2", "C": "0", "D": "0"}


def test_example_15_dealers_whist():
    deal = contract("A", "6S", {"B": "pass", "C": "half-whist", "D": "whist"}, {"A": 5})
    out = scored(fspr([deal]))
    assert column(out, "hill") == {"A": "4", "B": "0", "C": "0", "D": "0"}
    assert on(out, "A") == {"B": "0", "C": "0", "D": "24"}
    assert net(out) == {"A": "-54", "B": "10", "C": "10", "D": "34"}


def test_example_15_the_dealer_never_answers_for_the_quota():
    deal = contract("A", "7S", {"B": "pass", "C": "half-whist", "D": "whist"}, {"A": 9})
    out = scored(fspr([deal]))
    assert column(out, "pool")["A"] == "4"
    assert on(out, "A") == {"B": "0", "C": "0", "D": "8"}
    assert set(column(out, "hill").values()) == {"0"}


# --- §8 example 16: the talon bonus ---------------------------------------------------------------


def test_example_16_talon_bonus_on_a_made_seven():
    deal = contract(
        "A", "7S", {"B": "whist", "C": "whist"}, {"A": 7, "B": 2, "C": 1}, talon_tricks=2
    )
    out = scored(fspr([deal]))
    assert column(out, "pool")["A"] == "4"
    assert on(out, "A") == {"B": "16", "C": "8", "D": "16"}
    assert net(out) == {"A": "20", "B": "-4", "C": "-12", "D": "-4"}


def test_example_16_talon_bonus_on_a_failed_seven():
    deal = contract(
        "A", "7S", {"B": "whist", "C": "whist"}, {"A": 5, "B": 3, "C": 2}, talon_tricks=1
    )
    out = scored(fspr([deal]))
    assert column(out, "hill")["A"] == "16"
    assert on(out, "A") == {"B": "40", "C": "32", "D": "24"}


def test_example_16_three_players_halve_the_bonus():
    deal = contract(
        "A", "6S", {"B": "whist", "C": "whist"}, {"A": 6, "B": 2, "C": 2}, talon_tricks=3
    )
    out = scored(fspr([deal], players=("A", "B", "C")))
    assert on(out, "A") == {"B": "14", "C": "14"}


def test_the_talon_bonus_is_written_on_a_pass_out_and_a_half_whist_too_but_not_without_it():
    passed = contract("B", "6S", {"C": "pass", "A": "pass"}, talon_tricks=1)
    half = contract("C", "7S", {"A": "pass", "B": "half-whist"}, talon_tricks=2)
    out = scored(fspr([passed, half], players=("A", "B", "C"), first_dealer="A"))
    assert on(out, "B") == {"A": "2", "C": "2"}  # 1 × 4, halved
    assert on(out, "C") == {"A": "8", "B": "16"}  # 2 × 8 halved; B adds his half-whist 8


# --- §8 example 17: the dealer plays the all-pass talon -------------------------------------------


def test_example_17_dealer_plays_the_talon():
    out = scored(fspr([allpass(A=4, B=2, C=4, D=0)], first_dealer="B"))
    assert column(out, "hill") == {"A": "8", "B": "4", "C": "8", "D": "-4"}
    assert net(out) == {"A": "-40", "B": "0", "C": "-40", "D": "80"}


@pytest.mark.parametrize(("zero_dealer", "hill_b"), [(False, "0"), (True, "-4")])
def test_example_17_the_dealer_without_a_trick(zero_dealer, hill_b):
    data = fspr(
        [allpass(A=4, B=0, C=4, D=2)],
        first_dealer="B",
        options={"allpass_zero_dealer": zero_dealer},
    )
    out = scored(data)
    assert column(out, "hill") == {"A": "8", "B": hill_b, "C": "8", "D": "4"}


# --- §8 example 18: only a whisted, made contract ends the all-passes -----------------------------

TAIL = allpass(A=4, B=3, C=3)


@pytest.mark.parametrize(
    ("exit_on", "middle", "hills"),
    [
        ("whisted_made", contract("A", "8S", {"B": "pass", "C": "pass"}), ("24", "18", "18")),
        ("any", contract("A", "8S", {"B": "pass", "C": "pass"}), ("16", "12", "12")),
        ("made", contract("A", "8S", {"B": "pass", "C": "pass"}), ("16", "12", "12")),
        (
            "whisted_made",
            {"type": "misere", "declarer": "A", "tricks": {"A": 0}},
            ("24", "18", "18"),
        ),
        (
            "whisted_made",
            contract("A", "8S", {"B": "whist", "C": "pass"}, {"A": 8, "B": 2}),
            ("16", "12", "12"),
        ),
    ],
)
def test_example_18_whisted_made(exit_on, middle, hills):
    deals = [TAIL, middle, TAIL]
    data = fspr(deals, players=("A", "B", "C"), options={"allpass_exit_on": exit_on})
    out = scored(data)
    assert tuple(column(out, "hill").values()) == hills


# --- §8 example 19 and deal_limit: the end of the game --------------------------------------------


def pools(*amounts: int) -> dict[str, Any]:
    entries = [{"player": p, "pool": a} for p, a in zip(FOUR, amounts, strict=True)]
    return {"type": "correction", "reason": "carried over", "entries": entries}


@pytest.mark.parametrize(("end", "finished"), [("by_hand", False), ("pool_sum", True)])
def test_example_19_by_hand(end, finished):
    deals = [pools(12, 15, 9, 2), contract("D", "8S", {"A": "pass", "B": "pass"})]
    data = fspr(deals, first_dealer="C", options={"end": end})
    assert column(scored(data), "pool") == {"A": "12", "B": "15", "C": "9", "D": "8"}
    assert rules.score(gamefile.load(data)).finished is finished


@pytest.mark.parametrize(("players", "dealt"), [(3, 6), (4, 7)])
def test_deal_limit_ends_the_game_whichever_limit_comes_first(players, dealt):
    # round_limit 2 and deal_limit 7: a table of three ends after 6 deals, of four after 7.
    options = {"round_limit": 2, "deal_limit": 7, "end": "by_hand"}
    sample = random_game(
        random.Random(5), 40, convention="leningrad", players=players, options=options
    )
    sheet = rules.score(gamefile.load(sample))
    assert sheet.finished and sheet.rounds_over and sheet.deal_count() == dealt


def test_no_entry_of_any_kind_follows_the_deal_limit():
    deals = [
        allpass(A=0, B=4, C=6),
        {"type": "correction", "reason": "late", "entries": [{"player": "A", "pool": 1}]},
    ]
    with pytest.raises(InvalidGame) as raised:
        gamefile.load(game("sochi", deals, options={"deal_limit": 1}))
    [problem] = raised.value.problems
    assert problem.deal == 2 and "deal limit (1)" in problem.message()


# --- the ФСПР evening of docs/game-format.md ------------------------------------------------------

EVENING = {
    "format": "scorekeeper-game/1",
    "name": "Tournament, table 3",
    "convention": "fspr",
    "options": {},
    "players": ["Anna", "Boris", "Vera", "Gleb"],
    "first_dealer": "Boris",
    "finished": False,
    "deals": [
        {
            "type": "contract",
            "declarer": "Vera",
            "contract": "7S",
            "talon_tricks": 2,
            "answers": {"Gleb": "whist", "Anna": "whist"},
            "tricks": {"Vera": 7, "Gleb": 2, "Anna": 1},
        },
        {"type": "allpass", "tricks": {"Gleb": 4, "Anna": 2, "Boris": 4, "Vera": 0}},
        {
            "type": "contract",
            "declarer": "Boris",
            "contract": "7H",
            "answers": {"Vera": "whist-returned", "Anna": "half-whist"},
            "tricks": {"Boris": 6},
        },
        {
            "type": "contract",
            "declarer": "Vera",
            "contract": "7D",
            "answers": {"Gleb": "pass", "Boris": "half-whist", "Anna": "whist"},
            "tricks": {"Vera": 7},
        },
    ],
}


def summed(entries: Any) -> dict[tuple[str, str, str | None], Any]:
    """What a deal wrote, by player, column and debtor (two entries of one cell added)."""
    out: dict[tuple[str, str, str | None], Any] = {}
    for e in entries:
        key = (e.player, e.column.value, e.on)
        out[key] = out.get(key, 0) + e.amount
    return out


def test_the_game_format_fspr_evening_deal_by_deal():
    sheet = rules.score(gamefile.load(EVENING))
    written = [
        {key: str(amount) for key, amount in summed(r.entries).items()} for r in sheet.results
    ]
    assert written[0] == {
        ("Vera", "pool", None): "4",
        ("Gleb", "whists", "Vera"): "16",
        ("Anna", "whists", "Vera"): "8",
        ("Boris", "whists", "Vera"): "16",
    }
    assert written[1] == {
        ("Gleb", "hill", None): "8",
        ("Anna", "hill", None): "4",
        ("Boris", "hill", None): "8",
    }
    assert written[2] == {
        ("Boris", "hill", None): "8",
        ("Vera", "whists", "Boris"): "40",
        ("Gleb", "whists", "Boris"): "8",
    }
    assert written[3] == {("Vera", "pool", None): "4", ("Anna", "whists", "Vera"): "24"}
    assert [r.min_level for r in sheet.results] == [None, None, 7, 7]
    assert sheet.allpass_streak == 0 and sheet.pool("Vera") == 8
    assert not sheet.finished  # by hand: the pools never end it
    assert scored(EVENING)["rules"] == {"convention": "fspr", "options": {}}


def test_the_evening_round_trips_through_the_file():
    game_ = gamefile.load(EVENING)
    assert gamefile.dump(game_) == {k: v for k, v in EVENING.items() if k != "options"}


# --- bad input: one line naming the deal (CLI), a Problem at its field ----------------------------


def with_deal(deal: dict[str, Any], **options: Any) -> dict[str, Any]:
    data = copy.deepcopy(EVENING)
    data["deals"] = [deal]
    data["options"] = options
    return data


VERA_7D = {"type": "contract", "declarer": "Vera", "contract": "7D", "tricks": {"Vera": 7}}
BAD = {
    "talon without the bonus": (
        with_deal({**EVENING["deals"][0]}, talon_bonus=False),
        "talon_tricks",
        "deal 1: talon_tricks are written only when the talon bonus is played",
    ),
    "talon above 3": (
        with_deal({**EVENING["deals"][0], "talon_tricks": 4}),
        "talon_tricks",
        "deal 1: talon_tricks must be 0, 1, 2 or 3",
    ),
    "talon on a misère": (
        with_deal({"type": "misere", "declarer": "Vera", "tricks": {"Vera": 0}, "talon_tricks": 1}),
        "talon_tricks",
        "deal 1: unknown key",
    ),
    "dealer's whist not allowed": (
        with_deal(
            {**VERA_7D, "answers": {"Gleb": "pass", "Anna": "half-whist", "Boris": "whist"}},
            dealer_whist=False,
        ),
        "answers.Boris",
        "deal 1: Boris deals: the dealer's whist is not played in this game",
    ),
    "dealer's whist after a whist": (
        with_deal({**VERA_7D, "answers": {"Gleb": "whist", "Anna": "pass", "Boris": "whist"}}),
        "answers.Boris",
        "deal 1: Boris deals and may only whist, after pass – half-whist – pass",
    ),
    "dealer's pass": (
        with_deal({**VERA_7D, "answers": {"Gleb": "pass", "Anna": "half-whist", "Boris": "pass"}}),
        "answers.Boris",
        "deal 1: Boris deals and may only whist",
    ),
    "returned after a pass": (
        with_deal({**VERA_7D, "answers": {"Gleb": "whist-returned", "Anna": "pass"}}),
        "answers.Gleb",
        "deal 1: Gleb: the whist is returned only by the first defender, after the second half-whisted",
    ),
    "returned by the second": (
        with_deal({**VERA_7D, "answers": {"Gleb": "pass", "Anna": "whist-returned"}}),
        "answers.Anna",
        "deal 1: Anna: the whist is returned only by the first defender",
    ),
    "whist with a half-whist": (
        with_deal({**VERA_7D, "answers": {"Gleb": "whist", "Anna": "half-whist"}}),
        "answers.Anna",
        "deal 1: Anna: only the second defender, after the first passed, may half-whist",
    ),
    "dealer's all-pass tricks without the option": (
        with_deal(
            {"type": "allpass", "tricks": {"Vera": 4, "Gleb": 2, "Anna": 4, "Boris": 0}},
            allpass_dealer_talon=False,
        ),
        "tricks.Boris",
        "deal 1: Boris deals and sits out this deal, so takes no tricks",
    ),
    "dealer's all-pass tricks above 2": (
        with_deal({"type": "allpass", "tricks": {"Vera": 3, "Gleb": 2, "Anna": 2, "Boris": 3}}),
        "tricks.Boris",
        "deal 1: Boris deals and plays the talon: 0, 1 or 2 tricks, not 3",
    ),
    "dealer's all-pass tricks missing": (
        with_deal({"type": "allpass", "tricks": {"Vera": 4, "Gleb": 2, "Anna": 4}}),
        "tricks.Boris",
        "deal 1: tricks missing: Boris",
    ),
    "an option value it does not list": (
        {
            **with_deal({**VERA_7D, "answers": {"Gleb": "pass", "Anna": "pass"}, "tricks": {}}),
            "options": {"allpass_zero_bonus": "double"},
        },
        "options.allpass_zero_bonus",
        "double",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_a_problem_at_its_field(case):
    data, field, _ = BAD[case]
    with pytest.raises(InvalidGame) as raised:
        gamefile.load(data)
    assert field in [p.field for p in raised.value.problems]


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_naming_the_deal_at_the_command_line(case, tmp_path):
    data, _, said = BAD[case]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "score", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and said in lines[0], lines


# --- what `score` names: the preset and the options that differ -----------------------------------


def test_score_names_the_preset_and_every_option_that_differs_from_it():
    data = copy.deepcopy(EVENING)
    data["options"] = {"allpass_zero_bonus": "none", "end": "pool_sum", "stake": "0.5"}
    sheet = rules.score(gamefile.load(data))
    assert report.score_report(sheet)["rules"] == {
        "convention": "fspr",
        "options": {"end": "pool_sum", "stake": "0.5", "allpass_zero_bonus": "none"},
    }
    text = report.text_report(sheet)
    assert "Rules: FSPR." in text
    assert "All-pass, bonus for no trick: no bonus" in text
    ru = report.text_report(sheet, words=__import__("scorekeeper.wording").wording.words_for("ru"))
    assert "Правила: ФСПР." in ru and "без премии" in ru


def test_an_old_file_names_its_convention_and_no_options():
    data = game("sochi", [allpass(A=0, B=4, C=6)])
    assert scored(data)["rules"] == {"convention": "sochi", "options": {}}


# --- the seat: what the deal form asks -----------------------------------------------------------


def seat_of(data: dict[str, Any]) -> rules.Seat:
    return seat(rules.score(gamefile.load(data)))


def test_the_seat_of_a_fspr_table_of_four():
    s = seat_of(
        with_deal({"type": "allpass", "tricks": {"Vera": 4, "Gleb": 2, "Anna": 4, "Boris": 0}})
    )
    # Vera deals the second deal.
    assert s.dealer == "Vera" and s.talon_tricks_asked and s.dealer_may_whist
    assert s.allpass_dealer_tricks and s.tricks_asked("allpass") == [
        "Anna",
        "Boris",
        "Vera",
        "Gleb",
    ]
    seven = Contract.parse("7S")
    assert s.returns_whist(seven, Answer.PASS, Answer.HALF_WHIST)
    assert s.dealer_whists(seven, Answer.PASS, Answer.HALF_WHIST)
    assert not s.dealer_whists(seven, Answer.WHIST_RETURNED, Answer.HALF_WHIST)
    assert not s.returns_whist(seven, Answer.WHIST, Answer.PASS)
    assert not s.returns_whist(Contract.parse("8S"), Answer.PASS, Answer.HALF_WHIST)
    # Anna declares: Boris answers first, Gleb second; the returned whist needs Anna's only.
    assert s.tricks_asked("contract", "Anna", ("whist-returned", "half-whist")) == ["Anna"]
    assert s.tricks_asked("contract", "Anna", ("pass", "half-whist"), dealer_answer="whist") == [
        "Anna"
    ]
    assert s.tricks_asked("contract", "Anna", ("pass", "half-whist")) == []


def test_the_seat_at_three_asks_nothing_of_the_dealer():
    s = seat_of(fspr([], players=("A", "B", "C")))
    assert s.talon_tricks_asked and not s.dealer_may_whist and not s.allpass_dealer_tricks
    assert s.tricks_asked("allpass") == ["A", "B", "C"]
    assert not s.dealer_whists(Contract.parse("6S"), Answer.PASS, Answer.HALF_WHIST)


def test_the_seat_of_an_old_game_asks_nothing_new():
    s = seat_of(game("leningrad", [], players=FOUR))
    assert not (s.talon_tricks_asked or s.dealer_may_whist or s.allpass_dealer_tricks)
    assert s.deal_limit is None


def test_read_entered_reads_the_new_answers_and_the_talon():
    s = seat_of(fspr([], first_dealer="D"))
    raw = {
        "type": "contract",
        "declarer": "A",
        "contract": "7S",
        "answers": {"B": "pass", "C": "half-whist", "D": "whist"},
        "tricks": {"A": "6", "B": "", "C": ""},
        "talon_tricks": "2",
    }
    deal, problems = read_entered(raw, s)
    assert problems == [] and deal is not None
    assert rules.deal_to_dict(deal) == {
        "type": "contract",
        "declarer": "A",
        "contract": "7S",
        "answers": {"B": "pass", "C": "half-whist", "D": "whist"},
        "talon_tricks": 2,
        "tricks": {"A": 6},
    }
    raw["talon_tricks"] = "5"
    assert [p.field for p in read_entered(raw, s)[1]] == ["talon_tricks"]
    returned = dict(raw, answers={"B": "whist-returned", "C": "half-whist"}, talon_tricks="")
    deal, problems = read_entered(returned, s)
    assert problems == [] and deal is not None and deal.whisters == ["B"]
    allpass_ = {"type": "allpass", "tricks": {"A": "4", "B": "4", "C": "0", "D": "2"}}
    deal, problems = read_entered(allpass_, s)
    assert problems == [] and deal is not None and deal.tricks == {"A": 4, "B": 4, "C": 0, "D": 2}


def test_the_dealer_whist_at_the_form_where_it_is_not_allowed_is_said_at_its_field():
    s = seat_of(fspr([], first_dealer="D", options={"dealer_whist": False}))
    raw = {
        "type": "contract",
        "declarer": "A",
        "contract": "7S",
        "answers": {"B": "pass", "C": "half-whist", "D": "whist"},
        "tricks": {"A": "6"},
    }
    deal, problems = read_entered(raw, s)  # the dealer's answer is not read there
    assert problems == [] and deal is not None and not deal.played
    sheet = rules.score(gamefile.load(fspr([], first_dealer="D", options={"dealer_whist": False})))
    bad = rules.ContractDeal(
        "A",
        Contract.parse("7S"),
        {"B": Answer.PASS, "C": Answer.HALF_WHIST, "D": Answer.WHIST},
        {"A": 6},
    )
    _, said = sheet.plus(bad)
    assert [p.field for p in said] == ["answers.D"]


# --- the engine against the independent oracle, with the new options ----------------------------


def engine(data: dict[str, Any]) -> dict[str, Any]:
    out = report.score_report(rules.score(gamefile.load(data)), with_settlement=True)
    del out["rules"]
    return out


def newest_options(rng: random.Random) -> dict[str, Any]:
    keys = rng.sample(sorted(NEWEST_OPTIONS), rng.randint(1, len(NEWEST_OPTIONS)))
    return {k: rng.choice(NEWEST_OPTIONS[k]) for k in keys}


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 50), st.sampled_from((3, 4)))
def test_engine_matches_oracle_on_fspr(seed, deals, players):
    rng = random.Random(seed)
    data = random_game(rng, deals, convention="fspr", players=players, options={}, newest=True)
    data["finished"] = seed % 5 == 0
    assert engine(data) == score_file(data)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 50),
    st.sampled_from(("sochi", "leningrad", "rostov", "fspr")),
    st.sampled_from((3, 4, 5)),
)
def test_engine_matches_oracle_with_the_new_options(seed, deals, convention, players):
    rng = random.Random(seed)
    options = newest_options(rng)
    if players == 5 and convention == "fspr":
        players = 4
    data = random_game(
        rng,
        deals,
        convention=convention,
        players=players,
        options=options,
        penalties=True,
        newest=True,
    )
    assert engine(data) == score_file(data)
