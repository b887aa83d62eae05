"""What the deal page draws the same way deal after deal, kept in the process.

A blank deal form depends only on the seat it is entered at — the game's players and
options, who deals, who plays, what the all-pass exit allows — and on the language: at a
table of three there are three such seats all evening. Drawing its hundreds of fields and
the rules for the page's script took most of the time of every deal page, so both are
drawn once per seat and kept. A form sent back with its input (a check without the script,
a refused save) and the form of a saved deal are drawn anew.
"""

from __future__ import annotations

from collections.abc import Hashable

from flask import render_template, request
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from scorekeeper.games import Loaded
from scorekeeper.kept import Kept
from scorekeeper.store import DealRecord

from ..i18n import get_locale
from .forms import DealBase, Reading, Seat

#: A seat's two drawings (its fields, about 20 KB; its rules, 9 KB) for a club's evening: a
#: hundred tables of up to five seats. Fewer than the seats in play would be no use at all:
#: fifty tables going round their seats would push out each drawing before its next deal.
_KEPT: Kept[tuple[Hashable, ...], Markup] = Kept(1024)


def _seat_key(loaded: Loaded, seat: Seat) -> tuple[Hashable, ...]:
    """Everything a blank form at this seat is drawn from (the game by its view token, and
    its options: a re-score may change them)."""
    game = loaded.game
    return (
        loaded.record.view_token,
        game.options,
        game.players,
        seat.dealer,
        tuple(seat.active),
        tuple(seat.kinds()),
        tuple(seat.levels()),
    )


def table_json(loaded: Loaded, seat: Seat) -> Markup:
    """The seat's rules for the page's script (Table.to_json), as HTML-safe JSON."""

    def rules() -> Markup:
        found = seat.to_json()
        del found["number"]
        return htmlsafe_json_dumps(found)

    kept = _KEPT.get_or_make(("table", *_seat_key(loaded, seat)), rules)
    # The deal's number is the one thing that differs from deal to deal at the same seat.
    return Markup(f'{{"number": {int(seat.number)}, {kept[1:]}')


def fields(
    loaded: Loaded, form: DealBase, seat: Seat, deal: DealRecord | None, reading: Reading | None
) -> Markup:
    """The form's fields (templates/_deal_fields.html), kept when the form is blank."""

    def draw() -> Markup:
        html = render_template("_deal_fields.html", form=form, seat=seat, reading=reading)
        return Markup(html)

    if request.method != "GET" or reading is not None or deal is not None:
        return draw()
    return _KEPT.get_or_make(("fields", get_locale(), *_seat_key(loaded, seat)), draw)
