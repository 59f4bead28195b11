"""Upgrading a database that holds games keeps every game readable, exportable and playable."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from scorekeeper.extensions import db

# Rows as the schema before tables (revision d9b21a27ba0d) held them, written by that code.
BEFORE_TABLES = Path(__file__).with_name("data") / "games_before_tables.json"
JSON_COLUMNS = {"options", "state", "entry", "result", "body"}
TIME_COLUMNS = {"created_at", "updated_at"}


def _column_value(name: str, value: Any) -> Any:
    """A dumped value as the database takes it back."""
    if name in JSON_COLUMNS and isinstance(value, str):
        return json.loads(value)
    if name in TIME_COLUMNS:
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    return value


def _load_old_rows() -> dict[str, list[dict[str, Any]]]:
    """Insert the old rows into a database at revision d9b21a27ba0d."""
    dumped = json.loads(BEFORE_TABLES.read_text())
    for table_name in ("games", "players", "rounds", "idempotency_keys"):
        rows = [
            {name: _column_value(name, value) for name, value in row.items()}
            for row in dumped[table_name]
        ]
        table = sa.Table(table_name, sa.MetaData(), autoload_with=db.engine)
        with db.engine.begin() as connection:
            connection.execute(table.insert(), rows)
            if connection.dialect.name == "postgresql" and table_name != "games":
                # The ids were given, so the sequence must be moved past them.
                connection.execute(
                    sa.text(
                        f"SELECT setval(pg_get_serial_sequence('{table_name}', 'id'), "
                        f"(SELECT max(id) FROM {table_name}))"
                    )
                )
    return dumped


def test_games_stored_before_tables_are_read_exported_and_played_after_the_upgrade(
    unmigrated_app: Flask,
):
    _check_upgrade(unmigrated_app)


def _check_upgrade(app: Any) -> None:
    """Load the old rows, upgrade, and use every game as a phone would."""
    with app.app_context():
        upgrade(revision="d9b21a27ba0d")
        dumped = _load_old_rows()
        upgrade()
    client = app.test_client()
    old_states = {game["id"]: json.loads(game["state"]) for game in dumped["games"]}
    assert len(old_states) == 4
    for game_id, state in old_states.items():
        game = client.get(f"/api/v1/games/{game_id}").get_json()
        assert "error" not in game, game
        assert [player["score"] for player in game["players"]] == state["scores"]
        assert game["rounds_played"] == state["rounds_played"]
        assert game["status"] == ("finished" if state["dealer"] is None else "in_progress")
        assert game["table"] is None
        exported = client.get(f"/api/v1/games/{game_id}/export").get_json()
        assert len(exported["rounds"]) == state["rounds_played"]
        imported = client.post("/api/v1/games/import", json=exported)
        assert imported.status_code == 201, imported.get_json()
        rounds = client.get(f"/api/v1/games/{game_id}/rounds").get_json()["rounds"]
        assert [item["number"] for item in rounds] == list(range(1, len(rounds) + 1))

    with app.app_context():
        winners = db.session.execute(sa.text("SELECT game_id, seat FROM players WHERE won")).all()
    finished = {gid: s["winners"] for gid, s in old_states.items() if s["dealer"] is None}
    assert sorted(winners) == sorted((gid, seat) for gid, w in finished.items() for seat in w)
