"""Production gunicorn settings (``--config python:scorekeeper.gunicorn_config``)."""

from __future__ import annotations

from typing import Any

from gunicorn import util

from scorekeeper.errors import raw_error_response
from scorekeeper.settings import check_shared_rate_limits

timeout = 30
graceful_timeout = 30
keepalive = 5
max_requests = 10_000
max_requests_jitter = 500
# Import the app once in the master, so that a recycled worker starts at once; new code then
# needs a restart of the master, not a HUP.
preload_app = True
# No access log: the app writes one structured line per request itself (scorekeeper/logs.py).
accesslog = None
# No control socket: gunicorn's default is one file per user, which a second server replaces.
control_socket_disable = True


def write_error_as_json(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """Answer what gunicorn refuses by itself (a bad header, headers too large) in the one body."""
    util.write_nonblock(sock, raw_error_response(status_int, reason))  # not gunicorn's words


# gunicorn has no setting for the body of the errors it answers before the app sees the request
# (HTML otherwise); its workers call util.write_error by attribute, so replacing it here, in the
# master that forks them, reaches every worker.
util.write_error = write_error_as_json


def on_starting(server: Any) -> None:
    """Refuse several workers whose rate-limit counters would each count apart; never recycle a
    lone worker."""
    check_shared_rate_limits(server.app.wsgi().config, server.cfg.workers)
    if server.cfg.workers == 1:
        # Recycling the only worker stops the service while a new one starts, and forgets the
        # rate-limit counters it keeps in memory: max_requests is for several workers only.
        server.cfg.set("max_requests", 0)


def post_fork(server: Any, worker: Any) -> None:
    """Let no worker use a database connection inherited from the master."""
    application = server.app.wsgi()
    if "sqlalchemy" in getattr(application, "extensions", {}):
        from scorekeeper.extensions import db

        with application.app_context():
            db.engine.dispose(close=False)
