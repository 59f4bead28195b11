"""Two app servers, as if on two machines, in front of one PostgreSQL and one Redis.

The PostgreSQL is a cluster of these tests' own (``postgres.py``), so that a test may
restart it; the app's tables are in a schema made for the run, as in the rest of the suite.
The servers share the rate-limit counters in Redis (``SCOREKEEPER_TEST_REDIS_URL``,
``redis://127.0.0.1:6379/0`` unless set) under a key prefix of the run's own, deleted
after. Without PostgreSQL's binaries or a Redis that answers, the tests are skipped, except
in CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest

from scorekeeper.testing.live_server import LiveServer
from scorekeeper.testing.postgres import PrivatePostgres, postgres_binaries
from scorekeeper.testing.schemas import fresh_schema
from tests.conftest import LiveServerFactory

REDIS_URL = os.environ.get("SCOREKEEPER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def missing(reason: str) -> None:
    """Skip for want of ``reason``, or fail in CI, where these tests must run."""
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PrivatePostgres]:
    """A PostgreSQL cluster of the scale-out tests' own, running."""
    binaries = postgres_binaries()
    if binaries is None:
        missing("PostgreSQL's binaries are not under /usr/lib/postgresql/*/bin")
    assert binaries is not None
    cluster = PrivatePostgres(binaries)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture(scope="session")
def redis_prefix() -> Iterator[str]:
    """A key prefix of the run's own in the test Redis; its keys are deleted afterwards."""
    try:
        import redis
    except ImportError:
        missing("the redis client is not installed (pip install -e '.[redis]')")
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.RedisError as error:
        missing(f"no Redis answers at {REDIS_URL}: {error}")
    prefix = f"scale-{secrets.token_hex(6)}"
    try:
        yield prefix
    finally:
        for key in client.scan_iter(match=f"*/{prefix}/*"):
            client.delete(key)
        client.close()


@pytest.fixture(scope="module")
def pair(
    live_server: LiveServerFactory, redis_prefix: str, postgres: PrivatePostgres
) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two ``scorekeeper serve`` (two workers each) on one database, sharing the counters."""
    settings = {
        "SCOREKEEPER_RATE_LIMIT_STORAGE_URI": REDIS_URL,
        "SCOREKEEPER_RATE_LIMIT_KEY_PREFIX": redis_prefix,
    }
    with fresh_schema("scale", postgres.url) as database_url:
        # One after the other: each ``serve`` migrates first, the second finds nothing to do.
        servers = tuple(
            live_server(
                name,
                database_url=database_url,
                rate_limits=True,
                workers=2,
                settings=settings,
            )
            for name in ("scale_a", "scale_b")
        )
        try:
            yield servers  # type: ignore[misc]
        finally:
            for server in servers:
                server.stop()
