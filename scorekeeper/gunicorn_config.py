"""Production gunicorn settings (``--config python:scorekeeper.gunicorn_config``).

Each worker serves all its connections on one gevent loop: a phone's open event
stream, an idle keep-alive connection or a client that sends its request slowly
is a greenlet waiting, not a thread (bench/README.md, "Serving model").
"""

from __future__ import annotations

import gc
import resource
import threading
import time
from typing import Any

from flask import Config
from gunicorn import util

from scorekeeper import PROJECT_ROOT
from scorekeeper.app import read_settings
from scorekeeper.settings import check_shared_rate_limits

worker_class = "gevent"
timeout = 30
graceful_timeout = 30
# How long a connection may wait for a request's head, the first one included (the gevent
# worker reads each head within keepalive seconds or closes the connection); a body has
# BODY_SECONDS of its own (scorekeeper/deadlines.py).
keepalive = 5
# Every phone watching a game keeps its connections open (its event stream, and one for its
# reads): a hall of tables is thousands of them. Past this many a worker accepts no more.
worker_connections = 10_000
FILES_BESIDE_CONNECTIONS = 256  # a worker's database connections, log, sockets and modules
# Workers are never recycled after a number of requests: a worker that stops ends every event
# stream it holds, and their phones all connect again at once to the other workers
# (bench/README.md, "Capacity"); the only worker's restart stops the service.
max_requests = 0
# Each worker imports the app itself, after gevent has made the standard library cooperative:
# what is imported before (in the master, so also this file's imports) keeps waits that block
# the whole worker (psycopg picks how it waits for the database as it is imported). A HUP
# starts workers on the code as it is then.
preload_app = False
STOPPING_CHECK_SECONDS = 0.5
# No access log: the app writes one structured line per request itself (scorekeeper/logs.py).
accesslog = None
# No control socket: gunicorn's default is one file per user, which a second server replaces.
control_socket_disable = True


def write_error_as_json(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """Answer what gunicorn refuses by itself (a bad header, headers too large) in the one body."""
    from scorekeeper.errors import raw_error_response  # in the worker: see "preload_app" above

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
    """Refuse several workers whose rate-limit counters would each count apart; allow a worker
    its connections' files."""
    # The settings as the app will read them, without importing the app in the master.
    check_shared_rate_limits(read_settings(Config(PROJECT_ROOT)), server.cfg.workers)
    # Many systems start a process with 1,024 open files at most; each connection is one.
    wanted = server.cfg.worker_connections + FILES_BESIDE_CONNECTIONS
    if not allow_open_files(wanted):
        server.log.warning(
            "This system lets a worker open fewer than %s files: it holds fewer phones' "
            "connections than worker_connections (%s); raise the hard limit (ulimit -Hn).",
            wanted,
            server.cfg.worker_connections,
        )


def post_worker_init(worker: Any) -> None:
    """Keep the collector off the app's own objects; let this worker's event streams hear of
    what other workers commit, and end them all when the worker is told to stop."""
    # The app is a great many objects that live as long as the worker: scanning them all in a
    # full collection stops the worker for a while (bench/README.md, "Capacity"). Frozen, they
    # are never scanned (Python's gc.freeze()).
    gc.freeze()
    application = worker.wsgi
    if "sqlalchemy" not in getattr(application, "extensions", {}):
        return
    from scorekeeper.changes import SqliteWatcher, change_feed
    from scorekeeper.extensions import db

    feed = change_feed(application)
    with application.app_context():
        engine = db.engine
    if engine.dialect.name == "sqlite" and worker.cfg.workers > 1:
        feed.hear_others = lambda feed: SqliteWatcher(feed, engine).start()
    # A stream would hold a stopping worker until graceful_timeout: it ends, and its phone
    # connects again (to another worker) after the stream's retry.
    threading.Thread(target=_end_streams_when_stopping, args=(worker, feed), daemon=True).start()


def _end_streams_when_stopping(worker: Any, feed: Any) -> None:
    """Wait until ``worker`` stops serving, then end its event streams."""
    while worker.alive:
        time.sleep(STOPPING_CHECK_SECONDS)
    feed.close()
