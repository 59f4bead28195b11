"""Hearts' request and response schemas."""

from __future__ import annotations

from marshmallow import validate

from ..fields import Integer, List, Nested, RequestSchema, String
from .base import PlayerResultSchema, PostedRoundSchema, RoundBaseSchema, RulesetSchemas


class HeartsHandSchema(RequestSchema):
    """One player's take in a hand: penalty points, or hearts."""

    player = Integer(required=True)
    points = Integer(metadata={"description": "Penalty points taken, 0 to 26 (26: the moon)."})
    hearts = Integer(metadata={"description": "Hearts taken, 0 to 13 (with queen)."})


class HeartsEntrySchema(RequestSchema):
    """A hand of Hearts: every active player's take; with hearts, who took the queen of spades."""

    hands = List(
        Nested(HeartsHandSchema),
        required=True,
        validate=validate.Length(max=20, error="Must be at most 20 hands."),
    )
    queen = Integer(
        metadata={"description": "With hearts: the id of the player who took the queen of spades."}
    )


class HeartsRoundPostSchema(HeartsEntrySchema, PostedRoundSchema):
    """A hand of Hearts to record, with the round number the phone expects."""


class HeartsResultSchema(PlayerResultSchema):
    """One player's part in a hand of Hearts."""

    taken = Integer(
        required=True, metadata={"description": "Penalty points taken, before the moon."}
    )


PASS_CHOICES = validate.OneOf(["left", "right", "across", "keep"])


class HeartsRoundSchema(RoundBaseSchema):
    """A scored hand of Hearts."""

    pass_direction = String(
        data_key="pass",
        required=True,
        validate=PASS_CHOICES,
        metadata={"description": "Where the cards passed before the hand (keep: no pass)."},
    )
    results = List(Nested(HeartsResultSchema), required=True)
    moon = Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The id of the player who shot the moon, or null."},
    )


SCHEMAS = RulesetSchemas(
    "hearts",
    "Hearts",
    HeartsEntrySchema(),
    HeartsRoundPostSchema(),
    HeartsRoundSchema(),
    next_round_fields={
        "pass": String(
            validate=PASS_CHOICES,
            metadata={"description": "Hearts: where the cards pass before the hand (keep: none)."},
        )
    },
)
