"""Capacity: how many card tables one machine holds, p99 under 100 ms (events 200 ms), no error.

    .venv/bin/python -m bench.capacity --database sqlite|postgresql [--step-seconds 60]
        [--hold 300] [--levels 250,500,1000,...]

Simulated tables (bench/load.py) play over loopback from a generator process of its own,
pinned to its own cores while the app (and PostgreSQL and Redis) run on the others. The
number of tables steps up until a kind of request's p99 passes 100 ms or an error appears;
the largest good level is then held for ``--hold`` seconds (one level lower if that fails).
Prints Markdown tables; see bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .load import Settings, generator_process
from .procstat import Meter, machine_busy_seconds, memory_kib, pin
from .services import app_server, postgres_cluster, redis_server

LEVELS = [100, 200, 300, 400, 500, 600, 800, 1000, 1250, 1500, 2000, 2500, 3000]
P99_LIMIT_MS = 100.0
EVENT_P99_LIMIT_MS = 200.0
"""An event at every watcher within 200 ms of the write's answer (issue 28), at the 99th."""
SERVE_DEFAULTS = 1  # workers of `scorekeeper serve` as the README starts it
PRODUCTION = 2  # README, Operations: `serve --workers 2`, Redis counters


def log(message: str) -> None:
    print(f"[{datetime.now(UTC):%H:%M:%S}] {message}", file=sys.stderr, flush=True)


def cores(text: str) -> set[int]:
    return {int(part) for part in text.split(",")}


@dataclass
class Watched:
    """A process tree whose CPU share and peak memory are measured window by window."""

    name: str
    meter: Meter
    peak_kib: int = 0


@dataclass
class Sampler:
    """Peak memory of the watched trees, sampled every second on a thread of its own."""

    watched: list[Watched]
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        while not self.stop.wait(1.0):
            for each in self.watched:
                each.peak_kib = max(each.peak_kib, memory_kib(each.meter.root))


def passed(report: dict[str, Any]) -> bool:
    """No error of any kind, and every kind's p99 under the limit."""
    kinds = report["kinds"]
    return bool(kinds) and all(
        not kind["errors"]
        and kind["p99_ms"] < (EVENT_P99_LIMIT_MS if name == "event" else P99_LIMIT_MS)
        for name, kind in kinds.items()
    )


def worst(report: dict[str, Any]) -> tuple[str, float]:
    """The kind of request with the highest p99, and that p99 (no request answered: infinite)."""
    if not report["kinds"]:
        return "no answer", float("inf")
    name, kind = max(report["kinds"].items(), key=lambda item: item[1]["p99_ms"])
    return name, kind["p99_ms"]


class Run:
    """The generator process and the watched services of one run."""

    def __init__(self, args: argparse.Namespace, base_url: str, watched: list[Watched]) -> None:
        self.args = args
        self.watched = watched
        settings = Settings(
            base_url=base_url,
            seed=args.seed,
            watch=args.watch,
            watchers=(args.watchers, args.watchers),
        )
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        self.process = context.Process(
            target=generator_process, args=(settings, cores(args.generator_cores), child)
        )

    def __enter__(self) -> Run:
        self.process.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.is_alive():
            self.connection.send(("stop",))
            if self.connection.poll(120):
                self.connection.recv()
        self.process.join(timeout=30)
        if self.process.is_alive():
            self.process.kill()

    def step(self, tables: int, seconds: float, label: str) -> dict[str, Any]:
        """Run ``tables`` tables, then measure them for ``seconds``."""
        log(f"{label}: {tables} tables, measured {seconds:.0f} s")
        args = self.args
        self.connection.send(("step", tables, args.arrivals, args.settle, seconds))
        assert self.connection.recv() == ("measuring",)
        started = time.monotonic()
        for each in self.watched:
            each.meter.start(started)
            each.peak_kib = memory_kib(each.meter.root)
        load_before = os.getloadavg()[0]
        busy_before = machine_busy_seconds()
        kind, report = self.connection.recv()
        assert kind == "measured"
        now = time.monotonic()
        report["label"] = label
        report["cpu"] = {each.name: each.meter.share(now) for each in self.watched}
        busy = (machine_busy_seconds() - busy_before) / (now - started)
        # what the rest of the machine used meanwhile: other people's work shares the cores
        report["cpu_others"] = max(
            0.0, busy - sum(report["cpu"].values()) - report["generator_cpu"]
        )
        report["peak_mib"] = {each.name: each.peak_kib / 1024 for each in self.watched}
        report["load"] = (load_before, os.getloadavg()[0])
        report["passed"] = passed(report)
        name, p99 = worst(report)
        log(
            f"  {'good' if report['passed'] else 'FAILED'}: worst p99 {p99:.1f} ms ({name}), "
            f"errors {sum(sum(k['errors'].values()) for k in report['kinds'].values())}, "
            f"CPU {', '.join(f'{n} {s:.0%}' for n, s in report['cpu'].items())}, "
            f"generator {report['generator_cpu']:.0%}, others {report['cpu_others']:.0%}, "
            f"lag p99 {report['loop_lag_p99_ms']:.1f} ms"
        )
        return report


def ramp(run: Run, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Step up to the first failing level, try ``--refine`` levels between the last good one
    and it, then hold the largest good one (the next lower if that fails)."""
    levels = [int(level) for level in args.levels.split(",")]
    reports, good = [], []
    failed = None
    for tables in levels:
        report = run.step(tables, args.step_seconds, "step")
        reports.append(report)
        if not report["passed"]:
            failed = tables
            break
        good.append(tables)
    for _ in range(args.refine if good and failed else 0):
        assert failed is not None
        tables = round((good[-1] + failed) / 2 / 50) * 50
        if tables in (good[-1], failed):
            break
        report = run.step(tables, args.step_seconds, "step")
        reports.append(report)
        if report["passed"]:
            good.append(tables)
        else:
            failed = tables
    if args.hold:
        for tables in reversed(good):
            report = run.step(tables, args.hold, "hold")
            reports.append(report)
            if report["passed"]:
                break
    return reports


def measure(args: argparse.Namespace, folder: Path) -> tuple[list[dict[str, Any]], str]:
    """Start the services for ``args.database``, ramp, stop everything; the reports and setup."""
    server_cores = cores(args.server_cores)
    with ExitStack() as stack:
        watched: list[Watched] = []
        settings: dict[str, str | None] = {"SCOREKEEPER_REQUEST_LOG": None}  # on, as by default
        if args.database == "sqlite":
            url = f"sqlite:///{folder / 'capacity.sqlite'}"
            workers = args.workers or SERVE_DEFAULTS
            setup = f"SQLite file, `scorekeeper serve --workers {workers}`, in-memory counters"
        else:
            url, postmaster = stack.enter_context(postgres_cluster(server_cores))
            redis_uri, redis_pid = stack.enter_context(redis_server(server_cores))
            settings["SCOREKEEPER_RATE_LIMIT_STORAGE_URI"] = redis_uri
            workers = args.workers or PRODUCTION
            setup = (
                f"PostgreSQL 15 (a cluster of its own, default settings), "
                f"`scorekeeper serve --workers {workers}`, counters in Redis"
            )
            watched += [Watched("postgres", Meter(postmaster)), Watched("redis", Meter(redis_pid))]
        server = app_server(url, folder, workers, settings)
        server.start()
        stack.callback(server.stop)
        assert server.process is not None
        pin(server.process.pid, server_cores)
        watched.insert(0, Watched("app", Meter(server.process.pid)))
        sampler = Sampler(watched)
        thread = threading.Thread(target=sampler.run, daemon=True)
        thread.start()
        stack.callback(sampler.stop.set)
        with Run(args, server.url, watched) as run:
            reports = ramp(run, args)
    return reports, setup


def machine() -> str:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        "unknown CPU",
    )
    memory = next(
        int(line.split()[1])
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal:")
    )
    return f"{os.cpu_count()} cores (nproc), {model}, {memory / 1024**2:.1f} GiB"


def calibration_ms() -> float:
    """CPU milliseconds this process takes for a fixed loop: the machine's speed at the moment."""
    started = time.process_time()
    total = 0
    for number in range(2_000_000):
        total += number
    return 1000 * (time.process_time() - started)


def errors_text(kind: dict[str, Any]) -> str:
    return ", ".join(f"{n} {cause}" for cause, n in kind["errors"].items()) or "0"


def markdown(reports: list[dict[str, Any]]) -> str:
    """The steps' table, then every kind of request of the last good hold (or last step)."""
    names = list(reports[0]["cpu"])
    lines = [
        "| step | tables | phones | req/s | worst p99 | errors | CPU "
        + " | CPU ".join(names)
        + " | service CPU a request | CPU generator | CPU others | loop lag p99 | peak "
        + " | peak ".join(names)
        + " | load | good |",
        "|---|" + "---:|" * (10 + 2 * len(names)) + "---|",
    ]
    for report in reports:
        name, p99 = worst(report)
        errors = sum(sum(kind["errors"].values()) for kind in report["kinds"].values())
        rps = sum(kind["rps"] for kind in report["kinds"].values())
        lines.append(
            f"| {report['label']} {report['seconds']:.0f} s | {report['tables']:,} | "
            f"{report['phones']:,} | {rps:,.0f} | {p99:.1f} ms ({name}) | {errors} | "
            + " | ".join(f"{report['cpu'][n]:.0%}" for n in names)
            + f" | {1000 * sum(report['cpu'].values()) / rps if rps else 0:.2f} ms"
            + f" | {report['generator_cpu']:.0%} | {report['cpu_others']:.0%} | "
            + f"{report['loop_lag_p99_ms']:.1f} ms | "
            + " | ".join(f"{report['peak_mib'][n]:,.0f} MiB" for n in names)
            + f" | {report['load'][0]:.1f}-{report['load'][1]:.1f} | "
            + ("yes" if report["passed"] else "**no**")
            + " |"
        )
    held = next((r for r in reversed(reports) if r["label"] == "hold" and r["passed"]), None)
    shown = held or reports[-1]
    lines += [
        "",
        f"Requests of the {shown['label']} at {shown['tables']:,} tables "
        f"({shown['seconds']:.0f} s):",
        "",
        "| request | count | req/s | p50 | p99 | max | errors | statuses |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for name, kind in shown["kinds"].items():
        statuses = ", ".join(f"{s}: {n:,}" for s, n in kind["statuses"].items())
        lines.append(
            f"| {name} | {kind['count']:,} | {kind['rps']:,.1f} | {kind['p50_ms']:.1f} ms | "
            f"{kind['p99_ms']:.1f} ms | {kind['max_ms']:.1f} ms | {errors_text(kind)} | "
            f"{statuses} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)), help="tables per step")
    parser.add_argument("--step-seconds", type=float, default=60, help="measured per step (60)")
    parser.add_argument("--arrivals", type=float, default=10, help="new tables a second (10)")
    parser.add_argument("--settle", type=float, default=10, help="seconds after arrivals (10)")
    parser.add_argument("--refine", type=int, default=1, help="steps between good and bad (1)")
    parser.add_argument("--hold", type=float, default=300, help="the good level held; 0: none")
    parser.add_argument("--workers", type=int, help="gunicorn workers (1 on SQLite, 2 on PG)")
    parser.add_argument(
        "--watch",
        choices=["stream", "poll"],
        default="stream",
        help="watching phones hold the event stream (stream), or poll every 3 s (poll)",
    )
    parser.add_argument("--watchers", type=int, default=2, help="watching phones a table (2)")
    parser.add_argument("--server-cores", default="0", help="the app and databases' cores (0)")
    parser.add_argument("--generator-cores", default="1", help="the load generator's cores (1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write every report to this file")
    args = parser.parse_args(argv)
    if cores(args.server_cores) & cores(args.generator_cores):
        parser.error("the server's and the generator's cores must differ")
    os.sched_setaffinity(0, cores(args.generator_cores))  # this process only samples /proc
    command = " ".join(["python -m bench.capacity", *(sys.argv[1:] if argv is None else argv)])
    started = datetime.now(UTC)
    speed = [calibration_ms()]
    with tempfile.TemporaryDirectory(prefix="scorekeeper-capacity-") as folder:
        reports, setup = measure(args, Path(folder))
    speed.append(calibration_ms())
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1))
    good = [r for r in reports if r["label"] == "hold" and r["passed"]]
    print(
        f"{started:%Y-%m-%d %H:%M} UTC, {machine()}; `{command}`; {setup}; "
        f"{args.watchers} watching phones a table, "
        + ("on the event stream" if args.watch == "stream" else "polling every 3 s")
        + "; app, database and "
        f"Redis on cores {args.server_cores}, generator on {args.generator_cores}; a fixed "
        f"Python loop took {speed[0]:.0f} ms of CPU before the run and {speed[1]:.0f} ms after "
        "(the machine's speed: higher is slower).\n"
    )
    print(markdown(reports))
    if args.hold:
        held = f"{good[0]['tables']:,} tables held" if good else "No level held"
        print(f"\n{held} for {args.hold:.0f} s with p99 < {P99_LIMIT_MS:.0f} ms and 0 errors.")
    return 0 if good or not args.hold else 1


if __name__ == "__main__":
    sys.exit(main())
