"""SQLite writers wait their turn on a lock file beside the database, released when they finish."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from scorekeeper import games
from scorekeeper.extensions import db

from ..conftest import SERVER_URL

pytestmark = pytest.mark.skipif(bool(SERVER_URL), reason="the writer queue is SQLite's")


@contextmanager
def queue_file(database_url: str) -> Iterator[int]:
    """The writer queue as another process would open it."""
    descriptor = os.open(database_url.removeprefix("sqlite:///") + "-writers", os.O_RDWR)
    try:
        yield descriptor
    finally:
        os.close(descriptor)


def queue_is_free(descriptor: int) -> bool:
    """Whether a writer of another process would get in now."""
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    fcntl.flock(descriptor, fcntl.LOCK_UN)
    return True


def test_a_write_holds_the_queue_until_it_ends(app, table, database_url):
    table.create()
    with app.app_context(), queue_file(database_url) as queue:
        assert queue_is_free(queue)
        games.lock_game(table.id, table.token)
        assert not queue_is_free(queue)
        db.session.rollback()
        db.session.remove()  # the connection goes back to the pool
        assert queue_is_free(queue)


def test_the_queue_is_free_after_a_round_is_recorded_or_refused(app, table, database_url):
    table.create()
    with queue_file(database_url) as queue:
        table.jhyap(0, 0, 5, 7)
        assert queue_is_free(queue)
        refused = table.post_round({**table.jhyap_entry(0, (0, 5, 7)), "number": 99})
        assert refused.status_code == 409
        assert queue_is_free(queue)


def test_reading_does_not_queue(app, table, database_url):
    table.create()
    table.jhyap(0, 0, 5, 7)
    with app.app_context(), queue_file(database_url) as queue:
        fcntl.flock(queue, fcntl.LOCK_EX)  # another process is writing
        try:
            assert games.load_game(table.id).state.rounds_played == 1
        finally:
            fcntl.flock(queue, fcntl.LOCK_UN)


def test_recording_a_round_holds_the_queue_while_it_writes(app, table, database_url, monkeypatch):
    table.create()
    seen = []
    score_and_store = games._score_and_store

    def watched(*args, **kwargs):
        seen.append(queue_is_free(queue))
        return score_and_store(*args, **kwargs)

    monkeypatch.setattr(games, "_score_and_store", watched)
    with queue_file(database_url) as queue:
        table.jhyap(0, 0, 5, 7)
        assert seen == [False]
        assert queue_is_free(queue)
