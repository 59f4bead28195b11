"""Every item of the issue's security list, beyond what tests/api already checks.

tests/api/test_security_basics.py checks: tokens of 128 bits or more and ids of
96 or more (five of each), the stored SHA-256, the token returned only on
creation, ``hmac.compare_digest`` called on a 403, each write refused with
another game's token, the two headers on API responses. tests/api/test_rate_limits.py
checks 429 with Retry-After on creation and per-game counting of round writes.
Here, item by item:

1. tokens: 128+ random bits from ``secrets``, over many tokens, also for imports;
2. only the hash stored: no table, column or stored answer anywhere holds a token;
3. constant-time compare: every write decides through ``hmac.compare_digest``
   alone (a spy that says "no" refuses even the right token);
4. one game's token never works on another: also an imported copy's, the
   Idempotency-Key of another game, and near misses;
5. no endpoint lists games: no route answers with the ids of games it was not asked for;
6. ids unguessable: 128 bits from ``secrets``, unrelated to tokens, new on import;
7. error bodies never carry stack traces, SQL or paths, also when the database fails;
8. bodies over 64 KiB (8 MiB on import) are refused on ``Content-Length`` alone,
   before a byte of the body is read: in-process and on gunicorn over a socket;
9. security headers on every response: the page with its CSP, static files,
   framework errors, 413, 429, 500, HEAD and OPTIONS, over real HTTP too;
10. rate limits on creation (imports count) and on round posting, a 429
    changes nothing, a forged X-Forwarded-For does not dodge them, and behind
    a trusted proxy (``SCOREKEEPER_TRUSTED_PROXIES``) they count per client.
"""

from __future__ import annotations

import base64
import hmac
import importlib
import io
import json
import re
import socket
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import EnvironBuilder, run_wsgi_app

import scorekeeper.security
from scorekeeper.api import body as body_module
from scorekeeper.app import create_app
from scorekeeper.domain import games, history, rounds
from scorekeeper.extensions import db
from scorekeeper.testing.live_server import LiveServer
from tests.api.test_security_basics import URL_SAFE  # the one pattern of ids and tokens
from tests.conftest import GameClient, app_on_empty_database

STRANGER = "A" * 32


def random_bytes(text: str) -> int:
    assert URL_SAFE.fullmatch(text), text
    return len(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))


def new_table(client: FlaskClient, ruleset: str = "jhyap") -> GameClient:
    table = GameClient(client)
    table.create(ruleset=ruleset, starter=None if ruleset != "jhyap" else 1)
    return table


# 1. Tokens of at least 128 bits


def test_tokens_carry_at_least_128_bits_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = {scorekeeper.security.new_token() for _ in range(2000)}
    assert len(tokens) == 2000
    assert min(random_bytes(token) for token in tokens) * 8 >= 128
    calls: list[int] = []
    real = scorekeeper.security.secrets.token_urlsafe
    monkeypatch.setattr(
        scorekeeper.security.secrets, "token_urlsafe", lambda n: calls.append(n) or real(n)
    )
    scorekeeper.security.new_token()
    assert calls and calls[0] * 8 >= 128, "tokens come from the secrets module"


def test_an_imported_game_gets_a_new_token_of_128_bits(client: FlaskClient) -> None:
    table = new_table(client)
    table.jhyap(2, 17, 14, 3)
    response = client.post("/api/v1/games/import", json=table.export())
    assert response.status_code == 201, response.json
    token = response.json["token"]
    assert token != table.token and random_bytes(token) * 8 >= 128


# 2. Only the hash is stored


def everything_stored(app: Flask) -> str:
    """Every row of every table, as text."""
    with app.app_context():
        dump = []
        for table in db.metadata.sorted_tables:
            for row in db.session.execute(sa.select(table)).mappings():
                dump.append(json.dumps(dict(row), default=str))
        db.session.remove()
        return "\n".join(dump)


def test_no_token_is_stored_anywhere(app: Flask, client: FlaskClient) -> None:
    tables = [new_table(client), new_table(client, "twenty-two")]
    tables[0].jhyap(2, 17, 14, 3)
    tables[0].post_round(tables[0].jhyap_entry(0, (2, 30, 9)), **{"Idempotency-Key": "k-1"})
    client.patch(tables[0].url, json={"name": "Renamed"}, headers=tables[0].auth)
    client.put(
        f"{tables[0].url}/rounds/1",
        json=tables[0].jhyap_entry(1, (9, 2, 30)),
        headers=tables[0].auth,
    )
    imported = client.post("/api/v1/games/import", json=tables[0].export()).json
    tokens = [table.token for table in tables] + [imported["token"]]
    stored = everything_stored(app)
    for token in tokens:
        assert token not in stored
        assert scorekeeper.security.hash_token(token) in stored


# 3. Constant-time compare


def every_write(table: GameClient) -> list[tuple[str, str, Any]]:
    return [
        ("POST", f"{table.url}/rounds", table.jhyap_entry(0, (2, 30, 9))),
        ("POST", f"{table.url}/rounds?dry_run=true", table.jhyap_entry(0, (2, 30, 9))),
        ("PUT", f"{table.url}/rounds/1", table.jhyap_entry(1, (9, 2, 30))),
        ("DELETE", f"{table.url}/rounds/1", None),
        ("PATCH", table.url, {"name": "x"}),
        ("DELETE", table.url, None),
    ]


def test_every_write_decides_through_compare_digest_alone(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = new_table(client)
    table.jhyap(2, 17, 14, 3)
    before = table.export_bytes()
    calls: list[tuple[Any, Any]] = []

    def says_no(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return False

    monkeypatch.setattr(scorekeeper.security.hmac, "compare_digest", says_no)
    for method, url, body in every_write(table):
        calls.clear()
        response = client.open(url, method=method, json=body, headers=table.auth)
        # The right token, refused: nothing but compare_digest decides.
        assert response.status_code == 403, (method, url, response.json)
        assert len(calls) == 1
        given, stored = calls[0]
        assert given == scorekeeper.security.hash_token(
            table.token
        )  # equal-length digests compared
        assert len(given) == len(stored) == 64
    monkeypatch.setattr(scorekeeper.security.hmac, "compare_digest", hmac.compare_digest)
    assert table.export_bytes() == before


# 4. One game's token never works on another


def test_an_imported_copy_and_its_original_do_not_share_tokens(client: FlaskClient) -> None:
    original = new_table(client)
    original.jhyap(2, 17, 14, 3)
    copy = GameClient(client)
    created = client.post("/api/v1/games/import", json=original.export()).json
    copy.token = created.pop("token")
    copy.game = created
    for owner, other in ((original, copy), (copy, original)):
        for method, url, body in every_write(other):
            response = client.open(url, method=method, json=body, headers=owner.auth)
            assert response.status_code == 403, (method, url)


def test_another_games_idempotency_key_replays_nothing(client: FlaskClient) -> None:
    victim, intruder = new_table(client), new_table(client)
    key = {"Idempotency-Key": "round-1"}
    assert victim.post_round(victim.jhyap_entry(2, (17, 14, 3)), **key).status_code == 201
    # The intruder's token with the victim's key, on the victim's game: refused before any replay.
    response = client.post(
        f"{victim.url}/rounds",
        json=victim.jhyap_entry(2, (17, 14, 3)),
        headers={**intruder.auth, **key},
    )
    assert response.status_code == 403
    assert "results" not in response.get_data(as_text=True)
    # The same key on the intruder's own game is a new key there.
    assert intruder.post_round(intruder.jhyap_entry(0, (0, 14, 3)), **key).status_code == 201


@pytest.mark.parametrize(
    "near_miss",
    ["{t}x", "{t}"[:-1], "{T}", "{t}{t}", "{t}=", "{t}%00", "{t} {t}"],
)
def test_a_near_miss_of_the_token_opens_nothing(client: FlaskClient, near_miss: str) -> None:
    table = new_table(client)
    token = table.token
    forged = near_miss.replace("{t}", token).replace("{T}", token.swapcase())
    if near_miss == "{t}"[:-1]:
        forged = token[:-1]
    response = client.patch(
        table.url, json={"name": "Taken"}, headers={"Authorization": f"Bearer {forged}"}
    )
    assert response.status_code in (401, 403)
    assert table.get()["name"] == "Test table"


# 5. No endpoint lists games


def test_no_route_answers_with_games_it_was_not_asked_for(app: Flask, client: FlaskClient) -> None:
    tables = [new_table(client) for _ in range(3)]
    ids = [table.id for table in tables]
    assert client.get("/api/v1/games").status_code == 405
    for rule in app.url_map.iter_rules():
        if rule.arguments or "GET" not in rule.methods or rule.endpoint == "static":
            continue
        text = client.get(rule.rule).get_data(as_text=True)
        assert not any(game_id in text for game_id in ids), rule.rule
    for path in (
        "/api/v1/games/",
        "/api/v1/games?all=1",
        "/api/v1/games/import",
        "/api/v1/",
        "/api/",
    ):
        text = client.get(path).get_data(as_text=True)
        assert not any(game_id in text for game_id in ids), path
    # Each game's own resources name no other game.
    for table in tables:
        for path in ("", "/rounds", "/rounds/1", "/export"):
            text = client.get(table.url + path).get_data(as_text=True)
            assert [game_id for game_id in ids if game_id in text and game_id != table.id] == []


# 6. Ids unguessable


def test_game_ids_are_128_bits_from_secrets_and_unrelated_to_tokens(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = {scorekeeper.security.new_public_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert min(random_bytes(game_id) for game_id in ids) * 8 >= 128
    calls: list[int] = []
    real = scorekeeper.security.secrets.token_urlsafe
    monkeypatch.setattr(
        scorekeeper.security.secrets, "token_urlsafe", lambda n: calls.append(n) or real(n)
    )
    table = new_table(client)
    assert len(calls) == 2, "the id and the token each come from secrets"
    monkeypatch.undo()
    assert table.id not in table.token and table.token not in table.id
    copy = client.post("/api/v1/games/import", json=table.export()).json
    assert copy["id"] != table.id


def test_a_wrong_id_tells_nothing(client: FlaskClient) -> None:
    table = new_table(client)
    near = table.id[:-1] + ("A" if table.id[-1] != "A" else "B")
    for path in (near, near + "/rounds", near + "/export", "x" * 22):
        response = client.get(f"/api/v1/games/{path}")
        assert response.status_code == 404
        assert table.id not in response.get_data(as_text=True)


# 7. Error bodies never carry stack traces, SQL or paths

LEAKS = re.compile(
    r"Traceback|File \"|sqlalchemy|psycopg|sqlite|SELECT|INSERT|UPDATE "
    r"|/work/|/usr/|site-packages|\.py\b",
    re.IGNORECASE,
)


def test_an_unexpected_error_answers_500_without_details(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = new_table(client)

    def failing(*args: Any, **kwargs: Any) -> Any:
        raise sa.exc.OperationalError(
            "SELECT token_hash FROM games WHERE id = ?",
            {"id": table.id},
            Exception("/srv/db.sqlite: disk I/O error"),
        )

    for module, name in [
        (games, "find_game"),
        (rounds, "open_game"),
        (history, "find_game"),
    ]:
        monkeypatch.setattr(module, name, failing)
    for method, url, body in [
        ("GET", table.url, None),
        ("GET", f"{table.url}/export", None),
        ("POST", f"{table.url}/rounds", table.jhyap_entry(2, (17, 14, 3))),
    ]:
        response = client.open(url, method=method, json=body, headers=table.auth)
        assert response.status_code == 500
        assert response.json == {
            "error": {
                "status": 500,
                "code": "internal_error",
                "message": "Something went wrong on our side; nothing was changed.",
            }
        }
        assert not LEAKS.search(response.get_data(as_text=True))


def test_a_database_that_does_not_answer_is_a_bare_500(tmp_path: Any) -> None:
    broken = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{tmp_path}/missing/dir/db.sqlite",
            "REQUEST_LOG": "off",
        }
    )
    client = broken.test_client()
    for path in ("/api/v1/health", "/api/v1/games/" + "A" * 22):
        response = client.get(path)
        assert response.status_code == 500
        assert response.json["error"]["code"] == "internal_error"
        assert not LEAKS.search(response.get_data(as_text=True)), response.get_data(as_text=True)
    response = client.post("/api/v1/games", json={"ruleset": "jhyap", "players": ["A", "B"]})
    assert response.status_code == 500 and not LEAKS.search(response.get_data(as_text=True))


# 8. Bodies over the limit refused before parsing


class Untouchable(io.RawIOBase):
    """A request body that fails the test if anyone reads it."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise AssertionError("the body was read")


@pytest.mark.parametrize(
    ("method", "path", "length"),
    [
        ("POST", "/api/v1/games", 64 * 1024 + 1),
        ("POST", "/api/v1/games/{id}/rounds", 64 * 1024 + 1),
        ("PUT", "/api/v1/games/{id}/rounds/1", 10**9),
        ("PATCH", "/api/v1/games/{id}", 65 * 1024),
        ("POST", "/api/v1/games/import", 8 * 1024 * 1024 + 1),
    ],
)
def test_a_body_over_the_limit_is_refused_on_its_content_length_alone(
    app: Flask,
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    path: str,
    length: int,
) -> None:
    table = new_table(client)
    table.jhyap(2, 17, 14, 3)
    parsed: list[str] = []
    before = table.export_bytes()

    class NoJson:
        @staticmethod
        def loads(*args: Any, **kwargs: Any) -> Any:
            parsed.append("json")
            return {}

    monkeypatch.setattr(body_module, "json", NoJson)
    builder = EnvironBuilder(
        path=path.replace("{id}", table.id),
        method=method,
        headers={**table.auth, "Content-Type": "application/json"},
    )
    environ = builder.get_environ()
    environ["wsgi.input"] = Untouchable()
    environ["CONTENT_LENGTH"] = str(length)
    app_iter, status, headers = run_wsgi_app(app, environ, buffered=True)
    body = b"".join(app_iter)
    assert status.startswith("413"), body
    assert json.loads(body)["error"]["code"] == "too_large"
    assert headers.get("X-Content-Type-Options") == "nosniff"
    assert parsed == []
    monkeypatch.undo()
    assert table.export_bytes() == before


def raw_http(url: str, request: bytes, timeout: float = 5) -> bytes:
    """Send ``request`` as is over a socket; return what comes back until the server closes."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as sock:
        sock.sendall(request)
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
                if b"\r\n\r\n" in received and b'"error"' in received:
                    break
        except TimeoutError:
            pass
        return received


@pytest.mark.server
def test_gunicorn_answers_413_before_the_body_arrives(server: LiveServer) -> None:
    """Headers promising 10 MB and no body: the answer comes at once, not after waiting for it."""
    for path, length in (("/api/v1/games", 10_000_000), ("/api/v1/games/import", 9 * 1024 * 1024)):
        request = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n"
        ).encode()
        answer = raw_http(server.url, request)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b'"too_large"' in answer
        assert b"X-Content-Type-Options: nosniff" in answer


@pytest.mark.server
def test_gunicorn_refuses_a_chunked_body_over_the_limit(server: LiveServer) -> None:
    """No Content-Length: the body is read up to the limit and no further."""
    chunk = b"[" * 4096
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(20)) + b"0\r\n\r\n"
    request = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks
    )
    answer = raw_http(server.url, request)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


@pytest.mark.server
@pytest.mark.parametrize(
    ("header", "status", "code"),
    [
        (b"Idempotency-Key: a\x01b", 400, "bad_request"),  # gunicorn refuses control characters
        (b"X-Padding: " + b"x" * 9000, 431, "headers_too_large"),
    ],
)
def test_what_gunicorn_refuses_itself_answers_the_one_body(
    server: LiveServer, header: bytes, status: int, code: str
) -> None:
    """Refused before the app sees it, and still JSON with the headers every answer carries."""
    request = (
        b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header + b"\r\n"
        b"Connection: close\r\n\r\n"
    )
    answer = raw_http(server.url, request)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 %d " % status), answer[:300]
    assert b"Content-Type: application/json" in head
    assert b"X-Content-Type-Options: nosniff" in head
    error = json.loads(body)["error"]
    assert (error["status"], error["code"]) == (status, code)
    assert error["message"].endswith(".")


@pytest.mark.server
@pytest.mark.parametrize(("size", "status"), [(64 * 1024, b"201"), (64 * 1024 + 1, b"413")])
def test_a_chunked_body_of_exactly_the_limit_is_taken(
    server: LiveServer, size: int, status: bytes
) -> None:
    """The limit is "over 64 KiB" whether or not the body says its length up front."""
    game = json.dumps({"ruleset": "jhyap", "players": ["Asha", "Bikash"]}).encode()
    body = game + b" " * (size - len(game))  # JSON allows the padding
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(piece), piece)
        for piece in (body[start : start + 4096] for start in range(0, size, 4096))
    )
    request = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks + b"0\r\n\r\n"
    )
    answer = raw_http(server.url, request)
    assert answer.startswith(b"HTTP/1.1 " + status), answer[:200]


# 9. Security headers on every response


def assert_safe_headers(response: Any, where: str) -> None:
    headers = response.headers
    assert headers.get("X-Content-Type-Options") == "nosniff", where
    assert headers.get("Referrer-Policy") in {"no-referrer", "same-origin", "strict-origin"}, where
    if (headers.get("Content-Type") or "").startswith("text/html"):
        csp = headers.get("Content-Security-Policy", "")
        for directive in (
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
        ):
            assert directive in csp, (where, csp)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, where


def test_the_page_static_files_and_framework_errors_carry_the_headers(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = new_table(client)
    page = client.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert_safe_headers(page, "page")
    statics = [rule for rule in app.url_map.iter_rules() if rule.endpoint == "static"]
    assert statics
    for name in ("app.css", "js/app.js", "icon.svg", "i18n/en.json", "no-such-file.js"):
        with client.get(f"/static/{name}") as response:
            assert_safe_headers(response, name)
    for method, path in [
        ("HEAD", table.url),
        ("OPTIONS", table.url),
        ("OPTIONS", "/api/v1/games"),
        ("PUT", "/api/v1/games"),
        ("GET", "/favicon.ico"),
        ("TRACE", "/"),
    ]:
        assert_safe_headers(client.open(path, method=method), f"{method} {path}")

    monkeypatch.setattr(games, "find_game", lambda *a: 1 / 0)
    response = client.get(table.url)
    assert response.status_code == 500
    assert_safe_headers(response, "500")


@pytest.mark.server
def test_headers_over_real_http(server: LiveServer) -> None:
    import requests

    for method, path in [
        ("GET", "/"),
        ("GET", "/api/v1/health"),
        ("GET", "/api/v1/games"),
        ("GET", "/nope"),
        ("POST", "/api/v1/games"),
        ("GET", "/static/app.css"),
        ("GET", "/openapi.yaml"),
    ]:
        response = requests.request(method, server.url + path, timeout=10)
        assert_safe_headers(response, f"{method} {path}")


# 10. Rate limits


@pytest.fixture
def limited(database_url: str) -> Iterator[Flask]:
    with app_on_empty_database(
        database_url,
        RATE_LIMITS="on",
        GAME_CREATE_LIMIT="3/minute",
        ROUND_WRITE_LIMIT="4/minute",
        REQUEST_LOG="off",
    ) as app:
        yield app


def test_round_posts_past_the_limit_answer_429_and_record_nothing(limited: Flask) -> None:
    client = limited.test_client()
    table = new_table(client)
    other = new_table(client)
    for number in range(1, 5):
        assert (
            table.post_round({**table.jhyap_entry(2, (17, 14, 3)), "number": number}).status_code
            == 201
        )
    response = table.post_round({**table.jhyap_entry(2, (17, 14, 3)), "number": 5})
    assert response.status_code == 429
    assert response.json["error"]["code"] == "too_many_requests"
    assert int(response.headers["Retry-After"]) > 0
    assert_safe_headers(response, "429")
    assert table.get()["rounds_played"] == 4
    # Corrections and undo count against the same game, other games are not affected.
    assert client.delete(f"{table.url}/rounds/4", headers=table.auth).status_code == 429
    assert other.post_round(other.jhyap_entry(2, (17, 14, 3))).status_code == 201


def test_imports_count_as_creations(limited: Flask) -> None:
    client = limited.test_client()
    table = new_table(client)
    document = table.export()
    assert [client.post("/api/v1/games/import", json=document).status_code for _ in range(3)] == [
        201,
        201,
        429,
    ]
    response = client.post("/api/v1/games", json={"ruleset": "jhyap", "players": ["A", "B"]})
    assert response.status_code == 429
    assert_safe_headers(response, "429 create")


def test_a_forged_forwarded_for_does_not_dodge_the_limit(limited: Flask) -> None:
    client = limited.test_client()
    statuses = [
        client.post(
            "/api/v1/games",
            json={"ruleset": "jhyap", "players": ["A", "B"]},
            headers={"X-Forwarded-For": f"10.0.0.{attempt}"},
        ).status_code
        for attempt in range(5)
    ]
    assert statuses == [201, 201, 201, 429, 429]


@pytest.fixture
def behind_a_proxy(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """``wsgi:app`` as gunicorn loads it, configured to trust one proxy."""
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", database_url)
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_PROXIES", "1")
    monkeypatch.setenv("SCOREKEEPER_GAME_CREATE_LIMIT", "2/minute")
    monkeypatch.setenv("SCOREKEEPER_REQUEST_LOG", "off")
    import wsgi

    app = importlib.reload(wsgi).app
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


def test_behind_a_trusted_proxy_limits_count_per_client(behind_a_proxy: Flask) -> None:
    client = behind_a_proxy.test_client()

    def create(address: str) -> int:
        return client.post(
            "/api/v1/games",
            json={"ruleset": "jhyap", "players": ["A", "B"]},
            headers={"X-Forwarded-For": address},
        ).status_code

    assert [create("203.0.113.7") for _ in range(3)] == [201, 201, 429]
    assert create("198.51.100.9") == 201  # another client behind the same proxy
    # A client cannot reset its count by sending its own X-Forwarded-For through the proxy:
    # the proxy appends the real address, and only the last hop is trusted.
    assert create("10.9.9.9, 203.0.113.7") == 429
