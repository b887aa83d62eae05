"""Text as the rules read it (rules/text.py): NFC, and no control, zero-width, bidi or blank
characters. The files, the forms and the CLI that use it are in test_text_input.py."""

from __future__ import annotations

import unicodedata

import pytest

from scorekeeper.rules.text import bad_character, normalize

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
