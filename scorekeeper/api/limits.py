"""Rate limits: what each kind of write may spend, counted per game or per client address.

Reads are never limited. A request that carries the token of what it changes
spends its game's round writes and is never refused for other requests'
wrong tokens; any other request to an endpoint that takes a token spends,
when it is refused, its client address's count of refused tokens.
``X-RateLimit-*`` headers describe the limit the request spent (Flask-Limiter's
own headers would show the tightest limit that applies, whether spent or not).
"""

from __future__ import annotations

import logging
import time

from flask import Flask, Response, current_app, g, request
from sqlalchemy.exc import DBAPIError

from ..domain import games, tables
from ..extensions import db, limiter
from ..logs import route_into_the_log
from .auth import presented_token

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
TOKEN_FAILURES = "token-failures"


def game_key() -> str:
    """Round writes count per game, whichever of its tokens (the game's, its table's) opened it."""
    return str((request.view_args or {}).get("game_id", ""))


def carries_the_right_token() -> bool:
    """Whether the request's token opens the game or table it would change.

    Read once per request (both limits ask), before the view and without a lock.
    A database that does not answer makes it a no: the view then answers 503.
    """
    if "carries_the_right_token" not in g:
        g.carries_the_right_token = _token_opens_target()
    return bool(g.carries_the_right_token)


def _token_opens_target() -> bool:
    """Whether the presented token opens the game or table named in the path."""
    token = presented_token()
    arguments = request.view_args or {}
    if token is None:
        return False
    try:
        if "game_id" in arguments:
            return games.token_opens_game(arguments["game_id"], token)
        if "table_id" in arguments:
            return tables.token_opens_table(arguments["table_id"], token)
    except DBAPIError:  # not the counters' store failing: Flask-Limiter must not think it is
        db.session.rollback()
    return False


def refused_for_token(response: Response) -> bool:
    """Whether the request was refused for a missing or wrong token."""
    return response.status_code in (401, 403)


round_writes = limiter.shared_limit(
    lambda: current_app.config["ROUND_WRITE_LIMIT"],
    scope="round-writes",
    key_func=game_key,
    exempt_when=lambda: not carries_the_right_token(),
)
token_failures = limiter.shared_limit(
    lambda: current_app.config["TOKEN_FAILURE_LIMIT"],
    scope=TOKEN_FAILURES,
    deduct_when=refused_for_token,
    exempt_when=carries_the_right_token,
)
# Creating and importing both make a game: one count per client address for the two.
game_creations = limiter.shared_limit(
    lambda: current_app.config["GAME_CREATE_LIMIT"], scope="game-creations"
)


@limiter.request_filter
def reads_are_not_limited() -> bool:
    """No limit applies to reads: the phones watching a table poll with GETs."""
    return request.method in SAFE_METHODS


def rate_limit_headers(response: Response) -> Response:
    """Describe the limit this request spent, and say when to retry after a 429."""
    limits = limiter.current_limits
    refused = refused_for_token(response)
    # A limit's scope is the last of the arguments it is counted by.
    spent = [limit for limit in limits if (limit.request_args[-1] == TOKEN_FAILURES) == refused]
    shown = [limit for limit in limits if limit.breached] or spent
    if not shown:
        return response
    limit = shown[0]
    response.headers["X-RateLimit-Limit"] = str(limit.limit.amount)
    response.headers["X-RateLimit-Remaining"] = str(limit.remaining)
    response.headers["X-RateLimit-Reset"] = str(limit.reset_at)
    if response.status_code == 429:
        response.headers["Retry-After"] = str(max(1, limit.reset_at - int(time.time())))
    return response


def a_request_over_its_limit(record: logging.LogRecord) -> bool:
    """Whether a Flask-Limiter record is its line for a request over a limit.

    That request's own line already says ``429``, and this one would name the count's key.
    """
    return isinstance(record.msg, str) and record.msg.startswith("ratelimit ")


def register_rate_limits(app: Flask) -> None:
    """Count the app's writes; the headers' hook first, so that it runs after the counting."""
    app.after_request(rate_limit_headers)
    limiter.init_app(app)
    # Flask-Limiter says when the shared counters' store goes and comes back on a logger whose
    # only handler discards: those lines go into the app's JSON log.
    route_into_the_log("flask-limiter", "rate_limits", leave_out=a_request_over_its_limit)
