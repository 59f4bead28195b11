"""Twenty Two's request and response schemas."""

from __future__ import annotations

from marshmallow import validate

from ..fields import Integer, List, Nested, RequestSchema, String
from .base import PlayerResultSchema, PostedRoundSchema, RoundBaseSchema, RulesetSchemas


class TwentyTwoPlaySchema(RequestSchema):
    """One card of the final trick."""

    player = Integer(required=True)
    card = String(
        required=True,
        validate=validate.Length(max=8, error="Must be a card code such as 10H or QS."),
    )


class TwentyTwoEntrySchema(RequestSchema):
    """A Twenty Two round: the final trick in the order played."""

    last_trick = List(
        Nested(TwentyTwoPlaySchema),
        required=True,
        validate=validate.Length(max=20, error="Must be at most 20 cards."),
    )


class TwentyTwoRoundPostSchema(TwentyTwoEntrySchema, PostedRoundSchema):
    """A Twenty Two round to record, with the round number the phone expects."""


class TwentyTwoResultSchema(PlayerResultSchema):
    """One player's part in a Twenty Two round."""

    card = String(required=True)


class TwentyTwoRoundSchema(RoundBaseSchema):
    """A scored Twenty Two round."""

    takers = List(Integer(), required=True)
    cards_each = Integer(required=True)
    results = List(Nested(TwentyTwoResultSchema), required=True)


SCHEMAS = RulesetSchemas(
    "twenty-two",
    "TwentyTwo",
    TwentyTwoEntrySchema(),
    TwentyTwoRoundPostSchema(),
    TwentyTwoRoundSchema(),
    player_fields={"pile": List(String(), metadata={"description": "Twenty Two: cards kept."})},
    next_round_fields={
        "cards_each": Integer(
            metadata={"description": "Twenty Two: cards the dealer deals to each."}
        ),
        "pack": Integer(metadata={"description": "Twenty Two: cards in the pack."}),
    },
)
