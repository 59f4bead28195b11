"""What an idle event stream costs the service in memory (issue 28: at most 20 KiB a stream).

    .venv/bin/python -m bench.streams [--streams 1000,2000] [--settle 5]

Starts ``scorekeeper serve`` (one worker, SQLite, as the README starts it), creates a game,
and opens the given numbers of ``GET /api/v1/games/{id}/events`` streams from this process,
each reading its first event and then idle. The service's memory (proportional set size of
the master and its worker, bench/procstat.py) is read with no stream open and again once every
stream has its first event and the worker has settled; the growth divided by the streams is
the cost of one. Memory does not depend on how busy the machine is, so this needs no quiet
hour. Prints a Markdown table; see bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import tempfile
import time
import urllib.request
from pathlib import Path

from scorekeeper.testing.live_server import LiveServer

from .procstat import memory_kib

FIRST_EVENT_TIMEOUT = 60.0


def create_game(url: str) -> str:
    """A new game's id."""
    body = json.dumps({"ruleset": "jhyap", "players": ["Asha", "Bikash"], "dealer": 0}).encode()
    request = urllib.request.Request(
        f"{url}/api/v1/games", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        return str(json.load(response)["id"])


async def open_stream(port: int, game_id: str) -> asyncio.StreamWriter:
    """A connection whose event stream has sent its first event, left open and unread."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /api/v1/games/{game_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head[:80]
    await reader.readuntil(b"\n\n")  # the game as GET answers it
    return writer


async def hold_streams(port: int, game_id: str, count: int, settle: float, pid: int) -> int:
    """Open ``count`` streams; the service's memory in KiB once they are all idle."""
    writers: list[asyncio.StreamWriter] = []
    try:
        for start in range(0, count, 100):  # a hundred at a time, as phones arrive
            batch = [open_stream(port, game_id) for _ in range(min(100, count - start))]
            writers += await asyncio.wait_for(asyncio.gather(*batch), FIRST_EVENT_TIMEOUT)
        await asyncio.sleep(settle)
        return memory_kib(pid)
    finally:
        for writer in writers:
            writer.close()


def measure(counts: list[int], settle: float) -> list[tuple[int, int, int]]:
    """For each count: the service's memory without streams and with that many, in KiB."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, max(counts) + 1000)), hard))
    results = []
    for count in counts:  # a new server each time: a worker keeps the memory streams freed
        with tempfile.TemporaryDirectory() as folder:
            server = LiveServer(f"sqlite:///{Path(folder) / 'streams.sqlite'}", Path(folder))
            server.migrate()
            server.start()
            try:
                server.wait_until_serving()
                assert server.process is not None
                game_id = create_game(server.url)
                time.sleep(settle)
                before = memory_kib(server.process.pid)
                with_streams = asyncio.run(
                    hold_streams(server.port, game_id, count, settle, server.process.pid)
                )
                results.append((count, before, with_streams))
            finally:
                server.kill()
    return results


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", default="1000,2000", help="numbers of streams, in order")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds before each reading")
    options = parser.parse_args()
    counts = [int(count) for count in options.streams.split(",")]
    print("| idle streams | service before | service with them | a stream |")
    print("|---:|---:|---:|---:|")
    for count, before, after in measure(counts, options.settle):
        print(
            f"| {count:,} | {before / 1024:,.1f} MiB | {after / 1024:,.1f} MiB "
            f"| {(after - before) / count:,.1f} KiB |"
        )


if __name__ == "__main__":
    main()
