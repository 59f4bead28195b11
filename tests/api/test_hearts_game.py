"""Hearts through the API: a game to its limit, refused hands, history, tables and seat changes."""

from __future__ import annotations

from typing import Any

from ..conftest import row_counts

TABLES = "/api/v1/tables"


def take(table: Any, *points: int) -> dict[str, Any]:
    """A Hearts entry of penalty points, by seat of the active players."""
    return {
        "hands": [{"player": p, "points": n} for p, n in zip(table.players, points, strict=True)]
    }


def hearts(table: Any, *taken: int, queen: int) -> dict[str, Any]:
    """A Hearts entry of hearts taken, by seat, and the seat that took the queen of spades."""
    hands = [{"player": p, "hearts": n} for p, n in zip(table.players, taken, strict=True)]
    return {"hands": hands, "queen": table.players[queen]}


def played(table: Any, entry: dict[str, Any]) -> dict[str, Any]:
    response = table.post_round(entry)
    assert response.status_code == 201, response.json
    return response.json


def test_a_game_of_hearts_to_its_limit_with_a_moon_and_a_shared_win(table):
    game = table.create(["Asha", "Bikash", "Chandra", "Dipa"], ruleset="hearts", limit=50)
    a, b, c, d = table.players
    assert game["options"] == {"limit": 50, "moon": "add_to_others"}
    assert game["next_round"] == {"number": 1, "dealer": a, "starter": None, "pass": "left"}

    played(table, take(table, 13, 5, 8, 0))
    moon = played(table, take(table, 0, 0, 0, 26))
    assert moon["moon"] == d and moon["pass"] == "right"
    assert [row["points"] for row in moon["results"]] == [26, 26, 26, 0]
    played(table, hearts(table, 0, 3, 0, 10, queen=3))
    last = played(table, take(table, 13, 0, 0, 13))

    assert last["game"] == {"status": "finished", "next_round": None, "winners": [b, c]}
    final = table.get()
    assert final["status"] == "finished" and final["winners"] == [b, c]
    assert table.scores() == [52, 34, 34, 36]
    assert [item["pass"] for item in table.client.get(f"{table.url}/rounds").json["rounds"]] == [
        "left",
        "right",
        "across",
        "keep",
    ]


def test_a_hand_that_adds_up_to_25_is_refused_with_how_far_off_it_is(app, table):
    table.create(["Asha", "Bikash", "Chandra", "Dipa"], ruleset="hearts")
    before, counts = table.get(), row_counts(app)
    response = table.post_round(take(table, 13, 5, 7, 0))
    assert response.status_code == 422
    assert response.json["error"] == {
        "status": 422,
        "code": "invalid_round",
        "message": "A hand's points add up to 26, but these add up to 25 (1 too few).",
        "details": {"hands": ["Add up to 26; off by 1."]},
    }
    assert table.get() == before and row_counts(app) == counts


def test_the_refusal_is_said_in_the_tables_language(table):
    table.create(["Asha", "Bikash", "Chandra"], ruleset="hearts")
    response = table.client.post(
        f"{table.url}/rounds",
        json=take(table, 13, 5, 7),
        headers={**table.auth, "Accept-Language": "ne"},
    )
    assert response.json["error"]["message"] == (
        "एक हातको अंकको जोड 26 हुन्छ, तर यिनको जोड 25 छ (1 कम)।"
    )


def test_an_entry_of_another_shape_is_named_by_its_ruleset(table):
    table.create(["Asha", "Bikash", "Chandra"], ruleset="hearts")
    response = table.post_round(table.jhyap_entry(0, (0, 3, 5)))
    assert response.status_code == 422
    assert response.json["error"]["message"] == (
        "This game is Hearts, but the round was entered as Jhyap."
    )
    strange = table.post_round({"hands": [{"player": table.players[0], "points": "13"}]})
    assert strange.status_code == 422
    assert strange.json["error"]["details"] == {
        "hands": {"0": {"points": ["Must be a whole number."]}}
    }


def test_a_hand_is_corrected_and_the_later_hands_scored_again(table):
    table.create(["Asha", "Bikash", "Chandra"], ruleset="hearts", moon="subtract_from_shooter")
    played(table, take(table, 13, 13, 0))
    played(table, take(table, 0, 26, 0))
    assert table.scores() == [13, -13, 0]
    response = table.client.put(
        f"{table.url}/rounds/1", json=take(table, 0, 13, 13), headers=table.auth
    )
    assert response.status_code == 200, response.json
    assert table.scores() == [0, -13, 13]


def test_an_export_of_hearts_imports_to_the_same_game(table):
    table.create(["Asha", "Bikash", "Chandra", "Dipa"], ruleset="hearts", limit=60)
    played(table, hearts(table, 4, 4, 4, 1, queen=0))
    played(table, take(table, 26, 0, 0, 0))
    document = table.export()
    imported = table.client.post("/api/v1/games/import", json=document)
    assert imported.status_code == 201, imported.json
    copy = table.client.get(f"/api/v1/games/{imported.json['id']}").json
    assert [p["score"] for p in copy["players"]] == table.scores()
    assert copy["next_round"]["pass"] == "across"


def test_seat_changes_in_hearts_and_a_leave_below_three_refused(table):
    table.create(["Asha", "Bikash", "Chandra"], ruleset="hearts")
    played(table, take(table, 20, 6, 0))
    a, b, c = table.players
    joined = table.client.post(
        f"{table.url}/seats", json={"join": {"name": "Dev", "after": c}}, headers=table.auth
    )
    assert joined.status_code == 201, joined.json
    assert [p["score"] for p in joined.json["players"]] == [20, 6, 0, 20]
    assert joined.json["next_round"]["pass"] == "right"
    gone = table.client.post(f"{table.url}/seats", json={"leave": a}, headers=table.auth)
    assert gone.status_code == 201
    refused = table.client.post(f"{table.url}/seats", json={"leave": b}, headers=table.auth)
    assert refused.status_code == 422
    assert refused.json["error"]["message"] == (
        "Hearts is played by at least 3 players, so Bikash cannot leave while 3 are in the game."
    )


def test_a_tables_standings_show_the_hearts_figures(client):
    created = client.post(TABLES, json={"name": "Crew", "players": ["Asha", "Bikash", "Chandra"]})
    crew, auth = created.json, {"Authorization": f"Bearer {created.json['token']}"}
    roster = [player["id"] for player in crew["players"]]
    game = client.post(
        f"{TABLES}/{crew['id']}/games",
        json={"ruleset": "hearts", "players": roster, "options": {"limit": 50}},
        headers=auth,
    ).json
    seats = [player["id"] for player in game["players"]]
    for taken in ([26, 0, 0], [13, 13, 0], [0, 13, 13]):
        entry = {"hands": [{"player": p, "points": n} for p, n in zip(seats, taken, strict=True)]}
        response = client.post(f"/api/v1/games/{game['id']}/rounds", json=entry, headers=auth)
        assert response.status_code == 201, response.json
    standings = client.get(f"{TABLES}/{crew['id']}").json["standings"]
    by_name = {row["name"]: row for row in standings}
    # Asha 0 + 13 + 0 = 13; Bikash 26 + 13 + 13 = 52 (over 50); Chandra 26 + 0 + 13 = 39. Asha
    # won; Chandra's lower total is second place, Bikash's third (api.md: wins, then places).
    assert [row["name"] for row in standings] == ["Asha", "Chandra", "Bikash"]
    assert [row["average_place"] for row in standings] == [1.0, 2.0, 3.0]
    assert by_name["Asha"]["games_won"] == 1
    assert by_name["Asha"]["hearts"] == {
        "games_played": 1,
        "rounds_played": 3,
        "moons": 1,
        "clean_hands": 1,
        "average_taken": 13.0,
    }
    assert by_name["Chandra"]["hearts"]["clean_hands"] == 2
