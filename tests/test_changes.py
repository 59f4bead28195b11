"""The change feed: what a process's streams are handed when a game or table is noticed."""

from __future__ import annotations

import threading
from collections.abc import Callable

from scorekeeper.changes import REFRESHERS, ChangeFeed, Key, Subscription, Update

WAIT = 5.0
GAME_A: Key = ("game", "a")
GAME_B: Key = ("game", "b")


class SlowReads:
    """A feed's ``refresh`` that reads a version per key, each read held until it is let go."""

    def __init__(self) -> None:
        self.versions: dict[Key, int] = {}
        self.held: dict[Key, threading.Event] = {}
        self.started: list[Key] = []
        self.reading: dict[Key, int] = {}
        self.most_at_once: dict[Key, int] = {}
        self._lock = threading.Lock()
        self._read_started = threading.Condition(self._lock)

    def __call__(self, key: Key, held: set[int]) -> Update | None:
        with self._lock:
            version = self.versions[key]
            self.started.append(key)
            self.reading[key] = self.reading.get(key, 0) + 1
            self.most_at_once[key] = max(self.most_at_once.get(key, 0), self.reading[key])
            self._read_started.notify_all()
        gate = self.held.get(key)
        if gate is not None:
            assert gate.wait(WAIT)
        with self._lock:
            self.reading[key] -= 1
        return Update(version, f"{key[1]}@{version}".encode())

    def wait_for(self, started: Callable[[list[Key]], bool]) -> None:
        """Wait until the reads started so far satisfy ``started``."""
        with self._lock:
            assert self._read_started.wait_for(lambda: started(self.started), WAIT)


def handed(subscription: Subscription) -> bytes:
    """The next message ``subscription`` is handed (within ``WAIT``)."""
    message = subscription.next_message(WAIT)
    assert message is not None, "nothing was handed"
    return message[0]


def test_a_slow_read_of_one_game_does_not_hold_up_another():
    reads = SlowReads()
    reads.versions = {GAME_A: 2, GAME_B: 7}
    reads.held[GAME_A] = threading.Event()
    feed = ChangeFeed()
    feed.refresh = reads
    follows_a, follows_b = feed.subscribe(GAME_A, 1), feed.subscribe(GAME_B, 6)

    feed.wake([GAME_A])
    reads.wait_for(lambda started: GAME_A in started)
    feed.wake([GAME_B])

    assert handed(follows_b) == b"b@7"  # while a's read still waits
    assert follows_a.next_message(0) is None
    reads.held[GAME_A].set()
    assert handed(follows_a) == b"a@2"


def test_a_game_noticed_while_it_is_read_is_read_again_after_never_beside():
    reads = SlowReads()
    reads.versions = {GAME_A: 2}
    reads.held[GAME_A] = threading.Event()
    feed = ChangeFeed()
    feed.refresh = reads
    follows_a = feed.subscribe(GAME_A, 1)

    feed.wake([GAME_A])
    reads.wait_for(lambda started: started.count(GAME_A) == 1)
    reads.versions[GAME_A] = 3  # a second change commits while the first is read
    feed.wake([GAME_A])
    reads.held[GAME_A].set()

    reads.wait_for(lambda started: started.count(GAME_A) == 2)
    messages = {handed(follows_a)}
    if messages == {b"a@2"}:  # the second read had not ended when the first was handed
        messages.add(handed(follows_a))
    assert b"a@3" in messages
    assert follows_a.version == 3
    assert reads.most_at_once[GAME_A] == 1


def test_more_games_than_refreshers_are_each_read_once_in_the_order_noticed():
    reads = SlowReads()
    games: list[Key] = [("game", str(n)) for n in range(3 * REFRESHERS)]
    reads.versions = dict.fromkeys(games, 1)
    gate = threading.Event()
    reads.held = dict.fromkeys(games, gate)
    feed = ChangeFeed()
    feed.refresh = reads
    subscriptions = [feed.subscribe(game, 0) for game in games]

    feed.wake(games)
    reads.wait_for(lambda started: len(started) == REFRESHERS)
    assert reads.started == games[:REFRESHERS]  # the first noticed first, REFRESHERS at once
    gate.set()

    for game, subscription in zip(games, subscriptions, strict=True):
        assert handed(subscription) == f"{game[1]}@1".encode()
    assert sorted(reads.started) == sorted(games)
