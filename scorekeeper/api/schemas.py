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
from ..domain.made_offline import MadeOffline
from ..domain.rounds import EntryReader, ReadEntry
from ..domain.seats import SeatChange
from ..domain.tables import RematchSetup
from ..errors import Invalid, validation_message
from ..names import first_clash
from ..rules import RULESETS
from ..rules.words import Message, in_context, listed
from ..security import NEW_ID_LENGTH
from .fields import (
    AddressCount,
    Boolean,
    Dict,
    Integer,
    List,
    Name,
    Nested,
    NewId,
    RequestSchema,
    String,
    Time,
)
from .rulesets import (
    RULESET_SCHEMAS,
    NextRoundSchema,
    entered_as,
    player_fields,
)
from .rulesets.base import StandingSchema, played_at_field

NAME_LENGTH = 40
MAX_STORED_NUMBER = 2**31 - 1  # the largest a database integer column holds
GAME_NAME_LENGTH = 80


class RulesetChoice(validate.OneOf):
    """A ruleset's name, one of the registry's; the problem names them all in words."""

    def _format_error(self, value: Any) -> str:
        return Message("Must be {names}.", names=listed([str(c) for c in self.choices], "or"))


RULESET_CHOICE = RulesetChoice(list(RULESETS))


# Requests


class CreationSchema(RequestSchema):
    """A request that creates a game or table, which a phone may have made with no network."""

    id = NewId(
        metadata={
            "description": "The id a phone chose for what it made with no network: "
            f"{NEW_ID_LENGTH} URL-safe characters of 128 random bits; 409 (id_taken) if a game "
            "or table has it. Absent: the service chooses."
        }
    )
    created_at = Time(
        metadata={
            "description": "When it was made on the phone: at most a minute ahead (taken as "
            "now) and at most a day ago. Absent: when it arrives."
        }
    )

    @staticmethod
    def made_offline(data: dict[str, Any]) -> MadeOffline:
        """Take ``id`` and ``created_at`` out of loaded ``data``, as what the phone chose."""
        return MadeOffline(id=data.pop("id", None), created_at=data.pop("created_at", None))


class RematchSchema(CreationSchema):
    """``POST /games/{id}/rematch``: no body, or the id and creation time a phone chose and
    round 1's starter."""

    starter = Integer(
        allow_none=True,
        load_default=None,
        metadata={
            "description": "Seat of round 1's starter in the new game (its seats: the players "
            "who did not leave, in their order), for a ruleset that lets the table choose one "
            "(chooses_starter in GET /api/v1/rulesets); random if absent."
        },
    )

    @post_load
    def _rematch(self, data: dict[str, Any], **kwargs: Any) -> RematchSetup:
        return RematchSetup(made=self.made_offline(data), starter=data["starter"])


class GameCreateSchema(CreationSchema):
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
        metadata={
            "description": "Seat of round 1's starter, for a ruleset that lets the table "
            "choose one (chooses_starter in GET /api/v1/rulesets); random if absent."
        },
    )
    options = Dict(keys=String(), load_default=dict)

    @post_load
    def _setup(self, data: dict[str, Any], **kwargs: Any) -> GameSetup:
        made = self.made_offline(data)
        return GameSetup(made=made, **data)

    @validates_schema
    def _unique_names(self, data: dict[str, Any], **kwargs: Any) -> None:
        if (clash := first_clash(data.get("players", []))) is not None:
            raise ValidationError(
                Message(
                    "Has the name {name} twice; give each player a different name.", name=clash[1]
                ),
                "players",
            )


class PlayerRenameSchema(RequestSchema):
    """One player's new name."""

    id = Integer(required=True)
    name = Name(min_length=1, max_length=NAME_LENGTH, required=True)


class GamePatchSchema(RequestSchema):
    """``PATCH /games/{id}``: rename the game or players, or end the game."""

    name = Name(max_length=GAME_NAME_LENGTH)
    players = List(Nested(PlayerRenameSchema))
    status = String(
        validate=validate.Equal("finished", error="Can only be finished; undo the end to play on."),
        metadata={
            "description": "finished: the table ends the game, if its ruleset and options let "
            "it (docs/rules.md); the end is an item of the history."
        },
    )

    @post_load
    def _change(self, data: dict[str, Any], **kwargs: Any) -> GameChange:
        names = {change["id"]: change["name"] for change in data.get("players", [])}
        return GameChange(name=data.get("name"), player_names=names, finish="status" in data)

    @validates_schema
    def _each_player_once(self, data: dict[str, Any], **kwargs: Any) -> None:
        ids = [change["id"] for change in data.get("players", [])]
        if (twice := next((i for i in ids if ids.count(i) > 1), None)) is not None:
            raise ValidationError(
                Message("Has player {id} twice; give each player's new name once.", id=twice),
                "players",
            )


class EntryBodySchema(Schema):
    """A round's entry, read by the schema of its game's ruleset once the game is known.

    The load gives a reader, which the domain calls with the game's ruleset after
    the token is checked and a resent key answered.
    """

    def schema_for(self, ruleset: str) -> Schema:
        """The schema that reads an entry of ``ruleset``."""
        return RULESET_SCHEMAS[ruleset].entry

    def load(self, data: Any, **kwargs: Any) -> EntryReader:
        return lambda game_ruleset: self.read(data, game_ruleset, **kwargs)

    def read(self, data: Any, game_ruleset: str, **kwargs: Any) -> ReadEntry:
        """The body read as an entry for a game of ``game_ruleset``: the round number the phone
        expects, when the round was played, and the entry."""
        try:
            loaded = self.schema_for(game_ruleset).load(data, **kwargs)
        except ValidationError:
            other = entered_as(data, game_ruleset)
            if other is None:
                raise
            game_title = RULESETS[game_ruleset].title
            raise Invalid(
                Message(
                    "This game is {game}, but the round was entered as {other}.",
                    game=Message(game_title),
                    other=Message(RULESETS[other].title),
                ),
                {"ruleset": [f"The game is {game_title}."]},
            ) from None
        number, played_at = loaded.pop("number", None), loaded.pop("played_at", None)
        return ReadEntry(loaded, number=number, played_at=played_at)


class RoundPostBodySchema(EntryBodySchema):
    """A round to record: its ruleset's entry, and the round number the phone expects."""

    def schema_for(self, ruleset: str) -> Schema:
        """The schema that reads a posted round of ``ruleset``."""
        return RULESET_SCHEMAS[ruleset].round_post


class JoinSchema(RequestSchema):
    """A newcomer: a new name, or a roster player at a table; and whom they sit after."""

    name = Name(min_length=1, max_length=NAME_LENGTH)
    player = Integer(metadata={"description": "A roster player's id (a game at a table)."})
    after = Integer(required=True, metadata={"description": "The id of the player to sit after."})

    @validates_schema
    def _name_or_player(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("name" in data) == ("player" in data):
            # Of the whole join: "The newcomer needs ..."
            raise ValidationError("Needs a name or a roster player id, one of the two.")


class SeatChangeBodySchema(RequestSchema):
    """``POST /games/{id}/seats``: someone joins, or someone leaves, between rounds."""

    join = Nested(JoinSchema)
    leave = Integer(metadata={"description": "The id of the player who leaves."})
    number = Integer(
        load_default=None,
        metadata={"description": "The number this change should take; 409 if another took it."},
    )
    played_at = played_at_field()

    @validates_schema
    def _join_or_leave(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("join" in data) == ("leave" in data):
            # Of the whole body, so in a sentence of its own (not after a field's name).
            raise Invalid(
                "Give join (a newcomer) or leave (a player who leaves), one of the two.",
                {"join": ["Give join or leave, one of the two."]},
            )

    @post_load
    def _change(self, data: dict[str, Any], **kwargs: Any) -> SeatChange:
        join = data.get("join", {})
        return SeatChange(
            join_name=join.get("name"),
            join_roster_id=join.get("player"),
            after=join.get("after"),
            leave=data.get("leave"),
            number=data["number"],
            played_at=data.get("played_at"),
        )


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


class HistoryQuerySchema(RequestSchema):
    """Query of ``GET .../rounds``, ignoring other parameters."""

    class Meta:
        unknown = EXCLUDE

    after = AddressCount(
        load_default=0,
        metadata={
            "description": "Only the history items numbered above this one (the last item the "
            "client holds); an empty list when there are none."
        },
    )


# Responses


PlayerSchema = Schema.from_dict(
    {
        "id": Integer(required=True),
        "name": String(required=True),
        "seat": Integer(required=True),
        "score": Integer(required=True),
        "eliminated": Boolean(required=True),
        "eliminated_in_round": Integer(required=True, allow_none=True),
        "left": Boolean(required=True, metadata={"description": "Left the game between rounds."}),
        "roster_id": Integer(
            required=True,
            allow_none=True,
            metadata={
                "description": "The table's roster player in this seat; null without a table."
            },
        ),
        **player_fields(),
    },
    name="PlayerSchema",
)
"""A player and their standing, with what their game's ruleset adds."""


class GameSchema(Schema):
    """The Game."""

    id = String(required=True)
    ruleset = String(required=True, validate=RULESET_CHOICE)
    name = String(required=True)
    table = String(
        required=True, allow_none=True, metadata={"description": "The table's id, or null."}
    )
    options = Dict(required=True)
    status = String(required=True, validate=validate.OneOf(["in_progress", "finished"]))
    players = List(Nested(PlayerSchema), required=True)
    rounds_played = Integer(required=True)
    next_round = Nested(NextRoundSchema, required=True, allow_none=True)
    winners = List(Integer(), required=True)
    history_revision = Integer(
        required=True,
        metadata={
            "description": "Changes when an existing history item is corrected or undone (not "
            "when one is added): a client holding another revision reads the history again."
        },
    )
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class DryRunGameSchema(GameSchema):
    """The Game as a seat change would leave it, on a dry run."""

    dry_run = Boolean(required=True, metadata={"description": "Always true: nothing was stored."})


class SeatChangeJoinSchema(Schema):
    """A join as the game's history shows it: the newcomer, whom they sit after, their score."""

    player = Integer(required=True, metadata={"description": "The newcomer's player id."})
    name = String(required=True)
    after = Integer(required=True, metadata={"description": "The id of the player sat after."})
    score = Integer(required=True, metadata={"description": "The score the newcomer starts on."})


class SeatChangeLeaveSchema(Schema):
    """A leave as the game's history shows it."""

    player = Integer(required=True, metadata={"description": "The id of the player who left."})


class SeatChangeDetailSchema(Schema):
    """A join or a leave."""

    join = Nested(SeatChangeJoinSchema)
    leave = Nested(SeatChangeLeaveSchema)


class SeatChangeItemSchema(Schema):
    """A seat change in the game's history, numbered with its rounds."""

    number = Integer(required=True)
    seat_change = Nested(SeatChangeDetailSchema, required=True)
    game = Nested(StandingSchema, required=True)
    created_at = fields.DateTime(required=True)


class EndItemSchema(Schema):
    """The end of a game by hand, in the game's history, numbered with its rounds."""

    number = Integer(required=True)
    end = Boolean(required=True, metadata={"description": "Always true."})
    game = Nested(StandingSchema, required=True)
    created_at = fields.DateTime(required=True)


class CreatedGameSchema(GameSchema):
    """The Game just created, with its write token (shown only once)."""

    token = String(required=True)


class ExportedRoundSchema(RequestSchema):
    """One round of an export: the accepted entry and the scored round."""

    class Meta:
        unknown = EXCLUDE

    number = Integer(required=True)
    entry = Dict(required=True)
    round = Dict(required=True)


class SetupSchema(RequestSchema):
    """Seats of round 1's dealer and starter (null where no seat starts by rule)."""

    dealer = Integer(required=True)
    starter = Integer(required=True, allow_none=True)


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
    history_revision = Integer(
        load_default=0,  # an export made before games had one
        validate=[
            validate.Range(min=0, error="Must be a whole number, 0 or more."),
            validate.Range(max=MAX_STORED_NUMBER, error="Is too large a number."),
        ],
    )


class ExportedJoinSchema(RequestSchema):
    """A join as a game's history shows it."""

    player = Integer(required=True)
    name = Name(min_length=1, max_length=NAME_LENGTH, required=True)
    after = Integer(required=True)
    score = Integer(required=True)


class ExportedLeaveSchema(RequestSchema):
    """A leave as a game's history shows it."""

    player = Integer(required=True)


class ExportedSeatChangeSchema(RequestSchema):
    """A seat change as a game's history shows it: a join or a leave."""

    join = Nested(ExportedJoinSchema)
    leave = Nested(ExportedLeaveSchema)

    @validates_schema
    def _join_or_leave(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("join" in data) == ("leave" in data):
            raise ValidationError("Give join or leave, one of the two.", "join")


def _seat_change(number: int, item: dict[str, Any]) -> dict[str, Any]:
    """Item ``number`` of an export, a seat change, checked: its ``seat_change``."""
    try:
        return exported_seat_change_schema.load(item["seat_change"])
    except ValidationError:
        raise Invalid(
            Message("Item {number} of the export is a malformed seat change.", number=number),
            code="invalid_import",
        ) from None


def _exported_entry(item: dict[str, Any], entry_schema: Schema) -> Any:
    """An exported history item's entry, checked: a round's by its ruleset's schema."""
    if "seat_change" in item["round"]:
        return item["entry"]
    if item["round"].get("end"):
        if item["entry"] != {"end": True}:
            raise ValidationError("The end of a game has the entry {end: true}.")
        return item["entry"]
    return entry_schema.load(item["entry"])


def export_format(name: str) -> String:
    """The ``format`` field of an export document: exactly ``name``."""
    return String(required=True, validate=validate.Equal(name, error=f"Must be {name}."))


class ExportDocumentSchema(RequestSchema):
    """What every export document has: its version and when it was made (fields it lacks are
    ignored, since exports may gain fields)."""

    class Meta:
        unknown = EXCLUDE

    version = Integer(required=True, validate=validate.Equal(1, error="Must be 1."))
    exported_at = String()


class ExportSchema(ExportDocumentSchema):
    """A whole game that replays exactly."""

    format = export_format("scorekeeper.game")
    game = Nested(ExportedGameSchema, required=True)
    rounds = List(Nested(ExportedRoundSchema), required=True)

    @post_load
    def _exported_game(self, document: dict[str, Any], **kwargs: Any) -> ExportedGame:
        """The export as the domain replays it: its setup read as a new game's would be."""
        game = document["game"]
        everyone = sorted(game["players"], key=lambda player: player["seat"])
        ids = [player["id"] for player in everyone]
        seats = [player["seat"] for player in everyone]
        if seats != list(range(len(everyone))) or len(set(ids)) != len(ids):
            raise Invalid(
                "The export's players need distinct ids and seats 0, 1, 2 and so on.",
                code="invalid_import",
            )
        changes = [
            _seat_change(number, item["round"])
            for number, item in enumerate(document["rounds"], start=1)
            if "seat_change" in item["round"]
        ]
        joined = {change["join"]["player"] for change in changes if "join" in change}
        # The players the game began with: joins only ever add seats between them.
        players = [player for player in everyone if player["id"] not in joined]
        ids = [player["id"] for player in players]
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
        entry_schema = RULESET_SCHEMAS[game["ruleset"]].entry
        rounds = []
        for number, item in enumerate(document["rounds"], start=1):
            try:
                entry = _exported_entry(item, entry_schema)
            except ValidationError:
                raise Invalid(
                    Message("Round {number} of the export has a malformed entry.", number=number),
                    code="invalid_import",
                ) from None
            rounds.append(ExportedRound(item["number"], entry, item["round"]))
        roster_ids = {player["id"]: player.get("roster_id") for player in everyone}
        return ExportedGame(setup, ids, game, rounds, roster_ids)


class RulesetSchema(Schema):
    """A ruleset: its limits and options, and what a page needs to draw its entry and results."""

    name = String(required=True)
    title = String(required=True)
    min_players = Integer(required=True)
    max_players = Integer(required=True)
    chooses_starter = Boolean(required=True)
    options = Dict(
        required=True,
        metadata={"description": "Each option's description, default and allowed values."},
    )
    entry = Dict(
        required=True,
        metadata={
            "description": "The entry's kind (caller_and_totals, one_card_each, "
            "hearts_and_queen, points) and its bounds."
        },
    )
    results = Dict(
        required=True,
        metadata={
            "description": "column: the field each result adds (hand, card, taken), or null."
        },
    )
    summary = String(
        required=True,
        allow_none=True,
        metadata={"description": "The kind of a round's one-line summary (call, trick, moon)."},
    )
    starter = String(
        required=True,
        allow_none=True,
        metadata={"description": "How the next round's starter is named (starts, leads), or null."},
    )
    next_round = List(String(), required=True, metadata={"description": "Its own fields shown."})
    player = List(String(), required=True, metadata={"description": "Players' own fields shown."})
    limit = String(
        required=True,
        allow_none=True,
        metadata={"description": "The option whose value the totals are counted towards."},
    )
    figures = List(
        Dict(),
        required=True,
        metadata={
            "description": "Its figures in a table's standings, in order: name, the page's "
            "words for it, and of (the figure it is a part of), if any."
        },
    )


class RulesetsSchema(Schema):
    """Every ruleset with its player limits and options."""

    rulesets = List(Nested(RulesetSchema), required=True)


class HealthSchema(Schema):
    """The service and its database answer."""

    status = String(required=True)


class ErrorDetailSchema(Schema):
    """What went wrong."""

    status = Integer(required=True)
    code = String(required=True)
    message = String(
        required=True,
        metadata={
            "description": "One sentence for a person, in the language of Accept-Language "
            "(en, fil, bn or ne; English otherwise)."
        },
    )
    details = Dict(metadata={"description": "Field-by-field problems."})


class ErrorSchema(Schema):
    """The one error body."""

    error = Nested(ErrorDetailSchema, required=True)


game_create_schema = GameCreateSchema()
exported_seat_change_schema = ExportedSeatChangeSchema()
