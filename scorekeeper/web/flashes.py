"""The messages a write leaves for the next page ("Deal 4 saved.", "Tour 2 is closed."), said
in the language of the page that shows them: a flash keeps its message id (the English
marked N_) and its parameters, never a text, and is translated when it is shown (the table
may switch its language in between). A message flashed as a text by an older server is shown
as it was written."""

from __future__ import annotations

from typing import Any

from flask import flash

from scorekeeper.rules.problems import Label, Problem
from scorekeeper.wording import SAID

from .i18n import translation, words

#: A message to say later: {"said": message id, "params": {...}}, and for a plural
#: "plural" (its other form) and "num" (the number that chooses the form).
Said = dict[str, Any]


def said(message: str, **params: Any) -> Said:
    """A message (marked N_ where it is written) with its parameters, to translate later. A
    parameter may itself be a Said (a word of the message that is translated too)."""
    return {"said": message, "params": {k: _kept(v) for k, v in params.items()}}


def ngettext(singular: str, plural: str, num: int, **params: Any) -> Said:
    """A message with plural forms (also %(num)s), to translate later (named as the gettext
    call is, by which pybabel extracts both forms)."""
    return said(singular, num=num, **params) | {"plural": plural, "num": num}


def said_entry(kind: str, what: str, number: int) -> Said:
    """What is said of an entry of the log ("Deal 4 undone. …"), as `Words.said` words it."""
    kind = kind if kind in ("correction", "penalty") else "deal"
    return said(SAID[kind, what], number=number)


def said_problem(problem: Problem) -> Said:
    """A problem of the input (its template, values and deal), to say later as the page's
    words say problems. One whose values are more than texts, numbers and labels is said
    now, in this request's language."""
    params: dict[str, Any] = {}
    for key, value in problem.params.items():
        if isinstance(value, Label):
            params[key] = {"label": value.text}
        elif isinstance(value, bool | int | str):
            params[key] = value
        else:
            return said(words().problem(problem))
    return {"problem": problem.template, "params": params, "deal": problem.deal}


def flash_said(message: str | Said, category: str = "message", **params: Any) -> None:
    """Flash a message (an id marked N_, with its parameters, or a Said) for the next page,
    which says it in its own language."""
    kept = said(message, **params) if isinstance(message, str) else message
    flash(kept, category)  # type: ignore[arg-type]  # Flask keeps any JSON value


def amount(number: int) -> Said:
    """A number of a message, written when shown as that page's language writes it
    ("100 000", "100,000")."""
    return {"amount": number}


def shown(message: Any) -> str:
    """A flashed message in the language of this request."""
    if isinstance(message, dict) and isinstance(message.get("amount"), int):
        return str(words().amount(message["amount"]))
    if isinstance(message, dict) and isinstance(message.get("problem"), str):
        return _problem(message)
    if not (isinstance(message, dict) and isinstance(message.get("said"), str)):
        return str(message)
    params = {k: shown(v) if isinstance(v, dict) else v for k, v in message["params"].items()}
    catalogue = translation()
    if "plural" in message:
        text = catalogue.ungettext(message["said"], message["plural"], message["num"])
    else:
        text = catalogue.ugettext(message["said"])
    try:
        return text % params if params else text
    except (KeyError, TypeError, ValueError):  # a message the catalogue words otherwise
        return text


def _problem(message: Said) -> str:
    params = {
        k: Label(str(v["label"])) if isinstance(v, dict) else v
        for k, v in dict(message.get("params") or {}).items()
    }
    deal = message.get("deal")
    problem = Problem(message["problem"], params, None, deal if isinstance(deal, int) else None)
    return words().problem(problem)


def _kept(value: Any) -> Any:
    """A parameter as the session keeps it: a text, a number or a Said."""
    if value is None or isinstance(value, bool | int | float | str | dict):
        return value
    return str(value)
