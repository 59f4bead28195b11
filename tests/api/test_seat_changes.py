"""Seat changes between rounds: joins and leaves as items of the game's history."""

from __future__ import annotations

from typing import Any

import pytest

from ..conftest import counted_statements


def seats(table, body: dict[str, Any], **headers: str) -> Any:
    return table.client.post(f"{table.url}/seats", json=body, headers={**table.auth, **headers})


def join(table, name: str, after_seat: int) -> dict[str, Any]:
    response = seats(table, {"join": {"name": name, "after": table.players[after_seat]}})
    assert response.status_code == 201, response.json
    table.game = response.json
    return response.json


def leave(table, seat: int) -> dict[str, Any]:
    response = seats(table, {"leave": table.players[seat]})
    assert response.status_code == 201, response.json
    table.game = response.json
    return response.json


@pytest.fixture
def started(table):
    """Asha, Bikash and Chandra after one Jhyap round: 0, 12 and 20."""
    table.create()
    table.jhyap(0, 3, 12, 20)
    return table


def test_a_newcomer_sits_after_the_named_player_with_the_highest_active_total(client, started):
    before = started.get()
    response = seats(started, {"join": {"name": "Dev", "after": started.players[1]}})
    assert response.status_code == 201, response.json
    assert response.headers["Location"] == f"{started.url}/rounds/2"
    game = response.json
    assert [p["name"] for p in game["players"]] == ["Asha", "Bikash", "Dev", "Chandra"]
    assert [p["seat"] for p in game["players"]] == [0, 1, 2, 3]
    assert [p["id"] for p in game["players"] if p["name"] != "Dev"] == started.players
    dev = game["players"][2]
    assert (dev["score"], dev["left"], dev["eliminated"], dev["roster_id"]) == (
        20,
        False,
        False,
        None,
    )
    assert game["rounds_played"] == 1 and game["next_round"]["number"] == 3
    # The next round's dealer and starter are the same players as before the join.
    for key in ("dealer", "starter"):
        assert game["next_round"][key] == before["next_round"][key]

    item = client.get(f"{started.url}/rounds/2").json
    assert item["seat_change"] == {
        "join": {"player": dev["id"], "name": "Dev", "after": started.players[1], "score": 20}
    }
    assert [r["number"] for r in client.get(f"{started.url}/rounds").json["rounds"]] == [1, 2]
    started.game = game
    assert started.jhyap(0, 1, 5, 6, 7)["number"] == 3


def test_a_player_who_leaves_keeps_a_frozen_total_and_takes_no_part(client, started):
    game = leave(started, 2)
    chandra = game["players"][2]
    assert (chandra["left"], chandra["eliminated"], chandra["score"]) == (True, False, 20)
    refused = started.post_round(started.jhyap_entry(0, [1, 5, 6]))
    assert refused.status_code == 422
    assert refused.json["error"]["message"] == "Chandra has left the game and takes no part."
    round_ = started.jhyap(0, 1, 5, None)
    assert round_["number"] == 3
    assert started.scores()[2] == 20


def test_when_the_last_but_one_leaves_the_last_player_wins(started):
    leave(started, 2)
    game = leave(started, 0)
    assert game["status"] == "finished"
    assert game["winners"] == [started.players[1]]
    assert game["next_round"] is None


def test_undo_removes_the_last_seat_change_and_a_joined_player(client, started):
    before = started.get()
    join(started, "Dev", 0)
    assert client.delete(f"{started.url}/rounds/2", headers=started.auth).status_code == 204
    after = started.game = started.get()
    assert after["players"] == before["players"]
    assert after["next_round"] == before["next_round"]
    leave(started, 1)
    assert client.delete(f"{started.url}/rounds/1", headers=started.auth).status_code == 409
    assert client.delete(f"{started.url}/rounds/2", headers=started.auth).status_code == 204
    assert started.get()["players"] == before["players"]


def test_a_correction_replays_across_seat_changes(client, started):
    join(started, "Dev", 2)
    leave(started, 0)
    started.jhyap(1, None, 2, 30, 4)
    # Round 1 again: Chandra held 25, not 20 (the seats then: Asha, Bikash, Chandra).
    asha, bikash, chandra = started.players[:3]
    corrected = client.put(
        f"{started.url}/rounds/1",
        json={
            "caller": asha,
            "hands": [
                {"player": asha, "total": 3},
                {"player": bikash, "total": 12},
                {"player": chandra, "total": 25},
            ],
        },
        headers=started.auth,
    )
    assert corrected.status_code == 200, corrected.json
    game = started.get()
    dev = next(p for p in game["players"] if p["name"] == "Dev")
    assert dev["score"] == 25 + 4  # joined with Chandra's corrected 25, then held 4
    item = client.get(f"{started.url}/rounds/2").json
    assert item["seat_change"]["join"]["score"] == 25
    assert (
        client.put(
            f"{started.url}/rounds/2",
            json=started.jhyap_entry(1, [None, 2, 30, 4]),
            headers=started.auth,
        ).status_code
        == 409
    )


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"join": {"name": "Dev"}}, 422, "join"),
        ({"join": {"name": "Dev", "after": 999}}, 422, "join"),
        ({"join": {"name": "asha", "after": "first"}}, 422, "join"),
        ({"join": {"player": 3, "after": "first"}}, 422, "join"),
        ({"leave": 999}, 422, "leave"),
        ({"leave": "first", "join": {"name": "Dev", "after": "first"}}, 422, "join"),
        ({}, 422, "join"),
        ({"leave": "first", "number": 5}, 409, "number"),
    ],
)
def test_a_bad_seat_change_is_refused_and_changes_nothing(started, body, status, field):
    ids = {"first": started.players[0]}

    def real(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: real(item) for key, item in value.items()}
        return ids.get(value, value) if isinstance(value, str) else value

    before = started.get()
    response = seats(started, real(body))
    assert response.status_code == status, response.json
    assert field in response.json["error"].get("details", {}), response.json
    assert started.get() == before


def test_no_one_joins_or_leaves_a_finished_game_or_beyond_the_player_limit(client, table):
    table.create(players=["A", "B", "C", "D", "E", "F"], ruleset="twenty-two")
    response = seats(table, {"join": {"name": "G", "after": table.players[0]}})
    assert response.status_code == 422
    assert "at most 6 players" in response.json["error"]["message"]
    table.create(players=["A", "B"], elimination_limit=5, halve_at=[])
    table.jhyap(0, 0, 9)
    assert table.get()["status"] == "finished"
    assert seats(table, {"leave": table.players[0]}).status_code == 409
    assert seats(table, {"join": {"name": "C", "after": table.players[0]}}).status_code == 409


def test_leaving_twice_or_after_elimination_is_refused(started, table):
    leave(started, 2)
    response = seats(started, {"leave": started.players[2]})
    assert response.status_code == 422
    assert response.json["error"]["message"] == "Chandra has already left the game."


def test_a_dry_run_shows_the_game_and_stores_nothing(started):
    before = started.get()
    client = started.client
    response = client.post(
        f"{started.url}/seats?dry_run=true",
        json={"join": {"name": "Dev", "after": started.players[0]}},
        headers=started.auth,
    )
    assert response.status_code == 200
    assert response.json["dry_run"] is True and len(response.json["players"]) == 4
    assert started.get() == before


def test_a_seat_change_sent_again_with_its_key_is_answered_as_the_first_time(started):
    body = {"join": {"name": "Dev", "after": started.players[0]}}
    first = seats(started, body, **{"Idempotency-Key": "join-dev"})
    again = seats(started, body, **{"Idempotency-Key": "join-dev"})
    assert (again.status_code, again.json) == (201, first.json)
    assert again.headers["Location"] == first.headers["Location"]
    assert len(started.get()["players"]) == 4
    other = seats(started, {"leave": started.players[0]}, **{"Idempotency-Key": "join-dev"})
    assert other.status_code == 422


@pytest.mark.parametrize("ruleset", ["jhyap", "twenty-two"])
def test_a_game_with_seat_changes_exports_and_imports_to_the_same_game(client, table, ruleset):
    table.create(ruleset=ruleset)
    if ruleset == "jhyap":
        table.jhyap(0, 3, 12, 20)
    else:
        table.trick((1, "2H"), (2, "3H"), (0, "AS"))
    join(table, "Dev", 1)
    leave(table, 0)
    document = table.export()
    assert [("seat_change" in item["round"]) for item in document["rounds"]] == [
        False,
        True,
        True,
    ]
    imported = client.post("/api/v1/games/import", json=document)
    assert imported.status_code == 201, imported.json
    copy = imported.json
    original = table.get()
    for key in ("status", "rounds_played", "next_round", "winners"):
        if key in ("next_round", "winners"):
            continue  # player ids differ
        assert copy[key] == original[key]
    assert [(p["name"], p["score"], p["left"]) for p in copy["players"]] == [
        (p["name"], p["score"], p["left"]) for p in original["players"]
    ]
    names = {p["id"]: p["name"] for p in copy["players"]}
    assert (
        names[copy["next_round"]["dealer"]]
        == {p["id"]: p["name"] for p in original["players"]}[original["next_round"]["dealer"]]
    )
    history = client.get(f"/api/v1/games/{copy['id']}/rounds").json["rounds"]
    assert history[1]["seat_change"]["join"]["name"] == "Dev"
    assert names[history[2]["seat_change"]["leave"]["player"]] == "Asha"


def test_a_damaged_seat_change_in_an_export_is_refused(client, started, app):
    join(started, "Dev", 1)
    document = started.export()
    document["rounds"][1]["round"]["seat_change"]["join"]["score"] = 3
    with counted_statements(app) as importing:
        response = client.post("/api/v1/games/import", json=document)
    assert response.status_code == 422
    assert response.json["error"]["message"].startswith("Item 2 of the export")
    assert "INSERT" not in " ".join(s for s, _ in importing)
    document["rounds"][1]["round"]["seat_change"] = {"join": {"name": "Dev"}}
    assert client.post("/api/v1/games/import", json=document).status_code == 422
