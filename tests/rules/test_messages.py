"""The rules engine's messages: one plain sentence each, with correct plurals."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper.rules import InvalidOptions, Jhyap, Player, RuleError, TwentyTwo, get_ruleset
from scorekeeper.rules.errors import UnknownRuleset
from scorekeeper.rules.words import count_of, listed

PLAYERS = [Player(11, "Asha"), Player(22, "Bikram"), Player(33, "Chandra")]


@pytest.mark.parametrize(
    ("count", "noun", "plural", "words"),
    [
        (0, "card", None, "0 cards"),
        (1, "card", None, "1 card"),
        (2, "card", None, "2 cards"),
        (1, "point", None, "1 point"),
        (50, "point", None, "50 points"),
        (1, "copy", "copies", "1 copy"),
        (3, "copy", "copies", "3 copies"),
    ],
)
def test_count_of_puts_the_noun_in_the_right_number(
    count: int, noun: str, plural: str | None, words: str
) -> None:
    assert count_of(count, noun, plural) == words


@pytest.mark.parametrize(
    ("items", "conjunction", "words"),
    [
        ([], "and", ""),
        (["Asha"], "and", "Asha"),
        (["Asha", "Bikram"], "and", "Asha and Bikram"),
        (["Asha", "Bikram", "Chandra"], "and", "Asha, Bikram and Chandra"),
        (["tied", "all"], "or", "tied or all"),
        (["a", "b", "c"], "or", "a, b or c"),
    ],
)
def test_listed_joins_items_as_a_sentence_does(
    items: list[str], conjunction: str, words: str
) -> None:
    assert listed(items, conjunction) == words


def test_unknown_ruleset_lists_the_choices_in_words() -> None:
    with pytest.raises(UnknownRuleset) as caught:
        get_ruleset("poker")
    assert caught.value.message == (
        "There is no ruleset 'poker'; choose jhyap, twenty-two, hearts or score-pad."
    )
    assert caught.value.details == {"ruleset": ["Choose jhyap, twenty-two, hearts or score-pad."]}


@pytest.mark.parametrize(("count", "dealer"), [(2, 2), (3, -1)])
def test_first_dealer_message_is_one_sentence(count: int, dealer: int) -> None:
    with pytest.raises(InvalidOptions) as caught:
        Jhyap(PLAYERS[:count], {}).start(dealer, None)
    assert caught.value.message == f"The first dealer must be a seat from 0 to {count - 1}."
    assert caught.value.details == {"dealer": [f"Give a seat from 0 to {count - 1}."]}


def test_bad_dealer_and_starter_are_both_in_the_details() -> None:
    with pytest.raises(InvalidOptions) as caught:
        Jhyap(PLAYERS, {}).start(5, 7)
    assert caught.value.message == "The first dealer must be a seat from 0 to 2."
    assert caught.value.details == {
        "dealer": ["Give a seat from 0 to 2."],
        "starter": ["Give a seat from 0 to 2."],
    }


# Every message a bad setup or round can give: one sentence, capitalised once, no "1 cards".
BAD_SETUPS: list[tuple[type[Any], int, dict[str, Any], Any]] = [
    (Jhyap, 3, {"call_limit": 99}, None),
    (Jhyap, 3, {"caller_tie": "x"}, None),
    (Jhyap, 3, {"next_starter": "x"}, None),
    (Jhyap, 3, {"halve_at": [3]}, None),
    (Jhyap, 3, {"halve_at": [2, 2]}, None),
    (Jhyap, 3, {"halve_at": list(range(2, 40, 2))}, None),
    (Jhyap, 3, {"elimination_limit": 1, "halve_at": [2]}, None),
    (Jhyap, 3, {"elimination_limit": 2, "halve_at": [4]}, None),
    (Jhyap, 3, {"bogus": 1}, None),
    (Jhyap, 1, {}, None),
    (TwentyTwo, 3, {"first_deal": 99}, None),
    (TwentyTwo, 3, {"tie_scores": "x"}, None),
    (TwentyTwo, 3, {}, ("start", 0, 1)),
    (Jhyap, 3, {}, ("start", 9, None)),
    (Jhyap, 3, {}, ("start", 0, 9)),
]


@pytest.mark.parametrize(("ruleset", "count", "options", "start"), BAD_SETUPS)
def test_setup_messages_are_one_plain_sentence(
    ruleset: type[Any], count: int, options: dict[str, Any], start: Any
) -> None:
    players = [Player(seat + 1, f"P{seat}") for seat in range(count)]
    with pytest.raises(InvalidOptions) as caught:
        rules = ruleset(players, options)
        if start:
            rules.start(start[1], start[2])
    assert_plain_sentence(caught.value)


BAD_JHYAP_ROUNDS: list[dict[str, Any]] = [
    {"caller": 11, "hands": [{"player": 11, "total": 1}, {"player": 22, "total": 9}]},
    {"caller": 11, "hands": [{"player": 11, "cards": ["AS"]}, {"player": 22, "cards": []}]},
    {"caller": 11, "hands": [{"player": 11, "cards": ["AS"]}, {"player": 22, "cards": ["ZZ"]}]},
    {"caller": 11, "hands": [{"player": 11, "cards": ["AS"]}, {"player": 22, "cards": ["AS"]}]},
    {"caller": 11, "hands": [{"player": 11, "total": 0}]},
    {"caller": 99, "hands": [{"player": 11, "total": 0}, {"player": 22, "total": 0}]},
]


@pytest.mark.parametrize("entry", BAD_JHYAP_ROUNDS)
def test_round_messages_are_one_plain_sentence(entry: dict[str, Any]) -> None:
    rules = Jhyap(PLAYERS[:2], {"call_limit": 0})
    with pytest.raises(RuleError) as caught:
        rules.play(rules.start(0, 1), rules.parse_entry(entry))
    assert_plain_sentence(caught.value)


def assert_plain_sentence(error: RuleError) -> None:
    """One sentence: capital first, one full stop at the end, no "Label: text" prefix."""
    message = error.message
    assert message[0].isupper() or message.startswith("'")
    assert message.endswith(".")
    assert ". " not in message[:-1]
    assert not any(f" {word}: " in f" {message}" for word in message.split()[:3])
    assert not re.search(r"(?<![\d.])1 (cards|points|players|scores|copies)\b", message)
    assert not re.search(r"\bfrom (\d+) to \1\b", message)


@pytest.mark.parametrize(
    ("plays", "message"),
    [
        ([(33, "2C")], "the final cards of Asha and Bikram are missing"),
        ([(11, "2C"), (33, "3C")], "Bikram's final card is missing"),
    ],
)
def test_missing_final_cards_are_named_in_words(plays: list[tuple[int, str]], message: str) -> None:
    rules = TwentyTwo(PLAYERS, {})
    entry = {"last_trick": [{"player": player, "card": card} for player, card in plays]}
    with pytest.raises(RuleError) as caught:
        rules.play(rules.start(0, None), rules.parse_entry(entry))
    assert caught.value.message == (
        f"Give a final card for every player still in the game; {message}."
    )
    assert_plain_sentence(caught.value)
