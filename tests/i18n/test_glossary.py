"""One word for each thing of the game (docs/glossary.md): the Russian and Ukrainian
catalogues use the glossary's word and none of its rivals; the English of the code and the
templates none of the English rivals."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from ..harness import ROOT, TRANSLATIONS

GLOSSARY = ROOT / "docs" / "glossary.md"


def terms() -> list[dict[str, object]]:
    """The rows of the glossary's table of terms."""
    rows = []
    text = GLOSSARY.read_text(encoding="utf-8").split("## Terms", 1)[1]
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[0] in ("English", "") or set(cells[0]) <= {"-"}:
            continue
        en, ru, uk, not_ru, not_uk, not_en = cells
        rivals = {
            lang: [w.strip() for w in cell.split(",") if w.strip()]
            for lang, cell in (("ru", not_ru), ("uk", not_uk), ("en", not_en))
        }
        rows.append({"en": en.split(" (")[0], "ru": ru, "uk": uk, "rivals": rivals})
    return rows


def translations(lang: str) -> list[str]:
    """Every translation in a language's catalogue (each plural form too)."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        out.extend(s for s in strings if s)
    return out


def english() -> list[str]:
    """The English of the catalogue (the code's messages) and of the templates."""
    found = [m.id if isinstance(m.id, str) else " ".join(m.id) for m in _catalog("ru") if m.id]
    for path in (ROOT / "templates").rglob("*.html"):
        found += re.findall(r"""_\(\s*(["'])(.+?)\1""", path.read_text(encoding="utf-8"))
    return [f if isinstance(f, str) else f[1] for f in found]


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


def starts_a_word(stem: str) -> re.Pattern[str]:
    """A word beginning with the stem (any ending), in any letter case."""
    return re.compile(r"(?<![\w-])" + re.escape(stem), re.IGNORECASE)


def stem(word: str) -> str:
    """The part of a glossary word every form of it shares: «пул» of «пуля», «пули»."""
    if " " in word or "," in word:
        return word
    return word[:-1] if len(word) > 3 and word[-1] in "аяыиоуеюьйіїє" else word


def test_the_glossary_has_the_game_s_terms() -> None:
    names = {row["en"] for row in terms()}
    for term in ("pool", "hill", "whists", "all-pass", "misère", "remise", "consolation"):
        assert term in names, term
    for term in ("penalty", "correction", "amnesty", "settlement", "half-whist", "talon"):
        assert term in names, term
    assert len(names) >= 25


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_catalogue_uses_the_glossary_s_words_and_no_rivals(lang: str) -> None:
    texts = translations(lang)
    whole = "\n".join(texts)
    unused = [row[lang] for row in terms() if not starts_a_word(stem(str(row[lang]))).search(whole)]
    assert unused == [], f"glossary words the {lang} catalogue never uses"
    rivals = []
    for row in terms():
        for rival in row["rivals"][lang]:  # type: ignore[index]
            pattern = starts_a_word(rival)
            rivals += [f"{row[lang]} ≠ {rival}: {t}" for t in texts if pattern.search(t)]
    assert rivals == [], "\n".join(rivals)


def test_the_english_of_the_code_and_templates_uses_no_rivals() -> None:
    texts = english()
    rivals = []
    for row in terms():
        for rival in row["rivals"]["en"]:  # type: ignore[index]
            pattern = starts_a_word(rival)
            rivals += [f"{row['en']} ≠ {rival}: {t}" for t in texts if pattern.search(t)]
    assert rivals == [], "\n".join(rivals)


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "Корректировка 3 записана"),
        ("uk", "Распаси поспіль: 2"),
        ("ru", "Пуля (Анна): 10 вистов на соперника"),
    ],
)
def test_the_check_catches_a_rival(lang: str, text: str) -> None:
    hits = [
        rival
        for row in terms()
        for rival in row["rivals"][lang]  # type: ignore[index]
        if starts_a_word(rival).search(text)
    ]
    assert hits, text


# -- the repository's own docs (issue 33) ----------------------------------------------------

DOCS = sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "glossary.md")


def _columns(text: str) -> list[tuple[str, str, int]]:
    """(language, cell, line) of every table cell under a «Русский» or «Українська» header;
    ("en", line, n) for every line (the docs' English)."""
    out: list[tuple[str, str, int]] = []
    langs: dict[int, str] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        out.append(("en", line, n))
        if not line.lstrip().startswith("|"):
            langs = {}
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if "Русский" in cells or "Українська" in cells:
            langs = {
                i: {"Русский": "ru", "Українська": "uk"}[c]
                for i, c in enumerate(cells)
                if c in ("Русский", "Українська")
            }
            continue
        out += [(langs[i], c, n) for i, c in enumerate(cells) if i in langs]
    return out


def _rival_hits(text: str, where: str) -> list[str]:
    hits = []
    for lang, cell, line in _columns(text):
        for row in terms():
            for rival in row["rivals"][lang]:  # type: ignore[index]
                for found in starts_a_word(rival).finditer(cell):
                    hits.append(f"{where}:{line}: {row['en']} ≠ {found.group(0)}…")
    return hits


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_the_docs_use_no_word_the_glossary_bans(path) -> None:  # type: ignore[no-untyped-def]
    """docs/rules.md §1 once said «заказчик», «куля», «захисники»: the docs say the
    glossary's words too (the glossary itself names the rivals, so it is not read)."""
    text = path.read_text(encoding="utf-8")
    assert _rival_hits(text, path.name) == []


def test_the_rules_words_table_gives_the_glossary_s_word_for_each_term() -> None:
    """Each row of docs/rules.md §1 writes, for its term, the glossary's Russian and
    Ukrainian word (the declarer is «замовник», not «гравець», the player)."""
    text = (ROOT / "docs/rules.md").read_text(encoding="utf-8")
    table = text.split("## §1", 1)[1].split("\n## ", 1)[0]
    glossary = {str(row["en"]): row for row in terms()}
    wrong = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] not in glossary:
            continue
        row = glossary[cells[0]]
        for lang, cell in (("ru", cells[1]), ("uk", cells[2])):
            if not starts_a_word(stem(str(row[lang]))).search(cell):
                wrong.append(f"{cells[0]}: {lang} says {cell!r}, the glossary {row[lang]!r}")
    assert wrong == []
    assert {"pool", "hill", "declarer", "settlement"} <= {
        c.strip() for line in table.splitlines() for c in line.split("|")[1:2]
    }


def test_the_docs_check_catches_a_banned_word() -> None:
    head = "| English | Русский | Українська | meaning |\n|---|---|---|---|\n"
    assert _rival_hits(head + "| declarer | играющий, заказчик | замовник | x |", "x")
    assert _rival_hits(head + "| pool | пуля | пуля / куля | x |", "x")
    assert _rival_hits(head + "| defenders | вистующий | захисники | x |", "x")
    assert not _rival_hits(head + "| whist | вист | віст | x |", "x")
    assert _rival_hits("the talon, or widow, is", "x")
