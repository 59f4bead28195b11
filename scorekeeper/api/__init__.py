"""The HTTP API under ``/api/v1``: flask-smorest documents it, ``views`` serves it."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request
from flask_smorest import Api
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.routing import BaseConverter

from ..errors import handle_http_exception
from .schemas import EndItemSchema, ErrorSchema, SeatChangeItemSchema


class ScorekeeperApi(Api):
    """flask-smorest's Api, answering framework errors with the one error body."""

    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        """Every HTTPException, in the one error body."""
        return handle_http_exception(error)


PUBLIC_ID_PATTERN = r"[A-Za-z0-9_-]{16,64}"
"""What a game's or a table's id in a path looks like (the spec says the same)."""


class GameIdConverter(BaseConverter):
    """A game's id in a path: URL-safe, as ``security.new_public_id`` makes them.

    Only such a segment routes to a game, so that ``/games/import`` is not also
    "the game called import" (whose methods would show in ``Allow``).
    """

    regex = PUBLIC_ID_PATTERN


class TableIdConverter(GameIdConverter):
    """A table's id in a path: minted as a game's, from the same space of ids."""


PUBLIC_ID_SCHEMA = {
    "type": "string",
    "pattern": f"^{PUBLIC_ID_PATTERN}$",
    "minLength": 16,
    "maxLength": 64,
}


def public_id_schema(converter: BaseConverter) -> dict[str, Any]:
    """How the OpenAPI document shows a path's game or table id."""
    return dict(PUBLIC_ID_SCHEMA)


api = ScorekeeperApi()
api.register_converter(GameIdConverter, public_id_schema)
api.register_converter(TableIdConverter, public_id_schema)


def options_on_any_api_path() -> Response | None:
    """``OPTIONS`` on an API path no route takes (a malformed id, say): ``204``, ``Allow:
    OPTIONS``, no body (api.md says any API path answers it); routed paths answer by themselves."""
    if (
        request.method == "OPTIONS"
        and request.path.startswith("/api/")
        and isinstance(request.routing_exception, NotFound)
    ):
        response = Response(status=204, headers={"Allow": "OPTIONS"})
        del response.headers["Content-Type"]
        return response
    return None


def register_api(app: Flask) -> None:
    """Bind the API and its blueprint to ``app``."""
    # table_views and events add their routes to views.blp
    from . import events, table_views, views  # noqa: F401
    from .rulesets import RULESET_SCHEMAS

    app.url_map.converters["gameid"] = GameIdConverter
    app.url_map.converters["tableid"] = TableIdConverter
    app.before_request(options_on_any_api_path)
    api.init_app(app)
    for kind in ("Round", "Entry", "RoundPost"):  # the order the spec has always listed them
        for schemas in RULESET_SCHEMAS.values():
            schema = {
                "Round": schemas.round,
                "Entry": schemas.entry,
                "RoundPost": schemas.round_post,
            }
            api.spec.components.schema(f"{schemas.component}{kind}", schema=schema[kind])
    api.spec.components.schema("SeatChangeItem", schema=SeatChangeItemSchema)
    api.spec.components.schema("EndItem", schema=EndItemSchema)
    api.spec.components.security_scheme(
        "bearerAuth",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "The token returned when the game was created.",
        },
    )
    api.register_blueprint(views.blp)
    api.register_blueprint(views.spec_blp)
    events.register_events(app)
