"""The move of every request key into one table keeps each first answer, byte for byte."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper.extensions import db

BEFORE = "5b7d2e9c4a10"  # keys in idempotency_keys (a game's history) and creation_keys

Sent = tuple[str, dict[str, Any] | None, dict[str, str]]
"""A POST as a phone sends it: the path, the JSON body (or none) and the headers."""


def _key(name: str) -> str:
    """An ``Idempotency-Key`` long enough for a creation (22 characters)."""
    return f"{name:-<22}"


def _send_evening(client: Any) -> list[tuple[Sent, Any]]:
    """A table, a game at it, a round, a join and a rematch, each with a key; what was sent and
    what was first answered."""
    answered: list[tuple[Sent, Any]] = []

    def send(path: str, body: dict[str, Any] | None, headers: dict[str, str]) -> Any:
        response = client.post(path, json=body, headers=headers)
        assert response.status_code == 201, response.get_json()
        answered.append(((path, body, headers), response))
        return response.get_json()

    table = send(
        "/api/v1/tables",
        {"name": "Friday", "players": ["Asha", "Bikash"]},
        {"Idempotency-Key": _key("table")},
    )
    table_auth = {"Authorization": f"Bearer {table['token']}"}
    ids = [player["id"] for player in table["players"]]
    game = send(
        f"/api/v1/tables/{table['id']}/games",
        {"ruleset": "jhyap", "players": ids},
        {**table_auth, "Idempotency-Key": _key("game")},
    )
    game_auth = {"Authorization": f"Bearer {game['token']}"}
    seats = [player["id"] for player in game["players"]]
    hands = [{"player": seats[0], "total": 3}, {"player": seats[1], "total": 20}]
    send(
        f"/api/v1/games/{game['id']}/rounds",
        {"caller": seats[0], "hands": hands},
        {**game_auth, "Idempotency-Key": "round-1"},
    )
    send(
        f"/api/v1/games/{game['id']}/seats",
        {"join": {"name": "Chandra", "after": seats[1]}},
        {**game_auth, "Idempotency-Key": "join-1"},
    )
    send(f"/api/v1/games/{game['id']}/rematch", None, {**game_auth, "Idempotency-Key": _key("re")})
    return answered


def _rows(table_name: str) -> list[dict[str, Any]]:
    """Every row of ``table_name``, in id order."""
    with db.engine.connect() as connection:
        table = sa.Table(table_name, sa.MetaData(), autoload_with=connection)
        return [dict(row._mapping) for row in connection.execute(table.select().order_by("id"))]


def test_every_key_answers_byte_for_byte_after_the_move_to_one_table(unmigrated_app: Flask) -> None:
    _check_keys_move(unmigrated_app)


def _check_keys_move(app: Flask) -> None:
    """Keys made now, moved back to the two tables and forward again, answer as first."""
    client = app.test_client()
    with app.app_context():
        upgrade()
    answered = _send_evening(client)
    with app.app_context():
        moved = _rows("request_keys")
        downgrade(revision=BEFORE)
        history_keys, creation_keys = _rows("idempotency_keys"), _rows("creation_keys")
        game_id = history_keys[0]["game_id"]
        assert [(row["key"], row["status"]) for row in history_keys] == [
            ("round-1", 201),
            ("join-1", 201),
        ]
        assert [row["scope"] for row in creation_keys] == [
            "tables",
            f"tables/{moved[0]['body']['id']}/games",
            f"games/{game_id}/rematch",
        ]
        upgrade()
        assert _rows("request_keys") == [
            {**row, "id": number} for number, row in enumerate(moved_in_new_order(moved), 1)
        ]

    for (path, body, headers), first in answered:
        again = client.post(path, json=body, headers=headers)
        assert (again.status_code, again.get_data()) == (first.status_code, first.get_data())
        assert again.headers["Location"] == first.headers["Location"]
    assert len(client.get(f"/api/v1/games/{game_id}/rounds").get_json()["rounds"]) == 2

    # A game's history keys go with it; the keys of creations stay.
    auth = {"Authorization": f"Bearer {answered[1][1].get_json()['token']}"}
    deleted = client.delete(f"/api/v1/games/{game_id}", headers=auth)
    assert deleted.status_code == 204
    with app.app_context():
        kept = [(row["scope"], row["key"]) for row in _rows("request_keys")]
    assert kept == [(row["scope"], row["key"]) for row in moved if row["game_id"] is None]


def moved_in_new_order(moved: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The keys in the order the upgrade moves them: a game's history keys, then creations."""
    return [row for row in moved if row["game_id"]] + [row for row in moved if not row["game_id"]]
