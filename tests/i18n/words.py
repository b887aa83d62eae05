"""What the words' tests read: a language's catalogue, and the Latin-script words a person
reads on a page (none may stand on a Russian or Ukrainian screen but names and codes)."""

from __future__ import annotations

import re

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from ..harness import TRANSLATIONS


def catalogue(lang: str) -> Catalog:
    """The language's .po catalogue, as Babel reads it."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


#: Words that stay as they are in every language: the switcher and the file formats.
UNTRANSLATED = {"EN", "RU", "UK", "SR", "HR", "English", "Srpski", "Hrvatski"}
UNTRANSLATED |= {"PDF", "JSON", "json", "UTC", "QR", "QR-"}


def latin_words(html: str) -> set[str]:
    """Latin words a person reads on a page: its text and its labels for screen readers."""
    import html as html_module

    body = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    labels = re.findall(
        r'(?:title|aria-label|placeholder|alt|data-will|data-nothing|data-missing|data-changed)="([^"]*)"',
        body,
    )
    text = re.sub(r"<[^>]+>", " ", body) + " " + " ".join(labels)
    text = re.sub(r"https?://\S+", " ", html_module.unescape(text))
    return set(re.findall(r"[A-Za-z][A-Za-z'-]+", text))
