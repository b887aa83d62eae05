"""Words and numbers for people: deals, reasons, problems and amounts, translated.

Shared by the web pages, the PDF and the CLI's text output. Translation goes through
Flask-Babel when an app context is active, and falls back to English outside one.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from scorekeeper.rules import (
    AllPassDeal,
    Answer,
    ContractDeal,
    Correction,
    DealResult,
    Entry,
    MisereDeal,
    Problem,
    Reason,
)
from scorekeeper.rules.problems import Label
from scorekeeper.rules.reasons import TEMPLATES

TRANSLATIONS_DIR = Path(__file__).parent / "translations"
LOCALES = ("en", "ru", "uk")

_outside_app: Any = None
"""Babel translations used outside a Flask app (the CLI); None means English."""


def use_locale(locale: str | None) -> None:
    """Choose the language for text made outside the web app (the CLI's text output)."""
    global _outside_app
    if not locale or locale.split("_")[0].split("-")[0] not in LOCALES[1:]:
        _outside_app = None
        return
    from babel.support import Translations

    _outside_app = Translations.load(str(TRANSLATIONS_DIR), [locale.split(".")[0]])


def locale_from_environment() -> str | None:
    """The language the terminal asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), if we have it."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        for part in value.split(":"):
            code = part.split(".")[0].split("_")[0].lower()
            if code in LOCALES:
                return code
    return None


def _in_app() -> bool:
    try:
        from flask import has_app_context
    except ImportError:  # pragma: no cover
        return False
    return has_app_context()


def gettext(message: str, **params: Any) -> str:
    """Translate a %(name)s-style message in the current locale (English outside the app)."""
    if _in_app():
        from flask_babel import gettext as babel_gettext

        return str(babel_gettext(message, **params))
    text = _outside_app.gettext(message) if _outside_app is not None else message
    return text % params if params else text


def ngettext(singular: str, plural: str, num: int, **params: Any) -> str:
    """Translate with plural forms chosen by the translation library."""
    if _in_app():
        from flask_babel import ngettext as babel_ngettext

        return str(babel_ngettext(singular, plural, num, **params))
    params.setdefault("num", num)
    if _outside_app is not None:
        return str(_outside_app.ngettext(singular, plural, num)) % params
    return (singular if num == 1 else plural) % params


def _translate_template(template: str, params: Mapping[str, Any]) -> str:
    """Translate a rules-layer {name} template and fill it in."""
    translated = gettext(template)
    shown = {k: _show_param(v) for k, v in params.items()}
    try:
        return translated.format(**shown)
    except (KeyError, IndexError, ValueError):  # a broken translation must not break the page
        return template.format(**shown)


def _show_param(value: Any) -> str:
    if isinstance(value, Reason):
        return reason_text(value)
    if isinstance(value, Fraction):
        return amount(value)
    if isinstance(value, Label):
        return gettext(value.text)
    return str(value)


def reason_text(reason: Reason) -> str:
    """Why an entry was written, in the current language."""
    return _translate_template(TEMPLATES[reason.code], reason.params)


def problem_text(problem: Problem, *, with_deal: bool = True) -> str:
    """A problem with the input, in the current language."""
    text = _translate_template(problem.template, problem.params)
    if with_deal and problem.deal is not None:
        return gettext("deal %(number)s: %(problem)s", number=problem.deal, problem=text)
    return text


_VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


def amount(value: Fraction | int) -> str:
    """An exact amount for people: 12, −89⅓, 5 2/7 (a true minus sign)."""
    value = Fraction(value)
    sign = "−" if value < 0 else ""
    value = abs(value)
    whole, part = divmod(value, 1)
    if part == 0:
        return f"{sign}{whole}"
    glyph = _VULGAR.get(part, f" {part.numerator}/{part.denominator}")
    return f"{sign}{whole if whole else ''}{glyph}".replace("  ", " ").strip()


def signed(value: Fraction | int) -> str:
    """An amount with its sign always shown: +4, −8."""
    return ("+" if value > 0 else "") + amount(value)


def answer_text(answer: Answer) -> str:
    """A defender's answer as a word."""
    return {
        Answer.WHIST: gettext("whist"),
        Answer.PASS: gettext("pass"),
        Answer.HALF_WHIST: gettext("half-whist"),
        Answer.WHIST_TALON: gettext("whist with the talon"),
    }[answer]


def deal_title(result: DealResult) -> str:
    """What was played, in a few words: "Anna 7♠", "all-pass", "correction"."""
    deal = result.deal
    if isinstance(deal, ContractDeal):
        return f"{deal.declarer} {deal.contract}"
    if isinstance(deal, MisereDeal):
        return gettext("%(name)s misère", name=deal.declarer)
    if isinstance(deal, AllPassDeal):
        return gettext("all-pass")
    if isinstance(deal, Correction):
        return gettext("correction")
    return gettext("redeal")


def deal_details(result: DealResult, players: tuple[str, ...]) -> str:
    """The answers and tricks of a deal: "Boris whist, Vera pass; tricks 5 · 3 · 2"."""
    deal = result.deal
    parts: list[str] = []
    if isinstance(deal, ContractDeal):
        parts.append(", ".join(f"{n}: {answer_text(a)}" for n, a in deal.answers.items()))
    if isinstance(deal, ContractDeal | MisereDeal | AllPassDeal) and deal.tricks:
        tricks = " · ".join(f"{n} {deal.tricks[n]}" for n in players if n in deal.tricks)
        parts.append(gettext("tricks: %(tricks)s", tricks=tricks))
    if isinstance(deal, Correction) and deal.reason:
        parts.append(deal.reason)
    return "; ".join(p for p in parts if p)


def entry_text(entry: Entry) -> str:
    """One entry in words: "Anna: pool +4 (7♠ made)", "Boris → Anna: 8 whists (...)"."""
    why = reason_text(entry.reason)
    if entry.column == "whists":
        return gettext(
            "%(writer)s writes %(amount)s on %(debtor)s (%(why)s)",
            writer=entry.player,
            amount=amount(entry.amount),
            debtor=entry.on,
            why=why,
        )
    column = gettext("pool") if entry.column == "pool" else gettext("hill")
    return f"{entry.player}: {column} {signed(entry.amount)} ({why})"
