"""A real server for the tests: ``python -m scorekeeper.cli serve`` on a free loopback port.

The one launcher of the suite (``tests/conftest.py``'s ``live_server`` fixture
makes them): it starts the command a deployment runs (which migrates the
database, then execs gunicorn with the production settings), waits until
``/api/v1/health`` answers, and can stop it gracefully, SIGKILL its whole
process group, or start it again on the same port and database. Its output
(gunicorn's and the app's) goes to one log file a test can read.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import requests

from scorekeeper import PROJECT_ROOT

SCOREKEEPER = [sys.executable, "-m", "scorekeeper.cli"]
HEALTH = "/api/v1/health"
# The settings that turn the limits off or change them: unset, the server keeps its defaults.
RATE_LIMIT_SETTINGS = ("SCOREKEEPER_RATE_LIMITS", "SCOREKEEPER_ROUND_WRITE_LIMIT")


def free_port() -> int:
    """A loopback port no one listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` is still running (zombies do not count)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


class LiveServer:
    """``scorekeeper serve`` on ``database_url``, in a process group of its own, on one port."""

    def __init__(
        self,
        database_url: str,
        folder: Path,
        *,
        workers: int = 1,
        rate_limits: bool = False,
        settings: Mapping[str, str | None] | None = None,
        ready_timeout: float = 30,
    ) -> None:
        self.database_url = database_url
        self.log_path = folder / "server.log"
        self.workers = workers
        self.ready_timeout = ready_timeout
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.env = {**os.environ, "SCOREKEEPER_DATABASE_URL": database_url}
        self.env["PYTHONUNBUFFERED"] = "1"  # the log is complete whenever a test reads it
        for name in RATE_LIMIT_SETTINGS:
            self.env.pop(name, None)
        if not rate_limits:
            self.env["SCOREKEEPER_RATE_LIMITS"] = "off"
        for name, value in (settings or {}).items():
            if value is None:
                self.env.pop(name, None)
            else:
                self.env[name] = value

    def __repr__(self) -> str:
        return f"LiveServer({self.url}, {self.database_url})"

    @property
    def command(self) -> list[str]:
        """The command line that serves: ``scorekeeper serve`` with this server's options."""
        return [
            *SCOREKEEPER,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--workers",
            str(self.workers),
        ]

    @property
    def running(self) -> bool:
        """Whether the master process is alive."""
        return self.process is not None and self.process.poll() is None

    def migrate(self) -> None:
        """``scorekeeper migrate`` on the server's database (``serve`` also does it first)."""
        subprocess.run(
            [*SCOREKEEPER, "migrate"],
            env=self.env,
            cwd=PROJECT_ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def start(self) -> None:
        """Start serving and wait until ``/api/v1/health`` answers 200."""
        assert not self.running, "already serving"
        with self.log_path.open("ab") as output:
            self.process = subprocess.Popen(
                self.command,
                env=self.env,
                cwd=PROJECT_ROOT,
                stdout=output,
                stderr=subprocess.STDOUT,
                # A process group of its own (``serve`` execs gunicorn): kill() takes the workers.
                start_new_session=True,
            )
        self.starts += 1
        self.wait_until_serving()

    def wait_until_serving(self) -> None:
        """Poll the health check until it answers; fail with the log on exit or at the deadline."""
        assert self.process is not None
        deadline = time.monotonic() + self.ready_timeout
        while True:
            with contextlib.suppress(requests.RequestException):
                if requests.get(self.url + HEALTH, timeout=1).status_code == 200:
                    return
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{self.log_text()[-5000:]}")
            time.sleep(0.05)  # the polling interval

    def serve_until_exit(self, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """Run the serve command in the foreground, for a start that must fail; its exit status
        and output."""
        return subprocess.run(
            self.command,
            env=self.env,
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def kill(self) -> None:
        """SIGKILL the master and every worker at once, as a power cut or the OOM killer would."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        # Workers are in the same group; wait until none is left holding the port or the database
        # (a killed worker whose parent died may stay a zombie for a while: that one holds nothing).
        deadline = time.monotonic() + 10
        while group_alive(self.process.pid) and time.monotonic() < deadline:
            time.sleep(0.02)  # the polling interval

    def stop(self, timeout: float = 30) -> None:
        """A graceful stop (SIGTERM), then SIGKILL whatever is left of the group."""
        if not self.running:
            return
        assert self.process is not None
        self.process.terminate()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def restart(self) -> None:
        """Stop gracefully and start again, on the same port and database."""
        self.stop()
        self.start()

    def log_text(self) -> str:
        """Everything the server printed so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def rounds(self, game_id: str) -> list[dict[str, Any]]:
        """The rounds the service has recorded for ``game_id``."""
        response = requests.get(f"{self.url}/api/v1/games/{game_id}/rounds", timeout=5)
        assert response.status_code == 200, response.text
        return response.json()["rounds"]
