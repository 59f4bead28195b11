"""Property tests of the Jhyap engine over random games.

A game is 2 to 5 players with random options within their bounds, a random
first dealer and starter, and random valid rounds, each generated from the
state the previous round left: a caller within the call limit and a hand for
every active player, entered as a total or as cards that fit the deck.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.domain.records import round_json, standing_json
from scorekeeper.rules import GameState, Jhyap, Player, RoundOutcome, RuleError
from scorekeeper.rules.cards import RANKS, SUITS, parse_card
from scorekeeper.rules.jhyap import card_value
from tests.properties import examples

SETTINGS = settings(max_examples=examples(200), deadline=None)
MAX_ROUNDS = 20

ONE_DECK = [f"{rank}{suit}" for rank in RANKS for suit in SUITS] + ["JK", "JK"]
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
UP_TO = [st.integers(0, top) for top in range(51)]  # built once: strategies cost to build


def spellings(code: str) -> list[str]:
    """Ways a table may write the card ``code`` (canonical first)."""
    if code == "JK":
        return ["JK", "jk", "X", "x", "JOKER", "joker"]
    rank, suit = code[:-1], code[-1]
    ranks = [rank, "T", "t"] if rank == "10" else [rank, rank.lower()]
    return [f"{r}{s}" for r in ranks for s in (suit, suit.lower(), SYMBOLS[suit])]


@dataclass
class PlayedGame:
    """A generated game: how it was set up and every round played."""

    players: list[Player]
    options: dict[str, Any]
    dealer: int
    starter: int | None
    entries: list[dict[str, Any]]
    outcomes: list[RoundOutcome]

    def table(self) -> Jhyap:
        return Jhyap(list(self.players), copy.deepcopy(self.options))

    def first(self) -> GameState:
        return self.table().start(self.dealer, self.starter)

    def states(self) -> list[GameState]:
        """The state before round 1, then after each round."""
        return [self.first()] + [outcome.state for outcome in self.outcomes]

    def befores(self) -> list[GameState]:
        """The state before each round."""
        return self.states()[:-1]


@st.composite
def option_sets(draw: st.DrawFn) -> dict[str, Any]:
    """Options within their bounds; any of them may be left to its default."""
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["call_limit"] = draw(st.integers(0, 50))
    if draw(st.booleans()):
        options["caller_penalty"] = draw(st.integers(0, 1000))
    if draw(st.booleans()):
        options["caller_tie"] = draw(st.sampled_from(["caller_wins", "caller_loses"]))
    limit = draw(st.one_of(st.just(200), st.integers(1, 60), st.integers(1, 10000)))
    style = draw(st.sampled_from(["default", "any", "low", "high"]))
    if limit != 200 or style != "default":
        options["elimination_limit"] = limit
        evens = list(range(2, limit + 1, 2))
        if style == "any" and evens:
            options["halve_at"] = draw(st.lists(st.sampled_from(evens), unique=True, max_size=10))
        elif style == "low":  # 2, 4, 6, ...: halvings, and halvings of 0-point rounds, are common
            options["halve_at"] = evens[: draw(st.integers(0, 10))]
        elif style == "high":  # just under the limit, where totals gather
            options["halve_at"] = evens[::-1][: draw(st.integers(0, 10))]
        # else the default [100, 200], less what is above the limit
    if draw(st.booleans()):
        options["decks"] = draw(st.integers(1, 2))
    if draw(st.booleans()):
        options["next_starter"] = draw(st.sampled_from(["lowest_hand", "round_winner"]))
    return options


def draw_entry(
    draw: st.DrawFn, rng: random.Random, game: Jhyap, state: GameState
) -> dict[str, Any]:
    """A valid round for ``state``: a caller within the limit, a hand per active player.

    The caller and the totals are drawn (so they shrink); which hands are given
    as cards, the cards, their spelling and the order of the hands come from ``rng``.
    """
    active = state.active_seats()
    caller = active[draw(UP_TO[len(active) - 1])]
    call_limit = min(game.options["call_limit"], 50)
    pool = ONE_DECK * game.options["decks"]
    hands = []
    for seat in rng.sample(active, len(active)):
        hand: dict[str, Any] = {"player": game.players[seat].id}
        if rng.random() < 0.3:
            cards = [pool.pop(rng.randrange(len(pool))) for _ in range(rng.randint(1, 5))]
            total = sum(card_value(parse_card(code)) for code in cards)
            if seat != caller or total <= call_limit:
                hand["cards"] = [rng.choice(spellings(code)) for code in cards]
            else:
                pool.extend(cards)
        if "cards" not in hand:
            hand["total"] = draw(UP_TO[call_limit if seat == caller else 50])
        hands.append(hand)
    return {"caller": game.players[caller].id, "hands": hands}


@st.composite
def played_games(draw: st.DrawFn) -> PlayedGame:
    """A random game played from start() until it ends, or for MAX_ROUNDS rounds."""
    count = draw(st.integers(2, 5))
    ids = [100 + 17 * k for k in draw(st.permutations(range(10)))[:count]]
    players = [Player(player_id, f"Player {seat}") for seat, player_id in enumerate(ids)]
    options = draw(option_sets())
    dealer = draw(st.integers(0, count - 1))
    starter = draw(st.none() | st.integers(0, count - 1))
    game = Jhyap(players, copy.deepcopy(options))
    state = game.start(dealer, starter)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    entries: list[dict[str, Any]] = []
    outcomes: list[RoundOutcome] = []
    while not state.finished and len(entries) < MAX_ROUNDS:
        entry = draw_entry(draw, rng, game, state)
        outcome = game.play(state, game.parse_entry(entry))
        entries.append(entry)
        outcomes.append(outcome)
        state = outcome.state
    return PlayedGame(players, options, dealer, starter, entries, outcomes)


# A reference model written from rules.md, independently of the engine's code.


def hand_total(hand: dict[str, Any]) -> int:
    if "total" in hand:
        return hand["total"]
    return sum(card_value(parse_card(code)) for code in hand["cards"])


def expected_round(game: Jhyap, before: GameState, entry: dict[str, Any]) -> dict[str, Any]:
    """What rules 1 and 3 to 8 say the round gives."""
    options = game.options
    count = len(game.players)
    seat_of = {player.id: seat for seat, player in enumerate(game.players)}
    totals = {seat_of[hand["player"]]: hand_total(hand) for hand in entry["hands"]}
    caller = seat_of[entry["caller"]]
    assert totals[caller] <= options["call_limit"]

    # Rule 4.
    ties_lose = options["caller_tie"] == "caller_loses"
    beaten_by = [
        seat
        for seat, total in totals.items()
        if seat != caller and (total < totals[caller] or (ties_lose and total == totals[caller]))
    ]
    succeeded = not beaten_by
    points = dict(totals)
    points[caller] = 0 if succeeded else options["caller_penalty"] + totals[caller]

    # Rules 5 and 6.
    scores = list(before.scores)
    halved = {}
    for seat in totals:
        reached = scores[seat] + points[seat]
        halved[seat] = reached in options["halve_at"]
        scores[seat] = reached // 2 if halved[seat] else reached
    out = list(before.eliminated_in_round)
    for seat in totals:
        if scores[seat] > options["elimination_limit"]:
            out[seat] = before.rounds_played + 1
    active = [seat for seat in range(count) if out[seat] is None]

    # Rules 8, then 1 and 7.
    dealer = starter = None
    winners: list[int] = []
    if len(active) == 1:
        winners = active
    elif not active:
        lowest = min(scores[seat] for seat in totals)
        winners = sorted(seat for seat in totals if scores[seat] == lowest)
    else:
        assert before.dealer is not None
        dealer_seat = before.dealer

        def clockwise(seat: int) -> int:
            """Steps from the seat after this round's dealer."""
            return (seat - dealer_seat - 1) % count

        dealer = min(active, key=clockwise)
        if options["next_starter"] == "lowest_hand":
            contenders = [seat for seat in totals if seat in active]
            starter = min(contenders, key=lambda seat: (totals[seat], clockwise(seat)))
        else:

            def after_caller(seat: int) -> int:
                """Steps from the caller's left."""
                return (seat - caller - 1) % count

            winner = (
                min(beaten_by, key=lambda seat: (totals[seat], after_caller(seat)))
                if beaten_by
                else caller
            )
            starter = winner if winner in active else min(active, key=after_caller)
    # Counts: a round played, a call, a call won, a halving, the hand's total.
    tallies = [list(row) for row in before.tallies]
    for seat, total in totals.items():
        won = seat == caller and succeeded
        for index, add in enumerate((1, seat == caller, won, halved[seat], total)):
            tallies[seat][index] += add
    return {
        "caller_succeeded": succeeded,
        "totals": totals,
        "points": points,
        "halved": halved,
        "state": GameState(
            rounds_played=before.rounds_played + 1,
            scores=tuple(scores),
            eliminated_in_round=tuple(out),
            dealer=dealer,
            starter=starter,
            winners=tuple(winners),
            seating=tuple(player.id for player in game.players),
            tallies=tuple(tuple(row) for row in tallies),
        ),
    }


# Properties


@SETTINGS
@given(played_games())
def test_engine_matches_a_reference_model(played: PlayedGame) -> None:
    game = played.table()
    limit = played.options.get("elimination_limit", 200)
    assert game.options == {
        "call_limit": 5,
        "caller_penalty": 30,
        "caller_tie": "caller_wins",
        "elimination_limit": limit,
        "decks": 2 if len(played.players) == 5 else 1,
        "next_starter": "lowest_hand",
        **played.options,
        "halve_at": sorted(played.options.get("halve_at", [v for v in (100, 200) if v <= limit])),
    }
    for before, entry, outcome in zip(
        played.befores(), played.entries, played.outcomes, strict=True
    ):
        expected = expected_round(game, before, entry)
        assert outcome.state == expected["state"]
        assert round_json(outcome.result)["caller_succeeded"] is expected["caller_succeeded"]
        rows = {game.seat_of(row["player"]): row for row in round_json(outcome.result)["results"]}
        assert sorted(rows) == sorted(expected["totals"])
        for seat, row in rows.items():
            assert row["hand"] == expected["totals"][seat]
            assert row["points"] == expected["points"][seat]
            assert row["halved"] is expected["halved"][seat]
            assert row["score_before"] == before.scores[seat]
            assert row["score_after"] == outcome.state.scores[seat]


@SETTINGS
@given(played_games())
def test_total_is_round_points_minus_what_halvings_removed(played: PlayedGame) -> None:
    game = played.table()
    halve_at = game.options["halve_at"]
    count = len(played.players)
    points = [0] * count
    removed = [0] * count
    for outcome in played.outcomes:
        for row in round_json(outcome.result)["results"]:
            seat = game.seat_of(row["player"])
            reached = row["score_before"] + row["points"]
            points[seat] += row["points"]
            if row["halved"]:
                assert reached in halve_at
                assert row["score_after"] * 2 == reached
                removed[seat] += reached - row["score_after"]
            else:
                assert reached not in halve_at
                assert row["score_after"] == reached
        assert list(outcome.state.scores) == [points[s] - removed[s] for s in range(count)]
        assert all(score >= 0 for score in outcome.state.scores)


@SETTINGS
@given(played_games())
def test_eliminated_player_never_appears_in_a_later_round(played: PlayedGame) -> None:
    game = played.table()
    states = played.states()
    for number, outcome in enumerate(played.outcomes, start=1):
        for row in round_json(outcome.result)["results"]:
            if not row["eliminated"]:
                continue
            seat = game.seat_of(row["player"])
            assert outcome.state.eliminated_in_round[seat] == number
            for later_number, later in enumerate(played.outcomes[number:], start=number + 1):
                assert row["player"] not in [
                    r["player"] for r in round_json(later.result)["results"]
                ]
                assert later.state.scores[seat] == row["score_after"]
                assert later.state.eliminated_in_round[seat] == number
                # Entering them in that later round is refused, naming them.
                entry = copy.deepcopy(played.entries[later_number - 1])
                entry["hands"].append({"player": row["player"], "total": 0})
                try:
                    game.play(states[later_number - 1], game.parse_entry(entry))
                except RuleError as error:
                    assert game.players[seat].name in error.message
                    assert "eliminated" in error.message
                else:
                    raise AssertionError("an eliminated player was accepted")


@SETTINGS
@given(played_games())
def test_game_ends_exactly_when_at_most_one_player_is_active(played: PlayedGame) -> None:
    game = played.table()
    for before, outcome in zip(played.befores(), played.outcomes, strict=True):
        after = outcome.state
        active = after.active_seats()
        standing = game.standing(after)
        assert (standing.status == "finished") is (len(active) <= 1)
        assert after.finished is (len(active) <= 1)
        assert round_json(outcome.result)["game"] == standing_json(standing)
        if len(active) == 1:
            assert after.winners == (active[0],)
        elif not active:
            # Everyone still in before the round went out in it: the lowest of them win.
            contenders = before.active_seats()
            lowest = min(after.scores[seat] for seat in contenders)
            assert after.winners == tuple(s for s in contenders if after.scores[s] == lowest)
        else:
            assert after.winners == ()
            assert standing.next_round is not None
            assert after.dealer in active and after.starter in active
            assert standing.next_round.number == after.rounds_played + 1
        assert standing.winners == tuple(game.players[seat].id for seat in after.winners)
    last = played.states()[-1]
    if last.finished:
        assert played.outcomes[-1].state is last
        try:
            game.play(last, game.parse_entry(played.entries[-1]))
        except RuleError as error:
            assert error.message == "The game is over; no more rounds can be recorded."
        else:
            raise AssertionError("a round was accepted after the end")


@SETTINGS
@given(played_games())
def test_replaying_the_entries_reproduces_every_result(played: PlayedGame) -> None:
    game = played.table()
    state = game.start(played.dealer, played.starter)
    assert state == played.first()
    for entry, recorded in zip(played.entries, played.outcomes, strict=True):
        replayed = game.play(state, game.parse_entry(copy.deepcopy(entry)))
        assert round_json(replayed.result) == round_json(recorded.result)
        assert replayed.state == recorded.state
        state = replayed.state
    # The same round scored twice from the same state gives the same outcome, and
    # so does the same round with its hands listed in the opposite order.
    for before, entry, recorded in zip(
        played.befores(), played.entries, played.outcomes, strict=True
    ):
        assert game.play(before, game.parse_entry(copy.deepcopy(entry))) == recorded
        reversed_entry = {**entry, "hands": entry["hands"][::-1]}
        assert game.play(before, game.parse_entry(reversed_entry)) == recorded


@SETTINGS
@given(played_games())
def test_state_round_trips_through_to_dict(played: PlayedGame) -> None:
    game = played.table()
    for state in played.states():
        assert game.state_from_dict(state.to_dict()) == state
        stored = json.loads(json.dumps(state.to_dict()))
        rebuilt = game.state_from_dict(stored)
        assert rebuilt == state
        assert isinstance(rebuilt.scores, tuple)
        assert isinstance(rebuilt.eliminated_in_round, tuple)
        assert isinstance(rebuilt.winners, tuple)
        assert hash(rebuilt) == hash(state)
    for outcome in played.outcomes:
        assert json.loads(json.dumps(round_json(outcome.result))) == round_json(outcome.result)


@SETTINGS
@given(played_games())
def test_round_winner_after_a_successful_call_is_the_caller(played: PlayedGame) -> None:
    game = played.table()
    for outcome in played.outcomes:
        caller = game.seat_of(round_json(outcome.result)["caller"])
        assert caller is not None
        after = outcome.state
        if round_json(outcome.result)["caller_succeeded"]:
            # A successful caller scores 0 and is never knocked out by it.
            assert after.is_active(caller)
            if not after.finished and game.options["next_starter"] == "round_winner":
                assert after.starter == caller
        if not after.finished:
            assert after.starter is not None and after.is_active(after.starter)
            assert after.dealer is not None and after.is_active(after.dealer)


@SETTINGS
@given(played_games())
def test_lowest_hand_is_the_default_and_round_winner_only_moves_the_start(
    played: PlayedGame,
) -> None:
    """The same entries under either next_starter give the same points; only starters differ."""
    options = {name: value for name, value in played.options.items() if name != "next_starter"}
    tables = {
        convention: Jhyap(list(played.players), {**copy.deepcopy(options), **extra})
        for convention, extra in (
            ("absent", {}),
            ("lowest_hand", {"next_starter": "lowest_hand"}),
            ("round_winner", {"next_starter": "round_winner"}),
        )
    }
    states = {name: rules.start(played.dealer, played.starter) for name, rules in tables.items()}
    for entry in played.entries:
        outcomes = {
            name: rules.play(states[name], rules.parse_entry(copy.deepcopy(entry)))
            for name, rules in tables.items()
        }
        assert outcomes["absent"] == outcomes["lowest_hand"]
        for name in ("lowest_hand", "round_winner"):
            assert (
                round_json(outcomes[name].result)["results"]
                == round_json(outcomes["absent"].result)["results"]
            )
            after, absent = outcomes[name].state, outcomes["absent"].state
            assert (after.scores, after.eliminated_in_round, after.winners, after.dealer) == (
                absent.scores,
                absent.eliminated_in_round,
                absent.winners,
                absent.dealer,
            )
        states = {name: outcome.state for name, outcome in outcomes.items()}
