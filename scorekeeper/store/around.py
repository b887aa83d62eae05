"""What a game's pages show beside the game, read in the statement that finds the game.

A page of a game used to ask four things one after the other: the game by its token, the
tournament it is a table of, the company it is an evening of, and the stamp of its answers.
On PostgreSQL each is a round trip (~0.4 ms over loopback, and a host's CPU for each), so
the game's look-up by its token asks the three others too (indexed look-ups, LEFT JOINs
and two sub-selects) and hands them to the GameRecord (records.Around).
"""

from __future__ import annotations

from typing import Any

from .records import Around, TableOf

#: The newest answer's id and the tries refused because another phone holds the seat, as
#: columns of a query over `games g`: their sum (stamp_of) changes with every answer and
#: every such try, so the phones following the game (the scorer's too) know to look again.
STAMP_COLUMNS = (
    "(SELECT max(x.id) FROM deal_confirmations x WHERE x.game_id = g.id) AS stamp,"
    " (SELECT sum(s.others) FROM seat_claims s WHERE s.game_id = g.id) AS tries"
)

#: The game by either token, with what surrounds it: one row, or none.
FIND_AROUND = (
    "SELECT g.*, t.name AS tour_name, t.view_token AS tour_view, l.tour AS tour,"
    " l.table_no AS table_no, l.tour <= t.tours_closed AS closed,"
    f" c.name AS company_name, c.view_token AS company_view, {STAMP_COLUMNS}"
    " FROM games g"
    " LEFT JOIN tournament_tables l ON l.game_id = g.id"
    " LEFT JOIN tournaments t ON t.id = l.tournament_id"
    " LEFT JOIN company_games cg ON cg.game_id = g.id"
    " LEFT JOIN companies c ON c.id = cg.company_id"
    " WHERE (g.edit_token = ? OR g.view_token = ?) AND g.deleted_at IS NULL LIMIT 1"
)


def stamp_of(row: dict[str, Any]) -> int:
    """The stamp of answers from a row with STAMP_COLUMNS."""
    return int(row["stamp"] or 0) + int(row["tries"] or 0)


def table_of_row(row: dict[str, Any]) -> TableOf:
    """The tournament place from a row with tour_name, tour_view, tour, table_no, closed."""
    return TableOf(
        str(row["tour_name"]),
        str(row["tour_view"]),
        int(row["tour"]),
        int(row["table_no"]),
        bool(row["closed"]),
    )


def around_of_row(row: dict[str, Any]) -> Around | None:
    """What FIND_AROUND read beside the game, or None for a row read without it."""
    if "company_view" not in row:
        return None
    table = table_of_row(row) if row["tour"] is not None else None
    company = None
    if row["company_view"] is not None:
        company = (str(row["company_name"]), str(row["company_view"]))
    return Around(table, company, stamp_of(row))
