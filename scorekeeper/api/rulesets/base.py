"""What every ruleset's schemas share, and what a ruleset's schema module must provide."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema, fields

from ..fields import Boolean, Dict, Integer, List, Nested, String, Time


def played_at_field() -> Time:
    """``played_at`` of a round or seat change (api.md, "When a round was played")."""
    return Time(
        metadata={
            "description": "When it was entered on the phone, for one sent after the network "
            "came back: not before the previous item, at most a minute ahead. Absent: when it "
            "arrives.",
        }
    )


@dataclass(frozen=True)
class RulesetSchemas:
    """A ruleset's schemas: its round entry, the entry as posted, and the scored round.

    ``ruleset`` is the name of the ruleset they are for (``rules.RULESETS``);
    ``component`` names them in the OpenAPI document: ``{component}Entry``,
    ``{component}RoundPost`` and ``{component}Round``. ``player_fields`` and
    ``next_round_fields`` document what the ruleset adds to the Game's players
    and to its ``next_round``.
    """

    ruleset: str
    component: str
    entry: Schema
    round_post: Schema
    round: Schema
    player_fields: Mapping[str, Any] = field(default_factory=dict)
    next_round_fields: Mapping[str, Any] = field(default_factory=dict)

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


NEXT_ROUND_FIELDS = {
    "number": Integer(required=True),
    "dealer": Integer(required=True),
    "starter": Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Null where no seat starts by rule (GET /api/v1/rulesets)."},
    ),
}
"""What every ruleset's coming round has; ``rulesets.NextRoundSchema`` adds each ruleset's own."""


def _next_round_schema() -> type[Schema]:
    """The coming round's schema, made once every ruleset's schemas are known."""
    from . import NextRoundSchema

    return NextRoundSchema


class StandingSchema(Schema):
    """The game's status, next round and winners as they stood after a round."""

    status = String(required=True)
    next_round = Nested(lambda: _next_round_schema(), required=True, allow_none=True)
    winners = List(Integer(), required=True)


class PostedRoundSchema(Schema):
    """What a round to record adds to its entry: the round number the phone expects, and when
    the round was played."""

    number = Integer(metadata={"description": "Must be the next round's number, else 409."})
    played_at = played_at_field()


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
    starter = Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Null where no seat starts by rule."},
    )
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
