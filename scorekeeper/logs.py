"""Structured request logs: one JSON line per request.

Each line has the method, the path, the status and the duration, and nothing
that could hold a secret: no headers (the token travels in
``Authorization``), no query string, no body. The path is JSON-escaped, so a
crafted URL cannot forge or split log lines. For example::

    {"ts": "2026-11-30T20:41:07.123Z", "event": "request", "method": "POST",
     "path": "/api/v1/games/q7RkZ2x0Tb6hJpWm9aLc1A/rounds", "status": 201, "duration_ms": 8.4}

(on one line). ``SCOREKEEPER_REQUEST_LOG=off`` turns them off.

What a library the app uses says of itself (Flask-Limiter: its counters' store
went away, or came back) is a line of the same log, with an event of its own
and the library's sentence::

    {"ts": "...", "event": "rate_limits", "level": "warning",
     "message": "Rate limit storage unreachable - falling back to in-memory storage"}
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TextIO

from flask import Flask, Response, g, request

from .settings import is_on

LOGGER_NAME = "scorekeeper.requests"
MAX_PATH_LENGTH = 200

logger = logging.getLogger(LOGGER_NAME)


class _StdoutHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stdout`` is at the time (gunicorn's, or a test runner's capture)."""

    def __init__(self) -> None:
        super().__init__(sys.stdout)

    @property
    def stream(self) -> Any:
        return sys.stdout

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def _configure_logger() -> None:
    """One handler printing the bare message, once per process."""
    if not any(isinstance(handler, _StdoutHandler) for handler in logger.handlers):
        handler = _StdoutHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def timestamp_now() -> str:
    """The current UTC time to the millisecond, as ``2026-11-30T20:41:07.123Z``."""
    moment = datetime.fromtimestamp(time.time(), UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def request_line(method: str, path: str, status: int, duration_ms: float) -> str:
    """The log line of one request, as JSON (which escapes what the client chose)."""
    if len(path) > MAX_PATH_LENGTH:
        path = path[:MAX_PATH_LENGTH] + "..."
    line = {
        "ts": timestamp_now(),
        "event": "request",
        "method": method,
        "path": path,
        "status": int(status),
        "duration_ms": round(duration_ms, 1),
    }
    return json.dumps(line, ensure_ascii=False)


def event_line(event: str, level: str, message: str) -> str:
    """A line of the log that is not a request's: what happened, how grave, in a sentence."""
    line = {"ts": timestamp_now(), "event": event, "level": level, "message": message}
    return json.dumps(line, ensure_ascii=False)


class _IntoTheLog(logging.Handler):
    """Writes a library's records into this log, each one line of its own ``event``."""

    def __init__(self, event: str, leave_out: Callable[[logging.LogRecord], bool]) -> None:
        super().__init__()
        self.event = event
        self.leave_out = leave_out

    def emit(self, record: logging.LogRecord) -> None:
        if not self.leave_out(record):
            level = record.levelname.lower()
            logger.log(record.levelno, event_line(self.event, level, record.getMessage()))


def route_into_the_log(
    name: str, event: str, leave_out: Callable[[logging.LogRecord], bool]
) -> None:
    """Write what the logger ``name`` says at INFO or above into this log, as ``event``, but the
    records ``leave_out`` picks; once per process."""
    _configure_logger()
    library = logging.getLogger(name)
    library.setLevel(logging.INFO)
    if not any(isinstance(handler, _IntoTheLog) for handler in library.handlers):
        library.addHandler(_IntoTheLog(event, leave_out))


def register_request_log(app: Flask) -> None:
    """Log every request of ``app`` as one line, unless ``REQUEST_LOG`` is off."""
    app.config.setdefault("REQUEST_LOG", "on")
    if not is_on(app.config, "REQUEST_LOG"):
        return
    _configure_logger()

    @app.before_request
    def start_clock() -> None:
        g.request_started = time.perf_counter()

    @app.after_request
    def log_request(response: Response) -> Response:
        started = g.get("request_started")
        duration = (time.perf_counter() - started) * 1000 if started is not None else 0.0
        logger.info(request_line(request.method, request.path, response.status_code, duration))
        return response
