"""Request and response schemas; the responses' schemas document what ``serializers`` builds."""

from __future__ import annotations

from typing import Any

from marshmallow import (
    EXCLUDE,
    INCLUDE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

from ..domain.games import GameChange, GameSetup
from ..domain.history import ExportedGame, ExportedRound
from ..errors import Invalid, validation_message
from ..names import first_clash
from ..rules import RULESETS
from ..rules.words import in_context
from .fields import Boolean, Dict, Integer, List, Name, Nested, RequestSchema, String

NAME_LENGTH = 40
GAME_NAME_LENGTH = 80


RULESET_CHOICE = validate.OneOf(list(RULESETS), error=f"Must be {' or '.join(RULESETS)}.")


# Requests


class GameCreateSchema(RequestSchema):
    """``POST /games``."""

    ruleset = String(required=True, validate=RULESET_CHOICE)
    name = Name(max_length=GAME_NAME_LENGTH, load_default="")
    players = List(
        Name(min_length=1, max_length=NAME_LENGTH),
        required=True,
        metadata={
            "description": "Names in clockwise seating order; the ruleset says how many "
            "(GET /api/v1/rulesets)."
        },
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
    options = Dict(keys=String(), load_default=dict)

    @post_load
    def _setup(self, data: dict[str, Any], **kwargs: Any) -> GameSetup:
        return GameSetup(**data)

    @validates_schema
    def _unique_names(self, data: dict[str, Any], **kwargs: Any) -> None:
        if (clash := first_clash(data.get("players", []))) is not None:
            raise ValidationError(
                f"Has the name {clash[1]} twice; give each player a different name.", "players"
            )


class PlayerRenameSchema(RequestSchema):
    """One player's new name."""

    id = Integer(required=True)
    name = Name(min_length=1, max_length=NAME_LENGTH, required=True)


class GamePatchSchema(RequestSchema):
    """``PATCH /games/{id}``: rename the game or players."""

    name = Name(max_length=GAME_NAME_LENGTH)
    players = List(Nested(PlayerRenameSchema))

    @post_load
    def _change(self, data: dict[str, Any], **kwargs: Any) -> GameChange:
        names = {change["id"]: change["name"] for change in data.get("players", [])}
        return GameChange(name=data.get("name"), player_names=names)

    @validates_schema
    def _each_player_once(self, data: dict[str, Any], **kwargs: Any) -> None:
        ids = [change["id"] for change in data.get("players", [])]
        if (twice := next((i for i in ids if ids.count(i) > 1), None)) is not None:
            raise ValidationError(
                f"Has player {twice} twice; give each player's new name once.", "players"
            )


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


class TwentyTwoRoundPostSchema(TwentyTwoEntrySchema):
    """A Twenty Two round to record, with the round number the phone expects."""

    number = Integer(metadata={"description": "Must be the next round's number, else 409."})


ENTRY_SCHEMAS: dict[str, type[Schema]] = {
    "jhyap": JhyapEntrySchema,
    "twenty-two": TwentyTwoEntrySchema,
}
ROUND_POST_SCHEMAS: dict[str, type[Schema]] = {
    "jhyap": JhyapRoundPostSchema,
    "twenty-two": TwentyTwoRoundPostSchema,
}
TWENTY_TWO_ONLY = frozenset({"last_trick"})


def ruleset_of_entry(body: Any) -> str:
    """Which ruleset an entry is written for: a final trick alone is Twenty Two's."""
    if (
        isinstance(body, dict)
        and TWENTY_TWO_ONLY & body.keys()
        and not body.keys()
        - {
            "last_trick",
            "number",
        }
    ):
        return "twenty-two"
    return "jhyap"


class EntryBodySchema(Schema):
    """A round's entry, read by its ruleset's schema; the load says which ruleset it is for."""

    by_ruleset = ENTRY_SCHEMAS

    def load(self, data: Any, **kwargs: Any) -> Any:
        ruleset = ruleset_of_entry(data)
        loaded = self.by_ruleset[ruleset]().load(data, **kwargs)
        return {"ruleset": ruleset, "number": loaded.pop("number", None), "entry": loaded}


class RoundPostBodySchema(EntryBodySchema):
    """A round to record: its ruleset's entry, and the round number the phone expects."""

    by_ruleset = ROUND_POST_SCHEMAS


class DryRunQuerySchema(RequestSchema):
    """Query of ``POST .../rounds`` and ``PUT .../rounds/{number}``, ignoring other parameters."""

    class Meta:
        unknown = EXCLUDE

    dry_run = Boolean(
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
    name = String(required=True)
    seat = Integer(required=True)
    score = Integer(required=True)
    eliminated = Boolean(required=True)
    eliminated_in_round = Integer(required=True, allow_none=True)
    pile = List(String(), metadata={"description": "Twenty Two: cards kept."})


class GameSchema(Schema):
    """The Game."""

    id = String(required=True)
    ruleset = String(required=True, validate=RULESET_CHOICE)
    name = String(required=True)
    options = Dict(required=True)
    status = String(required=True, validate=validate.OneOf(["in_progress", "finished"]))
    players = List(Nested(PlayerSchema), required=True)
    rounds_played = Integer(required=True)
    next_round = Nested(NextRoundSchema, required=True, allow_none=True)
    winners = List(Integer(), required=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class CreatedGameSchema(GameSchema):
    """The Game just created, with its write token (shown only once)."""

    token = String(required=True)


class StandingSchema(Schema):
    """The game's status, next round and winners as they stood after a round."""

    status = String(required=True)
    next_round = Nested(NextRoundSchema, required=True, allow_none=True)
    winners = List(Integer(), required=True)


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


class JhyapRoundSchema(RoundBaseSchema):
    """A scored Jhyap round."""

    caller = Integer(required=True)
    caller_succeeded = Boolean(required=True)
    results = List(Nested(JhyapResultSchema), required=True)


class TwentyTwoResultSchema(Schema):
    """One player's part in a Twenty Two round."""

    player = Integer(required=True)
    card = String(required=True)
    points = Integer(required=True)
    score_before = Integer(required=True)
    score_after = Integer(required=True)
    halved = Boolean(required=True)
    eliminated = Boolean(required=True)


class TwentyTwoRoundSchema(RoundBaseSchema):
    """A scored Twenty Two round."""

    takers = List(Integer(), required=True)
    cards_each = Integer(required=True)
    results = List(Nested(TwentyTwoResultSchema), required=True)


ROUND_SCHEMA_NAMES = {"jhyap": "JhyapRound", "twenty-two": "TwentyTwoRound"}
ENTRY_SCHEMA_NAMES = {"jhyap": "JhyapEntry", "twenty-two": "TwentyTwoEntry"}
ROUND_POST_SCHEMA_NAMES = {"jhyap": "JhyapRoundPost", "twenty-two": "TwentyTwoRoundPost"}


def one_of(names: dict[str, str]) -> dict[str, Any]:
    """A ``oneOf`` over component schemas, one per ruleset."""
    return {"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in names.values()]}


class ExportedRoundSchema(RequestSchema):
    """One round of an export: the accepted entry and the scored round."""

    class Meta:
        unknown = EXCLUDE

    number = Integer(required=True)
    entry = Dict(required=True)
    round = Dict(required=True)


class SetupSchema(RequestSchema):
    """Seats of round 1's dealer and starter."""

    dealer = Integer(required=True)
    starter = Integer(required=True)


class ExportedPlayerSchema(RequestSchema):
    """A player as exported."""

    class Meta:
        unknown = INCLUDE

    id = Integer(required=True)
    name = String(required=True)
    seat = Integer(required=True)


class ExportedGameSchema(RequestSchema):
    """The Game as exported, with its setup."""

    class Meta:
        unknown = INCLUDE

    ruleset = String(required=True, validate=RULESET_CHOICE)
    name = String(required=True)
    options = Dict(required=True)
    players = List(Nested(ExportedPlayerSchema), required=True)
    setup = Nested(SetupSchema, required=True)


class ExportSchema(RequestSchema):
    """A whole game that replays exactly."""

    class Meta:
        unknown = EXCLUDE

    format = String(
        required=True,
        validate=validate.Equal("scorekeeper.game", error="Must be scorekeeper.game."),
    )
    version = Integer(required=True, validate=validate.Equal(1, error="Must be 1."))
    exported_at = String()
    game = Nested(ExportedGameSchema, required=True)
    rounds = List(Nested(ExportedRoundSchema), required=True)

    @post_load
    def _exported_game(self, document: dict[str, Any], **kwargs: Any) -> ExportedGame:
        """The export as the domain replays it: its setup read as a new game's would be."""
        game = document["game"]
        players = sorted(game["players"], key=lambda player: player["seat"])
        ids = [player["id"] for player in players]
        seats = [player["seat"] for player in players]
        if seats != list(range(len(players))) or len(set(ids)) != len(ids):
            raise Invalid(
                "The export's players need distinct ids and seats 0, 1, 2 and so on.",
                code="invalid_import",
            )
        chooses_starter = RULESETS[game["ruleset"]].chooses_starter
        try:
            setup = game_create_schema.load(
                {
                    "ruleset": game["ruleset"],
                    "name": game["name"],
                    "players": [player["name"] for player in players],
                    "options": game["options"],
                    "dealer": game["setup"]["dealer"],
                    "starter": game["setup"]["starter"] if chooses_starter else None,
                }
            )
        except ValidationError as error:
            problem = validation_message(error.normalized_messages())
            raise Invalid(
                in_context("The export's game cannot be set up", problem), code="invalid_import"
            ) from None
        entry_schema = ENTRY_SCHEMAS[game["ruleset"]]()
        rounds = []
        for number, item in enumerate(document["rounds"], start=1):
            try:
                entry = entry_schema.load(item["entry"])
            except ValidationError:
                raise Invalid(
                    f"Round {number} of the export has a malformed entry.", code="invalid_import"
                ) from None
            rounds.append(ExportedRound(item["number"], entry, item["round"]))
        return ExportedGame(setup, ids, game, rounds)


class RulesetsSchema(Schema):
    """Every ruleset with its player limits and options."""

    rulesets = List(Dict(), required=True)


class HealthSchema(Schema):
    """The service and its database answer."""

    status = String(required=True)


class ErrorDetailSchema(Schema):
    """What went wrong."""

    status = Integer(required=True)
    code = String(required=True)
    message = String(required=True, metadata={"description": "One sentence for a person."})
    details = Dict(metadata={"description": "Field-by-field problems."})


class ErrorSchema(Schema):
    """The one error body."""

    error = Nested(ErrorDetailSchema, required=True)


game_create_schema = GameCreateSchema()
