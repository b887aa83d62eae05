"""Confirmations from the read-only link: a key to answer with, the answer, and what the
pages show of the answers.

The read-only link writes nothing else: one answer a request, with the session's CSRF token
and a one-time request key, into its own table (never the game's version, never the
sheet). A refusal (confirmations.AnswerRefused) is a 4xx with a message (web/errors.py);
the answer reaches every phone following the game through the version they ask for each
second (its `seen` part).
"""

from __future__ import annotations

import hashlib
import re
import secrets

from flask import Blueprint, current_app, jsonify, redirect, request, url_for
from flask_babel import _
from flask_wtf.csrf import CSRFError, generate_csrf
from werkzeug.wrappers import Response

from scorekeeper import confirmations
from scorekeeper.rules.problems import N_
from scorekeeper.store import GameNotFound

from ..flashes import flash_said
from ..keys import new_key
from ..storage import get_store

bp = Blueprint("confirm", __name__.rsplit(".", 1)[0])

_NUMBER = re.compile(r"[0-9]{1,12}")


def _json(body: dict[str, object], status: int = 200) -> Response:
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/v/<tok:token>/confirm/key")
def key(token: str) -> Response:
    """What an answer is sent with: the session's CSRF token and a one-time request key."""
    get_store().game_version(token)  # GameNotFound: a 404 like every page of a wrong link
    return _json({"csrf_token": generate_csrf(), "request_key": new_key()})


@bp.route("/v/<tok:token>/confirm", methods=["POST"])
def answer(token: str) -> Response:
    """One player's answer on one revision of one deal."""
    form = request.form
    deal, revision = form.get("deal", ""), form.get("revision", "")
    player = form.get("player", "")
    if not (_NUMBER.fullmatch(deal) and _NUMBER.fullmatch(revision) and player):
        raise confirmations.AnswerRefused("incomplete")
    phone = _phone_id()
    try:
        given, _written = confirmations.confirm(
            get_store(),
            token,
            phone=hashlib.sha256(phone.encode()).hexdigest(),
            deal_id=int(deal),
            revision=int(revision),
            player=player,
            verdict=form.get("verdict", ""),
            note=form.get("note", ""),
            request_key=form.get("request_key", ""),
        )
    except GameNotFound:
        return _json({"error": _("There is no game at this address."), "reason": "game"}, 404)
    said = _("Thank you: right.") if given.verdict == "right" else _("Thank you: marked as wrong.")
    return _with_phone(_json({"ok": True, "message": said, "request_key": new_key()}), phone)


#: The cookie that names this phone to the seats it answers for (its hash is stored).
PHONE_COOKIE = "pulka_phone"
_PHONE = re.compile(r"[A-Za-z0-9_-]{20,64}")


def _phone_id() -> str:
    """This phone's id: the one its cookie holds, else a new one (set with the answer)."""
    held = request.cookies.get(PHONE_COOKIE, "")
    return held if _PHONE.fullmatch(held) else secrets.token_urlsafe(24)


def _with_phone(response: Response, phone: str) -> Response:
    """The answer, with the phone's cookie kept for a year (the seat stays this phone's)."""
    if request.cookies.get(PHONE_COOKIE) != phone:
        response.set_cookie(
            PHONE_COOKIE,
            phone,
            max_age=365 * 24 * 3600,
            httponly=True,
            samesite="Lax",
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
            path=current_app.config.get("APPLICATION_ROOT") or "/",
        )
    return response


@bp.route("/g/<tok:token>/release-seat", methods=["POST"])
def release(token: str) -> Response:
    """The scorer lets a seat go: the next phone to answer for it claims it."""
    player = request.form.get("player", "")[:100]
    if confirmations.release(get_store(), token, player):
        flash_said(
            N_("Seat free: %(name)s. The next phone to answer for this player claims it."),
            name=player,
        )
    return redirect(url_for("games.show", mode="g", token=token) + "#confirmations")


@bp.errorhandler(CSRFError)
def _expired(_error: CSRFError) -> Response:
    return _json(
        {
            "error": _("The form has expired")
            + ": "
            + _("This page was opened in another session: reload it and try again."),
            "reason": "csrf",
        },
        400,
    )
