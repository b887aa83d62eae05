"""Form pieces shared by the blueprints: one-time request keys, choice lists, checkboxes,
an uploaded file read."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from flask import request
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectChoice, SelectMultipleField
from wtforms.validators import InputRequired, Length, NumberRange, Regexp
from wtforms.widgets import CheckboxInput, ListWidget

from scorekeeper.rules import InvalidGame

from .i18n import words

_KEY_RE = r"^[0-9a-f]{32}$"
_T = TypeVar("_T")


class WriteForm(FlaskForm):
    """A form that changes a game: carries a one-time request key and the version it read."""

    request_key = HiddenField(validators=[InputRequired(), Length(max=64), Regexp(_KEY_RE)])
    base_version = IntegerField(validators=[InputRequired(), NumberRange(min=0)])

    def __init__(self, *args: Any, version: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.request_key.data:
            self.request_key.data = new_key()
        if version is not None and self.base_version.data is None:
            self.base_version.data = version

    def fresh(self, version: int) -> None:
        """After a conflict: a new key and the version now current, the input kept."""
        self.request_key.data = new_key()
        self.base_version.data = version
        self.base_version.raw_data = [str(version)]


class RematchForm(FlaskForm):
    """One tap for a new game of the same table (the CSRF token only)."""


def new_key() -> str:
    """A one-time key for one write form (uuid4)."""
    return uuid.uuid4().hex


class MultiCheckboxField(SelectMultipleField):
    """Several checkboxes for one multiple choice."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


def choices(pairs: Iterable[tuple[str, Any]]) -> list[SelectChoice]:
    """Choices for a select, radio or checkbox field, from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


def read_upload(form: Any, loads: Callable[[bytes], _T]) -> tuple[_T | None, list[str]]:
    """The form's uploaded file parsed by loads, or None and what is wrong with it, worded.

    At most one byte more than a request may carry is read, so loads sees a file too large.
    """
    data = form.file.data.read((request.max_content_length or 0) + 1)
    try:
        return loads(data), []
    except InvalidGame as invalid:
        return None, [words().problem(p) for p in invalid.problems]
