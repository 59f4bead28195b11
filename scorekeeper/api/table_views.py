"""The API's views of tables and rematches: the edge validates, the domain does the work."""

from __future__ import annotations

from typing import Any

from flask import Response, url_for

from .. import serializers
from ..domain import history, table_history, tables
from . import links
from .auth import bearer_token, token_first
from .limits import game_creations, token_failures
from .schemas import CreatedGameSchema, ExportSchema, RematchSchema
from .table_schemas import (
    CreatedTableSchema,
    TableCreateSchema,
    TableExportSchema,
    TableGameCreateSchema,
    TablePatchSchema,
    TableSchema,
)
from .views import (
    BEARER,
    CREATION_KEY_PARAMETER,
    ID_TAKEN,
    LOCATION,
    NO_CONTENT,
    answer,
    blp,
    created,
    keyed_request,
    with_etag,
)


@blp.route("/tables", methods=["POST"])
@game_creations
@blp.arguments(TableCreateSchema)
@blp.doc(parameters=[CREATION_KEY_PARAMETER])
@blp.response(201, CreatedTableSchema, headers=LOCATION)
@blp.alt_response(409, **ID_TAKEN)
@blp.doc(responses={201: {"links": links.CREATED_TABLE}})
def create_table(setup: tables.TableSetup) -> Response:
    """Create a table of friends."""
    keyed = keyed_request(creating=True)
    body = tables.create_table(setup, answer=serializers.created_table, request=keyed).body
    return created(body, url_for("api.get_table", table_id=body["id"]))


@blp.route("/tables/<tableid:table_id>", methods=["GET"])
@blp.response(200, TableSchema)
@blp.alt_response(304, description="Not modified since the ETag in If-None-Match.")
def get_table(table_id: str) -> Response:
    """Read a table: its roster, games and standings."""
    return with_etag(
        lambda: str(tables.table_version(table_id)),
        lambda: table_answer(table_id),
    )


def table_answer(table_id: str) -> tuple[dict[str, Any], int]:
    """The Table and its version."""
    table = tables.read_table(table_id)
    return serializers.table_body(table), table.version


@blp.route("/tables/<tableid:table_id>", methods=["PATCH"])
@token_failures
@token_first("table")
@blp.arguments(TablePatchSchema)
@blp.response(200, TableSchema)
@blp.doc(security=BEARER)
def change_table(change: tables.TableChange, table_id: str) -> Response:
    """Rename the table or its roster players, or add roster players."""
    return answer(
        serializers.table_body(tables.change_table(table_id, bearer_token("table"), change))
    )


@blp.route("/tables/<tableid:table_id>", methods=["DELETE"])
@token_failures
@blp.doc(security=BEARER, responses=NO_CONTENT)
def delete_table(table_id: str) -> Response:
    """Delete a table and all its games."""
    tables.delete_table(table_id, bearer_token("table"))
    return Response(status=204)


@blp.route("/tables/<tableid:table_id>/games", methods=["POST"])
@game_creations
@token_failures
@token_first("table")
@blp.arguments(TableGameCreateSchema)
@blp.doc(security=BEARER, parameters=[CREATION_KEY_PARAMETER])
@blp.response(201, CreatedGameSchema, headers=LOCATION)
@blp.alt_response(409, **ID_TAKEN)
@blp.doc(responses={201: {"links": links.CREATED_GAME_AT_TABLE}})
def create_game_at_table(setup: tables.TableGameSetup, table_id: str) -> Response:
    """Create a game at the table, from roster players or new names."""
    keyed = keyed_request(creating=True)
    body = tables.create_game_at_table(
        table_id, bearer_token("table"), setup, answer=serializers.created_game, request=keyed
    ).body
    return created(body, url_for("api.get_game", game_id=body["id"]))


@blp.route("/tables/<tableid:table_id>/games/import", methods=["POST"])
@game_creations
@token_failures
@token_first("table")
@blp.arguments(ExportSchema)
@blp.doc(security=BEARER, parameters=[CREATION_KEY_PARAMETER])
@blp.response(201, CreatedGameSchema, headers=LOCATION)
@blp.doc(responses={201: {"links": links.CREATED_GAME_AT_TABLE}})
def import_game_at_table(exported: history.ExportedGame, table_id: str) -> Response:
    """Create a game at the table by replaying an export of one game."""
    keyed = keyed_request(creating=True)
    body = table_history.import_game_at_table(
        table_id, bearer_token("table"), exported, answer=serializers.created_game, request=keyed
    ).body
    return created(body, url_for("api.get_game", game_id=body["id"]))


@blp.route("/games/<gameid:game_id>/rematch", methods=["POST"])
@game_creations
@token_failures
@token_first()
@blp.arguments(RematchSchema, required=False)
@blp.doc(security=BEARER, parameters=[CREATION_KEY_PARAMETER])
@blp.response(201, CreatedGameSchema, headers=LOCATION)
@blp.alt_response(409, **ID_TAKEN)
@blp.doc(responses={201: {"links": links.CREATED_GAME_AT_TABLE}})
def rematch(chosen: tables.RematchSetup, game_id: str) -> Response:
    """Start a new game with the same players, seats, options and table."""
    keyed = keyed_request(creating=True)
    body = tables.rematch(
        game_id, bearer_token(), chosen, answer=serializers.created_game, request=keyed
    ).body
    return created(body, url_for("api.get_game", game_id=body["id"]))


@blp.route("/tables/<tableid:table_id>/export", methods=["GET"])
@blp.response(200, TableExportSchema)
@blp.doc(responses={200: {"links": links.EXPORTED_TABLE}})
def export_table(table_id: str) -> Response:
    """Export the table: its roster and every game."""
    response = answer(table_history.export_table(table_id, answer=serializers.table_export))
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-table-{table_id}.json"'
    )
    return response


@blp.route("/tables/import", methods=["POST"])
@game_creations
@blp.arguments(TableExportSchema)
@blp.doc(parameters=[CREATION_KEY_PARAMETER])
@blp.response(201, CreatedTableSchema, headers=LOCATION)
@blp.doc(responses={201: {"links": links.CREATED_TABLE}})
def import_table(exported: table_history.ExportedTable) -> Response:
    """Create a table by replaying an export of one."""
    keyed = keyed_request(creating=True)
    body = table_history.import_table(
        exported, answer=serializers.created_table, request=keyed
    ).body
    return created(body, url_for("api.get_table", table_id=body["id"]))
