"""The score pad: each player's points, round by round, for any game without rules of its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from .base import Ruleset
from .errors import CannotEnd, RuleError
from .options import OptionSpec
from .scoring import best_totals, check_one_per_active, outcome, state_after
from .state import GameState, PlayerResult, RoundOutcome, RoundResult, is_integer
from .words import Message

MAX_POINTS = 10_000
"""A round's points per player are a whole number from -MAX_POINTS to MAX_POINTS."""


@dataclass(frozen=True)
class PadScore:
    """One player's points in a round."""

    player: int
    points: int


@dataclass(frozen=True)
class ScorePadEntry:
    """What the table enters after a round: every active player's points."""

    hands: tuple[PadScore, ...]


class ScorePad(Ruleset[ScorePadEntry, GameState]):
    """The score pad as ``rules.md`` decides it."""

    name = "score-pad"
    title = "Score pad"
    min_players = 2
    max_players = 12
    chooses_starter = False
    state_class = GameState
    field_words = MappingProxyType({"hands": "the hands", "points": "the points"})
    item_words = MappingProxyType({"hands": "hand {n}"})
    descriptor = MappingProxyType(
        {
            "entry": {"kind": "points", "minimum": -MAX_POINTS, "maximum": MAX_POINTS},
            "results": {"column": None},
            "summary": None,
            "starter": "starts",
            "next_round": [],
            "player": [],
            "limit": "target",
            "figures": [
                {"name": "rounds_played", "words": "fig_rounds"},
                {"name": "points", "words": "fig_total_points"},
                {"name": "average_points", "words": "fig_average_points"},
            ],
        }
    )
    tally_names = ("rounds_played", "points")
    option_specs = (
        OptionSpec(
            "winner",
            "Who wins: the highest total, or the lowest.",
            "highest",
            "choice",
            choices=("highest", "lowest"),
        ),
        OptionSpec(
            "target",
            "The game ends after the round in which a total reaches this; none by default.",
            None,
            "integer",
            1,
            100_000,
            optional=True,
        ),
        OptionSpec(
            "rounds",
            "The game ends after this many rounds; none by default. With neither this nor "
            "target, the table ends the game.",
            None,
            "integer",
            1,
            1_000,
            optional=True,
        ),
    )

    @classmethod
    def standing_figures(cls, tallies: Mapping[str, int], eliminations: int) -> dict[str, Any]:
        """Rounds played, and the average points a round."""
        rounds = tallies["rounds_played"]
        return {
            "rounds_played": rounds,
            "points": tallies["points"],
            "average_points": round(tallies["points"] / rounds, 2) if rounds else None,
        }

    @property
    def lowest_wins(self) -> bool:
        """Whether the lowest total wins (else the highest)."""
        return bool(self.options["winner"] == "lowest")

    @property
    def lower_total_ranks_first(self) -> bool:
        """A lower total is the better place only when the lowest total wins."""
        return self.lowest_wins

    def parse_entry(self, raw: Mapping[str, Any]) -> ScorePadEntry:
        """Build the entry from its JSON form."""
        return ScorePadEntry(
            hands=tuple(PadScore(hand["player"], hand["points"]) for hand in raw["hands"])
        )

    def play(self, state: GameState, entry: ScorePadEntry) -> RoundOutcome:
        """Add each player's points to their total; the game may end by target or rounds."""
        if state.finished:
            raise RuleError("The game is over; no more rounds can be recorded.")
        assert state.dealer is not None
        seats = check_one_per_active(
            self, state, [score.player for score in entry.hands], "hands", "hand"
        )
        points: dict[int, int] = {}
        for index, (score, seat) in enumerate(zip(entry.hands, seats, strict=True)):
            if not is_integer(score.points) or not -MAX_POINTS <= score.points <= MAX_POINTS:
                raise RuleError(
                    Message(
                        "{name}'s points must be a whole number from {min} to {max}.",
                        name=self.name_of(seat),
                        min=-MAX_POINTS,
                        max=MAX_POINTS,
                    ),
                    {
                        "hands": {
                            str(index): {"points": [f"Must be from {-MAX_POINTS} to {MAX_POINTS}."]}
                        }
                    },
                )
            points[seat] = score.points
        scores = list(state.scores)
        for seat in seats:
            scores[seat] += points[seat]
        dealer = state.dealer

        def next_turns(after: GameState) -> GameState:
            next_dealer = self.next_active_seat(after, dealer)
            return replace(
                after, dealer=next_dealer, starter=self.next_active_seat(after, next_dealer)
            )

        tallies = {seat: (1, points[seat]) for seat in seats}
        after = state_after(self, state, seats, scores, (), next_turns, tallies)
        return outcome(
            self,
            RoundResult,
            state,
            after,
            seats,
            points,
            row=lambda seat, **shared: PlayerResult(**shared),
        )

    def round_end(
        self,
        state: GameState,
        new_scores: Sequence[int],
        eliminated: Sequence[int],
        seats: Sequence[int],
    ) -> tuple[tuple[int | None, ...], tuple[int, ...], bool]:
        """The game ends when a total reaches the target, or after the set number of rounds."""
        target, rounds = self.options["target"], self.options["rounds"]
        reached = target is not None and max(new_scores[seat] for seat in seats) >= target
        counted = rounds is not None and state.rounds_played + 1 >= rounds
        if not (reached or counted):
            return state.eliminated_in_round, (), False
        return state.eliminated_in_round, best_totals(new_scores, seats, self.lowest_wins), True

    def can_be_ended(self) -> bool:
        """Without a target or a number of rounds, the table ends the game."""
        return self.options["target"] is None and self.options["rounds"] is None

    def winners_at_end(self, state: GameState) -> tuple[int, ...]:
        """The best total among the players still in the game wins; equal totals share."""
        if not state.rounds_played:
            raise CannotEnd(
                Message("No round has been played yet, so the game has no winner to end on."),
                {"status": ["Play a round first."]},
            )
        return best_totals(state.scores, state.active_seats(), self.lowest_wins)

    def newcomer_score(self, state: GameState, active: Sequence[int]) -> int:
        """A newcomer starts on the total least in their favour: the worst among the active."""
        totals = [state.scores[seat] for seat in active]
        return max(totals) if self.lowest_wins else min(totals)
