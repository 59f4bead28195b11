"""Jhyap (Dhumbai / Dhumbal): call low, or pay the penalty."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from .base import Ruleset
from .cards import CARD_CODE_HINT, Card, face_value, parse_card
from .errors import RuleError
from .options import OptionSpec
from .scoring import check_one_per_active, outcome, state_after
from .state import GameState, PlayerResult, RoundOutcome, RoundResult, is_integer
from .words import Message, count_of, shown

MAX_HAND_CARDS = 5
MAX_HAND_TOTAL = 50


def card_value(card: Card) -> int:
    """Jhyap value of a card: joker 0, ace 1, pips at face value, J/Q/K 10."""
    return 0 if card.is_joker else face_value(card, ace=1)


@dataclass(frozen=True)
class Hand:
    """One player's hand at the call: its total, or the cards it held."""

    player: int
    total: int | None = None
    cards: tuple[str, ...] | None = None


@dataclass(frozen=True)
class JhyapEntry:
    """What the table enters after a Jhyap round."""

    caller: int
    hands: tuple[Hand, ...]


@dataclass(frozen=True)
class JhyapPlayerResult(PlayerResult):
    """A player's line in a Jhyap round, with the hand they held."""

    hand: int
    """The hand's total."""
    cards: tuple[str, ...] | None
    """The hand's cards (canonical codes) when entered as cards, else ``None``."""


@dataclass(frozen=True)
class JhyapRoundResult(RoundResult):
    """A scored Jhyap round: who called, and whether the call succeeded."""

    results: tuple[JhyapPlayerResult, ...]
    caller: int
    """The caller's player id."""
    caller_succeeded: bool


class Jhyap(Ruleset[JhyapEntry, GameState]):
    """Jhyap as ``rules.md`` decides it."""

    name = "jhyap"
    title = "Jhyap"
    min_players = 2
    max_players = 5
    chooses_starter = True
    state_class = GameState
    id_fields = frozenset({"caller"})
    field_words = MappingProxyType(
        {"caller": "the caller", "hands": "the hands", "total": "the total", "cards": "the cards"}
    )
    item_words = MappingProxyType({"hands": "hand {n}", "cards": "card {n}"})
    descriptor = MappingProxyType(
        {
            "entry": {"kind": "caller_and_totals", "max_total": MAX_HAND_TOTAL, "max_cards": 5},
            "results": {"column": "hand"},
            "summary": "call",
            "starter": "starts",
            "next_round": [],
            "player": [],
            "limit": "elimination_limit",
            "figures": [
                {"name": "rounds_played", "words": "fig_rounds"},
                {"name": "calls_won", "words": "fig_calls", "of": "calls"},
                {"name": "caught", "words": "fig_caught"},
                {"name": "halvings", "words": "fig_halvings"},
                {"name": "average_hand", "words": "fig_average"},
                {"name": "eliminations", "words": "fig_out"},
            ],
        }
    )
    tally_names = ("rounds_played", "calls", "calls_won", "halvings", "hand_total")
    option_specs = (
        OptionSpec("call_limit", "Highest hand total that may call Jhyap.", 5, "integer", 0, 50),
        OptionSpec(
            "caller_penalty", "Points added to a caller who is beaten.", 30, "integer", 0, 1000
        ),
        OptionSpec(
            "caller_tie",
            "Who wins a tie between the caller and the lowest other hand.",
            "caller_wins",
            "choice",
            choices=("caller_wins", "caller_loses"),
        ),
        OptionSpec(
            "elimination_limit", "A running total above this eliminates.", 200, "integer", 1, 10000
        ),
        OptionSpec(
            "halve_at",
            "Running totals that are halved when reached exactly; none above "
            "elimination_limit (by default those above it are left out).",
            [100, 200],
            "even_integers",
            minimum=2,
            max_items=10,
            capped_by="elimination_limit",
        ),
        OptionSpec(
            "decks",
            "Decks shuffled together (52 cards and 2 jokers each).",
            1,
            "integer",
            1,
            2,
            default_for=lambda players: 2 if players > 4 else 1,
        ),
        OptionSpec(
            "next_starter",
            "Who starts the next round: the lowest hand, or the round's winner "
            "(the caller after a successful call, else the lowest hand that beat the caller).",
            "lowest_hand",
            "choice",
            choices=("lowest_hand", "round_winner"),
        ),
    )

    @classmethod
    def standing_figures(cls, tallies: Mapping[str, int], eliminations: int) -> dict[str, Any]:
        """The figures a table argues about: calls, failed calls, halvings, the average hand."""
        rounds = tallies["rounds_played"]
        return {
            "rounds_played": rounds,
            "calls": tallies["calls"],
            "calls_won": tallies["calls_won"],
            "caught": tallies["calls"] - tallies["calls_won"],
            "halvings": tallies["halvings"],
            "eliminations": eliminations,
            "average_hand": round(tallies["hand_total"] / rounds, 2) if rounds else None,
        }

    def parse_entry(self, raw: Mapping[str, Any]) -> JhyapEntry:
        """Build the entry from its JSON form."""
        hands = tuple(
            Hand(
                player=hand["player"],
                total=hand.get("total"),
                cards=tuple(hand["cards"]) if hand.get("cards") is not None else None,
            )
            for hand in raw["hands"]
        )
        return JhyapEntry(caller=raw["caller"], hands=hands)

    def play(self, state: GameState, entry: JhyapEntry) -> RoundOutcome:
        """Score one Jhyap round (rules 3 to 8)."""
        if state.finished:
            raise RuleError("The game is over; no more rounds can be recorded.")
        assert state.dealer is not None and state.starter is not None
        seats = check_one_per_active(self, state, [h.player for h in entry.hands], "hands", "hand")
        totals, cards = self._hand_totals(entry.hands, seats)
        caller = self._check_caller(entry.caller, seats, totals)

        # Rule 4: the call, and each player's round points.
        catchers = self._catchers(totals, caller)
        caller_succeeded = not catchers
        points = dict(totals)
        points[caller] = 0 if caller_succeeded else self.options["caller_penalty"] + totals[caller]

        # Rules 5 and 6: running totals, halving (once), elimination.
        scores = list(state.scores)
        halved: set[int] = set()
        for seat in seats:
            scores[seat] += points[seat]
            if scores[seat] in self.options["halve_at"]:
                scores[seat] //= 2
                halved.add(seat)
        eliminated = [s for s in seats if scores[s] > self.options["elimination_limit"]]
        dealer = state.dealer

        def next_turns(after: GameState) -> GameState:
            next_dealer, next_starter = self._next_turns(after, dealer, totals, caller, catchers)
            return replace(after, dealer=next_dealer, starter=next_starter)

        # Tallies, in tally_names order: a round played, the call and its outcome, halvings, hand.
        tallies = {
            seat: (
                1,
                int(seat == caller),
                int(seat == caller and caller_succeeded),
                int(seat in halved),
                totals[seat],
            )
            for seat in seats
        }
        new_state = state_after(self, state, seats, scores, eliminated, next_turns, tallies)
        return outcome(
            self,
            JhyapRoundResult,
            state,
            new_state,
            seats,
            points,
            row=lambda seat, **shared: JhyapPlayerResult(
                hand=totals[seat], cards=cards.get(seat), **shared
            ),
            halved=halved,
            caller=self.players[caller].id,
            caller_succeeded=caller_succeeded,
        )

    def _hand_totals(
        self, hands: Sequence[Hand], seats: Sequence[int]
    ) -> tuple[dict[int, int], dict[int, tuple[str, ...]]]:
        """Each seat's hand total, and the canonical cards of hands entered as cards."""
        totals: dict[int, int] = {}
        cards: dict[int, tuple[str, ...]] = {}
        deck_use: Counter[str] = Counter()

        def fail(index: int, message: str, problem: str, field_name: str = "total") -> RuleError:
            return RuleError(message, {"hands": {str(index): {field_name: [problem]}}})

        for index, (hand, seat) in enumerate(zip(hands, seats, strict=True)):
            name = self.name_of(seat)
            if (hand.total is None) == (hand.cards is None):
                raise fail(
                    index,
                    Message(
                        "Give {name}'s hand as a total or as cards, not both or neither.", name=name
                    ),
                    "Give total or cards.",
                )
            if hand.total is not None:
                if not is_integer(hand.total) or not 0 <= hand.total <= MAX_HAND_TOTAL:
                    raise fail(
                        index,
                        Message(
                            "{name}'s hand total must be a whole number from 0 to {max}.",
                            name=name,
                            max=MAX_HAND_TOTAL,
                        ),
                        f"Must be from 0 to {MAX_HAND_TOTAL}.",
                    )
                totals[seat] = hand.total
                continue
            assert hand.cards is not None
            if not 1 <= len(hand.cards) <= MAX_HAND_CARDS:
                raise fail(
                    index,
                    Message(
                        "A hand holds 1 to {max} cards, but {name}'s has {cards}.",
                        max=MAX_HAND_CARDS,
                        name=name,
                        cards=count_of(len(hand.cards), "card"),
                    ),
                    f"Give 1 to {MAX_HAND_CARDS} cards.",
                    "cards",
                )
            parsed = []
            for code in hand.cards:
                try:
                    parsed.append(parse_card(code))
                except RuleError:
                    raise fail(
                        index,
                        Message(
                            "{name}'s card {code} is not a card; {hint}.",
                            name=name,
                            code=shown(code),
                            hint=CARD_CODE_HINT,
                        ),
                        "Not a card code.",
                        "cards",
                    ) from None
            totals[seat] = sum(card_value(card) for card in parsed)
            cards[seat] = tuple(card.code for card in parsed)
            deck_use.update(cards[seat])
        self._check_deck(deck_use)
        return totals, cards

    def _check_deck(self, deck_use: Counter[str]) -> None:
        """Check the round's cards fit the deck (each card ``decks`` times, jokers twice that)."""
        decks = self.options["decks"]
        for code, count in sorted(deck_use.items()):
            allowed = 2 * decks if code == "JK" else decks
            if count > allowed:
                what = "jokers" if code == "JK" else f"copies of {code}"
                deck_words = "one deck holds" if decks == 1 else f"{decks} decks hold"
                held = "one deck holds" if decks == 1 else "{decks} decks hold"
                had = "{count} jokers" if code == "JK" else "{count} copies of {code}"
                raise RuleError(
                    Message(
                        f"The round has {had}, but {held} only {{allowed}}.",
                        count=count,
                        code=code,
                        decks=decks,
                        allowed=allowed,
                    ),
                    {"hands": [f"Too many {what} for {deck_words.rsplit(' ', 1)[0]}."]},
                )

    def _check_caller(self, caller_id: int, seats: Sequence[int], totals: Mapping[int, int]) -> int:
        """Rule 3: the caller is a player in the round, within the call limit."""
        caller = self.seat_of(caller_id)
        if caller is None or caller not in seats:
            raise RuleError(
                Message("The caller must be one of the players in this round."),
                {"caller": ["Not a player in this round."]},
            )
        limit = self.options["call_limit"]
        if totals[caller] > limit:
            raise RuleError(
                Message(
                    "{name} called Jhyap with {points}; the call limit is {limit}.",
                    name=self.name_of(caller),
                    points=count_of(totals[caller], "point"),
                    limit=limit,
                ),
                {"caller": [f"Over the call limit of {limit}."]},
            )
        return caller

    def _catchers(self, totals: Mapping[int, int], caller: int) -> list[int]:
        """Rule 4: the seats whose hand beats the caller's (a tie only under caller_loses)."""
        ties_lose = self.options["caller_tie"] == "caller_loses"
        return [
            seat
            for seat, total in totals.items()
            if seat != caller
            and (total < totals[caller] or (ties_lose and total == totals[caller]))
        ]

    def _next_turns(
        self,
        state: GameState,
        dealer: int,
        totals: Mapping[int, int],
        caller: int,
        catchers: Sequence[int],
    ) -> tuple[int, int]:
        """Rules 1 and 7: the next dealer and starter (seats); ``state`` is after eliminations."""
        next_dealer = self.next_active_seat(state, dealer)
        if self.options["next_starter"] == "round_winner":
            return next_dealer, self._round_winner(state, totals, caller, catchers)
        contenders = [seat for seat in totals if state.is_active(seat)]
        lowest = min(totals[seat] for seat in contenders)
        next_starter = next(
            seat
            for seat in self.clockwise_from((dealer + 1) % len(self.players))
            if seat in contenders and totals[seat] == lowest
        )
        return next_dealer, next_starter

    def _round_winner(
        self, state: GameState, totals: Mapping[int, int], caller: int, catchers: Sequence[int]
    ) -> int:
        """Rule 7 under ``round_winner``: the caller, or the catcher with the lowest hand."""
        # A successful caller scored 0, so is still active (halving only lowers a total).
        winner = caller
        if catchers:
            lowest = min(totals[seat] for seat in catchers)
            # Equal lowest catchers: the first of them clockwise from the caller's left.
            winner = next(
                seat
                for seat in self.clockwise_from((caller + 1) % len(self.players))
                if seat in catchers and totals[seat] == lowest
            )
        if state.is_active(winner):
            return winner
        # That catcher went out in this round: the next active seat after the caller.
        return self.next_active_seat(state, caller)
