"""Twenty Two rules engine: properties over random games.

Each example is a whole game: 2 to 6 players, random options and first dealer, then
rounds whose final tricks are drawn from the cards still in the pack, in a random
playing order and spelled in any accepted way, until the game ends or a random round
limit is reached. The pack always has a card for every active player: when it would
not, the score piles go back into it (rules.md, "Decision (an empty pack)").
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.domain.records import round_json, standing_json
from scorekeeper.rules import Player, RoundOutcome, RuleError, TwentyTwo, TwentyTwoState
from tests.properties import examples

VALUE = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
         "J": 10, "Q": 10, "K": 10, "A": 11}  # fmt: skip
RANK_ORDER = {rank: order for order, rank in enumerate(VALUE)}
DECK = tuple(f"{rank}{suit}" for rank in VALUE for suit in "SHDC")
SUIT_SPELLINGS = {"S": "Ss♠", "H": "Hh♥", "D": "Dd♦", "C": "Cc♣"}

PROPERTY_SETTINGS = settings(max_examples=examples(200), deadline=None)


def value(code: str) -> int:
    """Spec point value of a canonical code (ace 11, J/Q/K 10, pips face)."""
    return VALUE[code[:-1]]


def rank_order(code: str) -> int:
    """Position of the rank, 2 low to ace high."""
    return RANK_ORDER[code[:-1]]


def _spellings(code: str) -> tuple[str, ...]:
    """Every accepted spelling of a canonical code: case, T for 10, suit symbols, spaces."""
    rank, suit = code[:-1], code[-1]
    ranks = ("10", "T", "t") if rank == "10" else tuple({rank, rank.lower()})
    spelled = sorted(r + s for r in ranks for s in SUIT_SPELLINGS[suit])
    return (code, *(form for form in spelled if form != code), f" {code.lower()} ")


SPELLINGS = {code: _spellings(code) for code in DECK}


@dataclass
class Script:
    """A random game: the table, its first dealer, the entries and what the engine made of them."""

    players: list[Player]
    options: dict
    dealer: int
    entries: list[dict]
    """Raw entries, as the API would pass them."""
    tricks: list[list[tuple[int, str]]]
    """Each round's trick as (seat, canonical code), in the order played."""
    states: list[TwentyTwoState]
    """The state before round 1, then after every round."""
    outcomes: list[RoundOutcome]

    def game(self) -> TwentyTwo:
        return TwentyTwo(self.players, self.options)


@st.composite
def scripts(draw) -> Script:
    count = draw(st.integers(2, 6))
    options: dict = {}
    if draw(st.booleans()):
        options["elimination_limit"] = draw(st.one_of(st.integers(1, 40), st.integers(1, 1000)))
    if draw(st.booleans()):
        options["first_deal"] = draw(st.integers(1, 52 // count))
    if draw(st.booleans()):
        options["tie_scores"] = draw(st.sampled_from(["tied", "all"]))
    ids = draw(st.lists(st.integers(1, 10**6), min_size=count, max_size=count, unique=True))
    players = [Player(player_id, f"P{seat}") for seat, player_id in enumerate(ids)]
    game = TwentyTwo(players, options)
    dealer = draw(st.integers(0, count - 1))
    state = game.start(dealer, None)
    script = Script(players, options, dealer, [], [], [state], [])
    rounds = draw(st.integers(1, 40))
    while len(script.outcomes) < rounds and not state.finished:
        active = state.active_seats()
        kept = {code for pile in state.piles for code in pile}
        pack = [code for code in DECK if code not in kept]
        assert len(pack) >= len(active)  # never stuck: the piles go back before that
        order = draw(st.permutations(active))
        cards = draw(
            st.lists(st.sampled_from(pack), min_size=len(active), max_size=len(active), unique=True)
        )
        trick = list(zip(order, cards, strict=True))
        raw = {
            "last_trick": [
                {"player": players[seat].id, "card": draw(st.sampled_from(SPELLINGS[code]))}
                for seat, code in trick
            ]
        }
        outcome = game.play(state, game.parse_entry(raw))
        state = outcome.state
        script.entries.append(raw)
        script.tricks.append(trick)
        script.outcomes.append(outcome)
        script.states.append(state)
    return script


def rounds(script: Script):
    """(state before, trick, outcome, state after) for every round played."""
    return zip(script.states[:-1], script.tricks, script.outcomes, script.states[1:], strict=True)


def piles_went_back(after: TwentyTwoState) -> bool:
    """Whether the round that led to ``after`` gave the piles back (a round always keeps a card)."""
    return not any(after.piles)


@PROPERTY_SETTINGS
@given(scripts())
def test_score_equals_point_values_of_every_card_taken(script):
    """A score is every card its owner took; a pile, those taken since the piles last went back."""
    taken_points = [0] * len(script.players)
    for before, trick, outcome, after in rounds(script):
        takers = set(round_json(outcome.result)["takers"])
        for seat, code in trick:
            if script.players[seat].id in takers:
                taken_points[seat] += value(code)
        assert list(after.scores) == taken_points
        for seat, pile in enumerate(after.piles):
            assert after.scores[seat] >= sum(value(code) for code in pile)
        for row in round_json(outcome.result)["results"]:
            seat = next(s for s, p in enumerate(script.players) if p.id == row["player"])
            assert row["score_before"] == before.scores[seat]
            assert row["score_after"] == after.scores[seat] == row["score_before"] + row["points"]
            assert row["points"] == (value(row["card"]) if row["player"] in takers else 0)
            assert row["halved"] is False
    # Until the piles first go back, each score is exactly its pile's points.
    for number, state in enumerate(script.states):
        if number and piles_went_back(state):
            break
        for seat, pile in enumerate(state.piles):
            assert state.scores[seat] == sum(value(code) for code in pile)


@PROPERTY_SETTINGS
@given(scripts())
def test_pack_is_52_minus_the_cards_kept(script):
    game = script.game()
    for state in script.states:
        kept = sum(len(pile) for pile in state.piles)
        assert state.pack == 52 - kept
        if not state.finished:
            assert game.next_round(state).pack == 52 - kept
            assert standing_json(game.standing(state))["next_round"]["pack"] == 52 - kept


@PROPERTY_SETTINGS
@given(scripts())
def test_cards_each_within_pack_over_active_and_at_least_one(script):
    game = script.game()
    assert game.next_round(script.states[0]).cards_each == game.options["first_deal"]
    for state in script.states[1:]:
        if state.finished:
            continue
        cards_each = game.next_round(state).cards_each
        even_share = state.pack // len(state.active_seats())
        assert cards_each >= 1
        assert cards_each <= max(1, even_share)
        if even_share >= 1:
            assert cards_each <= even_share


@PROPERTY_SETTINGS
@given(scripts())
def test_no_card_is_kept_twice(script):
    for state in script.states:
        kept = [code for pile in state.piles for code in pile]
        assert len(kept) == len(set(kept))
        assert set(kept) <= set(DECK)
    # Each pile is exactly the cards its owner took since the piles last went back, in order.
    final = script.states[-1]
    taken: list[list[str]] = [[] for _ in script.players]
    for _, trick, outcome, after in rounds(script):
        taker_ids = set(round_json(outcome.result)["takers"])
        for seat, code in sorted(trick):
            if script.players[seat].id in taker_ids:
                taken[seat].append(code)
        if piles_went_back(after):
            taken = [[] for _ in script.players]
        assert [list(pile) for pile in after.piles] == taken
    assert [list(pile) for pile in final.piles] == taken


@PROPERTY_SETTINGS
@given(scripts())
def test_eliminated_player_never_appears_in_a_later_round(script):
    game = script.game()
    for number, (before, trick, _outcome, after) in enumerate(rounds(script), start=1):
        in_round = {seat for seat, _ in trick}
        assert in_round == set(before.active_seats())
        for seat, out in enumerate(before.eliminated_in_round):
            if out is not None:
                assert seat not in in_round
                assert after.eliminated_in_round[seat] == out  # stays out
                assert after.scores[seat] == before.scores[seat]  # total frozen
                # Kept, unless every pile went back into an empty pack (rules.md).
                assert after.piles[seat] == (() if piles_went_back(after) else before.piles[seat])
            elif after.eliminated_in_round[seat] is not None:
                assert after.eliminated_in_round[seat] == number
                assert after.scores[seat] >= game.options["elimination_limit"]
            else:
                assert after.scores[seat] < game.options["elimination_limit"]
    # The engine refuses a later entry that includes an eliminated player.
    last = script.states[-1]
    out = [seat for seat in range(len(script.players)) if not last.is_active(seat)]
    if out and not last.finished:
        kept = {code for pile in last.piles for code in pile}
        free = iter(code for code in DECK if code not in kept)
        seats = [*last.active_seats(), out[0]]
        raw = {
            "last_trick": [
                {"player": script.players[seat].id, "card": next(free, "2S")} for seat in seats
            ]
        }
        with pytest.raises(RuleError) as info:
            game.play(last, game.parse_entry(raw))
        assert "eliminated" in info.value.message


@PROPERTY_SETTINGS
@given(scripts())
def test_finished_if_and_only_if_at_most_one_active(script):
    game = script.game()
    for state in script.states:
        active = state.active_seats()
        standing = game.standing(state)
        assert state.finished == (len(active) <= 1)
        assert standing.status == ("finished" if len(active) <= 1 else "in_progress")
        assert (standing.next_round is None) == state.finished
        assert bool(standing.winners) == state.finished
        if len(active) == 1:
            assert state.winners == (active[0],)
    last_before, last_after = script.states[-2:] if len(script.states) > 1 else (None, None)
    if last_after is not None and last_after.finished and not last_after.active_seats():
        contenders = last_before.active_seats()
        lowest = min(last_after.scores[seat] for seat in contenders)
        lowest_seats = [seat for seat in contenders if last_after.scores[seat] == lowest]
        assert sorted(last_after.winners) == lowest_seats


@PROPERTY_SETTINGS
@given(scripts())
def test_engine_matches_a_reference_model(script):
    """Takers, dealer, starter and deal size as rules 2, 4 and 6 state them."""
    game = script.game()
    tie_all = game.options["tie_scores"] == "all"
    for before, trick, outcome, after in rounds(script):
        top = max(rank_order(code) for _, code in trick)
        tied = [seat for seat, code in trick if rank_order(code) == top]
        takers = [seat for seat, _ in trick] if tie_all and len(tied) > 1 else tied
        assert round_json(outcome.result)["takers"] == [script.players[s].id for s in takers]
        assert round_json(outcome.result)["cards_each"] == before.cards_each
        kept_now = [list(pile) for pile in before.piles]
        for seat, code in trick:
            if seat in takers:
                kept_now[seat].append(code)
        left = 52 - sum(len(pile) for pile in kept_now)
        if not after.finished and left < len(after.active_seats()):
            # Decision (an empty pack): the piles go back before the next deal.
            assert after.piles == ((),) * len(script.players)
            assert after.pack == 52
        else:
            assert [list(pile) for pile in after.piles] == kept_now
            assert after.pack == left
        if after.finished:
            continue
        loser = tied[-1]
        card = dict(trick)[loser]
        active = after.active_seats()
        starter = next(s % len(script.players) for s in range(loser + 1, loser + 7)
                       if s % len(script.players) in active)  # fmt: skip
        nxt = game.next_round(after)
        assert nxt.dealer == script.players[loser].id
        assert nxt.starter == script.players[starter].id
        assert nxt.cards_each == max(1, min(value(card), after.pack // len(active)))


@PROPERTY_SETTINGS
@given(scripts())
def test_replay_from_start_is_deterministic(script):
    game = script.game()
    state = game.start(script.dealer, None)
    assert state == script.states[0]
    for raw, outcome in zip(script.entries, script.outcomes, strict=True):
        again = game.play(state, game.parse_entry(json.loads(json.dumps(raw))))
        assert round_json(again.result) == round_json(outcome.result)
        assert again.state == outcome.state
        state = again.state
    assert state == script.states[-1]


@PROPERTY_SETTINGS
@given(scripts())
def test_state_round_trips_through_dict_and_json(script):
    game = script.game()
    for state, raw, outcome in zip(script.states, script.entries, script.outcomes, strict=False):
        stored = json.loads(json.dumps(state.to_dict()))
        restored = game.state_from_dict(stored)
        assert isinstance(restored, TwentyTwoState)
        assert restored == state
        assert restored.to_dict() == state.to_dict()
        # Playing on from the restored state gives the same round.
        assert game.play(restored, game.parse_entry(raw)) == outcome
    final = script.states[-1]
    assert game.state_from_dict(json.loads(json.dumps(final.to_dict()))) == final


@PROPERTY_SETTINGS
@given(scripts())
def test_results_list_each_active_player_once_in_seat_order(script):
    for before, trick, outcome, _ in rounds(script):
        ids = [row["player"] for row in round_json(outcome.result)["results"]]
        assert ids == [script.players[s].id for s in sorted(seat for seat, _ in trick)]
        assert Counter(row["card"] for row in round_json(outcome.result)["results"]) == Counter(
            code for _, code in trick
        )
        assert round_json(outcome.result)["number"] == before.rounds_played + 1


@settings(max_examples=examples(40), deadline=None)
@given(
    count=st.integers(2, 6),
    limit=st.integers(100, 1000),
    tie_scores=st.sampled_from(["tied", "all"]),
    dealer_choice=st.integers(0, 5),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_long_game_always_has_a_next_round_until_it_ends(
    count, limit, tie_scores, dealer_choice, seed
):
    """With a high limit the piles go back again and again; a round can always be played."""
    rng = random.Random(seed)
    players = [Player(100 + seat, f"P{seat}") for seat in range(count)]
    game = TwentyTwo(players, {"elimination_limit": limit, "tie_scores": tie_scores})
    state = game.start(dealer_choice % count, None)
    piles_back = 0
    # Every round adds at least 2 points to an active player, who is out at the limit.
    for _ in range(count * limit):
        if state.finished:
            break
        active = state.active_seats()
        nxt = game.next_round(state)
        assert nxt.pack == state.pack >= len(active)
        assert nxt.cards_each >= 1
        assert nxt.cards_each * len(active) <= nxt.pack
        kept = {code for pile in state.piles for code in pile}
        cards = rng.sample([code for code in DECK if code not in kept], len(active))
        order = rng.sample(active, len(active))
        raw = {"last_trick": [{"player": players[seat].id, "card": card}
                              for seat, card in zip(order, cards, strict=True)]}  # fmt: skip
        state = game.play(state, game.parse_entry(raw)).state
        piles_back += piles_went_back(state)
    assert state.finished
    # Piles hold at most the 52 cards (380 points): past that, the piles went back.
    assert sum(state.scores) <= 380 * (piles_back + 1)
