"""Seat changes between rounds (rules.md, "Seat changes between rounds"), in both rulesets.

Every expected number is worked out by hand. Player ids differ from seats so that a
mix-up shows: Asha 11, Bikram 22, Chandra 33, Dipa 44, Ekta 55, Farid 66; newcomers
are Dev (77) and Gita (88).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.domain.records import round_json
from scorekeeper.rules import (
    GameState,
    Jhyap,
    NextRound,
    Player,
    RuleError,
    Ruleset,
    SeatChangeOutcome,
    SeatChangeResult,
    Standing,
    TwentyTwo,
    TwentyTwoState,
)
from tests.message_checks import message_problems
from tests.stored_states import upgraded

from .test_messages import assert_plain_sentence

A, B, C, D, E, F = 11, 22, 33, 44, 55, 66
PLAYERS = (
    Player(A, "Asha"),
    Player(B, "Bikram"),
    Player(C, "Chandra"),
    Player(D, "Dipa"),
    Player(E, "Ekta"),
    Player(F, "Farid"),
)
DEV = Player(77, "Dev")
GITA = Player(88, "Gita")
RULESETS: list[type[Ruleset[Any]]] = [Jhyap, TwentyTwo]


# Helpers


def table(ruleset: type[Ruleset[Any]] = Jhyap, n: int = 3, **options: Any) -> Ruleset[Any]:
    """A table of the first ``n`` players."""
    return ruleset(list(PLAYERS[:n]), options)


def mid_game(
    rules: Ruleset[Any],
    scores: tuple[int, ...],
    *,
    dealer: int = 0,
    starter: int | None = None,
    out: dict[int, int] | None = None,
    rounds: int = 4,
) -> GameState:
    """A state after ``rounds`` rounds, built from the start; ``out`` maps seat to round."""
    first = rules.start(dealer, starter if rules.chooses_starter else None)
    state = replace(
        first,
        rounds_played=rounds,
        scores=scores,
        eliminated_in_round=tuple((out or {}).get(seat) for seat in range(len(scores))),
    )
    if starter is None:
        state = replace(state, starter=rules.next_active_seat(state, dealer))
    return state


def jhyap_round(rules: Ruleset[Any], state: GameState, caller: int, hands: dict[int, int]) -> Any:
    """Score a Jhyap round entered as totals by player id."""
    entry = {"caller": caller, "hands": [{"player": p, "total": t} for p, t in hands.items()]}
    return rules.play(state, rules.parse_entry(entry))


def trick(rules: Ruleset[Any], state: GameState, *plays: tuple[int, str]) -> Any:
    """Score a Twenty Two round from (player id, card) in the order played."""
    entry = {"last_trick": [{"player": p, "card": c} for p, c in plays]}
    return rules.play(state, rules.parse_entry(entry))


def refusal(change: Any, *args: Any) -> RuleError:
    """The RuleError a refused seat change raises; its message is one plain sentence."""
    with pytest.raises(RuleError) as caught:
        change(*args)
    assert_plain_sentence(caught.value)
    error = caught.value
    assert message_problems({"message": error.message, "details": error.details}) == []
    return error


def ids(rules: Ruleset[Any]) -> list[int]:
    return [player.id for player in rules.players]


# Join: where the newcomer sits, and what they start with


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(
    ("after", "seating", "seat"),
    [(A, [A, 77, B, C], 1), (B, [A, B, 77, C], 2), (C, [A, B, C, 77], 3)],
)
def test_join_sits_the_newcomer_right_after_the_named_player(
    ruleset: type[Ruleset[Any]], after: int, seating: list[int], seat: int
) -> None:
    rules = table(ruleset)
    before = mid_game(rules, (5, 9, 7))
    outcome = rules.join(before, DEV, after)
    assert isinstance(outcome, SeatChangeOutcome)
    assert ids(outcome.rules) == seating
    assert outcome.state.seating == tuple(seating)
    assert outcome.rules.seat_of(77) == seat
    assert outcome.rules.name_of(seat) == "Dev"
    assert outcome.state.scores[seat] == 9
    assert outcome.state.left == (False,) * 4
    assert outcome.state.eliminated_in_round == (None,) * 4
    assert outcome.state.tallies[seat] == (0,) * len(rules.tally_names)
    # The ruleset the outcome came from is not changed: it still seats three.
    assert ids(rules) == [A, B, C]
    assert outcome.rules is not rules
    assert outcome.rules.options == rules.options


def test_join_result_names_the_newcomer_where_they_sit_and_their_score() -> None:
    rules = table(Jhyap)
    before = mid_game(rules, (35, 86, 120), dealer=1, starter=2)
    outcome = rules.join(before, DEV, A)
    assert outcome.result == SeatChangeResult(
        number=5,
        kind="join",
        player=77,
        name="Dev",
        after=A,
        score=120,
        standing=Standing("in_progress", NextRound(6, dealer=B, starter=C), ()),
    )
    assert outcome.result.standing == outcome.rules.standing(outcome.state)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_join_score_is_the_highest_total_among_active_players_only(
    ruleset: type[Ruleset[Any]],
) -> None:
    # Chandra (out in round 2, 300) and Dipa (left, 90) do not count: Asha's 40 is the highest.
    rules = table(ruleset, 5, elimination_limit=200)
    before = mid_game(rules, (40, 12, 300, 90, 0), dealer=0, starter=1, out={2: 2})
    before = rules.leave(before, D).state
    outcome = rules.join(before, DEV, E)
    assert outcome.result.score == 40
    assert outcome.state.scores == (40, 12, 300, 90, 0, 40)
    assert outcome.state.eliminated_in_round == (None, None, 2, None, None, None)
    assert outcome.state.left == (False, False, False, True, False, False)


def test_join_never_changes_anyone_elses_total_or_tallies() -> None:
    rules = table(Jhyap)
    state = jhyap_round(rules, rules.start(0, 1), A, {A: 2, B: 9, C: 30}).state
    outcome = rules.join(state, DEV, C)
    assert outcome.state.scores == (*state.scores, 30)
    assert outcome.state.tallies == (*state.tallies, (0, 0, 0, 0, 0))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("after", [A, B, C, D])
def test_join_keeps_the_next_dealer_and_starter(ruleset: type[Ruleset[Any]], after: int) -> None:
    # Bikram deals and Chandra starts, wherever the newcomer sits (even between them).
    rules = table(ruleset, 4)
    before = mid_game(rules, (1, 2, 3, 4), dealer=1, starter=2)
    outcome = rules.join(before, DEV, after)
    state, now = outcome.state, outcome.rules
    assert state.dealer is not None and state.starter is not None
    assert now.players[state.dealer].id == B
    assert now.players[state.starter].id == C
    next_round = now.next_round(state)
    assert (next_round.number, next_round.dealer, next_round.starter) == (6, B, C)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_join_counts_in_the_shared_numbering_but_not_as_a_round(
    ruleset: type[Ruleset[Any]],
) -> None:
    rules = table(ruleset)
    before = mid_game(rules, (1, 2, 3), rounds=4)
    assert before.last_number == 4
    outcome = rules.join(before, DEV, A)
    assert outcome.result.number == 5
    assert outcome.state.rounds_played == 4
    assert outcome.state.seat_changes == 1
    assert outcome.state.last_number == 5
    assert outcome.rules.next_round(outcome.state).number == 6


def test_the_newcomer_plays_from_the_next_round_on() -> None:
    rules = table(Jhyap)
    outcome = rules.join(rules.start(0, 1), DEV, B)
    now, state = outcome.rules, outcome.state
    error = refusal(jhyap_round, now, state, A, {A: 2, B: 9, C: 30})
    assert error.message == "Give a hand for every player still in the game; Dev's hand is missing."
    played = jhyap_round(now, state, 77, {A: 2, B: 9, C: 30, 77: 1})
    assert round_json(played.result)["number"] == 2
    assert [row["player"] for row in round_json(played.result)["results"]] == [A, B, 77, C]
    assert played.state.scores == (2, 9, 0, 30)
    assert played.state.tallies[2] == (1, 1, 1, 0, 1)
    assert played.state.seating == (A, B, 77, C)


def test_join_after_a_player_who_left_or_was_eliminated() -> None:
    rules = table(Jhyap, 4)
    before = mid_game(rules, (10, 250, 20, 30), out={1: 3})
    before = rules.leave(before, C).state
    by_out = rules.join(before, DEV, B)
    assert ids(by_out.rules) == [A, B, 77, C, D]
    by_left = rules.join(before, DEV, C)
    assert ids(by_left.rules) == [A, B, C, 77, D]
    assert by_left.result.score == 30


def test_joins_fill_the_table_up_to_the_player_limit_of_active_players() -> None:
    # Jhyap takes five players: Farid was eliminated, so a sixth seat is fine.
    rules = table(Jhyap, 5)
    before = mid_game(rules, (10, 20, 30, 40, 201), out={4: 2})
    joined = rules.join(before, DEV, E)
    assert len(joined.rules.players) == 6
    assert len(joined.state.active_seats()) == 5
    error = refusal(joined.rules.join, joined.state, GITA, A)
    assert error.message == (
        "Jhyap is played by at most 5 players and 5 are still in the game, so Gita cannot join."
    )
    assert error.details == {"join": ["At most 5 players may be in the game."]}
    # Once someone leaves there is room again; the game plays on with seven seats.
    gone = joined.rules.leave(joined.state, A)
    again = gone.rules.join(gone.state, GITA, A)
    assert ids(again.rules) == [A, 88, B, C, D, E, 77]
    hands = {B: 1, C: 9, D: 9, 77: 9, 88: 9}
    assert jhyap_round(again.rules, again.state, B, hands).state.rounds_played == 5


def test_twenty_two_takes_six_active_players() -> None:
    rules = table(TwentyTwo, 6)
    error = refusal(rules.join, rules.start(0, None), DEV, A)
    assert error.message == (
        "Twenty Two is played by at most 6 players and 6 are still in the game, so Dev cannot join."
    )


# Join: refusals


@pytest.mark.parametrize("ruleset", RULESETS)
def test_join_is_refused_once_the_game_is_over(ruleset: type[Ruleset[Any]]) -> None:
    rules = table(ruleset, 2)
    over = rules.leave(mid_game(rules, (1, 2)), A).state
    error = refusal(rules.join, over, DEV, A)
    assert error.message == "The game is over, so no one can join it."
    assert error.details == {"join": ["The game is over."]}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("after", [99, 0, -1, True, "11", None, 11.0])
def test_join_after_someone_not_at_the_table_is_refused(
    ruleset: type[Ruleset[Any]], after: Any
) -> None:
    rules = table(ruleset)
    error = refusal(rules.join, rules.start(0, None if ruleset is TwentyTwo else 1), DEV, after)
    assert error.message == f"Player {after} is not in this game, so no one can sit after them."
    assert error.details == {"join": {"after": ["Not a player in this game."]}}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("newcomer", [Player(B, "Dev"), Player(A, "Asha")])
def test_join_of_an_id_already_seated_is_refused(
    ruleset: type[Ruleset[Any]], newcomer: Player
) -> None:
    rules = table(ruleset)
    state = rules.start(0, None if ruleset is TwentyTwo else 1)
    error = refusal(rules.join, state, newcomer, C)
    assert error.message == f"Player {newcomer.id} already has a seat in this game."
    assert error.details == {"join": {"player": ["Already in this game."]}}
    # Also after leaving: a player who comes back joins as a new player.
    gone = rules.leave(state, A).state
    assert refusal(rules.join, gone, Player(A, "Asha"), C).details == error.details


# Leave


@pytest.mark.parametrize("ruleset", RULESETS)
def test_leave_freezes_the_total_and_marks_the_player_left(ruleset: type[Ruleset[Any]]) -> None:
    rules = table(ruleset, 4)
    before = mid_game(rules, (5, 9, 7, 3), dealer=0, starter=1)
    outcome = rules.leave(before, C)
    state = outcome.state
    assert state.left == (False, False, True, False)
    assert state.eliminated_in_round == (None,) * 4
    assert state.scores == before.scores
    assert state.active_seats() == [0, 1, 3]
    assert not state.is_active(2)
    assert (state.dealer, state.starter) == (0, 1)
    assert state.rounds_played == 4 and state.last_number == 5
    assert outcome.rules is rules
    assert outcome.result == SeatChangeResult(
        number=5,
        kind="leave",
        player=C,
        name="Chandra",
        after=None,
        score=None,
        standing=rules.standing(state),
    )
    assert outcome.result.standing.next_round is not None
    assert outcome.result.standing.next_round.number == 6


@pytest.mark.parametrize(
    ("leaver", "dealer", "starter"),
    [
        (B, C, C),  # the dealer leaves: the deal passes to Chandra, who also starts
        (C, B, A),  # the starter leaves: Dipa is out, so the start passes to Asha
        (A, B, C),  # neither
    ],
)
def test_jhyap_leave_passes_the_deal_or_the_start_to_the_next_active_seat(
    leaver: int, dealer: int, starter: int
) -> None:
    rules = table(Jhyap, 4)
    # Bikram deals, Chandra starts, Dipa was eliminated in round 3.
    before = mid_game(rules, (5, 9, 7, 250), dealer=1, starter=2, out={3: 3})
    next_round = rules.standing(rules.leave(before, leaver).state).next_round
    assert next_round is not None
    assert (next_round.dealer, next_round.starter) == (dealer, starter)


def test_jhyap_leave_of_a_player_who_deals_and_starts_passes_both() -> None:
    rules = table(Jhyap, 3)
    before = mid_game(rules, (5, 9, 7), dealer=2, starter=2)
    state = rules.leave(before, C).state
    assert (state.dealer, state.starter) == (0, 0)


@pytest.mark.parametrize(
    ("leaver", "dealer", "starter"),
    [
        (B, C, E),  # the dealer leaves: Chandra deals, and Ekta at her left leads (Dipa is out)
        (C, B, E),  # the leader leaves: the lead passes on to Ekta
        (E, B, C),
    ],
)
def test_twenty_two_leave_of_the_dealer_passes_the_deal_and_the_lead_after_it(
    leaver: int, dealer: int, starter: int
) -> None:
    rules = table(TwentyTwo, 5, elimination_limit=30)
    before = mid_game(rules, (5, 9, 7, 30, 3), dealer=1, out={3: 3})
    assert before.starter == 2
    next_round = rules.standing(rules.leave(before, leaver).state).next_round
    assert next_round is not None
    assert (next_round.dealer, next_round.starter) == (dealer, starter)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("leaver", [A, B])
def test_last_but_one_leaving_makes_the_other_the_winner(
    ruleset: type[Ruleset[Any]], leaver: int
) -> None:
    # Asha has the higher total; it does not matter: the one still in wins.
    rules = table(ruleset, 3, elimination_limit=100)
    before = mid_game(rules, (20, 10, 150), out={2: 2})
    outcome = rules.leave(before, leaver)
    stayer = B if leaver == A else A
    assert outcome.state.finished
    assert outcome.state.winners == (rules.seat_of(stayer),)
    assert outcome.result.standing == Standing("finished", None, (stayer,))
    with pytest.raises(RuleError) as caught:
        rules.leave(outcome.state, stayer)
    assert caught.value.message == "The game is over, so no one can leave it."
    assert caught.value.details == {"leave": ["The game is over."]}
    with pytest.raises(RuleError) as caught:
        if ruleset is Jhyap:
            jhyap_round(rules, outcome.state, stayer, {stayer: 0})
        else:
            trick(rules, outcome.state, (stayer, "2C"))
    assert caught.value.message == "The game is over; no more rounds can be recorded."


def test_a_player_who_left_never_wins_even_when_the_others_all_go_out() -> None:
    # Asha leaves on 0; Bikram and Chandra are both knocked out in the next round:
    # the lower of them (Chandra) wins, not Asha with her lower frozen total.
    rules = table(Jhyap, 3)
    before = mid_game(rules, (0, 190, 198), dealer=0, starter=1)
    gone = rules.leave(before, A).state
    outcome = jhyap_round(rules, gone, B, {B: 5, C: 3})
    assert outcome.state.scores == (0, 225, 201)
    assert outcome.state.eliminated_in_round == (None, 6, 6)
    assert outcome.state.winners == (2,)
    assert outcome.result.standing.winners == (C,)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_leave_refusals(ruleset: type[Ruleset[Any]]) -> None:
    rules = table(ruleset, 4)
    before = mid_game(rules, (5, 9, 300, 3), dealer=0, starter=1, out={2: 3})
    error = refusal(rules.leave, before, 99)
    assert error.message == "Player 99 is not in this game."
    assert error.details == {"leave": ["Not a player in this game."]}
    error = refusal(rules.leave, before, C)
    assert error.message == "Chandra was eliminated in round 3 and is already out of the game."
    assert error.details == {"leave": ["Eliminated."]}
    gone = rules.leave(before, D).state
    error = refusal(rules.leave, gone, D)
    assert error.message == "Dipa has already left the game."
    assert error.details == {"leave": ["Already left."]}


def test_jhyap_round_naming_a_player_who_left_is_refused() -> None:
    rules = table(Jhyap, 3)
    gone = rules.leave(rules.start(0, 1), C).state
    error = refusal(jhyap_round, rules, gone, A, {C: 9, A: 1, B: 5})
    assert error.message == "Chandra has left the game and takes no part."
    assert error.details == {"hands": {"0": {"player": ["Left the game."]}}}
    outcome = jhyap_round(rules, gone, A, {A: 1, B: 5})
    assert outcome.state.scores == (0, 5, 0)
    assert [row["player"] for row in round_json(outcome.result)["results"]] == [A, B]
    assert outcome.state.tallies[2] == (0, 0, 0, 0, 0)


def test_twenty_two_round_naming_a_player_who_left_is_refused() -> None:
    rules = table(TwentyTwo, 3)
    gone = rules.leave(rules.start(0, None), B).state
    error = refusal(trick, rules, gone, (C, "2C"), (B, "3C"), (A, "4C"))
    assert error.message == "Bikram has left the game and takes no part."
    assert error.details == {"last_trick": {"1": {"player": ["Left the game."]}}}


# Numbering across rounds and seat changes


def test_rounds_and_seat_changes_share_one_numbering() -> None:
    rules: Ruleset[Any] = table(Jhyap, 3, elimination_limit=40, halve_at=[])
    state = rules.start(0, 1)
    state = jhyap_round(rules, state, A, {A: 0, B: 30, C: 5}).state  # round 1
    joined = rules.join(state, DEV, C)  # 2
    rules, state = joined.rules, joined.state
    assert joined.result.score == 30
    outcome = jhyap_round(rules, state, A, {A: 0, B: 20, C: 5, 77: 1})  # 3
    assert outcome.result.number == 3
    # Bikram passes 40 in item 3: eliminated_in_round holds that shared number.
    assert outcome.state.eliminated_in_round == (None, 3, None, None)
    assert outcome.state.rounds_played == 2
    left = rules.leave(outcome.state, C)  # 4
    assert left.result.number == 4
    next_round = rules.next_round(left.state)
    assert next_round.number == 5
    last = jhyap_round(rules, left.state, A, {A: 0, 77: 10})
    assert last.result.number == 5
    # Dev passes 40 with 31 + 10: Asha is the last one in.
    assert last.state.eliminated_in_round == (None, 3, None, 5)
    assert last.state.winners == (0,)
    assert last.state.rounds_played == 3 and last.state.seat_changes == 2
    error = refusal(rules.leave, last.state, A)
    assert error.message == "The game is over, so no one can leave it."


def test_eliminated_messages_name_the_shared_number() -> None:
    rules = table(Jhyap, 3, elimination_limit=20)
    joined = rules.join(rules.start(0, 1), DEV, C)  # 1
    gone = joined.rules.leave(joined.state, 77)  # 2
    rules = gone.rules
    state = jhyap_round(rules, gone.state, A, {A: 0, B: 21, C: 3}).state  # 3
    assert state.eliminated_in_round == (None, 3, None, None)
    error = refusal(rules.leave, state, B)
    assert error.message == "Bikram was eliminated in round 3 and is already out of the game."
    error = refusal(jhyap_round, rules, state, A, {A: 0, B: 1, C: 3})
    assert error.message == "Bikram was eliminated in round 3 and takes no part."


# Twenty Two: piles and the deal size


def test_twenty_two_newcomer_has_an_empty_pile_and_others_keep_theirs() -> None:
    rules = table(TwentyTwo, 3)
    state = trick(rules, rules.start(0, None), (B, "2C"), (C, "3C"), (A, "9H")).state
    assert isinstance(state, TwentyTwoState)
    assert state.piles == (("9H",), (), ())
    outcome = rules.join(state, DEV, A)
    assert isinstance(outcome.state, TwentyTwoState)
    assert outcome.state.piles == (("9H",), (), (), ())
    assert outcome.state.pack == 51
    assert outcome.state.scores == (9, 9, 0, 0)
    assert outcome.state.tallies == ((1, 1, 9), (0, 0, 0), (1, 0, 0), (1, 0, 0))


@pytest.mark.parametrize(
    ("count", "first_deal", "after_join", "after_leave"),
    [
        (2, 26, 17, 26),  # 52 // 3 = 17 after the join; back to 26 once two remain
        (2, 7, 7, 7),
        (5, 10, 8, 10),  # 52 // 6 = 8
    ],
)
def test_twenty_two_deal_size_follows_the_players_at_the_table(
    count: int, first_deal: int, after_join: int, after_leave: int
) -> None:
    # first_deal was checked for the table it was chosen for, and is never checked again.
    rules = table(TwentyTwo, count, first_deal=first_deal)
    joined = rules.join(rules.start(0, None), DEV, A)
    state = joined.state
    assert isinstance(state, TwentyTwoState)
    assert joined.rules.options["first_deal"] == first_deal
    assert joined.rules.next_round(state).cards_each == after_join
    assert state.deal_value == first_deal
    gone = joined.rules.leave(state, B).state
    assert isinstance(gone, TwentyTwoState)
    assert joined.rules.next_round(gone).cards_each == after_leave


def test_twenty_two_leave_raises_a_deal_the_pack_had_capped() -> None:
    # rules.md rule 2's example: six players, a queen lost, pack 51: 8 each. With five: 10.
    rules = table(TwentyTwo, 6)
    state = trick(
        rules,
        rules.start(0, None),
        (B, "2C"), (C, "3C"), (D, "4C"), (E, "5C"), (F, "6C"), (A, "QH"),
    ).state  # fmt: skip
    assert rules.next_round(state) == NextRound(2, dealer=A, starter=B, cards_each=8, pack=51)
    gone = rules.leave(state, F).state
    assert rules.next_round(gone) == NextRound(3, dealer=A, starter=B, cards_each=10, pack=51)
    assert isinstance(gone, TwentyTwoState)
    assert gone.piles[0] == ("QH",)


def test_twenty_two_a_left_players_pile_stays_out_of_the_pack() -> None:
    rules = table(TwentyTwo, 3)
    state = trick(rules, rules.start(0, None), (B, "2C"), (C, "3C"), (A, "9H")).state
    gone = rules.leave(state, A).state
    assert isinstance(gone, TwentyTwoState)
    assert gone.piles[0] == ("9H",)
    assert gone.pack == 51
    # Dealer Asha left: Bikram deals, Chandra leads; the deal is still the 9 lost.
    assert rules.next_round(gone) == NextRound(3, dealer=B, starter=C, cards_each=9, pack=51)
    with pytest.raises(RuleError) as caught:
        trick(rules, gone, (C, "9H"), (B, "2C"))
    assert caught.value.message == "9H is in Asha's score pile, so Chandra cannot have played it."


def test_twenty_two_join_when_the_pack_is_short_gives_the_piles_back() -> None:
    # 2 players, limit 1000; the piles hold 50 cards: the pack of 2 serves two players, not
    # three. After the join the piles go back: pack 52, the ace's 11 cards each (52 // 3 = 17).
    rules = table(TwentyTwo, 2, elimination_limit=1000)
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in
            ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]  # fmt: skip
    kept = [code for code in deck if code not in ("AS", "2D")][:49]
    state = rules.start(0, None)
    assert isinstance(state, TwentyTwoState)
    state = replace(
        state,
        rounds_played=9,
        piles=((), tuple(kept)),
        scores=(0, 300),
    )
    state = trick(rules, state, (A, "2D"), (B, "AS")).state
    assert isinstance(state, TwentyTwoState)
    assert state.pack == 2 and state.cards_each == 1 and state.deal_value == 11
    outcome = rules.join(state, DEV, B)
    joined = outcome.state
    assert isinstance(joined, TwentyTwoState)
    assert joined.piles == ((), (), ())
    assert joined.pack == 52
    assert outcome.rules.next_round(joined) == NextRound(
        12, dealer=B, starter=A, cards_each=11, pack=52
    )
    assert joined.scores == (0, 311, 311)
    # A card that was in a pile may be played again.
    outcome = trick(outcome.rules, joined, (A, "AS"), (B, "3D"), (77, "4D"))
    assert outcome.state.scores == (11, 311, 311)


def test_twenty_two_join_after_the_dealer_keeps_the_leader() -> None:
    # rules.md: a join changes neither dealer nor starter, even for the seat at the dealer's left.
    rules = table(TwentyTwo, 3)
    outcome = rules.join(rules.start(0, None), DEV, A)
    next_round = outcome.rules.next_round(outcome.state)
    assert (next_round.dealer, next_round.starter) == (A, B)


# Tallies


def test_jhyap_tallies_count_rounds_calls_halvings_and_hands() -> None:
    rules = table(Jhyap, 3)
    assert rules.tally_names == ("rounds_played", "calls", "calls_won", "halvings", "hand_total")
    state = mid_game(rules, (0, 70, 0), dealer=0, starter=1, rounds=0)
    # Round 1: Bikram calls with 4 and succeeds, so stays on 70.
    state = jhyap_round(rules, state, B, {A: 30, B: 4, C: 9}).state
    assert state.scores == (30, 70, 9)
    # Round 2: Asha calls with 5 and is caught by Chandra's 2: 30 + 35 = 65; Bikram reaches 100
    # and is halved to 50.
    state = jhyap_round(rules, state, A, {A: 5, B: 30, C: 2}).state
    assert state.scores == (65, 50, 11)
    assert state.tallies == ((2, 1, 0, 0, 35), (2, 1, 1, 1, 34), (2, 0, 0, 0, 11))
    assert rules.tallies_of(state, 1) == {
        "rounds_played": 2,
        "calls": 1,
        "calls_won": 1,
        "halvings": 1,
        "hand_total": 34,
    }
    # Round 3: Chandra calls with 0 and succeeds; Asha's 35 takes her to 100, halved to 50.
    state = jhyap_round(rules, state, C, {A: 35, B: 5, C: 0}).state
    assert state.scores == (50, 55, 11)
    assert state.tallies == ((3, 1, 0, 1, 70), (3, 1, 1, 1, 39), (3, 1, 1, 0, 11))


def test_jhyap_a_zero_point_halving_is_tallied() -> None:
    # A total left at exactly 100 by a halving from 200 halves again at the end of the next
    # round, even with 0 points (rules.md rule 5): two halvings.
    rules = table(Jhyap, 2)
    state = mid_game(rules, (195, 0), dealer=0, starter=0, rounds=0)
    state = jhyap_round(rules, state, B, {A: 5, B: 1}).state
    assert state.scores == (100, 0)
    state = jhyap_round(rules, state, A, {A: 0, B: 3}).state
    assert state.scores == (50, 3)
    assert state.tallies == ((2, 1, 1, 2, 5), (2, 1, 1, 0, 4))


def test_twenty_two_tallies_count_tricks_taken_and_points() -> None:
    rules = table(TwentyTwo, 3, tie_scores="all")
    assert rules.tally_names == ("rounds_played", "tricks_taken", "points_taken")
    state = trick(rules, rules.start(0, None), (B, "2C"), (C, "3C"), (A, "9H")).state
    assert state.tallies == ((1, 1, 9), (1, 0, 0), (1, 0, 0))
    # A tie under tie_scores "all": everyone in the trick scores their card.
    state = trick(rules, state, (B, "KC"), (C, "KD"), (A, "4H")).state
    assert state.scores == (13, 10, 10)
    assert state.tallies == ((2, 2, 13), (2, 1, 10), (2, 1, 10))
    assert rules.tallies_of(state, 0) == {"rounds_played": 2, "tricks_taken": 2, "points_taken": 13}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_state_without_tallies_counts_from_zero(ruleset: type[Ruleset[Any]]) -> None:
    rules = table(ruleset)
    state = GameState(rounds_played=2, scores=(1, 2, 3), eliminated_in_round=(None,) * 3,
                      dealer=0, starter=1)  # fmt: skip
    assert state.tallies == () and state.seating == ()
    assert rules.tallies_of(state, 2) == dict.fromkeys(rules.tally_names, 0)


# States stored before seat changes, as the migration gives them their fields


def test_jhyap_state_stored_before_seat_changes_loads_and_plays_on() -> None:
    rules = table(Jhyap, 3)
    stored = {
        "rounds_played": 4,
        "scores": [35, 86, 120],
        "eliminated_in_round": [None, None, None],
        "dealer": 1,
        "starter": 2,
        "winners": [],
    }
    state = rules.state_from_dict(upgraded("jhyap", stored, rules.seating))
    assert state == GameState(
        rounds_played=4,
        scores=(35, 86, 120),
        eliminated_in_round=(None, None, None),
        dealer=1,
        starter=2,
        left=(False, False, False),
        seat_changes=0,
        seating=(A, B, C),
        tallies=((0,) * 5,) * 3,
    )
    assert state.last_number == 4
    assert rules.next_round(state).number == 5
    outcome = jhyap_round(rules, state, C, {A: 17, B: 14, C: 3})
    assert outcome.result.number == 5
    assert rules.state_from_dict(outcome.state.to_dict()) == outcome.state
    joined = rules.join(state, DEV, C)
    assert joined.result.number == 5


def test_twenty_two_state_stored_before_seat_changes_keeps_its_deal() -> None:
    # After round 1, Asha lost with a 9 and deals 9 cards each; the value comes from her pile.
    rules = table(TwentyTwo, 3)
    stored = {
        "rounds_played": 1,
        "scores": [9, 0, 0],
        "eliminated_in_round": [None, None, None],
        "dealer": 0,
        "starter": 1,
        "winners": [],
        "piles": [["9H"], [], []],
        "cards_each": 9,
    }
    state = rules.state_from_dict(upgraded("twenty-two", stored, rules.seating))
    assert isinstance(state, TwentyTwoState)
    assert (state.deal_value, state.cards_each, state.seating) == (9, 9, (A, B, C))
    assert rules.join(state, DEV, A).rules.next_round(rules.join(state, DEV, A).state) == (
        NextRound(3, dealer=A, starter=B, cards_each=9, pack=51)
    )
    assert trick(rules, state, (B, "2C"), (C, "3C"), (A, "4H")).result.number == 2
