"""Card codes: parsing, aliases, canonical form and rejection of bad codes (rules.md "Cards")."""

from __future__ import annotations

import pytest

from scorekeeper.rules import Card, RuleError, parse_card
from scorekeeper.rules.cards import RANKS, SUITS


@pytest.mark.parametrize(
    ("code", "canonical"),
    [
        # Canonical codes come back unchanged.
        ("AS", "AS"),
        ("2H", "2H"),
        ("9D", "9D"),
        ("10C", "10C"),
        ("JH", "JH"),
        ("QS", "QS"),
        ("KD", "KD"),
        ("JK", "JK"),
        # Case-insensitive.
        ("as", "AS"),
        ("aS", "AS"),
        ("10h", "10H"),
        ("qs", "QS"),
        ("jc", "JC"),
        ("kd", "KD"),
        # T is ten.
        ("TH", "10H"),
        ("th", "10H"),
        ("tS", "10S"),
        # Suit symbols.
        ("A♠", "AS"),
        ("10♥", "10H"),
        ("T♥", "10H"),
        ("q♦", "QD"),
        ("K♣", "KC"),
        ("7♣", "7C"),
        # Jokers in every accepted spelling.
        ("jk", "JK"),
        ("Jk", "JK"),
        ("X", "JK"),
        ("x", "JK"),
        ("JOKER", "JK"),
        ("joker", "JK"),
        ("Joker", "JK"),
    ],
)
def test_parse_card_returns_the_canonical_code(code: str, canonical: str) -> None:
    assert parse_card(code).code == canonical
    assert str(parse_card(code)) == canonical


def test_every_rank_and_suit_parses_to_itself() -> None:
    codes = [f"{rank}{suit}" for rank in RANKS for suit in SUITS]
    assert len(codes) == 52
    assert [parse_card(code).code for code in codes] == codes
    assert [parse_card(code.lower()).code for code in codes] == codes


def test_jack_of_a_suit_is_not_a_joker() -> None:
    jack = parse_card("JH")
    assert jack == Card("J", "H")
    assert not jack.is_joker
    joker = parse_card("JK")
    assert joker == Card(None, None)
    assert joker.is_joker


def test_parsed_card_fields() -> None:
    assert parse_card("th") == Card("10", "H")
    assert parse_card("a♣") == Card("A", "C")
    assert parse_card("2s").rank_order == 0
    assert parse_card("10d").rank_order == 8
    assert parse_card("AS").rank_order == 12
    with pytest.raises(ValueError):
        parse_card("JK").rank_order  # noqa: B018


def test_aliases_of_one_card_are_equal() -> None:
    assert parse_card("10H") == parse_card("th") == parse_card("T♥") == parse_card("10♥")
    assert parse_card("JK") == parse_card("x") == parse_card("joker")


@pytest.mark.parametrize(
    "code",
    [
        "",
        "S",
        "A",
        "10",
        "T",
        "1S",
        "11H",
        "0H",
        "1OH",  # letter O, not zero
        "ZS",
        "AX",
        "AB",
        "A S",
        "AS1",
        "10HH",
        "JKS",
        "JOKERS",
        "J0KER",
        "XX",
        "KK",
        "♠A",
        "A♤",
        "AS♠",
    ],
)
def test_bad_codes_are_rule_errors(code: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_card(code)
    error = caught.value
    assert error.message.startswith(f'"{code}" is not a card')  # as typed, in double quotes
    assert "like 10H, QS or JK" in error.message
    assert error.message.endswith(".")
    assert error.details == {}


@pytest.mark.parametrize("code", [None, 10, 1.5, ["AS"], b"AS"])
def test_non_strings_are_rule_errors(code: object) -> None:
    with pytest.raises(RuleError):
        parse_card(code)  # type: ignore[arg-type]


def test_rule_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_card("nope")
