"""marshmallow fields and a base schema whose problems are said in the table's words.

Every problem is a predicate ("Must be a whole number."), so that
``errors.validation_message`` can put the field's name in front of it and
make one sentence ("The total of hand 2 must be a whole number.").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from marshmallow import Schema, ValidationError, fields

from ..errors import UNKNOWN_FIELD
from ..names import joiners_inside, normalise_name, printable_name
from ..rules.words import Message
from ..security import NEW_ID, NEW_ID_LENGTH
from ..times import parse_time

COMMON_PROBLEMS = {
    "required": "Is missing.",
    "null": "Must have a value, not null.",
    "validator_failed": "Is not allowed.",
}


class RequestSchema(Schema):
    """A request body or part of one: an unknown field is refused in plain words."""

    error_messages = {  # noqa: RUF012 - marshmallow merges it per class
        "type": "Must be a JSON object.",
        "unknown": UNKNOWN_FIELD,
    }


class Integer(fields.Integer):
    """A JSON integer: numbers in strings, floats and booleans are refused."""

    default_error_messages = {  # noqa: RUF012 - marshmallow merges it per class
        **COMMON_PROBLEMS,
        "invalid": "Must be a whole number.",
        "too_large": "Is too large a number.",
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)


class AddressCount(fields.Integer):
    """A whole number of 0 or more written in the address: ASCII digits only, at most 10."""

    default_error_messages = {  # noqa: RUF012 - marshmallow merges it per class
        **COMMON_PROBLEMS,
        "invalid": "Must be a whole number, 0 or more.",
        "too_large": "Is too large a number.",
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**{**kwargs, "metadata": {"minimum": 0, **kwargs.get("metadata", {})}})

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        # str.isdigit alone takes other scripts' digits and int() takes "+1" and "1_0".
        if not isinstance(value, str) or not value.isascii() or not value.isdigit():
            raise self.make_error("invalid")
        if len(value) > 10:
            raise self.make_error("too_large")
        return int(value)


class String(fields.String):
    """A JSON string."""

    default_error_messages = {  # noqa: RUF012 - marshmallow merges it per class
        **COMMON_PROBLEMS,
        "invalid": "Must be text.",
        "invalid_utf8": "Must be text.",
    }


class Boolean(fields.Boolean):
    """``true`` or ``false`` (in a query, also ``1``/``0``, ``yes``/``no``...)."""

    default_error_messages = {  # noqa: RUF012 - marshmallow merges it per class
        **COMMON_PROBLEMS,
        "invalid": "Must be true or false.",
    }


class List(fields.List):
    """A JSON array."""

    default_error_messages = {  # noqa: RUF012 - marshmallow merges it per class
        **COMMON_PROBLEMS,
        "invalid": "Must be a list.",
    }


class Dict(fields.Dict):
    """A JSON object of any fields."""

    default_error_messages = {  # noqa: RUF012 - marshmallow merges it per class
        **COMMON_PROBLEMS,
        "invalid": "Must be a JSON object.",
    }


class Nested(fields.Nested):
    """A JSON object read by another schema."""

    default_error_messages = {  # noqa: RUF012 - marshmallow merges it per class
        **COMMON_PROBLEMS,
        "type": "Must be a JSON object.",
    }


class Time(fields.DateTime):
    """An RFC 3339 date-time with its zone (``2026-11-30T18:05:00Z``), read as a moment in UTC."""

    default_error_messages = {  # noqa: RUF012 - marshmallow merges it per class
        **COMMON_PROBLEMS,
        "invalid": "Must be a time like 2026-11-30T18:05:00Z.",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:
        moment = parse_time(value)
        if moment is None:
            raise self.make_error("invalid")
        return moment


class Name(String):
    """A name: trimmed, in NFC, of ``min_length`` to ``max_length`` printable characters (and
    joiners between them)."""

    def __init__(self, *, min_length: int = 0, max_length: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.min_length = min_length
        self.max_length = max_length

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = normalise_name(super()._deserialize(value, attr, data, **kwargs))
        if not self.min_length <= len(text) <= self.max_length:
            if self.min_length:
                raise ValidationError(
                    Message(
                        "Must be a name of {min} to {max} characters.",
                        min=self.min_length,
                        max=self.max_length,
                    )
                )
            raise ValidationError(
                Message("Must be at most {max} characters long.", max=self.max_length)
            )
        if not printable_name(text):
            raise ValidationError("Must use printable characters only.")
        if not joiners_inside(text):
            raise ValidationError("Must not begin or end with a zero-width joiner or non-joiner.")
        return text


class NewId(String):
    """The id a phone chose for a new game or table: as ``security.new_public_id`` makes them."""

    def __init__(self, **kwargs: Any) -> None:
        length = {"minLength": NEW_ID_LENGTH, "maxLength": NEW_ID_LENGTH}
        schema = {"pattern": f"^{NEW_ID.pattern}$", **length}
        super().__init__(**{**kwargs, "metadata": {**schema, **kwargs.get("metadata", {})}})

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not NEW_ID.fullmatch(text):
            raise ValidationError(
                Message(
                    "Must be {length} characters, each a letter, a digit, - or _.",
                    length=NEW_ID_LENGTH,
                )
            )
        return text
