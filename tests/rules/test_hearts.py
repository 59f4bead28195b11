"""Hearts (rules.md, "Hearts"), worked out by hand, hand by hand.

Player ids differ from seats so that a mix-up shows: Asha 11, Bikram 22, Chandra 33,
Dipa 44, Ekta 55; a newcomer is Dev (77).
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.domain.records import round_json, standing_json
from scorekeeper.rules import GameState, InvalidOptions, Player, RuleError, get_ruleset
from scorekeeper.rules.hearts import Hearts
from tests.message_checks import message_problems

from .test_messages import assert_plain_sentence

A, B, C, D, E = 11, 22, 33, 44, 55
PLAYERS = [Player(A, "Asha"), Player(B, "Bikram"), Player(C, "Chandra"), Player(D, "Dipa")]
DEV = Player(77, "Dev")


def points(*taken: int, ids: tuple[int, ...] = (A, B, C, D)) -> dict[str, Any]:
    """An entry of penalty points, by seat."""
    return {"hands": [{"player": p, "points": n} for p, n in zip(ids, taken, strict=True)]}


def hearts(*taken: int, queen: int, ids: tuple[int, ...] = (A, B, C, D)) -> dict[str, Any]:
    """An entry of hearts taken, by seat, and who took the queen of spades."""
    hands = [{"player": p, "hearts": n} for p, n in zip(ids, taken, strict=True)]
    return {"hands": hands, "queen": queen}


def play(rules: Hearts, state: GameState, entry: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """Score one hand: its Round JSON and the state after it."""
    outcome = rules.play(state, rules.parse_entry(entry))
    return round_json(outcome.result), outcome.state


def refused(rules: Hearts, state: GameState, entry: dict[str, Any]) -> RuleError:
    """The RuleError a refused hand raises; its message is one plain sentence."""
    with pytest.raises(RuleError) as caught:
        rules.play(state, rules.parse_entry(entry))
    assert_plain_sentence(caught.value)
    error = caught.value
    assert message_problems({"message": error.message, "details": error.details}) == []
    return error


def test_hearts_is_in_the_registry_with_its_options() -> None:
    assert get_ruleset("hearts") is Hearts
    rules = Hearts(PLAYERS)
    assert rules.options == {"limit": 100, "moon": "add_to_others"}
    assert (Hearts.min_players, Hearts.max_players) == (3, 6)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"limit": 49}, "The option limit must be a whole number from 50 to 500."),
        ({"limit": 501}, "The option limit must be a whole number from 50 to 500."),
        ({"moon": "none"}, "The option moon must be add_to_others or subtract_from_shooter."),
    ],
)
def test_options_out_of_range_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptions) as caught:
        Hearts(PLAYERS, options)
    assert caught.value.message == message


def test_two_players_are_too_few_and_seven_too_many() -> None:
    with pytest.raises(InvalidOptions) as caught:
        Hearts(PLAYERS[:2])
    assert caught.value.message == "Hearts is played by 3 to 6 players, not 2."
    seven = [Player(n, f"P{n}") for n in range(1, 8)]
    with pytest.raises(InvalidOptions):
        Hearts(seven)


def test_no_seat_leads_and_the_first_hand_passes_left() -> None:
    rules = Hearts(PLAYERS)
    state = rules.start(0, None)
    assert state.starter is None
    assert standing_json(rules.standing(state))["next_round"] == {
        "number": 1,
        "dealer": A,
        "starter": None,
        "pass": "left",
    }


def test_a_starter_named_for_hearts_is_refused() -> None:
    with pytest.raises(InvalidOptions) as caught:
        Hearts(PLAYERS).start(0, 1)
    assert caught.value.message == "In Hearts no seat starts by rule, so leave out starter."


def test_a_game_to_the_limit_with_a_moon_added_to_the_others_and_a_shared_win() -> None:
    rules = Hearts(PLAYERS, {"limit": 50})
    state = rules.start(0, None)

    # Hand 1, Asha deals, pass left: Asha took the queen; no moon.
    first, state = play(rules, state, points(13, 5, 8, 0))
    assert first["pass"] == "left" and first["moon"] is None
    assert (first["dealer"], first["starter"]) == (A, None)
    assert [(r["taken"], r["points"], r["score_after"]) for r in first["results"]] == [
        (13, 13, 13),
        (5, 5, 5),
        (8, 8, 8),
        (0, 0, 0),
    ]
    assert first["game"]["next_round"] == {
        "number": 2,
        "dealer": B,
        "starter": None,
        "pass": "right",
    }

    # Hand 2, Bikram deals, pass right: Dipa took all 26 and shot the moon.
    second, state = play(rules, state, points(0, 0, 0, 26))
    assert second["moon"] == D and second["pass"] == "right"
    assert [(r["taken"], r["points"], r["score_after"]) for r in second["results"]] == [
        (0, 26, 39),
        (0, 26, 31),
        (0, 26, 34),
        (26, 0, 0),
    ]
    assert second["game"]["next_round"]["pass"] == "across"

    # Hand 3, Chandra deals, pass across: entered as hearts, Dipa took the queen.
    third, state = play(rules, state, hearts(0, 3, 0, 10, queen=D))
    assert [r["taken"] for r in third["results"]] == [0, 3, 0, 23]
    assert state.scores == (39, 34, 34, 23)
    assert third["game"]["next_round"] == {
        "number": 4,
        "dealer": D,
        "starter": None,
        "pass": "keep",
    }

    # Hand 4, Dipa deals, no pass: Asha passes the limit; Bikram and Chandra share the win.
    fourth, state = play(rules, state, points(13, 0, 0, 13))
    assert fourth["pass"] == "keep"
    assert state.scores == (52, 34, 34, 36)
    assert fourth["game"] == {"status": "finished", "next_round": None, "winners": [B, C]}
    assert state.finished and state.winners == (1, 2)
    assert rules.tallies_of(state, 3) == {
        "rounds_played": 4,
        "points_taken": 62,
        "moons": 1,
        "clean_hands": 1,
    }


def test_the_moon_subtracted_from_the_shooter() -> None:
    rules = Hearts(PLAYERS, {"moon": "subtract_from_shooter"})
    state = rules.start(0, None)
    _, state = play(rules, state, points(13, 5, 8, 0))
    moon, state = play(rules, state, points(0, 0, 0, 26))
    assert moon["moon"] == D
    assert [(r["taken"], r["points"], r["score_after"]) for r in moon["results"]] == [
        (0, 0, 13),
        (0, 0, 5),
        (0, 0, 8),
        (26, -26, -26),
    ]


def test_a_moon_entered_as_hearts_with_the_queen() -> None:
    rules = Hearts(PLAYERS)
    moon, state = play(rules, rules.start(0, None), hearts(0, 13, 0, 0, queen=B))
    assert moon["moon"] == B
    assert state.scores == (26, 0, 26, 26)


def test_a_hand_that_adds_to_25_is_refused_and_changes_nothing() -> None:
    rules = Hearts(PLAYERS)
    state = rules.start(0, None)
    error = refused(rules, state, points(13, 5, 7, 0))
    assert error.message == "A hand's points add up to 26, but these add up to 25 (1 too few)."
    assert error.details == {"hands": ["Add up to 26; off by 1."]}
    assert state == rules.start(0, None)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (points(13, 5, 8, 2), "A hand's points add up to 26, but these add up to 28 (2 too many)."),
        (
            hearts(0, 3, 0, 9, queen=D),
            "A deck has 13 hearts, but these add up to 12 (1 too few).",
        ),
        (
            hearts(5, 3, 0, 9, queen=D),
            "A deck has 13 hearts, but these add up to 17 (4 too many).",
        ),
        (
            points(9, 9, 8, 0),
            "No one has 13 points or more, but the queen of spades alone is 13.",
        ),
        (points(27, 0, 0, 0), "Asha's points must be a whole number from 0 to 26."),
        (points(13, -1, 14, 0), "Bikram's points must be a whole number from 0 to 26."),
        (hearts(0, 14, 0, 0, queen=A), "Bikram's hearts must be a whole number from 0 to 13."),
        (
            {"hands": hearts(0, 13, 0, 0, queen=A)["hands"]},
            "Say who took the queen of spades.",
        ),
        (
            hearts(0, 13, 0, 0, queen=99),
            "The queen of spades must go to one of the players in this hand.",
        ),
        (
            {**points(13, 13, 0, 0), "queen": A},
            "Leave out who took the queen of spades when the takes are points: "
            "the points already count it.",
        ),
        (
            {
                "hands": [
                    {"player": A, "points": 13},
                    {"player": B, "hearts": 13},
                    {"player": C, "points": 0},
                    {"player": D, "points": 0},
                ]
            },
            "Give every player's take as points, or every one as hearts.",
        ),
        (
            {
                "hands": [
                    {"player": A, "points": 13, "hearts": 0},
                    {"player": B, "points": 13},
                    {"player": C, "points": 0},
                    {"player": D, "points": 0},
                ]
            },
            "Give Asha's take as points or as hearts, not both or neither.",
        ),
        (
            points(13, 13, 0, ids=(A, B, C)),
            "Give a hand for every player still in the game; Dipa's hand is missing.",
        ),
    ],
)
def test_hands_that_break_the_rules_are_refused(entry: dict[str, Any], message: str) -> None:
    rules = Hearts(PLAYERS)
    assert refused(rules, rules.start(0, None), entry).message == message


def test_with_five_players_the_passes_go_left_right_keep() -> None:
    five = [*PLAYERS, Player(E, "Ekta")]
    rules = Hearts(five, {"limit": 500})
    state = rules.start(4, None)
    directions = []
    for _ in range(4):
        result, state = play(rules, state, points(13, 13, 0, 0, 0, ids=(A, B, C, D, E)))
        directions.append(result["pass"])
    assert directions == ["left", "right", "keep", "left"]
    assert [rules.players[seat].id for seat in (state.dealer,)] == [D]


def test_a_newcomer_starts_on_the_highest_total_and_the_passes_count_hands() -> None:
    rules = Hearts(PLAYERS[:3], {"limit": 500})
    state = rules.start(0, None)
    _, state = play(rules, state, points(20, 6, 0, ids=(A, B, C)))  # hand 1: left
    joined = rules.join(state, DEV, C)
    rules, state = joined.rules, joined.state
    assert state.scores == (20, 6, 0, 20)
    # Hand 2 of the cycle for four players: right (a seat change is not a hand).
    assert standing_json(rules.standing(state))["next_round"] == {
        "number": 3,
        "dealer": B,
        "starter": None,
        "pass": "right",
    }


def test_a_leave_that_would_leave_two_players_is_refused() -> None:
    rules = Hearts(PLAYERS[:3])
    state = rules.start(0, None)
    with pytest.raises(RuleError) as caught:
        rules.leave(state, B)
    assert caught.value.message == (
        "Hearts is played by at least 3 players, so Bikram cannot leave while 3 are in the game."
    )
    four = Hearts(PLAYERS)
    gone = four.leave(four.start(0, None), A)
    assert gone.state.left == (True, False, False, False)
    assert standing_json(four.standing(gone.state))["next_round"]["dealer"] == B


def test_standing_figures_average_the_points_taken() -> None:
    figures = Hearts.standing_figures(
        {"rounds_played": 3, "points_taken": 40, "moons": 1, "clean_hands": 1}, eliminations=0
    )
    assert figures == {"rounds_played": 3, "moons": 1, "clean_hands": 1, "average_taken": 13.33}
