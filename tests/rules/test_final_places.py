"""The final ranking's places (rules.md, "Final ranking"), worked out by hand."""

from __future__ import annotations

from scorekeeper.rules import GameState


def finished(
    scores: tuple[int, ...],
    out: tuple[int | None, ...],
    winners: tuple[int, ...],
    left: tuple[bool, ...] = (),
) -> GameState:
    return GameState(
        rounds_played=9,
        scores=scores,
        eliminated_in_round=out,
        dealer=None,
        starter=None,
        winners=winners,
        left=left,
    )


def test_winner_then_later_eliminations_then_lower_totals_then_those_who_left() -> None:
    state = finished(
        scores=(40, 205, 230, 210, 12, 60),
        out=(None, 9, 9, 5, None, None),
        winners=(0,),
        left=(False, False, False, False, True, True),
    )
    # Asha won; Bikash and Chandra went out in round 9 (205 before 230), Dev in round 5; Esha
    # and Farid left (12 before 60).
    assert state.final_places() == (1, 2, 3, 4, 5, 6)


def test_a_shared_win_and_equal_standing_share_a_place() -> None:
    state = finished(scores=(30, 30, 210, 210, 220), out=(None, None, 4, 4, 4), winners=(0, 1))
    assert state.final_places() == (1, 1, 3, 3, 5)


def test_where_the_highest_total_wins_a_higher_total_is_the_better_place() -> None:
    # A score pad won by the highest total: Asha won on 90; Bikash's 75 beats Chandra's 20, and
    # Dev, who left on 80, comes after those who stayed.
    state = finished(
        scores=(90, 20, 75, 80), out=(None,) * 4, winners=(0,), left=(False, False, False, True)
    )
    assert state.final_places(lower_first=False) == (1, 3, 2, 4)
    assert state.final_places() == (1, 2, 3, 4)


def test_each_ruleset_ranks_by_its_own_better_total() -> None:
    from scorekeeper.rules import Player, get_ruleset

    players = [Player(1, "Asha"), Player(2, "Bikash"), Player(3, "Chandra")]
    state = finished(scores=(90, 20, 75), out=(None,) * 3, winners=(0,))
    highest = get_ruleset("score-pad")(players, {"winner": "highest"})
    lowest = get_ruleset("score-pad")(players, {"winner": "lowest"})
    assert highest.final_places(state) == (1, 3, 2)
    assert lowest.final_places(state) == (1, 2, 3)
    assert get_ruleset("jhyap")(players, {}).final_places(state) == (1, 2, 3)
