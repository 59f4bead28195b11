"""Steps every ruleset's round shares: who is in it, the state after it, and its result."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import RuleError
from .state import GameState, PlayerResult, RoundOutcome, RoundResult
from .words import Message, listed

if TYPE_CHECKING:
    from .base import Ruleset

Result = TypeVar("Result", bound=RoundResult)
State = TypeVar("State", bound=GameState)


def _player_problem(field_name: str, index: int, problem: str) -> dict[str, Any]:
    """Error details naming the ``player`` of item ``index`` of ``field_name``."""
    return {field_name: {str(index): {"player": [problem]}}}


def check_one_per_active(
    rules: Ruleset[Any, Any],
    state: GameState,
    player_ids: Sequence[int],
    field_name: str,
    noun: str,
) -> list[int]:
    """Check the entry names each active player exactly once; return their seats in order."""
    seats: list[int] = []
    for index, player_id in enumerate(player_ids):
        seat = rules.seat_of(player_id)
        if seat is None:
            raise RuleError(
                Message("Player {id} is not in this game.", id=player_id),
                _player_problem(field_name, index, "Not a player in this game."),
            )
        if state.left[seat]:
            raise RuleError(
                Message("{name} has left the game and takes no part.", name=rules.name_of(seat)),
                _player_problem(field_name, index, "Left the game."),
            )
        if not state.is_active(seat):
            raise RuleError(
                Message(
                    "{name} was eliminated in round {round} and takes no part.",
                    name=rules.name_of(seat),
                    round=state.eliminated_in_round[seat],
                ),
                _player_problem(field_name, index, "Eliminated."),
            )
        if seat in seats:
            raise RuleError(
                Message(f"{{name}} has two {noun}s in this round.", name=rules.name_of(seat)),
                _player_problem(field_name, index, "Listed twice."),
            )
        seats.append(seat)
    missing = [rules.name_of(seat) for seat in state.active_seats() if seat not in seats]
    if missing:
        if len(missing) == 1:
            which = Message(f"{{name}}'s {noun} is missing", name=missing[0])
        else:
            which = Message(f"the {noun}s of {{names}} are missing", names=listed(missing))
        raise RuleError(
            Message(f"Give a {noun} for every player still in the game; {{which}}.", which=which),
            {field_name: [f"Missing: {', '.join(missing)}."]},
        )
    return seats


def state_after(
    rules: Ruleset[Any, State],
    state: State,
    seats: Sequence[int],
    scores: Sequence[int],
    eliminated: Sequence[int],
    next_turns: Callable[[State], State],
    tallies: Mapping[int, Sequence[int]],
    **extra: Any,
) -> State:
    """The state after a round that played ``seats`` and left these scores and eliminations.

    If the round ends the game (``Ruleset.round_end``) the state names its
    winners; otherwise ``next_turns`` fills in the next dealer and starter (and
    anything else the ruleset decides once the eliminations are known).
    ``tallies`` are the counts the round adds, by seat; ``extra`` holds the
    ruleset's own state fields.
    """
    out, winners, finished = rules.round_end(state, scores, eliminated, seats)
    after = rules.state_class(
        rounds_played=state.rounds_played + 1,
        scores=tuple(scores),
        eliminated_in_round=out,
        dealer=None,
        starter=None,
        winners=winners,
        left=state.left,
        seat_changes=state.seat_changes,
        seating=rules.seating,
        tallies=rules.tallied(state, tallies),
        **extra,
    )
    return after if finished else next_turns(after)


def outcome(
    rules: Ruleset[Any, Any],
    result_class: type[Result],
    before: GameState,
    after: GameState,
    seats: Sequence[int],
    points: Mapping[int, int],
    row: Callable[..., PlayerResult],
    halved: Collection[int] = (),
    **fields: Any,
) -> RoundOutcome:
    """The outcome of the round from ``before`` to ``after``, in which ``seats`` played.

    ``row(seat, **shared)`` makes the ruleset's result for ``seat`` from the
    fields every ruleset shares; ``fields`` are the round's own fields.
    """
    assert before.dealer is not None
    results = tuple(
        row(
            seat,
            player=rules.players[seat].id,
            points=points[seat],
            score_before=before.scores[seat],
            score_after=after.scores[seat],
            halved=seat in halved,
            eliminated=before.is_active(seat) and not after.is_active(seat),
        )
        for seat in sorted(seats)
    )
    result = result_class(
        number=after.last_number,
        dealer=rules.players[before.dealer].id,
        starter=None if before.starter is None else rules.players[before.starter].id,
        results=results,
        standing=rules.standing(after),
        **fields,
    )
    return RoundOutcome(result=result, state=after)


def elimination_end(
    state: GameState,
    new_scores: Sequence[int],
    eliminated: Sequence[int],
    low_seats: Sequence[int],
) -> tuple[tuple[int | None, ...], tuple[int, ...], bool]:
    """Apply eliminations and end-of-game; return (eliminated_in_round, winners, finished).

    The game ends when at most one player is active; that player wins. If the
    round knocks out everyone still active, the lowest total among
    ``low_seats`` wins, and equal lowest totals share the win.
    """
    number = state.last_number + 1
    out = tuple(
        number if seat in eliminated else was for seat, was in enumerate(state.eliminated_in_round)
    )
    still_active = [seat for seat, o in enumerate(out) if o is None and not state.left[seat]]
    if len(still_active) == 1:
        return out, (still_active[0],), True
    if not still_active:
        lowest = min(new_scores[seat] for seat in low_seats)
        return out, tuple(s for s in sorted(low_seats) if new_scores[s] == lowest), True
    return out, (), False


def best_totals(scores: Sequence[int], seats: Sequence[int], lowest: bool) -> tuple[int, ...]:
    """The seats among ``seats`` with the lowest (or highest) total, in seat order."""
    best = (min if lowest else max)(scores[seat] for seat in seats)
    return tuple(seat for seat in sorted(seats) if scores[seat] == best)
