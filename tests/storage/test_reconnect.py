"""A server dropping its connections: idle ones are checked, a busy one costs one request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db

from ..conftest import SERVER_URL, app_on_empty_database

pytestmark = pytest.mark.skipif(not SERVER_URL, reason="only a server's connections can be lost")

CHECK_EVERY_TIME = 0
NEVER_CHECK = 3600


@pytest.fixture
def app(request: Any, database_url: str) -> Iterator[Flask]:
    """The app, pinging pooled connections idle for ``request.param`` seconds."""
    with app_on_empty_database(database_url, DATABASE_PING_IDLE_SECONDS=request.param) as app:
        yield app


def fill_pool(app: Flask, size: int) -> None:
    """Leave ``size`` connections in ``app``'s pool, as a worker that has been busy would have."""
    with app.app_context():
        engine = db.engine
    connections = [engine.raw_connection() for _ in range(size)]
    for connection in connections:
        connection.close()
    assert engine.pool.checkedin() == size


def drop_pooled_connections(app: Flask) -> None:
    """End, on the server, every connection in ``app``'s pool."""
    with app.app_context():
        engine = db.engine
    pooled = [engine.raw_connection() for _ in range(engine.pool.checkedin())]
    pids = [connection.driver_connection.info.backend_pid for connection in pooled]
    for connection in pooled:
        connection.close()
    assert pids
    assert SERVER_URL is not None
    admin = sa.create_engine(SERVER_URL.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as connection:
        for pid in pids:
            connection.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    admin.dispose()


def new_game(client: Any) -> tuple[str, dict[str, str], list[int]]:
    """A Jhyap game of three: its address, the token's header and the player ids."""
    players = ["Asha", "Bikash", "Chandra"]
    response = client.post(
        "/api/v1/games", json={"ruleset": "jhyap", "players": players, "dealer": 0, "starter": 1}
    )
    assert response.status_code == 201, response.json
    ids = [player["id"] for player in response.json["players"]]
    url = f"/api/v1/games/{response.json['id']}"
    return url, {"Authorization": f"Bearer {response.json['token']}"}, ids


def entry(ids: list[int]) -> dict[str, Any]:
    """A valid round: the first player calls with 1 against two 5s."""
    hands = [{"player": ids[0], "total": 1}] + [{"player": other, "total": 5} for other in ids[1:]]
    return {"caller": ids[0], "hands": hands}


@pytest.mark.parametrize("app", [CHECK_EVERY_TIME], indirect=True)
def test_checked_connections_survive_the_server_dropping_them(app, client):
    url, auth, ids = new_game(client)
    assert client.get(url).status_code == 200

    drop_pooled_connections(app)
    assert client.get(url).status_code == 200  # the version read, straight on the driver
    drop_pooled_connections(app)
    assert client.post(f"{url}/rounds", json=entry(ids), headers=auth).status_code == 201
    drop_pooled_connections(app)
    assert client.patch(url, json={"name": "Friday"}, headers=auth).status_code == 200  # the ORM

    game = client.get(url).json
    assert (game["rounds_played"], game["name"]) == (1, "Friday")


@pytest.mark.parametrize("app", [NEVER_CHECK], indirect=True)
def test_a_connection_lost_while_in_use_fails_one_request_and_nothing_else(app, client):
    url, auth, ids = new_game(client)
    assert client.post(f"{url}/rounds", json=entry(ids), headers=auth).status_code == 201
    fill_pool(app, 3)

    drop_pooled_connections(app)
    lost = client.post(f"{url}/rounds", json=entry(ids), headers=auth)

    assert lost.status_code == 500
    assert lost.json["error"]["message"] == "Something went wrong on our side; nothing was changed."
    # The pool let go of its other connections to the old server too, so the retry goes through.
    assert client.post(f"{url}/rounds", json=entry(ids), headers=auth).status_code == 201
    assert client.get(url).json["rounds_played"] == 2
