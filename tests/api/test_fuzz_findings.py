"""Server bugs found by the contract fuzzer (tests/robustness/test_contract_fuzz.py) and the live
tests of tables (tests/server/test_tables_live.py), kept fixed. The spec's own fixes are checked
in test_openapi.py."""

from __future__ import annotations

import re

import pytest

from scorekeeper.testing.schemas import SERVER_URL

from ..conftest import counted_statements

ROW_LOCKS = pytest.mark.skipif(
    not SERVER_URL, reason="row locks are PostgreSQL's (SQLite lets one writer in at a time)"
)


@pytest.mark.parametrize(
    ("body", "message", "details"),
    [
        (
            {},
            "Give join (a newcomer) or leave (a player who leaves), one of the two.",
            {"join": [...]},
        ),
        (
            {"join": {"name": "Dev", "after": 1}, "leave": 2},
            "Give join (a newcomer) or leave (a player who leaves), one of the two.",
            {"join": [...]},
        ),
        (
            {"join": {"after": 1}},
            "The newcomer needs a name or a roster player id, one of the two.",
            {"join": {"_schema": [...]}},
        ),
        (
            {"join": {"name": "Dev", "player": 1, "after": 1}},
            "The newcomer needs a name or a roster player id, one of the two.",
            {"join": {"_schema": [...]}},
        ),
    ],
)
def test_a_seat_change_that_is_neither_or_both_is_refused_in_a_sentence(
    table, body, message, details
):
    # Was "The newcomer give join or leave, one of the two." and "The name of the newcomer
    # give the newcomer's name or their roster id, not both.": a field's name, then an order.
    table.create()
    response = table.client.post(f"{table.url}/seats", json=body, headers=table.auth)
    assert response.status_code == 422
    assert response.json["error"]["message"] == message
    assert _shape(response.json["error"]["details"]) == details


def _shape(details):
    """The details with every list of messages as ``[...]``."""
    if isinstance(details, dict):
        return {key: _shape(value) for key, value in details.items()}
    return [...]


def locked_tables(statements) -> list[str]:
    """The tables the ``SELECT ... FOR UPDATE`` statements lock, in order."""
    return [
        re.search(r"FROM (\w+)", statement).group(1)
        for statement, _ in statements
        if "FOR UPDATE" in statement
    ]


def table_with_a_game(client) -> tuple[dict, dict, dict]:
    """A table of Asha and Bikash with a game of theirs: the table, the game, the table's auth."""
    table = client.post("/api/v1/tables", json={"name": "Crew", "players": ["Asha", "Bikash"]})
    auth = {"Authorization": f"Bearer {table.json['token']}"}
    roster = [player["id"] for player in table.json["players"]]
    game = client.post(
        f"/api/v1/tables/{table.json['id']}/games",
        json={"ruleset": "jhyap", "players": roster},
        headers=auth,
    )
    assert game.status_code == 201
    return table.json, game.json, auth


@ROW_LOCKS
def test_deleting_a_table_locks_its_games_before_the_table(app, client):
    # A round recorded meanwhile locks its game, then raises the table's version: the deletion
    # locked the table, then waited for the game's rows, and PostgreSQL found a deadlock (500).
    table, _, auth = table_with_a_game(client)
    with counted_statements(app) as statements:
        assert client.delete(f"/api/v1/tables/{table['id']}", headers=auth).status_code == 204
    assert locked_tables(statements) == ["games", "tables"]


@ROW_LOCKS
def test_a_new_name_joining_a_game_at_a_table_locks_the_table_after_the_game(app, client):
    # Two games of a table seating the same new name at once each added a roster player.
    _, game, auth = table_with_a_game(client)
    join = {"join": {"name": "Zed", "after": game["players"][0]["id"]}}
    with counted_statements(app) as statements:
        response = client.post(f"/api/v1/games/{game['id']}/seats", json=join, headers=auth)
    assert response.status_code == 201
    assert locked_tables(statements) == ["games", "tables"]
