"""A server dropping its connections: every pooled connection is checked before use."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper.domain import games
from scorekeeper.extensions import db
from scorekeeper.testing.schemas import SERVER_URL

from ..conftest import app_on_empty_database

pytestmark = pytest.mark.skipif(not SERVER_URL, reason="only a server's connections can be lost")


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    """The app on the test server."""
    with app_on_empty_database(database_url) as app:
        yield app


def drop_pooled_connections(app: Flask) -> None:
    """End, on the server, every connection in ``app``'s pool."""
    with app.app_context():
        engine = db.engine
    pooled = [engine.raw_connection() for _ in range(engine.pool.checkedin())]
    pids = [connection.driver_connection.info.backend_pid for connection in pooled]
    for connection in pooled:
        connection.close()
    assert pids
    terminate(pids)


def terminate(pids: list[int]) -> None:
    """End the server's sessions ``pids``, from a connection of another engine."""
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


def test_checked_connections_survive_the_server_dropping_them(app, client):
    url, auth, ids = new_game(client)
    assert client.get(url).status_code == 200

    drop_pooled_connections(app)
    assert client.get(url).status_code == 200
    drop_pooled_connections(app)
    assert client.post(f"{url}/rounds", json=entry(ids), headers=auth).status_code == 201
    drop_pooled_connections(app)
    assert client.patch(url, json={"name": "Friday"}, headers=auth).status_code == 200

    game = client.get(url).json
    assert (game["rounds_played"], game["name"]) == (1, "Friday")


def test_a_connection_broken_during_a_request_is_a_503_and_is_discarded(
    app: Flask, client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, auth, ids = new_game(client)
    with app.app_context():
        engine = db.engine
    invalidated: list[Any] = []
    sa.event.listen(
        engine,
        "invalidate",
        lambda dbapi_connection, record, error: invalidated.append(dbapi_connection),
    )
    lost: list[Any] = []
    find_game = games.find_game

    def find_after_losing_the_connection(*args: Any, **kwargs: Any) -> Any:
        """End this request's own connection on the server, then go on reading."""
        connection = db.session.connection().connection.driver_connection
        lost.append(connection)
        terminate([connection.info.backend_pid])
        return find_game(*args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(games, "find_game", find_after_losing_the_connection)
        broken = client.get(url)
    assert broken.status_code == 503
    assert broken.json["error"]["code"] == "service_unavailable"
    # The broken connection was thrown away, not put back in the pool.
    assert len(lost) == 1 and len(invalidated) == 1 and invalidated[0] is lost[0]
    assert client.get(url).status_code == 200
    assert client.post(f"{url}/rounds", json=entry(ids), headers=auth).status_code == 201
