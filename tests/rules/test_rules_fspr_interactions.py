"""The ФСПР options together (docs/rules.md §4.2–§4.9, §6, §7), each case computed by hand in
its docstring from the spec's words: the talon bonus beside a returned whist and the dealer's
whist, the all-pass streak ended by them, the amnesty of a hill below zero, money rounding
and the payments of a four-handed table, hill_divisor = opponents in exact fractions."""

from __future__ import annotations

from typing import Any

import pytest

from ..helpers import allpass, contract
from .test_rules_fspr import column, fspr, net, on, scored


def test_the_talon_bonus_beside_a_returned_whist():
    """§4.8 + §4.9, fspr, D deals: A 6♠; B passes, C half-whists, B returns; A takes 6;
    one quick trick. A pool 2. B, the lone whister, writes the side's 4 tricks × 2 × 2 = 16;
    the side took its quota 4: no hill. D writes the talon bonus 1 × 2 × 2 = 4, C nothing.
    Net (§6, N = 4, pool point 20): A's pool is worth 2 × 20 / 4 = 10 from each;
    A 30 − 16 − 4 = 10, B 16 − 10 = 6, C −10, D 4 − 10 = −6."""
    deal = contract("A", "6S", {"B": "whist-returned", "C": "half-whist"}, {"A": 6}, talon_tricks=1)
    out = scored(fspr([deal]))
    assert column(out, "pool") == {"A": "2", "B": "0", "C": "0", "D": "0"}
    assert on(out, "A") == {"B": "16", "C": "0", "D": "4"}
    assert set(column(out, "hill").values()) == {"0"}
    assert net(out) == {"A": "10", "B": "6", "C": "-10", "D": "-6"}


def dealer_whists_a_failed_seven(**options: Any) -> dict[str, Any]:
    deal = contract(
        "A", "7S", {"B": "pass", "C": "half-whist", "D": "whist"}, {"A": 6}, talon_tricks=1
    )
    return scored(fspr([deal], options=options))


def test_the_talon_bonus_beside_the_dealers_whist_on_a_remise():
    """§4.8 + §4.9, fspr, D deals: A 7♠, pass – half-whist – pass, D whists; A takes 6, one
    quick trick. v = 4, a trick 8 whists. A hill 1 × 4 × 2 = 8. D writes the side's 4 tricks
    × 8 = 32, his one consolation 8 and, apart, the talon bonus 1 × 8 = 8: 48. B and C
    nothing. Net: A's hill is 8 × 10 / 4 = 20 to each; A −60 − 48 = −108, B 20, C 20,
    D 20 + 48 = 68."""
    out = dealer_whists_a_failed_seven()
    assert column(out, "hill") == {"A": "8", "B": "0", "C": "0", "D": "0"}
    assert on(out, "A") == {"B": "0", "C": "0", "D": "48"}
    assert net(out) == {"A": "-108", "B": "20", "C": "20", "D": "68"}


def test_money_of_that_deal_rounded_to_whole_units_and_paid_largest_first():
    """§6 money: stake 0.1, unit 1: exact −10.8, 2, 2, 6.8; rounded down −11, 2, 2, 6 (sum
    −1); the missing unit goes to the largest remainder (D's 0.8): −11.00, 2.00, 2.00, 7.00.
    Payments: A, the largest debtor, pays D, the largest creditor, 7; then B and C tie at 2:
    B first by seat."""
    out = dealer_whists_a_failed_seven(stake="0.1", money_unit="1")
    settlement = out["settlement"]
    assert settlement["money"] == {"A": "-11.00", "B": "2.00", "C": "2.00", "D": "7.00"}
    assert settlement["payments"] == [
        {"from": "A", "to": "D", "amount": "7.00"},
        {"from": "A", "to": "B", "amount": "2.00"},
        {"from": "A", "to": "C", "amount": "2.00"},
    ]


def test_that_deal_with_the_hill_divided_among_the_opponents():
    """§6 with hill_divisor = opponents: A's hill 8 × 10 / 3 = 80/3 on him from each of the
    three; A −80 − 48 = −128, B 80/3, C 80/3, D 80/3 + 48 = 224/3 (sum 0, exact)."""
    out = dealer_whists_a_failed_seven(hill_divisor="opponents")
    assert net(out) == {"A": "-128", "B": "80/3", "C": "80/3", "D": "224/3"}


@pytest.mark.parametrize(
    ("middle", "hills"),
    [
        # A returns the whist and D makes the seven: whisted and made, the streak ends.
        (
            contract("D", "7S", {"A": "whist-returned", "B": "half-whist"}, {"D": 7}),
            {"A": "12", "B": "8", "C": "14", "D": "6"},
        ),
        # pass – half-whist – pass and C, the dealer, whists: whisted too.
        (
            contract("D", "7S", {"A": "pass", "B": "half-whist", "C": "whist"}, {"D": 7}),
            {"A": "12", "B": "8", "C": "14", "D": "6"},
        ),
        # pass – half-whist and nobody whists: not an exit; the next all-pass is ×2.
        (
            contract("D", "7S", {"A": "pass", "B": "half-whist"}),
            {"A": "16", "B": "16", "C": "22", "D": "6"},
        ),
    ],
)
def test_a_returned_whist_and_the_dealers_whist_end_the_all_passes(middle, hills):
    """§4.5 whisted_made, fspr, B deals first. Deal 1, all-pass (B plays the talon, no
    trick, no bonus: allpass_zero_dealer false): A 4, C 3, D 3 at 2 a trick → hills 8, 6, 6.
    Deal 2, C deals: D's seven (at least a seven after the all-pass). Deal 3, D deals and
    plays the talon, no trick: A 2, B 4, C 4 — at 2 a trick when deal 2 ended the streak
    (A 12, B 8, C 14), at 4 a trick when it did not (A 16, B 16, C 22)."""
    deals = [allpass(A=4, C=3, D=3, B=0), middle, allpass(A=2, B=4, C=4, D=0)]
    out = scored(fspr(deals, first_dealer="B"))
    assert column(out, "hill") == hills


def test_the_amnesty_of_a_hill_below_zero():
    """§6 step 1 with §4.5's hill form: example 17's hills A 8, B 4, C 8, D −4; the smallest
    (−4) comes off every hill: 12, 8, 12, 0 (no result changes: net A −40, B 0, C −40,
    D +80)."""
    out = scored(fspr([allpass(A=4, B=2, C=4, D=0)], first_dealer="B"))
    assert out["settlement"]["hill_after_amnesty"] == {"A": "12", "B": "8", "C": "12", "D": "0"}
    assert net(out) == {"A": "-40", "B": "0", "C": "-40", "D": "80"}


def test_a_gentleman_split_of_a_made_seven_leaves_the_shortfall_with_the_whister():
    """§4.3 gentleman (fspr), D deals: A 7♠ takes 9; B whists (takes 1), C passes (0). The
    side's 1 trick × 8 = 8 is halved: B 4, C 4. The side is one trick short of the quota 2:
    B alone, the whister, goes to the hill 1 × 4 × 1 = 4 (shortfall_rate 1)."""
    out = scored(fspr([contract("A", "7S", {"B": "whist", "C": "pass"}, {"A": 9, "B": 1})]))
    assert on(out, "A") == {"B": "4", "C": "4", "D": "0"}
    assert column(out, "hill") == {"A": "0", "B": "4", "C": "0", "D": "0"}
    assert column(out, "pool")["A"] == "4"
