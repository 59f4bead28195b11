"""The message checks catch what they are for, and pass the service's good messages."""

from __future__ import annotations

import pytest

from tests.message_checks import message_problems, untranslated


@pytest.mark.parametrize(
    "message",
    [
        "The request has an invalid field: caller: Not a valid integer.",
        "Asha called Jhyap with 1 points; the call limit is 0.",
        "The export's game cannot be set up: The first dealer: Give a seat from 0 to 3.",
        "Option call_limit: give a whole number from 0 to 50.",
        "The first starter: In Twenty Two the player at the dealer's left starts.",
        "players: Length must be between 1 and 20.",
        "The request body is not valid JSON (Unexpected UTF-8 BOM; decode using utf-8-sig).",
        "Bad request. Try again.",
        "no capital letter.",
        "No full stop",
        "The newcomer give join or leave, one of the two.",
        "The name of the newcomer give the newcomer's name or their roster id, not both.",
    ],
)
def test_bad_messages_are_caught(message):
    assert message_problems({"message": message})


def test_library_words_in_details_are_caught():
    error = {
        "message": "The total of hand 2 must be a whole number.",
        "details": {"x": ["Not a valid integer."]},
    }
    assert message_problems(error) == ["library words 'Not a valid'"]


@pytest.mark.parametrize(
    "message",
    [
        "Asha called Jhyap with 1 point; the call limit is 0.",
        "The total of hand 2 must be a whole number.",
        "Give a hand for every player still in the game; missing: Bikash, Chandra.",
        "Round 2 no longer fits after this correction: Bikash was eliminated in round 1.",
        "Jhyap is played by 2 to 5 players, not 1.",
        "10S is in Asha's score pile, so Bikash cannot have played it.",
        "The newcomer needs a name or a roster player id, one of the two.",
        "The list of players has the name Asha twice; give each player a different name.",
    ],
)
def test_good_messages_pass(message):
    assert message_problems({"message": message}) == []


def test_a_message_missing_from_a_catalog_is_caught():
    assert untranslated("No catalog has this sentence.") == ["fil", "bn", "ne"]
    assert untranslated("Is missing.") == []
    assert untranslated("{count} card") == []
