"""Entering a deal (check, then save), changing, deleting, undoing and restoring deals.

One Save flow: the form posts to its own address, the service (games.writes) checks and
writes, and the answer is the same decision in two dresses. Without the script: a redirect
to the sheet (post → redirect → get), or the form again with its problems (422) or with why
it was refused (409). With the script (X-Save: json): a small JSON of the same — saved, the
deal's number and the page to go to, or the problems by field — and the phone loads the page
it names.

Back never doubles a deal: the sheet's "Next deal" opens the form under an address that
carries its one-time key (?k=); opened again after its Save (Back), that address leads to the
deal it saved, to be changed, not to a blank form that would become the next deal.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import _
from werkzeug.wrappers import Response

from scorekeeper import gamefile
from scorekeeper.games import Check, Loaded, check_deal, check_delete, current, writes
from scorekeeper.games.writes import live_deal
from scorekeeper.rules import Seat
from scorekeeper.rules.problems import N_
from scorekeeper.store import DealRecord

from .. import errors
from ..context import edit_game, remember_loaded
from ..errors import conflict_message
from ..i18n import words
from ..storage import get_store
from ..widgets import WriteForm
from . import drawn
from .forms import DealForm, Reading, place, read, seat_for, sent_form

bp = Blueprint("deals", __name__.rsplit(".", 1)[0])

#: What a view returns: a page, a redirect or JSON, with its status when it is not 200.
Page = str | Response | tuple[str | Response, int]
_KEY = re.compile(r"[0-9a-f]{32}")


@bp.route("/g/<tok:token>/deal/new", methods=["GET", "POST"])
def new(token: str) -> Page:
    loaded = edit_game(token)
    key = request.args.get("k", "") if request.method == "GET" else ""
    if key and _KEY.fullmatch(key):
        used, deal = writes.used_form(get_store(), loaded, key)
        if used:
            return _used(loaded, deal)
    else:
        key = ""
    full = _full(loaded)
    if full is not None:
        if (resent := _resent(loaded)) is not None:
            return resent
        if request.method == "POST":
            return _game_over(loaded, full)
        flash(full)
        return _to_game(token)
    return _deal_page(loaded, None, key)


def _full(loaded: Loaded) -> str | None:
    """Why no deal can be added to the game now (it is over, or holds all it can), or None."""
    if not loaded.can_add_deal:
        return str(_("The game is finished: reopen it to add a deal."))
    if len(loaded.record.deals) >= gamefile.MAX_DEALS:
        return str(
            _(
                "This game has %(limit)s deals, the most one game holds: start a new game "
                "to play on.",
                limit=gamefile.MAX_DEALS,
            )
        )
    return None


def _game_over(loaded: Loaded, message: str) -> Page:
    """A new deal sent to a game that takes none now (ended on another phone meanwhile):
    nothing written, and no resend will change that. The script gets the final refusal; the
    page without it shows the form as it was sent, with why (409)."""
    if errors.wants_json():
        return errors.final("game_over", message)
    seat = seat_for(loaded.sheet, None)
    form = DealForm(version=loaded.record.version)
    form.setup(seat)
    reading = Reading(None, top=[message])
    html, _status = _page(loaded, form, seat, None, reading, None, refused=True)
    return html, 409


def _resent(loaded: Loaded) -> Response | None:
    """A Save to a game that takes no more deals (its tour closed, or finished) whose
    one-time key already wrote (sent again by the phone's queue) gets the answer its first
    sending got (to the sheet; nothing written), never a refusal; None for any other
    request. (While the game is open the ordinary Save path answers a resent key.)"""
    saving = request.form.get("action") == "save" or errors.wants_json()
    key = request.form.get("request_key", "") if request.method == "POST" and saving else ""
    if not _KEY.fullmatch(key):
        return None
    used, deal = writes.used_form(get_store(), loaded, key)
    if not used:
        return None
    target = url_for("games.show", mode="g", token=loaded.record.edit_token)
    if errors.wants_json():
        return jsonify(saved=True, deal=None if deal is None else deal.position + 1, next=target)
    return redirect(target)


def _used(loaded: Loaded, deal: DealRecord | None) -> Response:
    """The address of a new-deal form whose Save went through, opened again (Back): the deal
    it saved, to change; or the sheet if that deal is no longer on it."""
    token = loaded.record.edit_token
    if deal is None:
        return _to_game(token)
    number = loaded.sheet.number_of(deal.position)
    flash(_(_USED[writes.kind_of(deal.data)], number=number))
    return redirect(url_for("deals.edit", token=token, deal_id=deal.id))


#: What the form's address opened again after its Save says, by what it saved.
_USED = {
    "deal": N_("Deal %(number)s is saved: change it here, or go back to the sheet."),
    "correction": N_("Correction %(number)s is saved: change it here, or go back to the sheet."),
    "penalty": N_("Penalty %(number)s is saved: change it here, or go back to the sheet."),
}


@bp.route("/g/<tok:token>/deal/<int:deal_id>/edit", methods=["GET", "POST"])
def edit(token: str, deal_id: int) -> Page:
    loaded = edit_game(token)
    return _deal_page(loaded, live_deal(loaded, deal_id))


@bp.route("/g/<tok:token>/deal/check", methods=["POST"])
@bp.route("/g/<tok:token>/deal/<int:deal_id>/check", methods=["POST"])
def check(token: str, deal_id: int | None = None) -> Response:
    """The live preview for the script: what the form's deal would write, or its errors."""
    loaded = edit_game(token)
    position = None if deal_id is None else live_deal(loaded, deal_id).position
    seat = seat_for(loaded.sheet, position)
    form = sent_form(request.form.get("kind"), loaded.record.version)
    form.setup(seat)
    reading, result = _evaluate(form, seat, loaded, position)
    return jsonify(_preview(reading, result))


def _preview(reading: Reading, result: Check | None) -> dict[str, Any]:
    """The live preview as the script draws it: the entries, or what is missing."""
    return {
        "ok": result is not None and result.ok,
        "errors": reading.errors,
        "top": reading.top,
        "later": [words().problem(p) for p in (result.later if result else [])],
        "entries": _entries(result),
        "checked": reading.fingerprint if result is not None and result.ok else "",
    }


def _deal_page(loaded: Loaded, deal: DealRecord | None, key: str = "") -> Page:
    """The deal form (GET), its check without the script, or its Save."""
    position = None if deal is None else deal.position
    seat = seat_for(loaded.sheet, position)
    version = loaded.record.version
    script = request.method == "POST" and errors.wants_json()
    form = sent_form(request.form.get("kind"), version) if script else DealForm(version=version)
    form.setup(seat)
    if request.method == "GET":
        if key:
            form.request_key.data = key
        if deal is not None:
            form.fill(deal.data, seat.players)
        return _page(loaded, form, seat, deal, None, None)
    if not script and request.form.get("action") != "save":
        reading, result = _evaluate(form, seat, loaded, position)
        return _page(loaded, form, seat, deal, reading, result)
    return _save(loaded, deal, form, seat, script)


def _save(loaded: Loaded, deal: DealRecord | None, form: Any, seat: Seat, script: bool) -> Page:
    """The one Save: read the form, let the service check and write, answer."""
    position = None if deal is None else deal.position
    valid = bool(form.validate())
    stale = valid and form.base_version.data != loaded.record.version
    reading = read(form, seat) if valid else Reading(None)
    data = reading.deal
    if data is None:
        return _problems(loaded, form, seat, deal, reading, None, script)
    if not script and not stale and form.checked.data != reading.fingerprint:
        # Without the script Save writes what the Check showed: input changed since is
        # checked and shown again first.
        return _page(loaded, form, seat, deal, reading, _checked(reading, loaded, position))
    base, key = form.base_version.data, form.request_key.data
    try:
        if deal is None:
            done = writes.add_deal(get_store(), loaded, data, base_version=base, request_key=key)
        else:
            done = writes.change_deal(
                get_store(), loaded, deal.id, data, base_version=base, request_key=key
            )
    except writes.Invalid as invalid:
        place(reading, invalid.check.problems, seat.players)
        return _problems(loaded, form, seat, deal, reading, invalid.check, script)
    except writes.AlreadySaved as saved:
        return _refused(loaded, deal, form, _saved_message(saved), script, saved)
    except writes.Conflict:
        return _refused(loaded, deal, form, conflict_message(), script)
    remember_loaded(done.state)
    _flash_written(done, deal is not None)
    target = url_for("games.show", mode="g", token=loaded.record.edit_token)
    if script:
        return jsonify(saved=True, deal=done.number, next=target)
    return redirect(target)


def _problems(
    loaded: Loaded,
    form: Any,
    seat: Seat,
    deal: DealRecord | None,
    reading: Reading,
    result: Check | None,
    script: bool,
) -> Page:
    """The deal does not check: nothing written; its problems by field (422)."""
    if script:
        return jsonify(saved=False, **_preview(reading, result)), 422
    return _page(loaded, form, seat, deal, reading, result)


def _refused(
    loaded: Loaded,
    deal: DealRecord | None,
    form: Any,
    message: str,
    script: bool,
    saved: writes.AlreadySaved | None = None,
) -> Page:
    """Nothing was written (another phone first, or the form already saved): the input is
    kept, checked against the game as it is now, with a fresh key and version (409)."""
    loaded = current(get_store(), loaded.record.edit_token)
    remember_loaded(loaded)
    if deal is not None:
        deal = live_deal(loaded, deal.id)
    elif (full := _full(loaded)) is not None:
        return _game_over(loaded, full)
    position = None if deal is None else deal.position
    seat = seat_for(loaded.sheet, position)
    form.fresh(loaded.record.version)
    form.setup(seat)
    reading, result = _evaluate(form, seat, loaded, position)
    token = loaded.record.edit_token
    saved_as = saved.deal_id if saved is not None and saved.new else None
    if script:
        edit_url = url_for("deals.edit", token=token, deal_id=saved_as) if saved_as else None
        body = _preview(reading, result) | {
            "request_key": form.request_key.data,
            "base_version": loaded.record.version,
        }
        if saved is None and deal is None:
            body |= _meanwhile(loaded)
        return jsonify(saved=False, refused=message, edit_url=edit_url, **body), 409
    if saved is None:
        return _page(loaded, form, seat, deal, reading, result, conflict=True)
    reading.top.append(message)
    return _page(loaded, form, seat, deal, reading, result, refused=True, saved_as=saved_as)


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


def _page(
    loaded: Loaded,
    form: Any,
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
        result=result,
        entries=_entries(result),
        conflict=conflict,
        saved_as=saved_as,
    )
    return html, status


def _evaluate(
    form: Any, seat: Seat, loaded: Loaded, position: int | None
) -> tuple[Reading, Check | None]:
    """Read the form and check the deal against the game; nothing is written."""
    if not form.validate():
        return Reading(None), None
    reading = read(form, seat)
    return reading, _checked(reading, loaded, position)


def _checked(reading: Reading, loaded: Loaded, position: int | None) -> Check | None:
    """Check the deal read against the game, its problems put next to their fields; None
    when the form did not read as a deal. Nothing is written."""
    if reading.deal is None:
        return None
    result = check_deal(loaded, reading.deal, position)
    place(reading, result.problems, loaded.game.players)
    return result


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
        flash(words().said(done.kind, "unchanged", done.number or 0))
    elif done.changed:
        flash(_(_WRITTEN[done.kind, change], number=done.number), f"saved:{done.deal_id}")


def _entries(result: Check | None) -> list[str]:
    if result is None or result.result is None:
        return []
    return [words().entry(e) for e in result.result.entries]


# -- delete, undo, restore -------------------------------------------------------------------


@bp.route("/g/<tok:token>/deal/<int:deal_id>/delete", methods=["GET", "POST"])
def delete(token: str, deal_id: int) -> str | Response | tuple[str, int]:
    loaded = edit_game(token)
    form = WriteForm(version=loaded.record.version)
    if form.validate_on_submit():
        try:
            done = writes.delete_deal(
                get_store(),
                loaded,
                deal_id,
                base_version=form.base_version.data,
                request_key=form.request_key.data,
            )
        except writes.Invalid:
            pass  # later deals would break: the page says which
        else:
            if done.number is not None:
                flash(words().said(done.kind, "deleted", done.number))
            return redirect(url_for("games.log", mode="g", token=token))
    deal = live_deal(loaded, deal_id)
    return _confirm(loaded, deal, check_delete(loaded, deal.position), form, "delete")


@bp.route("/g/<tok:token>/undo", methods=["GET", "POST"])
def undo(token: str) -> str | Response | tuple[str, int]:
    loaded = edit_game(token)
    form = WriteForm(version=loaded.record.version)
    if form.validate_on_submit():
        try:
            done = writes.undo_last(
                get_store(),
                loaded,
                base_version=form.base_version.data,
                request_key=form.request_key.data,
            )
        except writes.NothingToUndo:
            flash(_("There is no deal to undo."))
            return _to_game(token)
        if done.number is not None:
            flash(words().said(done.kind, "undone", done.number))
        return _to_game(token)
    if not loaded.record.deals:
        flash(_("There is no deal to undo."))
        return _to_game(token)
    deal = loaded.record.deals[-1]
    return _confirm(loaded, deal, check_delete(loaded, deal.position), form, "undo")


@bp.route("/g/<tok:token>/restore/<int:revision_id>", methods=["POST"])
def restore(token: str, revision_id: int) -> Response:
    loaded = edit_game(token)
    form = WriteForm()
    history = url_for("games.history", mode="g", token=token)
    if not form.validate_on_submit():
        return redirect(history)
    try:
        done = writes.restore_revision(
            get_store(),
            loaded,
            revision_id,
            base_version=form.base_version.data,
            request_key=form.request_key.data,
        )
    except writes.Invalid as invalid:
        flash(_("This version cannot be put back:"))
        for problem in invalid.check.problems + invalid.check.later:
            flash(words().problem(problem))
        return redirect(history)
    if done.deal_id is None:
        return redirect(history)  # the same tap sent again
    flash(_("The deal was put back."))
    return redirect(url_for("games.log", mode="g", token=token, _anchor=f"d{done.deal_id}"))


def _confirm(loaded: Loaded, deal: DealRecord, result: Check, form: WriteForm, what: str) -> str:
    now = loaded.sheet.results[deal.position]
    return render_template(
        "confirm.html",
        loaded=loaded,
        deal=deal,
        current=now,
        entries=[words().entry(e) for e in now.entries],
        problems=[words().problem(p) for p in result.later],
        form=form,
        what=what,
    )


def _to_game(token: str) -> Response:
    return redirect(url_for("games.show", mode="g", token=token))
