"""Structured request logs: one JSON line per request.

Each line has the method, the path, the status and the duration, and nothing
that could hold a secret: no headers (the token travels in
``Authorization``), no query string, no body. The path is JSON-escaped, so a
crafted URL cannot forge or split log lines. For example::

    {"ts": "2026-11-30T20:41:07.123Z", "event": "request", "method": "POST",
     "path": "/api/v1/games/q7RkZ2x0Tb6hJpWm9aLc1A/rounds", "status": 201, "duration_ms": 8.4}

(on one line). ``SCOREKEEPER_REQUEST_LOG=off`` turns them off.
"""

from __future__ import annotations

import functools
import json
import logging
import sys
import time
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


def _write(line: str) -> None:
    """Log ``line``; straight to stdout while the logger has only its own handler.

    A ``LogRecord`` (thread, process, time and level lookups, the handler's lock
    and formatter) costs a GET about a sixth of its CPU; the record is made only
    when another handler or a filter may want it.
    """
    handlers = logger.handlers
    if (
        len(handlers) == 1
        and isinstance(handlers[0], _StdoutHandler)
        and not (logger.filters or handlers[0].filters)
    ):
        if handlers[0].level <= logging.INFO:  # what the handler would write, and flush
            sys.stdout.write(line + "\n")
            sys.stdout.flush()  # one whole line per write: workers share the stream
        return
    logger.handle(logger.makeRecord(LOGGER_NAME, logging.INFO, __file__, 0, line, (), None))


def _configure_logger() -> None:
    """One handler printing the bare message, once per process."""
    if not any(isinstance(handler, _StdoutHandler) for handler in logger.handlers):
        handler = _StdoutHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


@functools.lru_cache(maxsize=1)
def _utc_second(second: int) -> str:
    """A Unix time in whole seconds as ``2026-11-30T20:41:07`` (made once a second)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))


def timestamp_now() -> str:
    """The current UTC time to the millisecond, as ``2026-11-30T20:41:07.123Z``."""
    now = time.time()
    second = int(now)
    return f"{_utc_second(second)}.{int((now - second) * 1000):03d}Z"


def request_line(method: str, path: str, status: int, duration_ms: float) -> str:
    """The log line of one request.

    Put together as text (a line is written per request, so its cost counts);
    ``json.dumps`` escapes the two values a client chooses.
    """
    if len(path) > MAX_PATH_LENGTH:
        path = path[:MAX_PATH_LENGTH] + "..."
    return (
        f'{{"ts": "{timestamp_now()}", "event": "request", "method": {json.dumps(method)}, '
        f'"path": {json.dumps(path)}, "status": {int(status)}, '
        f'"duration_ms": {round(duration_ms, 1)}}}'
    )


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
        if logger.isEnabledFor(logging.INFO):
            _write(request_line(request.method, request.path, response.status_code, duration))
        return response
