"""Forms of the tournament pages: a new tournament, seating, closing, withdrawing."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, NumberRange

from scorekeeper import gamefile
from scorekeeper.rules.text import name_key
from scorekeeper.tournament.file import MAX_BANDS
from scorekeeper.tournament.service import BAND_PRESETS, MAX_PLAYERS, MIN_PLAYERS

from .. import options as opts
from ..company.forms import clean_name, name_problem
from ..gameforms import NewGameBase, PasswordMixin, make_option_field
from ..widgets import OneOfRadioField, WholeField, WriteForm, choices, most

#: ASCII digits only: `\d` takes "٣" and "²" too (int() reads the first, refuses the second).
_BAND_LINE = re.compile(
    r"^\s*([0-9]{1,7}|\*|-|∞)\s*[:;=\s]\s*([0-9]{1,7}(?:[.,][0-9]{1,6}|/[0-9]{1,7})?)\s*$"
)


class TournamentBase(NewGameBase):
    """A new tournament: name, roster, the table games' convention and options, the tour
    length, the table size and the bands that turn whists into tournament points."""

    name = StringField(_l("Name of the tournament"), validators=[most(gamefile.MAX_NAME)])
    roster = TextAreaField(
        _l("Players (one name a line)"),
        description=_l("Paste or type the roster; 3 to 100 players."),
        validators=[most(6000)],
    )
    rounds = WholeField(
        _l("Tour length in rounds"),
        description=_l("Each player at a table deals this many times a tour."),
        invalid=_l("Write a whole number from %(min)s to %(max)s", min=1, max=30),
        validators=[
            InputRequired(_l("Write a whole number from %(min)s to %(max)s", min=1, max=30)),
            NumberRange(1, 30, message=_l("Write a whole number from %(min)s to %(max)s")),
        ],
        default=3,
    )
    tours = WholeField(
        _l("Tours"),
        description=_l("How many tours the tournament has: after the last one it is over."),
        validators=[
            InputRequired(_l("Write a whole number from %(min)s to %(max)s", min=1, max=50)),
            NumberRange(1, 50, message=_l("Write a whole number from %(min)s to %(max)s")),
        ],
        default=5,
    )
    table_size = OneOfRadioField(
        _l("Players at a table"),
        choices=choices((("3", _l("three")), ("4", _l("four")))),
        default="3",
        validators=[InputRequired(_l("Choose three or four players a table"))],
    )
    bands_preset = OneOfRadioField(
        _l("Tournament points"),
        choices=choices(
            (
                ("plain", _l("Whists 1:1")),
                ("cup", _l("1:1 up to 200 whists, a tenth up to 650, nothing above")),
                ("halves", _l("1:1 up to 50 whists, half up to 100, a tenth above")),
                ("custom", _l("Bands of our own")),
            )
        ),
        default="plain",
        validators=[InputRequired(_l("Choose how whists turn into tournament points"))],
    )
    bands_text = TextAreaField(
        _l("Bands of our own"),
        description=_l(
            "One band a line: up to how many whists, then the factor; * for no limit. "
            "E.g. 200 1, then 650 1/10, then * 0."
        ),
        validators=[most(500)],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Hussar is not a tournament convention (tournament.md §1).
        self.convention.choices = [c for c in self.convention.choices if c.value != "hussar"]

    def roster_names(self) -> list[str]:
        """The names typed, in order, without blank lines."""
        return [clean_name(line) for line in (self.roster.data or "").splitlines() if line.strip()]

    def check_roster(self) -> bool:
        """MIN_PLAYERS to MAX_PLAYERS distinct, readable names."""
        names = self.roster_names()
        problems = [p for p in (name_problem(n) for n in names) if p]
        problems.extend(same_names(names))
        if len({name_key(n) for n in names}) < MIN_PLAYERS:
            problems.append(str(_l("Write at least three names")))
        if len(names) > MAX_PLAYERS:
            problems.append(str(_l("At most 100 players")))
        self.roster.errors = [*self.roster.errors, *problems]
        return not problems

    def bands(self) -> list[list[Any]] | None:
        """The bands chosen, or None with the problem next to the field."""
        if self.bands_preset.data != "custom":
            return [list(b) for b in BAND_PRESETS.get(self.bands_preset.data or "", [])]
        out: list[list[Any]] = []
        problem = None
        lines = [line for line in (self.bands_text.data or "").splitlines() if line.strip()]
        if len(lines) > MAX_BANDS:  # the tournament file holds no more (tournament.md §5)
            lines, problem = [], _l("At most %(limit)s bands", limit=MAX_BANDS)
        for line in lines:
            match = _BAND_LINE.match(line)
            if match is None or re.search(r"/0+\s*$", match.group(2)):  # no 1/0
                problem = _l("Write each band as whists and a factor, e.g. 200 1/10")
                break
            upto_text, factor_text = match.groups()
            upto = None if upto_text in ("*", "-", "∞") else int(upto_text)
            factor = factor_text.replace(",", ".")
            if out and (out[-1][0] is None or (upto is not None and upto <= out[-1][0])):
                problem = _l("Each band must go higher than the one before; * only last")
                break
            if upto == 0:
                problem = _l("Each band must go higher than the one before; * only last")
                break
            out.append([upto, str(Fraction(factor))])
        if problem is None and not lines and not out:
            problem = _l("Write at least one band")
        if problem is not None:
            self.bands_text.errors = [*self.bands_text.errors, str(problem)]
            return None
        return out


def same_names(names: list[str]) -> list[str]:
    """A problem for each name that is another's with other capitals or width ("Anna" and
    "anna", "ANNA", "Ａｎｎａ"; "Straße" and "STRASSE"): one player, by the name rule of a
    game's players (rules/text.name_key)."""
    first: dict[str, str] = {}
    problems = []
    for name in names:
        other = first.setdefault(name_key(name), name)
        if other != name:
            problems.append(
                str(
                    _l(
                        "“%(name)s” and “%(other)s” are one name: names that differ only in "
                        "capitals or width are the same player",
                        name=name,
                        other=other,
                    )
                )
            )
    if len(set(names)) != len(names):
        problems.append(str(_l("Two players cannot have the same name")))
    return problems


def _with_options(name: str, base: type[NewGameBase]) -> type[NewGameBase]:
    attrs: dict[str, Any] = {spec.field: make_option_field(spec) for spec in opts.ALL}
    return type(name, (base,), attrs)


TournamentForm = _with_options("TournamentForm", TournamentBase)


class SeatForm(WriteForm):
    """Seat the next tour (one tap); tour 1 may be typed instead of drawn."""

    seating = TextAreaField(
        _l("Or type the seating of tour 1"),
        description=_l(
            "One table a line, its players clockwise, separated by commas; the largest "
            "tables first. The first dealer is drawn."
        ),
        validators=[most(6000)],
    )

    def typed(self) -> list[list[str]] | None:
        """The tables typed, or None when the seating is to be drawn."""
        lines = [line for line in (self.seating.data or "").splitlines() if line.strip()]
        if not lines:
            return None
        return [[clean_name(n) for n in re.split(r"[,;]", line) if n.strip()] for line in lines]


class CloseForm(WriteForm):
    """Close the tour being played; early only with the box ticked."""

    early = BooleanField(_l("Close now: tables that have not finished count as settled now"))


class UnseatForm(WriteForm):
    """Undo the seating of the tour being played (no deal yet), once asked."""

    confirm = BooleanField(_l("Yes: take the tables away, the tour is seated again"))


class ReopenForm(WriteForm):
    """Reopen the last closed tour, once asked."""

    confirm = BooleanField(_l("Yes: reopen the tour, its tables can score again"))


class JoinForm(WriteForm):
    """A player joins before tour 1 is seated."""

    name = StringField(_l("Name"), validators=[Length(max=200)])

    def clean(self) -> str | None:
        """The name typed (trimmed, NFC), or None with the problem next to the field."""
        name = clean_name(self.name.data)
        problem = name_problem(name)
        if problem:
            self.name.errors = [*self.name.errors, problem]
            return None
        return name


class WithdrawForm(WriteForm):
    """A player leaves the tournament between tours."""

    player = SelectField(_l("Player"), validate_choice=False)


class RevokeForm(FlaskForm):
    """A new scorer link for one table."""


class LinkForm(FlaskForm):
    """A new edit or read-only link for the tournament."""

    which = OneOfRadioField(choices=choices((("edit", "edit"), ("view", "view"))), default="view")


class TournamentImportForm(PasswordMixin, FlaskForm):
    """Open a tournament file (JSON) as a new tournament."""

    file = FileField(_l("Tournament file (.json)"), validators=[FileRequired(_l("Choose a file"))])
