"""One place that turns every error into the JSON error body of api.md."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from .rules import RoundConflict, RuleError
from .security import RESPONSE_HEADERS


class ApiError(Exception):
    """An error answered with a status, a code and one sentence for a person."""

    status = 500
    code = "internal_error"

    def __init__(
        self,
        message: str,
        details: Mapping[str, Any] | None = None,
        *,
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.details = dict(details or {})
        self.headers = dict(headers or {})
        if code:
            self.code = code


class BadRequest(ApiError):
    """Malformed JSON, body or header."""

    status, code = 400, "bad_request"


class Unauthorized(ApiError):
    """No token, or a malformed one."""

    status, code = 401, "unauthorized"


class Forbidden(ApiError):
    """A token that is not this game's."""

    status, code = 403, "forbidden"


class NotFound(ApiError):
    """A game or round that does not exist."""

    status, code = 404, "not_found"


class Conflict(ApiError):
    """A request that clashes with the game's current state."""

    status, code = 409, "conflict"


class UnsupportedMediaType(ApiError):
    """A body that is not ``application/json``."""

    status, code = 415, "unsupported_media_type"


class Invalid(ApiError):
    """Well-formed JSON that fails validation."""

    status, code = 422, "invalid_request"


HTTP_CODES = {
    400: ("bad_request", "The request could not be read."),
    401: ("unauthorized", "This needs the game's token."),
    403: ("forbidden", "That token does not open this game."),
    404: ("not_found", "There is nothing at this address."),
    405: ("method_not_allowed", "This address does not take that method."),
    409: ("conflict", "The request clashes with the game's current state."),
    413: ("too_large", "The request body is too large."),
    415: ("unsupported_media_type", "Send the body as application/json."),
    422: ("invalid_request", "The request has invalid fields."),
    429: ("too_many_requests", "Too many requests; wait a moment and try again."),
    500: ("internal_error", "Something went wrong on our side; nothing was changed."),
}


SERVER_CODES = {
    403: ("forbidden", "The server refuses this request."),
    414: ("uri_too_long", "The address is too long."),
    417: ("expectation_failed", "The server cannot meet the request's Expect header."),
    431: ("headers_too_large", "The request's headers are too large."),
    501: ("not_implemented", "The server does not support that transfer coding."),
}
"""Statuses gunicorn answers by itself, before the app sees the request."""


def raw_error_response(status: int, reason: str, detail: str) -> bytes:
    """The one error body as a whole HTTP/1.1 response, for errors answered outside Flask."""
    code, message = SERVER_CODES.get(status) or HTTP_CODES.get(status) or ("error", "Error.")
    if detail and status < 500:  # gunicorn's own words on what it could not read
        message = f"{message.rstrip('.')}: {detail}."
    body = json.dumps(error_body(status, code, message)).encode()
    headers = {"Content-Type": "application/json", "Content-Length": len(body), **RESPONSE_HEADERS}
    head = f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n" + "".join(
        f"{name}: {value}\r\n" for name, value in headers.items()
    )
    return (head + "\r\n").encode("latin-1") + body


def error_body(
    status: int, code: str, message: str, details: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The one error body of api.md."""
    error: dict[str, Any] = {"status": status, "code": code, "message": message}
    if details:
        error["details"] = details
    return {"error": error}


def error_response(
    status: int,
    code: str,
    message: str,
    details: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """The one error body, as a response."""
    response = jsonify(error_body(status, code, message, details))
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def first_problem(messages: Any, path: str = "") -> str:
    """``field[0].name: problem`` for the first problem in marshmallow-style messages."""
    if isinstance(messages, Mapping):
        key, value = next(iter(messages.items()))
        if key == "_schema":
            return first_problem(value, path)
        step = f"[{key}]" if str(key).isdigit() else (f".{key}" if path else str(key))
        return first_problem(value, path + step)
    if isinstance(messages, list | tuple) and messages:
        return first_problem(messages[0], path)
    text = str(messages)
    return f"{path}: {text}" if path else text


def validation_message(messages: Any) -> str:
    """One sentence for a validation failure."""
    problem = first_problem(messages)
    return f"The request has an invalid field: {problem}" if ":" in problem else problem


def handle_http_exception(error: HTTPException) -> Response:
    """Framework errors (404, 405, 413, 429, webargs' 422...) in the one body."""
    status = error.code or 500
    code, message = HTTP_CODES.get(status, ("error", error.description or "Error."))
    details = None
    headers: dict[str, str] = {}
    data = getattr(error, "data", None) or {}
    if status == 422 and "messages" in data:
        details = data["messages"].get("json", data["messages"])
        message = validation_message(details)
    if status == 413:
        limit = request.max_content_length or current_app.config["MAX_CONTENT_LENGTH"]
        size = f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 2**10} KiB"
        message = f"The request body is larger than {size}."
    if status == 405 and error.valid_methods:  # type: ignore[attr-defined]
        headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
    if status == 429:
        message = f"Too many requests ({error.description}); wait a moment and try again."
    response = error_response(status, code, message, details, headers)
    if status == 429 and (retry_after := getattr(error, "retry_after", None)):
        response.headers["Retry-After"] = str(retry_after)
    return response


def register_errorhandlers(app: Flask) -> None:
    """Answer every error with the one JSON body."""

    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> Response:
        return error_response(error.status, error.code, error.message, error.details, error.headers)

    @app.errorhandler(RoundConflict)
    def round_conflict(error: RoundConflict) -> Response:
        return error_response(409, "conflict", error.message, error.details)

    @app.errorhandler(RuleError)
    def rule_error(error: RuleError) -> Response:
        return error_response(422, error.code, error.message, error.details)

    @app.errorhandler(ValidationError)
    def validation_error(error: ValidationError) -> Response:
        messages = error.normalized_messages()
        return error_response(422, "invalid_request", validation_message(messages), messages)

    @app.errorhandler(HTTPException)
    def http_exception(error: HTTPException) -> Response:
        return handle_http_exception(error)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        app.logger.exception("Unhandled error", exc_info=error)
        code, message = HTTP_CODES[500]
        return error_response(500, code, message)
