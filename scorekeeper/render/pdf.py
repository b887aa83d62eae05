"""The PDF score sheet: header, pulka drawing, totals, settlement and the deal log (WeasyPrint).

The page is an HTML template (`templates/pdf/sheet.html`) filled from a plain view model built
here, so the template only lays things out. Every word and number comes from
`scorekeeper.wording`, in the language asked for (`locale`), the same for the web and the CLI.
WeasyPrint costs most of a second to import, so it is imported only when a PDF is made.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cache
from typing import Any

import jinja2
from markupsafe import Markup

from scorekeeper import paths
from scorekeeper.render.chart import evening_chart
from scorekeeper.render.pulka import pulka_svg
from scorekeeper.rules import (
    PRESETS,
    Game,
    Options,
    Problem,
    Settlement,
    Sheet,
    replay,
    settle,
)
from scorekeeper.wording import ENGLISH, Words, words_for

TEMPLATES = paths.TEMPLATES
TEMPLATE = "pdf/sheet.html"
SLUG_LIMIT = 60
SHOWN_NAME_LIMIT = 100
FULL_NAME_LIMIT = 300
PAGE_SIZES = ("A4", "A5", "letter")
HEADING_LIMIT = {"A5": {2: 16, 3: 14, 4: 10, 5: 8}, "wide": {2: 16, 3: 16, 4: 14, 5: 12}}
"""The characters of a name over its whists column, by the page and the players at the
table: each heading on one line, the table no wider than the page with five-digit whists."""

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
    disputed: bool = False
    """A player at the table said "not so" about the deal as it stands."""


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
    correction_count: int
    rows: list[PlayerRow]
    settlement: list[SettlementRow]
    amnesty: str
    hill_rate: str
    divisor: int
    pairs: list[str]
    payments: list[str]
    log: list[LogRow]
    problems: list[str]
    hussar: bool = False
    """No hill at this table (§9): no hill columns, no amnesty."""
    chart: Markup = Markup("")
    """Each player's "if it ended now" after every deal (render/chart.py)."""
    penalty_count: int = 0
    """Penalties, counted apart from the corrections (both are no deal at the table)."""


def sheet_view(
    game: Game,
    *,
    created_at: str | None = None,
    updated_at: str | None = None,
    edited_deals: Iterable[int] | None = None,
    disputed_deals: Iterable[int] | None = None,
    page_size: str = "A4",
    words: Words = ENGLISH,
    tz: Any = None,
) -> SheetView:
    """Word and format everything the PDF shows, in the language of `words`.

    Raises ValueError for a page size other than A4, A5 or letter.
    """
    if page_size not in PAGE_SIZES:
        raise ValueError(f"page size must be one of {', '.join(PAGE_SIZES)}, not {page_size!r}")
    words = words.at_table(game)
    _ = words.gettext
    sheet, problems = replay(game)
    result = settle(sheet)
    currency = game.options.currency
    name = _clean(game.name) or _("Preferans")
    return SheetView(
        page_size=page_size,
        **_heading(game, name, page_size, words),
        locale=words.locale,
        when=time_span(created_at, updated_at, words, tz),
        convention=words.convention(game.convention),
        options=changed_options(game, words),
        pool_target=words.amount(game.options.pool_target),
        stake=words.money(game.options.stake, currency),
        finished=sheet.finished,
        deal_count=sheet.deal_count(),
        correction_count=sheet.count_of("correction"),
        penalty_count=sheet.count_of("penalty"),
        pulka=Markup(pulka_svg(sheet, title=_shorten(name, SHOWN_NAME_LIMIT), words=words)),
        rows=_player_rows(sheet, result, words),
        **_settlement(sheet, result, words),
        log=_log_rows(sheet, problems, set(edited_deals or ()), words, set(disputed_deals or ())),
        problems=[words.problem(p) for p in problems if p.deal is None],
        hussar=game.hussar,
        chart=Markup(evening_chart(sheet, words)) if sheet.results and not problems else Markup(""),
    )


def _heading(game: Game, name: str, page_size: str, words: Words) -> dict[str, Any]:
    """The sheet's heading fields: the game's name (shortened to fit, in full when it does
    not, and in the running head), the players (and their names short enough for a column
    heading on this page size) and how they were seated."""
    _ = words.gettext
    players = list(game.players)
    return {
        "name": _shorten(name, SHOWN_NAME_LIMIT),
        "full_name": _shorten(name, FULL_NAME_LIMIT) if len(name) > SHOWN_NAME_LIMIT else "",
        "running_name": _shorten(name, 70),
        "players": players,
        "short_names": [_shorten(p, _heading_limit(page_size, len(players))) for p in players],
        "seating": _(
            "Seated clockwise: %(players)s; first to deal: %(dealer)s.",
            players=", ".join(players),
            dealer=game.first_dealer,
        ),
    }


def _settlement(sheet: Sheet, result: Settlement, words: Words) -> dict[str, Any]:
    """The settlement's fields: each player's line, the amnesty, the hill's rate, the divisor,
    each pair's whists and who pays whom."""
    currency = sheet.game.options.currency
    return {
        "settlement": _settlement_rows(sheet, result, words),
        "amnesty": words.amount(result.amnesty),
        "hill_rate": words.whists(sheet.game.options.hill_whists),
        "divisor": result.divisor,
        "pairs": _pairs(result, words),
        "payments": [words.payment(p.payer, p.payee, p.amount, currency) for p in result.payments],
    }


def _log_rows(
    sheet: Sheet,
    problems: list[Problem],
    edited: set[int],
    words: Words,
    disputed: set[int] | None = None,
) -> list[LogRow]:
    """The deal log, each deal with its own problems (`edited`, `disputed`: the places, from
    1, of deals changed after they were written and of deals the table said are not so).
    Each is numbered as people count (Sheet.number_of: deal 11, correction 1)."""
    by_deal: dict[int, list[str]] = {}
    for problem in problems:
        if problem.deal is not None:
            by_deal.setdefault(problem.deal, []).append(words.problem(problem, with_deal=False))
    return [
        LogRow(
            number=sheet.number_of(r.number - 1),
            dealer=r.dealer or "",
            title=words.deal_title(r),
            details=words.deal_details(r, sheet.players),
            entries=[words.entry(e) for e in r.entries],
            correction=r.dealer is None,
            edited=r.number in edited,
            disputed=r.number in (disputed or set()),
            ended=r.ended,
            problems=by_deal.get(r.number, []),
        )
        for r in sheet.results
    ]


def _player_rows(sheet: Sheet, result: Settlement, words: Words) -> list[PlayerRow]:
    currency = sheet.options.currency
    return [
        PlayerRow(
            name=p,
            pool=words.amount(sheet.pool(p)),
            closed=sheet.closed(p),
            hill=words.amount(sheet.hill(p)),
            whists=["" if q == p else words.amount(sheet.whists(p, q)) for q in sheet.players],
            net=words.signed(result.net[p]),
            money=words.money(result.money[p], currency, signed=True),
            negative=result.net[p] < 0,
        )
        for p in sheet.players
    ]


def _settlement_rows(sheet: Sheet, result: Settlement, words: Words) -> list[SettlementRow]:
    currency = sheet.options.currency
    rows = []
    for p in result.players:
        others = [q for q in result.players if q != p]
        rows.append(
            SettlementRow(
                name=p,
                hill=words.amount(result.hills[p]),
                hill_after=words.amount(result.hill_after_amnesty[p]),
                hill_whists=words.amount(result.hill_whists[p][others[0]]),
                pool_whists=words.amount(result.pool_whists[p][others[0]]),
                net=words.signed(result.net[p]),
                money=words.money(result.money[p], currency, signed=True),
                negative=result.net[p] < 0,
            )
        )
    return rows


def _pairs(result: Settlement, words: Words) -> list[str]:
    """Each pair netted, with the arrow from debtor to creditor: "Борис → Анна: 12 вистов"."""
    lines = []
    players = result.players
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            owed = result.pair_balance[a][b]
            if owed > 0:
                lines.append(words.owes(b, a, owed))
            elif owed < 0:
                lines.append(words.owes(a, b, -owed))
            else:
                lines.append(
                    words.gettext("%(first)s and %(second)s are square", first=a, second=b)
                )
    return lines


def changed_options(game: Game, words: Words = ENGLISH) -> list[tuple[str, str]]:
    """Every option that differs from the convention's preset, as (label, value) in words."""
    preset = PRESETS.get(game.convention, Options())
    changed = []
    for option in dataclasses.fields(Options):
        if option.name in ("pool_target", "stake", "currency"):
            continue  # shown on their own line
        value = getattr(game.options, option.name)
        if value != getattr(preset, option.name):
            shown = words.option_value(value, option.name)
            changed.append((words.option_label(option.name), shown))
    return changed


def time_span(
    created_at: str | None, updated_at: str | None, words: Words = ENGLISH, tz: Any = None
) -> str:
    """When the game was played, in the table's time zone (`tz`, else this machine's):
    "28 ноября 2026, 19:05 – 23:40", or what is known of it."""
    start, end = parse_time(created_at), parse_time(updated_at)
    if start and end:
        start, end = (t if t.tzinfo else t.replace(tzinfo=UTC) for t in (start, end))
        start, end = (t.astimezone(tz) if tz else t.astimezone() for t in (start, end))
        if start.date() == end.date():
            return f"{words.moment(start, tz)} – {end:%H:%M}"
        return f"{words.moment(start, tz)} – {words.moment(end, tz)}"
    if start or end:
        return words.moment(start or end, tz)
    return " – ".join(_clean(t)[:40] for t in (created_at, updated_at) if t)


def parse_time(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None


def _heading_limit(page_size: str, players: int) -> int:
    """How long a name may be over its whists column (HEADING_LIMIT)."""
    limits = HEADING_LIMIT["A5" if page_size == "A5" else "wide"]
    return limits.get(players, limits[5])


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _clean(text: str) -> str:
    """Text without the control characters XML and PDF text cannot carry."""
    return "".join(c for c in text if c in "\t\n" or unicodedata.category(c) not in ("Cc", "Cs"))


# -- rendering -------------------------------------------------------------------------------


@cache
def _environment() -> jinja2.Environment:
    """Jinja over the templates folder; the words come with each page."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def sheet_html(
    game: Game,
    *,
    locale: str | None = None,
    confirmed: list[tuple[str, int]] | None = None,
    **kw: Any,
) -> str:
    """The score sheet as the HTML page WeasyPrint lays out, in the language asked for;
    with `confirmed`, how many deals each player confirmed at the table."""
    words = words_for(locale).at_table(game)
    view = sheet_view(game, words=words, **kw)
    return (
        _environment()
        .get_template(TEMPLATE)
        .render(
            view=view,
            confirmed=confirmed,
            _=words.gettext,
            gettext=words.gettext,
            ngettext=words.ngettext,
        )
    )


class TooLongForPdf(ValueError):
    """A game of more deals than the PDF is drawn for."""

    def __init__(self, count: int, limit: int) -> None:
        super().__init__(f"{count} deals: the PDF is drawn for games of at most {limit}")
        self.count, self.limit = count, limit


def sheet_pdf(
    game: Game,
    *,
    created_at: str | None = None,
    updated_at: str | None = None,
    edited_deals: set[int] | None = None,
    disputed_deals: set[int] | None = None,
    page_size: str = "A4",
    locale: str | None = None,
    tz: Any = None,
    confirmed: list[tuple[str, int]] | None = None,
) -> bytes:
    """The game's score sheet as PDF bytes; A4 portrait unless page_size is A5 or letter.

    Raises TooLongForPdf for a game of more deals than a game may hold now (one stored
    before the limit): its drawing would take minutes (docs/limits.md)."""
    from weasyprint import HTML

    from scorekeeper import gamefile

    if len(game.deals) > gamefile.MAX_DEALS:
        raise TooLongForPdf(len(game.deals), gamefile.MAX_DEALS)

    html = sheet_html(
        game,
        created_at=created_at,
        updated_at=updated_at,
        edited_deals=edited_deals,
        disputed_deals=disputed_deals,
        page_size=page_size,
        locale=locale,
        tz=tz,
        confirmed=confirmed,
    )
    pdf = HTML(string=html, base_url=str(TEMPLATES)).write_pdf()
    assert pdf is not None
    return bytes(pdf)


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
