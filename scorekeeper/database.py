"""The app's database: Flask-SQLAlchemy bound to the app, SQLite's settings, and the seam the
domain reaches it through (``domain.storage.Database``)."""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from flask import Flask, current_app
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from . import changes
from .domain.storage import Database, use_database
from .extensions import db

SQLITE_BUSY_TIMEOUT_MS = 30_000
SQLITE_PRAGMAS = (
    f"busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}",
    "journal_mode = WAL",
    "synchronous = NORMAL",
    "foreign_keys = ON",
)


def configure_sqlite(engine: Engine) -> None:
    """WAL, a busy timeout and foreign keys on ``engine``'s connections; writers begin IMMEDIATE."""

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, connection_record: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions begin in _begin below
        cursor = dbapi_connection.cursor()
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        writes = connection.get_execution_options().get("write_lock", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


# SQLite takes one writer at a time. This process's threads wait their turn here, in order,
# rather than in SQLite's busy handler, which sleeps up to 100 ms between tries.
_sqlite_writers = threading.Lock()


def _engine() -> Engine:
    return db.engine


def _write_turn() -> AbstractContextManager[Any]:
    return _sqlite_writers if db.engine.dialect.name == "sqlite" else nullcontext()


def _committed(changed: set[changes.Key]) -> None:
    changes.wake_after_commit(changes.change_feed(current_app), db.engine, changed)


APP_DATABASE = Database(
    session=db.session, engine=_engine, write_turn=_write_turn, committed=_committed
)
"""The current app's session (one per request), engine, SQLite writer queue and streams."""


def register_database(app: Flask) -> None:
    """Bind the database to ``app``, its change feed, and the domain to both."""
    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            configure_sqlite(db.engine)
        changes.register_changes(app, db.engine)
    use_database(APP_DATABASE)
