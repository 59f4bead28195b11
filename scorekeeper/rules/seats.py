"""Seat changes between rounds (rules.md, "Seat changes between rounds"): a join, a leave."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .errors import RuleError
from .state import GameState, Player, SeatChangeOutcome, SeatChangeResult
from .words import Message

if TYPE_CHECKING:
    from .base import Ruleset


def join_seat(
    rules: Ruleset[Any, Any], state: GameState, newcomer: Player, after: int
) -> SeatChangeOutcome:
    """Seat ``newcomer`` clockwise right after the player ``after``, from the next round on.

    The newcomer starts with the total the ruleset gives them (``Ruleset.newcomer_score``);
    the next round's dealer and starter stay the same players.
    """
    if state.finished:
        raise RuleError(
            Message("The game is over, so no one can join it."),
            {"join": ["The game is over."]},
        )
    after_seat = rules.seat_of(after)
    if after_seat is None:
        raise RuleError(
            Message("Player {id} is not in this game, so no one can sit after them.", id=after),
            {"join": {"after": ["Not a player in this game."]}},
        )
    if rules.seat_of(newcomer.id) is not None:
        raise RuleError(
            Message("Player {id} already has a seat in this game.", id=newcomer.id),
            {"join": {"player": ["Already in this game."]}},
        )
    active = state.active_seats()
    if len(active) >= rules.max_players:
        raise RuleError(
            Message(
                "{title} is played by at most {max} players and "
                "{count} are still in the game, so {name} cannot join.",
                title=Message(rules.title),
                max=rules.max_players,
                count=len(active),
                name=newcomer.name,
            ),
            {"join": [f"At most {rules.max_players} players may be in the game."]},
        )
    at = after_seat + 1

    def seat_after(seat: int | None) -> int | None:
        return seat + 1 if seat is not None and seat >= at else seat

    def inserted(values: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
        return (*values[:at], value, *values[at:])

    seated = rules.restore(inserted(rules.players, newcomer), rules.options)
    score = rules.newcomer_score(state, active)
    joined = replace(
        state,
        scores=inserted(state.scores, score),
        eliminated_in_round=inserted(state.eliminated_in_round, None),
        dealer=seat_after(state.dealer),
        starter=seat_after(state.starter),
        left=inserted(state.left, False),
        seat_changes=state.seat_changes + 1,
        seating=seated.seating,
        tallies=inserted(rules.all_tallies(state), (0,) * len(rules.tally_names)),
    )
    joined = seated.after_seat_change(rules.seat_added(joined, at))
    result = SeatChangeResult(
        number=joined.last_number,
        kind="join",
        player=newcomer.id,
        name=newcomer.name,
        after=after,
        score=score,
        standing=seated.standing(joined),
    )
    return SeatChangeOutcome(result=result, state=joined, rules=seated)


def leave_seat(rules: Ruleset[Any, Any], state: GameState, player: int) -> SeatChangeOutcome:
    """The active ``player`` leaves: their total freezes and they never win.

    If they were to deal or start the next round, that passes on clockwise;
    if only one active player remains, that player wins.
    """
    if state.finished:
        raise RuleError(
            "The game is over, so no one can leave it.", {"leave": ["The game is over."]}
        )
    seat = rules.seat_of(player)
    if seat is None:
        raise RuleError(
            Message("Player {id} is not in this game.", id=player),
            {"leave": ["Not a player in this game."]},
        )
    name = rules.name_of(seat)
    if state.left[seat]:
        raise RuleError(
            Message("{name} has already left the game.", name=name),
            {"leave": ["Already left."]},
        )
    if not state.is_active(seat):
        raise RuleError(
            Message(
                "{name} was eliminated in round {round} and is already out of the game.",
                name=name,
                round=state.eliminated_in_round[seat],
            ),
            {"leave": ["Eliminated."]},
        )
    rules.check_leave(state, seat)
    gone = replace(
        state,
        left=tuple(was or s == seat for s, was in enumerate(state.left)),
        seat_changes=state.seat_changes + 1,
        seating=rules.seating,
        tallies=rules.all_tallies(state),
    )
    remaining = gone.active_seats()
    if len(remaining) == 1:
        gone = replace(gone, dealer=None, starter=None, winners=(remaining[0],))
    else:
        gone = rules.pass_turns(gone, seat)
    gone = rules.after_seat_change(gone)
    result = SeatChangeResult(
        number=gone.last_number,
        kind="leave",
        player=player,
        name=name,
        after=None,
        score=None,
        standing=rules.standing(gone),
    )
    return SeatChangeOutcome(result=result, state=gone, rules=rules)
