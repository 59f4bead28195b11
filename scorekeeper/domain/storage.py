"""How the domain reaches the database: the SQLAlchemy session, one unit of work per request.

Writes lock the game they change before reading it: ``SELECT ... FOR UPDATE``
on PostgreSQL, and on SQLite a transaction begun ``IMMEDIATE``, which takes
the file's write lock up front (a deferred one that reads, then writes, fails
at once when another writer got in between).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from typing import Any

from sqlalchemy import JSON, bindparam, event, select, update
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.orm import joinedload
from sqlalchemy.types import TypeDecorator

from .. import changes
from ..extensions import db
from ..models import Game, Round, Table, utcnow
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
    """A unit of work that writes: committed if the block ends (a dry run is rolled back).

    What it changed is announced to the event streams once it commits (``changes``).
    """
    if db.session().in_transaction():  # a read earlier in this request
        db.session.rollback()
    queue = _sqlite_writers if db.engine.dialect.name == "sqlite" and not dry_run else nullcontext()
    with queue:
        db.session.connection(execution_options={"write_lock": not dry_run})
        try:
            yield
        except BaseException:
            db.session.rollback()
            changes.forget(db.session())
            raise
        if dry_run:
            db.session.rollback()
            changes.forget(db.session())
            return
        changed = changes.notify_before_commit(db.session())
        db.session.commit()
    changes.wake_after_commit(db.engine, changed)


def changed(kind: changes.Kind, row_id: str | None) -> None:
    """Note that this unit of work changes or deletes the game or table ``row_id``."""
    changes.mark(db.session(), kind, row_id)


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
# a Core statement, built once, on a connection of the pool's rather than in the request's ORM
# session: no query built, no entity loaded, no unit of work (bench/README.md, "Capacity").
_VERSIONS = {
    model: select(model.__table__.c.version).where(model.__table__.c.id == bindparam("row_id"))
    for model in (Game, Table)
}


def stored_version(model: type[Game] | type[Table], row_id: str) -> int | None:
    """The version of the game or table ``row_id`` (its ETag), or ``None`` if there is none."""
    with db.engine.connect() as connection:
        return connection.scalar(_VERSIONS[model], {"row_id": row_id})


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
        changed("table", table_id)
        db.session.execute(
            update(Table)
            .where(Table.id == table_id)
            .values(version=Table.version + 1, updated_at=utcnow())
        )


class SerialisedJSON(TypeDecorator[Any]):
    """A JSON column's value given as its JSON text, serialised before the write began."""

    impl = JSON
    cache_ok = True

    def bind_processor(self, dialect: Dialect) -> None:
        """The text goes to the database as it is (the column's own type would encode it again)."""
        return None


_ROUNDS = Round.__table__.c
_RESCORE_ITEM = (
    update(Round.__table__)
    .where(_ROUNDS.id == bindparam("row_id"))
    .values(
        result=bindparam("new_result", type_=SerialisedJSON),
        state_after=bindparam("new_state_after", type_=SerialisedJSON),
    )
)


def rescored_item(
    row_id: int, result: Mapping[str, Any], state_after: Mapping[str, Any]
) -> dict[str, Any]:
    """A history item's new result and running state for ``rescore_items``, serialised now
    (before the write lock is taken)."""
    return {
        "row_id": row_id,
        "new_result": json.dumps(result),
        "new_state_after": json.dumps(state_after),
    }


def rescore_items(rows: list[dict[str, Any]]) -> None:
    """Write history items' new results and running states, all in one statement."""
    if rows:
        db.session.execute(_RESCORE_ITEM, rows)
