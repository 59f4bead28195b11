"""Request and response schemas; the responses' schemas document what ``serializers`` builds."""

from __future__ import annotations

from typing import Any

from marshmallow import (
    EXCLUDE,
    INCLUDE,
    Schema,
    ValidationError,
    fields,
    validate,
    validates_schema,
)

from ..rules import RULESETS

NAME_LENGTH = 40
GAME_NAME_LENGTH = 80


def Integer(**kwargs: Any) -> fields.Integer:  # capitalised: it reads like a field class
    """A JSON integer: numbers in strings, floats and booleans are refused."""
    return fields.Integer(strict=True, **kwargs)


class TrimmedString(fields.String):
    """A string with surrounding white space removed, between ``min_length`` and ``max_length``."""

    def __init__(self, *, min_length: int = 0, max_length: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.min_length = min_length
        self.max_length = max_length

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs).strip()
        if not self.min_length <= len(text) <= self.max_length:
            low = "1" if self.min_length else "0"
            raise ValidationError(f"Give {low} to {self.max_length} characters.")
        if not text.isprintable():
            raise ValidationError("Use printable characters only.")
        return text


def _check_unique_names(names: list[str]) -> None:
    """Names must differ ignoring case."""
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise ValidationError(f"Two players are called {name!r}; give each a different name.")
        seen.add(name.casefold())


# Requests


class GameCreateSchema(Schema):
    """``POST /games``."""

    ruleset = fields.String(required=True, validate=validate.OneOf(list(RULESETS)))
    name = TrimmedString(max_length=GAME_NAME_LENGTH, load_default="")
    players = fields.List(
        TrimmedString(min_length=1, max_length=NAME_LENGTH),
        required=True,
        validate=validate.Length(min=1, max=20),
        metadata={"description": "Names in clockwise seating order."},
    )
    dealer = Integer(
        allow_none=True,
        load_default=None,
        metadata={"description": "Seat of round 1's dealer; random if absent."},
    )
    starter = Integer(
        allow_none=True,
        load_default=None,
        metadata={"description": "Seat of round 1's starter (Jhyap only); random if absent."},
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)

    @validates_schema
    def _unique_names(self, data: dict[str, Any], **kwargs: Any) -> None:
        try:
            _check_unique_names(data.get("players", []))
        except ValidationError as error:
            raise ValidationError(error.messages, "players") from None


class PlayerRenameSchema(Schema):
    """One player's new name."""

    id = Integer(required=True)
    name = TrimmedString(min_length=1, max_length=NAME_LENGTH, required=True)


class GamePatchSchema(Schema):
    """``PATCH /games/{id}``: rename the game or players."""

    name = TrimmedString(max_length=GAME_NAME_LENGTH)
    players = fields.List(fields.Nested(PlayerRenameSchema), validate=validate.Length(max=20))


class JhyapHandSchema(Schema):
    """One hand: its total, or its cards."""

    player = Integer(required=True)
    total = Integer(metadata={"description": "Hand total, 0 to 50."})
    cards = fields.List(
        fields.String(validate=validate.Length(max=8)),
        validate=validate.Length(max=10),
        metadata={"description": "1 to 5 card codes, such as KH, 10S, JK."},
    )


class JhyapEntrySchema(Schema):
    """A Jhyap round: the caller and every active player's hand."""

    caller = Integer(required=True)
    hands = fields.List(
        fields.Nested(JhyapHandSchema), required=True, validate=validate.Length(max=20)
    )


class JhyapRoundPostSchema(JhyapEntrySchema):
    """A Jhyap round to record, with the round number the phone expects."""

    number = Integer(metadata={"description": "Must be the next round's number, else 409."})


class TwentyTwoPlaySchema(Schema):
    """One card of the final trick."""

    player = Integer(required=True)
    card = fields.String(required=True, validate=validate.Length(max=8))


class TwentyTwoEntrySchema(Schema):
    """A Twenty Two round: the final trick in the order played."""

    last_trick = fields.List(
        fields.Nested(TwentyTwoPlaySchema), required=True, validate=validate.Length(max=20)
    )


class TwentyTwoRoundPostSchema(TwentyTwoEntrySchema):
    """A Twenty Two round to record, with the round number the phone expects."""

    number = Integer(metadata={"description": "Must be the next round's number, else 409."})


entry_schemas: dict[str, Schema] = {
    "jhyap": JhyapEntrySchema(),
    "twenty-two": TwentyTwoEntrySchema(),
}
round_post_schemas: dict[str, Schema] = {
    "jhyap": JhyapRoundPostSchema(),
    "twenty-two": TwentyTwoRoundPostSchema(),
}


class DryRunQuerySchema(Schema):
    """Query of ``POST .../rounds`` and ``PUT .../rounds/{number}``, ignoring other parameters."""

    class Meta:
        unknown = EXCLUDE

    dry_run = fields.Boolean(
        load_default=False,
        metadata={
            "description": "Validate and score the round without recording it (answers 200)."
        },
    )


# Responses


class NextRoundSchema(Schema):
    """Who deals and starts the coming round."""

    number = Integer(required=True)
    dealer = Integer(required=True)
    starter = Integer(required=True)
    cards_each = Integer(metadata={"description": "Twenty Two: cards the dealer deals to each."})
    pack = Integer(metadata={"description": "Twenty Two: cards in the pack."})


class PlayerSchema(Schema):
    """A player and their standing."""

    id = Integer(required=True)
    name = fields.String(required=True)
    seat = Integer(required=True)
    score = Integer(required=True)
    eliminated = fields.Boolean(required=True)
    eliminated_in_round = Integer(required=True, allow_none=True)
    pile = fields.List(fields.String(), metadata={"description": "Twenty Two: cards kept."})


class GameSchema(Schema):
    """The Game."""

    id = fields.String(required=True)
    ruleset = fields.String(required=True, validate=validate.OneOf(list(RULESETS)))
    name = fields.String(required=True)
    options = fields.Dict(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["in_progress", "finished"]))
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    rounds_played = Integer(required=True)
    next_round = fields.Nested(NextRoundSchema, required=True, allow_none=True)
    winners = fields.List(Integer(), required=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class CreatedGameSchema(GameSchema):
    """The Game just created, with its write token (shown only once)."""

    token = fields.String(required=True)


class StandingSchema(Schema):
    """The game's status, next round and winners as they stood after a round."""

    status = fields.String(required=True)
    next_round = fields.Nested(NextRoundSchema, required=True, allow_none=True)
    winners = fields.List(Integer(), required=True)


class JhyapResultSchema(Schema):
    """One player's part in a Jhyap round."""

    player = Integer(required=True)
    hand = Integer(required=True)
    cards = fields.List(fields.String(), required=True, allow_none=True)
    points = Integer(required=True)
    score_before = Integer(required=True)
    score_after = Integer(required=True)
    halved = fields.Boolean(required=True)
    eliminated = fields.Boolean(required=True)


class RoundBaseSchema(Schema):
    """What every round has."""

    number = Integer(required=True)
    dealer = Integer(required=True)
    starter = Integer(required=True)
    game = fields.Nested(StandingSchema, required=True)
    created_at = fields.DateTime(metadata={"description": "Absent on a dry run."})
    dry_run = fields.Boolean(metadata={"description": "Present and true on a dry run."})
    rescored = fields.Dict(
        metadata={
            "description": "Dry run of a correction: how many rounds would be scored again "
            "(`rounds`) and the Game as it would then stand (`game`)."
        }
    )


class JhyapRoundSchema(RoundBaseSchema):
    """A scored Jhyap round."""

    caller = Integer(required=True)
    caller_succeeded = fields.Boolean(required=True)
    results = fields.List(fields.Nested(JhyapResultSchema), required=True)


class TwentyTwoResultSchema(Schema):
    """One player's part in a Twenty Two round."""

    player = Integer(required=True)
    card = fields.String(required=True)
    points = Integer(required=True)
    score_before = Integer(required=True)
    score_after = Integer(required=True)
    halved = fields.Boolean(required=True)
    eliminated = fields.Boolean(required=True)


class TwentyTwoRoundSchema(RoundBaseSchema):
    """A scored Twenty Two round."""

    takers = fields.List(Integer(), required=True)
    cards_each = Integer(required=True)
    results = fields.List(fields.Nested(TwentyTwoResultSchema), required=True)


ROUND_SCHEMA_NAMES = {"jhyap": "JhyapRound", "twenty-two": "TwentyTwoRound"}
ENTRY_SCHEMA_NAMES = {"jhyap": "JhyapEntry", "twenty-two": "TwentyTwoEntry"}
ROUND_POST_SCHEMA_NAMES = {"jhyap": "JhyapRoundPost", "twenty-two": "TwentyTwoRoundPost"}


def one_of(names: dict[str, str]) -> dict[str, Any]:
    """A ``oneOf`` over component schemas, one per ruleset."""
    return {"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in names.values()]}


class ExportedRoundSchema(Schema):
    """One round of an export: the accepted entry and the scored round."""

    class Meta:
        unknown = EXCLUDE

    number = Integer(required=True)
    entry = fields.Dict(required=True)
    round = fields.Dict(required=True)


class SetupSchema(Schema):
    """Seats of round 1's dealer and starter."""

    dealer = Integer(required=True)
    starter = Integer(required=True)


class ExportedPlayerSchema(Schema):
    """A player as exported."""

    class Meta:
        unknown = INCLUDE

    id = Integer(required=True)
    name = fields.String(required=True)
    seat = Integer(required=True)


class ExportedGameSchema(Schema):
    """The Game as exported, with its setup."""

    class Meta:
        unknown = INCLUDE

    ruleset = fields.String(required=True, validate=validate.OneOf(list(RULESETS)))
    name = fields.String(required=True)
    options = fields.Dict(required=True)
    players = fields.List(fields.Nested(ExportedPlayerSchema), required=True)
    setup = fields.Nested(SetupSchema, required=True)


class ExportSchema(Schema):
    """A whole game that replays exactly."""

    class Meta:
        unknown = EXCLUDE

    format = fields.String(required=True, validate=validate.Equal("scorekeeper.game"))
    version = Integer(required=True, validate=validate.Equal(1))
    exported_at = fields.String()
    game = fields.Nested(ExportedGameSchema, required=True)
    rounds = fields.List(fields.Nested(ExportedRoundSchema), required=True)


class RulesetsSchema(Schema):
    """Every ruleset with its player limits and options."""

    rulesets = fields.List(fields.Dict(), required=True)


class HealthSchema(Schema):
    """The service and its database answer."""

    status = fields.String(required=True)


class ErrorDetailSchema(Schema):
    """What went wrong."""

    status = Integer(required=True)
    code = fields.String(required=True)
    message = fields.String(required=True, metadata={"description": "One sentence for a person."})
    details = fields.Dict(metadata={"description": "Field-by-field problems."})


class ErrorSchema(Schema):
    """The one error body."""

    error = fields.Nested(ErrorDetailSchema, required=True)


game_create_schema = GameCreateSchema()
dry_run_query_schema = DryRunQuerySchema()
game_patch_schema = GamePatchSchema()
export_schema = ExportSchema()
