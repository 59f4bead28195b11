"""Plain data the rules engine works on: the running state, and the typed results it returns."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Self

from typing_extensions import TypeIs

if TYPE_CHECKING:  # a seat change's outcome carries the rules bound to the players after it
    from .base import Ruleset


def is_integer(value: Any) -> TypeIs[int]:
    """Whether ``value`` is a JSON integer (booleans are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Player:
    """A seat at the table: the player's id (as clients see it) and name."""

    id: int
    name: str


@dataclass(frozen=True)
class GameState:
    """Everything needed to score the next round; indexed by seat.

    A ruleset that needs more (a Twenty Two score pile) subclasses it and
    names its class in ``Ruleset.state_class``.
    """

    rounds_played: int
    scores: tuple[int, ...]
    eliminated_in_round: tuple[int | None, ...]
    dealer: int | None
    """Seat that deals the next round; ``None`` once the game is finished."""
    starter: int | None
    """Seat that starts the next round; ``None`` once the game is finished, or where no seat
    starts by rule (the player holding some card leads)."""
    winners: tuple[int, ...] = ()
    left: tuple[bool, ...] = ()
    """Whether the player in each seat has left the game; left out, no one has."""
    seat_changes: int = 0
    """History items that are not rounds so far: players who joined or left, and the end of a
    game the table ended by hand."""
    seating: tuple[int, ...] = ()
    """Player ids by seat: those of the players the ruleset is bound to (it fills them in)."""
    tallies: tuple[tuple[int, ...], ...] = ()
    """Each seat's counts, in the order of ``Ruleset.tally_names``; empty means all zero."""

    def __post_init__(self) -> None:
        if not self.left:  # built, or stored, without it: no one has left
            object.__setattr__(self, "left", (False,) * len(self.scores))

    @property
    def last_number(self) -> int:
        """The number of the last history item: rounds and other items share one numbering."""
        return self.rounds_played + self.seat_changes

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.dealer is None

    def is_active(self, seat: int) -> bool:
        """Whether the player in ``seat`` is still in the game: not eliminated, not left."""
        return self.eliminated_in_round[seat] is None and not self.left[seat]

    def active_seats(self) -> list[int]:
        """Seats still in the game, in seat order."""
        return [seat for seat in range(len(self.scores)) if self.is_active(seat)]

    def player_fields(self, seat: int) -> dict[str, Any]:
        """What a subclass's state shows of the player in ``seat`` beside their score."""
        return {}

    def final_places(self, *, lower_first: bool = True) -> tuple[int, ...]:
        """Each seat's place in the final ranking (rules.md, "Final ranking"), for a finished game.

        The winners share place 1; then those knocked out, a later round first and, within one
        round, a better total first (a lower one, unless not ``lower_first``); then those who
        left, a better total first. Seats equal on all of this share a place ("1, 2, 2, 4").
        """
        sign = 1 if lower_first else -1

        def standing(seat: int) -> tuple[int, int, int]:
            if seat in self.winners:
                return (0, 0, 0)
            total = sign * self.scores[seat]
            if self.left[seat]:
                return (3, 0, total)
            out = self.eliminated_in_round[seat]
            if out is not None:
                return (2, -out, total)
            return (1, 0, total)

        keys = [standing(seat) for seat in range(len(self.scores))]
        return tuple(1 + sum(other < key for other in keys) for key in keys)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (lists, not tuples), for storage.

        Fields hold only numbers, text, ``None`` and tuples of them, so this is
        ``dataclasses.asdict`` without its deep copy of every leaf.
        """
        return {field.name: lists(getattr(self, field.name)) for field in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a state stored with :meth:`to_dict`; a field it lacks takes its default."""
        return cls(
            **{f.name: _tuples(data[f.name]) for f in dataclasses.fields(cls) if f.name in data}
        )


def lists(value: Any) -> Any:
    """Turn the tuples of frozen dataclasses into JSON lists."""
    if isinstance(value, tuple):
        return [lists(item) for item in value]
    return value


def _tuples(value: Any) -> Any:
    """Turn JSON lists back into the tuples the frozen dataclasses hold."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


@dataclass(frozen=True)
class NextRound:
    """Who deals and who starts the coming round (player ids).

    A ruleset that says more of the coming round subclasses it; a field's
    ``metadata["json"]`` names it in JSON when its own name cannot.
    """

    number: int
    dealer: int
    starter: int | None
    """``None`` where no seat starts by rule (the player holding some card leads)."""
    cards_each: int | None = None
    """Cards dealt to each player, for rulesets that vary it (else ``None``)."""
    pack: int | None = None
    """Cards left to deal from, for rulesets that keep cards out of the pack (else ``None``)."""


@dataclass(frozen=True)
class Standing:
    """The game's status, next round and winners (player ids) as they stand."""

    status: str
    """``in_progress`` or ``finished``."""
    next_round: NextRound | None
    winners: tuple[int, ...]


@dataclass(frozen=True)
class PlayerResult:
    """One player's line in a scored round; a ruleset's subclass adds its own fields.

    The line's JSON has the player's id, then the subclass's fields in order,
    then the fields below (``serializers.player_result_json``).
    """

    player: int
    """The player's id."""
    points: int
    """What the round changed the player's total by (before any halving)."""
    score_before: int
    score_after: int
    halved: bool
    eliminated: bool
    """Whether this round eliminated the player."""


@dataclass(frozen=True)
class RoundResult:
    """A scored round; a ruleset's subclass adds its own fields (shown after ``starter``).

    ``dealer`` and ``starter`` are the player ids of the round just scored;
    ``results`` come in seat order and ``standing`` is the game after the round.
    """

    number: int
    dealer: int
    starter: int | None
    results: tuple[PlayerResult, ...]
    standing: Standing


@dataclass(frozen=True)
class RoundOutcome:
    """A scored round: its result and the state after it."""

    result: RoundResult
    state: GameState


@dataclass(frozen=True)
class SeatChangeResult:
    """A player joining or leaving between rounds, and the game as it stands after."""

    number: int
    """The seat change's number, shared with the rounds."""
    kind: Literal["join", "leave"]
    player: int
    """The id of the player who joined or left."""
    name: str
    after: int | None
    """The id of the player the newcomer sits after (clockwise); ``None`` for a leave."""
    score: int | None
    """The running total the newcomer starts with; ``None`` for a leave."""
    standing: Standing


@dataclass(frozen=True)
class SeatChangeOutcome:
    """A seat change: its result, the state after it, and the rules bound to the players then."""

    result: SeatChangeResult
    state: GameState
    rules: Ruleset[Any, Any]


@dataclass(frozen=True)
class EndResult:
    """The table ended the game by hand: the item's number and the game as it then stands."""

    number: int
    standing: Standing


@dataclass(frozen=True)
class EndOutcome:
    """The end of a game by hand: its result and the state after it."""

    result: EndResult
    state: GameState
