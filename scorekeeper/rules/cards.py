"""Playing-card codes: parsing, canonical form and point values."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .errors import RuleError
from .words import Message, shown

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"

_SUIT_ALIASES = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_RANK_ALIASES = {rank: rank for rank in RANKS} | {"T": "10"}
_JOKER_ALIASES = {"JK", "X", "JOKER"}
CARD_CODE_HINT = Message("write the rank then the suit, like 10H, QS or JK for a joker")


@dataclass(frozen=True, order=True)
class Card:
    """One card: a rank and a suit, or a joker (rank and suit both ``None``)."""

    rank: str | None
    suit: str | None

    @property
    def is_joker(self) -> bool:
        """Whether this card is a joker."""
        return self.rank is None

    @property
    def code(self) -> str:
        """The canonical code: rank then suit, upper case (``10H``, ``QS``, ``JK``)."""
        return JOKER if self.rank is None else f"{self.rank}{self.suit}"

    @property
    def rank_order(self) -> int:
        """Position of the rank from 2 (0) up to ace (12); jokers have none."""
        if self.rank is None:
            raise ValueError("a joker has no rank order")
        return RANKS.index(self.rank)

    def __str__(self) -> str:
        return self.code


def face_value(card: Card, ace: int) -> int:
    """Points of a ranked card: pips at face value, J/Q/K 10, an ace ``ace``."""
    if card.rank == "A":
        return ace
    if card.rank in ("J", "Q", "K"):
        return 10
    return int(card.rank)  # type: ignore[arg-type]


def parse_card(code: str) -> Card:
    """Parse a card code such as ``10h``, ``TS``, ``Q♠`` or ``JK``."""
    if isinstance(code, str):
        return _parse_card_text(code)
    raise _not_a_card(code)


@lru_cache(maxsize=1024)  # a round names up to 100 cards, nearly always the same few codes
def _parse_card_text(code: str) -> Card:
    """``parse_card`` of a string."""
    text = code.strip().upper()
    if text in _JOKER_ALIASES:
        return Card(None, None)
    if len(text) >= 2:
        rank = _RANK_ALIASES.get(text[:-1])
        suit = _SUIT_ALIASES.get(text[-1])
        if rank is not None and suit is not None:
            return Card(rank, suit)
    raise _not_a_card(code)


def _not_a_card(code: object) -> RuleError:
    """The error for a code that names no card."""
    return RuleError(
        Message("{code} is not a card; {hint}.", code=shown(code), hint=CARD_CODE_HINT)
    )
