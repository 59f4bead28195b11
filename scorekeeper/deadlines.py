"""A request's body must arrive within ``BODY_SECONDS`` of its head, however slowly it trickles.

gunicorn reads each request's head within its ``keepalive`` seconds (see
``gunicorn_config``), but leaves the body to the app, read from the socket as
the app asks for it, with no time limit. ``BodyDeadline`` stops reading from
the socket of a request whose body is still coming when its time is over: the
app reads the end of a short body (``400``, as for a body shorter than its
``Content-Length``), and gunicorn, finding the socket's end where the rest of the
body should be, closes the connection after the answer.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterable
from typing import Any

BODY_SECONDS = 10.0

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class Cutoff:
    """Ends the reading side of a request's socket when called (its time is over)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def __call__(self) -> None:
        with contextlib.suppress(OSError):  # the client hung up already
            self.sock.shutdown(socket.SHUT_RD)  # a read waiting for more now finds the end


def has_body(environ: dict[str, Any]) -> bool:
    """Whether the request announces a body."""
    return environ.get("CONTENT_LENGTH", "") not in ("", "0") or "HTTP_TRANSFER_ENCODING" in environ


class BodyDeadline:
    """WSGI middleware: the body of each request served by gunicorn has ``seconds`` to arrive."""

    def __init__(self, app: WsgiApp, seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.seconds = seconds

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        sock = environ.get("gunicorn.socket")
        if sock is None or not has_body(environ):  # not served by gunicorn, or nothing to wait for
            return self.app(environ, start_response)
        cutoff = Cutoff(sock)
        timer = threading.Timer(self.seconds, cutoff)
        timer.start()
        try:
            return self.app(environ, start_response)  # the body is read by now, if at all
        finally:
            timer.cancel()
