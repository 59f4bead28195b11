"""One place that turns every error into the JSON error body of api.md."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, has_request_context, jsonify, request
from marshmallow import ValidationError
from psycopg import OperationalError as PostgresOperationalError
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException

from .domain import errors as domain
from .language import localise, select_language
from .rules import RULESETS, RoundConflict, RuleError
from .rules.words import Message, count_of
from .security import RESPONSE_HEADERS

DOMAIN_ERRORS: dict[type[domain.DomainError], tuple[int, str]] = {
    domain.GameNotFound: (404, "not_found"),
    domain.RoundNotFound: (404, "not_found"),
    domain.WrongToken: (403, "forbidden"),
    domain.RoundTaken: (409, "conflict"),
    domain.GameOver: (409, "conflict"),
    domain.NotTheLastRound: (409, "conflict"),
    domain.NotARound: (409, "conflict"),
    domain.GameFull: (409, "conflict"),
    domain.PlayedAtOutOfRange: (422, "invalid_request"),
    domain.RecordingInProgress: (409, "conflict"),
    domain.KeyReused: (422, "invalid_idempotency_key"),
    domain.InvalidChange: (422, "invalid_request"),
    domain.InvalidImport: (422, "invalid_import"),
    domain.TableNotFound: (404, "not_found"),
    domain.InvalidSeating: (422, "invalid_game"),
    domain.IdTaken: (409, "id_taken"),
    domain.CreatedAtOutOfRange: (422, "invalid_request"),
}
"""The status and code each domain error is answered with."""
RETRY_AFTER: dict[type[domain.DomainError], str] = {domain.RecordingInProgress: "1"}
"""Domain errors worth resending, and after how many seconds."""


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


class UnsupportedMediaType(ApiError):
    """A body that is not ``application/json``."""

    status, code = 415, "unsupported_media_type"


class Invalid(ApiError):
    """Well-formed JSON that fails validation."""

    status, code = 422, "invalid_request"


HTTP_CODES = {
    400: (
        "bad_request",
        "The request could not be read; check how it is written and send it again.",
    ),
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
    503: (
        "service_unavailable",
        "The database is not answering; nothing was changed, so try again in a moment.",
    ),
}
DATABASE_RETRY_AFTER = "2"
"""Seconds a client should wait before resending while the database is not answering."""
POSTGRES_UNREACHABLE_STATES = frozenset({"57P01", "57P02", "57P03"})
"""PostgreSQL's "terminating connection" (admin or crash shutdown) and "cannot connect now"
(starting up or shutting down); class ``08`` is every other connection exception."""


SERVER_CODES = {
    403: ("forbidden", "The server refuses this request."),
    414: ("uri_too_long", "The address is too long."),
    417: ("expectation_failed", "The server cannot meet the request's Expect header."),
    431: ("headers_too_large", "The request's headers are too large."),
    501: ("not_implemented", "The server does not support that transfer coding."),
}
"""Statuses gunicorn answers by itself, before the app sees the request."""


def raw_error_response(status: int, reason: str) -> bytes:
    """The one error body as a whole HTTP/1.1 response, for errors answered outside Flask."""
    code, message = SERVER_CODES.get(status) or HTTP_CODES.get(status) or ("error", "Error.")
    body = json.dumps(error_body(status, code, message), ensure_ascii=False).encode()
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
    """The one error body, as a response, its message in the request's language."""
    language = "en"
    if has_request_context():
        message, language = localise(message), select_language()
    response = jsonify(error_body(status, code, message, details))
    response.status_code = status
    response.vary.add("Accept-Language")
    response.headers["Content-Language"] = language
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


FIELD_WORDS = {
    **{name: words for rules in RULESETS.values() for name, words in rules.field_words.items()},
    "player": "the player",
    "number": "the round number",
    "ruleset": "the ruleset",
    "name": "the name",
    "players": "the list of players",
    "dealer": "the dealer",
    "starter": "the starter",
    "options": "the options",
    "id": "the player id",
    "format": "the format",
    "version": "the version",
    "game": "the game",
    "setup": "the setup",
    "rounds": "the rounds",
    "entry": "the entry",
    "round": "the round",
    "seat": "the seat",
    "status": "the status",
    "join": "the newcomer",
    "after": "the player to sit after",
    "leave": "the player who leaves",
    "add_players": "the players to add",
    "table": "the table",
    "games": "the games",
}
"""How a message names a field of a request (a ruleset names the fields of its entries)."""
NAMED_AS_SENT = frozenset({"id"})
"""Fields of a body itself that a message names as sent: in words, ``id`` is a player's."""

QUERY_WORDS = {
    "dry_run": "the dry_run setting in the address",
    "after": "the after setting in the address",
}
"""How a message names a parameter of the address (a name a body uses may mean else there)."""

ITEM_WORDS = {
    **{name: words for rules in RULESETS.values() for name, words in rules.item_words.items()},
    "players": "player {n}",
    "rounds": "round {n}",
    "add_players": "new player {n}",
    "games": "game {n}",
}
"""How a message names item ``n`` (counted from 1) of a list field."""


def first_problem(messages: Any, path: tuple[str, ...] = ()) -> tuple[tuple[str, ...], str]:
    """The path to the first problem in marshmallow-style messages, and the problem."""
    if isinstance(messages, Mapping):
        key, value = next(iter(messages.items()))
        return first_problem(value, path if key == "_schema" else (*path, str(key)))
    if isinstance(messages, list | tuple) and messages:
        return first_problem(messages[0], path)
    return path, messages if isinstance(messages, str) else str(messages)


def field_label(path: tuple[str, ...]) -> Message:
    """``("hands", "1", "total")`` as "the total of hand 2"."""
    parts: list[Message] = []
    if path[:1] == ("query",) and len(path) == 2 and path[1] in QUERY_WORDS:
        return Message(QUERY_WORDS[path[1]])
    if len(path) == 1 and path[0] in NAMED_AS_SENT:
        return Message('the field "{name}"', name=path[0])
    for previous, step in zip(("", *path), path, strict=False):
        if step.isdigit() and parts:
            if previous in ITEM_WORDS:
                parts[-1] = Message(ITEM_WORDS[previous], n=int(step) + 1)
            else:
                parts[-1] = Message("item {n} of {whole}", n=int(step) + 1, whole=parts[-1])
        elif step != "query":
            parts.append(field_words(step))
    if not parts:
        return Message("the body")
    label = parts[0]
    for part in parts[1:]:
        label = Message("{part} of {whole}", part=part, whole=label)
    return label


def field_words(name: str) -> Message:
    """How a message names the field ``name`` of a request."""
    if name in FIELD_WORDS:
        return Message(FIELD_WORDS[name])
    return Message('the field "{name}"', name=name)


PLURAL_FIELDS = frozenset({"hands", "cards", "options", "rounds", "games", "add_players"})
"""Fields a message names in the plural ("the hands"): their problems say "are", not "is"."""
PLURAL_PROBLEMS = {"Is missing.": "Are missing.", "Is not allowed.": "Are not allowed."}

UNKNOWN_FIELD = "Is unknown; leave it out."
"""The problem of a field a request does not take (named as sent, not in words)."""


def validation_message(messages: Any) -> Message:
    """One sentence for a validation failure: the field, then what is wrong with it."""
    path, problem = first_problem(messages)
    label = field_label(path)
    if path and path[-1] in PLURAL_FIELDS:
        problem = PLURAL_PROBLEMS.get(problem, problem)
    if problem == UNKNOWN_FIELD:
        label = Message('the field "{name}"', name=path[-1])
        if path[:-1]:
            label = Message("{part} of {whole}", part=label, whole=field_label(path[:-1]))
    problem = problem if isinstance(problem, Message) else Message(problem)
    sentence = f"{label} {problem[:1].lower()}{problem[1:]}"
    return Message.composed(
        sentence[:1].upper() + sentence[1:],
        "{field} {problem}",
        {"field": label, "problem": problem},
        lowered=("problem",),
        capitalised=True,
    )


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
        message = Message("The request body is larger than {size}.", size=size)
    if status == 405 and error.valid_methods:  # type: ignore[attr-defined]
        headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
    if status == 429 and (limit := getattr(error, "limit", None)) is not None:
        message = Message(
            "Too many requests: the limit is {limit}; wait a moment.",
            limit=describe_limit(limit.limit),
        )
    response = error_response(status, code, message, details, headers)
    if status == 429 and (retry_after := getattr(error, "retry_after", None)):
        response.headers["Retry-After"] = str(retry_after)
    return response


def describe_limit(limit: Any) -> Message:
    """A rate limit (``limits``' item) in words: "120 requests a minute"."""
    amount, period, multiples = limit.amount, limit.GRANULARITY.name, limit.multiples
    requests = count_of(amount, "request")
    every = (
        Message(f"a {period}")
        if multiples == 1
        else Message.counted(multiples, f"every {{count}} {period}", f"every {{count}} {period}s")
    )
    return Message("{requests} {every}", requests=requests, every=every)


def database_unreachable(error: DBAPIError) -> bool:
    """Whether ``error`` is the database server not answering, rather than a statement failing.

    SQLAlchemy marks a connection that broke during a statement ``connection_invalidated``
    (and discards it); psycopg raises a connection failure without an SQLSTATE, or with one of
    class 08 or 57P0x. SQLite's errors (such as "database is locked") are none of these.
    """
    if error.connection_invalidated:
        return True
    original = error.orig
    if not isinstance(original, PostgresOperationalError):
        return False
    state = original.sqlstate
    return state is None or state.startswith("08") or state in POSTGRES_UNREACHABLE_STATES


def register_errorhandlers(app: Flask) -> None:
    """Answer every error with the one JSON body."""

    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> Response:
        return error_response(error.status, error.code, error.message, error.details, error.headers)

    @app.errorhandler(domain.DomainError)
    def domain_error(error: domain.DomainError) -> Response:
        status, code = DOMAIN_ERRORS[type(error)]
        headers = {"Retry-After": RETRY_AFTER[type(error)]} if type(error) in RETRY_AFTER else {}
        return error_response(status, code, error.message, error.details, headers)

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

    @app.errorhandler(DBAPIError)
    def database_error(error: DBAPIError) -> Response:
        if not database_unreachable(error):
            return unexpected(error)
        reason = (str(error.orig).strip().splitlines() or [""])[0]
        app.logger.warning(
            "The database is not answering (%s: %s); answered 503",
            type(error.orig).__name__,
            reason,
        )
        code, message = HTTP_CODES[503]
        return error_response(503, code, message, headers={"Retry-After": DATABASE_RETRY_AFTER})

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        app.logger.exception("Unhandled error", exc_info=error)
        code, message = HTTP_CODES[500]
        return error_response(500, code, message)
