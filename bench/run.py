"""Scorekeeper's benchmark harness: the app measured against the ceiling of its own stack.

    .venv/bin/python bench/run.py [--database sqlite|postgresql|both] [--duration 30]

See bench/README.md. Needs wrk (Debian: ``apt-get install -y wrk``); the
profile needs the ``bench`` extra (``pip install -e '.[bench]'``). Installs nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

from scorekeeper.cli import gunicorn_command  # noqa: E402

LUA = BENCH / "lua" / "rotate.lua"
RESULTS = BENCH / "results"
DEFAULT_POSTGRESQL_URL = "postgresql://postgres@127.0.0.1:5432/test"
SCENARIOS = {
    "a": "ceiling: bare Flask JSON endpoint (bench/ceiling_app.py)",
    "b": "GET a game (5 players, 50 rounds)",
    "c": "POST a Jhyap round with totals (100 games)",
    "d": "POST a Jhyap round with cards (100 games)",
    "e": "GET export of a 1,000-round game",
}


def log(message: str) -> None:
    print(f"[{datetime.now():%H:%M:%S}] {message}", flush=True)


# Databases


@dataclass
class Database:
    kind: str
    url: str
    schema: str | None = None
    admin_url: str | None = None

    def drop(self) -> None:
        if self.schema and self.admin_url:
            import psycopg

            with psycopg.connect(self.admin_url, autocommit=True) as connection:
                connection.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')


def fresh_database(kind: str, label: str, workdir: Path, postgresql_url: str) -> Database:
    """A new, empty, migrated database: a SQLite file, or a new PostgreSQL schema."""
    if kind == "sqlite":
        database = Database(kind, f"sqlite:///{workdir / f'{label}.sqlite'}")
    else:
        import psycopg

        schema = f"bench_{label}_{secrets.token_hex(4)}"
        with psycopg.connect(postgresql_url, autocommit=True) as connection:
            connection.execute(f'CREATE SCHEMA "{schema}"')
        separator = "&" if "?" in postgresql_url else "?"
        url = f"{postgresql_url}{separator}options={quote(f'-csearch_path={schema}')}"
        database = Database(kind, url, schema, postgresql_url)
    subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "migrate"],
        cwd=ROOT,
        env={**os.environ, "SCOREKEEPER_DATABASE_URL": database.url},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return database


# Servers


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http_get(port: int, path: str, timeout: float = 30) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class Server:
    """gunicorn with the production settings, started in its own process group."""

    def __init__(
        self, name: str, command: list[str], env: dict[str, str], log_path: Path, ready_path: str
    ) -> None:
        self.name, self.command, self.env = name, command, env
        self.log_path, self.ready_path = log_path, ready_path
        self.process: subprocess.Popen[bytes] | None = None

    @classmethod
    def app(cls, database: Database, port: int, workers: int, workdir: Path) -> Server:
        env = {
            **os.environ,
            "SCOREKEEPER_DATABASE_URL": database.url,
            "SCOREKEEPER_RATE_LIMITS": "off",
        }
        return cls(
            "scorekeeper",
            gunicorn_command("127.0.0.1", port, workers),
            env,
            workdir / f"gunicorn-{database.kind}-{port}.log",
            "/api/v1/health",
        )

    @classmethod
    def ceiling(cls, port: int, workers: int, workdir: Path) -> Server:
        command = gunicorn_command("127.0.0.1", port, workers)
        command[command.index("--chdir") + 1] = str(BENCH)
        command[-1] = "ceiling_app:app"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        return cls("ceiling", command, env, workdir / f"gunicorn-ceiling-{port}.log", "/ceiling")

    @property
    def port(self) -> int:
        return int(self.command[self.command.index("--bind") + 1].rsplit(":", 1)[1])

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> Server:
        output = open(self.log_path, "ab")  # noqa: SIM115 - closed with the process
        self.process = subprocess.Popen(
            self.command, env=self.env, stdout=output, stderr=output, start_new_session=True
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} gunicorn exited; see {self.log_path}")
            with contextlib.suppress(OSError):
                if http_get(self.port, self.ready_path, timeout=2)[0] == 200:
                    # Let every worker finish booting before measuring.
                    time.sleep(1.0)
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} gunicorn did not answer; see {self.log_path}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # gunicorn's graceful shutdown
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def worker_pids(self) -> list[int]:
        return children_of(self.pid)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def children_of(parent: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            pids.append(int(entry))
    return pids


def peak_rss_kib(pid: int) -> int | None:
    """VmHWM (peak resident set) of ``pid`` in KiB."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_ticks(pid: int) -> int | None:
    """User + system CPU time of ``pid`` in clock ticks."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])


TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


class WorkerMonitor:
    """Samples the workers' VmHWM and CPU time (workers are recycled after max_requests).

    CPU time per request is far less sensitive to other load on a shared machine
    than requests per second, so it is reported next to it.
    """

    def __init__(self, server: Server, interval: float = 0.5) -> None:
        self.server, self.interval = server, interval
        self.peaks: dict[int, int] = {}
        self.baseline: dict[int, int] = {}
        self.latest: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> None:
        for pid in self.server.worker_pids():
            value = peak_rss_kib(pid)
            ticks = cpu_ticks(pid)
            if value is not None:
                self.peaks[pid] = max(self.peaks.get(pid, 0), value)
            if ticks is not None:
                self.latest[pid] = ticks

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval)

    def __enter__(self) -> WorkerMonitor:
        self.sample()
        self.baseline = dict(self.latest)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()

    @property
    def peak_kib(self) -> int:
        return max(self.peaks.values(), default=0)

    @property
    def cpu_seconds(self) -> float:
        ticks = sum(latest - self.baseline.get(pid, 0) for pid, latest in self.latest.items())
        return ticks / TICKS_PER_SECOND


# Load


@dataclass
class Load:
    """What wrk sends: prepared requests it rotates over."""

    lines: list[tuple[str, str, str, str]]

    @classmethod
    def get(cls, path: str) -> Load:
        return cls([("GET", path, "", "")])

    @classmethod
    def posts(cls, games: list[Any], bodies: list[dict[str, Any]]) -> Load:
        return cls(
            [
                ("POST", f"/api/v1/games/{game.id}/rounds", game.token, json.dumps(body))
                for game, body in zip(games, bodies, strict=True)
            ]
        )

    def write(self, path: Path) -> Path:
        path.write_text("".join("\t".join(line) + "\n" for line in self.lines))
        return path


@dataclass
class Options:
    duration: int
    warmup: int
    connections: int
    threads: int
    workers: int
    growth_duration: int
    growth_rounds: int
    profile_seconds: int
    workdir: Path
    scenarios: str = "bcde"


def wrk(port: int, load: Load, duration: float, options: Options) -> dict[str, Any]:
    """Run wrk against ``port`` with ``load``; its summary as a dict."""
    requests = load.write(options.workdir / f"requests-{secrets.token_hex(4)}.tsv")
    command = [
        "wrk",
        "-t",
        str(options.threads),
        "-c",
        str(options.connections),
        "-d",
        f"{duration}s",
        "--timeout",
        "10s",
        "-s",
        str(LUA),
        f"http://127.0.0.1:{port}",
        "--",
        str(requests),
    ]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(line for line in output.splitlines() if line.startswith("BENCH_JSON "))
    summary = json.loads(line.removeprefix("BENCH_JSON "))
    seconds = summary["duration_us"] / 1e6
    latency = summary["latency_us"]
    return {
        "requests": summary["requests"],
        "rps": summary["requests"] / seconds,
        "p50_ms": latency["p50"] / 1000,
        "p90_ms": latency["p90"] / 1000,
        "p99_ms": latency["p99"] / 1000,
        "max_ms": latency["max"] / 1000,
        "mean_ms": latency["mean"] / 1000,
        "errors": sum(summary["errors"].values()),
        "error_detail": summary["errors"],
        "bytes_per_request": summary["bytes"] / max(summary["requests"], 1),
    }


def measure(
    server: Server, load: Load, options: Options, duration: float, label: str
) -> dict[str, Any]:
    """Warm up, then measure with wrk while sampling the workers' peak RSS."""
    if options.warmup:
        wrk(server.port, load, options.warmup, options)
    load_before = os.getloadavg()[0]
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with WorkerMonitor(server) as monitor:
        result = wrk(server.port, load, duration, options)
    children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu = (
        children_after.ru_utime
        + children_after.ru_stime
        - children_before.ru_utime
        - children_before.ru_stime
    )
    result["peak_rss_mib"] = monitor.peak_kib / 1024
    result["worker_cpu_ms_per_request"] = monitor.cpu_seconds * 1000 / max(result["requests"], 1)
    result["wrk_cpu_share"] = wrk_cpu / duration
    result["loadavg_1min"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    time.sleep(1)  # let the workers drain what wrk left in the listen queue
    log(
        f"  {label}: {result['rps']:.0f} req/s, p50 {result['p50_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms, errors {result['errors']}, "
        f"worker CPU {result['worker_cpu_ms_per_request']:.2f} ms/req, "
        f"peak worker RSS {result['peak_rss_mib']:.0f} MiB, load {result['loadavg_1min']}"
    )
    return result


# Statement counts


@contextlib.contextmanager
def counted(engine: Any) -> Iterator[list[tuple[str, Any]]]:
    """The statements, with parameters, the driver is sent while the block runs."""
    from scorekeeper.db import recorded_statements

    with recorded_statements(engine) as statements:
        yield statements


def settle(app: Any) -> None:
    """After a bulk load: statistics up to date and the WAL folded in, as in steady state.

    Without it the first measurement after loading 50,000 rows runs next to
    PostgreSQL's autovacuum/analyze of them (or with stale statistics).
    """
    from sqlalchemy import text

    from scorekeeper.extensions import db

    with app.app_context():
        if db.engine.dialect.name == "postgresql":
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                for table in ("games", "players", "rounds", "idempotency_keys"):
                    connection.exec_driver_sql(f"VACUUM ANALYZE {table}")
                with contextlib.suppress(Exception):  # needs superuser or pg_checkpoint
                    connection.exec_driver_sql("CHECKPOINT")
        else:
            with db.engine.connect() as connection:
                connection.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
                connection.commit()
        db.engine.dispose()


def query_plans(app: Any, game: Any, body: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The plan of every SELECT/UPDATE/DELETE that a GET of ``game`` and a POST to it send.

    ``index`` is false if any step reads a whole table (PostgreSQL ``Seq Scan``,
    SQLite ``SCAN`` without an index).
    """
    from scorekeeper.extensions import db

    client = app.test_client()
    with app.app_context():
        engine = db.engine
    plans: dict[str, list[dict[str, Any]]] = {}
    for name, call in {
        "GET game": lambda: client.get(f"/api/v1/games/{game.id}"),
        "POST round": lambda: client.post(
            f"/api/v1/games/{game.id}/rounds",
            json=body,
            headers={"Authorization": f"Bearer {game.token}"},
        ),
    }.items():
        with counted(engine) as statements:
            response = call()
        assert response.status_code in (200, 201), (name, response.status_code)
        plans[name] = []
        with app.app_context(), engine.connect() as connection:
            for statement, parameters in statements:
                verb = statement.lstrip().split(None, 1)[0].upper()
                if verb not in ("SELECT", "UPDATE", "DELETE") or statement.strip() == "SELECT 1":
                    continue
                prefix = "EXPLAIN QUERY PLAN " if engine.dialect.name == "sqlite" else "EXPLAIN "
                rows = connection.exec_driver_sql(prefix + statement, parameters).all()
                lines = [str(row[-1]) for row in rows]
                full_scan = any(
                    "Seq Scan" in line
                    or (line.startswith("SCAN") and "USING" not in line and "CONSTANT" not in line)
                    for line in lines
                )
                plans[name].append(
                    {
                        "statement": " ".join(statement.split())[:160],
                        "plan": lines,
                        "index": not full_scan,
                    }
                )
            connection.rollback()
    return plans


def statement_counts(app: Any, seeded: dict[str, Any]) -> dict[str, int]:
    """SQL statements one request of each scenario sends (in-process, test client)."""
    from seed import cards_entry, totals_entry

    from scorekeeper.extensions import db

    client = app.test_client()
    with app.app_context():
        engine = db.engine
    game_b, posts_c, posts_d, game_e = (seeded["b"], seeded["c"][0], seeded["d"][0], seeded["e"])
    counts = {}
    for key, call in {
        "b": lambda: client.get(f"/api/v1/games/{game_b.id}"),
        "c": lambda: client.post(
            f"/api/v1/games/{posts_c.id}/rounds",
            json=totals_entry(posts_c.player_ids, 0),
            headers={"Authorization": f"Bearer {posts_c.token}"},
        ),
        "d": lambda: client.post(
            f"/api/v1/games/{posts_d.id}/rounds",
            json=cards_entry(posts_d.player_ids, 0),
            headers={"Authorization": f"Bearer {posts_d.token}"},
        ),
        "e": lambda: client.get(f"/api/v1/games/{game_e.id}/export"),
    }.items():
        with counted(engine) as statements:
            response = call()
        assert response.status_code in (200, 201), (key, response.status_code, response.data[:300])
        counts[key] = len(statements)
    return counts


# The runs


def seed_main(url: str) -> dict[str, Any]:
    """Game (b) with 50 rounds, 100 games each for (c) and (d), game (e) with 1,000 rounds."""
    from seed import bench_app, create, play

    app = bench_app(url)
    with app.app_context():
        game_b = create("b: 50 rounds")
        play(game_b, 50)
        games_c = [create(f"c {i}") for i in range(100)]
        games_d = [create(f"d {i}") for i in range(100)]
        game_e = create("e: 1000 rounds")
        play(game_e, 1000)
        from scorekeeper.extensions import db

        db.session.remove()
        db.engine.dispose()
    return {"b": game_b, "c": games_c, "d": games_d, "e": game_e}


def run_main(database: Database, options: Options) -> dict[str, Any]:
    """Scenarios (a)-(e) on a fresh database."""
    from seed import bench_app, cards_entry, totals_entry

    log(f"{database.kind}: seeding (a game of 50 rounds, 2 x 100 games, a game of 1,000 rounds)")
    started = time.monotonic()
    seeded = seed_main(database.url)
    log(f"  seeded in {time.monotonic() - started:.1f} s")
    loads = {
        "a": Load.get("/ceiling"),
        "b": Load.get(f"/api/v1/games/{seeded['b'].id}"),
        "c": Load.posts(
            seeded["c"], [totals_entry(g.player_ids, i) for i, g in enumerate(seeded["c"])]
        ),
        "d": Load.posts(
            seeded["d"], [cards_entry(g.player_ids, i) for i, g in enumerate(seeded["d"])]
        ),
        "e": Load.get(f"/api/v1/games/{seeded['e'].id}/export"),
    }
    results: dict[str, Any] = {}
    with Server.ceiling(free_port(), options.workers, options.workdir) as ceiling:
        results["a"] = measure(ceiling, loads["a"], options, options.duration, "(a) ceiling")
    with Server.app(database, free_port(), options.workers, options.workdir) as server:
        for key in options.scenarios:
            results[key] = measure(server, loads[key], options, options.duration, f"({key})")
        if "e" in options.scenarios:
            results["e_single"] = timed_get(
                server.port, f"/api/v1/games/{seeded['e'].id}/export", 30
            )
            log(f"  (e) one client at a time: median {results['e_single']['median_ms']:.1f} ms")
        finished = [
            g.id
            for g in (seeded["c"][0], seeded["d"][0])
            if json.loads(http_get(server.port, f"/api/v1/games/{g.id}")[1])["status"]
            != "in_progress"
        ]
        assert not finished, f"benchmark games finished: {finished}"
    for key in options.scenarios:
        results[key]["ratio"] = results[key]["rps"] / results["a"]["rps"]
        results[key]["cpu_ratio"] = results["a"]["worker_cpu_ms_per_request"] / max(
            results[key]["worker_cpu_ms_per_request"], 1e-9
        )
    app = bench_app(database.url)
    counts = statement_counts(app, seeded)
    with app.app_context():
        from scorekeeper.extensions import db

        db.engine.dispose()
    return {"scenarios": results, "statements": counts, "seeded": seeded, "loads": loads}


def post_round(port: int, game: Any, body: dict[str, Any]) -> float:
    """POST one round over a fresh connection; seconds taken."""
    payload = json.dumps(body)
    headers = {"Authorization": f"Bearer {game.token}", "Content-Type": "application/json"}
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", f"/api/v1/games/{game.id}/rounds", payload, headers)
    response = connection.getresponse()
    response.read()
    elapsed = time.perf_counter() - started
    connection.close()
    if response.status != 201:
        raise RuntimeError(f"POST round answered {response.status}")
    return elapsed


def timed_get(port: int, path: str, repeat: int) -> dict[str, float]:
    times = []
    size = 0
    for _ in range(repeat):
        started = time.perf_counter()
        status, body = http_get(port, path)
        times.append(time.perf_counter() - started)
        assert status == 200, status
        size = len(body)
    return {
        "median_ms": statistics.median(times) * 1000,
        "min_ms": min(times) * 1000,
        "bytes": size,
    }


def run_growth(database: Database, options: Options) -> dict[str, Any]:
    """10 vs 1,000 games for (b) and (c); rounds 1..N into one game; export at 100/1,000/10,000."""
    from seed import bench_app, clone_games, create, play, totals_entry

    from scorekeeper.extensions import db

    app = bench_app(database.url)
    with app.app_context():
        tables = [create(f"growth {i}") for i in range(10)]
        for table in tables:
            play(table, 50, light=True)
        db.session.remove()
    load_b = Load.get(f"/api/v1/games/{tables[0].id}")
    load_c = Load.posts(
        tables, [totals_entry(t.player_ids, i, light=True) for i, t in enumerate(tables)]
    )
    growth: dict[str, Any] = {"games": {}}
    with Server.app(database, free_port(), options.workers, options.workdir) as server:
        growth["games"]["10"] = {
            "b": measure(server, load_b, options, options.growth_duration, "(b) with 10 games"),
            "c": measure(server, load_c, options, options.growth_duration, "(c) with 10 games"),
        }
        log(f"{database.kind}: adding 990 games of 50 rounds (1,000 games in the database)")
        started = time.monotonic()
        with app.app_context():
            clone_games(tables[1], 990, "ballast")
            db.session.remove()
        added = time.monotonic() - started
        settle(app)
        log(
            f"  added in {added:.1f} s; VACUUM ANALYZE + CHECKPOINT (PostgreSQL) or WAL checkpoint "
            f"(SQLite) in {time.monotonic() - started - added:.1f} s"
        )
        growth["games"]["1000"] = {
            "b": measure(server, load_b, options, options.growth_duration, "(b) with 1,000 games"),
            "c": measure(server, load_c, options, options.growth_duration, "(c) with 1,000 games"),
        }
        growth["plans"] = query_plans(
            app, tables[2], totals_entry(tables[2].player_ids, 0, light=True)
        )
        for name, plans in growth["plans"].items():
            log(
                f"  {name} with 1,000 games: {len(plans)} planned statements, "
                f"{'all use an index' if all(p['index'] for p in plans) else 'A FULL SCAN'}"
            )
        for key in "bc":
            growth["games"][f"ratio_{key}"] = (
                growth["games"]["1000"][key]["rps"] / growth["games"]["10"][key]["rps"]
            )

        log(f"{database.kind}: recording rounds 1..{options.growth_rounds:,} into one game")
        with app.app_context():
            game = create("growth: 10,000 rounds")
            fresh = create("growth: fresh game")
            db.session.remove()
        total = options.growth_rounds
        times: list[float] = []
        fresh_times: list[float] = []
        exports: dict[str, Any] = {}
        started = time.monotonic()
        for n in range(total):
            played = n + 1
            if played > total - 100:
                # The last 100 rounds alternate with rounds 1-100 of a fresh game, so that both
                # are timed under the same (shared, noisy) machine conditions.
                k = played - (total - 100) - 1
                fresh_times.append(
                    post_round(server.port, fresh, totals_entry(fresh.player_ids, k, light=True))
                )
            times.append(
                post_round(server.port, game, totals_entry(game.player_ids, n, light=True))
            )
            if played in (100, 1_000, 10_000):
                exports[str(played)] = timed_get(
                    server.port, f"/api/v1/games/{game.id}/export", 20 if played < 10_000 else 7
                )
                log(
                    f"  export of {played:,} rounds: {exports[str(played)]['median_ms']:.1f} ms "
                    f"({exports[str(played)]['bytes'] / 1024:.0f} KiB)"
                )
            if played % 2000 == 0:
                log(f"  {played:,} rounds ({time.monotonic() - started:.0f} s)")
        first, last = times[:100], times[-100:]

        def stats(values: list[float]) -> dict[str, float]:
            return {
                "median_ms": statistics.median(values) * 1000,
                "mean_ms": statistics.fmean(values) * 1000,
            }

        growth["posts"] = {
            "rounds": total,
            "first_100": stats(first),
            "last_100": stats(last),
            "fresh_first_100": stats(fresh_times),
            "all_median_ms": statistics.median(times) * 1000,
        }
        posts = growth["posts"]
        posts["ratio_median"] = (
            posts["last_100"]["median_ms"] / posts["fresh_first_100"]["median_ms"]
        )
        posts["ratio_mean"] = posts["last_100"]["mean_ms"] / posts["fresh_first_100"]["mean_ms"]
        posts["ratio_sequential_median"] = (
            posts["last_100"]["median_ms"] / posts["first_100"]["median_ms"]
        )
        log(
            f"  POST at rounds {total - 99:,}-{total:,} / rounds 1-100 of a fresh game alternated "
            f"with them: {posts['ratio_median']:.2f} (median); against this game's own rounds "
            f"1-100, timed earlier: {posts['ratio_sequential_median']:.2f}"
        )
        growth["exports"] = exports
    with app.app_context():
        db.engine.dispose()
    return growth


def profile(
    database: Database, main: dict[str, Any], options: Options, stamp: str
) -> dict[str, Any]:
    """Profile the slowest endpoint: py-spy on live workers under wrk; pyinstrument in-process."""
    scenarios = main["scenarios"]
    key = min((k for k in "bcde" if k in scenarios), key=lambda k: scenarios[k]["rps"])
    name = {"b": "get-game", "c": "post-round-totals", "d": "post-round-cards", "e": "export"}[key]
    base = RESULTS / f"profile-{database.kind}-{name}"
    out: dict[str, Any] = {"scenario": key}
    log(f"profiling the slowest endpoint ({key}) {SCENARIOS[key]}")
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if Path(py_spy).exists():
        with Server.app(database, free_port(), options.workers, options.workdir) as server:
            raw = base.with_suffix(".collapsed.txt")
            recorder = subprocess.Popen(
                [
                    py_spy,
                    "record",
                    "--pid",
                    str(server.pid),
                    "--subprocesses",
                    "--nonblocking",
                    "--rate",
                    "200",
                    "--duration",
                    str(options.profile_seconds),
                    "--format",
                    "raw",
                    "--output",
                    str(raw),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            time.sleep(1)
            wrk(server.port, main["loads"][key], options.profile_seconds, options)
            _, errors = recorder.communicate(timeout=60)
            if raw.exists():
                summary = base.with_suffix(".py-spy.md")
                summary.write_text(summarise_collapsed(raw, SCENARIOS[key]))
                out["py_spy"] = [str(raw.relative_to(ROOT)), str(summary.relative_to(ROOT))]
            else:
                out["py_spy_error"] = errors.decode()[-500:]
    try:
        from pyinstrument import Profiler
    except ImportError:
        out["pyinstrument"] = "not installed (pip install -e '.[bench]')"
        return out
    from seed import bench_app, cards_entry, totals_entry

    app = bench_app(database.url)
    client = app.test_client()
    seeded = main["seeded"]
    requests = {"b": 2000, "c": 1000, "d": 1000, "e": 60}[key]

    def call(i: int) -> Any:
        if key == "b":
            return client.get(f"/api/v1/games/{seeded['b'].id}")
        if key == "e":
            return client.get(f"/api/v1/games/{seeded['e'].id}/export")
        game = seeded[key][i % 100]
        body = (totals_entry if key == "c" else cards_entry)(game.player_ids, i)
        return client.post(
            f"/api/v1/games/{game.id}/rounds",
            json=body,
            headers={"Authorization": f"Bearer {game.token}"},
        )

    for i in range(5):
        call(i)
    profiler = Profiler(interval=0.0005)
    profiler.start()
    for i in range(requests):
        call(i)
    profiler.stop()
    text = base.with_suffix(".pyinstrument.txt")
    text.write_text(profiler.output_text(unicode=False, color=False, show_all=False))
    html = base.with_suffix(".pyinstrument.html")
    html.write_text(profiler.output_html())
    out["pyinstrument"] = [str(text.relative_to(ROOT)), str(html.relative_to(ROOT))]
    with app.app_context():
        from scorekeeper.extensions import db

        db.engine.dispose()
    return out


def summarise_collapsed(path: Path, title: str, top: int = 40) -> str:
    """Self and inclusive sample shares per function from py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        frames = [
            frame
            for frame in stack.split(";")
            if not frame.startswith("process ")
            and "gunicorn/" not in frame
            and "<frozen runpy>" not in frame
        ]
        if not frames:
            continue
        total += count
        own[frames[-1]] += count
        for frame in set(frames):
            inclusive[frame] += count
    lines = [
        f"# py-spy profile: {title}",
        "",
        f"{total} samples of busy threads over all gunicorn workers (idle waits left out; "
        "gunicorn's own frames, at the top of every stack, are left out of the tables).",
        "",
        "## Inclusive (time in the function and what it calls)",
        "",
        "| share | function |",
        "|---:|---|",
    ]
    lines += [f"| {100 * n / total:.1f}% | `{frame}` |" for frame, n in inclusive.most_common(top)]
    lines += ["", "## Self", "", "| share | function |", "|---:|---|"]
    lines += [f"| {100 * n / total:.1f}% | `{frame}` |" for frame, n in own.most_common(top)]
    return "\n".join(lines) + "\n"


# Report


TARGETS = [
    ("(b) GET game >= 0.6 x ceiling req/s", lambda r: r["scenarios"]["b"]["ratio"], 0.6, ">="),
    (
        "(c) POST round (totals) >= 0.35 x ceiling req/s",
        lambda r: r["scenarios"]["c"]["ratio"],
        0.35,
        ">=",
    ),
    (
        "(d) POST round (cards) >= 0.35 x ceiling req/s",
        lambda r: r["scenarios"]["d"]["ratio"],
        0.35,
        ">=",
    ),
    (
        "(e) export of 1,000 rounds p50 < 50 ms, one client at a time",
        lambda r: r["scenarios"]["e_single"]["median_ms"],
        50,
        "<",
    ),
    (
        "(e) export of 1,000 rounds p50 < 50 ms under 16 connections",
        lambda r: r["scenarios"]["e"]["p50_ms"],
        50,
        "<",
    ),
    (
        "POST at rounds 9,901-10,000 <= 1.2 x rounds 1-100 (median, alternated)",
        lambda r: r.get("growth", {}).get("posts", {}).get("ratio_median"),
        1.2,
        "<=",
    ),
    ("(b) p99 < 50 ms", lambda r: r["scenarios"]["b"]["p99_ms"], 50, "<"),
    ("(c) p99 < 50 ms", lambda r: r["scenarios"]["c"]["p99_ms"], 50, "<"),
]


def verdict(value: float | None, limit: float, op: str) -> str:
    if value is None:
        return "not measured"
    ok = {">=": value >= limit, "<": value < limit, "<=": value <= limit}[op]
    return "met" if ok else "MISSED"


def report(results: dict[str, Any], meta: dict[str, Any]) -> str:
    lines = [
        f"Run {meta['started']} - {meta['cores']} cores, {meta['workers']} gunicorn sync workers, "
        f"wrk -t{meta['threads']} -c{meta['connections']}, {meta['duration']} s per scenario after "
        f"{meta['warmup']} s warm-up (growth runs {meta['growth_duration']} s).",
        "",
    ]
    for kind, result in results.items():
        scenarios = result["scenarios"]
        lines += [
            f"### {kind}",
            "",
            "| scenario | req/s | p50 ms | p99 ms | req/s ratio to (a) | worker CPU ms/req "
            "| CPU ratio (a)/x | peak worker RSS MiB | SQL statements | errors |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for key, title in SCENARIOS.items():
            if key not in scenarios:
                continue
            s = scenarios[key]
            ratio = "1.00" if key == "a" else f"{s['ratio']:.2f}"
            cpu_ratio = "1.00" if key == "a" else f"{s['cpu_ratio']:.2f}"
            statements = result["statements"].get(key, "-")
            lines.append(
                f"| ({key}) {title} | {s['rps']:.0f} | {s['p50_ms']:.1f} | {s['p99_ms']:.1f} "
                f"| {ratio} | {s['worker_cpu_ms_per_request']:.2f} | {cpu_ratio} "
                f"| {s['peak_rss_mib']:.0f} | {statements} | {s['errors']} |"
            )
        if "e_single" in scenarios:
            lines.append(
                f"\n(e) one request at a time (no queueing): median "
                f"{scenarios['e_single']['median_ms']:.1f} ms, "
                f"{scenarios['e_single']['bytes'] / 1024:.0f} KiB."
            )
        growth = result.get("growth")
        if growth:
            posts, games = growth["posts"], growth["games"]
            lines += [
                "",
                "| growth | value |",
                "|---|---:|",
                f"| POST rounds 1-100 (at the start), median / mean ms | "
                f"{posts['first_100']['median_ms']:.2f} / {posts['first_100']['mean_ms']:.2f} |",
                f"| POST rounds {posts['rounds'] - 99:,}-{posts['rounds']:,}, median / mean ms | "
                f"{posts['last_100']['median_ms']:.2f} / {posts['last_100']['mean_ms']:.2f} |",
                f"| POST rounds 1-100 of a fresh game, alternated with those, median / mean ms | "
                f"{posts['fresh_first_100']['median_ms']:.2f} / "
                f"{posts['fresh_first_100']['mean_ms']:.2f} |",
                f"| ratio rounds {posts['rounds'] - 99:,}-{posts['rounds']:,} / 1-100, alternated "
                f"(median; mean) | {posts['ratio_median']:.2f}; {posts['ratio_mean']:.2f} |",
                f"| ratio to this game's own rounds 1-100, timed minutes earlier (median) | "
                f"{posts['ratio_sequential_median']:.2f} |",
            ]
            for rounds, export in growth["exports"].items():
                lines.append(
                    f"| export of {int(rounds):,} rounds, one client, median ms (KiB) | "
                    f"{export['median_ms']:.1f} ({export['bytes'] / 1024:.0f}) |"
                )
            for key in "bc":
                small, large = games["10"][key], games["1000"][key]
                lines.append(
                    f"| ({key}) req/s with 10 games / 1,000 games (ratio) | {small['rps']:.0f} / "
                    f"{large['rps']:.0f} ({games[f'ratio_{key}']:.2f}) |"
                )
                lines.append(
                    f"| ({key}) p50 ms with 10 games / 1,000 games | {small['p50_ms']:.1f} / "
                    f"{large['p50_ms']:.1f} |"
                )
        if growth and growth.get("plans"):
            lines += [
                "",
                "Query plans with 1,000 games (EXPLAIN of each statement a request sends):",
                "",
            ]
            for name, plans in growth["plans"].items():
                for plan in plans:
                    lines.append(
                        f"- {name}: {'index' if plan['index'] else 'FULL SCAN'} - "
                        f"`{plan['statement'][:90]}...` -> `{' / '.join(plan['plan'])[:140]}`"
                    )
        lines += ["", "| target | measured | verdict |", "|---|---:|---|"]
        for title, get, limit, op in TARGETS:
            try:
                value = get(result)
            except KeyError:
                value = None
            lines.append(
                f"| {title} | {'-' if value is None else f'{value:.2f}'} | "
                f"{verdict(value, limit, op)} |"
            )
        if result.get("profile"):
            lines += ["", f"Profile: `{json.dumps(result['profile'])}`"]
        lines.append("")
    return "\n".join(lines)


def jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items() if k not in ("seeded", "loads")}
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--duration", type=int, default=30, help="seconds per scenario (30)")
    parser.add_argument(
        "--warmup", type=int, default=5, help="warm-up seconds before each scenario (5)"
    )
    parser.add_argument(
        "--growth-duration",
        type=int,
        default=None,
        help="seconds per 10-vs-1,000-games run (default: a third of --duration, at least 5)",
    )
    parser.add_argument(
        "--growth-rounds", type=int, default=10_000, help="rounds recorded into one game"
    )
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument(
        "--threads", type=int, default=1, help="wrk threads (1: leaves the cores to gunicorn)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=min(4, (os.cpu_count() or 1) * 2),
        help="gunicorn workers (default as `scorekeeper serve`: min(4, 2 x cores))",
    )
    parser.add_argument(
        "--postgresql-url",
        default=os.environ.get("SCOREKEEPER_BENCH_POSTGRESQL_URL", DEFAULT_POSTGRESQL_URL),
    )
    parser.add_argument(
        "--scenarios",
        default="bcde",
        help="which of (b)-(e) to measure (default bcde; the ceiling (a) always runs)",
    )
    parser.add_argument("--no-growth", action="store_true", help="skip the growth measurements")
    parser.add_argument("--no-profile", action="store_true", help="skip the profile")
    parser.add_argument("--profile-seconds", type=int, default=20)
    args = parser.parse_args(argv)

    if not shutil.which("wrk"):
        print(
            "wrk is not installed. On Debian/Ubuntu: apt-get update && apt-get install -y wrk",
            file=sys.stderr,
        )
        return 2
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    RESULTS.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    meta = {
        "started": stamp,
        "cores": os.cpu_count(),
        "workers": args.workers,
        "connections": args.connections,
        "threads": args.threads,
        "duration": args.duration,
        "warmup": args.warmup,
        "growth_duration": args.growth_duration or max(5, args.duration // 3),
        "command": " ".join(["bench/run.py", *(argv if argv is not None else sys.argv[1:])]),
    }
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as tmp:
        options = Options(
            args.duration,
            args.warmup,
            args.connections,
            args.threads,
            args.workers,
            meta["growth_duration"],
            args.growth_rounds,
            args.profile_seconds,
            Path(tmp),
            "".join(key for key in "bcde" if key in args.scenarios),
        )
        for kind in kinds:
            databases = []
            try:
                database = fresh_database(kind, "main", Path(tmp), args.postgresql_url)
                databases.append(database)
                result = run_main(database, options)
                if not args.no_profile and kind == kinds[0]:
                    result["profile"] = profile(database, result, options, stamp)
                if not args.no_growth:
                    growth_db = fresh_database(kind, "growth", Path(tmp), args.postgresql_url)
                    databases.append(growth_db)
                    result["growth"] = run_growth(growth_db, options)
                results[kind] = result
            finally:
                for database in databases:
                    database.drop()
    text = report(results, meta)
    print()
    print(text)
    (RESULTS / f"results-{stamp}.md").write_text(f"Command: `{meta['command']}`\n\n{text}")
    (RESULTS / f"results-{stamp}.json").write_text(
        json.dumps({"meta": meta, "results": jsonable(results)}, indent=2)
    )
    log(f"written bench/results/results-{stamp}.md and .json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
