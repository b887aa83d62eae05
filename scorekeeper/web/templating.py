"""What templates may call: amounts, money, deal wording (from present.py) and a few helpers."""

from __future__ import annotations

import functools
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flask import Flask, g, url_for
from markupsafe import Markup

from scorekeeper import present
from scorekeeper.report import money as money_text

from .widgets import new_key


def money(value: Decimal, currency: str = "") -> str:
    """Money as people read it: "−8.30 EUR" (a true minus sign)."""
    text = money_text(abs(value))
    sign = "−" if value < 0 else ""
    return f"{sign}{text} {currency}".strip()


def signed_money(value: Decimal, currency: str = "") -> str:
    """Money with its sign always shown: "+5.57 EUR"."""
    return ("+" if value > 0 else "") + money(value, currency)


def amount_class(value: Fraction | Decimal | int) -> str:
    """A CSS class for a positive, negative or zero amount."""
    return "pos" if value > 0 else "neg" if value < 0 else "zero"


def game_url(endpoint: str, **values: Any) -> str:
    """An address inside the current game: the edit (/g/) or the read-only (/v/) one."""
    loaded = g.loaded
    mode = "g" if loaded.editable else "v"
    return url_for(endpoint, mode=mode, token=loaded.token, **values)


@functools.lru_cache(maxsize=256)
def qr_svg(text: str) -> Markup:
    """A QR code of the text as inline SVG (no external request); a link's code never changes."""
    import segno

    code = segno.make(text, error="m")
    svg = code.svg_inline(scale=4, dark="#000", light="#fff", border=2, omitsize=True)
    return Markup(svg)  # segno writes only the path data; nothing of ours is interpolated


def convention_label(name: str) -> str:
    """A convention's name in the current language."""
    from .main.forms import CONVENTION_LABELS

    return str(CONVENTION_LABELS.get(name, name))


def init_app(app: Flask) -> None:
    """Register the filters and globals."""
    app.jinja_env.filters.update(
        amount=present.amount,
        signed=present.signed,
        money=money,
        signed_money=signed_money,
        amount_class=amount_class,
    )
    app.jinja_env.globals.update(
        game_url=game_url,
        qr_svg=qr_svg,
        present=present,
        convention_label=convention_label,
        new_key=new_key,
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
