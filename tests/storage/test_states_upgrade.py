"""Stored states lacking what seat changes brought get it once, from a migration (5b7d2e9c4a10).

The expected states are what the engines made of the same stored states on every read
before the migration took that over (``states_stored_before_seat_changes.json``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from scorekeeper.extensions import db
from scorekeeper.security import hash_token

BEFORE = "d1855884dcf7"
NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
TOKEN = "a-token-of-the-old-games"
CASES = json.loads((Path(__file__).parent / "states_stored_before_seat_changes.json").read_text())
JHYAP, TWENTY_TWO = "J" * 22, "W" * 22
SEATING = [11, 22, 33]  # the players' ids by seat, as the expected states hold them


def _game(game_id: str, ruleset: str, state: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": game_id,
        "table_id": None,
        "ruleset": ruleset,
        "name": "",
        "options": {"elimination_limit": 1000} if ruleset == "twenty-two" else {},
        "first_dealer": 0,
        "first_starter": 1,
        "token_hash": hash_token(TOKEN),
        "state": state,
        "version": 1,
        "history_revision": 0,
        "created_at": NOW,
        "updated_at": NOW,
    }


def _players(game_id: str, offset: int) -> list[dict[str, Any]]:
    return [
        {
            "id": player_id + offset,
            "game_id": game_id,
            "roster_id": None,
            "seat": seat,
            "name": name,
            "joined": False,
            "won": False,
            "eliminated": False,
            "tallies": {},
        }
        for seat, (player_id, name) in enumerate(
            zip(SEATING, ("Asha", "Bikash", "Chandra"), strict=True)
        )
    ]


def _rounds(game_id: str, states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "game_id": game_id,
            "number": number,
            "entry": {},
            "result": {},
            "state_after": state,
            "created_at": NOW,
            "updated_at": NOW,
        }
        for number, state in enumerate(states, start=1)
    ]


def _insert(rows: dict[str, list[dict[str, Any]]]) -> None:
    for name, table_rows in rows.items():
        table = sa.Table(name, sa.MetaData(), autoload_with=db.engine)
        with db.engine.begin() as connection:
            connection.execute(table.insert(), table_rows)


def _stored(table_name: str, column: str, key: str) -> dict[Any, Any]:
    table = sa.Table(table_name, sa.MetaData(), autoload_with=db.engine)
    with db.engine.connect() as connection:
        rows = connection.execute(sa.select(table.c[key], table.c[column])).all()
    return {row[0]: json.loads(row[1]) if isinstance(row[1], str) else row[1] for row in rows}


def test_states_stored_before_seat_changes_get_their_fields_once(unmigrated_app: Flask):
    twenty_two = CASES["twenty-two"]
    jhyap = CASES["jhyap"][0]
    stuck = twenty_two[0]
    app = unmigrated_app
    with app.app_context():
        upgrade(revision=BEFORE)
        _insert(
            {
                "games": [
                    _game(JHYAP, "jhyap", jhyap["stored"]),
                    _game(TWENTY_TWO, "twenty-two", stuck["stored"]),
                ],
                "players": [*_players(JHYAP, 0), *_players(TWENTY_TWO, 100)],
                "rounds": [
                    *_rounds(JHYAP, [jhyap["stored"]] * 2),
                    *_rounds(TWENTY_TWO, [case["stored"] for case in twenty_two]),
                ],
            }
        )
        upgrade()
        games = _stored("games", "state", "id")
        rounds = _stored("rounds", "state_after", "id")
    assert games[JHYAP] == jhyap["upgraded"]
    assert games[TWENTY_TWO] == {**stuck["upgraded"], "seating": [111, 122, 133]}
    assert sorted(rounds.values(), key=json.dumps) == sorted(
        [jhyap["upgraded"]] * 2
        + [{**case["upgraded"], "seating": [111, 122, 133]} for case in twenty_two],
        key=json.dumps,
    )

    # The games play on from their states as the engines used to read them.
    client, auth = app.test_client(), {"Authorization": f"Bearer {TOKEN}"}
    trick = [
        {"player": 133, "card": "AS"},
        {"player": 111, "card": "QH"},
        {"player": 122, "card": "2C"},
    ]
    played = client.post(
        f"/api/v1/games/{TWENTY_TWO}/rounds", json={"last_trick": trick}, headers=auth
    )
    assert played.status_code == 201, played.get_json()
    assert played.get_json()["cards_each"] == 11  # dealt 11 each: the piles had gone back
    hands = [{"player": p, "total": t} for p, t in zip(SEATING, (20, 3, 9), strict=True)]
    called = client.post(
        f"/api/v1/games/{JHYAP}/rounds", json={"caller": 22, "hands": hands}, headers=auth
    )
    assert called.status_code == 201, called.get_json()
