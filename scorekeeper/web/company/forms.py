"""Forms of the company pages: the company and its rules, the roster, an evening, a payment."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    Field,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from scorekeeper import gamefile
from scorekeeper.rules.text import bad_character, name_key, normalize

from .. import options as opts
from ..gameforms import MAX_PLAYER_NAME, NewGameBase, PasswordMixin, make_option_field
from ..i18n import time_zone, words
from ..widgets import STALE, DayField, WriteForm, most

MAX_ROSTER = 30
AMOUNT_RE = re.compile(r"[0-9]{1,9}(?:[.,][0-9]{1,2})?")


def clean_name(text: str | None) -> str:
    """A player's name as typed, trimmed and in NFC (as a game's names are)."""
    return normalize((text or "").strip())


def name_problem(name: str) -> str | None:
    """Why a roster name cannot be used, or None."""
    if not name:
        return str(_l("Write a name"))
    if len(name) > MAX_PLAYER_NAME:
        return str(_l("At most 40 characters"))
    char = bad_character(name)
    if char is not None:
        return str(_l("The name cannot hold %(char)s", char=words().character(char)))
    return None


class RulesBase(NewGameBase):
    """The company's name and house rules (the defaults of its new evenings)."""

    name = StringField(_l("Name of the company"), validators=[most(gamefile.MAX_NAME)])


class CompanyBase(RulesBase):
    """A new company: its name, its roster and its house rules."""

    roster = TextAreaField(
        _l("Players (one name a line)"),
        description=_l("The regulars; more can be added later."),
        validators=[most(2000)],
    )

    def roster_names(self) -> list[str]:
        """The names typed, in order, without blank lines."""
        return [clean_name(line) for line in (self.roster.data or "").splitlines() if line.strip()]

    def check_roster(self) -> bool:
        """Two to MAX_ROSTER distinct, readable names."""
        names = self.roster_names()
        problems = [p for p in (name_problem(n) for n in names) if p]
        if len({name_key(n) for n in names}) != len(names):
            problems.append(str(_l("Two players cannot have the same name")))
        if len(names) < 2:
            problems.append(str(_l("Write at least two names")))
        if len(names) > MAX_ROSTER:
            problems.append(str(_l("At most 30 players")))
        self.roster.errors = [*self.roster.errors, *problems]
        return not problems


def _with_options(name: str, base: type[NewGameBase]) -> type[NewGameBase]:
    attrs: dict[str, Any] = {spec.field: make_option_field(spec) for spec in opts.ALL}
    return type(name, (base,), attrs)


CompanyForm = _with_options("CompanyForm", CompanyBase)
RulesForm = _with_options("RulesForm", RulesBase)


class PlayerForm(FlaskForm):
    """Add a player to the roster, or rename one."""

    name = StringField(
        _l("Name"), validators=[InputRequired(_l("Write a name")), most(MAX_PLAYER_NAME)]
    )

    def validate_name(self, field: Field) -> None:
        problem = name_problem(clean_name(field.data))
        if problem:
            raise ValidationError(problem)


class AttachForm(FlaskForm):
    """Attach a game to the company by its edit link."""

    link = StringField(
        _l("The game's edit link"),
        validators=[InputRequired(_l("Paste the game's edit link")), most(400)],
        description=_l("Paste the link of the game's page (the one that can add deals)."),
    )
    played_on = DayField(
        _l("The evening's date"),
        validators=[Optional()],
        description=_l("Left empty: the day the game was started."),
    )

    def validate_played_on(self, field: Field) -> None:
        evening_date_problem(field)


def evening_date_problem(field: Field) -> None:
    """An evening's date is a real day, not far in the future (a typo in the year)."""
    ascii_date(field)
    day = field.data
    if day is not None and not (FIRST_DAY <= day <= table_today() + ONE_DAY):
        raise ValidationError(_l("Give the day the evening was played."))


def table_today() -> datetime.date:
    """Today by the server's clock, in the table's time zone (the browser's, kept in its
    cookie; the server's own zone before it is known): a phone's clock set wrong never
    decides an evening's date."""
    zone = time_zone()
    return datetime.datetime.now(zone).date() if zone is not None else datetime.date.today()


def ascii_date(field: Field) -> None:
    """A date written with digits other than 0-9 ("2026-11-2٩", "2026-11-2²") is refused
    as any unreadable date: Python's strptime would read them as digits."""
    if any(not str(raw).isascii() for raw in field.raw_data or ()):
        raise ValidationError(_l("Write the date in the digits 0-9, e.g. 2026-11-20"))


FIRST_DAY = datetime.date(1900, 1, 1)
ONE_DAY = datetime.timedelta(days=1)


class EveningForm(WriteForm):
    """Start an evening: the seats in order and the first dealer (the form's fields are
    seat_0 … seat_3 holding roster ids, built from the players picked)."""

    name = StringField(_l("Name of the game"), validators=[most(gamefile.MAX_NAME)])
    first_dealer = RadioField(_l("Deals first"), validate_choice=False, default="0")
    played_on = DayField(
        _l("The evening's date"),
        validators=[InputRequired(_l("Give the day the evening was played."))],
    )

    def validate_name(self, field: Field) -> None:
        # The one name rule, as a new game's name (the evening is a game).
        char = bad_character(field.data or "")
        if char is not None:
            raise ValidationError(_l("The name cannot hold %(char)s", char=words().character(char)))

    def validate_played_on(self, field: Field) -> None:
        evening_date_problem(field)


class PaymentForm(WriteForm):
    """Record money handed over between two players."""

    payer = SelectField(_l("Who paid"), validate_choice=False)
    payee = SelectField(_l("To whom"), validate_choice=False)
    amount = StringField(_l("Amount"), validators=[InputRequired(_l("Write the amount")), most(20)])
    paid_on = DayField(_l("Date"), validators=[InputRequired(_l("Give the day it was paid"))])
    game = HiddenField(validators=[Optional(), Length(max=20, message=STALE)])

    def validate_paid_on(self, field: Field) -> None:
        ascii_date(field)

    def money(self) -> Decimal | None:
        """The amount as exact money, or None (and an error next to the field)."""
        text = (self.amount.data or "").strip().replace(",", ".")
        if not AMOUNT_RE.fullmatch(text) or Decimal(text) <= 0:
            self.amount.errors = [
                *self.amount.errors,
                str(_l("Write an amount above zero, e.g. 12.50")),
            ]
            return None
        return Decimal(text).quantize(Decimal("0.01"))


class DeletePaymentForm(WriteForm):
    """Take back a payment recorded by mistake."""


class CompanyImportForm(PasswordMixin, FlaskForm):
    """Open a company file (JSON) as a new company."""

    file = FileField(_l("Company file (.json)"), validators=[FileRequired(_l("Choose a file"))])
