"""Home page, new game and opening a game file."""

from __future__ import annotations

import datetime
from typing import Any

from flask import (
    Blueprint,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import _
from werkzeug.wrappers import Response

from scorekeeper import club, gamefile_balkan
from scorekeeper.games import create_from_game, paper, writes
from scorekeeper.games.family import BALKAN
from scorekeeper.rules import CONVENTIONS
from scorekeeper.rules.problems import N_
from scorekeeper.store import GameNotFound, StoreError
from scorekeeper.version import __version__

from .. import belongs, families, recent
from .. import options as opts
from ..context import edit_game, listed
from ..flashes import flash_said
from ..gameforms import NewGameBase
from ..i18n import words
from ..problems import put_on_form
from ..storage import check_health, get_store
from ..widgets import RematchForm, choices, read_upload
from .forms import ForgetForm, ImportForm, NewGameForm, PaperForm, totals_of

bp = Blueprint("main", __name__.rsplit(".", 1)[0])


@bp.route("/")
def home() -> str:
    games = listed(get_store().games_for_tokens(recent.known()))
    return render_template(
        "home.html",
        games=games,
        companies=belongs.known_companies(),
        tournaments=belongs.known_tournaments(),
        import_form=ImportForm(),
        need_password=_need_password(),
    )


@bp.route("/new", methods=["GET", "POST"])
def new_game() -> str | Response | tuple[str, int, dict[str, str]]:
    form = NewGameForm()
    filled_from_last = False
    if request.method == "GET":
        form.fill_preset("sochi")
        last = _this_browsers_last_game()
        if last:
            form.fill(last)
            filled_from_last = True
        form.default_name()
    errors: list[str] = []
    balkan_errors: dict[str, list[str]] = {}
    chosen = opts.house_set(request.form.get("house_set")) if request.method == "POST" else None
    if chosen is not None:
        # A one-tap house-rule set: show its values, keep the names; nothing is created yet.
        form.fill_house_set(chosen)
    elif form.is_submitted():
        made = _create_game(form, errors, balkan_errors)
        if made is not None:
            return made
    page = _new_game_page(form, errors, balkan_errors, filled_from_last)
    if form.wait:
        return page, 429, {"Retry-After": str(form.wait)}
    if request.method == "POST" and chosen is None:
        return page, 422, {}  # refused: the messages are next to their fields
    return page


def _create_game(
    form: NewGameBase, errors: list[str], balkan_errors: dict[str, list[str]]
) -> Response | None:
    """Create the game the form describes and go to its page; or put each refusal next to
    its field (into the form, `errors` and `balkan_errors`) and return None."""
    valid = form.validate()
    overrides, bad = form.overrides() if valid else ({}, {})
    name = form.name.data.strip() if form.name.data else words().date(datetime.date.today())
    family, convention = families.chosen(form.convention.data)
    if family == BALKAN:  # its own presets and options; the Russian ones are not read
        overrides, bad, valid = families.balkan_overrides(), {}, True
    try:
        record = club.started(  # started from a club's page: the club's
            get_store(),
            request.args.get("club", ""),
            "game",
            lambda: writes.new_game(
                get_store(),
                name=name,
                convention=convention,
                family=family,
                overrides=overrides if valid else None,
                ready=not bad,
                seats=[field.data or "" for field in form.player_fields()],
                first_dealer=form.first_dealer.data or "",
            ),
        )
    except writes.NotSeated as refused:
        errors += put_on_form(form, refused.problems, _seat_field)
    except writes.NotCreated as refused:
        for field, message in bad.items():
            form[field].errors = [message]
        if family == BALKAN:
            balkan_errors.update(families.balkan_errors(refused.problems))
        else:
            errors += put_on_form(form, refused.problems)
    else:
        recent.remember(record.edit_token)
        return redirect(url_for("games.show", mode="g", token=record.edit_token))
    return None


def _new_game_page(
    form: NewGameBase,
    errors: list[str],
    balkan_errors: dict[str, list[str]],
    filled_from_last: bool,
) -> str:
    """The new-game page with the form as filled, both families' presets and options."""
    _dealer_choices(form)
    presets = {c: opts.preset_values(c) for c in CONVENTIONS}
    return render_template(
        "new_game.html",
        form=form,
        errors=errors,
        main_specs=opts.MAIN,
        house_specs=opts.HOUSE,
        house_sets=opts.HOUSE_SETS,
        presets=presets,
        need_password=_need_password(),
        filled_from_last=filled_from_last,
        not_for=opts.NOT_FOR,
        labels={spec.field: str(spec.label) for spec in opts.ALL},
        balkan_errors=balkan_errors,
        **families.fields_context(),
    )


@bp.route("/paper", methods=["GET", "POST"])
def paper_totals() -> str | Response | tuple[str, int]:
    """The paper's totals settled (games.paper): each player's pool, hill and whists as the
    paper has them, settled as a game is; written nowhere unless saved as a game."""
    form = PaperForm()
    if request.method == "GET":
        form.fill_preset("sochi")
        form.default_name()
    errors: list[str] = []
    result = None
    if form.is_submitted():
        try:
            game = _paper_game(form)
        except writes.NotCreated as refused:
            errors += put_on_form(form, refused.problems, _seat_field)
        else:
            if request.form.get("action") == "save":
                record = create_from_game(get_store(), game)
                recent.remember(record.edit_token)
                return redirect(url_for("games.show", mode="g", token=record.edit_token))
            result = (game, paper.settled(game))
    page = render_template(
        "paper.html",
        form=form,
        errors=errors,
        settled=result,
        main_specs=opts.MAIN,
        house_specs=opts.HOUSE,
        presets={c: opts.preset_values(c) for c in CONVENTIONS},
        not_for=opts.NOT_FOR,
        seats=range(len(form.player_fields())),
    )
    return (page, 422) if errors or form.errors else page


def _paper_game(form: Any) -> Any:
    """The form's totals as a game (games.paper.totals_game); the house rules that cannot be
    read said at their fields."""
    valid = form.validate()
    overrides, bad = form.overrides() if valid else ({}, {})
    for field, message in bad.items():
        form[field].errors = [message]
    return paper.totals_game(
        name=form.name.data or words().date(datetime.date.today()),
        reason=_("The paper's totals"),
        convention=form.convention.data or "sochi",
        overrides=overrides if valid and not bad else None,
        seats=[field.data or "" for field in form.player_fields()],
        totals=totals_of(form),
    )


def _this_browsers_last_game() -> dict[str, Any] | None:
    """Players, convention, options and first dealer of the last game this browser knows
    (from its own cookie): never another table's game."""
    store = get_store()
    for token in recent.known():
        try:
            record = store.get_game(token)
        except GameNotFound:
            continue
        if record.access != "edit":
            continue
        return {
            "players": list(record.players),
            "convention": record.convention,
            "options": dict(record.options),
            "first_dealer": record.first_dealer,
        }
    return None


@bp.route("/g/<tok:token>/rematch", methods=["POST"])
def rematch(token: str) -> Response:
    """A new game for the same table: same players and rules, the next player deals first."""
    loaded = edit_game(token)
    form = RematchForm()
    if not form.validate_on_submit():
        return redirect(url_for("games.show", mode="g", token=token))
    fresh = writes.rematch(get_store(), loaded, name=words().date(datetime.date.today()))
    recent.remember(fresh.edit_token)
    flash_said(N_("A new game for the same table: %(name)s deals first."), name=fresh.first_dealer)
    return redirect(url_for("games.show", mode="g", token=fresh.edit_token))


@bp.route("/import", methods=["GET", "POST"])
def import_game() -> str | Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    form = ImportForm()
    problems: list[str] = []
    if form.validate_on_submit():
        game, problems = read_upload(form, gamefile_balkan.loads_any)
        if game is not None:
            record = create_from_game(get_store(), game)
            recent.remember(record.edit_token)
            flash_said(N_("The game file was opened as a new game."))
            return redirect(url_for("games.show", mode="g", token=record.edit_token))
    status = 400 if request.method == "POST" else 200
    page = render_template(
        "import.html", form=form, problems=problems, need_password=_need_password()
    )
    if form.wait:
        return page, 429, {"Retry-After": str(form.wait)}
    return page, status


@bp.route("/forget", methods=["POST"])
def forget() -> Response:
    """Take a game off this phone's home list (the game itself stays, its links too)."""
    form = ForgetForm()
    if form.validate_on_submit():
        recent.forget(form.token.data or "")
        _drop_offline(form.token.data or "")
        flash_said(N_("The game is no longer listed on this phone; its links still work."))
    return redirect(url_for("main.home"))


def _drop_offline(token: str) -> None:
    """The forgotten game's pages leave this phone's offline shell, by both its links."""
    from scorekeeper.store import StoreError

    tokens = [token]
    try:
        record = get_store().get_game(token)
        tokens += [record.edit_token, record.view_token]
    except StoreError:
        pass  # a game gone already: its token alone
    recent.drop_offline(*dict.fromkeys(t for t in tokens if t))


@bp.route("/manifest.webmanifest")
def manifest() -> Response:
    response = jsonify(
        name=_("Preferans score sheet"),
        short_name=_("Pulka"),
        start_url=url_for("main.home"),
        display="standalone",
        background_color="#ffffff",
        theme_color="#1d5c3a",
        icons=[
            {
                "src": url_for("static", filename="icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
            },
            {
                "src": url_for("static", filename="icon-192.png"),
                "sizes": "192x192",
                "type": "image/png",
            },
            {
                "src": url_for("static", filename="icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
            },
        ],
    )
    response.mimetype = "application/manifest+json"
    return response


@bp.route("/healthz")
def healthz() -> tuple[Response, int]:
    """For monitors, balancers and container health checks: 200 when the database answers
    within HEALTH_SECONDS, else 503 with the reason in a few English words for the operator
    (the same path-free words the 503 page shows translated; the details go to the log)."""
    try:
        check_health(current_app.config["DATABASE"])
    except StoreError as error:
        current_app.logger.error("health check: %s", error)
        reason = getattr(error, "reason", "the games database is not available")
        return jsonify(status="unavailable", reason=reason, version=__version__), 503
    return jsonify(status="ok", version=__version__), 200


def _need_password() -> bool:
    return bool(current_app.config.get("PASSWORD"))


def _seat_field(name: str) -> str:
    """The field of a seat ("players.2" is "player_2") or of the first dealer."""
    head, _dot, seat = name.partition(".")
    return f"player_{seat}" if head == "players" else head


def _dealer_choices(form: NewGameBase) -> None:
    form.first_dealer.choices = choices(
        (str(i), (f.data or "").strip() or _("Seat %(n)s", n=i + 1))
        for i, f in enumerate(form.player_fields())
    )
