"""A database that does not answer: 503 with the one error body, never a 500 or a traceback."""

from __future__ import annotations

import logging
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient

from scorekeeper.app import create_app
from scorekeeper.domain import games
from scorekeeper.testing.live_server import free_port
from tests.conftest import GameClient, worded_errors_only

UNAVAILABLE = {
    "error": {
        "status": 503,
        "code": "service_unavailable",
        "message": "The database is not answering; nothing was changed, so try again in a moment.",
    }
}
INTERNAL = {
    "error": {
        "status": 500,
        "code": "internal_error",
        "message": "Something went wrong on our side; nothing was changed.",
    }
}


def raising(error: Exception) -> Any:
    """A stand-in for a storage function that fails with ``error``."""

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise error

    return fail


def wrapped(original: Exception, *, invalidated: bool = False) -> sa.exc.OperationalError:
    """``original`` as SQLAlchemy raises a driver's error from a statement."""
    return sa.exc.OperationalError(
        "SELECT games.id FROM games", {}, original, connection_invalidated=invalidated
    )


def assert_unavailable(response: Any) -> None:
    """A 503 with the one error body and a ``Retry-After``."""
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.json == UNAVAILABLE
    assert response.headers["Retry-After"] == "2"
    assert "Traceback" not in response.get_data(as_text=True)


@pytest.mark.parametrize(
    "original",
    [
        psycopg.OperationalError("connection failed: Connection refused"),
        psycopg.errors.AdminShutdown("terminating connection due to administrator command"),
        psycopg.errors.CannotConnectNow("the database system is starting up"),
    ],
    ids=["refused", "shutdown", "starting-up"],
)
def test_a_lost_connection_while_reading_is_a_503(
    client: FlaskClient,
    table: GameClient,
    monkeypatch: pytest.MonkeyPatch,
    original: Exception,
) -> None:
    table.create()
    monkeypatch.setattr(games, "find_game", raising(wrapped(original)))
    assert_unavailable(client.get(table.url))


def test_a_connection_broken_mid_write_is_a_503_and_records_nothing(
    client: FlaskClient, table: GameClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.create()
    table.jhyap(0, 2, 10, 20)
    before = table.export_bytes()
    broken = wrapped(Exception("server closed the connection unexpectedly"), invalidated=True)
    with monkeypatch.context() as patched:
        patched.setattr(games, "open_game", raising(broken))
        response = table.post_round(table.jhyap_entry(1, (10, 3, 20)))
    assert_unavailable(response)
    assert table.export_bytes() == before


def test_the_503_is_written_in_the_requests_language(
    client: FlaskClient, table: GameClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.create()
    monkeypatch.setattr(games, "find_game", raising(wrapped(psycopg.OperationalError("gone"))))
    response = client.get(table.url, headers={"Accept-Language": "ne"})
    assert response.status_code == 503
    assert response.headers["Content-Language"] == "ne"
    assert response.json["error"]["message"] == (
        "डेटाबेसले जवाफ दिइरहेको छैन; केही पनि बदलिएको छैन, त्यसैले केही बेरपछि फेरि प्रयास गर्नुहोस्।"
    )


@pytest.mark.parametrize(
    "original",
    [
        Exception("database is locked"),  # SQLite's, as the sqlite3 driver raises it
        psycopg.errors.DeadlockDetected("deadlock detected"),
        psycopg.errors.QueryCanceled("canceling statement due to statement timeout"),
    ],
    ids=["sqlite-locked", "deadlock", "statement-timeout"],
)
def test_other_database_errors_stay_a_500(
    client: FlaskClient,
    table: GameClient,
    monkeypatch: pytest.MonkeyPatch,
    original: Exception,
) -> None:
    table.create()
    monkeypatch.setattr(games, "find_game", raising(wrapped(original)))
    response = client.get(table.url)
    assert response.status_code == 500
    assert response.json == INTERNAL
    assert "Retry-After" not in response.headers


def test_a_postgresql_server_that_is_not_there_answers_503_and_logs_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere",
            "RATE_LIMITS": "off",
            "REQUEST_LOG": "off",
        }
    )
    client = app.test_client()
    game = {"ruleset": "jhyap", "players": ["Asha", "Bikash"], "dealer": 0, "starter": 1}
    with worded_errors_only(app), caplog.at_level(logging.WARNING, logger=app.logger.name):
        health = client.get("/api/v1/health")
        created = client.post("/api/v1/games", json=game)
    assert_unavailable(health)
    assert_unavailable(created)
    warnings = [record for record in caplog.records if record.name == app.logger.name]
    assert [record.levelno for record in warnings] == [logging.WARNING] * 2
    assert all(
        record.getMessage().startswith("The database is not answering (OperationalError: ")
        and record.exc_info is None
        for record in warnings
    )
