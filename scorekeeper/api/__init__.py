"""The HTTP API under ``/api/v1``: flask-smorest documents it, ``views`` serves it."""

from __future__ import annotations

from flask import Flask, Response
from flask_smorest import Api
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

from ..errors import handle_http_exception
from .schemas import ErrorSchema, SeatChangeItemSchema


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
    from . import table_views, views  # noqa: F401 - table_views adds its routes to views.blp
    from .rulesets import RULESET_SCHEMAS

    app.url_map.converters["gameid"] = GameIdConverter
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
