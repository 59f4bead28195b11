"""A real gunicorn server that a test can SIGKILL and start again, and phones that play on it.

``tests/server/conftest.py``'s ``server`` fixture only starts and stops; the
crash test needs to kill the whole process group (master and workers) and
restart on the same port and database, and every test here reads the
server's log afterwards, so this wraps the same command (``scorekeeper.cli``)
in a small class.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import requests

from scorekeeper import PROJECT_ROOT
from scorekeeper.cli import gunicorn_command
from tests.server.conftest import free_port, wait_until_serving

CARDS = [
    rank + suit
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    for suit in "SHDC"
]


class LiveServer:
    """gunicorn serving ``wsgi:app`` on ``database_url``, in a process group of its own."""

    def __init__(self, database_url: str, log_dir: Path, workers: int = 4) -> None:
        self.database_url = database_url
        self.log = log_dir / "gunicorn.log"
        self.workers = workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.env = {
            **os.environ,
            "SCOREKEEPER_DATABASE_URL": database_url,
            "SCOREKEEPER_RATE_LIMITS": "off",
        }
        self.starts = 0

    def migrate(self) -> None:
        """``scorekeeper migrate`` on the server's database."""
        subprocess.run(
            [sys.executable, "-m", "scorekeeper.cli", "migrate"],
            env=self.env,
            cwd=PROJECT_ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def start(self, timeout: float = 30) -> None:
        """Start gunicorn and wait until ``/api/v1/health`` answers 200."""
        assert self.process is None or self.process.poll() is not None
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                gunicorn_command("127.0.0.1", self.port, self.workers),
                env=self.env,
                cwd=PROJECT_ROOT,
                stdout=output,
                stderr=subprocess.STDOUT,
                # Its own process group, so that kill() takes the workers too.
                start_new_session=True,
            )
        self.starts += 1
        wait_until_serving(self.url, self.process, self.log, timeout)

    def kill(self) -> None:
        """SIGKILL the master and every worker at once, as a power cut or the OOM killer would."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        # Workers are in the same group; wait until none is left holding the port or the database
        # (a killed worker whose parent died may stay a zombie for a while: that one holds nothing).
        deadline = time.monotonic() + 10
        while group_alive(self.process.pid) and time.monotonic() < deadline:
            time.sleep(0.02)

    def stop(self) -> None:
        """A graceful stop (SIGTERM), then SIGKILL whatever is left."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def log_text(self) -> str:
        """Everything the server printed so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""


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


# Phones


def create_game(
    session: requests.Session, url: str, ruleset: str, players: list[str], **options: Any
) -> dict[str, Any]:
    """Create a game; return its body (with the token)."""
    body: dict[str, Any] = {"ruleset": ruleset, "players": players, "dealer": 0}
    if ruleset == "jhyap":
        body["starter"] = 1
    if options:
        body["options"] = options
    response = session.post(f"{url}/api/v1/games", json=body, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()


def random_entry(game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A valid entry for the next round of ``game`` (the Game body as GET returns it)."""
    active = [player for player in game["players"] if not player["eliminated"]]
    ids = [player["id"] for player in active]
    if game["ruleset"] == "jhyap":
        caller = rng.choice(ids)
        limit = game["options"]["call_limit"]
        hands = [
            {
                "player": player,
                "total": rng.randint(0, limit) if player == caller else rng.randint(0, 50),
            }
            for player in ids
        ]
        return {"caller": caller, "hands": hands}
    kept = {card for player in game["players"] for card in player.get("pile", [])}
    cards = rng.sample([card for card in CARDS if card not in kept], len(ids))
    order = rng.sample(ids, len(ids))
    return {"last_trick": [{"player": p, "card": c} for p, c in zip(order, cards, strict=True)]}


def replays_on_import(session: requests.Session, url: str, game_id: str) -> tuple[int, str]:
    """Export the game and import the export.

    The import replays every entry and refuses any result that differs.
    """
    export = session.get(f"{url}/api/v1/games/{game_id}/export", timeout=30)
    assert export.status_code == 200, export.text
    imported = session.post(f"{url}/api/v1/games/import", json=export.json(), timeout=60)
    return imported.status_code, imported.text
