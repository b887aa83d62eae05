"""The settlement table of `score --format text` in every language: a head as long as its
column (Serbian «supe koje piše», Russian «записанные супы») never runs into the head before it,
and the numbers stand under their heads."""

from __future__ import annotations

import pytest

from scorekeeper import report_balkan
from scorekeeper.wording import words_for

from .helpers import played, sheet_of

HEADS = ("written off", "bule", "supe written", "supe against", "result", "money")


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "sr_Latn", "sr_Cyrl", "hr"])
def test_every_head_of_the_settlement_stands_apart(lang: str) -> None:
    words = words_for(lang)
    deal = played("Ana", "tref", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=["Boža", "Ceca"])
    text = report_balkan.text_report(sheet_of([deal]), with_settlement=True, words=words)
    heads = [words.gettext(h) for h in HEADS]
    line = next(x for x in text.splitlines() if heads[-1] in x and heads[0] in x)
    ends = []
    for head in heads:
        at = line.index(head)
        assert line[at - 1] == " ", (lang, head, line)
        ends.append(at + len(head))
    row = next(x for x in text.splitlines() if x.startswith("Ana "))
    assert len(row) == ends[-1], (lang, line, row)  # the money ends under its head


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "sr_Latn", "sr_Cyrl", "hr"])
def test_a_write_off_that_divides_evenly_names_no_zero_of_them(lang: str) -> None:
    """300 bule among three players is 100 each: the line says so, not «0 of them one more»;
    290 is 96 each and 2 of them one more."""
    words = words_for(lang)
    even = sheet_of([{"type": "writeoff"}]).outcomes[0].why[0]
    said = report_balkan.say(words, even)
    assert "100" in said and "{m}" not in even.template, said
    assert lang == "en" or "each" not in said, said  # said in the language
    tref = played("Ana", "tref", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=["Boža", "Ceca"])
    uneven = sheet_of([tref, {"type": "writeoff"}]).outcomes[1].why[0]
    assert "{m}" in uneven.template and uneven.params["m"] == 2
    assert "96" in report_balkan.say(words, uneven)
