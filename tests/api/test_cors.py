"""OPTIONS answers 204 with Allow; cross-origin requests only for the configured origins."""

from __future__ import annotations

import pytest

from ..conftest import app_on_empty_database

ORIGIN = "https://scores.example.org"
PREFLIGHT = {
    "Origin": ORIGIN,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
}


@pytest.fixture
def cors_client(database_url):
    with app_on_empty_database(database_url, CORS_ORIGINS=[ORIGIN]) as app:
        yield app.test_client()


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/api/v1/games", {"POST", "OPTIONS"}),
        ("/api/v1/games/AAAAAAAAAAAAAAAAAAAAAA", {"GET", "HEAD", "PATCH", "DELETE", "OPTIONS"}),
        ("/api/v1/games/AAAAAAAAAAAAAAAAAAAAAA/rounds", {"GET", "HEAD", "POST", "OPTIONS"}),
        ("/api/v1/rulesets", {"GET", "HEAD", "OPTIONS"}),
    ],
)
def test_options_is_204_with_allow_and_no_body(client, path, allowed):
    response = client.options(path)

    assert response.status_code == 204
    assert {method.strip() for method in response.headers["Allow"].split(",")} == allowed
    assert response.data == b""
    assert "Content-Type" not in response.headers
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_cross_origin_requests_are_refused_by_default(client):
    preflight = client.options("/api/v1/games", headers=PREFLIGHT)
    read = client.get("/api/v1/rulesets", headers={"Origin": ORIGIN})

    assert preflight.status_code == 204
    assert not [name for name, _ in preflight.headers if name.startswith("Access-Control")]
    assert "Access-Control-Allow-Origin" not in read.headers


def test_a_configured_origin_may_write_with_the_apis_headers(cors_client):
    response = cors_client.options("/api/v1/games", headers=PREFLIGHT)

    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    allowed = {
        h.strip().lower() for h in response.headers["Access-Control-Allow-Headers"].split(",")
    }
    assert {"authorization", "content-type", "idempotency-key"} <= allowed
    assert "POST" in response.headers["Access-Control-Allow-Methods"]


def test_a_configured_origin_sees_the_etag_location_and_retry_after(cors_client):
    response = cors_client.post(
        "/api/v1/games",
        json={"ruleset": "jhyap", "players": ["Asha", "Bikash"]},
        headers={"Origin": ORIGIN},
    )

    assert response.status_code == 201
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    exposed = {h.strip() for h in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert exposed == {"ETag", "Location", "Retry-After"}


def test_another_origin_gets_no_cors_headers(cors_client):
    response = cors_client.get("/api/v1/rulesets", headers={"Origin": "https://evil.example"})

    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response.headers


def test_origins_may_be_given_as_a_comma_separated_list(database_url):
    with app_on_empty_database(database_url, CORS_ORIGINS=f"{ORIGIN}, https://b.example") as app:
        response = app.test_client().get(
            "/api/v1/rulesets", headers={"Origin": "https://b.example"}
        )
    assert response.headers["Access-Control-Allow-Origin"] == "https://b.example"


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/short",
        "/api/v1/games/not%20an%20id/rounds",
        "/api/v1/games/" + "A" * 65 + "/rounds/1",
        "/api/v1/tables/x!/games",
        "/api/v1/nowhere",
    ],
    ids=["short id", "id with spaces", "long id", "table id", "no such path"],
)
def test_options_on_an_api_path_no_route_takes_is_204_too(client, path):
    response = client.options(path)

    assert response.status_code == 204, response.data
    assert response.headers["Allow"] == "OPTIONS"  # nothing else is allowed there
    assert response.data == b""
    assert "Content-Type" not in response.headers
    assert "Content-Security-Policy" not in response.headers
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert client.get(path).status_code == 404  # any other method still finds nothing


def test_options_outside_the_api_on_no_route_is_still_404(client):
    assert client.options("/nowhere").status_code == 404
