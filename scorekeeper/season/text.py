"""A season for people (`scorekeeper season --format text`): the standings, each player's
main statistics, and the problems of a season file, in the language of `words`."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from babel.numbers import format_decimal

from scorekeeper.season.file import SeasonProblem
from scorekeeper.tournament import text as tournament_text
from scorekeeper.wording import ENGLISH, Words


def problem(words: Words, found: SeasonProblem) -> str:
    """One problem of a season file: "event 3: deal 4: …", "event 4: tournament: tour 2,
    table 1: …"."""
    if found.located is not None:
        inner = tournament_text.problem(words, found.located)
        if found.event is None:  # pragma: no cover - a tournament is always an event's
            return inner
        return words.gettext(
            "event %(event)s: tournament: %(problem)s", event=found.event, problem=inner
        )
    assert found.problem is not None
    inner = words.problem(found.problem)
    if found.event is None:
        return inner
    return words.gettext("event %(event)s: %(problem)s", event=found.event, problem=inner)


def columns(rows: list[list[str]], left: int = 1) -> list[str]:
    """Rows as aligned columns (column `left` to the left, the others to the right)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            c.ljust(widths[i]) if i == left else c.rjust(widths[i]) for i, c in enumerate(row)
        ).rstrip()
        for row in rows
    ]


def rating(words: Words, text: str) -> str:
    """A rating as the report writes it (two decimals, season.md §6.2), signed, the language's
    way: "+15.50", "−200.00", "+2,37"."""
    value = Decimal(text)
    digits = str(format_decimal(abs(value), format="#,##0.00", locale=words.locale))
    return ("−" if value < 0 else "+" if value > 0 else "") + digits


def text_report(out: dict[str, Any], *, words: Words = ENGLISH) -> str:
    """The season report (the JSON object) for people."""
    _ = words.gettext
    lines = [out["name"]] if out["name"] else []
    lines.append(
        _(
            "Season %(start)s – %(end)s, as of %(as_of)s",
            start=words.date(out["from"]),
            end=words.date(out["to"]),
            as_of=words.date(out["as_of"]),
        )
    )
    lines += ["", _("Rating")]
    heads = [_("place"), _("player"), _("rating"), _("category"), _("games"), _("deals")]
    rows = [
        [
            "" if s["place"] is None else str(s["place"]),
            s["player"],
            rating(words, s["rating"]),
            "" if s["category"] is None else str(s["category"]),
            str(s["games"]) if not s["provisional"] else _("%(games)s of 7", games=s["games"]),
            str(s["deals"]),
        ]
        for s in out["standings"]
    ]
    lines += columns([heads, *rows]) if rows else [_("No rated game yet.")]
    lines += ["", _("Statistics")]
    stats = out["statistics"]["club"]
    heads = [_("player"), _("games"), _("deals"), _("whists"), _("per deal"), _("wins")]
    rows = [
        [
            name,
            str(s["games"]),
            str(s["deals"]),
            words.signed(Fraction(s["net"])),
            words.points(Fraction(s["net_per_deal"])),
            str(s["wins"]),
        ]
        for name, s in stats.items()
    ]
    lines += columns([heads, *rows], left=0) if rows else [_("No finished game yet.")]
    return "\n".join(lines) + "\n"
