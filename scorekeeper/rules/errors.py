"""Errors the rules engine raises for input that breaks the rules."""

from __future__ import annotations

from typing import Any


class RuleError(ValueError):
    """A round entry, option or setup that the rules do not allow.

    ``message`` is one sentence a person at the table understands, in English:
    a :class:`~scorekeeper.rules.words.Message` when it has names or numbers in
    it, so that the HTTP edge can say it in the request's language; ``details``
    maps the offending field to its problems (in English), as validation errors do.
    """

    code = "invalid_round"

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class InvalidOptions(RuleError):
    """Game options, players or first seats that a ruleset does not allow."""

    code = "invalid_game"


class UnknownRuleset(InvalidOptions):
    """A ruleset name that is not in the registry."""


class CannotEnd(RuleError):
    """A request to end a game by hand that its rules do not allow now."""

    code = "invalid_request"


class RoundConflict(RuleError):
    """A stored round that no longer fits the game after an earlier change."""

    code = "conflict"
