"""Hearts rules engine: properties over random games.

Each example is a whole game: 3 to 6 players, random options and first dealer, then
hands dealt out at random (13 hearts and the queen of spades, each to some player),
entered as points or as hearts, with now and then a moon, a join or a leave, until the
game ends or a random number of hands is reached. The expected figures are worked out
here from the deal, independently of the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.domain.records import round_json, seat_change_json, standing_json
from scorekeeper.rules import GameState, Player, RuleError
from scorekeeper.rules.hearts import Hearts
from tests.properties import examples

PROPERTY_SETTINGS = settings(max_examples=examples(150), deadline=None)
FOUR = ("left", "right", "across", "keep")
OTHER = ("left", "right", "keep")


@dataclass
class Hand:
    """One hand as dealt in the test: the hearts and the queen's taker by seat, and the result."""

    state: GameState
    rules: Hearts
    hearts: dict[int, int]
    queen: int
    result: dict
    after: GameState


@dataclass
class Game:
    """A random game of Hearts and what the engine made of it."""

    options: dict
    hands: list[Hand] = field(default_factory=list)
    final: GameState | None = None
    rules: Hearts | None = None


@st.composite
def games(draw) -> Game:
    count = draw(st.integers(3, 6))
    options: dict = {}
    if draw(st.booleans()):
        options["limit"] = draw(st.integers(50, 500))
    if draw(st.booleans()):
        options["moon"] = draw(st.sampled_from(["add_to_others", "subtract_from_shooter"]))
    ids = draw(st.lists(st.integers(1, 10**6), min_size=count + 2, max_size=count + 2, unique=True))
    rules = Hearts([Player(i, f"P{n}") for n, i in enumerate(ids[:count])], options)
    state = rules.start(draw(st.integers(0, count - 1)), None)
    game = Game(options)
    newcomers = [Player(i, f"N{n}") for n, i in enumerate(ids[count:])]
    for _ in range(draw(st.integers(1, 30))):
        if state.finished:
            break
        active = state.active_seats()
        change = draw(st.sampled_from(["hand"] * 6 + ["join", "leave"]))
        if change == "join" and newcomers and len(active) < 6:
            after = rules.players[draw(st.sampled_from(active))].id
            moved = rules.join(state, newcomers.pop(), after)
            rules, state = moved.rules, moved.state
            continue
        if change == "leave" and len(active) > 3:
            moved = rules.leave(state, rules.players[draw(st.sampled_from(active))].id)
            rules, state = moved.rules, moved.state
            continue
        if draw(st.integers(0, 9)) == 0:  # a moon
            shooter = draw(st.sampled_from(active))
            hearts = {seat: 13 if seat == shooter else 0 for seat in active}
            queen = shooter
        else:
            owners = draw(st.lists(st.sampled_from(active), min_size=13, max_size=13))
            hearts = {seat: owners.count(seat) for seat in active}
            queen = draw(st.sampled_from(active))
        taken = {seat: hearts[seat] + 13 * (seat == queen) for seat in active}
        if draw(st.booleans()):
            raw = {
                "hands": [{"player": rules.players[s].id, "hearts": hearts[s]} for s in active],
                "queen": rules.players[queen].id,
            }
        else:
            raw = {"hands": [{"player": rules.players[s].id, "points": taken[s]} for s in active]}
        raw["hands"] = draw(st.permutations(raw["hands"]))
        outcome = rules.play(state, rules.parse_entry(raw))
        game.hands.append(
            Hand(state, rules, hearts, queen, round_json(outcome.result), outcome.state)
        )
        state = outcome.state
    game.final, game.rules = state, rules
    return game


@given(games())
@PROPERTY_SETTINGS
def test_each_total_changes_by_its_take_or_by_the_moon(game: Game) -> None:
    moon_to_others = game.options.get("moon", "add_to_others") == "add_to_others"
    for hand in game.hands:
        active = hand.state.active_seats()
        taken = {seat: hand.hearts[seat] + 13 * (seat == hand.queen) for seat in active}
        assert sum(taken.values()) == 26
        shooter = next((seat for seat in active if taken[seat] == 26), None)
        for row in hand.result["results"]:
            seat = hand.rules.seat_of(row["player"])
            assert row["taken"] == taken[seat]
            if shooter is None:
                expected = taken[seat]
            elif moon_to_others:
                expected = 0 if seat == shooter else 26
            else:
                expected = -26 if seat == shooter else 0
            assert row["points"] == expected
            assert row["score_after"] == row["score_before"] + expected == hand.after.scores[seat]
            assert not row["halved"] and not row["eliminated"]
        moon = None if shooter is None else hand.rules.players[shooter].id
        assert hand.result["moon"] == moon


@given(games())
@PROPERTY_SETTINGS
def test_the_game_ends_at_the_limit_and_the_lowest_total_wins(game: Game) -> None:
    limit = game.options.get("limit", 100)
    for hand in game.hands:
        active = hand.state.active_seats()
        reached = max(hand.after.scores[seat] for seat in active) >= limit
        assert hand.after.finished == reached
        if reached:
            lowest = min(hand.after.scores[seat] for seat in active)
            assert hand.after.winners == tuple(
                seat for seat in active if hand.after.scores[seat] == lowest
            )
            assert hand is game.hands[-1]


@given(games())
@PROPERTY_SETTINGS
def test_the_deal_moves_clockwise_and_the_passes_follow_the_hands_played(game: Game) -> None:
    for hand in game.hands:
        state, rules = hand.state, hand.rules
        count = len(state.active_seats())
        cycle = FOUR if count == 4 else OTHER
        assert hand.result["pass"] == cycle[state.rounds_played % len(cycle)]
        assert hand.result["dealer"] == rules.players[state.dealer].id
        assert hand.result["starter"] is None
        if not hand.after.finished:
            next_round = standing_json(rules.standing(hand.after))["next_round"]
            assert (
                next_round["dealer"]
                == rules.players[rules.next_active_seat(state, state.dealer)].id
            )
            assert next_round["starter"] is None
            assert next_round["pass"] == cycle[(state.rounds_played + 1) % len(cycle)]


@given(games())
@PROPERTY_SETTINGS
def test_tallies_count_hands_points_moons_and_clean_hands(game: Game) -> None:
    rules, final = game.rules, game.final
    assert rules is not None and final is not None
    counts: dict[int, list[int]] = {}
    for hand in game.hands:
        for row in hand.result["results"]:
            count = counts.setdefault(row["player"], [0, 0, 0, 0])
            count[0] += 1
            count[1] += row["taken"]
            count[2] += row["taken"] == 26
            count[3] += row["taken"] == 0
    for seat, player in enumerate(rules.players):
        expected = counts.get(player.id, [0, 0, 0, 0])
        assert list(rules.tallies_of(final, seat).values()) == expected


@given(games())
@PROPERTY_SETTINGS
def test_states_and_results_survive_json_and_a_finished_game_takes_no_hand(game: Game) -> None:
    rules, final = game.rules, game.final
    assert rules is not None and final is not None
    stored = json.loads(json.dumps(final.to_dict()))
    assert rules.state_from_dict(stored) == final
    for hand in game.hands:
        assert json.loads(json.dumps(hand.result)) == hand.result
    if final.finished:
        entry = {"hands": [{"player": p.id, "points": 0} for p in rules.players]}
        try:
            rules.play(final, rules.parse_entry(entry))
        except RuleError as error:
            assert error.message == "The game is over; no more rounds can be recorded."
        else:
            raise AssertionError("a finished game took a hand")


@given(games(), st.integers(-3, 3))
@PROPERTY_SETTINGS
def test_a_hand_that_does_not_add_up_to_26_is_refused(game: Game, off: int) -> None:
    rules, final = game.rules, game.final
    assert rules is not None and final is not None
    if final.finished or off == 0:
        return
    active = final.active_seats()
    taken = [0] * len(active)
    taken[0] = 13 + max(off, -13)
    taken[-1] = 13
    if min(taken) < 0 or max(taken) > 26:
        return
    entry = {
        "hands": [
            {"player": rules.players[s].id, "points": t} for s, t in zip(active, taken, strict=True)
        ]
    }
    try:
        rules.play(final, rules.parse_entry(entry))
    except RuleError as error:
        words = "too few" if off < 0 else "too many"
        assert error.message.endswith(f"({abs(off)} {words}).")
    else:
        raise AssertionError("a hand off by {off} was taken")


def test_seat_changes_keep_their_json_shape() -> None:
    rules = Hearts([Player(1, "A"), Player(2, "B"), Player(3, "C"), Player(4, "D")])
    moved = rules.leave(rules.start(0, None), 2)
    assert seat_change_json(moved.result)["game"]["next_round"] == {
        "number": 2,
        "dealer": 1,
        "starter": None,
        "pass": "left",
    }
