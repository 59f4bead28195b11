"""Which games and tables changed: announced when a write commits, heard by this process's streams.

A write names what it changed (``mark``); when its unit of work commits, the
names are published (``publish``). On PostgreSQL they go out as a
``NOTIFY`` inside the committing transaction, so that every worker of every
server hears them once the commit is done, and never for a change rolled
back; each process listens on one connection of its own (``Listener``). On
SQLite, where one server's workers share a file, the process that committed
wakes its own streams at once, and other worker processes, if any, notice
the file's ``data_version`` move within ``SQLITE_POLL_SECONDS``.

A notice says only *that* a game or table may have changed: this process
reads its version once for all the streams that follow it, and its state
only if some stream does not hold that version yet; a notice twice, or one
about a change that turns out to be none, costs a version read.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

if TYPE_CHECKING:
    from flask import Flask

Kind = Literal["game", "table"]
Key = tuple[Kind, str]
CHANNEL = "scorekeeper_changes"
PENDING = "scorekeeper.changes"
"""Where a session keeps the names of what its unit of work changed, until it commits."""
EXTENSION = "scorekeeper.changes"
NOTIFY_BYTES = 7_000
"""PostgreSQL takes payloads of up to 8,000 bytes; longer lists go out in several notices."""
LISTEN_CHECK_SECONDS = 10.0
"""How long the listener waits for a notice before it checks that its connection still answers."""
RECONNECT_SECONDS = (0.5, 1.0, 2.0, 4.0)
SQLITE_POLL_SECONDS = 0.1
REFRESHERS = 8
"""Games and tables a process reads at once for its streams. On PostgreSQL each read waits
for the database in turn with every request the worker serves, and one at a time they fall
behind a hall's changes (bench/README.md, "Capacity")."""

log = logging.getLogger("scorekeeper.changes")


ENDED = b""
"""What a subscription is given when the process stops serving: its stream ends."""


@dataclass(frozen=True)
class Update:
    """What a game or table is now, as the streams that follow it send it."""

    version: int | None
    """``None``: it is gone (deleted)."""
    message: bytes
    """What to send: the resource as an event, or the deletion."""


Refresh = Callable[[Key, set[int]], Update | None]
"""Reads ``key`` now, given the versions its streams hold: ``None`` when it is one of those."""


class Subscription:
    """One stream's place in the feed: it is handed the latest update of what it follows."""

    def __init__(self, key: Key, version: int) -> None:
        self.key = key
        self.version = version
        """The version the phone holds (sent to it, or named by its Last-Event-ID)."""
        self._latest: tuple[bytes, int | None] = (ENDED, None)
        self._arrived = threading.Event()

    def hand(self, message: bytes, version: int | None) -> None:
        """Give the stream ``message`` to send; one it has not sent yet is replaced (a phone
        that falls behind gets the latest state, not every step between)."""
        self._latest = (message, version)
        if version is not None:
            self.version = version
        self._arrived.set()

    def next_message(self, timeout: float) -> tuple[bytes, int | None] | None:
        """The next message to send and the version it carries (``None`` for a deletion or the
        end), waiting up to ``timeout`` seconds; ``None`` if none came."""
        if not self._arrived.wait(timeout):
            return None
        self._arrived.clear()
        return self._latest


class ChangeFeed:
    """This process's streams by the game or table they follow, and what tells them of changes.

    A notice names what may have changed; ``REFRESHERS`` threads (``_refresh_noticed``) read
    each such game or table once, whatever the number of streams that follow it, and hand the
    update to each of them that does not hold that version yet. They read several games at
    once, in the order they were noticed, but never one game twice at once, so a stream is
    never handed an older version after a newer one.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscriptions: dict[Key, set[Subscription]] = {}
        self._noticed: dict[Key, None] = {}
        """Noticed and not read since, in the order noticed (a dict as an ordered set)."""
        self._refreshing: set[Key] = set()
        self._notice = threading.Event()
        """Set while something noticed may be read."""
        self._refreshers: list[threading.Thread] = []
        self.refresh: Refresh | None = None
        """Reads a game or table for its streams (``api.events``)."""
        self.hear_others: Callable[[ChangeFeed], Any] | None = None
        """Starts hearing of what other processes commit (``Listener``, ``SqliteWatcher``);
        run once, in the process that serves, at its first subscription."""
        self.closing = False
        """Set when the process stops serving: every stream ends, and its phone comes back."""

    def subscribe(self, key: Key, version: int) -> Subscription:
        """A place for a stream that follows ``key`` and holds ``version``."""
        subscription = Subscription(key, version)
        with self._lock:
            self._subscriptions.setdefault(key, set()).add(subscription)
            first = not self._refreshers
            if first:
                self._refreshers = [
                    threading.Thread(
                        target=self._refresh_noticed, name=f"change-feed-{n}", daemon=True
                    )
                    for n in range(REFRESHERS)
                ]
        if first:
            for refresher in self._refreshers:
                refresher.start()
            if self.hear_others is not None:
                self.hear_others(self)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Forget ``subscription``."""
        with self._lock:
            followers = self._subscriptions.get(subscription.key)
            if followers is not None:
                followers.discard(subscription)
                if not followers:
                    del self._subscriptions[subscription.key]

    def followed(self) -> list[Key]:
        """What this process's streams follow now."""
        with self._lock:
            return list(self._subscriptions)

    def wake(self, keys: Iterable[Key]) -> None:
        """Say that the games and tables ``keys`` may have changed."""
        with self._lock:
            self._noticed.update((key, None) for key in keys if key in self._subscriptions)
            if self._noticed:
                self._notice.set()

    def wake_all(self) -> None:
        """Say that anything may have changed (after notices may have been missed)."""
        self.wake(self.followed())

    def close(self) -> None:
        """End every stream: the process is stopping."""
        self.closing = True
        with self._lock:
            everyone = [sub for subs in self._subscriptions.values() for sub in subs]
        for subscription in everyone:
            subscription.hand(ENDED, None)

    def _refresh_noticed(self) -> None:
        """Read what was noticed, once each, and hand the updates to the streams that follow."""
        while True:
            key = self._next_noticed()
            try:
                self._refresh(key)
            except Exception:  # a database that does not answer: the next notice tries again
                log.exception("Could not read %s %s for its streams", *key)
            finally:
                with self._lock:
                    self._refreshing.discard(key)
                    if key in self._noticed:  # noticed again while it was read: read it again
                        self._notice.set()

    def _next_noticed(self) -> Key:
        """Wait for the first noticed game or table that no other refresher is reading; take it."""
        while True:
            self._notice.wait()
            with self._lock:
                key = next((key for key in self._noticed if key not in self._refreshing), None)
                if key is None:
                    self._notice.clear()  # what is left is being read; its refresher sets it
                    continue
                del self._noticed[key]
                self._refreshing.add(key)
                return key

    def _refresh(self, key: Key) -> None:
        with self._lock:
            followers = list(self._subscriptions.get(key, ()))
        if not followers or self.refresh is None:
            return
        update = self.refresh(key, {sub.version for sub in followers})
        if update is None:
            return
        for subscription in followers:
            if update.version is None or subscription.version != update.version:
                subscription.hand(update.message, update.version)


def register_changes(app: Flask, engine: Engine) -> None:
    """Give ``app`` its change feed; on PostgreSQL, one that listens for every server's notices."""
    feed = ChangeFeed()
    if engine.dialect.name == "postgresql":
        feed.hear_others = lambda feed: Listener(feed, outside_pool(engine)).start()
    app.extensions[EXTENSION] = feed


def change_feed(app: Flask) -> ChangeFeed:
    """The change feed of ``app``."""
    feed: ChangeFeed = app.extensions[EXTENSION]
    return feed


def mark(session: Session, kind: Kind, row_id: str | None) -> None:
    """Note that this unit of work changes (or deletes) the game or table ``row_id``."""
    if row_id is not None:
        session.info.setdefault(PENDING, set()).add((kind, row_id))


def forget(session: Session) -> None:
    """Drop what a unit of work that is rolled back had noted."""
    session.info.pop(PENDING, None)


def notify_before_commit(session: Session) -> set[Key]:
    """Send the unit of work's notices inside its transaction (PostgreSQL); what it changed."""
    changed: set[Key] = session.info.pop(PENDING, set())
    if changed and session.get_bind().dialect.name == "postgresql":
        session.flush()  # the changes first, then the notice (sent when they commit)
        for payload in payloads(changed):
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {
                    "channel": CHANNEL,
                    "payload": payload,
                },
            )
    return changed


def wake_after_commit(feed: ChangeFeed, engine: Engine, changed: set[Key]) -> None:
    """Wake this process's streams for what just committed, where no listener will (SQLite)."""
    if changed and engine.dialect.name != "postgresql":
        feed.wake(changed)


def payloads(keys: Iterable[Key]) -> list[str]:
    """``keys`` as notice payloads: ``game:ID`` words separated by spaces, each payload short."""
    words = sorted(f"{kind}:{row_id}" for kind, row_id in keys)
    sent: list[str] = []
    current: list[str] = []
    for word in words:
        if current and len(" ".join([*current, word])) > NOTIFY_BYTES:
            sent.append(" ".join(current))
            current = []
        current.append(word)
    if current:
        sent.append(" ".join(current))
    return sent


def keys_of(payload: str) -> list[Key]:
    """The keys a notice names (words of another shape are passed over)."""
    keys: list[Key] = []
    for word in payload.split():
        kind, _, row_id = word.partition(":")
        if kind == "game" and row_id:
            keys.append(("game", row_id))
        elif kind == "table" and row_id:
            keys.append(("table", row_id))
    return keys


class Listener:
    """One connection per process that hears every server's notices and wakes the streams.

    Runs in a thread of its own (a greenlet under gevent). When its connection
    breaks it connects again, after a pause that grows; once back it wakes
    every stream, since notices sent meanwhile were lost.
    """

    def __init__(self, feed: ChangeFeed, connect: Callable[[], Any]) -> None:
        self.feed = feed
        self.connect = connect
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="change-listener", daemon=True)
        self.listening = threading.Event()
        """Set while the connection listens (the tests wait for it)."""

    def start(self) -> Listener:
        """Begin listening."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening (the connection closes within ``LISTEN_CHECK_SECONDS``)."""
        self._stopped.set()

    def _run(self) -> None:
        failures = 0
        while not self._stopped.is_set():
            try:
                self._listen()
                failures = 0
            except Exception as error:  # a database that went away: connect again
                self.listening.clear()
                pause = RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)]
                if failures == 0:
                    log.warning(
                        "Change notices are not being heard (%s); listening again in %s s",
                        type(error).__name__,
                        pause,
                    )
                failures += 1
                self._stopped.wait(pause)

    def _listen(self) -> None:
        with self.connect() as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            self.listening.set()
            self.feed.wake_all()  # notices sent while this process was not listening are lost
            while not self._stopped.is_set():
                heard = False
                for notice in connection.notifies(timeout=LISTEN_CHECK_SECONDS):
                    heard = True
                    self.feed.wake(keys_of(notice.payload))
                if not heard:
                    connection.execute("SELECT 1")  # a connection that died quietly raises here


def outside_pool(engine: Engine, *, autocommit: bool = True) -> Callable[[], Any]:
    """A function that opens a connection to ``engine``'s database of its own, outside the pool."""

    def connect() -> Any:
        cargs, cparams = engine.dialect.create_connect_args(engine.url)
        connection = engine.dialect.loaded_dbapi.connect(*cargs, **cparams)
        if autocommit:
            connection.autocommit = True
        return connection

    return connect


class SqliteWatcher:
    """Notices the SQLite file's ``data_version`` move and wakes every stream of this process.

    Needed only where several worker processes share the file: the version moves
    whenever another connection commits (this process's own included).
    """

    def __init__(self, feed: ChangeFeed, engine: Engine) -> None:
        self.feed = feed
        self.connect = outside_pool(engine, autocommit=False)
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-watcher", daemon=True)

    def start(self) -> SqliteWatcher:
        """Begin watching."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop watching."""
        self._stopped.set()

    def _run(self) -> None:
        connection = self.connect()  # one connection: data_version compares what it saw before
        try:
            seen = connection.execute("PRAGMA data_version").fetchone()[0]
            while not self._stopped.wait(SQLITE_POLL_SECONDS):
                version = connection.execute("PRAGMA data_version").fetchone()[0]
                if version != seen:
                    seen = version
                    self.feed.wake_all()
        finally:
            connection.close()
