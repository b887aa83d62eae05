"""What every new-game form shares (the home page's, a company's evening, a tournament's
tables): the seats and their names, the convention and its options, the server's password."""

from __future__ import annotations

import datetime
import hmac
from collections.abc import Callable, Container, Mapping
from typing import Any

from flask import current_app
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    PasswordField,
    RadioField,
    StringField,
)
from wtforms.validators import InputRequired, NumberRange, Optional, ValidationError

from scorekeeper import gamefile
from scorekeeper.games.family import RUSSIAN, family_named
from scorekeeper.rules import CONVENTIONS
from scorekeeper.rules.options import OPTION_BOUNDS
from scorekeeper.rules.text import bad_character, normalize

from . import attempts
from . import options as opts
from .i18n import words
from .problems import option_field, put_on_form
from .widgets import (
    Between,
    MultiCheckboxField,
    OneOfField,
    OneOfRadioField,
    WholeField,
    choices,
    most,
)

MAX_PLAYERS = 5
MAX_PLAYER_NAME = 40  # a player's name on the form (the game file allows a little more)
CONVENTION_LABELS: dict[str, Any] = {
    "sochi": _l("Sochi"),
    "leningrad": _l("Leningrad"),
    "rostov": _l("Rostov"),
    "hussar": _l("Hussar (two players)"),
    "fspr": _l("FSPR (tournament Leningrad, four players)"),
}


class PasswordMixin:
    """The server's password, asked for only when SCOREKEEPER_PASSWORD is set."""

    password = PasswordField(_l("Server password"), validators=[most(200)])
    wait = 0
    """Seconds this client must wait before its next password (0: none); the page says it."""

    def validate_password(self, field: Field) -> None:
        expected = str(current_app.config.get("PASSWORD") or "")
        if not expected:
            return
        self.wait = attempts.wait_seconds()
        if self.wait:
            raise ValidationError(
                ngettext(
                    "Too many wrong passwords: wait %(num)s second and try again.",
                    "Too many wrong passwords: wait %(num)s seconds and try again.",
                    self.wait,
                )
            )
        if not hmac.compare_digest((field.data or "").encode(), expected.encode()):
            attempts.failed()
            raise ValidationError(_l("Wrong password"))


def make_option_field(spec: opts.OptionSpec) -> Field:
    """The form field of one option: a whole number within its bounds, a tick box, a choice,
    levels to tick, or a short text."""
    label, desc = spec.label, spec.help
    if spec.kind == "int":
        limits = OPTION_BOUNDS[spec.name]
        return WholeField(
            label,
            description=desc,
            invalid=Between().filled(limits.low, limits.high),
            validators=[
                InputRequired(Between().filled(limits.low, limits.high)),
                NumberRange(
                    int(limits.low),
                    int(limits.high),
                    message=Between(),
                ),
            ],
        )
    if spec.kind == "bool":
        return BooleanField(label, description=desc)
    if spec.kind == "choice":
        return OneOfField(label, description=desc, choices=choices(spec.choices))
    if spec.kind == "levels":
        return MultiCheckboxField(label, description=desc, choices=choices(spec.choices))
    return StringField(label, description=desc, validators=[Optional(), most(20)])


class NewGameBase(PasswordMixin, FlaskForm):
    name = StringField(_l("Name of the game"), validators=[most(gamefile.MAX_NAME)])
    convention = OneOfRadioField(
        _l("Convention"),
        choices=choices((c, CONVENTION_LABELS[c]) for c in CONVENTIONS),
        default="sochi",
        validators=[InputRequired(_l("Choose a convention"))],
    )
    # Which preset the option values were shown for: an option still at that preset's value
    # was not changed by the player, so a switch of preset without JavaScript applies to it.
    rendered_preset = HiddenField(default="sochi")
    first_dealer = RadioField(_l("Deals first"), default="0", validate_choice=False)

    def player_fields(self) -> list[Field]:
        """The seats' name fields in seating order."""
        return [self[f"player_{i}"] for i in range(MAX_PLAYERS)]

    def validate_name(self, field: Field) -> None:
        char = bad_character(field.data or "")
        if char is not None:
            raise ValidationError(_l("The name cannot hold %(char)s", char=words().character(char)))
        field.data = normalize((field.data or "").strip())

    def default_name(self) -> None:
        """Today's date as the game's name, when none was typed."""
        if not self.name.data:
            self.name.data = words().date(datetime.date.today())

    def fill(self, settings: dict[str, Any]) -> None:
        """Offer the last game's players, convention, options and first dealer again."""
        players = settings.get("players") or []
        for i, field in enumerate(self.player_fields()):
            field.data = players[i] if i < len(players) else ""
        convention = settings.get("convention")
        if convention in CONVENTIONS:
            self.convention.data = convention
            self.rendered_preset.data = convention
        if settings.get("first_dealer") in players:
            self.first_dealer.data = str(players.index(settings["first_dealer"]))
        stored = settings.get("options") or {}
        for spec in opts.ALL:
            if spec.name in stored:
                self[spec.field].data = opts.to_form(spec, stored[spec.name])

    def fill_preset(self, convention: str) -> None:
        """Show a preset's option values."""
        for field, value in opts.preset_values(convention).items():
            self[field].data = value
        self.rendered_preset.data = convention

    def fill_house_set(self, chosen: opts.HouseSet) -> None:
        """Show a house-rule set: its preset's values with the set's changes."""
        self.convention.data = chosen.convention
        self.fill_preset(chosen.convention)
        specs = {spec.name: spec for spec in opts.ALL}
        for name, value in chosen.changes:
            spec = specs[name]
            self[spec.field].data = opts.to_form(spec, value)
        for spec in opts.ALL:  # show the set's values, not the ones posted with the tap
            self[spec.field].raw_data = None
        self.convention.raw_data = None

    def overrides(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The options as JSON, a preset switch applied; and field errors of unreadable ones."""
        convention = self.convention.data or "sochi"
        rendered = self.rendered_preset.data
        shown = opts.preset_values(rendered) if rendered in CONVENTIONS else None
        preset = opts.preset_values(convention)
        out: dict[str, Any] = {}
        errors: dict[str, str] = {}
        for spec in opts.ALL:
            data = self[spec.field].data
            if shown is not None and rendered != convention and _same(data, shown[spec.field]):
                data = preset[spec.field]  # not changed by hand: the newly chosen preset's
            try:
                out[spec.name] = opts.from_form(spec, data)
            except opts.BadValue as bad:
                errors[spec.field] = str(bad)
        return out, errors

    def house_rules(
        self,
        convention: str,
        *,
        extra: Mapping[str, Any] | None = None,
        field_of: Callable[[str], str] = option_field,
        said: Container[str] = (),
    ) -> dict[str, Any] | None:
        """The house rules the form chose, resolved as the game keeps them (`extra` laid
        over the form's options), or None with every problem next to its field (but the
        problems of the options in `said`, whose fields have said their own already). The
        one place where a company's and a tournament's forms resolve their house rules."""
        overrides, bad = self.overrides()
        for field, message in bad.items():
            self[field].errors = [message]
        options, problems = family_named(RUSSIAN).resolve_options(
            convention, {**overrides, **(extra or {})}
        )
        put_on_form(self, [p for p in problems if p.field not in said], field_of)
        return None if bad or problems else options


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list) or isinstance(b, list):
        return sorted(map(str, a or [])) == sorted(map(str, b or []))
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a) == bool(b)
    return str(a if a is not None else "").strip() == str(b if b is not None else "").strip()
