"""The score pad's request and response schemas."""

from __future__ import annotations

from marshmallow import validate

from ..fields import Integer, List, Nested, RequestSchema
from .base import PlayerResultSchema, PostedRoundSchema, RoundBaseSchema, RulesetSchemas


class ScorePadHandSchema(RequestSchema):
    """One player's points in a round."""

    player = Integer(required=True)
    points = Integer(required=True, metadata={"description": "-10,000 to 10,000."})


class ScorePadEntrySchema(RequestSchema):
    """A round on the score pad: every active player's points."""

    hands = List(
        Nested(ScorePadHandSchema),
        required=True,
        validate=validate.Length(max=20, error="Must be at most 20 hands."),
    )


class ScorePadRoundPostSchema(ScorePadEntrySchema, PostedRoundSchema):
    """A round on the score pad to record, with the round number the phone expects."""


class ScorePadRoundSchema(RoundBaseSchema):
    """A scored round on the score pad."""

    results = List(Nested(PlayerResultSchema), required=True)


SCHEMAS = RulesetSchemas(
    "score-pad",
    "ScorePad",
    ScorePadEntrySchema(),
    ScorePadRoundPostSchema(),
    ScorePadRoundSchema(),
)
