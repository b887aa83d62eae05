"""A tournament's pages: create, the director's page (edit) and its read-only twin, the
board for a big screen, and the writes (seat, close, withdraw, links), each one service call
followed by a redirect (post → redirect → get)."""

from __future__ import annotations

import datetime
import io
import json
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from flask_babel import _, format_date, format_decimal, pgettext
from werkzeug.wrappers import Response

from scorekeeper import club
from scorekeeper.kept import Kept
from scorekeeper.paths import TEMPLATES
from scorekeeper.rules.problems import N_
from scorekeeper.store import StoreError, VersionConflict
from scorekeeper.store.tournaments import TournamentRecord
from scorekeeper.tournament import file as tfile
from scorekeeper.tournament import service
from scorekeeper.tournament import text as ttext
from scorekeeper.tournament.service import OnRoster, TournamentRefused, TypedSeating
from scorekeeper.tournament.text import bands_text

from .. import belongs, errors, recent, table_names
from .. import options as opts
from ..flashes import flash_said
from ..i18n import get_locale, words
from ..problems import option_field
from ..storage import get_store
from ..widgets import choices
from .forms import (
    CloseForm,
    JoinForm,
    LinkForm,
    ReopenForm,
    RevokeForm,
    SeatForm,
    TournamentForm,
    TournamentImportForm,
    UnseatForm,
    WithdrawForm,
)

bp = Blueprint("tournament", __name__.rsplit(".", 1)[0])

KEY = belongs.TOURNAMENTS
LIMIT = 12
TOURNAMENT = "/<any(t, tv):mode>/<tok:token>"
_SLUG = re.compile(r"[^\w-]+")


def open_tournament(mode: str, token: str) -> TournamentRecord:
    """The tournament for a page: /t/ with the edit token, /tv/ always read-only (a view
    token under /t/ is redirected to /tv/)."""
    record = service.tournaments(get_store()).get(token)
    if mode == "t" and record.access != "edit":
        args = request.view_args or {}
        abort(redirect(url_for(request.endpoint or "tournament.show", **{**args, "mode": "tv"})))
    if mode == "tv" and record.access == "edit":
        record = service.tournaments(get_store()).get(record.view_token)
    recent.remember(token, KEY, LIMIT)
    return record


def edit_tournament(token: str) -> TournamentRecord:
    """The tournament for a write: 403 unless opened with its edit token."""
    record = service.tournaments(get_store()).get(token)
    if record.access != "edit":
        abort(403)
    return record


def back(token: str, anchor: str = "") -> Response:
    """Back to the director's page (post/redirect/get)."""
    return redirect(url_for("tournament.show", mode="t", token=token) + anchor)


def _options_context() -> dict[str, object]:
    return {
        # The pool and the league's cap on deals per tour (docs/season.md §5.2).
        "main_specs": [s for s in opts.MAIN if s.name in ("pool_target", "deal_limit")],
        "money_specs": [s for s in opts.MAIN if s.name in ("stake", "currency", "money_unit")],
        "house_specs": opts.HOUSE,
        "need_password": bool(current_app.config.get("PASSWORD")),
    }


def _field_of(name: str) -> str:
    """A house rule's field; the tour's length is the form's rounds."""
    return "rounds" if name == "options.round_limit" else option_field(name)


#: Said when another phone changed the tournament since the form was read.
CHANGED = N_("The tournament was changed meanwhile (on another phone?). Look and try again.")


# -- creating and opening ------------------------------------------------------------------


@bp.route("/tournament/new", methods=["GET", "POST"])
def new() -> str | Response:
    form = TournamentForm()
    if request.method == "GET":
        form.fill_preset("sochi")
    if form.is_submitted():
        # Every problem of the form at once, each next to its field.
        ok = all([form.validate(), form.check_roster()])
        bands = form.bands()
        rounds = form.rounds.data
        # A convention not in the list is the field's own error (no options to resolve).
        valid = isinstance(rounds, int) and not form.convention.errors
        # The tour's length is the form's rounds; once that field has said its own range
        # (1 to 30), the house rules do not say it again.
        options = (
            form.house_rules(
                form.convention.data,
                extra={"round_limit": rounds},
                field_of=_field_of,
                said={"options.round_limit"} if form.rounds.errors else (),
            )
            if valid
            else None
        )
        if ok and options is not None and bands is not None:
            name = form.name.data or _("Tournament of %(day)s", day=_today())
            record = club.started(  # started from a club's page: the club's
                get_store(),
                request.args.get("club", ""),
                "tournament",
                lambda: service.create(
                    get_store(),
                    name=name,
                    convention=form.convention.data,
                    options=options,
                    table_size=int(form.table_size.data),
                    bands=bands,
                    roster=form.roster_names(),
                    tours_planned=int(form.tours.data),
                ),
            )
            recent.remember(record.edit_token, KEY, LIMIT)
            flash_said(N_("The tournament is made. Seat tour 1 when the players are in the room."))
            return back(record.edit_token)
    return render_template("tournament/new.html", form=form, **_options_context())


def _today() -> str:
    return str(format_date(datetime.date.today(), "d MMMM y"))


@bp.route(TOURNAMENT)
def show(mode: str, token: str) -> str | Response:
    return _page(open_tournament(mode, token))


def _page(
    record: TournamentRecord,
    seat_form: SeatForm | None = None,
    join_form: JoinForm | None = None,
) -> str:
    """The director's page (or its read-only twin), with a refused seat or join form."""
    view = service.overview(record)
    editable = record.access == "edit"
    withdraw = WithdrawForm(version=record.version)
    gone = {w["player"] for w in record.withdrawals}
    withdraw.player.choices = choices((p, p) for p in record.roster if p not in gone)
    return render_template(
        "tournament/show.html",
        t=record,
        view=view,
        editable=editable,
        mode="t" if editable else "tv",
        token=record.edit_token if editable else record.view_token,
        seat_form=seat_form or SeatForm(version=record.version),
        close_form=CloseForm(version=record.version),
        unseat_form=UnseatForm(version=record.version),
        reopen_form=ReopenForm(version=record.version),
        join_form=join_form or JoinForm(version=record.version),
        withdraw_form=withdraw,
        revoke_form=RevokeForm(),
        link_form=LinkForm(),
        board_url=url_for("tournament.board", mode="tv", token=record.view_token, _external=True),
        view_url=url_for("tournament.show", mode="tv", token=record.view_token, _external=True),
        state=service.tournaments(get_store()).version_of(record.view_token),
        edit_url=(
            url_for("tournament.show", mode="t", token=record.edit_token, _external=True)
            if editable
            else ""
        ),
    )


@bp.route(TOURNAMENT + "/board")
def board(mode: str, token: str) -> str | Response:
    """The board for a projector or a TV: standings and every table's progress, no
    controls, refreshed by itself (the follower's script swaps in the new page).

    Every screen showing the board asks for the same page after each saved deal: it is
    drawn once per state of the tournament, language and address (it carries no form and
    nothing of the request), and kept.
    """
    tournaments = service.tournaments(get_store())
    state = tournaments.version_of(token)
    if mode == "t":
        record = tournaments.get(token)
        return redirect(url_for("tournament.board", mode="tv", token=record.view_token))
    key = (token, state, get_locale(), request.host_url)
    page = _BOARDS.get(key)
    if page is None:
        record = tournaments.get(token)
        if record.access == "edit":
            return redirect(url_for("tournament.board", mode="tv", token=record.view_token))
        page = render_template(
            "tournament/board.html", t=record, view=service.overview(record), state=state
        )
        _BOARDS.put(key, page)
    return page


_BOARDS: Kept[tuple[str, ...], str] = Kept(32)
"""Boards drawn lately, by view token, state, language and address."""


@bp.route(TOURNAMENT + "/version")
def version(mode: str, token: str) -> Response:
    """The tournament's state with its tables', for a tool that asks (its pages hold their
    request instead: longpoll.py's `/tv/<token>/wait`)."""
    state = service.tournaments(get_store()).version_of(token)
    response = Response(json.dumps({"version": state}), mimetype="application/json")
    response.set_etag(state)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


# -- the director's writes -----------------------------------------------------------------


def _write(token: str, anchor: str, call: object) -> Response:
    """Run one service write; a refused one comes back as a message on the page."""
    try:
        call()  # type: ignore[operator]
    except TournamentRefused as error:
        flash_said(errors.refusal(error))
    except VersionConflict:
        flash_said(CHANGED)
    return back(token, anchor)


@bp.route("/t/<tok:token>/seat", methods=["POST"])
def seat(token: str) -> Response | tuple[str, int]:
    record = edit_tournament(token)
    form = SeatForm()
    if not form.validate_on_submit():
        if form.seating.errors:
            return _page(record, form), 400
        flash_said(CHANGED)
        return back(token)

    def table_name(tour: int, table: int) -> str:
        return table_names.table_name(words(), record.name, tour, table)

    try:
        service.seat(
            get_store(),
            token,
            int(form.base_version.data),
            table_name=table_name,
            typed=form.typed(),
        )
    except TypedSeating as typed:
        form.seating.errors = [_typed_problem(c, p) for c, p in typed.problems]
        return _page(record, form), 400
    except TournamentRefused as error:
        flash_said(errors.refusal(error))
        return back(token)
    except VersionConflict:
        flash_said(CHANGED)
        return back(token)
    seated = record.tours_seated + 1
    flash_said(N_("Tour %(n)s is seated: each table scans its scorer code."), n=seated)
    return back(token, "#tables")


def _typed_problem(code: str, params: dict[str, str]) -> str:
    """What is wrong with a typed seating, in words."""
    if code == "not_on_roster":
        return _("%(name)s is not on the roster", **params)
    if code == "twice":
        return _("%(name)s sits at two tables", **params)
    if code == "missing":
        return _("%(name)s sits at no table", **params)
    return _("The tables must seat %(sizes)s players, in this order", **params)


@bp.route("/t/<tok:token>/close", methods=["POST"])
def close(token: str) -> Response:
    record = edit_tournament(token)
    form = CloseForm()
    if not form.validate_on_submit():
        flash_said(CHANGED)
        return back(token)

    def call() -> None:
        service.close_tour(get_store(), token, int(form.base_version.data), early=form.early.data)
        flash_said(N_("Tour %(n)s is closed."), n=record.tours_seated)

    return _write(token, "#standings", call)


@bp.route("/t/<tok:token>/unseat", methods=["POST"])
def unseat(token: str) -> Response:
    record = edit_tournament(token)
    form = UnseatForm()
    if not form.validate_on_submit():
        flash_said(CHANGED)
        return back(token)
    if not form.confirm.data:
        flash_said(N_("Tick the box to undo the seating."))
        return back(token, "#tour")

    def call() -> None:
        service.unseat(get_store(), token, int(form.base_version.data))
        flash_said(N_("The seating of tour %(n)s is undone: seat it again."), n=record.tours_seated)

    return _write(token, "#tour", call)


@bp.route("/t/<tok:token>/reopen", methods=["POST"])
def reopen(token: str) -> Response:
    record = edit_tournament(token)
    form = ReopenForm()
    if not form.validate_on_submit():
        flash_said(CHANGED)
        return back(token)
    if not form.confirm.data:
        flash_said(N_("Tick the box to reopen the tour."))
        return back(token, "#tour")

    def call() -> None:
        service.reopen(get_store(), token, int(form.base_version.data))
        flash_said(N_("Tour %(n)s is open again: its tables can score."), n=record.tours_closed)

    return _write(token, "#tables", call)


@bp.route("/t/<tok:token>/join", methods=["POST"])
def join(token: str) -> Response | tuple[str, int]:
    record = edit_tournament(token)
    form = JoinForm()
    if not form.validate_on_submit():
        flash_said(CHANGED)
        return back(token)
    name = form.clean()
    if name is None:
        return _page(record, join_form=form), 400
    try:
        service.join(get_store(), token, int(form.base_version.data), name)
    except OnRoster:
        form.name.errors = [_("%(name)s is on the roster already", name=name)]
        return _page(record, join_form=form), 400
    except TournamentRefused as error:
        flash_said(errors.refusal(error))
        return back(token, "#players")
    except VersionConflict:
        flash_said(CHANGED)
        return back(token, "#players")
    flash_said(N_("%(name)s joins the tournament."), name=name)
    return back(token, "#players")


@bp.route("/t/<tok:token>/withdraw", methods=["POST"])
def withdraw(token: str) -> Response:
    edit_tournament(token)
    form = WithdrawForm()
    if not form.validate_on_submit():
        flash_said(CHANGED)
        return back(token)
    player = form.player.data or ""

    def call() -> None:
        service.withdraw(get_store(), token, int(form.base_version.data), player)
        flash_said(N_("%(name)s has left the tournament."), name=player)

    return _write(token, "#players", call)


@bp.route("/t/<tok:token>/tables/<int:game_id>/revoke", methods=["GET", "POST"])
def revoke(token: str, game_id: int) -> str | Response:
    """A new scorer link for one table, asked first (GET: the question; POST: done)."""
    record = edit_tournament(token)
    if request.method == "GET":
        table = next((t for t in record.tables if t.game.id == game_id), None)
        if table is None:
            abort(404)
        return render_template(
            "tournament/revoke.html", t=record, table=table, revoke_form=RevokeForm()
        )
    if not RevokeForm().validate_on_submit():
        return back(token, "#tables")

    def call() -> None:
        service.revoke_table(get_store(), token, game_id)
        flash_said(N_("The table has a new scorer link: the old one no longer opens it."))

    return _write(token, "#tables", call)


@bp.route("/t/<tok:token>/links", methods=["POST"])
def links(token: str) -> Response:
    edit_tournament(token)
    form = LinkForm()
    if not form.validate_on_submit():
        return back(token, "#links")
    record = service.replace_link(get_store(), token, form.which.data or "view")
    recent.forget(token, KEY)
    recent.remember(record.edit_token, KEY, LIMIT)
    if form.which.data == "edit":
        flash_said(N_("This page has a new address: the old edit link no longer opens it."))
    else:
        flash_said(N_("New read-only and board links: the old ones no longer open the tournament."))
    return back(record.edit_token, "#links")


# -- files ---------------------------------------------------------------------------------


def _file_name(record: TournamentRecord, ext: str) -> str:
    slug = _SLUG.sub("-", record.name).strip("-")[:60] or "tournament"
    return f"{slug}.{ext}"


def _attachment(data: bytes, mimetype: str, name: str) -> Response:
    response = send_file(
        io.BytesIO(data), mimetype=mimetype, as_attachment=True, download_name=name
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.route(TOURNAMENT + "/tournament.json")
def download(mode: str, token: str) -> Response:
    record = open_tournament(mode, token)
    return _attachment(
        service.file_text(record).encode(), "application/json", _file_name(record, "json")
    )


@bp.route(TOURNAMENT + "/standings.csv")
def standings_csv(mode: str, token: str) -> Response:
    record = open_tournament(mode, token)
    header = [
        _("Place"),
        _("Player"),
        _("Tournament points"),
        _("Whists"),
        _("Tours"),
        _("Table wins"),
    ]
    data = service.standings_csv(service.overview(record), get_locale(), header)
    return _attachment(data, "text/csv", _file_name(record, "csv"))


@bp.route(TOURNAMENT + "/tournament.pdf")
def pdf(mode: str, token: str) -> Response:
    record = open_tournament(mode, token)
    html = render_template(
        "tournament/pdf.html", t=record, view=service.overview(record), today=_today()
    )
    return _attachment(
        service.pdf(html, str(TEMPLATES)), "application/pdf", _file_name(record, "pdf")
    )


@bp.route("/tournament/import", methods=["GET", "POST"])
def import_tournament() -> str | Response | tuple[str, int]:
    form = TournamentImportForm()
    problems: list[str] = []
    if form.validate_on_submit():
        raw = form.file.data.read(current_app.config["MAX_CONTENT_LENGTH"] + 1)
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            problems = [_("This is not a tournament file (it is not JSON).")]
        except RecursionError:  # as games and companies: a 400 with the reason
            problems = tfile.NESTED_TOO_DEEPLY.problems
        else:
            try:
                tfile.refuse_twice(raw)  # a key written twice: refused, not the last one kept
                record = service.import_file(get_store(), data)
            except RecursionError:
                problems = tfile.NESTED_TOO_DEEPLY.problems
            except tfile.InvalidTournament as bad:
                # In the page's language, as the command line says them.
                problems = [ttext.problem(words(), at) for at in bad.located]
            except StoreError:
                problems = [_("This tournament file could not be opened.")]
            else:
                recent.remember(record.edit_token, KEY, LIMIT)
                flash_said(N_("The tournament file was opened as a new tournament."))
                return back(record.edit_token)
    status = 400 if request.method == "POST" else 200
    return render_template(
        "tournament/import.html",
        form=form,
        problems=problems,
        need_password=bool(current_app.config.get("PASSWORD")),
    ), status


# -- hooks for the other pages --------------------------------------------------------------


@bp.route("/tournament/of/<tok:token>")
def of_game(token: str) -> Response:
    """From a table's game (by its read-only token) to its tournament's read-only page, as
    the tournament's links are now (the game page's link is kept with the game's state)."""
    found = service.tournament_of_game(get_store(), token)
    if found is None:
        abort(404)
    return redirect(url_for("tournament.show", mode="tv", token=found))


@bp.app_template_filter("progress")
def progress(table: service.TableView) -> str:
    """A table's progress as its own game page says it: "round 2 of 2, deal 3 of 4", or
    finished."""
    if table.early:
        return pgettext("table", "closed early")
    if table.finished:
        return pgettext("table", "finished")
    per_round = max(len(table.players), 1)
    at = min(table.deals, max(table.planned - 1, 0))  # the deal being played, from 0
    rounds = max(table.planned // per_round, 1)
    round_ = _("Round %(round)s of %(rounds)s", round=at // per_round + 1, rounds=rounds)
    deal = _("deal %(deal)s of %(deals)s", deal=at % per_round + 1, deals=per_round)
    return f"{round_}, {deal}"


@bp.app_template_filter("bands_rule")
def bands_rule(bands: list[list[object]]) -> str:
    """A tournament's bands in words, as the text report prints them: "up to 200: × 1; …"."""
    parsed = [(None if u is None else Fraction(str(u)), Fraction(str(f))) for u, f in bands]
    return bands_text(words(), parsed)


@bp.app_template_filter("decimal")
def decimal(value: Fraction) -> str:
    """A number of the board in decimals, rounded to hundredths ("−164.63", "+210"), signed:
    read from across a room (the exact values are on the director's page and in the file)."""
    rounded = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )
    text = format_decimal(abs(rounded), format="#,##0.##")
    return ("−" if rounded < 0 else "+" if rounded > 0 else "") + text


@bp.app_template_filter("frac")
def frac(value: object) -> Fraction:
    """A number of the tournament report ("210", "65/2") as an exact Fraction."""
    return Fraction(str(value))


@bp.context_processor
def _words() -> dict[str, object]:
    """The page's words, looked up once a page (the standings sign many numbers)."""
    return {"w": words()}
