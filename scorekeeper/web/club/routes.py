"""A club's pages: /k/ the director's (edit link), /kv/ the members' (read-only link), /kp/
the public page (standings and statistics only). Each write is one club service call."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import _, get_locale
from markupsafe import Markup
from werkzeug.wrappers import Response

from scorekeeper import club as service
from scorekeeper.club.season import (
    ALL_TIME,
    Built,
    build,
    companies,
    latest,
    left_out,
    season_file,
    thing_names,
    unattached,
)
from scorekeeper.render.chart import line_chart
from scorekeeper.season.csv import standings_csv, statistics_csv
from scorekeeper.season.rating import N0
from scorekeeper.season.statistics import head_to_head
from scorekeeper.store.clubs import ClubNotFound, ClubRecord, Clubs
from scorekeeper.store.errors import ReadOnlyAccess

from ..errors import error_page
from ..i18n import words
from ..storage import get_store

bp = Blueprint("club", __name__.rsplit(".", 1)[0])

CLUB = "/<any(k, kv):mode>/<tok:token>"
#: The statistics' columns a club page shows, sortable (season.md §3 keys).
COLUMNS = ("games", "evenings", "deals", "net", "net_per_deal", "wins", "plus", "minus")


def open_club(mode: str, token: str) -> ClubRecord:
    """The club for a page: /k/ with the edit token, /kv/ read-only (a view token under /k/
    goes to /kv/; the public token opens neither)."""
    club = Clubs(get_store()).get(token)
    if club.access == "public":
        abort(404)
    if mode == "k" and club.access != "edit":
        abort(redirect(url_for(request.endpoint or "club.show", mode="kv", token=token)))
    return club


def _season_id() -> int | None:
    raw = request.args.get("season", "")
    return int(raw) if raw.isdigit() else None


def _day_arg(name: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(request.args.get(name, ""))
    except ValueError:
        return None


def _statistics(club: ClubRecord, built: Built) -> list[tuple[str, dict[str, Any]]]:
    """The statistics rows for the period (this month, the season shown, all time, or from–to)
    and the scope asked, sorted by the column asked (largest first)."""
    today = datetime.date.today()
    asked = request.args.get("period", "season")
    start: datetime.date | None = built.season.first
    end: datetime.date | None = built.season.last
    if asked != "season":  # every game the club holds, then the period's
        built = build(get_store(), club, ALL_TIME)
        start, end = None, None
        if asked == "month":
            start, end = today.replace(day=1), today
        elif asked == "range":
            start, end = _day_arg("from"), _day_arg("to")
    stats = built.statistics(request.args.get("company") or None, start, end)
    key = request.args.get("sort", "net")
    key = key if key in COLUMNS else "net"
    return sorted(stats.items(), key=lambda item: -_number(item[1][key]))


def _number(value: Any) -> float:
    return float(Fraction(value))


def shown(value: Any) -> str:
    """A statistic as shown in the page's language: whole numbers as they are, others to
    hundredths, both digits written ("−47,33", "0,30" in Russian: its decimal comma and a true
    minus sign), as the season file's text writes them."""
    exact = Fraction(value)
    if exact.denominator == 1:
        return words().amount(exact)
    return words().hundredths(exact)


def rating(value: Any) -> str:
    """A rating as the page's language writes it, both hundredths always ("−102,13",
    "200,00" in Russian), as the season's text writes it."""
    return words().hundredths(Fraction(value))


def column_names() -> dict[str, str]:
    """The statistics' column headers in the reader's language."""
    return {
        "games": _("Games"),
        "evenings": _("Evenings"),
        "deals": _("Deals"),
        "net": _("Points"),
        "net_per_deal": _("Points per deal"),
        "wins": _("Wins"),
        "plus": _("In plus"),
        "minus": _("In minus"),
    }


def sort_href(column: str) -> str:
    """This page sorted by another column (the period and scope kept)."""
    return "?" + urlencode({**request.args.to_dict(), "sort": column})


@bp.context_processor
def _helpers() -> dict[str, Any]:
    return {
        "shown": shown,
        "rating": rating,
        "day": lambda when: words().date(when),
        "column_names": column_names(),
        "sort_href": sort_href,
        "provisional_need": N0 + 1,
    }


def _page(club: ClubRecord, template: str, **more: Any) -> str:
    built = build(get_store(), club, _season_id())
    s = built.season
    out = {"name": s.name, "from": s.first, "to": s.last, "standings": built.standings()}
    scopes = sorted({t.company for t in built.tables if t.company})
    if club.access != "public":
        names = thing_names(get_store(), club)
        more.setdefault("latest", latest(built, names))
        more.setdefault("club_companies", companies(get_store(), club))
    if club.access == "edit":
        more.setdefault("thing_names", names)
        more.setdefault("left_out", left_out(get_store(), club))
        more.setdefault(
            "thing_of_seat", {(t.kind, t.thing_id): names.get(t.id) for t in club.things}
        )
        more.setdefault("unattached", unattached(built))
        more.setdefault("player_names", {p.id: p.name for p in club.players})
    return render_template(
        template,
        club=club,
        built=built,
        report=out,
        stats=_statistics(club, built),
        columns=COLUMNS,
        companies=scopes,
        args=request.args,
        **more,
    )


@bp.app_errorhandler(service.ClubRefused)
def _refused(refused: service.ClubRefused) -> tuple[str, int]:
    """A club write refused outside the club's own forms (a thing started from a full club)."""
    return error_page(400, _("Club"), _(refused.text, **refused.params))


@bp.app_context_processor
def _started_for() -> dict[str, Any]:
    """On the new game, company and tournament pages opened from a club's page (?club=),
    the club the thing will belong to (None when the link is not a club's edit link)."""
    token = request.args.get("club", "")
    if not token or request.blueprint == bp.name:
        return {}
    try:
        club = Clubs(get_store()).get(token)
    except ClubNotFound:
        return {"started_for": None}
    return {"started_for": club if club.access == "edit" else None}


@bp.route("/club/new", methods=["GET", "POST"])
def new() -> str | Response:
    """Start a club: its edit link is the director's page."""
    problem = ""
    if request.method == "POST":
        try:
            club = service.new_club(get_store(), request.form.get("name", ""))
        except service.ClubRefused as refused:
            problem = _(refused.text, **refused.params)
        else:
            return redirect(url_for("club.show", mode="k", token=club.edit_token))
    return render_template("club/new.html", problem=problem)


@bp.route(CLUB)
def show(mode: str, token: str) -> str:
    """The club page; with the edit link, the director's page too."""
    return _page(open_club(mode, token), "club/show.html", problems={})


@bp.route("/kp/<tok:token>")
def public(token: str) -> str:
    """The public page: standings and statistics, nothing else."""
    club = Clubs(get_store()).get(token)
    if club.access != "public":
        abort(404)
    return _page(club, "club/public.html")


def edited(token: str) -> ClubRecord:
    """The club a write is for: only its edit link writes (a read-only or public link gets
    the read-only page, 403)."""
    club = Clubs(get_store()).get(token)
    if club.access != "edit":
        raise ReadOnlyAccess("this link only shows the club")
    return club


def _write(token: str, call: Callable[[], object]) -> str | Response:
    club = edited(token)
    try:
        call()
    except service.ClubRefused as refused:
        problems = {refused.field: _(refused.text, **refused.params)}
        return _page(club, "club/show.html", problems=problems), 400  # type: ignore[return-value]
    return redirect(url_for("club.show", mode="k", token=token) + "#director")


def _int(name: str) -> int:
    raw = request.form.get(name, "")
    if not raw.isdigit():
        abort(400)
    return int(raw)


@bp.route("/k/<tok:token>/attach", methods=["POST"])
def attach(token: str) -> str | Response:
    """Attach a game, company or tournament by its edit link."""
    link = request.form.get("link", "")
    return _write(token, lambda: service.attach_link(get_store(), token, link))


@bp.route("/k/<tok:token>/detach", methods=["POST"])
def detach(token: str) -> str | Response:
    return _write(token, lambda: service.detach(get_store(), token, _int("thing")))


@bp.route("/k/<tok:token>/mark", methods=["POST"])
def mark(token: str) -> str | Response:
    """A thing's friendly mark and date."""
    friendly = request.form.get("friendly") == "1"
    day = request.form.get("played_on", "")
    return _write(token, lambda: service.mark(get_store(), token, _int("thing"), friendly, day))


@bp.route("/k/<tok:token>/player", methods=["POST"])
def add_player(token: str) -> str | Response:
    name = request.form.get("player", "")
    return _write(token, lambda: service.add_player(get_store(), token, name))


@bp.route("/k/<tok:token>/seat", methods=["POST"])
def seat(token: str) -> str | Response:
    """ "This is …": an unattached name of a game is a directory player."""
    kind, thing, name = request.form.get("kind", ""), _int("thing_id"), request.form.get("seat", "")
    if kind not in ("game", "company", "tournament"):
        abort(400)
    return _write(
        token,
        lambda: service.link_seat(get_store(), token, kind, thing, name, _int("player")),  # type: ignore[arg-type]
    )


@bp.route("/k/<tok:token>/merge", methods=["POST"])
def merge(token: str) -> str | Response:
    return _write(
        token, lambda: service.merge(get_store(), token, _int("from_id"), _int("into_id"))
    )


@bp.route("/k/<tok:token>/unmerge", methods=["POST"])
def unmerge(token: str) -> str | Response:
    return _write(token, lambda: service.unmerge(get_store(), token, _int("merge")))


@bp.route("/k/<tok:token>/season", methods=["POST"])
def add_season(token: str) -> str | Response:
    f = request.form
    return _write(
        token,
        lambda: service.add_season(
            get_store(),
            token,
            f.get("season", ""),
            f.get("first", ""),
            f.get("last", ""),
            carry=f.get("carry") == "1",
        ),
    )


@bp.route("/k/<tok:token>/public", methods=["POST"])
def set_public(token: str) -> str | Response:
    on = request.form.get("on") == "1"
    return _write(token, lambda: service.set_public(get_store(), token, on))


@bp.route("/k/<tok:token>/link", methods=["POST"])
def replace_link(token: str) -> str | Response:
    """A new link; replacing the edit link moves the director to the new one."""
    which = request.form.get("which", "")
    if which not in ("edit", "view", "public"):
        abort(400)
    club = edited(token)
    fresh = service.replace_link(get_store(), club.edit_token, which)  # type: ignore[arg-type]
    return redirect(url_for("club.show", mode="k", token=fresh.edit_token) + "#director")


@bp.route(CLUB + "/player/<int:player>")
def player(mode: str, token: str, player: int) -> str:
    """A player's page: statistics, rating history and head-to-head."""
    club = open_club(mode, token)
    built = build(get_store(), club, _season_id())
    if player not in built.done.names:
        abort(404)
    name = built.done.name(player)
    stats = built.statistics(None, None, None).get(name)
    history = [line for line in built.report()["rating_log"] if line.get("player") == name]
    pairs = [
        (built.done.name(b if a == player else a), t)
        for (a, b), t in head_to_head(built.done.tables, built.done.name).items()
        if player in (a, b)
    ]
    return render_template(
        "club/player.html",
        club=club,
        mode=mode,
        name=name,
        stats=stats,
        history=history,
        chart=Markup(rating_chart(name, history)) if history else "",
        pairs=pairs,
        columns=COLUMNS,
    )


def rating_chart(name: str, history: list[dict[str, Any]]) -> str:
    """A player's rating after each of his tables (and each month's decay), as an SVG."""
    values = [Decimal(line["after"]) for line in history]
    return line_chart(
        [(name, values)], title=_("Rating history"), x_label=_("game"), x_start=1, words=words()
    )


def _download(data: bytes, kind: str, name: str) -> Response:
    return Response(
        data, mimetype=kind, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


@bp.route(CLUB + "/season.json")
def season_json(mode: str, token: str) -> Response:
    """The season file of what the page shows."""
    club = open_club(mode, token)
    built = build(get_store(), club, _season_id())
    text = json.dumps(season_file(get_store(), club, built), ensure_ascii=False, indent=1)
    return _download(text.encode(), "application/json", "season.json")


def _language() -> str:
    return str(get_locale() or "en")


@bp.route(CLUB + "/standings.csv")
def standings(mode: str, token: str) -> Response:
    built = build(get_store(), open_club(mode, token), _season_id())
    rows = built.standings()
    return _download(standings_csv(rows, _language()), "text/csv", "standings.csv")


@bp.route(CLUB + "/statistics.csv")
def statistics(mode: str, token: str) -> Response:
    club = open_club(mode, token)
    rows = dict(_statistics(club, build(get_store(), club, _season_id())))
    return _download(statistics_csv(rows, _language()), "text/csv", "statistics.csv")
