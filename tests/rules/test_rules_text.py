"""Text as the rules read it (rules/text.py): NFC, and no control, zero-width, bidi or blank
characters. The files, the forms and the CLI that use it are in tests/input/test_text_input.py."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.text import (
    bad_character,
    first_surrogate,
    normalize,
    normalize_all,
    plain_json,
    plain_value,
)

BAD = ["\x1b[2J", "\x00", "\n", "\x7f", "\x85", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
BAD += ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
COMPOSED = "\u00c5sa"  # Åsa
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)


@pytest.mark.parametrize("ch", BAD)
def test_the_rules_refuse_each_bad_character(ch: str) -> None:
    assert bad_character(f"Anna{ch}") is not None
    assert f"U+{ord(ch[0]):04X}" in str(bad_character(f"Anna{ch}"))
    assert bad_character("Анна Ёлкина, ♠ 7") is None
    assert bad_character("line one\nline two", newlines=True) is None


def test_normalize_composes() -> None:
    assert DECOMPOSED != COMPOSED
    assert normalize(DECOMPOSED) == COMPOSED


def test_a_filler_that_shows_nothing_is_refused_and_a_gap_filler_that_shows_is_kept() -> None:
    # U+16FE4 is a blank mark (category Mn, named "... FILLER"): it looks like nothing.
    # U+A8F9 is named "... GAP FILLER" too, but it is punctuation (Po) that shows a sign.
    blank, sign = "\U00016fe4", "\ua8f9"
    assert unicodedata.category(blank) == "Mn" and unicodedata.category(sign) == "Po"
    assert bad_character(f"Anna{blank}") == "U+16FE4 khitan small script filler"
    assert bad_character(f"Anna{sign}") is None


# Strings rich in what NFC changes: combining marks, Hangul jamo, ≠'s parts, surrogates.
_PIECES = 'aAé\u0301\u0308\u0338=<\u1100\u1161\u11a8\uac00"\\\n\u00c5\ud800\udfff Анна'
_TEXTS = st.text(alphabet=st.sampled_from(_PIECES), max_size=8)
_VALUES = st.recursive(
    _TEXTS | st.integers(-5, 5) | st.none(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXTS, inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.booleans())
def test_a_plain_file_is_read_as_the_walk_through_it_would_read_it(
    value: Any, escaped: bool
) -> None:
    """docs/game-format.md: a file's texts are read in NFC and a lone surrogate refuses the
    file. A text plain_json lets through unwalked reads exactly as the walk would read it."""
    text = json.dumps(value, ensure_ascii=escaped)
    data = json.loads(text)
    if plain_json(text) or plain_json(text.encode("utf-8", "surrogatepass")):
        assert first_surrogate(data) is None
        assert normalize_all(data) == data
    if plain_value(data):
        assert first_surrogate(data) is None
        assert normalize_all(data) == data


def test_plain_json_says_which_texts_need_the_walk() -> None:
    """An ASCII text without escapes and an NFC one are plain; an escape, a decomposed
    letter or a lone surrogate are not (docs/game-format.md: names are read in NFC)."""
    assert plain_json('{"players": ["Anna", "Boris"]}')
    assert plain_json('{"players": ["Анна", "Åsa"]}'.encode())
    assert plain_json('{"players": ["Анна"]}'.encode("utf-16"))
    assert not plain_json('{"players": ["\\u0410нна"]}')
    assert not plain_json(f'{{"players": ["{DECOMPOSED}"]}}')
    assert not plain_json('{"players": ["A\ud800"]}')
    assert not plain_json('{"players": ["A\ud800"]}'.encode("utf-8", "surrogatepass"))
    assert plain_value(json.loads('{"players": ["\\u0410нна"]}'))
    assert not plain_value(json.loads('{"players": ["A\\u0301"]}'))
    assert not plain_value(json.loads('{"players": ["A\\ud800"]}'))
