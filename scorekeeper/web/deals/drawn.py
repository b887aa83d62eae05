"""What the deal page draws the same way deal after deal, kept in the process.

A blank deal form depends only on the seat it is entered at — the game's options, how many
play, which of them deals and which play, what the all-pass exit allows — on the language,
and on the players' names, which it only shows. Drawing its hundreds of fields and the rules
for the page's script took most of the time of every deal page, so both are drawn once per
seat with a mark in place of each name (private-use characters and the player's place at the
table), kept, and the names are written in for each page: every table playing the same
rules shares its seats' drawings (one per seat shape, language and all-pass exit), however
many tables a club night has (kept per game, a night of a thousand tables pushed out each
drawing before its next deal). A form sent back
with its input (a check without the script, a refused save) and the form of a saved deal are
drawn anew, with the names themselves.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Hashable
from itertools import product
from typing import Any

from flask import render_template, request
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape
from wtforms import SelectChoice

from scorekeeper.games import Loaded
from scorekeeper.kept import Kept
from scorekeeper.rules.contracts import Contract, Suit
from scorekeeper.rules.deals import Answer
from scorekeeper.rules.seat import TRICKS_IN_A_DEAL, Seat
from scorekeeper.store import DealRecord

from ..i18n import get_locale
from ..widgets import choices
from .forms import (
    ANSWER_LABELS,
    COLUMN_LABELS,
    CORRECTION_ROWS,
    HUSSAR_ANSWER_LABELS,
    KIND_LABELS,
    SEATS,
    DealBase,
    DealForm,
    Reading,
    contract_label,
)

#: A seat's two drawings (its fields, about 20 KB; its rules, 9 KB), shared by every game
#: with the same options and seat shape: a few per convention and language.
_KEPT: Kept[tuple[Hashable, ...], Markup] = Kept(1024)

_MARK = "\ue000{}\ue001"
"""A name's place in a kept drawing: the player's place at the table between two characters
of Unicode's private-use area (the drawing is the app's own words and marks only: the names
are written in afterwards, so a name that holds these characters changes nothing)."""
_MARKED = re.compile("\ue000(\\d)\ue001")
_MARKED_JSON = re.compile(r"\\ue000(\d)\\ue001")  # the same in JSON's ASCII escapes


def _anonymous(seat: Seat) -> Seat:
    """The seat with each name replaced by its mark, and nothing that changes from deal to deal
    but does not change the form (its number, round, all-pass count): the kept drawings' key."""
    mark = {p: _MARK.format(i) for i, p in enumerate(seat.players)}
    return dataclasses.replace(
        seat,
        number=0,
        players=tuple(mark[p] for p in seat.players),
        dealer=mark[seat.dealer],
        sitting_out=tuple(mark[p] for p in seat.sitting_out),
        active=tuple(mark[p] for p in seat.active),
        allpass_streak=0,
        next_allpass_multiplier=None,
        round=0,
        deal_in_round=0,
    )


def _kept_drawing(kind: str, loaded: Loaded, seat: Seat, draw: Callable[[Seat], Markup]) -> Markup:
    """A seat's drawing kept without the names (drawn at the anonymous seat): the same for
    every game of these options at this seat."""
    anonymous = _anonymous(seat)
    key = (kind, get_locale(), loaded.game.options, anonymous)
    return _KEPT.get_or_make(key, lambda: draw(anonymous))


def _named(drawing: str, players: tuple[str, ...]) -> Markup:
    """A kept HTML drawing with the table's names written in (escaped, as Jinja would)."""
    return Markup(_MARKED.sub(lambda m: str(escape(players[int(m[1])])), drawing))


def _named_json(drawing: str, players: tuple[str, ...]) -> Markup:
    """A kept HTML-safe JSON drawing with the table's names written in each string."""
    return Markup(
        _MARKED_JSON.sub(lambda m: str(htmlsafe_json_dumps(players[int(m[1])]))[1:-1], drawing)
    )


def table_json(loaded: Loaded, seat: Seat) -> Markup:
    """The seat's rules for the page's script (seat_script), as HTML-safe JSON."""

    def rules(anonymous: Seat) -> Markup:
        found = seat_script(anonymous)
        del found["number"]
        return htmlsafe_json_dumps(found)

    kept = _named_json(_kept_drawing("table", loaded, seat, rules), seat.players)
    # The deal's number is the one thing that differs from deal to deal at the same seat.
    return Markup(f'{{"number": {int(seat.number)}, {kept[1:]}')


def fields(
    loaded: Loaded, form: DealBase, seat: Seat, deal: DealRecord | None, reading: Reading | None
) -> Markup:
    """The form's fields (templates/_deal_fields.html), with the choices the table allows at
    this seat; kept when the form is blank. A blank form's page binds only the fields every
    deal form has (blank_form): its fields are drawn, when not kept, from a whole blank form."""
    offer(form, seat)

    def draw(drawn: DealBase, at: Seat) -> Markup:
        html = render_template("_deal_fields.html", form=drawn, seat=at, reading=reading)
        return Markup(html)

    def draw_blank(anonymous: Seat) -> Markup:
        whole = DealForm()
        offer(whole, anonymous)
        return draw(whole, anonymous)

    if request.method != "GET" or reading is not None or deal is not None:
        return draw(form, seat)
    return _named(_kept_drawing("fields", loaded, seat, draw_blank), seat.players)


def usual_whist(loaded: Loaded, seat: Seat) -> str:
    """The answer a new deal's defenders start at: "whist", or in Hussar the way the game's
    latest whist was given (alone, or with the talon): a table that whists with the talon
    taps it once, not on every deal."""
    if not seat.hussar:
        return Answer.WHIST.value
    whisting = {Answer.WHIST.value, Answer.WHIST_TALON.value}
    for deal in reversed(loaded.record.deals):
        given = [a for a in (deal.data.get("answers") or {}).values() if a in whisting]
        if deal.data.get("type") == "contract" and given:
            return str(given[0])
    return Answer.WHIST.value


def seat_script(seat: Seat) -> dict[str, Any]:
    """What the rules' seat allows, as the page's script reads it: the rules asked once for
    every declarer, contract and answer, so the script never re-derives a rule. Its shape:

        {
          "number": 7,                      # 1-based place of the deal in the log
          "players": ["Anna", "Boris", "Vera", "Gleb"],   # seating (clockwise) order
          "dealer": "Anna",
          "sits_out": ["Anna"],             # players not in this deal ([] at three)
          "active": ["Boris", "Vera", "Gleb"],
          "kinds": ["contract", "misere", "allpass", "correction"],
          "levels": [6, 7, 8, 9, 10],       # contract levels allowed (the all-pass exit)
          "min_level": 6 | null,            # the exit's floor when one applies, else null
          "declarers": {"Boris": ["Vera", "Gleb"]},   # declarer → defenders, answer order
          "answers": {"Boris": {"7S": {"first": ["whist", "pass"],  # by declarer, contract,
                                       "pass": ["whist", "pass", "half-whist"],  # then the
                                       "whist": ["whist", "pass"]}}},  # first one's answer
          "tricks": {...},                  # whose tricks are asked: _tricks_asked
          "tricks_total": 10,               # tricks of all the active players add up to this
          "dealer_whist": ["7S"],           # contracts the dealer sitting out may whist
          "talon_tricks": false             # a contract deal asks the talon's quick tricks
        }
    """
    declarers = {p: seat.defenders_of(p) for p in seat.active}
    answers = {declarer: _answers_by_contract(seat, declarer) for declarer in declarers}
    return {
        "number": seat.number,
        "players": list(seat.players),
        "dealer": seat.dealer,
        "sits_out": list(seat.sitting_out),
        "active": list(seat.active),
        "kinds": list(seat.kinds),
        "levels": seat.levels(),
        "min_level": seat.min_level,
        "declarers": declarers,
        "answers": answers,
        "tricks": _tricks_asked(seat, declarers),
        "tricks_total": TRICKS_IN_A_DEAL,
        "dealer_whist": [
            c.code() for c in seat.contracts() if seat.dealer_whists(c, Answer.PASS, HALF)
        ],
        "talon_tricks": seat.talon_tricks_asked,
    }


def _tricks_asked(seat: Seat, declarers: dict[str, list[str]]) -> dict[str, Any]:
    """Whose tricks the deal form asks, by kind, as the seat's script reads them:

    {"allpass": ["Boris", "Vera", "Gleb"],
     "misere": {"Boris": ["Boris"]},                 # by declarer
     "contract": {"Boris": {"whist,pass": ["Boris"],  # by declarer, then
                            "pass,pass": []}}}        # the answers comma-joined
    """
    return {
        "allpass": seat.tricks_asked("allpass"),
        "misere": {p: seat.tricks_asked("misere", p) for p in seat.active},
        "contract": {
            declarer: _contract_tricks(seat, declarer, len(defs))
            for declarer, defs in declarers.items()
        },
    }


HALF = Answer.HALF_WHIST
RETURNED = Answer.WHIST_RETURNED.value


def _answers_by_contract(seat: Seat, declarer: str) -> dict[str, dict[str, list[str]]]:
    """The answers a declarer's defenders may give on each contract: the first one's, then
    the second one's after each of those (with the returned whist where it is allowed)."""
    by_contract: dict[str, dict[str, list[str]]] = {}
    for contract in seat.contracts():
        first = seat.answers_of(declarer, contract, None)
        by_contract[contract.code()] = {"first": first} | {
            a: seat.answers_of(declarer, contract, a) for a in first
        }
        _add_returned(seat, contract, by_contract[contract.code()])
    return by_contract


def _contract_tricks(seat: Seat, declarer: str, defenders: int) -> dict[str, list[str]]:
    """Whose tricks a contract of this declarer asks, by the answers given (comma-joined)."""
    combos: dict[str, list[str]] = {}
    for combo in product(seat.all_answers(), repeat=defenders):
        combos[",".join(combo)] = seat.tricks_asked("contract", declarer, combo)
    combos.update(_returned_tricks(seat, declarer))
    return combos


def _returned(seat: Seat) -> list[str]:
    """The returned whist among a game's answers, when some contract allows it (§4.8)."""
    can = any(seat.returns_whist(c, Answer.PASS, HALF) for c in seat.contracts())
    return [RETURNED] if can and not seat.hussar else []


def _add_returned(seat: Seat, contract: Contract, by_first: dict[str, list[str]]) -> None:
    """Offer the first defender the returned whist where it is allowed: a tap in place of his
    pass, after which the second's answer can only be the half-whist he returns."""
    if seat.returns_whist(contract, Answer.PASS, HALF):
        by_first["first"] = [*by_first["first"], RETURNED]
        by_first[RETURNED] = [HALF.value]


def _returned_tricks(seat: Seat, declarer: str) -> dict[str, list[str]]:
    """Whose tricks a returned whist and the dealer's whist ask (the declarer's): keyed as
    the script joins the answers, the dealer's last."""
    if not _returned(seat) or len(seat.defenders_of(declarer)) != 2:
        return {}
    out = {
        f"{RETURNED},{HALF.value}": seat.tricks_asked("contract", declarer, (RETURNED, HALF.value))
    }
    if seat.dealer_may_whist:
        key = f"{Answer.PASS.value},{HALF.value},{Answer.WHIST.value}"
        out[key] = seat.tricks_asked(
            "contract", declarer, (Answer.PASS.value, HALF.value), Answer.WHIST.value
        )
    return out


# -- the choices a seat offers ------------------------------------------------------------------


def offer(form: DealBase, seat: Seat) -> None:
    """Give the form's fields the choices the table allows at this seat (only drawing needs
    them: the rules read the values and say what is not allowed); a kind not chosen yet is a
    contract."""
    present = form._fields
    for name, field_choices in _choices_at(seat).items():
        if name in present:
            present[name].choices = field_choices
    if not form.kind.data:
        form.kind.data = "contract"


_CHOICES: Kept[tuple[Hashable, ...], dict[str, list[SelectChoice]]] = Kept(1024)  # as _KEPT


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
        seat.dealer_may_whist,
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
    answers = choices((a, str(labels[a])) for a in seat.all_answers() + _returned(seat))
    tricks = choices((str(n), str(n)) for n in range(11))
    out["talon_tricks"] = choices((str(n), str(n)) for n in range(4))
    for i in range(SEATS):
        out[f"answer_{i}"], out[f"tricks_{i}"] = answers, tricks
    seats = choices([("", "—")] + [(str(i), p) for i, p in enumerate(players)])
    columns = choices((k, str(label)) for k, label in COLUMN_LABELS.items())
    for j in range(CORRECTION_ROWS):
        out[f"corr_player_{j}"], out[f"corr_on_{j}"] = seats, seats
        out[f"corr_column_{j}"] = columns
    return out
