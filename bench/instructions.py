"""CPU instructions per request, in-process, counted by valgrind: a figure that noise cannot move.

    .venv/bin/python bench/instructions.py [--requests 200] [--scenarios abcd]

Requests/s on a shared machine move by +-20 % from one run to the next;
instructions executed do not. Each scenario runs twice under ``valgrind
--tool=callgrind`` in a fresh process (the same seeding, then ``--base`` or
``--base`` + ``--requests`` requests through the WSGI callable, no server), and
the difference divided by ``--requests`` is one request's instructions: the
app's own cost, without gunicorn, sockets or the kernel, which the ceiling
shares. Scenarios as in ``run.py``: (a) the bare Flask ceiling, (b) GET a game
of 5 players and 50 rounds, (c) POST a Jhyap round with totals, (d) with cards.
SQLite, in a temporary directory; the request log goes to /dev/null. Rate
limits are off, as in ``run.py``; ``--rate-limits`` turns them on (the
defaults, which these requests stay under) to count what they cost. Needs
valgrind (Debian package ``valgrind``); takes 1-2 minutes per scenario.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent

SCENARIOS = {
    "a": "ceiling: bare Flask JSON",
    "b": "GET a game (5 players, 50 rounds)",
    "c": "POST a round, totals",
    "d": "POST a round, cards",
}
GAMES_POSTED_TO = 10


def environ(method: str, path: str, body: bytes = b"", token: str | None = None) -> dict[str, Any]:
    """A WSGI environ as gunicorn would pass it, for one request."""
    env: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if body:
        env["CONTENT_TYPE"] = "application/json"
        env["CONTENT_LENGTH"] = str(len(body))
    if token:
        env["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return env


def serve(application: Callable[..., Iterable[bytes]], env: dict[str, Any]) -> str:
    """Send one request through ``application``; its status line."""
    statuses: list[str] = []
    body = application(env, lambda status, headers, exc_info=None: statuses.append(status))
    try:
        b"".join(body)
    finally:
        close = getattr(body, "close", None)
        if close is not None:
            close()
    return statuses[0]


def worker(scenario: str, count: int, rate_limits: bool) -> None:
    """Seed a fresh database, then send ``count`` requests of ``scenario`` (run under valgrind)."""
    sys.path[:0] = [str(ROOT), str(BENCH)]
    os.environ["SCOREKEEPER_RATE_LIMITS"] = "on" if rate_limits else "off"
    from ceiling_app import app as ceiling
    from seed import bench_app, cards_entry, seed_read_and_posted, totals_entry

    directory = tempfile.mkdtemp(prefix="scorekeeper-instructions-")
    try:
        app = bench_app(f"sqlite:///{directory}/bench.sqlite", rate_limits)
        game, posted = seed_read_and_posted(app, GAMES_POSTED_TO)
        entry = totals_entry if scenario == "c" else cards_entry
        bodies = [json.dumps(entry(target.player_ids, 0)).encode() for target in posted]
        gc.freeze()  # as gunicorn's master does before forking a worker (gunicorn_config.pre_fork)
        sys.stdout = open(os.devnull, "w")  # the request log  # noqa: SIM115

        def request(index: int) -> str:
            if scenario == "a":
                return serve(ceiling, environ("GET", "/ceiling"))
            if scenario == "b":
                return serve(app, environ("GET", f"/api/v1/games/{game.id}"))
            target = index % GAMES_POSTED_TO
            path = f"/api/v1/games/{posted[target].id}/rounds"
            return serve(app, environ("POST", path, bodies[target], posted[target].token))

        request(0)  # the first request of each kind warms what a running worker has warm
        for index in range(1, count + 1):
            status = request(index)
            if status[0] != "2":
                raise SystemExit(f"scenario {scenario}: request {index} answered {status}")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def instructions(scenario: str, count: int, rate_limits: bool) -> int:
    """Instructions valgrind counts for a worker process sending ``count`` requests."""
    result = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--worker",
            scenario,
            str(count),
            *(["--rate-limits"] if rate_limits else []),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        check=False,
    )
    for line in result.stderr.splitlines():
        if "Collected :" in line:
            if result.returncode != 0:
                break
            return int(line.rsplit(":", 1)[1].strip())
    raise SystemExit(f"scenario {scenario} failed:\n{result.stderr[-3000:]}")


def per_request(scenario: str, base: int, requests: int, rate_limits: bool) -> float:
    """One request's instructions: the difference of two runs over the extra requests."""
    low = instructions(scenario, base, rate_limits)
    high = instructions(scenario, base + requests, rate_limits)
    return (high - low) / requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="requests in the difference")
    parser.add_argument("--base", type=int, default=50, help="requests in the shorter run")
    parser.add_argument("--scenarios", default="abcd")
    parser.add_argument("--rate-limits", action="store_true", help="with rate limits on")
    parser.add_argument("--worker", nargs=2, metavar=("SCENARIO", "COUNT"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        worker(arguments.worker[0], int(arguments.worker[1]), arguments.rate_limits)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("bench: valgrind is not installed; on Debian: apt-get install -y valgrind")
    scenarios = [scenario for scenario in "abcd" if scenario in arguments.scenarios]
    if "a" not in scenarios:
        scenarios.insert(0, "a")

    def measured(scenario: str) -> float:
        return per_request(scenario, arguments.base, arguments.requests, arguments.rate_limits)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        counts = dict(zip(scenarios, pool.map(measured, scenarios), strict=True))
    print("| scenario | instructions per request | ratio (a)/x |")
    print("|---|---:|---:|")
    for scenario, count in counts.items():
        print(f"| ({scenario}) {SCENARIOS[scenario]} | {count:,.0f} | {counts['a'] / count:.2f} |")


if __name__ == "__main__":
    main()
