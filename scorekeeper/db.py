"""Database engine settings: SQLite pragmas, write locks and transactions."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Select, event
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.pool import Pool

SQLITE_BUSY_TIMEOUT_MS = 30_000
_queued: set[int] = set()  # this process's connections holding the writer queue


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
    path = next((row[2] for row in cursor.execute("PRAGMA database_list") if row[1] == "main"), "")
    cursor.close()
    if path:  # a file, not an in-memory database: writers queue on "<file>-writers"
        queue = os.open(f"{path}-writers", os.O_RDWR | os.O_CREAT, 0o600)
        connection_record.info["writer_queue"] = queue


@event.listens_for(Engine, "begin")
def _begin(connection: Connection) -> None:
    """Start SQLite write transactions with ``BEGIN IMMEDIATE``.

    A deferred transaction that reads and then writes fails at once with
    "database is locked" when another writer got in between; taking the
    write lock up front makes writers queue on the busy timeout instead.
    """
    if connection.dialect.name != "sqlite":
        return
    if connection.get_execution_options().get("single_statement", False):
        return  # the driver is in autocommit: the statement is a transaction by itself
    immediate = connection.get_execution_options().get("write_lock", False)
    queue = connection.info.get("writer_queue")
    if immediate and queue is not None and not _queued:
        # Wait for the write lock in the kernel, woken the moment it is free and in turn,
        # rather than in SQLite's busy handler, which sleeps up to 100 ms between tries and
        # lets late comers overtake (second-long p99 under load). A process never queues
        # twice, so two connections of one process cannot wait for each other.
        fcntl.flock(queue, fcntl.LOCK_EX)
        connection.info["writer_queued"] = True
        _queued.add(id(connection.info))
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


@contextmanager
def single_statement_connection(engine: Engine) -> Iterator[Connection]:
    """A connection for one SELECT, which is consistent by itself: no BEGIN, no ROLLBACK.

    SQLite's driver is already in autocommit (``_configure_sqlite``), so it is
    enough not to begin; switching it to SQLAlchemy's AUTOCOMMIT level would
    cost a PRAGMA to switch back at check-in. A server's driver is switched.
    """
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            yield connection.execution_options(single_statement=True)
        else:
            yield connection.execution_options(isolation_level="AUTOCOMMIT")


class DriverQuery:
    """A Core SELECT compiled once per dialect and sent straight through a pooled driver connection.

    For the one statement every poll of a game sends (its version): SQLAlchemy's
    ``Connection``, with its transaction bookkeeping and reset, costs several
    times the query itself. The statement stays defined in Core; only its
    execution skips the layers, so it sees no SQLAlchemy events and its row is
    the driver's tuple.
    """

    def __init__(self, statement: Select[Any]) -> None:
        self.statement = statement
        self._compiled: dict[tuple[str, str], tuple[str, list[str] | None]] = {}

    def _compile(self, dialect: Dialect) -> tuple[str, list[str] | None]:
        """The SQL text for ``dialect`` and, if it binds by position, the parameters' order."""
        key = (dialect.name, dialect.paramstyle)
        compiled = self._compiled.get(key)
        if compiled is None:
            statement = self.statement.compile(dialect=dialect)
            positions = list(statement.positiontup or []) if dialect.positional else None
            compiled = self._compiled[key] = (str(statement), positions)
        return compiled

    def first(self, engine: Engine, parameters: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The first row for ``parameters``, read in autocommit; ``None`` if there is none."""
        sql, positions = self._compile(engine.dialect)
        arguments: Any = parameters
        if positions is not None:
            arguments = [parameters[name] for name in positions]
        connection = engine.raw_connection()
        driver = connection.driver_connection
        # SQLite's driver is in autocommit already (_configure_sqlite); a server's is switched.
        switch = engine.dialect.name != "sqlite"
        try:
            if switch:
                driver.autocommit = True  # type: ignore[union-attr]
            cursor = connection.cursor()
            try:
                cursor.execute(sql, arguments)
                row: tuple[Any, ...] | None = cursor.fetchone()
            finally:
                cursor.close()
            if switch:
                driver.autocommit = False  # type: ignore[union-attr]
        except BaseException:
            connection.invalidate()  # in an unknown state: the pool will open a new one
            raise
        finally:
            connection.close()
        return row


@contextmanager
def recorded_statements(engine: Engine) -> Iterator[list[tuple[str, Any]]]:
    """The statements ``engine``'s connections send while the block runs, with their parameters.

    Recorded at the driver (SQLite's trace callback, psycopg's cursor), so a
    ``DriverQuery`` counts as much as a statement sent through SQLAlchemy. On
    SQLite the text has the parameters in it (and ``()`` as parameters),
    ``BEGIN`` and ``COMMIT`` included; psycopg begins and commits by itself.
    A server's pre-ping is not recorded: it runs before the checkout.
    """
    statements: list[tuple[str, Any]] = []
    undo: dict[int, Any] = {}

    def record(dbapi_connection: Any, connection_record: Any, proxy: Any) -> None:
        if type(dbapi_connection).__module__ == "sqlite3":
            dbapi_connection.set_trace_callback(lambda sql: statements.append((sql, ())))
            undo[id(dbapi_connection)] = lambda: dbapi_connection.set_trace_callback(None)
        else:
            plain = dbapi_connection.cursor_factory

            class RecordingCursor(plain):  # type: ignore[valid-type, misc]
                def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
                    statements.append((str(query), params))
                    return super().execute(query, params, **kwargs)

                def executemany(self, query: Any, params_seq: Any, **kwargs: Any) -> Any:
                    params_seq = list(params_seq)
                    statements.extend((str(query), params) for params in params_seq)
                    return super().executemany(query, params_seq, **kwargs)

            dbapi_connection.cursor_factory = RecordingCursor
            undo[id(dbapi_connection)] = lambda: setattr(dbapi_connection, "cursor_factory", plain)

    def stop(dbapi_connection: Any, connection_record: Any) -> None:
        undo.pop(id(dbapi_connection), lambda: None)()

    event.listen(engine, "checkout", record)
    event.listen(engine, "checkin", stop)
    try:
        yield statements
    finally:
        event.remove(engine, "checkout", record)
        event.remove(engine, "checkin", stop)
        for restore in undo.values():
            restore()


@event.listens_for(Pool, "checkin")
def _leave_writer_queue(dbapi_connection: Any, connection_record: Any) -> None:
    """Let the next writer in once this connection's transaction is over."""
    if connection_record is not None and connection_record.info.pop("writer_queued", False):
        _queued.discard(id(connection_record.info))
        fcntl.flock(connection_record.info["writer_queue"], fcntl.LOCK_UN)


@event.listens_for(Pool, "close")
def _close_writer_queue(dbapi_connection: Any, connection_record: Any) -> None:
    """Close a closed connection's writer queue file, and with it any lock it held."""
    if connection_record is None:
        return
    if connection_record.info.pop("writer_queued", False):
        _queued.discard(id(connection_record.info))
    queue = connection_record.info.pop("writer_queue", None)
    if queue is not None:
        os.close(queue)
