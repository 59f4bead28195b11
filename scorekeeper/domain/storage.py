"""How the domain reaches the database: the SQLAlchemy session, one unit of work per request.

Writes lock the game they change before reading it: ``SELECT ... FOR UPDATE``
on PostgreSQL, and on SQLite a transaction begun ``IMMEDIATE``, which takes
the file's write lock up front (a deferred one that reads, then writes, fails
at once when another writer got in between).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from sqlalchemy import bindparam, event, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import joinedload

from ..extensions import db
from ..models import Game, Table, utcnow
from .errors import GameNotFound, TableNotFound

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


@contextmanager
def writing(*, dry_run: bool = False) -> Iterator[None]:
    """A unit of work that writes: committed if the block ends (a dry run is rolled back)."""
    if db.session().in_transaction():  # a read earlier in this request
        db.session.rollback()
    queue = _sqlite_writers if db.engine.dialect.name == "sqlite" and not dry_run else nullcontext()
    with queue:
        db.session.connection(execution_options={"write_lock": not dry_run})
        try:
            yield
        except BaseException:
            db.session.rollback()
            raise
        if dry_run:
            db.session.rollback()
        else:
            db.session.commit()


@contextmanager
def reading_one_snapshot() -> Iterator[None]:
    """A unit of work that reads several statements as of one moment."""
    if db.session().in_transaction():
        db.session.rollback()
    if db.engine.dialect.name == "postgresql":  # READ COMMITTED sees each statement anew
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    try:
        yield
    finally:
        db.session.rollback()


# Most requests are phones polling with the ETag they have, answered from the version alone:
# a Core statement, built once, reads it without building a query or loading an ORM entity
# (bench/README.md, "Capacity").
_VERSIONS = {
    model: select(model.__table__.c.version).where(model.__table__.c.id == bindparam("row_id"))
    for model in (Game, Table)
}


def stored_version(model: type[Game] | type[Table], row_id: str) -> int | None:
    """The version of the game or table ``row_id`` (its ETag), or ``None`` if there is none."""
    return db.session.scalar(_VERSIONS[model], {"row_id": row_id})


def find_game(game_id: str, *, lock: bool = False) -> Game:
    """The game with its players, locked for this unit of work if ``lock``."""
    query = select(Game).options(joinedload(Game.players)).where(Game.id == game_id)
    if lock:
        query = query.with_for_update(of=Game)
    game = db.session.scalars(query).unique().first()
    if game is None:
        raise GameNotFound("There is no game with this id.")
    return game


def find_table(table_id: str, *, lock: bool = False) -> Table:
    """The table with its roster, locked for this unit of work if ``lock``."""
    query = select(Table).where(Table.id == table_id)
    if lock:
        query = query.with_for_update()
    table = db.session.scalars(query).first()
    if table is None:
        raise TableNotFound("There is no table with this id.")
    return table


def touch_table(table_id: str | None) -> None:
    """Raise the version of the table a game belongs to (its standings or games changed)."""
    if table_id is not None:
        db.session.execute(
            update(Table)
            .where(Table.id == table_id)
            .values(version=Table.version + 1, updated_at=utcnow())
        )
