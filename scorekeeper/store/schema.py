"""The database schema, built only by ordered migrations that are never edited once released.

To change the schema, append a new step; never edit or reorder an existing one (a file made
by an older version must end up exactly like a new one).
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

MIGRATIONS = Migrations("scorekeeper")


@MIGRATIONS()
def m001_games_deals_revisions(db: Database) -> None:
    """Create games, their deals as entered, every deal revision and the used request keys."""
    db.table("games").create(
        {
            "id": int,
            "name": str,
            "convention": str,
            "options": str,  # JSON object: the fully resolved options snapshot
            "players": str,  # JSON array, clockwise seating order
            "first_dealer": str,
            "finished": int,
            "finished_snapshot": str,  # JSON object (the settlement) or NULL
            "created_at": str,
            "updated_at": str,
            "version": int,
            "edit_token": str,
            "view_token": str,
        },
        pk="id",
        not_null=[
            "name",
            "convention",
            "options",
            "players",
            "first_dealer",
            "finished",
            "created_at",
            "updated_at",
            "version",
            "edit_token",
            "view_token",
        ],
        strict=True,
    )
    db.table("games").create_index(["edit_token"], unique=True)
    db.table("games").create_index(["view_token"], unique=True)

    # `seq` orders every deal of a game, deleted ones included, so that a restored deal
    # comes back between the same neighbours; live positions are ranks among live deals.
    db.table("deals").create(
        {
            "id": int,
            "game_id": int,
            "seq": int,
            "data": str,  # JSON object in game-file notation, exactly as entered
            "deleted": int,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "seq", "data", "deleted", "created_at", "updated_at"],
        defaults={"deleted": 0},
        strict=True,
    )
    db.table("deals").create_index(["game_id", "seq"], unique=True)

    db.table("deal_revisions").create(
        {
            "id": int,
            "game_id": int,
            "deal_id": int,
            "action": str,  # add | edit | delete | restore
            "data": str,  # JSON: the deal after the action, NULL for a delete
            "previous": str,  # JSON: the deal before the action, NULL if it was not live
            "at": str,
            "game_version": int,  # the game's version once this change was written
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id"), ("deal_id", "deals", "id")],
        not_null=["game_id", "deal_id", "action", "at", "game_version"],
        strict=True,
    )
    db.table("deal_revisions").create_index(["game_id", "id"])
    db.table("deal_revisions").create_index(["deal_id", "id"])

    # One row per write that came with a request key: a resent request finds its key here
    # and is answered without writing again. The primary key is UNIQUE(game_id, request_key).
    db.table("request_keys").create(
        {
            "game_id": int,
            "request_key": str,
            "action": str,  # the Store method that used it, e.g. "add_deal"
            "deal_id": int,  # the deal it wrote, NULL for game-level writes
            "created_at": str,
        },
        pk=("game_id", "request_key"),
        foreign_keys=[("game_id", "games", "id"), ("deal_id", "deals", "id")],
        not_null=["game_id", "request_key", "action", "created_at"],
        strict=True,
    )


@MIGRATIONS()
def m002_games_deleted_at(db: Database) -> None:
    """A deleted game keeps its rows for a while (restorable by its edit link): deleted_at."""
    db.table("games").add_column("deleted_at", str)


# -- companies (issue 16): the same people evening after evening ------------------------------
# Self-contained: it only adds tables, so it can take any place after m001 (rename the step
# if another branch appended one with the same number).


@MIGRATIONS()
def m003_companies(db: Database) -> None:
    """Create companies, their roster, the games attached to them and the payments made."""
    db.table("companies").create(
        {
            "id": int,
            "name": str,
            "convention": str,  # the house rules a new evening starts from
            "options": str,  # JSON object: the fully resolved options (stake included)
            "created_at": str,
            "updated_at": str,
            "edit_token": str,
            "view_token": str,
        },
        pk="id",
        not_null=[
            "name",
            "convention",
            "options",
            "created_at",
            "updated_at",
            "edit_token",
            "view_token",
        ],
        strict=True,
    )
    db.table("companies").create_index(["edit_token"], unique=True)
    db.table("companies").create_index(["view_token"], unique=True)

    # A player's id is his identity in the company: a rename changes only the name.
    db.table("company_players").create(
        {"id": int, "company_id": int, "name": str, "created_at": str},
        pk="id",
        foreign_keys=[("company_id", "companies", "id")],
        not_null=["company_id", "name", "created_at"],
        strict=True,
    )
    db.table("company_players").create_index(["company_id", "id"])

    # A game belongs to at most one company; `players` maps its seat names to roster ids.
    db.table("company_games").create(
        {
            "game_id": int,
            "company_id": int,
            "players": str,  # JSON object: seat name -> company_players.id
            "played_on": str,  # ISO date of the evening (the game's day, or as imported)
            "attached_at": str,
            "request_key": str,  # the form that started the evening, so a resend is a no-op
        },
        pk="game_id",
        foreign_keys=[("game_id", "games", "id"), ("company_id", "companies", "id")],
        not_null=["company_id", "players", "played_on", "attached_at"],
        strict=True,
    )
    db.table("company_games").create_index(["company_id", "request_key"], unique=True)

    db.table("company_payments").create(
        {
            "id": int,
            "company_id": int,
            "payer": int,
            "payee": int,
            "amount": str,  # decimal text, e.g. "12.50": money is never a float
            "paid_on": str,  # ISO date
            "game_id": int,  # the settlement it pays, or NULL
            "created_at": str,
            "request_key": str,
        },
        pk="id",
        foreign_keys=[
            ("company_id", "companies", "id"),
            ("payer", "company_players", "id"),
            ("payee", "company_players", "id"),
            ("game_id", "games", "id"),
        ],
        not_null=["company_id", "payer", "payee", "amount", "paid_on", "created_at"],
        strict=True,
    )
    db.table("company_payments").create_index(["company_id", "request_key"], unique=True)


# -- deal confirmations (issue 23): the table says each deal is right, from its own phones ----
# Self-contained: it only adds a table, so it can take any place after m001.


@MIGRATIONS()
def m004_deal_confirmations(db: Database) -> None:
    """Create deal_confirmations: a player's "right" or "not so" on one revision of a deal."""
    db.table("deal_confirmations").create(
        {
            "id": int,
            "game_id": int,
            "deal_id": int,
            "revision": int,  # deal_revisions.id the player saw: a later change clears it
            "player": str,  # a seat name of the game
            "verdict": str,  # right | wrong
            "note": str,  # what is not so, in a few words ("" if none)
            "at": str,
            "request_key": str,  # the tap that sent it, so a resend writes nothing
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id"), ("deal_id", "deals", "id")],
        not_null=["game_id", "deal_id", "revision", "player", "verdict", "note", "at"],
        strict=True,
    )
    db.table("deal_confirmations").create_index(["game_id", "id"])
    db.table("deal_confirmations").create_index(["deal_id", "player", "id"])
    db.table("deal_confirmations").create_index(["game_id", "request_key"], unique=True)


# -- tournaments (issue 25): tours, tables, Swiss seating ------------------------------------
# Self-contained: it only adds tables, so it can take any place after m003.


@MIGRATIONS()
def m005_tournaments(db: Database) -> None:
    """Create tournaments and the tables of their tours (each an ordinary stored game)."""
    db.table("tournaments").create(
        {
            "id": int,
            "name": str,
            "convention": str,
            "options": str,  # JSON object: the options every table game is created with
            "table_size": int,  # the preferred size, 3 or 4
            "bands": str,  # JSON array of [upto or null, factor text]
            "roster": str,  # JSON array of names, in the order typed
            "withdrawals": str,  # JSON array of {"player": name, "after_tour": k}
            "tours_closed": int,  # tours 1..k are over; tour k + 1, if seated, is being played
            "created_at": str,
            "updated_at": str,
            "version": int,
            "edit_token": str,
            "view_token": str,
        },
        pk="id",
        not_null=[
            "name",
            "convention",
            "options",
            "table_size",
            "bands",
            "roster",
            "withdrawals",
            "tours_closed",
            "created_at",
            "updated_at",
            "version",
            "edit_token",
            "view_token",
        ],
        strict=True,
    )
    db.table("tournaments").create_index(["edit_token"], unique=True)
    db.table("tournaments").create_index(["view_token"], unique=True)

    db.table("tournament_tables").create(
        {
            "tournament_id": int,
            "tour": int,  # 1-based
            "table_no": int,  # 1-based; table 1 is the largest
            "game_id": int,
        },
        pk=("tournament_id", "tour", "table_no"),
        foreign_keys=[("tournament_id", "tournaments", "id"), ("game_id", "games", "id")],
        not_null=["game_id"],
        strict=True,
    )
    db.table("tournament_tables").create_index(["game_id"], unique=True)


# -- the planned number of tours (issue 31): after the last one the tournament is over ------
# Self-contained: it only adds a column to tournaments (m005).

PG_M131_I31_TOURS_PLANNED = """ALTER TABLE tournaments
    ADD COLUMN tours_planned INTEGER NOT NULL DEFAULT 0"""


@MIGRATIONS()
def m131_i31_tours_planned(db: Database) -> None:
    """tournaments.tours_planned: the tours the director announced (0: not said, as before);
    once that many are closed the tournament is over and no further tour is seated."""
    db.table("tournaments").add_column("tours_planned", int, not_null_default=0)
