"""Plain data the rules engine works on, and the base class of every ruleset."""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from .errors import InvalidOptions, RuleError
from .words import count_of, listed


@dataclass(frozen=True)
class Player:
    """A seat at the table: the player's id (as clients see it) and name."""

    id: int
    name: str


@dataclass(frozen=True)
class GameState:
    """Everything needed to score the next round; indexed by seat."""

    rounds_played: int
    scores: tuple[int, ...]
    eliminated_in_round: tuple[int | None, ...]
    dealer: int | None
    """Seat that deals the next round; ``None`` once the game is finished."""
    starter: int | None
    """Seat that starts the next round; ``None`` once the game is finished."""
    winners: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.dealer is None

    def is_active(self, seat: int) -> bool:
        """Whether the player in ``seat`` is still in the game."""
        return self.eliminated_in_round[seat] is None

    def active_seats(self) -> list[int]:
        """Seats still in the game, in seat order."""
        return [seat for seat, out in enumerate(self.eliminated_in_round) if out is None]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (lists, not tuples), for storage.

        Fields hold only numbers, text, ``None`` and tuples of them, so this is
        ``dataclasses.asdict`` without its deep copy of every leaf.
        """
        return {field.name: _lists(getattr(self, field.name)) for field in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state stored with :meth:`to_dict`."""
        return cls(**{f.name: _tuples(data[f.name]) for f in dataclasses.fields(cls)})


def _lists(value: Any) -> Any:
    """Turn the tuples of frozen dataclasses into JSON lists."""
    if isinstance(value, tuple):
        return [_lists(item) for item in value]
    return value


def _tuples(value: Any) -> Any:
    """Turn JSON lists back into the tuples the frozen dataclasses hold."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


@dataclass(frozen=True)
class NextRound:
    """Who deals and who starts the coming round (player ids)."""

    number: int
    dealer: int
    starter: int
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
    """One player's line in a scored round; each ruleset's subclass adds its own fields."""

    player: int
    """The player's id."""
    points: int
    score_before: int
    score_after: int
    halved: bool
    eliminated: bool
    """Whether this round eliminated the player."""


@dataclass(frozen=True)
class RoundResult:
    """A scored round; each ruleset's subclass adds its own fields.

    ``dealer`` and ``starter`` are the player ids of the round just scored;
    ``results`` come in seat order and ``standing`` is the game after the round.
    """

    number: int
    dealer: int
    starter: int
    results: tuple[PlayerResult, ...]
    standing: Standing


@dataclass(frozen=True)
class RoundOutcome:
    """A scored round: its result and the state after it."""

    result: RoundResult
    state: GameState


@dataclass(frozen=True)
class OptionSpec:
    """One option of a ruleset: its default and the values it allows."""

    name: str
    description: str
    default: Any
    kind: str
    """``integer``, ``choice`` or ``even_integers``."""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    max_items: int | None = None
    capped_by: str | None = None
    """The option whose value is this one's maximum, if any (named in messages)."""
    default_for: Callable[[int], Any] | None = field(default=None, compare=False)
    """Computes the default from the number of players, when it depends on it."""

    def default_value(self, player_count: int) -> Any:
        """The default for a table of ``player_count`` players."""
        return self.default_for(player_count) if self.default_for else self.default

    def describe(self) -> dict[str, Any]:
        """The option as the rulesets listing shows it."""
        allowed: dict[str, Any] = {"type": self.kind}
        for key in ("minimum", "maximum", "max_items"):
            if getattr(self, key) is not None:
                allowed[key] = getattr(self, key)
        if self.choices:
            allowed["choices"] = list(self.choices)
        return {"description": self.description, "default": self.default, "allowed": allowed}


def _player_problem(field_name: str, index: int, problem: str) -> dict[str, Any]:
    """Error details naming the ``player`` of item ``index`` of ``field_name``."""
    return {field_name: {str(index): {"player": [problem]}}}


def is_integer(value: Any) -> bool:
    """Whether ``value`` is a JSON integer (booleans are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


Entry = TypeVar("Entry")
Result = TypeVar("Result", bound=RoundResult)


class Ruleset(ABC, Generic[Entry]):
    """The rules of one game: options, the first round, and scoring a round.

    An instance is bound to one table (its players in seat order and its
    resolved options). Every method is pure: the same state and entry always
    give the same outcome.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]]
    chooses_starter: ClassVar[bool]
    """Whether the table names round 1's starter (else it follows the dealer)."""
    state_class: ClassVar[type[GameState]] = GameState

    def __init__(self, players: Sequence[Player], options: Mapping[str, Any] | None = None) -> None:
        self.players = tuple(players)
        count = len(self.players)
        if not self.min_players <= count <= self.max_players:
            raise InvalidOptions(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, "
                f"not {count}.",
                {"players": [f"Give {self.min_players} to {self.max_players} players."]},
            )
        self.options = self._resolve_options(options or {})
        self._seat_of = {player.id: seat for seat, player in enumerate(self.players)}

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """The ruleset as the rulesets listing shows it."""
        return {
            "name": cls.name,
            "title": cls.title,
            "min_players": cls.min_players,
            "max_players": cls.max_players,
            "chooses_starter": cls.chooses_starter,
            "options": {spec.name: cls._describe_option(spec) for spec in cls.option_specs},
        }

    @classmethod
    def _describe_option(cls, spec: OptionSpec) -> dict[str, Any]:
        """An option as listed, with its default for each table size when that varies."""
        description = spec.describe()
        if spec.default_for:
            players = range(cls.min_players, cls.max_players + 1)
            description["default_by_players"] = {str(n): spec.default_for(n) for n in players}
        return description

    def _resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Check the given options and fill in the defaults."""
        specs = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            names = listed([repr(name) for name in unknown])
            raise InvalidOptions(
                f"{self.title} has no {'option' if len(unknown) == 1 else 'options'} {names}.",
                {"options": {name: ["Unknown option."] for name in unknown}},
            )
        resolved = {name: spec.default_value(len(self.players)) for name, spec in specs.items()}
        resolved.update(given)
        for name, spec in specs.items():
            maximum = self.option_maximum(spec, resolved)
            if name not in given and spec.kind == "even_integers" and is_integer(maximum):
                # A default list drops what a lowered limit puts out of range.
                resolved[name] = [value for value in resolved[name] if value <= maximum]
        problems = {
            name: problem
            for name, spec in specs.items()
            if (problem := self._option_problem(spec, resolved[name], resolved))
        }
        if problems:
            message, _ = next(iter(problems.values()))
            raise InvalidOptions(
                message, {"options": {name: [detail] for name, (_, detail) in problems.items()}}
            )
        if isinstance(resolved.get("halve_at"), tuple | list):
            resolved["halve_at"] = sorted(resolved["halve_at"])
        return resolved

    def _option_problem(
        self, spec: OptionSpec, value: Any, options: Mapping[str, Any]
    ) -> tuple[str, str] | None:
        """Why ``value`` is not allowed for ``spec`` (a sentence, and the field's problem)."""
        name, minimum, maximum = spec.name, spec.minimum, self.option_maximum(spec, options)
        if spec.kind == "choice":
            if value in spec.choices:
                return None
            choices = listed(spec.choices, "or")
            return f"The option {name} must be {choices}.", f"choose {choices}."
        if spec.kind == "integer":
            assert minimum is not None and maximum is not None
            if is_integer(value) and minimum <= value <= maximum:
                return None
            return (
                f"The option {name} must be a whole number from {minimum} to {maximum}.",
                f"give a whole number from {minimum} to {maximum}.",
            )
        if spec.kind == "even_integers":
            assert minimum is not None and maximum is not None and spec.max_items is not None
            if not isinstance(value, list | tuple) or len(value) > spec.max_items:
                at_most = count_of(spec.max_items, "score")
                return (
                    f"The option {name} must be a list of at most {at_most}.",
                    f"give a list of at most {at_most}.",
                )
            if len(set(v for v in value if is_integer(v))) != len(value):
                return (
                    f"The option {name} must list whole numbers, each only once.",
                    "give distinct whole numbers.",
                )
            if not any(v % 2 or not minimum <= v <= maximum for v in value):
                return None
            return self._even_scores_problem(spec, minimum, maximum)
        raise AssertionError(f"unknown option kind {spec.kind}")

    def _even_scores_problem(self, spec: OptionSpec, minimum: int, maximum: int) -> tuple[str, str]:
        """The problem of an even score out of range, for the few even scores allowed."""
        evens = [v for v in range(minimum, maximum + 1) if v % 2 == 0]
        if not evens:
            because = f" when {spec.capped_by} is {maximum}" if spec.capped_by else ""
            return f"The option {spec.name} must be an empty list{because}.", "give an empty list."
        if len(evens) == 1:
            return (
                f"The only score the option {spec.name} may list is {evens[0]}.",
                f"the only score allowed is {evens[0]}.",
            )
        return (
            f"Each score in the option {spec.name} must be an even number "
            f"from {minimum} to {maximum}.",
            f"each score must be even and from {minimum} to {maximum}.",
        )

    def option_maximum(self, spec: OptionSpec, options: Mapping[str, Any]) -> int | None:
        """The largest value allowed for ``spec``, which may depend on other options."""
        return spec.maximum

    # Seats and players

    def seat_of(self, player_id: int) -> int | None:
        """The seat of ``player_id``, or ``None`` if they are not at this table."""
        return self._seat_of.get(player_id) if is_integer(player_id) else None

    def name_of(self, seat: int) -> str:
        """The name of the player in ``seat``."""
        return self.players[seat].name

    def next_active_seat(self, state: GameState, seat: int) -> int:
        """The first active seat clockwise after ``seat``."""
        count = len(self.players)
        for step in range(1, count + 1):
            candidate = (seat + step) % count
            if state.is_active(candidate):
                return candidate
        raise AssertionError("no active seat")

    def clockwise_from(self, seat: int) -> list[int]:
        """Every seat, starting at ``seat`` and going clockwise."""
        count = len(self.players)
        return [(seat + step) % count for step in range(count)]

    # The game

    def start(self, dealer: int, starter: int | None) -> GameState:
        """The state before round 1, with the table's first dealer and starter seats."""
        count = len(self.players)
        seats = f"a seat from 0 to {count - 1}"
        problems: dict[str, tuple[str, str]] = {}
        if not (is_integer(dealer) and 0 <= dealer < count):
            problems["dealer"] = (f"The first dealer must be {seats}.", f"Give {seats}.")
        if starter is not None and not self.chooses_starter:
            rule = f"In {self.title} the player at the dealer's left starts"
            problems["starter"] = (f"{rule}, so leave out starter.", f"{rule}.")
        elif starter is not None and not (is_integer(starter) and 0 <= starter < count):
            problems["starter"] = (f"The first starter must be {seats}.", f"Give {seats}.")
        if problems:
            message, _ = next(iter(problems.values()))
            raise InvalidOptions(
                message, {name: [detail] for name, (_, detail) in problems.items()}
            )
        state = self.state_class(
            rounds_played=0,
            scores=(0,) * count,
            eliminated_in_round=(None,) * count,
            dealer=dealer,
            starter=(dealer + 1) % count if starter is None else starter,
            **self._initial_extra(),
        )
        return state

    def remap_entry(self, raw: Mapping[str, Any], player_ids: Mapping[int, int]) -> dict[str, Any]:
        """A JSON entry with its player ids replaced through ``player_ids`` (for imports)."""
        raise NotImplementedError

    def _initial_extra(self) -> dict[str, Any]:
        """Ruleset-specific fields of the state before round 1."""
        return {}

    def standing(self, state: GameState) -> Standing:
        """Status, next round and winners (player ids) for ``state``."""
        winners = tuple(self.players[seat].id for seat in state.winners)
        if state.finished:
            return Standing("finished", None, winners)
        return Standing("in_progress", self.next_round(state), winners)

    def next_round(self, state: GameState) -> NextRound:
        """Who deals and starts the round after ``state``."""
        assert state.dealer is not None and state.starter is not None
        return NextRound(
            number=state.rounds_played + 1,
            dealer=self.players[state.dealer].id,
            starter=self.players[state.starter].id,
        )

    def state_from_dict(self, data: Mapping[str, Any]) -> GameState:
        """Rebuild a stored state of this ruleset."""
        return self.state_class.from_dict(data)

    @abstractmethod
    def parse_entry(self, raw: Mapping[str, Any]) -> Entry:
        """Turn a well-typed entry (already checked by the API schema) into the ruleset's entry."""

    @abstractmethod
    def play(self, state: GameState, entry: Entry) -> RoundOutcome:
        """Score one round; raise :class:`RuleError` if the entry breaks the rules."""

    # Shared checks and steps

    def _check_one_per_active(
        self, state: GameState, player_ids: Sequence[int], field_name: str, noun: str
    ) -> list[int]:
        """Check the entry names each active player exactly once; return their seats in order."""
        seats: list[int] = []
        for index, player_id in enumerate(player_ids):
            seat = self.seat_of(player_id)
            if seat is None:
                raise RuleError(
                    f"Player {player_id} is not at this table.",
                    _player_problem(field_name, index, "Not a player in this game."),
                )
            if not state.is_active(seat):
                raise RuleError(
                    f"{self.name_of(seat)} was eliminated in round "
                    f"{state.eliminated_in_round[seat]} and takes no part.",
                    _player_problem(field_name, index, "Eliminated."),
                )
            if seat in seats:
                raise RuleError(
                    f"{self.name_of(seat)} has two {noun}s in this round.",
                    _player_problem(field_name, index, "Listed twice."),
                )
            seats.append(seat)
        missing = [self.name_of(seat) for seat in state.active_seats() if seat not in seats]
        if missing:
            if len(missing) == 1:
                which = f"{missing[0]}'s {noun} is missing"
            else:
                which = f"the {noun}s of {listed(missing)} are missing"
            raise RuleError(
                f"Give a {noun} for every player still in the game; {which}.",
                {field_name: [f"Missing: {', '.join(missing)}."]},
            )
        return seats

    def _state_after(
        self,
        state: GameState,
        seats: Sequence[int],
        scores: Sequence[int],
        eliminated: Sequence[int],
        next_turns: Callable[[GameState], GameState],
        **extra: Any,
    ) -> GameState:
        """The state after a round that played ``seats`` and left these scores and eliminations.

        If the round ends the game the state names its winners; otherwise
        ``next_turns`` fills in the next dealer and starter (and anything else
        the ruleset decides once the eliminations are known). ``extra`` holds
        the ruleset's own state fields.
        """
        out, winners, finished = self._finish_round(state, scores, eliminated, seats)
        after = self.state_class(
            rounds_played=state.rounds_played + 1,
            scores=tuple(scores),
            eliminated_in_round=out,
            dealer=None,
            starter=None,
            winners=winners,
            **extra,
        )
        return after if finished else next_turns(after)

    def _outcome(
        self,
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
        assert before.dealer is not None and before.starter is not None
        results = tuple(
            row(
                seat,
                player=self.players[seat].id,
                points=points[seat],
                score_before=before.scores[seat],
                score_after=after.scores[seat],
                halved=seat in halved,
                eliminated=before.is_active(seat) and not after.is_active(seat),
            )
            for seat in sorted(seats)
        )
        result = result_class(
            number=after.rounds_played,
            dealer=self.players[before.dealer].id,
            starter=self.players[before.starter].id,
            results=results,
            standing=self.standing(after),
            **fields,
        )
        return RoundOutcome(result=result, state=after)

    def _finish_round(
        self,
        state: GameState,
        new_scores: Sequence[int],
        eliminated: Sequence[int],
        low_seats: Sequence[int],
    ) -> tuple[tuple[int | None, ...], tuple[int, ...], bool]:
        """Apply eliminations and end-of-game; return (eliminated_in_round, winners, finished).

        ``low_seats`` are the seats that contend for a shared win when the
        round knocks out everyone still active.
        """
        number = state.rounds_played + 1
        out = tuple(
            number if seat in eliminated else was
            for seat, was in enumerate(state.eliminated_in_round)
        )
        still_active = [seat for seat, o in enumerate(out) if o is None]
        if len(still_active) == 1:
            return out, (still_active[0],), True
        if not still_active:
            lowest = min(new_scores[seat] for seat in low_seats)
            return out, tuple(s for s in sorted(low_seats) if new_scores[s] == lowest), True
        return out, (), False
