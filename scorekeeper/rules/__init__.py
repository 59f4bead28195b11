"""The pure rules engine: no Flask, no database, no I/O."""

from __future__ import annotations

from .base import GameState, NextRound, OptionSpec, Player, RoundOutcome, Ruleset, Standing
from .cards import Card, parse_card
from .errors import InvalidOptions, RoundConflict, RuleError, UnknownRuleset
from .jhyap import Hand, Jhyap, JhyapEntry
from .registry import RULESETS, get_ruleset
from .twenty_two import Play, TwentyTwo, TwentyTwoEntry, TwentyTwoState

__all__ = [
    "RULESETS",
    "Card",
    "GameState",
    "Hand",
    "InvalidOptions",
    "Jhyap",
    "JhyapEntry",
    "NextRound",
    "OptionSpec",
    "Play",
    "Player",
    "RoundConflict",
    "RoundOutcome",
    "RuleError",
    "Ruleset",
    "Standing",
    "TwentyTwo",
    "TwentyTwoEntry",
    "TwentyTwoState",
    "UnknownRuleset",
    "get_ruleset",
    "parse_card",
]
