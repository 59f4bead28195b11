"""Clients that hold connections: thousands of open event streams, and requests sent by halves.

``scorekeeper serve`` as the README starts it (one worker) serves every connection on one event
loop: a connection that waits costs no thread, a request whose head or body does not arrive
within 10 s is dropped, and other clients are answered meanwhile.
"""

from __future__ import annotations

import selectors
import socket
import time
from collections.abc import Iterator

import pytest
import requests

from scorekeeper.deadlines import BODY_SECONDS
from scorekeeper.gunicorn_config import FILES_BESIDE_CONNECTIONS, allow_open_files
from scorekeeper.testing.live_server import LiveServer

pytestmark = pytest.mark.server

DROPPED_WITHIN = 10.0
"""api.md and SECURITY.md: a request whose head or body does not arrive in 10 s is dropped."""
HALF_SENT = 1_000
STREAMS = 2_000
HEAD = b"GET /api/v1/health HTTP/1.1\r\nHost: scorekeeper\r\n"  # no blank line: never ends
BODY_HEAD = (
    b"POST /api/v1/games HTTP/1.1\r\nHost: scorekeeper\r\nContent-Type: application/json\r\n"
    b"Content-Length: 200\r\n\r\n"
)
GAME = {"ruleset": "jhyap", "players": ["Asha", "Bikash"], "dealer": 0, "starter": 1}


@pytest.fixture(scope="module")
def one_worker(live_server) -> LiveServer:
    """``scorekeeper serve`` as the README starts it."""
    return live_server("slow-clients")


def connect(server: LiveServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=30)


def seconds_until_closed(sock: socket.socket, limit: float) -> tuple[float, bytes]:
    """How long until the server closes ``sock`` (at most ``limit`` s), and what it answered."""
    started = time.monotonic()
    sock.settimeout(limit)
    received = b""
    try:
        while chunk := sock.recv(4096):
            received += chunk
    except TimeoutError:
        pass
    return time.monotonic() - started, received


@pytest.fixture
def files_for(request: pytest.FixtureRequest) -> None:
    """Enough open files in this process for the test's connections."""
    wanted = request.param + FILES_BESIDE_CONNECTIONS
    if not allow_open_files(wanted):
        pytest.skip(f"this system lets a process open too few files for {request.param} sockets")


def test_a_head_that_does_not_arrive_in_time_is_dropped(one_worker):
    with connect(one_worker) as sock:
        sock.sendall(HEAD)
        waited, answer = seconds_until_closed(sock, DROPPED_WITHIN + 5)
    assert waited < DROPPED_WITHIN, answer
    assert answer == b""


def test_a_body_that_trickles_past_its_time_is_answered_400_and_dropped(one_worker):
    sock = connect(one_worker)
    with sock:
        started = time.monotonic()
        sock.sendall(BODY_HEAD)
        sent, closed = 0, False
        sock.settimeout(1)
        answer = b""
        while not closed and time.monotonic() - started < DROPPED_WITHIN + 5:
            try:
                sock.sendall(b" ")  # a byte a second: each read is quick, the whole is not
                sent += 1
                chunk = sock.recv(4096)
                answer += chunk
                closed = chunk == b""
            except TimeoutError:
                continue
            except OSError:  # the server closed: a byte was sent after it hung up
                closed = True
        waited = time.monotonic() - started
    assert closed
    assert BODY_SECONDS <= waited < DROPPED_WITHIN + 1.5, (waited, answer)
    assert answer.startswith(b"HTTP/1.1 400 "), answer
    assert b'"code":"bad_request"' in answer
    assert sent < 200  # the body never came
    assert requests.get(f"{one_worker.url}/api/v1/health", timeout=5).status_code == 200


@pytest.mark.parametrize("files_for", [HALF_SENT + 100], indirect=True)
def test_a_thousand_half_sent_requests_do_not_stop_a_normal_client(one_worker, files_for):
    half_sent: list[socket.socket] = []
    try:
        for number in range(HALF_SENT):
            sock = connect(one_worker)
            sock.sendall(HEAD if number % 2 else BODY_HEAD + b'{"ruleset": ')
            half_sent.append(sock)
        started = time.monotonic()
        health = requests.get(f"{one_worker.url}/api/v1/health", timeout=5)
        assert (health.status_code, time.monotonic() - started < 1.0) == (200, True)
        game = requests.post(f"{one_worker.url}/api/v1/games", json=GAME, timeout=5)
        assert (game.status_code, time.monotonic() - started < 1.0) == (201, True)
        time.sleep(DROPPED_WITHIN + 1)
        assert [closed_by_server(sock) for sock in half_sent] == [True] * HALF_SENT
    finally:
        for sock in half_sent:
            sock.close()


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (after an answer, if it gave one)."""
    sock.settimeout(0.5)
    try:
        while sock.recv(4096):
            pass
    except (TimeoutError, OSError):
        return False
    return True


def open_streams(server: LiveServer, game_id: str, count: int) -> Iterator[socket.socket]:
    """``count`` connections, each asking for the game's events."""
    request = f"GET /api/v1/games/{game_id}/events HTTP/1.1\r\nHost: scorekeeper\r\n\r\n"
    for _ in range(count):
        sock = connect(server)
        sock.sendall(request.encode())
        yield sock


def read_until(streams: list[socket.socket], marker: bytes, limit: float) -> set[socket.socket]:
    """Read every stream until it has shown ``marker``; the streams that have, within ``limit``."""
    selector = selectors.DefaultSelector()
    seen: dict[socket.socket, bytes] = {}
    for sock in streams:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        seen[sock] = b""
    done: set[socket.socket] = set()
    deadline = time.monotonic() + limit
    while len(done) < len(streams) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=max(0.0, deadline - time.monotonic())):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            chunk = sock.recv(65536)
            seen[sock] += chunk
            if marker in seen[sock] or not chunk:
                done.add(sock)
                selector.unregister(sock)
    selector.close()
    return {sock for sock in done if marker in seen[sock]}


@pytest.mark.parametrize("files_for", [STREAMS + 100], indirect=True)
def test_one_worker_holds_thousands_of_streams_and_a_round_reaches_them_all(one_worker, files_for):
    game = requests.post(f"{one_worker.url}/api/v1/games", json=GAME, timeout=5).json()
    streams = list(open_streams(one_worker, game["id"], STREAMS))
    try:
        assert len(read_until(streams, b"id: 1\n", limit=60)) == STREAMS
        started = time.monotonic()
        health = requests.get(f"{one_worker.url}/api/v1/health", timeout=5)
        assert (health.status_code, time.monotonic() - started < 1.0) == (200, True)
        ids = [player["id"] for player in game["players"]]
        hands = [{"player": ids[0], "total": 2}, {"player": ids[1], "total": 9}]
        answer = requests.post(
            f"{one_worker.url}/api/v1/games/{game['id']}/rounds",
            json={"caller": ids[0], "hands": hands},
            headers={"Authorization": f"Bearer {game['token']}"},
            timeout=5,
        )
        assert answer.status_code == 201, answer.text
        assert len(read_until(streams, b"id: 2\n", limit=5)) == STREAMS
    finally:
        for sock in streams:
            sock.close()
