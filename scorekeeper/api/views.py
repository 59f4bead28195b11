"""The API's views: the edge validates, the domain does the work, the serialiser answers."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Response, jsonify, request, url_for

from .. import serializers
from ..domain import games, history, rounds, seats
from ..domain.commands import KeyedRequest
from ..domain.storage import check_database
from ..errors import BadRequest
from ..rules import RULESETS
from ..rules.words import Message
from . import links
from .auth import bearer_token, token_first
from .body import Blueprint, json_body, parse_json_body
from .limits import game_creations, round_writes, token_failures
from .rulesets import one_of
from .schemas import (
    CreatedGameSchema,
    DryRunGameSchema,
    DryRunQuerySchema,
    EntryBodySchema,
    ErrorSchema,
    ExportSchema,
    GameCreateSchema,
    GamePatchSchema,
    GameSchema,
    HealthSchema,
    HistoryQuerySchema,
    RoundPostBodySchema,
    RulesetsSchema,
    SeatChangeBodySchema,
)

blp = Blueprint("api", __name__, url_prefix="/api/v1", description="Games, rounds and history.")
spec_blp = Blueprint("spec", __name__, description="This API's OpenAPI document.")
blp.before_request(parse_json_body)

# Printable ASCII but the comma: HTTP joins repeated header fields with commas, so a comma
# can only mean that the request carried two keys.
IDEMPOTENCY_KEY = re.compile(r"[\x20-\x2b\x2d-\x7e]{1,255}")
CREATION_KEY_LENGTH = 22
"""The shortest key of a creating request, which answers a token (128 bits, as base64url)."""
ROUND_BODY = {
    "required": True,
    "content": {"application/json": {"schema": one_of("RoundPost")}},
}
ENTRY_BODY = {
    "required": True,
    "content": {"application/json": {"schema": one_of("Entry")}},
}
ROUND_RESPONSE = one_of("Round")
HISTORY_ITEM = {
    "oneOf": [
        *ROUND_RESPONSE["oneOf"],
        {"$ref": "#/components/schemas/SeatChangeItem"},
        {"$ref": "#/components/schemas/EndItem"},
    ]
}
"""A round, a seat change, or the end by hand: the items of a game's history."""
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
NO_CONTENT = {"204": {"description": "Done; no body."}}
IDEMPOTENCY_KEY_SCHEMA = {
    "type": "string",
    "minLength": 1,
    "maxLength": 255,
    "pattern": "^[\\x20-\\x2b\\x2d-\\x7e]+$",
}
IDEMPOTENCY_KEY_PARAMETER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": IDEMPOTENCY_KEY_SCHEMA,
    "description": "Resending with the same key and body gives the first answer again.",
}
CREATION_KEY_PARAMETER = {
    **IDEMPOTENCY_KEY_PARAMETER,
    "schema": {**IDEMPOTENCY_KEY_SCHEMA, "minLength": CREATION_KEY_LENGTH},
    "description": "Resending with the same key and body gives the first answer again, the new "
    f"token with it: at least {CREATION_KEY_LENGTH} random characters (128 bits or more), "
    "never a counter or a name.",
}
DRY_RUN_PARAMETER = {
    "in": "query",
    "name": "dry_run",
    "required": False,
    "schema": {"type": "boolean", "default": False},
    "description": "Validate and score the round without recording it (answers 200).",
}
LOCATION = {"Location": {"schema": {"type": "string"}}}
ID_TAKEN = {
    "schema": ErrorSchema,
    "description": "A game or table already has the id the request chose (code id_taken), or "
    "a copy of this request is being answered at this moment (code conflict, Retry-After).",
}
"""The 409 of a creating request: its chosen ``id`` taken, or a copy of it in progress."""


def answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON response."""
    response = jsonify(body)
    response.status_code = status
    response.headers.update(headers or {})
    return response


def created(body: dict[str, Any], location: str) -> Response:
    """A creation's answer, first or again: the body, ``201`` and where the new thing lives."""
    return answer(body, 201, {"Location": location})


def keyed_request(*, creating: bool = False) -> KeyedRequest | None:
    """The request's ``Idempotency-Key``, checked, with the body it came with; ``None`` if it
    has none.

    A resend of a creation with its key answers the new token, and keys of creations are not
    tied to a game: only a key no one else could guess keeps the token to the phone that chose
    it, so a ``creating`` request's key must be long enough to be random.
    """
    keys = request.headers.getlist("Idempotency-Key")
    if len(keys) > 1 or any("," in key for key in keys):
        raise BadRequest(
            "The request carries two Idempotency-Key headers; send one.",
            {"Idempotency-Key": ["Given twice."]},
        )
    if not keys:
        return None
    key = keys[0]
    if not IDEMPOTENCY_KEY.fullmatch(key):
        raise BadRequest(
            "The Idempotency-Key must be 1 to 255 printable ASCII characters, without commas.",
            {"Idempotency-Key": ["Give 1 to 255 printable ASCII characters, without commas."]},
        )
    if creating and len(key) < CREATION_KEY_LENGTH:
        raise BadRequest(
            Message(
                "The Idempotency-Key of a request that creates a game or table must be at least "
                "{length} random characters, since a resend with it answers the new token.",
                length=CREATION_KEY_LENGTH,
            ),
            {"Idempotency-Key": [f"Give at least {CREATION_KEY_LENGTH} random characters."]},
        )
    return KeyedRequest(key, json_body() if request.data else None)


def with_etag(
    version: Callable[[], str], read: Callable[[], tuple[dict[str, Any], int]]
) -> Response:
    """A resource read with its version as ETag; ``304`` if the phone already has that version.

    A phone polling with the ETag it has is answered from the version alone: one statement,
    no body, and no Content-Type (so none of an HTML page's headers either).
    """
    if request.if_none_match and request.if_none_match.contains_weak(
        etag := version()
    ):  # weak comparison (RFC 9110), and "*"
        response = Response(status=304)
        del response.headers["Content-Type"]
    else:
        body, current = read()
        response = answer(body)
        etag = str(current)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


# Games


@blp.route("/games", methods=["POST"])
@game_creations
@blp.arguments(GameCreateSchema)
@blp.doc(parameters=[CREATION_KEY_PARAMETER])
@blp.response(201, CreatedGameSchema, headers=LOCATION)
@blp.alt_response(409, **ID_TAKEN)
@blp.doc(responses={201: {"links": links.CREATED_GAME}})
def create_game(setup: games.GameSetup) -> Response:
    """Create a game."""
    keyed = keyed_request(creating=True)
    body = games.create_game(setup, answer=serializers.created_game, request=keyed).body
    return created(body, url_for("api.get_game", game_id=body["id"]))


@blp.route("/games/<gameid:game_id>", methods=["GET"])
@blp.response(200, GameSchema)
@blp.alt_response(304, description="Not modified since the ETag in If-None-Match.")
def get_game(game_id: str) -> Response:
    """Read a game."""
    return with_etag(lambda: str(games.game_version(game_id)), lambda: game_answer(game_id))


def game_answer(game_id: str) -> tuple[dict[str, Any], int]:
    """The Game and its version."""
    bound = games.read_game(game_id)
    return serializers.bound_game_body(bound), bound.game.version


@blp.route("/games/<gameid:game_id>", methods=["PATCH"])
@token_failures
@token_first()
@blp.arguments(GamePatchSchema)
@blp.response(200, GameSchema)
@blp.doc(security=BEARER)
def rename_game(change: games.GameChange, game_id: str) -> Response:
    """Rename the game or its players, or end the game."""
    bound = games.rename_game(game_id, bearer_token(), change)
    return answer(serializers.bound_game_body(bound))


@blp.route("/games/<gameid:game_id>", methods=["DELETE"])
@token_failures
@blp.doc(security=BEARER, responses=NO_CONTENT)
def delete_game(game_id: str) -> Response:
    """Delete a game and its rounds."""
    games.delete_game(game_id, bearer_token())
    return Response(status=204)


# Rounds


@blp.route("/games/<gameid:game_id>/rounds", methods=["POST"])
@round_writes
@token_failures
@token_first()
@blp.arguments(RoundPostBodySchema)
@blp.arguments(DryRunQuerySchema, location="query")
@blp.doc(
    security=BEARER,
    requestBody=ROUND_BODY,
    parameters=[IDEMPOTENCY_KEY_PARAMETER, DRY_RUN_PARAMETER],
)
@blp.response(201, ROUND_RESPONSE, headers=LOCATION)
@blp.alt_response(
    200,
    schema=ROUND_RESPONSE,
    description="Dry run: the round as it would be scored.",
    success=True,
)
@blp.doc(responses={201: {"links": links.RECORDED_ROUND}})
def record_round(read_entry: rounds.EntryReader, query: dict[str, Any], game_id: str) -> Response:
    """Record the next round."""
    token, keyed, dry_run = bearer_token(), keyed_request(), query["dry_run"]
    recorded = rounds.record_round(
        game_id,
        token,
        read_entry,
        answer=serializers.scored_round,
        request=keyed,
        dry_run=dry_run,
    )
    if dry_run:
        return answer(recorded.body)
    location = url_for("api.get_round", game_id=game_id, number=recorded.body["number"])
    return answer(recorded.body, 201, {"Location": location})


@blp.route("/games/<gameid:game_id>/rounds", methods=["GET"])
@blp.arguments(HistoryQuerySchema, location="query")
@blp.response(
    200,
    {
        "type": "object",
        "properties": {"rounds": {"type": "array", "items": HISTORY_ITEM}},
        "required": ["rounds"],
    },
)
def list_rounds(query: dict[str, Any], game_id: str) -> Response:
    """List the game's history: its rounds and seat changes, in number order."""
    items = rounds.list_rounds(game_id, after=query["after"])
    return answer({"rounds": [serializers.round_body(item) for item in items]})


@blp.route("/games/<gameid:game_id>/rounds/<int:number>", methods=["GET"])
@blp.response(200, HISTORY_ITEM)
def get_round(game_id: str, number: int) -> Response:
    """Read one round or seat change."""
    return answer(serializers.round_body(rounds.get_round(game_id, number)))


@blp.route("/games/<gameid:game_id>/rounds/<int:number>", methods=["PUT"])
@round_writes
@token_failures
@token_first()
@blp.arguments(EntryBodySchema)
@blp.arguments(DryRunQuerySchema, location="query")
@blp.doc(security=BEARER, requestBody=ENTRY_BODY)
@blp.response(200, ROUND_RESPONSE)
def correct_round(
    read_entry: rounds.EntryReader, query: dict[str, Any], game_id: str, number: int
) -> Response:
    """Correct a round and score every later round again."""
    corrected = rounds.correct_round(
        game_id,
        bearer_token(),
        number,
        read_entry,
        answer=serializers.corrected_round,
        dry_run=query["dry_run"],
    )
    return answer(corrected)


@blp.route("/games/<gameid:game_id>/rounds/<int:number>", methods=["DELETE"])
@round_writes
@token_failures
@blp.doc(security=BEARER, responses=NO_CONTENT)
def undo_round(game_id: str, number: int) -> Response:
    """Undo the last round."""
    rounds.undo_round(game_id, bearer_token(), number)
    return Response(status=204)


# Seat changes


@blp.route("/games/<gameid:game_id>/seats", methods=["POST"])
@round_writes
@token_failures
@token_first()
@blp.arguments(SeatChangeBodySchema)
@blp.arguments(DryRunQuerySchema, location="query")
@blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY_PARAMETER, DRY_RUN_PARAMETER])
@blp.response(201, GameSchema, headers=LOCATION)
@blp.alt_response(
    200, schema=DryRunGameSchema, description="Dry run: the game as it would be.", success=True
)
@blp.doc(responses={201: {"links": links.CHANGED_SEATS}})
def change_seats(change: seats.SeatChange, query: dict[str, Any], game_id: str) -> Response:
    """Seat a newcomer or let a player leave, between rounds."""
    keyed, dry_run = keyed_request(), query["dry_run"]
    changed = seats.change_seats(
        game_id,
        bearer_token(),
        change,
        {name: value for name, value in json_body().items() if name not in ("number", "played_at")},
        answer=serializers.changed_seats,
        request=keyed,
        dry_run=dry_run,
    ).body
    if dry_run:
        return answer(changed["game"])
    location = url_for("api.get_round", game_id=game_id, number=changed["number"])
    return answer(changed["game"], 201, {"Location": location})


# History


@blp.route("/games/<gameid:game_id>/export", methods=["GET"])
@blp.response(200, ExportSchema)
@blp.doc(responses={200: {"links": links.EXPORTED_GAME}})
def export_game(game_id: str) -> Response:
    """Export the whole game as JSON."""
    response = answer(history.export_game(game_id, answer=serializers.game_export))
    response.headers["Content-Disposition"] = f'attachment; filename="scorekeeper-{game_id}.json"'
    return response


@blp.route("/games/import", methods=["POST"])
@game_creations
@blp.arguments(ExportSchema)
@blp.doc(parameters=[CREATION_KEY_PARAMETER])
@blp.response(201, CreatedGameSchema, headers=LOCATION)
@blp.doc(responses={201: {"links": links.CREATED_GAME}})
def import_game(exported: history.ExportedGame) -> Response:
    """Create a game by replaying an export."""
    keyed = keyed_request(creating=True)
    body = history.import_game(exported, answer=serializers.created_game, request=keyed).body
    return created(body, url_for("api.get_game", game_id=body["id"]))


# Other


@blp.route("/rulesets", methods=["GET"])
@blp.response(200, RulesetsSchema)
def list_rulesets() -> Response:
    """List the rulesets with their options."""
    return answer({"rulesets": [rules.describe() for rules in RULESETS.values()]})


@blp.route("/health", methods=["GET"])
@blp.response(200, HealthSchema)
def health() -> Response:
    """Check that the service and its database answer."""
    check_database()
    return answer({"status": "ok"})


@spec_blp.route("/openapi.yaml", methods=["GET"])
@spec_blp.response(
    200,
    {"type": "object"},
    content_type="application/yaml",
    description="The OpenAPI 3.1 document.",
)
def openapi_document() -> Response:
    """Read this API's OpenAPI document."""
    from . import api

    return Response(api.spec.to_yaml(), mimetype="application/yaml")
