"""DriverQuery: a Core SELECT sent through the driver's cursor, in autocommit."""

from __future__ import annotations

from sqlalchemy import bindparam, select

from scorekeeper.db import DriverQuery
from scorekeeper.extensions import db
from scorekeeper.models import Player

from ..conftest import counted_statements

SEAT_NAME = DriverQuery(
    select(Player.name).where(Player.game_id == bindparam("game_id"), Player.seat == bindparam("seat"))
)


def test_reads_the_row_the_parameters_name(app, table):
    table.create(players=["Asha", "Bikash", "Chandra"])
    with app.app_context():
        # Given out of order: positional drivers (SQLite) must still bind each by name.
        assert SEAT_NAME.first(db.engine, {"seat": 2, "game_id": table.id}) == ("Chandra",)
        assert SEAT_NAME.first(db.engine, {"seat": 7, "game_id": table.id}) is None


def test_is_one_statement_seen_by_the_statement_recorder(app, table):
    table.create()
    with counted_statements(app) as statements, app.app_context():
        SEAT_NAME.first(db.engine, {"seat": 0, "game_id": table.id})
    assert [statement.split()[0] for statement, _ in statements] == ["SELECT"]


def test_leaves_the_pooled_connection_transactional(app, table):
    """A connection it used still groups a write's statements into one transaction."""
    table.create(players=["Asha", "Bikash", "Chandra"])
    with app.app_context():
        SEAT_NAME.first(db.engine, {"seat": 0, "game_id": table.id})
        with db.engine.connect() as connection:
            connection.execute(Player.__table__.update().values(name="Renamed"))
            connection.rollback()
        assert SEAT_NAME.first(db.engine, {"seat": 0, "game_id": table.id}) == ("Asha",)
