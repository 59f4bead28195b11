"""The committed ``openapi.yaml`` is valid, generated from the code, and matches every route."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate

from scorekeeper.api import api

SPEC_FILE = Path(__file__).resolve().parents[2] / "openapi.yaml"
HTTP_METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture
def committed() -> dict[str, Any]:
    return yaml.safe_load(SPEC_FILE.read_text())


def test_committed_spec_is_valid_openapi_3_1(committed):
    assert committed["openapi"] == "3.1.0"
    validate(committed)


def test_committed_spec_equals_the_generated_one(app, committed):
    with app.app_context():
        generated = yaml.safe_load(api.spec.to_yaml())
    assert committed == generated, "Run: flask --app wsgi openapi write --format=yaml openapi.yaml"


def test_served_spec_is_the_committed_one(client, committed):
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    assert yaml.safe_load(response.data) == committed


def routed_operations(app) -> set[tuple[str, str]]:
    """(path, method) for every API route, in OpenAPI path syntax."""
    operations = set()
    for rule in app.url_map.iter_rules():
        if not (rule.rule.startswith("/api/") or rule.rule == "/openapi.yaml"):
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        operations |= {(path, method.lower()) for method in rule.methods - {"HEAD", "OPTIONS"}}
    return operations


def documented_operations(spec: dict[str, Any]) -> set[tuple[str, str]]:
    """(path, method) for every operation in the spec."""
    return {
        (path, method)
        for path, item in spec["paths"].items()
        for method in item
        if method in HTTP_METHODS
    }


def test_every_route_is_documented_and_every_documented_path_is_routed(app, committed):
    assert routed_operations(app) == documented_operations(committed)


def test_every_operation_declares_the_error_body(committed):
    for path, item in committed["paths"].items():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                assert "default" in operation["responses"], (path, method)
    error = committed["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]


def response_schema(spec: dict[str, Any], path: str, method: str, status: int) -> dict[str, Any]:
    """The schema the spec gives for one response, able to resolve the spec's refs."""
    responses = spec["paths"][path][method]["responses"]
    response = responses.get(str(status)) or responses["default"]
    if "$ref" in response:
        response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]]
    schema = response["content"]["application/json"]["schema"]
    return {**schema, "components": spec["components"]}


def assert_conforms(spec, path, method, response) -> None:
    """The response body matches its documented schema."""
    OAS31Validator(response_schema(spec, path, method, response.status_code)).validate(
        response.json
    )


@pytest.mark.parametrize("ruleset", ["jhyap", "twenty-two"])
def test_responses_conform_to_the_spec(table, client, committed, ruleset):
    game_path = "/api/v1/games/{game_id}"
    rounds_path = game_path + "/rounds"
    created = client.post(
        "/api/v1/games", json={"ruleset": ruleset, "players": ["Asha", "Bikash", "Chandra"]}
    )
    assert_conforms(committed, "/api/v1/games", "post", created)
    table.game, table.token = created.json, created.json["token"]
    if ruleset == "jhyap":
        entry = table.jhyap_entry(2, [17, ["KH", "JK", "4S"], 3])
    else:
        entry = table.trick_entry([(0, "9C"), (1, "KD"), (2, "4H")])
    recorded = table.post_round(entry)
    assert_conforms(committed, rounds_path, "post", recorded)
    dry_run = client.post(f"{table.url}/rounds?dry_run=true", json=entry, headers=table.auth)
    assert dry_run.status_code in (200, 422)
    assert_conforms(committed, rounds_path, "post", dry_run)
    for path, url in [
        (game_path, table.url),
        (rounds_path, f"{table.url}/rounds"),
        (rounds_path + "/{number}", f"{table.url}/rounds/1"),
        (game_path + "/export", f"{table.url}/export"),
        ("/api/v1/rulesets", "/api/v1/rulesets"),
        ("/api/v1/health", "/api/v1/health"),
    ]:
        response = client.get(url)
        assert response.status_code == 200
        assert_conforms(committed, path, "get", response)
    corrected = client.put(f"{table.url}/rounds/1", json=entry, headers=table.auth)
    assert_conforms(committed, rounds_path + "/{number}", "put", corrected)
    for method, url in [("get", "/api/v1/games/nope"), ("post", "/api/v1/games")]:
        response = getattr(client, method)(url, json={} if method == "post" else None)
        assert response.status_code >= 400
        assert_conforms(
            committed, "/api/v1/games" + ("/{game_id}" if method == "get" else ""), method, response
        )


@pytest.mark.parametrize("ruleset", ["jhyap", "twenty-two"])
def test_a_history_with_seat_changes_conforms_to_the_spec(table, client, committed, ruleset):
    """Joins and leaves are items of the history: the spec documents them there too."""
    rounds_path = "/api/v1/games/{game_id}/rounds"
    table.create(ruleset=ruleset, starter=None if ruleset == "twenty-two" else 1)
    joined = client.post(
        f"{table.url}/seats",
        json={"join": {"name": "Dev", "after": table.players[0]}},
        headers=table.auth,
    )
    assert joined.status_code == 201, joined.json
    assert_conforms(committed, rounds_path.replace("rounds", "seats"), "post", joined)
    dry_run = client.post(
        f"{table.url}/seats?dry_run=true", json={"leave": table.players[1]}, headers=table.auth
    )
    assert dry_run.status_code == 200 and dry_run.json["dry_run"] is True
    assert_conforms(committed, rounds_path.replace("rounds", "seats"), "post", dry_run)
    left = client.post(f"{table.url}/seats", json={"leave": table.players[1]}, headers=table.auth)
    assert left.status_code == 201, left.json
    history = client.get(f"{table.url}/rounds")
    assert [sorted(item["seat_change"]) for item in history.json["rounds"]] == [["join"], ["leave"]]
    assert_conforms(committed, rounds_path, "get", history)
    for number in (1, 2):
        item = client.get(f"{table.url}/rounds/{number}")
        assert item.status_code == 200
        assert_conforms(committed, rounds_path + "/{number}", "get", item)
