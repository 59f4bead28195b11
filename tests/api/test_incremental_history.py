"""Reading only the new history items (``?after=N``) and the game's ``history_revision``.

api.md, "Live updates": a phone that holds the history up to item N reads
only what came after it; the Game's ``history_revision`` changes when an
existing item is corrected or undone (never when one is added), so a phone
whose revision differs reads the whole history again.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GameClient, row_counts


def history(table: GameClient, query: str = "") -> Any:
    """``GET .../rounds`` with ``query``."""
    return table.client.get(f"{table.url}/rounds{query}")


def numbers(response: Any) -> list[int]:
    """The numbers of the history items in an answer."""
    assert response.status_code == 200, response.json
    return [item["number"] for item in response.json["rounds"]]


def revision(table: GameClient) -> int:
    """The game's ``history_revision`` as GET answers it."""
    return table.get()["history_revision"]


@pytest.fixture
def four_items(table: GameClient) -> GameClient:
    """A game of three rounds and a join between rounds 2 and 3 (items 1 to 4)."""
    table.create(players=("Asha", "Bikash", "Chandra"))
    table.jhyap(1, 10, 2, 8)
    table.jhyap(2, 6, 9, 1)
    joined = table.client.post(
        f"{table.url}/seats",
        json={"join": {"name": "Dev", "after": table.players[2]}},
        headers=table.auth,
    )
    assert joined.status_code == 201, joined.json
    table.game = joined.json
    table.jhyap(0, 1, 7, 9, 12)
    return table


def test_after_n_answers_only_the_items_numbered_above_n(four_items):
    everything = history(four_items).json["rounds"]
    assert [item["number"] for item in everything] == [1, 2, 3, 4]

    assert history(four_items, "?after=0").json["rounds"] == everything
    assert history(four_items, "?after=2").json["rounds"] == everything[2:]
    assert history(four_items, "?after=3").json["rounds"] == everything[3:]
    assert "seat_change" in everything[2]  # a seat change is a history item like a round
    assert numbers(history(four_items, "?after=2")) == [3, 4]


@pytest.mark.parametrize("after", ["4", "5", "2147483647", "9999999999"])
def test_after_the_last_item_the_list_is_empty(four_items, after):
    response = history(four_items, f"?after={after}")

    assert response.status_code == 200
    assert response.json == {"rounds": []}


def test_after_on_a_game_without_rounds_is_an_empty_list(table):
    table.create()

    assert history(table, "?after=0").json == {"rounds": []}


def test_after_on_an_unknown_game_is_404(client):
    response = client.get("/api/v1/games/AAAAAAAAAAAAAAAAAAAAAA/rounds?after=1")

    assert response.status_code == 404
    assert response.json["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    ("after", "problem"),
    [
        ("-1", "must be a whole number, 0 or more"),
        ("abc", "must be a whole number, 0 or more"),
        ("1.5", "must be a whole number, 0 or more"),
        ("", "must be a whole number, 0 or more"),
        ("+1", "must be a whole number, 0 or more"),
        ("1_0", "must be a whole number, 0 or more"),
        ("%D9%A3", "must be a whole number, 0 or more"),  # an Arabic-Indic three
        ("12345678901", "is too large a number"),
    ],
)
def test_an_after_that_is_not_a_whole_number_is_a_422_sentence(four_items, after, problem):
    before = history(four_items).json

    response = history(four_items, f"?after={after}")

    assert response.status_code == 422
    error = response.json["error"]
    assert error["code"] == "invalid_request"
    assert error["message"] == f"The after setting in the address {problem}."
    assert error["details"] == {"query": {"after": [f"{problem[0].upper()}{problem[1:]}."]}}
    assert history(four_items).json == before


def test_the_after_sentence_is_in_the_phone_s_language(four_items):
    response = four_items.client.get(
        f"{four_items.url}/rounds?after=-1", headers={"Accept-Language": "ne"}
    )

    assert response.status_code == 422
    assert "after" in response.json["error"]["message"]
    assert "must be" not in response.json["error"]["message"]


def test_other_query_parameters_are_ignored(four_items):
    assert numbers(history(four_items, "?after=3&cache=1")) == [4]


def test_a_new_game_starts_at_revision_0_and_adding_items_keeps_it(table):
    created = table.create(players=("Asha", "Bikash", "Chandra"))
    assert created["history_revision"] == 0

    table.jhyap(1, 10, 2, 8)
    joined = table.client.post(
        f"{table.url}/seats",
        json={"join": {"name": "Dev", "after": table.players[2]}},
        headers=table.auth,
    )
    assert joined.status_code == 201
    assert joined.json["history_revision"] == 0
    table.game = joined.json
    table.jhyap(0, 1, 7, 9, 12)
    renamed = table.client.patch(table.url, json={"name": "Later"}, headers=table.auth)
    assert renamed.json["history_revision"] == 0

    assert revision(table) == 0
    assert table.export()["game"]["history_revision"] == 0


def test_a_correction_raises_the_revision_and_a_dry_run_or_refused_one_does_not(four_items):
    table = four_items
    etag = table.client.get(table.url).headers["ETag"]
    entry = table.jhyap_entry(1, (12, 2, 8))

    dry = table.client.put(f"{table.url}/rounds/1?dry_run=true", json=entry, headers=table.auth)
    assert dry.status_code == 200
    assert dry.json["rescored"]["game"]["history_revision"] == 1  # the game as it would be
    assert revision(table) == 0
    bad = table.client.put(
        f"{table.url}/rounds/1", json=table.jhyap_entry(1, (12, 2, 99)), headers=table.auth
    )
    assert bad.status_code == 422
    assert revision(table) == 0
    assert table.client.get(table.url).headers["ETag"] == etag

    corrected = table.client.put(f"{table.url}/rounds/1", json=entry, headers=table.auth)

    assert corrected.status_code == 200, corrected.json
    game = table.get()
    assert game["history_revision"] == 1
    assert table.client.get(table.url).headers["ETag"] != etag
    # Items added afterwards keep the new revision.
    table.game = game
    table.jhyap(1, 3, 2, 8, 6)
    assert revision(table) == 1


def test_undoing_a_round_or_a_seat_change_raises_the_revision(four_items):
    table = four_items

    assert table.client.delete(f"{table.url}/rounds/4", headers=table.auth).status_code == 204
    assert revision(table) == 1
    assert numbers(history(table, "?after=2")) == [3]

    assert table.client.delete(f"{table.url}/rounds/3", headers=table.auth).status_code == 204
    assert revision(table) == 2
    assert numbers(history(table, "?after=2")) == []

    refused = table.client.delete(f"{table.url}/rounds/1", headers=table.auth)
    assert refused.status_code == 409
    assert revision(table) == 2


def test_an_imported_game_keeps_the_exported_revision(four_items):
    table = four_items
    assert table.client.delete(f"{table.url}/rounds/4", headers=table.auth).status_code == 204
    document = table.export()
    assert document["game"]["history_revision"] == 1

    imported = table.client.post("/api/v1/games/import", json=document)

    assert imported.status_code == 201, imported.json
    assert imported.json["history_revision"] == 1
    again = table.client.get(f"/api/v1/games/{imported.json['id']}/export").json
    assert again["game"]["history_revision"] == 1


def test_an_export_made_before_the_revision_imports_at_0(four_items):
    document = four_items.export()
    del document["game"]["history_revision"]

    imported = four_items.client.post("/api/v1/games/import", json=document)

    assert imported.status_code == 201, imported.json
    assert imported.json["history_revision"] == 0


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (-1, "must be a whole number, 0 or more"),
        ("1", "must be a whole number"),
        (1.5, "must be a whole number"),
        (True, "must be a whole number"),
        (2**31, "is too large a number"),
    ],
)
def test_an_export_with_a_bad_revision_is_refused_and_creates_nothing(
    app, four_items, value, problem
):
    document = four_items.export()
    document["game"]["history_revision"] = value
    before = row_counts(app)

    response = four_items.client.post("/api/v1/games/import", json=document)

    assert response.status_code == 422
    assert response.json["error"]["message"] == (
        f'The field "history_revision" of the game {problem}.'
    )
    assert row_counts(app) == before


def test_a_game_at_a_table_carries_the_revision_too(client):
    made = client.post("/api/v1/tables", json={"name": "Friday crew", "players": ["A", "B"]})
    assert made.status_code == 201
    game = client.post(
        f"/api/v1/tables/{made.json['id']}/games",
        json={"ruleset": "jhyap", "players": [p["id"] for p in made.json["players"]] + ["C"]},
        headers={"Authorization": f"Bearer {made.json['token']}"},
    )

    assert game.status_code == 201, game.json
    assert game.json["history_revision"] == 0
