"""The storage layer: games and the deals as entered, kept in one SQLite file (the default)
or on a PostgreSQL server (a postgresql:// URL; see engine.py).

It keeps facts, never scores, and does not validate deals (the caller checks them with the
rules package first). It guarantees durability, order, history and safe concurrent writes.
A Store belongs to the thread that opened it; the web app opens one per request::

    with Store(path) as store:
        game = store.get_game(token)
        game, deal, created = store.add_deal(token, deal, base_version=game.version,
                                             request_key=form_key)
"""

from .engine import Engine, is_database_url
from .errors import (
    DatabaseMissing,
    DealNotFound,
    EmptyDatabase,
    GameInAClub,
    GameInOtherCompany,
    GameNotFound,
    ReadOnlyAccess,
    RequestKeyReused,
    RevisionNotFound,
    SchemaTooNew,
    StorageUnavailable,
    StoreError,
    VersionConflict,
)
from .records import DealRecord, GameRecord, Revision
from .schema import STEPS, TABLES
from .store import Store

__all__ = [
    "DatabaseMissing",
    "EmptyDatabase",
    "DealNotFound",
    "DealRecord",
    "Engine",
    "GameInAClub",
    "GameInOtherCompany",
    "GameNotFound",
    "GameRecord",
    "ReadOnlyAccess",
    "RequestKeyReused",
    "Revision",
    "RevisionNotFound",
    "SchemaTooNew",
    "StorageUnavailable",
    "STEPS",
    "Store",
    "StoreError",
    "TABLES",
    "VersionConflict",
    "is_database_url",
]
