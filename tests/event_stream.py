"""A phone's end of a Server-Sent Events stream, for the tests that run real servers.

``EventStream`` opens ``GET .../events`` and reads it in a thread of its own;
each frame (an event, a comment or the ``retry`` field) lands in a queue with
the moment it arrived, for a test to take with ``next_frame``.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Frame:
    """One block of the stream, up to its blank line."""

    fields: dict[str, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    arrived: float = 0.0

    @property
    def event(self) -> str | None:
        """The event's name (``None`` for a block of comments or ``retry`` only)."""
        return self.fields.get("event")

    @property
    def json(self) -> Any:
        """The event's data, read as JSON."""
        return json.loads(self.fields["data"])


END = Frame(fields={"end": ""})
"""Put in the queue when the server ends the stream."""


def frames_of(text: str) -> tuple[list[Frame], str]:
    """The complete frames in ``text``, and what is left of it (a frame not yet ended)."""
    frames: list[Frame] = []
    while "\n\n" in text:
        block, text = text.split("\n\n", 1)
        frame = Frame(arrived=time.monotonic())
        for line in block.split("\n"):
            if line.startswith(":"):
                frame.comments.append(line[1:].strip())
            else:
                name, _, value = line.partition(":")
                frame.fields[name] = value.removeprefix(" ")
        frames.append(frame)
    return frames, text


class EventStream:
    """An open stream of events from ``url`` (``headers`` sent with the request).

    Spoken over a socket of its own, so that ``close`` hangs up at once, whatever the reader
    thread is waiting for.
    """

    def __init__(self, url: str, headers: dict[str, str] | None = None, timeout: float = 10):
        parts = urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        lines = [f"GET {parts.path} HTTP/1.1", f"Host: {parts.netloc}", "Accept: text/event-stream"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.reader = self.sock.makefile("rb")
        status_line = self.reader.readline().decode("latin-1")
        self.status = int(status_line.split()[1])
        self.headers: dict[str, str] = {}
        while (line := self.reader.readline().decode("latin-1").strip()) != "":
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.body = b""
        self.frames: queue.Queue[Frame] = queue.Queue()
        self.ended = threading.Event()
        if self.status == 200 and self.headers.get("transfer-encoding") == "chunked":
            self.sock.settimeout(None)  # an idle stream is quiet for seconds at a time
            threading.Thread(target=self._read, daemon=True).start()
        else:
            self.body = self.reader.read(int(self.headers.get("content-length", "0")))

    def json(self) -> Any:
        """The body of an answer that is not a stream, read as JSON."""
        return json.loads(self.body)

    def _chunks(self) -> Iterator[bytes]:
        """The body's chunks as they arrive (chunked transfer coding), to its last."""
        while True:
            size = int(self.reader.readline().split(b";")[0], 16)
            if size == 0:
                return
            chunk = self.reader.read(size)
            self.reader.readline()  # the CRLF after the chunk
            yield chunk

    def _read(self) -> None:
        text = ""
        try:
            for chunk in self._chunks():
                found, text = frames_of(text + chunk.decode())
                for frame in found:
                    self.frames.put(frame)
        except (OSError, ValueError):
            pass  # hung up, by the test or the server
        finally:
            self.ended.set()
            self.frames.put(END)

    def next_frame(self, timeout: float = 10) -> Frame:
        """The next frame, waiting up to ``timeout`` seconds (``queue.Empty`` after that)."""
        return self.frames.get(timeout=timeout)

    def next_event(self, timeout: float = 10) -> Frame:
        """The next frame that is an event (or ``END``), passing over comments and ``retry``."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self.next_frame(max(0.0, deadline - time.monotonic()))
            if frame.event is not None or frame is END:
                return frame

    def nothing_within(self, seconds: float) -> bool:
        """Whether no event arrives within ``seconds`` (comments do not count)."""
        try:
            self.next_event(seconds)
        except queue.Empty:
            return True
        return False

    def close(self) -> None:
        """Hang up."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
