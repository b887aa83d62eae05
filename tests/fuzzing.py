"""The hostile corpus the fuzz tests send into every field (issue 22): non-ASCII digits, huge
numbers and exponents, every Unicode category, lone surrogates, very long strings, bidi
controls, formula prefixes, and JSON values of the wrong type."""

from __future__ import annotations

import copy
import os
from typing import Any

from hypothesis import strategies as st

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
"""How many requests (or CLI runs) one fuzz test makes: a few hundred by default (seconds);
FUZZ_EXAMPLES=10000 for the long run (bench/fuzz.sh)."""

DIGITS = [
    "²",  # superscript two: isdigit() says yes, int() says no
    "٩",  # Arabic-Indic nine: int() reads it as 9
    "۷",  # extended Arabic-Indic seven
    "１２",  # fullwidth
    "߀",  # NKo zero
    "𝟘",  # mathematical double-struck zero
    "Ⅻ",  # Roman numeral twelve (No)
    "½",
    "७",  # Devanagari seven
    "1٢",
    "7٩S",
    "٦S",
]
NUMBERS = [
    "1e10000000",
    "1E5",
    "9" * 5000,
    "9" * 5000 + "S",
    "-" + "9" * 4400,
    "0x10",
    "1_000",
    "inf",
    "-inf",
    "nan",
    "NaN",
    "1/0",
    "0/0",
    "−5",
    "–5",
    "+1",
    "-0",
    " 7S ",
    "1,5",
    "1.5.5",
    "99999999999999999999",
    "-99999999999999999999",
    "0.0000001",
    "1e-400",
    "10**100",
    "١٠",
]
TEXT = [
    "",
    " ",
    "\u202eevil",
    "An\u200bna",
    "An\u00adna",
    "\u3164",
    "\u115f",
    "\u2800",
    "\ufeff",
    "\x00",
    "\x1b[31mred",
    "\r\n",
    "\t",
    "\ud800",
    "a\udfffb",
    "\U000e0041",
    "\U0010ffff",
    "\ue000",
    "\u0378",
    "\ufe0f",
    '=HYPERLINK("http://x","y")',
    "+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1)",
    "<script>alert(1)</script>",
    "{{7*7}}",
    "%s%n",
    "../../etc/passwd",
    "' OR 1=1 --",
    "null",
    "true",
    "[]",
    "{}",
    "x" * 5000,
    "Ж" * 3000,
    "😀" * 500,
    "a\u0301" * 200,
]
CORPUS = DIGITS + NUMBERS + TEXT


def hostile_text() -> st.SearchStrategy[str]:
    """One hostile field value: from the corpus, random text of any category (surrogates
    too), or a corpus value glued to random text."""
    anything = st.text(st.characters(exclude_categories=()), max_size=40)
    corpus = st.sampled_from(CORPUS)
    return st.one_of(
        st.sampled_from(DIGITS),
        st.sampled_from(NUMBERS),
        corpus,
        anything,
        st.tuples(corpus, anything).map("".join),
        st.tuples(st.sampled_from(["7", "6", "1", "0", "-1", "10"]), corpus).map("".join),
    )


def hostile_json() -> st.SearchStrategy[Any]:
    """A JSON value of any type: hostile text, huge and odd numbers, lists and objects."""
    leaves = st.one_of(
        hostile_text(),
        st.integers(),
        st.sampled_from([10**4000, -(10**400), 2**63, 2**53 + 1, -1, 0, True, False, None]),
        st.just(HUGE),
        st.floats(allow_nan=True, allow_infinity=True),
    )
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(hostile_text(), inner, max_size=3)
        ),
        max_leaves=6,
    )


HUGE = "@@huge-number@@"
"""Stands for a 5,000-digit number in a JSON value (Python cannot even print one): to_json
writes the digits in its place."""


def to_json(value: Any, *, ensure_ascii: bool = True) -> bytes:
    """A JSON text of a hostile value (NaN and lone surrogates kept), HUGE as its digits."""
    import json

    text = json.dumps(value, ensure_ascii=ensure_ascii, allow_nan=True)
    text = text.replace(f'"{HUGE}"', "9" * 5000)
    return text.encode("utf-8", "surrogatepass")


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a parsed JSON value (dict keys and list indexes)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of value with the item at path replaced by new (the root for ())."""
    if not path:
        return new
    out = copy.deepcopy(value)
    place = out
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = new
    return out


@st.composite
def hostile_file(draw: st.DrawFn, good: Any) -> Any:
    """A good file with one to three places replaced by hostile values (a key renamed, or a
    value of the wrong type)."""
    data = good
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(data)))
        if where and isinstance(where[-1], str) and draw(st.booleans()):
            parent = copy.deepcopy(data)
            place = parent
            for step in where[:-1]:
                place = place[step]
            place[draw(hostile_text())] = place.pop(where[-1])
            data = parent
        else:
            data = replaced(data, where, draw(hostile_json()))
    return data
