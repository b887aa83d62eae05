"""A tournament for people: the standings, every tour's tables, the next tour's seating, and
the problems of a tournament file, in the language of `words` (`scorekeeper tournament
--format text`). The JSON report is a file format and lives in `file`."""

from __future__ import annotations

from fractions import Fraction

from scorekeeper.rules.tournament import Band, deals_in_tour
from scorekeeper.tournament.file import Located, Table, Tournament
from scorekeeper.wording import ENGLISH, Words


def problem(words: Words, located: Located) -> str:
    """One problem of a tournament file, its tour and table named: "тур 2, стол 1: …"."""
    text = words.problem(located.problem)
    if located.tour is None:
        return text
    if located.table is None:
        return words.gettext("tour %(tour)s: %(problem)s", tour=located.tour, problem=text)
    return words.gettext(
        "tour %(tour)s, table %(table)s: %(problem)s",
        tour=located.tour,
        table=located.table,
        problem=text,
    )


def bands_text(words: Words, bands: list[Band]) -> str:
    """The bands in a line: "up to 200: × 1; up to 650: × 1/10; above: × 0"."""
    if not bands:
        return words.gettext("points = whists")
    parts = []
    for upto, factor in bands:
        times = words.amount(factor)
        if upto is None:
            parts.append(words.gettext("above: × %(factor)s", factor=times))
        else:
            parts.append(
                words.gettext("up to %(upto)s: × %(factor)s", upto=words.amount(upto), factor=times)
            )
    if bands[-1][0] is not None:
        parts.append(words.gettext("above: × %(factor)s", factor=words.amount(Fraction(0))))
    return "; ".join(parts)


def progress(words: Words, table: Table, rounds: int | None) -> str:
    """A table's progress: "finished", "deal 7 of 9"."""
    if table.over:
        return words.pgettext("table", "finished")
    played = table.sheet.deal_count()
    if rounds is None:
        return words.ngettext("%(num)s deal", "%(num)s deals", played)
    return words.pgettext(
        "table",
        "deal %(deal)s of %(deals)s",
        deal=played + 1,
        deals=deals_in_tour(rounds, len(table.players), table.game.options.deal_limit),
    )


def text_report(t: Tournament, *, words: Words = ENGLISH) -> str:
    """The tournament for people, in the language of `words`."""
    rounds = t.resolved.round_limit
    lines = _heading(t, words, rounds)
    lines.append("")
    lines.extend(_standings_lines(t, words))
    for number, tour in enumerate(t.tours, start=1):
        lines.append("")
        lines.extend(_tour_lines(t, words, number, tour, rounds))
    lines.append("")
    lines.extend(_next_tour_lines(t, words))
    return "\n".join(lines) + "\n"


def _heading(t: Tournament, words: Words, rounds: int | None) -> list[str]:
    """The name, the rules of the tables and the tournament points."""
    lines: list[str] = []
    if t.name:
        lines.append(t.name)
    lines.append(
        words.ngettext(
            "%(convention)s, tables of %(size)s, %(num)s round a tour",
            "%(convention)s, tables of %(size)s, %(num)s rounds a tour",
            rounds or 0,
            convention=words.convention(t.convention),
            size=t.table_size,
        )
    )
    if t.place_points == "sign":
        rule = words.gettext(
            "place points: 1 for each player below at the table, 1 for a result of 0 or "
            "more, 1 more when nobody else at the table has one"
        )
    else:
        rule = bands_text(words, t.bands)
    lines.append(words.gettext("Tournament points: %(bands)s", bands=rule))
    return lines


def _standings_lines(t: Tournament, words: Words) -> list[str]:
    """The standings: a title and a table in columns, each withdrawn player marked."""
    _ = words.gettext
    played = len(t.tours)
    if played:
        title = words.ngettext(
            "Standings after %(num)s tour", "Standings after %(num)s tours", played
        )
    else:
        title = _("Standings: no tour played yet")
    heads = [_("place"), _("player"), _("points"), _("whists"), _("tours"), _("table wins")]
    rows = [
        [
            str(s.place),
            s.player,
            words.amount(s.points),
            words.amount(s.whists),
            str(s.tours),
            str(s.table_wins),
        ]
        for s in t.standings()
    ]
    widths = [max(len(row[i]) for row in [heads, *rows]) for i in range(len(heads))]

    def line(row: list[str]) -> str:
        cells = [
            cell.ljust(widths[i]) if i == 1 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        ]
        return "  ".join(cells).rstrip()

    lines = [title, line(heads)]
    for row in rows:
        lines.append(line(row) + "".join("  " + mark for mark in marks(words, t, row[1])))
    return lines


def marks(words: Words, t: Tournament, player: str) -> list[str]:
    """What the standings say under a player's name: when he joined late (reading 12) and
    when he withdrew ("joined before tour 2", "withdrew after tour 3")."""
    out = []
    if (before := t.joined.get(player)) is not None:
        out.append(words.gettext("joined before tour %(tour)s", tour=before))
    if (after := t.withdrawn.get(player)) is not None:
        out.append(words.gettext("withdrew after tour %(tour)s", tour=after))
    return out


def _tour_lines(
    t: Tournament, words: Words, number: int, tour: list[Table], rounds: int | None
) -> list[str]:
    """A tour: each table's progress and each player's result and points."""
    _ = words.gettext
    lines = [_("Tour %(tour)s", tour=number)]
    for n, tab in enumerate(tour, start=1):
        title = _("Table %(table)s", table=n)
        if tab.name:
            title += f" ({tab.name})"
        lines.append(f"  {title}: {progress(words, tab, rounds)}")
        scored = t.points(tab)
        for player, result in tab.results.items():
            lines.append(
                "    "
                + _(
                    "%(player)s: %(result)s whists, %(points)s points",
                    player=player,
                    result=words.signed(result),
                    points=words.points(scored[player]),
                )
            )
    return lines


def _next_tour_lines(t: Tournament, words: Words) -> list[str]:
    """The next tour's tables by the standings, or why there is none."""
    _ = words.gettext
    seating = t.next_tour()
    if not seating:
        return [_("No next tour: fewer than 3 players are left.")]
    lines = [_("Tour %(tour)s, seated by the standings:", tour=len(t.tours) + 1)]
    for n, names in enumerate(seating, start=1):
        title = _("Table %(table)s", table=n)
        lines.append(f"  {title}: {', '.join(names)}")
    return lines
