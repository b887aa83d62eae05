"""The deal form: one form for every kind of deal, read into a deal in game-file notation.

It works without JavaScript: every field is always sent, and only those the chosen kind
needs are read. Problems found by the rules name their input ("tricks.Anna"), which is
mapped back to the field it came from.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import (
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import Length, NumberRange, Optional

from scorekeeper import wording
from scorekeeper.rules import Answer, Problem, Sheet, defenders
from scorekeeper.rules.contracts import LEVELS, Contract, ContractError, Suit
from scorekeeper.rules.notation import MAX_REASON, parse_amount
from scorekeeper.rules.scoring import active_players, min_level
from scorekeeper.rules.text import normalize

from ..i18n import words
from ..widgets import WriteForm, choices

SEATS = 4
CORRECTION_ROWS = 6

# The labels live in scorekeeper.wording, the same for the form, the log and the PDF.
KIND_LABELS: dict[str, Any] = {k: _l(text) for k, text in wording.KIND_LABELS.items()}
ANSWER_LABELS: dict[str, Any] = {a.value: _l(text) for a, text in wording.ANSWERS.items()}
#: At a table of two a whist is alone or with the talon (§9).
HUSSAR_ANSWER_LABELS: dict[str, Any] = {
    a.value: _l(text) for a, text in wording.HUSSAR_ANSWERS.items()
}
COLUMN_LABELS: dict[str, Any] = {k: _l(text) for k, text in wording.COLUMNS.items()}


@dataclass(frozen=True)
class Seat:
    """Where the deal stands at the table: its number, dealer, who plays, lowest level."""

    number: int
    """1-based place in the log."""
    players: tuple[str, ...]
    dealer: str
    """Who deals it, were it a deal at the table."""
    min_level: int | None
    hussar: bool
    half_whist: tuple[int, ...]

    @property
    def active(self) -> list[str]:
        """The players in this deal (all but the dealer at a table of four)."""
        return active_players(self.players, self.dealer)

    def kinds(self) -> list[str]:
        """The kinds of deal one may enter here."""
        if self.hussar:
            return ["contract", "misere", "redeal", "correction"]
        return ["contract", "misere", "allpass", "correction"]

    def levels(self) -> list[int]:
        """The contract levels allowed here (the all-pass exit)."""
        return [lv for lv in LEVELS if self.min_level is None or lv >= self.min_level]

    def answers(self) -> list[str]:
        """A defender's possible answers in this game."""
        if self.hussar:
            return ["whist", "whist-talon", "pass"]
        return ["whist", "pass", "half-whist"] if self.half_whist else ["whist", "pass"]

    def defenders_of(self) -> dict[str, list[int]]:
        """For the script: each possible declarer's seat → the defenders' seats, in order."""
        seat = {p: i for i, p in enumerate(self.players)}
        return {
            str(seat[p]): [seat[d] for d in defenders(self.players, self.dealer, p)]
            for p in self.active
        }


def seat_for(sheet: Sheet, position: int | None) -> Seat:
    """The seat of a new deal (position None) or of the deal at a 0-based position."""
    game = sheet.game
    players = game.players
    if position is None:
        dealer, streak = sheet.next_dealer, sheet.allpass_streak
        number = len(sheet.results) + 1
    else:
        before = sheet.results[:position]
        dealt = sum(1 for r in before if r.dealer is not None)
        dealer = players[(players.index(game.first_dealer) + dealt) % len(players)]
        streak = sheet.results[position].allpass_streak
        number = position + 1
    return Seat(
        number=number,
        players=players,
        dealer=dealer,
        min_level=min_level(game.options, streak),
        hussar=game.hussar,
        half_whist=game.options.half_whist,
    )


class _DealBase(WriteForm):
    kind = RadioField(_l("What was played"), validate_choice=False)
    declarer = RadioField(_l("Declarer"), validate_choice=False)
    level = RadioField(_l("Level"), validate_choice=False)
    suit = RadioField(_l("Suit"), validate_choice=False)
    reason = TextAreaField(
        _l("Reason"),
        validators=[Length(max=MAX_REASON, message=_l("At most 500 characters"))],
    )
    checked = HiddenField(validators=[Length(max=64)])

    def setup(self, seat: Seat) -> None:
        """Set the choices the table allows at this point."""
        players = seat.players
        self.kind.choices = choices((k, KIND_LABELS[k]) for k in seat.kinds())
        self.declarer.choices = choices((str(players.index(p)), p) for p in seat.active)
        self.level.choices = choices((str(lv), str(lv)) for lv in seat.levels())
        self.suit.choices = choices(
            (s.value, _l("NT") if s is Suit.NO_TRUMP else s.symbol) for s in Suit
        )
        for i in range(SEATS):
            labels = {**ANSWER_LABELS, **(HUSSAR_ANSWER_LABELS if seat.hussar else {})}
            self[f"answer_{i}"].choices = choices((a, labels[a]) for a in seat.answers())
        seats = [("", "—")] + [(str(i), p) for i, p in enumerate(players)]
        for j in range(CORRECTION_ROWS):
            self[f"corr_player_{j}"].choices = choices(seats)
            self[f"corr_on_{j}"].choices = choices(seats)
            self[f"corr_column_{j}"].choices = choices(COLUMN_LABELS.items())
        if not self.kind.data:
            self.kind.data = "contract"

    def answer_fields(self, seat: Seat) -> list[tuple[str, Field]]:
        """The answer field of each active player."""
        return [(p, self[f"answer_{seat.players.index(p)}"]) for p in seat.active]

    def trick_fields(self, seat: Seat) -> list[tuple[str, Field]]:
        """The tricks field of each active player."""
        return [(p, self[f"tricks_{seat.players.index(p)}"]) for p in seat.active]

    def correction_rows(self) -> list[dict[str, Field]]:
        """The correction's rows of fields."""
        return [
            {key: self[f"corr_{key}_{j}"] for key in ("player", "column", "on", "amount")}
            for j in range(CORRECTION_ROWS)
        ]

    def fill(self, data: dict[str, Any], players: tuple[str, ...]) -> None:
        """Show a stored deal in the form (to edit it)."""
        seat = {p: str(i) for i, p in enumerate(players)}
        self.kind.data = data.get("type")
        if data.get("declarer") in seat:
            self.declarer.data = seat[data["declarer"]]
        try:
            contract = Contract.parse(data.get("contract", ""))
        except ContractError:
            pass
        else:
            self.level.data, self.suit.data = str(contract.level), contract.suit.value
        for name, answer in (data.get("answers") or {}).items():
            if name in seat:
                self[f"answer_{seat[name]}"].data = answer
        for name, count in (data.get("tricks") or {}).items():
            if name in seat:
                self[f"tricks_{seat[name]}"].data = count
        self.reason.data = data.get("reason", "")
        for j, entry in enumerate((data.get("entries") or [])[:CORRECTION_ROWS]):
            self[f"corr_player_{j}"].data = seat.get(entry.get("player"), "")
            for column in ("pool", "hill"):
                if column in entry:
                    self[f"corr_column_{j}"].data = column
                    self[f"corr_amount_{j}"].data = str(entry[column])
            if "whists_on" in entry:
                self[f"corr_column_{j}"].data = "whists"
                self[f"corr_on_{j}"].data = seat.get(entry["whists_on"], "")
                self[f"corr_amount_{j}"].data = str(entry.get("amount", ""))


def _deal_form_class() -> type[_DealBase]:
    attrs: dict[str, Any] = {}
    for i in range(SEATS):
        attrs[f"answer_{i}"] = RadioField(validate_choice=False)
        attrs[f"tricks_{i}"] = IntegerField(
            validators=[
                Optional(),
                NumberRange(0, 10, message=_l("Tricks are 0 to 10")),
            ]
        )
    for j in range(CORRECTION_ROWS):
        attrs[f"corr_player_{j}"] = SelectField(_l("Player"), validate_choice=False)
        attrs[f"corr_column_{j}"] = SelectField(_l("Writes"), validate_choice=False)
        attrs[f"corr_on_{j}"] = SelectField(_l("On"), validate_choice=False)
        attrs[f"corr_amount_{j}"] = StringField(
            _l("Amount"), validators=[Length(max=20, message=_l("At most 20 characters"))]
        )
    return type("DealForm", (_DealBase,), attrs)


DealForm = _deal_form_class()


# -- reading the form ------------------------------------------------------------------------


@dataclass
class Reading:
    """The deal read from the form, or the errors that keep it from being one."""

    data: dict[str, Any] | None
    errors: dict[str, list[str]] = field(default_factory=dict)
    """Messages by form field (or by section: "answers", "tricks", "entries")."""
    top: list[str] = field(default_factory=list)
    """Messages about no field in particular."""
    rows: dict[int, int] = field(default_factory=dict)
    """Correction entry number (1-based) → form row."""

    def add(self, where: str, message: str) -> None:
        """Note a message next to a field (or at the top for "")."""
        if where:
            self.errors.setdefault(where, []).append(message)
        else:
            self.top.append(message)

    @property
    def fingerprint(self) -> str:
        """A short digest of the deal, so "Save" writes exactly what was previewed."""
        text = json.dumps(self.data, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def read(form: _DealBase, seat: Seat) -> Reading:
    """The deal the form describes, in game-file notation; errors for what is missing."""
    players = seat.players
    kind = form.kind.data
    reading = Reading(None)
    if kind not in seat.kinds():
        reading.add("kind", str(_l("Choose what was played")))
        return reading
    if kind == "redeal":
        reading.data = {"type": "redeal"}
        return reading
    if kind == "correction":
        return _read_correction(form, players, reading)

    def trick_values(names: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for name in names:
            value = form[f"tricks_{players.index(name)}"].data
            if value is not None:
                out[name] = value
        return out

    if kind == "allpass":
        reading.data = {"type": "allpass", "tricks": trick_values(seat.active)}
        return reading
    declarer = _player(form.declarer.data, players)
    if declarer is None:
        reading.add("declarer", str(_l("Choose the declarer")))
        return reading
    if kind == "misere":
        reading.data = {"type": "misere", "declarer": declarer, "tricks": trick_values(seat.active)}
        return reading
    if form.level.data not in {str(lv) for lv in LEVELS}:
        reading.add("level", str(_l("Choose the level")))
    if form.suit.data not in {s.value for s in Suit}:
        reading.add("suit", str(_l("Choose the suit")))
    if reading.errors:
        return reading
    answers: dict[str, str] = {}
    for name in defenders(players, seat.dealer, declarer):
        answer = form[f"answer_{players.index(name)}"].data
        if answer:
            answers[name] = answer
    data: dict[str, Any] = {
        "type": "contract",
        "declarer": declarer,
        "contract": f"{form.level.data}{form.suit.data}",
        "answers": answers,
    }
    if any(a in (Answer.WHIST.value, Answer.WHIST_TALON.value) for a in answers.values()):
        data["tricks"] = trick_values(seat.active)
    reading.data = data
    return reading


def _read_correction(form: _DealBase, players: tuple[str, ...], reading: Reading) -> Reading:
    reason = normalize((form.reason.data or "").strip().replace("\r\n", "\n"))
    if not reason:
        reading.add("reason", str(_l("Say why the correction is made")))
    entries: list[dict[str, Any]] = []
    for j, row in enumerate(form.correction_rows()):
        player = _player(row["player"].data, players)
        text = (row["amount"].data or "").strip()
        if player is None and not text:
            continue
        where = f"corr_{j}"
        if player is None:
            reading.add(where, str(_l("Choose the player")))
            continue
        amount = parse_amount(text)
        if amount is None:
            reading.add(
                where,
                str(
                    _l(
                        "Write an amount from −1000000 to 1000000 whists, e.g. 10, -4 or 2.5 "
                        "(no exponents)"
                    )
                ),
            )
            continue
        value: Any = int(amount) if amount.denominator == 1 else str(amount)
        column = row["column"].data
        if column == "whists":
            on = _player(row["on"].data, players)
            if on is None:
                reading.add(where, str(_l("Choose whom the whists are written on")))
                continue
            entry = {"player": player, "whists_on": on, "amount": value}
        elif column in ("pool", "hill"):
            entry = {"player": player, column: value}
        else:
            reading.add(where, str(_l("Choose pool, hill or whists")))
            continue
        entries.append(entry)
        reading.rows[len(entries)] = j
    if not entries and not any(k.startswith("corr_") for k in reading.errors):
        reading.add("entries", str(_l("Write at least one amount")))
    if reading.errors:
        return reading
    reading.data = {"type": "correction", "reason": reason, "entries": entries}
    return reading


def _player(value: Any, players: tuple[str, ...]) -> str | None:
    try:
        index = int(value)
    except (TypeError, ValueError):
        return None
    return players[index] if 0 <= index < len(players) else None


def place(reading: Reading, problems: list[Problem], players: tuple[str, ...]) -> None:
    """Put the rules' problems next to the fields they name."""
    for problem in problems:
        text = words().problem(problem, with_deal=False)
        reading.add(_field_of(problem.field, reading, players), text)


def _field_of(name: str | None, reading: Reading, players: tuple[str, ...]) -> str:
    if not name:
        return ""
    head, _, rest = name.partition(".")
    if head in ("type", "declarer", "reason"):
        return {"type": "kind"}.get(head, head)
    if head == "contract":
        return "level"
    if head in ("answers", "tricks"):
        if rest in players:
            return f"{'answer' if head == 'answers' else 'tricks'}_{players.index(rest)}"
        return head
    if head == "entries":
        if rest.isdigit() and int(rest) in reading.rows:
            return f"corr_{reading.rows[int(rest)]}"
        return "entries"
    return ""
