"""Plain data the rules engine works on, and the base class of every ruleset."""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Generic, Literal, Self, TypeVar

from .errors import InvalidOptions, RuleError
from .words import Message, count_of, listed


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
    left: tuple[bool, ...] = ()
    """Whether the player in each seat has left the game; left out, no one has."""
    seat_changes: int = 0
    """Players who joined or left so far: history items that are not rounds."""
    seating: tuple[int, ...] = ()
    """Player ids by seat: those of the players the ruleset is bound to (it fills them in)."""
    tallies: tuple[tuple[int, ...], ...] = ()
    """Each seat's counts, in the order of ``Ruleset.tally_names``; empty means all zero."""

    def __post_init__(self) -> None:
        if not self.left:  # built, or stored, without it: no one has left
            object.__setattr__(self, "left", (False,) * len(self.scores))

    @property
    def last_number(self) -> int:
        """The number of the last history item: rounds and seat changes share one numbering."""
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

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (lists, not tuples), for storage.

        Fields hold only numbers, text, ``None`` and tuples of them, so this is
        ``dataclasses.asdict`` without its deep copy of every leaf.
        """
        return {field.name: _lists(getattr(self, field.name)) for field in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state stored with :meth:`to_dict`; a field it lacks takes its default."""
        return cls(
            **{f.name: _tuples(data[f.name]) for f in dataclasses.fields(cls) if f.name in data}
        )


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
    rules: Ruleset[Any]


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
    tally_names: ClassVar[tuple[str, ...]]
    """What ``GameState.tallies`` counts for each seat, in order."""

    def __init__(self, players: Sequence[Player], options: Mapping[str, Any] | None = None) -> None:
        self._bind(players)
        count = len(self.players)
        if not self.min_players <= count <= self.max_players:
            raise InvalidOptions(
                Message(
                    "{title} is played by {min} to {max} players, not {count}.",
                    title=Message(self.title),
                    min=self.min_players,
                    max=self.max_players,
                    count=count,
                ),
                {"players": [f"Give {self.min_players} to {self.max_players} players."]},
            )
        self.options = self._resolve_options(options or {})

    @classmethod
    def restore(cls, players: Sequence[Player], options: Mapping[str, Any]) -> Self:
        """Bind an existing game's options to its players, checking neither again.

        A game's options are checked once, when it is created; seat changes may
        since have brought more seats than a new game allows, or fewer players
        than an option's limit was worked out for.
        """
        rules = cls.__new__(cls)
        rules._bind(players)
        rules.options = rules._resolve_options(options, check=False)
        return rules

    def _bind(self, players: Sequence[Player]) -> None:
        """Seat ``players`` at this table, in seat order."""
        self.players = tuple(players)
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

    def _resolve_options(self, given: Mapping[str, Any], check: bool = True) -> dict[str, Any]:
        """Check the given options (unless told not to) and fill in the defaults."""
        specs = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(given) - set(specs))
        if unknown and check:
            names = listed([repr(name) for name in unknown])
            raise InvalidOptions(
                Message.counted(
                    len(unknown),
                    "{title} has no option {names}.",
                    "{title} has no options {names}.",
                    title=Message(self.title),
                    names=names,
                ),
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
            if check and (problem := self._option_problem(spec, resolved[name], resolved))
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
            return (
                Message("The option {name} must be {choices}.", name=name, choices=choices),
                f"choose {choices}.",
            )
        if spec.kind == "integer":
            assert minimum is not None and maximum is not None
            if is_integer(value) and minimum <= value <= maximum:
                return None
            return (
                Message(
                    "The option {name} must be a whole number from {minimum} to {maximum}.",
                    name=name,
                    minimum=minimum,
                    maximum=maximum,
                ),
                f"give a whole number from {minimum} to {maximum}.",
            )
        if spec.kind == "even_integers":
            assert minimum is not None and maximum is not None and spec.max_items is not None
            if not isinstance(value, list | tuple) or len(value) > spec.max_items:
                at_most = count_of(spec.max_items, "score")
                return (
                    Message(
                        "The option {name} must be a list of at most {scores}.",
                        name=name,
                        scores=at_most,
                    ),
                    f"give a list of at most {at_most}.",
                )
            if len(set(v for v in value if is_integer(v))) != len(value):
                return (
                    Message(
                        "The option {name} must list whole numbers, each only once.", name=name
                    ),
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
            empty = "The option {name} must be an empty list."
            if spec.capped_by:
                empty = "The option {name} must be an empty list when {other} is {maximum}."
            message = Message(empty, name=spec.name, other=spec.capped_by, maximum=maximum)
            return message, "give an empty list."
        if len(evens) == 1:
            return (
                Message(
                    "The only score the option {name} may list is {score}.",
                    name=spec.name,
                    score=evens[0],
                ),
                f"the only score allowed is {evens[0]}.",
            )
        return (
            Message(
                "Each score in the option {name} must be an even number "
                "from {minimum} to {maximum}.",
                name=spec.name,
                minimum=minimum,
                maximum=maximum,
            ),
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

    @property
    def seating(self) -> tuple[int, ...]:
        """The players' ids in seat order: what a state of this table holds as its ``seating``."""
        return tuple(player.id for player in self.players)

    @classmethod
    def standing_figures(cls, tallies: Mapping[str, int], eliminations: int) -> dict[str, Any]:
        """A player's figures over a table's games of this ruleset, from their summed tallies."""
        return {**tallies, "eliminations": eliminations}

    def tallies_of(self, state: GameState, seat: int) -> dict[str, int]:
        """The counts of the player in ``seat``, by the names in ``tally_names``."""
        return dict(zip(self.tally_names, self._tallies(state)[seat], strict=True))

    def _tallies(self, state: GameState) -> tuple[tuple[int, ...], ...]:
        """The state's tallies, all zero for a state that has none."""
        return state.tallies or ((0,) * len(self.tally_names),) * len(state.scores)

    def _tallied(
        self, state: GameState, counts: Mapping[int, Sequence[int]]
    ) -> tuple[tuple[int, ...], ...]:
        """The state's tallies plus ``counts`` (a row in ``tally_names`` order, by seat)."""
        return tuple(
            tuple(map(sum, zip(row, counts[seat], strict=True))) if seat in counts else row
            for seat, row in enumerate(self._tallies(state))
        )

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
            dealer_seat = Message(
                "The first dealer must be a seat from 0 to {last}.", last=count - 1
            )
            problems["dealer"] = (dealer_seat, f"Give {seats}.")
        if starter is not None and not self.chooses_starter:
            rule = f"In {self.title} the player at the dealer's left starts"
            problems["starter"] = (
                Message(
                    "In {title} the player at the dealer's left starts, so leave out starter.",
                    title=Message(self.title),
                ),
                f"{rule}.",
            )
        elif starter is not None and not (is_integer(starter) and 0 <= starter < count):
            starter_seat = Message(
                "The first starter must be a seat from 0 to {last}.", last=count - 1
            )
            problems["starter"] = (starter_seat, f"Give {seats}.")
        if problems:
            message, _ = next(iter(problems.values()))
            raise InvalidOptions(
                message, {name: [detail] for name, (_, detail) in problems.items()}
            )
        return self.state_class(
            rounds_played=0,
            scores=(0,) * count,
            eliminated_in_round=(None,) * count,
            dealer=dealer,
            starter=(dealer + 1) % count if starter is None else starter,
            left=(False,) * count,
            seating=self.seating,
            tallies=((0,) * len(self.tally_names),) * count,
            **self._initial_extra(),
        )

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
            number=state.last_number + 1,
            dealer=self.players[state.dealer].id,
            starter=self.players[state.starter].id,
        )

    def state_from_dict(self, data: Mapping[str, Any]) -> GameState:
        """Rebuild a stored state of this ruleset; one stored before seat changes gets their fields.

        A state stored then has no ``seating`` (its players are this table's)
        and no ``tallies`` (they start at zero).
        """
        state = self.state_class.from_dict(data)
        return replace(state, seating=state.seating or self.seating, tallies=self._tallies(state))

    @abstractmethod
    def parse_entry(self, raw: Mapping[str, Any]) -> Entry:
        """Turn a well-typed entry (already checked by the API schema) into the ruleset's entry."""

    @abstractmethod
    def play(self, state: GameState, entry: Entry) -> RoundOutcome:
        """Score one round; raise :class:`RuleError` if the entry breaks the rules."""

    # Seat changes between rounds (rules.md, "Seat changes between rounds")

    def join(self, state: GameState, newcomer: Player, after: int) -> SeatChangeOutcome:
        """Seat ``newcomer`` clockwise right after the player ``after``, from the next round on.

        The newcomer starts with the highest running total among the active
        players; the next round's dealer and starter stay the same players.
        """
        if state.finished:
            raise RuleError(
                Message("The game is over, so no one can join it."),
                {"join": ["The game is over."]},
            )
        after_seat = self.seat_of(after)
        if after_seat is None:
            raise RuleError(
                Message(
                    "Player {id} is not at this table, so no one can sit after them.", id=after
                ),
                {"join": {"after": ["Not a player in this game."]}},
            )
        if self.seat_of(newcomer.id) is not None:
            raise RuleError(
                Message("Player {id} already has a seat in this game.", id=newcomer.id),
                {"join": {"player": ["Already in this game."]}},
            )
        active = state.active_seats()
        if len(active) >= self.max_players:
            raise RuleError(
                Message(
                    "{title} is played by at most {max} players and "
                    "{count} are still in the game, so {name} cannot join.",
                    title=Message(self.title),
                    max=self.max_players,
                    count=len(active),
                    name=newcomer.name,
                ),
                {"join": [f"At most {self.max_players} players may be in the game."]},
            )
        at = after_seat + 1

        def seat_after(seat: int) -> int:
            return seat + 1 if seat >= at else seat

        def inserted(values: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
            return (*values[:at], value, *values[at:])

        rules = self.restore(inserted(self.players, newcomer), self.options)
        score = max(state.scores[seat] for seat in active)
        assert state.dealer is not None and state.starter is not None
        joined = replace(
            state,
            scores=inserted(state.scores, score),
            eliminated_in_round=inserted(state.eliminated_in_round, None),
            dealer=seat_after(state.dealer),
            starter=seat_after(state.starter),
            left=inserted(state.left, False),
            seat_changes=state.seat_changes + 1,
            seating=rules.seating,
            tallies=inserted(self._tallies(state), (0,) * len(self.tally_names)),
        )
        joined = rules._after_seat_change(self._seat_added(joined, at))
        result = SeatChangeResult(
            number=joined.last_number,
            kind="join",
            player=newcomer.id,
            name=newcomer.name,
            after=after,
            score=score,
            standing=rules.standing(joined),
        )
        return SeatChangeOutcome(result=result, state=joined, rules=rules)

    def leave(self, state: GameState, player: int) -> SeatChangeOutcome:
        """The active ``player`` leaves: their total freezes and they never win.

        If they were to deal or start the next round, that passes on clockwise;
        if only one active player remains, that player wins.
        """
        if state.finished:
            raise RuleError(
                "The game is over, so no one can leave it.", {"leave": ["The game is over."]}
            )
        seat = self.seat_of(player)
        if seat is None:
            raise RuleError(
                Message("Player {id} is not at this table.", id=player),
                {"leave": ["Not a player in this game."]},
            )
        name = self.name_of(seat)
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
        gone = replace(
            state,
            left=tuple(was or s == seat for s, was in enumerate(state.left)),
            seat_changes=state.seat_changes + 1,
            seating=self.seating,
            tallies=self._tallies(state),
        )
        remaining = gone.active_seats()
        if len(remaining) == 1:
            gone = replace(gone, dealer=None, starter=None, winners=(remaining[0],))
        else:
            gone = self._pass_turns(gone, seat)
        gone = self._after_seat_change(gone)
        result = SeatChangeResult(
            number=gone.last_number,
            kind="leave",
            player=player,
            name=name,
            after=None,
            score=None,
            standing=self.standing(gone),
        )
        return SeatChangeOutcome(result=result, state=gone, rules=self)

    def _pass_turns(self, state: GameState, seat: int) -> GameState:
        """The deal and the start of the next round, passed on from ``seat``, who just left."""
        assert state.dealer is not None and state.starter is not None
        dealer, starter = state.dealer, state.starter
        if dealer == seat:
            dealer = self.next_active_seat(state, seat)
        if starter == seat:
            starter = self.next_active_seat(state, seat)
        return replace(state, dealer=dealer, starter=starter)

    def _seat_added(self, state: GameState, seat: int) -> GameState:
        """The ruleset's own fields after a newcomer took ``seat`` (the other seats moved on)."""
        return state

    def _after_seat_change(self, state: GameState) -> GameState:
        """What the ruleset works out again once the players at the table change."""
        return state

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
                    Message("Player {id} is not at this table.", id=player_id),
                    _player_problem(field_name, index, "Not a player in this game."),
                )
            if state.left[seat]:
                raise RuleError(
                    Message("{name} has left the game and takes no part.", name=self.name_of(seat)),
                    _player_problem(field_name, index, "Left the game."),
                )
            if not state.is_active(seat):
                raise RuleError(
                    Message(
                        "{name} was eliminated in round {round} and takes no part.",
                        name=self.name_of(seat),
                        round=state.eliminated_in_round[seat],
                    ),
                    _player_problem(field_name, index, "Eliminated."),
                )
            if seat in seats:
                raise RuleError(
                    Message(f"{{name}} has two {noun}s in this round.", name=self.name_of(seat)),
                    _player_problem(field_name, index, "Listed twice."),
                )
            seats.append(seat)
        missing = [self.name_of(seat) for seat in state.active_seats() if seat not in seats]
        if missing:
            if len(missing) == 1:
                which = Message(f"{{name}}'s {noun} is missing", name=missing[0])
            else:
                which = Message(f"the {noun}s of {{names}} are missing", names=listed(missing))
            raise RuleError(
                Message(
                    f"Give a {noun} for every player still in the game; {{which}}.", which=which
                ),
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
        tallies: Mapping[int, Sequence[int]],
        **extra: Any,
    ) -> GameState:
        """The state after a round that played ``seats`` and left these scores and eliminations.

        If the round ends the game the state names its winners; otherwise
        ``next_turns`` fills in the next dealer and starter (and anything else
        the ruleset decides once the eliminations are known). ``tallies`` are
        the counts the round adds, by seat; ``extra`` holds the ruleset's own
        state fields.
        """
        out, winners, finished = self._finish_round(state, scores, eliminated, seats)
        after = self.state_class(
            rounds_played=state.rounds_played + 1,
            scores=tuple(scores),
            eliminated_in_round=out,
            dealer=None,
            starter=None,
            winners=winners,
            left=state.left,
            seat_changes=state.seat_changes,
            seating=self.seating,
            tallies=self._tallied(state, tallies),
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
            number=after.last_number,
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
        number = state.last_number + 1
        out = tuple(
            number if seat in eliminated else was
            for seat, was in enumerate(state.eliminated_in_round)
        )
        still_active = [seat for seat, o in enumerate(out) if o is None and not state.left[seat]]
        if len(still_active) == 1:
            return out, (still_active[0],), True
        if not still_active:
            lowest = min(new_scores[seat] for seat in low_seats)
            return out, tuple(s for s in sorted(low_seats) if new_scores[s] == lowest), True
        return out, (), False
