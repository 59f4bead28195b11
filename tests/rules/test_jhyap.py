"""Jhyap rules engine: one named test per numbered rule of rules.md, then options and entries.

Every expected number below is worked out by hand from rules.md. Player ids
(11, 22, ...) differ from seats (0, 1, ...) so that a mix-up shows.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.domain.records import round_json, standing_json
from scorekeeper.rules import (
    GameState,
    InvalidOptions,
    Jhyap,
    JhyapEntry,
    JhyapPlayerResult,
    JhyapRoundResult,
    NextRound,
    Player,
    RoundOutcome,
    RuleError,
    Standing,
    get_ruleset,
)
from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.jhyap import Hand, card_value

A, B, C, D, E, F = 11, 22, 33, 44, 55, 66
PLAYERS = (
    Player(A, "Asha"),
    Player(B, "Bikram"),
    Player(C, "Chandra"),
    Player(D, "Dipa"),
    Player(E, "Ekta"),
    Player(F, "Farid"),
)
IDS = (A, B, C, D, E)

DEFAULTS = {
    "call_limit": 5,
    "caller_penalty": 30,
    "caller_tie": "caller_wins",
    "elimination_limit": 200,
    "halve_at": [100, 200],
    "decks": 1,
    "next_starter": "lowest_hand",
}


# Helpers


def table(n: int = 3, **options: Any) -> Jhyap:
    """A Jhyap table of the first ``n`` players."""
    return Jhyap(list(PLAYERS[:n]), options)


def state(
    scores: tuple[int, ...],
    *,
    dealer: int = 0,
    starter: int = 1,
    out: tuple[int | None, ...] | None = None,
    rounds: int = 0,
) -> GameState:
    """A state in the middle of a game, built by hand."""
    return GameState(
        rounds_played=rounds,
        scores=tuple(scores),
        eliminated_in_round=tuple(out) if out is not None else (None,) * len(scores),
        dealer=dealer,
        starter=starter,
    )


def raw(caller: Any, hands: dict[Any, Any]) -> dict[str, Any]:
    """The JSON entry: a hand is a total (int) or cards (list of codes)."""
    return {
        "caller": caller,
        "hands": [
            {"player": player, "cards": hand}
            if isinstance(hand, list)
            else {"player": player, "total": hand}
            for player, hand in hands.items()
        ],
    }


def play(game: Jhyap, before: GameState, caller: Any, hands: dict[Any, Any]) -> RoundOutcome:
    """Score one round entered as ``raw(caller, hands)``."""
    return game.play(before, game.parse_entry(raw(caller, hands)))


def seat_hands(totals: tuple[int, ...]) -> dict[int, int]:
    """Hands by player id from totals by seat."""
    return {IDS[seat]: total for seat, total in enumerate(totals)}


def results(outcome: RoundOutcome) -> dict[int, dict[str, Any]]:
    """The round's per-player results by player id."""
    return {row["player"]: row for row in round_json(outcome.result)["results"]}


def rule_error(game: Jhyap, before: GameState, caller: Any, hands: dict[Any, Any]) -> RuleError:
    """The RuleError that scoring this round raises."""
    with pytest.raises(RuleError) as caught:
        play(game, before, caller, hands)
    assert not isinstance(caught.value, InvalidOptions)
    return caught.value


# A whole round, field by field


def test_round_result_matches_the_api_example() -> None:
    # api.md's Round example: round 5, scores 35/86/120, Bikram deals, Chandra starts.
    game = table(3)
    before = state((35, 86, 120), dealer=1, starter=2, rounds=4)
    outcome = play(game, before, C, {A: 17, B: ["KH", "JK", "4S"], C: 3})
    assert round_json(outcome.result) == {
        "number": 5,
        "dealer": B,
        "starter": C,
        "caller": C,
        "caller_succeeded": True,
        "results": [
            {"player": A, "hand": 17, "cards": None, "points": 17,
             "score_before": 35, "score_after": 52, "halved": False, "eliminated": False},
            {"player": B, "hand": 14, "cards": ["KH", "JK", "4S"], "points": 14,
             "score_before": 86, "score_after": 50, "halved": True, "eliminated": False},
            {"player": C, "hand": 3, "cards": None, "points": 0,
             "score_before": 120, "score_after": 120, "halved": False, "eliminated": False},
        ],
        "game": {"status": "in_progress", "next_round": {"number": 6, "dealer": C, "starter": C},
                 "winners": []},
    }  # fmt: skip
    assert outcome.state == GameState(
        rounds_played=5,
        scores=(52, 50, 120),
        eliminated_in_round=(None, None, None),
        dealer=2,
        starter=2,
        winners=(),
        seating=(A, B, C),
        # rounds played, calls, calls won, halvings, hand total (counted from this round on)
        tallies=((1, 0, 0, 0, 17), (1, 0, 0, 1, 14), (1, 1, 1, 0, 3)),
    )


def test_round_result_is_typed_data() -> None:
    # The same round as above: play() gives dataclasses, cards as a tuple, the standing typed.
    game = table(3)
    before = state((35, 86, 120), dealer=1, starter=2, rounds=4)
    outcome = play(game, before, C, {A: 17, B: ["KH", "JK", "4S"], C: 3})
    assert outcome.result == JhyapRoundResult(
        number=5,
        dealer=B,
        starter=C,
        results=(
            JhyapPlayerResult(player=A, points=17, score_before=35, score_after=52,
                              halved=False, eliminated=False, hand=17, cards=None),
            JhyapPlayerResult(player=B, points=14, score_before=86, score_after=50,
                              halved=True, eliminated=False, hand=14, cards=("KH", "JK", "4S")),
            JhyapPlayerResult(player=C, points=0, score_before=120, score_after=120,
                              halved=False, eliminated=False, hand=3, cards=None),
        ),
        standing=Standing("in_progress", NextRound(6, dealer=C, starter=C), ()),
        caller=C,
        caller_succeeded=True,
    )  # fmt: skip
    assert outcome.result.standing == game.standing(outcome.state)
    # Key order matters too: stored rounds and exports are compared as written.
    result = round_json(outcome.result)
    assert list(result) == [
        "number", "dealer", "starter", "caller", "caller_succeeded", "results", "game"
    ]  # fmt: skip
    assert [list(row) for row in result["results"]] == [[
        "player", "hand", "cards", "points", "score_before", "score_after", "halved", "eliminated"
    ]] * 3  # fmt: skip
    assert list(result["game"]) == ["status", "next_round", "winners"]
    assert list(result["game"]["next_round"]) == ["number", "dealer", "starter"]


def test_results_are_in_seat_order_whatever_the_entry_order() -> None:
    game = table(4)
    outcome = play(game, game.start(0, 1), D, {D: 1, B: 9, A: 4, C: ["th", "q♠"]})
    assert [row["player"] for row in round_json(outcome.result)["results"]] == [A, B, C, D]
    assert [row["points"] for row in round_json(outcome.result)["results"]] == [4, 9, 20, 0]
    assert results(outcome)[C]["cards"] == ["10H", "QS"]


def test_play_does_not_change_the_given_state() -> None:
    game = table(3)
    before = state((10, 20, 30))
    copy = GameState.from_dict(before.to_dict())
    play(game, before, A, {A: 2, B: 5, C: 9})
    assert before == copy


def test_jhyap_is_in_the_registry() -> None:
    assert get_ruleset("jhyap") is Jhyap


# Rule 1: dealer


@pytest.mark.parametrize(
    ("n", "scores", "dealer", "caller", "totals", "next_dealer"),
    [
        # Plain clockwise passing, with wrap-around.
        (3, (0, 0, 0), 0, A, (0, 10, 10), 1),
        (3, (0, 0, 0), 1, A, (0, 10, 10), 2),
        (3, (0, 0, 0), 2, A, (0, 10, 10), 0),
        (5, (0, 0, 0, 0, 0), 4, A, (0, 10, 10, 10, 10), 0),
        # Bikram goes 195 + 10 = 205 > 200: the deal skips him.
        (4, (0, 195, 0, 0), 0, A, (0, 10, 10, 10), 2),
        # Dipa goes out; the deal wraps from seat 2 past seat 3 to seat 0.
        (4, (0, 0, 0, 195), 2, A, (0, 10, 10, 10), 0),
        # Asha goes out; from dealer seat 3 the deal skips seat 0 to seat 1.
        (4, (195, 0, 0, 0), 3, B, (10, 0, 10, 10), 1),
        # The dealer himself goes out: the deal still passes to his left.
        (3, (195, 0, 0), 0, B, (10, 0, 10), 1),
        # Two players go out in the same round.
        (5, (0, 195, 195, 0, 0), 0, A, (0, 10, 10, 10, 10), 3),
    ],
)
def test_rule1_deal_passes_clockwise_to_the_next_active_player(
    n: int,
    scores: tuple[int, ...],
    dealer: int,
    caller: int,
    totals: tuple[int, ...],
    next_dealer: int,
) -> None:
    game = table(n)
    outcome = play(game, state(scores, dealer=dealer), caller, seat_hands(totals))
    assert round_json(outcome.result)["dealer"] == IDS[dealer]
    assert outcome.state.dealer == next_dealer
    assert round_json(outcome.result)["game"]["next_round"]["dealer"] == IDS[next_dealer]


def test_rule1_deal_rotates_round_after_round() -> None:
    game = table(3)
    current = game.start(1, 2)
    dealers = []
    for _ in range(4):
        outcome = play(game, current, A, {A: 0, B: 3, C: 4})
        dealers.append(round_json(outcome.result)["dealer"])
        current = outcome.state
    assert dealers == [B, C, A, B]
    assert current.dealer == 2


def test_rule1_deal_skips_a_player_eliminated_in_an_earlier_round() -> None:
    # Bikram went out in round 1; the deal goes 0 -> 2 -> 3 -> 0 -> 2.
    game = table(4)
    current = state((10, 230, 10, 10), dealer=0, starter=0, out=(None, 1, None, None), rounds=1)
    dealers = []
    for _ in range(4):
        outcome = play(game, current, A, {A: 0, C: 1, D: 1})
        dealers.append(round_json(outcome.result)["dealer"])
        current = outcome.state
    assert dealers == [A, C, D, A]
    assert current.dealer == 2


# Rule 2: first starter


def test_rule2_first_starter_is_the_one_the_table_names() -> None:
    game = table(4)
    first = game.start(0, 2)
    assert first == GameState(
        rounds_played=0,
        scores=(0, 0, 0, 0),
        eliminated_in_round=(None, None, None, None),
        dealer=0,
        starter=2,
        winners=(),
        seating=(A, B, C, D),
        tallies=((0, 0, 0, 0, 0),) * 4,
    )
    assert game.standing(first) == Standing("in_progress", NextRound(1, dealer=A, starter=C), ())
    outcome = play(game, first, C, {A: 9, B: 9, C: 4, D: 9})
    assert round_json(outcome.result)["number"] == 1
    assert round_json(outcome.result)["dealer"] == A
    assert round_json(outcome.result)["starter"] == C


@pytest.mark.parametrize(("n", "dealer", "starter"), [(2, 0, 0), (2, 1, 0), (3, 2, 2), (5, 1, 4)])
def test_rule2_any_seat_may_start_round_one(n: int, dealer: int, starter: int) -> None:
    first = table(n).start(dealer, starter)
    assert (first.dealer, first.starter) == (dealer, starter)


@pytest.mark.parametrize(("n", "dealer", "starter"), [(3, 0, 1), (3, 2, 0), (5, 4, 0), (2, 1, 0)])
def test_rule2_without_a_named_starter_the_dealers_left_starts(
    n: int, dealer: int, starter: int
) -> None:
    first = table(n).start(dealer, None)
    assert (first.dealer, first.starter) == (dealer, starter)


@pytest.mark.parametrize(
    ("dealer", "starter", "field"),
    [
        (-1, 0, "dealer"),
        (3, 0, "dealer"),
        (True, 0, "dealer"),
        (None, 0, "dealer"),
        ("0", 0, "dealer"),
        (0, -1, "starter"),
        (0, 3, "starter"),
        (0, True, "starter"),
        (0, 1.0, "starter"),
    ],
)
def test_rule2_first_seats_must_be_seats_at_the_table(
    dealer: Any, starter: Any, field: str
) -> None:
    with pytest.raises(InvalidOptions) as caught:
        table(3).start(dealer, starter)
    assert caught.value.message == f"The first {field} must be a seat from 0 to 2."
    assert caught.value.details == {field: ["Give a seat from 0 to 2."]}


# Rule 3: the call


@pytest.mark.parametrize("caller", [None, 99, "11", True, 1.5])
def test_rule3_caller_must_be_a_player_at_the_table(caller: Any) -> None:
    error = rule_error(table(3), state((0, 0, 0)), caller, {A: 2, B: 9, C: 9})
    assert error.message == "The caller must be one of the players in this round."
    assert error.details == {"caller": ["Not a player in this round."]}


def test_rule3_a_round_without_a_caller_is_a_rule_error() -> None:
    # The API schema requires the field; the engine sees a missing caller as None.
    game = table(3)
    entry = JhyapEntry(caller=None, hands=(Hand(A, total=2), Hand(B, total=9), Hand(C, total=9)))  # type: ignore[arg-type]
    with pytest.raises(RuleError) as caught:
        game.play(state((0, 0, 0)), entry)
    assert caught.value.message == "The caller must be one of the players in this round."
    assert caught.value.details == {"caller": ["Not a player in this round."]}


def test_rule3_eliminated_player_cannot_call() -> None:
    # Bikram went out in round 1, so he is not in round 2.
    before = state((10, 230, 10), out=(None, 1, None), rounds=1, starter=2)
    error = rule_error(table(3), before, B, {A: 2, C: 9})
    assert error.message == "The caller must be one of the players in this round."
    assert error.details == {"caller": ["Not a player in this round."]}


@pytest.mark.parametrize(
    ("options", "caller_hand", "allowed"),
    [
        ({}, 0, True),
        ({}, 5, True),
        ({}, 6, False),
        ({}, 50, False),
        ({}, ["JK", "AS", "4D"], True),  # 0 + 1 + 4 = 5
        ({}, ["3S", "3H"], False),  # 6
        ({}, ["JH"], False),  # 10
        ({"call_limit": 0}, 0, True),
        ({"call_limit": 0}, 1, False),
        ({"call_limit": 0}, ["JK"], True),
        ({"call_limit": 0}, ["AS"], False),
        ({"call_limit": 7}, 7, True),
        ({"call_limit": 7}, 8, False),
        ({"call_limit": 50}, 50, True),
        ({"call_limit": 50}, ["KS", "KH", "KD", "KC", "QS"], True),
    ],
)
def test_rule3_caller_must_be_within_the_call_limit(
    options: dict[str, Any], caller_hand: int | list[str], allowed: bool
) -> None:
    game = table(3, **options)
    hands = {A: caller_hand, B: 50, C: 50}
    if allowed:
        outcome = play(game, state((0, 0, 0)), A, hands)
        assert round_json(outcome.result)["caller"] == A
        assert round_json(outcome.result)["caller_succeeded"] is True
        assert results(outcome)[A]["points"] == 0
    else:
        error = rule_error(game, state((0, 0, 0)), A, hands)
        total = (
            caller_hand
            if isinstance(caller_hand, int)
            else sum(card_value(parse_card(code)) for code in caller_hand)
        )
        limit = game.options["call_limit"]
        points = "1 point" if total == 1 else f"{total} points"
        assert error.message == f"Asha called Jhyap with {points}; the call limit is {limit}."
        assert error.details == {"caller": [f"Over the call limit of {limit}."]}


@pytest.mark.parametrize(
    ("limit", "total", "message"),
    [
        (0, 1, "Asha called Jhyap with 1 point; the call limit is 0."),
        (0, 2, "Asha called Jhyap with 2 points; the call limit is 0."),
        (5, 50, "Asha called Jhyap with 50 points; the call limit is 5."),
    ],
)
def test_rule3_over_the_limit_message_counts_points_in_words(
    limit: int, total: int, message: str
) -> None:
    error = rule_error(table(3, call_limit=limit), state((0, 0, 0)), A, {A: total, B: 9, C: 9})
    assert error.message == message


# Rule 4: round points


@pytest.mark.parametrize(
    ("options", "totals", "points", "succeeded"),
    [
        # Asha (seat 0) calls in every case.
        ({}, (3, 7, 12), (0, 7, 12), True),
        ({}, (3, 2, 12), (33, 2, 12), False),
        ({}, (5, 4, 4), (35, 4, 4), False),
        ({}, (0, 50, 50), (0, 50, 50), True),
        # A tie goes to the caller by default ...
        ({}, (3, 3, 12), (0, 3, 12), True),
        ({}, (0, 0, 0), (0, 0, 0), True),
        ({"caller_tie": "caller_wins"}, (4, 9, 4), (0, 9, 4), True),
        # ... and against the caller under "caller_loses" (Assaf).
        ({"caller_tie": "caller_loses"}, (3, 3, 12), (33, 3, 12), False),
        ({"caller_tie": "caller_loses"}, (0, 0, 7), (30, 0, 7), False),
        ({"caller_tie": "caller_loses"}, (3, 4, 12), (0, 4, 12), True),
        ({"caller_tie": "caller_loses"}, (3, 2, 12), (33, 2, 12), False),
        # Custom penalties.
        ({"caller_penalty": 0}, (5, 4, 9), (5, 4, 9), False),
        ({"caller_penalty": 1000}, (5, 4, 9), (1005, 4, 9), False),
        ({"caller_penalty": 17, "call_limit": 10}, (10, 9, 11), (27, 9, 11), False),
    ],
)
def test_rule4_round_points(
    options: dict[str, Any], totals: tuple[int, ...], points: tuple[int, ...], succeeded: bool
) -> None:
    game = table(3, halve_at=[], elimination_limit=10000, **options)
    outcome = play(game, state((0, 0, 0)), A, seat_hands(totals))
    assert round_json(outcome.result)["caller_succeeded"] is succeeded
    assert [row["points"] for row in round_json(outcome.result)["results"]] == list(points)
    assert [row["hand"] for row in round_json(outcome.result)["results"]] == list(totals)
    assert outcome.state.scores == points


def test_rule4_points_add_to_the_running_total() -> None:
    game = table(3)
    outcome = play(game, state((40, 12, 7)), B, {A: 20, B: 4, C: 3})
    # Chandra's 3 beats Bikram's call of 4: Bikram scores 30 + 4 = 34.
    assert round_json(outcome.result)["caller_succeeded"] is False
    assert outcome.state.scores == (60, 46, 10)
    assert [
        (row["score_before"], row["score_after"]) for row in round_json(outcome.result)["results"]
    ] == [
        (40, 60),
        (12, 46),
        (7, 10),
    ]


# Rule 5: running totals and halving


@pytest.mark.parametrize(
    ("options", "before", "totals", "after", "halved"),
    [
        # Asha (seat 0) calls; she scores 0 unless beaten.
        ({}, (0, 90, 0), (0, 10, 7), (0, 50, 7), (False, True, False)),
        ({}, (0, 99, 0), (0, 1, 7), (0, 50, 7), (False, True, False)),
        # 200 becomes 100 and stays 100 in this round.
        ({}, (0, 190, 0), (0, 10, 7), (0, 100, 7), (False, True, False)),
        ({}, (0, 170, 0), (0, 30, 7), (0, 100, 7), (False, True, False)),
        # Not exactly a halving score.
        ({}, (0, 95, 0), (0, 10, 7), (0, 105, 7), (False, False, False)),
        ({}, (0, 89, 0), (0, 10, 7), (0, 99, 7), (False, False, False)),
        # Scoring 0 at exactly 100 still halves: the successful caller ...
        ({}, (100, 0, 0), (0, 10, 7), (50, 10, 7), (True, False, False)),
        # ... and a player whose hand is 0 (tied with the caller's 0).
        ({}, (0, 100, 0), (0, 0, 7), (0, 50, 7), (False, True, False)),
        ({}, (0, 200, 0), (0, 0, 7), (0, 100, 7), (False, True, False)),
        # A beaten caller: 65 + 30 + 5 = 100 -> 50.
        ({}, (65, 0, 0), (5, 3, 20), (50, 3, 20), (True, False, False)),
        # Several players halved in one round.
        ({}, (95, 90, 190), (5, 10, 10), (95, 50, 100), (False, True, True)),
        # Custom halving scores.
        ({"halve_at": [50]}, (0, 40, 90), (0, 10, 10), (0, 25, 100), (False, True, False)),
        ({"halve_at": [60, 120]}, (0, 110, 50), (0, 10, 10), (0, 60, 30), (False, True, True)),
        ({"halve_at": [2]}, (0, 0, 0), (0, 2, 4), (0, 1, 4), (False, True, False)),
        ({"halve_at": [100, 50]}, (0, 90, 40), (0, 10, 10), (0, 50, 25), (False, True, True)),
        # Halving turned off.
        ({"halve_at": []}, (0, 190, 90), (0, 10, 10), (0, 200, 100), (False, False, False)),
        ({"halve_at": []}, (100, 0, 0), (0, 10, 10), (100, 10, 10), (False, False, False)),
    ],
)
def test_rule5_halving(
    options: dict[str, Any],
    before: tuple[int, ...],
    totals: tuple[int, ...],
    after: tuple[int, ...],
    halved: tuple[bool, ...],
) -> None:
    game = table(3, **options)
    outcome = play(game, state(before), A, seat_hands(totals))
    assert outcome.state.scores == after
    assert tuple(row["halved"] for row in round_json(outcome.result)["results"]) == halved
    assert tuple(row["score_after"] for row in round_json(outcome.result)["results"]) == after
    assert not any(row["eliminated"] for row in round_json(outcome.result)["results"])


def test_rule5_total_halved_from_200_to_100_becomes_50_next_round_if_still_100() -> None:
    game = table(3)
    first = play(game, state((0, 190, 0)), A, {A: 0, B: 10, C: 7})
    assert first.state.scores == (0, 100, 7)
    assert results(first)[B]["halved"] is True
    # Bikram's hand 0 ties Asha's call of 0: he scores 0 and sits at exactly 100.
    second = play(game, first.state, A, {A: 0, B: 0, C: 7})
    assert second.state.scores == (0, 50, 14)
    row = results(second)[B]
    assert (row["points"], row["score_before"], row["score_after"]) == (0, 100, 50)
    assert row["halved"] is True


def test_rule5_total_halved_to_100_is_not_halved_again_if_it_moves_on() -> None:
    game = table(3)
    first = play(game, state((0, 190, 0)), A, {A: 0, B: 10, C: 7})
    second = play(game, first.state, A, {A: 0, B: 5, C: 7})
    assert second.state.scores == (0, 105, 14)
    assert results(second)[B]["halved"] is False


def test_rule5_caller_who_wins_at_exactly_200_is_halved_to_100() -> None:
    game = table(2, halve_at=[100, 200])
    outcome = play(game, state((200, 0)), A, {A: 1, B: 9})
    assert outcome.state.scores == (100, 9)
    assert results(outcome)[A]["halved"] is True


# Rule 6: elimination


@pytest.mark.parametrize(
    ("options", "before", "hand", "after", "eliminated"),
    [
        # Bikram's running total against the limit (Asha calls with 0).
        ({}, 195, 6, 201, True),
        ({}, 195, 5, 100, False),  # exactly 200 is halved, not eliminated
        ({}, 200, 50, 250, True),
        ({"halve_at": []}, 195, 5, 200, False),  # exactly the limit stays in
        ({"halve_at": []}, 195, 6, 201, True),
        ({"elimination_limit": 50, "halve_at": []}, 45, 5, 50, False),
        ({"elimination_limit": 50, "halve_at": []}, 45, 6, 51, True),
        ({"elimination_limit": 50, "halve_at": [50]}, 45, 5, 25, False),
        ({"elimination_limit": 1, "halve_at": []}, 0, 1, 1, False),
        ({"elimination_limit": 1, "halve_at": []}, 0, 2, 2, True),
        ({"elimination_limit": 10000, "halve_at": []}, 9990, 10, 10000, False),
        ({"elimination_limit": 10000, "halve_at": []}, 9990, 11, 10001, True),
    ],
)
def test_rule6_elimination_strictly_above_the_limit(
    options: dict[str, Any], before: int, hand: int, after: int, eliminated: bool
) -> None:
    game = table(3, **options)
    outcome = play(game, state((0, before, 0)), A, {A: 0, B: hand, C: 0})
    row = results(outcome)[B]
    assert row["score_after"] == after
    assert row["eliminated"] is eliminated
    assert outcome.state.eliminated_in_round == (None, 1 if eliminated else None, None)
    assert outcome.state.active_seats() == ([0, 2] if eliminated else [0, 1, 2])


def test_rule6_beaten_caller_can_be_eliminated_by_the_penalty() -> None:
    game = table(3)
    outcome = play(game, state((170, 0, 0)), A, {A: 1, B: 0, C: 9})
    # 170 + 30 + 1 = 201 > 200.
    row = results(outcome)[A]
    assert (row["points"], row["score_after"], row["eliminated"]) == (31, 201, True)
    assert outcome.state.eliminated_in_round == (1, None, None)


def test_rule6_eliminated_total_is_frozen_and_the_player_is_left_out() -> None:
    game = table(3)
    first = play(game, state((0, 195, 0)), A, {A: 0, B: 6, C: 7})
    assert first.state.scores == (0, 201, 7)
    assert first.state.eliminated_in_round == (None, 1, None)

    second = play(game, first.state, C, {A: 9, C: 2})
    assert [row["player"] for row in round_json(second.result)["results"]] == [A, C]
    assert second.state.scores == (9, 201, 7)
    assert second.state.eliminated_in_round == (None, 1, None)

    third = play(game, second.state, A, {C: 11, A: 4})
    assert third.state.scores == (9, 201, 18)
    assert third.state.eliminated_in_round == (None, 1, None)
    assert third.state.rounds_played == 3


@pytest.mark.parametrize(
    ("hands", "index"),
    [
        ({A: 0, B: 4, C: 7}, "1"),
        ({B: 4, A: 0, C: 7}, "0"),
        ({A: 0, C: 7, B: ["AS"]}, "2"),
    ],
)
def test_rule6_entering_an_eliminated_player_is_a_rule_error_naming_them(
    hands: dict[int, Any], index: str
) -> None:
    game = table(3)
    first = play(game, state((0, 195, 0)), A, {A: 0, B: 6, C: 7})
    error = rule_error(game, first.state, A, hands)
    assert error.message == "Bikram was eliminated in round 1 and takes no part."
    assert error.details == {"hands": {index: {"player": ["Eliminated."]}}}


# Rule 7: next starter


@pytest.mark.parametrize(
    ("n", "before", "dealer", "caller", "totals", "starter"),
    [
        # The lowest hand starts.
        (3, (0, 0, 0), 0, A, (3, 5, 1), 2),
        (3, (0, 0, 0), 1, A, (2, 7, 9), 0),  # the successful caller
        (3, (0, 0, 0), 2, B, (9, 4, 5), 1),
        # Ties: first clockwise from the seat after THIS round's dealer (seat 0 -> 1, 2).
        (3, (0, 0, 0), 0, A, (3, 2, 2), 1),
        # Dealer seat 1: order 2, 3, 0, 1.
        (4, (0, 0, 0, 0), 1, C, (2, 2, 5, 2), 3),
        (4, (0, 0, 0, 0), 1, C, (2, 2, 5, 9), 0),
        (4, (0, 0, 0, 0), 1, A, (2, 2, 9, 9), 0),
        # All tie: dealer seat 3 -> seat 0 first; dealer seat 2 -> seat 3 first.
        (4, (0, 0, 0, 0), 3, A, (4, 4, 4, 4), 0),
        (4, (0, 0, 0, 0), 2, A, (4, 4, 4, 4), 3),
        # The dealer's own seat comes last.
        (3, (0, 0, 0), 2, A, (4, 9, 4), 0),
        (5, (0, 0, 0, 0, 0), 3, A, (1, 1, 9, 1, 9), 0),
        (5, (0, 0, 0, 0, 0), 3, C, (9, 9, 1, 1, 9), 2),
        # Bikram has the lowest hand but goes out (199 + 2 = 201): Asha starts.
        (3, (0, 199, 0), 0, A, (3, 2, 5), 0),
        # Bikram (lowest, 1) goes out; Asha, Chandra, Dipa tie at 4; from seat 1 -> 2.
        (4, (0, 200, 0, 0), 0, D, (4, 1, 4, 4), 2),
        # Dipa (lowest, 4) goes out (197 + 4); the next lowest, Bikram's 5, starts
        # although he comes last clockwise from seat 2.
        (4, (0, 0, 0, 197), 1, B, (8, 5, 9, 4), 1),
    ],
)
def test_rule7_next_starter_is_the_lowest_active_hand(
    n: int,
    before: tuple[int, ...],
    dealer: int,
    caller: int,
    totals: tuple[int, ...],
    starter: int,
) -> None:
    game = table(n)
    outcome = play(game, state(before, dealer=dealer), caller, seat_hands(totals))
    assert outcome.state.starter == starter
    assert round_json(outcome.result)["game"]["next_round"]["starter"] == IDS[starter]


def test_rule7_tie_uses_this_rounds_dealer_not_the_next_one() -> None:
    # Dealer seat 0; the next dealer is seat 1. Seats 1 and 2 tie for lowest.
    # Counting from the seat after this round's dealer (1) gives Bikram; counting
    # from the seat after the next dealer (2) would wrongly give Chandra.
    game = table(3)
    outcome = play(game, state((0, 0, 0), dealer=0), A, {A: 5, B: 3, C: 3})
    assert outcome.state.dealer == 1
    assert outcome.state.starter == 1


def test_rule7_players_out_in_earlier_rounds_do_not_start() -> None:
    # Bikram went out in round 1. Dealer seat 0; Asha, Chandra and Dipa tie.
    game = table(4)
    before = state((10, 230, 10, 10), dealer=0, starter=2, out=(None, 1, None, None), rounds=1)
    outcome = play(game, before, A, {A: 3, C: 3, D: 3})
    assert outcome.state.starter == 2
    assert outcome.state.dealer == 2


# Rule 7, option next_starter "round_winner": the caller after a successful call, else the
# catcher with the lowest hand (ties: first clockwise from the caller's left); a catcher who
# went out in the round hands the start to the next active seat after the caller.
# Each case also gives the default ("lowest_hand") starter, to show where the two differ.


@pytest.mark.parametrize(
    ("n", "options", "before", "dealer", "caller", "totals", "winner", "lowest"),
    [
        # A successful call: the caller starts.
        # Asha calls 3, Bikram ties with 3: the tie goes to the caller (success). Lowest hand:
        # Asha and Bikram tie at 3; from the dealer's left (seat 1) Bikram comes first.
        (3, {}, (0, 0, 0), 0, A, (3, 3, 9), 0, 1),
        # Chandra (seat 2) calls 4 and Asha ties: success, Chandra starts; lowest hand: seats
        # 0 and 2 tie, and from the dealer's left (dealer 2 -> seat 0) Asha comes first.
        (3, {}, (0, 0, 0), 2, C, (4, 9, 4), 2, 0),
        # Asha calls 1, nobody lower: both conventions give Asha.
        (3, {}, (0, 0, 0), 0, A, (1, 5, 7), 0, 0),
        # Two players: Bikram calls 0 and wins.
        (2, {}, (0, 0), 0, B, (7, 0), 1, 1),
        # A successful caller at exactly 200 is halved to 100 and stays in: he starts.
        (3, {}, (200, 0, 0), 0, A, (1, 9, 8), 0, 0),
        # A successful caller at the limit, halving off: 200 + 0 = 200, not above 200: in.
        (3, {"halve_at": []}, (200, 0, 0), 1, A, (2, 3, 8), 0, 0),
        # A failed call with one catcher: Asha calls 5, Bikram's 2 beats her.
        (3, {}, (0, 0, 0), 0, A, (5, 2, 9), 1, 1),
        # Several catchers: Bikram calls 5; Asha 3, Chandra 1, Dipa 4 all beat him;
        # Chandra's 1 is the lowest of them.
        (4, {}, (0, 0, 0, 0), 0, B, (3, 5, 1, 4), 2, 2),
        # Catchers tie: Chandra (seat 2) calls 5; Asha and Bikram beat him with 2.
        # From the caller's left: seats 3 (Dipa, 9, no catcher), 0 (Asha) -> Asha.
        # Lowest hand counts from the dealer's left (seat 1): Bikram.
        (4, {}, (0, 0, 0, 0), 0, C, (2, 2, 5, 9), 0, 1),
        # Five players: Dipa (seat 3) calls 4; Asha, Chandra and Ekta beat her with 1.
        # From the caller's left: seat 4 (Ekta) first. Lowest hand from seat 1: Chandra.
        (5, {}, (0, 0, 0, 0, 0), 0, D, (1, 9, 1, 4, 1), 4, 2),
        # Under caller_loses a tie beats the caller: Asha calls 3, Bikram's 3 catches her.
        (3, {"caller_tie": "caller_loses"}, (0, 0, 0), 0, A, (3, 3, 9), 1, 1),
        # Under caller_loses: Bikram ties (3) and Chandra is lower (2): Chandra, the lowest.
        (4, {"caller_tie": "caller_loses"}, (0, 0, 0, 0), 0, A, (3, 3, 2, 9), 2, 2),
        # Under caller_loses: Chandra (seat 2) calls 4; Asha and Bikram tie with her.
        # Catchers Asha and Bikram; from the caller's left: 3 (no), 0 -> Asha.
        # Lowest hand (4: Asha, Bikram, Chandra) from the dealer's left (seat 2): Chandra.
        (4, {"caller_tie": "caller_loses"}, (0, 0, 0, 0), 1, C, (4, 4, 4, 9), 0, 2),
        # The beaten caller goes out (170 + 30 + 1 = 201); the catcher Bikram starts.
        (3, {}, (170, 0, 0), 0, A, (1, 0, 9), 1, 1),
        # The catcher goes out: Bikram catches Asha with 2 but 199 + 2 = 201. The next active
        # seat clockwise after the caller (seat 0): seat 1 is out, so Chandra (seat 2).
        # Lowest hand among the active: Asha's 3.
        (3, {}, (0, 199, 0), 0, A, (3, 2, 5), 2, 0),
        # The catcher and the caller both go out: Asha 180 + 35 = 215, Bikram 199 + 2 = 201.
        # After the caller (seat 0): seat 1 out, seat 2 Chandra. Lowest active hand: Dipa's 8.
        (4, {}, (180, 199, 0, 0), 0, A, (5, 2, 9, 8), 2, 3),
        # The lowest catcher goes out while another catcher stays in: Bikram (2) goes out at
        # 201, Dipa (3) also beat Asha but is not the lowest catcher; the start goes to the
        # next active seat after the caller, Chandra (seat 2). Lowest active hand: Dipa's 3.
        (4, {}, (0, 199, 0, 0), 0, A, (5, 2, 9, 3), 2, 3),
        # The search after the caller wraps round: Dipa (seat 3) calls 5, Asha catches her
        # with 2 but goes out (199 + 2); after seat 3 comes seat 0 (out), then Bikram (seat 1).
        # Lowest active hand: Dipa's own 5 (Bikram and Chandra hold 9).
        (4, {}, (199, 0, 0, 0), 0, D, (2, 9, 9, 5), 1, 3),
    ],
)
def test_rule7_round_winner_starts_under_option_next_starter(
    n: int,
    options: dict[str, Any],
    before: tuple[int, ...],
    dealer: int,
    caller: int,
    totals: tuple[int, ...],
    winner: int,
    lowest: int,
) -> None:
    for convention, starter in (("round_winner", winner), ("lowest_hand", lowest)):
        game = table(n, next_starter=convention, **options)
        outcome = play(game, state(before, dealer=dealer), caller, seat_hands(totals))
        assert not outcome.state.finished
        assert outcome.state.starter == starter, convention
        assert round_json(outcome.result)["game"]["next_round"]["starter"] == IDS[starter]
        assert outcome.state.is_active(starter)
        # The option moves only the start: the deal passes to the dealer's left as ever.
        assert outcome.state.dealer == game.next_active_seat(outcome.state, dealer)


def test_rule7_round_winner_over_several_rounds() -> None:
    # Three players, dealer Asha (seat 0), Bikram starts round 1; option round_winner.
    game = table(3, next_starter="round_winner")
    current = game.start(0, 1)
    # R1: Bikram calls 2; Asha's 2 ties (the tie goes to the caller), Chandra 9: success.
    #     Scores 2/0/9. Next: dealer Bikram, starter Bikram (the caller).
    # R2: Chandra calls 4; Asha's 1 and Bikram's 3 beat her: Chandra scores 30 + 4.
    #     Scores 3/3/43. Next: dealer Chandra, starter Asha (the lowest catcher).
    # R3: Asha calls 0, everyone holds 0: success. Scores stay 3/3/43.
    #     Next: dealer Asha, starter Asha.
    rounds = [(B, {A: 2, B: 2, C: 9}, 1, 1), (C, {A: 1, B: 3, C: 4}, 2, 0),
              (A, {A: 0, B: 0, C: 0}, 0, 0)]  # fmt: skip
    for caller, hands, dealer, starter in rounds:
        outcome = play(game, current, caller, hands)
        current = outcome.state
        assert (current.dealer, current.starter) == (dealer, starter)
    assert current.scores == (3, 3, 43)


# Rule 8: end of game


def test_rule8_last_active_player_wins() -> None:
    game = table(2)
    outcome = play(game, state((0, 195)), A, {A: 0, B: 6})
    assert outcome.state == GameState(
        rounds_played=1,
        scores=(0, 201),
        eliminated_in_round=(None, 1),
        dealer=None,
        starter=None,
        winners=(0,),
        seating=(A, B),
        tallies=((1, 1, 1, 0, 0), (1, 0, 0, 0, 6)),
    )
    assert outcome.state.finished
    assert game.standing(outcome.state) == Standing("finished", None, (A,))
    assert round_json(outcome.result)["game"] == {
        "status": "finished",
        "next_round": None,
        "winners": [A],
    }


def test_rule8_last_active_wins_even_with_more_points_than_a_player_out_earlier() -> None:
    game = table(3)
    before = state((150, 230, 190), dealer=2, starter=0, out=(None, 1, None), rounds=1)
    outcome = play(game, before, A, {A: 0, C: 15})
    assert outcome.state.scores == (150, 230, 205)
    assert outcome.state.eliminated_in_round == (None, 1, 2)
    assert outcome.state.winners == (0,)
    assert round_json(outcome.result)["game"]["winners"] == [A]


def test_rule8_round_that_eliminates_everyone_left_gives_the_lowest_total_the_win() -> None:
    # Bikram went out in round 1 with 201. In round 2 Asha calls 5 and Chandra's
    # 4 beats her: Asha 180 + 35 = 215, Chandra 198 + 4 = 202. Both go out.
    # Chandra has the lowest total of those two; Bikram's lower 201 does not count.
    game = table(3)
    before = state((180, 201, 198), dealer=0, starter=2, out=(None, 1, None), rounds=1)
    outcome = play(game, before, A, {A: 5, C: 4})
    assert outcome.state.scores == (215, 201, 202)
    assert outcome.state.eliminated_in_round == (2, 1, 2)
    assert outcome.state.winners == (2,)
    assert game.standing(outcome.state) == Standing("finished", None, (C,))


@pytest.mark.parametrize(
    "hands",
    [{A: 5, B: 4, C: 4}, {C: 4, B: 4, A: 5}, {B: 4, A: 5, C: 4}],
    ids=["seat-order", "reversed", "mixed"],
)
def test_rule8_equal_lowest_totals_share_the_win(hands: dict[int, int]) -> None:
    # Asha 180 + 35 = 215, Bikram 197 + 4 = 201, Chandra 197 + 4 = 201: all out.
    # The winners are listed in seat order whatever order the hands were entered in.
    game = table(3)
    outcome = play(game, state((180, 197, 197)), A, hands)
    assert outcome.state.eliminated_in_round == (1, 1, 1)
    assert outcome.state.scores == (215, 201, 201)
    assert outcome.state.winners == (1, 2)
    assert round_json(outcome.result)["game"] == {
        "status": "finished",
        "next_round": None,
        "winners": [B, C],
    }


def test_rule8_two_players_out_together_with_equal_totals_share() -> None:
    # Asha calls 5 and Bikram's 4 beats her: Asha 166 + 35 = 201, Bikram 197 + 4 = 201.
    game = table(2)
    outcome = play(game, state((166, 197)), A, {A: 5, B: 4})
    assert outcome.state.scores == (201, 201)
    assert outcome.state.eliminated_in_round == (1, 1)
    assert outcome.state.winners == (0, 1)
    assert game.standing(outcome.state) == Standing("finished", None, (A, B))


def test_rule8_game_in_progress_has_no_winners() -> None:
    game = table(3)
    outcome = play(game, state((0, 195, 0)), A, {A: 0, B: 6, C: 7})
    assert outcome.state.winners == ()
    assert not outcome.state.finished
    assert game.standing(outcome.state) == Standing(
        "in_progress", NextRound(2, dealer=C, starter=A), ()
    )


def test_rule8_no_round_after_the_end() -> None:
    game = table(2)
    finished = play(game, state((0, 195)), A, {A: 0, B: 6}).state
    with pytest.raises(RuleError) as caught:
        play(game, finished, A, {A: 0})
    assert caught.value.message == "The game is over; no more rounds can be recorded."


def test_rule8_a_full_game_from_start_to_finish() -> None:
    # Two players, elimination at 60, no halving, penalty 30.
    game = table(2, elimination_limit=60, halve_at=[])
    current = game.start(0, 1)
    rounds = [
        (B, {A: 20, B: 3}, (20, 0)),  # Bikram calls and wins
        (A, {A: 5, B: 2}, (55, 2)),  # Asha's call is beaten: 20 + 35
        (B, {A: 6, B: 2}, (61, 2)),  # Asha 61 > 60 is out
    ]
    for caller, hands, scores in rounds:
        outcome = play(game, current, caller, hands)
        assert outcome.state.scores == scores
        current = outcome.state
    assert current.eliminated_in_round == (3, None)
    assert current.winners == (1,)
    assert standing_json(game.standing(current)) == {
        "status": "finished",
        "next_round": None,
        "winners": [B],
    }


# Options


@pytest.mark.parametrize(("n", "decks"), [(2, 1), (3, 1), (4, 1), (5, 2)])
def test_options_defaults(n: int, decks: int) -> None:
    assert table(n).options == DEFAULTS | {"decks": decks}


@pytest.mark.parametrize(
    ("n", "options", "resolved"),
    [
        (3, {"call_limit": 0}, {"call_limit": 0}),
        (3, {"call_limit": 50}, {"call_limit": 50}),
        (3, {"caller_penalty": 0}, {"caller_penalty": 0}),
        (3, {"caller_penalty": 1000}, {"caller_penalty": 1000}),
        (3, {"caller_tie": "caller_wins"}, {"caller_tie": "caller_wins"}),
        (3, {"caller_tie": "caller_loses"}, {"caller_tie": "caller_loses"}),
        (3, {"next_starter": "lowest_hand"}, {"next_starter": "lowest_hand"}),
        (3, {"next_starter": "round_winner"}, {"next_starter": "round_winner"}),
        (3, {"elimination_limit": 1, "halve_at": []}, {"elimination_limit": 1, "halve_at": []}),
        (3, {"elimination_limit": 2, "halve_at": [2]}, {"elimination_limit": 2, "halve_at": [2]}),
        (3, {"elimination_limit": 200}, {"elimination_limit": 200}),
        (3, {"elimination_limit": 201}, {"elimination_limit": 201, "halve_at": [100, 200]}),
        # A lower limit drops the default halving scores above it.
        (3, {"elimination_limit": 199}, {"elimination_limit": 199, "halve_at": [100]}),
        (3, {"elimination_limit": 100}, {"elimination_limit": 100, "halve_at": [100]}),
        (3, {"elimination_limit": 99}, {"elimination_limit": 99, "halve_at": []}),
        (3, {"elimination_limit": 1}, {"elimination_limit": 1, "halve_at": []}),
        (3, {"elimination_limit": 10000}, {"elimination_limit": 10000}),
        (3, {"halve_at": []}, {"halve_at": []}),
        (3, {"halve_at": [200]}, {"halve_at": [200]}),
        (3, {"halve_at": [200, 100, 2]}, {"halve_at": [2, 100, 200]}),  # kept sorted
        (3, {"halve_at": (100, 50)}, {"halve_at": [50, 100]}),
        (3, {"halve_at": list(range(20, 201, 20))}, {"halve_at": list(range(20, 201, 20))}),
        (3, {"elimination_limit": 99, "halve_at": [98]}, {"halve_at": [98]}),
        (2, {"decks": 2}, {"decks": 2}),
        (4, {"decks": 2}, {"decks": 2}),
        (5, {"decks": 1}, {"decks": 1}),
        (5, {"decks": 2}, {"decks": 2}),
    ],
)
def test_options_within_bounds_are_accepted(
    n: int, options: dict[str, Any], resolved: dict[str, Any]
) -> None:
    game = table(n, **options)
    for name, value in resolved.items():
        assert game.options[name] == value
    assert set(game.options) == set(DEFAULTS)


@pytest.mark.parametrize(
    ("n", "options", "name"),
    [
        (3, {"call_limit": -1}, "call_limit"),
        (3, {"call_limit": 51}, "call_limit"),
        (3, {"call_limit": True}, "call_limit"),
        (3, {"call_limit": False}, "call_limit"),
        (3, {"call_limit": 5.0}, "call_limit"),
        (3, {"call_limit": "5"}, "call_limit"),
        (3, {"call_limit": None}, "call_limit"),
        (3, {"caller_penalty": -1}, "caller_penalty"),
        (3, {"caller_penalty": 1001}, "caller_penalty"),
        (3, {"caller_penalty": True}, "caller_penalty"),
        (3, {"caller_penalty": 30.5}, "caller_penalty"),
        (3, {"caller_tie": "caller"}, "caller_tie"),
        (3, {"caller_tie": "CALLER_WINS"}, "caller_tie"),
        (3, {"caller_tie": None}, "caller_tie"),
        (3, {"caller_tie": True}, "caller_tie"),
        (3, {"caller_tie": ["caller_wins"]}, "caller_tie"),
        (3, {"elimination_limit": 0, "halve_at": []}, "elimination_limit"),
        (3, {"elimination_limit": 10001}, "elimination_limit"),
        (3, {"elimination_limit": True, "halve_at": []}, "elimination_limit"),
        (3, {"elimination_limit": 200.0}, "elimination_limit"),
        # Given halving scores must fit under the limit.
        (3, {"elimination_limit": 199, "halve_at": [200]}, "halve_at"),
        (3, {"elimination_limit": 150, "halve_at": [100, 200]}, "halve_at"),
        (3, {"halve_at": [101]}, "halve_at"),  # odd
        (3, {"halve_at": [100, 199]}, "halve_at"),
        (3, {"halve_at": [0]}, "halve_at"),  # below 2
        (3, {"halve_at": [-100]}, "halve_at"),
        (3, {"halve_at": [202]}, "halve_at"),  # above elimination_limit
        (3, {"halve_at": [100, 100]}, "halve_at"),  # not distinct
        (3, {"halve_at": [True]}, "halve_at"),
        (3, {"halve_at": [100.0]}, "halve_at"),
        (3, {"halve_at": ["100"]}, "halve_at"),
        (3, {"halve_at": [None]}, "halve_at"),
        (3, {"halve_at": 100}, "halve_at"),
        (3, {"halve_at": "100"}, "halve_at"),
        (3, {"halve_at": None}, "halve_at"),
        (3, {"halve_at": {"100": 1}}, "halve_at"),
        (3, {"halve_at": list(range(2, 23, 2))}, "halve_at"),  # 11 items
        (3, {"decks": 0}, "decks"),
        (3, {"decks": 3}, "decks"),
        (3, {"decks": True}, "decks"),
        (3, {"decks": 2.0}, "decks"),
        (5, {"decks": "2"}, "decks"),
        (5, {"decks": None}, "decks"),
        (3, {"next_starter": "winner"}, "next_starter"),
        (3, {"next_starter": "ROUND_WINNER"}, "next_starter"),
        (3, {"next_starter": None}, "next_starter"),
        (3, {"next_starter": True}, "next_starter"),
    ],
)
def test_options_out_of_bounds_are_rejected(n: int, options: dict[str, Any], name: str) -> None:
    with pytest.raises(InvalidOptions) as caught:
        table(n, **options)
    error = caught.value
    assert f"the option {name} " in error.message.lower()
    assert error.message.endswith(".")
    assert ":" not in error.message
    assert name in error.details["options"]


@pytest.mark.parametrize(
    ("options", "message", "problem"),
    [
        (
            {"call_limit": 51},
            "The option call_limit must be a whole number from 0 to 50.",
            "give a whole number from 0 to 50.",
        ),
        (
            {"caller_penalty": True},
            "The option caller_penalty must be a whole number from 0 to 1000.",
            "give a whole number from 0 to 1000.",
        ),
        (
            {"caller_tie": "x"},
            "The option caller_tie must be caller_wins or caller_loses.",
            "choose caller_wins or caller_loses.",
        ),
        (
            {"next_starter": "winner"},
            "The option next_starter must be lowest_hand or round_winner.",
            "choose lowest_hand or round_winner.",
        ),
        (
            {"elimination_limit": 0},
            "The option elimination_limit must be a whole number from 1 to 10000.",
            "give a whole number from 1 to 10000.",
        ),
        (
            {"halve_at": [101]},
            "Each score in the option halve_at must be an even number from 2 to 200.",
            "each score must be even and from 2 to 200.",
        ),
        (
            {"elimination_limit": 120, "halve_at": [100, 200]},
            "Each score in the option halve_at must be an even number from 2 to 120.",
            "each score must be even and from 2 to 120.",
        ),
        # Limits that leave one even score, or none, are not spelled "from 2 to 2".
        (
            {"elimination_limit": 3, "halve_at": [4]},
            "The only score the option halve_at may list is 2.",
            "the only score allowed is 2.",
        ),
        (
            {"elimination_limit": 2, "halve_at": [2, 4]},
            "The only score the option halve_at may list is 2.",
            "the only score allowed is 2.",
        ),
        (
            {"elimination_limit": 1, "halve_at": [2]},
            "The option halve_at must be an empty list when elimination_limit is 1.",
            "give an empty list.",
        ),
        (
            {"halve_at": [4, 4]},
            "The option halve_at must list whole numbers, each only once.",
            "give distinct whole numbers.",
        ),
        (
            {"halve_at": [100.0]},
            "The option halve_at must list whole numbers, each only once.",
            "give distinct whole numbers.",
        ),
        (
            {"halve_at": list(range(2, 23, 2))},
            "The option halve_at must be a list of at most 10 scores.",
            "give a list of at most 10 scores.",
        ),
        (
            {"decks": 3},
            "The option decks must be a whole number from 1 to 2.",
            "give a whole number from 1 to 2.",
        ),
    ],
)
def test_options_error_messages(options: dict[str, Any], message: str, problem: str) -> None:
    name = next(name for name in options if name != "elimination_limit" or len(options) == 1)
    with pytest.raises(InvalidOptions) as caught:
        table(3, **options)
    assert caught.value.message == message
    assert caught.value.details == {"options": {name: [problem]}}


def test_options_several_problems_the_message_names_the_first() -> None:
    with pytest.raises(InvalidOptions) as caught:
        table(3, call_limit=-1, decks=9)
    assert caught.value.message == "The option call_limit must be a whole number from 0 to 50."
    assert caught.value.details == {
        "options": {
            "call_limit": ["give a whole number from 0 to 50."],
            "decks": ["give a whole number from 1 to 2."],
        }
    }


def test_options_unknown_option_is_rejected() -> None:
    with pytest.raises(InvalidOptions) as caught:
        table(3, jokers=True)
    assert caught.value.message == "Jhyap has no option 'jokers'."
    assert caught.value.details == {"options": {"jokers": ["Unknown option."]}}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jokers": 1, "aces": 2}, "Jhyap has no options 'aces' and 'jokers'."),
        ({"c": 1, "b": 2, "a": 3}, "Jhyap has no options 'a', 'b' and 'c'."),
    ],
)
def test_options_several_unknown_options_are_named_together(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidOptions) as caught:
        table(3, **options)
    assert caught.value.message == message
    assert caught.value.details == {"options": {name: ["Unknown option."] for name in options}}


def test_options_are_not_shared_between_tables() -> None:
    first = table(3)
    first.options["halve_at"].append(150)
    assert table(3).options["halve_at"] == [100, 200]


@pytest.mark.parametrize("n", [0, 1, 6])
def test_player_count_outside_2_to_5_is_rejected(n: int) -> None:
    with pytest.raises(InvalidOptions) as caught:
        table(n)
    assert caught.value.message == f"Jhyap is played by 2 to 5 players, not {n}."
    assert caught.value.details == {"players": ["Give 2 to 5 players."]}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_player_count_2_to_5_is_accepted(n: int) -> None:
    game = table(n)
    assert len(game.players) == n
    assert game.start(0, None).scores == (0,) * n


# Hand entry


@pytest.mark.parametrize("total", [0, 1, 25, 50])
def test_hand_total_from_0_to_50_is_accepted(total: int) -> None:
    outcome = play(table(3), state((0, 0, 0)), A, {A: 0, B: total, C: 9})
    assert (results(outcome)[B]["hand"], results(outcome)[B]["points"]) == (total, total)
    assert results(outcome)[B]["cards"] is None


@pytest.mark.parametrize("total", [-1, 51, 100, True, False, 2.5, 5.0, "7"])
def test_hand_total_outside_0_to_50_is_a_rule_error(total: Any) -> None:
    error = rule_error(table(3), state((0, 0, 0)), A, {A: 0, B: total, C: 9})
    assert error.message == "Bikram's hand total must be a whole number from 0 to 50."
    assert error.details == {"hands": {"1": {"total": ["Must be from 0 to 50."]}}}


@pytest.mark.parametrize(
    ("cards", "total", "canonical"),
    [
        (["JK"], 0, ["JK"]),
        (["AS"], 1, ["AS"]),
        (["2C"], 2, ["2C"]),
        (["9h"], 9, ["9H"]),
        (["10D"], 10, ["10D"]),
        (["JH"], 10, ["JH"]),
        (["QS"], 10, ["QS"]),
        (["KC"], 10, ["KC"]),
        (["th", "q♠"], 20, ["10H", "QS"]),
        (["x", "joker", "a♦"], 1, ["JK", "JK", "AD"]),
        (["AS", "2S", "3S", "4S", "5S"], 15, ["AS", "2S", "3S", "4S", "5S"]),
        (["KH", "QD", "JC", "10S", "9H"], 49, ["KH", "QD", "JC", "10S", "9H"]),
        (["KH", "KD", "KC", "KS", "QH"], 50, ["KH", "KD", "KC", "KS", "QH"]),
        (["JK", "JK", "AH", "AC", "2D"], 4, ["JK", "JK", "AH", "AC", "2D"]),
    ],
)
def test_hand_by_cards_total_is_computed(
    cards: list[str], total: int, canonical: list[str]
) -> None:
    outcome = play(table(3), state((0, 0, 0)), A, {A: 0, B: cards, C: 9})
    row = results(outcome)[B]
    assert (row["hand"], row["points"], row["cards"]) == (total, total, canonical)


@pytest.mark.parametrize(
    ("card", "value"),
    [("JK", 0), ("AS", 1), ("2H", 2), ("5D", 5), ("9C", 9), ("10S", 10), ("JS", 10), ("QH", 10),
     ("KD", 10)],
)  # fmt: skip
def test_card_values(card: str, value: int) -> None:
    assert card_value(parse_card(card)) == value


def test_caller_hand_by_cards_counts_for_the_call() -> None:
    # Asha calls with A + 2 + joker = 3; Bikram's 2 + joker = 2 beats her.
    outcome = play(table(3), state((0, 0, 0)), A, {A: ["AS", "2H", "JK"], B: ["2C", "x"], C: 30})
    assert round_json(outcome.result)["caller_succeeded"] is False
    assert [row["points"] for row in round_json(outcome.result)["results"]] == [33, 2, 30]


@pytest.mark.parametrize("count", [0, 6, 7])
def test_hand_of_more_than_5_or_no_cards_is_a_rule_error(count: int) -> None:
    cards = ["AS", "2S", "3S", "4S", "5S", "6S", "7S"][:count]
    error = rule_error(table(3), state((0, 0, 0)), A, {A: 0, B: cards, C: 9})
    cards = "1 card" if count == 1 else f"{count} cards"
    assert error.message == f"A hand holds 1 to 5 cards, but Bikram's has {cards}."
    assert error.details == {"hands": {"1": {"cards": ["Give 1 to 5 cards."]}}}


@pytest.mark.parametrize("bad", ["ZZ", "1S", "", "AS♠"])
def test_hand_with_a_bad_card_code_is_a_rule_error(bad: str) -> None:
    error = rule_error(table(3), state((0, 0, 0)), A, {A: 0, B: ["AS", bad], C: 9})
    assert error.message == (
        f"Bikram's card {json.dumps(bad, ensure_ascii=False)} is not a card; "
        "write the rank then the suit, like 10H, QS or JK for a joker."
    )
    assert error.details == {"hands": {"1": {"cards": ["Not a card code."]}}}


@pytest.mark.parametrize(
    "hand",
    [
        {"player": B, "total": 4, "cards": ["4S"]},
        {"player": B, "total": 0, "cards": ["JK"]},
        {"player": B},
        {"player": B, "total": None, "cards": None},
    ],
)
def test_hand_with_both_or_neither_total_and_cards_is_a_rule_error(hand: dict[str, Any]) -> None:
    game = table(3)
    entry = game.parse_entry(
        {"caller": A, "hands": [{"player": A, "total": 0}, hand, {"player": C, "total": 9}]}
    )
    with pytest.raises(RuleError) as caught:
        game.play(state((0, 0, 0)), entry)
    assert caught.value.message == "Give Bikram's hand as a total or as cards, not both or neither."
    assert caught.value.details == {"hands": {"1": {"total": ["Give total or cards."]}}}


def test_parse_entry_builds_the_entry() -> None:
    game = table(3)
    entry = game.parse_entry(raw(B, {A: 9, B: ["as", "JK"], C: 12}))
    assert entry == JhyapEntry(
        caller=B, hands=(Hand(A, total=9), Hand(B, cards=("as", "JK")), Hand(C, total=12))
    )


# Deck limits


@pytest.mark.parametrize(
    ("n", "options", "hands", "problem"),
    [
        # One deck: each card once, jokers twice.
        (3, {}, {A: ["AS"], B: ["2S"], C: ["KH"]}, None),
        (3, {}, {A: ["AS"], B: ["AS"], C: ["KH"]}, ("2 copies of AS", 1)),
        (3, {}, {A: ["as"], B: ["A♠"], C: ["KH"]}, ("2 copies of AS", 1)),
        (3, {}, {A: ["AS"], B: ["10H"], C: ["TH"]}, ("2 copies of 10H", 1)),
        (3, {}, {A: ["AS"], B: ["KH", "kh"], C: 9}, ("2 copies of KH", 1)),
        (3, {}, {A: ["JK"], B: ["x"], C: ["KH"]}, None),
        (3, {}, {A: ["JK", "JK"], B: 9, C: 9}, None),
        (3, {}, {A: ["JK"], B: ["x"], C: ["joker"]}, ("3 jokers", 2)),
        # Totals use no cards.
        (3, {}, {A: 1, B: ["AS"], C: 1}, None),
        (3, {}, {A: 1, B: ["AS"], C: ["AS"]}, ("2 copies of AS", 1)),
        # Two decks: each card twice, jokers four times.
        (3, {"decks": 2}, {A: ["AS"], B: ["AS"], C: ["KH"]}, None),
        (3, {"decks": 2}, {A: ["AS"], B: ["AS", "KH"], C: ["as"]}, ("3 copies of AS", 2)),
        (3, {"decks": 2}, {A: ["JK", "JK"], B: ["JK", "x"], C: 9}, None),
        (3, {"decks": 2}, {A: ["JK", "JK"], B: ["JK", "x"], C: ["joker"]}, ("5 jokers", 4)),
        (5, {}, {A: ["AD"], B: ["QS"], C: ["QS"], D: 9, E: 9}, None),
        (5, {}, {A: ["AD"], B: ["QS"], C: ["QS"], D: ["q♠"], E: 9}, ("3 copies of QS", 2)),
        (5, {"decks": 1}, {A: ["AD"], B: ["QS"], C: ["QS"], D: 9, E: 9}, ("2 copies of QS", 1)),
    ],
)
def test_round_cards_must_fit_the_deck(
    n: int, options: dict[str, Any], hands: dict[int, Any], problem: tuple[str, int] | None
) -> None:
    game = table(n, **options)
    before = state((0,) * n)
    if problem is None:
        outcome = play(game, before, A, hands)
        assert outcome.state.rounds_played == 1
        return
    error = rule_error(game, before, A, hands)
    what, allowed = problem
    assert error.message.startswith(f"The round has {what}, but ")
    assert f"only {allowed}." in error.message
    decks_word = "one deck" if game.options["decks"] == 1 else "2 decks"
    kind = "jokers" if "jokers" in what else what.split(" ", 1)[1]
    assert error.details == {"hands": [f"Too many {kind} for {decks_word}."]}


# The players of a round


def test_player_listed_twice_is_a_rule_error() -> None:
    game = table(3)
    entry = game.parse_entry(
        {"caller": A, "hands": [{"player": A, "total": 0}, {"player": B, "total": 4},
                                {"player": B, "total": 7}, {"player": C, "total": 9}]}
    )  # fmt: skip
    with pytest.raises(RuleError) as caught:
        game.play(state((0, 0, 0)), entry)
    assert caught.value.message == "Bikram has two hands in this round."
    assert caught.value.details == {"hands": {"2": {"player": ["Listed twice."]}}}


@pytest.mark.parametrize(
    ("hands", "missing", "names"),
    [
        ({A: 0, B: 4}, "Chandra's hand is missing", "Chandra"),
        ({A: 0, C: 4}, "Bikram's hand is missing", "Bikram"),
        ({A: 0}, "the hands of Bikram and Chandra are missing", "Bikram, Chandra"),
        ({}, "the hands of Asha, Bikram and Chandra are missing", "Asha, Bikram, Chandra"),
    ],
)
def test_missing_player_is_a_rule_error(hands: dict[int, int], missing: str, names: str) -> None:
    error = rule_error(table(3), state((0, 0, 0)), A, hands)
    assert error.message == f"Give a hand for every player still in the game; {missing}."
    assert error.details == {"hands": [f"Missing: {names}."]}


@pytest.mark.parametrize("player", [99, 0, "22", None, True])
def test_unknown_player_is_a_rule_error(player: Any) -> None:
    error = rule_error(table(3), state((0, 0, 0)), A, {A: 0, player: 4, C: 9})
    assert error.message == f"Player {player} is not in this game."
    assert error.details == {"hands": {"1": {"player": ["Not a player in this game."]}}}


def test_eliminated_players_need_no_hand() -> None:
    game = table(3)
    before = state((10, 230, 10), dealer=0, starter=2, out=(None, 1, None), rounds=1)
    outcome = play(game, before, A, {A: 1, C: 6})
    assert outcome.state.scores == (10, 230, 16)
