"""How the domain reaches the database: a SQLAlchemy session it is given, one unit of work per
request.

The edge hands the domain a ``Database`` (``use_database``): the app's is Flask-SQLAlchemy's
scoped session (``scorekeeper/database.py``); the domain's own tests give a plain one. Writes lock
the game they change before reading it: ``SELECT ... FOR UPDATE`` on PostgreSQL, and on SQLite a
transaction begun ``IMMEDIATE`` (the engine's setup, at the edge), which takes the file's write
lock up front.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import JSON, bindparam, select, update
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.orm import Session, joinedload
from sqlalchemy.types import TypeDecorator

from .. import changes
from ..models import Game, Round, Table, utcnow
from .errors import GameNotFound, TableNotFound


def _no_turn() -> AbstractContextManager[None]:
    return nullcontext()


def _nobody_listens(keys: set[changes.Key]) -> None:
    return None


@dataclass(frozen=True)
class Database:
    """What the domain is given to reach the database."""

    session: Callable[[], Session]  # this unit of work's session (one per request or thread)
    engine: Callable[[], Engine]
    # Waits this process's turn to write (SQLite takes one writer at a time).
    write_turn: Callable[[], AbstractContextManager[None]] = _no_turn
    # After a commit: what it changed, for this process's event streams.
    committed: Callable[[set[changes.Key]], None] = _nobody_listens


_database: Database | None = None


def use_database(database: Database | None) -> Database | None:
    """Reach the database through ``database`` from now on; the one given before."""
    global _database
    before, _database = _database, database
    return before


def _given() -> Database:
    if _database is None:
        raise RuntimeError("No database given to the domain (storage.use_database).")
    return _database


def session() -> Session:
    """This unit of work's session."""
    return _given().session()


def engine() -> Engine:
    """The engine behind the session."""
    return _given().engine()


def dialect() -> str:
    """The database's kind: ``sqlite`` or ``postgresql``."""
    return engine().dialect.name


@contextmanager
def writing(*, dry_run: bool = False) -> Iterator[None]:
    """A unit of work that writes: committed if the block ends (a dry run is rolled back).

    What it changed is announced to the event streams once it commits (``changes``).
    """
    database = _given()
    unit = database.session()
    if unit.in_transaction():  # a read earlier in this request
        unit.rollback()
    with nullcontext() if dry_run else database.write_turn():
        unit.connection(execution_options={"write_lock": not dry_run})
        try:
            yield
        except BaseException:
            unit.rollback()
            changes.forget(unit)
            raise
        if dry_run:
            unit.rollback()
            changes.forget(unit)
            return
        changed = changes.notify_before_commit(unit)
        unit.commit()
    database.committed(changed)


def check_database() -> None:
    """Ask the database the smallest question: an error if it does not answer."""
    session().execute(select(1))


def changed(kind: changes.Kind, row_id: str | None) -> None:
    """Note that this unit of work changes or deletes the game or table ``row_id``."""
    changes.mark(session(), kind, row_id)


@contextmanager
def reading_one_snapshot() -> Iterator[None]:
    """A unit of work that reads several statements as of one moment."""
    unit = session()
    if unit.in_transaction():
        unit.rollback()
    if dialect() == "postgresql":  # READ COMMITTED sees each statement anew
        unit.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    try:
        yield
    finally:
        unit.rollback()


# Most requests are phones polling with the ETag they have, answered from the version alone:
# a Core statement, built once, on a connection of the pool's rather than in the request's ORM
# session: no query built, no entity loaded, no unit of work (bench/README.md, "Capacity").
_VERSIONS = {
    model: select(model.__table__.c.version).where(model.__table__.c.id == bindparam("row_id"))
    for model in (Game, Table)
}


def stored_version(model: type[Game] | type[Table], row_id: str) -> int | None:
    """The version of the game or table ``row_id`` (its ETag), or ``None`` if there is none."""
    with engine().connect() as connection:
        return connection.scalar(_VERSIONS[model], {"row_id": row_id})


def find_game(game_id: str, *, lock: bool = False) -> Game:
    """The game with its players, locked for this unit of work if ``lock``."""
    query = select(Game).options(joinedload(Game.players)).where(Game.id == game_id)
    if lock:
        query = query.with_for_update(of=Game)
    game = session().scalars(query).unique().first()
    if game is None:
        raise GameNotFound("There is no game with this id.")
    return game


def find_table(table_id: str, *, lock: bool = False) -> Table:
    """The table with its roster, locked for this unit of work if ``lock``."""
    query = select(Table).where(Table.id == table_id)
    if lock:
        query = query.with_for_update()
    table = session().scalars(query).first()
    if table is None:
        raise TableNotFound("There is no table with this id.")
    return table


def touch_table(table_id: str | None) -> None:
    """Raise the version of the table a game belongs to (its standings or games changed)."""
    if table_id is not None:
        changed("table", table_id)
        session().execute(
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


_ROUNDS_TABLE = cast(sa.Table, Round.__table__)  # Core, not the ORM: one statement for many rows
_ROUNDS = _ROUNDS_TABLE.c
_RESCORE_ITEM = (
    update(_ROUNDS_TABLE)
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
        session().execute(_RESCORE_ITEM, rows)
