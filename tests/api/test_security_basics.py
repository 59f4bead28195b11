"""Security basics of api.md: unguessable ids and tokens, hashed at rest, one game each; headers."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

import scorekeeper.security
from scorekeeper.extensions import db
from scorekeeper.models import Game

URL_SAFE = re.compile(r"[A-Za-z0-9_-]+")
SHA256_HEX = re.compile(r"[0-9a-f]{64}")


def random_bits(text: str) -> int:
    """Bits carried by a URL-safe base64 string (without padding)."""
    assert URL_SAFE.fullmatch(text), text
    return len(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))) * 8


def create(
    client: FlaskClient, players: tuple[str, ...] = ("Asha", "Bikash", "Chandra")
) -> dict[str, Any]:
    response = client.post(
        "/api/v1/games",
        json={"ruleset": "jhyap", "players": list(players), "dealer": 0, "starter": 1},
    )
    assert response.status_code == 201, response.json
    return response.json


def stored_game(app: Flask, game_id: str) -> dict[str, Any]:
    """The game's row as stored, column by column."""
    with app.app_context():
        row = (
            db.session.execute(sa.select(Game.__table__).where(Game.__table__.c.id == game_id))
            .mappings()
            .one()
        )
        db.session.remove()
        return dict(row)


# Tokens and ids


def test_only_a_sha256_hash_of_the_token_is_stored(app: Flask, client: FlaskClient) -> None:
    game = create(client)
    token = game["token"]
    row = stored_game(app, game["id"])
    assert row["token_hash"] != token
    assert SHA256_HEX.fullmatch(row["token_hash"])
    assert row["token_hash"] == hashlib.sha256(token.encode()).hexdigest()
    assert token not in json.dumps(row, default=str)


def test_the_token_is_returned_only_on_creation(client: FlaskClient, table: Any) -> None:
    table.create()
    table.jhyap(2, 17, 14, 3)
    token = table.token
    for path in ("", "/rounds", "/rounds/1", "/export"):
        response = client.get(f"{table.url}{path}")
        assert response.status_code == 200
        assert token not in response.get_data(as_text=True)
        assert '"token"' not in response.get_data(as_text=True)
    response = client.patch(table.url, json={"name": "Renamed"}, headers=table.auth)
    assert response.status_code == 200
    assert token not in response.get_data(as_text=True)


def test_tokens_carry_at_least_128_random_bits(client: FlaskClient) -> None:
    tokens = [create(client)["token"] for _ in range(5)]
    for token in tokens:
        assert len(token) >= 22
        assert random_bits(token) >= 128
    assert len(set(tokens)) == len(tokens)


def test_game_ids_carry_at_least_96_random_bits(client: FlaskClient) -> None:
    games = [create(client) for _ in range(5)]
    ids = [game["id"] for game in games]
    for game_id in ids:
        assert len(game_id) >= 16
        assert random_bits(game_id) >= 96
    assert len(set(ids)) == len(ids)
    assert not set(ids) & {game["token"] for game in games}


def test_tokens_are_compared_in_constant_time(
    monkeypatch: pytest.MonkeyPatch, client: FlaskClient, table: Any
) -> None:
    table.create()
    calls: list[tuple[Any, Any]] = []
    real = scorekeeper.security.hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(scorekeeper.security.hmac, "compare_digest", spy)
    response = client.patch(
        table.url, json={"name": "x"}, headers={"Authorization": "Bearer " + "A" * 32}
    )
    assert response.status_code == 403
    assert calls, "the token check must go through hmac.compare_digest"


# One game's token never opens another


Write = Callable[[FlaskClient, Any, dict[str, str]], Any]

WRITES: dict[str, Write] = {
    "post-round": lambda c, t, h: c.post(
        f"{t.url}/rounds", json=t.jhyap_entry(2, (17, 14, 3)), headers=h
    ),
    "dry-run-round": lambda c, t, h: c.post(
        f"{t.url}/rounds?dry_run=true", json=t.jhyap_entry(2, (17, 14, 3)), headers=h
    ),
    "put-round": lambda c, t, h: c.put(
        f"{t.url}/rounds/1", json=t.jhyap_entry(1, (9, 2, 30)), headers=h
    ),
    "delete-round": lambda c, t, h: c.delete(f"{t.url}/rounds/1", headers=h),
    "patch-game": lambda c, t, h: c.patch(t.url, json={"name": "Taken over"}, headers=h),
    "delete-game": lambda c, t, h: c.delete(t.url, headers=h),
}


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_one_games_token_never_works_on_another(
    client: FlaskClient, table: Any, write: str
) -> None:
    victim = table
    victim.create()
    victim.jhyap(2, 17, 14, 3)
    intruder = type(table)(client)
    intruder.create(players=("Dipa", "Esha", "Farid"))
    before = victim.export_bytes()

    response = WRITES[write](client, victim, intruder.auth)

    assert response.status_code == 403, response.get_data(as_text=True)
    assert response.json["error"]["code"] == "forbidden"
    assert victim.export_bytes() == before
    # ...while the victim's own token still works for the same request.
    assert WRITES[write](client, victim, victim.auth).status_code in (200, 201, 204)


def test_a_token_works_only_on_its_own_game_in_both_directions(
    client: FlaskClient, table: Any
) -> None:
    first = table
    first.create()
    second = type(table)(client)
    second.create()
    for owner, other in ((first, second), (second, first)):
        response = client.post(
            f"{other.url}/rounds", json=other.jhyap_entry(2, (17, 14, 3)), headers=owner.auth
        )
        assert response.status_code == 403
        response = client.post(
            f"{owner.url}/rounds", json=owner.jhyap_entry(2, (17, 14, 3)), headers=owner.auth
        )
        assert response.status_code == 201


def test_a_deleted_games_token_opens_nothing(client: FlaskClient, table: Any) -> None:
    table.create()
    survivor = type(table)(client)
    survivor.create()
    assert client.delete(table.url, headers=table.auth).status_code == 204
    assert client.patch(survivor.url, json={"name": "x"}, headers=table.auth).status_code == 403
    assert client.patch(table.url, json={"name": "x"}, headers=table.auth).status_code == 404


# Headers on every response


Call = Callable[[FlaskClient, Any], Any]

RESPONSES: dict[str, tuple[Call, int]] = {
    "201-create": (
        lambda c, t: c.post("/api/v1/games", json={"ruleset": "jhyap", "players": ["A", "B"]}),
        201,
    ),
    "200-game": (lambda c, t: c.get(t.url), 200),
    "304-game": (
        lambda c, t: c.get(t.url, headers={"If-None-Match": c.get(t.url).headers["ETag"]}),
        304,
    ),
    "201-round": (lambda c, t: t.post_round(t.jhyap_entry(2, (17, 14, 3))), 201),
    "200-export": (lambda c, t: c.get(f"{t.url}/export"), 200),
    "200-rulesets": (lambda c, t: c.get("/api/v1/rulesets"), 200),
    "200-health": (lambda c, t: c.get("/api/v1/health"), 200),
    "200-openapi": (lambda c, t: c.get("/openapi.yaml"), 200),
    "204-delete": (lambda c, t: c.delete(t.url, headers=t.auth), 204),
    "400-bad-json": (
        lambda c, t: c.post(
            f"{t.url}/rounds", data="{", content_type="application/json", headers=t.auth
        ),
        400,
    ),
    "401-no-token": (lambda c, t: c.delete(t.url), 401),
    "403-wrong-token": (
        lambda c, t: c.delete(t.url, headers={"Authorization": "Bearer " + "A" * 32}),
        403,
    ),
    "404-game": (lambda c, t: c.get("/api/v1/games/nope"), 404),
    "404-path": (lambda c, t: c.get("/no/such/page"), 404),
    "405-list-games": (lambda c, t: c.get("/api/v1/games"), 405),
    "409-not-last-round": (
        lambda c, t: (
            t.jhyap(2, 17, 14, 3),
            t.jhyap(2, 17, 14, 3),
            c.delete(f"{t.url}/rounds/1", headers=t.auth),
        )[-1],
        409,
    ),
    "413-too-large": (
        lambda c, t: c.post(
            "/api/v1/games", data="x" * (65 * 1024), content_type="application/json"
        ),
        413,
    ),
    "415-text-plain": (
        lambda c, t: c.post("/api/v1/games", data="{}", content_type="text/plain"),
        415,
    ),
    "422-invalid": (
        lambda c, t: c.post("/api/v1/games", json={"ruleset": "poker", "players": ["A", "B"]}),
        422,
    ),
}


@pytest.mark.parametrize("name", list(RESPONSES), ids=list(RESPONSES))
def test_every_response_carries_the_safety_headers(
    client: FlaskClient, table: Any, name: str
) -> None:
    table.create()
    call, status = RESPONSES[name]
    response = call(client, table)
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("Referrer-Policy") == "no-referrer"


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("PATCH", "", {"name": 7}),
        ("PATCH", "", {"players": "Asha"}),
        ("POST", "/rounds", {"caller": "Asha"}),
        ("PUT", "/rounds/1", {"hands": 3}),
        ("POST", "/seats", {"leave": "Asha"}),
    ],
    ids=["rename, a number", "rename, players as text", "round", "correction", "seat change"],
)
def test_a_request_without_a_token_is_401_before_its_body_is_checked(
    client: FlaskClient, method: str, path: str, body: dict[str, Any]
) -> None:
    game = create(client)

    response = client.open(f"/api/v1/games/{game['id']}{path}", method=method, json=body)

    assert response.status_code == 401, response.json
    assert response.json["error"]["code"] == "unauthorized"
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="scorekeeper"'
    assert client.get(f"/api/v1/games/{game['id']}").json["name"] == game["name"]
