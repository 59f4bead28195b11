"""``X-RateLimit-*`` headers that describe the limit a request spends.

Flask-Limiter's own headers describe the tightest limit that applies, which
for a round write is the refused-token limit (30 a minute) although only a
refused token spends it. Here a request refused for its token shows the
refused-token limit, and any other the limit its kind of write spends.
"""

from __future__ import annotations

import time

from flask import Flask, Response

from ..extensions import limiter

TOKEN_FAILURES = "token-failures"


def rate_limit_headers(response: Response) -> Response:
    """Describe the limit this request spent, and say when to retry after a 429."""
    limits = limiter.current_limits
    refused_for_token = response.status_code in (401, 403)
    # A limit's scope is the last of the arguments it is counted by.
    spent = [
        limit for limit in limits if (limit.request_args[-1] == TOKEN_FAILURES) == refused_for_token
    ]
    breached = [limit for limit in limits if limit.breached]
    if not (breached or spent):
        return response
    shown = (breached or spent)[0]
    response.headers["X-RateLimit-Limit"] = str(shown.limit.amount)
    response.headers["X-RateLimit-Remaining"] = str(shown.remaining)
    response.headers["X-RateLimit-Reset"] = str(shown.reset_at)
    if response.status_code == 429:
        response.headers["Retry-After"] = str(max(1, shown.reset_at - int(time.time())))
    return response


def register_rate_limit_headers(app: Flask) -> None:
    """Add the headers to every answer; call before ``limiter.init_app``, to follow its count."""
    app.after_request(rate_limit_headers)
