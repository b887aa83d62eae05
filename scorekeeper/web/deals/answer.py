"""The deal form's answers: the page (with the input, its problems next to their fields, and
what the deal would write) or the script's small JSON of the same.

The routes read the request and call the game service once; what it returns (a `Written`,
or a refusal with the deal as read and checked) is answered here, and nothing here reads the
form again or calls the service for the same request's deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import jsonify, redirect, render_template, url_for
from flask_babel import _
from werkzeug.wrappers import Response

from scorekeeper import gamefile
from scorekeeper.games import Check, Loaded, writes
from scorekeeper.games.writes import Entered, check_entered
from scorekeeper.rules import Problem, Seat
from scorekeeper.rules.problems import N_
from scorekeeper.store import DealRecord

from .. import errors
from ..context import remember_loaded
from ..flashes import Said, flash_said, said, said_entry
from ..flashes import shown as said_now
from ..i18n import words
from ..problems import put_back
from . import drawn
from .forms import CORRECTION_ROWS, SEATS, DealBase, DealForm, Reading, entered, seat_for

#: What a view returns: a page, a redirect or JSON, with its status when it is not 200.
Page = str | Response | tuple[str | Response, int]


def reading_of(
    found: Entered | None, problems: list[Problem], rows: dict[int, int], players: tuple[str, ...]
) -> Reading:
    """The deal as read (if it reads) with the problems put next to the fields they name
    (web/problems.put_back): the rules name an input ("tricks.Anna", "entries.2"), the form
    its field ("tricks_0", the correction's row)."""
    reading = Reading()
    if found is not None and found.deal is not None:
        reading.data, reading.fingerprint = found.data, found.fingerprint
    placed = put_back(problems, lambda name: _field_of(name, rows, players), _PLACES)
    for where, messages in placed.items():
        for message in messages:
            reading.add(where, message)
    return reading


#: Where the page shows a message: a field, or a section of fields.
_PLACES = frozenset(
    ["kind", "declarer", "offender", "contract", "reason", "answers", "tricks", "entries"]
    + ["talon_tricks"]
    + [f"{name}_{i}" for name in ("answer", "tricks") for i in range(SEATS)]
    + [f"corr_{j}" for j in range(CORRECTION_ROWS)]
)


def _field_of(name: str, rows: dict[int, int], players: tuple[str, ...]) -> str:
    head, _, rest = name.partition(".")
    if head in ("type", "declarer", "reason", "player"):
        return {"type": "kind", "player": "offender"}.get(head, head)
    if head in ("contract", "talon_tricks"):
        return head
    if head in ("answers", "tricks"):
        if rest in players:
            return f"{'answer' if head == 'answers' else 'tricks'}_{players.index(rest)}"
        return head
    if head == "entries":
        by_number = {str(n): row for n, row in rows.items()}
        return f"corr_{by_number[rest]}" if rest in by_number else "entries"
    return ""


def _checked(found: Entered, rows: dict[int, int], players: tuple[str, ...]) -> Reading:
    """The reading of a deal read and (if it reads) checked: every problem by field."""
    problems = found.problems + (found.check.problems if found.check else [])
    return reading_of(found, problems, rows, players)


# -- the check (nothing is written) ----------------------------------------------------------


def evaluate(
    loaded: Loaded, form: DealBase, seat: Seat, position: int | None
) -> tuple[Reading, Check | None]:
    """Read the form and check its deal against the game: nothing is written."""
    if not form.validate():
        return Reading(), None
    raw, rows = entered(form, seat.players)
    found = check_entered(loaded, raw, position)
    return _checked(found, rows, seat.players), found.check


def preview(reading: Reading, result: Check | None) -> dict[str, Any]:
    """The live preview as the script draws it: the entries, or what is missing."""
    ok = result is not None and result.ok
    return {
        "ok": ok,
        "errors": reading.errors,
        "top": reading.top,
        "later": [words().problem(p) for p in (result.later if result else [])],
        "entries": _entries(result),
        "checked": reading.fingerprint if ok else "",
    }


# -- the Save's answer -----------------------------------------------------------------------


def saved(
    loaded: Loaded,
    deal: DealRecord | None,
    form: DealBase,
    seat: Seat,
    rows: dict[int, int],
    outcome: writes.Written | writes.GameRefused | None,
    script: bool,
) -> Page:
    """The answer to a Save: what the service did (`outcome`; None when the form itself did
    not read), as the page or as the script's JSON."""
    if isinstance(outcome, writes.Written):
        return _written(loaded, deal is not None, outcome, script)
    shown = _not_written(loaded, deal, seat, rows, outcome)
    if shown.over is not None:
        return game_over(shown.now, shown.over)
    if shown.refused is not None:
        # The input is kept, with a fresh key and version (a Save again is a new tap).
        form.fresh(shown.now.record.version)
    if script:
        body = preview(shown.reading, shown.result)
        if shown.refused is None:
            return jsonify(saved=False, **body), 422
        body |= {"request_key": form.request_key.data, "base_version": shown.now.record.version}
        token, saved_as = shown.now.record.edit_token, shown.saved_as
        edit_url = url_for("deals.edit", token=token, deal_id=saved_as) if saved_as else None
        body |= shown.meanwhile
        return jsonify(saved=False, refused=shown.refused, edit_url=edit_url, **body), 409
    return page(
        shown.now,
        form,
        shown.seat,
        shown.deal,
        shown.reading,
        shown.result,
        conflict=shown.conflict,
        refused=shown.refused is not None and not shown.conflict,
        saved_as=shown.saved_as,
    )


def _written(loaded: Loaded, change: bool, done: writes.Written, script: bool) -> Response:
    """Saved: "Deal N saved" on the sheet, and to the sheet (for the script: where to)."""
    _flash_written(done, change)
    remember_loaded(done.state)
    target = url_for("games.show", mode="g", token=loaded.record.edit_token)
    return jsonify(saved=True, deal=done.number, next=target) if script else redirect(target)


@dataclass
class _Shown:
    """What the form shows after a Save that wrote nothing."""

    now: Loaded
    """The game as it is (after a refusal, as the service found it)."""
    deal: DealRecord | None
    seat: Seat
    reading: Reading
    result: Check | None = None
    refused: str | None = None
    """Why nothing was written, when a write was refused (another phone first, or the form
    already saved): the form is shown again at the game as it is now."""
    conflict: bool = False
    saved_as: int | None = None
    meanwhile: dict[str, Any] = field(default_factory=dict)
    over: str | None = None
    """Why the game takes no new deal now (it ended meanwhile), if so."""


def _not_written(
    loaded: Loaded,
    deal: DealRecord | None,
    seat: Seat,
    rows: dict[int, int],
    outcome: writes.GameRefused | None,
) -> _Shown:
    """What the form shows after a Save that wrote nothing: its problems by field (422), the
    check it had to show first, or why the write was refused (409)."""
    players = seat.players
    if isinstance(outcome, writes.Unconfirmed):
        # Without the script Save writes what the Check showed: input changed since is
        # checked and shown again first.
        reading = _checked(outcome.entered, rows, players)
        return _Shown(loaded, deal, seat, reading, outcome.entered.check)
    if isinstance(outcome, writes.Invalid):
        reading = reading_of(None, outcome.check.problems, rows, players)
        return _Shown(loaded, deal, seat, reading, outcome.check)
    if not isinstance(outcome, writes.Conflict | writes.AlreadySaved):
        return _Shown(loaded, deal, seat, Reading())
    # Nothing was written (another phone first, or the form already saved): the input is
    # kept, as read and checked against the game as it is now (the service did so).
    now, found = remember_loaded(outcome.now or loaded), outcome.entered
    if deal is not None:
        deal = writes.live_deal(now, deal.id)
    elif (why := full(now)) is not None:
        return _Shown(now, deal, seat, Reading(), over=said_now(why))
    seat = seat_for(now.sheet, None if deal is None else deal.position)
    reading, result = Reading(), None
    if found is not None:
        reading, result = _checked(found, rows, seat.players), found.check
    if isinstance(outcome, writes.Conflict):
        meanwhile = _meanwhile(now) if deal is None else {}
        message = errors.conflict_message()
        return _Shown(now, deal, seat, reading, result, message, True, meanwhile=meanwhile)
    message = _saved_message(outcome)
    reading.top.append(message)
    saved_as = outcome.deal_id if outcome.new else None
    return _Shown(now, deal, seat, reading, result, message, saved_as=saved_as)


def full(loaded: Loaded) -> Said | None:
    """Why no deal can be added to the game now (it is over, or holds all it can), or None;
    to say in the language of the page showing it."""
    if not loaded.can_add_deal:
        return said(N_("The game is finished: reopen it to add a deal."))
    if len(loaded.record.deals) >= gamefile.MAX_DEALS:
        return said(
            N_(
                "This game has %(limit)s deals, the most one game holds: start a new game "
                "to play on."
            ),
            limit=gamefile.MAX_DEALS,
        )
    return None


def game_over(loaded: Loaded, message: str) -> Page:
    """A new deal sent to a game that takes none now (ended on another phone meanwhile):
    nothing written, and no resend will change that. The script gets the final refusal; the
    page without it shows the form as it was sent, with why (409)."""
    if errors.wants_json():
        return errors.final("game_over", message)
    seat = seat_for(loaded.sheet, None)
    form = DealForm(version=loaded.record.version)
    html, _status = page(loaded, form, seat, None, Reading(top=[message]), None, refused=True)
    return html, 409


#: An entry named by its kind and its number among its kind (Sheet.number_of).
_NAMED = {
    "deal": N_("Deal %(number)s"),
    "correction": N_("Correction %(number)s"),
    "penalty": N_("Penalty %(number)s"),
}


def _meanwhile(loaded: Loaded) -> dict[str, Any]:
    """A new deal's form refused because another phone wrote first: what that phone saved
    last (shown beside this form's deal, which may be the same one) and the form's headings
    as they are now (the number moved on)."""
    sheet = loaded.sheet
    at = len(sheet.results)
    headings = {k: _(_NAMED[k], number=sheet.number_of(at, k)) for k in _NAMED}
    seat = seat_for(sheet, None)
    note = [_("%(name)s deals", name=seat.dealer)]
    note += [_("%(name)s sits out", name=n) for n in seat.sitting_out if n != seat.dealer]
    if seat.min_level and seat.min_level > 6:
        note.append(_("at least %(level)s after the all-pass", level=seat.min_level))
    headings["note"] = " · ".join(note)
    if not sheet.results:
        return {"headings": headings}
    last = sheet.results[-1]
    kind = writes.kind_of({"type": last.deal.kind})
    latest = {
        "name": _(_NAMED[kind], number=sheet.number_of(at - 1)),
        "title": words().deal_title(last),
        "details": words().deal_details(last, sheet.players),
        "entries": [words().entry(e) for e in last.entries],
    }
    return {"headings": headings, "latest": latest}


def _saved_message(saved: writes.AlreadySaved) -> str:
    if saved.new:
        return str(
            _(
                "This form was already saved as deal %(number)s, so the change was not "
                "saved. Press Save again to add it as a new deal, or edit deal "
                "%(number)s from the sheet.",
                number=saved.number,
            )
        )
    return str(
        _(
            "This form was already saved once, so the change was not saved. "
            "Press Save again to save it."
        )
    )


# -- the page ---------------------------------------------------------------------------------


def page(
    loaded: Loaded,
    form: DealBase,
    seat: Seat,
    deal: DealRecord | None,
    reading: Reading | None,
    result: Check | None,
    *,
    conflict: bool = False,
    refused: bool = False,
    saved_as: int | None = None,
) -> tuple[str, int]:
    """The deal form as it stands: 409 after a refused write, 422 with problems, else 200."""
    if reading is not None:
        ok = result is not None and result.ok
        form.checked.data = reading.fingerprint if ok else ""
    status = (
        409
        if conflict or refused
        else 422
        if reading is not None and not form.checked.data
        else 200
    )
    html = render_template(
        "deal.html",
        loaded=loaded,
        form=form,
        seat=seat,
        deal=deal,
        reading=reading,
        fields=drawn.fields(loaded, form, seat, deal, reading),
        table_json=drawn.table_json(loaded, seat),
        whist=drawn.usual_whist(loaded, seat),
        result=result,
        entries=_entries(result),
        conflict=conflict,
        saved_as=saved_as,
    )
    return html, status


#: What the sheet says after a Save, by what was written and whether it was new or changed.
_WRITTEN = {
    ("correction", False): N_("Correction %(number)s saved."),
    ("penalty", False): N_("Penalty %(number)s saved."),
    ("deal", False): N_("Deal %(number)s saved."),
    ("correction", True): N_("Correction %(number)s changed."),
    ("penalty", True): N_("Penalty %(number)s changed."),
    ("deal", True): N_("Deal %(number)s changed."),
}


def _flash_written(done: writes.Written, change: bool) -> None:
    """ "Deal N saved" (or changed) on the sheet, with Change and Undo beside it."""
    if change and not done.changed:
        flash_said(said_entry(done.kind, "unchanged", done.number or 0))
    elif done.changed:
        flash_said(_WRITTEN[done.kind, change], f"saved:{done.deal_id}", number=done.number)


def _entries(result: Check | None) -> list[str]:
    if result is None or result.result is None:
        return []
    return [words().entry(e) for e in result.result.entries]
