"""The base class of every ruleset: a table's players and options, the game's course, and the
hooks a ruleset fills in (its entry, its round, its end, its seat changes, its tallies)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Generic, Self

from typing_extensions import TypeVar

from .errors import CannotEnd, InvalidOptions
from .options import OptionSpec, option_maximum, resolve_options
from .scoring import elimination_end
from .seats import join_seat, leave_seat
from .state import (
    EndOutcome,
    EndResult,
    GameState,
    NextRound,
    Player,
    RoundOutcome,
    SeatChangeOutcome,
    Standing,
    is_integer,
)
from .words import Message

Entry = TypeVar("Entry")
State = TypeVar("State", bound=GameState, default=GameState)
"""The ruleset's state class: ``GameState``, unless the ruleset keeps more."""

ID_FIELDS = frozenset({"player", "dealer", "starter", "winners", "after"})
"""Fields of entries and results, in every ruleset, whose values are player ids."""


class Ruleset(ABC, Generic[Entry, State]):
    """The rules of one game: options, the first round, and scoring a round.

    An instance is bound to one table (its players in seat order and its
    resolved options). Every method is pure: the same state and entry always
    give the same outcome. A ruleset is a subclass in a module of its own and
    one line in ``registry.py``; the HTTP edge finds its schemas by its name.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]]
    chooses_starter: ClassVar[bool]
    """Whether the table names round 1's starter (else it follows the dealer)."""
    state_class: type[State]
    """The class of the ruleset's states: ``GameState``, or a subclass with the ruleset's own."""
    tally_names: ClassVar[tuple[str, ...]]
    """What ``GameState.tallies`` counts for each seat, in order; ``rounds_played`` first."""
    id_fields: ClassVar[frozenset[str]] = frozenset()
    """The ruleset's own fields of entries and results whose values are player ids."""
    field_words: ClassVar[Mapping[str, str]] = {}
    """How an error message names each field of the ruleset's entries ("the caller")."""
    item_words: ClassVar[Mapping[str, str]] = {}
    """How an error message names item ``{n}`` of a list field of its entries ("hand {n}")."""
    descriptor: ClassVar[Mapping[str, Any]] = {}
    """What the page needs to draw the ruleset (``docs/api.md``, "The rulesets"): its entry's
    ``kind`` and bounds, the column its results add, the kind of round summary, how the next
    starter is named, the next round's and the players' own fields to show, and its figures
    in a table's standings (each with the page's words for it)."""

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
        self.options = resolve_options(self, options or {})

    @classmethod
    def restore(cls, players: Sequence[Player], options: Mapping[str, Any]) -> Self:
        """Bind an existing game's options to its players, checking neither again.

        A game's options are checked once, when it is created; seat changes may
        since have brought more seats than a new game allows, or fewer players
        than an option's limit was worked out for.
        """
        rules = cls.__new__(cls)
        rules._bind(players)
        rules.options = resolve_options(rules, options, check=False)
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
            **cls.descriptor,
        }

    @classmethod
    def _describe_option(cls, spec: OptionSpec) -> dict[str, Any]:
        """An option as listed, with its default for each table size when that varies."""
        description = spec.describe()
        if spec.default_for:
            players = range(cls.min_players, cls.max_players + 1)
            description["default_by_players"] = {str(n): spec.default_for(n) for n in players}
        return description

    def option_maximum(self, spec: OptionSpec, options: Mapping[str, Any]) -> int | None:
        """The largest value allowed for ``spec``, which may depend on other options."""
        return option_maximum(spec, options)

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

    # Tallies: each player's counts over a game, summed over a table's games for its standings

    @classmethod
    def standing_figures(cls, tallies: Mapping[str, int], eliminations: int) -> dict[str, Any]:
        """A player's figures over a table's games of this ruleset, from their summed tallies."""
        return {**tallies, "eliminations": eliminations}

    def tallies_of(self, state: GameState, seat: int) -> dict[str, int]:
        """The counts of the player in ``seat``, by the names in ``tally_names``."""
        return dict(zip(self.tally_names, self.all_tallies(state)[seat], strict=True))

    def all_tallies(self, state: GameState) -> tuple[tuple[int, ...], ...]:
        """The state's tallies, all zero for a state that has none."""
        return state.tallies or ((0,) * len(self.tally_names),) * len(state.scores)

    def tallied(
        self, state: GameState, counts: Mapping[int, Sequence[int]]
    ) -> tuple[tuple[int, ...], ...]:
        """The state's tallies plus ``counts`` (a row in ``tally_names`` order, by seat)."""
        return tuple(
            tuple(map(sum, zip(row, counts[seat], strict=True))) if seat in counts else row
            for seat, row in enumerate(self.all_tallies(state))
        )

    # The game

    def start(self, dealer: int, starter: int | None) -> State:
        """The state before round 1, with the table's first dealer and starter seats."""
        count = len(self.players)
        seats = f"a seat from 0 to {count - 1}"
        problems: dict[str, tuple[str, str]] = {}
        if not (is_integer(dealer) and 0 <= dealer < count):
            dealer_seat = Message(
                "The first dealer must be a seat from 0 to {last}.", last=count - 1
            )
            problems["dealer"] = (dealer_seat, f"Give {seats}.")
        if starter is not None and not self.chooses_starter and self.first_starter(0) is None:
            problems["starter"] = (
                Message(
                    "In {title} no seat starts by rule, so leave out starter.",
                    title=Message(self.title),
                ),
                f"In {self.title} no seat starts by rule.",
            )
        elif starter is not None and not self.chooses_starter:
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
            starter=self.first_starter(dealer) if starter is None else starter,
            left=(False,) * count,
            seating=self.seating,
            tallies=((0,) * len(self.tally_names),) * count,
            **self._initial_extra(),
        )

    def first_starter(self, dealer: int) -> int | None:
        """Round 1's starter when the table names none: the dealer's left."""
        return (dealer + 1) % len(self.players)

    def remap_entry(self, raw: Mapping[str, Any], player_ids: Mapping[int, int]) -> dict[str, Any]:
        """A JSON entry with its player ids replaced through ``player_ids`` (for imports)."""
        return _with_ids(raw, player_ids, ID_FIELDS | self.id_fields)

    def _initial_extra(self) -> dict[str, Any]:
        """Ruleset-specific fields of the state before round 1."""
        return {}

    def standing(self, state: State) -> Standing:
        """Status, next round and winners (player ids) for ``state``."""
        winners = tuple(self.players[seat].id for seat in state.winners)
        if state.finished:
            return Standing("finished", None, winners)
        return Standing("in_progress", self.next_round(state), winners)

    def next_round(self, state: State) -> NextRound:
        """Who deals and starts the round after ``state``."""
        assert state.dealer is not None
        return NextRound(
            number=state.last_number + 1,
            dealer=self.players[state.dealer].id,
            starter=None if state.starter is None else self.players[state.starter].id,
        )

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild a stored state of this ruleset (stored with every field: the migrations
        gave the older ones theirs)."""
        return self.state_class.from_dict(data)

    @abstractmethod
    def parse_entry(self, raw: Mapping[str, Any]) -> Entry:
        """Turn a well-typed entry (already checked by the API schema) into the ruleset's entry."""

    @abstractmethod
    def play(self, state: State, entry: Entry) -> RoundOutcome:
        """Score one round; raise :class:`RuleError` if the entry breaks the rules."""

    def round_end(
        self,
        state: State,
        new_scores: Sequence[int],
        eliminated: Sequence[int],
        seats: Sequence[int],
    ) -> tuple[tuple[int | None, ...], tuple[int, ...], bool]:
        """After a round that played ``seats``: (eliminated_in_round, winners, finished).

        By default the game ends when at most one player is still in (elimination games).
        """
        return elimination_end(state, new_scores, eliminated, seats)

    # The end of a game by hand

    def can_be_ended(self) -> bool:
        """Whether the table may end a game of these rules and options by hand."""
        return False

    def end(self, state: State) -> EndOutcome:
        """The table ends the game: the winners are worked out as the ruleset says."""
        if not self.can_be_ended():
            raise CannotEnd(
                Message(
                    "A game of {title} ends by its own rules, so it cannot be ended by hand.",
                    title=Message(self.title),
                ),
                {"status": ["This game ends by its own rules."]},
            )
        if state.finished:
            raise CannotEnd(Message("The game is over already."), {"status": ["The game is over."]})
        ended = replace(
            state,
            dealer=None,
            starter=None,
            winners=self.winners_at_end(state),
            seat_changes=state.seat_changes + 1,
        )
        return EndOutcome(EndResult(ended.last_number, self.standing(ended)), ended)

    @property
    def lower_total_ranks_first(self) -> bool:
        """Whether, among players who did not win, a lower total is the better place."""
        return True

    def final_places(self, state: State) -> tuple[int, ...]:
        """Each seat's place in a finished game's final ranking (rules.md, "Final ranking")."""
        return state.final_places(lower_first=self.lower_total_ranks_first)

    def winners_at_end(self, state: State) -> tuple[int, ...]:
        """The winners' seats when the table ends the game by hand."""
        raise NotImplementedError

    # Seat changes between rounds (rules.md, "Seat changes between rounds")

    def join(self, state: State, newcomer: Player, after: int) -> SeatChangeOutcome:
        """Seat ``newcomer`` clockwise right after the player ``after``, from the next round on."""
        return join_seat(self, state, newcomer, after)

    def leave(self, state: State, player: int) -> SeatChangeOutcome:
        """The active ``player`` leaves: their total freezes and they never win."""
        return leave_seat(self, state, player)

    def newcomer_score(self, state: State, active: Sequence[int]) -> int:
        """The total a newcomer starts with: the highest among the ``active`` seats."""
        return max(state.scores[seat] for seat in active)

    def check_leave(self, state: State, seat: int) -> None:
        """Refuse a leave of the player in ``seat`` that the ruleset does not allow."""

    def pass_turns(self, state: State, seat: int) -> State:
        """The deal and the start of the next round, passed on from ``seat``, who just left."""
        assert state.dealer is not None
        dealer, starter = state.dealer, state.starter
        if dealer == seat:
            dealer = self.next_active_seat(state, seat)
        if starter == seat:
            starter = self.next_active_seat(state, seat)
        return replace(state, dealer=dealer, starter=starter)

    def seat_added(self, state: State, seat: int) -> State:
        """The ruleset's own fields after a newcomer took ``seat`` (the other seats moved on)."""
        return state

    def after_seat_change(self, state: State) -> State:
        """What the ruleset works out again once the players at the table change."""
        return state


def _with_ids(value: Any, mapping: Mapping[int, int], id_fields: frozenset[str]) -> Any:
    """``value`` with the player ids under ``id_fields`` keys translated through ``mapping``."""

    def walk(item: Any, key: str | None) -> Any:
        if isinstance(item, dict):
            return {k: walk(v, k) for k, v in item.items()}
        if isinstance(item, list):
            return [walk(element, key) for element in item]
        if key in id_fields and is_integer(item):
            return mapping[item]
        return item

    return walk(dict(value), None)
