"""CPU per recorded round when processes share one SQLite file, against one file each.

    .venv/bin/python bench/shared_writes.py [--processes 2] [--rounds 3000]

Each process posts Jhyap rounds (totals) to 100 games through the WSGI callable,
in-process (no server, no sockets), and the CPU time (user + system) of all of
them is divided by the rounds recorded. Run once with every process writing to
its own database file and once with all of them writing to one file: the
difference is what sharing the file costs a write. A SQLite connection keeps
the pages it read, but drops them all when another connection has written
since its last transaction, so in a shared file every round reads its pages
again; it also waits in the writer queue (``scorekeeper/db.py``). Rate limits
off, the request log to /dev/null, as in ``run.py``. About a minute.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]
os.environ["SCOREKEEPER_RATE_LIMITS"] = "off"

from instructions import environ, serve  # noqa: E402
from seed import SeededGame, bench_app, create, totals_entry  # noqa: E402

from scorekeeper.extensions import db  # noqa: E402

GAMES = 100


def seeded(path: Path) -> tuple[Any, list[SeededGame]]:
    """An app on a new database at ``path`` with ``GAMES`` games, its connections closed."""
    app = bench_app(f"sqlite:///{path}")
    with app.app_context():
        db.create_all()
        games = [create(f"game {index}") for index in range(GAMES)]
        db.session.remove()
        db.engine.dispose()  # no connection may cross the fork
    return app, games


def post_rounds(app: Any, games: list[SeededGame], rounds: int, offset: int) -> None:
    """Post ``rounds`` rounds to ``games`` in turn, starting at game ``offset``."""
    requests = []
    for game in games:
        body = json.dumps(totals_entry(game.player_ids, 0)).encode()
        requests.append((f"/api/v1/games/{game.id}/rounds", body, game.token))
    for index in range(rounds):
        path, body, token = requests[(offset + index) % len(requests)]
        status = serve(app, environ("POST", path, body, token))
        if status[0] != "2":
            raise SystemExit(f"a round was answered {status}")


def measure(processes: int, rounds: int, shared: bool, directory: Path) -> dict[str, float]:
    """Fork ``processes`` writers (sharing one file or not); their CPU per round and rounds/s."""
    if shared:
        tables = [seeded(directory / "shared.sqlite")] * processes
    else:
        tables = [seeded(directory / f"own-{index}.sqlite") for index in range(processes)]
    sys.stdout.flush()
    before, start = os.times(), time.perf_counter()
    children = []
    for index, (app, games) in enumerate(tables):
        child = os.fork()
        if child == 0:
            code = 0
            try:
                sys.stdout = open(os.devnull, "w")  # the request log  # noqa: SIM115
                post_rounds(app, games, rounds, index * GAMES // processes)
            except BaseException as error:  # reported, then the child exits
                print(f"writer {index}: {error!r}", file=sys.stderr)
                code = 1
            os._exit(code)
        children.append(child)
    failed = [child for child in children if os.waitpid(child, 0)[1] != 0]
    wall = time.perf_counter() - start
    after = os.times()
    if failed:
        raise SystemExit(f"{len(failed)} writer(s) failed")
    total = processes * rounds
    user = after.children_user - before.children_user
    system = after.children_system - before.children_system
    return {
        "cpu_ms": (user + system) / total * 1000,
        "user_ms": user / total * 1000,
        "system_ms": system / total * 1000,
        "rounds_per_second": total / wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2, help="writers at once (default 2)")
    parser.add_argument("--rounds", type=int, default=3000, help="rounds each writer posts")
    arguments = parser.parse_args()
    results = {}
    directory = Path(tempfile.mkdtemp(prefix="scorekeeper-shared-writes-"))
    try:
        for shared in (False, True):
            results[shared] = measure(arguments.processes, arguments.rounds, shared, directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    cores = os.cpu_count()
    print(f"{arguments.processes} writers, {arguments.rounds} rounds each, {cores} cores\n")
    print("| databases | CPU ms per round | user | system | rounds/s |")
    print("|---|---:|---:|---:|---:|")
    for shared, label in ((False, "one file per writer"), (True, "one file shared")):
        figures = results[shared]
        print(
            f"| {label} | {figures['cpu_ms']:.3f} | {figures['user_ms']:.3f} "
            f"| {figures['system_ms']:.3f} | {figures['rounds_per_second']:.0f} |"
        )
    print(f"\nshared / own CPU per round: {results[True]['cpu_ms'] / results[False]['cpu_ms']:.2f}")


if __name__ == "__main__":
    main()
