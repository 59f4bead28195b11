"""The migrations build exactly the schema the models describe, and undo it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade

from scorekeeper.app import create_app
from scorekeeper.extensions import db
from scorekeeper.testing.schemas import fresh_schema


def test_upgrade_matches_the_models_and_downgrade_removes_everything(tmp_path):
    with fresh_schema("migrations") as url:
        app = create_app({"DATABASE_URL": url or f"sqlite:///{tmp_path / 'migrated.sqlite'}"})
        with app.app_context():
            upgrade()
            with db.engine.connect() as connection:
                assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
            downgrade(revision="base")
            tables = set(sa.inspect(db.engine).get_table_names()) - {"alembic_version"}
            assert tables == set()
            db.engine.dispose()


def test_the_history_revision_keeps_every_stored_game_and_starts_it_at_0(tmp_path):
    with fresh_schema("migrations") as url:
        app = create_app({"DATABASE_URL": url or f"sqlite:///{tmp_path / 'migrated.sqlite'}"})
        with app.app_context():
            upgrade(revision="afaa7cdfff5a")  # the schema before games had the revision
            game = {
                "id": "q7RkZ2x0Tb6hJpWm9aLc1A",
                "ruleset": "jhyap",
                "name": "Friday table",
                "options": "{}",
                "first_dealer": 0,
                "first_starter": 1,
                "token_hash": "0" * 64,
                "state": "{}",
                "version": 7,
                "created_at": "2026-11-29 20:01:02",
                "updated_at": "2026-11-29 20:41:07",
            }
            with db.engine.begin() as connection:
                connection.execute(
                    sa.text(
                        f"INSERT INTO games ({', '.join(game)}) "
                        f"VALUES ({', '.join(':' + key for key in game)})"
                    ),
                    game,
                )
            upgrade()
            with db.engine.connect() as connection:
                row = connection.execute(
                    sa.text("SELECT id, name, version, history_revision FROM games")
                ).one()
            assert tuple(row) == ("q7RkZ2x0Tb6hJpWm9aLc1A", "Friday table", 7, 0)
            downgrade(revision="base")
            db.engine.dispose()
