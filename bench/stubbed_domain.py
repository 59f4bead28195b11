"""How far (c) could go if recording a round cost nothing: (a), (c), and (c) with it stubbed.

    .venv/bin/python bench/stubbed_domain.py [--duration 10] [--rounds 2]

Side by side in one run, each ``--rounds`` times in turn: (a) the ceiling, (c) POST
a Jhyap round with totals to one of 100 games, and the same POSTs to
``bench/stubbed_domain_app.py``, the app whose ``record_round`` answers a real
round's body without validating, scoring or storing anything. The stubbed
figure is an upper bound for (c) on this stack: what routing, Flask-Limiter's
decorators, flask-smorest, body parsing, the token check, the request log and
gunicorn cost a POST on their own. SQLite, 4 workers, wrk as in ``run.py``;
writes ``results/results-<time>-stubbed-domain.md``. About 2 minutes.
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from run import (
    BENCH,
    RESULTS,
    Load,
    Options,
    Server,
    free_port,
    fresh_database,
    log,
    measure,
    seed_main,
)
from seed import totals_entry

ROWS = {
    "a": "(a) ceiling: bare Flask JSON",
    "c": "(c) POST a round, totals (100 games)",
    "stub": "(c) with `record_round` stubbed",
}


def recorded_round_body(port: int, game: Any, workdir: Path) -> Path:
    """Record one real round in a spare game; the file holding its answer's body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(
            "POST",
            f"/api/v1/games/{game.id}/rounds",
            json.dumps(totals_entry(game.player_ids, 0)),
            {"Content-Type": "application/json", "Authorization": f"Bearer {game.token}"},
        )
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    if response.status != 201:
        raise SystemExit(f"recording the sample round answered {response.status}: {body[:300]!r}")
    path = workdir / "recorded-round.json"
    path.write_bytes(body)
    return path


def stubbed_server(database: Any, port: int, workers: int, workdir: Path, body: Path) -> Server:
    """The app with ``record_round`` stubbed, started like the real one."""
    server = Server.app(database, port, workers, workdir)
    server.command[server.command.index("--chdir") + 1] = str(BENCH)
    server.command[-1] = "stubbed_domain_app:app"
    root = str(BENCH.parent)
    server.env = {**server.env, "PYTHONPATH": root, "SCOREKEEPER_BENCH_STUB_BODY": str(body)}
    return server


def report(results: dict[str, list[dict[str, Any]]], options: Options, rounds: int) -> str:
    """The results as Markdown: each run, then the means and their ratios to (a)."""
    mean = {key: sum(run["rps"] for run in runs) / len(runs) for key, runs in results.items()}
    cpu = {
        key: sum(run["worker_cpu_ms_per_request"] for run in runs) / len(runs)
        for key, runs in results.items()
    }
    lines = [
        f"{rounds} rounds of 3 scenarios in turn, {options.duration} s each after "
        f"{options.warmup} s warm-up; {options.workers} gunicorn sync workers, "
        f"wrk -t{options.threads} -c{options.connections}, SQLite.",
        "",
        "| scenario | req/s, each round | mean req/s | ratio to (a) | worker CPU ms/req | p99 ms |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for key, runs in results.items():
        each = " / ".join(f"{run['rps']:.0f}" for run in runs)
        worst_p99 = max(run["p99_ms"] for run in runs)
        lines.append(
            f"| {ROWS[key]} | {each} | {mean[key]:.0f} | {mean[key] / mean['a']:.2f} | "
            f"{cpu[key]:.2f} | {worst_p99:.1f} |"
        )
    domain = cpu["c"] - cpu["stub"]
    lines += [
        "",
        f"Recording a round (validate, lock, score, insert, update, commit) costs "
        f"{domain:.2f} ms of worker CPU per POST under this load; the rest of a POST "
        f"{cpu['stub']:.2f} ms, the ceiling's whole request {cpu['a']:.2f} ms.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--connections", type=int, default=16)
    arguments = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-stubbed-"))
    options = Options(
        duration=arguments.duration,
        warmup=arguments.warmup,
        connections=arguments.connections,
        threads=1,
        workers=arguments.workers,
        growth_duration=0,
        growth_rounds=0,
        profile_seconds=0,
        workdir=workdir,
    )
    try:
        database = fresh_database("sqlite", "stubbed", workdir, "")
        seeded = seed_main(database.url)
        games = seeded["c"]
        load = Load.posts(games, [totals_entry(game.player_ids, i) for i, game in enumerate(games)])
        results: dict[str, list[dict[str, Any]]] = {"a": [], "c": [], "stub": []}
        for round_number in range(1, arguments.rounds + 1):
            log(f"round {round_number} of {arguments.rounds}")
            with Server.ceiling(free_port(), options.workers, workdir) as ceiling:
                results["a"].append(
                    measure(ceiling, Load.get("/ceiling"), options, options.duration, "(a)")
                )
            with Server.app(database, free_port(), options.workers, workdir) as server:
                body = recorded_round_body(server.port, seeded["d"][0], workdir)
                results["c"].append(measure(server, load, options, options.duration, "(c)"))
            with stubbed_server(database, free_port(), options.workers, workdir, body) as server:
                results["stub"].append(
                    measure(server, load, options, options.duration, "(c) stubbed")
                )
        text = report(results, options, arguments.rounds)
        print(text)
        RESULTS.mkdir(exist_ok=True)
        path = RESULTS / f"results-{datetime.now(UTC):%Y%m%dT%H%M%SZ}-stubbed-domain.md"
        path.write_text("Command: `bench/stubbed_domain.py`\n\n" + text)
        log(f"written {path.relative_to(BENCH.parent)}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
