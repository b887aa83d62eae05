"""Option labels name what they set, and no two are alike in any language (issue 24: two
settings were both «Выход из распасов», and an error naming one did not say which)."""

from __future__ import annotations

import difflib
import itertools
import re

import pytest

from scorekeeper.wording import OPTION_LABELS, VALUE_LABELS, words_for


def _plain(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def alike(first: str, second: str) -> bool:
    """The same words, one the start of the other, or all but the same letters (a label
    that differs from another only by an ending or a typo says nothing new)."""
    a, b = _plain(first), _plain(second)
    if a == b or a.startswith(b) or b.startswith(a):
        return True
    return difflib.SequenceMatcher(None, a, b).ratio() > 0.95


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_no_two_option_labels_are_alike(lang: str) -> None:
    words = words_for(lang)
    labels = {name: words.option_label(name) for name in OPTION_LABELS}
    same = [
        (x, y, labels[x], labels[y])
        for x, y in itertools.combinations(labels, 2)
        if alike(labels[x], labels[y])
    ]
    assert same == []


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_no_two_option_values_are_alike(lang: str) -> None:
    words = words_for(lang)
    values = {key: words.gettext(text) for key, text in VALUE_LABELS.items()}
    same = [(x, y) for x, y in itertools.combinations(values, 2) if alike(values[x], values[y])]
    assert same == []


def test_the_check_sees_two_labels_alike() -> None:
    assert alike("Выход из распасов", "Выход из распасов")
    assert alike("Выход из распасов", "Выход из распасов: игра")
    assert not alike("Игра после распасов не ниже", "Распасы заканчиваются")


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_an_option_error_names_the_one_option(lang: str) -> None:
    from scorekeeper.rules import resolve_options

    _, problems = resolve_options("sochi", {"allpass_exit": [5]})
    said = words_for(lang).problem(problems[0])
    assert said.startswith({"ru": "Игра после распасов не ниже", "uk": "Гра після розпасів"}[lang])
