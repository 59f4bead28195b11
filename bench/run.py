"""Scorekeeper's benchmark: the app against the ceiling of its own stack, in one run.

    .venv/bin/python bench/run.py [--duration 30] [--database-url URL]

Talks to the app only over HTTP, through its public API. Needs wrk
(Debian: ``apt-get install -y wrk``). Prints one Markdown table; see bench/README.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
LUA = BENCH / "rotate.lua"
PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"]
# Jhyap tables that never finish: no halving, and totals far below the limit.
OPTIONS = {"elimination_limit": 10000, "halve_at": []}
# Twenty Two for six that ends in its first round: two aces tie for the final trick, so every
# player scores their card (tie_scores "all") and is out; the lowest card, 2C, wins.
SIX = [*PLAYERS, "Farah"]
SHORT_GAME = {"elimination_limit": 1, "tie_scores": "all"}
LAST_TRICK = ["2C", "AS", "AH", "3C", "4C", "5C"]
TABLE_GAMES, FEW, MANY = 200, 10, 1000


def log(message: str) -> None:
    print(f"[{datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


# Servers


def gunicorn(chdir: Path, module: str, port: int, workers: int) -> list[str]:
    """The production gunicorn command (as ``scorekeeper serve`` runs it) for ``module``."""
    return [
        *(sys.executable, "-m", "gunicorn", "--chdir", str(chdir)),
        *("--config", "python:scorekeeper.gunicorn_config"),
        *("--bind", f"127.0.0.1:{port}", "--workers", str(workers)),
        module,
    ]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A gunicorn master in its own process group, stopped with SIGTERM."""

    def __init__(self, command: list[str], env: dict[str, str], ready: str, log_path: Path):
        self.port = int(command[command.index("--bind") + 1].rsplit(":", 1)[1])
        self.command, self.env, self.ready, self.log_path = command, env, ready, log_path
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        with open(self.log_path, "ab") as output:
            self.process = subprocess.Popen(
                self.command, env=self.env, stdout=output, stderr=output, start_new_session=True
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {self.log_path}")
            try:
                if Client(self.port).call("GET", self.ready)[0] == 200:
                    time.sleep(1)  # let every worker finish booting
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer; see {self.log_path}")

    def __exit__(self, *exc: object) -> None:
        assert self.process is not None
        self.process.terminate()
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# The API, from a client's side


class Client:
    """One keep-alive HTTP connection to the API."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, bytes, float]:
        """Status, body and seconds taken."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        payload = None
        if body is not None:
            payload = json.dumps(body)
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        self.connection.request(method, path, payload, headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status, data, time.perf_counter() - started


@dataclass
class Game:
    id: str
    token: str
    player_ids: list[int]
    played: int = 0

    @property
    def rounds_path(self) -> str:
        return f"/api/v1/games/{self.id}/rounds"

    def entry(self, n: int) -> dict[str, Any]:
        """A valid round: the caller (rotating) holds 0, one other player 1, the rest 0.

        A player gains 2,000 points in 10,000 rounds: the game never ends.
        """
        ids, caller = self.player_ids, n % len(self.player_ids)
        hands = [{"player": player, "total": 0} for player in ids]
        hands[(n + 1) % len(ids)]["total"] = 1
        return {"caller": ids[caller], "hands": hands}


@dataclass
class Table:
    id: str
    token: str
    roster_ids: list[int]

    @property
    def path(self) -> str:
        return f"/api/v1/tables/{self.id}"


def created(answer: tuple[int, bytes, float], what: str) -> dict[str, Any]:
    """The body of a ``201`` answer to the call that created ``what``."""
    status, data, _ = answer
    if status != 201:
        raise RuntimeError(f"{what} answered {status}: {data[:300]!r}")
    return json.loads(data)


def create_game(client: Client, name: str, table: Table | None = None) -> Game:
    """A Jhyap game that never ends, loose or at ``table`` (its players join the roster)."""
    body = {"ruleset": "jhyap", "name": name, "players": PLAYERS, "dealer": 0, "starter": 1}
    path, token = (f"{table.path}/games", table.token) if table else ("/api/v1/games", None)
    game = created(client.call("POST", path, {**body, "options": OPTIONS}, token), "a game")
    return Game(game["id"], game["token"], [player["id"] for player in game["players"]])


def as_table(answer: dict[str, Any]) -> Table:
    return Table(answer["id"], answer["token"], [player["id"] for player in answer["players"]])


def create_table(client: Client, name: str, players: list[str]) -> Table:
    body = {"name": name, "players": players}
    return as_table(created(client.call("POST", "/api/v1/tables", body), "a table"))


def import_table(client: Client, document: dict[str, Any]) -> Table:
    return as_table(created(client.call("POST", "/api/v1/tables/import", document), "import"))


def finish_game(client: Client, table: Table, n: int) -> None:
    """A Twenty Two game of the table's six, played to its end; seat ``n % 6`` wins."""
    body = {"ruleset": "twenty-two", "players": table.roster_ids, "options": SHORT_GAME}
    game = created(client.call("POST", f"{table.path}/games", body, table.token), "a game")
    seats = [player["id"] for player in game["players"]]
    trick = [{"player": p, "card": LAST_TRICK[(seat - n) % 6]} for seat, p in enumerate(seats)]
    path = f"/api/v1/games/{game['id']}/rounds"
    created(client.call("POST", path, {"last_trick": trick}, game["token"]), "a round")


def record(client: Client, game: Game) -> float:
    """Record the game's next round; seconds taken."""
    status, data, seconds = client.call(
        "POST", game.rounds_path, game.entry(game.played), game.token
    )
    if status != 201:
        raise RuntimeError(f"recording a round answered {status}: {data[:300]!r}")
    game.played += 1
    return seconds


def seed_tables(client: Client) -> dict[str, Table]:
    """A table of 200 finished games of six, and imports of 10 and of 1,000 of its games."""
    read = create_table(client, f"read: {TABLE_GAMES} games", SIX)
    for n in range(TABLE_GAMES):
        finish_game(client, read, n)
    status, data, _ = client.call("GET", f"{read.path}/export")
    assert status == 200, status
    document = json.loads(data)
    games = document["games"] * (MANY // TABLE_GAMES)
    few = import_table(client, {**document, "games": games[:FEW]})
    many = import_table(client, {**document, "games": games[:MANY]})
    return {"table": read, "few": few, "many": many}


def play(client: Client, game: Game, rounds: int) -> Game:
    for _ in range(rounds):
        record(client, game)
    return game


# Load


def wrk(port: int, requests: Path, args: argparse.Namespace, seconds: int) -> dict[str, Any]:
    """wrk over the requests in ``requests`` for ``seconds``; its summary."""
    command = ["wrk", "-t", str(args.wrk_threads), "-c", str(args.connections)]
    command += ["-d", f"{seconds}s", "--timeout", "10s", "-s", str(LUA)]
    command += [f"http://127.0.0.1:{port}", "--", str(requests)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = next(line for line in output.splitlines() if line.startswith("BENCH_JSON "))
    summary = json.loads(line.removeprefix("BENCH_JSON "))
    # let the server drain what wrk left queued, a request on each connection: about a latency
    time.sleep(0.5 + summary["p99_us"] / 1e6)
    return {
        "requests": summary["requests"],
        "seconds": summary["duration_us"] / 1e6,
        "p50_ms": summary["p50_us"] / 1000,
        "p99_ms": summary["p99_us"] / 1000,
        "errors": summary["errors"],
        "cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
    }


def combined(slices: list[dict[str, Any]]) -> dict[str, Any]:
    """Slices of one load as one: req/s over all, medians of the slices' percentiles."""
    seconds = sum(part["seconds"] for part in slices)
    return {
        "rps": sum(part["requests"] for part in slices) / seconds,
        "p50_ms": statistics.median(part["p50_ms"] for part in slices),
        "p99_ms": statistics.median(part["p99_ms"] for part in slices),
        "worst_p99_ms": max(part["p99_ms"] for part in slices),
        "errors": sum(part["errors"] for part in slices),
        "wrk_cpu": sum(part["cpu"] for part in slices) / seconds,
    }


def write_requests(path: Path, lines: list[str]) -> Path:
    """One request a line, tab-separated: method, path, token, body (bench/rotate.lua)."""
    path.write_text("".join(line + "\n" for line in lines))
    return path


def get_line(path: str) -> str:
    return f"GET\t{path}\t\t"


def post_line(game: Game, n: int) -> str:
    return f"POST\t{game.rounds_path}\t{game.token}\t{json.dumps(game.entry(n))}"


# The run


def machine() -> str:
    model = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return f"{len(os.sched_getaffinity(0))} cores (nproc), {model}"


def commit() -> str:
    def git(*argv: str) -> str:
        return subprocess.run(
            ["git", "-C", str(ROOT), *argv], capture_output=True, text=True, check=False
        ).stdout.strip()

    dirty = git("status", "--porcelain", "--untracked-files=no")
    return git("rev-parse", "--short", "HEAD") + (" with uncommitted changes" if dirty else "")


def spread(slices: dict[str, list[dict[str, Any]]], name: str, base: str = "ceiling") -> str:
    """The ratio of ``name``'s req/s to ``base``'s in each slice: lowest-highest."""
    ratios = [
        (part["requests"] / part["seconds"]) / (under["requests"] / under["seconds"])
        for part, under in zip(slices[name], slices[base], strict=True)
    ]
    return f"{min(ratios):.2f}-{max(ratios):.2f}"


def table_targets(
    measured: dict[str, dict[str, Any]],
    slices: dict[str, list[dict[str, Any]]],
    sizes: dict[str, int],
) -> tuple[list[tuple[str, str, bool]], list[str]]:
    """Issue 18's rows and notes: reading a table, its growth, and recording at a table."""
    top, table, few, many, post, at_table = (
        measured[name] for name in ("ceiling", "table", "few", "many", "POST", "table POST")
    )
    read_ratio = table["rps"] / top["rps"]
    growth = few["rps"] / many["rps"]  # the 1,000-game table's cost over the 10-game one's
    write_ratio = post["rps"] / at_table["rps"]  # a round's cost at a table over a loose one's
    rows = [
        (
            f"GET table ({TABLE_GAMES} games, 6 players) >= 0.5 x ceiling req/s",
            f"{read_ratio:.2f} ({table['rps']:,.0f} / {top['rps']:,.0f} req/s)",
            read_ratio >= 0.5 and not table["errors"],
        ),
        (
            f"GET table of {MANY:,} games <= 1.2 x of {FEW} games",
            f"{growth:.2f} ({few['rps']:,.0f} / {many['rps']:,.0f} req/s; "
            f"p50 {many['p50_ms']:.1f} / {few['p50_ms']:.1f} ms)",
            growth <= 1.2 and not few["errors"] and not many["errors"],
        ),
        (
            "POST round at a table <= 1.15 x loose",
            f"{write_ratio:.2f} ({post['rps']:,.0f} / {at_table['rps']:,.0f} req/s; "
            f"p50 {at_table['p50_ms']:.1f} / {post['p50_ms']:.1f} ms)",
            write_ratio <= 1.15 and not at_table["errors"],
        ),
    ]
    kib = {name: f"{size / 1024:,.0f} KiB" for name, size in sizes.items()}
    notes = [
        f"GET table ({TABLE_GAMES} games, {kib['table']}): p50 {table['p50_ms']:.1f} ms; ratio "
        f"in single slices {spread(slices, 'table')}; errors {table['errors']}.",
        f"Tables of {FEW} and {MANY:,} games ({kib['few']}, {kib['many']}): ratio in single "
        f"slices {spread(slices, 'few', 'many')}; p99 {few['p99_ms']:.1f} / "
        f"{many['p99_ms']:.1f} ms; errors {few['errors'] + many['errors']}.",
        f"POST round at a table: ratio in single slices {spread(slices, 'POST', 'table POST')}; "
        f"p99 {at_table['p99_ms']:.1f} ms (loose {post['p99_ms']:.1f} ms); "
        f"errors {at_table['errors']}.",
    ]
    return rows, notes


def run(args: argparse.Namespace) -> tuple[list[tuple[str, str, bool]], list[str]]:
    load = os.getloadavg()
    workdir = Path(args.workdir)
    url = args.database_url or f"sqlite:///{workdir / 'bench.sqlite'}"
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_RATE_LIMITS": "off",
        "SCOREKEEPER_REQUEST_LOG": "off",
    }
    migrate = [sys.executable, "-m", "scorekeeper.cli", "migrate"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True, capture_output=True)
    app_port, ceiling_port = free_port(), free_port()
    app_command = gunicorn(ROOT, "wsgi:app", app_port, args.workers)
    app = Server(app_command, env, "/api/v1/health", workdir / "app.log")
    ceiling_command = gunicorn(BENCH, "ceiling_app:app", ceiling_port, args.workers)
    ceiling = Server(ceiling_command, env, "/ceiling", workdir / "ceiling.log")
    with app, ceiling:
        log("seeding through the API")
        started = time.monotonic()
        client = Client(app_port)
        read = play(client, create_game(client, "read: 50 rounds"), 50)
        posted = [create_game(client, f"posted {i}") for i in range(100)]
        # a table plays one game at a time: each of these is at its own table
        at_tables = [
            create_game(client, f"at a table {i}", create_table(client, f"posted {i}", PLAYERS))
            for i in range(100)
        ]
        tables = seed_tables(client)
        exported = play(client, create_game(client, "export"), args.export_rounds)
        export_path = f"/api/v1/games/{exported.id}/export"
        status, document, _ = client.call("GET", export_path)
        assert status == 200, status
        copies = []  # games of as many rounds, each exported once below: built, not kept
        for _ in range(args.cold_exports):
            status, data, _ = client.call("POST", "/api/v1/games/import", json.loads(document))
            assert status == 201, (status, data[:300])
            copies.append(json.loads(data)["id"])
        small = play(client, create_game(client, "growth: small"), 50)
        large = create_game(client, "growth: large")
        for _ in range(args.growth_rounds - 100):
            record(client, large)
            if large.played % 2000 == 0:
                log(f"  large game: {large.played:,} rounds")
        log(f"  seeded in {time.monotonic() - started:.0f} s")

        loads = {
            "ceiling": (ceiling_port, [get_line("/ceiling")]),
            "GET": (app_port, [get_line(f"/api/v1/games/{read.id}")]),
            **{name: (app_port, [get_line(table.path)]) for name, table in tables.items()},
            "POST": (app_port, [post_line(game, i) for i, game in enumerate(posted)]),
            "table POST": (app_port, [post_line(game, i) for i, game in enumerate(at_tables)]),
            "export": (app_port, [get_line(export_path)]),
        }
        files = {
            name: (port, write_requests(workdir / f"{name}.tsv", lines))
            for name, (port, lines) in loads.items()
        }
        log(f"wrk -c{args.connections}: {args.warmup} s of warm-up each, then slices")
        for port, requests in files.values():
            wrk(port, requests, args, args.warmup)
        slices: dict[str, list[dict[str, Any]]] = {name: [] for name in files}
        count = max(1, round(args.duration / args.slice))
        for index in range(count):
            # the loads take turns, so that all share the machine's moods; pairs side by side
            for name in ("ceiling", "GET", "table", "few", "many", "POST", "table POST"):
                slices[name].append(wrk(*files[name], args, args.slice))
            log(
                f"  slice {index + 1}/{count}: "
                + "; ".join(
                    f"{name} {parts[-1]['requests'] / parts[-1]['seconds']:,.0f} req/s, "
                    f"p99 {parts[-1]['p99_ms']:.1f} ms"
                    for name, parts in slices.items()
                    if parts
                )
            )
        slices["export"].append(wrk(*files["export"], args, args.slice))

        log("one client at a time")
        client = Client(app_port)
        built = []
        for game_id in copies:
            status, data, seconds = client.call("GET", f"/api/v1/games/{game_id}/export")
            assert status == 200 and len(data) > len(document) // 2, status
            built.append(seconds * 1000)
        again = [client.call("GET", export_path)[2] * 1000 for _ in range(20)]
        near_100, near_max = [], []
        for _ in range(100):  # alternated, so that both share the machine's moods
            near_100.append(record(client, small) * 1000)
            near_max.append(record(client, large) * 1000)
        sizes = {name: len(client.call("GET", table.path)[1]) for name, table in tables.items()}

    measured = {name: combined(parts) for name, parts in slices.items()}
    top, get, post, export = (measured[name] for name in ("ceiling", "GET", "POST", "export"))
    get_ratio, post_ratio = get["rps"] / top["rps"], post["rps"] / top["rps"]
    at_100, at_max = statistics.median(near_100), statistics.median(near_max)
    export_p50 = statistics.median(built)
    rows = [
        (
            "GET game (50 rounds) >= 0.6 x ceiling req/s",
            f"{get_ratio:.2f} ({get['rps']:,.0f} / {top['rps']:,.0f} req/s)",
            get_ratio >= 0.6 and not get["errors"],
        ),
        (
            "POST round >= 0.2 x ceiling req/s",
            f"{post_ratio:.2f} ({post['rps']:,.0f} / {top['rps']:,.0f} req/s)",
            post_ratio >= 0.2 and not post["errors"],
        ),
        (
            "GET game p99 < 50 ms",
            f"{get['p99_ms']:.1f} ms (ceiling {top['p99_ms']:.1f} ms)",
            get["p99_ms"] < 50,
        ),
        (
            "POST round p99 < 50 ms",
            f"{post['p99_ms']:.1f} ms (ceiling {top['p99_ms']:.1f} ms)",
            post["p99_ms"] < 50,
        ),
        (
            f"POST at round {args.growth_rounds:,} <= 1.2 x at round 100",
            f"{at_max / at_100:.2f} ({at_max:.2f} / {at_100:.2f} ms)",
            at_max / at_100 <= 1.2,
        ),
        (
            f"export of {args.export_rounds:,} rounds p50 < 50 ms",
            f"{export_p50:.1f} ms ({len(document) / 1024:,.0f} KiB)",
            export_p50 < 50,
        ),
    ]
    notes = [
        f"Ceiling: p50 {top['p50_ms']:.1f} ms; wrk used {100 * top['wrk_cpu']:.0f} % of a "
        f"core while driving it; 1-minute load average {load[0]:.1f} before seeding, "
        f"{os.getloadavg()[0]:.1f} at the end.",
        f"GET game: p50 {get['p50_ms']:.1f} ms; ratio in single slices {spread(slices, 'GET')}; "
        f"worst slice's p99 {get['worst_p99_ms']:.1f} ms; errors {get['errors']}.",
        f"POST round: p50 {post['p50_ms']:.1f} ms; ratio in single slices "
        f"{spread(slices, 'POST')}; worst slice's p99 {post['worst_p99_ms']:.1f} ms; "
        f"errors {post['errors']}.",
        f"Export of {args.export_rounds:,} rounds: first export of each of {len(built)} imported "
        f"copies p50 {export_p50:.1f} ms (max {max(built):.1f} ms); the same game again and "
        f"again p50 {statistics.median(again):.1f} ms; under {args.connections} connections "
        f"{export['rps']:,.0f} req/s, p50 {export['p50_ms']:.1f} ms, "
        f"p99 {export['p99_ms']:.1f} ms.",
    ]
    table_rows, table_notes = table_targets(measured, slices, sizes)
    return rows + table_rows, notes + table_notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=int, default=30, help="seconds per load (30)")
    parser.add_argument("--slice", type=int, default=5, help="seconds per turn of a load (5)")
    parser.add_argument("--warmup", type=int, default=5, help="seconds per load, first (5)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections (16)")
    parser.add_argument("--wrk-threads", type=int, default=1, help="wrk threads (1)")
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers, both (1)")
    parser.add_argument("--growth-rounds", type=int, default=10_000, help="(10000)")
    parser.add_argument("--export-rounds", type=int, default=1_000, help="(1000)")
    parser.add_argument("--cold-exports", type=int, default=20, help="games exported once (20)")
    parser.add_argument(
        "--database-url",
        help="a database to throw away, e.g. postgresql://postgres@127.0.0.1:5432/bench "
        "(default: a new SQLite file)",
    )
    args = parser.parse_args(argv)
    if args.growth_rounds < 200 or args.cold_exports < 1:
        parser.error("--growth-rounds must be at least 200, --cold-exports at least 1")
    if not shutil.which("wrk"):
        print("bench: wrk is missing; on Debian: apt-get install -y wrk", file=sys.stderr)
        return 2
    command = " ".join(["bench/run.py", *(sys.argv[1:] if argv is None else argv)])
    started = datetime.now(UTC)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as workdir:
        args.workdir = workdir
        rows, notes = run(args)
    database = (args.database_url or "sqlite").split(":", 1)[0].split("+", 1)[0]
    print(
        f"{started:%Y-%m-%d %H:%M} UTC, commit {commit()}, {machine()}, {database}; "
        f"`{command}`: gunicorn's gevent worker, --workers {args.workers} for both, "
        f"wrk -t{args.wrk_threads} -c{args.connections}, the loads taking turns "
        f"in {args.slice} s slices, {args.duration} s each in all, after {args.warmup} s "
        "of warm-up.\n"
    )
    print("| target | measured | met |\n|---|---:|---|")
    for target, measured, met in rows:
        print(f"| {target} | {measured} | {'yes' if met else '**no**'} |")
    print("\n" + "\n".join(f"- {note}" for note in notes))
    return 0 if all(met for _, _, met in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
