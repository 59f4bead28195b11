"""Production gunicorn settings (``--config python:scorekeeper.gunicorn_config``)."""

from __future__ import annotations

import gc
import resource
from typing import Any

from gunicorn import util

from scorekeeper.errors import raw_error_response
from scorekeeper.settings import check_shared_rate_limits

timeout = 30
graceful_timeout = 30
keepalive = 5
# Every phone watching a game keeps its connection open (it polls every 3 s, within keepalive):
# a hall of tables is thousands of them. At gthread's default of 1,000 a worker, the rest would
# wait to be accepted and every answer past that would close its connection.
worker_connections = 10_000
FILES_BESIDE_CONNECTIONS = 256  # a worker's database connections, log, sockets and modules
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


def allow_open_files(wanted: int) -> bool:
    """Raise this process's soft limit of open files to ``wanted``, within the hard limit (the
    workers it forks inherit it); whether ``wanted`` is now allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return True
    raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
    except (ValueError, OSError):  # a system cap below the hard limit (macOS's OPEN_MAX)
        return False
    return raised >= wanted


def on_starting(server: Any) -> None:
    """Refuse several workers whose rate-limit counters would each count apart; never recycle a
    lone worker; allow a worker its connections' files."""
    check_shared_rate_limits(server.app.wsgi().config, server.cfg.workers)
    # Many systems start a process with 1,024 open files at most; each connection is one.
    wanted = server.cfg.worker_connections + FILES_BESIDE_CONNECTIONS
    if not allow_open_files(wanted):
        server.log.warning(
            "This system lets a worker open fewer than %s files: it holds fewer phones' "
            "connections than worker_connections (%s); raise the hard limit (ulimit -Hn).",
            wanted,
            server.cfg.worker_connections,
        )
    if server.cfg.workers == 1:
        # Recycling the only worker stops the service while a new one starts, and forgets the
        # rate-limit counters it keeps in memory: max_requests is for several workers only.
        server.cfg.set("max_requests", 0)


def pre_fork(server: Any, worker: Any) -> None:
    """Keep the garbage collector of the worker about to be forked off the app's own objects."""
    # The preloaded app is a great many objects that live as long as the process: scanning them
    # all in a worker's full collection stops every thread of it (bench/README.md, "Capacity").
    # Frozen, they are never scanned (Python's advice for a parent that forks: gc.freeze()).
    gc.freeze()


def post_fork(server: Any, worker: Any) -> None:
    """Let no worker use a database connection inherited from the master."""
    application = server.app.wsgi()
    if "sqlalchemy" in getattr(application, "extensions", {}):
        from scorekeeper.extensions import db

        with application.app_context():
            db.engine.dispose(close=False)
