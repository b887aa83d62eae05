"""The deal form: one form for every kind of deal, read into a deal in game-file notation.

It works without JavaScript: every field is always sent, and only those the chosen kind
needs are read. Problems found by the rules name their input ("tricks.Anna"), which is
mapped back to the field it came from.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import (
    Field,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import Length

from scorekeeper import wording
from scorekeeper.kept import Kept
from scorekeeper.rules import Answer, Problem, Seat, Sheet, seat
from scorekeeper.rules.contracts import Contract, ContractError, Suit
from scorekeeper.rules.notation import MAX_REASON, parse_amount
from scorekeeper.rules.numbers import whole_text
from scorekeeper.rules.text import normalize

from ..i18n import get_locale, words
from ..widgets import STALE, WriteForm, choices

SEATS = 5
"""Form rows for up to five players; only the game's seats are shown."""
CORRECTION_ROWS = 6
TRICK_COUNTS = frozenset(str(n) for n in range(11))

# The labels live in scorekeeper.wording, the same for the form, the log and the PDF.
KIND_LABELS: dict[str, Any] = {k: _l(text) for k, text in wording.KIND_LABELS.items()}
"""Every kind the rules may allow; the form shows those the seat allows (Seat.kinds)."""
ANSWER_LABELS: dict[str, Any] = {a.value: _l(text) for a, text in wording.ANSWERS.items()}
#: At a table of two a whist is alone or with the talon (§9).
HUSSAR_ANSWER_LABELS: dict[str, Any] = {
    a.value: _l(text) for a, text in wording.HUSSAR_ANSWERS.items()
}
COLUMN_LABELS: dict[str, Any] = {k: _l(text) for k, text in wording.COLUMNS.items()}


def seat_for(sheet: Sheet, position: int | None) -> Seat:
    """The seat of a new deal (position None) or of the deal at a 0-based position: the
    rules' answer (scorekeeper.rules.seat); the form only asks."""
    return seat(sheet, None if position is None else position + 1)


class DealBase(WriteForm):
    """The fields every deal form has; the answer and correction rows are added per kind."""

    kind = RadioField(_l("What to record"), validate_choice=False)
    declarer = RadioField(_l("Declarer"), validate_choice=False)
    offender = RadioField(_l("Who is fined"), validate_choice=False)
    contract = RadioField(_l("Contract"), validate_choice=False)
    reason = TextAreaField(
        _l("Reason"),
        validators=[Length(max=MAX_REASON, message=_l("At most 500 characters"))],
    )
    checked = HiddenField(validators=[Length(max=64, message=STALE)])

    def setup(self, seat: Seat) -> None:
        """Set the choices the table allows at this point."""
        fields = self._fields
        for name, field_choices in _choices_at(seat).items():
            if name in fields:
                fields[name].choices = field_choices
        if not self.kind.data:
            self.kind.data = "contract"

    def spoken(self, code: str) -> str:
        """A contract in words for a screen reader (spoken_contract)."""
        return spoken_contract(code)

    def answer_fields(self, seat: Seat) -> list[tuple[str, Field]]:
        """The answer field of each active player: the defenders first, in answer order."""
        declarer = _player(self.declarer.data, seat.players)
        order = list(seat.active)
        if declarer in seat.active:
            defs = seat.defenders_of(declarer)
            order = defs + [p for p in seat.active if p not in defs]
        return [(p, self[f"answer_{seat.players.index(p)}"]) for p in order]

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
        if data.get("type") == "penalty" and data.get("player") in seat:
            self.offender.data = seat[data["player"]]
        try:
            contract = Contract.parse(data.get("contract", ""))
        except ContractError:
            pass
        else:
            self.contract.data = f"{contract.level}{contract.suit.value}"
        for name, answer in (data.get("answers") or {}).items():
            if name in seat:
                self[f"answer_{seat[name]}"].data = answer
        for name, count in (data.get("tricks") or {}).items():
            if name in seat:
                self[f"tricks_{seat[name]}"].data = str(count)
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


_CHOICES: Kept[tuple[Hashable, ...], dict[str, list[SelectChoice]]] = Kept(1024)  # as drawn.py


def _choices_at(seat: Seat) -> dict[str, list[SelectChoice]]:
    """Every field's choices at this seat, in the page's language: worked out once for each
    seat of a game (a table of three has three all evening), and shared, never changed."""
    key = (
        get_locale(),
        seat.players,
        seat.active,
        seat.hussar,
        seat.kinds,
        seat.min_level,
        seat.half_whist_levels,
        seat.stalingrad,
    )
    return _CHOICES.get_or_make(key, lambda: _choices_of(seat))


def _choices_of(seat: Seat) -> dict[str, list[SelectChoice]]:
    players = seat.players
    out = {
        # Labels are translated here, not once per option drawn.
        "kind": choices((k, str(KIND_LABELS[k])) for k in seat.kinds),
        "declarer": choices((str(players.index(p)), p) for p in seat.active),
        # A fine may fall on anybody at the table (§4.7), not only this deal's players.
        "offender": choices((str(i), p) for i, p in enumerate(players)),
        "contract": choices(
            (f"{lv}{s.value}", contract_label(lv, s)) for lv in seat.levels() for s in Suit
        ),
    }
    labels = {**ANSWER_LABELS, **(HUSSAR_ANSWER_LABELS if seat.hussar else {})}
    answers = choices((a, str(labels[a])) for a in seat.all_answers())
    tricks = choices((str(n), str(n)) for n in range(11))
    for i in range(SEATS):
        out[f"answer_{i}"], out[f"tricks_{i}"] = answers, tricks
    seats = choices([("", "—")] + [(str(i), p) for i, p in enumerate(players)])
    columns = choices((k, str(label)) for k, label in COLUMN_LABELS.items())
    for j in range(CORRECTION_ROWS):
        out[f"corr_player_{j}"], out[f"corr_on_{j}"] = seats, seats
        out[f"corr_column_{j}"] = columns
    return out


#: A contract as a screen reader says it (the grid shows symbols: 8♥, 6 БК).
SPOKEN_LEVELS: dict[int, Any] = {
    6: _l("six"),
    7: _l("seven"),
    8: _l("eight"),
    9: _l("nine"),
    10: _l("ten"),
}
SPOKEN_SUITS: dict[str, Any] = {
    "S": _l("%(level)s spades"),
    "C": _l("%(level)s clubs"),
    "D": _l("%(level)s diamonds"),
    "H": _l("%(level)s hearts"),
    "NT": _l("%(level)s no trumps"),
}


def spoken_contract(code: str) -> str:
    """A contract's code (8H, 6NT) in words, in the page's language: «восемь червей»."""
    level, suit = int(code[:-2] if code.endswith("NT") else code[:-1]), code.lstrip("0123456789")
    return str(SPOKEN_SUITS[suit]) % {"level": SPOKEN_LEVELS[level]}


def contract_label(level: int, suit: Suit) -> str:
    """A contract as its grid cell shows it: 7♥, 10NT (in the page's language: «10 БК»)."""
    return words().contract(Contract(level, suit))


def _deal_form_class(name: str, *, play: bool = True, rows: bool = True) -> type[DealBase]:
    attrs: dict[str, Any] = {}
    for i in range(SEATS if play else 0):
        attrs[f"answer_{i}"] = RadioField(validate_choice=False)
        attrs[f"tricks_{i}"] = RadioField(validate_choice=False)
    for j in range(CORRECTION_ROWS if rows else 0):
        attrs[f"corr_player_{j}"] = SelectField(_l("Player"), validate_choice=False)
        attrs[f"corr_column_{j}"] = SelectField(_l("Writes"), validate_choice=False)
        attrs[f"corr_on_{j}"] = SelectField(_l("On"), validate_choice=False)
        attrs[f"corr_amount_{j}"] = StringField(
            _l("Amount"), validators=[Length(max=20, message=_l("At most 20 characters"))]
        )
    return type(name, (DealBase,), attrs)


DealForm = _deal_form_class("DealForm")
"""The whole form, as the page draws it: every kind's fields."""
_PlayForm = _deal_form_class("PlayForm", rows=False)
_CorrectionForm = _deal_form_class("CorrectionForm", play=False)


def sent_form(kind: str | None, version: int) -> DealBase:
    """The form of a deal the page's script sends (a preview, a Save), read with only the
    fields its kind has: binding the forty fields of every kind took a fifth of the server's
    time per deal."""
    cls = _CorrectionForm if kind == "correction" else _PlayForm
    return cls(version=version)


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


def read(form: DealBase, seat: Seat) -> Reading:
    """The deal the form describes, in game-file notation; errors for what is missing."""
    kind = form.kind.data
    reading = Reading(None)
    if kind not in seat.kinds:
        reading.add("kind", str(_l("Choose what to record")))
        return reading
    if kind == "redeal":
        reading.data = {"type": "redeal"}
        return reading
    if kind == "correction":
        return _read_correction(form, seat.players, reading)
    if kind == "penalty":
        return _read_penalty(form, seat.players, reading)
    if kind == "allpass":
        tricks = _read_tricks(form, seat, reading)
        reading.data = None if reading.errors else {"type": "allpass", "tricks": tricks}
        return reading
    declarer = _player(form.declarer.data, seat.players)
    if declarer is None:
        reading.add("declarer", str(_l("Choose the declarer")))
        return reading
    if kind == "misere":
        tricks = _read_tricks(form, seat, reading)
        misere = {"type": "misere", "declarer": declarer, "tricks": tricks}
        reading.data = None if reading.errors else misere
        return reading
    return _read_contract(form, seat, declarer, reading)


def _read_tricks(form: DealBase, seat: Seat, reading: Reading) -> dict[str, int]:
    """The tricks given for the deal's players (none given: not in the result)."""
    out: dict[str, int] = {}
    for name in seat.active:
        field = f"tricks_{seat.players.index(name)}"
        value = form[field].data
        if value in (None, ""):
            continue
        if str(value) not in TRICK_COUNTS:
            reading.add(field, str(_l("Tricks are 0 to 10")))
            continue
        out[name] = int(value)
    return out


def _read_contract(form: DealBase, seat: Seat, declarer: str, reading: Reading) -> Reading:
    """A played contract: its level and suit, the defenders' answers, and the tricks once
    somebody whists."""
    try:
        contract = Contract.parse(form.contract.data or "")
    except ContractError:
        reading.add("contract", str(_l("Choose the contract")))
        return reading
    answers: dict[str, str] = {}
    for name in seat.defenders_of(declarer):
        answer = form[f"answer_{seat.players.index(name)}"].data
        if answer:
            answers[name] = answer
    data: dict[str, Any] = {
        "type": "contract",
        "declarer": declarer,
        "contract": f"{contract.level}{contract.suit.value}",
        "answers": answers,
    }
    if any(a in (Answer.WHIST.value, Answer.WHIST_TALON.value) for a in answers.values()):
        data["tricks"] = _read_tricks(form, seat, reading)
    if not reading.errors:
        reading.data = data
    return reading


def _read_penalty(form: DealBase, players: tuple[str, ...], reading: Reading) -> Reading:
    """A fine (§4.7): who is fined and the contract of the deal it happened in."""
    offender = _player(form.offender.data, players)
    if offender is None:
        reading.add("offender", str(_l("Choose who is fined")))
    try:
        contract = Contract.parse(form.contract.data or "")
    except ContractError:
        reading.add("contract", str(_l("Choose the contract")))
        return reading
    if offender is not None:
        reading.data = {"type": "penalty", "player": offender, "contract": contract.code()}
    return reading


def _read_correction(form: DealBase, players: tuple[str, ...], reading: Reading) -> Reading:
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
                        "Write an amount from −1,000,000 to 1,000,000 whists, e.g. 10, −4 or 2.5 "
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
    index = whole_text(value if isinstance(value, int | str) else None, digits=2)
    return players[index] if index is not None and 0 <= index < len(players) else None


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
        return "contract"
    if head in ("answers", "tricks"):
        if rest in players:
            return f"{'answer' if head == 'answers' else 'tricks'}_{players.index(rest)}"
        return head
    if head == "entries":
        row = whole_text(rest)
        if row is not None and row in reading.rows:
            return f"corr_{reading.rows[row]}"
        return "entries"
    return ""
