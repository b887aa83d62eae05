"""Numbers as the rules read them (rules/numbers.py, rules/options.py): one parser, no exponents,
sane bounds. The files, the forms and the CLI that use it are in tests/input/test_numbers.py."""

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
    whole_text,
)
from scorekeeper.rules.options import OPTION_BOUNDS

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


@pytest.mark.parametrize("value", [-1e6, 1e6, 0.0, 2.5])
def test_a_float_at_or_inside_the_bounds_is_read(value: float) -> None:
    """A number in a game file may come as a JSON float: its bounds hold at both ends, as a
    whole or decimal number's do."""
    assert read_number(value, AMOUNT) == Fraction(value)


@pytest.mark.parametrize("value", [-1000000.5, 1000000.5])
def test_a_float_just_beyond_the_bounds_is_out_of_range(value: float) -> None:
    with pytest.raises(NumberError) as refused:
        read_number(value, AMOUNT)
    assert refused.value.reason == "range"


#: docs/limits.md's table: every numeric option, (lowest, highest, whole numbers only).
LIMITS = {
    "pool_target": (1, 100_000, True),
    "pool_whists": (1, 1000, True),
    "hill_whists": (1, 1000, True),
    "misere_value": (0, 1000, True),
    "misere_hill": (0, 1000, True),
    "allpass_price": (0, 1000, True),
    "allpass_progression": (0, 100, True),
    "whist_scale": (0, 100, False),
    "remise_scale": (0, 100, False),
    "shortfall_rate": (0, 100, False),
    "consolation": (0, 1000, False),
}


@pytest.mark.parametrize("key", LIMITS)
def test_every_option_is_read_between_the_bounds_the_limits_page_gives(key: str) -> None:
    low, high, whole = LIMITS[key]
    limits = OPTION_BOUNDS[key]
    assert (read_number(low, limits), read_number(str(high), limits)) == (low, high)
    for beyond in (low - 1, high + 1, *([] if whole else [f"{high}.5"])):
        with pytest.raises(NumberError) as refused:
            read_number(beyond, limits)
        assert refused.value.reason == "range"
    if whole:
        with pytest.raises(NumberError) as refused:
            read_number(f"{low}.5", limits)
        assert refused.value.reason == "whole"
    else:
        assert read_number(f"{low}.5", limits) == Fraction(2 * low + 1, 2)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (999_999_999, 999_999_999),
        (-999_999_999, -999_999_999),
        ("999999999", 999_999_999),
        (10**9, None),
        (-(10**9), None),
        ("1000000000", None),
    ],
)
def test_a_whole_number_has_at_most_nine_digits(raw: Any, expected: int | None) -> None:
    """docs/limits.md: at most 9 digits before the point; a number past them is not read
    (as an int in JSON as in text)."""
    assert whole_text(raw) == expected
