"""OpenAPI links: how the answer of one operation feeds the next.

A created (or imported) game or table gives the id and the token that every
later request on it uses; a game at a table gives the table's id; a recorded
round or seat change gives its number; an export is what the import takes.
Clients can read the flow from the spec, and a contract fuzzer follows it
(tests/robustness/test_contract_fuzz.py).
"""

from __future__ import annotations

from typing import Any


def _ref(path: str, method: str) -> str:
    """An ``operationRef`` to ``method`` on ``path`` in this document."""
    return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method


GAME = "/api/v1/games/{game_id}"
ROUNDS = GAME + "/rounds"
ROUND = ROUNDS + "/{number}"
EXPORT = GAME + "/export"
IMPORT = "/api/v1/games/import"
SEATS = GAME + "/seats"
REMATCH = GAME + "/rematch"
TABLE = "/api/v1/tables/{table_id}"
TABLE_GAMES = TABLE + "/games"
TABLE_EXPORT = TABLE + "/export"
TABLE_IMPORT = "/api/v1/tables/import"

NEW_GAME_ID = {"path.game_id": "$response.body#/id"}
NEW_GAME_AUTH = {**NEW_GAME_ID, "header.Authorization": "Bearer {$response.body#/token}"}
SAME_GAME = {"path.game_id": "$request.path.game_id"}
SAME_GAME_AUTH = {**SAME_GAME, "header.Authorization": "$request.header.Authorization"}
NEW_TABLE_ID = {"path.table_id": "$response.body#/id"}
NEW_TABLE_AUTH = {**NEW_TABLE_ID, "header.Authorization": "Bearer {$response.body#/token}"}
ITS_TABLE = {"path.table_id": "$response.body#/table"}
LOCATED_NUMBER = "$response.header.Location#regex:/rounds/([0-9]+)$"


def _link(path: str, method: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "operationRef": _ref(path, method),
        "description": description,
        "parameters": parameters,
    }


CREATED_GAME = {
    "ReadGame": _link(GAME, "get", "Read the new game.", NEW_GAME_ID),
    "RenameGame": _link(GAME, "patch", "Rename it with its token.", NEW_GAME_AUTH),
    "DeleteGame": _link(GAME, "delete", "Delete it with its token.", NEW_GAME_AUTH),
    "RecordRound": _link(ROUNDS, "post", "Record its next round with its token.", NEW_GAME_AUTH),
    "ListRounds": _link(ROUNDS, "get", "List its rounds.", NEW_GAME_ID),
    "ReadFirstRound": _link(ROUND, "get", "Read its round 1.", {**NEW_GAME_ID, "path.number": "1"}),
    "CorrectFirstRound": _link(
        ROUND, "put", "Correct its round 1 with its token.", {**NEW_GAME_AUTH, "path.number": "1"}
    ),
    "UndoLastRound": _link(
        ROUND,
        "delete",
        "Undo its last round with its token.",
        {**NEW_GAME_AUTH, "path.number": "$response.body#/rounds_played"},
    ),
    "ExportGame": _link(EXPORT, "get", "Export it.", NEW_GAME_ID),
    "ChangeSeats": _link(
        SEATS, "post", "Seat a newcomer or let a player leave, with its token.", NEW_GAME_AUTH
    ),
    "Rematch": _link(REMATCH, "post", "Start a rematch with its token.", NEW_GAME_AUTH),
}

CREATED_GAME_AT_TABLE = {
    **CREATED_GAME,
    "ReadTable": _link(TABLE, "get", "Read the table it is played at.", ITS_TABLE),
    "ExportTable": _link(TABLE_EXPORT, "get", "Export the table it is played at.", ITS_TABLE),
}
"""A game made at a table (or a rematch, which stays at the game's table)."""

RECORDED_ROUND = {
    "ReadRound": _link(
        ROUND, "get", "Read the round.", {**SAME_GAME, "path.number": "$response.body#/number"}
    ),
    "ReadGame": _link(GAME, "get", "Read the game as it now stands.", SAME_GAME),
    "ListRounds": _link(ROUNDS, "get", "List the game's rounds.", SAME_GAME),
    "ChangeSeats": _link(
        SEATS, "post", "Seat a newcomer or let a player leave, with the same token.", SAME_GAME_AUTH
    ),
}

CHANGED_SEATS = {
    "ReadSeatChange": _link(
        ROUND, "get", "Read the seat change.", {**SAME_GAME, "path.number": LOCATED_NUMBER}
    ),
    "UndoSeatChange": _link(
        ROUND,
        "delete",
        "Undo the seat change with the same token.",
        {**SAME_GAME_AUTH, "path.number": LOCATED_NUMBER},
    ),
    "RecordRound": _link(
        ROUNDS, "post", "Record the next round with the same token.", SAME_GAME_AUTH
    ),
    "ChangeSeats": _link(SEATS, "post", "Change seats again with the same token.", SAME_GAME_AUTH),
    "Rematch": _link(REMATCH, "post", "Start a rematch with the same token.", SAME_GAME_AUTH),
}
"""A seat change's answer is the Game; its ``Location`` names the history item."""

CREATED_TABLE = {
    "ReadTable": _link(TABLE, "get", "Read the new table.", NEW_TABLE_ID),
    "ChangeTable": _link(
        TABLE, "patch", "Rename it or its players, or add players, with its token.", NEW_TABLE_AUTH
    ),
    "DeleteTable": _link(
        TABLE, "delete", "Delete it and its games with its token.", NEW_TABLE_AUTH
    ),
    "CreateGameAtTable": _link(
        TABLE_GAMES, "post", "Create a game at it with its token.", NEW_TABLE_AUTH
    ),
    "ExportTable": _link(TABLE_EXPORT, "get", "Export it.", NEW_TABLE_ID),
}

EXPORTED_GAME = {
    "ImportGame": {
        "operationRef": _ref(IMPORT, "post"),
        "description": "An export imports as a new game.",
        "requestBody": "$response.body",
        # The export is the whole body, not fields to merge into another one.
        "x-schemathesis": {"merge_body": False},
    },
}

EXPORTED_TABLE = {
    "ImportTable": {
        "operationRef": _ref(TABLE_IMPORT, "post"),
        "description": "A table's export imports as a new table.",
        "requestBody": "$response.body",
        "x-schemathesis": {"merge_body": False},
    },
}
