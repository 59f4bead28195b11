"""Jhyap's request and response schemas."""

from __future__ import annotations

from marshmallow import validate

from ..fields import Boolean, Integer, List, Nested, RequestSchema, String
from .base import PlayerResultSchema, PostedRoundSchema, RoundBaseSchema, RulesetSchemas


class JhyapHandSchema(RequestSchema):
    """One hand: its total, or its cards."""

    player = Integer(required=True)
    total = Integer(metadata={"description": "Hand total, 0 to 50."})
    cards = List(
        String(validate=validate.Length(max=8, error="Must be a card code such as 10H or JK.")),
        validate=validate.Length(max=10, error="Must be at most 10 cards."),
        metadata={"description": "1 to 5 card codes, such as KH, 10S, JK."},
    )


class JhyapEntrySchema(RequestSchema):
    """A Jhyap round: the caller and every active player's hand."""

    caller = Integer(required=True)
    hands = List(
        Nested(JhyapHandSchema),
        required=True,
        validate=validate.Length(max=20, error="Must be at most 20 hands."),
    )


class JhyapRoundPostSchema(JhyapEntrySchema, PostedRoundSchema):
    """A Jhyap round to record, with the round number the phone expects."""


class JhyapResultSchema(PlayerResultSchema):
    """One player's part in a Jhyap round."""

    hand = Integer(required=True)
    cards = List(String(), required=True, allow_none=True)


class JhyapRoundSchema(RoundBaseSchema):
    """A scored Jhyap round."""

    caller = Integer(required=True)
    caller_succeeded = Boolean(required=True)
    results = List(Nested(JhyapResultSchema), required=True)


SCHEMAS = RulesetSchemas(
    "jhyap", "Jhyap", JhyapEntrySchema(), JhyapRoundPostSchema(), JhyapRoundSchema()
)
