"""A schema of its own on the test PostgreSQL server, for a run, a test or a benchmark."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import sqlalchemy as sa

SERVER_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")
"""The PostgreSQL server the suite runs on; unset, it runs on SQLite."""


@contextmanager
def fresh_schema(prefix: str, server_url: str | None = SERVER_URL) -> Iterator[str | None]:
    """The URL of a new, empty schema on ``server_url`` (the test server), dropped afterwards;
    ``None`` on SQLite."""
    if not server_url:
        yield None
        return
    schema = f"{prefix}_{secrets.token_hex(6)}"
    url = server_url.replace("postgresql://", "postgresql+psycopg://", 1)
    engine = sa.create_engine(url, pool_pre_ping=True)  # the server may have restarted since
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in server_url else "?"
    try:
        yield f"{server_url}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()
