"""Two app servers in front of one PostgreSQL and one Redis: rounds spread over both.

    .venv/bin/python bench/two_servers.py [--games 20] [--rounds 15] [--phones 10]

Starts two ``scorekeeper serve`` (``scorekeeper/testing/live_server.py``, as the tests do) on one
database, with rate limits on and their counters in Redis, as README "Operations" runs them.
Without ``--database-url`` the database is a PostgreSQL cluster of the bench's own
(``scorekeeper/testing/postgres.py``), removed afterwards. Each phone plays its games one round at a
time, round n to server n % 2, with an ``Idempotency-Key``, and reads the game after each
round as a table's phones do. Then every game's rounds are read back from both servers and
compared with what was acknowledged. Prints one Markdown table; see bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.testing.games import Game  # noqa: E402
from scorekeeper.testing.live_server import LiveServer  # noqa: E402
from scorekeeper.testing.postgres import PrivatePostgres, postgres_binaries  # noqa: E402
from scorekeeper.testing.schemas import fresh_schema  # noqa: E402


def play(servers: list[LiveServer], rounds: int) -> dict[str, Any]:
    """Create a game on the first server and play ``rounds`` rounds over both."""
    game = Game(servers[0])
    acknowledged, timings, failures = [], [], 0
    for number in range(1, rounds + 1):
        server = servers[number % 2]
        started = time.perf_counter()
        response = game.post(server, number, key=f"{game.id}-{number}", timeout=30)
        timings.append((server.url, (time.perf_counter() - started) * 1000))
        if response.status_code != 201:
            failures += 1
            continue
        acknowledged.append(response.json())
        read = requests.get(f"{servers[(number + 1) % 2].url}/api/v1/games/{game.id}", timeout=30)
        failures += read.status_code != 200
    return {
        "id": game.id,
        "acknowledged": acknowledged,
        "timings": timings,
        "failures": failures,
    }


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    """Parse the options, run the bench, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games played (20)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds per game (15)")
    parser.add_argument("--phones", type=int, default=10, help="games played at once (10)")
    parser.add_argument("--workers", type=int, default=2, help="workers per server (2)")
    parser.add_argument("--database-url", help="an empty PostgreSQL database to throw away")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()

    with ExitStack() as stack:
        database_url = args.database_url
        if database_url is None:
            binaries = postgres_binaries()
            if binaries is None:
                sys.exit("PostgreSQL's binaries are not under /usr/lib/postgresql/*/bin")
            cluster = PrivatePostgres(binaries)
            stack.callback(cluster.remove)
            cluster.start()
            database_url = stack.enter_context(fresh_schema("bench", cluster.url))
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-two-")))
        settings = {
            "SCOREKEEPER_RATE_LIMIT_STORAGE_URI": args.redis_url,
            "SCOREKEEPER_RATE_LIMIT_KEY_PREFIX": f"bench-{secrets.token_hex(4)}",
            "SCOREKEEPER_REQUEST_LOG": "off",
        }
        servers = []
        for name in ("a", "b"):
            (folder / name).mkdir()
            server = LiveServer(
                database_url,
                folder / name,
                workers=args.workers,
                rate_limits=True,
                settings=settings,
            )
            stack.callback(server.stop)
            server.start()
            servers.append(server)

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.phones) as pool:
            games = list(pool.map(lambda _: play(servers, args.rounds), range(args.games)))
        elapsed = time.perf_counter() - started

        lost = duplicated = 0
        for game in games:
            numbers = [round_["number"] for round_ in game["acknowledged"]]
            for server in servers:
                recorded = server.rounds(game["id"])
                lost += sum(round_ not in recorded for round_ in game["acknowledged"])
                duplicated += len(recorded) - len({r["number"] for r in recorded})
                duplicated += numbers != list(range(1, len(numbers) + 1))
        timings = [timing for game in games for timing in game["timings"]]
        acknowledged = sum(len(game["acknowledged"]) for game in games)
        failures = sum(game["failures"] for game in games)

    database = "the given PostgreSQL" if args.database_url else "a private PostgreSQL cluster"
    print(
        f"{args.games} games x {args.rounds} rounds, {args.phones} at once; two servers of "
        f"{args.workers} workers on {database}; rate limits on, "
        f"counted in Redis; {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end\n"
    )
    print("| server | round POSTs | p50 ms | p99 ms |")
    print("|---|---|---|---|")
    for name, server in zip("AB", servers, strict=True):
        mine = [ms for url, ms in timings if url == server.url]
        print(
            f"| {name} | {len(mine)} | {statistics.median(mine):.1f} | "
            f"{percentile(mine, 0.99):.1f} |"
        )
    print(
        f"\n{acknowledged} rounds acknowledged in {elapsed:.1f} s ({acknowledged / elapsed:.1f} "
        f"rounds/s, each followed by a read); {failures} answers other than 201/200; "
        f"{lost} acknowledged rounds missing, {duplicated} recorded twice or out of order."
    )
    sys.exit(1 if failures or lost or duplicated else 0)


if __name__ == "__main__":
    main()
