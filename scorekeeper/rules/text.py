"""Text people type or send: names, game names, correction reasons and the currency.

Every such text is NFC-normalised (so "Anna" typed two ways is one name) and refused if it
holds a character that shows nothing or changes how the text around it shows. That is
decided by Unicode property, never by a list of examples:

- general category Cc (controls: NUL, ESC, a new line in a name), Cf (format: zero-width
  space, bidi overrides, soft hyphen, tag characters, interlinear annotation...), Co (private
  use), Cn (unassigned), Cs (lone surrogates);
- Default_Ignorable_Code_Point (combining grapheme joiner, variation selectors, the Hangul
  fillers U+115F, U+1160, U+3164, U+FFA0...);
- the other blanks that look like nothing: fillers (characters named "... FILLER" of
  category Lo or Mn, and U+2800 braille pattern blank, the dotless braille cell);
- separators other than the plain space U+0020 (U+00A0, U+200A hair space, U+2028...).

Two names are the same player when they are equal after NFKC and case folding ("Anna",
"ANNA" and "Ａｎｎａ" are one person). Every entry path (the new-game form, the company
roster, a rename, the web import of a game or company file, `scorekeeper import`, `score`)
calls `bad_character` and `name_key` here, and nothing else.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata

import regex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: General categories refused anywhere in a text: control, format, private use, unassigned,
#: surrogate.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs"})
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
_BRAILLE_BLANK = "\u2800"  # BRAILLE PATTERN BLANK: a braille cell with no dots raised

_NAMES = {
    "\u200b": "zero-width space",
    "\u200c": "zero-width non-joiner",
    "\u200d": "zero-width joiner",
    "\ufeff": "zero-width no-break space",
    "\x1b": "escape",
    "\x00": "NUL",
    "\n": "new line",
    "\r": "carriage return",
    "\t": "tab",
}


_SURROGATE = re.compile("[\ud800-\udfff]")


def normalize(text: str) -> str:
    """The text in Unicode NFC (composed) form."""
    if text.isascii():  # nearly every text: NFC already, and no surrogate
        return text
    if has_surrogate(text):  # NFC of a lone surrogate is itself; keep it for the check
        return text
    return unicodedata.normalize("NFC", text)


def name_key(name: str) -> str:
    """What two names must differ in to be two players: NFKC, then case folded (and NFKC
    again, as case folding can undo it)."""
    folded = unicodedata.normalize("NFKC", name.strip()).casefold()
    return unicodedata.normalize("NFKC", folded)


def has_surrogate(text: str) -> bool:
    """Whether the text holds a lone surrogate (JSON's "\\ud800" reads as one)."""
    return not text.isascii() and _SURROGATE.search(text) is not None


@functools.lru_cache(maxsize=4096)
def refused(ch: str) -> bool:
    """Whether a text may never hold this character (see the module's docstring)."""
    category = unicodedata.category(ch)
    if category in REFUSED_CATEGORIES or category in ("Zl", "Zp"):
        return True
    if category == "Zs":
        return ch != " "
    if _IGNORABLE.match(ch) is not None or ch == _BRAILLE_BLANK:
        return True
    return category in ("Lo", "Mn") and unicodedata.name(ch, "").endswith(" FILLER")


def bad_character(text: str, *, newlines: bool = False) -> str | None:
    """The first character a name or reason may not hold, described ("U+200B zero width
    space"), or None if there is none. With newlines, line breaks (and tabs) are allowed."""
    for ch in text:
        if newlines and ch in "\n\r\t":
            continue
        if refused(ch):
            return describe(ch)
    return None


def escaped(text: str, *, newlines: bool = False) -> str:
    """A stored text shown as it may be shown: each character a name may not hold (stored by
    an older release) written as its escape, "A\\u200eB", so the page, the file and the CSV
    name it visibly instead of refusing it. With newlines, line breaks and tabs stay."""
    if text.isascii() and text.isprintable():  # the fast path: nearly every text
        return text
    kept = "\n\r\t" if newlines else ""
    if not any(refused(ch) and ch not in kept for ch in text):
        return text
    return "".join(_escape(ch) if refused(ch) and ch not in kept else ch for ch in text)


def _escape(ch: str) -> str:
    return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"


def describe(ch: str) -> str:
    """A character as people can look it up: "U+202E right-to-left override"."""
    if "\ud800" <= ch <= "\udfff":
        return f"U+{ord(ch):04X} lone surrogate"
    name = _NAMES.get(ch) or unicodedata.name(ch, "").lower()
    if not name:
        name = {"Co": "private use character", "Cn": "unassigned character"}.get(
            unicodedata.category(ch), "control character"
        )
    return f"U+{ord(ch):04X} {name}"


def first_surrogate(value: Any) -> str | None:
    """The first lone surrogate anywhere in a parsed JSON value (keys too), described."""
    if isinstance(value, str):
        if value.isascii():
            return None
        for ch in value:
            if "\ud800" <= ch <= "\udfff":
                return describe(ch)
        return None
    if isinstance(value, list):
        for item in value:
            if (found := first_surrogate(item)) is not None:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            if (found := first_surrogate(key)) is not None:
                return found
            if (found := first_surrogate(item)) is not None:
                return found
    return None


def plain_json(text: str | bytes) -> bool:
    """Whether every string JSON reads from this (valid) text is NFC already and holds no
    lone surrogate, so that reading it needs neither walk (first_surrogate, normalize_all):
    the text holds no \\u escape, no surrogate, and is NFC itself. A JSON string is the text
    between two quotes, and a quote neither composes nor reorders with what is beside it,
    so each string of an NFC text is NFC (the other escapes give ASCII characters that are
    as inert). An ASCII text (the usual game file) answers at once."""
    if isinstance(text, bytes):
        if text.isascii() and b"\x00" not in text:  # UTF-8, as json reads it
            return b"\\u" not in text
        try:  # strict, as json's is not: it refuses an encoded surrogate
            text = text.decode(json.detect_encoding(text))
        except UnicodeDecodeError:
            return False
    elif not text.isascii():
        try:
            text.encode()  # strict: refuses a surrogate
        except UnicodeEncodeError:
            return False
    return "\\u" not in text and (text.isascii() or unicodedata.is_normalized("NFC", text))


def plain_value(value: Any) -> bool:
    """plain_json of a parsed JSON value, written again with its texts as they are (a file
    that spelled them as \\u escapes): quicker than walking through it, and as exact."""
    try:
        return plain_json(json.dumps(value, ensure_ascii=False))
    except (ValueError, RecursionError):
        return False


def normalize_all(value: Any) -> Any:
    """A parsed JSON value with every string (keys too) in NFC form."""
    if isinstance(value, str):
        return normalize(value)
    if isinstance(value, list):
        return [normalize_all(v) for v in value]
    if isinstance(value, dict):
        return {normalize_all(k): normalize_all(v) for k, v in value.items()}
    return value
