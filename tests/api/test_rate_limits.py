"""Rate limits: per client address for creations and refused tokens, per game for round writes."""

from __future__ import annotations

import secrets
import socket
import time

import pytest

from scorekeeper.app import create_app
from scorekeeper.testing.live_server import free_port

from ..conftest import app_on_empty_database


@pytest.fixture
def limited_client(database_url):
    with app_on_empty_database(
        database_url,
        RATE_LIMITS="on",
        GAME_CREATE_LIMIT="3/minute",
        ROUND_WRITE_LIMIT="2/minute",
        TOKEN_FAILURE_LIMIT="3/minute",
    ) as app:
        yield app.test_client()


def create(client):
    return client.post("/api/v1/games", json={"ruleset": "jhyap", "players": ["Asha", "Bikash"]})


def test_game_creations_past_the_limit_answer_429_with_retry_after(limited_client):
    assert [create(limited_client).status_code for _ in range(3)] == [201, 201, 201]
    response = create(limited_client)
    assert response.status_code == 429
    assert response.json["error"]["code"] == "too_many_requests"
    assert response.json["error"]["status"] == 429
    assert int(response.headers["Retry-After"]) > 0


def test_round_writes_are_counted_per_game(limited_client):
    games = [create(limited_client).json for _ in range(2)]

    def undo_last(game):
        return limited_client.delete(
            f"/api/v1/games/{game['id']}/rounds/1",
            headers={"Authorization": f"Bearer {game['token']}"},
        )

    # Nothing to undo: 404, but each write still counts against its own game.
    assert [undo_last(games[0]).status_code for _ in range(2)] == [404, 404]
    assert undo_last(games[0]).status_code == 429
    assert undo_last(games[1]).status_code == 404


def test_limits_are_off_when_configured(client):
    assert {create(client).status_code for _ in range(70)} == {201}


def test_default_limits_are_generous_for_a_real_table(app):
    assert app.config["GAME_CREATE_LIMIT"] == "60/minute"
    assert app.config["ROUND_WRITE_LIMIT"] == "120/minute"
    assert create_app({"DATABASE_URL": "sqlite://"}).config["RATELIMIT_ENABLED"] is True


def undo(client, game, token, address="192.0.2.10"):
    return client.delete(
        f"/api/v1/games/{game['id']}/rounds/1",
        headers={"Authorization": f"Bearer {token}"},
        environ_base={"REMOTE_ADDR": address},
    )


def test_wrong_tokens_do_not_use_up_a_games_round_writes(limited_client):
    game = create(limited_client).json
    someone_elses = secrets.token_urlsafe(24)
    stranger = [
        undo(limited_client, game, someone_elses, address="203.0.113.9").status_code
        for _ in range(4)
    ]
    assert stranger == [403, 403, 403, 429]  # the refused tokens of the stranger's address
    malformed = limited_client.post(
        f"/api/v1/games/{game['id']}/rounds",
        data="{not json",
        content_type="application/json",
        environ_base={"REMOTE_ADDR": "203.0.113.10"},
    )
    assert malformed.status_code == 400
    # The table's own two writes a minute are all still there.
    assert [undo(limited_client, game, game["token"]).status_code for _ in range(2)] == [404, 404]
    assert undo(limited_client, game, game["token"]).status_code == 429


def test_wrong_tokens_are_limited_per_client_address(limited_client):
    games = [create(limited_client).json for _ in range(2)]
    attempts = [
        limited_client.patch(
            f"/api/v1/games/{game['id']}",
            json={"name": "x"},
            headers={"Authorization": "Bearer nope"},
        ).status_code
        for game in games + games
    ]
    assert attempts == [401, 401, 401, 429]
    missing = limited_client.delete(f"/api/v1/games/{games[0]['id']}")
    assert missing.status_code == 429
    assert missing.json["error"]["code"] == "too_many_requests"


def test_reads_are_never_limited(limited_client):
    game = create(limited_client).json
    url = f"/api/v1/games/{game['id']}"
    reads = [limited_client.get(url) for _ in range(5)]  # past every limit configured here
    reads += [limited_client.get(f"{url}/export") for _ in range(5)]
    reads += [limited_client.head(url) for _ in range(5)]
    assert {response.status_code for response in reads} == {200}
    assert not any("X-RateLimit-Limit" in response.headers for response in reads)
    # The writes around them are still counted: 3 creations a minute.
    assert [create(limited_client).status_code for _ in range(3)] == [201, 201, 429]


def test_headers_describe_the_limit_the_request_spends(limited_client):
    game = create(limited_client).json
    assert game["players"]
    ids = [player["id"] for player in game["players"]]
    entry = {"caller": ids[0], "hands": [{"player": i, "total": 2} for i in ids]}

    recorded = limited_client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json=entry,
        headers={"Authorization": f"Bearer {game['token']}"},
    )
    refused = undo(limited_client, game, secrets.token_urlsafe(24))

    assert recorded.status_code == 201
    assert (recorded.headers["X-RateLimit-Limit"], recorded.headers["X-RateLimit-Remaining"]) == (
        "2",
        "1",
    )  # ROUND_WRITE_LIMIT, not the tighter-looking token-failure limit
    assert refused.status_code == 403
    assert (refused.headers["X-RateLimit-Limit"], refused.headers["X-RateLimit-Remaining"]) == (
        "3",
        "2",
    )  # TOKEN_FAILURE_LIMIT: only a refused token spends it
    created = create(limited_client)
    assert created.headers["X-RateLimit-Limit"] == "3"  # GAME_CREATE_LIMIT


def test_a_429_says_the_limit_in_words(limited_client):
    for _ in range(3):
        create(limited_client)

    response = create(limited_client)

    assert response.status_code == 429
    assert response.json["error"]["message"] == (
        "Too many requests: the limit is 3 requests a minute; wait a moment."
    )
    assert response.headers["X-RateLimit-Remaining"] == "0"


def test_tables_games_at_tables_rematches_and_imports_spend_the_game_creation_limit(
    limited_client,
):
    client = limited_client
    table = client.post("/api/v1/tables", json={"name": "Crew", "players": ["Asha", "Bikash"]})
    assert table.status_code == 201
    assert (table.headers["X-RateLimit-Limit"], table.headers["X-RateLimit-Remaining"]) == (
        "3",
        "2",
    )
    auth = {"Authorization": f"Bearer {table.json['token']}"}
    roster = [player["id"] for player in table.json["players"]]
    games = f"/api/v1/tables/{table.json['id']}/games"
    game = client.post(games, json={"ruleset": "jhyap", "players": roster}, headers=auth)
    assert game.status_code == 201 and game.headers["X-RateLimit-Remaining"] == "1"
    rematch = f"/api/v1/games/{game.json['id']}/rematch"
    assert client.post(rematch, headers=auth).status_code == 201
    export = client.get(f"/api/v1/tables/{table.json['id']}/export").json  # reads spend nothing

    # All three spent the one count of creations, which every creating POST now finds spent.
    refused = [
        create(client),
        client.post("/api/v1/tables", json={"name": "Another crew"}),
        client.post(games, json={"ruleset": "jhyap", "players": roster}, headers=auth),
        client.post(rematch, headers=auth),
        client.post("/api/v1/tables/import", json=export),
    ]
    assert [response.status_code for response in refused] == [429] * 5
    assert {response.headers["X-RateLimit-Limit"] for response in refused} == {"3"}
    assert len(client.get(f"/api/v1/tables/{table.json['id']}").json["games"]) == 2


def test_seat_changes_spend_the_games_round_writes(limited_client):
    game = create(limited_client).json
    url = f"/api/v1/games/{game['id']}"
    auth = {"Authorization": f"Bearer {game['token']}"}
    asha = game["players"][0]["id"]

    joined = limited_client.post(
        f"{url}/seats", json={"join": {"name": "Dev", "after": asha}}, headers=auth
    )
    assert joined.status_code == 201
    assert (joined.headers["X-RateLimit-Limit"], joined.headers["X-RateLimit-Remaining"]) == (
        "2",
        "1",
    )  # ROUND_WRITE_LIMIT
    assert limited_client.delete(f"{url}/rounds/1", headers=auth).status_code == 204  # the undo
    refused = limited_client.post(f"{url}/seats", json={"leave": asha}, headers=auth)
    assert refused.status_code == 429
    other = create(limited_client).json  # another game's round writes are its own
    other_auth = {"Authorization": f"Bearer {other['token']}"}
    leave = {"leave": other["players"][0]["id"]}
    assert (
        limited_client.post(
            f"/api/v1/games/{other['id']}/seats", json=leave, headers=other_auth
        ).status_code
        == 201
    )
    assert [p["name"] for p in limited_client.get(url).json["players"]] == ["Asha", "Bikash"]


@pytest.fixture
def client_with_unreachable_counters(database_url):
    """Limits on, their shared counters in a Redis that no one runs."""
    pytest.importorskip("redis")
    with app_on_empty_database(
        database_url,
        RATE_LIMITS="on",
        RATE_LIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}/0",
        GAME_CREATE_LIMIT="3/minute",
        ROUND_WRITE_LIMIT="2/minute",
    ) as app:
        yield app.test_client()


def test_writes_are_recorded_and_still_limited_while_the_shared_counters_are_unreachable(
    client_with_unreachable_counters, caplog
):
    client = client_with_unreachable_counters
    game = create(client)
    assert game.status_code == 201, game.json
    ids = [player["id"] for player in game.json["players"]]
    entry = {"caller": ids[0], "hands": [{"player": i, "total": 2} for i in ids]}
    url = f"/api/v1/games/{game.json['id']}/rounds"
    auth = {"Authorization": f"Bearer {game.json['token']}"}

    rounds = [client.post(url, json=entry, headers=auth) for _ in range(3)]

    assert [response.status_code for response in rounds] == [201, 201, 429]
    assert client.get(url).json["rounds"] == [rounds[0].json, rounds[1].json]
    assert rounds[1].headers["X-RateLimit-Remaining"] == "0"
    assert int(rounds[2].headers["Retry-After"]) > 0
    assert [create(client).status_code for _ in range(3)] == [201, 201, 429]
    assert "falling back to in-memory storage" in caplog.text


def test_a_write_waits_seconds_not_for_ever_for_counters_that_do_not_answer(database_url, caplog):
    pytest.importorskip("redis")
    with socket.socket() as silent:  # accepts connections (the backlog does) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        uri = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        with app_on_empty_database(
            database_url, RATE_LIMITS="on", RATE_LIMIT_STORAGE_URI=uri
        ) as app:
            client = app.test_client()
            started = time.monotonic()
            created = create(client)
            waited = time.monotonic() - started
            assert created.status_code == 201, created.json
            assert waited < 10
            assert "falling back to in-memory storage" in caplog.text
            assert create(client).status_code == 201


def record(client, game, authorization, address="192.0.2.10"):
    """POST a round that ends the first Jhyap round of ``game`` with low hands."""
    ids = [player["id"] for player in game["players"]]
    return client.post(
        f"/api/v1/games/{game['id']}/rounds",
        json={"caller": ids[0], "hands": [{"player": i, "total": 2} for i in ids]},
        headers={"Authorization": authorization},
        environ_base={"REMOTE_ADDR": address},
    )


def test_wrong_tokens_never_lock_out_requests_that_carry_the_right_token(limited_client):
    client = limited_client
    hall = "198.51.100.7"  # one Wi-Fi: the stale phone and the scorers share its address
    stale, scored = create(client).json, create(client).json
    table = client.post("/api/v1/tables", json={"name": "Crew", "players": ["Asha"]}).json
    wrong = f"Bearer {secrets.token_urlsafe(24)}"

    assert [undo(client, stale, wrong[7:], address=hall).status_code for _ in range(3)] == [
        403,
        403,
        403,
    ]
    assert undo(client, stale, wrong[7:], address=hall).status_code == 429  # refused ones: limited

    right = record(client, scored, f"Bearer {scored['token']}", address=hall)
    assert right.status_code == 201, right.json
    assert "Retry-After" not in right.headers
    renamed = client.patch(
        f"/api/v1/tables/{table['id']}",
        json={"name": "Friday crew"},
        headers={"Authorization": f"Bearer {table['token']}"},
        environ_base={"REMOTE_ADDR": hall},
    )
    assert renamed.status_code == 200, renamed.json
    assert renamed.json["name"] == "Friday crew"
    assert undo(client, stale, stale["token"], address=hall).status_code == 404  # its own token
    tokenless = client.delete(f"/api/v1/games/{scored['id']}", environ_base={"REMOTE_ADDR": hall})
    assert tokenless.status_code == 429  # no token at all: still refused, and still limited
    assert len(client.get(f"/api/v1/games/{scored['id']}/rounds").json["rounds"]) == 1


def test_round_writes_count_per_game_however_the_authorization_is_spelled(limited_client):
    client = limited_client
    game = create(client).json
    token = game["token"]
    written = [
        record(client, game, f"bearer {token}"),
        undo(client, game, token),  # "Bearer <token>"
        record(client, game, f"BEARER {token}"),
        record(client, game, f"Bearer  {token}"),
    ]
    assert [response.status_code for response in written] == [201, 204, 429, 429]
    assert client.get(f"/api/v1/games/{game['id']}/rounds").json["rounds"] == []


def test_a_game_at_a_table_has_one_count_for_its_own_token_and_the_tables(limited_client):
    client = limited_client
    table = client.post("/api/v1/tables", json={"name": "Crew", "players": ["Asha", "Bikash"]})
    table_auth = f"Bearer {table.json['token']}"
    roster = [player["id"] for player in table.json["players"]]
    game = client.post(
        f"/api/v1/tables/{table.json['id']}/games",
        json={"ruleset": "jhyap", "players": roster},
        headers={"Authorization": table_auth},
    ).json
    written = [
        record(client, game, f"Bearer {game['token']}"),
        undo(client, game, table.json["token"]),
        record(client, game, table_auth),
        record(client, game, f"Bearer {game['token']}"),
    ]
    assert [response.status_code for response in written] == [201, 204, 429, 429]
    assert written[2].headers["X-RateLimit-Limit"] == "2"  # ROUND_WRITE_LIMIT, for the game
    assert client.get(f"/api/v1/games/{game['id']}/rounds").json["rounds"] == []
