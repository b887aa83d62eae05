"""A Balkan partija's header names the options the table changed from its preset (as a
Russian sheet's header does), in every language: on the PDF (read back with pdftotext) and
on the game page. docs/balkan.md, "Options and presets"."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from scorekeeper.render.paper_balkan import changed_options
from scorekeeper.render.pdf_balkan import balkan_html, balkan_pdf
from scorekeeper.wording import words_for

from ..balkan.helpers import sheet_of

CHANGED = {"refe_max": 5, "double_fall": True, "pik_kontra": "free", "stake": "0.5"}
#: (label, value) of CHANGED in each language, as its catalogue has them.
EXPECTED = {
    "en": [
        ("Most refe", "5"),
        ("Pik needs a kontra", "pik is played without kontra"),
        ("Stake per supa", "0.5"),
        ("Double fall", "yes"),
    ],
    "ru": [("Наибольшее число реф", "5"), ("Двойное падение", "да")],
    "uk": [("Найбільша кількість реф", "5"), ("Подвійне падіння", "так")],
    "sr_Latn": [("Najviše refa", "5"), ("Dupli pad", "da")],
    "sr_Cyrl": [("Највише рефа", "5"), ("Дупли пад", "да")],
    "hr": [("Najviše refa", "5"), ("Dvostruki pad", "da")],
}


def _sheet(options: dict[str, object] | None = None, convention: str = "club"):  # type: ignore[no-untyped-def]
    return sheet_of([], options=options or {}, convention=convention, name="Petak")


def test_only_what_differs_from_the_preset_is_named() -> None:
    en = words_for("en")
    assert changed_options(_sheet().game, en) == []
    # The bule are named on their own in the header; a preset's own value is no change.
    assert changed_options(_sheet({"bule": 60, "refe_max": 2}).game, en) == []
    savez = _sheet({"refe_max": None, "pik_kontra": "required"}, "savez").game
    assert changed_options(savez, en) == [
        ("Most refe", "no limit"),
        ("Pik needs a kontra", "a plain pik needs a kontra while a refa may be written"),
    ]


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_the_pdf_header_lists_the_changed_options_in_its_language(
    tmp_path: Path, lang: str
) -> None:
    sheet = _sheet(CHANGED)
    said = changed_options(sheet.game, words_for(lang))
    for pair in EXPECTED[lang]:
        assert pair in said, (lang, said)
    assert len(said) == len(CHANGED)
    path = tmp_path / "petak.pdf"
    path.write_bytes(balkan_pdf(sheet, name="Petak", locale=lang))
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True)
    text = " ".join(done.stdout.decode().split())
    house = words_for(lang).gettext("House rules")
    assert f"{house} — " in text
    for label, value in said:
        assert f"{label}: {value}" in text, (lang, text[:600])


def test_a_partija_as_its_preset_says_no_house_rules() -> None:
    html = balkan_html(_sheet(), name="Petak", locale="en")
    assert "House rules" not in html
