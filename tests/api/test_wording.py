"""Sentences as a person would write them: plural fields, a game without a table, odd card text."""

from __future__ import annotations

import pytest


def test_a_missing_plural_field_is_said_in_the_plural(client, table):
    table.create()
    missing = table.post_round({"caller": table.players[0]})
    assert missing.status_code == 422, missing.json
    assert missing.json["error"]["message"] == "The hands are missing."

    cards = table.post_round(
        {"caller": table.players[0], "hands": [{"player": table.players[0], "cards": None}]}
    )
    assert cards.json["error"]["message"] == "The cards of hand 1 must have a value, not null."
    trick = client.post(f"{table.url}/rounds", json={}, headers=table.auth)
    assert trick.json["error"]["message"] == "The caller is missing."  # one caller: singular


def test_a_player_who_is_not_in_a_game_without_a_table_is_not_in_this_game(client, table):
    table.create()
    asha, bikash, _ = table.players
    stranger = 987_654
    hands = [{"player": p, "total": 3} for p in (asha, bikash, stranger)]

    answers = [
        table.post_round({"caller": asha, "hands": hands}),
        client.post(f"{table.url}/seats", json={"leave": stranger}, headers=table.auth),
        client.post(
            f"{table.url}/seats",
            json={"join": {"name": "Dev", "after": stranger}},
            headers=table.auth,
        ),
    ]

    assert [answer.json["error"]["message"] for answer in answers] == [
        f"Player {stranger} is not in this game.",
        f"Player {stranger} is not in this game.",
        f"Player {stranger} is not in this game, so no one can sit after them.",
    ]
    assert all("table" not in answer.json["error"]["message"] for answer in answers)


HINT = "write the rank then the suit, like 10H, QS or JK for a joker."


@pytest.mark.parametrize(
    ("card", "shown"),
    [
        ("KH\x00", '"KH<U+0000>"'),
        ("Q\u200bS", '"Q<U+200B>S"'),
        ("ZZ", '"ZZ"'),
        ("K\u2665\ufe0f", '"K\u2665\ufe0f"'),  # a selector that changes how it is drawn: kept
        ("A'S", '"A\'S"'),
    ],
    ids=["NUL", "zero-width space", "plain", "emoji presentation", "a quote"],
)
def test_a_card_that_is_not_one_is_shown_as_a_person_reads_it(table, card, shown):
    table.create()
    entry = table.jhyap_entry(0, [0, ["AS", card], 9])

    refused = table.post_round(entry)

    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["message"] == f"Bikash's card {shown} is not a card; {HINT}"
    assert "\\x" not in refused.json["error"]["message"]
