"""Five players, penalties and the newer options (docs/rules.md §2, §4.5, §4.7, §5, §6, §7, §8 7–10)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from scorekeeper import gamefile
from scorekeeper.rules import PRESETS, Answer, Contract, InvalidGame, seat, settle

from ..helpers import F, allpass, contract, game_file, misere, sheet_of

W, P, H = "whist", "pass", "half-whist"
FIVE = ["A", "B", "C", "D", "E"]


def penalty(player: str, code: str) -> dict[str, Any]:
    return {"type": "penalty", "player": player, "contract": code}


def problems(data: Any) -> str:
    with pytest.raises(InvalidGame) as caught:
        gamefile.load(data)
    return str(caught.value)


# --- §8 worked examples 7–10 ------------------------------------------------------------------

EXAMPLE_7 = [
    allpass(A=0, B=4, C=6),
    contract("B", "7S", {"C": W, "A": P}, {"B": 6, "C": 3, "A": 1}),
    allpass(A=2, B=4, C=4),
]


def test_example_7_leningrad_exit_on_made_failed_seven_keeps_the_streak():
    sheet = sheet_of(EXAMPLE_7, convention="leningrad", options={"allpass_exit_on": "made"})
    assert [sheet.hill(p) for p in "ABC"] == [8, 32, 28]
    assert [sheet.pool(p) for p in "ABC"] == [1, 0, 0]
    # B's 32 = 8 (first all-pass, 4 tricks × 2) + 8 remise + 16 (4 tricks × 4, at ×2).
    assert [e.amount for e in sheet.entries if e.player == "B" and e.column == "hill"] == [8, 8, 16]
    assert sheet.results[2].allpass_streak == 1  # the failed seven did not reset it


def test_example_7_with_the_default_any_the_second_allpass_starts_again():
    sheet = sheet_of(EXAMPLE_7, convention="leningrad")
    assert [sheet.hill(p) for p in "ABC"] == [4, 24, 20]
    assert [sheet.pool(p) for p in "ABC"] == [1, 0, 0]


def test_example_8_sochi_penalty_on_a_seven_of_hearts():
    sheet = sheet_of([penalty("A", "7H")])
    assert sheet.hill("A") == 4
    assert sheet.whists("B", "A") == sheet.whists("C", "A") == 4
    assert [sheet.pool(p) for p in "ABC"] == [0, 0, 0]
    assert settle(sheet).net == {"A": F("-104/3"), "B": F("52/3"), "C": F("52/3")}
    assert sheet.next_dealer == "C"  # a penalty does not pass the deal
    assert sheet.deal_count() == 0


def test_example_9_five_players_dealer_and_next_dealer_sit_out_and_console():
    sheet = sheet_of(
        [contract("C", "7S", {"D": W, "E": P}, {"C": 5, "D": 3, "E": 2})],
        players=FIVE,
        first_dealer="A",
    )
    assert sheet.hill("C") == 8
    assert sheet.whists("D", "C") == 28
    assert [sheet.whists(p, "C") for p in "EAB"] == [8, 8, 8]
    assert sum(settle(sheet).net.values()) == 0


def test_example_10_money_unit_one_rouble_largest_remainders_ties_in_seating_order():
    sheet = sheet_of(
        [contract("A", "7S", {"B": W, "C": P}, {"A": 5, "B": 3, "C": 2})],
        options={"stake": "0.1", "money_unit": "1"},
    )
    result = settle(sheet)
    assert result.money == {"A": Decimal("-9.00"), "B": Decimal("6.00"), "C": Decimal("3.00")}
    assert [str(m) for m in result.money.values()] == ["-9.00", "6.00", "3.00"]


# --- table rows for each option ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("dealer", "out", "defenders_of_a"),
    [
        ("A", ("A", "B"), None),
        ("B", ("B", "C"), ("D", "E")),
        ("C", ("C", "D"), ("B", "E")),
        ("D", ("D", "E"), ("B", "C")),
        ("E", ("E", "A"), None),
    ],
)
def test_five_players_who_sits_out_and_who_defends(dealer, out, defenders_of_a):
    sheet = sheet_of([], players=FIVE, first_dealer=dealer)
    s = seat(sheet)
    assert s.dealer == dealer and s.sitting_out == out
    assert s.active == tuple(p for p in FIVE if p not in out)
    if defenders_of_a is None:
        assert "A" not in s.active
    else:
        assert s.defenders("A") == defenders_of_a


def test_five_players_the_deal_and_the_sitting_out_pair_move_clockwise():
    deals = [allpass(C=3, D=3, E=4), allpass(D=3, E=3, A=4), misere("E", 0)]
    sheet = sheet_of(deals, players=FIVE, first_dealer="A")
    assert [r.dealer for r in sheet.results] == ["A", "B", "C"]
    assert sheet.next_dealer == "D"
    assert seat(sheet).sitting_out == ("D", "E")


def test_five_players_allpass_only_the_three_active_write():
    sheet = sheet_of([allpass(C=0, D=4, E=6)], players=FIVE, first_dealer="A")
    assert [sheet.hill(p) for p in FIVE] == [0, 0, 0, 4, 6]
    assert [sheet.pool(p) for p in FIVE] == [0, 0, 1, 0, 0]


def test_five_players_without_dealer_consolation_only_the_defenders_console():
    sheet = sheet_of(
        [contract("C", "7S", {"D": W, "E": P}, {"C": 5, "D": 3, "E": 2})],
        players=FIVE,
        first_dealer="A",
        options={"dealer_consolation": False},
    )
    assert [sheet.whists(p, "C") for p in "DEAB"] == [28, 8, 0, 0]


def test_five_players_settlement_divides_by_five_or_four():
    deals = [{"type": "correction", "reason": "x", "entries": [{"player": "A", "hill": 10}]}]
    players = settle(sheet_of(deals, players=FIVE)).net
    opponents = settle(sheet_of(deals, players=FIVE, options={"hill_divisor": "opponents"})).net
    assert players["A"] == -80 and players["B"] == 20  # 10 × 10 × 4/5
    assert opponents["A"] == -100 and opponents["B"] == 25  # ×5/4: both terms scaled


def test_penalty_rostov_flat_consolation_and_leningrad_scales():
    rostov = sheet_of([penalty("B", "8S")], convention="rostov")
    assert rostov.hill("B") == 6 and rostov.whists("A", "B") == rostov.whists("C", "B") == 10
    leningrad = sheet_of([penalty("B", "8S")], convention="leningrad")
    assert leningrad.hill("B") == 12  # 6 × remise_scale 2
    assert leningrad.whists("A", "B") == leningrad.whists("C", "B") == 12  # 6 × whist_scale 2


def test_penalty_at_a_table_of_five_every_other_player_consoles():
    sheet = sheet_of([penalty("A", "6S")], players=FIVE)
    assert sheet.hill("A") == 2
    assert [sheet.whists(p, "A") for p in "BCDE"] == [2, 2, 2, 2]


def test_penalty_in_hussar_is_written_as_whists_by_the_opponent():
    sheet = sheet_of([penalty("A", "7S")], convention="hussar")
    assert sheet.hill("A") == 0
    assert sheet.whists("B", "A") == 40  # 4 points × hill_whists 10


def test_penalty_does_not_break_an_allpass_streak():
    deals = [allpass(A=0, B=4, C=6), penalty("A", "6S"), allpass(A=2, B=4, C=4)]
    sheet = sheet_of(deals)
    assert sheet.hill("B") == 4 + 8  # the second all-pass at ×2
    assert sheet.results[2].dealer == "A"  # C dealt, the penalty passed nothing, A deals


def test_exit_on_made_a_made_misere_or_a_passed_contract_ends_the_streak():
    for exit_deal in (misere("B", 0), contract("B", "7S", {"C": P, "A": P})):
        sheet = sheet_of(
            [allpass(A=0, B=4, C=6), exit_deal, allpass(A=2, B=4, C=4)],
            options={"allpass_exit_on": "made"},
        )
        assert sheet.hill("C") == 6 + 4  # the second all-pass at ×1 again


def test_exit_on_made_a_failed_misere_keeps_the_streak():
    sheet = sheet_of(
        [allpass(A=0, B=4, C=6), misere("B", 1), allpass(A=2, B=4, C=4)],
        options={"allpass_exit_on": "made"},
    )
    assert sheet.hill("C") == 6 + 8
    assert seat(sheet).allpass_streak == 2


@pytest.mark.parametrize(
    ("unit", "stake", "money"),
    [
        ("0.01", "1", ("-89.33", "54.67", "34.66")),
        ("1", "1", ("-89.00", "55.00", "34.00")),
        ("5", "1", ("-90.00", "55.00", "35.00")),
        ("10", "1", ("-90.00", "60.00", "30.00")),
        ("0.05", "0.1", ("-8.90", "5.45", "3.45")),  # a three-way tie: A first
    ],
)
def test_money_unit_rows(unit, stake, money):
    sheet = sheet_of(
        [contract("A", "7S", {"B": W, "C": P}, {"A": 5, "B": 3, "C": 2})],
        options={"stake": stake, "money_unit": unit},
    )
    result = settle(sheet)
    assert tuple(f"{result.money[p]:.2f}" for p in "ABC") == money
    assert sum(result.money.values()) == 0


def test_round_limit_ends_after_rounds_times_players_table_deals():
    opts = {"round_limit": 1}
    deals = [
        allpass(A=1, B=4, C=5),
        penalty("B", "6S"),  # not a deal at the table: does not count
        {"type": "correction", "reason": "x", "entries": [{"player": "A", "pool": 1}]},
        allpass(A=1, B=4, C=5),
    ]
    sheet = sheet_of(deals, options=opts)
    assert not sheet.finished and sheet.next_round == (1, 3)
    s = seat(sheet)
    assert (s.round, s.deal_in_round, s.round_limit) == (1, 3, 1)
    finished = sheet_of([*deals, misere("A", 0)], options=opts)
    assert finished.finished and finished.next_round == (2, 1) and seat(finished).kinds == ()


def test_round_limit_counts_rounds_of_five():
    # Each deal the player two seats after the dealer plays a failed misère (never ends by pool).
    deals = [misere(FIVE[(i + 2) % 5], 1) for i in range(10)]
    opts = {"round_limit": 2}
    nine = sheet_of(deals[:9], players=FIVE, first_dealer="A", options=opts)
    assert not nine.finished and nine.next_round == (2, 5)
    assert seat(nine).dealer == "E" and seat(nine).sitting_out == ("E", "A")
    ten = sheet_of(deals, players=FIVE, first_dealer="A", options=opts)
    assert ten.finished and ten.ended_after == 10
    assert "deal 11: the game ended after deal 10: the round limit (2) is reached" in problems(
        game_file([*deals, misere("C", 1)], players=FIVE, first_dealer="A", options=opts)
    )


def test_stalingrad_seat_offers_only_whist_on_six_spades():
    sheet = sheet_of([], options={"stalingrad": True})
    s = seat(sheet)
    assert s.answers("A", Contract.parse("6S")) == {"B": (Answer.WHIST,), "C": (Answer.WHIST,)}
    assert s.answers("A", Contract.parse("6C"))["C"] == (
        Answer.WHIST,
        Answer.PASS,
        Answer.HALF_WHIST,
    )
    ok = sheet_of(
        [contract("A", "6S", {"B": W, "C": W}, {"A": 6, "B": 2, "C": 2})],
        options={"stalingrad": True},
    )
    assert ok.pool("A") == 2


def test_seat_tricks_needed_and_min_level():
    sheet = sheet_of([allpass(A=0, B=4, C=6)], convention="leningrad")
    s = seat(sheet)
    assert s.dealer == "A" and s.min_level == 7 and s.next_allpass_multiplier == 2
    assert s.kinds == ("contract", "misere", "allpass", "penalty", "correction")
    assert s.tricks_needed("B", {"C": Answer.WHIST, "A": Answer.WHIST}) == ("B", "C", "A")
    assert s.tricks_needed("B", {"C": Answer.WHIST, "A": Answer.PASS}) == ("B",)
    assert s.tricks_needed("B", {"C": Answer.PASS, "A": Answer.PASS}) == ()
    assert s.tricks_needed(None, {}) == ("A", "B", "C")
    assert 6 not in s.levels() and s.levels()[0] == 7
    assert s.answers("B", Contract.parse("7S"), Answer.WHIST)["A"] == (Answer.WHIST, Answer.PASS)


def test_old_files_score_as_before_and_new_options_default_off():
    preset = PRESETS["sochi"]
    assert (preset.allpass_exit_on, preset.money_unit, preset.round_limit, preset.stalingrad) == (
        "any",
        Decimal("0.01"),
        None,
        False,
    )
    assert preset.to_json()["round_limit"] is None
    assert preset.to_json()["consolation"] == "value"


# --- broken files -----------------------------------------------------------------------------

FIVE_GOOD = contract("C", "7S", {"D": W, "E": P}, {"C": 5, "D": 3, "E": 2})


@pytest.mark.parametrize(
    ("case", "data", "message"),
    [
        (
            "next_dealer_declares",
            game_file(
                [contract("B", "7S", {"C": W, "D": P}, {"B": 7})], players=FIVE, first_dealer="A"
            ),
            "deal 1: B deals next and sits out this deal, so cannot declare",
        ),
        (
            "dealer_declares_at_five",
            game_file(
                [contract("A", "7S", {"C": W, "D": P}, {"A": 7})], players=FIVE, first_dealer="A"
            ),
            "deal 1: A deals and sits out this deal, so cannot declare",
        ),
        (
            "next_dealer_answers",
            game_file(
                [contract("C", "7S", {"D": W, "B": P}, {"C": 7})], players=FIVE, first_dealer="A"
            ),
            "deal 1: B deals next and sits out this deal, so does not answer",
        ),
        (
            "next_dealer_takes_allpass_tricks",
            game_file([allpass(B=2, C=2, D=3, E=3)], players=FIVE, first_dealer="A"),
            "deal 1: B deals next and sits out this deal, so takes no tricks",
        ),
        (
            "dealer_takes_allpass_tricks_at_five",
            game_file([allpass(A=2, C=2, D=3, E=3)], players=FIVE, first_dealer="A"),
            "deal 1: A deals and sits out this deal, so takes no tricks",
        ),
        (
            "penalty_unknown_player",
            game_file([penalty("Z", "7S")]),
            'deal 1: player: "Z" is not a player of this game',
        ),
        (
            "penalty_bad_contract",
            game_file([penalty("A", "11S")]),
            'deal 1: "11S" is not a contract',
        ),
        (
            "penalty_misere_is_not_a_contract",
            game_file([penalty("A", "misere")]),
            'deal 1: "misere" is not a contract',
        ),
        (
            "penalty_missing_contract",
            game_file([{"type": "penalty", "player": "A"}]),
            'deal 1: a penalty deal needs "contract"',
        ),
        (
            "penalty_unknown_key",
            game_file([{**penalty("A", "7S"), "dealer": "C"}]),
            'deal 1: unknown key "dealer" in a penalty deal',
        ),
        (
            "money_unit_zero",
            game_file([], options={"money_unit": "0"}),
            "Money rounding: must be more than 0",
        ),
        (
            "money_unit_three_decimals",
            game_file([], options={"money_unit": "0.005"}),
            "Money rounding: must be a decimal with at most two decimals",
        ),
        (
            "money_unit_not_decimal",
            game_file([], options={"money_unit": "rouble"}),
            "Money rounding: must be a decimal",
        ),
        (
            "money_unit_negative",
            game_file([], options={"money_unit": "-1"}),
            "Money rounding: must be a decimal",
        ),
        (
            "round_limit_zero",
            game_file([], options={"round_limit": 0}),
            "Number of rounds: must be a whole number from 1 to 1000",
        ),
        (
            "round_limit_text",
            game_file([], options={"round_limit": "6"}),
            "Number of rounds: must be a whole number from 1 to 1000, or empty for no limit",
        ),
        (
            "allpass_exit_on_other",
            game_file([], options={"allpass_exit_on": "failed"}),
            "All-passes end with: “failed” is not one of its values (docs/rules.md §7 lists them)",
        ),
        (
            "stalingrad_not_bool",
            game_file([], options={"stalingrad": "yes"}),
            "Stalingrad (6♠ whisted by both): must be true or false",
        ),
        (
            "deal_after_round_limit",
            game_file(
                [allpass(A=1, B=4, C=5), allpass(A=1, B=4, C=5), misere("A", 0), misere("B", 0)],
                options={"round_limit": 1},
            ),
            "deal 4: the game ended after deal 3: the round limit (1) is reached",
        ),
        (
            "penalty_after_round_limit",
            game_file(
                [
                    allpass(A=1, B=4, C=5),
                    allpass(A=1, B=4, C=5),
                    misere("A", 0),
                    penalty("A", "6S"),
                ],
                options={"round_limit": 1},
            ),
            "deal 4: the game ended after deal 3",
        ),
        (
            "six_after_failed_exit_under_made",
            game_file(
                [
                    allpass(A=0, B=4, C=6),
                    contract("B", "7S", {"C": W, "A": P}, {"B": 6, "C": 3, "A": 1}),
                    contract("C", "6S", {"A": P, "B": P}),
                ],
                convention="leningrad",
                options={"allpass_exit_on": "made"},
            ),
            "deal 3: after all-pass (1 in a row) the contract must be at least 7",
        ),
        (
            "stalingrad_one_passes",
            game_file(
                [contract("A", "6S", {"B": W, "C": P}, {"A": 6})], options={"stalingrad": True}
            ),
            "deal 1: Stalingrad: on 6♠ both defenders must whist",
        ),
        (
            "stalingrad_both_pass",
            game_file([contract("A", "6S", {"B": P, "C": P})], options={"stalingrad": True}),
            "deal 1: Stalingrad: on 6♠ both defenders must whist",
        ),
        (
            "stalingrad_half_whist",
            game_file([contract("A", "6S", {"B": P, "C": H})], options={"stalingrad": True}),
            "deal 1: Stalingrad: on 6♠ both defenders must whist",
        ),
        ("six_players", game_file([], players=list("ABCDEF")), "not 6"),
        (
            "five_in_hussar",
            game_file([], convention="hussar", players=FIVE),
            "hussar is played by 2",
        ),
    ],
)
def test_invalid_new_rules_are_refused(case, data, message):
    assert message in problems(data), case


def test_five_player_file_with_penalty_round_trips():
    data = game_file(
        [FIVE_GOOD, penalty("E", "8NT"), allpass(D=3, E=3, A=4)],
        players=FIVE,
        first_dealer="A",
        options={
            "money_unit": "5",
            "round_limit": 3,
            "allpass_exit_on": "made",
            "stalingrad": True,
        },
    )
    text = gamefile.dumps(gamefile.load(data))
    again = gamefile.loads(text)
    assert gamefile.dumps(again) == text
    assert gamefile.dump(again)["deals"][1] == {"type": "penalty", "player": "E", "contract": "8NT"}


def test_seat_at_an_earlier_position_is_the_table_before_that_deal():
    deals = [
        allpass(C=3, D=3, E=4),
        penalty("A", "6S"),
        contract("D", "7S", {"E": W, "A": P}, {"D": 7}),
        allpass(E=3, A=3, B=4),
    ]
    sheet = sheet_of(deals, players=FIVE, first_dealer="A", options={"round_limit": 3})
    first = seat(sheet, 1)
    assert (first.dealer, first.sitting_out, first.allpass_streak, first.min_level) == (
        "A",
        ("A", "B"),
        0,
        None,
    )
    at_penalty = seat(sheet, 2)
    assert at_penalty.dealer == "B" and at_penalty.allpass_streak == 1
    third = seat(sheet, 3)
    assert (third.dealer, third.active, third.min_level, third.round, third.deal_in_round) == (
        "B",
        ("A", "D", "E"),
        6,
        1,
        2,
    )
    assert third.defenders("D") == ("E", "A")
    assert seat(sheet, 99) == seat(sheet)
    assert seat(sheet).dealer == "D" and seat(sheet).deal_in_round == 4


@pytest.mark.parametrize("players", [["A", "B", "C"], ["A", "B", "C", "D"]])
def test_without_stalingrad_a_six_of_spades_may_be_passed(players: list[str]) -> None:
    """§7 applies only when the game plays it: otherwise 6♠ is answered like any six."""
    s = seat(sheet_of([], players=players))
    assert not s.stalingrad
    declarer = s.active[0]
    answers = s.answers(declarer, Contract.parse("6S"))
    assert all(Answer.PASS in allowed for allowed in answers.values())
    first, second = s.defenders(declarer)
    assert answers[second] == (Answer.WHIST, Answer.PASS, Answer.HALF_WHIST)


def test_stalingrad_is_not_played_at_two() -> None:
    """Hussar (§9) has one defender, who may always pass, whatever the option says."""
    s = seat(sheet_of([], players=["A", "B"], convention="hussar", options={"stalingrad": True}))
    assert not s.stalingrad
    assert s.answers("A", Contract.parse("6S")) == {
        "B": (Answer.WHIST, Answer.WHIST_TALON, Answer.PASS)
    }


@pytest.mark.parametrize(
    ("tricks", "said"),
    [
        ({"A": 6, "B": 2, "C": 1}, "tricks add up to 9, not 10"),
        ({"A": 6, "B": 2}, "tricks missing: C"),
    ],
)
def test_a_stalingrad_six_whisted_by_both_still_has_its_tricks_checked(
    tricks: dict[str, int], said: str
) -> None:
    """Both defenders whisting a 6♠ under Stalingrad is a played contract like any other
    (§7): its tricks are asked of the declarer and both whisters, and must make ten."""
    data = game_file([contract("A", "6S", {"B": W, "C": W}, tricks)], options={"stalingrad": True})
    assert problems(data) == f"deal 1: {said}"


def test_the_round_limit_is_at_most_a_thousand_rounds():
    """§6: the number of rounds is a whole number from 1 to 1000, or none."""
    for rounds in (1, 1000):
        game = gamefile.load(game_file([], options={"round_limit": rounds}))
        assert game.options.round_limit == rounds
    for rounds in (0, 1001):
        assert "from 1 to 1000" in problems(game_file([], options={"round_limit": rounds}))
