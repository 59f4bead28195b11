"""OpenAPI links: how the answer of one operation feeds the next.

A created (or imported) game gives the id and the token that every later
request on it uses; a recorded round gives its number; an export is what
the import takes. Clients can read the flow from the spec, and a contract
fuzzer follows it (tests/robustness/test_contract_fuzz.py).
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

NEW_GAME_ID = {"path.game_id": "$response.body#/id"}
NEW_GAME_AUTH = {**NEW_GAME_ID, "header.Authorization": "Bearer {$response.body#/token}"}
SAME_GAME = {"path.game_id": "$request.path.game_id"}


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
}

RECORDED_ROUND = {
    "ReadRound": _link(
        ROUND, "get", "Read the round.", {**SAME_GAME, "path.number": "$response.body#/number"}
    ),
    "ReadGame": _link(GAME, "get", "Read the game as it now stands.", SAME_GAME),
    "ListRounds": _link(ROUNDS, "get", "List the game's rounds.", SAME_GAME),
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
