"""Engine settings (SQLite pragmas, write locks) and statements sent straight to the driver."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

from sqlalchemy import ClauseElement, event
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import Pool
from sqlalchemy.sql.compiler import SQLCompiler

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
    immediate = connection.get_execution_options().get("write_lock", False)
    if immediate:
        _enter_writer_queue(connection.info)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _enter_writer_queue(info: dict[Any, Any]) -> None:
    """Wait for this SQLite file's writer queue; the connection's check-in leaves it.

    The wait is in the kernel, woken the moment the queue is free and in turn,
    rather than in SQLite's busy handler, which sleeps up to 100 ms between tries
    and lets late comers overtake (second-long p99 under load). A process never
    queues twice, so two connections of one process cannot wait for each other.
    """
    queue = info.get("writer_queue")
    if queue is not None and not _queued:
        fcntl.flock(queue, fcntl.LOCK_EX)
        info["writer_queued"] = True
        _queued.add(id(info))


def ping_idle_connections(engine: Engine, idle_seconds: float) -> None:
    """Ping a server connection as it leaves the pool if it sat there ``idle_seconds`` or more.

    SQLAlchemy's ``pool_pre_ping`` pings at every checkout: a round trip that
    cost a quarter of a GET's CPU on PostgreSQL. A connection back in use within
    ``idle_seconds`` is taken as alive; if the server went away in that time,
    the first statement fails, the request is answered 500 ("nothing was
    changed") and the pool is emptied (``_forget_dead_connections``), so each
    worker fails at most one request. A ping that fails makes the pool open a
    new connection, as with pre-ping.
    """

    @event.listens_for(engine, "checkin")
    def _note_idle_since(dbapi_connection: Any, connection_record: Any) -> None:
        if connection_record is not None:
            connection_record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_if_idle(dbapi_connection: Any, connection_record: Any, proxy: Any) -> None:
        idle_since = connection_record.info.get("idle_since")
        if idle_since is None or time.monotonic() - idle_since < idle_seconds:
            return  # a new connection, or one in use a moment ago
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            raise DisconnectionError("The pooled connection is gone; opening a new one.") from error


def _forget_dead_connections(engine: Engine, error: BaseException, connection: Any) -> None:
    """After a lost connection, close the pool's others too: they went with the same server."""
    dbapi = engine.dialect.loaded_dbapi
    if isinstance(error, dbapi.Error) and engine.dialect.is_disconnect(error, connection, None):
        engine.dispose()


class DriverStatement:
    """A Core statement compiled once per dialect, then sent straight to a driver cursor.

    For the statements every poll and every recorded round send: SQLAlchemy's
    ``Connection``, with its transaction bookkeeping, events and reset, costs
    several times a statement itself (~250 us against ~30 us for a write on
    SQLite). The statement stays defined in Core, and its columns' types still
    convert what goes in and out (JSON, SQLite's datetimes); only the layers
    between are skipped, so it sees no SQLAlchemy events.
    """

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._compiled: dict[tuple[str, str], _CompiledStatement] = {}

    def compiled(self, dialect: Dialect) -> _CompiledStatement:
        """The statement as ``dialect`` runs it."""
        key = (dialect.name, dialect.paramstyle)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = _CompiledStatement(self.statement, dialect)
        return compiled

    def rows_alone(self, engine: Engine, parameters: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every row for ``parameters``, read by this one statement in autocommit (no BEGIN)."""
        connection = engine.raw_connection()
        driver = connection.driver_connection
        # SQLite's driver is in autocommit already (_configure_sqlite); a server's is switched.
        switch = engine.dialect.name != "sqlite"
        try:
            if switch:
                driver.autocommit = True  # type: ignore[union-attr]
            cursor = connection.cursor()
            try:
                rows = self.compiled(engine.dialect).rows(cursor, parameters)
            finally:
                cursor.close()
            if switch:
                driver.autocommit = False  # type: ignore[union-attr]
        except BaseException as error:
            connection.invalidate()  # in an unknown state: the pool will open a new one
            _forget_dead_connections(engine, error, driver)
            raise
        finally:
            connection.close()
        return rows


class _CompiledStatement:
    """SQL text for one dialect, how to bind its parameters and how to read its rows."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        self.sql = str(compiled)
        self._positions = list(compiled.positiontup or []) if dialect.positional else None
        # Each parameter by its name in the SQL: given by the caller (a bindparam without a
        # value) or a literal of the statement (the 1 of "version + 1"), and its type's
        # conversion, if any.
        self._parameters = [
            (
                name,
                bind.required,
                None if bind.required else bind.effective_value,
                bind.type.dialect_impl(dialect).bind_processor(dialect),
            )
            for bind, name in compiled.bind_names.items()
        ]
        columns = list(getattr(statement, "selected_columns", ()))
        self._keys = [column.key for column in columns]
        self._result_processors = [
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns
        ]

    def arguments(self, parameters: Mapping[str, Any]) -> Any:
        """The driver's parameters: converted by type, in order if the driver binds by position."""
        values = {}
        for name, given, literal, processor in self._parameters:
            value = parameters[name] if given else literal
            values[name] = processor(value) if processor is not None else value
        if self._positions is not None:
            return [values[name] for name in self._positions]
        return values

    def execute(self, cursor: Any, parameters: Mapping[str, Any]) -> None:
        """Send the statement on ``cursor``."""
        cursor.execute(self.sql, self.arguments(parameters))

    def rows(self, cursor: Any, parameters: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Send the statement on ``cursor`` and read every row, by column name."""
        self.execute(cursor, parameters)
        keys, processors = self._keys, self._result_processors
        return [
            {
                key: processor(value) if processor is not None else value
                for key, processor, value in zip(keys, processors, row, strict=True)
            }
            for row in cursor.fetchall()
        ]


class DriverTransaction:
    """A transaction on a driver connection, in which ``DriverStatement`` objects are sent."""

    def __init__(self, cursor: Any, dialect: Dialect) -> None:
        self._cursor = cursor
        self._dialect = dialect

    def execute(self, statement: DriverStatement, parameters: Mapping[str, Any]) -> None:
        """Send ``statement``."""
        statement.compiled(self._dialect).execute(self._cursor, parameters)

    def rows(
        self, statement: DriverStatement, parameters: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """Send ``statement`` and read its rows, by column name."""
        return statement.compiled(self._dialect).rows(self._cursor, parameters)


@contextmanager
def driver_write_transaction(engine: Engine) -> Iterator[DriverTransaction]:
    """A write transaction on a pooled driver connection: commits if the block ends, or rolls back.

    On SQLite it waits in the writer queue and begins IMMEDIATE, as
    SQLAlchemy's ``write_lock`` transactions do; a server's driver begins by
    itself. The driver's own exceptions come out (``IntegrityError`` of PEP 249).
    """
    connection = engine.raw_connection()
    driver = connection.driver_connection
    try:
        cursor = connection.cursor()
        try:
            if engine.dialect.name == "sqlite":
                _enter_writer_queue(connection.info)
                cursor.execute("BEGIN IMMEDIATE")
            yield DriverTransaction(cursor, engine.dialect)
        finally:
            cursor.close()
        connection.commit()
    except BaseException as error:
        try:
            connection.rollback()
        except Exception:
            connection.invalidate()  # in an unknown state: the pool will open a new one
        _forget_dead_connections(engine, error, driver)
        raise
    finally:
        connection.close()  # back to the pool, which lets the next writer in


@contextmanager
def recorded_statements(engine: Engine) -> Iterator[list[tuple[str, Any]]]:
    """The statements ``engine``'s connections send while the block runs, with their parameters.

    Recorded at the driver (SQLite's trace callback, psycopg's cursor), so a
    ``DriverStatement`` counts as much as a statement sent through SQLAlchemy. On
    SQLite the text has the parameters in it (and ``()`` as parameters),
    ``BEGIN`` and ``COMMIT`` included; psycopg begins and commits by itself.
    A server's ping of an idle connection is not recorded: it runs before the checkout.
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
