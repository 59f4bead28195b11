"""Database engine settings: SQLite pragmas, write locks and transactions."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

SQLITE_BUSY_TIMEOUT_MS = 30_000


@event.listens_for(Engine, "connect")
def _configure_sqlite(dbapi_connection: Any, connection_record: Any) -> None:
    """WAL, a busy timeout and foreign keys on every SQLite connection.

    The driver's own transaction handling is turned off so that ``_begin``
    below decides how each transaction starts.
    """
    if type(dbapi_connection).__module__ != "sqlite3":
        return
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


@event.listens_for(Engine, "begin")
def _begin(connection: Connection) -> None:
    """Start SQLite write transactions with ``BEGIN IMMEDIATE``.

    A deferred transaction that reads and then writes fails at once with
    "database is locked" when another writer got in between; taking the
    write lock up front makes writers queue on the busy timeout instead.
    """
    if connection.dialect.name != "sqlite":
        return
    immediate = connection.get_execution_options().get("write_lock", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
