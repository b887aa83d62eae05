"""Serbian (Latin and Cyrillic) and Croatian, complete and chosen as the phone asks.

Every message of the code is translated in sr_Latn, sr_Cyrl and hr (placeholders kept, plural
forms the Slavic three, compiled); the Cyrillic catalogue is exactly the transliteration of the
Latin one (scripts/sr_cyrillic.py); the pages carry no English; Accept-Language, ?lang= and the
command line's --lang pick the language; numbers, money and days are written the languages' way.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from flask import Flask

from scorekeeper.web import templating
from scorekeeper.web.i18n import LANGUAGES, phone_language
from scorekeeper.wording import known_locale, words_for

from ..harness import ROOT, TRANSLATIONS, Web, load_script
from . import test_i18n_complete as complete
from .test_i18n_complete import PLAYERS
from .words import UNTRANSLATED, catalogue, latin_words

#: The fixtures of the Russian and Ukrainian tests: the extracted messages, an evening's game.
template = complete.template
evening = complete.evening

LANGS = ["sr_Latn", "sr_Cyrl", "hr"]
PAGES = [
    "/",
    "/new",
    "/import",
    "/g/{token}",
    "/g/{token}/deal/new",
    "/g/{token}/deal/{deal}/edit",
    "/g/{token}/log",
    "/g/{token}/settlement",
    "/g/{token}/history",
    "/g/{token}/undo",
    "/v/{view}",
    "/v/{view}/settlement",
    "/g/" + "x" * 30,
]


def script() -> Any:
    """scripts/sr_cyrillic.py, the transliteration."""
    return load_script("sr_cyrillic")


def test_the_cyrillic_catalogue_is_the_transliteration_of_the_latin_one() -> None:
    committed = (TRANSLATIONS / "sr_Cyrl" / "LC_MESSAGES" / "messages.po").read_bytes()
    assert committed == script().expected_text(), "run .venv/bin/python scripts/sr_cyrillic.py"


@pytest.mark.parametrize(
    ("latin", "cyrillic"),
    [
        ("Ljubav, njiva, džep", "Љубав, њива, џеп"),
        ("LJUBAV i NJIVA", "ЉУБАВ и ЊИВА"),
        ("Deli: %(name)s, još {n} deljenja", "Дели: %(name)s, још {n} дељења"),
        ("<strong>%(name)s</strong> — PDF-a, JSON", "<strong>%(name)s</strong> — PDF-а, JSON"),
        ("vidite docs/deploy.md i --lang, $LANG", "видите docs/deploy.md и --lang, $LANG"),
        ("greška ulaza/izlaza", "грешка улаза/излаза"),
        ("injekcija", "инјекција"),
    ],
)
def test_the_transliteration_leaves_codes_alone(latin: str, cyrillic: str) -> None:
    assert script().cyrillic(latin) == cyrillic


def test_codes_of_the_file_stay_as_the_english_writes_them() -> None:
    english = "unknown convention {name} (sochi, leningrad, rostov, hussar)"
    said = script().cyrillic(
        "nepoznata konvencija {name} (sochi, leningrad, rostov, hussar)", english
    )
    assert said == "непозната конвенција {name} (sochi, leningrad, rostov, hussar)"
    assert script().cyrillic("nepoznat format {format}", "unknown format {format}") == (
        "непознат формат {format}"
    )


# -- the language the phone asks for -----------------------------------------------------------


@pytest.mark.parametrize(
    ("tags", "chosen"),
    [
        (["sr-Latn-RS", "en"], "sr_Latn"),
        (["sr-Latn"], "sr_Latn"),
        (["sr-RS", "en"], "sr_Cyrl"),
        (["sr"], "sr_Cyrl"),
        (["sr-Cyrl-BA"], "sr_Cyrl"),
        (["sr-ME"], "sr_Latn"),
        (["hr-HR", "en"], "hr"),
        (["bs-BA", "en"], "hr"),
        (["cnr"], "sr_Latn"),
        (["me"], "sr_Latn"),
        (["de-DE", "hr"], "hr"),
        (["en-GB", "sr"], "en"),
        (["de", "fr"], "en"),
    ],
)
def test_the_phone_s_languages_choose_the_closest(tags: list[str], chosen: str) -> None:
    assert phone_language(tags) == chosen


@pytest.mark.parametrize(
    ("header", "lang", "word"),
    [
        ("sr-Latn-RS,sr;q=0.9,en;q=0.5", "sr-Latn", "Nova partija"),
        ("sr-RS,sr;q=0.9", "sr-Cyrl", "Нова партија"),
        ("hr-HR,hr;q=0.9,en;q=0.5", "hr", "Nova partija"),
        ("bs-BA,bs;q=0.9", "hr", "Vaše partije"),
    ],
)
def test_a_page_is_in_the_language_of_the_phone(
    web: Web, header: str, lang: str, word: str
) -> None:
    html = web.client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    assert word in html


def test_the_switcher_lists_serbian_in_both_scripts_and_croatian(web: Web) -> None:
    html = web.client.get("/?lang=sr_Latn").get_data(as_text=True)
    for code, name in (("sr-Latn", "Srpski"), ("sr-Cyrl", "Српски"), ("hr", "Hrvatski")):
        assert re.search(
            rf'<a href="[^"]*lang={code.replace("-", "_")}" lang="{code}"[^>]*>{name}</a>', html
        )
    assert re.search(r'<button[^>]*popovertarget[^>]*aria-current="true"[^>]*>SR</button>', html)
    assert re.search(r'lang="sr-Latn"[^>]*aria-current="true"', html)
    later = web.client.get("/", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert '<html lang="sr-Latn">' in later, "the choice is remembered in the cookie"
    tagged = web.client.get("/?lang=sr-Cyrl").get_data(as_text=True)
    assert '<html lang="sr-Cyrl">' in tagged, "a language tag in ?lang= is understood too"
    assert set(LANGUAGES) >= {"sr_Latn", "sr_Cyrl", "hr"}


def test_the_cyrillic_pages_carry_no_latin_word(web: Web, evening: tuple[str, str, int]) -> None:
    """Serbian Cyrillic is the transliteration of the Latin: a Latin word left on a Cyrillic
    page is an untranslated message in both."""
    left = {}
    for url, html in _pages(web, evening, "sr_Cyrl"):
        words = latin_words(html) - UNTRANSLATED - set(PLAYERS) - {"Friday", "fine"}
        words -= {"SR", "HR", "Srpski", "Hrvatski"}  # the switcher's Latin-script languages
        if words:
            left[url] = sorted(words)
    assert left == {}


def test_the_croatian_pages_carry_only_croatian_words(
    web: Web, evening: tuple[str, str, int]
) -> None:
    """Every Latin word on a Croatian page is a word of the Croatian catalogue's translations
    (an English message left untranslated is not)."""
    po = catalogue("hr")
    known: set[str] = set()
    for message in po:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            known |= set(re.findall(r"[A-Za-z][A-Za-z'-]+", text or ""))  # as latin_words
    months = set(Locale.parse("hr").months["format"]["wide"].values())  # dates, by Babel
    left = {}
    for url, html in _pages(web, evening, "hr"):
        words = latin_words(html) - UNTRANSLATED - set(PLAYERS) - {"Friday", "fine"}
        words = words - known - months - set(LANGUAGES.values()) - {"SR", "HR"}
        if words:
            left[url] = sorted(words)
    assert left == {}


def _pages(web: Web, evening: tuple[str, str, int], lang: str) -> list[tuple[str, str]]:
    token, view, deal = evening
    web.get(f"/?lang={lang}")
    out = []
    for page in PAGES:
        url = page.format(token=token, view=view, deal=deal)
        html = web.client.get(url).get_data(as_text=True)
        assert f'<html lang="{lang.replace("_", "-")}">' in html, url
        out.append((url, html))
    return out


# -- numbers, money, days -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_money_and_days_are_written_the_languages_way(app: Flask, lang: str) -> None:
    with app.test_request_context(f"/?lang={lang}"):
        app.preprocess_request()
        assert templating.amount(Fraction(3703, 3)) == "1.234⅓"
        assert templating.money(Decimal("-1234567.5"), "RSD") == "−1.234.567,50 RSD"
        assert templating.number(Decimal("0.5")) == "0,5"
    day = words_for(lang).date("2026-12-01")
    assert (
        day
        == {
            "sr_Latn": "1. decembar 2026.",
            "sr_Cyrl": "1. децембар 2026.",
            "hr": "1. prosinca 2026.",
        }[lang]
    )


def test_the_settlement_page_writes_money_with_a_decimal_comma(web: Web) -> None:
    from ..harness import SEVEN_DOWN_TWO

    token = web.new_game(PLAYERS, first_dealer=2, stake="0.5", currency="RSD")
    web.play(token, PLAYERS, "contract", **SEVEN_DOWN_TWO)
    page = web.get(f"/g/{token}/settlement?lang=sr_Latn").text()
    assert "Cena vista: 0,50 RSD." in page
    assert re.search(r"[+−]\d+,\d\d RSD", page) and not re.search(r"\d\.\d\d RSD", page)


def test_a_standings_csv_in_serbian_uses_the_decimal_comma() -> None:
    from scorekeeper.csvout import dialect

    assert dialect("sr_Latn") == dialect("hr") == dialect("sr_Cyrl") == (";", ",", True)


# -- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("sr_Latn", "Partija je završena."),
        ("sr-Latn", "Partija je završena."),
        ("sr", "Партија је завршена."),
        ("sr_Cyrl", "Партија је завршена."),
        ("hr", "Partija je završena."),
    ],
)
def test_the_cli_speaks_serbian_and_croatian(tmp_path: Path, asked: str, said: str) -> None:
    from ..helpers import contract, game_file

    path = tmp_path / "game.json"
    game = game_file(
        [contract("A", "7S", {"B": "whist", "C": "pass"}, {"A": 5, "B": 5})], finished=True
    )
    path.write_text(json.dumps(game))
    command = [str(Path(sys.executable).with_name("scorekeeper")), "score", "--format", "text"]
    out = subprocess.run(
        [*command, "--lang", asked, str(path)], capture_output=True, text=True, check=True
    ).stdout
    assert said in out
    assert ("pulja" in out) or ("пуља" in out)


def test_the_terminal_s_serbian_latin_locale_is_understood() -> None:
    assert known_locale("sr_RS.UTF-8@latin") == "sr_Latn"
    assert known_locale("sr_RS.UTF-8") == "sr_Cyrl"
    assert known_locale("hr_HR.UTF-8") == "hr"
    assert known_locale("C") == "en"


# -- one word for each thing (docs/glossary.md, "Serbian and Croatian") -------------------------


def balkan_terms() -> list[tuple[str, str, str, list[str], list[str]]]:
    """(English, Serbian, Croatian, rivals in Serbian, rivals in Croatian) of the glossary."""
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    table = text.split("## Serbian and Croatian", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("English", "") or set(cells[0]) <= {"-"}:
            continue
        en, sr, hr, not_sr, not_hr = cells
        rivals = [[w.strip() for w in cell.split(",") if w.strip()] for cell in (not_sr, not_hr)]
        rows.append((en, sr, hr, rivals[0], rivals[1]))
    return rows


def _starts_a_word(stem: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(stem), re.IGNORECASE)


def _translations(lang: str) -> list[str]:
    """Every translation, without the codes of the file format it names as the English does
    (penalty, allpass)."""
    out = []
    for message in catalogue(lang):
        if message.id:
            ids = (message.id,) if isinstance(message.id, str) else message.id
            english = set(re.findall(r"\w+", " ".join(ids)))
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in filter(None, strings):
                out.append(" ".join(w for w in text.split() if w.strip("(),") not in english))
    return out


def test_the_glossary_names_the_balkan_and_the_russian_words() -> None:
    names = {row[0].split(" (")[0] for row in balkan_terms()}
    for term in ("pool", "hill", "whists", "all-pass", "remise", "trick", "deal", "declarer"):
        assert term in names, term
    for term in ("bule", "supe", "refa", "kontra", "hat", "write-off", "follower"):
        assert term in names, term


@pytest.mark.parametrize("lang", ["sr_Latn", "hr"])
def test_the_catalogue_uses_the_glossary_s_words_and_no_rivals(lang: str) -> None:
    texts = _translations(lang)
    unused, rivals = [], []
    for _en, sr, hr, not_sr, not_hr in balkan_terms():
        word = sr if lang == "sr_Latn" else hr
        stem = word if " " in word or len(word) <= 3 or word[-1] not in "aeiou" else word[:-1]
        if not any(_starts_a_word(stem).search(t) for t in texts):
            unused.append(word)
        for rival in not_sr if lang == "sr_Latn" else not_hr:
            rivals += [f"{rival}: {t}" for t in texts if _starts_a_word(rival).search(t)]
    assert (unused, rivals) == ([], [])


#: The slots of a message that hold a person's name.
PERSONS = "name|names|writer|player|payer|payee|debtor|creditor|declarer|giver|first|second|expected|given"


@pytest.mark.parametrize("lang", ["sr_Latn", "hr"])
def test_no_past_verb_agrees_with_a_name(lang: str) -> None:
    """A past verb agrees with its subject's gender (otišao, otišla): a name is never its
    subject, unless a noun stands before it and carries the gender (igrač {name} nije došao)."""
    slot = rf"(?<!igrač )(?:\{{(?:{PERSONS})\}}|%\((?:{PERSONS})\)s)"
    past = re.compile(slot + r"\s+(?:(?:je|se|nije|već)\s+)*\w+(?:ao|io|eo|uo|la|lo)\b")
    agreeing = [text for text in _translations(lang) if past.search(text)]
    assert agreeing == []
