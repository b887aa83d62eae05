"""Russian and Ukrainian, complete: every message of the code translated, compiled, and used.

These fail when a new string is added without its translation (or left fuzzy), when a
translation drops a placeholder, when the compiled catalogue is missing or stale (the app
would silently fall back to English), or when any English is left on a page or in the PDF.
"""

from __future__ import annotations

import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import read_mo
from babel.support import Translations
from flask import Flask

from scorekeeper.store import Store
from scorekeeper.web import templating

from ..harness import ROOT, SEVEN_DOWN_TWO, TRANSLATIONS, Web, load_script
from .words import UNTRANSLATED, catalogue, latin_words

LANGS = ["ru", "uk"]
#: Serbian in both scripts and Croatian: complete too (tests/i18n/test_i18n_serbian_croatian.py: more).
CATALOGUES = [*LANGS, "sr_Latn", "sr_Cyrl", "hr"]
PYBABEL = Path(sys.executable).with_name("pybabel")
PLAYERS = ["Anna", "Boris", "Vera"]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """The messages of the code now, extracted the way the README says (pybabel extract, by
    scripts/missing_translations.py, which lists those the Serbian and Croatian lack)."""
    return load_script("missing_translations").template()


def placeholders(text: str) -> set[str]:
    """The %(name)s and {name} fields of a message."""
    return set(re.findall(r"%\((\w+)\)[sd]", text)) | set(re.findall(r"\{(\w+)[^}]*\}", text))


@pytest.mark.parametrize("lang", CATALOGUES)
def test_every_message_of_the_code_is_translated(template: Catalog, lang: str) -> None:
    po = catalogue(lang)
    missing, fuzzy, empty, broken = [], [], [], []
    for message in template:
        if not message.id:
            continue
        found = po.get(message.id, context=message.context)
        if found is None:
            missing.append(message.id)
            continue
        if found.fuzzy:
            fuzzy.append(message.id)
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if not all(strings):
            empty.append(message.id)
        elif any(placeholders(s) - placeholders(" ".join(ids)) for s in strings) or (
            placeholders(ids[0]) - {"num"} - placeholders(strings[0])
        ):
            broken.append(message.id)
    assert (missing, fuzzy, empty, broken) == ([], [], [], []), (
        "run pybabel extract/update (README) and translate these"
    )
    assert not any(m.fuzzy for m in po if m.id), "fuzzy entries left in the catalogue"


@pytest.mark.parametrize("lang", CATALOGUES)
def test_plural_forms_are_the_slavic_ones(lang: str, catalogues: None) -> None:
    po = catalogue(lang)
    assert po.num_plurals == 3
    t = Translations.load(str(TRANSLATIONS), [lang])
    forms = {
        n: t.ngettext("%(num)d deal", "%(num)d deals", n) % {"num": n}
        for n in (1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111)
    }
    one, few, many = {
        "ru": ("раздача", "раздачи", "раздач"),
        "uk": ("роздача", "роздачі", "роздач"),
        "sr_Latn": ("deljenje", "deljenja", "deljenja"),
        "sr_Cyrl": ("дељење", "дељења", "дељења"),
        "hr": ("dijeljenje", "dijeljenja", "dijeljenja"),
    }[lang]
    assert forms == {
        1: f"1 {one}",
        2: f"2 {few}",
        4: f"4 {few}",
        5: f"5 {many}",
        11: f"11 {many}",
        12: f"12 {many}",
        14: f"14 {many}",
        21: f"21 {one}",
        22: f"22 {few}",
        25: f"25 {many}",
        101: f"101 {one}",
        111: f"111 {many}",
    }


@pytest.mark.parametrize("lang", CATALOGUES)
def test_the_compiled_catalogue_is_there_and_current(lang: str, catalogues: None) -> None:
    """The app reads the .mo: missing or stale, the pages fall back to English silently."""
    mo = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo"
    assert mo.is_file(), "compile the catalogues: pybabel compile -d scorekeeper/translations"
    with mo.open("rb") as f:
        compiled = read_mo(f)
    po = catalogue(lang)

    def text(s: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
        return (s,) if isinstance(s, str) else tuple(s)

    def kept(m: Message) -> Message | None:
        return compiled.get(m.id, context=m.context)

    assert [m.id for m in po if m.id and kept(m) is None] == []
    stale = [m.id for m in po if m.id and text(m.string) != text(kept(m).string)]  # type: ignore[union-attr]
    assert stale == []


def test_setup_compiles_and_git_ignores_the_compiled_catalogues() -> None:
    assert "pybabel compile" in (ROOT / "scripts" / "setup.sh").read_text()
    assert "*.mo" in (ROOT / ".gitignore").read_text().split()
    tracked = subprocess.run(
        ["git", "ls-files", "scorekeeper/translations"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert tracked and not [f for f in tracked if f.endswith(".mo")]


# -- the pages, the PDF and the forms speak the language -------------------------------------


@pytest.fixture
def evening(web: Web, store: Store) -> tuple[str, str, int]:
    """A game with a contract, an all-pass and a correction: (edit token, view token, deal id)."""
    token = web.new_game(PLAYERS, first_dealer=2, name="Friday")
    web.play(token, PLAYERS, "contract", **SEVEN_DOWN_TWO)
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 1, "Boris": 4, "Vera": 5})
    web.play(
        token, PLAYERS, "correction", reason="fine", entries=[("Vera", "whists", "Boris", "5")]
    )
    record = store.get_game(token)
    return token, record.view_token, record.deals[0].id


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_is_left_on_any_page(web: Web, evening: tuple[str, str, int], lang: str) -> None:
    token, view, deal = evening
    web.get(f"/?lang={lang}")
    pages = [
        "/",
        "/new",
        "/import",
        f"/g/{token}",
        f"/g/{token}/deal/new",
        f"/g/{token}/deal/{deal}/edit",
        f"/g/{token}/log",
        f"/g/{token}/settlement",
        f"/g/{token}/history",
        f"/g/{token}/deal/{deal}/history",
        f"/g/{token}/undo",
        f"/g/{token}/deal/{deal}/delete",
        f"/v/{view}",
        f"/v/{view}/settlement",
        f"/g/{'x' * 30}",
    ]
    left = {}
    for url in pages:
        response = web.client.get(url)
        html = response.get_data(as_text=True)
        assert f'<html lang="{lang}">' in html, url
        words = latin_words(html) - UNTRANSLATED - set(PLAYERS) - {"Friday", "fine"}
        if words:
            left[url] = sorted(words)
    assert left == {}


@pytest.mark.parametrize("lang", LANGS)
def test_the_pdf_is_in_the_language_too(
    web: Web, evening: tuple[str, str, int], lang: str, tmp_path: Path
) -> None:
    token, _view, _deal = evening
    response = web.client.get(f"/g/{token}/pulka.pdf?lang={lang}")
    assert response.status_code == 200
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(response.get_data())
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert {"ru": "Расчёт", "uk": "Розрахунок"}[lang] in text
    words = set(re.findall(r"[A-Za-z][A-Za-z'-]+", text)) - set(PLAYERS) - {"Friday", "fine"}
    assert words == set()


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("ru", ["Напишите три, четыре или пять имён", "Напишите целое число от 1 до 100\u00a0000"]),
        (
            "uk",
            ["Напишіть три, чотири або п’ять імен", "Напишіть ціле число від 1 до 100\u00a0000"],
        ),
        ("en", ["Write three, four or five names", "Write a whole number from 1 to 100,000"]),
    ],
)
def test_form_errors_are_in_the_language(web: Web, lang: str, expected: list[str]) -> None:
    """Our own messages, for a number that is not one too (never the form library's)."""
    page = web.get(f"/new?lang={lang}")
    form = page.form("new-game")
    form.set(opt_pool_target="abc", player_0="Anna", player_1="", player_2="", player_3="")
    errors = web.submit(page, form).errors()
    assert all(e in errors for e in expected), errors


def test_the_text_output_of_the_cli_is_in_the_language(tmp_path: Path) -> None:
    from ..helpers import contract, game_file

    path = tmp_path / "game.json"
    import json

    path.write_text(
        json.dumps(
            game_file(
                [contract("A", "7S", {"B": "whist", "C": "pass"}, {"A": 5, "B": 5})], finished=True
            )
        )
    )
    command = [str(Path(sys.executable).with_name("scorekeeper")), "score", "--format", "text"]
    outputs = {
        lang: subprocess.run(
            [*command, "--lang", lang, str(path)], capture_output=True, text=True, check=True
        ).stdout
        for lang in ("en", "ru", "uk")
    }
    assert "The game is finished." in outputs["en"]
    assert "Игра окончена." in outputs["ru"] and "пуля" in outputs["ru"]
    assert "гора" in outputs["uk"] and "The game" not in outputs["uk"]


# -- numbers in the locale's form --------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "amount", "fraction", "money", "stake"),
    [
        ("en", "1,234⅓", "−5 2/7", "−1,234.50 EUR", "0.5"),
        ("ru", "1\u00a0234⅓", "−5 2/7", "−1\u00a0234,50 EUR", "0,5"),
        ("uk", "1\u00a0234⅓", "−5 2/7", "−1\u00a0234,50 EUR", "0,5"),
    ],
)
def test_numbers_and_money_are_written_the_locale_way(
    app: Flask, lang: str, amount: str, fraction: str, money: str, stake: str
) -> None:
    with app.test_request_context(f"/?lang={lang}"):
        app.preprocess_request()
        assert templating.amount(Fraction(3703, 3)) == amount
        assert templating.amount(Fraction(-37, 7)) == fraction
        assert templating.signed(Fraction(1, 2)) == "+½"
        assert templating.amount(0) == "0"
        assert templating.money(Decimal("-1234.5"), "EUR") == money
        assert templating.signed_money(Decimal("3"), "") == ("+3.00" if lang == "en" else "+3,00")
        assert templating.number(Decimal("0.5")) == stake


def test_the_settlement_page_writes_money_the_russian_way(web: Web) -> None:
    token = web.new_game(PLAYERS, first_dealer=2, stake="0.5", currency="EUR")
    web.play(token, PLAYERS, "contract", **SEVEN_DOWN_TWO)
    ru = web.get(f"/g/{token}/settlement?lang=ru").text()
    en = web.get(f"/g/{token}/settlement?lang=en").text()
    assert "Вист по 0,50 EUR." in ru and "Stake: 0.50 EUR per whist." in en
    assert re.search(r"[+−]\d+,\d\d EUR", ru) and not re.search(r"\d\.\d\d EUR", ru)
    assert re.search(r"[+−]\d+\.\d\d EUR", en)
