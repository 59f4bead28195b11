"""The score pad through the API: negative points, targets, the end by PATCH, history, tables."""

from __future__ import annotations

from typing import Any

from ..conftest import row_counts

TABLES = "/api/v1/tables"


def scores(table: Any, *points: int) -> dict[str, Any]:
    """A score pad entry of points, by seat of the active players."""
    return {
        "hands": [{"player": p, "points": n} for p, n in zip(table.players, points, strict=True)]
    }


def played(table: Any, entry: dict[str, Any]) -> dict[str, Any]:
    response = table.post_round(entry)
    assert response.status_code == 201, response.json
    return response.json


def finish(table: Any, **headers: str) -> Any:
    return table.client.patch(
        table.url, json={"status": "finished"}, headers={**table.auth, **headers}
    )


def test_negative_points_over_three_rounds_the_highest_total_wins(table):
    game = table.create(ruleset="score-pad", rounds=3)
    a, b, c = table.players
    assert game["options"] == {"winner": "highest", "target": None, "rounds": 3}
    assert game["next_round"] == {"number": 1, "dealer": a, "starter": b}
    first = played(table, scores(table, 10, -5, 0))
    assert [row["score_after"] for row in first["results"]] == [10, -5, 0]
    assert list(first["results"][0]) == [
        "player",
        "points",
        "score_before",
        "score_after",
        "halved",
        "eliminated",
    ]
    played(table, scores(table, -20, 15, 5))
    last = played(table, scores(table, 0, -10, 5))
    assert table.scores() == [-10, 0, 10]
    assert last["game"] == {"status": "finished", "next_round": None, "winners": [c]}


def test_lowest_wins_with_a_target(table):
    table.create(ruleset="score-pad", dealer=2, winner="lowest", target=100)
    played(table, scores(table, 30, 60, 20))
    last = played(table, scores(table, 40, 45, 20))
    assert table.scores() == [70, 105, 40]
    assert last["game"]["winners"] == [table.players[2]]
    assert table.get()["status"] == "finished"


def test_the_table_ends_the_game_by_patch_and_an_undo_reopens_it(app, table):
    table.create(["Asha", "Bikash", "Chandra", "Dipa"], ruleset="score-pad")
    played(table, scores(table, 5, 12, 12, -3))
    played(table, scores(table, 1, 0, 0, 15))
    etag = table.client.get(table.url).headers["ETag"]

    ended = finish(table)
    assert ended.status_code == 200, ended.json
    b, c, d = table.players[1:]
    assert ended.json["status"] == "finished" and ended.json["winners"] == [b, c, d]
    assert ended.json["next_round"] is None and ended.json["rounds_played"] == 2
    assert table.client.get(table.url).headers["ETag"] != etag
    history = table.client.get(f"{table.url}/rounds").json["rounds"]
    assert {key: value for key, value in history[-1].items() if key != "created_at"} == {
        "number": 3,
        "end": True,
        "game": {"status": "finished", "next_round": None, "winners": [b, c, d]},
    }

    # Ending it again changes nothing; a round after the end is refused.
    counts, etag = row_counts(app), table.client.get(table.url).headers["ETag"]
    assert finish(table).status_code == 200
    assert row_counts(app) == counts and table.client.get(table.url).headers["ETag"] == etag
    assert table.post_round(scores(table, 1, 1, 1, 1)).status_code == 409

    # The end is not a round to correct; undoing it reopens the game.
    corrected = table.client.put(
        f"{table.url}/rounds/3", json=scores(table, 1, 1, 1, 1), headers=table.auth
    )
    assert corrected.status_code == 409
    assert corrected.json["error"]["message"] == (
        "Number 3 is the end of the game, not a round; undo it to play on."
    )
    assert table.client.delete(f"{table.url}/rounds/3", headers=table.auth).status_code == 204
    reopened = table.get()
    assert reopened["status"] == "in_progress" and reopened["next_round"]["number"] == 3
    played(table, scores(table, 0, 1, 1, 0))
    assert finish(table).json["winners"] == [table.players[1], table.players[2]]


def test_a_correction_replays_across_the_end(table):
    table.create(ruleset="score-pad", winner="lowest")
    played(table, scores(table, 5, 6, 7))
    assert finish(table).json["winners"] == [table.players[0]]
    response = table.client.put(
        f"{table.url}/rounds/1", json=scores(table, 9, 6, 7), headers=table.auth
    )
    assert response.status_code == 200, response.json
    game = table.get()
    assert game["status"] == "finished" and game["winners"] == [table.players[1]]


def test_an_export_with_the_end_imports_to_the_same_game(table):
    table.create(ruleset="score-pad")
    played(table, scores(table, 5, -6, 7))
    finish(table)
    document = table.export()
    assert document["rounds"][-1]["entry"] == {"end": True}
    imported = table.client.post("/api/v1/games/import", json=document)
    assert imported.status_code == 201, imported.json
    assert imported.json["status"] == "finished"
    assert imported.json["winners"] == [imported.json["players"][2]["id"]]
    copy = table.client.get(f"/api/v1/games/{imported.json['id']}/rounds").json["rounds"]
    assert copy[-1]["end"] is True

    document["rounds"][-1]["entry"] = {"end": False}
    refused = table.client.post("/api/v1/games/import", json=document)
    assert refused.status_code == 422
    assert refused.json["error"]["message"] == "Round 2 of the export has a malformed entry."


def test_games_that_end_by_their_rules_cannot_be_ended_by_hand(app, table):
    table.create()  # Jhyap
    counts = row_counts(app)
    refused = finish(table)
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "invalid_request"
    assert refused.json["error"]["message"] == (
        "A game of Jhyap ends by its own rules, so it cannot be ended by hand."
    )
    assert row_counts(app) == counts
    table.create(ruleset="score-pad", target=50)
    played(table, scores(table, 1, 2, 3))
    assert finish(table, **{"Accept-Language": "bn"}).json["error"]["message"] == (
        "স্কোর প্যাড খেলা নিজের নিয়মেই শেষ হয়, তাই হাতে শেষ করা যায় না।"
    )


def test_a_status_other_than_finished_and_an_end_before_any_round_are_refused(table):
    table.create(ruleset="score-pad")
    wrong = table.client.patch(table.url, json={"status": "in_progress"}, headers=table.auth)
    assert wrong.status_code == 422
    assert wrong.json["error"]["message"] == (
        "The status can only be finished; undo the end to play on."
    )
    early = finish(table)
    assert early.status_code == 422
    assert early.json["error"]["message"] == (
        "No round has been played yet, so the game has no winner to end on."
    )
    assert table.get()["status"] == "in_progress"


def test_seat_changes_on_the_pad_start_the_newcomer_on_the_worst_total(table):
    table.create(ruleset="score-pad", winner="lowest")
    played(table, scores(table, 12, -5, 3))
    joined = table.client.post(
        f"{table.url}/seats",
        json={"join": {"name": "Dev", "after": table.players[0]}},
        headers=table.auth,
    )
    assert joined.status_code == 201, joined.json
    assert [p["score"] for p in joined.json["players"]] == [12, 12, -5, 3]


def test_a_tables_standings_show_the_pad_figures(client):
    created = client.post(TABLES, json={"name": "Crew", "players": ["Asha", "Bikash"]})
    crew, auth = created.json, {"Authorization": f"Bearer {created.json['token']}"}
    roster = [player["id"] for player in crew["players"]]
    game = client.post(
        f"{TABLES}/{crew['id']}/games",
        json={"ruleset": "score-pad", "players": roster},
        headers=auth,
    ).json
    seats = [player["id"] for player in game["players"]]
    url = f"/api/v1/games/{game['id']}"
    for points in ([10, 3], [-4, 4]):
        entry = {"hands": [{"player": p, "points": n} for p, n in zip(seats, points, strict=True)]}
        assert client.post(f"{url}/rounds", json=entry, headers=auth).status_code == 201
    assert client.patch(url, json={"status": "finished"}, headers=auth).status_code == 200
    standings = client.get(f"{TABLES}/{crew['id']}").json["standings"]
    assert [(row["name"], row["games_won"]) for row in standings] == [("Bikash", 1), ("Asha", 0)]
    assert standings[1]["score-pad"] == {
        "games_played": 1,
        "rounds_played": 2,
        "points": 6,
        "average_points": 3.0,
    }
    assert standings[0]["score-pad"]["average_points"] == 3.5


def test_a_table_of_hearts_and_a_pad_exports_and_imports_to_the_same_standings(client):
    created = client.post(TABLES, json={"name": "Crew", "players": ["Asha", "Bikash", "Chandra"]})
    crew, auth = created.json, {"Authorization": f"Bearer {created.json['token']}"}
    roster = [player["id"] for player in crew["players"]]

    def game(ruleset: str, **options: int) -> tuple[str, list[int]]:
        body = {"ruleset": ruleset, "players": roster, "options": options}
        made = client.post(f"{TABLES}/{crew['id']}/games", json=body, headers=auth)
        assert made.status_code == 201, made.json
        return made.json["id"], [player["id"] for player in made.json["players"]]

    def play(game_id: str, seats: list[int], points: list[int]) -> None:
        hands = [{"player": p, "points": n} for p, n in zip(seats, points, strict=True)]
        response = client.post(
            f"/api/v1/games/{game_id}/rounds", json={"hands": hands}, headers=auth
        )
        assert response.status_code == 201, response.json

    hearts_id, hearts_seats = game("hearts", limit=50)
    for taken in ([26, 0, 0], [13, 13, 0], [0, 13, 13]):
        play(hearts_id, hearts_seats, taken)
    pad_id, pad_seats = game("score-pad")
    play(pad_id, pad_seats, [5, -3, 9])
    assert (
        client.patch(
            f"/api/v1/games/{pad_id}", json={"status": "finished"}, headers=auth
        ).status_code
        == 200
    )
    again = client.post(f"/api/v1/games/{pad_id}/rematch", headers=auth)
    assert again.status_code == 201 and again.json["ruleset"] == "score-pad"
    assert again.json["options"] == {"winner": "highest", "target": None, "rounds": None}

    original = client.get(f"{TABLES}/{crew['id']}").json
    document = client.get(f"{TABLES}/{crew['id']}/export").json
    imported = client.post(f"{TABLES}/import", json=document)
    assert imported.status_code == 201, imported.json
    for key in ("name", "games_played", "games_won", "hearts", "score-pad"):
        assert [row.get(key) for row in imported.json["standings"]] == [
            row.get(key) for row in original["standings"]
        ]
    # Asha won the Hearts and Chandra the pad: one win each, then by name; Bikash none.
    by_place = [(row["name"], row["score-pad"]["points"]) for row in original["standings"]]
    assert by_place == [("Asha", 5), ("Chandra", 9), ("Bikash", -3)]
