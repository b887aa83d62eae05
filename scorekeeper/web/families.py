"""The family of rules a form chooses (a new game's, a company's house rules): Russian, or
Balkan with its preset and the options the table changed, as the form sends them
(templates/balkan/_rules_fields.html draws them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import request

from scorekeeper.balkan import OPTION_LABELS, PRESET_LABELS
from scorekeeper.games.family import BALKAN, KEY, RUSSIAN
from scorekeeper.rules import Problem

from .i18n import words

#: The Balkan options the forms offer (the rest as the preset has them).
BALKAN_FORM_OPTIONS = ("bule", "refe_max", "kontra_max", "stake")


def chosen(russian_convention: str) -> tuple[str, str]:
    """The family of rules the form chose, and its convention (a Balkan preset)."""
    if request.form.get("family") != BALKAN:
        return RUSSIAN, russian_convention
    preset = request.form.get("balkan_preset", "")
    return BALKAN, preset if preset in PRESET_LABELS else "club"


def balkan_overrides() -> dict[str, int | str]:
    """The Balkan options the table changed from its preset (a blank one is the preset's):
    a count as a whole number, money as typed (the options' reader says what is wrong; a count
    too long to be one is left as typed, so it is refused there too)."""
    out: dict[str, int | str] = {}
    for key in BALKAN_FORM_OPTIONS:
        value = request.form.get(f"bk_{key}", "").strip()
        if value:
            whole = value.isdigit() and len(value) <= 9 and key != "stake"
            out[key] = int(value) if whole else value
    return out


def balkan_errors(problems: list[Problem]) -> dict[str, list[str]]:
    """The problems of the Balkan options, in words, by their field ("options.bule")."""
    out: dict[str, list[str]] = {}
    for problem in problems:
        out.setdefault(problem.field or "", []).append(words().problem(problem))
    return out


def fields_context(shown: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What templates/balkan/_rules_fields.html draws: the presets, the options offered and
    the values shown (what was sent; else `shown`, e.g. a company's kept rules)."""
    return {
        "balkan_presets": list(PRESET_LABELS.items()),
        "balkan_options": [(key, OPTION_LABELS[key]) for key in BALKAN_FORM_OPTIONS],
        "family_shown": request.form if request.method == "POST" else (shown or {}),
    }


def shown_rules(convention: str, options: Mapping[str, Any]) -> dict[str, str]:
    """The family fields as a kept company's (or game's) rules fill them."""
    if options.get(KEY) != BALKAN:
        return {"family": RUSSIAN}
    out = {"family": BALKAN, "balkan_preset": convention}
    for key in BALKAN_FORM_OPTIONS:
        if options.get(key) is not None:
            out[f"bk_{key}"] = str(options[key])
    return out
