"""Creating a game away from any table, sent again by a phone that got no answer."""

from __future__ import annotations

import pytest

from tests.conftest import row_counts

GAMES = "/api/v1/games"
SETUP = {"ruleset": "jhyap", "players": ["Asha", "Bikash", "Chandra"], "dealer": 0, "starter": 1}


def test_a_game_sent_again_with_its_key_is_created_once_and_answered_as_the_first_time(app, client):
    key = {"Idempotency-Key": "new-game-Yk3w9Qp2Lm7Rt5Xc"}
    first = client.post(GAMES, json=SETUP, headers=key)
    again = client.post(GAMES, json=dict(reversed(SETUP.items())), headers=key)

    assert first.status_code == again.status_code == 201, first.json
    assert again.json == first.json  # the token too: the phone that lost it gets it again
    assert again.headers["Location"] == first.headers["Location"] == f"{GAMES}/{first.json['id']}"
    assert row_counts(app) == (1, 3, 0)
    ids = [player["id"] for player in first.json["players"]]
    entry = {
        "caller": ids[0],
        "hands": [{"player": i, "total": 0 if i == ids[0] else 5} for i in ids],
    }
    auth = {"Authorization": f"Bearer {again.json['token']}"}
    recorded = client.post(f"{GAMES}/{first.json['id']}/rounds", json=entry, headers=auth)
    assert recorded.status_code == 201, recorded.json


def test_a_key_used_for_another_game_is_422_and_creates_nothing(app, client):
    key = {"Idempotency-Key": "new-game-Vb8Nq4Ht1Zs6Jw0e"}
    assert client.post(GAMES, json=SETUP, headers=key).status_code == 201

    other = client.post(GAMES, json={**SETUP, "name": "Another"}, headers=key)

    assert other.status_code == 422
    assert other.json["error"]["code"] == "invalid_idempotency_key"
    assert row_counts(app) == (1, 3, 0)


def test_games_sent_without_a_key_or_with_different_keys_are_each_created(app, client):
    answers = [
        client.post(GAMES, json=SETUP),
        client.post(GAMES, json=SETUP),
        client.post(GAMES, json=SETUP, headers={"Idempotency-Key": "a" * 22}),
        client.post(GAMES, json=SETUP, headers={"Idempotency-Key": "b" * 22}),
    ]

    assert [answer.status_code for answer in answers] == [201] * 4
    assert len({answer.json["id"] for answer in answers}) == 4
    assert row_counts(app) == (4, 12, 0)


def test_a_malformed_key_is_400_and_creates_nothing(app, client):
    response = client.post(GAMES, json=SETUP, headers={"Idempotency-Key": "a,b"})

    assert response.status_code == 400
    assert row_counts(app) == (0, 0, 0)


def test_the_key_of_a_new_table_does_not_replay_as_a_game(client):
    key = {"Idempotency-Key": "shared-key-Pd2Wx7Kc9Ms4Fq"}
    table = client.post("/api/v1/tables", json={"name": "Crew"}, headers=key)

    game = client.post(GAMES, json=SETUP, headers=key)

    assert table.status_code == game.status_code == 201
    assert game.json["id"] != table.json["id"] and game.json["ruleset"] == "jhyap"


def test_an_import_sent_again_with_its_key_is_created_once(app, client, table):
    table.create()
    table.jhyap(0, 2, 17, 9)
    document = client.get(f"{table.url}/export").json
    key = {"Idempotency-Key": "import-Gh5Tz1Nr8Bv3Lq6Y"}

    first = client.post(f"{GAMES}/import", json=document, headers=key)
    again = client.post(f"{GAMES}/import", json=document, headers=key)
    renamed = {**document, "game": {**document["game"], "name": "Another"}}
    other = client.post(f"{GAMES}/import", json=renamed, headers=key)

    assert first.status_code == again.status_code == 201, first.json
    assert again.json == first.json and again.json["id"] != table.id
    assert other.json["error"]["code"] == "invalid_idempotency_key", other.json
    assert row_counts(app)[0] == 2  # the game exported, and one copy
    assert client.post(f"{GAMES}/import", json=document).json["id"] != first.json["id"]


def test_a_table_import_sent_again_with_its_key_is_created_once(client):
    created = client.post("/api/v1/tables", json={"name": "Crew", "players": ["Asha", "Bikash"]})
    document = client.get(f"/api/v1/tables/{created.json['id']}/export").json
    key = {"Idempotency-Key": "table-import-Cw4Jm9Xe2Rk7"}

    first = client.post("/api/v1/tables/import", json=document, headers=key)
    again = client.post("/api/v1/tables/import", json=document, headers=key)

    assert first.status_code == again.status_code == 201, first.json
    assert again.json == first.json and "token" in again.json
    assert first.headers["Location"] == again.headers["Location"]
    answer = {field: value for field, value in first.json.items() if field != "token"}
    assert client.get(first.headers["Location"]).json == answer  # as it was committed
    answered = client.post("/api/v1/tables/import", json=document).json
    assert answered["id"] not in (created.json["id"], first.json["id"])


SHORT_KEY = "x" * 21


@pytest.mark.parametrize(
    ("path", "body"),
    [
        (GAMES, SETUP),
        ("/api/v1/tables", {"name": "Crew", "players": ["Asha", "Bikash"]}),
        (f"{GAMES}/import", None),
        ("/api/v1/tables/import", None),
        ("table-games", None),
        ("rematch", None),
    ],
    ids=["game", "table", "import", "table import", "game at a table", "rematch"],
)
def test_a_creation_key_shorter_than_22_characters_is_refused(app, client, path, body):
    table = client.post("/api/v1/tables", json={"name": "Crew", "players": ["Asha", "Bikash"]})
    auth = {"Authorization": f"Bearer {table.json['token']}"}
    roster = [player["id"] for player in table.json["players"]]
    game = client.post(
        f"/api/v1/tables/{table.json['id']}/games",
        json={"ruleset": "jhyap", "players": roster},
        headers=auth,
    )
    if path == f"{GAMES}/import":
        body = client.get(f"{GAMES}/{game.json['id']}/export").json
    elif path == "/api/v1/tables/import":
        body = client.get(f"/api/v1/tables/{table.json['id']}/export").json
    elif path == "table-games":
        path, body = (
            f"/api/v1/tables/{table.json['id']}/games",
            {"ruleset": "jhyap", "players": roster},
        )
    elif path == "rematch":
        path = f"{GAMES}/{game.json['id']}/rematch"
    before = row_counts(app)

    refused = client.post(path, json=body, headers={**auth, "Idempotency-Key": SHORT_KEY})

    assert refused.status_code == 400, refused.json
    assert refused.json["error"]["code"] == "bad_request"
    assert refused.json["error"]["message"] == (
        "The Idempotency-Key of a request that creates a game or table must be at least 22 "
        "random characters, since a resend with it answers the new token."
    )
    assert row_counts(app) == before
    accepted = client.post(path, json=body, headers={**auth, "Idempotency-Key": SHORT_KEY + "y"})
    assert accepted.status_code == 201, accepted.json


def test_a_round_key_may_still_be_short(table):
    table.create()
    recorded = table.post_round(table.jhyap_entry(0, [0, 5, 7]), **{"Idempotency-Key": "r1"})
    assert recorded.status_code == 201, recorded.json
