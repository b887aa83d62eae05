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

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.games import Check, Loaded, check_delete, writes
from scorekeeper.games.writes import live_deal
from scorekeeper.rules import Seat
from scorekeeper.rules.problems import N_
from scorekeeper.store import DealRecord

from .. import balkan as balkan_views
from .. import errors
from ..context import edit_game
from ..flashes import flash_said, said_entry, said_problem, shown
from ..i18n import words
from ..storage import get_store
from ..widgets import WriteForm
from . import answer
from .answer import Page
from .forms import DealBase, DealForm, blank_form, entered, seat_for, sent_form

bp = Blueprint("deals", __name__.rsplit(".", 1)[0])

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
    full = answer.full(loaded)
    if full is not None:
        if (resent := _resent(loaded)) is not None:
            return resent
        if request.method == "POST":
            return answer.game_over(loaded, shown(full))
        flash_said(full)
        return _to_game(token)
    return _deal_page(loaded, None, key)


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
    flash_said(_USED[writes.kind_of(deal.data)], number=number)
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
    if balkan_views.is_balkan(loaded):
        return balkan_views.check_json(
            loaded, None if deal_id is None else live_deal(loaded, deal_id)
        )
    position = None if deal_id is None else live_deal(loaded, deal_id).position
    seat = seat_for(loaded.sheet, position)
    form = sent_form(request.form.get("kind"), loaded.record.version, len(seat.players))
    return jsonify(answer.preview(*answer.evaluate(loaded, form, seat, position)))


def _deal_page(loaded: Loaded, deal: DealRecord | None, key: str = "") -> Page:
    """The deal form (GET), its check without the script, or its Save."""
    if balkan_views.is_balkan(loaded):
        return balkan_views.deal_page(loaded, deal, key)
    position = None if deal is None else deal.position
    seat = seat_for(loaded.sheet, position)
    version = loaded.record.version
    script = request.method == "POST" and errors.wants_json()
    if request.method == "GET":
        form = DealForm(version=version) if deal is not None else blank_form(version)
        if key:
            form.request_key.data = key
        if deal is not None:
            form.fill(deal.data, seat.players)
        return answer.page(loaded, form, seat, deal, None, None)
    kind = request.form.get("kind")
    form = sent_form(kind, version, len(seat.players)) if script else DealForm(version=version)
    if not script and request.form.get("action") != "save":
        reading, result = answer.evaluate(loaded, form, seat, position)
        return answer.page(loaded, form, seat, deal, reading, result)
    return _save(loaded, deal, form, seat, script)


def _save(
    loaded: Loaded, deal: DealRecord | None, form: DealBase, seat: Seat, script: bool
) -> Page:
    """The one Save: gather the form, let the service read, check and write the deal, and
    answer what it did (deals/answer.py)."""
    raw, rows = entered(form, seat.players) if form.validate() else (None, {})
    outcome: writes.Written | writes.GameRefused | None = None
    if raw is not None:
        try:
            outcome = writes.save_entered(
                get_store(),
                loaded,
                None if deal is None else deal.id,
                raw,
                base_version=form.base_version.data,
                request_key=form.request_key.data,
                shown=None if script else form.checked.data or "",
            )
        except (writes.Invalid, writes.Unconfirmed, writes.Conflict, writes.AlreadySaved) as no:
            outcome = no
    return answer.saved(loaded, deal, form, seat, rows, outcome, script)


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
                flash_said(said_entry(done.kind, "deleted", done.number))
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
            flash_said(N_("There is no deal to undo."))
            return _to_game(token)
        if done.number is not None:
            flash_said(said_entry(done.kind, "undone", done.number))
        return _to_game(token)
    if not loaded.record.deals:
        flash_said(N_("There is no deal to undo."))
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
        flash_said(N_("This version cannot be put back:"))
        for problem in invalid.check.problems + invalid.check.later:
            flash_said(said_problem(problem))
        return redirect(history)
    if done.deal_id is None:
        return redirect(history)  # the same tap sent again
    flash_said(N_("The deal was put back."))
    return redirect(url_for("games.log", mode="g", token=token, _anchor=f"d{done.deal_id}"))


def _confirm(loaded: Loaded, deal: DealRecord, result: Check, form: WriteForm, what: str) -> str:
    if balkan_views.is_balkan(loaded):
        return balkan_views.confirm_page(loaded, deal, result, form, what)
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
