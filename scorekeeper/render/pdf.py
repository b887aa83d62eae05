"""The PDF score sheet: header, pulka drawing, totals, settlement and the deal log (WeasyPrint).

The page is an HTML template (`templates/pdf/sheet.html`) filled from a plain view model built
here, so the template only lays things out. Inside a Flask app context the template goes
through `flask.render_template` and Flask-Babel translates it; outside one (the CLI) a plain
Jinja environment over the same folder uses the English fallbacks of `scorekeeper.present`.
WeasyPrint costs most of a second to import, so it is imported only when a PDF is made.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from scorekeeper import present
from scorekeeper.render.chart import evening_chart
from scorekeeper.render.pulka import pulka_svg
from scorekeeper.report import money as money_digits
from scorekeeper.rules import PRESETS, Game, Options, Settlement, Sheet, replay, settle
from scorekeeper.rules.problems import N_

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
TEMPLATE = "pdf/sheet.html"
SLUG_LIMIT = 60
SHOWN_NAME_LIMIT = 100
FULL_NAME_LIMIT = 300
PAGE_SIZES = ("A4", "A5", "letter")

CONVENTION_NAMES = {
    "sochi": N_("Sochi"),
    "leningrad": N_("Leningrad"),
    "rostov": N_("Rostov"),
    "hussar": N_("Hussar"),
}

#: Each option's name for people (rules.md §7).
OPTION_LABELS = {
    "pool_target": N_("pool target"),
    "pool_whists": N_("whists per pool point"),
    "hill_whists": N_("whists per hill point"),
    "whist_scale": N_("whists per trick, × contract value"),
    "remise_scale": N_("remise per undertrick, × contract value"),
    "shortfall_rate": N_("short of quota, × contract value"),
    "consolation": N_("consolation per undertrick"),
    "dealer_consolation": N_("the dealer writes consolation"),
    "whist_split": N_("one whister and one passer"),
    "two_whister_quota": N_("quota with two whisters"),
    "ten_checked": N_("a ten is only checked"),
    "half_whist": N_("half-whist on"),
    "misere_value": N_("misère made, pool"),
    "misere_hill": N_("misère, hill per trick"),
    "allpass_mode": N_("all-pass is written in"),
    "allpass_price": N_("all-pass, price of a trick"),
    "allpass_progression": N_("all-pass progression"),
    "allpass_exit": N_("after all-pass, contracts from"),
    "allpass_min_amnesty": N_("all-pass, the fewest tricks are free"),
    "overflow": N_("pool above the target"),
    "end": N_("the game ends when"),
    "hill_divisor": N_("the hill is divided among"),
    "stake": N_("stake per whist"),
    "currency": N_("currency"),
}

#: Option values that are words.
VALUE_LABELS = {
    "greedy": N_("the whister takes all"),
    "gentleman_on_remise": N_("gentleman on remise"),
    "gentleman": N_("gentleman"),
    "side": N_("the side's tricks"),
    "personal": N_("each whister's own"),
    "hill": N_("hill"),
    "whists": N_("whists"),
    "none": N_("not played"),
    "help": N_("helps open pools"),
    "keep": N_("is kept"),
    "all_closed": N_("every pool is closed"),
    "pool_sum": N_("the pools add up to the target"),
    "first_closed": N_("the first pool is closed"),
    "players": N_("all players"),
    "opponents": N_("the opponents"),
    "value": N_("the contract's value"),
}


# -- the view model --------------------------------------------------------------------------


@dataclass
class PlayerRow:
    """One line of the totals table."""

    name: str
    pool: str
    closed: bool
    hill: str
    whists: list[str]
    """Whists written on each player in seating order ("" on himself)."""
    net: str
    money: str
    negative: bool


@dataclass
class SettlementRow:
    """One player's line of the settlement."""

    name: str
    hill: str
    hill_after: str
    hill_whists: str
    """Whists each opponent writes on him for his remaining hill."""
    pool_whists: str
    """Whists he writes on each opponent for his pool above the lowest."""
    net: str
    money: str
    negative: bool


@dataclass
class LogRow:
    """One deal of the log."""

    number: int
    dealer: str
    title: str
    details: str
    entries: list[str]
    correction: bool
    edited: bool
    ended: bool
    problems: list[str] = field(default_factory=list)


@dataclass
class SheetView:
    """Everything the template shows, already worded and formatted."""

    page_size: str
    name: str
    full_name: str
    running_name: str
    locale: str
    when: str
    players: list[str]
    short_names: list[str]
    """The players' names cut to fit a column heading."""
    seating: str
    convention: str
    options: list[tuple[str, str]]
    pool_target: str
    stake: str
    finished: bool
    deal_count: int
    pulka: Markup
    rows: list[PlayerRow]
    settlement: list[SettlementRow]
    amnesty: str
    hill_rate: str
    divisor: int
    pairs: list[str]
    payments: list[str]
    log: list[LogRow]
    problems: list[str]
    chart: Markup = Markup("")
    """Each player's "if it ended now" after every deal (render/chart.py)."""


def sheet_view(
    game: Game,
    *,
    created_at: str | None = None,
    updated_at: str | None = None,
    edited_deals: Iterable[int] | None = None,
    page_size: str = "A4",
) -> SheetView:
    """Word and format everything the PDF shows (in the current language).

    Raises ValueError for a page size other than A4, A5 or letter.
    """
    if page_size not in PAGE_SIZES:
        raise ValueError(f"page size must be one of {', '.join(PAGE_SIZES)}, not {page_size!r}")
    _ = present.gettext
    sheet, problems = replay(game)
    result = settle(sheet)
    players = list(game.players)
    currency = game.options.currency
    name = _clean(game.name) or _("Preferans")
    edited = set(edited_deals or ())
    problems_by_deal: dict[int, list[str]] = {}
    for problem in problems:
        if problem.deal is not None:
            problems_by_deal.setdefault(problem.deal, []).append(
                present.problem_text(problem, with_deal=False)
            )
    return SheetView(
        page_size=page_size,
        name=_shorten(name, SHOWN_NAME_LIMIT),
        full_name=_shorten(name, FULL_NAME_LIMIT) if len(name) > SHOWN_NAME_LIMIT else "",
        running_name=_shorten(name, 70),
        locale=_locale(),
        when=time_span(created_at, updated_at),
        players=players,
        short_names=[_shorten(p, 16) for p in players],
        seating=_(
            "Seated clockwise: %(players)s; first dealer %(dealer)s.",
            players=", ".join(players),
            dealer=game.first_dealer,
        ),
        convention=_(CONVENTION_NAMES.get(game.convention, game.convention)),
        options=changed_options(game),
        pool_target=str(game.options.pool_target),
        stake=_money(game.options.stake, currency),
        finished=sheet.finished,
        deal_count=sheet.deal_count(),
        pulka=Markup(pulka_svg(sheet, title=_shorten(name, SHOWN_NAME_LIMIT))),
        rows=_player_rows(sheet, result),
        settlement=_settlement_rows(sheet, result),
        amnesty=present.amount(result.amnesty),
        hill_rate=str(game.options.hill_whists),
        divisor=result.divisor,
        pairs=_pairs(result),
        payments=[
            _(
                "%(payer)s pays %(payee)s %(amount)s",
                payer=p.payer,
                payee=p.payee,
                amount=_money(p.amount, currency),
            )
            for p in result.payments
        ],
        log=[
            LogRow(
                number=r.number,
                dealer=r.dealer or "",
                title=present.deal_title(r),
                details=present.deal_details(r, game.players),
                entries=[present.entry_text(e) for e in r.entries],
                correction=r.dealer is None,
                edited=r.number in edited,
                ended=r.ended,
                problems=problems_by_deal.get(r.number, []),
            )
            for r in sheet.results
        ],
        problems=[present.problem_text(p) for p in problems if p.deal is None],
        chart=Markup(evening_chart(sheet)) if sheet.results and not problems else Markup(""),
    )


def _player_rows(sheet: Sheet, result: Settlement) -> list[PlayerRow]:
    currency = sheet.options.currency
    return [
        PlayerRow(
            name=p,
            pool=present.amount(sheet.pool(p)),
            closed=sheet.closed(p),
            hill=present.amount(sheet.hill(p)),
            whists=["" if q == p else present.amount(sheet.whists(p, q)) for q in sheet.players],
            net=present.signed(result.net[p]),
            money=_money(result.money[p], currency, signed=True),
            negative=result.net[p] < 0,
        )
        for p in sheet.players
    ]


def _settlement_rows(sheet: Sheet, result: Settlement) -> list[SettlementRow]:
    currency = sheet.options.currency
    rows = []
    for p in result.players:
        others = [q for q in result.players if q != p]
        rows.append(
            SettlementRow(
                name=p,
                hill=present.amount(result.hills[p]),
                hill_after=present.amount(result.hill_after_amnesty[p]),
                hill_whists=present.amount(result.hill_whists[p][others[0]]),
                pool_whists=present.amount(result.pool_whists[p][others[0]]),
                net=present.signed(result.net[p]),
                money=_money(result.money[p], currency, signed=True),
                negative=result.net[p] < 0,
            )
        )
    return rows


def _pairs(result: Settlement) -> list[str]:
    """Each pair netted, in words: "Boris owes Anna 12"."""
    _ = present.gettext
    lines = []
    players = result.players
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            owed = result.pair_balance[a][b]
            if owed > 0:
                lines.append(
                    _(
                        "%(debtor)s owes %(creditor)s %(amount)s",
                        debtor=b,
                        creditor=a,
                        amount=present.amount(owed),
                    )
                )
            elif owed < 0:
                lines.append(
                    _(
                        "%(debtor)s owes %(creditor)s %(amount)s",
                        debtor=a,
                        creditor=b,
                        amount=present.amount(-owed),
                    )
                )
            else:
                lines.append(_("%(first)s and %(second)s are square", first=a, second=b))
    return lines


def changed_options(game: Game) -> list[tuple[str, str]]:
    """Every option that differs from the convention's preset, as (label, value) in words."""
    _ = present.gettext
    preset = PRESETS.get(game.convention, Options())
    changed = []
    for option in dataclasses.fields(Options):
        if option.name in ("pool_target", "stake", "currency"):
            continue  # shown on their own line
        value = getattr(game.options, option.name)
        if value != getattr(preset, option.name):
            label = _(OPTION_LABELS.get(option.name, option.name))
            changed.append((label, option_value(value)))
    return changed


def option_value(value: Any) -> str:
    """An option's value for people: "yes", "6, 7", "gentleman on remise", "½"."""
    _ = present.gettext
    if value is None:
        return _(VALUE_LABELS["value"])
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value) if value else _("none")
    if isinstance(value, Fraction):
        return present.amount(value)
    if isinstance(value, str) and value in VALUE_LABELS:
        return _(VALUE_LABELS[value])
    return str(value)


def time_span(created_at: str | None, updated_at: str | None) -> str:
    """When the game was played: "2026-11-28 19:05 – 23:40", or what is known of it."""
    start, end = _parse_time(created_at), _parse_time(updated_at)
    if start and end:
        if start.date() == end.date():
            return f"{start:%Y-%m-%d %H:%M} – {end:%H:%M}"
        return f"{start:%Y-%m-%d %H:%M} – {end:%Y-%m-%d %H:%M}"
    if start:
        return f"{start:%Y-%m-%d %H:%M}"
    if end:
        return f"{end:%Y-%m-%d %H:%M}"
    return " – ".join(_clean(t)[:40] for t in (created_at, updated_at) if t)


def _parse_time(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None


def _money(value: Decimal, currency: str, *, signed: bool = False) -> str:
    sign = "−" if value < 0 else ("+" if signed and value > 0 else "")
    return f"{sign}{money_digits(abs(value))} {_clean(currency)}".strip()


def _locale() -> str:
    try:
        from flask import has_request_context

        if has_request_context():
            from flask_babel import get_locale  # type: ignore[import-untyped]

            return str(get_locale() or "en")
    except ImportError:  # pragma: no cover
        pass
    return "en"


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _clean(text: str) -> str:
    """Text without the control characters XML and PDF text cannot carry."""
    return "".join(c for c in text if c in "\t\n" or unicodedata.category(c) not in ("Cc", "Cs"))


# -- rendering -------------------------------------------------------------------------------


@cache
def _environment() -> jinja2.Environment:
    """Jinja outside Flask: the same templates, translated by scorekeeper.present."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals.update(_=present.gettext, gettext=present.gettext, ngettext=present.ngettext)
    return env


def sheet_html(game: Game, **kw: Any) -> str:
    """The score sheet as the HTML page WeasyPrint lays out."""
    view = sheet_view(game, **kw)
    try:
        from flask import has_app_context, render_template

        if has_app_context():
            return render_template(TEMPLATE, view=view)
    except ImportError:  # pragma: no cover
        pass
    return _environment().get_template(TEMPLATE).render(view=view)


def sheet_pdf(
    game: Game,
    *,
    created_at: str | None = None,
    updated_at: str | None = None,
    edited_deals: set[int] | None = None,
    page_size: str = "A4",
) -> bytes:
    """The game's score sheet as PDF bytes; A4 portrait unless page_size is A5 or letter."""
    from weasyprint import HTML  # type: ignore[import-untyped]

    html = sheet_html(
        game,
        created_at=created_at,
        updated_at=updated_at,
        edited_deals=edited_deals,
        page_size=page_size,
    )
    pdf = HTML(string=html, base_url=str(TEMPLATES)).write_pdf()
    assert pdf is not None
    return bytes(pdf)


def export_pdf(game: Game, out: Path | None = None, *, exports_dir: Path, **kw: Any) -> Path:
    """Write the score sheet to `out`, or to exports_dir/<name>-<date>.pdf; returns the path."""
    if out is None:
        day = _parse_time(kw.get("created_at"))
        out = exports_dir / export_name(game.name, day.date() if day else date.today())
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    data = sheet_pdf(game, **kw)
    # Write beside the target, then rename: a reader never sees half a PDF.
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=".export-", suffix=".pdf")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


def export_name(name: str, day: date) -> str:
    """A safe file name from any game name: "friday-at-boris-s-2026-11-28.pdf"."""
    return f"{slug(name)}-{day:%Y-%m-%d}.pdf"


def slug(name: str) -> str:
    """Letters and digits of any script, lower case, other runs as one "-"; "game" if none."""
    text = unicodedata.normalize("NFKC", name).casefold()
    kept = "".join(c if c.isalnum() else "-" for c in text)
    kept = re.sub(r"-+", "-", kept).strip("-")
    kept = kept[:SLUG_LIMIT].strip("-")
    return kept or "game"
