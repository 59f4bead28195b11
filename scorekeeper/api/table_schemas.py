"""Request and response schemas of tables; the responses document what ``serializers`` builds."""

from __future__ import annotations

from typing import Any

from marshmallow import (
    EXCLUDE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validates_schema,
)

from ..domain.games import GameSetup
from ..domain.table_history import ExportedTable
from ..domain.tables import ROSTER_LIMIT, TableChange, TableGameSetup, TableSetup
from ..errors import Invalid
from ..names import first_clash
from ..rules import RULESETS
from ..rules.words import Message
from .fields import Dict, Integer, List, Name, Nested, RequestSchema, String
from .schemas import (
    NAME_LENGTH,
    RULESET_CHOICE,
    CreationSchema,
    ExportDocumentSchema,
    ExportSchema,
    GameCreateSchema,
    PlayerRenameSchema,
    export_format,
)

TABLE_NAME_LENGTH = 80
NAME_FIELD = Name(min_length=1, max_length=NAME_LENGTH)


def _unique_names(names: list[str], field_name: str) -> None:
    """A validation error if two of ``names`` are the same name."""
    if (clash := first_clash(names)) is not None:
        raise ValidationError(
            Message("Has the name {name} twice; give each player a different name.", name=clash[1]),
            field_name,
        )


class RosterSchema(List):
    """A list of new roster names, at most the roster's limit."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(Name(min_length=1, max_length=NAME_LENGTH), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        names = super()._deserialize(value, attr, data, **kwargs)
        if len(names) > ROSTER_LIMIT:
            raise ValidationError(Message("Must list at most {limit} players.", limit=ROSTER_LIMIT))
        return names


class TableCreateSchema(CreationSchema):
    """``POST /tables``."""

    name = Name(min_length=1, max_length=TABLE_NAME_LENGTH, required=True)
    players = RosterSchema(load_default=list, metadata={"description": "The first roster."})

    @validates_schema
    def _each_name_once(self, data: dict[str, Any], **kwargs: Any) -> None:
        _unique_names(data.get("players", []), "players")

    @post_load
    def _setup(self, data: dict[str, Any], **kwargs: Any) -> TableSetup:
        return TableSetup(name=data["name"], players=data["players"], made=self.made_offline(data))


class TablePatchSchema(RequestSchema):
    """``PATCH /tables/{id}``: rename the table or roster players, add roster players."""

    name = Name(min_length=1, max_length=TABLE_NAME_LENGTH)
    players = List(Nested(PlayerRenameSchema))
    add_players = RosterSchema()

    @validates_schema
    def _each_player_once(self, data: dict[str, Any], **kwargs: Any) -> None:
        ids = [change["id"] for change in data.get("players", [])]
        if (twice := next((i for i in ids if ids.count(i) > 1), None)) is not None:
            raise ValidationError(
                Message("Has player {id} twice; give each player's new name once.", id=twice),
                "players",
            )
        _unique_names(data.get("add_players", []), "add_players")

    @post_load
    def _change(self, data: dict[str, Any], **kwargs: Any) -> TableChange:
        return TableChange(
            name=data.get("name"),
            player_names={change["id"]: change["name"] for change in data.get("players", [])},
            new_players=data.get("add_players", []),
        )


class SeatField(fields.Field):
    """A seat of a game at a table: a roster player's id, or a new name."""

    default_error_messages = {  # noqa: RUF012 - marshmallow merges it per class
        "required": "Is missing.",
        "null": "Must have a value, not null.",
        "invalid": "Must be a roster player's id or a name.",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int | str:
        if isinstance(value, str):
            return NAME_FIELD.deserialize(value)
        return Integer().deserialize(value)


class TableGameCreateSchema(GameCreateSchema):
    """``POST /tables/{id}/games``: a game's setup, its players roster ids or new names."""

    players = List(
        SeatField(),
        required=True,
        metadata={"description": "Roster player ids or new names, in clockwise seating order."},
    )

    @validates_schema
    def _unique_names(self, data: dict[str, Any], **kwargs: Any) -> None:
        new_names = [seat for seat in data.get("players", []) if isinstance(seat, str)]
        _unique_names(new_names, "players")

    @post_load
    def _setup(self, data: dict[str, Any], **kwargs: Any) -> TableGameSetup:
        seats, made = data.pop("players"), self.made_offline(data)
        return TableGameSetup(GameSetup(players=[], made=made, **data), seats)


# Responses


class RosterPlayerSchema(Schema):
    """A player on the table's roster."""

    id = Integer(required=True)
    name = String(required=True)


class TableGameSchema(Schema):
    """A game in the table's list."""

    id = String(required=True)
    ruleset = String(required=True, validate=RULESET_CHOICE)
    name = String(required=True)
    status = String(required=True)
    players = List(Integer(), required=True, metadata={"description": "Roster ids by seat."})
    winners = List(Integer(), required=True, metadata={"description": "Roster ids."})
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


StandingSchema = Schema.from_dict(
    {
        "player": Integer(required=True, metadata={"description": "The roster player's id."}),
        "name": String(required=True),
        "games_played": Integer(
            required=True, metadata={"description": "Finished games they played a round in."}
        ),
        "games_won": Integer(required=True),
        "average_place": fields.Float(
            required=True,
            allow_none=True,
            metadata={
                "description": "Mean final place over those games (2 decimals); null before any."
            },
        ),
        **{
            name: Dict(metadata={"description": f"Figures over the {rules.title} games played."})
            for name, rules in RULESETS.items()
        },
    },
    name="TableStanding",
)
"""A roster player's figures over the table's games."""


class TableSchema(Schema):
    """The Table."""

    id = String(required=True)
    name = String(required=True)
    players = List(Nested(RosterPlayerSchema), required=True)
    games = List(Nested(TableGameSchema), required=True)
    standings = List(Nested(StandingSchema), required=True)
    created_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)


class CreatedTableSchema(TableSchema):
    """The Table just created, with its write token (shown only once)."""

    token = String(required=True)


class ExportedRosterPlayerSchema(RequestSchema):
    """A roster player as exported."""

    id = Integer(required=True)
    name = Name(min_length=1, max_length=NAME_LENGTH, required=True)


class ExportedTableSchema(RequestSchema):
    """The Table as exported: its name and roster."""

    class Meta:
        unknown = EXCLUDE

    name = Name(min_length=1, max_length=TABLE_NAME_LENGTH, required=True)
    players = List(Nested(ExportedRosterPlayerSchema), required=True)


class TableExportSchema(ExportDocumentSchema):
    """A whole table that replays exactly: its roster and every game's export."""

    format = export_format("scorekeeper.table")
    table = Nested(ExportedTableSchema, required=True)
    games = List(Nested(ExportSchema), required=True)

    @post_load
    def _exported_table(self, document: dict[str, Any], **kwargs: Any) -> ExportedTable:
        """The export as the domain replays it."""
        roster = [(player["id"], player["name"]) for player in document["table"]["players"]]
        ids = [player_id for player_id, _ in roster]
        if len(set(ids)) != len(ids):
            raise Invalid("The export's roster lists a player id twice.", code="invalid_import")
        if len(roster) > ROSTER_LIMIT:
            raise Invalid(
                Message("The export's roster has more than {limit} players.", limit=ROSTER_LIMIT),
                code="invalid_import",
            )
        if (clash := first_clash([name for _, name in roster])) is not None:
            raise Invalid(
                Message("The export's roster has the name {name} twice.", name=clash[1]),
                code="invalid_import",
            )
        return ExportedTable(document["table"]["name"], roster, document["games"])
