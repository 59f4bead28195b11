"""Production gunicorn settings (``--config python:scorekeeper.gunicorn_config``)."""

from __future__ import annotations

import gc
from typing import Any

from gunicorn import util

from scorekeeper.errors import raw_error_response
from scorekeeper.settings import check_shared_rate_limits

timeout = 30
graceful_timeout = 30
keepalive = 5
max_requests = 10_000
max_requests_jitter = 500
# Import the app once in the master: a worker recycled by max_requests then starts at once
# instead of spending a second of CPU on imports while the others serve (p99 of a GET under
# load: up to 1.2 s without, 13-23 ms with; bench/README.md). Code changes then need a
# restart of the master, not a HUP.
preload_app = True
# No access log: the app writes one structured line per request itself (scorekeeper/logs.py).
accesslog = None
# No control socket: gunicorn's default is one file per user, which a second server replaces.
control_socket_disable = True


def write_error_as_json(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """Answer what gunicorn refuses by itself (a bad header, headers too large) in the one body."""
    util.write_nonblock(sock, raw_error_response(status_int, reason))  # not gunicorn's words


# gunicorn has no setting for the body of the errors it answers before the app (HTML
# otherwise); its workers call util.write_error by attribute, so replacing it here, in the
# master that forks them, reaches every worker.
util.write_error = write_error_as_json


def on_starting(server: Any) -> None:
    """Refuse several workers whose rate-limit counters would each count apart."""
    app = server.app.wsgi()
    if server.cfg.workers > 1:
        check_shared_rate_limits(app.config, server.cfg.workers)


def post_fork(server: Any, worker: Any) -> None:
    """Let no worker use a database connection inherited from the master (it opens none)."""
    application = server.app.wsgi()
    if "sqlalchemy" in getattr(application, "extensions", {}):
        from scorekeeper.extensions import db

        with application.app_context():
            db.engine.dispose(close=False)


def pre_fork(server: Any, worker: Any) -> None:
    """Hide what the master has loaded from the workers' cyclic garbage collector.

    A worker starts with the master's ~100,000 objects (modules, the app, its
    schemas and statements), which live as long as it does. Unfrozen, every
    full collection in a worker walks them all: a 60-130 ms stall, which, when
    it hits the worker holding SQLite's writer queue, holds up every POST
    (p99 of (c) 79-111 ms against 28 ms frozen, bench/README.md). Frozen, they
    are never collected, and the collector no longer writes to the pages the
    worker shares with the master.
    """
    gc.freeze()
