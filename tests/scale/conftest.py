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
from typing import Any, Protocol

import pytest
import requests

from tests.conftest import LiveServerFactory, fresh_schema
from tests.live_server import LiveServer
from tests.scale.postgres import PrivatePostgres, postgres_binaries

REDIS_URL = os.environ.get("SCOREKEEPER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PLAYERS = ["Asha", "Bikash", "Chandra"]
# A Jhyap game that never ends: no halving, a limit far above the hands of 0 and 1 point.
ENDLESS: dict[str, Any] = {"elimination_limit": 10000, "halve_at": []}


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


class Reachable(Protocol):
    """A server, or the proxy in front of the servers: what has an address."""

    url: str


class Game:
    """A game of three that never ends, played by sending rounds to one server or another."""

    def __init__(self, server: Reachable) -> None:
        response = requests.post(
            f"{server.url}/api/v1/games",
            json={
                "ruleset": "jhyap",
                "players": PLAYERS,
                "dealer": 0,
                "starter": 1,
                "options": ENDLESS,
            },
            timeout=10,
        )
        assert response.status_code == 201, response.text
        created = response.json()
        self.id: str = created["id"]
        self.auth = {"Authorization": f"Bearer {created['token']}"}
        self.players: list[int] = [player["id"] for player in created["players"]]

    def entry(self, number: int) -> dict[str, Any]:
        """Round ``number``: its caller (a different seat each round) holds 0, the others 1."""
        caller = self.players[number % len(self.players)]
        hands = [{"player": p, "total": 0 if p == caller else 1} for p in self.players]
        return {"caller": caller, "hands": hands, "number": number}

    def post(
        self, server: Reachable, number: int, key: str | None = None, timeout: float = 10
    ) -> requests.Response:
        """Send round ``number`` to ``server``, with ``key`` as its ``Idempotency-Key``."""
        headers = {**self.auth, **({"Idempotency-Key": key} if key else {})}
        return requests.post(
            f"{server.url}/api/v1/games/{self.id}/rounds",
            json=self.entry(number),
            headers=headers,
            timeout=timeout,
        )
