"""Text people type or send: names, game names and correction reasons.

Every such text is NFC-normalised (so "Anna" typed two ways is one name) and refused if it
holds a control character (ESC, NUL, a newline in a name...), an invisible zero-width
character, or a bidi override that would show "\u202eevil" as "live". Every entry path
(form, web import, `scorekeeper import`, `score`) calls this one check.
"""

from __future__ import annotations

import unicodedata

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Invisible characters that make two equal-looking names differ.
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")
#: Characters that reorder the text around them (embedding, override, isolate, marks).
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")

_NAMES = {
    "\u200b": "zero-width space",
    "\u200c": "zero-width non-joiner",
    "\u200d": "zero-width joiner",
    "\u2060": "word joiner",
    "\ufeff": "zero-width no-break space",
    "\x1b": "escape",
    "\x00": "NUL",
    "\n": "new line",
    "\r": "carriage return",
    "\t": "tab",
}


def normalize(text: str) -> str:
    """The text in Unicode NFC (composed) form."""
    return unicodedata.normalize("NFC", text)


def bad_character(text: str, *, newlines: bool = False) -> str | None:
    """The first character a name or reason may not hold, described ("U+200B zero-width
    space"), or None if there is none. With newlines, line breaks (and tabs) are allowed."""
    for ch in text:
        code = ord(ch)
        if newlines and ch in "\n\r\t":
            continue
        if code < 32 or 0x7F <= code <= 0x9F or ch in ZERO_WIDTH or ch in BIDI:
            return describe(ch)
        if ch in "\u2028\u2029":  # line and paragraph separators
            return describe(ch)
    return None


def describe(ch: str) -> str:
    """A character as people can look it up: "U+202E right-to-left override"."""
    name = _NAMES.get(ch) or unicodedata.name(ch, "control character").lower()
    return f"U+{ord(ch):04X} {name}"


def normalize_all(value: Any) -> Any:
    """A parsed JSON value with every string (keys too) in NFC form."""
    if isinstance(value, str):
        return normalize(value)
    if isinstance(value, list):
        return [normalize_all(v) for v in value]
    if isinstance(value, dict):
        return {normalize_all(k): normalize_all(v) for k, v in value.items()}
    return value
