"""The move of each ruleset's figures into one ``tallies`` column keeps every stored figure."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper.extensions import db

BEFORE = "afaa7cdfff5a"  # figures in columns of their own
NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
FIGURES = ("rounds_played", "calls", "calls_won", "halvings", "hand_total")
TRICKS = ("rounds_played", "tricks_taken", "points_taken")


def _game(game_id: str, ruleset: str, table_id: str | None) -> dict[str, Any]:
    """A game row as revision ``BEFORE`` held it, finished (so its winners count)."""
    state = {
        "rounds_played": 3,
        "scores": [10, 30],
        "eliminated_in_round": [None, 3],
        "dealer": None,
        "starter": None,
        "winners": [0],
    }
    return {
        "id": game_id,
        "table_id": table_id,
        "ruleset": ruleset,
        "name": "",
        "options": {},
        "first_dealer": 0,
        "first_starter": 1,
        "token_hash": "0" * 64,
        "state": state,
        "version": 1,
        "created_at": NOW,
        "updated_at": NOW,
    }


def _player(pid: int, game_id: str, seat: int, roster_id: int, **figures: int) -> dict[str, Any]:
    """A player row as revision ``BEFORE`` held it, every figure column given."""
    every = dict.fromkeys((*FIGURES, "tricks_taken", "points_taken"), 0)
    return {
        "id": pid,
        "game_id": game_id,
        "roster_id": roster_id,
        "seat": seat,
        "name": f"P{roster_id}",
        "joined": False,
        "won": seat == 0,
        "eliminated": seat == 1,
        **every,
        **figures,
    }


ROWS = {
    "tables": [
        {
            "id": "T" * 22,
            "name": "Crew",
            "token_hash": "0" * 64,
            "version": 1,
            "created_at": NOW,
            "updated_at": NOW,
        }
    ],
    "roster_players": [
        {"id": 1, "table_id": "T" * 22, "name": "P1"},
        {"id": 2, "table_id": "T" * 22, "name": "P2"},
    ],
    "games": [_game("J" * 22, "jhyap", "T" * 22), _game("W" * 22, "twenty-two", "T" * 22)],
    "players": [
        _player(1, "J" * 22, 0, 1, rounds_played=3, calls=2, calls_won=1, halvings=1, hand_total=9),
        _player(2, "J" * 22, 1, 2, rounds_played=3, calls=1, calls_won=0, hand_total=40),
        _player(3, "W" * 22, 0, 2, rounds_played=3, tricks_taken=1, points_taken=4),
        _player(4, "W" * 22, 1, 1, rounds_played=3, tricks_taken=2, points_taken=23),
    ],
}


def _insert(rows: dict[str, list[dict[str, Any]]]) -> None:
    for name, table_rows in rows.items():
        table = sa.Table(name, sa.MetaData(), autoload_with=db.engine)
        with db.engine.begin() as connection:
            connection.execute(table.insert(), table_rows)


def _figure_columns() -> list[dict[str, Any]]:
    players = sa.Table("players", sa.MetaData(), autoload_with=db.engine)
    with db.engine.connect() as connection:
        rows = connection.execute(sa.select(players).order_by(players.c.id)).mappings().all()
    return [
        {name: row[name] for name in (*FIGURES, "tricks_taken", "points_taken")} for row in rows
    ]


def test_every_figure_moves_into_tallies_and_back(unmigrated_app: Flask):
    app = unmigrated_app
    with app.app_context():
        upgrade(revision=BEFORE)
        _insert(ROWS)
        before = _figure_columns()
        upgrade()
        players = sa.Table("players", sa.MetaData(), autoload_with=db.engine)
        with db.engine.connect() as connection:
            tallies = connection.scalars(sa.select(players.c.tallies).order_by(players.c.id)).all()
    assert tallies == [
        {"rounds_played": 3, "calls": 2, "calls_won": 1, "halvings": 1, "hand_total": 9},
        {"rounds_played": 3, "calls": 1, "calls_won": 0, "halvings": 0, "hand_total": 40},
        {"rounds_played": 3, "tricks_taken": 1, "points_taken": 4},
        {"rounds_played": 3, "tricks_taken": 2, "points_taken": 23},
    ]
    standings = app.test_client().get(f"/api/v1/tables/{'T' * 22}").get_json()["standings"]
    assert standings == [
        {
            "player": 1,
            "name": "P1",
            "games_played": 2,
            "games_won": 1,
            "average_place": 1.5,  # each won one of the two games
            "jhyap": {
                "games_played": 1,
                "rounds_played": 3,
                "calls": 2,
                "calls_won": 1,
                "caught": 1,
                "halvings": 1,
                "eliminations": 0,
                "average_hand": 3.0,
            },
            "twenty-two": {
                "games_played": 1,
                "rounds_played": 3,
                "tricks_taken": 2,
                "points_taken": 23,
                "eliminations": 1,
            },
        },
        {
            "player": 2,
            "name": "P2",
            "games_played": 2,
            "games_won": 1,
            "average_place": 1.5,  # each won one of the two games
            "jhyap": {
                "games_played": 1,
                "rounds_played": 3,
                "calls": 1,
                "calls_won": 0,
                "caught": 1,
                "halvings": 0,
                "eliminations": 1,
                "average_hand": 13.33,
            },
            "twenty-two": {
                "games_played": 1,
                "rounds_played": 3,
                "tricks_taken": 1,
                "points_taken": 4,
                "eliminations": 0,
            },
        },
    ]
    with app.app_context():
        downgrade(revision=BEFORE)
        assert _figure_columns() == before
