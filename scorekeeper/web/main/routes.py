"""Home page, new game and opening a game file."""

from __future__ import annotations

from flask import current_app, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import _
from werkzeug.wrappers import Response

from scorekeeper import gamefile, present
from scorekeeper.rules import CONVENTIONS, InvalidGame, resolve_options

from .. import recent
from ..gamedata import create_from_game
from ..storage import get_store
from ..widgets import choices
from . import bp
from . import options as opts
from .forms import ImportForm, NewGameBase, NewGameForm


@bp.route("/")
def home() -> str:
    games = get_store().games_for_tokens(recent.known())
    return render_template(
        "home.html", games=games, import_form=ImportForm(), need_password=_need_password()
    )


@bp.route("/new", methods=["GET", "POST"])
def new_game() -> str | Response:
    form = NewGameForm()
    if request.method == "GET":
        last = _last_known_settings()
        form.fill_preset("sochi")
        if last:
            form.fill(last)
        form.default_name()
    errors: list[str] = []
    if form.is_submitted() and all([form.validate(), form.check_players()]):
        overrides, bad = form.overrides()
        for field, message in bad.items():
            form[field].errors = [message]
        convention = form.convention.data
        options, problems = resolve_options(convention, overrides)
        for problem in problems:
            field = (problem.field or "").replace("options.", "opt_", 1)
            if field in form:
                form[field].errors = [*form[field].errors, present.problem_text(problem)]
            else:
                errors.append(present.problem_text(problem))
        if not bad and not problems:
            form.default_name()
            record = get_store().create_game(
                name=form.name.data.strip(),
                convention=convention,
                options=options.to_json(),
                players=form.players(),
                first_dealer=form.first_dealer_name(),
            )
            recent.remember(record.edit_token)
            return redirect(url_for("games.show", mode="g", token=record.edit_token))
    _dealer_choices(form)
    presets = {c: opts.preset_values(c) for c in CONVENTIONS}
    return render_template(
        "new_game.html",
        form=form,
        errors=errors,
        main_specs=opts.MAIN,
        house_specs=opts.HOUSE,
        presets=presets,
        need_password=_need_password(),
    )


@bp.route("/import", methods=["GET", "POST"])
def import_game() -> str | Response | tuple[str, int]:
    form = ImportForm()
    problems: list[str] = []
    if form.validate_on_submit():
        data = form.file.data.read(current_app.config["MAX_CONTENT_LENGTH"] + 1)
        try:
            game = gamefile.loads(data)
        except InvalidGame as invalid:
            problems = [present.problem_text(p) for p in invalid.problems]
        else:
            record = create_from_game(get_store(), game)
            recent.remember(record.edit_token)
            flash(_("The game file was opened as a new game."))
            return redirect(url_for("games.show", mode="g", token=record.edit_token))
    status = 400 if request.method == "POST" else 200
    return render_template(
        "import.html", form=form, problems=problems, need_password=_need_password()
    ), status


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


def _last_known_settings() -> dict[str, object] | None:
    """Players, convention, options and first dealer of a game this browser knows: a fresh
    phone is never shown another table's players (a company's evening has its own form)."""
    games = get_store().games_for_tokens(recent.known()[:5])
    if not games:
        return None
    game = games[0]
    return {
        "players": game.players,
        "convention": game.convention,
        "options": game.options,
        "first_dealer": game.first_dealer,
    }


def _need_password() -> bool:
    return bool(current_app.config.get("PASSWORD"))


def _dealer_choices(form: NewGameBase) -> None:
    form.first_dealer.choices = choices(
        (str(i), (f.data or "").strip() or _("Seat %(n)s", n=i + 1))
        for i, f in enumerate(form.player_fields())
    )
