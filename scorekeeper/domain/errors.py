"""Errors the domain raises, named after what went wrong; ``scorekeeper.errors`` answers them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class DomainError(Exception):
    """Something a request asked for that the game does not allow: one sentence for a person."""

    def __init__(self, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = dict(details or {})


class GameNotFound(DomainError):
    """No game has this id."""


class RoundNotFound(DomainError):
    """The game has no round with this number."""


class WrongToken(DomainError):
    """The token presented is not this game's."""


class RoundTaken(DomainError):
    """The round number the phone sent was recorded by another phone first."""


class GameOver(DomainError):
    """A round recorded after the game finished."""


class NotTheLastRound(DomainError):
    """An undo of a round that is not the last one."""


class RecordingInProgress(DomainError):
    """Another request is recording this game's round at this moment: worth a retry."""


class KeyReused(DomainError):
    """An Idempotency-Key already used for a different round."""


class InvalidChange(DomainError):
    """A change to a game (a rename) that the game does not allow."""


class InvalidImport(DomainError):
    """An export that is not one, or that does not replay to what it says."""


class TableNotFound(DomainError):
    """No table has this id."""


class InvalidSeating(DomainError):
    """Players for a game at a table that the table's roster cannot seat."""


class PlayedAtOutOfRange(DomainError):
    """A ``played_at`` before the item before it, or too far ahead of the server's clock."""


class GameFull(DomainError):
    """A round or seat change past the longest history a game keeps."""


class NotARound(DomainError):
    """A correction of a history item that is a seat change."""


class IdTaken(DomainError):
    """A new game's or table's chosen id that a game or table already has."""


class CreatedAtOutOfRange(DomainError):
    """A chosen ``created_at`` too far ahead of the server's clock, or too long ago."""
