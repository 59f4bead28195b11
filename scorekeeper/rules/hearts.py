"""Hearts: take no hearts and not the queen of spades, or take them all and shoot the moon."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from .base import Ruleset
from .errors import RuleError
from .options import OptionSpec
from .scoring import best_totals, check_one_per_active, outcome, state_after
from .state import GameState, NextRound, PlayerResult, RoundOutcome, RoundResult, is_integer
from .words import Message

HEARTS = 13
QUEEN = 13
"""Penalty points: 1 for each heart, 13 for the queen of spades."""
HAND_POINTS = HEARTS + QUEEN
"""Every hand's penalty points add up to this; a player who takes them all shoots the moon."""
PASSES = {4: ("left", "right", "across", "keep")}
OTHER_PASSES = ("left", "right", "keep")
"""Where the cards pass before each hand, in turn (rule 4), by the number of players."""


@dataclass(frozen=True)
class HeartsHand:
    """One player's take in a hand: their penalty points, or the hearts they took."""

    player: int
    points: int | None = None
    hearts: int | None = None


@dataclass(frozen=True)
class HeartsEntry:
    """What the table enters after a hand: each player's take, and who took the queen of
    spades when the takes are counted in hearts."""

    hands: tuple[HeartsHand, ...]
    queen: int | None = None


@dataclass(frozen=True)
class HeartsNextRound(NextRound):
    """The coming hand: its dealer, and where the cards pass before it."""

    pass_direction: str = field(default="keep", metadata={"json": "pass"})
    """``left``, ``right``, ``across`` or ``keep`` (no pass)."""


@dataclass(frozen=True)
class HeartsPlayerResult(PlayerResult):
    """A player's line in a hand, with the penalty points they took in it."""

    taken: int
    """Penalty points taken in the hand, before the moon (``points``: what the total changed by)."""


@dataclass(frozen=True)
class HeartsRoundResult(RoundResult):
    """A scored hand: where the cards passed, and who shot the moon."""

    results: tuple[HeartsPlayerResult, ...]
    pass_direction: str = field(metadata={"json": "pass"})
    moon: int | None
    """The id of the player who took every penalty point, or ``None``."""


def pass_direction(hands_played: int, players: int) -> str:
    """Where the cards pass before the hand after ``hands_played`` hands (rule 4)."""
    cycle = PASSES.get(players, OTHER_PASSES)
    return cycle[hands_played % len(cycle)]


class Hearts(Ruleset[HeartsEntry, GameState]):
    """Hearts as ``rules.md`` decides it."""

    name = "hearts"
    title = "Hearts"
    min_players = 3
    max_players = 6
    chooses_starter = False
    state_class = GameState
    id_fields = frozenset({"queen", "moon"})
    field_words = MappingProxyType(
        {
            "hands": "the hands",
            "points": "the points",
            "hearts": "the hearts",
            "queen": "the queen of spades",
        }
    )
    item_words = MappingProxyType({"hands": "hand {n}"})
    descriptor = MappingProxyType(
        {
            "entry": {"kind": "hearts_and_queen", "hearts": HEARTS, "queen": QUEEN},
            "results": {"column": "taken"},
            "summary": "moon",
            "starter": None,
            "next_round": ["pass"],
            "player": [],
            "limit": "limit",
            "figures": [
                {"name": "rounds_played", "words": "fig_hands"},
                {"name": "moons", "words": "fig_moons"},
                {"name": "clean_hands", "words": "fig_clean"},
                {"name": "average_taken", "words": "fig_average_taken"},
            ],
        }
    )
    tally_names = ("rounds_played", "points_taken", "moons", "clean_hands")
    option_specs = (
        OptionSpec(
            "limit",
            "The game ends after the hand in which a total reaches this; the lowest total wins.",
            100,
            "integer",
            50,
            500,
        ),
        OptionSpec(
            "moon",
            "Shooting the moon: every other player scores 26, or the shooter scores -26.",
            "add_to_others",
            "choice",
            choices=("add_to_others", "subtract_from_shooter"),
        ),
    )

    @classmethod
    def standing_figures(cls, tallies: Mapping[str, int], eliminations: int) -> dict[str, Any]:
        """Hands played, moons shot, hands taken clean, and the average penalty taken."""
        hands = tallies["rounds_played"]
        return {
            "rounds_played": hands,
            "moons": tallies["moons"],
            "clean_hands": tallies["clean_hands"],
            "average_taken": round(tallies["points_taken"] / hands, 2) if hands else None,
        }

    def first_starter(self, dealer: int) -> int | None:
        """No seat leads by rule: the holder of the lowest club does."""
        return None

    def next_round(self, state: GameState) -> HeartsNextRound:
        """The next dealer, and where the cards pass before the hand."""
        base = super().next_round(state)
        direction = pass_direction(state.rounds_played, len(state.active_seats()))
        return HeartsNextRound(base.number, base.dealer, None, pass_direction=direction)

    def parse_entry(self, raw: Mapping[str, Any]) -> HeartsEntry:
        """Build the entry from its JSON form."""
        hands = tuple(
            HeartsHand(player=hand["player"], points=hand.get("points"), hearts=hand.get("hearts"))
            for hand in raw["hands"]
        )
        return HeartsEntry(hands=hands, queen=raw.get("queen"))

    def play(self, state: GameState, entry: HeartsEntry) -> RoundOutcome:
        """Score one hand (rules 1 to 4)."""
        if state.finished:
            raise RuleError("The game is over; no more rounds can be recorded.")
        assert state.dealer is not None
        seats = check_one_per_active(
            self, state, [hand.player for hand in entry.hands], "hands", "hand"
        )
        taken = self._penalties(entry, seats)

        # Rule 2: a player who took all 26 shot the moon.
        moon = next((seat for seat in seats if taken[seat] == HAND_POINTS), None)
        points = dict(taken)
        if moon is not None:
            shooter_scores = self.options["moon"] == "subtract_from_shooter"
            for seat in seats:
                if seat == moon:
                    points[seat] = -HAND_POINTS if shooter_scores else 0
                else:
                    points[seat] = 0 if shooter_scores else HAND_POINTS
        scores = list(state.scores)
        for seat in seats:
            scores[seat] += points[seat]
        dealer = state.dealer

        def next_turns(after: GameState) -> GameState:
            return replace(after, dealer=self.next_active_seat(after, dealer), starter=None)

        tallies = {
            seat: (1, taken[seat], int(seat == moon), int(taken[seat] == 0)) for seat in seats
        }
        after = state_after(self, state, seats, scores, (), next_turns, tallies)
        return outcome(
            self,
            HeartsRoundResult,
            state,
            after,
            seats,
            points,
            row=lambda seat, **shared: HeartsPlayerResult(taken=taken[seat], **shared),
            pass_direction=pass_direction(state.rounds_played, len(seats)),
            moon=None if moon is None else self.players[moon].id,
        )

    def round_end(
        self,
        state: GameState,
        new_scores: Sequence[int],
        eliminated: Sequence[int],
        seats: Sequence[int],
    ) -> tuple[tuple[int | None, ...], tuple[int, ...], bool]:
        """Rule 3: the game ends once a total reaches the limit; the lowest total wins."""
        if max(new_scores[seat] for seat in seats) < self.options["limit"]:
            return state.eliminated_in_round, (), False
        return state.eliminated_in_round, best_totals(new_scores, seats, lowest=True), True

    def check_leave(self, state: GameState, seat: int) -> None:
        """Rule 5: a leave may not bring the table below three players."""
        active = len(state.active_seats())
        if active - 1 < self.min_players:
            raise RuleError(
                Message(
                    "{title} is played by at least {min} players, so {name} cannot leave "
                    "while {count} are in the game.",
                    title=Message(self.title),
                    min=self.min_players,
                    name=self.name_of(seat),
                    count=active,
                ),
                {"leave": [f"At least {self.min_players} players must stay in the game."]},
            )

    def _penalties(self, entry: HeartsEntry, seats: Sequence[int]) -> dict[int, int]:
        """Rule 1: each seat's penalty points in the hand, checked to add up to 26."""
        by_hearts = [hand.hearts is not None for hand in entry.hands]
        for index, (hand, seat) in enumerate(zip(entry.hands, seats, strict=True)):
            if (hand.points is None) == (hand.hearts is None):
                raise RuleError(
                    Message(
                        "Give {name}'s take as points or as hearts, not both or neither.",
                        name=self.name_of(seat),
                    ),
                    {"hands": {str(index): {"points": ["Give points or hearts."]}}},
                )
        if any(by_hearts) and not all(by_hearts):
            raise RuleError(
                Message("Give every player's take as points, or every one as hearts."),
                {"hands": ["Give all as points or all as hearts."]},
            )
        if all(by_hearts):
            return self._from_hearts(entry, seats)
        if entry.queen is not None:
            raise RuleError(
                Message(
                    "Leave out who took the queen of spades when the takes are points: "
                    "the points already count it."
                ),
                {"queen": ["Only with hearts."]},
            )
        taken: dict[int, int] = {}
        for index, (hand, seat) in enumerate(zip(entry.hands, seats, strict=True)):
            if not is_integer(hand.points) or not 0 <= hand.points <= HAND_POINTS:
                raise RuleError(
                    Message(
                        "{name}'s points must be a whole number from 0 to {max}.",
                        name=self.name_of(seat),
                        max=HAND_POINTS,
                    ),
                    {"hands": {str(index): {"points": [f"Must be from 0 to {HAND_POINTS}."]}}},
                )
            taken[seat] = hand.points
        self._check_sum(sum(taken.values()), HAND_POINTS, "points")
        if max(taken.values()) < QUEEN:
            raise RuleError(
                Message(
                    "No one has {queen} points or more, but the queen of spades alone is {queen}.",
                    queen=QUEEN,
                ),
                {"hands": [f"Someone took the queen of spades: {QUEEN} points or more."]},
            )
        return taken

    def _from_hearts(self, entry: HeartsEntry, seats: Sequence[int]) -> dict[int, int]:
        """The penalty points of takes given as hearts, with the queen of spades' taker."""
        queen = self.seat_of(entry.queen) if entry.queen is not None else None
        if entry.queen is None:
            raise RuleError(
                Message("Say who took the queen of spades."), {"queen": ["Who took it?"]}
            )
        if queen is None or queen not in seats:
            raise RuleError(
                Message("The queen of spades must go to one of the players in this hand."),
                {"queen": ["Not a player in this hand."]},
            )
        taken: dict[int, int] = {}
        for index, (hand, seat) in enumerate(zip(entry.hands, seats, strict=True)):
            if not is_integer(hand.hearts) or not 0 <= hand.hearts <= HEARTS:
                raise RuleError(
                    Message(
                        "{name}'s hearts must be a whole number from 0 to {max}.",
                        name=self.name_of(seat),
                        max=HEARTS,
                    ),
                    {"hands": {str(index): {"hearts": [f"Must be from 0 to {HEARTS}."]}}},
                )
            taken[seat] = hand.hearts + (QUEEN if seat == queen else 0)
        self._check_sum(sum(taken.values()) - QUEEN, HEARTS, "hearts")
        return taken

    @staticmethod
    def _check_sum(total: int, expected: int, counted: str) -> None:
        """Refuse a hand whose ``counted`` (points or hearts) do not add up to ``expected``."""
        if total == expected:
            return
        if counted == "points":
            template = (
                "A hand's points add up to {expected}, but these add up to {total} ({off} too few)."
                if total < expected
                else "A hand's points add up to {expected}, but these add up to {total} "
                "({off} too many)."
            )
        else:
            template = (
                "A deck has {expected} hearts, but these add up to {total} ({off} too few)."
                if total < expected
                else "A deck has {expected} hearts, but these add up to {total} ({off} too many)."
            )
        off = abs(total - expected)
        raise RuleError(
            Message(template, expected=expected, total=total, off=off),
            {"hands": [f"Add up to {expected}; off by {off}."]},
        )
