"""Crash safety: SIGKILL the whole gunicorn process group at random moments, start it again, check.

1. Phones record rounds in a stream (each with ``number`` and an
   ``Idempotency-Key``; a request cut off by the kill is resent as it was,
   as a phone's outbox does) while the server is killed at random moments
   and restarted, at least 20 times. Afterwards every round that was
   answered 201 is there with the answer it was given, no half-written round
   exists (round numbers run 1..n with n the game's ``rounds_played``, and
   the running state is the last round's), and every game's stored results
   equal a replay of its stored entries (checked in the database with the
   rules engine, and by importing the export).
2. The same while correcting round 1 of a long game (every later round is
   scored again in that one transaction): killed part way, the correction
   is either all there or not at all.

The counts are printed in the summary ("0 lost acknowledged rounds, 0 replay
mismatches").
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.app import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Game, RequestKey, Round
from scorekeeper.testing.live_server import LiveServer
from tests.conftest import LiveServerFactory
from tests.storage.test_replay import assert_stored_results_replay

from .conftest import report
from .phones import create_game, random_entry, replays_on_import

pytestmark = pytest.mark.server

STREAM_KILLS = 20
CORRECTION_KILLS = 6
PHONES = 6
SEED = 20261130
RESEND_INTERVAL = 0.05  # seconds a phone waits before resending to a server that is down


@pytest.fixture(scope="module")
def live(live_server: LiveServerFactory) -> LiveServer:
    """A gunicorn server (a master and two sync workers: restarts are quicker than with four) on a
    fresh database, not started."""
    return live_server("crash", start=False, workers=2)


@pytest.fixture(scope="module")
def storage(live: LiveServer) -> Iterator[Flask]:
    """The app on the server's database, to look at what is stored."""
    app = create_app({"DATABASE_URL": live.database_url, "REQUEST_LOG": "off"})
    yield app
    with app.app_context():
        db.engine.dispose()


def send_until_answered(
    session: requests.Session, method: str, url: str, stop: threading.Event, **kwargs: Any
) -> tuple[requests.Response | None, int]:
    """Send the request again and again while the server is down; return the answer, the tries."""
    tries = 0
    while not stop.is_set():
        tries += 1
        try:
            return session.request(method, url, timeout=30, **kwargs), tries
        except requests.RequestException:
            time.sleep(RESEND_INTERVAL)
    return None, tries


def chaos_pause(rng: random.Random, shortest: float, longest: float) -> None:
    """Let a random while pass: where the next kill lands is the test's chaos, not a wait for
    anything to happen."""
    time.sleep(rng.uniform(shortest, longest))


def wait_for(condition: Callable[[], bool], timeout: float = 60) -> None:
    """Poll ``condition`` until it holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"still waiting after {timeout} s"
        time.sleep(0.02)  # the polling interval


class Phone:
    """Records rounds into one game until told to stop; remembers every 201 it got."""

    def __init__(self, server: LiveServer, index: int) -> None:
        self.server = server
        self.index = index
        self.rng = random.Random(SEED + index)
        self.acknowledged: dict[int, dict[str, Any]] = {}
        # Requests cut off by a kill, or sent while the server was down (resent until answered).
        self.in_doubt = 0
        self.problems: list[str] = []
        self.game: dict[str, Any] = {}
        self.auth: dict[str, str] = {}

    def create(self, session: requests.Session) -> None:
        names = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"][: 2 + self.index % 4]
        self.game = create_game(session, self.server.url, "jhyap", names, elimination_limit=10_000)
        self.auth = {"Authorization": f"Bearer {self.game.pop('token')}"}

    @property
    def url(self) -> str:
        return f"{self.server.url}/api/v1/games/{self.game['id']}"

    def run(self, stop: threading.Event) -> None:
        with requests.Session() as session:
            number = 1
            while not stop.is_set():
                entry = {**random_entry(self.game, self.rng), "number": number}
                headers = {**self.auth, "Idempotency-Key": f"phone-{self.index}-round-{number}"}
                response, tries = send_until_answered(
                    session, "POST", f"{self.url}/rounds", stop, json=entry, headers=headers
                )
                self.in_doubt += tries > 1
                if response is None:
                    return  # stopped while the server was down: this round was never answered
                if response.status_code != 201:
                    self.problems.append(
                        f"round {number}: {response.status_code} {response.text[:300]}"
                    )
                    return
                answer = response.json()
                self.acknowledged[number] = answer
                self.follow(answer)
                if answer["game"]["status"] == "finished":
                    return
                number += 1

    def follow(self, answer: dict[str, Any]) -> None:
        """Leave out players the round eliminated, as the phone at the table does.

        The service records so fast that random hands can carry someone past even
        the highest elimination limit within a run.
        """
        out = {result["player"] for result in answer["results"] if result["eliminated"]}
        for player in self.game["players"]:
            player["eliminated"] = player["eliminated"] or player["id"] in out


def stored_rounds(storage: Flask, game_id: str) -> tuple[dict[str, Any], list[Round], int]:
    """The game's stored state, its rounds in order, and how many idempotency keys it has."""
    with storage.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        rounds = db.session.scalars(
            select(Round).where(Round.game_id == game_id).order_by(Round.number)
        ).all()
        keys = db.session.scalar(
            select(func.count()).select_from(RequestKey).where(RequestKey.game_id == game_id)
        )
        state = dict(game.state)
        db.session.expunge_all()
        db.session.remove()
        return state, list(rounds), keys or 0


def replay_mismatches(storage: Flask, game_id: str) -> list[str]:
    """Whether the stored results equal a replay of the stored entries, with the rules engine."""
    with storage.app_context():
        try:
            assert_stored_results_replay(game_id)
        except AssertionError as error:
            return [f"{game_id}: {error}"]
        finally:
            db.session.remove()
    return []


def test_sigkill_while_recording_loses_no_acknowledged_round(
    live: LiveServer, storage: Flask
) -> None:
    rng = random.Random(SEED)
    live.start()
    phones = [Phone(live, index) for index in range(PHONES)]
    with requests.Session() as session:
        for phone in phones:
            phone.create(session)
    stop = threading.Event()
    kills = 0
    with ThreadPoolExecutor(max_workers=PHONES) as pool:
        futures = [pool.submit(phone.run, stop) for phone in phones]
        try:
            for _ in range(STREAM_KILLS):
                chaos_pause(rng, 0.05, 0.6)
                live.kill()
                kills += 1
                live.start()
            # Every phone still recording gets a round acknowledged by the restarted server.
            counts = [len(phone.acknowledged) for phone in phones]
            wait_for(
                lambda: all(
                    future.done() or len(phone.acknowledged) > count
                    for phone, future, count in zip(phones, futures, counts, strict=True)
                )
            )
        finally:
            stop.set()
            for future in futures:
                future.result()

    lost: list[str] = []
    half_written: list[str] = []
    mismatches: list[str] = []
    with requests.Session() as session:
        for phone in phones:
            game_id = phone.game["id"]
            state, rounds, keys = stored_rounds(storage, game_id)
            numbers = [round_.number for round_ in rounds]
            if numbers != list(range(1, len(rounds) + 1)) or state["rounds_played"] != len(rounds):
                half_written.append(
                    f"{game_id}: rounds {numbers}, rounds_played {state['rounds_played']}"
                )
            if rounds and rounds[-1].state_after != state:
                half_written.append(f"{game_id}: the game's state is not its last round's")
            if keys != len(rounds):
                half_written.append(f"{game_id}: {keys} idempotency keys for {len(rounds)} rounds")
            for number, body in phone.acknowledged.items():
                answer = session.get(f"{phone.url}/rounds/{number}", timeout=30)
                if answer.status_code != 200 or answer.json() != body:
                    lost.append(f"{game_id} round {number}: {answer.status_code}")
            mismatches += replay_mismatches(storage, game_id)
            status, text = replays_on_import(session, live.url, game_id)
            if status != 201:
                mismatches.append(f"{game_id}: import of the export answered {status} {text[:300]}")
    live.stop()

    acknowledged = sum(len(phone.acknowledged) for phone in phones)
    in_doubt = sum(phone.in_doubt for phone in phones)
    report(
        f"crash (recording): {kills} SIGKILLs of the gunicorn process group; {acknowledged} rounds "
        f"acknowledged by {PHONES} phones, {in_doubt} requests cut off and resent; "
        f"{len(lost)} lost acknowledged rounds, {len(half_written)} half-written, "
        f"{len(mismatches)} replay mismatches"
    )
    assert kills >= STREAM_KILLS
    assert [problem for phone in phones for problem in phone.problems] == []
    assert acknowledged > 0
    assert lost == []
    assert half_written == []
    assert mismatches == []
    assert "database is locked" not in live.log_text().lower()


def test_sigkill_during_a_correction_replay_keeps_all_or_nothing(
    live: LiveServer, storage: Flask
) -> None:
    rng = random.Random(SEED + 1)
    live.start()
    stop = threading.Event()
    with requests.Session() as session:
        phone = Phone(live, 0)
        phone.create(session)
        game = phone.game
        for number in range(1, 301):
            entry = {**random_entry(game, rng), "number": number}
            response = session.post(
                f"{phone.url}/rounds", json=entry, headers=phone.auth, timeout=30
            )
            assert response.status_code == 201, response.text
        ids = [player["id"] for player in game["players"]]
        corrections = [
            {
                "caller": ids[0],
                "hands": [{"player": p, "total": 0 if p == ids[0] else 9} for p in ids],
            },
            {
                "caller": ids[1],
                "hands": [{"player": p, "total": 1 if p == ids[1] else 7} for p in ids],
            },
        ]
        began = time.monotonic()
        response = session.put(
            f"{phone.url}/rounds/1", json=corrections[0], headers=phone.auth, timeout=60
        )
        duration = time.monotonic() - began
        assert response.status_code == 200, response.text

        applied = rolled_back = 0
        mismatches: list[str] = []
        for kill in range(CORRECTION_KILLS):
            before = session.get(f"{phone.url}/export", timeout=30).json()
            correction = corrections[(kill + 1) % 2]
            sent = threading.Event()

            def correct(
                correction: dict[str, Any] = correction, sent: threading.Event = sent
            ) -> None:
                sent.set()
                with contextlib.suppress(requests.RequestException):  # cut off by the kill
                    requests.put(
                        f"{phone.url}/rounds/1", json=correction, headers=phone.auth, timeout=60
                    )

            worker = threading.Thread(target=correct)
            worker.start()
            sent.wait()
            chaos_pause(rng, duration * 0.2, duration * 0.8)  # part way through the correction
            live.kill()
            worker.join()
            live.start()

            after = session.get(f"{phone.url}/export", timeout=30).json()
            first_entry = after["rounds"][0]["entry"]
            if first_entry == correction:
                applied += 1
            elif (
                first_entry == before["rounds"][0]["entry"] and after["rounds"] == before["rounds"]
            ):
                rolled_back += 1
            else:
                mismatches.append(f"kill {kill}: round 1 is neither the old nor the new entry")
            if len(after["rounds"]) != 300:
                mismatches.append(f"kill {kill}: {len(after['rounds'])} rounds")
            mismatches += replay_mismatches(storage, game["id"])
            status, text = replays_on_import(session, live.url, game["id"])
            if status != 201:
                mismatches.append(
                    f"kill {kill}: import of the export answered {status} {text[:300]}"
                )
    stop.set()
    live.stop()
    report(
        f"crash (correction): {CORRECTION_KILLS} SIGKILLs during a {duration * 1000:.0f} ms "
        f"correction of round 1 of a 300-round game: {applied} corrections complete, "
        f"{rolled_back} rolled back whole, "
        f"{len(mismatches)} replay mismatches"
    )
    assert mismatches == []
    assert applied + rolled_back == CORRECTION_KILLS
