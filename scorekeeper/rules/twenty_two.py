"""Twenty Two: avoid taking the last trick; 22 points knocks you out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from .base import Ruleset
from .cards import CARD_CODE_HINT, Card, face_value, parse_card
from .errors import RuleError
from .options import OptionSpec
from .scoring import check_one_per_active, outcome, state_after
from .state import GameState, NextRound, PlayerResult, RoundOutcome, RoundResult
from .words import Message, shown

DECK_SIZE = 52


def card_value(card: Card) -> int:
    """Twenty Two points of a card: ace 11, J/Q/K 10, pips at face value."""
    return face_value(card, ace=11)


@dataclass(frozen=True)
class Play:
    """One player's card in the final trick."""

    player: int
    card: str


@dataclass(frozen=True)
class TwentyTwoEntry:
    """What the table enters after a Twenty Two round: the final trick in the order played."""

    last_trick: tuple[Play, ...]


@dataclass(frozen=True)
class TwentyTwoState(GameState):
    """The shared state plus each seat's score pile and the coming deal size."""

    piles: tuple[tuple[str, ...], ...] = ()
    """Cards each seat kept since the start, or since the piles last went back (rule 2)."""
    cards_each: int = 0
    deal_value: int = 0
    """Rule 2's value for the coming deal, before the pack caps it; 0 once the game is over.

    It is ``first_deal`` before round 1, then the point value of the card the
    last round's loser played. ``cards_each`` may already be capped by the
    pack, so a seat change works the deal out again from this value.
    """

    def player_fields(self, seat: int) -> dict[str, Any]:
        """The cards the player in ``seat`` keeps in their score pile."""
        return {"pile": self.piles[seat]}

    @property
    def pack(self) -> int:
        """Cards left to deal from: the deck minus every card kept in a score pile."""
        return DECK_SIZE - sum(len(pile) for pile in self.piles)


@dataclass(frozen=True)
class TwentyTwoPlayerResult(PlayerResult):
    """A player's line in a Twenty Two round, with the card they played in the final trick."""

    card: str
    """The card's canonical code."""


@dataclass(frozen=True)
class TwentyTwoRoundResult(RoundResult):
    """A scored Twenty Two round: who took the final trick, and the round's deal size."""

    results: tuple[TwentyTwoPlayerResult, ...]
    takers: tuple[int, ...]
    """Player ids of those who scored the final trick, in the order they played."""
    cards_each: int
    """Cards dealt to each player in this round."""


class TwentyTwo(Ruleset[TwentyTwoEntry, TwentyTwoState]):
    """Twenty Two as ``rules.md`` decides it."""

    name = "twenty-two"
    title = "Twenty Two"
    min_players = 2
    max_players = 6
    chooses_starter = False
    state_class = TwentyTwoState
    id_fields = frozenset({"takers"})
    field_words = MappingProxyType({"last_trick": "the final trick", "card": "the card"})
    item_words = MappingProxyType({"last_trick": "card {n} of the final trick"})
    descriptor = MappingProxyType(
        {
            "entry": {"kind": "one_card_each"},
            "results": {"column": "card"},
            "summary": "trick",
            "starter": "leads",
            "next_round": ["cards_each", "pack"],
            "player": ["pile"],
            "limit": "elimination_limit",
            "figures": [
                {"name": "rounds_played", "words": "fig_rounds"},
                {"name": "tricks_taken", "words": "fig_tricks"},
                {"name": "points_taken", "words": "fig_points"},
                {"name": "eliminations", "words": "fig_out"},
            ],
        }
    )
    tally_names = ("rounds_played", "tricks_taken", "points_taken")
    option_specs = (
        OptionSpec(
            "elimination_limit",
            "A running total this high or higher eliminates.",
            22,
            "integer",
            1,
            1000,
        ),
        OptionSpec(
            "first_deal",
            "Cards dealt to each player in round 1; at most 52 divided by the number of players.",
            7,
            "integer",
            1,
            26,
        ),
        OptionSpec(
            "tie_scores",
            "Who scores when the final trick's highest rank is tied.",
            "tied",
            "choice",
            choices=("tied", "all"),
        ),
    )

    def option_maximum(self, spec: OptionSpec, options: Mapping[str, Any]) -> int | None:
        """The first deal must leave a card for everyone: at most floor(52 / players)."""
        if spec.name == "first_deal":
            return DECK_SIZE // len(self.players)
        return super().option_maximum(spec, options)

    def _initial_extra(self) -> dict[str, Any]:
        """Empty score piles and the first deal size."""
        first_deal = self.options["first_deal"]
        return {
            "piles": ((),) * len(self.players),
            "cards_each": first_deal,
            "deal_value": first_deal,
        }

    def next_round(self, state: TwentyTwoState) -> NextRound:
        """Dealer and starter, plus how many cards to deal and the pack size."""
        return replace(super().next_round(state), cards_each=state.cards_each, pack=state.pack)

    def parse_entry(self, raw: Mapping[str, Any]) -> TwentyTwoEntry:
        """Build the entry from its JSON form."""
        return TwentyTwoEntry(
            last_trick=tuple(Play(player=p["player"], card=p["card"]) for p in raw["last_trick"])
        )

    def play(self, state: TwentyTwoState, entry: TwentyTwoEntry) -> RoundOutcome:
        """Score one Twenty Two round (rules 4 to 7)."""
        if state.finished:
            raise RuleError("The game is over; no more rounds can be recorded.")
        assert state.dealer is not None and state.starter is not None
        seats = check_one_per_active(
            self, state, [play.player for play in entry.last_trick], "last_trick", "final card"
        )
        cards = self._check_trick(state, entry.last_trick, seats)

        # Rule 4: the highest rank takes the trick; ties score as tie_scores says.
        highest = max(card.rank_order for card in cards)
        tied = [seat for seat, card in zip(seats, cards, strict=True) if card.rank_order == highest]
        takers = tied if len(tied) == 1 or self.options["tie_scores"] == "tied" else list(seats)
        card_of = dict(zip(seats, cards, strict=True))
        points = {seat: card_value(card_of[seat]) if seat in takers else 0 for seat in seats}

        # Rule 5: elimination at the limit or above.
        scores = list(state.scores)
        piles = [list(pile) for pile in state.piles]
        for seat in takers:
            scores[seat] += points[seat]
            piles[seat].append(card_of[seat].code)
        eliminated = [s for s in takers if scores[s] >= self.options["elimination_limit"]]
        # Rules 2 and 6: the (last-played tied) loser deals; the deal follows their card.
        loser = tied[-1]

        def next_turns(after: TwentyTwoState) -> TwentyTwoState:
            starter = self.next_active_seat(after, loser)
            return self._next_deal(
                replace(after, dealer=loser, starter=starter), card_value(card_of[loser])
            )

        tallies = {seat: (1, int(seat in takers), points[seat]) for seat in seats}
        new_state = state_after(
            self,
            state,
            seats,
            scores,
            eliminated,
            next_turns,
            tallies,
            piles=tuple(tuple(pile) for pile in piles),
            cards_each=0,
            deal_value=0,
        )
        return outcome(
            self,
            TwentyTwoRoundResult,
            state,
            new_state,
            seats,
            points,
            row=lambda seat, **shared: TwentyTwoPlayerResult(card=card_of[seat].code, **shared),
            takers=tuple(self.players[seat].id for seat in takers),
            cards_each=state.cards_each,
        )

    def _next_deal(self, state: TwentyTwoState, value: int) -> TwentyTwoState:
        """Rule 2: deal ``value`` cards each, or the pack shared out evenly, never below 1."""
        active = len(state.active_seats())
        if state.pack < active:
            # Decision (an empty pack): every score pile goes back; the running totals stay.
            state = replace(state, piles=((),) * len(state.piles))
        return replace(state, cards_each=max(1, min(value, state.pack // active)), deal_value=value)

    def pass_turns(self, state: TwentyTwoState, seat: int) -> TwentyTwoState:
        """Rule 6 after a leave: a dealer's deal passes clockwise, and the lead to their left."""
        passed = super().pass_turns(state, seat)
        if state.dealer == seat:
            assert passed.dealer is not None
            return replace(passed, starter=self.next_active_seat(passed, passed.dealer))
        return passed

    def seat_added(self, state: TwentyTwoState, seat: int) -> TwentyTwoState:
        """The newcomer in ``seat`` has an empty score pile."""
        return replace(state, piles=(*state.piles[:seat], (), *state.piles[seat:]))

    def after_seat_change(self, state: TwentyTwoState) -> TwentyTwoState:
        """Rule 2 again for the players now at the table: the same value, a new cap.

        A player who left keeps their score pile, as an eliminated player
        does: those cards were taken and stay out of the pack.
        """
        if state.finished:
            return replace(state, cards_each=0, deal_value=0)
        return self._next_deal(state, state.deal_value)

    def _check_trick(
        self, state: TwentyTwoState, plays: Sequence[Play], seats: Sequence[int]
    ) -> list[Card]:
        """Parse the final trick's cards: valid codes, no jokers, none twice, none already kept."""
        kept = {code: seat for seat, pile in enumerate(state.piles) for code in pile}
        seen: dict[str, int] = {}
        cards: list[Card] = []

        def fail(index: int, message: str, problem: str) -> RuleError:
            return RuleError(message, {"last_trick": {str(index): {"card": [problem]}}})

        for index, (play, seat) in enumerate(zip(plays, seats, strict=True)):
            name = self.name_of(seat)
            try:
                card = parse_card(play.card)
            except RuleError:
                raise fail(
                    index,
                    Message(
                        "{name}'s card {code} is not a card; {hint}.",
                        name=name,
                        code=shown(play.card),
                        hint=CARD_CODE_HINT,
                    ),
                    "Not a card code.",
                ) from None
            if card.is_joker:
                raise fail(
                    index,
                    Message("{name} played a joker, but Twenty Two has no jokers.", name=name),
                    "No jokers.",
                )
            if card.code in seen:
                raise fail(
                    index,
                    Message(
                        "{code} was played twice, by {first} and {second}; "
                        "a deck has one of each card.",
                        code=card.code,
                        first=self.name_of(seen[card.code]),
                        second=name,
                    ),
                    "Already in this trick.",
                )
            if card.code in kept:
                owner = self.name_of(kept[card.code])
                raise fail(
                    index,
                    Message(
                        "{code} is in {owner}'s score pile, so {name} cannot have played it.",
                        code=card.code,
                        owner=owner,
                        name=name,
                    ),
                    f"Kept by {owner}.",
                )
            seen[card.code] = seat
            cards.append(card)
        return cards
