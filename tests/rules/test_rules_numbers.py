"""Numbers as the rules read them (rules/numbers.py, rules/options.py): one parser, no exponents,
sane bounds. The files, the forms and the CLI that use it are in test_numbers.py."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from scorekeeper.rules import resolve_options
from scorekeeper.rules.notation import parse_amount
from scorekeeper.rules.numbers import (
    AMOUNT,
    MAX_AMOUNT,
    MAX_STAKE,
    NumberError,
    read_number,
    read_stake,
)

HUGE = ["1e10000000", "1e99999999", "1E5", "2e0", "1e-3", "inf", "nan", "-inf", "0x10", "1_000"]


@pytest.mark.parametrize("text", HUGE)
def test_exponents_and_words_are_not_numbers(text: str) -> None:
    with pytest.raises(NumberError) as refused:
        read_number(text, AMOUNT)
    assert refused.value.reason == "form"
    assert parse_amount(text) is None


@pytest.mark.parametrize(
    "value", [10**200, 10**4000, -(10**7), 1e308, -1e308, 1000001, "1000000.5", "-1000001"]
)
def test_amounts_beyond_a_million_are_out_of_range(value: Any) -> None:
    with pytest.raises(NumberError) as refused:
        read_number(value, AMOUNT)
    assert refused.value.reason == "range"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("10", Fraction(10)),
        ("-4", Fraction(-4)),
        ("−4", Fraction(-4)),
        ("2,5", Fraction(5, 2)),
        (" 1/3 ", Fraction(1, 3)),
        (2.5, Fraction(5, 2)),
        (1000000, Fraction(MAX_AMOUNT)),
        ("-1000000", Fraction(-MAX_AMOUNT)),
    ],
)
def test_plain_amounts_are_read_exactly(text: Any, value: Fraction) -> None:
    assert read_number(text, AMOUNT) == value


def test_the_stake_keeps_its_decimals_and_refuses_more() -> None:
    assert str(read_stake("0.10")) == "0.10"
    assert read_stake(1000000) == Decimal(MAX_STAKE)
    for bad in ("0.00001", "1e3", "1/2", "1000000.01", 10**4000, "-1"):
        with pytest.raises(NumberError):
            read_stake(bad)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("whist_scale", "1e10000000", "Whists per trick: must be a number from 0 to 100"),
        ("shortfall_rate", "1e99999999", "Whister short of quota, hill per trick: must be"),
        ("consolation", "1e10000000", "Consolation per undertrick: must be a number from 0"),
        ("stake", "1e10000000", "Stake per whist: must be money from 0 to 1000000"),
        ("stake", 10**4000, "Stake per whist: must be money"),
        ("stake", "1000000000", "Stake per whist: must be money"),
        ("pool_target", 10**12, "Pool target: must be a whole number from 1 to 100000"),
        ("hill_whists", 0, "Whists per hill point: must be a whole number from 1 to 1000"),
        ("allpass_price", 2.5, "All-pass, price of a trick: must be a whole number"),
    ],
)
def test_options_out_of_range_are_named_by_their_label(key: str, value: Any, message: str) -> None:
    _, problems = resolve_options("sochi", {key: value})
    assert [p.field for p in problems] == [f"options.{key}"]
    assert message in str(problems[0])
    assert len(str(problems[0])) < 200


@pytest.mark.parametrize(
    ("key", "low", "below"),
    [
        ("shortfall_rate", "0", "-1"),
        ("shortfall_rate", "0", "-1/100"),
        ("misere_hill", 0, -1),
        ("misere_hill", 0, "-1"),
    ],
)
def test_a_rate_or_a_hill_below_zero_is_refused_and_zero_is_allowed(
    key: str, low: Any, below: Any
) -> None:
    options, problems = resolve_options("sochi", {key: low})
    assert problems == [] and getattr(options, key) == 0
    options, problems = resolve_options("sochi", {key: below})
    assert [p.field for p in problems] == [f"options.{key}"]
    assert "from 0 to" in str(problems[0])


def test_an_all_pass_progression_holds_at_most_twenty_multipliers() -> None:
    """A run of all-passes longer than twenty is not a game anyone plays: the list stops
    there, and the twentieth multiplier is still accepted."""
    options, problems = resolve_options("rostov", {"allpass_progression": list(range(1, 21))})
    assert problems == [] and options.allpass_progression == tuple(range(1, 21))
    _, problems = resolve_options("rostov", {"allpass_progression": list(range(1, 22))})
    assert [p.field for p in problems] == ["options.allpass_progression"]
    assert "at most 20 numbers" in str(problems[0])
