"""What the game page and the settlement page show, gathered from the sheet (no scoring)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from flask import g, render_template, request, url_for
from flask_babel import _
from markupsafe import Markup

from scorekeeper.games import Loaded, net_points
from scorekeeper.render.chart import evening_chart
from scorekeeper.render.pulka import pulka_svg
from scorekeeper.rules import DealResult, seat

from ..i18n import LANGUAGES, get_locale, words
from ..wire import style_inline


@dataclass(frozen=True)
class PlayerRow:
    """One player's line on the game page."""

    name: str
    pool: Fraction
    hill: Fraction
    whists: Fraction
    """Whists he has written on the others, all together."""
    net: Fraction
    money: Decimal
    closed: bool
    """His pool has reached the target."""


@dataclass(frozen=True)
class Summary:
    """The game at a glance."""

    rows: list[PlayerRow]
    next_dealer: str
    sits_out: tuple[str, ...]
    """Who sits out the next deal: the dealer at four, the dealer and the next dealer at five."""
    round: int | None
    """The next deal's round when the game has a round limit (§5), else None."""
    rounds: int | None
    deal_in_round: int
    streak: int
    min_level: int | None
    last: DealResult | None
    pulka: Markup
    view_url: str


def fragment(name: str, **drawn_from: Hashable) -> Markup:
    """A part of the game page that every phone opening this state alike sees (templates/game/),
    drawn once per state, language, link and address of the site, and kept with the state.

    The key names every input of the drawing: the language, whether the link is the edit or
    the read-only one (the links in it carry that token), and the address the site is reached
    at (scheme, host and path prefix: every link and the follow link are drawn with it). The
    per-request parts of the page (forms, messages) are drawn around these, never into them.
    What else it is drawn from (the tournament the game is a table of) is named in the key.
    """
    loaded: Loaded = g.loaded
    extra = tuple(sorted(drawn_from.items()))
    key = ("fragment", name, get_locale(), loaded.editable, request.url_root, extra)
    return loaded.kept(key, lambda: Markup(render_template(name, loaded=loaded, **drawn_from)))


def shell(name: str) -> Markup:
    """The game page's top or bottom (templates/game/_top.html, _bottom.html), kept with the
    state like a fragment and also by what else it is drawn from: the page's address with
    its arguments (the language links) and whether the stylesheet comes inside the page."""
    loaded: Loaded = g.loaded
    if not plain_address():
        return Markup(render_template(name, loaded=loaded))  # odd arguments: not kept
    key = (
        "shell",
        name,
        get_locale(),
        loaded.editable,
        request.url_root,
        request.full_path,
        style_inline(),
        g.get("confirm_seen"),  # the follow link names the table's last answer
    )
    return loaded.kept(key, lambda: Markup(render_template(name, loaded=loaded)))


_LANGUAGE_QUERIES = frozenset(f"lang={code}".encode() for code in LANGUAGES)


def plain_address() -> bool:
    """The page's address has no arguments but a known language: a drawing for it may be
    kept (one per language at most; any other address is drawn for its request only)."""
    query = request.query_string
    return not query or query in _LANGUAGE_QUERIES


def game_summary(loaded: Loaded) -> Summary:
    """The rows, the next deal, the last deal and the pulka drawing of a game (kept with the
    state, per language and site address: the share link is drawn with the address)."""
    key = ("summary", get_locale(), request.url_root)
    return loaded.kept(key, lambda: _summary(loaded))


def _summary(loaded: Loaded) -> Summary:
    sheet, settlement = loaded.sheet, loaded.settlement
    players = sheet.players
    rows = [
        PlayerRow(
            name=p,
            pool=sheet.pool(p),
            hill=sheet.hill(p),
            whists=sum((sheet.whists(p, q) for q in players if q != p), Fraction(0)),
            net=settlement.net[p],
            money=settlement.money[p],
            closed=sheet.closed(p),
        )
        for p in players
    ]
    min_level = sheet.next_min_level
    table = seat(sheet)
    return Summary(
        rows=rows,
        next_dealer=sheet.next_dealer,
        sits_out=table.sitting_out,
        round=table.round if table.round_limit is not None else None,
        rounds=table.round_limit,
        deal_in_round=table.deal_in_round,
        streak=sheet.allpass_streak,
        min_level=min_level if min_level is not None and min_level > 6 else None,
        last=sheet.results[-1] if sheet.results else None,
        pulka=pulka(loaded),
        view_url=url_for("games.show", mode="v", token=loaded.record.view_token, _external=True),
    )


def pulka(loaded: Loaded) -> Markup:
    """The paper pulka as inline SVG, drawn once per game version and language.

    Drawing a long evening takes tens of milliseconds, and every phone following the game
    asks for the same page; the drawing is kept with the game's state in the game cache
    (a game's version changes with every write, so a kept drawing is never stale).
    """
    record = loaded.record
    svg = loaded.kept(
        ("pulka", get_locale()),
        lambda: pulka_svg(loaded.sheet, title=record.name or None, words=words()),
    )
    return Markup(svg)


def evening_chart_svg(loaded: Loaded) -> Markup:
    """The game as a chart of each player's "if it ended now" after every deal, drawn once
    per state and language."""
    if not loaded.sheet.results or loaded.problems:
        return Markup("")
    svg = loaded.kept(
        ("chart", get_locale()),
        lambda: evening_chart(loaded.sheet, words(), net_points(loaded)),
    )
    return Markup(svg)


def settlement_text(loaded: Loaded) -> str:
    """The settlement as plain text to paste into a chat."""
    s = loaded.settlement
    w = words()
    currency = loaded.sheet.options.currency
    lines = [loaded.record.name or _("Preferans"), ""]
    for p in s.players:
        lines.append(
            _(
                "%(name)s: %(whists)s, %(money)s",
                name=p,
                whists=w.whists(s.net[p], signed=True),
                money=w.signed_money(s.money[p], currency),
            )
        )
    lines.append("")
    if s.payments:
        for pay in s.payments:
            lines.append(w.payment(pay.payer, pay.payee, pay.amount, currency))
    else:
        lines.append(_("Nobody pays anybody."))
    return "\n".join(lines)
