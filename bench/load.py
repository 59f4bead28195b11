"""The load generator: simulated card tables over loopback, with asyncio and aiohttp.

Each table has a recording phone and watching phones, each phone a keep-alive connection of
its own from the table's own loopback address (127.x.y.z, as a table's phones share a home
network's address), so that the per-address creation limit counts per table. A watching
phone either holds the game's event stream (a connection of its own beside the one for its
reads), as the page does, or polls the game every 3 s with ``If-None-Match``, as an API
client may.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import aiohttp

from .entries import first_play, game_setup

NAMES = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Farah"]
LAG_TICK = 0.05  # seconds between the event loop's lag probes
# Closes an idle connection before gunicorn's keepalive (5 s) would, so that a request is
# never sent on a connection the server is closing at that moment.
CLIENT_KEEPALIVE = 4.0


@dataclass
class Settings:
    """What a simulated table does, and how often."""

    base_url: str
    round_every: tuple[float, float] = (30.0, 120.0)
    poll_every: float = 3.0
    watchers: tuple[int, int] = (1, 3)
    watch: str = "poll"
    """``stream``: watching phones hold the game's event stream; ``poll``: they poll it."""
    stream_retry: float = 3.0
    """How long a phone waits before it opens a stream again (the stream's ``retry``)."""
    resend_share: float = 0.01
    correction_share: float = 0.02
    players: int = 4
    seed: int = 1
    timeout: float = 30.0


def address(index: int) -> str:
    """Table ``index``'s loopback address: 127.1.0.1, 127.1.0.2, ... (Linux routes all 127/8)."""
    return f"127.{1 + index // 62500}.{(index // 250) % 250 + 1}.{index % 250 + 1}"


@dataclass
class Stats:
    """Latencies (seconds) and errors per kind of request, since the last reset."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    statuses: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    lag: list[float] = field(default_factory=list)

    def record(self, kind: str, seconds: float, status: int | None, error: str | None) -> None:
        self.latencies[kind].append(seconds)
        if status is not None:
            self.statuses[kind][status] += 1
        if error is not None:
            self.errors[kind][error] += 1


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def summary(stats: Stats, seconds: float, cpu_seconds: float) -> dict[str, Any]:
    """What the window measured: per kind count, req/s, p50, p99, max (ms), errors by cause."""
    kinds = {}
    for kind in sorted(set(stats.latencies) | set(stats.errors)):
        values = stats.latencies.get(kind) or [0.0]  # "generator": errors without requests
        kinds[kind] = {
            "count": len(stats.latencies.get(kind, [])),
            "rps": len(stats.latencies.get(kind, [])) / seconds,
            "p50_ms": 1000 * statistics.median(values),
            "p99_ms": 1000 * percentile(values, 0.99),
            "max_ms": 1000 * max(values),
            "errors": dict(stats.errors.get(kind, {})),
            "statuses": {str(s): n for s, n in sorted(stats.statuses[kind].items())},
        }
    lag = stats.lag or [0.0]
    return {
        "seconds": seconds,
        "kinds": kinds,
        "generator_cpu": cpu_seconds / seconds,
        "loop_lag_p99_ms": 1000 * percentile(lag, 0.99),
        "loop_lag_max_ms": 1000 * max(lag),
    }


@dataclass
class Answer:
    status: int
    body: Any
    etag: str | None


class Phone:
    """One phone's keep-alive connection to the service, from its table's address."""

    def __init__(self, generator: Generator, source: str) -> None:
        self.generator = generator
        connector = aiohttp.TCPConnector(
            local_addr=(source, 0), limit=1, keepalive_timeout=CLIENT_KEEPALIVE
        )
        self.session = aiohttp.ClientSession(
            base_url=generator.settings.base_url,
            connector=connector,
            timeout=aiohttp.ClientTimeout(total=generator.settings.timeout),
        )

    async def call(
        self,
        kind: str,
        method: str,
        path: str,
        expect: tuple[int, ...],
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Answer | None:
        """The answer, or ``None`` after an error (recorded under ``kind``)."""
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        generator = self.generator  # its stats of the window in which the answer comes
        started = time.perf_counter()
        token = object()
        generator.in_flight[token] = (kind, started)
        try:
            async with self.session.request(method, path, data=data, headers=headers) as response:
                raw = await response.read()
        except (aiohttp.ClientError, TimeoutError) as error:
            generator.stats.record(kind, time.perf_counter() - started, None, type(error).__name__)
            return None
        finally:
            del generator.in_flight[token]
        seconds = time.perf_counter() - started
        if response.status not in expect:
            generator.stats.record(kind, seconds, response.status, f"HTTP {response.status}")
            return None
        generator.stats.record(kind, seconds, response.status, None)
        return Answer(
            response.status, json.loads(raw) if raw else None, response.headers.get("ETag")
        )

    async def events(self, path: str) -> Any:
        """The event stream at ``path``: yields each event's ``(name, id, data)`` as it arrives
        (a keep-alive comment as ``("", None, "")``), and returns when the server ends it."""
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=self.generator.settings.timeout)
        async with self.session.get(path, timeout=timeout) as response:
            if response.status != 200:
                raise aiohttp.ClientResponseError(response.request_info, (), status=response.status)
            fields: dict[str, str] = {}
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith(":"):
                    yield "", None, ""
                    continue
                if line:
                    name, _, value = line.partition(":")
                    fields[name] = value.removeprefix(" ")
                    continue
                if "event" in fields:
                    yield fields["event"], fields.get("id"), fields.get("data", "")
                fields = {}

    async def close(self) -> None:
        await self.session.close()


class Table:
    """A card table: created, playing game after game, watched by its phones."""

    def __init__(self, generator: Generator, index: int) -> None:
        self.generator = generator
        self.index = index
        self.rng = random.Random(generator.settings.seed * 1_000_003 + index)
        self.source = address(index)
        self.ruleset = "jhyap" if index % 2 == 0 else "twenty-two"
        self.every = self.rng.uniform(*generator.settings.round_every)
        self.game_id: str | None = None
        self.recorded: dict[str, int] = {}  # rounds acknowledged per game, resends not counted
        self.version = 1  # of the game being played: each acknowledged change raises it
        self.answered: dict[int, float] = {}  # when the change that made each version answered
        self.resent = 0
        self.phones: list[Phone] = []

    def key(self) -> str:
        # 128 random bits, as a creation's key must have (api.md, "Retries").
        return f"t{self.index}-{self.rng.getrandbits(128):032x}"

    async def run(self) -> None:
        settings = self.generator.settings
        self.phones = [Phone(self.generator, self.source)]
        watchers: list[asyncio.Task[None]] = []
        try:
            phone = self.phones[0]
            roster = NAMES[: settings.players]
            body = {"name": f"Table {self.index}", "players": roster}
            answer = await phone.call(
                "create table",
                "POST",
                "/api/v1/tables",
                (201,),
                body,
                {"Idempotency-Key": self.key()},
            )
            if answer is None:
                return
            table = answer.body
            roster_ids = [player["id"] for player in table["players"]]
            answer = await phone.call(
                "create game",
                "POST",
                f"/api/v1/tables/{table['id']}/games",
                (201,),
                game_setup(self.ruleset, roster_ids),
                {"Authorization": f"Bearer {table['token']}", "Idempotency-Key": self.key()},
            )
            if answer is None:
                return
            for _ in range(self.rng.randint(*settings.watchers)):
                watcher = Phone(self.generator, self.source)
                self.phones.append(watcher)
                offset = self.rng.uniform(0, settings.poll_every)
                if settings.watch == "stream":
                    reads = Phone(self.generator, self.source)  # the stream holds the other
                    self.phones.append(reads)
                    watchers.append(asyncio.create_task(self.follow(watcher, reads, offset)))
                else:
                    watchers.append(asyncio.create_task(self.watch(watcher, offset)))
            await self.play(phone, table, answer.body)
        finally:
            for task in watchers:
                task.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)
            for each in self.phones:
                await each.close()

    async def play(self, phone: Phone, table: dict[str, Any], game: dict[str, Any]) -> None:
        """Round after round, game after game: the recording phone."""
        settings = self.generator.settings
        wait = self.rng.uniform(0, self.every)  # tables arrive mid-game, not all at once
        while True:
            self.game_id = game["id"]
            self.version, self.answered = 1, {}
            self.recorded.setdefault(game["id"], 0)
            auth = {"Authorization": f"Bearer {game['token']}"}
            rounds = f"/api/v1/games/{game['id']}/rounds"
            play = first_play(game)
            finished = False
            while not finished:
                await asyncio.sleep(wait)
                if self.generator.closing:
                    return
                wait = self.every
                entry = play.entry(self.rng)
                headers = {**auth, "Idempotency-Key": self.key()}
                answer = await phone.call("round", "POST", rounds, (201,), entry, headers)
                if answer is None:
                    continue  # the phone's outbox would send it again; this one draws anew
                self.changed()
                self.recorded[game["id"]] += 1
                if self.rng.random() < settings.resend_share:
                    await self.resend(phone, rounds, entry, headers, answer)
                before, play = play, play.after(answer.body)
                finished = answer.body["game"]["status"] == "finished"
                if self.rng.random() < settings.correction_share:
                    await asyncio.sleep(self.rng.uniform(0.1, 0.3) * self.every)
                    number = answer.body["number"]
                    corrected = await phone.call(
                        "correction",
                        "PUT",
                        f"{rounds}/{number}",
                        (200,),
                        before.entry(self.rng),
                        auth,
                    )
                    if corrected is not None:
                        self.changed()
                        play = before.after(corrected.body)
                        finished = corrected.body["game"]["status"] == "finished"
            # the end of a game: the table looks at its standings, then plays again
            await asyncio.sleep(self.rng.uniform(0.05, 0.2) * self.every)
            await phone.call("GET table", "GET", f"/api/v1/tables/{table['id']}", (200,))
            rematch = await phone.call(
                "rematch",
                "POST",
                f"/api/v1/games/{game['id']}/rematch",
                (201,),
                None,
                {"Authorization": f"Bearer {table['token']}", "Idempotency-Key": self.key()},
            )
            if rematch is None:
                return
            game = rematch.body

    def changed(self) -> None:
        """The game's version went up, answered now (what its watchers' events are timed by)."""
        self.version += 1
        self.answered[self.version] = time.perf_counter()

    async def resend(
        self, phone: Phone, path: str, entry: Any, headers: dict[str, str], first: Answer
    ) -> None:
        """The same round again with the same key, as a phone that lost the answer: same answer."""
        self.resent += 1
        again = await phone.call("resend", "POST", path, (201,), entry, headers)
        if again is not None and again.body != first.body:
            self.generator.stats.errors["resend"]["a different answer"] += 1

    async def watch(self, phone: Phone, offset: float) -> None:
        """A watching phone: the game with ``If-None-Match`` every few seconds, as the page does."""
        every = self.generator.settings.poll_every
        await asyncio.sleep(offset)
        loop = asyncio.get_running_loop()
        due = loop.time()
        seen: str | None = None
        etag: str | None = None
        while True:
            game_id = self.game_id
            if game_id is not None:
                if game_id != seen:
                    seen, etag = game_id, None
                path = f"/api/v1/games/{game_id}"
                headers: dict[str, str] = {"If-None-Match": etag} if etag else {}
                answer = await phone.call("GET game", "GET", path, (200, 304), None, headers)
                if answer is not None and answer.status == 200:
                    etag = answer.etag
                    # the page then loads the rounds it shows
                    await phone.call("GET rounds", "GET", f"{path}/rounds", (200,))
            due += every
            await asyncio.sleep(max(0.0, due - loop.time()))

    async def follow(self, phone: Phone, reads: Phone, offset: float) -> None:
        """A watching phone as the page is: it holds the game's event stream and, after each
        event, reads the history items it has not seen yet (``?after=``); a new game, a new
        stream. Each event is timed from the answer to the write that made its version."""
        await asyncio.sleep(offset)
        while True:
            game_id = self.game_id
            if game_id is None:
                await asyncio.sleep(1)
                continue
            path = f"/api/v1/games/{game_id}"
            held = 0  # history items this phone has
            try:
                async for name, version, data in phone.events(f"{path}/events"):
                    if self.game_id != game_id:  # a rematch: the page follows the new game
                        break
                    if name != "game" or version is None:
                        continue
                    answered = self.answered.get(int(version))
                    if answered is not None:
                        delay = time.perf_counter() - answered
                        self.generator.stats.record("event", delay, 200, None)
                    items = json.loads(data)["next_round"]
                    newest = items["number"] - 1 if items else held + 1
                    if newest > held:
                        await reads.call("GET rounds", "GET", f"{path}/rounds?after={held}", (200,))
                        held = newest
            except (aiohttp.ClientError, TimeoutError) as error:
                self.generator.stats.record("event stream", 0.0, None, type(error).__name__)
            if self.game_id == game_id:  # the stream ended or broke: connect again, as the page
                await asyncio.sleep(self.generator.settings.stream_retry)


class Generator:
    """Tables started and stopped on command; what they measured, window by window."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.stats = Stats()
        self.tables: list[Table] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.closing = False  # tables record no new round, and leave
        self.in_flight: dict[object, tuple[str, float]] = {}  # kind and start of each request

    async def probe_lag(self) -> None:
        """How late the event loop wakes up: the generator is saturated when this grows."""
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + LAG_TICK
            await asyncio.sleep(LAG_TICK)
            self.stats.lag.append(max(0.0, loop.time() - due))

    async def set_level(self, count: int, arrivals: float, settle: float) -> None:
        """Run ``count`` tables: new ones arrive ``arrivals`` a second, extra ones leave at once.

        Then ``settle`` seconds more, for the arrivals' writes to be done with.
        """
        while len(self.tasks) > count:
            task = self.tasks.pop()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        loop = asyncio.get_running_loop()
        started = loop.time()
        for n in range(count - len(self.tasks)):
            await asyncio.sleep(max(0.0, started + n / arrivals - loop.time()))
            table = Table(self, len(self.tables))
            self.tables.append(table)
            task = asyncio.create_task(table.run())
            task.add_done_callback(self.left)
            self.tasks.append(task)
        await asyncio.sleep(settle)

    def left(self, task: asyncio.Task[None]) -> None:
        """A table that stopped by itself: after an error it recorded, or a bug of its own."""
        if not task.cancelled() and task.exception() is not None:
            self.stats.errors["generator"][repr(task.exception())] += 1

    async def measure(self, seconds: float) -> dict[str, Any]:
        """Reset the counts, let the tables play ``seconds``, and summarise."""
        self.stats = Stats()
        before = resource.getrusage(resource.RUSAGE_SELF)
        started = time.monotonic()
        await asyncio.sleep(seconds)
        # a request still unanswered is at least this slow: counted, or a stalled server hides
        now = time.perf_counter()
        for kind, since in self.in_flight.values():
            self.stats.record(kind, now - since, None, None)
        after = resource.getrusage(resource.RUSAGE_SELF)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        report = summary(self.stats, time.monotonic() - started, cpu)
        report["tables"] = len(self.tasks)
        report["phones"] = sum(len(self.tables[i].phones) for i in range(len(self.tasks)))
        return report

    async def finish(self, timeout: float) -> None:
        """Let every table leave after the write it is making, then stop the rest."""
        self.closing = True
        await asyncio.wait(self.tasks, timeout=timeout)
        await self.stop()

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks = []

    async def serve(self, connection: Connection) -> None:
        """Obey the controller: ``("step", tables, arrivals, settle, seconds)`` or ``("stop",)``."""
        loop = asyncio.get_running_loop()
        lag = asyncio.create_task(self.probe_lag())
        while True:
            command = await loop.run_in_executor(None, connection.recv)
            if command[0] == "stop":
                break
            _, count, arrivals, settle, seconds = command
            await self.set_level(count, arrivals, settle)
            connection.send(("measuring",))
            connection.send(("measured", await self.measure(seconds)))
        await self.stop()
        lag.cancel()
        connection.send(("stopped",))


def generator_process(settings: Settings, cores: set[int], connection: Connection) -> None:
    """The generator's process: pinned to ``cores``, obeying ``connection``."""
    import os

    os.sched_setaffinity(0, cores)
    asyncio.run(Generator(settings).serve(connection))
