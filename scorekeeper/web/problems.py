"""The rules' problems put back next to the form fields they name: one way for every form
(the deal form, a new game's, a company's and a tournament's house rules).

A problem names the input it concerns in the rules' words ("options.stake", "tricks.Anna",
"entries.2"); each form says how its fields are named (`field_of`). A problem that names no
field the form has is said at the form's top: the one fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable

from flask_wtf import FlaskForm

from scorekeeper.rules import Problem

from .i18n import words

TOP = ""
"""Where a problem that names no field of the form goes: the form's top."""


def put_back(
    problems: Iterable[Problem], field_of: Callable[[str], str], fields: Container[str]
) -> dict[str, list[str]]:
    """Each problem in the page's words, under the form field it names (`field_of` turns the
    rules' name of an input into the form's), or under TOP when `fields` has no such field."""
    placed: dict[str, list[str]] = {}
    for problem in problems:
        name = field_of(problem.field or "")
        where = name if name and name in fields else TOP
        placed.setdefault(where, []).append(words().problem(problem, with_deal=False))
    return placed


def option_field(name: str) -> str:
    """The field of a house rule: the rules' "options.stake" is the form's "opt_stake"."""
    return name.replace("options.", "opt_", 1)


def put_on_form(
    form: FlaskForm, problems: Iterable[Problem], field_of: Callable[[str], str] = option_field
) -> list[str]:
    """Put the problems on the form's fields, after what each field said itself; returns
    those at the form's top (also kept as the form's `form_errors`)."""
    placed = put_back(problems, field_of, form)
    for name, messages in placed.items():
        if name != TOP:
            form[name].errors = [*form[name].errors, *messages]
    top = placed.get(TOP, [])
    form.form_errors.extend(top)
    return top
