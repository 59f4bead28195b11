"""Player names: stored in NFC, compared after NFKC and case folding, counted by the ruleset."""

from __future__ import annotations

import unicodedata

import pytest

from ..conftest import row_counts

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


RAB = "\u09b0\u200d\u09cd\u09af\u09be\u09ac"  # Bengali "র‍্যাব": ra, ZWJ, virama, ya, aa, ba
KSHA_BN = "\u0995\u09cd\u200c\u09b7"  # Bengali "ক্‌ষ": ka, virama, ZWNJ, ssa (no conjunct)
KSHA_NE = "\u0915\u094d\u200d\u0937"  # Nepali "क्‍ष": ka, virama, ZWJ, ssa (the half form)
CODER = "\U0001f469\u200d\U0001f4bb"  # 👩‍💻: woman, ZWJ, laptop
JOINED_NAMES = [RAB, KSHA_BN, KSHA_NE, CODER]


def test_names_with_a_joiner_or_non_joiner_inside_are_ordinary_names(client, table):
    created = create(client, JOINED_NAMES)
    assert created.status_code == 201, created.json
    assert [player["name"] for player in created.json["players"]] == JOINED_NAMES
    game = client.get(f"/api/v1/games/{created.json['id']}").json
    assert [player["name"] for player in game["players"]] == JOINED_NAMES

    table.create(players=("Asha", "Bikash"))
    renamed = client.patch(
        table.url, json={"players": [{"id": table.players[0], "name": CODER}]}, headers=table.auth
    )
    assert renamed.status_code == 200, renamed.json
    joined = client.post(
        f"{table.url}/seats",
        json={"join": {"name": RAB, "after": table.players[1]}},
        headers=table.auth,
    )
    assert joined.status_code == 201, joined.json
    assert [player["name"] for player in joined.json["players"]] == [CODER, "Bikash", RAB]
    roster = client.post("/api/v1/tables", json={"name": CODER, "players": [KSHA_NE, KSHA_BN]})
    assert roster.status_code == 201, roster.json
    assert [player["name"] for player in roster.json["players"]] == [KSHA_NE, KSHA_BN]
    export = client.get(f"{table.url}/export").json
    assert client.post("/api/v1/games/import", json=export).status_code == 201


@pytest.mark.parametrize(
    "name",
    ["\u200dAsha", "Asha\u200c", "\u200d", "\u200c\u200d", " \u200dAsha"],
    ids=["joiner first", "non-joiner last", "joiner alone", "two alone", "first once trimmed"],
)
def test_a_joiner_first_last_or_alone_is_refused(client, app, name):
    response = create(client, ["Bikash", name])

    assert response.status_code == 422, response.json
    assert response.json["error"]["message"] == (
        "Player 2 must not begin or end with a zero-width joiner or non-joiner."
    )
    assert row_counts(app) == (0, 0, 0)


@pytest.mark.parametrize(
    "name",
    ["As\u200bha", "As\u2060ha", "A\u00adsha", "As\u200eha", "Asha\x00", "As\u202eha"],
    ids=["zero-width space", "word joiner", "soft hyphen", "LTR mark", "NUL", "RTL override"],
)
def test_other_invisible_and_control_characters_are_still_refused(client, app, name):
    response = create(client, ["Bikash", name])

    assert response.status_code == 422, response.json
    assert response.json["error"]["message"] == "Player 2 must use printable characters only."
    assert row_counts(app) == (0, 0, 0)


@pytest.mark.parametrize(
    ("players", "repeated"),
    [
        ([RAB, RAB.replace("\u200d", "")], RAB.replace("\u200d", "")),
        ([KSHA_NE, KSHA_NE.replace("\u200d", "\u200c")], KSHA_NE.replace("\u200d", "\u200c")),
        ([CODER, "\U0001f469\U0001f4bb"], "\U0001f469\U0001f4bb"),
    ],
    ids=["bn", "ne", "emoji"],
)
def test_joiners_are_ignored_when_names_are_compared(client, players, repeated):
    response = create(client, players)

    assert response.status_code == 422, response.json
    assert response.json["error"]["message"] == (
        f"The list of players has the name {repeated} twice; give each player a different name."
    )
