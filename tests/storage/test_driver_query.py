"""DriverStatement: Core statements sent straight to the driver, alone or in a write transaction."""

from __future__ import annotations

from sqlalchemy import bindparam, select

from scorekeeper import games
from scorekeeper.db import DriverStatement
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player

from ..conftest import counted_statements

SEAT_NAME = DriverStatement(
    select(Player.name).where(
        Player.game_id == bindparam("game_id"), Player.seat == bindparam("seat")
    )
)


def test_reads_the_row_the_parameters_name(app, table):
    table.create(players=["Asha", "Bikash", "Chandra"])
    with app.app_context():
        # Given out of order: positional drivers (SQLite) must still bind each by name.
        assert SEAT_NAME.rows_alone(db.engine, {"seat": 2, "game_id": table.id}) == [
            {"name": "Chandra"}
        ]
        assert SEAT_NAME.rows_alone(db.engine, {"seat": 7, "game_id": table.id}) == []


def test_is_one_statement_seen_by_the_statement_recorder(app, table):
    table.create()
    with counted_statements(app) as statements, app.app_context():
        SEAT_NAME.rows_alone(db.engine, {"seat": 0, "game_id": table.id})
    assert [statement.split()[0] for statement, _ in statements] == ["SELECT"]


def test_leaves_the_pooled_connection_transactional(app, table):
    """A connection it used still groups a write's statements into one transaction."""
    table.create(players=["Asha", "Bikash", "Chandra"])
    with app.app_context():
        SEAT_NAME.rows_alone(db.engine, {"seat": 0, "game_id": table.id})
        with db.engine.connect() as connection:
            connection.execute(Player.__table__.update().values(name="Renamed"))
            connection.rollback()
        assert SEAT_NAME.rows_alone(db.engine, {"seat": 0, "game_id": table.id}) == [
            {"name": "Asha"}
        ]


def test_a_round_recorded_in_process_ends_the_sessions_earlier_read(app, table):
    """Scripts (the bench's seeding, the CLI) read through the session, record, then write."""
    table.create(players=["Asha", "Bikash", "Chandra"])
    with app.app_context():
        game = db.session.get(Game, table.id)  # a read transaction, left open
        assert game is not None
        entry = table.jhyap_entry(0, (0, 5, 7))
        assert games.record_round(table.id, table.token, entry).status == 201
        created, _ = games.create_game({"ruleset": "jhyap", "players": ["Dipa", "Esha"]})
        assert games.load_game(created.game.id).game.players[1].name == "Esha"
        assert games.load_game(table.id).state.rounds_played == 1
