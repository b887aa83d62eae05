"""A game's links: replace the edit or read-only link, delete and restore the game.

A link posted to the wrong chat or left on a lost phone is replaced here: the old one
answers 404 at once. A deleted game stays restorable through its edit link for
DELETED_KEEP_DAYS days, then it is purged (and so absent from every later backup).
"""

from __future__ import annotations

import datetime

from flask import redirect, render_template, url_for
from flask_babel import _
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from scorekeeper.games import writes
from scorekeeper.rules.problems import N_
from scorekeeper.store.store import DELETED_KEEP_DAYS

from .. import belongs, errors, recent
from ..context import GameDeleted, LinkReplaced, ViewDeleted, edit_game
from ..flashes import flash_said
from ..storage import get_store
from ..templating import when
from .routes import bp


class LinkForm(FlaskForm):
    """One button: replace a link, delete or restore the game (CSRF only)."""


@bp.route("/g/<tok:token>/links")
def links(token: str) -> str:
    loaded = edit_game(token)
    record = loaded.record
    return render_template(
        "links.html",
        loaded=loaded,
        tour_table=belongs.tournament_table(loaded),
        edit_url=url_for("games.show", mode="g", token=record.edit_token, _external=True),
        view_url=url_for("games.show", mode="v", token=record.view_token, _external=True),
        form=LinkForm(),
        keep_days=DELETED_KEEP_DAYS,
    )


@bp.route("/g/<tok:token>/links/<any(edit, view):which>", methods=["POST"])
def replace_link(token: str, which: str) -> Response:
    loaded = edit_game(token)
    old = loaded.record
    if not LinkForm().validate_on_submit():
        flash_said(N_("The form has expired. Try again."))
        return redirect(url_for("games.links", token=token))
    record = writes.replace_link(get_store(), loaded, "edit" if which == "edit" else "view")
    recent.drop_offline(old.edit_token if which == "edit" else old.view_token)
    if which == "edit":
        recent.forget(token)
        recent.remember(record.edit_token)
        flash_said(N_("This is the new edit link: the old one no longer opens the game."))
    else:
        flash_said(N_("This is the new read-only link: the old one no longer opens the game."))
    return redirect(url_for("games.links", token=record.edit_token))


@bp.route("/g/<tok:token>/delete", methods=["GET", "POST"])
def delete_game(token: str) -> str | Response:
    loaded = edit_game(token)
    writes.check_deletable(get_store(), loaded)
    form = LinkForm()
    if form.validate_on_submit():
        writes.delete_game(get_store(), loaded)
        recent.drop_offline(token, loaded.record.view_token)
        return redirect(url_for("games.show", mode="g", token=token))
    return render_template(
        "delete_game.html", loaded=loaded, form=form, keep_days=DELETED_KEEP_DAYS
    )


@bp.route("/g/<tok:token>/restore-game", methods=["POST"])
def restore_game(token: str) -> Response:
    if LinkForm().validate_on_submit() and writes.restore_game(get_store(), token) is not None:
        flash_said(N_("The game is back."))
    else:
        # Nothing restored: a live game (403 through its read-only link), an unknown link
        # (404), or a deleted one whose form expired (its page again, with Restore).
        edit_game(token)
    return redirect(url_for("games.show", mode="g", token=token))


@bp.app_errorhandler(ViewDeleted)
def deleted_view(_error: ViewDeleted) -> tuple[str, int] | Response:
    """What the read-only link shows while its game is deleted: that it was, and who can
    bring it back (nothing of the game itself)."""
    message = _(
        "The scorer deleted this game: its sheet is not shown any more. If that was a mistake, "
        "the scorer can still restore it with the edit link."
    )
    if errors.wants_json():
        return errors.final("game_deleted", message)
    return errors.error_page(410, _("This game was deleted"), message)


@bp.app_errorhandler(LinkReplaced)
def replaced_link(_error: LinkReplaced) -> tuple[str, int] | Response:
    """What a replaced edit or read-only link opens (errors.replaced_page)."""
    return errors.replaced_page()


@bp.app_errorhandler(GameDeleted)
def deleted_page(error: GameDeleted) -> tuple[str, int] | Response:
    """What the edit link shows while its game is deleted: when it goes, and Restore (to the
    deal form's script: a final refusal of its Save)."""
    if errors.wants_json():
        return errors.final(
            "game_deleted",
            _("This game was deleted: nothing more is written to it. Its link can restore it."),
        )
    token, name, deleted_at = error.token, error.name, error.deleted_at
    try:
        moment = datetime.datetime.fromisoformat(deleted_at)
        purge = (moment + datetime.timedelta(days=DELETED_KEEP_DAYS)).isoformat()
    except ValueError:
        purge = deleted_at
    page = render_template(
        "deleted_game.html",
        token=token,
        name=name,
        deleted=when(deleted_at),
        purge=when(purge),
        form=LinkForm(),
    )
    return page, 410
