"""Live updates: a game or a table as Server-Sent Events, sent again after every change.

The stream starts with the resource as ``GET`` answers it (unless
``Last-Event-ID`` already names its version), then waits for what the change
feed hands it: the resource read again after a change (once for all the
streams that follow it), or ``event: deleted``, after which the stream ends.
While nothing changes it sends a comment now and then, so that proxies and
phones keep the connection. Between changes a stream holds no database
connection and does no work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from flask import Flask, Response, current_app, request

from ..changes import ENDED, Key, Kind, Update, change_feed
from ..domain import games, tables
from ..domain.errors import GameNotFound, TableNotFound
from ..extensions import db
from .table_views import table_answer
from .views import blp, game_answer

RETRY_MILLISECONDS = 3_000
"""How long a phone waits before it connects again after the stream ends."""
KEEP_ALIVE_SECONDS = 14.0
"""A comment at least this often while nothing changes (api.md promises every 15 s)."""
EVENT_STREAM = {
    "200": {
        "description": "Server-Sent Events: `retry: 3000`, then an event with the resource "
        "(`event: game` or `event: table`, `id`: its version, the ETag without quotes, `data`: "
        "the JSON that GET answers) now and after every change, `: keep-alive` comments "
        "while nothing changes, and `event: deleted` (`data: {}`) when it is deleted, which "
        "ends the stream.",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    }
}
LAST_EVENT_ID = {
    "in": "header",
    "name": "Last-Event-ID",
    "required": False,
    "schema": {"type": "string", "maxLength": 20},
    "description": "The `id` of the last event the phone received: when it is the current "
    "version, the stream sends nothing until the next change.",
}


VERSIONS: dict[Kind, Callable[[str], int]] = {
    "game": games.game_version,
    "table": tables.table_version,
}
READS: dict[Kind, Callable[[str], tuple[dict[str, Any], int]]] = {
    "game": game_answer,
    "table": table_answer,
}
DELETED = b"event: deleted\ndata: {}\n\n"


def register_events(app: Flask) -> None:
    """Let ``app``'s change feed read games and tables for their streams."""
    change_feed(app).refresh = partial(refresh, app)


@blp.route("/games/<gameid:game_id>/events", methods=["GET"])
@blp.doc(parameters=[LAST_EVENT_ID], responses=EVENT_STREAM)
def game_events(game_id: str) -> Response:
    """Follow a game: the Game now and after every change, as Server-Sent Events."""
    return event_stream("game", game_id)


@blp.route("/tables/<tableid:table_id>/events", methods=["GET"])
@blp.doc(parameters=[LAST_EVENT_ID], responses=EVENT_STREAM)
def table_events(table_id: str) -> Response:
    """Follow a table: the Table now and after every change, as Server-Sent Events."""
    return event_stream("table", table_id)


def event_stream(kind: Kind, row_id: str) -> Response:
    """The stream of ``kind`` ``row_id``; an unknown id is the usual 404, before it begins."""
    current = VERSIONS[kind](row_id)  # GameNotFound or TableNotFound: the error body, no stream
    feed = change_feed(current_app)
    # In the feed before the first read, so that a change committed meanwhile is not missed.
    subscription = feed.subscribe((kind, row_id), current)
    try:
        first = None
        if request.headers.get("Last-Event-ID") != str(current):
            body, current = READS[kind](row_id)
            subscription.version = current
            first = event(kind, body, current)
    except BaseException:
        feed.unsubscribe(subscription)
        raise
    finally:
        db.session.remove()  # no connection held while the stream waits
    if request.method == "HEAD":
        feed.unsubscribe(subscription)
        return stream_response(iter(()))

    def events() -> Iterator[bytes]:
        sent = current
        try:
            yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
            if first is not None:
                yield first
            while True:
                handed = subscription.next_message(KEEP_ALIVE_SECONDS)
                if handed is None:
                    yield b": keep-alive\n\n"
                    continue
                message, version = handed
                if message == ENDED:
                    return
                if version != sent:
                    yield message
                if version is None:  # deleted
                    return
                sent = version
        finally:
            feed.unsubscribe(subscription)

    return stream_response(events())


def refresh(app: Flask, key: Key, held: set[int]) -> Update | None:
    """``key`` read for the streams that follow it, who hold ``held``: ``None`` if unchanged."""
    kind, row_id = key
    with app.app_context():
        try:
            version = VERSIONS[kind](row_id)
            if held == {version}:
                return None
            body, version = READS[kind](row_id)
            return Update(version, event(kind, body, version))
        except (GameNotFound, TableNotFound):
            return Update(None, DELETED)
        finally:
            db.session.remove()


def stream_response(events: Iterator[bytes]) -> Response:
    """The response that carries ``events``: never cached, never buffered by a proxy."""
    response = Response(events, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


def event(kind: Kind, body: dict[str, Any], version: int) -> bytes:
    """One event: the resource as ``GET`` answers it, on one line, with its version as id."""
    data = current_app.json.dumps(body, separators=(",", ":"))
    return f"event: {kind}\nid: {version}\ndata: {data}\n\n".encode()
