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


class ImportForm(PasswordMixin, FlaskForm):
    """Open a game file (JSON) as a new game."""

    file = FileField(_l("Game file (.json)"), validators=[FileRequired(_l("Choose a file"))])


class ForgetForm(FlaskForm):
    """Take a game off this phone's list."""

    token = HiddenField(validators=[InputRequired(STALE), Length(max=100, message=STALE)])
