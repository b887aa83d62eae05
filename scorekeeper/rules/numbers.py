"""Numbers people type or send: amounts, option values and the stake (docs/rules.md §7).

Every number that enters the game (a web form field, a game file, the command line) is read
here, and only here. A number is read by its shape first (a pattern and a bound on its
digits), never by computing it: `Fraction("1e10000000")` would compute ten million digits
and freeze the server, so exponent notation is refused before any arithmetic. Whatever is
accepted is small enough for every page, settlement and PDF to render.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

MAX_AMOUNT = 10**6
"""The largest amount (pool, hill or whists) one correction entry may write, either sign."""
MAX_STAKE = 10**6
"""The largest stake per whist."""
MAX_TEXT = 40
"""Longer text is not read at all."""

_DIGITS = 9  # whole-part digits: more than any bound below needs
_PLACES = 6  # decimal places of an amount or an option
_STAKE_PLACES = 4
_DECIMAL = re.compile(rf"([+-]?)([0-9]{{1,{_DIGITS}}})(?:[.,]([0-9]{{1,{_PLACES}}}))?")
_RATIO = re.compile(rf"([+-]?)([0-9]{{1,{_DIGITS}}})/([0-9]{{1,{_DIGITS}}})")
_MINUS = str.maketrans({"−": "-", "–": "-"})
_WHOLE = re.compile(rf"[+-]?[0-9]{{1,{_DIGITS}}}")


class NumberError(ValueError):
    """A value that is not an acceptable number: `reason` is "form", "whole" or "range"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Bounds:
    """What an option or amount may be: from `low` to `high`; whole numbers only or not."""

    low: Fraction
    high: Fraction
    whole: bool = False

    @property
    def low_text(self) -> str:
        """The lower bound as written in a message."""
        return _text(self.low)

    @property
    def high_text(self) -> str:
        """The upper bound as written in a message."""
        return _text(self.high)


def _text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def bounds(low: int, high: int, *, whole: bool = False) -> Bounds:
    """Bounds from two whole numbers."""
    return Bounds(Fraction(low), Fraction(high), whole)


AMOUNT = bounds(-MAX_AMOUNT, MAX_AMOUNT)
"""A correction entry's pool, hill or whists."""
STAKE = bounds(0, MAX_STAKE)


def read_number(raw: object, limits: Bounds) -> Fraction:
    """An exact number within the bounds from an int, a float or a string like "2.5",
    "-4", "1/2" (a decimal comma and a true minus sign are read too).

    Raises NumberError: "form" for anything else (exponents, text, NaN, too many digits),
    "whole" for a fraction where a whole number is needed, "range" outside the bounds.
    The work is bounded by the length of the text, never by the size of the number.
    """
    if isinstance(raw, bool):
        raise NumberError("form")
    if isinstance(raw, int):
        value = Fraction(raw) if -(10**_DIGITS) < raw < 10**_DIGITS else None
        if value is None:  # a huge int compares cheaply; it is out of range, not unreadable
            raise NumberError("range")
    elif isinstance(raw, float):
        if not math.isfinite(raw):
            raise NumberError("form")
        if not float(limits.low) <= raw <= float(limits.high):
            raise NumberError("range")
        value = _parse(repr(raw))
    elif isinstance(raw, str):
        value = _parse(raw)
    else:
        raise NumberError("form")
    if limits.whole and value.denominator != 1:
        raise NumberError("whole")
    if not limits.low <= value <= limits.high:
        raise NumberError("range")
    return value


def _parse(text: str) -> Fraction:
    if len(text) > MAX_TEXT:
        raise NumberError("form")
    text = text.strip().translate(_MINUS)
    match = _DECIMAL.fullmatch(text)
    if match is not None:
        sign, whole, part = match.groups()
        value = Fraction(int(whole + (part or "")), 10 ** len(part or ""))
        return -value if sign == "-" else value
    match = _RATIO.fullmatch(text)
    if match is not None:
        sign, top, bottom = match.groups()
        if int(bottom) == 0:
            raise NumberError("form")
        value = Fraction(int(top), int(bottom))
        return -value if sign == "-" else value
    raise NumberError("form")


def read_whole(raw: object, limits: Bounds) -> int:
    """A whole number within the bounds (an int, or a string of digits); raises NumberError."""
    if isinstance(raw, float) and raw.is_integer() is False:
        raise NumberError("whole")
    if not isinstance(raw, int | str) or isinstance(raw, bool):
        raise NumberError("form")
    value = read_number(raw, Bounds(limits.low, limits.high, whole=True))
    return int(value)


def read_stake(raw: object) -> Decimal:
    """The stake per whist: a decimal from 0 to MAX_STAKE with at most four places, kept
    as written ("0.10" stays "0.10"); raises NumberError."""
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise NumberError("form")
    text = raw if isinstance(raw, str) else repr(raw)
    if len(text) > MAX_TEXT:
        raise NumberError("form")
    text = text.strip().translate(_MINUS).replace(",", ".")
    match = _DECIMAL.fullmatch(text)
    if match is None or len(match.group(3) or "") > _STAKE_PLACES:
        raise NumberError("form")
    read_number(text, STAKE)  # the bounds
    return Decimal(text)


def whole_text(raw: object, *, digits: int = _DIGITS) -> int | None:
    """A whole number written in ASCII digits ("12", "-3", at most `digits` of them), else None.

    `int()` alone is not enough for text people send: it reads "٩" (Arabic-Indic nine) and
    "１２" (fullwidth) as numbers, accepts "1_000" and spaces, and raises on more than 4,300
    digits; `str.isdigit()` passes "²", which `int()` then refuses. This reads only
    [0-9], after bounding the length.
    """
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if -(10**digits) < raw < 10**digits else None
    if not isinstance(raw, str) or len(raw) > digits + 1:
        return None
    text = raw.translate(_MINUS)
    if _WHOLE.fullmatch(text) is None or len(text.lstrip("+-")) > digits:
        return None
    return int(text)
