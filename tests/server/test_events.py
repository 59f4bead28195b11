"""Live updates over real HTTP: a game's and a table's event streams, from a real server."""

from __future__ import annotations

import time
from typing import Any

import pytest
import requests

from scorekeeper.api.events import KEEP_ALIVE_SECONDS
from scorekeeper.testing.live_server import LiveServer
from tests.event_stream import END, EventStream

pytestmark = pytest.mark.server

ONE_SERVER_SECONDS = 0.2
"""api.md: a change reaches every open stream within 200 ms on one server."""


@pytest.fixture(scope="module")
def one_worker(live_server) -> LiveServer:
    """``scorekeeper serve`` as the README starts it."""
    return live_server("events")


@pytest.fixture(scope="module")
def two_workers(live_server) -> LiveServer:
    """A server whose writes and streams may land on different worker processes."""
    return live_server("events-workers", workers=2)


class Phone:
    """The scorer's phone: creates and changes games and tables on one server."""

    def __init__(self, server: LiveServer) -> None:
        self.api = f"{server.url}/api/v1"

    def call(self, method: str, path: str, status: int, token: str = "", **kwargs: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = requests.request(method, self.api + path, headers=headers, timeout=30, **kwargs)
        assert response.status_code == status, (method, path, response.text)
        return response

    def new_game(self, **extra: Any) -> dict[str, Any]:
        body = {"ruleset": "jhyap", "players": ["Asha", "Bikash", "Chandra"], "dealer": 0}
        return self.call("POST", "/games", 201, json={**body, "starter": 1, **extra}).json()

    def round(self, game: dict[str, Any], totals: list[int], caller: int = 2) -> Any:
        ids = [player["id"] for player in game["players"]]
        hands = [{"player": ids[seat], "total": total} for seat, total in enumerate(totals)]
        entry = {"caller": ids[caller], "hands": hands}
        return self.call("POST", f"/games/{game['id']}/rounds", 201, game["token"], json=entry)

    def events(self, kind: str, row_id: str, **headers: str) -> EventStream:
        return EventStream(f"{self.api}/{kind}/{row_id}/events", headers)

    def read(self, path: str) -> requests.Response:
        return self.call("GET", path, 200)


def expect_resource(stream: EventStream, kind: str, path: str, phone: Phone) -> Any:
    """The next event is ``kind``: the resource as GET answers it now, with its ETag's version."""
    event = stream.next_event()
    now = phone.read(path)
    assert event.event == kind
    assert event.fields["id"] == now.headers["ETag"].strip('"')
    assert event.json == now.json()
    return event


def test_a_stream_begins_with_retry_then_the_game_as_get_answers_it(one_worker):
    phone = Phone(one_worker)
    game = phone.new_game()
    with phone.events("games", game["id"]) as stream:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["cache-control"] == "no-cache"
        assert stream.headers["x-accel-buffering"] == "no"
        assert stream.next_frame().fields == {"retry": "3000"}
        first = expect_resource(stream, "game", f"/games/{game['id']}", phone)
        assert first.fields["id"] == "1"
        assert "\n" not in first.fields["data"]


def test_every_change_reaches_the_stream_within_200_ms_of_its_answer(one_worker):
    phone = Phone(one_worker)
    game = phone.new_game()
    path = f"/games/{game['id']}"
    ids = [player["id"] for player in game["players"]]
    token = game["token"]

    def entry(totals: list[int]) -> dict[str, Any]:
        hands = [{"player": i, "total": t} for i, t in zip(ids, totals, strict=True)]
        return {"caller": ids[2], "hands": hands}

    changes = [
        ("POST", f"{path}/rounds", 201, {"json": entry([17, 14, 3])}),
        ("PUT", f"{path}/rounds/1", 200, {"json": entry([20, 14, 3])}),
        ("POST", f"{path}/seats", 201, {"json": {"join": {"name": "Dev", "after": ids[2]}}}),
        ("DELETE", f"{path}/rounds/2", 204, {}),
        ("PATCH", path, 200, {"json": {"name": "Friday table"}}),
    ]
    with phone.events("games", game["id"]) as stream:
        expect_resource(stream, "game", path, phone)
        for method, url, status, body in changes:
            phone.call(method, url, status, token, **body)
            answered = time.monotonic()
            event = expect_resource(stream, "game", path, phone)
            assert event.arrived - answered < ONE_SERVER_SECONDS, (method, url)


def test_a_change_that_changes_nothing_sends_nothing(one_worker):
    phone = Phone(one_worker)
    game = phone.new_game(name="Friday")
    with phone.events("games", game["id"]) as stream:
        stream.next_event()
        phone.call("PATCH", f"/games/{game['id']}", 200, game["token"], json={"name": "Friday"})
        ids = [player["id"] for player in game["players"]]
        entry = {"caller": ids[0], "hands": [{"player": i, "total": 5} for i in ids]}
        query = f"/games/{game['id']}/rounds?dry_run=true"
        phone.call("POST", query, 200, game["token"], json=entry)
        assert stream.nothing_within(1.0)


def test_last_event_id_of_the_current_version_waits_for_the_next_change(one_worker):
    phone = Phone(one_worker)
    game = phone.new_game()
    with phone.events("games", game["id"], **{"Last-Event-ID": "1"}) as stream:
        assert stream.next_frame().fields == {"retry": "3000"}
        assert stream.nothing_within(0.5)
        phone.round(game, [17, 14, 3])
        assert stream.next_event().fields["id"] == "2"
    with phone.events("games", game["id"], **{"Last-Event-ID": "1"}) as behind:
        assert behind.next_event().fields["id"] == "2"  # an older id: the game as it is now


def test_a_deleted_game_ends_its_stream_with_a_deleted_event(one_worker):
    phone = Phone(one_worker)
    game = phone.new_game()
    with phone.events("games", game["id"]) as stream:
        stream.next_event()
        phone.call("DELETE", f"/games/{game['id']}", 204, game["token"])
        deleted = stream.next_event()
        assert (deleted.event, deleted.fields["data"]) == ("deleted", "{}")
        assert stream.next_frame() is END


@pytest.mark.parametrize("kind", ["games", "tables"])
def test_an_unknown_id_is_the_usual_404_before_any_stream(one_worker, kind):
    with EventStream(f"{one_worker.url}/api/v1/{kind}/{'A' * 22}/events") as answer:
        assert answer.status == 404
        assert answer.headers["content-type"] == "application/json"
        assert answer.json()["error"]["code"] == "not_found"


def test_a_table_stream_hears_its_games_its_roster_and_its_deletion(one_worker):
    phone = Phone(one_worker)
    table = phone.call("POST", "/tables", 201, json={"name": "Crew", "players": ["A", "B"]}).json()
    path = f"/tables/{table['id']}"
    roster = [player["id"] for player in table["players"]]
    with phone.events("tables", table["id"]) as stream:
        expect_resource(stream, "table", path, phone)
        game = phone.call(
            "POST",
            f"{path}/games",
            201,
            table["token"],
            json={"ruleset": "jhyap", "players": roster, "dealer": 0, "starter": 1},
        ).json()
        expect_resource(stream, "table", path, phone)
        with phone.events("games", game["id"]) as game_stream:
            game_stream.next_event()
            phone.round(game, [2, 9], caller=0)
            expect_resource(stream, "table", path, phone)
            expect_resource(game_stream, "game", f"/games/{game['id']}", phone)
            phone.call("PATCH", path, 200, table["token"], json={"name": "Friday crew"})
            expect_resource(stream, "table", path, phone)
            assert game_stream.nothing_within(0.3)  # the table's name is not the game's
            phone.call("DELETE", path, 204, table["token"])
            for ended in (stream, game_stream):
                assert ended.next_event().event == "deleted"
                assert ended.next_frame() is END


def test_a_stream_keeps_its_connection_with_comments_while_nothing_changes(one_worker):
    phone = Phone(one_worker)
    game = phone.new_game()
    with phone.events("games", game["id"]) as stream:
        stream.next_event()
        frame = stream.next_frame(timeout=KEEP_ALIVE_SECONDS + 1)
        assert (frame.comments, frame.fields) == (["keep-alive"], {})
        assert KEEP_ALIVE_SECONDS <= 15


def test_a_change_committed_by_another_worker_reaches_the_stream(two_workers):
    phone = Phone(two_workers)
    games = [phone.new_game() for _ in range(4)]
    streams = [phone.events("games", game["id"]) for game in games for _ in range(5)]
    try:
        for stream in streams:
            stream.next_event()
        for game in games:
            phone.round(game, [17, 14, 3])
        for stream, game in zip(streams, [g for g in games for _ in range(5)], strict=True):
            event = stream.next_event(timeout=1)
            assert (event.event, event.fields["id"]) == ("game", "2")
            assert event.json["id"] == game["id"]
    finally:
        for stream in streams:
            stream.close()
