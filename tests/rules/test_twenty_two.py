"""Twenty Two rules engine: one named test per numbered rule and decision of rules.md.

Every expected number below is worked out by hand from the spec, not from the engine.
Seats are 0..n-1 clockwise; the players are Ana (id 11, seat 0), Ben (12, seat 1),
Cas (13, seat 2), Dee (14, seat 3), Eve (15, seat 4) and Fay (16, seat 5).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from scorekeeper.domain.records import round_json, standing_json
from scorekeeper.rules import (
    InvalidOptions,
    NextRound,
    Play,
    Player,
    RuleError,
    Standing,
    TwentyTwo,
    TwentyTwoEntry,
    TwentyTwoPlayerResult,
    TwentyTwoRoundResult,
    TwentyTwoState,
)
from scorekeeper.serializers import player_extra_json
from tests.stored_states import upgraded

NAMES = ("Ana", "Ben", "Cas", "Dee", "Eve", "Fay")
PLAYERS = tuple(Player(11 + seat, name) for seat, name in enumerate(NAMES))
ANA, BEN, CAS, DEE, EVE, FAY = (player.id for player in PLAYERS)

# Point values written out from the spec (ace 11, J/Q/K 10, pips face), independent of the engine.
VALUE = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
         "J": 10, "Q": 10, "K": 10, "A": 11}  # fmt: skip
DECK = tuple(f"{rank}{suit}" for suit in "SHDC" for rank in VALUE)


def points(code: str) -> int:
    """Spec point value of a canonical code."""
    return VALUE[code[:-1]]


def table(count: int = 3, **options) -> TwentyTwo:
    """A Twenty Two table of the first ``count`` players."""
    return TwentyTwo(list(PLAYERS[:count]), options)


def entry(*plays: tuple[int, str]) -> dict:
    """The raw final trick, in the order played."""
    return {"last_trick": [{"player": player, "card": card} for player, card in plays]}


def play(game: TwentyTwo, state: TwentyTwoState, *plays: tuple[int, str]):
    """Score one round from (player id, card) pairs in the order played."""
    return game.play(state, game.parse_entry(entry(*plays)))


def mid_game(
    game: TwentyTwo,
    piles: dict[int, list[str]],
    *,
    dealer: int = 0,
    eliminated: dict[int, int] | None = None,
    rounds_played: int = 5,
) -> TwentyTwoState:
    """A state part way through a game: score piles by seat, scores that match them.

    ``eliminated`` maps a seat to the round that eliminated it.
    """
    start = game.start(dealer, None)
    count = len(game.players)
    pile_tuple = tuple(tuple(piles.get(seat, ())) for seat in range(count))
    out = tuple((eliminated or {}).get(seat) for seat in range(count))
    state = replace(
        start,
        rounds_played=rounds_played,
        scores=tuple(sum(points(code) for code in pile) for pile in pile_tuple),
        eliminated_in_round=out,
        piles=pile_tuple,
        cards_each=1,
    )
    return replace(state, starter=game.next_active_seat(state, dealer))


def row(outcome, player_id: int) -> dict:
    """The result row of one player."""
    (found,) = [r for r in round_json(outcome.result)["results"] if r["player"] == player_id]
    return found


def raises_rule_error(game, state, *plays) -> RuleError:
    """Play an invalid round; return the RuleError (not an InvalidOptions)."""
    with pytest.raises(RuleError) as info:
        play(game, state, *plays)
    assert info.type is RuleError
    assert info.value.message.endswith(".")
    assert "\n" not in info.value.message
    return info.value


# Rule 1: first dealer as given; the starter is always the dealer's left.


@pytest.mark.parametrize(
    ("count", "dealer", "starter"),
    [(2, 0, 1), (2, 1, 0), (3, 0, 1), (3, 2, 0), (4, 1, 2), (6, 3, 4), (6, 5, 0)],
)
def test_rule1_first_dealer_as_given_and_starter_at_dealers_left(count, dealer, starter):
    game = table(count)
    state = game.start(dealer, None)
    assert (state.dealer, state.starter) == (dealer, starter)
    assert state.rounds_played == 0
    assert state.scores == (0,) * count
    nxt = game.next_round(state)
    assert (nxt.number, nxt.dealer, nxt.starter) == (1, 11 + dealer, 11 + starter)
    assert standing_json(game.standing(state))["status"] == "in_progress"


@pytest.mark.parametrize("starter", [0, 1, 2])
def test_rule1_giving_a_starter_is_invalid_options(starter):
    with pytest.raises(InvalidOptions) as info:
        table(3).start(0, starter)
    assert info.value.message == (
        "In Twenty Two the player at the dealer's left starts, so leave out starter."
    )
    assert info.value.details == {
        "starter": ["In Twenty Two the player at the dealer's left starts."]
    }


@pytest.mark.parametrize("dealer", [-1, 3, True, "0", None, 1.0])
def test_rule1_first_dealer_must_be_a_seat(dealer):
    with pytest.raises(InvalidOptions) as info:
        table(3).start(dealer, None)
    assert info.value.message == "The first dealer must be a seat from 0 to 2."
    assert info.value.details == {"dealer": ["Give a seat from 0 to 2."]}


# Rule 2: deal size.


def test_rule2_first_deal_is_seven_from_a_full_pack():
    game = table(4)
    nxt = game.next_round(game.start(2, None))
    assert (nxt.cards_each, nxt.pack) == (7, 52)


@pytest.mark.parametrize("first_deal", [1, 5, 13])
def test_rule2_first_deal_option(first_deal):
    game = table(4, first_deal=first_deal)
    assert game.next_round(game.start(0, None)).cards_each == first_deal
    outcome = play(game, game.start(0, None), (BEN, "9C"), (CAS, "KD"), (DEE, "4H"), (ANA, "2S"))
    assert round_json(outcome.result)["cards_each"] == first_deal


# (loser's card, points it scores and cards dealt next) with 3 players and a pack of 51 (cap 17).
LOSING_CARDS = [
    ("AH", 11),
    ("KH", 10),
    ("QH", 10),
    ("JH", 10),
    ("10H", 10),
    ("9H", 9),
    ("8H", 8),
    ("7H", 7),
    ("6H", 6),
    ("5H", 5),
    ("4H", 4),
    ("3H", 3),
]


@pytest.mark.parametrize(("card", "value"), LOSING_CARDS)
def test_rule2_next_deal_is_point_value_of_losers_card(card, value):
    game = table(3)
    outcome = play(game, game.start(0, None), (BEN, "2C"), (CAS, card), (ANA, "2D"))
    nxt = game.standing(outcome.state).next_round
    assert (nxt.number, nxt.dealer, nxt.cards_each, nxt.pack) == (2, CAS, value, 51)
    assert round_json(outcome.result)["cards_each"] == 7


def test_rule2_a_two_deals_two_cards():
    # A 2 can only take the trick in a tie of 2s; Ben played last of the tied, so he deals 2.
    game = table(2)
    outcome = play(game, game.start(0, None), (BEN, "2S"), (ANA, "2H"))
    outcome = play(game, outcome.state, (ANA, "2C"), (BEN, "2D"))
    nxt = game.next_round(outcome.state)
    assert (nxt.dealer, nxt.starter, nxt.cards_each, nxt.pack) == (BEN, ANA, 2, 48)
    assert outcome.state.scores == (4, 4)


def test_rule2_pagat_example_six_players_first_round_lost_with_a_queen():
    game = table(6)
    outcome = play(
        game,
        game.start(0, None),
        (BEN, "2C"),
        (CAS, "3C"),
        (DEE, "QH"),
        (EVE, "4C"),
        (FAY, "5C"),
        (ANA, "6C"),
    )
    nxt = game.next_round(outcome.state)
    assert nxt.pack == 51
    assert 6 * 10 > 51
    assert nxt.cards_each == 8  # floor(51 / 6)
    assert nxt.pack - 6 * nxt.cards_each == 3  # left over
    assert (nxt.dealer, nxt.starter) == (DEE, EVE)


# Ben takes with an ace after `kept` cards are already in score piles (3 players, limit 1000).
# pack after the round = 52 - kept - 1; cards_each = max(1, min(11, floor(pack / 3))).
@pytest.mark.parametrize(
    ("kept", "pack", "cards_each"),
    [
        (0, 51, 11),  # 17 each possible: the ace decides
        (17, 34, 11),  # floor(34/3) = 11, exactly the ace
        (19, 32, 10),  # floor(32/3) = 10 < 11: dealt out evenly
        (30, 21, 7),
        (44, 7, 2),
        (46, 5, 1),
        (48, 3, 1),  # the last full deal: 1 card each, none left over
        (49, 52, 11),  # 2 cards cannot give 3 players one each: the piles go back (below)
    ],
)
def test_rule2_deal_capped_by_pack_over_active_players_never_below_one(kept, pack, cards_each):
    game = table(3, elimination_limit=1000)
    filler = [code for code in DECK if code not in ("AS", "2C", "3C")]
    state = mid_game(game, {2: filler[:kept]})
    assert game.next_round(state).pack == 52 - kept
    outcome = play(game, state, (BEN, "AS"), (CAS, "2C"), (ANA, "3C"))
    nxt = game.next_round(outcome.state)
    assert (nxt.pack, nxt.cards_each) == (pack, cards_each)
    assert nxt.dealer == BEN


# Decision (an empty pack): when the pack cannot give every active player one card, every
# score pile goes back into the pack before the deal; the running totals stay.


def test_rule2_empty_pack_the_piles_go_back_at_the_exact_round():
    # Three players, limit 1000. Before round 6 Cas's pile holds all 49 cards but AS, 2C
    # and 3C: 380 (the deck) - 11 - 2 - 3 = 364 points. Pack 3: 1 card each.
    game = table(3, elimination_limit=1000)
    filler = [code for code in DECK if code not in ("AS", "2C", "3C")]
    state = mid_game(game, {2: filler})
    assert state.scores == (0, 0, 364)
    assert (game.next_round(state).pack, game.next_round(state).cards_each) == (3, 1)
    # Round 6: Ben takes with AS (+11). Pack 52 - 50 = 2 < 3 players: the piles go back;
    # pack 52 again, and the ace deals min(11, floor(52 / 3) = 17) = 11 cards each.
    outcome = play(game, state, (BEN, "AS"), (CAS, "2C"), (ANA, "3C"))
    assert round_json(outcome.result)["cards_each"] == 1
    assert round_json(outcome.result)["takers"] == [BEN]
    assert (row(outcome, BEN)["points"], row(outcome, BEN)["score_after"]) == (11, 11)
    assert outcome.state.scores == (0, 11, 364)
    assert outcome.state.piles == ((), (), ())
    assert [player_extra_json(outcome.state, seat) for seat in range(3)] == [{"pile": []}] * 3
    assert round_json(outcome.result)["game"]["next_round"] == {
        "number": 7, "dealer": BEN, "starter": CAS, "cards_each": 11, "pack": 52,
    }  # fmt: skip
    # Round 7: AS, kept by Ben until the piles went back, is played again; Cas takes it.
    # Scores 0/11/375; pack 51; Cas deals min(11, floor(51 / 3) = 17) = 11, Ana leads.
    again = play(game, outcome.state, (ANA, "QH"), (BEN, "2C"), (CAS, "as"))
    assert again.state.scores == (0, 11, 375)
    assert again.state.piles == ((), (), ("AS",))
    nxt = game.next_round(again.state)
    assert (nxt.number, nxt.dealer, nxt.starter, nxt.cards_each, nxt.pack) == (8, CAS, ANA, 11, 51)


# `count` players, limit 1000; Ben takes with `card` after `kept` cards were in Ana's pile.
# pack after = 52 - kept - 1; below `count` the piles go back and the pack is 52 again.
@pytest.mark.parametrize(
    ("count", "kept", "card", "pack", "cards_each"),
    [
        (2, 49, "AS", 2, 1),  # 2 cards for 2 players: 1 each, no need to take the piles back
        (2, 50, "AS", 52, 11),  # 1 card for 2: back to 52; min(11, 26) = 11
        (3, 48, "AS", 3, 1),
        (3, 49, "AS", 52, 11),  # min(11, 17)
        (3, 49, "4D", 52, 4),  # a 4 lost: min(4, 17) = 4
        (6, 45, "AS", 6, 1),
        (6, 46, "AS", 52, 8),  # 5 cards for 6 players; 52 again: min(11, floor(52/6) = 8)
    ],
)
def test_rule2_empty_pack_boundary(count, kept, card, pack, cards_each):
    game = table(count, elimination_limit=1000)
    low = ["2C", "3C", "2D", "3D", "2H"][: count - 1]
    others = [player.id for player in PLAYERS[:count] if player.id != BEN]
    filler = [code for code in DECK if code not in (card, *low)]
    state = mid_game(game, {0: filler[:kept]})
    outcome = play(game, state, (BEN, card), *zip(others, low, strict=True))
    nxt = game.next_round(outcome.state)
    assert (nxt.pack, nxt.cards_each, nxt.dealer) == (pack, cards_each, BEN)
    piles_back = pack == 52
    assert outcome.state.piles[1] == (() if piles_back else (card,))
    assert len(outcome.state.piles[0]) == (0 if piles_back else kept)
    assert outcome.state.scores == (state.scores[0], points(card), *state.scores[2:])


@pytest.mark.parametrize(("kept", "pack", "cards_each"), [(44, 4, 1), (45, 52, 10)])
def test_rule2_empty_pack_after_a_tie_scored_by_all(kept, pack, cards_each):
    # Four players, tie_scores "all": a tie on kings puts all four cards in piles.
    # kept 44: pack 52 - 48 = 4, 1 each. kept 45: 3 < 4: the piles go back; Dee (the last
    # tied king) deals min(10, floor(52 / 4) = 13) = 10.
    game = table(4, elimination_limit=1000, tie_scores="all")
    trick = ((BEN, "KD"), (CAS, "5H"), (DEE, "KS"), (ANA, "3C"))
    filler = [code for code in DECK if code not in {card for _, card in trick}]
    outcome = play(game, mid_game(game, {0: filler[:kept]}), *trick)
    nxt = game.next_round(outcome.state)
    assert (nxt.pack, nxt.cards_each, nxt.dealer, nxt.starter) == (pack, cards_each, DEE, ANA)


@pytest.mark.parametrize(("ben_before", "ben_out", "pack", "cards_each"),
                         [(300, False, 52, 11), (390, True, 2, 1)])  # fmt: skip
def test_rule2_empty_pack_counts_the_players_left_after_the_round(
    ben_before, ben_out, pack, cards_each
):
    # Limit 400, three players, Cas's pile holds the 49 other cards; Ben takes with AS:
    # the pack is 2. If Ben stays in, 2 < 3 players: the piles go back (52; min(11, 17)).
    # If Ben goes out (390 + 11 = 401 >= 400), 2 cards give the 2 players left 1 each;
    # Ben still deals and Cas leads.
    game = table(3, elimination_limit=400)
    filler = [code for code in DECK if code not in ("AS", "2C", "3C")]
    state = replace(mid_game(game, {2: filler}), scores=(100, ben_before, 380))
    outcome = play(game, state, (BEN, "AS"), (CAS, "2C"), (ANA, "3C"))
    assert row(outcome, BEN)["eliminated"] is ben_out
    nxt = game.next_round(outcome.state)
    assert (nxt.pack, nxt.cards_each, nxt.dealer, nxt.starter) == (pack, cards_each, BEN, CAS)


def test_rule2_empty_pack_not_taken_back_when_the_game_ends():
    # Two players, limit 400: Ben takes AS and reaches 401; the game is over, the piles stay.
    game = table(2, elimination_limit=400)
    kept = [*(code for code in DECK if code not in ("AS", "2C", "3C")), "3C"]
    state = replace(mid_game(game, {0: kept}), scores=(380, 390))
    outcome = play(game, state, (BEN, "AS"), (ANA, "2C"))
    assert outcome.state.finished
    assert outcome.state.winners == (0,)
    assert outcome.state.piles == (tuple(kept), ("AS",))


def stored_state(**changes) -> dict:
    """A Twenty Two state as the database holds it (JSON lists), three players."""
    stored = {
        "rounds_played": 6,
        "scores": [0, 11, 364],
        "eliminated_in_round": [None, None, None],
        "dealer": 1,
        "starter": 2,
        "winners": [],
        "piles": [[], ["AS"], [code for code in DECK if code not in ("AS", "2C", "3C")]],
        "cards_each": 1,
    }
    return {**stored, **changes}


def test_rule2_state_stored_stuck_before_the_decision_gets_its_piles_back():
    # The old engine stored this after round 6 of the exact-round test above: a pack of 2 for
    # 3 players, "1 card each", and refused the next round. Migrated, the piles go back:
    # the dealer Ben lost with AS (the last card of his pile): min(11, 17) = 11 cards.
    game = table(3, elimination_limit=1000)
    state = game.state_from_dict(upgraded("twenty-two", stored_state(), game.seating))
    assert state.piles == ((), (), ())
    assert state.scores == (0, 11, 364)
    assert (state.rounds_played, state.dealer, state.starter) == (6, 1, 2)
    nxt = game.next_round(state)
    assert (nxt.number, nxt.dealer, nxt.starter, nxt.cards_each, nxt.pack) == (7, BEN, CAS, 11, 52)
    assert play(game, state, (CAS, "AS"), (ANA, "QH"), (BEN, "2C")).state.scores == (0, 11, 375)
    # Ben's pile ending in a 4: 4 cards.
    four = stored_state(piles=[[], ["4D"], stored_state()["piles"][2]])
    assert game.state_from_dict(upgraded("twenty-two", four, game.seating)).cards_each == 4


@pytest.mark.parametrize(
    "changes",
    [
        {},  # pack 2 for 3 players, stuck: covered above; here the ones left alone:
        {"piles": [[], ["AS"], ["KD"]], "cards_each": 11},  # pack 50
        {"eliminated_in_round": [6, None, 6], "dealer": None, "starter": None, "winners": [1]},
    ],
    ids=["stuck", "in-progress", "finished"],
)
def test_rule2_stored_states_load_as_stored_unless_stuck(changes):
    game = table(3, elimination_limit=1000)
    data = stored_state(**changes)
    state = game.state_from_dict(upgraded("twenty-two", data, game.seating))
    assert isinstance(state, TwentyTwoState)
    # Stored before seat changes: no one has left, these players, no counts yet; the rule 2
    # value is that of Ben's last card, the dealer's (none once the game is over).
    filled = {
        "left": [False, False, False],
        "seat_changes": 0,
        "seating": [ANA, BEN, CAS],
        "tallies": [[0, 0, 0]] * 3,
        "deal_value": 0 if state.finished else 11,
    }
    if changes:
        assert state.to_dict() == {**data, **filled}
    else:
        assert state.to_dict() == {**data, **filled, "piles": [[], [], []], "cards_each": 11}


def test_rule2_pack_counts_piles_of_eliminated_players_and_divides_by_active():
    # Dee was knocked out earlier holding 30 cards; Ben takes with an ace and reaches the limit.
    # Pack after: 52 - 30 - 1 = 21; 2 players remain: floor(21 / 2) = 10 < 11.
    game = table(4, elimination_limit=11)
    filler = [code for code in DECK if code not in ("AS", "2C", "3C")]
    state = mid_game(game, {3: filler[:30]}, eliminated={3: 2})
    outcome = play(game, state, (BEN, "AS"), (CAS, "2C"), (ANA, "3C"))
    nxt = game.next_round(outcome.state)
    assert outcome.state.active_seats() == [0, 2]
    assert (nxt.pack, nxt.cards_each, nxt.dealer, nxt.starter) == (21, 10, BEN, CAS)


def test_rule2_deal_follows_each_losers_card_over_several_rounds():
    game = table(3)
    state = game.start(0, None)
    first = play(game, state, (BEN, "9C"), (CAS, "KD"), (ANA, "4H"))
    assert round_json(first.result)["cards_each"] == 7
    assert game.next_round(first.state).cards_each == 10
    second = play(game, first.state, (ANA, "5S"), (BEN, "8S"), (CAS, "6D"))
    assert round_json(second.result)["cards_each"] == 10
    nxt = game.next_round(second.state)
    assert (nxt.number, nxt.dealer, nxt.starter, nxt.cards_each, nxt.pack) == (3, BEN, CAS, 8, 50)


# Rule 3: the entry is each active player's final card, in the order played.


def test_rule3_entry_is_the_final_trick_in_the_order_played():
    game = table(3)
    parsed = game.parse_entry(entry((CAS, "kd"), (ANA, "9C"), (BEN, "4H")))
    assert parsed == TwentyTwoEntry(
        last_trick=(Play(player=CAS, card="kd"), Play(ANA, "9C"), Play(BEN, "4H"))
    )


def test_rule3_any_player_may_lead_and_results_come_in_seat_order():
    game = table(3)
    outcome = play(game, game.start(0, None), (CAS, "th"), (ANA, "9C"), (BEN, "4♥"))
    result = round_json(outcome.result)
    assert [(r["player"], r["card"], r["points"]) for r in result["results"]] == [
        (ANA, "9C", 0),
        (BEN, "4H", 0),
        (CAS, "10H", 10),
    ]
    assert result["number"] == 1
    assert (result["dealer"], result["starter"]) == (ANA, BEN)
    assert all(r["halved"] is False for r in result["results"])


def test_round_result_is_typed_data_and_its_json_is_the_round_resource():
    game = table(3)
    outcome = play(game, game.start(0, None), (CAS, "th"), (ANA, "9C"), (BEN, "4♥"))
    assert outcome.result == TwentyTwoRoundResult(
        number=1,
        dealer=ANA,
        starter=BEN,
        results=(
            TwentyTwoPlayerResult(player=ANA, points=0, score_before=0, score_after=0,
                                  halved=False, eliminated=False, card="9C"),
            TwentyTwoPlayerResult(player=BEN, points=0, score_before=0, score_after=0,
                                  halved=False, eliminated=False, card="4H"),
            TwentyTwoPlayerResult(player=CAS, points=10, score_before=0, score_after=10,
                                  halved=False, eliminated=False, card="10H"),
        ),
        standing=Standing(
            "in_progress", NextRound(2, dealer=CAS, starter=ANA, cards_each=10, pack=51), ()
        ),
        takers=(CAS,),
        cards_each=7,
    )  # fmt: skip
    # Key order matters too: stored rounds and exports are compared as written.
    assert json.dumps(round_json(outcome.result)) == json.dumps({
        "number": 1, "dealer": ANA, "starter": BEN, "takers": [CAS], "cards_each": 7,
        "results": [
            {"player": ANA, "card": "9C", "points": 0, "score_before": 0, "score_after": 0,
             "halved": False, "eliminated": False},
            {"player": BEN, "card": "4H", "points": 0, "score_before": 0, "score_after": 0,
             "halved": False, "eliminated": False},
            {"player": CAS, "card": "10H", "points": 10, "score_before": 0, "score_after": 10,
             "halved": False, "eliminated": False},
        ],
        "game": {"status": "in_progress",
                 "next_round": {"number": 2, "dealer": CAS, "starter": ANA, "cards_each": 10,
                                "pack": 51},
                 "winners": []},
    })  # fmt: skip


def test_rule3_only_active_players_are_entered():
    game = table(3, elimination_limit=11)
    first = play(game, game.start(0, None), (BEN, "AS"), (CAS, "2C"), (ANA, "3C"))
    assert first.state.active_seats() == [0, 2]
    second = play(game, first.state, (CAS, "5D"), (ANA, "6D"))
    assert [r["player"] for r in round_json(second.result)["results"]] == [ANA, CAS]
    assert second.state.scores == (6, 11, 0)


# Rule 4: the highest rank takes and scores its point value; the rest go back to the pack.


@pytest.mark.parametrize(("card", "value"), LOSING_CARDS)
def test_rule4_highest_rank_takes_and_scores_its_point_value(card, value):
    game = table(3)
    outcome = play(game, game.start(0, None), (BEN, "2C"), (CAS, card), (ANA, "2D"))
    assert round_json(outcome.result)["takers"] == [CAS]
    assert outcome.state.scores == (0, 0, value)
    assert outcome.state.piles == ((), (), (card,))
    assert (row(outcome, CAS)["points"], row(outcome, CAS)["score_after"]) == (value, value)
    assert row(outcome, ANA)["points"] == row(outcome, BEN)["points"] == 0


@pytest.mark.parametrize(
    ("cards", "taker"),
    [
        (("KD", "AC", "QH"), BEN),  # ace is high
        (("10S", "9S", "2S"), ANA),  # 10 beats 9 and 2 (not text order)
        (("10S", "JC", "9H"), BEN),  # jack beats ten
        (("QS", "KC", "JH"), BEN),  # king beats queen and jack
        (("3S", "2C", "4D"), CAS),
    ],
)
def test_rule4_rank_order_two_low_ace_high(cards, taker):
    game = table(3)
    outcome = play(game, game.start(2, None), *zip((ANA, BEN, CAS), cards, strict=True))
    assert round_json(outcome.result)["takers"] == [taker]
    assert outcome.state.piles[taker - 11] == (cards[taker - 11],)


def test_rule4_cards_not_taken_go_back_to_the_pack():
    game = table(4)
    outcome = play(game, game.start(0, None), (BEN, "9C"), (CAS, "KD"), (DEE, "4H"), (ANA, "2S"))
    assert outcome.state.piles == ((), (), ("KD",), ())
    assert game.next_round(outcome.state).pack == 51
    # A card that went back to the pack can be played again next round.
    again = play(game, outcome.state, (DEE, "9C"), (ANA, "4H"), (BEN, "2S"), (CAS, "3S"))
    assert again.state.piles == ((), (), ("KD",), ("9C",))
    assert again.state.scores == (0, 0, 10, 9)


def test_rule4_tie_under_tied_only_the_tied_players_score():
    game = table(4)
    assert game.options["tie_scores"] == "tied"
    outcome = play(game, game.start(0, None), (BEN, "KD"), (CAS, "5H"), (DEE, "KS"), (ANA, "3C"))
    assert round_json(outcome.result)["takers"] == [BEN, DEE]
    assert outcome.state.scores == (0, 10, 0, 10)
    assert outcome.state.piles == ((), ("KD",), (), ("KS",))
    assert [r["points"] for r in round_json(outcome.result)["results"]] == [0, 10, 0, 10]
    assert game.next_round(outcome.state).pack == 50


def test_rule4_tie_under_all_every_player_in_the_trick_scores():
    game = table(4, tie_scores="all")
    outcome = play(game, game.start(0, None), (BEN, "KD"), (CAS, "5H"), (DEE, "KS"), (ANA, "3C"))
    assert round_json(outcome.result)["takers"] == [BEN, CAS, DEE, ANA]
    assert outcome.state.scores == (3, 10, 5, 10)
    assert outcome.state.piles == (("3C",), ("KD",), ("5H",), ("KS",))
    assert game.next_round(outcome.state).pack == 48


def test_rule4_under_all_without_a_tie_only_the_highest_scores():
    game = table(4, tie_scores="all")
    outcome = play(game, game.start(0, None), (BEN, "KD"), (CAS, "5H"), (DEE, "AS"), (ANA, "3C"))
    assert round_json(outcome.result)["takers"] == [DEE]
    assert outcome.state.scores == (0, 0, 0, 11)
    assert game.next_round(outcome.state).pack == 51


def test_rule4_a_tie_below_the_highest_rank_is_no_tie():
    game = table(4, tie_scores="all")
    outcome = play(game, game.start(0, None), (BEN, "5D"), (CAS, "5H"), (DEE, "9S"), (ANA, "3C"))
    assert round_json(outcome.result)["takers"] == [DEE]
    assert outcome.state.scores == (0, 0, 0, 9)


def test_rule4_three_way_tie_under_tied():
    game = table(4)
    outcome = play(game, game.start(0, None), (BEN, "7D"), (CAS, "7H"), (DEE, "2S"), (ANA, "7C"))
    assert round_json(outcome.result)["takers"] == [BEN, CAS, ANA]
    assert outcome.state.scores == (7, 7, 7, 0)
    nxt = game.next_round(outcome.state)
    assert (nxt.dealer, nxt.starter, nxt.cards_each, nxt.pack) == (ANA, BEN, 7, 49)


# Rule 5: elimination at elimination_limit or more.


# Ana's score pile before, the card she takes with, the limit, her total after, eliminated?
@pytest.mark.parametrize(
    ("pile", "card", "limit", "after", "out"),
    [
        (["5S", "6S"], "10H", 22, 21, False),  # 21: one short
        (["9S", "2S"], "AH", 22, 22, True),  # exactly 22
        (["KS", "QS"], "3H", 22, 23, True),
        (["10S"], "AH", 22, 21, False),
        (["KS", "QS"], "9H", 30, 29, False),
        (["KS", "QS"], "10H", 30, 30, True),
        ([], "3H", 1, 3, True),
        ([], "AH", 1000, 11, False),
    ],
)
def test_rule5_eliminated_at_the_limit_or_more(pile, card, limit, after, out):
    game = table(3, elimination_limit=limit)
    state = mid_game(game, {0: pile}, rounds_played=3)
    before = sum(points(code) for code in pile)
    outcome = play(game, state, (BEN, "2C"), (CAS, "2D"), (ANA, card))
    ana = row(outcome, ANA)
    assert (ana["score_before"], ana["points"]) == (before, after - before)
    assert ana["score_after"] == after
    assert ana["eliminated"] is out
    assert outcome.state.eliminated_in_round == ((4 if out else None), None, None)
    assert outcome.state.active_seats() == ([1, 2] if out else [0, 1, 2])


def test_rule5_only_takers_can_be_eliminated():
    # Ben sits at 21 but does not take the trick: he stays in.
    game = table(3)
    state = mid_game(game, {2: ["KS", "JS"], 1: ["AS", "QS"]})
    assert state.scores == (0, 21, 20)
    outcome = play(game, state, (BEN, "2C"), (CAS, "3C"), (ANA, "4C"))
    assert outcome.state.scores == (4, 21, 20)
    assert outcome.state.active_seats() == [0, 1, 2]
    assert [r["eliminated"] for r in round_json(outcome.result)["results"]] == [False, False, False]


def test_rule5_eliminated_player_keeps_frozen_total_and_pile():
    game = table(3, elimination_limit=11)
    first = play(game, game.start(0, None), (BEN, "AS"), (CAS, "2C"), (ANA, "3C"))
    assert first.state.eliminated_in_round == (None, 1, None)
    second = play(game, first.state, (CAS, "KD"), (ANA, "6D"))
    third = play(game, second.state, (ANA, "5D"), (CAS, "4D"))
    assert third.state.scores == (5, 11, 10)
    assert third.state.piles == (("5D",), ("AS",), ("KD",))
    assert third.state.eliminated_in_round == (None, 1, None)


# Rule 6: the loser deals next; with a tie the tied player who played last.


@pytest.mark.parametrize(
    ("plays", "dealer", "starter"),
    [
        (((BEN, "9C"), (CAS, "KD"), (DEE, "4H"), (ANA, "2S")), CAS, DEE),
        (((BEN, "9C"), (CAS, "4D"), (DEE, "KH"), (ANA, "2S")), DEE, ANA),  # wraps round
        (((BEN, "AC"), (CAS, "4D"), (DEE, "KH"), (ANA, "2S")), BEN, CAS),
        (((BEN, "9C"), (CAS, "4D"), (DEE, "KH"), (ANA, "AS")), ANA, BEN),
    ],
)
def test_rule6_loser_deals_and_the_next_seat_leads(plays, dealer, starter):
    game = table(4)
    outcome = play(game, game.start(0, None), *plays)
    nxt = game.next_round(outcome.state)
    assert (nxt.number, nxt.dealer, nxt.starter) == (2, dealer, starter)


@pytest.mark.parametrize("tie_scores", ["tied", "all"])
@pytest.mark.parametrize(
    ("plays", "dealer", "starter"),
    [
        (((BEN, "KD"), (CAS, "5H"), (DEE, "KS"), (ANA, "3C")), DEE, ANA),
        (((DEE, "KS"), (ANA, "3C"), (BEN, "KD"), (CAS, "5H")), BEN, CAS),
        (((CAS, "QH"), (ANA, "QC"), (BEN, "QD"), (DEE, "2S")), BEN, CAS),
        (((DEE, "2S"), (BEN, "QD"), (ANA, "QC"), (CAS, "QH")), CAS, DEE),
    ],
)
def test_rule6_with_a_tie_the_tied_player_who_played_last_deals(tie_scores, plays, dealer, starter):
    game = table(4, tie_scores=tie_scores)
    outcome = play(game, game.start(0, None), *plays)
    nxt = game.next_round(outcome.state)
    assert (nxt.dealer, nxt.starter, nxt.cards_each) == (dealer, starter, 10)


def test_rule6_eliminated_loser_still_deals_and_left_active_seat_leads():
    # Ben has 15 and takes with a queen: 25, out. He deals round 4; Cas leads.
    game = table(3)
    state = mid_game(game, {1: ["KS", "5S"]}, rounds_played=2)
    outcome = play(game, state, (BEN, "QH"), (CAS, "2C"), (ANA, "3C"))
    assert outcome.state.eliminated_in_round == (None, 3, None)
    standing = standing_json(game.standing(outcome.state))
    assert standing == {
        "status": "in_progress",
        "next_round": {"number": 4, "dealer": BEN, "starter": CAS, "cards_each": 10, "pack": 49},
        "winners": [],
    }
    # The next round is played by Cas and Ana only, with Ben recorded as its dealer.
    after = play(game, outcome.state, (CAS, "9D"), (ANA, "8D"))
    assert (round_json(after.result)["dealer"], round_json(after.result)["starter"]) == (BEN, CAS)
    assert round_json(after.result)["cards_each"] == 10
    assert [r["player"] for r in round_json(after.result)["results"]] == [ANA, CAS]
    nxt = game.next_round(after.state)
    assert (nxt.dealer, nxt.starter, nxt.cards_each, nxt.pack) == (CAS, ANA, 9, 48)


@pytest.mark.parametrize(
    ("out_before", "loser", "plays", "starter"),
    [
        # Cas out earlier; Ben (seat 1) goes out now: the left active seat is Dee.
        ({2: 1}, BEN, ((BEN, "KH"), (DEE, "2C"), (ANA, "3C")), DEE),
        # Ana out earlier; Dee (seat 3) goes out now: past seat 0 to Ben.
        ({0: 1}, DEE, ((BEN, "2C"), (CAS, "3C"), (DEE, "KH")), BEN),
        # Nobody out earlier; Dee goes out now: Ana.
        ({}, DEE, ((BEN, "2C"), (CAS, "3C"), (DEE, "KH"), (ANA, "4C")), ANA),
    ],
)
def test_rule6_starter_is_next_active_seat_after_eliminated_dealer(
    out_before, loser, plays, starter
):
    game = table(4)
    piles = {seat: ["KS", "QS", "2S"] for seat in out_before}  # 22: knocked out earlier
    piles[loser - 11] = ["JD", "AD"]  # 21, and a king makes 31
    state = mid_game(game, piles, eliminated=out_before, dealer=0 if 0 not in out_before else 1)
    outcome = play(game, state, *plays)
    assert outcome.state.scores[loser - 11] == 31
    assert not outcome.state.is_active(loser - 11)
    nxt = game.next_round(outcome.state)
    assert (nxt.dealer, nxt.starter) == (loser, starter)


@pytest.mark.parametrize("tie_scores", ["tied", "all"])
def test_rule6_tied_last_player_deals_even_when_eliminated(tie_scores):
    # Ben and Dee tie with kings; Dee (played last of the two) reaches 30 and goes out.
    game = table(4, tie_scores=tie_scores)
    state = mid_game(game, {3: ["KS", "QS"]})
    outcome = play(game, state, (BEN, "KD"), (CAS, "5H"), (DEE, "KH"), (ANA, "3C"))
    assert outcome.state.scores[3] == 30
    assert outcome.state.eliminated_in_round[3] == 6
    nxt = game.next_round(outcome.state)
    assert (nxt.dealer, nxt.starter, nxt.cards_each) == (DEE, ANA, 10)


# Rule 7: end of game.


def test_rule7_last_active_player_wins():
    game = table(2)
    state = mid_game(game, {0: ["KS", "QS"]}, rounds_played=4)
    outcome = play(game, state, (ANA, "3H"), (BEN, "2C"))
    assert outcome.state.scores == (23, 0)
    assert outcome.state.finished
    assert (outcome.state.dealer, outcome.state.starter) == (None, None)
    assert outcome.state.winners == (1,)
    assert round_json(outcome.result)["game"] == {
        "status": "finished",
        "next_round": None,
        "winners": [BEN],
    }
    assert standing_json(game.standing(outcome.state)) == round_json(outcome.result)["game"]


def test_rule7_game_goes_on_while_two_are_active():
    game = table(3)
    state = mid_game(game, {0: ["KS", "QS"]})
    outcome = play(game, state, (BEN, "2C"), (CAS, "2D"), (ANA, "3H"))
    assert outcome.state.active_seats() == [1, 2]
    assert not outcome.state.finished
    assert round_json(outcome.result)["game"]["status"] == "in_progress"
    assert round_json(outcome.result)["game"]["winners"] == []


def test_rule7_last_active_wins_even_with_the_highest_total():
    # Ana and Ben tie with kings and go out at 22; Cas stays on 21 and wins.
    game = table(3)
    state = mid_game(game, {0: ["QS", "2S"], 1: ["QH", "2H"], 2: ["JD", "AC"]})
    assert state.scores == (12, 12, 21)
    outcome = play(game, state, (BEN, "KH"), (CAS, "2C"), (ANA, "KC"))
    assert outcome.state.scores == (22, 22, 21)
    assert round_json(outcome.result)["game"] == {
        "status": "finished",
        "next_round": None,
        "winners": [CAS],
    }


@pytest.mark.parametrize(
    ("count", "tie_scores", "piles", "out_before", "plays", "scores", "winners"),
    [
        # Both go out; Ben is lower (22 against 25).
        (2, "tied", {0: ["KS", "5S"], 1: ["QS", "2S"]}, {},
         ((ANA, "KD"), (BEN, "KH")), (25, 22), [BEN]),
        # Both go out on 22: a shared win.
        (2, "tied", {0: ["QS", "2S"], 1: ["JS", "2H"]}, {},
         ((BEN, "KH"), (ANA, "KD")), (22, 22), [ANA, BEN]),
        # Under "all" a tie of aces knocks all three out; all on 23 share.
        (3, "all", {0: ["JS", "2S"], 1: ["QH", "2H"], 2: ["KD", "4D"]}, {},
         ((ANA, "AH"), (BEN, "AD"), (CAS, "9C")), (23, 23, 23), [ANA, BEN, CAS]),
        # Dee went out earlier on 22 and does not contend; Cas wins alone on 22.
        (4, "all", {0: ["JS", "9S"], 1: ["JH", "5H"], 2: ["JD", "2D"], 3: ["KS", "QS", "2C"]},
         {3: 2}, ((ANA, "AH"), (BEN, "AD"), (CAS, "10C")), (30, 26, 22, 22), [CAS]),
    ],
)  # fmt: skip
def test_rule7_round_eliminating_everyone_left_lowest_total_wins(
    count, tie_scores, piles, out_before, plays, scores, winners
):
    game = table(count, tie_scores=tie_scores)
    state = mid_game(game, piles, eliminated=out_before, dealer=1)
    outcome = play(game, state, *plays)
    assert outcome.state.scores == scores
    assert outcome.state.active_seats() == []
    game_after = round_json(outcome.result)["game"]
    assert (game_after["status"], game_after["next_round"]) == ("finished", None)
    # The spec fixes who shares the win, not the order the ids are listed in.
    assert sorted(game_after["winners"]) == winners


def test_rule7_no_round_after_the_end():
    game = table(2)
    state = mid_game(game, {0: ["KS", "QS"]})
    outcome = play(game, state, (ANA, "3H"), (BEN, "2C"))
    with pytest.raises(RuleError) as info:
        play(game, outcome.state, (BEN, "4C"))
    assert info.value.message == "The game is over; no more rounds can be recorded."


# Validation of the final trick.


@pytest.fixture
def round_two():
    """Three players; Ben kept KD in round 1, so round 2 is dealt by Ben and led by Cas."""
    game = table(3)
    first = play(game, game.start(0, None), (BEN, "KD"), (CAS, "5H"), (ANA, "4H"))
    assert first.state.piles == ((), ("KD",), ())
    return game, first.state


@pytest.mark.parametrize("joker", ["JK", "jk", "X", "joker"])
def test_validation_joker_is_rejected(round_two, joker):
    game, state = round_two
    error = raises_rule_error(game, state, (CAS, "2C"), (ANA, joker), (BEN, "3C"))
    assert error.message == "Ana played a joker, but Twenty Two has no jokers."
    assert error.details == {"last_trick": {"1": {"card": ["No jokers."]}}}


@pytest.mark.parametrize(("first", "second"), [("10H", "th"), ("QS", "Q♠"), ("AC", "ac")])
def test_validation_duplicate_card_in_the_trick(round_two, first, second):
    game, state = round_two
    error = raises_rule_error(game, state, (CAS, first), (ANA, "2C"), (BEN, second))
    assert (
        error.message == f"{first} was played twice, by Cas and Ben; a deck has one of each card."
    )
    assert error.details == {"last_trick": {"2": {"card": ["Already in this trick."]}}}


@pytest.mark.parametrize("spelling", ["KD", "kd", "K♦"])
def test_validation_card_in_a_score_pile_names_its_owner(round_two, spelling):
    game, state = round_two
    error = raises_rule_error(game, state, (CAS, "2C"), (ANA, spelling), (BEN, "3C"))
    assert error.message == "KD is in Ben's score pile, so Ana cannot have played it."
    assert error.details == {"last_trick": {"1": {"card": ["Kept by Ben."]}}}


def test_validation_card_kept_by_an_eliminated_player_stays_out():
    game = table(3, elimination_limit=11)
    first = play(game, game.start(0, None), (BEN, "AS"), (CAS, "2C"), (ANA, "3C"))
    error = raises_rule_error(game, first.state, (CAS, "as"), (ANA, "3C"))
    assert error.message == "AS is in Ben's score pile, so Cas cannot have played it."


@pytest.mark.parametrize("code", ["1H", "11S", "KX", "", "Q", "10", "HK", "JKS", 12, None])
def test_validation_bad_card_code(round_two, code):
    game, state = round_two
    error = raises_rule_error(game, state, (CAS, "2C"), (ANA, "3C"), (BEN, code))
    assert error.message == (
        f"Ben's card {json.dumps(code)} is not a card; "
        "write the rank then the suit, like 10H, QS or JK for a joker."
    )
    assert error.details == {"last_trick": {"2": {"card": ["Not a card code."]}}}


def test_validation_missing_player(round_two):
    game, state = round_two
    error = raises_rule_error(game, state, (CAS, "2C"), (ANA, "3C"))
    assert error.message == (
        "Give a final card for every player still in the game; Ben's final card is missing."
    )
    assert error.details == {"last_trick": ["Missing: Ben."]}


@pytest.mark.parametrize("stranger", [99, DEE, 0, True, "12"])
def test_validation_extra_unknown_player(round_two, stranger):
    game, state = round_two
    error = raises_rule_error(game, state, (CAS, "2C"), (ANA, "3C"), (BEN, "4C"), (stranger, "5C"))
    assert error.message == f"Player {stranger} is not in this game."
    assert error.details == {"last_trick": {"3": {"player": ["Not a player in this game."]}}}


def test_validation_duplicate_player(round_two):
    game, state = round_two
    error = raises_rule_error(game, state, (CAS, "2C"), (ANA, "3C"), (CAS, "4C"))
    assert error.message == "Cas has two final cards in this round."
    assert error.details == {"last_trick": {"2": {"player": ["Listed twice."]}}}


def test_validation_eliminated_player():
    game = table(3, elimination_limit=11)
    first = play(game, game.start(0, None), (BEN, "AS"), (CAS, "2C"), (ANA, "3C"))
    error = raises_rule_error(game, first.state, (CAS, "4C"), (ANA, "5C"), (BEN, "6C"))
    assert error.message == "Ben was eliminated in round 1 and takes no part."
    assert error.details == {"last_trick": {"2": {"player": ["Eliminated."]}}}


def test_validation_failure_leaves_the_state_usable(round_two):
    game, state = round_two
    raises_rule_error(game, state, (CAS, "KD"), (ANA, "3C"), (BEN, "4C"))
    outcome = play(game, state, (CAS, "QD"), (ANA, "3C"), (BEN, "4C"))
    assert outcome.state.scores == (0, 10, 10)


# Options and players.


def test_options_defaults():
    assert table(4).options == {"elimination_limit": 22, "first_deal": 7, "tie_scores": "tied"}


@pytest.mark.parametrize(
    "options",
    [
        {"elimination_limit": 1},
        {"elimination_limit": 1000},
        {"tie_scores": "all"},
        {"tie_scores": "tied", "first_deal": 1, "elimination_limit": 50},
    ],
)
def test_options_valid_values_are_kept(options):
    game = table(3, **options)
    for name, value in options.items():
        assert game.options[name] == value


@pytest.mark.parametrize(("count", "most"), [(2, 26), (3, 17), (4, 13), (5, 10), (6, 8)])
def test_options_first_deal_up_to_floor_52_over_players(count, most):
    assert table(count, first_deal=most).options["first_deal"] == most
    with pytest.raises(InvalidOptions) as info:
        table(count, first_deal=most + 1)
    assert info.value.message == f"The option first_deal must be a whole number from 1 to {most}."
    assert info.value.details == {
        "options": {"first_deal": [f"give a whole number from 1 to {most}."]}
    }


LIMIT_RANGE = "The option elimination_limit must be a whole number from 1 to 1000."
DEAL_RANGE = "The option first_deal must be a whole number from 1 to 17."
TIE_CHOICE = "The option tie_scores must be tied or all."


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("elimination_limit", 0, LIMIT_RANGE),
        ("elimination_limit", 1001, LIMIT_RANGE),
        ("elimination_limit", -22, LIMIT_RANGE),
        ("elimination_limit", True, LIMIT_RANGE),
        ("elimination_limit", 22.0, LIMIT_RANGE),
        ("elimination_limit", "22", LIMIT_RANGE),
        ("elimination_limit", None, LIMIT_RANGE),
        ("first_deal", 0, DEAL_RANGE),
        ("first_deal", True, DEAL_RANGE),
        ("first_deal", False, DEAL_RANGE),
        ("first_deal", 7.5, DEAL_RANGE),
        ("tie_scores", "none", TIE_CHOICE),
        ("tie_scores", "TIED", TIE_CHOICE),
        ("tie_scores", None, TIE_CHOICE),
        ("tie_scores", True, TIE_CHOICE),
    ],
)  # fmt: skip
def test_options_out_of_range_are_invalid(name, value, message):
    with pytest.raises(InvalidOptions) as info:
        table(3, **{name: value})
    assert info.value.message == message
    assert list(info.value.details["options"]) == [name]


@pytest.mark.parametrize("name", ["decks", "call_limit", "halve_at", "Tie_scores"])
def test_options_unknown_option_is_invalid(name):
    with pytest.raises(InvalidOptions) as info:
        table(3, **{name: 1})
    assert info.value.message == f"Twenty Two has no option {name!r}."
    assert info.value.details == {"options": {name: ["Unknown option."]}}


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_players_two_to_six_allowed(count):
    assert len(table(count).players) == count


@pytest.mark.parametrize("count", [0, 1, 7])
def test_players_outside_two_to_six_rejected(count):
    players = [Player(100 + seat, f"P{seat}") for seat in range(count)]
    with pytest.raises(InvalidOptions) as info:
        TwentyTwo(players, {})
    assert info.value.message == f"Twenty Two is played by 2 to 6 players, not {count}."
    assert info.value.details == {"players": ["Give 2 to 6 players."]}


# Helpers the service uses around the rules.


def test_player_extra_is_the_score_pile():
    game = table(3)
    outcome = play(game, game.start(0, None), (BEN, "KD"), (CAS, "5H"), (ANA, "4H"))
    assert [player_extra_json(outcome.state, seat) for seat in range(3)] == [
        {"pile": []},
        {"pile": ["KD"]},
        {"pile": []},
    ]


def test_remap_entry_renames_players_and_keeps_the_order_played():
    raw = entry((CAS, "kd"), (ANA, "9C"), (BEN, "4H"))
    remapped = table(3).remap_entry(raw, {ANA: 101, BEN: 102, CAS: 103})
    assert remapped == entry((103, "kd"), (101, "9C"), (102, "4H"))
    assert raw == entry((CAS, "kd"), (ANA, "9C"), (BEN, "4H"))  # the original is untouched
