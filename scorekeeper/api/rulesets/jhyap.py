"""Jhyap's request and response schemas."""

from __future__ import annotations

from marshmallow import Schema, validate

from ..fields import Boolean, Integer, List, Nested, RequestSchema, String
from .base import RoundBaseSchema, RulesetSchemas


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


class JhyapRoundPostSchema(JhyapEntrySchema):
    """A Jhyap round to record, with the round number the phone expects."""

    number = Integer(metadata={"description": "Must be the next round's number, else 409."})


class JhyapResultSchema(Schema):
    """One player's part in a Jhyap round."""

    player = Integer(required=True)
    hand = Integer(required=True)
    cards = List(String(), required=True, allow_none=True)
    points = Integer(required=True)
    score_before = Integer(required=True)
    score_after = Integer(required=True)
    halved = Boolean(required=True)
    eliminated = Boolean(required=True)


class JhyapRoundSchema(RoundBaseSchema):
    """A scored Jhyap round."""

    caller = Integer(required=True)
    caller_succeeded = Boolean(required=True)
    results = List(Nested(JhyapResultSchema), required=True)


SCHEMAS = RulesetSchemas("Jhyap", JhyapEntrySchema(), JhyapRoundPostSchema(), JhyapRoundSchema())
