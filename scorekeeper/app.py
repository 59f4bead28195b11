"""The app factory: defaults, ``SCOREKEEPER_*`` settings, then each ``register_*`` step."""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Config, Flask, Response, request
from flask_cors import CORS

from . import PROJECT_ROOT
from .language import register_language
from .logs import register_request_log
from .security import RESPONSE_HEADERS
from .settings import is_on

MIGRATIONS_DIRECTORY = PROJECT_ROOT / "migrations"


DEFAULT_SETTINGS: Mapping[str, Any] = {
    "DATABASE_URL": None,
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "RATE_LIMITS": "on",
    "RATE_LIMIT_STORAGE_URI": "memory://",
    "RATE_LIMIT_KEY_PREFIX": "",
    "GAME_CREATE_LIMIT": "60/minute",
    "ROUND_WRITE_LIMIT": "120/minute",
    "TOKEN_FAILURE_LIMIT": "30/minute",
    "CORS_ORIGINS": [],
    "RELEASE": "",
    "JSON_SORT_KEYS": False,
    "API_TITLE": "Scorekeeper",
    "API_VERSION": "1.0.0",
    "OPENAPI_VERSION": "3.1.0",
    "API_SPEC_OPTIONS": {
        "info": {
            "description": "Keeps the score of card games played with a real deck, "
            "by the rulesets GET /api/v1/rulesets lists. "
            "Errors all answer the one body of the Error schema."
        },
        "servers": [{"url": "/"}],
    },
}


def read_settings(config: Config) -> Config:
    """The defaults, then the ``SCOREKEEPER_*`` environment variables, into ``config``."""
    config.from_mapping(copy.deepcopy(DEFAULT_SETTINGS))  # apps share no list or dict
    config.from_prefixed_env("SCOREKEEPER")
    return config


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, ``SCOREKEEPER_*`` environment variables, then ``test_config``."""
    app = Flask("scorekeeper", instance_relative_config=True)
    read_settings(app.config)
    if test_config is not None:
        app.config.from_mapping(test_config)
    configure_database(app)
    configure_rate_limits(app)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # UTF-8 as it is, not \u escapes

    register_request_log(app)  # first, so that its hook runs last and logs the final status
    register_language(app)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_security_headers(app)
    register_cors(app)
    return app


def configure_database(app: Flask) -> None:
    """Point SQLAlchemy at ``DATABASE_URL``, or at a SQLite file in the instance folder."""
    url = app.config["DATABASE_URL"]
    if not url:
        os.makedirs(app.instance_path, exist_ok=True)
        url = f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite'}"
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    # A server's connection can die while pooled: each is pinged as it leaves the pool.
    options: dict[str, Any] = {"pool_pre_ping": True}
    if url.startswith("sqlite"):
        options = {"connect_args": {"timeout": 30}}
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", options)


def configure_rate_limits(app: Flask) -> None:
    """Hand the ``RATE_LIMIT*`` settings to Flask-Limiter."""
    uri = app.config["RATE_LIMIT_STORAGE_URI"]
    app.config["RATELIMIT_ENABLED"] = is_on(app.config, "RATE_LIMITS")
    app.config["RATELIMIT_STORAGE_URI"] = uri
    app.config["RATELIMIT_KEY_PREFIX"] = app.config["RATE_LIMIT_KEY_PREFIX"]
    app.config["RATELIMIT_HEADERS_ENABLED"] = False  # api/limits.py writes them
    # While the shared counters' store is down, each worker counts in memory by the same limits
    # (and asks the store again now and then): a table's rounds are recorded all the same.
    app.config["RATELIMIT_IN_MEMORY_FALLBACK_ENABLED"] = True
    if str(uri).startswith(("redis://", "rediss://", "redis+unix://")):
        # A store that hangs holds a write up to this long, not for ever.
        app.config["RATELIMIT_STORAGE_OPTIONS"] = {
            "socket_connect_timeout": 1,
            "socket_timeout": 1,
        }


def register_extensions(app: Flask) -> None:
    """Bind the database, migrations, rate limits and the change feed of the event streams."""
    from .api.limits import register_rate_limits
    from .database import register_database
    from .extensions import db, migrate

    register_database(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS_DIRECTORY))
    register_rate_limits(app)


def register_blueprints(app: Flask) -> None:
    """The API and the spec."""
    from .api import register_api

    register_api(app)
    from .web import web

    app.register_blueprint(web)


def register_errorhandlers(app: Flask) -> None:
    """Every error as the one JSON body."""
    from .errors import register_errorhandlers as register

    register(app)


def register_cors(app: Flask) -> None:
    """Cross-origin API requests, from the origins in ``CORS_ORIGINS`` only (none by default)."""
    origins = app.config["CORS_ORIGINS"]
    if isinstance(origins, str):  # a comma-separated list rather than a JSON one
        origins = [origin.strip() for origin in origins.split(",") if origin.strip()]
    if origins:
        CORS(
            app,
            resources={r"/api/*": {"origins": origins}},
            allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "If-None-Match"],
            expose_headers=["ETag", "Location", "Retry-After"],
            max_age=600,
        )


def register_security_headers(app: Flask) -> None:
    """Headers every response carries; ``OPTIONS`` answered 204 with ``Allow`` and no body."""

    @app.after_request
    def security_headers(response: Response) -> Response:
        if request.method == "OPTIONS" and response.status_code == 200:
            response.status_code = 204  # Flask's automatic answer: Allow, and an empty body
            response.set_data(b"")
            del response.headers["Content-Type"]
        response.headers.update(RESPONSE_HEADERS)
        if response.mimetype == "text/html":
            response.headers["Content-Security-Policy"] = (
                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                "connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
                "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
            )
            response.headers["X-Frame-Options"] = "DENY"
        return response
