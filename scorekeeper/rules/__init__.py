"""The pure rules engine: no Flask, no database, no I/O."""

from __future__ import annotations

from .base import (
    GameState,
    NextRound,
    OptionSpec,
    Player,
    PlayerResult,
    RoundOutcome,
    RoundResult,
    Ruleset,
    SeatChangeOutcome,
    SeatChangeResult,
    Standing,
)
from .cards import Card, parse_card
from .errors import InvalidOptions, RoundConflict, RuleError, UnknownRuleset
from .jhyap import Hand, Jhyap, JhyapEntry, JhyapPlayerResult, JhyapRoundResult
from .registry import RULESETS, get_ruleset
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
    "Card",
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
