"""The score pad (rules.md, "Score pad"), worked out by hand, round by round.

Player ids differ from seats so that a mix-up shows: Asha 11, Bikram 22, Chandra 33;
a newcomer is Dev (77).
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.domain.records import end_json, round_json, standing_json
from scorekeeper.rules import CannotEnd, GameState, InvalidOptions, Player, RuleError, get_ruleset
from scorekeeper.rules.score_pad import ScorePad
from tests.message_checks import message_problems

from .test_messages import assert_plain_sentence

A, B, C = 11, 22, 33
PLAYERS = [Player(A, "Asha"), Player(B, "Bikram"), Player(C, "Chandra")]
DEV = Player(77, "Dev")


def scores(*points: int, ids: tuple[int, ...] = (A, B, C)) -> dict[str, Any]:
    """An entry of each player's points, by seat."""
    return {"hands": [{"player": p, "points": n} for p, n in zip(ids, points, strict=True)]}


def play(rules: ScorePad, state: GameState, entry: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """Score one round: its Round JSON and the state after it."""
    outcome = rules.play(state, rules.parse_entry(entry))
    return round_json(outcome.result), outcome.state


def test_the_score_pad_is_in_the_registry_with_its_options() -> None:
    assert get_ruleset("score-pad") is ScorePad
    assert ScorePad(PLAYERS).options == {"winner": "highest", "target": None, "rounds": None}
    assert (ScorePad.min_players, ScorePad.max_players) == (2, 12)
    listed = ScorePad.describe()["options"]
    assert listed["target"] == {
        "description": listed["target"]["description"],
        "default": None,
        "allowed": {"type": "integer", "minimum": 1, "maximum": 100000, "optional": True},
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"winner": "most"}, "The option winner must be highest or lowest."),
        (
            {"target": 0},
            "The option target must be a whole number from 1 to 100000, or null for none.",
        ),
        (
            {"rounds": 1001},
            "The option rounds must be a whole number from 1 to 1000, or null for none.",
        ),
        (
            {"rounds": "5"},
            "The option rounds must be a whole number from 1 to 1000, or null for none.",
        ),
    ],
)
def test_options_out_of_range_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptions) as caught:
        ScorePad(PLAYERS, options)
    assert caught.value.message == message


def test_negative_points_over_a_set_number_of_rounds_highest_wins() -> None:
    rules = ScorePad(PLAYERS, {"rounds": 3})
    state = rules.start(0, None)
    assert standing_json(rules.standing(state))["next_round"] == {
        "number": 1,
        "dealer": A,
        "starter": B,
    }
    first, state = play(rules, state, scores(10, -5, 0))
    assert [(r["points"], r["score_after"]) for r in first["results"]] == [
        (10, 10),
        (-5, -5),
        (0, 0),
    ]
    assert first["game"]["next_round"] == {"number": 2, "dealer": B, "starter": C}
    _, state = play(rules, state, scores(-20, 15, 5))
    assert state.scores == (-10, 10, 5)
    third, state = play(rules, state, scores(0, -10, 5))
    assert state.scores == (-10, 0, 10)
    assert third["game"] == {"status": "finished", "next_round": None, "winners": [C]}
    assert rules.tallies_of(state, 0) == {"rounds_played": 3, "points": -10}


def test_lowest_wins_with_a_target_ends_when_a_total_passes_it() -> None:
    rules = ScorePad(PLAYERS, {"winner": "lowest", "target": 100})
    state = rules.start(2, None)
    _, state = play(rules, state, scores(30, 60, 20))
    assert not state.finished
    last, state = play(rules, state, scores(40, 45, 20))
    assert state.scores == (70, 105, 40)
    assert last["game"]["winners"] == [C]


def test_equal_best_totals_share_the_win() -> None:
    rules = ScorePad(PLAYERS, {"target": 50})
    _, state = play(rules, rules.start(0, None), scores(50, 50, 10))
    assert state.finished and state.winners == (0, 1)


def test_points_out_of_range_are_refused() -> None:
    rules = ScorePad(PLAYERS)
    state = rules.start(0, None)
    with pytest.raises(RuleError) as caught:
        rules.play(state, rules.parse_entry(scores(0, 10001, 0)))
    assert_plain_sentence(caught.value)
    assert caught.value.message == ("Bikram's points must be a whole number from -10000 to 10000.")
    assert message_problems({"message": caught.value.message}) == []


def test_the_table_ends_a_pad_without_target_or_rounds() -> None:
    rules = ScorePad(PLAYERS)
    assert rules.can_be_ended()
    _, state = play(rules, rules.start(0, None), scores(5, 12, 12))
    ended = rules.end(state)
    assert end_json(ended.result) == {
        "number": 2,
        "end": True,
        "game": {"status": "finished", "next_round": None, "winners": [B, C]},
    }
    assert ended.state.finished and ended.state.last_number == 2
    assert ended.state.rounds_played == 1 and ended.state.scores == (5, 12, 12)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"target": 100},
            "A game of Score pad ends by its own rules, so it cannot be ended by hand.",
        ),
        (
            {"rounds": 5},
            "A game of Score pad ends by its own rules, so it cannot be ended by hand.",
        ),
    ],
)
def test_a_pad_that_ends_by_itself_cannot_be_ended_by_hand(
    options: dict[str, Any], message: str
) -> None:
    rules = ScorePad(PLAYERS, options)
    _, state = play(rules, rules.start(0, None), scores(1, 2, 3))
    with pytest.raises(CannotEnd) as caught:
        rules.end(state)
    assert caught.value.message == message


def test_a_pad_with_no_round_played_cannot_be_ended() -> None:
    rules = ScorePad(PLAYERS)
    with pytest.raises(CannotEnd) as caught:
        rules.end(rules.start(0, None))
    assert caught.value.message == (
        "No round has been played yet, so the game has no winner to end on."
    )


@pytest.mark.parametrize(("winner", "score"), [("highest", -5), ("lowest", 12)])
def test_a_newcomer_starts_on_the_total_least_in_their_favour(winner: str, score: int) -> None:
    rules = ScorePad(PLAYERS, {"winner": winner})
    _, state = play(rules, rules.start(0, None), scores(12, -5, 3))
    joined = rules.join(state, DEV, A)
    assert joined.state.scores == (12, score, -5, 3)
    assert joined.result.score == score
