"""Many phones at once on a real gunicorn server with four workers, on SQLite or PostgreSQL.

tests/server/test_gunicorn.py covers 20 phones sending the same round
number (one 201, nineteen 409) and 20 resends with one Idempotency-Key (one
round, identical answers). Here 50 phones each play their own game to the
end, all at once: no 5xx, no "database is locked" anywhere (answers or the
server's log), and every game's export replays (imports as a new game,
which replays every entry and refuses any result that differs).
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from scorekeeper.testing.live_server import LiveServer
from tests.conftest import LiveServerFactory

from .conftest import report
from .phones import create_game, random_entry, replays_on_import

pytestmark = pytest.mark.server

PHONES = 50
MAX_ROUNDS = 200
NAMES = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"]


@pytest.fixture(scope="module")
def live(live_server: LiveServerFactory) -> LiveServer:
    """A gunicorn server with four sync workers on a fresh database."""
    return live_server("concurrency", workers=4)


class Tally:
    """Statuses and problems seen by all phones."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter[int] = Counter()
        self.problems: list[str] = []

    def saw(self, response: requests.Response, what: str) -> None:
        with self.lock:
            self.statuses[response.status_code] += 1
            if response.status_code >= 500 or "locked" in response.text.lower():
                self.problems.append(f"{what}: {response.status_code} {response.text[:300]}")


def play_to_the_end(
    server: LiveServer, phone: int, start: threading.Barrier, tally: Tally
) -> dict[str, Any]:
    """One phone: create a game, record rounds until it is finished; return the game."""
    rng = random.Random(phone)
    ruleset = "jhyap" if phone % 5 else "twenty-two"
    players = NAMES[: 2 + phone % 4]
    with requests.Session() as session:
        start.wait()
        options = {"elimination_limit": 150} if ruleset == "jhyap" else {}
        game = create_game(session, server.url, ruleset, players, **options)
        token = game.pop("token")
        url = f"{server.url}/api/v1/games/{game['id']}"
        auth = {"Authorization": f"Bearer {token}"}
        for number in range(1, MAX_ROUNDS + 1):
            entry = {**random_entry(game, rng), "number": number}
            headers = {**auth, "Idempotency-Key": f"phone-{phone}-round-{number}"}
            response = session.post(f"{url}/rounds", json=entry, headers=headers, timeout=60)
            tally.saw(response, f"phone {phone} round {number}")
            assert response.status_code == 201, response.text
            reread = session.get(url, timeout=60)
            tally.saw(reread, f"phone {phone} reads")
            game = reread.json()
            if game["status"] == "finished":
                return game
        raise AssertionError(f"phone {phone}'s game did not finish in {MAX_ROUNDS} rounds")


def test_fifty_phones_each_play_a_game_to_the_end(live: LiveServer) -> None:
    tally = Tally()
    start = threading.Barrier(PHONES)
    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=PHONES) as pool:
        games = list(
            pool.map(lambda phone: play_to_the_end(live, phone, start, tally), range(PHONES))
        )
    played = time.monotonic() - began

    assert all(game["status"] == "finished" for game in games)
    assert tally.problems == []
    with requests.Session() as session:
        replays = [replays_on_import(session, live.url, game["id"]) for game in games]
    assert [status for status, _ in replays] == [201] * PHONES, [
        text for _, text in replays if text
    ][:3]
    log = live.log_text()
    assert "database is locked" not in log.lower()
    assert "Traceback" not in log
    rounds = sum(game["rounds_played"] for game in games)
    report(
        f"concurrency: {PHONES} phones played {PHONES} games to the end ({rounds} rounds, "
        f"{sum(tally.statuses.values())} requests) in {played:.1f}s on 4 gunicorn workers: "
        f"statuses {dict(sorted(tally.statuses.items()))}, 0 5xx, 0 'database is locked', "
        f"{PHONES}/{PHONES} exports replayed on import"
    )
