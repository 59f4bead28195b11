"""Score pad rules engine: properties over random games.

Each example is a whole game: 2 to 12 players, random options (highest or lowest wins,
a target, a number of rounds, both or neither) and first dealer, then rounds of random
points from -10,000 to 10,000, with now and then a join or a leave, until the game ends
or a random number of rounds is reached; a game with neither target nor rounds may be
ended by the table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.domain.records import end_json, round_json
from scorekeeper.rules import CannotEnd, GameState, Player, RuleError
from scorekeeper.rules.score_pad import ScorePad
from tests.properties import examples

PROPERTY_SETTINGS = settings(max_examples=examples(150), deadline=None)


@dataclass
class Round:
    """One round as entered in the test, and what the engine made of it."""

    state: GameState
    rules: ScorePad
    points: dict[int, int]
    result: dict
    after: GameState


@dataclass
class Game:
    """A random score pad game."""

    options: dict
    rounds: list[Round] = field(default_factory=list)
    final: GameState | None = None
    rules: ScorePad | None = None
    ended: bool = False


def best(scores: tuple[int, ...], seats: list[int], lowest: bool) -> tuple[int, ...]:
    """The seats with the best total, worked out here."""
    value = (min if lowest else max)(scores[seat] for seat in seats)
    return tuple(seat for seat in seats if scores[seat] == value)


@st.composite
def games(draw) -> Game:
    count = draw(st.integers(2, 12))
    options: dict = {}
    if draw(st.booleans()):
        options["winner"] = draw(st.sampled_from(["highest", "lowest"]))
    if draw(st.booleans()):
        options["target"] = draw(st.one_of(st.integers(1, 200), st.integers(1, 100_000)))
    if draw(st.booleans()):
        options["rounds"] = draw(st.integers(1, 12))
    ids = draw(st.lists(st.integers(1, 10**6), min_size=count + 2, max_size=count + 2, unique=True))
    rules = ScorePad([Player(i, f"P{n}") for n, i in enumerate(ids[:count])], options)
    state = rules.start(draw(st.integers(0, count - 1)), None)
    game = Game(options)
    newcomers = [Player(i, f"N{n}") for n, i in enumerate(ids[count:])]
    points_of = st.one_of(st.integers(-50, 100), st.integers(-10_000, 10_000))
    for _ in range(draw(st.integers(1, 25))):
        if state.finished:
            break
        active = state.active_seats()
        change = draw(st.sampled_from(["round"] * 6 + ["join", "leave", "end"]))
        if change == "join" and newcomers and len(active) < 12:
            moved = rules.join(
                state, newcomers.pop(), rules.players[draw(st.sampled_from(active))].id
            )
            rules, state = moved.rules, moved.state
            continue
        if change == "leave":
            moved = rules.leave(state, rules.players[draw(st.sampled_from(active))].id)
            rules, state = moved.rules, moved.state
            continue
        if change == "end" and rules.can_be_ended() and state.rounds_played:
            state = rules.end(state).state
            game.ended = True
            break
        points = {seat: draw(points_of) for seat in active}
        raw = {"hands": [{"player": rules.players[s].id, "points": points[s]} for s in active]}
        raw["hands"] = draw(st.permutations(raw["hands"]))
        outcome = rules.play(state, rules.parse_entry(raw))
        game.rounds.append(Round(state, rules, points, round_json(outcome.result), outcome.state))
        state = outcome.state
    game.final, game.rules = state, rules
    return game


@given(games())
@PROPERTY_SETTINGS
def test_each_total_is_the_sum_of_its_points(game: Game) -> None:
    for played in game.rounds:
        for row in played.result["results"]:
            seat = played.rules.seat_of(row["player"])
            assert row["points"] == played.points[seat]
            assert row["score_after"] == row["score_before"] + row["points"]
            assert row["score_after"] == played.after.scores[seat]
            assert not row["halved"] and not row["eliminated"]


@given(games())
@PROPERTY_SETTINGS
def test_the_game_ends_at_the_target_or_after_its_rounds_and_the_best_total_wins(
    game: Game,
) -> None:
    target, rounds = game.options.get("target"), game.options.get("rounds")
    lowest = game.options.get("winner") == "lowest"
    for played in game.rounds:
        active = played.state.active_seats()
        reached = target is not None and max(played.after.scores[s] for s in active) >= target
        counted = rounds is not None and played.after.rounds_played >= rounds
        left_alone = len(played.state.active_seats()) == 1
        assert played.after.finished == (reached or counted or left_alone)
        if played.after.finished and not left_alone:
            assert played.after.winners == best(played.after.scores, active, lowest)


@given(games())
@PROPERTY_SETTINGS
def test_the_deal_moves_clockwise_and_the_dealers_left_starts(game: Game) -> None:
    for played in game.rounds:
        state, rules = played.state, played.rules
        assert played.result["dealer"] == rules.players[state.dealer].id
        assert played.result["starter"] == rules.players[state.starter].id
        if not played.after.finished:
            dealer = rules.next_active_seat(played.after, state.dealer)
            assert played.after.dealer == dealer
            assert played.after.starter == rules.next_active_seat(played.after, dealer)


@given(games())
@PROPERTY_SETTINGS
def test_an_end_by_hand_names_the_best_total_and_keeps_every_score(game: Game) -> None:
    rules, final = game.rules, game.final
    assert rules is not None and final is not None
    if not game.ended:
        if not final.finished and final.rounds_played and not rules.can_be_ended():
            try:
                rules.end(final)
            except CannotEnd:
                pass
            else:
                raise AssertionError("a pad with a target or rounds was ended by hand")
        return
    lowest = game.options.get("winner") == "lowest"
    assert final.finished
    assert final.winners == best(final.scores, final.active_seats(), lowest)


@given(games())
@PROPERTY_SETTINGS
def test_states_survive_json_and_a_finished_game_takes_no_round(game: Game) -> None:
    rules, final = game.rules, game.final
    assert rules is not None and final is not None
    assert rules.state_from_dict(json.loads(json.dumps(final.to_dict()))) == final
    assert rules.tallies_of(final, 0)["rounds_played"] <= final.rounds_played
    if final.finished:
        entry = {"hands": [{"player": p.id, "points": 0} for p in rules.players]}
        try:
            rules.play(final, rules.parse_entry(entry))
        except RuleError as error:
            assert error.message == "The game is over; no more rounds can be recorded."
        else:
            raise AssertionError("a finished game took a round")


def test_the_end_is_numbered_after_the_last_item() -> None:
    rules = ScorePad([Player(1, "A"), Player(2, "B")])
    state = rules.start(0, None)
    state = rules.play(
        state,
        rules.parse_entry({"hands": [{"player": 1, "points": 3}, {"player": 2, "points": 4}]}),
    ).state
    ended = rules.end(state)
    assert end_json(ended.result)["number"] == 2
