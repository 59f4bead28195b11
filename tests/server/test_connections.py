"""A hall of tables on one worker: more phones' open connections than gthread's default."""

from __future__ import annotations

import resource
import socket
from collections.abc import Iterator

import pytest

from scorekeeper.gunicorn_config import FILES_BESIDE_CONNECTIONS, allow_open_files
from scorekeeper.testing.live_server import LiveServer

pytestmark = pytest.mark.server

PHONES = 1_200
"""Connections held open at once: past gthread's default of 1,000 a worker."""
FEW_FILES = 1_024
"""The open files many systems give a process, fewer than the phones need."""
REQUEST = b"GET /api/v1/health HTTP/1.1\r\nHost: scorekeeper\r\n\r\n"


@pytest.fixture(scope="module")
def one_worker(live_server) -> LiveServer:
    """``scorekeeper serve`` as the README starts it, started with only ``FEW_FILES`` files."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft > FEW_FILES:
        resource.setrlimit(resource.RLIMIT_NOFILE, (FEW_FILES, hard))
    try:
        return live_server("connections", workers=1)  # inherits the limit
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def answer(phone: socket.socket) -> tuple[int, dict[str, str]]:
    """The status and headers of the next answer on ``phone``, its body read past."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = phone.recv(4096)
        assert chunk, "the server closed the connection"
        received += chunk
    head, body = received.split(b"\r\n\r\n", 1)
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    headers = {name.lower(): value for name, value in headers.items()}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        body += phone.recv(length - len(body))
    return int(status_line.split()[1]), headers


@pytest.fixture
def phones(one_worker: LiveServer) -> Iterator[list[socket.socket]]:
    """``PHONES`` open connections to the server."""
    if not allow_open_files(PHONES + FILES_BESIDE_CONNECTIONS):
        pytest.skip(f"this system lets a process open too few files for {PHONES} connections")
    opened: list[socket.socket] = []
    try:
        for _ in range(PHONES):
            opened.append(socket.create_connection(("127.0.0.1", one_worker.port), timeout=30))
        yield opened
    finally:
        for phone in opened:
            phone.close()


def test_one_worker_answers_every_phone_and_keeps_each_connection(phones):
    for phone in phones:
        phone.sendall(REQUEST)
    answers = [answer(phone) for phone in phones]
    assert [status for status, _ in answers] == [200] * PHONES
    closing = [n for n, (_, headers) in enumerate(answers) if headers.get("connection") == "close"]
    assert closing == []
    phones[-1].sendall(REQUEST)  # still open, for the next poll
    assert answer(phones[-1])[0] == 200
