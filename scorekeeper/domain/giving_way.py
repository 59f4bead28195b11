"""A long piece of work (replaying a long history) lets the worker's other requests run now and
then, so that one table's correction or import never holds up the other tables' rounds."""

from __future__ import annotations

import time

ITEMS_BETWEEN_TURNS = 50
"""History items a replay works through between two turns of the worker's other requests."""
PAUSE_SECONDS = 0.0001
"""A pause, not ``0``: gevent's ``sleep(0)`` resumes before the loop looks at sockets and timers."""


def give_way(done: int) -> None:
    """After every ``ITEMS_BETWEEN_TURNS`` items done, let the worker's other requests run.

    A worker of ``scorekeeper serve`` runs its requests on one gevent loop, which switches only
    where a request waits: a short ``time.sleep`` is such a wait there (and lets another thread
    take the interpreter where requests run in threads).
    """
    if done % ITEMS_BETWEEN_TURNS == ITEMS_BETWEEN_TURNS - 1:
        time.sleep(PAUSE_SECONDS)
