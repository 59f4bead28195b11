"""The Redis that keeps the shared rate-limit counters stops, then comes back, while a table plays.

The Redis is one of this test's own (``redis-server`` on a free port, keeping nothing on disk),
so that it may be killed; the shared one of the other scale-out tests is never stopped.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.testing.games import Game
from scorekeeper.testing.live_server import free_port
from scorekeeper.testing.postgres import PrivatePostgres
from scorekeeper.testing.schemas import fresh_schema
from tests.conftest import LiveServerFactory
from tests.scale.conftest import missing

pytestmark = pytest.mark.server


class PrivateRedis:
    """A ``redis-server`` of the test's own, that it may kill and start again on its port."""

    def __init__(self, program: str) -> None:
        import redis

        self.program = program
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.client = redis.Redis.from_url(self.url, socket_timeout=1)
        self.errors = redis.RedisError
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start serving, with nothing kept on disk, and wait until it answers."""
        command = [self.program, "--bind", "127.0.0.1", "--port", str(self.port)]
        command += ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                self.client.ping()
                return
            except self.errors:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)  # the polling interval

    def kill(self) -> None:
        """Stop at once (SIGKILL), as a crash would."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)

    def counters(self) -> int:
        """How many keys it holds."""
        return int(self.client.dbsize())


@pytest.fixture
def counters_redis() -> Iterator[PrivateRedis]:
    """A Redis of the test's own, running."""
    try:
        import redis  # noqa: F401
    except ImportError:
        missing("the redis client is not installed (pip install -e '.[redis]')")
    program = shutil.which("redis-server")
    if program is None:
        missing("redis-server is not installed (Debian: apt-get install redis-server)")
    assert program is not None
    server = PrivateRedis(program)
    server.start()
    try:
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.kill()


def test_rounds_are_recorded_while_the_counters_are_down_and_counted_there_again_after(
    live_server: LiveServerFactory, postgres: PrivatePostgres, counters_redis: PrivateRedis
) -> None:
    with fresh_schema("counters", postgres.url) as database_url:
        server = live_server(
            "counters",
            database_url=database_url,
            rate_limits=True,
            workers=2,
            settings={"SCOREKEEPER_RATE_LIMIT_STORAGE_URI": counters_redis.url},
        )
        game = Game(server)
        acknowledged: list[dict[str, Any]] = []

        def play(number: int) -> None:
            response = game.post(server, number, key=f"counters-{number}")
            assert response.status_code == 201, f"round {number}: {response.text}"
            acknowledged.append(response.json())

        for number in range(1, 6):
            play(number)
        assert counters_redis.counters() > 0

        counters_redis.kill()
        for number in range(6, 16):
            play(number)

        counters_redis.start()  # empty: it kept nothing
        # A worker that found the store gone asks it again after 1, 2, 4, ... 32 s: a round a
        # second until one did. A worker that never wrote while the store was down counts there
        # at once, without a word, so the counters alone do not say the first one came back.
        deadline = time.monotonic() + 40
        number = 16
        while counters_redis.counters() == 0 or not _recovered(server.log_text()):
            assert time.monotonic() < deadline, "no server counts in Redis again"
            play(number)
            number += 1
            time.sleep(1)

        assert server.rounds(game.id) == acknowledged
        log = server.log_text()
        assert "falling back to in-memory storage" in log
        assert "Traceback" not in log
        server.stop()


def _recovered(log: str) -> bool:
    """Whether a worker said that the store it had found gone counts again."""
    return "Rate limit storage recovered" in log
