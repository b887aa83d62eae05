"""A tournament table's game is named by the tour and table it plays ("December cup — tour
2, table 3"). The name is stored as the director's page words it (the game file and the CLI
carry that one), and each page says it in its own language: a table whose players read
English sees English words though the director seated the tour in Russian. A stored name
that is no such composition (an older release's, or a game renamed since) is shown as
stored."""

from __future__ import annotations

from scorekeeper.rules.problems import N_
from scorekeeper.store import GameRecord
from scorekeeper.store.tournaments import TableOf
from scorekeeper.wording import Words, words_for

from .i18n import LANGUAGES

TABLE_NAME = N_("%(name)s — tour %(tour)s, table %(table)s")
TOURNAMENT = N_("Tournament")


def table_name(words: Words, tournament: str, tour: int, table: int) -> str:
    """The name of a table's game, in the words given."""
    name = tournament or words.gettext(TOURNAMENT)
    return words.gettext(TABLE_NAME, name=name, tour=tour, table=table)


def may_be_composed(name: str) -> bool:
    """The name may be a table's (every language joins the tournament's name with a dash)."""
    return " — " in name


def in_language(record: GameRecord, table: TableOf | None, words: Words) -> str:
    """The game's name as this page says it: a table's composed name in the page's words;
    any other name as stored."""
    if table is None or not record.name:
        return record.name
    composed = {
        table_name(words_for(code), table.name, table.tour, table.table_no) for code in LANGUAGES
    }
    if record.name not in composed:
        return record.name
    return table_name(words, table.name, table.tour, table.table_no)
