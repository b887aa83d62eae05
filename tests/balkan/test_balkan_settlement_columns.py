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
