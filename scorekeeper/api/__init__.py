"""The HTTP API under ``/api/v1``: flask-smorest documents it, ``views`` serves it."""

from __future__ import annotations

from flask import Flask, Response
from flask_smorest import Api
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

from ..errors import handle_http_exception
from .schemas import ErrorSchema


class ScorekeeperApi(Api):
    """flask-smorest's Api, answering framework errors with the one error body."""

    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        """Every HTTPException, in the one error body."""
        return handle_http_exception(error)


GAME_ID_PATTERN = r"[A-Za-z0-9_-]{16,64}"
"""What a game id in a path looks like (the spec says the same)."""


class GameIdConverter(BaseConverter):
    """A game id in a path: URL-safe, as ``security.new_game_id`` makes them.

    Only such a segment routes to a game, so that ``/games/import`` is not also
    "the game called import" (whose methods would show in ``Allow``).
    """

    regex = GAME_ID_PATTERN


GAME_ID_SCHEMA = {
    "type": "string",
    "pattern": f"^{GAME_ID_PATTERN}$",
    "minLength": 16,
    "maxLength": 64,
}

api = ScorekeeperApi()
api.register_converter(GameIdConverter, lambda converter: dict(GAME_ID_SCHEMA))


def register_api(app: Flask) -> None:
    """Bind the API and its blueprint to ``app``."""
    from . import views
    from .schemas import (
        ENTRY_SCHEMA_NAMES,
        ROUND_POST_SCHEMA_NAMES,
        ROUND_SCHEMA_NAMES,
        JhyapEntrySchema,
        JhyapRoundPostSchema,
        JhyapRoundSchema,
        TwentyTwoEntrySchema,
        TwentyTwoRoundPostSchema,
        TwentyTwoRoundSchema,
    )

    app.url_map.converters["gameid"] = GameIdConverter
    api.init_app(app)
    components = {
        ROUND_SCHEMA_NAMES["jhyap"]: JhyapRoundSchema,
        ROUND_SCHEMA_NAMES["twenty-two"]: TwentyTwoRoundSchema,
        ENTRY_SCHEMA_NAMES["jhyap"]: JhyapEntrySchema,
        ENTRY_SCHEMA_NAMES["twenty-two"]: TwentyTwoEntrySchema,
        ROUND_POST_SCHEMA_NAMES["jhyap"]: JhyapRoundPostSchema,
        ROUND_POST_SCHEMA_NAMES["twenty-two"]: TwentyTwoRoundPostSchema,
    }
    for name, schema in components.items():
        api.spec.components.schema(name, schema=schema)
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
