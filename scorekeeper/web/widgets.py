"""Form pieces shared by the blueprints: one-time request keys, choice lists, checkboxes,
an uploaded file read."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from flask import request
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString
from flask_wtf import FlaskForm
from wtforms import (
    DateField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
)
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Regexp,
    StopValidation,
    ValidationError,
)
from wtforms.widgets import CheckboxInput, ListWidget

from scorekeeper.rules import InvalidGame
from scorekeeper.rules.numbers import whole_text

from .i18n import words
from .keys import new_key

_KEY_RE = r"^[0-9a-f]{32}$"
_T = TypeVar("_T")


# The app's own sentences for what the form library would say in its generic words
# ("This field is required.", "Not a valid integer value.", "Field cannot be longer…").

#: A hidden field of a write form that came back wrong: the page is older than the form.
STALE = _l("The page is out of date: reload it and try again.")

#: A choice the form did not offer (a page older than the form, or a value typed in by hand).
NOT_OFFERED = _l("Choose one of the values offered")


def _offered_only(check: Callable[[], None]) -> None:
    """A choice field's own check, refusing a value it does not offer in the app's words."""
    try:
        check()
    except ValidationError:
        raise ValidationError(str(NOT_OFFERED)) from None


class OneOfField(SelectField):
    """A select that refuses a value it does not offer in the app's words."""

    def pre_validate(self, form: Any) -> None:
        _offered_only(lambda: super(OneOfField, self).pre_validate(form))


class OneOfRadioField(RadioField):
    """Radio buttons that refuse a value they do not offer in the app's words."""

    def pre_validate(self, form: Any) -> None:
        _offered_only(lambda: super(OneOfRadioField, self).pre_validate(form))


def most(limit: int) -> Length:
    """At most `limit` characters, said in the app's words."""
    return Length(max=limit, message=_l("At most %(max)d characters"))


class WholeField(IntegerField):
    """A whole number in ASCII digits: "٩", "²" or "１２" are refused next to the field, not
    read (int() reads some of them and raises on others), and the length is bounded first.
    `invalid` is the field's own sentence for what is not such a number."""

    def __init__(self, *args: Any, invalid: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.invalid = (
            invalid if invalid is not None else _l("Write a whole number in the digits 0-9")
        )

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or not str(valuelist[0]).strip():
            self.data = None  # empty: the field's InputRequired says what to write
            return
        self.data = whole_text(str(valuelist[0]).strip())
        if self.data is None:
            raise ValueError(str(self.invalid))

    def pre_validate(self, form: Any) -> None:
        if self.process_errors:  # one sentence for the field, not a range after it too
            raise StopValidation()


class _VersionField(IntegerField):
    """The version a write form read (hidden): a wrong one is a page older than the form."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(str(STALE)) from None


class DayField(DateField):
    """A date the browser's date picker writes (2026-11-20); anything else is refused with
    the app's sentence."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            said = _l("Write a date that exists, as year-month-day: 2026-11-20")
            raise ValueError(str(said)) from None


class Between:
    """NumberRange's message with its bounds written the language's way ("от 1 до 100 000"):
    WTForms fills the message with `%`, which is done here."""

    def __mod__(self, bounds: dict[str, Any]) -> str:
        said = words()
        return said.gettext(
            "Write a whole number from %(min)s to %(max)s",
            min=said.amount(bounds["min"]),
            max=said.amount(bounds["max"]),
        )

    def filled(self, low: Any, high: Any) -> LazyString:
        """The same sentence for an empty field (InputRequired does not fill it in)."""
        return LazyString(lambda: self % {"min": int(low), "max": int(high)})


class WriteForm(FlaskForm):
    """A form that changes a game: carries a one-time request key and the version it read."""

    request_key = HiddenField(
        validators=[
            InputRequired(STALE),
            Length(max=64, message=STALE),
            Regexp(_KEY_RE, message=STALE),
        ]
    )
    base_version = _VersionField(
        validators=[InputRequired(STALE), NumberRange(min=0, message=STALE)]
    )

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


class MultiCheckboxField(SelectMultipleField):
    """Several checkboxes for one multiple choice."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def pre_validate(self, form: Any) -> None:
        _offered_only(lambda: super(MultiCheckboxField, self).pre_validate(form))


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
