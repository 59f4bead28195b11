"""Rate limits as ``scorekeeper serve`` keeps them: the stated numbers, in its default set-up."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from scorekeeper import PROJECT_ROOT
from tests.conftest import fresh_schema

from .conftest import free_port, wait_until_serving

pytestmark = pytest.mark.server
SCOREKEEPER = [sys.executable, "-m", "scorekeeper.cli"]


def limited_env(database_url: str) -> dict[str, str]:
    """The environment of a server with the default limits on."""
    env = {**os.environ, "SCOREKEEPER_DATABASE_URL": database_url}
    for name in ("SCOREKEEPER_RATE_LIMITS", "SCOREKEEPER_ROUND_WRITE_LIMIT"):
        env.pop(name, None)
    return env


@pytest.fixture(scope="module")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database of its own: a SQLite file, or a fresh PostgreSQL schema."""
    with fresh_schema("limits") as url:
        yield url or f"sqlite:///{tmp_path_factory.mktemp('limits') / 'scorekeeper.sqlite'}"


@pytest.fixture(scope="module")
def default_server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``scorekeeper serve`` with every default but the port: rate limits on."""
    log = Path(tmp_path_factory.mktemp("limits-log")) / "serve.log"
    port = free_port()
    with log.open("wb") as output:
        process = subprocess.Popen(
            [*SCOREKEEPER, "serve", "--port", str(port)],
            env=limited_env(database_url),
            cwd=PROJECT_ROOT,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_serving(base, process, log)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=30)


def test_a_game_gets_exactly_120_round_writes_a_minute(default_server: str) -> None:
    created = requests.post(
        f"{default_server}/api/v1/games",
        json={"ruleset": "jhyap", "players": ["Asha", "Bikash"], "dealer": 0, "starter": 1},
        timeout=10,
    ).json()
    url = f"{default_server}/api/v1/games/{created['id']}/rounds"
    auth = {"Authorization": f"Bearer {created['token']}"}
    ids = [player["id"] for player in created["players"]]
    with requests.Session() as session:
        first = session.post(
            url,
            json={"caller": ids[0], "hands": [{"player": i, "total": 3} for i in ids]},
            headers=auth,
            timeout=10,
        )
        assert first.status_code == 201, first.text
        assert first.headers["X-RateLimit-Limit"] == "120"  # the limit a round write spends
        assert first.headers["X-RateLimit-Remaining"] == "119"
        # Undoing a round not played is refused, but spends a write all the same.
        statuses = [
            session.delete(f"{url}/2", headers=auth, timeout=10).status_code for _ in range(120)
        ]
    assert statuses == [404] * 119 + [429]
    assert len(requests.get(url, timeout=5).json()["rounds"]) == 1


def test_several_workers_with_counters_in_memory_refuse_to_start(database_url: str) -> None:
    finished = subprocess.run(
        [*SCOREKEEPER, "serve", "--port", str(free_port()), "--workers", "3"],
        env=limited_env(database_url),
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode != 0
    assert "3 worker processes would each count the rate limits" in finished.stderr
    assert "SCOREKEEPER_RATE_LIMIT_STORAGE_URI" in finished.stderr
