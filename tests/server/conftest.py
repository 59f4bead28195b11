"""A real gunicorn server, migrated with ``scorekeeper migrate``, on a free loopback port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from scorekeeper import PROJECT_ROOT
from tests.conftest import fresh_schema


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_serving(
    base_url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 30
) -> None:
    """Wait until the server answers its health check; fail with its log if it stops or stalls."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if requests.get(f"{base_url}/api/v1/health", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            text = log.read_text(errors="replace") if log.exists() else ""
            raise RuntimeError(f"gunicorn did not start:\n{text[-5000:]}")
        time.sleep(0.05)


@pytest.fixture(scope="module")
def server_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database of its own for the server: a SQLite file, or a fresh PostgreSQL schema."""
    with fresh_schema("server") as url:
        yield url or f"sqlite:///{tmp_path_factory.mktemp('server') / 'scorekeeper.sqlite'}"


@pytest.fixture(scope="module")
def server_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the module's server writes its output (gunicorn's and the app's)."""
    return Path(tmp_path_factory.mktemp("logs")) / "gunicorn.log"


@pytest.fixture(scope="module")
def server(server_database: str, server_log: Path) -> Iterator[str]:
    """Base URL of a gunicorn server with four workers on the test database."""
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": server_database,
        "SCOREKEEPER_RATE_LIMITS": "off",
    }
    scorekeeper = [sys.executable, "-m", "scorekeeper.cli"]
    subprocess.run([*scorekeeper, "migrate"], env=env, check=True, cwd=PROJECT_ROOT)
    port = free_port()
    log = server_log
    with log.open("wb") as output:
        process = subprocess.Popen(
            [*scorekeeper, "serve", "--port", str(port), "--workers", "4"],
            env=env,
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
