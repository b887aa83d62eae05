"""Serbian Cyrillic from Serbian Latin: writes the sr_Cyrl catalogue from the sr_Latn one.

    .venv/bin/python scripts/sr_cyrillic.py           # write sr_Cyrl/LC_MESSAGES/messages.po
    .venv/bin/python scripts/sr_cyrillic.py --check   # exit 1 if the committed one differs

The Cyrillic catalogue is never edited by hand: translate in sr_Latn, then run this (and
`pybabel compile -d scorekeeper/translations`). The transliteration is the standard one-to-one
map (lj → љ, nj → њ, dž → џ, …) and leaves alone what is not Serbian text: placeholders
(%(name)s, %s, {n}, {{…}}), HTML tags and entities, addresses, paths and option names
(--lang, $LANG, docs/deploy.md, played_on), words in capitals or with capitals inside (JSON,
PDF, PostgreSQL), words with q, w, x or y (foreign), the names in KEEP, and a lowercase word
that stands as it is in the English message (a code of the file format: sochi, whist).
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LATIN = TRANSLATIONS / "sr_Latn" / "LC_MESSAGES" / "messages.po"
CYRILLIC = TRANSLATIONS / "sr_Cyrl" / "LC_MESSAGES" / "messages.po"

LETTERS = {
    "lj": "љ", "nj": "њ", "dž": "џ",
    "Lj": "Љ", "LJ": "Љ", "Nj": "Њ", "NJ": "Њ", "Dž": "Џ", "DŽ": "Џ",
    "a": "а", "b": "б", "c": "ц", "č": "ч", "ć": "ћ", "d": "д", "đ": "ђ", "e": "е",
    "f": "ф", "g": "г", "h": "х", "i": "и", "j": "ј", "k": "к", "l": "л", "m": "м",
    "n": "н", "o": "о", "p": "п", "r": "р", "s": "с", "š": "ш", "t": "т", "u": "у",
    "v": "в", "z": "з", "ž": "ж",
    "A": "А", "B": "Б", "C": "Ц", "Č": "Ч", "Ć": "Ћ", "D": "Д", "Đ": "Ђ", "E": "Е",
    "F": "Ф", "G": "Г", "H": "Х", "I": "И", "J": "Ј", "K": "К", "L": "Л", "M": "М",
    "N": "Н", "O": "О", "P": "П", "R": "Р", "S": "С", "Š": "Ш", "T": "Т", "U": "У",
    "V": "В", "Z": "З", "Ž": "Ж",
}  # fmt: skip
_LETTER = re.compile("|".join(sorted(map(re.escape, LETTERS), key=len, reverse=True)))

#: Words where "nj" or "dž" are two letters (a prefix meets a root): n+j, d+ž.
TWO_LETTERS = {
    "injekcij": "инјекциј",
    "konjunkt": "конјункт",
    "nadživ": "наджив",
    "podžanr": "поджанр",
}
#: Names written in Latin in Cyrillic text too (programs, systems, keys).
KEEP = frozenset({"Linux", "Windows", "Windowsu", "Ctrl", "Chromium", "Excel", "Google", "Sheets"})
#: The suits of a contract in the game file ("7S"), letters of a code where the English has them.
SUITS = frozenset("SCDH")
#: Abbreviations written in Latin in Cyrillic text too.
ACRONYMS = frozenset({"CSV", "HTTP", "HTTPS", "JSON", "MB", "PDF", "QR", "TLS", "URL"})
#: Abbreviations of Russian names, written in Cyrillic (the Russian federation of sport preferans).
CYRILLIC_ACRONYMS = frozenset({"FSPR"})
#: Serbian words spelt as an English word of the same message (Balkan terms the English
#: messages use as they are, and words both languages share): Serbian, so transliterated.
SERBIAN_AS_ENGLISH = frozenset(
    "bula bule bulu supa supe supu refa refe refu kontra rekontra subkontra mortkontra igra "
    "betl sans pik karo herc tref dalje zovem dođem kapa šešir partija otpisivanje "
    "argument disk folder format link minus plus partner program server port token instance "
    "bonus talon".split()
)

#: What is not Serbian text: placeholders, markup, addresses, paths, options, codes.
_UNTOUCHED = re.compile(
    r"""%\(\w+\)[sdrf]|%[sdr%]|\{\{.*?\}\}|\{[^{}\s]*\}|<[^>]*>|&\w+;|https?://\S+|\w+://\S*"""
    r"""|[\w.~-]*[/@$][\w.<>/@:~$-]*|(?<!\w)--?[A-Za-z][\w-]*|\b\w+(?:[._]\w+)+\b"""
)
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_SLASHED_WORDS = re.compile(r"[^\W\d_]+(?:/[^\W\d_]+)+")


def _keep_word(word: str, english: str) -> bool:
    if word in CYRILLIC_ACRONYMS:
        return False
    if word in KEEP or word in ACRONYMS or re.search("[qwxyQWXY]", word):
        return True
    if word.lower() in SERBIAN_AS_ENGLISH:
        return False
    if len(word) > 1 and not word.isupper() and any(c.isupper() for c in word[1:]):
        return True  # PostgreSQL, SQLite, macOS
    if re.search(rf"\b{re.escape(word)}\b", english) is None:
        return False
    if len(word) == 1:
        return word in SUITS
    return word.isupper() or (word.islower() and len(word) > 2)


def _word(word: str, english: str) -> str:
    if _keep_word(word, english):
        return word
    lower = word.lower()
    for latin, cyrillic in TWO_LETTERS.items():
        if lower.startswith(latin):
            head = cyrillic if word[0].islower() else cyrillic[0].upper() + cyrillic[1:]
            return head + _letters(word[len(latin) :])
    return _letters(word)


def _letters(text: str) -> str:
    return _LETTER.sub(lambda m: LETTERS[m.group(0)], text)


def cyrillic(text: str, english: str = "") -> str:
    """Serbian Latin text in Cyrillic; `english` is the message it translates (its codes stay)."""
    out, at = [], 0
    for found in _UNTOUCHED.finditer(text):
        out.append(_prose(text[at : found.start()], english))
        token = found.group(0)
        # words joined by a slash (ulaza/izlaza, yes/no) are words, not a path
        slashed = _SLASHED_WORDS.fullmatch(token) and token not in english
        out.append(_prose(token, english) if slashed else token)
        at = found.end()
    out.append(_prose(text[at:], english))
    return "".join(out)


def _prose(text: str, english: str) -> str:
    return _WORD.sub(lambda m: _hyphenated(m.group(0), english), text)


def _hyphenated(token: str, english: str) -> str:
    """A word, or words joined by hyphens: a code of the English as it is (whist-talon), else
    each part on its own (PDF-a → PDF-а)."""
    if "-" in token and token.isascii() and re.search(rf"(?<![\w-]){token}(?![\w-])", english):
        return token
    return "-".join(_word(part, english) for part in token.split("-"))


def transliterated(latin: Catalog) -> Catalog:
    """The Cyrillic catalogue of a Latin one: the same messages, the same order."""
    out = Catalog(
        locale="sr_Cyrl",
        project=latin.project,
        version=latin.version,
        copyright_holder=latin.copyright_holder,
        creation_date=latin.creation_date,
        revision_date=latin.revision_date,
        header_comment=latin.header_comment.replace("Serbian (Latin)", "Serbian (Cyrillic)"),
        fuzzy=False,
    )
    for message in latin:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else " ".join(message.id)
        if isinstance(message.string, (tuple, list)):
            string: str | tuple[str, ...] = tuple(cyrillic(s, english) for s in message.string)
        else:
            string = cyrillic(message.string, english)
        out.add(
            message.id,
            string,
            locations=message.locations,
            flags=message.flags,
            auto_comments=message.auto_comments,
            user_comments=message.user_comments,
            context=message.context,
        )
    return out


def expected_text() -> bytes:
    """The sr_Cyrl catalogue as this script writes it from the committed sr_Latn one."""
    with LATIN.open("rb") as f:
        latin = read_po(f, locale="sr_Latn")
    buffer = io.BytesIO()
    write_po(buffer, transliterated(latin), width=76)
    return buffer.getvalue()


def main(argv: list[str]) -> int:
    text = expected_text()
    if "--check" in argv:
        same = CYRILLIC.is_file() and CYRILLIC.read_bytes() == text
        if not same:
            print(f"{CYRILLIC} is not the transliteration of {LATIN}: run scripts/sr_cyrillic.py")
        return 0 if same else 1
    CYRILLIC.parent.mkdir(parents=True, exist_ok=True)
    CYRILLIC.write_bytes(text)
    print(f"wrote {CYRILLIC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
