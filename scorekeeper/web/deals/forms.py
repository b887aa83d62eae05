"""The deal form: one form for every kind of deal, its fields gathered under the keys of
game-file notation for the rules to read (rules.read_entered, through the game service).

It works without JavaScript: every field is always sent, and the rules read those the chosen
kind needs. Problems found by the rules name their input ("tricks.Anna"); the page puts each
back next to the field it came from (deals/answer.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import (
    Field,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import Length

from scorekeeper import wording
from scorekeeper.rules import Seat, Sheet, seat
from scorekeeper.rules.contracts import Contract, ContractError, Suit
from scorekeeper.rules.notation import MAX_REASON

from ..i18n import words
from ..widgets import STALE, WriteForm

SEATS = 5
"""Form rows for up to five players; only the game's seats are shown."""
CORRECTION_ROWS = 6

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

    def spoken(self, code: str) -> str:
        """A contract in words for a screen reader (spoken_contract)."""
        return spoken_contract(code)

    def answer_fields(self, seat: Seat) -> list[tuple[str, Field]]:
        """The answer field of each active player: the defenders first, in answer order; then
        the dealer's, where the rules let the dealer whist (§4.8)."""
        declarer = _named(self.declarer.data, seat.players)
        order = list(seat.active)
        if declarer in seat.active:
            defs = seat.defenders_of(declarer)
            order = defs + [p for p in seat.active if p not in defs]
        if seat.dealer_may_whist:
            order.append(seat.dealer)
        return [(p, self[f"answer_{seat.players.index(p)}"]) for p in order]

    def trick_fields(self, seat: Seat) -> list[tuple[str, Field]]:
        """The tricks field of each player who may take tricks: the active players, and the
        dealer who plays the all-pass talon (§4.5)."""
        return [(p, self[f"tricks_{seat.players.index(p)}"]) for p in seat.allpass_takers()]

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
        if data.get("talon_tricks") is not None and "talon_tricks" in self._fields:
            self["talon_tricks"].data = str(data["talon_tricks"])
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


def _deal_form_class(
    name: str, *, play: bool = True, rows: bool = True, seats: int = SEATS
) -> type[DealBase]:
    attrs: dict[str, Any] = {}
    if play:
        attrs["talon_tricks"] = RadioField(_l("Quick tricks in the talon"), validate_choice=False)
    for i in range(seats if play else 0):
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
#: A played deal's form by the table's number of players (its answer and tricks rows).
_PLAY_FORMS = {n: _deal_form_class("PlayForm", rows=False, seats=n) for n in range(1, SEATS + 1)}
_CorrectionForm = _deal_form_class("CorrectionForm", play=False)


def sent_form(kind: str | None, version: int, players: int = SEATS) -> DealBase:
    """The form of a deal the page's script sends (a preview, a Save), read with only the
    fields its kind has, and a played deal's rows only for the table's players (entered reads
    no other; they have no validators): binding the forty fields of every kind took a fifth
    of the server's time per deal."""
    cls = _CorrectionForm if kind == "correction" else _PLAY_FORMS[players]
    return cls(version=version)


def blank_form(version: int) -> DealBase:
    """The form of a blank deal page: only the fields every deal form has (the page's own
    hidden fields; its deal fields are drawn once per seat shape and kept, drawn.fields)."""
    return DealBase(version=version)


# -- reading the form ------------------------------------------------------------------------


def entered(form: DealBase, players: tuple[str, ...]) -> tuple[dict[str, Any], dict[int, int]]:
    """The form's fields under the keys of game-file notation, for the rules to read: a
    player by name (None when none is chosen), every other value as it was sent; and the
    form row of each correction entry (1-based). A correction row left blank is no entry.
    Only the fields the form has are given (the script sends those of the deal's kind)."""

    def name(value: Any) -> str | None:
        return _named(value, players)

    raw: dict[str, Any] = {
        "type": form.kind.data or "contract",  # the kind the form offers first
        "declarer": name(form.declarer.data),
        "player": name(form.offender.data),
        "contract": form.contract.data,
        "reason": form.reason.data,
    }
    fields = form._fields
    if "answer_0" in fields:
        raw["answers"] = {p: form[f"answer_{i}"].data for i, p in enumerate(players)}
        raw["tricks"] = {p: form[f"tricks_{i}"].data for i, p in enumerate(players)}
    if "talon_tricks" in fields:
        raw["talon_tricks"] = form.talon_tricks.data
    entries: list[dict[str, Any]] = []
    rows: dict[int, int] = {}
    for j, row in enumerate(form.correction_rows() if "corr_player_0" in fields else ()):
        player, amount = name(row["player"].data), row["amount"].data or ""
        if player is None and not amount.strip():
            continue
        column = row["column"].data
        entry: dict[str, Any] = {"player": player}
        if column == "whists":
            entry |= {"whists_on": name(row["on"].data), "amount": amount}
        else:
            entry[column if column in ("pool", "hill") else "amount"] = amount
        entries.append(entry)
        rows[len(entries)] = j
    raw["entries"] = entries
    return raw, rows


def _named(value: Any, players: tuple[str, ...]) -> str | None:
    """The player a field's value (a seat's index, "0" to "4") names, or None."""
    return players[int(value)] if value in _SEAT_VALUES[: len(players)] else None


_SEAT_VALUES = tuple(str(i) for i in range(SEATS))


@dataclass
class Reading:
    """What the page shows of a deal entered: its problems by field, and the deal checked."""

    data: dict[str, Any] | None = None
    """The deal in game-file notation, when it reads."""
    fingerprint: str = ""
    """Its digest (Entered.fingerprint), so that "Save" writes exactly what was checked."""
    errors: dict[str, list[str]] = field(default_factory=dict)
    """Messages by form field (or by section: "answers", "tricks", "entries")."""
    top: list[str] = field(default_factory=list)
    """Messages about no field in particular."""

    def add(self, where: str, message: str) -> None:
        """Note a message next to a field (or at the top for "")."""
        if where:
            self.errors.setdefault(where, []).append(message)
        else:
            self.top.append(message)
