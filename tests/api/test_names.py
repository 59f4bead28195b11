"""Player names: stored in NFC, compared after NFKC and case folding, counted by the ruleset."""

from __future__ import annotations

import unicodedata

import pytest

DECOMPOSED_E = "Rene\u0301"  # e + combining acute accent
PRECOMPOSED_E = "Ren\u00e9"


def create(client, players, ruleset="jhyap"):
    return client.post("/api/v1/games", json={"ruleset": ruleset, "players": players})


@pytest.mark.parametrize(
    ("players", "repeated"),
    [
        (["Asha", "\uff21\uff53\uff48\uff41"], "\uff21\uff53\uff48\uff41"),  # fullwidth
        (["Asha", "asha"], "asha"),
        (["Asha", "ASHA "], "ASHA"),
        ([PRECOMPOSED_E, DECOMPOSED_E], PRECOMPOSED_E),  # the decomposed one, stored as NFC
        (["Stra\u00dfe", "STRASSE"], "STRASSE"),  # case folding, not lower-casing
    ],
    ids=["fullwidth", "case", "case and spaces", "decomposed", "sharp s"],
)
def test_look_alike_names_are_one_name(client, players, repeated):
    response = create(client, players)

    assert response.status_code == 422, response.json
    assert response.json["error"]["message"] == (
        f"The list of players has the name {repeated} twice; give each player a different name."
    )


def test_names_are_stored_trimmed_and_in_nfc(client):
    response = create(client, [f"  {DECOMPOSED_E} ", "Bikash"])

    assert response.status_code == 201, response.json
    name = response.json["players"][0]["name"]
    assert name == PRECOMPOSED_E
    assert unicodedata.is_normalized("NFC", name)


def test_renaming_to_a_look_alike_of_another_player_is_refused(client, table):
    table.create(players=("Asha", "Bikash", "Chandra"))
    ids = table.players

    response = client.patch(
        table.url,
        json={"players": [{"id": ids[1], "name": "\uff41\uff53\uff48\uff41"}]},
        headers=table.auth,
    )

    assert response.status_code == 422, response.json
    assert response.json["error"]["message"] == (
        "The name \uff41\uff53\uff48\uff41 is the same as Asha; give each player a different name."
    )


def test_a_player_may_be_renamed_to_another_case_of_their_own_name(client, table):
    table.create(players=("asha", "Bikash"))

    response = client.patch(
        table.url, json={"players": [{"id": table.players[0], "name": "Asha"}]}, headers=table.auth
    )

    assert response.status_code == 200, response.json
    assert response.json["players"][0]["name"] == "Asha"


@pytest.mark.parametrize(
    ("ruleset", "count", "message"),
    [
        ("jhyap", 0, "Jhyap is played by 2 to 5 players, not 0."),
        ("jhyap", 1, "Jhyap is played by 2 to 5 players, not 1."),
        ("jhyap", 6, "Jhyap is played by 2 to 5 players, not 6."),
        ("jhyap", 25, "Jhyap is played by 2 to 5 players, not 25."),
        ("twenty-two", 7, "Twenty Two is played by 2 to 6 players, not 7."),
    ],
)
def test_a_wrong_number_of_players_names_the_rulesets_limits(client, ruleset, count, message):
    response = create(client, [f"Player {n}" for n in range(count)], ruleset)

    assert response.status_code == 422, response.json
    assert response.json["error"]["message"] == message
