"""Structured request logs: one JSON line per request (method, path, status, duration), no token."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper.app import create_app
from scorekeeper.logs import LOGGER_NAME
from scorekeeper.testing.live_server import free_port
from tests.conftest import GameClient, app_on_empty_database


class Lines(logging.Handler):
    """Keeps every formatted line the request logger emits."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def log_lines() -> Iterator[list[str]]:
    handler = Lines()
    logger = logging.getLogger(LOGGER_NAME)
    logger.addHandler(handler)
    yield handler.lines
    logger.removeHandler(handler)


def test_one_line_per_request_with_method_path_status_and_duration(
    client: Any, table: GameClient, log_lines: list[str]
) -> None:
    table.create()
    table.jhyap(2, 17, 14, 3)
    client.get(f"{table.url}/rounds/9")
    client.get("/api/v1/games")
    assert len(log_lines) == 4
    records = [json.loads(line) for line in log_lines]
    assert [(r["method"], r["path"], r["status"]) for r in records] == [
        ("POST", "/api/v1/games", 201),
        ("POST", f"{table.url}/rounds", 201),
        ("GET", f"{table.url}/rounds/9", 404),
        ("GET", "/api/v1/games", 405),
    ]
    for record in records:
        assert record["event"] == "request"
        assert isinstance(record["duration_ms"], float | int) and record["duration_ms"] >= 0
        assert record["ts"].endswith("Z")
        assert "\n" not in json.dumps(record)


def test_no_token_in_the_log(client: Any, table: GameClient, log_lines: list[str]) -> None:
    table.create()
    token = table.token
    table.jhyap(2, 17, 14, 3)
    client.patch(table.url, json={"name": "Renamed"}, headers=table.auth)
    client.put(f"{table.url}/rounds/1", json=table.jhyap_entry(1, (9, 2, 30)), headers=table.auth)
    client.delete(f"{table.url}/rounds/1", headers=table.auth)
    # A token put where it does not belong (the query string) is not logged either.
    client.get(f"{table.url}?token={token}")
    client.post(
        f"{table.url}/rounds?access_token={token}",
        json=table.jhyap_entry(2, (17, 14, 3)),
        headers={"Authorization": f"Bearer {token}x"},
    )
    assert len(log_lines) == 7
    for line in log_lines:
        assert token not in line
        assert "Bearer" not in line and "?" not in line


def test_errors_and_crafted_paths_stay_one_line(client: Any, log_lines: list[str]) -> None:
    client.post("/api/v1/games", data="{", content_type="application/json")
    client.post("/api/v1/games", data="x" * (65 * 1024), content_type="application/json")
    client.get("/api/v1/games/nope%0A%7B%22status%22%3A%20200%7D")
    client.get("/" + "x" * 5000)
    statuses = [json.loads(line)["status"] for line in log_lines]
    assert statuses == [400, 413, 404, 404]
    assert all("\n" not in line for line in log_lines)
    assert json.loads(log_lines[2])["path"] == '/api/v1/games/nope\n{"status": 200}'
    assert len(json.loads(log_lines[3])["path"]) <= 203


def test_a_500_is_logged_too(
    app: Flask, log_lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.domain import games

    def broken(game_id: str) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(games, "find_game", broken)
    response = app.test_client().get("/api/v1/games/" + "A" * 22)
    assert response.status_code == 500
    assert [json.loads(line)["status"] for line in log_lines] == [500]


def test_logs_can_be_turned_off(database_url: str, log_lines: list[str]) -> None:
    quiet = create_app({"TESTING": True, "DATABASE_URL": database_url, "REQUEST_LOG": "off"})
    quiet.test_client().get("/api/v1/rulesets")
    assert log_lines == []


def test_the_line_reaches_stdout(client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    client.get("/api/v1/rulesets")
    out = capsys.readouterr().out.strip().splitlines()
    assert json.loads(out[-1])["path"] == "/api/v1/rulesets"


def test_the_timestamp_is_utc_to_the_millisecond(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper import logs

    for now, expected in [
        (1_764_535_267.1239, "2025-11-30T20:41:07.123Z"),
        (1_764_535_267.9999, "2025-11-30T20:41:07.999Z"),
        (1_764_535_268.0, "2025-11-30T20:41:08.000Z"),
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
    ]:
        monkeypatch.setattr(logs.time, "time", lambda now=now: now)
        assert logs.timestamp_now() == expected


def test_a_second_handler_gets_the_same_line_as_stdout(
    client: Any, log_lines: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """With a handler of its own added, the line still reaches stdout, through logging."""
    client.get("/api/v1/rulesets")
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == log_lines[-1]


def test_rate_limits_spend_no_line_of_their_own_and_nothing_from_a_token(
    database_url: str, log_lines: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with app_on_empty_database(
        database_url, RATE_LIMITS="on", ROUND_WRITE_LIMIT="1/minute", TOKEN_FAILURE_LIMIT="1/minute"
    ) as app:
        table = GameClient(app.test_client())
        table.create()
        token = table.token
        wrong = {"Authorization": "Bearer " + "x" * 24}
        statuses = [
            table.post_round(table.jhyap_entry(2, (17, 14, 3))).status_code,
            table.post_round(table.jhyap_entry(2, (17, 14, 3))).status_code,
            table.client.delete(f"{table.url}/rounds/1", headers=wrong).status_code,
            table.client.delete(f"{table.url}/rounds/1", headers=wrong).status_code,
        ]
    assert statuses == [201, 429, 403, 429]
    records = [json.loads(line) for line in log_lines]
    assert [record["event"] for record in records] == ["request"] * 5  # one line per request
    printed = capsys.readouterr()
    hashed = hashlib.sha256(f"Bearer {token}".encode()).hexdigest()
    for text in [*log_lines, printed.out, printed.err]:
        assert token not in text and hashed[:8] not in text
    assert "exceeded at endpoint" not in printed.out + printed.err


def test_the_limiters_own_news_is_a_json_line_of_the_log(
    database_url: str, log_lines: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("redis")
    unreachable = f"redis://127.0.0.1:{free_port()}/0"
    with app_on_empty_database(
        database_url, RATE_LIMITS="on", RATE_LIMIT_STORAGE_URI=unreachable
    ) as app:
        created = app.test_client().post(
            "/api/v1/games", json={"ruleset": "jhyap", "players": ["Asha", "Bikash"]}
        )
    assert created.status_code == 201, created.json
    records = [json.loads(line) for line in log_lines]
    news = [record for record in records if record["event"] == "rate_limits"]
    assert news == [
        {
            "ts": news[0]["ts"],
            "event": "rate_limits",
            "level": "warning",
            "message": "Rate limit storage unreachable - falling back to in-memory storage",
        }
    ]
    printed = capsys.readouterr()
    assert "falling back" not in printed.err  # not a plain-text line on stderr any more
    assert [json.loads(line)["event"] for line in printed.out.splitlines()] == [
        record["event"] for record in records
    ]
