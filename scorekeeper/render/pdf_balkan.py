"""A Balkan partija's PDF: the paper as its players draw it (templates/pdf/balkan.html), what
each entry wrote and why, and the results, money and who pays whom — the same drawing as the
game page (render.paper_balkan), laid out by WeasyPrint."""

from __future__ import annotations

from typing import Any

from scorekeeper import balkan
from scorekeeper.balkan import PRESET_LABELS, REFA_STATES
from scorekeeper.render import paper_balkan
from scorekeeper.render.pdf import TEMPLATES, _environment
from scorekeeper.wording import words_for

TEMPLATE = "pdf/balkan.html"


def balkan_html(sheet: balkan.Sheet, *, name: str, locale: str | None = None) -> str:
    """The partija's paper as the HTML page WeasyPrint lays out, in the language asked for."""
    words = words_for(locale)
    game = sheet.game
    return (
        _environment()
        .get_template(TEMPLATE)
        .render(
            name=name,
            locale=words.locale,
            preset=words.gettext(PRESET_LABELS.get(game.convention, game.convention)),
            sheet=sheet,
            options=paper_balkan.changed_options(game, words),
            papers=paper_balkan.paper(sheet, words),
            lines=paper_balkan.outcome_lines(sheet, words),
            settlement=(settled := balkan.settle(sheet)),
            rows=paper_balkan.settlement_rows(settled, words),
            marks=paper_balkan.REFA_MARKS,
            refa_states=REFA_STATES,
            money=lambda amount: words.money(amount, sheet.options.currency),
            _=words.gettext,
        )
    )


def balkan_pdf(sheet: balkan.Sheet, *, name: str, locale: str | None = None, **_: Any) -> bytes:
    """The partija's paper as PDF bytes (A4 portrait)."""
    from weasyprint import HTML

    html = balkan_html(sheet, name=name, locale=locale)
    pdf = HTML(string=html, base_url=str(TEMPLATES)).write_pdf()
    assert pdf is not None
    return bytes(pdf)
