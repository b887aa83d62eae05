"""Forms of the home page: a new game and opening a game file."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import HiddenField, StringField
from wtforms.validators import InputRequired, Length

from .. import options as opts
from ..gameforms import MAX_PLAYER_NAME, MAX_PLAYERS, NewGameBase, PasswordMixin, make_option_field
from ..widgets import STALE


def _new_game_form_class() -> type[NewGameBase]:
    attrs: dict[str, Any] = {}
    for i in range(MAX_PLAYERS):
        attrs[f"player_{i}"] = StringField(
            _l("Player %(n)s", n=i + 1),
            validators=[Length(max=MAX_PLAYER_NAME, message=_l("At most 40 characters"))],
        )
    for spec in opts.ALL:
        attrs[spec.field] = make_option_field(spec)
    return type("NewGameForm", (NewGameBase,), attrs)


NewGameForm = _new_game_form_class()


def _paper_form_class() -> type[NewGameBase]:
    """The new game's seats, convention and house rules, and each seat's totals as the paper
    has them: pool, hill and whists on each other seat (seat 0's on seat 1: whists_0_1)."""
    attrs: dict[str, Any] = {}
    amount = [Length(max=40, message=_l("At most 40 characters"))]
    for i in range(MAX_PLAYERS):
        attrs[f"pool_{i}"] = StringField(_l("Pool"), validators=amount)
        attrs[f"hill_{i}"] = StringField(_l("Hill"), validators=amount)
        for j in range(MAX_PLAYERS):
            if j != i:
                attrs[f"whists_{i}_{j}"] = StringField(_l("Whists"), validators=amount)
    return type("PaperForm", (NewGameForm,), attrs)


PaperForm = _paper_form_class()


def totals_of(form: NewGameBase) -> dict[str, str]:
    """The totals as typed, by field."""
    return {
        name: field.data or ""
        for name, field in form._fields.items()
        if name.startswith(("pool_", "hill_", "whists_"))
    }


class ImportForm(PasswordMixin, FlaskForm):
    """Open a game file (JSON) as a new game."""

    file = FileField(_l("Game file (.json)"), validators=[FileRequired(_l("Choose a file"))])


class ForgetForm(FlaskForm):
    """Take a game off this phone's list."""

    token = HiddenField(validators=[InputRequired(STALE), Length(max=100, message=STALE)])
