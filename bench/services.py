"""The services a capacity run starts: the app, and for PostgreSQL its own cluster and Redis."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from scorekeeper.testing.live_server import LiveServer

from .procstat import pin


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def as_postgres(command: list[str]) -> list[str]:
    """``command`` run as the ``postgres`` user when we are root (initdb refuses root)."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def postgres_cluster(cores: set[int]) -> Iterator[tuple[str, int]]:
    """A new PostgreSQL cluster with the server's default settings, pinned to ``cores``.

    Yields the URL of its empty database ``capacity`` and the postmaster's pid; the cluster
    and its files are removed afterwards.
    """
    bindir = Path(os.path.realpath(shutil.which("pg_ctl") or "pg_ctl")).parent
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-capacity-pg-"))
    data, port = folder / "data", free_port()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    initdb = [str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"]
    subprocess.run(as_postgres([*initdb, "-E", "UTF8"]), check=True, capture_output=True)
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
    pg_ctl = [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w"]
    cpus = ",".join(map(str, sorted(cores)))
    subprocess.run(
        ["taskset", "-c", cpus, *as_postgres([*pg_ctl, "-o", options, "start"])],
        check=True,
        capture_output=True,
    )
    try:
        postmaster = int((data / "postmaster.pid").read_text().split()[0])
        pin(postmaster, cores)
        url = f"postgresql://postgres@127.0.0.1:{port}"
        subprocess.run(
            ["psql", f"{url}/postgres", "-qc", "CREATE DATABASE capacity"],
            check=True,
            capture_output=True,
        )
        yield f"{url}/capacity", postmaster
    finally:
        subprocess.run(as_postgres([*pg_ctl, "-m", "fast", "stop"]), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def redis_server(cores: set[int]) -> Iterator[tuple[str, int]]:
    """A Redis of its own (no persistence) for the rate-limit counters: its URI and pid."""
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1"]
    command += ["--save", "", "--appendonly", "no"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        pin(process.pid, cores)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", process.pid
    finally:
        process.terminate()
        process.wait(timeout=10)


def app_server(
    database_url: str, folder: Path, workers: int, settings: dict[str, str | None]
) -> LiveServer:
    """``scorekeeper serve`` with its rate limits on, as the tests' live server starts it."""
    return LiveServer(
        database_url,
        folder,
        workers=workers,
        rate_limits=True,
        settings=settings,
        ready_timeout=60,
    )
