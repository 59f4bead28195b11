"""The migrations build exactly the schema the models describe, and undo it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade

from scorekeeper.app import create_app
from scorekeeper.extensions import db
from tests.conftest import fresh_schema


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
