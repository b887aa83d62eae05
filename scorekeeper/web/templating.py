"""What templates may call: amounts, money, deal wording (from scorekeeper.wording), helpers."""

from __future__ import annotations

import datetime
import functools
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flask import Flask, g, url_for
from markupsafe import Markup

from scorekeeper.render.paper_balkan import settlement_rows
from scorekeeper.rules.deals import OFF_TABLE_KINDS as OFF_TABLE

from .flashes import shown
from .i18n import time_zone, words
from .keys import new_key


def amount(value: Fraction | int) -> str:
    """An exact amount in the page's language: "1,234⅓" in English, "1 234⅓" in Russian.

    Only the whole part has a locale form (digit grouping); the fraction stays the exact one
    people write on paper (⅓, 2/7), never a rounded decimal.
    """
    return words().amount(value)


def signed(value: Fraction | int) -> str:
    """An amount with its sign always shown: +4, −8."""
    return words().signed(value)


def number(value: Decimal | int) -> str:
    """A plain number in the page's language: "0.5" or "0,5"."""
    return words().number(value)


def money(value: Decimal | str, currency: str = "") -> str:
    """Money as people read it: "−8.30 EUR", "−8,30 EUR" in Russian (a true minus sign)."""
    return words().money(value, currency)


def signed_money(value: Decimal | str, currency: str = "") -> str:
    """Money with its sign always shown: "+5.57 EUR"."""
    return words().signed_money(value, currency)


def whists(value: Fraction | int) -> str:
    """A number of whists with its noun: "74 виста", "86⅔ виста"."""
    return words().whists(value)


def when(iso: str) -> str:
    """A stored UTC time ("2026-11-20T21:05:03Z") as the page's language writes it, in the
    table's time zone (the browser's): "20 ноября 2026, 23:05"."""
    if not isinstance(iso, str | datetime.datetime):
        return str(iso)
    return words().moment(iso, time_zone())


def about(value: Fraction | int) -> str:
    """An average, rounded for reading: "+16,5", "−3" (never fifteenths)."""
    shown = round(Decimal(value.numerator) / Decimal(value.denominator), 1)
    if shown == shown.to_integral_value():
        shown = shown.quantize(Decimal(1))
    text = words().number(abs(shown))
    return ("+" if shown > 0 else "−" if shown < 0 else "") + text


def table_deals(deals: Any) -> int:
    """How many of a game's stored deals were dealt at the table (no correction, no penalty):
    the number the game page shows."""
    return sum(1 for d in deals if getattr(d, "data", {}).get("type") not in OFF_TABLE)


def kind_count(deals: Any, kind: str) -> int:
    """How many of a game's stored deals are of one kind ("penalty", "correction")."""
    return sum(1 for d in deals if getattr(d, "data", {}).get("type") == kind)


def day(value: str | datetime.date) -> str:
    """A day as the page's language writes it: "1 декабря 2026" (ISO in the files only)."""
    return words().date(value)


def amount_class(value: Fraction | Decimal | int) -> str:
    """A CSS class for a positive, negative or zero amount."""
    return "pos" if value > 0 else "neg" if value < 0 else "zero"


def game_url(endpoint: str, **values: Any) -> str:
    """An address inside the current game: the edit (/g/) or the read-only (/v/) one."""
    loaded = g.loaded
    mode = "g" if loaded.editable else "v"
    return url_for(endpoint, mode=mode, token=loaded.token, **values)


@functools.lru_cache(maxsize=4096)
def qr_svg(text: str) -> Markup:
    """A QR code of the text as inline SVG (no external request); a link's code never changes.
    Kept for 4,096 links (~2 KB each, ~8 MB at most): the game page's share card is drawn
    anew for each new state of a game in each process, and with 256 kept, more than 256
    games played at once drew their codes again after every deal (3.8 ms of CPU each; a
    fifth of a worker's time while a 1,000-table night's games were being opened)."""
    import segno  # here, not at the top: 27 ms of every start-up, for the game page's code only

    code = segno.make(text, error="m")
    svg = code.svg_inline(scale=4, dark="#000", light="#fff", border=2, omitsize=True)
    return Markup(svg)  # segno writes only the path data; nothing of ours is interpolated


def convention_label(name: str) -> str:
    """A convention's name in the current language."""
    return words().convention(name)


def house_rules(game: Any) -> list[tuple[str, str]]:
    """Every option that differs from the game's preset, as (label, value) in the current
    language: what the page names beside the preset (the PDF's own list, render.pdf)."""
    from scorekeeper.render.pdf import changed_options
    from scorekeeper.rules import Options

    if not isinstance(getattr(game, "options", None), Options):
        return []  # a Balkan game names its own rules
    return changed_options(game, words())


def results_rows(settlement: Any) -> list[tuple[str, list[str]]]:
    """A Balkan partija's results, a row a player, numbers in the page's language."""
    return settlement_rows(settlement, words())


def init_app(app: Flask) -> None:
    """Register the filters and globals."""
    app.jinja_env.filters.update(
        amount=amount,
        signed=signed,
        number=number,
        when=when,
        day=day,
        about=about,
        table_deals=table_deals,
        kind_count=kind_count,
        money=money,
        signed_money=signed_money,
        whists=whists,
        amount_class=amount_class,
        results_rows=results_rows,
    )
    app.jinja_env.globals.update(
        game_url=game_url,
        qr_svg=qr_svg,
        convention_label=convention_label,
        house_rules=house_rules,
        new_key=new_key,
        flashed=shown,
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
