"""What a real gunicorn server does with bodies it cannot read, and with its own refusals."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from scorekeeper.testing.live_server import LiveServer

pytestmark = pytest.mark.server

LIBRARY_WORDS = ("Invalid Request Line", "Error parsing headers", "limit request", "Traceback")
BAD_CHUNKS = {
    "bad-chunk-size": b"zz\r\n{}\r\n0\r\n\r\n",
    "chunk-shorter-than-announced": b"40\r\n{}\r\n0\r\n\r\n",
    "chunk-missing-crlf": b"2\r\n{}XX0\r\n\r\n",
}


def raw_http(url: str, request: bytes, timeout: float = 5) -> bytes:
    """Send ``request`` as is; return what comes back until the server closes or goes quiet."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)  # no more bytes are coming: a short body stays short
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except TimeoutError:
            pass
        return received


def error_of(answer: bytes) -> tuple[int, dict[str, Any], bytes]:
    """The status, the error body and the head of a raw answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body)["error"], head


@pytest.fixture(scope="module")
def game(server: LiveServer) -> dict[str, Any]:
    """A game to send bodies to, with its token."""
    response = requests.post(
        f"{server.url}/api/v1/games",
        json={"ruleset": "jhyap", "players": ["Asha", "Bikash"], "dealer": 0, "starter": 1},
        timeout=10,
    )
    assert response.status_code == 201, response.text
    return response.json()


def body_endpoints(game: dict[str, Any]) -> list[tuple[str, str]]:
    """Every method and path that takes a body."""
    url = f"/api/v1/games/{game['id']}"
    return [
        ("POST", "/api/v1/games"),
        ("POST", "/api/v1/games/import"),
        ("PATCH", url),
        ("POST", f"{url}/rounds"),
        ("PUT", f"{url}/rounds/1"),
    ]


@pytest.mark.parametrize("damage", sorted(BAD_CHUNKS))
def test_a_malformed_chunked_body_is_400_on_every_endpoint(
    server: LiveServer, game: dict[str, Any], damage: str
) -> None:
    for method, path in body_endpoints(game):
        request = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {game['token']}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        ).encode() + BAD_CHUNKS[damage]
        status, error, head = error_of(raw_http(server.url, request))
        assert (status, error["code"]) == (400, "bad_request"), (method, path, error)
        assert error["message"] == "The request body could not be read; send the request again."
        assert b"X-Content-Type-Options: nosniff" in head
    assert "Traceback" not in server.log_text()
    assert requests.get(f"{server.url}/api/v1/games/{game['id']}", timeout=5).json()["name"] == ""


def test_a_malformed_chunked_body_with_the_wrong_type_is_415_first(
    server: LiveServer, game: dict[str, Any]
) -> None:
    request = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + BAD_CHUNKS["bad-chunk-size"]
    )
    status, error, _ = error_of(raw_http(server.url, request))
    assert (status, error["code"]) == (415, "unsupported_media_type")


def test_a_body_shorter_than_its_content_length_is_400(
    server: LiveServer, game: dict[str, Any]
) -> None:
    request = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\nConnection: close\r\n\r\n" + b'{"ruleset": "jhyap"'
    )
    status, error, _ = error_of(raw_http(server.url, request))
    assert (status, error["code"]) == (400, "bad_request")


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        (b"HELLO\r\n\r\n", 400, "bad_request"),
        (b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"x" * 9000 + b"\r\n\r\n", 431, ""),
        (b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\x01b\r\n\r\n", 400, "bad_request"),
    ],
    ids=["bad-request-line", "headers-too-large", "control-character"],
)
def test_what_gunicorn_refuses_is_said_in_plain_words(
    server: LiveServer, request_bytes: bytes, status: int, code: str
) -> None:
    answer = raw_http(server.url, request_bytes)
    got, error, _ = error_of(answer)
    assert got == status == error["status"], answer[:300]
    assert error["code"] == (code or "headers_too_large")
    assert not any(words in error["message"] for words in LIBRARY_WORDS), error
    assert error["message"][0].isupper() and error["message"].endswith(".")


def test_two_servers_leave_no_control_socket_behind(live_server: Any, tmp_path: Path) -> None:
    """gunicorn's control socket is off: no server writes (or replaces) one in the home folder."""
    home = {"HOME": str(tmp_path), "XDG_RUNTIME_DIR": None}
    servers = [live_server(f"socket-{number}", settings=home) for number in range(2)]
    for started in servers:
        assert requests.get(f"{started.url}/api/v1/health", timeout=5).status_code == 200
    assert not (tmp_path / ".gunicorn").exists()
