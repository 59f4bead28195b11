"""The capacity benchmark's load generator, at a tiny scale against a real server.

The benchmark's own tests, beside it: ``pytest`` collects ``bench/`` with ``tests/``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

# The generator's HTTP client comes with the bench extra (pip install -e '.[test,bench]'), which
# the README's test command leaves out; without it these tests are skipped.
pytest.importorskip("aiohttp")

from bench.capacity import markdown, passed
from bench.load import Generator, Settings
from scorekeeper.testing.live_server import LiveServer

pytestmark = pytest.mark.server


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Starts ``LiveServer``s on SQLite databases of their own; all are stopped after the test."""
    started: list[LiveServer] = []

    def start(name: str, **options: Any) -> LiveServer:
        folder = tmp_path / name
        folder.mkdir()
        server = LiveServer(f"sqlite:///{folder / 'scorekeeper.sqlite'}", folder, **options)
        started.append(server)
        server.start()
        return server

    yield start
    for server in started:
        server.stop()


KIND_FIELDS = {"count", "rps", "p50_ms", "p99_ms", "max_ms", "errors", "statuses"}
REPORT_FIELDS = {
    *("seconds", "kinds", "generator_cpu", "loop_lag_p99_ms", "loop_lag_max_ms"),
    *("tables", "phones"),
}


EVERY_KIND = {"round", "resend", "correction", "rematch", "GET game", "GET rounds"}


async def play(generator: Generator, tables: int) -> dict:
    """Start ``tables`` tables; measure windows of a few seconds until one has every kind of
    request (a slow machine takes more), and every table has played a second game."""
    await generator.set_level(tables, arrivals=10, settle=0.2)
    deadline = time.monotonic() + 120
    while True:
        report = await generator.measure(3)
        replayed = all(len(table.recorded) >= 2 for table in generator.tables)
        if (replayed and set(report["kinds"]) >= EVERY_KIND) or time.monotonic() > deadline:
            break
    await generator.finish(timeout=10)
    return report


def run_in_a_thread(coroutine: Coroutine[Any, Any, dict]) -> dict:
    """Run ``coroutine`` on an event loop in a thread of its own, as the generator has a process
    of its own: the browser tests' Playwright keeps a loop running in the main thread."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def test_tables_record_rounds_resend_and_play_again(live_server: Callable[..., LiveServer]) -> None:
    server = live_server("capacity", rate_limits=True)
    # every round resent with its key, a third corrected, games over in a few seconds
    settings = Settings(
        base_url=server.url,
        round_every=(0.2, 0.3),
        poll_every=0.1,
        resend_share=1.0,
        correction_share=0.3,
    )
    generator = Generator(settings)
    report = run_in_a_thread(play(generator, tables=4))

    assert set(report) >= REPORT_FIELDS
    assert report["tables"] == 4
    assert 4 * 2 <= report["phones"] <= 4 * 4  # a recording phone and 1 to 3 watchers each
    kinds = report["kinds"]
    assert set(kinds) >= EVERY_KIND
    for name, kind in kinds.items():
        assert set(kind) >= KIND_FIELDS, name
        assert kind["errors"] == {}, (name, kind["errors"])
        assert kind["count"] > 0 and kind["p50_ms"] <= kind["p99_ms"] <= kind["max_ms"]
    assert set(kinds["GET game"]["statuses"]) == {"200", "304"}
    assert passed(report) == all(kind["p99_ms"] < 100 for kind in kinds.values())

    for table in generator.tables:
        assert len(table.recorded) >= 2  # played again
        assert table.resent == sum(table.recorded.values())
        for game_id, recorded in table.recorded.items():
            # each round once, whether resent or corrected
            assert len(server.rounds(game_id)) == recorded


async def play_streams(generator: Generator, tables: int) -> dict:
    """Start ``tables`` tables whose watchers hold event streams; a few seconds' window."""
    await generator.set_level(tables, arrivals=10, settle=0.5)
    report = await generator.measure(4)
    await generator.finish(timeout=10)
    return report


def test_watching_phones_on_the_event_stream_are_timed_from_each_write(
    live_server: Callable[..., LiveServer],
) -> None:
    server = live_server("capacity-streams", rate_limits=True)
    settings = Settings(
        base_url=server.url,
        round_every=(0.3, 0.4),
        watchers=(2, 2),
        watch="stream",
        resend_share=0.0,
        correction_share=0.0,
    )
    generator = Generator(settings)
    report = run_in_a_thread(play_streams(generator, tables=3))

    assert report["phones"] == 3 * (1 + 2 * 2)  # a scorer; each watcher a stream and its reads
    kinds = report["kinds"]
    assert "GET game" not in kinds  # nobody polls
    assert kinds["event"]["count"] >= 3 * 2 * 5  # each watcher, each of a table's rounds
    assert kinds["GET rounds"]["count"] > 0
    for name, kind in kinds.items():
        assert kind["errors"] == {}, (name, kind["errors"])
    assert kinds["event"]["statuses"] == {"200": kinds["event"]["count"]}


def test_the_report_has_a_row_per_step_and_a_row_per_kind() -> None:
    kind = {
        "count": 10,
        "rps": 1.0,
        "p50_ms": 5.0,
        "p99_ms": 150.0,
        "max_ms": 200.0,
        "errors": {"HTTP 503": 2},
        "statuses": {"201": 8, "503": 2},
    }
    step = {
        "label": "step",
        "seconds": 10.0,
        "tables": 250,
        "phones": 750,
        "kinds": {"round": kind},
        "cpu": {"app": 0.5},
        "peak_mib": {"app": 90.0},
        "generator_cpu": 0.1,
        "cpu_others": 0.25,
        "loop_lag_p99_ms": 1.0,
        "load": (1.0, 1.5),
        "passed": False,
    }
    text = markdown([step])
    assert (
        "| step 10 s | 250 | 750 | 1 | 150.0 ms (round) | 2 | 50% | 500.00 ms | 10% | 25% | "
        "1.0 ms | 90 MiB | 1.0-1.5 | **no** |" in text
    )
    assert (
        "| round | 10 | 1.0 | 5.0 ms | 150.0 ms | 200.0 ms | 2 HTTP 503 | 201: 8, 503: 2 |" in text
    )
    assert not passed(step)
