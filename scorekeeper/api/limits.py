"""Rate limits: what each kind of write may spend, counted per game or per client address.

Reads are never limited. ``X-RateLimit-*`` headers describe the limit the
request spent: a request refused for its token spends the refused-token
limit, any other the limit of its kind of write (Flask-Limiter's own headers
would show the tightest limit that applies, whether spent or not).
"""

from __future__ import annotations

import hashlib
import logging
import time

from flask import Flask, Response, current_app, request
from flask.logging import default_handler

from ..extensions import limiter

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
TOKEN_FAILURES = "token-failures"


def game_key() -> str:
    """Round writes count per game and presented token (hashed, never kept as it is).

    The table's phones share the game's token, so they share one count; a request
    without it, however malformed, spends only a count of its own.
    """
    game_id = (request.view_args or {}).get("game_id", "")
    presented = hashlib.sha256(request.headers.get("Authorization", "").encode()).hexdigest()
    return f"{game_id}:{presented[:32]}"


def refused_for_token(response: Response) -> bool:
    """Whether the request was refused for a missing or wrong token."""
    return response.status_code in (401, 403)


round_writes = limiter.shared_limit(
    lambda: current_app.config["ROUND_WRITE_LIMIT"], scope="round-writes", key_func=game_key
)
token_failures = limiter.shared_limit(
    lambda: current_app.config["TOKEN_FAILURE_LIMIT"],
    scope=TOKEN_FAILURES,
    deduct_when=refused_for_token,
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


def register_rate_limits(app: Flask) -> None:
    """Count the app's writes; the headers' hook first, so that it runs after the counting."""
    app.after_request(rate_limit_headers)
    limiter.init_app(app)
    # Flask-Limiter says when the shared counters' store goes and comes back on a logger whose
    # only handler discards: the app's own handler writes it beside the app's warnings.
    limiter_log = logging.getLogger("flask-limiter")
    limiter_log.setLevel(logging.INFO)
    if default_handler not in limiter_log.handlers:
        limiter_log.addHandler(default_handler)
