"""Shared by the storage tests: an app on a database no migration has touched yet."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.app import create_app
from scorekeeper.extensions import db
from scorekeeper.testing.schemas import fresh_schema


@pytest.fixture
def unmigrated_app(tmp_path: Path) -> Iterator[Flask]:
    """An app (rate limits off) on an empty database (a SQLite file, or a schema of its own on
    the test server), for a test that migrates it itself; its connections closed after."""
    with fresh_schema("migrated") as url:
        app = create_app(
            {"DATABASE_URL": url or f"sqlite:///{tmp_path / 'old.sqlite'}", "RATE_LIMITS": "off"}
        )
        try:
            yield app
        finally:
            with app.app_context():
                db.engine.dispose()
