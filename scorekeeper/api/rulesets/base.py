"""What every ruleset's schemas share, and what a ruleset's schema module must provide."""

from __future__ import annotations

from dataclasses import dataclass

from marshmallow import Schema, fields

from ..fields import Boolean, Dict, Integer, List, Nested, String


@dataclass(frozen=True)
class RulesetSchemas:
    """A ruleset's schemas: its round entry, the entry as posted, and the scored round.

    ``component`` names them in the OpenAPI document: ``{component}Entry``,
    ``{component}RoundPost`` and ``{component}Round``.
    """

    component: str
    entry: Schema
    round_post: Schema
    round: Schema

    def components(self) -> dict[str, Schema]:
        """The schemas by their names in the OpenAPI document."""
        return {
            f"{self.component}Round": self.round,
            f"{self.component}Entry": self.entry,
            f"{self.component}RoundPost": self.round_post,
        }

    @property
    def entry_fields(self) -> frozenset[str]:
        """The fields an entry of this ruleset has."""
        return frozenset(self.entry.fields)


class NextRoundSchema(Schema):
    """Who deals and starts the coming round."""

    number = Integer(required=True)
    dealer = Integer(required=True)
    starter = Integer(required=True)
    cards_each = Integer(metadata={"description": "Twenty Two: cards the dealer deals to each."})
    pack = Integer(metadata={"description": "Twenty Two: cards in the pack."})


class StandingSchema(Schema):
    """The game's status, next round and winners as they stood after a round."""

    status = String(required=True)
    next_round = Nested(NextRoundSchema, required=True, allow_none=True)
    winners = List(Integer(), required=True)


class PostedRoundSchema(Schema):
    """What a round to record adds to its entry: the round number the phone expects."""

    number = Integer(metadata={"description": "Must be the next round's number, else 409."})


class PlayerResultSchema(Schema):
    """What every player's part in a round has."""

    player = Integer(required=True)
    points = Integer(required=True)
    score_before = Integer(required=True)
    score_after = Integer(required=True)
    halved = Boolean(required=True)
    eliminated = Boolean(required=True)


class RoundBaseSchema(Schema):
    """What every round has."""

    number = Integer(required=True)
    dealer = Integer(required=True)
    starter = Integer(required=True)
    game = Nested(StandingSchema, required=True)
    created_at = fields.DateTime(metadata={"description": "Absent on a dry run."})
    dry_run = Boolean(metadata={"description": "Present and true on a dry run."})
    rescored = Dict(
        metadata={
            "description": "Dry run of a correction: how many rounds would be scored again "
            "(`rounds`, the corrected one included), the later rounds whose results would "
            "change (`changed`, their numbers) and the Game as it would then stand (`game`)."
        }
    )
