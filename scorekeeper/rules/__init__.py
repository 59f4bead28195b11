"""The pure rules engine: no Flask, no database, no I/O."""

from __future__ import annotations

from .base import Ruleset
from .cards import Card, parse_card
from .errors import CannotEnd, InvalidOptions, RoundConflict, RuleError, UnknownRuleset
from .jhyap import Hand, Jhyap, JhyapEntry, JhyapPlayerResult, JhyapRoundResult
from .options import OptionSpec
from .registry import RULESETS, get_ruleset
from .state import (
    EndOutcome,
    EndResult,
    GameState,
    NextRound,
    Player,
    PlayerResult,
    RoundOutcome,
    RoundResult,
    SeatChangeOutcome,
    SeatChangeResult,
    Standing,
)
from .twenty_two import (
    Play,
    TwentyTwo,
    TwentyTwoEntry,
    TwentyTwoPlayerResult,
    TwentyTwoRoundResult,
    TwentyTwoState,
)

__all__ = [
    "RULESETS",
    "CannotEnd",
    "Card",
    "EndOutcome",
    "EndResult",
    "GameState",
    "Hand",
    "InvalidOptions",
    "Jhyap",
    "JhyapEntry",
    "JhyapPlayerResult",
    "JhyapRoundResult",
    "NextRound",
    "OptionSpec",
    "Play",
    "Player",
    "PlayerResult",
    "RoundConflict",
    "RoundOutcome",
    "RoundResult",
    "RuleError",
    "Ruleset",
    "SeatChangeOutcome",
    "SeatChangeResult",
    "Standing",
    "TwentyTwo",
    "TwentyTwoEntry",
    "TwentyTwoPlayerResult",
    "TwentyTwoRoundResult",
    "TwentyTwoState",
    "UnknownRuleset",
    "get_ruleset",
    "parse_card",
]
