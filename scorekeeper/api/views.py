"""The API's views: parse, call the domain (``scorekeeper.games``), answer."""

from __future__ import annotations

import hashlib
import re
from typing import Any, cast

from flask import Response, current_app, jsonify, request, url_for
from flask.json.provider import DefaultJSONProvider
from marshmallow import ValidationError
from sqlalchemy import text

from .. import games
from ..errors import BadRequest
from ..extensions import db, limiter
from ..rules import RULESETS
from . import links
from .auth import bearer_token
from .body import Blueprint, json_body, parse_json_body
from .rendered import kept_exports, rendered_game
from .schemas import (
    ENTRY_SCHEMA_NAMES,
    ROUND_POST_SCHEMA_NAMES,
    ROUND_SCHEMA_NAMES,
    CreatedGameSchema,
    DryRunQuerySchema,
    ExportSchema,
    GamePatchSchema,
    GameSchema,
    HealthSchema,
    RulesetsSchema,
    dry_run_query_schema,
    export_schema,
    game_create_schema,
    game_patch_schema,
    one_of,
)

blp = Blueprint("api", __name__, url_prefix="/api/v1", description="Games, rounds and history.")
spec_blp = Blueprint("spec", __name__, description="This API's OpenAPI document.")
blp.before_request(parse_json_body)

# Printable ASCII but the comma: HTTP joins repeated header fields with commas, so a comma
# can only mean that the request carried two keys.
IDEMPOTENCY_KEY = re.compile(r"[\x20-\x2b\x2d-\x7e]{1,255}")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
ROUND_BODY = {
    "required": True,
    "content": {"application/json": {"schema": one_of(ROUND_POST_SCHEMA_NAMES)}},
}
ENTRY_BODY = {
    "required": True,
    "content": {"application/json": {"schema": one_of(ENTRY_SCHEMA_NAMES)}},
}
ROUND_RESPONSE = one_of(ROUND_SCHEMA_NAMES)
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
NO_CONTENT = {"204": {"description": "Done; no body."}}
DRY_RUN_PARAMETER = {
    "in": "query",
    "name": "dry_run",
    "required": False,
    "schema": {"type": "boolean", "default": False},
    "description": DryRunQuerySchema._declared_fields["dry_run"].metadata["description"],
}


def answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON response."""
    response = jsonify(body)
    response.status_code = status
    response.headers.update(headers or {})
    return response


def game_create_limit() -> str:
    """Game creations allowed per client address."""
    return current_app.config["GAME_CREATE_LIMIT"]


def round_write_limit() -> str:
    """Round writes allowed per game."""
    return current_app.config["ROUND_WRITE_LIMIT"]


def game_key() -> str:
    """Round writes are counted per game and presented token (hashed, never stored as is).

    The table's phones share the game's token, so they share one count; a request
    without it, however malformed, spends only a count of its own.
    """
    game_id = (request.view_args or {}).get("game_id", "")
    presented = hashlib.sha256(request.headers.get("Authorization", "").encode()).hexdigest()
    return f"{game_id}:{presented[:32]}"


def token_failure_limit() -> str:
    """Requests refused for their token allowed per client address."""
    return current_app.config["TOKEN_FAILURE_LIMIT"]


def refused_for_token(response: Response) -> bool:
    """Whether the request was refused for a missing or wrong token."""
    return response.status_code in (401, 403)


round_writes = limiter.shared_limit(round_write_limit, scope="round-writes", key_func=game_key)
# Refused tokens are counted per client address, on every endpoint that takes one.
token_failures = limiter.shared_limit(
    token_failure_limit, scope="token-failures", deduct_when=refused_for_token
)
# Creating and importing both make a game: one count per client address for the two.
game_creations = limiter.shared_limit(game_create_limit, scope="game-creations")


@limiter.request_filter
def reads_are_not_limited() -> bool:
    """Leave reads to the views: no limit applies to them, only to writes and presented tokens.

    Flask-Limiter otherwise works out, for every request, that nothing applies to
    it: a third of a GET's CPU, and the phones poll the game with GETs.
    """
    return request.method in SAFE_METHODS


def idempotency_key() -> str | None:
    """The request's ``Idempotency-Key``, checked; ``None`` if it has none."""
    keys = request.headers.getlist("Idempotency-Key")
    if len(keys) > 1 or any("," in key for key in keys):
        raise BadRequest(
            "The request carries two Idempotency-Key headers; send one.",
            {"Idempotency-Key": ["Given twice."]},
        )
    key = keys[0] if keys else None
    if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
        raise BadRequest(
            "The Idempotency-Key must be 1 to 255 printable ASCII characters, without commas.",
            {"Idempotency-Key": ["Give 1 to 255 printable ASCII characters, without commas."]},
        )
    return key


def dry_run_requested() -> bool:
    """Whether the query asks for a dry run (``?dry_run=true``).

    Read with the schema only when there is a query: most requests have none,
    and webargs' parser cost a twentieth of a recorded round.
    """
    if not request.args:
        return False
    try:
        return bool(dry_run_query_schema.load(request.args)["dry_run"])
    except ValidationError as error:
        raise ValidationError({"query": error.messages}) from None


# Games


@blp.route("/games", methods=["POST"])
@game_creations
@blp.arguments(game_create_schema)
@blp.response(201, CreatedGameSchema, headers={"Location": {"schema": {"type": "string"}}})
@blp.doc(responses={201: {"links": links.CREATED_GAME}})
def create_game(data: dict[str, Any]) -> Response:
    """Create a game."""
    table, token = games.create_game(data)
    location = url_for("api.get_game", game_id=table.game.id)
    return answer({**table.body(), "token": token}, 201, {"Location": location})


@blp.route("/games/<gameid:game_id>", methods=["GET"])
@blp.response(200, GameSchema)
@blp.alt_response(304, description="Not modified since the ETag in If-None-Match.")
def get_game(game_id: str) -> Response:
    """Read a game."""
    version = games.game_version(game_id)
    etag = str(version)
    if request.if_none_match.contains_weak(etag):  # weak comparison (RFC 9110), and "*"
        response = Response(status=304)
    else:
        rendered = rendered_game(game_id, version)
        mimetype = cast(DefaultJSONProvider, current_app.json).mimetype
        response = current_app.response_class(rendered.body, mimetype=mimetype)
        etag = str(rendered.version)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.route("/games/<gameid:game_id>", methods=["PATCH"])
@token_failures
@blp.doc(
    security=BEARER,
    requestBody={"required": True, "content": {"application/json": {"schema": GamePatchSchema}}},
)
@blp.response(200, GameSchema)
def rename_game(game_id: str) -> Response:
    """Rename the game or its players."""
    token = bearer_token()
    data = game_patch_schema.load(json_body())
    return answer(games.rename(game_id, token, data).body())


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
@blp.doc(
    security=BEARER,
    requestBody=ROUND_BODY,
    parameters=[
        {
            "in": "header",
            "name": "Idempotency-Key",
            "required": False,
            "schema": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "pattern": "^[\\x20-\\x2b\\x2d-\\x7e]+$",
            },
            "description": "Resending with the same key and body replays the first answer.",
        },
        DRY_RUN_PARAMETER,
    ],
)
@blp.response(201, ROUND_RESPONSE, headers={"Location": {"schema": {"type": "string"}}})
@blp.alt_response(
    200,
    schema=ROUND_RESPONSE,
    description="Dry run: the round as it would be scored.",
    success=True,
)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
@blp.doc(responses={201: {"links": links.RECORDED_ROUND}})
def record_round(game_id: str) -> Response:
    """Record the next round."""
    token = bearer_token()
    result = games.record_round(
        game_id, token, json_body(), idempotency_key=idempotency_key(), dry_run=dry_run_requested()
    )
    headers = {"Location": result.location} if result.location else {}
    return answer(result.body, result.status, headers)


@blp.route("/games/<gameid:game_id>/rounds", methods=["GET"])
@blp.response(
    200,
    {
        "type": "object",
        "properties": {"rounds": {"type": "array", "items": ROUND_RESPONSE}},
        "required": ["rounds"],
    },
)
def list_rounds(game_id: str) -> Response:
    """List the rounds played."""
    return answer({"rounds": games.list_rounds(game_id)})


@blp.route("/games/<gameid:game_id>/rounds/<int:number>", methods=["GET"])
@blp.response(200, ROUND_RESPONSE)
def get_round(game_id: str, number: int) -> Response:
    """Read one round."""
    return answer(games.get_round(game_id, number))


@blp.route("/games/<gameid:game_id>/rounds/<int:number>", methods=["PUT"])
@round_writes
@token_failures
@blp.doc(security=BEARER, requestBody=ENTRY_BODY, parameters=[DRY_RUN_PARAMETER])
@blp.response(200, ROUND_RESPONSE)
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def correct_round(game_id: str, number: int) -> Response:
    """Correct a round and score every later round again."""
    token = bearer_token()
    result = games.correct_round(game_id, token, number, json_body(), dry_run=dry_run_requested())
    return answer(result.body, result.status)


@blp.route("/games/<gameid:game_id>/rounds/<int:number>", methods=["DELETE"])
@round_writes
@token_failures
@blp.doc(security=BEARER, responses=NO_CONTENT)
def undo_round(game_id: str, number: int) -> Response:
    """Undo the last round."""
    games.undo_round(game_id, bearer_token(), number)
    return Response(status=204)


# History


@blp.route("/games/<gameid:game_id>/export", methods=["GET"])
@blp.response(200, ExportSchema)
@blp.doc(responses={200: {"links": links.EXPORTED_GAME}})
def export_game(game_id: str) -> Response:
    """Export the whole game as JSON."""
    # The pieces are sent in turn, never joined into one copy of the document.
    response = Response(games.export_game(game_id, kept_exports()), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="scorekeeper-{game_id}.json"'
    return response


@blp.route("/games/import", methods=["POST"])
@game_creations
@blp.arguments(export_schema)
@blp.response(201, CreatedGameSchema, headers={"Location": {"schema": {"type": "string"}}})
@blp.doc(responses={201: {"links": links.CREATED_GAME}})
def import_game(document: dict[str, Any]) -> Response:
    """Create a game by replaying an export."""
    table, token = games.import_game(document)
    location = url_for("api.get_game", game_id=table.game.id)
    return answer({**table.body(), "token": token}, 201, {"Location": location})


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
    db.session.execute(text("SELECT 1"))
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
