"""Entering a deal (check, then save), editing, deleting, undoing and restoring deals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import _
from werkzeug.wrappers import Response

from scorekeeper import gamefile
from scorekeeper.games import (
    Check,
    Loaded,
    check_deal,
    check_delete,
    check_restore,
    load,
    remember,
)
from scorekeeper.rules.problems import N_
from scorekeeper.store import DealNotFound, DealRecord, RevisionNotFound, VersionConflict

from ..context import conflict_message, edit_game, write_or_back
from ..i18n import words
from ..storage import get_store
from ..widgets import WriteForm, new_key
from . import bp, drawn
from .forms import DealForm, Reading, Seat, place, read, seat_for, sent_form


@bp.route("/g/<tok:token>/deal/new", methods=["GET", "POST"])
def new(token: str) -> str | Response | tuple[str | Response, int]:
    loaded = edit_game(token)
    if not loaded.can_add_deal:
        flash(_("The game is finished: reopen it to add a deal."))
        return _to_game(token)
    if len(loaded.record.deals) >= gamefile.MAX_DEALS:
        flash(
            _(
                "This game has %(limit)s deals, the most one game holds: start a new game "
                "to play on.",
                limit=gamefile.MAX_DEALS,
            )
        )
        return _to_game(token)
    return _deal_page(loaded, None)


@bp.route("/g/<tok:token>/deal/<int:deal_id>/edit", methods=["GET", "POST"])
def edit(token: str, deal_id: int) -> str | Response | tuple[str | Response, int]:
    loaded = edit_game(token)
    return _deal_page(loaded, _live(loaded, deal_id))


@bp.route("/g/<tok:token>/deal/check", methods=["POST"])
@bp.route("/g/<tok:token>/deal/<int:deal_id>/check", methods=["POST"])
def check(token: str, deal_id: int | None = None) -> Response:
    """The live preview for the script: what the form's deal would write, or its errors."""
    loaded = edit_game(token)
    position = None if deal_id is None else _live(loaded, deal_id).position
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


def _wants_json() -> bool:
    """A Save sent by the script (one round trip), which reads the answer as JSON."""
    return request.headers.get("X-Save") == "json"


def _deal_page(
    loaded: Loaded, deal: DealRecord | None
) -> str | Response | tuple[str | Response, int]:
    position = None if deal is None else deal.position
    seat = seat_for(loaded.sheet, position)
    if request.method == "POST" and _wants_json():
        sent = sent_form(request.form.get("kind"), loaded.record.version)
        sent.setup(seat)
        return _save_json(loaded, deal, sent, seat, position)
    form = DealForm(version=loaded.record.version)
    form.setup(seat)
    if request.method == "GET" and deal is not None:
        form.fill(deal.data, seat.players)
    if not form.is_submitted():
        return _page(loaded, form, seat, deal, None, None)
    saving = request.form.get("action") == "save"
    stale = saving and _stale(form, loaded)
    if stale:
        # Checked against a sheet that has changed since: the store either knows the
        # request key (a Save sent again: it writes nothing) or refuses the old version.
        # Checking first would refuse a resent deal that the sheet now contradicts.
        reading, result = Reading(read(form, seat).data), None
    else:
        reading, result = _evaluate(form, seat, loaded, position)
    checked = result is not None and result.ok and form.checked.data == reading.fingerprint
    if stale and reading.data is None:
        # An old form that no longer reads as a deal: shown as the conflict it is.
        return _conflicted(loaded, deal, form, loaded.record.version)
    if not saving or not (stale or checked):
        return _page(loaded, form, seat, deal, reading, result)
    try:
        return _save(loaded, deal, reading, form, result)
    except AlreadySaved as saved:
        return _refused(loaded, deal, form, saved)
    except VersionConflict as error:
        return _conflicted(loaded, deal, form, error.current_version)


def _refused(
    loaded: Loaded, deal: DealRecord | None, form: Any, saved: AlreadySaved
) -> tuple[str, int]:
    """The form's key already wrote another deal: the input stays, with a fresh key."""
    loaded = _reloaded(loaded.record.edit_token)
    form.fresh(loaded.record.version)
    position = None if deal is None else deal.position
    seat = seat_for(loaded.sheet, position)
    form.setup(seat)
    reading, result = _evaluate(form, seat, loaded, position)
    reading.top.append(saved.message)
    saved_as = saved.deal_id if deal is None else None
    return _page(loaded, form, seat, deal, reading, result, refused=True, saved_as=saved_as)


def _conflicted(
    loaded: Loaded, deal: DealRecord | None, form: Any, version: int
) -> tuple[str, int]:
    """Another phone changed the game first: the input checked again against the game now."""
    loaded = _reloaded(loaded.record.edit_token)
    if deal is not None:
        deal = _live(loaded, deal.id)
    position = None if deal is None else deal.position
    seat = seat_for(loaded.sheet, position)
    form.setup(seat)
    form.fresh(version)
    reading, result = _evaluate(form, seat, loaded, position)
    return _page(loaded, form, seat, deal, reading, result, conflict=True)


def _reloaded(token: str) -> Loaded:
    """The game as stored now (after a write was refused), for the rest of the request."""
    loaded = load(get_store().get_game(token))
    g.loaded = loaded
    return loaded


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


def _stale(form: WriteForm, loaded: Loaded) -> bool:
    """The form was filled in against an older version of the game (and is otherwise sound)."""
    return bool(form.validate()) and form.base_version.data != loaded.record.version


def _evaluate(
    form: Any, seat: Seat, loaded: Loaded, position: int | None
) -> tuple[Reading, Check | None]:
    """Read the form and check the deal against the game; nothing is written."""
    if not form.validate():
        return Reading(None), None
    reading = read(form, seat)
    if reading.data is None:
        return reading, None
    result = check_deal(loaded, reading.data, position)
    place(reading, result.problems, seat.players)
    return reading, result


class AlreadySaved(Exception):
    """The form's one-time key already wrote a different deal (Back after Save, then a change):
    nothing is written, the scorer is told, and the input is kept."""

    def __init__(self, message: str, deal_id: int) -> None:
        super().__init__(message)
        self.message = message
        self.deal_id = deal_id


def _save_json(
    loaded: Loaded, deal: DealRecord | None, form: Any, seat: Seat, position: int | None
) -> tuple[Response, int]:
    """Save sent by the script: check and write in one request, answered in JSON."""
    stale = _stale(form, loaded)
    if stale and read(form, seat).data is not None:
        # A re-sent Save (the connection dropped): the key lands it once, or it conflicts.
        reading, result = Reading(read(form, seat).data), None
    else:
        reading, result = _evaluate(form, seat, loaded, position)
        if result is None or not result.ok:
            return jsonify(saved=False, **_preview(reading, result)), 422
    if reading.data is None:
        return jsonify(saved=False, **_preview(reading, result)), 422
    try:
        target = _save(loaded, deal, reading, form, result)
    except AlreadySaved as saved:
        # The input stays on the page with a fresh key: Save again adds it as a new deal.
        fresh = _fresh_form(loaded.record.edit_token)
        edit = url_for("deals.edit", token=loaded.record.edit_token, deal_id=saved.deal_id)
        body = _preview(reading, result) | fresh
        return jsonify(saved=False, refused=saved.message, edit_url=edit, **body), 409
    except VersionConflict:
        message = conflict_message()
        fresh = _fresh_form(loaded.record.edit_token)
        return jsonify(saved=False, conflict=message, **_preview(reading, result) | fresh), 409
    page = _page_after_save(loaded.record.edit_token, target.location)
    return jsonify(saved=True, url=target.location, **page), 200


def _page_after_save(token: str, url: str) -> dict[str, str]:
    """The game page the Save leads to, in the Save's own answer when the script asks for it
    (X-Save-Page): a slow phone shows the new sheet after one round trip, not two."""
    if request.headers.get("X-Save-Page") != "1":
        return {}
    from ..games.routes import show

    if url != url_for("games.show", mode="g", token=token):
        return {}  # an edit leads to the log: that page is fetched as usual
    g.page_path = url
    page = show("g", token)
    return {"page": page} if isinstance(page, str) else {}


def _fresh_form(token: str) -> dict[str, Any]:
    """A new one-time key and the game's version now, for a form kept after a refusal."""
    return {"request_key": new_key(), "base_version": get_store().get_game(token).version}


def _save(
    loaded: Loaded, deal: DealRecord | None, reading: Reading, form: Any, result: Check | None
) -> Response:
    """Write the deal; the page to show next. Raises AlreadySaved, VersionConflict."""
    assert reading.data is not None
    if deal is None:
        return _save_new(loaded, reading.data, form, result)
    return _save_edit(loaded, deal, reading.data, form, result)


def _save_new(loaded: Loaded, data: dict[str, Any], form: Any, result: Check | None) -> Response:
    """Add the deal at the end of the log; back to the sheet."""
    token = loaded.record.edit_token
    record, written, created = get_store().add_deal(
        token, data, base_version=form.base_version.data, request_key=form.request_key.data
    )
    if not created and written.data != data:
        raise AlreadySaved(
            _(
                "This form was already saved as deal %(number)s, so the change was not "
                "saved. Press Save again to add it as a new deal, or edit deal "
                "%(number)s from the sheet.",
                number=written.position + 1,
            ),
            written.id,
        )
    if created and result is not None:
        remember(record, result)
    if created:
        _flash_written(data, written.position + 1, changed=False)
    return _to_game(token)


def _save_edit(
    loaded: Loaded, deal: DealRecord, data: dict[str, Any], form: Any, result: Check | None
) -> Response:
    """Replace a deal of the log; back to the log, at that deal."""
    token = loaded.record.edit_token
    log = redirect(url_for("games.log", mode="g", token=token, _anchor=f"d{deal.id}"))
    number = deal.position + 1
    if deal.data == data and form.base_version.data == loaded.record.version:
        flash(words().said(deal.data.get("type", ""), "unchanged", number))
        return log
    record = get_store().update_deal(
        token,
        deal.id,
        data,
        base_version=form.base_version.data,
        request_key=form.request_key.data,
    )
    now = next((d for d in record.deals if d.id == deal.id), None)
    if now is None or now.data != data:
        raise AlreadySaved(
            _(
                "This form was already saved once, so the change was not saved. "
                "Press Save again to save it."
            ),
            deal.id,
        )
    if result is not None and record.version == form.base_version.data + 1:
        remember(record, result)
    _flash_written(data, number, changed=True)
    return log


#: What the sheet says after a Save, by what was written and whether it was new or changed.
_WRITTEN = {
    ("correction", False): N_("Correction %(number)s saved."),
    ("penalty", False): N_("Penalty %(number)s saved."),
    ("deal", False): N_("Deal %(number)s saved."),
    ("correction", True): N_("Correction %(number)s changed."),
    ("penalty", True): N_("Penalty %(number)s changed."),
    ("deal", True): N_("Deal %(number)s changed."),
}


def _flash_written(data: dict[str, Any], number: int, *, changed: bool) -> None:
    kind = data.get("type")
    template = _WRITTEN[kind if kind in ("correction", "penalty") else "deal", changed]
    flash(_(template, number=number))


def _entries(result: Check | None) -> list[str]:
    if result is None or result.result is None:
        return []
    return [words().entry(e) for e in result.result.entries]


# -- delete, undo, restore -------------------------------------------------------------------


@bp.route("/g/<tok:token>/deal/<int:deal_id>/delete", methods=["GET", "POST"])
def delete(token: str, deal_id: int) -> str | Response | tuple[str, int]:
    loaded = edit_game(token)
    form = WriteForm(version=loaded.record.version)

    def write() -> object:
        return get_store().delete_deal(
            token, deal_id, base_version=form.base_version.data, request_key=form.request_key.data
        )

    if request.method == "POST" and _stale(form, loaded):
        return _resent(token, write, url_for("games.log", mode="g", token=token))
    deal = _live(loaded, deal_id)
    result = check_delete(loaded, deal.position)
    if form.validate_on_submit() and result.ok:
        write_or_back(token, write)
        flash(words().said(deal.data.get("type", ""), "deleted", deal.position + 1))
        return redirect(url_for("games.log", mode="g", token=token))
    return _confirm(loaded, deal, result, form, "delete")


@bp.route("/g/<tok:token>/undo", methods=["GET", "POST"])
def undo(token: str) -> str | Response | tuple[str, int]:
    loaded = edit_game(token)
    form = WriteForm(version=loaded.record.version)

    def write() -> object:
        return get_store().undo_last(
            token, base_version=form.base_version.data, request_key=form.request_key.data
        )

    if request.method == "POST" and _stale(form, loaded):
        return _resent(token, write, url_for("games.show", mode="g", token=token))
    if not loaded.record.deals:
        flash(_("There is no deal to undo."))
        return _to_game(token)
    deal = loaded.record.deals[-1]
    result = check_delete(loaded, deal.position)
    if form.validate_on_submit():
        write_or_back(token, write)
        flash(words().said(deal.data.get("type", ""), "undone", deal.position + 1))
        return _to_game(token)
    return _confirm(loaded, deal, result, form, "undo")


@bp.route("/g/<tok:token>/restore/<int:revision_id>", methods=["POST"])
def restore(token: str, revision_id: int) -> Response:
    loaded = edit_game(token)
    form = WriteForm()
    history = url_for("games.history", mode="g", token=token)

    def write() -> object:
        return get_store().restore_revision(
            token,
            revision_id,
            base_version=form.base_version.data,
            request_key=form.request_key.data,
        )

    if _stale(form, loaded):
        return _resent(token, write, history)
    revisions = {r.id: r for r in get_store().revisions(token)}
    revision = revisions.get(revision_id)
    if revision is None:
        raise RevisionNotFound(f"the game has no revision {revision_id}")
    data = revision.previous if revision.action == "delete" else revision.data
    if data is None or not form.validate_on_submit():
        return redirect(history)
    result = check_restore(loaded, revision.deal_id, data)
    if not result.ok:
        flash(_("This version cannot be put back:"))
        for problem in result.problems + result.later:
            flash(words().problem(problem))
        return redirect(history)
    write_or_back(token, write)
    flash(_("The deal was put back."))
    return redirect(url_for("games.log", mode="g", token=token, _anchor=f"d{revision.deal_id}"))


def _confirm(loaded: Loaded, deal: DealRecord, result: Check, form: WriteForm, what: str) -> str:
    current = loaded.sheet.results[deal.position]
    return render_template(
        "confirm.html",
        loaded=loaded,
        deal=deal,
        current=current,
        entries=[words().entry(e) for e in current.entries],
        problems=[words().problem(p) for p in result.later],
        form=form,
        what=what,
    )


def _live(loaded: Loaded, deal_id: int) -> DealRecord:
    for deal in loaded.record.deals:
        if deal.id == deal_id:
            return deal
    raise DealNotFound(f"the game has no deal {deal_id} on its sheet")


def _resent(token: str, write: Callable[[], object], then: str) -> Response:
    """A write from a form older than the game: the store either knows its request key
    (the same tap sent again: nothing is written) or refuses it as a conflict."""
    write_or_back(token, write)
    return redirect(then)


def _to_game(token: str) -> Response:
    return redirect(url_for("games.show", mode="g", token=token))
