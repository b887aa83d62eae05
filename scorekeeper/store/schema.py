"""The database schema, built only by ordered migrations that are never edited once released.

To change the schema, append a new step; never edit or reorder an existing one (a file made
by an older version must end up exactly like a new one). Every step exists for both engines:
the SQLite one as a sqlite-utils migration (a function below), the PostgreSQL one as SQL text
(`PG_STEPS`, the same tables, columns, keys, indexes and defaults: TEXT for text, BIGINT for
integers, an identity column for each `id`). PostgreSQL records the steps it applied in
`scorekeeper_migrations`, and applies them under an advisory lock, so two hosts starting at
once never race.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlite_utils import Database, Migrations

from scorekeeper.version import __version__

from .errors import SchemaTooNew

if TYPE_CHECKING:
    from .engine import Engine

MIGRATIONS = Migrations("scorekeeper")

RELEASE = __version__
"""This release, recorded in the schema (schema_release) by each release that writes it."""
MIGRATION_LOCK = 7_240_529_001
"""pg_advisory_xact_lock key held while a host migrates a PostgreSQL database."""
PURGE_LOCK = 7_240_529_002
"""pg_try_advisory_xact_lock key held while a host purges deleted games."""


@MIGRATIONS()
def m001_games_deals_revisions(db: Database) -> None:
    """Create games, their deals as entered, every deal revision and the used request keys."""
    _m001_games(db)
    _m001_deals(db)
    _m001_deal_revisions(db)
    _m001_request_keys(db)


# m001's tables, one function each, called by m001 alone in this order (never edited).


def _m001_games(db: Database) -> None:
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


def _m001_deals(db: Database) -> None:
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


def _m001_deal_revisions(db: Database) -> None:
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


def _m001_request_keys(db: Database) -> None:
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
    _m003_companies(db)
    _m003_company_players(db)
    _m003_company_games(db)
    _m003_company_payments(db)


# m003's tables, one function each, called by m003 alone in this order (never edited).


def _m003_companies(db: Database) -> None:
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


def _m003_company_players(db: Database) -> None:
    # A player's id is his identity in the company: a rename changes only the name.
    db.table("company_players").create(
        {"id": int, "company_id": int, "name": str, "created_at": str},
        pk="id",
        foreign_keys=[("company_id", "companies", "id")],
        not_null=["company_id", "name", "created_at"],
        strict=True,
    )
    db.table("company_players").create_index(["company_id", "id"])


def _m003_company_games(db: Database) -> None:
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


def _m003_company_payments(db: Database) -> None:
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


# -- which release wrote the schema (issue 32): a release never opens a newer one's ----------


@MIGRATIONS()
def m006_schema_release(db: Database) -> None:
    """Create schema_release: one row naming the newest release of scorekeeper that wrote
    the database, so that an older release refuses to open it."""
    db.table("schema_release").create(
        {"id": int, "release": str, "written_at": str},
        pk="id",
        not_null=["release", "written_at"],
        strict=True,
    )


# -- wrong passwords, counted in the database itself (issue 29: nothing per machine) --------


@MIGRATIONS()
def m007_wrong_passwords(db: Database) -> None:
    """Create wrong_passwords: one row per wrong server password (client address, when as
    seconds since 1970), read by every host that serves the database."""
    db.table("wrong_passwords").create(
        {"id": int, "client": str, "at": float},
        pk="id",
        not_null=["client", "at"],
        strict=True,
    )
    db.table("wrong_passwords").create_index(["client", "at"])


# -- seat claims (issue 32, item 12): a seat's answers come from the phone that claimed it ---
# Self-contained: it only adds a table, so it can take any place after m004.

PG_M107_I32_SEAT_CLAIMS = """
CREATE TABLE seat_claims (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games (id),
    player TEXT NOT NULL,
    phone TEXT NOT NULL,
    claimed_at TEXT NOT NULL,
    others INTEGER NOT NULL DEFAULT 0,
    other_at TEXT
);
CREATE UNIQUE INDEX seat_claims_game_id_player ON seat_claims (game_id, player);
"""
"""The same table in PostgreSQL's words (one of PG_STEPS)."""


@MIGRATIONS()
def m107_i32_seat_claims(db: Database) -> None:
    """Create seat_claims: which phone (a hash of its cookie-held id) answers for a seat of a
    game, and how often another phone tried to answer for it. The scorer's release deletes
    the row; the next phone to answer claims the seat."""
    db.table("seat_claims").create(
        {
            "id": int,
            "game_id": int,
            "player": str,  # a seat name of the game
            "phone": str,  # sha256 of the phone's id (kept in its session cookie)
            "claimed_at": str,
            "others": int,  # answers refused because another phone holds the seat
            "other_at": str,  # the latest of them (None if none)
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "player", "phone", "claimed_at", "others"],
        defaults={"others": 0},
        strict=True,
    )
    db.table("seat_claims").create_index(["game_id", "player"], unique=True)


# -- the planned number of tours (issue 31): after the last one the tournament is over ------
# Self-contained: it only adds a column to tournaments (m005).

PG_M131_I31_TOURS_PLANNED = """ALTER TABLE tournaments
    ADD COLUMN tours_planned INTEGER NOT NULL DEFAULT 0"""


@MIGRATIONS()
def m131_i31_tours_planned(db: Database) -> None:
    """tournaments.tours_planned: the tours the director announced (0: not said, as before);
    once that many are closed the tournament is over and no further tour is seated."""
    db.table("tournaments").add_column("tours_planned", int, not_null_default=0)


# -- late players (issue 31): a player who joins between tours --------------------------------
# Self-contained: it only adds a column to tournaments (m005).

PG_M141_I31_JOINED = """ALTER TABLE tournaments
    ADD COLUMN joined TEXT NOT NULL DEFAULT '[]'"""


@MIGRATIONS()
def m141_i31_joined(db: Database) -> None:
    """tournaments.joined: the late players, a JSON array of {"player": name,
    "before_tour": k} (docs/tournament.md reading 12); '[]' for every tournament before."""
    db.table("tournaments").add_column("joined", str, not_null_default="[]")


# -- the club (issue 48): games, companies and tournaments under one club, its directory ----
# Self-contained: it only adds tables. One text for both engines ({id}: the id column).

_M148_I48_CLUBS = """
CREATE TABLE clubs ({id}, name TEXT NOT NULL, edit_token TEXT NOT NULL,
  view_token TEXT NOT NULL, public_token TEXT NOT NULL, public_on {int} NOT NULL DEFAULT 0,
  version {int} NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL){strict};
CREATE UNIQUE INDEX idx_clubs_edit_token ON clubs (edit_token);
CREATE UNIQUE INDEX idx_clubs_view_token ON clubs (view_token);
CREATE UNIQUE INDEX idx_clubs_public_token ON clubs (public_token);
CREATE TABLE club_things ({id}, club_id {int} NOT NULL REFERENCES clubs (id),
  kind TEXT NOT NULL, thing_id {int} NOT NULL, friendly {int} NOT NULL DEFAULT 0,
  played_on TEXT, attached_at TEXT NOT NULL){strict};
CREATE UNIQUE INDEX idx_club_things_kind_thing_id ON club_things (kind, thing_id);
CREATE INDEX idx_club_things_club_id ON club_things (club_id);
CREATE TABLE club_players ({id}, club_id {int} NOT NULL REFERENCES clubs (id),
  name TEXT NOT NULL, created_at TEXT NOT NULL){strict};
CREATE INDEX idx_club_players_club_id ON club_players (club_id);
CREATE TABLE club_seats ({id}, club_id {int} NOT NULL REFERENCES clubs (id),
  kind TEXT NOT NULL, thing_id {int} NOT NULL, seat TEXT NOT NULL,
  player_id {int} NOT NULL REFERENCES club_players (id)){strict};
CREATE UNIQUE INDEX idx_club_seats_thing_seat ON club_seats (club_id, kind, thing_id, seat);
CREATE TABLE club_merges ({id}, club_id {int} NOT NULL REFERENCES clubs (id),
  from_id {int} NOT NULL REFERENCES club_players (id),
  into_id {int} NOT NULL REFERENCES club_players (id), created_at TEXT NOT NULL){strict};
CREATE UNIQUE INDEX idx_club_merges_club_id_from_id ON club_merges (club_id, from_id);
CREATE TABLE club_seasons ({id}, club_id {int} NOT NULL REFERENCES clubs (id),
  name TEXT NOT NULL, first TEXT NOT NULL, last TEXT NOT NULL, created_at TEXT NOT NULL){strict};
CREATE INDEX idx_club_seasons_club_id ON club_seasons (club_id)
"""

PG_M148_I48_CLUBS = _M148_I48_CLUBS.format(
    id="id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", int="BIGINT", strict=""
)
"""The club's tables in PostgreSQL's words (one of PG_STEPS)."""


@MIGRATIONS()
def m148_i48_clubs(db: Database) -> None:
    """Create clubs (edit, read-only and public tokens; the public page off until turned on),
    the things attached (each in at most one club, friendly marks, played_on overrides), the
    directory, seat attachments, merges (undo deletes the row) and seasons."""
    text = _M148_I48_CLUBS.format(id="id INTEGER PRIMARY KEY", int="INTEGER", strict=" STRICT")
    for statement in text.split(";"):
        db.execute(statement)


# A club's season starts its ratings at 0 or carries the last ones over (issue 48).

PG_M149_I48_SEASON_CARRY = """ALTER TABLE club_seasons
    ADD COLUMN carry BIGINT NOT NULL DEFAULT 0"""


@MIGRATIONS()
def m149_i48_season_carry(db: Database) -> None:
    """club_seasons.carry: 1 when the season's ratings start from the last ones of the
    season before (season.md §6 `start`), 0 (every season before) when they start at 0."""
    db.table("club_seasons").add_column("carry", int, not_null_default=0)


# -- the same steps for PostgreSQL ----------------------------------------------------------

_ID = "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"

PG_STEPS: list[tuple[str, str]] = [
    (
        "m001_games_deals_revisions",
        f"""
CREATE TABLE games ({_ID}, name TEXT NOT NULL, convention TEXT NOT NULL,
  options TEXT NOT NULL, players TEXT NOT NULL, first_dealer TEXT NOT NULL,
  finished BIGINT NOT NULL, finished_snapshot TEXT, created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL, version BIGINT NOT NULL, edit_token TEXT NOT NULL,
  view_token TEXT NOT NULL);
CREATE UNIQUE INDEX idx_games_edit_token ON games (edit_token);
CREATE UNIQUE INDEX idx_games_view_token ON games (view_token);
CREATE TABLE deals ({_ID}, game_id BIGINT NOT NULL REFERENCES games (id),
  seq BIGINT NOT NULL, data TEXT NOT NULL, deleted BIGINT NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE UNIQUE INDEX idx_deals_game_id_seq ON deals (game_id, seq);
CREATE TABLE deal_revisions ({_ID}, game_id BIGINT NOT NULL REFERENCES games (id),
  deal_id BIGINT NOT NULL REFERENCES deals (id), action TEXT NOT NULL, data TEXT,
  previous TEXT, at TEXT NOT NULL, game_version BIGINT NOT NULL);
CREATE INDEX idx_deal_revisions_game_id_id ON deal_revisions (game_id, id);
CREATE INDEX idx_deal_revisions_deal_id_id ON deal_revisions (deal_id, id);
CREATE TABLE request_keys (game_id BIGINT NOT NULL REFERENCES games (id),
  request_key TEXT NOT NULL, action TEXT NOT NULL, deal_id BIGINT REFERENCES deals (id),
  created_at TEXT NOT NULL, PRIMARY KEY (game_id, request_key))
""",
    ),
    ("m002_games_deleted_at", "ALTER TABLE games ADD COLUMN deleted_at TEXT"),
    (
        "m003_companies",
        f"""
CREATE TABLE companies ({_ID}, name TEXT NOT NULL, convention TEXT NOT NULL,
  options TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  edit_token TEXT NOT NULL, view_token TEXT NOT NULL);
CREATE UNIQUE INDEX idx_companies_edit_token ON companies (edit_token);
CREATE UNIQUE INDEX idx_companies_view_token ON companies (view_token);
CREATE TABLE company_players ({_ID}, company_id BIGINT NOT NULL REFERENCES companies (id),
  name TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE INDEX idx_company_players_company_id_id ON company_players (company_id, id);
CREATE TABLE company_games (game_id BIGINT PRIMARY KEY REFERENCES games (id),
  company_id BIGINT NOT NULL REFERENCES companies (id), players TEXT NOT NULL,
  played_on TEXT NOT NULL, attached_at TEXT NOT NULL, request_key TEXT);
CREATE UNIQUE INDEX idx_company_games_company_id_request_key
  ON company_games (company_id, request_key);
CREATE TABLE company_payments ({_ID}, company_id BIGINT NOT NULL REFERENCES companies (id),
  payer BIGINT NOT NULL REFERENCES company_players (id),
  payee BIGINT NOT NULL REFERENCES company_players (id), amount TEXT NOT NULL,
  paid_on TEXT NOT NULL, game_id BIGINT REFERENCES games (id), created_at TEXT NOT NULL,
  request_key TEXT);
CREATE UNIQUE INDEX idx_company_payments_company_id_request_key
  ON company_payments (company_id, request_key)
""",
    ),
    (
        "m004_deal_confirmations",
        f"""
CREATE TABLE deal_confirmations ({_ID}, game_id BIGINT NOT NULL REFERENCES games (id),
  deal_id BIGINT NOT NULL REFERENCES deals (id), revision BIGINT NOT NULL,
  player TEXT NOT NULL, verdict TEXT NOT NULL, note TEXT NOT NULL, at TEXT NOT NULL,
  request_key TEXT);
CREATE INDEX idx_deal_confirmations_game_id_id ON deal_confirmations (game_id, id);
CREATE INDEX idx_deal_confirmations_deal_id_player_id
  ON deal_confirmations (deal_id, player, id);
CREATE UNIQUE INDEX idx_deal_confirmations_game_id_request_key
  ON deal_confirmations (game_id, request_key)
""",
    ),
    (
        "m005_tournaments",
        f"""
CREATE TABLE tournaments ({_ID}, name TEXT NOT NULL, convention TEXT NOT NULL,
  options TEXT NOT NULL, table_size BIGINT NOT NULL, bands TEXT NOT NULL,
  roster TEXT NOT NULL, withdrawals TEXT NOT NULL, tours_closed BIGINT NOT NULL,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, version BIGINT NOT NULL,
  edit_token TEXT NOT NULL, view_token TEXT NOT NULL);
CREATE UNIQUE INDEX idx_tournaments_edit_token ON tournaments (edit_token);
CREATE UNIQUE INDEX idx_tournaments_view_token ON tournaments (view_token);
CREATE TABLE tournament_tables (tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
  tour BIGINT NOT NULL, table_no BIGINT NOT NULL,
  game_id BIGINT NOT NULL REFERENCES games (id),
  PRIMARY KEY (tournament_id, tour, table_no));
CREATE UNIQUE INDEX idx_tournament_tables_game_id ON tournament_tables (game_id)
""",
    ),
    (
        "m006_schema_release",
        f"CREATE TABLE schema_release ({_ID}, release TEXT NOT NULL, written_at TEXT NOT NULL)",
    ),
    (
        "m007_wrong_passwords",
        f"""
CREATE TABLE wrong_passwords ({_ID}, client TEXT NOT NULL, at DOUBLE PRECISION NOT NULL);
CREATE INDEX idx_wrong_passwords_client_at ON wrong_passwords (client, at)
""",
    ),
    ("m107_i32_seat_claims", PG_M107_I32_SEAT_CLAIMS),
    ("m131_i31_tours_planned", PG_M131_I31_TOURS_PLANNED),
    ("m141_i31_joined", PG_M141_I31_JOINED),
    ("m148_i48_clubs", PG_M148_I48_CLUBS),
    ("m149_i48_season_carry", PG_M149_I48_SEASON_CARRY),
]

TABLES: tuple[str, ...] = (
    "games",
    "deals",
    "deal_revisions",
    "request_keys",
    "companies",
    "company_players",
    "company_games",
    "company_payments",
    "deal_confirmations",
    "seat_claims",
    "tournaments",
    "tournament_tables",
    "schema_release",
    "wrong_passwords",
    "clubs",
    "club_things",
    "club_players",
    "club_seats",
    "club_merges",
    "club_seasons",
)
"""The app's tables, every parent before the tables that point at it (copy, backup)."""


def step_names() -> list[str]:
    """The names of this release's steps, in order (the same for both engines)."""
    return [step.name for step in MIGRATIONS._migrations]


def _release_key(release: str) -> tuple[int, ...]:
    parts = []
    for part in release.split("."):
        digits = "".join(c for c in part if c in "0123456789")
        parts.append(int(digits or 0))
    return tuple(parts)


def applied_sqlite(db: Database) -> list[str]:
    """The steps an SQLite file records as applied (sqlite-utils' own table)."""
    if not db.table(Migrations.migrations_table).exists():
        return []
    return [m.name for m in MIGRATIONS.applied(db)]


def check_not_newer(engine: Engine, applied: list[str]) -> None:
    """Raise SchemaTooNew if the database records a step this release does not have, or a
    newer release as its writer."""
    unknown = [name for name in applied if name not in set(step_names())]
    writer = written_release(engine) if "m006_schema_release" in applied else None
    if unknown or (writer is not None and _release_key(writer) > _release_key(RELEASE)):
        by = f"scorekeeper {writer}" if writer else "a newer scorekeeper"
        raise SchemaTooNew(
            f"the database {engine.display} was written by {by}, newer than this release"
            f" ({RELEASE})"
            + (
                f": it has schema steps this release lacks ({', '.join(unknown)})"
                if unknown
                else ""
            )
            + "; run the newer release (or restore a backup made by"
            " this one), see docs/deploy.md (Upgrades)",
            where=engine.display,
            writer=writer,
            release=RELEASE,
            steps=tuple(unknown),
        )


def written_release(engine: Engine) -> str | None:
    """The newest release recorded as having written the database, if any."""
    return engine.value("SELECT release FROM schema_release ORDER BY id DESC LIMIT 1")  # type: ignore[no-any-return]


def record_release(engine: Engine) -> None:
    """Record this release as the newest writer (inside a write; never lowers it)."""
    writer = written_release(engine)
    if writer is not None and _release_key(writer) >= _release_key(RELEASE):
        return
    engine.execute("DELETE FROM schema_release")
    engine.insert("schema_release", {"id": 1, "release": RELEASE, "written_at": engine.now()})


_PG_MIGRATED: set[str] = set()
"""The PostgreSQL URLs this process has brought up to date (and checked)."""


def forget_postgresql_migrated() -> None:
    """Check each PostgreSQL database's schema again at its next open."""
    _PG_MIGRATED.clear()


def migrate_postgresql(engine: Engine) -> None:
    """Bring a PostgreSQL database up to date, once per process, under an advisory lock
    (another host that starts at the same time waits, then finds nothing to do)."""
    key = getattr(engine, "url", engine.display)
    if key in _PG_MIGRATED:
        return
    applied = [r["name"] for r in _pg_applied(engine)]
    pending = [(name, sql) for name, sql in PG_STEPS if name not in applied]
    check_not_newer(engine, applied)
    if pending or written_release(engine) != RELEASE:
        with engine.writing():
            engine.value("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK])
            engine.execute(
                "CREATE TABLE IF NOT EXISTS scorekeeper_migrations"
                " (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            applied = [r["name"] for r in _pg_applied(engine)]
            check_not_newer(engine, applied)
            for name, sql in PG_STEPS:
                if name in applied:
                    continue
                for statement in sql.split(";"):
                    if statement.strip():
                        engine.execute(statement)
                engine.execute(
                    "INSERT INTO scorekeeper_migrations (name, applied_at) VALUES (?, ?)",
                    [name, engine.now()],
                )
            record_release(engine)
    _PG_MIGRATED.add(key)


def _pg_applied(engine: Engine) -> list[dict[str, str]]:
    if engine.value("SELECT to_regclass('scorekeeper_migrations') IS NOT NULL") is not True:
        return []
    return engine.rows("SELECT name FROM scorekeeper_migrations ORDER BY applied_at, name")
