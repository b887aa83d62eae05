"""A game's pages and its game-level writes (finish, reopen, re-score)."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import re
import threading
from collections.abc import Callable

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_file,
    session,
    url_for,
)
from flask_babel import _
from werkzeug.wrappers import Response

from scorekeeper import confirmations, gamefile
from scorekeeper.games import Loaded, describe, file_text, writes
from scorekeeper.games.whatif import WHAT_IF_CONVENTIONS, WHAT_IF_OPTIONS, what_if
from scorekeeper.render import pdf as pdf_render
from scorekeeper.render import pdf_balkan
from scorekeeper.rules.problems import N_

from .. import balkan as balkan_views
from .. import belongs
from ..confirm.answers import answers_of, seen
from ..context import edit_game, forms_not_stored, open_game
from ..errors import error_page
from ..flashes import amount, flash_said
from ..i18n import get_locale, time_zone, words
from ..limits import PdfSlots, give_back_memory
from ..storage import get_store
from ..widgets import RematchForm, WriteForm
from ..wire import keep_compressed, style_inline
from .forms import POOL_BOUNDS, ExtendForm, FinishForm, ReopenForm, RescoreForm
from .view import (
    evening_chart_svg,
    fragment,
    game_summary,
    plain_address,
    settlement_text,
    shell,
)

bp = Blueprint("games", __name__.rsplit(".", 1)[0])

bp.add_app_template_global(fragment)
bp.add_app_template_global(shell)
bp.after_app_request(forms_not_stored)
bp.add_app_template_global(game_summary)

GAME = "/<any(g, v):mode>/<tok:token>"


@bp.route(GAME)
def show(mode: str, token: str) -> str | bytes | Response:
    loaded = open_game(mode, token)
    said = seen(loaded.token)  # the table's confirmations show on the page too
    if loaded.editable:
        # The scorer's page: drawn for this request around the kept parts (its forms carry
        # this session's CSRF token and new one-time keys; the messages are this request's).
        return _draw(loaded)
    # A follower's page has nothing personal in it: kept whole, per state, by everything it
    # is drawn from. Messages (rare on a read-only page) or odd arguments: drawn anew.
    if session.get("_flashes") or not plain_address():
        return _draw(loaded)
    key = (
        "page",
        request.full_path,
        request.url_root,
        get_locale(),
        "X-Follow" in request.headers,
        style_inline(),
        said,
    )
    # Kept as the UTF-8 the phones are sent: half a drawn page's size in memory (a page with
    # one character past Latin-1 is two bytes a character as a str), not encoded per phone.
    page = _kept_once(loaded, "pages", key, lambda: _draw(loaded).encode())
    keep_compressed()  # the same bytes for every follower: compressed once, not per phone
    return page


def _kept_once(
    loaded: Loaded, kind: str, key: tuple[object, ...], draw: Callable[[], bytes]
) -> bytes:
    """A follower's page or part of this state (`key` ends with the answers' stamp), drawn
    once: the followers a change wakes together ask for it at the same moment (it rides
    with their held requests' answers), and one thread of the process draws it while the
    others wait for it. What was drawn before the last answer of the table goes."""
    kept: dict[tuple[object, ...], bytes] = loaded.kept(kind, dict)
    found = kept.get(key)
    if found is not None:
        return found
    locks: dict[tuple[object, ...], threading.Lock] = loaded.kept(kind + " drawn", dict)
    with locks.setdefault(key, threading.Lock()):
        found = kept.get(key)
        if found is None:
            found = draw()
            for old in [k for k in list(kept) if k[-1] != key[-1]]:
                kept.pop(old, None)  # drawn before the last confirmation: never shown again
            if len(kept) < KEPT_PAGES:
                kept[key] = found
    return found


KEPT_PAGES = 12
"""Follower pages of one state kept at most (languages × addresses × ways of carrying the
stylesheet); past that, drawn for each request."""


def _draw(loaded: Loaded) -> str:
    forms = _finished_forms(loaded)
    if balkan_views.is_balkan(loaded):
        return balkan_views.game_page(
            loaded, company=belongs.company_of(loaded), answers=answers_of(loaded), **forms
        )
    return render_template(
        "game.html",
        loaded=loaded,
        tour_table=belongs.tournament_table(loaded),
        company=belongs.company_of(loaded),
        answers=answers_of(loaded),
        **forms,
    )


def _finished_forms(loaded: Loaded) -> dict[str, object]:
    """The forms of a finished game's card (reopen, re-score, play on, rematch); a Balkan
    partija has no pool to play on to (its end is undone instead)."""
    if not (loaded.editable and loaded.sheet.finished):
        return {}
    version, empty = loaded.record.version, {"formdata": None}
    forms: dict[str, object] = {
        "finish_form": FinishForm(version=version, **empty),
        "reopen_form": ReopenForm(version=version, **empty),
        "rescore_form": RescoreForm(version=version, **empty),
        "rematch_form": RematchForm(**empty),
    }
    if not balkan_views.is_balkan(loaded):
        target = _next_target(loaded.game.options.pool_target)
        forms["extend_form"] = ExtendForm(version=version, pool_target=target, **empty)
    return forms


@bp.route(GAME + "/answers")
def answers(mode: str, token: str) -> Response:
    """Only what shows the table's answers on the game page (the confirmations card, and a
    follower's card that asks about each deal), for a page whose game did not change but
    whose answers did: the follow swaps these in instead of the whole page (static/app.js).
    It names the version and stamp it was drawn at; a page at another version takes the
    whole page instead.

    A follower's is the same for every follower: kept with the state, by everything it is
    drawn from (the language, the site's address, the stamp of the answers). The scorer's
    carries this session's CSRF token (the seats' release forms): drawn for each request.
    """
    flashes = session.get("_flashes")
    loaded = open_game(mode, token)
    if session.get("_flashes") != flashes:  # the page's message is the page's to show
        if flashes is None:
            session.pop("_flashes", None)
        else:
            session["_flashes"] = flashes
    said = seen(loaded.token)
    part: str | bytes
    if loaded.editable:
        part = _answers_part(loaded)
    else:  # kept as sent, like a follower's page
        key = ("answers", request.url_root, get_locale(), said)
        part = _kept_once(loaded, "answer parts", key, lambda: _answers_part(loaded).encode())
        keep_compressed()  # the same bytes for every follower: compressed once
    response = Response(part, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


def _answers_part(loaded: Loaded) -> str:
    return render_template("game/_answers.html", loaded=loaded, answers=answers_of(loaded))


def _next_target(target: int) -> int:
    """The pool a table usually plays on to: ten more (or half as much again)."""
    return target + max(10, target // 2 // 10 * 10)


def _etag(loaded: Loaded, kind: str) -> str:
    """A tag naming what a download was made from: the game's version, the link and the
    language; a new deal, edit or finish changes it, so no copy is ever served stale."""
    record = loaded.record
    seed = f"{kind}|{record.access}|{record.version}|{record.updated_at}|{get_locale()}"
    return hashlib.sha256(seed.encode()).hexdigest()[:32]


def _download(loaded: Loaded, kind: str, make: Callable[[], Response]) -> Response:
    """A download of this state: a 304 if the phone holds it already, else make()'s answer,
    tagged with the version so that it is never served stale."""
    cached = _fresh(loaded, kind)
    return cached if cached is not None else _no_cache(make(), loaded, kind)


def _fresh(loaded: Loaded, kind: str) -> Response | None:
    """A 304 if the phone already holds this version's download, else None."""
    if _etag(loaded, kind) in request.if_none_match:
        response = Response(status=304)
        return _no_cache(response, loaded, kind)
    return None


def _no_cache(response: Response, loaded: Loaded, kind: str) -> Response:
    """Mark a download: always revalidated (Cache-Control: no-cache), tagged with the version."""
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(_etag(loaded, kind))
    response.headers["X-Game-Version"] = str(loaded.record.version)
    return response


def _attachment(data: bytes, mimetype: str, name: str) -> Response:
    response = send_file(
        io.BytesIO(data),
        mimetype=mimetype,
        as_attachment=True,
        download_name=name,
        max_age=0,
        etag=False,
        conditional=False,
    )
    return response


@bp.route(GAME + ".json")
def twin(mode: str, token: str) -> Response:
    loaded = open_game(mode, token)

    def twin_file() -> Response:
        text = json.dumps(loaded.report(), ensure_ascii=False, indent=2) + "\n"
        return Response(text, mimetype="application/json")

    return _download(loaded, "twin", twin_file)


@bp.route(GAME + "/version")
def version(mode: str, token: str) -> Response:
    """The game's version, for a tool that asks (a page that follows the game holds its
    request instead: longpoll.py's `/v/<token>/wait`, which answers the same JSON).

    Tiny and conditional: the ETag names the game's state, so an unchanged game costs a
    304 with no body.
    """
    # `seen` also changes with each confirmation (the pages that show them follow it).
    number, updated_at, said = confirmations.version_seen(get_store(), token)
    body = json.dumps({"version": number, "seen": said})
    response = Response(body, mimetype="application/json")
    response.set_etag(f"{number}-{updated_at}-{said}")
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.route(GAME + "/chart.svg")
def chart(mode: str, token: str) -> Response:
    """The evening's chart alone: every game page fetches it after the sheet is shown."""
    loaded = open_game(mode, token)
    if balkan_views.is_balkan(loaded):
        abort(404)  # a Balkan partija's page draws no chart
    return _download(
        loaded, "chart", lambda: Response(str(evening_chart_svg(loaded)), mimetype="image/svg+xml")
    )


@bp.route(GAME + "/game.json")
def download(mode: str, token: str) -> Response:
    loaded = open_game(mode, token)
    return _download(
        loaded,
        "file",
        lambda: _attachment(
            file_text(loaded).encode(), "application/json", _file_name(loaded, "json")
        ),
    )


PDF_SLOTS = 2
"""PDFs drawn at the same time by the whole server (all its processes: limits.py); the next
phones wait up to PDF_WAIT_SECONDS, then 503."""
_PDF_SLOTS = PdfSlots(PDF_SLOTS)


@bp.route(GAME + "/pulka.pdf")
def pdf(mode: str, token: str) -> Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    loaded = open_game(mode, token)
    if loaded.over_limit:
        return error_page(
            422,
            _("No PDF for this game"),
            _(
                "This game has %(count)s deals: the PDF is drawn for games of at most "
                "%(limit)s. Download its game file instead.",
                count=len(loaded.record.deals),
                limit=gamefile.MAX_DEALS,
            ),
        )
    kind = f"pdf.{seen(token)}"  # its counts of confirmed deals change without a new version
    cached = _fresh(loaded, kind)
    if cached is not None:
        return cached
    record = loaded.record
    edited = {d.position + 1 for d in record.deals if d.updated_at != d.created_at}
    # At most PDF_SLOTS drawings at once: each takes a core and tens of MB for a moment.
    if not _PDF_SLOTS.acquire(timeout=float(current_app.config.get("PDF_WAIT_SECONDS", 5))):
        page, status = error_page(
            503,
            _("The server is busy"),
            _("The PDF is being made for other phones right now. Try again in a few seconds."),
        )
        return page, status, {"Retry-After": "5"}
    try:
        data = _pdf_data(loaded, edited)
    finally:
        _PDF_SLOTS.release()
        give_back_memory()
    response = _attachment(data, "application/pdf", _file_name(loaded, "pdf"))
    return _no_cache(response, loaded, kind)


def _pdf_data(loaded: Loaded, edited: set[int]) -> bytes:
    """The game's PDF as its family draws it."""
    record = loaded.record
    if balkan_views.is_balkan(loaded):
        return pdf_balkan.balkan_pdf(
            balkan_views.sheet_of(loaded), name=record.name, locale=words().locale
        )
    return pdf_render.sheet_pdf(
        dataclasses.replace(loaded.game, name=record.name),  # a table's, in the page's words
        created_at=record.created_at,
        updated_at=record.updated_at,
        edited_deals=edited,
        disputed_deals=_disputed(loaded),
        locale=words().locale,
        tz=time_zone(),
        confirmed=_confirmed(loaded),
    )


def _disputed(loaded: Loaded) -> set[int]:
    """The places (from 1) of the deals a player at the table said are not so."""
    table = answers_of(loaded)
    return {
        deal.position + 1
        for deal in loaded.record.deals
        if (said := table.of(deal.id)) is not None and said.disputed
    }


def _confirmed(loaded: Loaded) -> list[tuple[str, int]] | None:
    """How many deals each player confirmed, if the table confirms at all."""
    table = answers_of(loaded)
    return table.confirmed if table.used else None


@bp.route(GAME + "/log")
def log(mode: str, token: str) -> str | Response:
    loaded = open_game(mode, token)
    if balkan_views.is_balkan(loaded):  # its page lists every entry with what it wrote
        return redirect(url_for("games.show", mode=mode, token=token))
    rows = list(zip(loaded.record.deals, loaded.sheet.results, strict=True))
    seen(token)  # the log shows who confirmed each deal, and follows the answers
    # Newest first: the oldest entry's buttons come after every later one's, so a keyboard
    # gets a link straight to it (deal 1 of a 20-deal game was 65 Tabs down).
    skip_to = (f"#d{rows[0][0].id}", _("Go to the oldest entry")) if len(rows) > 1 else None
    return render_template(
        "log.html", loaded=loaded, rows=rows, skip_to=skip_to, answers=answers_of(loaded)
    )


@bp.route(GAME + "/settlement")
def settlement(mode: str, token: str) -> str | Response:
    loaded = open_game(mode, token)
    if balkan_views.is_balkan(loaded):  # its page shows the results and who pays whom
        return redirect(url_for("games.show", mode=mode, token=token, _anchor="settlement"))
    return render_template(
        "settlement.html",
        loaded=loaded,
        tour_table=belongs.tournament_table(loaded),
        s=loaded.settlement,
        text=settlement_text(loaded),
        finish_form=FinishForm(version=loaded.record.version),
    )


@bp.route(GAME + "/what-if")
def whatif(mode: str, token: str) -> str | Response:
    """The same deals re-scored under another preset, beside the real result; written
    nowhere (a link a tap each per preset, so the page is a plain GET)."""
    loaded = open_game(mode, token)
    convention = request.args.get("convention", "")[:40]
    changes = {k: request.args.get(k, "")[:40] for k in WHAT_IF_OPTIONS if request.args.get(k)}
    shown = what_if(loaded, convention, changes) if convention else None
    return render_template(
        "whatif.html",
        loaded=loaded,
        conventions=WHAT_IF_CONVENTIONS,
        options=WHAT_IF_OPTIONS,
        changes=changes,
        shown=shown,
    )


@bp.route(GAME + "/history")
@bp.route(GAME + "/deal/<int:deal_id>/history")
def history(mode: str, token: str, deal_id: int | None = None) -> str | Response:
    loaded = open_game(mode, token)
    revisions = get_store().revisions(token, deal_id)
    players = loaded.game.players
    live = {d.id: d for d in loaded.record.deals}
    rows = [
        {
            "revision": r,
            "deal": live.get(r.deal_id),
            "text": describe(
                r.data if r.action != "delete" else r.previous, players, words(), loaded.family
            ),
            "current": r.deal_id in live
            and r.action != "delete"
            and live[r.deal_id].data == r.data,
        }
        for r in revisions
    ]
    return render_template(
        "history.html",
        loaded=loaded,
        rows=rows,
        deal_id=deal_id,
        form=WriteForm(version=loaded.record.version),
    )


# -- game-level writes ---------------------------------------------------------------------


@bp.route("/g/<tok:token>/finish", methods=["POST"])
def finish(token: str) -> str | Response:
    loaded = edit_game(token)
    form = FinishForm()
    current = form.base_version.data == loaded.record.version
    if form.validate_on_submit() and current and request.form.get("confirm") != "yes":
        # One stray tap must not end an evening: "Finish now" asks first.
        return render_template("finish_confirm.html", loaded=loaded, form=form)
    if form.validate_on_submit():
        _set_finished(loaded, form, True)
    return redirect(url_for("games.show", mode="g", token=token))


@bp.route("/g/<tok:token>/rescore", methods=["POST"])
def rescore(token: str) -> Response:
    loaded = edit_game(token)
    form = RescoreForm()
    if not loaded.record.finished:
        flash_said(N_("The game is not finished: there is no kept settlement to replace."))
    elif form.validate_on_submit():
        _set_finished(loaded, form, True)
    return redirect(url_for("games.show", mode="g", token=token))


@bp.route("/g/<tok:token>/reopen", methods=["POST"])
def reopen(token: str) -> Response:
    loaded = edit_game(token)
    form = ReopenForm()
    if form.validate_on_submit():
        _set_finished(loaded, form, False)
    return redirect(url_for("games.show", mode="g", token=token))


def _flash_extend_refused(form: ExtendForm) -> None:
    """Why "Play on" was refused, said in the language of the page that shows it: the pool
    out of its bounds, or else a page older than the form."""
    if form.pool_target.errors:
        low, high = POOL_BOUNDS
        flash_said(
            N_("Write a whole number from %(min)s to %(max)s"), min=amount(low), max=amount(high)
        )
    else:
        flash_said(N_("The page is out of date: reload it and try again."))


@bp.route("/g/<tok:token>/extend", methods=["POST"])
def extend(token: str) -> Response:
    """Raise the pool target of a game whose end rule was met, and reopen it: the log is
    replayed under the new target first, and refused if the game would still be over."""
    loaded = edit_game(token)
    form = ExtendForm()
    back = redirect(url_for("games.show", mode="g", token=token))
    if not form.validate_on_submit():
        _flash_extend_refused(form)
        return back
    target = form.pool_target.data
    assert target is not None
    try:
        done = writes.play_on(
            get_store(),
            loaded,
            target,
            base_version=form.base_version.data,
            request_key=form.request_key.data,
        )
    except writes.PoolRefused as refused:
        if refused.still_over:
            flash_said(N_("With a pool of %(target)s the game would still be over."), target=target)
        else:
            flash_said(N_("The new pool must be larger than %(target)s."), target=refused.current)
        return back
    if done.changed:
        flash_said(N_("The pool is now %(target)s: play on."), target=target)
    return back


def _set_finished(loaded: Loaded, form: WriteForm, finished: bool) -> None:
    """Finish (keeping the settlement) or reopen the game (a conflict: back to the game)."""
    writes.set_finished(
        get_store(),
        loaded,
        finished,
        base_version=form.base_version.data,
        request_key=form.request_key.data,
    )


def _file_name(loaded: Loaded, ext: str) -> str:
    stem = re.sub(r"[^\w\- ]+", "", loaded.record.name, flags=re.UNICODE).strip() or "game"
    return f"{stem[:60]}.{ext}"
