"""A company's pages: create, show (edit / read-only), roster, evenings, payments, files."""

from __future__ import annotations

import dataclasses
import datetime
import io
from typing import Any

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
from flask_babel import _
from markupsafe import Markup
from werkzeug.wrappers import Response

from scorekeeper import club
from scorekeeper.balkan import PRESET_LABELS
from scorekeeper.company import file as company_file
from scorekeeper.company import writes as company_writes
from scorekeeper.company.table import PERIODS, Overview, overview
from scorekeeper.company.writes import evening_convention
from scorekeeper.csvout import csv_bytes
from scorekeeper.games.family import BALKAN, family_named
from scorekeeper.render.chart import standings_chart
from scorekeeper.rules import CONVENTIONS
from scorekeeper.rules.problems import N_
from scorekeeper.rules.text import escaped
from scorekeeper.store.companies import Companies, CompanyRecord

from .. import belongs, errors, families, flashes, recent
from .. import options as opts
from ..extensions import csrf
from ..flashes import flash_said
from ..gameforms import NewGameBase
from ..i18n import words
from ..storage import get_store
from ..widgets import choices, read_upload
from .forms import (
    AttachForm,
    CompanyForm,
    CompanyImportForm,
    DeletePaymentForm,
    EveningForm,
    PaymentForm,
    PlayerForm,
    RulesForm,
    clean_name,
    table_today,
)

bp = Blueprint("company", __name__.rsplit(".", 1)[0])

KEY = belongs.COMPANIES
LIMIT = 12  # companies kept in this browser's cookie, beside its games
COMPANY = "/<any(c, cv):mode>/<tok:token>"


def companies() -> Companies:
    """The company store of this request."""
    return Companies(get_store())


def open_company(mode: str, token: str) -> CompanyRecord:
    """The company for a page: /c/ with the edit token, /cv/ always read-only.

    A view token under /c/ is redirected to /cv/ (the request ends here, with the redirect).
    """
    company = companies().get(token)
    if mode == "c" and company.access != "edit":
        args = request.view_args or {}
        abort(redirect(url_for(request.endpoint or "company.show", **{**args, "mode": "cv"})))
    if mode == "cv" and company.access == "edit":
        company = companies().get(company.view_token)
    recent.remember(token, KEY, LIMIT)
    return shown_escaped(company)


def shown_escaped(company: CompanyRecord) -> CompanyRecord:
    """The company as its pages, file and CSV show it: a name stored by an older release with
    a character no name may hold now (an invisible mark, a NUL) has it written as its escape
    ("Fri\\u200eday"), as a game's name has (games.load)."""
    evenings = [
        dataclasses.replace(e, game=dataclasses.replace(e.game, name=escaped(e.game.name)))
        if escaped(e.game.name) != e.game.name
        else e
        for e in company.games
    ]
    return dataclasses.replace(company, name=escaped(company.name), games=evenings)


def edit_company(token: str) -> CompanyRecord:
    """The company for a write: 403 unless opened with its edit token."""
    company = companies().get(token)
    if company.access != "edit":
        abort(403)
    return company


def back(token: str, anchor: str = "") -> Response:
    """Back to the company's edit page (post/redirect/get)."""
    return redirect(url_for("company.show", mode="c", token=token) + anchor)


def _options_context(shown: dict[str, str] | None = None) -> dict[str, object]:
    """The house rules' fields: both families' (shown: a kept company's family fields)."""
    return {
        "main_specs": opts.MAIN,
        "house_specs": opts.HOUSE,
        "need_password": bool(current_app.config.get("PASSWORD")),
        **families.fields_context(shown),
    }


def _valid(form: NewGameBase) -> bool:
    """The form is valid; for a Balkan company the Russian options (not shown) are not read."""
    if form.validate():
        return True
    russian = {spec.field for spec in opts.ALL} | {"convention", "rendered_preset"}
    balkan = request.form.get("family") == BALKAN
    return balkan and not any(errs for name, errs in form.errors.items() if name not in russian)


def _resolved(
    form: NewGameBase, balkan_errors: dict[str, list[str]]
) -> tuple[str, dict[str, object]] | None:
    """The convention and house rules the form chose, resolved by their family (a Balkan
    preset and options, or a Russian convention); or None with the errors next to the fields."""
    family, convention = families.chosen(form.convention.data)
    if family == BALKAN:
        balkan, problems = family_named(BALKAN).resolve_options(
            convention, families.balkan_overrides()
        )
        balkan_errors.update(families.balkan_errors(problems))
        return None if problems else (convention, balkan)
    house = form.house_rules(convention)
    return None if house is None else (convention, house)


# -- creating and opening ------------------------------------------------------------------


@bp.route("/company/new", methods=["GET", "POST"])
def new() -> str | Response | tuple[str, int]:
    form = CompanyForm()
    balkan_errors: dict[str, list[str]] = {}
    if request.method == "GET":
        form.fill_preset("sochi")
    if form.is_submitted() and all([_valid(form), form.check_roster()]):
        resolved = _resolved(form, balkan_errors)
        if resolved is not None:
            name = clean_name(form.name.data) or _("Our table")
            record = club.started(  # started from a club's page: the club's
                get_store(),
                request.args.get("club", ""),
                "company",
                lambda: company_writes.create(
                    get_store(),
                    name=name,
                    convention=resolved[0],
                    options=resolved[1],
                    roster=form.roster_names(),
                ),
            )
            recent.remember(record.edit_token, KEY, LIMIT)
            return back(record.edit_token)
    page = render_template(
        "company/new.html", form=form, balkan_errors=balkan_errors, **_options_context()
    )
    return (page, 422) if request.method == "POST" else page


@bp.route(COMPANY)
def show(mode: str, token: str) -> str | Response:
    company = open_company(mode, token)
    period = request.args.get("period", "all")
    return _page(company, period if period in PERIODS else "all")


def _page(company: CompanyRecord, period: str = "all", **refused: object) -> str:
    """The company's page; after a refused form (`refused`: that form with what was typed
    and its errors, e.g. payment_form=...) the form is shown again with its errors."""
    view = overview(company, period, datetime.date.today())
    editable = company.access == "edit"
    last = company.games[-1].players.values() if company.games else ()
    picked = set(last) or {p.id for p in company.roster[:3]}
    forms: dict[str, object] = {
        "payment_form": _payment_form(company, formdata=None),
        "player_form": PlayerForm(formdata=None),
        "attach_form": AttachForm(formdata=None),
        "rename_form": None,  # with the renamed player's id as rename_id
        "rename_id": None,
    }
    return render_template(
        "company/show.html",
        company=company,
        view=view,
        editable=editable,
        token=company.edit_token if editable else company.view_token,
        mode="c" if editable else "cv",
        picked=picked,
        chart=(
            Markup(standings_chart(_played(view), view.running, words())) if view.evenings else ""
        ),
        currency=company.options.get("currency", ""),
        preset=PRESET_LABELS.get(company.convention, company.convention),
        pay_forms=_pay_forms(company, view),
        delete_form=DeletePaymentForm(version=0),
        view_url=url_for("company.show", mode="cv", token=company.view_token, _external=True),
        **(forms | refused),
    )


def _refused(company: CompanyRecord, **refused: object) -> tuple[str, int]:
    """A refused company form (422): the page again, the form with what was typed and its
    errors next to the fields; nothing was written."""
    return _page(company, "all", **refused), 422


def _played(view: Overview) -> dict[str, str]:
    """Roster id → name of the players who played in the period (the chart's lines)."""
    played = {pid for _, e in view.evenings for pid in e.players}
    return {pid: name for pid, name in view.names.items() if pid in played}


def _payment_form(company: CompanyRecord, **kwargs: Any) -> PaymentForm:
    form = PaymentForm(version=0, **kwargs)
    form.payer.choices = choices((str(p.id), p.name) for p in company.roster)
    form.payee.choices = choices((str(p.id), p.name) for p in company.roster)
    if form.paid_on.data is None:
        form.paid_on.data = table_today()
    return form


def _pay_forms(company: CompanyRecord, view: Overview) -> list[PaymentForm]:
    """A ready "paid" form for each of the fewest payments now (one tap records it)."""
    forms = []
    for pay in view.settle_up:
        form = PaymentForm(version=0, formdata=None)
        form.payer.data, form.payee.data = pay.payer, pay.payee
        form.amount.data = str(pay.amount)
        form.paid_on.data = table_today()
        forms.append(form)
    return forms


IMPORT_PATH = "/company/import"
"""Where a company file is opened: its body may be larger than any form's
(scorekeeper.web's BODY_LIMITS)."""


@bp.route(IMPORT_PATH, methods=["GET", "POST"])
@csrf.exempt  # checked by the form itself, after the larger limit below is set: the app's
# CSRF check reads the body before any view runs, with the 2 MB limit of every other form
def import_company() -> str | Response | tuple[str, int]:
    # Every company file the server writes opens here, up to the format's largest.
    request.max_content_length = current_app.config["BODY_LIMITS"][IMPORT_PATH]
    form = CompanyImportForm()
    problems: list[str] = []
    if form.validate_on_submit():
        parsed, problems = read_upload(form, company_file.loads)
        if parsed is not None:
            record = company_file.create(get_store(), parsed)
            recent.remember(record.edit_token, KEY, LIMIT)
            for game in record.games:
                recent.remember(game.game.edit_token)
            flash_said(N_("The company file was opened as a new company."))
            return back(record.edit_token)
    status = 400 if request.method == "POST" else 200
    return render_template(
        "company/import.html", form=form, problems=problems, **_options_context()
    ), status


# -- house rules and roster ----------------------------------------------------------------


@bp.route("/c/<tok:token>/rules", methods=["GET", "POST"])
def rules(token: str) -> str | Response | tuple[str, int]:
    company = edit_company(token)
    form = RulesForm()
    balkan_errors: dict[str, list[str]] = {}
    if request.method == "GET":
        _fill_rules(form, company)
    if form.is_submitted() and _valid(form):
        resolved = _resolved(form, balkan_errors)
        if resolved is not None and _kept(company, form, resolved, balkan_errors):
            flash_said(N_("The house rules are kept: the next evening starts with them."))
            return back(token)
    page = render_template(
        "company/rules.html",
        form=form,
        company=company,
        balkan_errors=balkan_errors,
        **_options_context(families.shown_rules(company.convention, company.options)),
    )
    return (page, 422) if request.method == "POST" else page


def _kept(
    company: CompanyRecord,
    form: NewGameBase,
    resolved: tuple[str, dict[str, object]],
    balkan_errors: dict[str, list[str]],
) -> bool:
    """Keep the new rules; or, refused (a company with evenings keeps its family), say why
    next to the family's field."""
    try:
        company_writes.update_rules(
            get_store(),
            company,
            name=clean_name(form.name.data) or company.name,
            convention=resolved[0],
            options=resolved[1],
        )
    except company_writes.FamilyKept as kept:
        balkan_errors["family"] = [errors.said_company(kept)]
        return False
    return True


def _fill_rules(form: NewGameBase, company: CompanyRecord) -> None:
    """The rules form as the company keeps them (a Balkan company's in its own fields)."""
    form.name.data = company.name
    russian = company.convention in CONVENTIONS
    form.fill_preset(company.convention if russian else "sochi")
    form.convention.data = company.convention if russian else "sochi"
    for spec in opts.ALL:
        if russian and spec.name in company.options:
            form[spec.field].data = opts.to_form(spec, company.options[spec.name])


@bp.route("/c/<tok:token>/players", methods=["POST"])
def add_player(token: str) -> Response | tuple[str, int]:
    company = edit_company(token)
    form = PlayerForm()
    if form.validate_on_submit():
        try:
            company_writes.add_player(get_store(), company, clean_name(form.name.data))
        except company_writes.NameTaken as taken:
            form.name.errors = [errors.said_company(taken)]
        else:
            return back(token, "#roster")
    return _refused(company, player_form=form)


@bp.route("/c/<tok:token>/players/<int:player_id>", methods=["POST"])
def rename_player(token: str, player_id: int) -> Response | tuple[str, int]:
    company = edit_company(token)
    form = PlayerForm()
    company.player(player_id)  # 404 for a player not on the roster
    if form.validate_on_submit():
        name = clean_name(form.name.data)
        try:
            company_writes.rename_player(get_store(), company, player_id, name)
        except company_writes.NameTaken as taken:
            form.name.errors = [errors.said_company(taken)]
        else:
            return back(token, "#roster")
    return _refused(company, rename_form=form, rename_id=player_id)


# -- evenings ------------------------------------------------------------------------------


@bp.route("/c/<tok:token>/evening", methods=["GET", "POST"])
def evening(token: str) -> str | Response | tuple[str, int]:
    """Start an evening from the company: the players picked, seats and first dealer drawn
    (or chosen), the game filled in from this company's house rules."""
    company = edit_company(token)
    roster = {str(p.id): p.name for p in company.roster}
    form = EveningForm(version=0)
    if request.method == "GET":
        try:
            seats, dealer = company_writes.draw_evening(company, request.args.getlist("player"))
        except company_writes.PlayersToPick as refused:
            flash_said(errors.company_refusal(refused))
            return back(token, "#evening")
        form.first_dealer.data = str(dealer)
        form.played_on.data = table_today()
        form.name.data = words().date(form.played_on.data)
    else:
        seats = _sent_seats()
    problems: list[str] = []
    if request.method == "POST" and form.validate_on_submit():
        started = _start_evening(company, form, seats)
        if not isinstance(started, str):
            return started
        problems.append(started)
    form.first_dealer.choices = choices((str(i), roster.get(s, "?")) for i, s in enumerate(seats))
    page = render_template(
        "company/evening.html",
        company=company,
        form=form,
        seats=seats,
        roster=roster,
        problems=problems,
        redraw=url_for("company.evening", token=token, player=seats),
        hussar=evening_convention(company.convention, len(seats)) == "hussar",
        preset=PRESET_LABELS.get(company.convention, company.convention),
        today_iso=table_today().isoformat(),
    )
    return (page, 422) if request.method == "POST" else page


def _sent_seats() -> list[str]:
    """The evening's seats as its form sent them (seat_0, seat_1, …), the empty ones left out."""
    sent = sum(1 for name in request.form if name.startswith("seat_"))
    return [s for s in (request.form.get(f"seat_{i}", "") for i in range(sent)) if s]


def _start_evening(company: CompanyRecord, form: EveningForm, seats: list[str]) -> Response | str:
    """Start the evening the form describes: the way to its new game, or why the company
    refused it, in the reader's words."""
    day = form.played_on.data or table_today()
    try:
        record = company_writes.start_evening_at(
            get_store(),
            company,
            seats=seats,
            first_dealer=form.first_dealer.data or "",
            name=clean_name(form.name.data) or words().date(day),
            request_key=form.request_key.data,
            played_on=day,
        )
    except company_writes.CompanyRefused as refused:
        return errors.said_company(refused)
    recent.remember(record.edit_token)
    return redirect(url_for("games.show", mode="g", token=record.edit_token))


@bp.route("/c/<tok:token>/attach", methods=["POST"])
def attach(token: str) -> Response | tuple[str, int]:
    """Attach a game by its edit link; its names join the roster players of the same name,
    or become new players."""
    company = edit_company(token)
    form = AttachForm()

    if not form.validate_on_submit():
        return _refused(company, attach_form=form)
    try:
        game = company_writes.attach_link(
            get_store(), company, form.link.data or "", played_on=form.played_on.data
        )
    except company_writes.CompanyRefused as refused:
        form.link.errors = [*form.link.errors, errors.said_company(refused)]
        return _refused(company, attach_form=form)
    recent.remember(game.edit_token)
    flash_said(
        N_("The game %(name)s is now an evening of the company."),
        name=game.name or flashes.said(N_("Game")),
    )
    return back(token)


# -- money ---------------------------------------------------------------------------------


@bp.route("/c/<tok:token>/pay", methods=["POST"])
def pay(token: str) -> Response | tuple[str, int]:
    company = edit_company(token)
    form = _payment_form(company)
    amount = form.money() if form.validate_on_submit() else None
    said = {
        "players": _("Choose two players of the company"),
        "same": _("The payer and the payee must be two different players"),
        "evening": _("The payment names no evening of the company"),
    }
    try:
        company_writes.pay(
            get_store(),
            company,
            payer=form.payer.data,
            payee=form.payee.data,
            evening=form.game.data,
            amount=None if amount is None or any(f.errors for f in form) else str(amount),
            paid_on=form.paid_on.data,
            request_key=form.request_key.data,
        )
    except company_writes.PaymentRefused as refused:
        for name, why in refused.problems.items():
            form[name].errors = [*form[name].errors, said[why]]
        return _refused(company, payment_form=form)
    flash_said(N_("Payment recorded."))
    return back(token, "#balance")


@bp.route("/c/<tok:token>/payments/<int:payment_id>/delete", methods=["POST"])
def delete_payment(token: str, payment_id: int) -> Response:
    company = edit_company(token)
    if DeletePaymentForm().validate_on_submit():
        company_writes.delete_payment(get_store(), company, payment_id)
        flash_said(N_("The payment was taken back."))
    return back(token, "#balance")


# -- files ---------------------------------------------------------------------------------


@bp.route(COMPANY + "/company.json")
def download(mode: str, token: str) -> Response:
    company = open_company(mode, token)
    data = company_file.dumps(company).encode()
    response = send_file(
        io.BytesIO(data),
        mimetype="application/json",
        as_attachment=True,
        download_name="company.json",
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.route(COMPANY + "/standings.csv")
def standings_csv(mode: str, token: str) -> Response:
    company = open_company(mode, token)
    period = request.args.get("period", "all")
    view = overview(company, period if period in PERIODS else "all", datetime.date.today())
    # The header in the reader's words, as the tournament's CSV has it.
    # A Balkan company's results as its evenings show them (lower is better, by its rules).
    balkan = view.family == BALKAN
    result, average = (
        (_("Result"), _("Average result an evening"))
        if balkan
        else (_("Net whists"), _("Average whists an evening"))
    )
    header = [_("Player"), _("Evenings"), _("Wins"), result, _("Money")]
    rows: list[list[object]] = [[*header, average, _("Average money an evening")]]
    for row in view.standings:
        rows.append(
            [
                view.names.get(row.player, row.player),
                row.evenings,
                row.wins,
                row.net * view.sign,
                row.money,
                row.average * view.sign,
                row.average_money,
            ]
        )
    data = csv_bytes(rows, words().locale)
    response = send_file(
        io.BytesIO(data),
        mimetype="text/csv",
        as_attachment=True,
        download_name=f"standings-{view.period}.csv",
    )
    response.headers["Cache-Control"] = "no-cache"
    return response
